//! GBACW 9.0, 9.42, 8.3x, 9.31, 9.32: one fire attack, start to die roll.

use super::column::{ColumnShifts, fire_column};
use super::strength::FireStrength;
use crate::gbacw::charts::stacking::StackingPoints;
use crate::gbacw::oob::{Unit, UnitKind, UnitStatus};
use crate::gbacw::stacking::stacking_points;
use crate::gbacw::tables::{DensityChart, FireCrt, FireResult, FireRow};
use hexx::EdgeDirection;

/// A declared fire attack: the firers' final strengths (after range),
/// the CRT row and the shifts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attack {
    pub firers: Vec<FireStrength>,
    pub row: FireRow,
    pub shifts: ColumnShifts,
}

/// GBACW 9.0, 9.41: total the firers' strengths, find the column on the
/// row, shift it (9.51's cap is `max_shift`), roll one die. `None` for a
/// die outside 1..=6.
pub fn resolve_attack(
    crt: &FireCrt,
    attack: &Attack,
    max_shift: u8,
    die: u8,
) -> Option<FireResult> {
    let total = attack.firers.iter().fold(FireStrength::ZERO, |a, b| a + *b);
    let column = fire_column(crt, attack.row, total, attack.shifts, max_shift);
    crt.result(column, die)
}

/// GBACW 9.42: every attack of a Fire Phase is rolled, with the strengths
/// declared, before any casualty or morale result is applied — a firer
/// hit by another attack still fires at full strength. One die per attack,
/// in order.
pub fn resolve_all(
    crt: &FireCrt,
    attacks: &[Attack],
    max_shift: u8,
    mut die: impl FnMut() -> u8,
) -> Vec<Option<FireResult>> {
    attacks
        .iter()
        .map(|a| resolve_attack(crt, a, max_shift, die()))
        .collect()
}

/// GBACW 8.31, 8.33, 8.34: the points a crowded hex counts for density:
/// infantry and cavalry their Strength Points, a battery one, a wagon
/// four, leaders and markers nothing (they are not in `stack`).
pub fn density_points(stack: &[(&Unit, &UnitStatus)], chart: &StackingPoints) -> u32 {
    stack
        .iter()
        .map(|(u, s)| u32::from(stacking_points(u, s, chart)))
        .sum()
}

/// GBACW 8.32: the density column shift for a target hex.
pub fn density_shift(
    stack: &[(&Unit, &UnitStatus)],
    points: &StackingPoints,
    chart: &DensityChart,
) -> i32 {
    i32::from(chart.shift(density_points(stack, points)))
}

/// GBACW 7.21, 9.31, 9.32: what each firer puts through a hexside for the
/// small-arms limit: its current Strength Points before any range
/// multiplier; batteries are left out (all batteries may fire through one
/// hexside). Feed the result to [`super::check_hexside_limits`].
pub fn hexside_allotments(
    firers: &[(EdgeDirection, &Unit, &UnitStatus)],
) -> Vec<(EdgeDirection, u8)> {
    firers
        .iter()
        .filter(|(_, u, _)| !matches!(u.kind, UnitKind::Battery { .. }))
        .map(|(d, _, s)| (*d, s.strength))
        .collect()
}
