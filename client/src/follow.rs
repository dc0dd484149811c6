//! Following a table: one viewer's copy of the game state, kept in step by
//! folding the deltas the server sends, with every roll checked on arrival.
//!
//! The GUI, the tests and the load harness all follow tables through this
//! type, so "what a client sees" is defined in exactly one place.

use muster_shared::Hash32;
use muster_shared::codec::{self, DecodeError};
use muster_shared::dice::{
    ChainAnchor, ChainBook, HashChain, Party, RollFailure, SeatLink, action_digest,
};
use muster_shared::engine::{RuleError, Ruleset};
use muster_shared::protocol::{DeltaBody, Snapshot};
use muster_shared::{MatchId, SeatId, Viewer};
use std::collections::BTreeMap;

/// Why a snapshot or delta could not be followed.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum FollowError {
    #[error(
        "the table plays \u{201c}{got}\u{201d}, this client expects \u{201c}{expected}\u{201d}"
    )]
    WrongRuleset { expected: String, got: String },
    #[error("bad payload: {0}")]
    Decode(#[from] DecodeError),
    #[error("the scenario does not load: {0}")]
    Config(RuleError),
    /// A delta arrived out of order: the caller should ask for a resync.
    #[error("delta {got} arrived where {expected} was next; resync needed")]
    Gap { expected: u64, got: u64 },
}

/// One roll that did not verify: shown loudly, never ignored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadRoll {
    pub seq: u64,
    pub roll: u64,
    pub failure: RollFailure,
}

/// A viewer's copy of one table.
pub struct Follower<R: Ruleset> {
    ruleset: R,
    viewer: Viewer,
    match_id: MatchId,
    state: R::State,
    seq: u64,
    book: ChainBook,
    verified_rolls: u64,
    bad_rolls: Vec<BadRoll>,
    /// What this client sent with each of its links, to check the proof
    /// that comes back is about the action it actually sent.
    sent: BTreeMap<u32, Hash32>,
    /// The anchor this client published for its seat, if it did.
    own_anchor: Option<ChainAnchor>,
}

impl<R: Ruleset> Follower<R> {
    /// Start following from a snapshot (on join, or after a resync).
    pub fn from_snapshot(snap: &Snapshot) -> Result<Self, FollowError> {
        if snap.ruleset != R::ID {
            return Err(FollowError::WrongRuleset {
                expected: R::ID.into(),
                got: snap.ruleset.clone(),
            });
        }
        let config: R::Config = codec::decode(&snap.config, codec::MAX_SERVER_MSG)?;
        let ruleset = R::new(&config).map_err(FollowError::Config)?;
        let state: R::State = codec::decode(&snap.state, codec::MAX_SERVER_MSG)?;
        Ok(Follower {
            ruleset,
            viewer: snap.seat.map_or(Viewer::Spectator, Viewer::Seat),
            match_id: snap.match_id,
            state,
            seq: snap.seq,
            book: ChainBook::from_heads(snap.chains.iter().copied(), snap.rolls),
            verified_rolls: 0,
            bad_rolls: Vec::new(),
            sent: BTreeMap::new(),
            own_anchor: None,
        })
    }

