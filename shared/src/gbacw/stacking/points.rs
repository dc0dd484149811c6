//! GBACW 8.12–8.14, 8.33–8.34: what a unit counts for stacking and density.

use crate::gbacw::charts::stacking::StackingPoints;
use crate::gbacw::oob::{Unit, UnitKind, UnitStatus};

/// GBACW 8.12: a unit's Stacking Points — its current strength, except a
/// supply wagon (4, 11.14) and a battery (1, 8.13), whatever its guns;
/// gun crews add nothing (15.1). The same count gives density (8.33,
/// 8.34). Leaders and markers are not units and count 0 (8.14).
pub fn stacking_points(unit: &Unit, status: &UnitStatus, chart: &StackingPoints) -> u16 {
    match unit.kind {
        UnitKind::Infantry | UnitKind::Cavalry => u16::from(status.strength),
        UnitKind::Battery { .. } => chart.battery.value,
        UnitKind::Wagon { .. } => chart.wagon.value,
    }
}
