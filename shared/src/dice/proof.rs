//! What a roll publishes, and the book-keeping that checks it.
//!
//! A [`RollProof`] travels in the delta of the action that rolled and sits in
//! the match log. Anyone holding the anchors can check it with a
//! [`ChainBook`]: each revealed link must be the next link of its party's
//! chain, and the dice must be exactly what the derivation gives.

use super::chain::{ChainAnchor, MAX_CHAIN_LEN, link_follows};
use super::stream::{DiceStream, Die, RollInput, action_digest};
use crate::ids::{Hash32, MatchId, SeatId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// Whose chain: the server's or a seat's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Party {
    Server,
    Seat(SeatId),
}

impl fmt::Display for Party {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Party::Server => f.write_str("server"),
            Party::Seat(s) => write!(f, "{s}"),
        }
    }
}

/// A seat's revealed chain link: link number `index` of that seat's current chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatLink {
    pub seat: SeatId,
    pub index: u32,
    pub link: Hash32,
}

/// Everything needed to recompute one action's dice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollProof {
    /// 1 for the match's first roll, then 2, 3, … with no gaps.
    pub roll_index: u64,
    /// The server's link number within its current chain.
    pub server_index: u32,
    pub server_link: Hash32,
    /// The acting seat's link, plus any other seat's mixed in; ascending seat order.
    pub seat_links: Vec<SeatLink>,
    /// Digest of the encoded action (see [`action_digest`]); lets a viewer
    /// who may not see the action itself still check the dice.
    pub action_digest: Hash32,
    /// The dice the resolution drew, in order.
    pub dice: Vec<Die>,
}

impl RollProof {
    /// The derivation input for this proof at log position `seq`.
    pub fn input(&self, match_id: MatchId, seq: u64) -> RollInput<'_> {
        RollInput {
            match_id,
            seq,
            roll_index: self.roll_index,
            action_digest: self.action_digest,
            server_link: self.server_link,
            seat_links: &self.seat_links,
        }
    }

    /// Recompute the dice from the links, rolling the same sizes in the same order.
    pub fn derive_dice(&self, match_id: MatchId, seq: u64) -> Vec<Die> {
        let mut stream = DiceStream::new(&self.input(match_id, seq));
        for d in &self.dice {
            stream.roll(d.sides);
        }
        stream.into_drawn()
    }
}

/// How a compact roll names its action: by the action's bytes when the
/// viewer may see the action (it computes the digest), else by the digest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ActionRef {
    Bytes(#[serde(with = "serde_bytes")] Vec<u8>),
    Digest(Hash32),
    /// The viewer may see the action and rebuilds it from the delta's own
    /// events (`Ruleset::action_from_events`), encodes it and computes the
    /// digest: nothing travels for it but this tag (issue 22, protocol 4).
    /// Sent only when the rebuilt action's bytes are the logged ones.
    FromEvents,
}

/// A roll proof with everything left out that the viewer can compute or
/// will be shown later (issue 22). The roll number and every link number
/// are each the next one; the links themselves come in `reveal`, on this
/// roll or on a later one: a later link of a chain gives every earlier one
/// by hashing (`x_{i-1} = blake3(x_i)`), so one link every few rolls lets
/// a viewer check all of them, a few rolls late. Rebuilt into a full
/// [`RollProof`] and checked with [`ChainBook::check_roll`] once its links
/// are known (`client/src/follow.rs`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeanRoll {
    pub action: ActionRef,
    /// The seats whose links were mixed in, ascending (the full proof's
    /// `seat_links` without their numbers and links); `None` when that is
    /// the acting seat alone, the usual case (protocol 4: one byte less).
    pub seats: Option<Vec<SeatId>>,
    /// The dice, when the viewer's events do not show them
    /// (`Ruleset::dice_shown`); `None` when they do.
    pub dice: Option<Vec<Die>>,
    /// Links shown with this entry: each is its party's latest link (the
    /// one this roll used, for the parties in it). Server first, then
    /// seats ascending.
    pub reveal: Vec<(Party, Hash32)>,
}

