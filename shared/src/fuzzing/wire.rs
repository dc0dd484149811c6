//! The byte decoders a peer or a file feeds: client messages (what the
//! server reads), server messages (what the client reads) and match log
//! files (what `muster-server verify` reads).

use super::alloc_guard::limited;
use crate::codec;
use crate::engine::{MatchLog, verify_log};
use crate::protocol::{ClientMsg, ServerMsg};

/// The largest single allocation a decode may make: serde reserves at most
/// 1 MiB up front for a sequence whatever length it claims, and bincode's
/// budget for strings is at most twice the input's size tier, tiers a
/// factor of 4 apart (`codec::decode`): proportional to the input, never
/// to what the input claims.
pub(crate) fn decode_ceiling(input: usize) -> usize {
    input.saturating_mul(8).max(1 << 20)
}

/// Any bytes a client can send: the server's decoder answers with a
/// message or an error, never panics. What decodes encodes back to bytes
/// that decode to the same message.
pub fn client_msg(data: &[u8]) {
    let decoded = limited(
        decode_ceiling(codec::MAX_CLIENT_MSG),
        "client message",
        || ClientMsg::decode(data),
    );
    if let Ok(msg) = decoded {
        let again = msg.encode().expect("a decoded message encodes");
        assert_eq!(ClientMsg::decode(&again).expect("and decodes again"), msg);
    }
}

/// Any bytes a server (or a man in the middle of a plain WebSocket) can
/// send: the client's decoder never panics.
pub fn server_msg(data: &[u8]) {
    let decoded = limited(decode_ceiling(data.len()), "server message", || {
        ServerMsg::decode(data)
    });
    if let Ok(msg) = decoded {
        let again = msg.encode().expect("a decoded message encodes");
        assert_eq!(ServerMsg::decode(&again).expect("and decodes again"), msg);
    }
}

/// Any bytes given to `muster-server verify` as a match log file: the
/// reader never panics, and a sandbox log that reads is verified
/// (replayed, every roll checked) without a panic. GBACW logs are read but
/// not replayed here (building a battle per input would slow the search a
/// thousandfold; `gbacw_match` drives that engine instead).
pub fn match_log(data: &[u8]) {
    let read = limited(decode_ceiling(data.len()), "match log", || {
        MatchLog::from_file_bytes(data)
    });
    if let Ok(log) = read {
        if log.header.ruleset == "sandbox" {
            let _ = verify_log(&log);
        }
        let _ = log.to_file_bytes();
    }
}
