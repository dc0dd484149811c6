//! `muster-server verify LOG`: the standalone verifier.

use muster_shared::codec::MAX_LOG_FILE;
use muster_shared::engine::{MatchLog, verify_log};
use std::io::Read;
use std::path::Path;
use std::process::ExitCode;

pub fn run(path: &Path) -> ExitCode {
    let bytes = match read_bounded(path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("cannot read {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    let log = match MatchLog::from_file_bytes(&bytes) {
        Ok(log) => log,
        Err(e) => {
            eprintln!("{} is not a readable match log: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    println!(
        "match {} ({}), {} seats",
        log.header.match_id,
        log.header.ruleset,
        log.header.seats.len()
    );
    let report = verify_log(&log);
    println!("{report}");
    if report.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Read at most [`MAX_LOG_FILE`] bytes; a longer file is refused, not truncated.
fn read_bounded(path: &Path) -> std::io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(MAX_LOG_FILE as u64 + 1).read_to_end(&mut bytes)?;
    if bytes.len() > MAX_LOG_FILE {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("larger than the {MAX_LOG_FILE}-byte limit"),
        ));
    }
    Ok(bytes)
}
