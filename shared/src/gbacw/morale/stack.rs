//! GBACW 13.0, 13.33, 13.41–13.44: which units of a hex check morale, and
//! routs on routed units.

use crate::gbacw::oob::{CounterId, Marker};
use std::collections::BTreeSet;

/// What may call for a morale check (13.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckTrigger {
    /// A numeric Fire CRT result (a casualty).
    FireCasualty,
    /// `P` (9.87): the check decides the pin.
    FirePin,
    /// `R`, `P/R` (9.83, 9.87).
    FireRout,
    /// Retreat before melee (12.83), on foot.
    RetreatBeforeMelee,
    /// An `R#` or `C#R#` melee result (12.92), or `Rpls` (12.95).
    MeleeRetreat,
    /// A `K` melee result.
    MeleeCasualty,
    /// An `Eng` melee result.
    MeleeEngaged,
}

/// GBACW 13.0: whether the trigger calls for a morale check. A `K` in
/// melee and an `Eng` do not: 13.0 lists melee "R" results only.
pub fn morale_check_due(trigger: CheckTrigger) -> bool {
    !matches!(
        trigger,
        CheckTrigger::MeleeCasualty | CheckTrigger::MeleeEngaged
    )
}

/// GBACW 13.41–13.44: check the units of a hit stack (`stack` top first),
/// each separately (13.41), with `check` returning `true` on a rout.
/// - Artillery casualties from three hexes or more: every unit (13.44).
/// - Otherwise the top unit; those beneath only if it routs (13.42). If
///   the top unit was eliminated (`top_eliminated`), the next one checks
///   as the top unit.
///
/// Returns (unit, routed) in the order checked.
pub fn check_stack(
    stack: &[CounterId],
    top_eliminated: bool,
    artillery_at_three_plus: bool,
    mut check: impl FnMut(&CounterId) -> bool,
) -> Vec<(CounterId, bool)> {
    let units = if top_eliminated {
        stack.get(1..).unwrap_or(&[])
    } else {
        stack
    };
    let mut out = Vec::new();
    for (i, u) in units.iter().enumerate() {
        let routed = check(u);
        out.push((u.clone(), routed));
        if i == 0 && !routed && !artillery_at_three_plus {
            break;
        }
    }
    out
}

/// GBACW 13.31, 13.33: rout a unit. Returns the hexes it must retreat
/// (three, on top of any other retreat); a pinned unit that routs is no
/// longer pinned.
pub fn rout(markers: &mut BTreeSet<Marker>) -> u8 {
    markers.remove(&Marker::Pin);
    markers.insert(Marker::Rout);
    3
}

/// GBACW 13.33: a routed unit that suffers casualties or another rout
/// result routs again (three more hexes, no check); a routed unit that is
/// pinned stays routed and becomes pinned too. Returns the rout retreat.
pub fn hit_while_routed(
    markers: &mut BTreeSet<Marker>,
    casualties: u8,
    rout_result: bool,
    pin_result: bool,
) -> Option<u8> {
    if !markers.contains(&Marker::Rout) {
        return None;
    }
    if pin_result {
        markers.insert(Marker::Pin);
    }
    (casualties > 0 || rout_result).then_some(3)
}