/// Why a roll, or an anchor, failed verification. Each says what is wrong in
/// words a player can act on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum RollFailure {
    #[error(
        "roll number {got} where {expected} was expected (rolls reordered, dropped or inserted)"
    )]
    RollOutOfOrder { expected: u64, got: u64 },
    #[error("{party} has published no chain anchor")]
    NoAnchor { party: Party },
    #[error("{party} link number {got} where {expected} was expected (links reordered or skipped)")]
    LinkOutOfOrder {
        party: Party,
        expected: u32,
        got: u32,
    },
    #[error("{party} link {index} does not hash to link {} (tampered or forged)", index - 1)]
    LinkBroken { party: Party, index: u32 },
    #[error("{party} link {index} is past the end of its {len}-link chain")]
    ChainExhausted { party: Party, index: u32, len: u32 },
    #[error("{party} re-anchored its chain before using it up ({used} of {len} links)")]
    EarlyServerAnchor { party: Party, used: u32, len: u32 },
    #[error("a chain of {len} links is outside the 1 to {max} allowed")]
    ChainTooLong { len: u32, max: u32 },
    #[error("seat links are not in ascending seat order or repeat a seat")]
    SeatLinksUnordered,
    #[error("the acting {seat} did not reveal a link for its own roll")]
    ActorLinkMissing { seat: SeatId },
    #[error("action digest does not match the logged action (action changed after its roll)")]
    ActionChanged,
    #[error("die {die}: the log says {logged}, the links derive {derived}")]
    DieMismatch {
        die: usize,
        logged: u16,
        derived: u16,
    },
    #[error("the events show dice {shown:?} but the proof derives {proved:?}")]
    ShownDiceDiffer { shown: Vec<Die>, proved: Vec<Die> },
    #[error("an anchor was published for {seat} that this client did not make")]
    ForeignAnchor { seat: SeatId },
    #[error("{party} started a new chain before showing the links of its last rolls")]
    Unrevealed { party: Party },
    #[error("a link was shown for {party}, which has no roll waiting for it")]
    UnexpectedReveal { party: Party },
    #[error("the ruleset rolled {derived} dice where the log records {logged}")]
    DiceCountMismatch { logged: usize, derived: usize },
    #[error("die {die}: d{logged_sides} in the log, but the ruleset rolled a d{derived_sides}")]
    DieSidesMismatch {
        die: usize,
        logged_sides: u16,
        derived_sides: u16,
    },
}

/// The public state of one chain: what a snapshot carries so a client that
/// joins mid-game can check the next roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChainHeadState {
    pub party: Party,
    pub anchor: ChainAnchor,
    /// Links revealed so far.
    pub index: u32,
    /// The last link revealed, or the anchor when none.
    pub link: Hash32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Head {
    anchor: ChainAnchor,
    /// The last link revealed (verified or not) and its number.
    index: u32,
    link: Hash32,
    /// The last link known good. Equal to the above in any honest game;
    /// after a tampered link, the next genuine one is checked against this
    /// so that one tampered link is reported once.
    good_index: u32,
    good_link: Hash32,
}

/// How far past the last good link a new link is traced back. Keeps a log
/// full of bad links from costing quadratic hashing to verify.
const MAX_CATCH_UP: u32 = 16;

impl Head {
    fn new(anchor: ChainAnchor, index: u32, link: Hash32) -> Self {
        Head {
            anchor,
            index,
            link,
            good_index: index,
            good_link: link,
        }
    }

    /// Whether `link`, number `index`, descends from the last good link.
    fn descends(&self, index: u32, link: Hash32) -> bool {
        let steps = index - self.good_index;
        if steps > MAX_CATCH_UP {
            return link_follows(&self.link, &link);
        }
        let mut x = link;
        for _ in 1..steps {
            x = Hash32::from(blake3::hash(&x.0));
        }
        link_follows(&self.good_link, &x)
    }
}

/// The public state of every chain in a match: anchors and the last link
/// revealed. Clients keep one to check each delta; the verifier keeps one to
/// check a whole log.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChainBook {
    heads: BTreeMap<Party, Head>,
    rolls: u64,
}

impl ChainBook {
    pub fn new() -> Self {
        Self::default()
    }

    /// Rebuild a book from a snapshot's chain heads: for each party its
    /// anchor, how many links it has revealed, and the last one (the anchor
    /// itself when none).
    pub fn from_heads(heads: impl IntoIterator<Item = ChainHeadState>, rolls: u64) -> Self {
        ChainBook {
            heads: heads
                .into_iter()
                .map(|h| (h.party, Head::new(h.anchor, h.index, h.link)))
                .collect(),
            rolls,
        }
    }

    /// Every chain's public state, for snapshots.
    pub fn heads(&self) -> Vec<ChainHeadState> {
        self.heads
            .iter()
            .map(|(party, h)| ChainHeadState {
                party: *party,
                anchor: h.anchor,
                index: h.index,
                link: h.link,
            })
            .collect()
    }

    /// How many rolls have been checked so far.
    pub fn rolls(&self) -> u64 {
        self.rolls
    }

