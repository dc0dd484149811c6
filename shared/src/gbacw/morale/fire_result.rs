//! GBACW 9.81–9.88: what a Fire CRT result does to the unit it hits.

use super::check::{MoraleMods, morale_check};
use crate::gbacw::tables::FireResult;

/// The effect on one unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FireOutcome {
    /// Strength Points (or guns, or crew steps: 9.82) lost.
    pub losses: u8,
    pub pinned: bool,
    pub routed: bool,
}

/// Resolve a Fire CRT result on a unit of `morale`, rolling each further
/// die with `roll` (one d6 per call), in the order the rules roll them.
/// - `-`: nothing.
/// - `P` / `R` (9.87): a morale check; failing it pins / routs.
/// - `P/R` (9.83): a check; failing routs, passing pins.
/// - `#` (9.81): losses, then a morale check (13.22: losses first).
/// - `#*` (9.88): as `#`; a unit that does not rout rolls again and is
///   pinned if that die (unmodified) is greater than its morale.
///
/// A rout clears a pin (13.33: "a pinned unit that routs is no longer
/// pinned"). Unlimbered guns never rout (13.25): the caller applies the
/// rout to the crew (15.16).
pub fn resolve_fire_result(
    result: FireResult,
    morale: u8,
    mods: MoraleMods,
    mut roll: impl FnMut() -> u8,
) -> FireOutcome {
    let mut out = FireOutcome::default();
    match result {
        FireResult::NoEffect => {}
        FireResult::MaybePin => out.pinned = morale_check(morale, roll(), mods),
        FireResult::MaybeRout => out.routed = morale_check(morale, roll(), mods),
        FireResult::PinOrRout => {
            if morale_check(morale, roll(), mods) {
                out.routed = true;
            } else {
                out.pinned = true;
            }
        }
        FireResult::Loss {
            points,
            then_pin_check,
        } => {
            out.losses = points;
            out.routed = morale_check(morale, roll(), mods);
            if then_pin_check && !out.routed {
                out.pinned = roll() > morale;
            }
        }
    }
    if out.routed {
        out.pinned = false;
    }
    out
}
