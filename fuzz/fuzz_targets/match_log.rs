//! Any bytes given to `muster-server verify` as a match log file: the
//! reader must not panic or allocate past the file limit, and a sandbox
//! log that reads is verified (replayed, every roll checked) without a
//! panic. GBACW logs are read but not replayed here: building a battle
//! for every input would slow the search a thousandfold.
#![no_main]

use libfuzzer_sys::fuzz_target;
use muster_shared::engine::{MatchLog, verify_log};

fuzz_target!(|data: &[u8]| {
    if let Ok(log) = MatchLog::from_file_bytes(data) {
        if log.header.ruleset == "sandbox" {
            let _ = verify_log(&log);
        }
        let _ = log.to_file_bytes();
    }
});
