//! The per-action dice stream: every roll an action needs comes from one
//! blake3 XOF keyed by both parties' chain links, read with rejection
//! sampling so every face is exactly equally likely. `docs/dice.md` gives
//! the same derivation byte by byte for independent verifiers.

use super::proof::SeatLink;
use crate::ids::{Hash32, MatchId};
use serde::{Deserialize, Serialize};

/// blake3 derive-key context for dice streams.
pub const DICE_CONTEXT: &str = "muster dice v1";
/// blake3 derive-key context for action digests.
pub const ACTION_CONTEXT: &str = "muster action v1";

/// One die as rolled: how many sides, and the face (1..=sides).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Die {
    pub sides: u16,
    pub value: u16,
}

/// The digest of an encoded action, bound into its dice so that changing the
/// action after the roll changes every die.
pub fn action_digest(action_bytes: &[u8]) -> Hash32 {
    let mut h = blake3::Hasher::new_derive_key(ACTION_CONTEXT);
    h.update(action_bytes);
    h.finalize().into()
}

/// Everything one roll's stream is derived from.
#[derive(Clone, Copy, Debug)]
pub struct RollInput<'a> {
    pub match_id: MatchId,
    /// The log sequence number of the action.
    pub seq: u64,
    /// Which roll of the match this is (1, 2, …); also the server link's index.
    pub roll_index: u64,
    pub action_digest: Hash32,
    pub server_link: Hash32,
    /// Seat links mixed in, in ascending seat order.
    pub seat_links: &'a [SeatLink],
}

impl RollInput<'_> {
    /// The exact bytes hashed, as documented in `docs/dice.md` §3.
    pub fn material(&self) -> Vec<u8> {
        let mut m = Vec::with_capacity(16 + 8 + 8 + 32 + 32 + 1 + self.seat_links.len() * 37);
        m.extend_from_slice(&self.match_id.0);
        m.extend_from_slice(&self.seq.to_le_bytes());
        m.extend_from_slice(&self.roll_index.to_le_bytes());
        m.extend_from_slice(&self.action_digest.0);
        m.extend_from_slice(&self.server_link.0);
        // At most 255 seats can contribute; proofs with more are refused earlier.
        m.push(self.seat_links.len().min(255) as u8);
        for l in self.seat_links.iter().take(255) {
            m.push(l.seat.0);
            m.extend_from_slice(&l.index.to_le_bytes());
            m.extend_from_slice(&l.link.0);
        }
        m
    }
}

/// A stream of unbiased dice for one action.
pub struct DiceStream {
    reader: blake3::OutputReader,
    buf: [u8; 256],
    pos: usize,
    drawn: Vec<Die>,
}

impl DiceStream {
    pub fn new(input: &RollInput<'_>) -> Self {
        let mut h = blake3::Hasher::new_derive_key(DICE_CONTEXT);
        h.update(&input.material());
        Self::from_reader(h.finalize_xof())
    }

    fn from_reader(reader: blake3::OutputReader) -> Self {
        DiceStream {
            reader,
            buf: [0; 256],
            pos: 256,
            drawn: Vec::new(),
        }
    }

    /// A stream keyed by raw bytes, for tests and benchmarks that need many
    /// dice without building chains.
    pub fn from_seed(seed: &[u8]) -> Self {
        let mut h = blake3::Hasher::new_derive_key(DICE_CONTEXT);
        h.update(seed);
        Self::from_reader(h.finalize_xof())
    }

    #[inline]
    fn byte(&mut self) -> u8 {
        if self.pos == self.buf.len() {
            self.reader.fill(&mut self.buf);
            self.pos = 0;
        }
        let b = self.buf[self.pos];
        self.pos += 1;
        b
    }

    /// Roll one die with `sides` faces (2..=65535), recording it.
    ///
    /// Up to 256 sides: read one byte `b`, accept when
    /// `b < 256 - 256 % sides`, face `b % sides + 1`. Above 256 sides: the same
    /// with two bytes read as a little-endian u16 against 65536. Rejected
    /// bytes are skipped, so every face has exactly the same probability.
    pub fn roll(&mut self, sides: u16) -> u16 {
        let sides = sides.max(2);
        let value = if sides <= 256 {
            let s = u32::from(sides);
            let zone = 256 - 256 % s;
            loop {
                let b = u32::from(self.byte());
                if b < zone {
                    break (b % s) as u16 + 1;
                }
            }
        } else {
            let s = u32::from(sides);
            let zone = 65536 - 65536 % s;
            loop {
                let v = u32::from(u16::from_le_bytes([self.byte(), self.byte()]));
                if v < zone {
                    break (v % s) as u16 + 1;
                }
            }
        };
        self.drawn.push(Die { sides, value });
        value
    }

    /// The dice rolled so far, in order.
    pub fn drawn(&self) -> &[Die] {
        &self.drawn
    }

    pub fn into_drawn(self) -> Vec<Die> {
        self.drawn
    }

    /// Forget the record of drawn dice (benchmarks and bulk statistics).
    pub fn clear_drawn(&mut self) {
        self.drawn.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_input_same_dice_and_any_change_differs() {
        let links = [SeatLink {
            seat: crate::SeatId(0),
            index: 1,
            link: Hash32([7; 32]),
        }];
        let base = RollInput {
            match_id: MatchId([1; 16]),
            seq: 3,
            roll_index: 1,
            action_digest: Hash32([2; 32]),
            server_link: Hash32([3; 32]),
            seat_links: &links,
        };
        let roll20 = |input: &RollInput| {
            let mut s = DiceStream::new(input);
            (0..20).map(|_| s.roll(6)).collect::<Vec<_>>()
        };
        let a = roll20(&base);
        assert_eq!(a, roll20(&base));
        assert_ne!(a, roll20(&RollInput { seq: 4, ..base }));
        assert_ne!(
            a,
            roll20(&RollInput {
                roll_index: 2,
                ..base
            })
        );
        assert_ne!(
            a,
            roll20(&RollInput {
                action_digest: Hash32([9; 32]),
                ..base
            })
        );
        assert_ne!(
            a,
            roll20(&RollInput {
                server_link: Hash32([9; 32]),
                ..base
            })
        );
        assert_ne!(
            a,
            roll20(&RollInput {
                seat_links: &[],
                ..base
            })
        );
    }

    #[test]
    fn faces_stay_in_range_for_odd_sizes() {
        let mut s = DiceStream::from_seed(b"range");
        for sides in [2u16, 3, 6, 7, 10, 20, 100, 255, 256, 257, 1000, 65535] {
            for _ in 0..200 {
                let v = s.roll(sides);
                assert!((1..=sides).contains(&v), "d{sides} gave {v}");
            }
        }
    }
}
