//! GBACW 10.3, 10.4, 11.23, 13.53: tracing a leader's radius or a supply
//! path past the enemy.

use crate::gbacw::charts::{MoveClass, MovementChart, Mp};
use crate::gbacw::map::{HexNumber, Map, SideKind, Terrain};
use crate::gbacw::movement::reachable;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// What stands in the way of a path: enemy units, the hexes in enemy ZOC
/// (for supply and command: 10.0, 16.31), and friendly-occupied hexes,
/// which negate an enemy ZOC for these paths (10.5).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PathBlocks {
    pub enemy_units: BTreeSet<HexNumber>,
    pub enemy_zoc: BTreeSet<HexNumber>,
    pub friendly_units: BTreeSet<HexNumber>,
}

impl PathBlocks {
    /// GBACW 10.3, 10.4, 13.53: a path may not pass an enemy unit, nor a
    /// hex in enemy ZOC unless a friendly unit is there.
    pub fn blocks(&self, hex: HexNumber) -> bool {
        self.enemy_units.contains(&hex)
            || (self.enemy_zoc.contains(&hex) && !self.friendly_units.contains(&hex))
    }
}

/// GBACW 17.11, 13.53, 10.4: whether `to` lies within `radius` hexes of
/// `from` along a path that passes no blocked hex and no impassable
/// terrain (lake hexes and all-lake hexsides). The two ends themselves
/// are not "passed through".
pub fn within_radius(
    map: &Map,
    blocks: &PathBlocks,
    from: HexNumber,
    to: HexNumber,
    radius: u8,
) -> bool {
    if from == to {
        return true;
    }
    if map.grid.distance(from, to) > u32::from(radius) {
        return false;
    }
    let mut seen = BTreeMap::from([(from, 0u8)]);
    let mut queue = VecDeque::from([from]);
    while let Some(at) = queue.pop_front() {
        let d = seen.get(&at).copied().unwrap_or(0);
        if d >= radius {
            continue;
        }
        for (_, next) in map.grid.neighbours_on_map(at) {
            if seen.contains_key(&next) {
                continue;
            }
            let impassable_side = map
                .grid
                .hexside(at, next)
                .is_some_and(|s| map.side_has(s, SideKind::Lake));
            if impassable_side {
                continue;
            }
            if next == to {
                return true;
            }
            let lake = map.hex(next).is_some_and(|h| h.has(Terrain::Lake));
            if lake || blocks.blocks(next) {
                continue;
            }
            seen.insert(next, d + 1);
            queue.push_back(next);
        }
    }
    false
}

/// GBACW 11.23: the supply path from a unit to a wagon, traced from the
/// unit, as far as an imaginary infantry unit in column could move in one
/// Movement Phase, never through an enemy-occupied hex or an unnegated
/// enemy ZOC. Returns the Movement Points the path costs, if there is one.
pub fn supply_path(
    map: &Map,
    chart: &MovementChart,
    unit: HexNumber,
    wagon: HexNumber,
    blocks: &PathBlocks,
) -> Option<Mp> {
    let allowance = chart.allowance(MoveClass::Column);
    let reach = reachable(map, chart, MoveClass::Column, unit, allowance, |h| {
        h == wagon || !blocks.blocks(h)
    });
    reach.cost(wagon)
}
