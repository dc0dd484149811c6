//! The engine core: a ruleset is a deterministic fold.
//!
//! ```text
//! events = ruleset.decide(state, action, dice)?   // pure: validate and resolve
//! for e in events { ruleset.evolve(&mut state, e) } // apply the deltas
//! ```
//!
//! Splitting *decide* from *evolve* is what lets a client keep its own copy:
//! it receives the (redacted) events and folds them with the same `evolve`.
//! The contract every ruleset keeps, and the tests check, is that redaction
//! commutes with the fold:
//! `view(evolve(s, e), v) == evolve(view(s, v), view_event(s, e, v))`.
//!
//! - [`ruleset`]: the [`Ruleset`] trait, rule errors, pending decisions, dice access.
//! - [`log`]: the append-only [`MatchLog`].
//! - [`game`]: [`Match`], a ruleset plus its state and log, applying actions.
//! - [`take_back`]: what a seat may take back, and how folds undo it.
//! - [`verify`]: replaying and verifying a whole log.

pub mod game;
pub mod log;
pub mod ruleset;
pub mod take_back;
pub mod verify;

pub use game::{Applied, Match, MatchError, Submission, TakenBack};
pub use log::{ActionRecord, LogEntry, LogHeader, MatchLog, SeatInfo, events_digest};
pub use ruleset::{
    ActionContext, ClockTurn, Dice, Outcome, PendingDecision, RuleCode, RuleError, Ruleset,
};
pub use take_back::{UNDO_DEPTH, UndoStack};
pub use verify::{Failure, VerifyReport, verify_log};
