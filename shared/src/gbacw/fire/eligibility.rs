//! Which units may fire, and when.

use crate::gbacw::charts::RangeChart;
use crate::gbacw::oob::{Crew, Formation, Marker, Unit, UnitKind, UnitStatus};

/// When the fire happens: the answer differs by occasion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FireOccasion {
    /// The firer's own Offensive Fire Phase (4.0 D).
    Offensive,
    /// The Defensive Fire Phase (4.0 C).
    Defensive,
    /// Withdrawal or retreat fire (10.1, 10.2, 6.23).
    Withdrawal,
}

/// Whether `unit` may fire on this occasion; `Err` names the case.
pub fn may_fire(
    unit: &Unit,
    status: &UnitStatus,
    range: &RangeChart,
    occasion: FireOccasion,
) -> Result<(), &'static str> {
    // GBACW 9.21: no weapon type, no fire.
    let weapon = unit
        .weapon
        .as_deref()
        .and_then(|w| range.weapon(w))
        .ok_or("GBACW 9.21")?;
    match status.formation {
        // GBACW 6.32, 9.62: column and limbered guns never fire.
        Formation::Column => return Err("GBACW 9.62"),
        Formation::Limbered => return Err("GBACW 6.32"),
        // GBACW 6.14, 6.34: mounted only with pistols, Colt repeaters, carbines.
        Formation::Mounted if !weapon.mounted_fire.value => return Err("GBACW 6.34"),
        _ => {}
    }
    let m = &status.markers;
    if m.contains(&Marker::Rout) {
        return Err("GBACW 13.32");
    }
    if m.contains(&Marker::AmmoDepleted) {
        return Err("GBACW 11.22");
    }
    if m.contains(&Marker::Engaged) {
        return Err("GBACW 12.94");
    }
    // GBACW 9.84: pinned units fire only withdrawal and retreat fire.
    if m.contains(&Marker::Pin) && occasion != FireOccasion::Withdrawal {
        return Err("GBACW 9.84");
    }
    match unit.kind {
        // GBACW 11.15, 11.16: wagon crews fire only in the Defensive Fire Phase.
        UnitKind::Wagon { .. } if occasion != FireOccasion::Defensive => return Err("GBACW 11.16"),
        UnitKind::Wagon { .. } if status.crew == Crew::None => return Err("GBACW 11.1"),
        // GBACW 11.32: a battery out of rounds cannot fire; 15.12: no crew, no battery.
        UnitKind::Battery { .. } if status.rounds == 0 => return Err("GBACW 11.32"),
        UnitKind::Battery { .. } if status.crew == Crew::None => return Err("GBACW 15.12"),
        _ => {}
    }
    Ok(())
}
