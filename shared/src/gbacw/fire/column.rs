//! GBACW 9.0, 9.14, 9.15, 9.5x, 8.32, 7.23: finding the Fire CRT column.

use super::strength::FireStrength;
use crate::gbacw::charts::{CombatChart, CombatSide};
use crate::gbacw::facing::fire_crossings;
use crate::gbacw::map::{HexNumber, Map, SideKind};
use crate::gbacw::oob::UnitKind;
use crate::gbacw::tables::{FireCrt, FireRow};
use std::collections::BTreeSet;

/// GBACW 9.14/9.15: artillery firing at infantry or cavalry (or a lone
/// crew, which counts as Line infantry: 6.13) reads the Grapeshot row;
/// small arms, and artillery at batteries or wagons, the other row.
pub fn fire_row(firer_is_artillery: bool, target: &UnitKind) -> FireRow {
    match (firer_is_artillery, target) {
        (true, UnitKind::Infantry | UnitKind::Cavalry) => FireRow::Grapeshot,
        _ => FireRow::SmallArmsAndCounterBattery,
    }
}

/// The column shifts on one fire attack (+ = right, for the firer).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ColumnShifts {
    /// Net terrain shift, from [`terrain_shift`] (9.5x; negative).
    pub terrain: i32,
    /// Density shift, from the Density Adjustment Chart (8.32).
    pub density: i32,
    /// GBACW 7.23/9.61: at least one firer enfilades the target: +1.
    pub enfiladed: bool,
}

/// GBACW 9.0/9.51: the column for a total strength on `row`, after the
/// shifts. The net shift is capped at `max_shift` columns either way —
/// applied to all shifts together, as 9.51's example ("three to the left
/// and one to the right") mixes terrain with a rightward shift that only
/// enfilade or density can give — and the column stays on the table.
pub fn fire_column(
    crt: &FireCrt,
    row: FireRow,
    total: FireStrength,
    shifts: ColumnShifts,
    max_shift: u8,
) -> usize {
    let base = crt.column(row, total.whole());
    let cap = i32::from(max_shift);
    let net = (shifts.terrain + shifts.density + i32::from(shifts.enfiladed)).clamp(-cap, cap);
    FireCrt::shifted(base, net)
}

/// The combat-chart row a hexside feature gives a target on `target`'s
/// side; `higher` is whether the target stands above the firer.
fn protecting(
    kind: SideKind,
    side: Option<HexNumber>,
    target: HexNumber,
    higher: bool,
) -> Option<CombatSide> {
    let on_inner_side = side == Some(target);
    match kind {
        // GBACW 9.52: only fire from lower ground through the crest.
        SideKind::Crest if on_inner_side && higher => Some(CombatSide::CrestUp),
        SideKind::SteepCrest if on_inner_side && higher => Some(CombatSide::SteepCrestUp),
        SideKind::StoneWall if on_inner_side => Some(CombatSide::StoneWall),
        SideKind::Works if on_inner_side => Some(CombatSide::Works),
        SideKind::RedanPrimary if on_inner_side => Some(CombatSide::RedanPrimary),
        SideKind::RedanSecondary if on_inner_side => Some(CombatSide::RedanSecondary),
        SideKind::Stream => Some(CombatSide::Stream),
        SideKind::Run => Some(CombatSide::Run),
        // GBACW 9.54: roads and pikes have no effect; the road row says so.
        SideKind::Road | SideKind::Pike => Some(CombatSide::Road),
        _ => None,
    }
}

/// GBACW 9.5–9.54: the terrain shift for fire on `target` from `firers`.
/// The target's hex gives the shift of its terrain best for the defender
/// (5.15, 9.53: woods −1); each hexside feature the fire crosses into the
/// target's hex adds its shift once if at least one firer fires through it
/// (9.5, 9.52). A line along a vertex counts both hexsides beside it.
/// Uncapped: [`fire_column`] applies 9.51's cap.
pub fn terrain_shift(
    map: &Map,
    chart: &CombatChart,
    target: HexNumber,
    firers: &[HexNumber],
) -> i32 {
    let Some(info) = map.hex(target) else {
        return 0;
    };
    let hex = i32::from(chart.hex_fire_shift(&info.terrain));
    let target_level = info.level;
    let mut rows = BTreeSet::new();
    for &firer in firers {
        let higher = map.hex(firer).is_some_and(|f| f.level < target_level);
        for d in fire_crossings(&map.grid, target, firer) {
            let Some(side) = map.grid.hexside_towards(target, d) else {
                continue;
            };
            rows.extend(
                map.side_features(side)
                    .filter_map(|f| protecting(f.kind, f.side, target, higher)),
            );
        }
    }
    let sides: i32 = rows
        .iter()
        .filter_map(|r| chart.hexside.get(r))
        .map(|s| i32::from(s.fire_shift.value))
        .sum();
    hex + sides
}
