//! GBACW 11.23–11.25, 11.32: the Resupply Phase.

use crate::gbacw::oob::{CounterId, Marker, UnitStatus};

use super::wagon::wagon_may_move;

/// A unit asking one wagon for ammunition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResupplyRequest {
    pub unit: CounterId,
    /// A battery (artillery points) or a small-arms unit.
    pub battery: bool,
    /// Rounds a battery wants back (its roster boxes less what it has).
    pub rounds_wanted: u16,
    /// GBACW 11.23: a supply path was traced from it to the wagon
    /// ([`crate::gbacw::command::supply_path`]).
    pub path: bool,
    /// GBACW 11.25: it moved this Player-Turn.
    pub moved: bool,
}

/// GBACW 11.23–11.25, 11.32: resupply from one wagon, in the order asked.
/// Each small-arms unit takes one small-arms box (11.24); a battery takes
/// as many rounds as it wants and the artillery track holds, one point a
/// round (the rules say "additional rounds ... as per 11.23" and count
/// artillery supply in points; the engine reads one point as one round).
/// A moved or pinned or uncrewed wagon resupplies nobody; a unit that
/// moved, has no path, or is not depleted is refused. Returns what each
/// unit received (boxes or rounds), updating the wagon and the units'
/// markers and rounds; `Err` names the first refused unit and the case.
pub fn resupply(
    wagon: &mut UnitStatus,
    wagon_moved: bool,
    requests: &[ResupplyRequest],
    units: &mut std::collections::BTreeMap<CounterId, UnitStatus>,
) -> Result<Vec<(CounterId, u16)>, (CounterId, &'static str)> {
    let mut given = Vec::new();
    for r in requests {
        let refuse = |case| Err((r.unit.clone(), case));
        if wagon_moved || r.moved {
            return refuse("GBACW 11.25");
        }
        if !wagon_may_move(wagon) {
            return refuse("GBACW 11.1");
        }
        if !r.path {
            return refuse("GBACW 11.23");
        }
        let Some(status) = units.get_mut(&r.unit) else {
            return refuse("GBACW 11.23");
        };
        if r.battery {
            let n = r.rounds_wanted.min(wagon.supply.1);
            if n == 0 {
                return refuse("GBACW 11.32");
            }
            wagon.supply.1 -= n;
            status.rounds = status.rounds.saturating_add(n);
            given.push((r.unit.clone(), n));
        } else {
            if !status.markers.contains(&Marker::AmmoDepleted) || wagon.supply.0 == 0 {
                return refuse("GBACW 11.24");
            }
            wagon.supply.0 -= 1;
            status.markers.remove(&Marker::AmmoDepleted);
            given.push((r.unit.clone(), 1));
        }
    }
    Ok(given)
}
