//! Small identifier types shared by the engine, the protocol and the log.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A seat at a table: 0 for the first player, 1 for the second, and so on.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct SeatId(pub u8);

impl fmt::Display for SeatId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// Who is looking at a state or an event. Every snapshot and delta that
/// leaves the server passes through the ruleset's view for one of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Viewer {
    /// A seated player: sees the public state plus what their seat owns.
    Seat(SeatId),
    /// A spectator: sees only the public state.
    Spectator,
    /// The server, the match log and post-game replays: sees everything.
    Referee,
}

/// A 32-byte blake3 output: chain links, anchors, digests.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default)]
pub struct Hash32(pub [u8; 32]);

impl Hash32 {
    pub fn hex(&self) -> String {
        hex::encode(self.0)
    }
}

impl From<blake3::Hash> for Hash32 {
    fn from(h: blake3::Hash) -> Self {
        Hash32(*h.as_bytes())
    }
}

impl fmt::Debug for Hash32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Eight hex digits are enough to tell values apart in logs and test output.
        write!(f, "{}…", &self.hex()[..8])
    }
}

impl fmt::Display for Hash32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.hex())
    }
}

/// A match's identity; part of every dice derivation so that two matches
/// never share a stream even if their chains collided.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub struct MatchId(pub [u8; 16]);

impl MatchId {
    /// A fresh random id from the operating system's generator.
    pub fn random() -> Self {
        let mut id = [0u8; 16];
        getrandom::fill(&mut id).expect("the OS random generator is available");
        MatchId(id)
    }
}

impl fmt::Debug for MatchId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&hex::encode(self.0))
    }
}

impl fmt::Display for MatchId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&hex::encode(self.0))
    }
}
