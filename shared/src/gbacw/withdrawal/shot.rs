//! GBACW 10.11, 10.12, 10.17: the withdrawal shot itself.

use crate::gbacw::charts::RangeChart;
use crate::gbacw::fire::{FireOccasion, FireStrength, current_fire_strength, may_fire};
use crate::gbacw::oob::{Unit, UnitStatus};

/// GBACW 10.11, 10.12, 10.17: a withdrawal (or retreat) shot is fired
/// before the mover leaves, so at one hex; it is a free shot outside any
/// Fire Phase (no per-phase limit, 9.44 does not count it), repeatable as
/// often as units trigger it — only ammunition depletion (11.21) and the
/// usual eligibility (a pinned unit may fire it, 9.84) stop it. `None`
/// when the unit may not fire it.
pub fn withdrawal_shot(
    chart: &RangeChart,
    unit: &Unit,
    status: &UnitStatus,
) -> Option<FireStrength> {
    may_fire(unit, status, chart, FireOccasion::Withdrawal).ok()?;
    current_fire_strength(chart, unit, status, 1)
}
