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
///
/// Encoded as one byte string (a length byte, then the 32 bytes) rather
/// than serde's default of 32 separate elements: every roll proof carries
/// four of these, and decoding them element by element cost more than the
/// rest of a delta together.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Hash32(pub [u8; 32]);

impl Serialize for Hash32 {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

impl<'de> Deserialize<'de> for Hash32 {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_bytes(FixedBytes::<32>).map(Hash32)
    }
}

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
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct MatchId(pub [u8; 16]);

impl Serialize for MatchId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

impl<'de> Deserialize<'de> for MatchId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_bytes(FixedBytes::<16>).map(MatchId)
    }
}

/// Reads exactly `N` bytes, given as a byte string (compact formats) or a
/// sequence (self-describing ones).
struct FixedBytes<const N: usize>;

impl<'de, const N: usize> serde::de::Visitor<'de> for FixedBytes<N> {
    type Value = [u8; N];

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{N} bytes")
    }

    fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<[u8; N], E> {
        v.try_into().map_err(|_| E::invalid_length(v.len(), &self))
    }

    fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> Result<[u8; N], E> {
        self.visit_bytes(&v)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<[u8; N], A::Error> {
        let mut out = [0u8; N];
        for (i, b) in out.iter_mut().enumerate() {
            *b = seq
                .next_element()?
                .ok_or_else(|| serde::de::Error::invalid_length(i, &self))?;
        }
        Ok(out)
    }
}

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
