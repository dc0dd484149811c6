//! GBACW 12.31, 12.33, 16.22: terrain and melee.

use crate::gbacw::charts::{CombatChart, CombatSide, MoveClass, MovementChart};
use crate::gbacw::map::{HexNumber, Map, SideKind};
use crate::gbacw::movement::step_cost;

/// The combat-chart row for a hexside feature crossed from `from` into
/// `to`: streams and runs either way; crests only going up; walls, works
/// and redans only into their inner side (Corinth 23.1: "from outside to
/// inside").
fn crossed(kind: SideKind, side: Option<HexNumber>, to: HexNumber) -> Option<CombatSide> {
    let into = side == Some(to);
    match kind {
        SideKind::Stream => Some(CombatSide::Stream),
        SideKind::Run => Some(CombatSide::Run),
        SideKind::Crest if into => Some(CombatSide::CrestUp),
        SideKind::SteepCrest if into => Some(CombatSide::SteepCrestUp),
        SideKind::StoneWall if into => Some(CombatSide::StoneWall),
        SideKind::Works if into => Some(CombatSide::Works),
        SideKind::RedanPrimary if into => Some(CombatSide::RedanPrimary),
        SideKind::RedanSecondary if into => Some(CombatSide::RedanSecondary),
        _ => None,
    }
}

/// GBACW 12.31: melee points a unit loses for the melee (temporarily) by
/// crossing the hexside from `from` into `to`, per the Terrain Effects on
/// Combat Chart. 0 if not adjacent.
pub fn crossing_penalty(map: &Map, chart: &CombatChart, from: HexNumber, to: HexNumber) -> u16 {
    let Some(side) = map.grid.hexside(from, to) else {
        return 0;
    };
    map.side_features(side)
        .filter_map(|f| crossed(f.kind, f.side, to))
        .filter_map(|row| chart.hexside.get(&row))
        .map(|s| u16::from(s.melee.value))
        .sum()
}

/// GBACW 12.33: a unit may melee into a hex only if it could move there,
/// by the chart's own cost. The hosted ruleset asks its step table instead
/// (`ruleset::combat::melee::may_melee_into`), which adds what exclusive
/// rules close to movement (Corinth 23.31).
pub fn may_melee_into(
    map: &Map,
    chart: &MovementChart,
    class: MoveClass,
    from: HexNumber,
    to: HexNumber,
) -> bool {
    step_cost(map, chart, class, from, to).is_ok()
}

/// GBACW 16.22: mounted cavalry may not charge into terrain, or across
/// hexsides, that the Terrain Effects on Combat Chart bars.
pub fn may_charge(map: &Map, chart: &CombatChart, from: HexNumber, to: HexNumber) -> bool {
    let (Some(side), Some(target)) = (map.grid.hexside(from, to), map.hex(to)) else {
        return false;
    };
    let hex_ok = target
        .terrain
        .iter()
        .all(|t| chart.hex.get(t).is_some_and(|h| h.charge.value));
    let sides_ok = map.side_features(side).all(|f| {
        let row = match f.kind {
            SideKind::Road | SideKind::Pike => Some(CombatSide::Road),
            k => crossed(k, f.side, to),
        };
        row.and_then(|r| chart.hexside.get(&r))
            .is_none_or(|s| s.charge.value)
    });
    hex_ok && sides_ok
}
