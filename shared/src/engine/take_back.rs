//! Take-back (issue 18): a seat may take back its own actions since the
//! last roll or the last reveal of hidden information.
//!
//! The log stays append-only. A take-back is an entry of its own
//! ([`super::LogEntry::TakeBack`]) naming the action it undoes, and every
//! fold of the log (the server's [`super::Match`], [`super::verify`]'s
//! replay, a client's follower) keeps the same [`UndoStack`]: the state
//! from before each action that may still be taken back, newest last. An
//! action that may not be taken back (it rolled, was applied by default,
//! involved hidden information, or the ruleset says it is final) empties
//! the stack, so nothing before it can be taken back either. A take-back
//! pops the newest point, which must be the asking seat's action.

use super::ruleset::{RuleCode, RuleError};
use crate::ids::SeatId;

/// How many actions back a seat may go. Older points are dropped (and so
/// can no longer be taken back), which bounds the memory a long phase of
/// small moves can hold. Every fold uses the same bound, so a log that
/// the server accepted replays the same everywhere.
pub const UNDO_DEPTH: usize = 64;

/// The state before one action that may still be taken back.
#[derive(Clone, Debug)]
struct UndoPoint<S> {
    /// The action's sequence number.
    seq: u64,
    seat: SeatId,
    before: S,
}

/// The actions that may still be taken back, newest last, with the
/// state before each.
#[derive(Clone, Debug)]
pub struct UndoStack<S> {
    points: Vec<UndoPoint<S>>,
}

impl<S> Default for UndoStack<S> {
    fn default() -> Self {
        UndoStack { points: Vec::new() }
    }
}

impl<S> UndoStack<S> {
    /// Note an applied action that may be taken back, with the state
    /// before it. One that may not is noted with [`Self::clear`]: nothing
    /// before it may be taken back either (and no state is copied for it).
    pub fn record(&mut self, seq: u64, seat: SeatId, before: S) {
        if self.points.len() == UNDO_DEPTH {
            self.points.remove(0);
        }
        self.points.push(UndoPoint { seq, seat, before });
    }

    /// An action that may not be taken back: nothing before it may be.
    pub fn clear(&mut self) {
        self.points.clear();
    }

    /// The same points with each state mapped (the server's delayed
    /// spectators keep their view of each).
    pub fn map<T>(&self, f: impl Fn(&S) -> T) -> UndoStack<T> {
        UndoStack {
            points: self
                .points
                .iter()
                .map(|p| UndoPoint {
                    seq: p.seq,
                    seat: p.seat,
                    before: f(&p.before),
                })
                .collect(),
        }
    }

    /// The action `seat` would take back now (its sequence number).
    pub fn last_for(&self, seat: SeatId) -> Option<u64> {
        self.points.last().filter(|p| p.seat == seat).map(|p| p.seq)
    }

    /// The state from before the action `seat` would take back now (for
    /// a client to ask the ruleset whether that action was final).
    pub fn before_last_for(&self, seat: SeatId) -> Option<&S> {
        self.points
            .last()
            .filter(|p| p.seat == seat)
            .map(|p| &p.before)
    }

    /// The action `seat` may take back now, or why there is none, in words.
    pub fn target(&self, seat: SeatId) -> Result<u64, RuleError> {
        match self.last_for(seat) {
            Some(seq) => Ok(seq),
            None => self.check(seat, 0).map(|()| 0),
        }
    }

    /// Check that `seat` may take back the action at `undone` now.
    pub fn check(&self, seat: SeatId, undone: u64) -> Result<(), RuleError> {
        let Some(top) = self.points.last() else {
            return Err(refusal(
                "there is nothing to take back: the last action rolled dice, revealed something hidden or answered the other side",
            ));
        };
        if top.seat != seat {
            return Err(refusal(
                "the last action is the other side's: you can take back only your own",
            ));
        }
        if top.seq != undone {
            return Err(refusal(
                "only your last action can be taken back, one at a time",
            ));
        }
        Ok(())
    }

    /// Take back `seat`'s action at `undone`: the state from before it.
    pub fn take_back(&mut self, seat: SeatId, undone: u64) -> Result<S, RuleError> {
        self.check(seat, undone)?;
        match self.points.pop() {
            Some(p) => Ok(p.before),
            None => Err(refusal("there is nothing to take back")),
        }
    }
}

fn refusal(message: &str) -> RuleError {
    RuleError::new("take-back", RuleCode::Illegal, message)
}
