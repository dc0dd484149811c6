//! The Corinth exclusive rules (seed 001, 19.0–31.0) that need code of
//! their own in the hosted ruleset. Each rule is switched on by its
//! scenario `hook` line (`assets/gbacw/corinth/corinth.scenario` and
//! `corinth_free.scenario`), so other battles play without them.
//!
//! - [`night`]: 26.11, 26.12 night movement; 26.15's end-of-day retreat
//!   of melees still engaged.
//! - [`stragglers`]: 26.2, straggler recovery at the end of night turns.
//! - [`bce_recovery`]: 26.3, the second-day BCE limit.
//! - [`barrage`]: 26.4, the Pre-Dawn Barrage.
//! - [`command`]: 21.2 (no divisional integrity), 28.1–28.3 (army and
//!   division commanders' Command Points, promotion by rank).
//! - [`cavalry`]: 21.43, 21.44, mounting and dismounting inside the ER.

pub(crate) mod barrage;
pub(crate) mod bce_recovery;
pub(crate) mod cavalry;
pub(crate) mod command;
pub(crate) mod night;
pub(crate) mod stragglers;

use super::Gbacw;
use crate::gbacw::scenario::{Hook, HookKind};

/// The scenario's hook `kind`, if this battle plays that exclusive rule.
pub(crate) fn hook(rs: &Gbacw, kind: HookKind) -> Option<&Hook> {
    rs.game.scenario.hook(kind)
}

/// Whether `turn` is a night Game-Turn (26.0).
pub(crate) fn is_night(rs: &Gbacw, turn: u16) -> bool {
    rs.game.scenario.is_night(turn)
}
