//! GBACW 16.2–16.27, 16.34: cavalry charges and mounted fire.

use crate::gbacw::charts::CombatChart;
use crate::gbacw::facing::{Facing, frontal_directions};
use crate::gbacw::map::{HexNumber, Map};
use crate::gbacw::melee::may_charge;
use crate::gbacw::oob::{Formation, Marker, UnitStatus};
use crate::gbacw::tables::MeleeEffect;
use hexx::EdgeDirection;

/// Where a would-be charger stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChargeSetup {
    /// Hexes from the target hex at the start of the Movement Phase.
    pub start_distance: u32,
    pub at: HexNumber,
    pub facing: Facing,
    pub target: HexNumber,
}

/// GBACW 16.2–16.24: whether a unit may charge the target hex. It must be
/// mounted and unrouted, have begun the Movement Phase within four hexes
/// (16.23), be adjacent now, charge through its one front hexside (16.2),
/// and not into or across terrain the chart closes to charges (16.22).
/// Any unit may be charged, mounted cavalry included (16.21).
pub fn charge_allowed(
    map: &Map,
    chart: &CombatChart,
    status: &UnitStatus,
    setup: ChargeSetup,
) -> Result<(), &'static str> {
    if status.formation != Formation::Mounted || status.markers.contains(&Marker::Rout) {
        return Err("GBACW 16.2");
    }
    if setup.start_distance > 4 {
        return Err("GBACW 16.23");
    }
    let Some(dir) = map.grid.direction(setup.at, setup.target) else {
        return Err("GBACW 16.24");
    };
    if dir != setup.facing.direction() {
        return Err("GBACW 16.2");
    }
    if !may_charge(map, chart, setup.at, setup.target) {
        return Err("GBACW 16.22");
    }
    Ok(())
}

/// GBACW 16.25–16.27: chargers rout once the melee is over, whatever its
/// result (`melee`: the charger's side of the cell; an Engaged one too,
/// 16.27) — unless the charged mounted cavalry retreated before the melee
/// (16.26), or the charge came to no melee at all (`None`).
pub fn charger_routs(melee: Option<MeleeEffect>, defenders_retreated_mounted: bool) -> bool {
    melee.is_some() && !defenders_retreated_mounted
}

/// GBACW 16.34, 6.34: the hexsides mounted cavalry may fire through: its
/// one front hexside, and only with pistols, Colt repeaters or carbines
/// (`mounted_fire` on the Range Effects Chart).
pub fn mounted_fire_hexsides(facing: Facing, weapon_fires_mounted: bool) -> Vec<EdgeDirection> {
    if weapon_fires_mounted {
        frontal_directions(facing, Formation::Mounted)
    } else {
        Vec::new()
    }
}
