//! The wire protocol: what clients and the server say to each other.
//!
//! Both transports carry the same messages, encoded by [`crate::codec`]:
//! one message per WebSocket binary frame, or length-prefixed frames on a
//! QUIC stream. The first client message must be [`ClientMsg::Hello`] with
//! [`PROTOCOL_VERSION`]; the server answers [`ServerMsg::Welcome`] or a
//! [`ErrorCode::VersionMismatch`] error and closes.
//!
//! Ruleset payloads (actions, events, states, configs) travel as bytes
//! encoded with the same codec and tagged by the table's ruleset id, so the
//! protocol does not change when a ruleset is added, and the server can
//! encode one delta per viewer class and send the same bytes to every
//! spectator.

pub mod club;
mod messages;

pub use messages::*;

use crate::codec::{self, DecodeError, EncodeError};

/// Bumped on every incompatible change to the messages below.
/// 2: chat lines and lobby seats carry the identity; sessions can be
/// listed, added and revoked (issue 20).
/// 3: an event's settings name a battle per round, and the event's view
/// lists them (issue 21; the settings struct grew a field, which older
/// clients could not decode).
/// 4: compact spectator deltas name a roll's action by its events
/// (`ActionRef::FromEvents`, appended) and leave out the seats of a roll
/// that mixed in the actor's link alone (`LeanRoll::seats` is an
/// `Option`), issue 22: an old client could not decode either.
/// 5: a lobby entry says where a table carried on from a saved game
/// began (`TableSummary::carried_from`, appended; issue 18).
pub const PROTOCOL_VERSION: u32 = 5;

impl ClientMsg {
    pub fn encode(&self) -> Result<Vec<u8>, EncodeError> {
        codec::encode(self)
    }
    /// Decode one client message, bounded by [`codec::MAX_CLIENT_MSG`].
    pub fn decode(bytes: &[u8]) -> Result<Self, DecodeError> {
        codec::decode(bytes, codec::MAX_CLIENT_MSG)
    }
}

impl ServerMsg {
    pub fn encode(&self) -> Result<Vec<u8>, EncodeError> {
        codec::encode(self)
    }
    /// Decode one server message, bounded by [`codec::MAX_SERVER_MSG`].
    pub fn decode(bytes: &[u8]) -> Result<Self, DecodeError> {
        codec::decode(bytes, codec::MAX_SERVER_MSG)
    }
}