    /// Count roll number `roll_index` whose links this book has already
    /// checked one by one with [`Self::reveal`] — the server's own apply
    /// path, which draws the dice from the proof's stream itself. What
    /// [`Self::check_roll`] would add there is the same hashing a second
    /// time (links, action digest, dice); the verifier and every client
    /// still run `check_roll` on what the server logged and sent.
    pub fn count_revealed_roll(&mut self, roll_index: u64) {
        self.rolls = roll_index;
    }

    /// The next link number `party` must reveal, if it has a chain.
    pub fn next_index(&self, party: Party) -> Option<u32> {
        self.heads.get(&party).map(|h| h.index + 1)
    }

    /// The last link `party` revealed (its anchor when none), if it has a chain.
    pub fn last_link(&self, party: Party) -> Option<Hash32> {
        self.heads.get(&party).map(|h| h.link)
    }

    /// Links `party` has left in its current chain.
    pub fn remaining(&self, party: Party) -> u32 {
        self.heads.get(&party).map_or(0, |h| h.anchor.len - h.index)
    }

    /// Record a published anchor. A seat may re-anchor at any time (a new
    /// device, an exhausted chain): its links are useless to it without the
    /// server's. The server may re-anchor only once its chain is used up,
    /// so it can never swap chains after seeing a player's link.
    pub fn anchor(&mut self, party: Party, anchor: ChainAnchor) -> Result<(), RollFailure> {
        if anchor.len == 0 || anchor.len > MAX_CHAIN_LEN {
            return Err(RollFailure::ChainTooLong {
                len: anchor.len,
                max: MAX_CHAIN_LEN,
            });
        }
        if let (Party::Server, Some(h)) = (party, self.heads.get(&party))
            && h.index < h.anchor.len
        {
            return Err(RollFailure::EarlyServerAnchor {
                party,
                used: h.index,
                len: h.anchor.len,
            });
        }
        self.heads
            .insert(party, Head::new(anchor, 0, anchor.anchor));
        Ok(())
    }

    /// Check that `link` is `party`'s next link and advance past it.
    ///
    /// The head advances even on failure, so the rest of a log is still
    /// checked; the next genuine link is traced back to the last good one,
    /// so one tampered link is reported once.
    pub fn reveal(&mut self, party: Party, index: u32, link: Hash32) -> Result<(), RollFailure> {
        let head = self
            .heads
            .get_mut(&party)
            .ok_or(RollFailure::NoAnchor { party })?;
        let expected = head.index + 1;
        let result = if index != expected {
            Err(RollFailure::LinkOutOfOrder {
                party,
                expected,
                got: index,
            })
        } else if index > head.anchor.len {
            Err(RollFailure::ChainExhausted {
                party,
                index,
                len: head.anchor.len,
            })
        } else if !head.descends(index, link) {
            Err(RollFailure::LinkBroken { party, index })
        } else {
            head.good_index = index;
            head.good_link = link;
            Ok(())
        };
        head.index = index;
        head.link = link;
        result
    }

    /// Check one roll completely: order, every link, the action digest (when
    /// the action's bytes are known) and every die. Returns every failure
    /// found, empty when the roll is sound.
    pub fn check_roll(
        &mut self,
        match_id: MatchId,
        seq: u64,
        actor: Option<SeatId>,
        action_bytes: Option<&[u8]>,
        proof: &RollProof,
    ) -> Vec<RollFailure> {
        let mut failures = Vec::new();
        let expected = self.rolls + 1;
        if proof.roll_index != expected {
            failures.push(RollFailure::RollOutOfOrder {
                expected,
                got: proof.roll_index,
            });
        }
        self.rolls = proof.roll_index;
        if let Err(e) = self.reveal(Party::Server, proof.server_index, proof.server_link) {
            failures.push(e);
        }
        let ordered = proof.seat_links.windows(2).all(|w| w[0].seat < w[1].seat)
            && proof.seat_links.len() <= 255;
        if !ordered {
            failures.push(RollFailure::SeatLinksUnordered);
        }
        for l in &proof.seat_links {
            if let Err(e) = self.reveal(Party::Seat(l.seat), l.index, l.link) {
                failures.push(e);
            }
        }
        if let Some(seat) = actor
            && !proof.seat_links.iter().any(|l| l.seat == seat)
        {
            failures.push(RollFailure::ActorLinkMissing { seat });
        }
        if let Some(bytes) = action_bytes
            && action_digest(bytes) != proof.action_digest
        {
            failures.push(RollFailure::ActionChanged);
        }
        for (die, (logged, derived)) in proof
            .dice
            .iter()
            .zip(proof.derive_dice(match_id, seq))
            .enumerate()
        {
            if logged.value != derived.value {
                failures.push(RollFailure::DieMismatch {
                    die,
                    logged: logged.value,
                    derived: derived.value,
                });
            }
        }
        failures
    }
}
