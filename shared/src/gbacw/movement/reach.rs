//! GBACW 5.11: every hex a unit can reach with its Movement Allowance, and
//! the cheapest path to each.

use super::cost::step_cost;
use crate::gbacw::charts::{MoveClass, MovementChart, Mp};
use crate::gbacw::map::{HexNumber, Map};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

/// The hexes a unit can reach: the least Movement Points spent to get
/// there and the hex it came from (`None` for the start).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    pub start: HexNumber,
    pub hexes: BTreeMap<HexNumber, (Mp, Option<HexNumber>)>,
}

impl Reach {
    pub fn cost(&self, hex: HexNumber) -> Option<Mp> {
        self.hexes.get(&hex).map(|(mp, _)| *mp)
    }

    /// GBACW 5.16: the hex-by-hex path from the start to `hex`, both
    /// included; `None` if unreachable.
    pub fn path_to(&self, hex: HexNumber) -> Option<Vec<HexNumber>> {
        let mut path = vec![hex];
        let mut at = hex;
        while let Some(prev) = self.hexes.get(&at)?.1 {
            path.push(prev);
            at = prev;
            if path.len() > self.hexes.len() {
                return None;
            }
        }
        path.reverse();
        Some(path)
    }
}

/// GBACW 5.11, 5.15, 5.16: the hexes a unit of `class` can reach from
/// `start` spending at most `allowance`, entering only hexes `may_enter`
/// accepts (the caller's rules: 5.12 no enemy-occupied hexes, 8.16 column
/// alone, 8.17 mounted cavalry). ZOCs do not stop movement (5.14).
/// Dijkstra over an ordered heap: ties break by hex number, so the chosen
/// paths are the same on every machine.
pub fn reachable(
    map: &Map,
    chart: &MovementChart,
    class: MoveClass,
    start: HexNumber,
    allowance: Mp,
    may_enter: impl Fn(HexNumber) -> bool,
) -> Reach {
    reachable_with(map, start, allowance, |from, to| {
        if !may_enter(to) {
            return None;
        }
        step_cost(map, chart, class, from, to).ok()
    })
}

/// [`reachable`] with the cost of each step given by the caller: `None`
/// when the step may not be taken. The engine prices steps by the chart
/// plus the rules of the moment (6.11: no road through a friendly-occupied
/// hex; 5.2: no entering an enemy ZOC) and searches with the same code.
pub fn reachable_with(
    map: &Map,
    start: HexNumber,
    allowance: Mp,
    step: impl Fn(HexNumber, HexNumber) -> Option<Mp>,
) -> Reach {
    reachable_over(
        start,
        allowance,
        |at| map.grid.neighbours_on_map(at).into_iter().map(|(_, n)| n),
        step,
    )
}

/// [`reachable_with`] over any neighbourhood (a caller may keep the map's
/// neighbours worked out in advance).
pub fn reachable_over<I: IntoIterator<Item = HexNumber>>(
    start: HexNumber,
    allowance: Mp,
    neighbours: impl Fn(HexNumber) -> I,
    step: impl Fn(HexNumber, HexNumber) -> Option<Mp>,
) -> Reach {
    let mut hexes = BTreeMap::new();
    hexes.insert(start, (Mp::ZERO, None));
    let mut heap = BinaryHeap::from([Reverse((Mp::ZERO, start))]);
    while let Some(Reverse((spent, at))) = heap.pop() {
        if hexes.get(&at).is_some_and(|(best, _)| *best < spent) {
            continue;
        }
        for next in neighbours(at) {
            let Some(cost) = step(at, next) else {
                continue;
            };
            let total = spent + cost;
            if total > allowance {
                continue;
            }
            let better = hexes.get(&next).is_none_or(|(best, _)| total < *best);
            if better {
                hexes.insert(next, (total, Some(at)));
                heap.push(Reverse((total, next)));
            }
        }
    }
    Reach { start, hexes }
}

/// GBACW 5.2, 13.32: routed and out-of-command units move one hex only,
/// "regardless of terrain cost" — any adjacent hex they could enter at all.
pub fn one_hex_moves(
    map: &Map,
    chart: &MovementChart,
    class: MoveClass,
    start: HexNumber,
    may_enter: impl Fn(HexNumber) -> bool,
) -> Vec<HexNumber> {
    let mut out: Vec<HexNumber> = map
        .grid
        .neighbours_on_map(start)
        .into_iter()
        .map(|(_, m)| m)
        .filter(|m| may_enter(*m) && step_cost(map, chart, class, start, *m).is_ok())
        .collect();
    out.sort();
    out
}
