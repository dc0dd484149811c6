//! Following a table: one viewer's copy of the game state, kept in step by
//! folding the deltas the server sends, with every roll checked on arrival.
//!
//! The GUI, the tests and the load harness all follow tables through this
//! type, so "what a client sees" is defined in exactly one place.

use muster_shared::Hash32;
use muster_shared::codec::{self, DecodeError};
use muster_shared::dice::{
    ActionRef, ChainAnchor, ChainBook, Die, HashChain, LeanRoll, Party, RollFailure, RollProof,
    SeatLink, action_digest, previous_link,
};
use muster_shared::engine::{RuleError, Ruleset, UndoStack};
use muster_shared::protocol::{DeltaBody, Snapshot};
use muster_shared::{MatchId, SeatId, Viewer};
use std::collections::{BTreeMap, VecDeque};

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
    /// A take-back of an action this copy cannot undo (it started from a
    /// snapshot after it): the caller should ask for a resync.
    #[error("a take-back reached past this copy's start; resync needed")]
    TakeBackTooFar,
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
    /// Compact rolls (`DeltaBody::Lean`) whose links have not all been
    /// shown yet, and the anchors that came after them, oldest first;
    /// `book` stays at the last checked roll.
    waiting: VecDeque<Held>,
    /// Each party's link number as of the newest roll folded, where it is
    /// ahead of `book` (links used by waiting rolls).
    claimed: BTreeMap<Party, u32>,
    /// Issue 18: this copy of the state from before each action that may
    /// still be taken back (the server decides which; a copy keeps every
    /// action that did not roll and was not a default).
    undo: UndoStack<R::State>,
}

/// What waits to be folded into the book, in order.
enum Held {
    Roll(Waiting),
    /// A new chain published after rolls that still wait on the old one.
    Anchor {
        seq: u64,
        party: Party,
        anchor: ChainAnchor,
    },
}

/// A compact roll waiting for its links: the full proof, with the links
/// of the parties in `missing` still zero.
struct Waiting {
    seq: u64,
    actor: Option<SeatId>,
    proof: RollProof,
    missing: Vec<Party>,
}

impl Waiting {
    /// The link number this roll used for `party`, if it used one.
    fn index(&self, party: Party) -> Option<u32> {
        match party {
            Party::Server => Some(self.proof.server_index),
            Party::Seat(s) => self
                .proof
                .seat_links
                .iter()
                .find(|l| l.seat == s)
                .map(|l| l.index),
        }
    }

    fn set(&mut self, party: Party, link: Hash32) {
        match party {
            Party::Server => self.proof.server_link = link,
            Party::Seat(s) => {
                for l in self.proof.seat_links.iter_mut().filter(|l| l.seat == s) {
                    l.link = link;
                }
            }
        }
        self.missing.retain(|p| *p != party);
    }
}

/// Most compact rolls a follower holds unchecked; a server that never
/// shows its links cannot make it grow without bound.
const MAX_WAITING: usize = 4096;

