//! Any bytes a server (or a man in the middle of a plain WebSocket) can
//! send: the client's decoder must not panic or allocate past its limit.
#![no_main]

use libfuzzer_sys::fuzz_target;
use muster_shared::protocol::ServerMsg;

fuzz_target!(|data: &[u8]| {
    if let Ok(msg) = ServerMsg::decode(data) {
        let again = msg.encode().expect("a decoded message encodes");
        assert_eq!(ServerMsg::decode(&again).expect("and decodes again"), msg);
    }
});
