//! The Battle of Corinth's exclusive rules (seed 001, 19.0-31.0) in the
//! hosted ruleset, each switched on by its scenario `hook` line
//! (`assets/gbacw/corinth/*.scenario`), so that the test battle and Cedar
//! Mountain play without them.
//!
//! Terrain, batteries and sharpshooters (21.3, 23, 24):
//! - [`works`]: 23.1, the outer works (sight, the fire die, melee).
//! - [`redans`]: 23.2, battery redans (sight, fire shift, melee cap).
//! - [`town`]: 23.31, guns, wagons and horses enter town by road only.
//! - [`sharpshooters`]: 21.3, +1 to the fire die for sharpshooters alone.
//! - [`rapid_fire`]: 24.1, smoothbores doubling at close range, fouling.
//! - [`siege`]: 24.3, the siege guns' one hex a turn.
//! - [`crews`]: 24.2, what of the battery crews the engine models.
//! - [`crew_piece`]: 24.21, 24.3, a crew away from its guns as a piece
//!   on the map (moves, rallies where it stands, walks back).
//!
//! Set-up and the solitaire version (29, 30):
//! - [`brigade_counts`]: 29.42, where the eleven Union brigades set up.
//! - [`brigade_batteries`]: 29.44.1, brigade batteries by their commander.
//! - [`keep_moving`]: 30.13, Oliver's column moves on past the areas.
//! - [`park`]: 29.44.4, 30.18, the artillery park's freeze.
//! - [`reinforcements`]: 29.47, reinforcements stay in column.
//! - [`solitaire`]: 29.5, the solitaire version's rolled assault.
//!
//! Melee initiation, BCE loss and retreats (22, 25, 27):
//! - [`brigade_retreat`]: 25.2, a broken brigade retreats with its routed
//!   unit.
//! - [`melee_gate`]: 22.0, the morale checks to retreat before melee and
//!   to melee.
//! - [`retreat`]: 27.0, retreats toward the Assault Area or the town.
//! - [`retreat_batteries`]: 25.26, the brigade's batteries may retreat.
//!
//! The BCE-loss effects Corinth shares with Cedar Mountain (25.1, 30.4)
//! live in `ruleset/exclusive/bce_loss.rs` (one rule, the hook naming each battle's
//! case); 27.0's goal is a `RetreatLimits` limit beside Cedar Mountain
//! 23.0's compass (`combat/retreat_limits.rs`).
//!
//! Night and command (26, 28, 21.2, 21.43):
//! - [`night`]: 26.11, 26.12 night movement; 26.15's end-of-day retreat
//!   of melees still engaged.
//! - [`stragglers`]: 26.2, straggler recovery at the end of night turns.
//! - [`bce_recovery`]: 26.3, the second-day BCE limit.
//! - [`barrage`]: 26.4, the Pre-Dawn Barrage.
//! - [`command`]: 21.2 (no divisional integrity), 28.1–28.3 (army and
//!   division commanders' Command Points, promotion by rank).
//! - [`cavalry`]: 21.43, 21.44, mounting and dismounting inside the ER.
//!
//! Command and set-up leftovers (22.33, 28.14, 29.44.1, 30.18):
//! - [`command`] also holds 28.14: Price affects none of Lovell's units
//!   (the one predicate every leader effect asks, `ruleset/leader_reach.rs`).
//! - [`leader_binding`]: 22.33, a leader used to bypass a morale check
//!   goes with those units.
//! - [`free_batteries`]: 30.18, with Stanley's batteries in Redans D and
//!   E, two independent batteries set up with any brigade.
//!
//! [`rules`] puts them at the Standard Rules' hook points
//! (`ruleset/battle_rules.rs`); the Standard Rules name none of them.

pub(crate) mod barrage;
pub(crate) mod bce_recovery;
pub(crate) mod brigade_batteries;
pub(crate) mod brigade_counts;
// Public for `BrigadeRun`, which events and decisions carry.
pub mod brigade_retreat;
pub(crate) mod cavalry;
pub(crate) mod command;
pub(crate) mod crew_melee;
// The crew away from its guns is the Standard Rules' (GBACW 15.16).
pub(crate) use super::crews::piece as crew_piece;
pub(crate) mod crew_stack;
pub(crate) mod crews;
pub mod free_batteries;
pub(crate) mod heat;
pub(crate) mod impetus;
pub(crate) mod keep_moving;
pub mod leader_binding;
pub(crate) mod melee_gate;
pub(crate) mod night;
pub(crate) mod park;
pub(crate) mod rapid_fire;
pub(crate) mod redans;
pub(crate) mod reinforcements;
pub(crate) mod restraint;
pub(crate) mod retreat;
pub mod retreat_batteries;
pub(crate) mod rules;
pub(crate) mod sharpshooters;
pub(crate) mod siege;
pub mod solitaire;
pub(crate) mod stragglers;
pub(crate) mod town;
pub(crate) mod works;

use super::Gbacw;
use crate::gbacw::map::HexNumber;
use crate::gbacw::scenario::{Hook, HookKind};

/// The scenario's hook `kind`, if this battle plays that exclusive rule.
pub(crate) fn hook(rs: &Gbacw, kind: HookKind) -> Option<&Hook> {
    rs.game.scenario.hook(kind)
}

/// Corinth 23.1, 23.28: feet a unit in `hex` stands above its ground for
/// line of sight: inside the outer works or in a redan. 0 elsewhere, and
/// in battles without these rules.
pub(crate) fn raised_feet(rs: &Gbacw, hex: HexNumber) -> u16 {
    works::raised_feet(rs, hex).max(redans::raised_feet(rs, hex))
}

/// The fire die's modifier for an attack on `target` by `firers` standing
/// in `hexes`: Corinth 23.1 (solely across the works, −1) and 21.3
/// (sharpshooters alone, +1). The modified die stays within 1–6; 11.21's
/// ammunition check reads the natural die (both cases say so).
pub(crate) fn fire_die_modifier(
    rs: &Gbacw,
    target: HexNumber,
    firers: &[crate::gbacw::oob::CounterId],
    hexes: &[HexNumber],
) -> i8 {
    works::fire_die_modifier(rs, target, hexes) + sharpshooters::fire_die_modifier(rs, firers)
}

/// Whether `turn` is a night Game-Turn (26.0).
pub(crate) fn is_night(rs: &Gbacw, turn: u16) -> bool {
    rs.game.scenario.is_night(turn)
}