impl<R: Ruleset> Follower<R> {
    /// Start following from a snapshot (on join, or after a resync).
    pub fn from_snapshot(snap: &Snapshot) -> Result<Self, FollowError> {
        if snap.ruleset != R::ID {
            return Err(FollowError::WrongRuleset {
                expected: R::ID.into(),
                got: snap.ruleset.clone(),
            });
        }
        let config: R::Config = R::decode_config(&snap.config, codec::MAX_SERVER_MSG)?;
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
            waiting: VecDeque::new(),
            claimed: BTreeMap::new(),
            undo: UndoStack::default(),
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
                self.new_chain(seq, *party, *anchor, None);
                Vec::new()
            }
            DeltaBody::Reanchor {
                party,
                anchor,
                last,
            } => {
                self.new_chain(seq, *party, *anchor, Some(*last));
                Vec::new()
            }
            DeltaBody::Lean {
                seat,
                events,
                roll,
                by_default,
            } => {
                let events: Vec<R::Event> = codec::decode(events, codec::MAX_SERVER_MSG)?;
                self.note_undo(seq, *seat, roll.is_none() && !by_default);
                if let Some(lean) = roll {
                    self.lean_roll(seq, *seat, *by_default, &events, lean);
                }
                for e in &events {
                    self.ruleset.evolve(&mut self.state, e);
                }
                events
            }
            DeltaBody::Action {
                seat,
                events,
                roll,
                by_default,
            } => {
                let events: Vec<R::Event> = codec::decode(events, codec::MAX_SERVER_MSG)?;
                self.note_undo(seq, *seat, roll.is_none() && !by_default);
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
            DeltaBody::TakeBack { seat, undone } => {
                self.state = self
                    .undo
                    .take_back(*seat, *undone)
                    .map_err(|_| FollowError::TakeBackTooFar)?;
                Vec::new()
            }
        };
        self.seq = seq;
        Ok(events)
    }

    /// A party's new chain. Compact rolls still waiting on the old chain
    /// are checked first, with `last` (its last used link) when the server
    /// showed it; without it they can never be checked, which is a failure.
    fn new_chain(&mut self, seq: u64, party: Party, anchor: ChainAnchor, last: Option<Hash32>) {
        if let (Party::Seat(seat), Viewer::Seat(me), Some(own)) =
            (party, self.viewer, self.own_anchor)
            && seat == me
            && own != anchor
        {
            // Anchors are not signed: only the seat itself can tell
            // that the server published one in its name.
            self.flag(seq, RollFailure::ForeignAnchor { seat: me });
        }
        if let Some(link) = last {
            self.reveal(seq, party, link);
        }
        self.settle();
        if self.waiting.is_empty() {
            if let Err(failure) = self.book.anchor(party, anchor) {
                self.flag(seq, failure);
            }
            return;
        }
        // Rolls still waiting for this party's old links that nobody will
        // show now: they can never be checked.
        let mut lost = false;
        self.waiting.retain(|h| match h {
            Held::Roll(w) => {
                let gone = w.missing.contains(&party);
                lost |= gone;
                !gone
            }
            Held::Anchor { .. } => true,
        });
        if lost {
            self.flag(seq, RollFailure::Unrevealed { party });
        }
        self.waiting.push_back(Held::Anchor { seq, party, anchor });
        self.claimed.insert(party, 0);
        self.settle();
    }

    /// `party`'s link number as of the newest roll folded.
    fn head(&self, party: Party) -> u32 {
        self.claimed
            .get(&party)
            .copied()
            .unwrap_or_else(|| self.book.next_index(party).map_or(0, |n| n - 1))
    }

    /// Fold a compact roll: rebuild its proof with every number (each the
    /// next), note the links shown with it, and check every waiting roll
    /// whose links are now all known.
    fn lean_roll(
        &mut self,
        seq: u64,
        seat: SeatId,
        by_default: bool,
        events: &[R::Event],
        lean: &LeanRoll,
    ) {
        let action_digest = match &lean.action {
            ActionRef::Bytes(bytes) => action_digest(bytes),
            ActionRef::Digest(d) => *d,
            // Rebuilt from the events, as the server checked it could be.
            ActionRef::FromEvents => match self.ruleset.action_from_events(seat, events) {
                Some(action) => action_digest(&codec::encode_infallible(&action)),
                None => {
                    // Nothing names the action: the roll cannot be checked.
                    self.flag(seq, RollFailure::ActionChanged);
                    Hash32::default()
                }
            },
        };
        let shown_dice = self.ruleset.dice_shown(events);
        let dice: Vec<Die> = match (&lean.dice, &shown_dice) {
            (Some(d), _) => d.clone(),
            (None, Some(d)) => d.clone(),
            (None, None) => Vec::new(),
        };
        let proof = RollProof {
            roll_index: self.rolls() + 1,
            server_index: self.head(Party::Server) + 1,
            server_link: Hash32::default(),
            seat_links: lean
                .seats
                .as_deref()
                .unwrap_or(&[seat][..])
                .iter()
                .map(|s| SeatLink {
                    seat: *s,
                    index: self.head(Party::Seat(*s)) + 1,
                    link: Hash32::default(),
                })
                .collect(),
            action_digest,
            dice,
        };
        // The proof must be about what this client sent ...
        if let Viewer::Seat(me) = self.viewer
            && let Some(l) = proof.seat_links.iter().find(|l| l.seat == me)
            && self
                .sent
                .remove(&l.index)
                .is_some_and(|digest| digest != proof.action_digest)
        {
            self.flag(seq, RollFailure::ActionChanged);
        }
        // ... and the numbers shown must be the numbers proved.
        if let (Some(shown), Some(_)) = (&shown_dice, &lean.dice)
            && *shown != proof.dice
        {
            self.flag(
                seq,
                RollFailure::ShownDiceDiffer {
                    shown: shown.clone(),
                    proved: proof.dice.clone(),
                },
            );
        }
        if lean.dice.is_none() && shown_dice.is_none() {
            // Nothing says which dice were drawn: no check can pass.
            self.flag(
                seq,
                RollFailure::DiceCountMismatch {
                    logged: 0,
                    derived: 0,
                },
            );
        }
        self.claimed.insert(Party::Server, proof.server_index);
        for l in &proof.seat_links {
            self.claimed.insert(Party::Seat(l.seat), l.index);
        }
        if self.waiting.len() >= MAX_WAITING {
            // A server that never shows its links: the oldest is given up.
            if let Some(h) = self.waiting.pop_front() {
                let seq = match h {
                    Held::Roll(w) => w.seq,
                    Held::Anchor { seq, .. } => seq,
                };
                self.flag(
                    seq,
                    RollFailure::Unrevealed {
                        party: Party::Server,
                    },
                );
            }
        }
        let mut missing = vec![Party::Server];
        missing.extend(proof.seat_links.iter().map(|l| Party::Seat(l.seat)));
        self.waiting.push_back(Held::Roll(Waiting {
            seq,
            actor: (!by_default).then_some(seat),
            proof,
            missing,
        }));
        for (party, link) in &lean.reveal {
            self.reveal(seq, *party, *link);
        }
        self.settle();
    }

    /// `link` is `party`'s link at its newest number: it goes to the newest
    /// waiting roll of that party's current chain, and each earlier link,
    /// hashed back from it, to the roll before.
    fn reveal(&mut self, seq: u64, party: Party, link: Hash32) {
        let Some(&top) = self.claimed.get(&party) else {
            // Shown again (a follower that started from a snapshot already
            // holds it): only a different link is wrong.
            if self.book.last_link(party) != Some(link) {
                self.flag(seq, RollFailure::UnexpectedReveal { party });
            }
            return;
        };
        let (mut x, mut index) = (link, top);
        // Bounded by the waiting rolls (at most MAX_WAITING).
        for h in self.waiting.iter_mut().rev() {
            let w = match h {
                Held::Anchor { party: p, .. } if *p == party => break,
                Held::Anchor { .. } => continue,
                Held::Roll(w) => w,
            };
            let Some(i) = w.index(party) else { continue };
            if i != index || !w.missing.contains(&party) {
                // Known from here back (or inconsistent: the check says so).
                break;
            }
            w.set(party, x);
            x = previous_link(&x);
            index = index.saturating_sub(1);
        }
    }

    /// Check, in order, every waiting roll whose links are all known (and
    /// take the anchors that follow them).
    fn settle(&mut self) {
        loop {
            match self.waiting.front() {
                None => break,
                Some(Held::Roll(w)) if !w.missing.is_empty() => return,
                Some(_) => {}
            }
            match self.waiting.pop_front() {
                Some(Held::Anchor { seq, party, anchor }) => {
                    if let Err(failure) = self.book.anchor(party, anchor) {
                        self.flag(seq, failure);
                    }
                }
                Some(Held::Roll(w)) => {
                    let failures =
                        self.book
                            .check_roll(self.match_id, w.seq, w.actor, None, &w.proof);
                    if failures.is_empty() {
                        self.verified_rolls += 1;
                    }
                    self.bad_rolls
                        .extend(failures.into_iter().map(|failure| BadRoll {
                            seq: w.seq,
                            roll: w.proof.roll_index,
                            failure,
                        }));
                }
                None => break,
            }
        }
        // Nothing waits: nothing is ahead of the book.
        self.claimed.clear();
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

    /// Rolls folded so far, checked or still waiting for their links
    /// (what the game has shown; [`ChainBook::rolls`] of [`Follower::book`]
    /// counts the checked ones).
    pub fn rolls(&self) -> u64 {
        self.book.rolls() + self.waiting_rolls() as u64
    }

    /// Compact rolls whose links have not been shown yet.
    pub fn waiting_rolls(&self) -> usize {
        self.waiting
            .iter()
            .filter(|h| matches!(h, Held::Roll(_)))
            .count()
    }

    /// The link `seat` must attach to its next rolling action.
    ///
    /// `None` while the server's chain is used up: the server must publish
    /// its next anchor *before* it sees this link, or it could pick a new
    /// chain to suit the roll.
    pub fn next_link(&self, seat: SeatId, chain: &HashChain) -> Option<SeatLink> {
        let server = self.book.remaining(Party::Server) + self.book.next_index(Party::Server)? - 1;
        if server <= self.head(Party::Server) {
            return None;
        }
        self.book.next_index(Party::Seat(seat))?;
        let index = self.head(Party::Seat(seat)) + 1;
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
    /// Keep this copy's state from before an action a take-back may undo
    /// (one that rolled nothing and was no default); else nothing before
    /// it can be undone.
    fn note_undo(&mut self, seq: u64, seat: SeatId, takeable: bool) {
        if takeable {
            self.undo.record(seq, seat, self.state.clone());
        } else {
            self.undo.clear();
        }
    }

    /// The action `seat` could take back as far as this copy can tell
    /// (the server has the last word: hidden information it may refuse).
    pub fn take_back_target(&self, seat: SeatId) -> Option<u64> {
        self.undo.last_for(seat)
    }

    /// The state before the action [`Follower::take_back_target`] names
    /// (the ruleset may say that action was final: an answer to a
    /// question another seat asked).
    pub fn take_back_before(&self, seat: SeatId) -> Option<&R::State> {
        self.undo.before_last_for(seat)
    }

    /// The last sequence number folded in (send it with a resync).
    pub fn seq(&self) -> u64 {
        self.seq
    }
    /// The chains as of the last *checked* roll (compact rolls may wait
    /// for their links; see [`Follower::rolls`]).
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
