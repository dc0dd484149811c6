//! Any bytes a client can send: the server's decoder must answer with a
//! message or an error, never panic, and never allocate past the limit it
//! is given (run with `-malloc_limit_mb`). What decodes encodes back to
//! bytes that decode to the same message.
#![no_main]

use libfuzzer_sys::fuzz_target;
use muster_shared::protocol::ClientMsg;

fuzz_target!(|data: &[u8]| {
    if let Ok(msg) = ClientMsg::decode(data) {
        let again = msg.encode().expect("a decoded message encodes");
        assert_eq!(ClientMsg::decode(&again).expect("and decodes again"), msg);
    }
});
