//! The Cedar Mountain exclusive rules (seed 004, 21.0–25.0) in the hosted
//! ruleset. Each rule is switched on by its scenario `hook` line
//! (`assets/gbacw/cedar_mountain/cedar_mountain.scenario`), so the test
//! battle, which has no such lines, plays the Standard Rules. [`rules`]
//! puts them at the Standard Rules' hook points
//! (`ruleset/battle_rules.rs`). The rules it first needed that Corinth
//! shares live in `ruleset/exclusive/`: `bce_loss.rs` (24.0; Corinth
//! 25.1, 30.4), `dismounted_cavalry.rs` (21.11, 21.12;
//! Corinth 21.41, 21.42), `combat/retreat_limits.rs` (23.0's limit, beside
//! Corinth 27.0's goal).
//!
//! - [`retreat_directions`]: 23.0, retreats only toward one's own lines.
//! - [`army`]: 25.1, 25.2, Jackson's and Banks' Command Points.
//! - [`ammo`]: 21.2, no ammunition rules.
//! - [`corn`]: 21.42, 21.43, cornfields block sight and are blown down.
//! - [`overshoot`]: 22.0, artillery overshoot at nine hexes and more.
//!
//! The Standard Rules reach these only through the hook points;
//! everything the exclusive rules decide lives here.

pub(crate) mod ammo;
pub(crate) mod army;
pub(crate) mod corn;
pub mod overshoot;
pub(crate) mod retreat_directions;
pub(crate) mod rules;

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
