//! GBACW 12.2x, 12.7x, 12.85, 12.96, 11.15, 17.11: who may melee whom.

use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, Formation, Marker, Unit, UnitKind, UnitStatus};
use std::collections::BTreeMap;

/// One unit's would-be melee and what the engine knows about it.
#[derive(Clone, Copy, Debug)]
pub struct MeleeIntent<'a> {
    pub unit: &'a Unit,
    pub status: &'a UnitStatus,
    pub target: HexNumber,
    /// GBACW 12.21: adjacent to the target when the Melee Phase began.
    pub adjacent_at_phase_start: bool,
    /// GBACW 12.21, 7.31: the target lies through one of its frontal hexsides.
    pub through_frontal_hexside: bool,
    /// GBACW 17.11: in command this Player-Turn.
    pub in_command: bool,
    /// GBACW 12.22, 12.26: the hexes it fired at in the Offensive Fire Phase.
    pub fired_at: &'a [HexNumber],
    /// GBACW 12.25, 12.96: it is continuing an engaged melee in this hex.
    pub continuing_engaged: bool,
    /// GBACW 12.85: it advanced into a hex vacated by retreat before melee.
    pub advanced_after_retreat: bool,
}

/// Whether one unit may initiate this melee; `Err` names the case.
/// Units continuing an engaged melee (12.94, 12.96) are exempt from the
/// restrictions on who may initiate (crews, wagons, pins, command) but
/// not from the ones on where.
pub fn may_initiate_melee(m: &MeleeIntent) -> Result<(), &'static str> {
    if !m.adjacent_at_phase_start {
        return Err("GBACW 12.21");
    }
    if !m.through_frontal_hexside {
        return Err("GBACW 7.31");
    }
    // GBACW 12.22: a unit that fired may melee only a hex it fired at.
    if !m.fired_at.is_empty() && !m.fired_at.contains(&m.target) {
        return Err("GBACW 12.22");
    }
    if m.advanced_after_retreat {
        return Err("GBACW 12.85");
    }
    if m.status.markers.contains(&Marker::Rout) {
        return Err("GBACW 12.51");
    }
    if m.status.formation == Formation::Column {
        return Err("GBACW 12.24");
    }
    if m.continuing_engaged {
        return Ok(());
    }
    match m.unit.kind {
        UnitKind::Wagon { .. } => return Err("GBACW 11.15"),
        UnitKind::Battery { .. } => return Err("GBACW 12.25"),
        _ => {}
    }
    if m.status.markers.contains(&Marker::Pin) {
        return Err("GBACW 9.84");
    }
    if !m.in_command {
        return Err("GBACW 17.11");
    }
    Ok(())
}

/// GBACW 12.23, 12.26, 12.75: a Player's declarations as a whole. Melee
/// is never mandatory (none at all is fine); units from several hexes may
/// join one melee; but a unit melees into one hex only — its strength is
/// never split, even if it split its fire. `Err` names the unit declared
/// twice.
pub fn check_declarations(declared: &[(CounterId, HexNumber)]) -> Result<(), CounterId> {
    let mut seen: BTreeMap<&CounterId, HexNumber> = BTreeMap::new();
    for (unit, hex) in declared {
        if seen.insert(unit, *hex).is_some() {
            return Err(unit.clone());
        }
    }
    Ok(())
}

/// GBACW 12.71–12.73: each side's points counted in a melee hex. The
/// attacker may not enter with more points than the hex allows (`Err`);
/// the defender's surplus does not count (12.72). Each side has the whole
/// limit (12.73).
pub fn melee_stacking(
    attacker: u16,
    defender: u16,
    limit: u16,
) -> Result<(u16, u16), &'static str> {
    if attacker > limit {
        return Err("GBACW 12.72");
    }
    Ok((attacker, defender.min(limit)))
}

/// GBACW 12.76, 12.94: units may move into a hex with engaged units but
/// never through it.
pub fn may_move_through(engaged_units_in_hex: bool, stops_here: bool) -> bool {
    !engaged_units_in_hex || stops_here
}

/// GBACW 12.32: in a continuing engaged melee, terrain penalties apply
/// only to units newly joining it.
pub fn continuing_terrain_penalty(
    penalty: u16,
    continuing_engaged: bool,
    newly_joining: bool,
) -> u16 {
    if continuing_engaged && !newly_joining {
        0
    } else {
        penalty
    }
}

/// GBACW 12.85: a unit that was going to melee a hex vacated by retreat
/// before melee may advance into it, within the hex's stacking limit.
pub fn may_advance(declared_against_hex: bool, points_after: u16, limit: u16) -> bool {
    declared_against_hex && points_after <= limit
}

/// GBACW 12.24: a column that was meleed goes into line once the melee
/// is resolved.
pub fn formation_after_melee(formation: Formation) -> Formation {
    if formation == Formation::Column {
        Formation::Line
    } else {
        formation
    }
}