    /// Fold one delta. Rolls are checked before the events are applied; a
    /// roll that fails is recorded in [`Follower::bad_rolls`] (the game goes
    /// on, and the player is told loudly).
    pub fn apply(&mut self, seq: u64, body: &DeltaBody) -> Result<Vec<R::Event>, FollowError> {
        if seq != self.seq + 1 {
            return Err(FollowError::Gap {
                expected: self.seq + 1,
                got: seq,
            });
        }
        let events = match body {
            DeltaBody::Anchor { party, anchor } => {
                if let (Party::Seat(seat), Viewer::Seat(me), Some(own)) =
                    (party, self.viewer, self.own_anchor)
                    && *seat == me
                    && own != *anchor
                {
                    // Anchors are not signed: only the seat itself can tell
                    // that the server published one in its name.
                    self.flag(seq, RollFailure::ForeignAnchor { seat: me });
                }
                if let Err(failure) = self.book.anchor(*party, *anchor) {
                    self.flag(seq, failure);
                }
                Vec::new()
            }
            DeltaBody::Action {
                seat,
                events,
                roll,
                by_default,
            } => {
                let events: Vec<R::Event> = codec::decode(events, codec::MAX_SERVER_MSG)?;
                if let Some(proof) = roll {
                    let actor = (!by_default).then_some(*seat);
                    let mut failures = self.book.check_roll(self.match_id, seq, actor, None, proof);
                    // The proof must be about what this client sent ...
                    if let Viewer::Seat(me) = self.viewer {
                        let sent = proof
                            .seat_links
                            .iter()
                            .find(|l| l.seat == me)
                            .and_then(|l| self.sent.remove(&l.index));
                        if sent.is_some_and(|digest| digest != proof.action_digest) {
                            failures.push(RollFailure::ActionChanged);
                        }
                    }
                    // ... and the numbers shown must be the numbers proved.
                    if let Some(shown) = self.ruleset.dice_shown(&events)
                        && shown != proof.dice
                    {
                        failures.push(RollFailure::ShownDiceDiffer {
                            shown,
                            proved: proof.dice.clone(),
                        });
                    }
                    if failures.is_empty() {
                        self.verified_rolls += 1;
                    }
                    self.bad_rolls
                        .extend(failures.into_iter().map(|failure| BadRoll {
                            seq,
                            roll: proof.roll_index,
                            failure,
                        }));
                }
                for e in &events {
                    self.ruleset.evolve(&mut self.state, e);
                }
                events
            }
        };
        self.seq = seq;
        Ok(events)
    }

    fn flag(&mut self, seq: u64, failure: RollFailure) {
        self.bad_rolls.push(BadRoll {
            seq,
            roll: self.book.rolls(),
            failure,
        });
    }

    /// Remember that this client sent `action_bytes` with its link `index`,
    /// so the roll that comes back can be checked against it. Resending the
    /// same action after a refusal reuses the same link and the same entry.
    pub fn note_sent(&mut self, index: u32, action_bytes: &[u8]) {
        // Bounded: only links not yet seen in a proof are kept.
        if self.sent.len() >= 64 {
            self.sent.pop_first();
        }
        self.sent.insert(index, action_digest(action_bytes));
    }

    /// Remember the anchor this client published for its own seat.
    pub fn note_own_anchor(&mut self, anchor: ChainAnchor) {
        self.own_anchor = Some(anchor);
    }

    /// The link `seat` must attach to its next rolling action.
    ///
    /// `None` while the server's chain is used up: the server must publish
    /// its next anchor *before* it sees this link, or it could pick a new
    /// chain to suit the roll.
    pub fn next_link(&self, seat: SeatId, chain: &HashChain) -> Option<SeatLink> {
        if self.book.remaining(Party::Server) == 0 {
            return None;
        }
        let index = self.book.next_index(Party::Seat(seat))?;
        Some(SeatLink {
            seat,
            index,
            link: chain.link(index)?,
        })
    }

    pub fn ruleset(&self) -> &R {
        &self.ruleset
    }
    pub fn state(&self) -> &R::State {
        &self.state
    }
    pub fn viewer(&self) -> Viewer {
        self.viewer
    }
    /// The last sequence number folded in (send it with a resync).
    pub fn seq(&self) -> u64 {
        self.seq
    }
    pub fn book(&self) -> &ChainBook {
        &self.book
    }
    /// Rolls that verified since this follower started.
    pub fn verified_rolls(&self) -> u64 {
        self.verified_rolls
    }
    /// Rolls that did not verify. Empty in any honest game.
    pub fn bad_rolls(&self) -> &[BadRoll] {
        &self.bad_rolls
    }
}
