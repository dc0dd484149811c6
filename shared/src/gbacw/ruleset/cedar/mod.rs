//! The Cedar Mountain exclusive rules (seed 004, 21.0–25.0) in the hosted
//! ruleset. Each rule is switched on by its scenario `hook` line
//! (`assets/gbacw/cedar_mountain/cedar_mountain.scenario`), so the test
//! battle, which has no such lines, plays the Standard Rules. Three serve
//! Corinth too, their hooks naming Corinth's cases: [`bce_loss`] (25.1,
//! 30.4), [`cavalry`] (21.41, 21.42) and [`retreat`]'s limits (27.0's
//! goal, `corinth/retreat.rs`).
//!
//! - [`bce_loss`]: 24.0, what a brigade at its BCE limit may no longer do.
//! - [`retreat`]: 23.0, retreats only toward one's own lines.
//! - [`army`]: 25.1, 25.2, Jackson's and Banks' Command Points.
//! - [`cavalry`]: 21.11, 21.12, dismounted cavalry in melee.
//! - [`ammo`]: 21.2, no ammunition rules.
//! - [`corn`]: 21.42, 21.43, cornfields block sight and are blown down.
//! - [`overshoot`]: 22.0, artillery overshoot at nine hexes and more.
//!
//! The rules call these from the shared code paths in small, marked
//! places; everything the exclusive rules decide lives here.

pub(crate) mod ammo;
pub(crate) mod army;
pub(crate) mod bce_loss;
pub(crate) mod cavalry;
pub(crate) mod corn;
pub mod overshoot;
pub(crate) mod retreat;

use super::Gbacw;
use crate::gbacw::scenario::{Hook, HookKind};

/// The scenario's hook `kind`, if this battle plays that exclusive rule.
pub(crate) fn hook(rs: &Gbacw, kind: HookKind) -> Option<&Hook> {
    rs.game.scenario.hook(kind)
}

/// The case a refusal names, `Cedar Mountain 24.12`: the battle's name
/// and the case number.
pub(crate) fn case(rs: &Gbacw, number: &str) -> String {
    format!("{} {number}", rs.game.scenario.name)
}
