//! Corinth's exclusive rules (seed 001, 19.0–30.0) in the hosted ruleset
//! that are not shared with Cedar Mountain. Each rule is switched on by a
//! scenario `hook` line (`assets/gbacw/corinth/*.scenario`), so the other
//! battles play without it.
//!
//! - [`brigade_retreat`]: 25.2, a broken brigade retreats with its routed
//!   unit.
//! - [`melee_gate`]: 22.0, the morale checks to retreat before melee and
//!   to melee.
//! - [`retreat`]: 27.0, retreats toward the Assault Area or the town.
//!
//! The BCE-loss effects Corinth shares with Cedar Mountain (25.1, 30.4)
//! live in `cedar/bce_loss.rs` (one rule, the hook naming each battle's
//! case); 27.0's goal is a `RetreatLimits` limit beside Cedar Mountain
//! 23.0's compass (`cedar/retreat.rs`).

pub(crate) mod brigade_retreat;
pub(crate) mod melee_gate;
pub(crate) mod retreat;
