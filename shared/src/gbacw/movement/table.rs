//! Every step's chart cost on one map, worked out once: a ruleset asks
//! for the same few thousand steps over and over (validation, reachable
//! hexes, legal actions), and a lookup is many times cheaper than
//! [`step_cost_by`]'s walk over the map and chart.

use super::cost::{Blocked, step_cost_by};
use super::reach::Reach;
use crate::gbacw::charts::{MoveClass, MovementChart, Mp};
use crate::gbacw::map::{HexNumber, Map};
use crate::gbacw::names::Named;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

/// One class's step costs: by hex index, by neighbour slot.
type Costs = Vec<Vec<Result<Mp, Blocked>>>;

/// The step costs of one map under one movement chart.
#[derive(Clone, Debug)]
pub struct StepTable {
    cols: (u8, u8),
    rows: (u8, u8),
    /// Every hex of the map, in number order: a hex's index is its place here.
    hexes: Vec<HexNumber>,
    /// By hex index: the indexes of its neighbours on the map.
    neighbours: Vec<Vec<usize>>,
    /// By class (in `MoveClass::all()` order) and road use (6.11).
    costs: Vec<[Costs; 2]>,
}

impl StepTable {
    pub fn new(map: &Map, chart: &MovementChart) -> StepTable {
        let g = &map.grid;
        let hexes: Vec<HexNumber> = g.hexes().collect();
        let mut table = StepTable {
            cols: g.cols,
            rows: g.rows,
            hexes,
            neighbours: Vec::new(),
            costs: Vec::new(),
        };
        table.neighbours = table
            .hexes
            .iter()
            .map(|h| {
                g.neighbours_on_map(*h)
                    .into_iter()
                    .filter_map(|(_, n)| table.index(n))
                    .collect()
            })
            .collect();
        for class in MoveClass::all() {
            let by_paths = [false, true].map(|paths| {
                table
                    .hexes
                    .iter()
                    .zip(&table.neighbours)
                    .map(|(from, ns)| {
                        ns.iter()
                            .map(|to| {
                                step_cost_by(map, chart, *class, *from, table.hexes[*to], paths)
                            })
                            .collect()
                    })
                    .collect()
            });
            table.costs.push(by_paths);
        }
        table
    }

    /// Close the step `from` → `to` to `class` (both ways of road use):
    /// an exclusive rule the chart cannot say (Corinth 23.31). Nothing
    /// happens for hexes that are not neighbours on the map.
    pub fn forbid(&mut self, class: MoveClass, from: HexNumber, to: HexNumber, why: Blocked) {
        let (Some(i), Some(j)) = (self.index(from), self.index(to)) else {
            return;
        };
        let Some(k) = self.neighbours[i].iter().position(|n| *n == j) else {
            return;
        };
        let Some(c) = MoveClass::all().iter().position(|x| *x == class) else {
            return;
        };
        for by_paths in &mut self.costs[c] {
            by_paths[i][k] = Err(why);
        }
    }

    /// The place of `h` in the map's hexes; `None` off the map.
    pub fn index(&self, h: HexNumber) -> Option<usize> {
        let (c, r) = (h.col(), h.row());
        let inside =
            (self.cols.0..=self.cols.1).contains(&c) && (self.rows.0..=self.rows.1).contains(&r);
        let rows = usize::from(self.rows.1 - self.rows.0) + 1;
        inside.then(|| usize::from(c - self.cols.0) * rows + usize::from(r - self.rows.0))
    }

    /// The neighbours of `h` on the map (none off it), in number order.
    pub fn neighbours(&self, h: HexNumber) -> impl Iterator<Item = HexNumber> + '_ {
        self.index(h)
            .map_or(&[][..], |i| &self.neighbours[i])
            .iter()
            .map(|n| self.hexes[*n])
    }

    /// [`step_cost_by`], looked up.
    pub fn cost(
        &self,
        class: MoveClass,
        from: HexNumber,
        to: HexNumber,
        paths: bool,
    ) -> Result<Mp, Blocked> {
        let i = self.index(from).ok_or(Blocked::OffMap)?;
        let j = self.index(to).ok_or(Blocked::OffMap)?;
        let k = self.neighbours[i]
            .iter()
            .position(|n| *n == j)
            .ok_or(Blocked::NotAdjacent)?;
        let c = MoveClass::all()
            .iter()
            .position(|x| *x == class)
            .unwrap_or(0);
        self.costs[c][usize::from(paths)][i][k]
    }

    /// GBACW 5.11, 5.15, 5.16: [`super::reachable`] by the table, the
    /// chart's cost of every step for `class`, entering only hexes
    /// `may_enter` accepts.
    pub fn reachable(
        &self,
        class: MoveClass,
        start: HexNumber,
        allowance: Mp,
        may_enter: impl Fn(HexNumber) -> bool,
    ) -> Reach {
        let c = MoveClass::all()
            .iter()
            .position(|x| *x == class)
            .unwrap_or(0);
        let costs = &self.costs[c][1];
        self.search(start, allowance, |i, k, to| {
            if !may_enter(to) {
                return None;
            }
            costs[i][k].ok()
        })
    }

    /// [`super::reachable_with`] by the table: `step` prices each step.
    pub fn reachable_with(
        &self,
        start: HexNumber,
        allowance: Mp,
        step: impl Fn(HexNumber, HexNumber) -> Option<Mp>,
    ) -> Reach {
        self.search(start, allowance, |i, _, to| step(self.hexes[i], to))
    }

    /// Dijkstra over hex indexes, ties broken by hex number (indexes are
    /// in number order), so the paths are those of [`super::reachable`].
    fn search(
        &self,
        start: HexNumber,
        allowance: Mp,
        step: impl Fn(usize, usize, HexNumber) -> Option<Mp>,
    ) -> Reach {
        let Some(s) = self.index(start) else {
            return Reach {
                start,
                hexes: BTreeMap::from([(start, (Mp::ZERO, None))]),
            };
        };
        let mut best: Vec<Option<(Mp, Option<usize>)>> = vec![None; self.hexes.len()];
        best[s] = Some((Mp::ZERO, None));
        let mut heap = BinaryHeap::from([Reverse((Mp::ZERO, s))]);
        while let Some(Reverse((spent, at))) = heap.pop() {
            if best[at].is_some_and(|(b, _)| b < spent) {
                continue;
            }
            for (k, &next) in self.neighbours[at].iter().enumerate() {
                let Some(cost) = step(at, k, self.hexes[next]) else {
                    continue;
                };
                let total = spent + cost;
                if total > allowance {
                    continue;
                }
                if best[next].is_none_or(|(b, _)| total < b) {
                    best[next] = Some((total, Some(at)));
                    heap.push(Reverse((total, next)));
                }
            }
        }
        let hexes = best
            .iter()
            .enumerate()
            .filter_map(|(i, b)| {
                b.map(|(mp, prev)| (self.hexes[i], (mp, prev.map(|p| self.hexes[p]))))
            })
            .collect();
        Reach { start, hexes }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gbacw::charts::Charts;
    use crate::gbacw::map::parse_map;
    use crate::gbacw::movement::{reachable, step_cost};

    #[test]
    fn case_5_19_the_table_prices_every_step_as_the_chart_does() {
        let map = parse_map(crate::gbacw::map::tests::TEST_MAP).unwrap();
        let chart = Charts::load(crate::gbacw::charts::tests::CHARTS)
            .unwrap()
            .movement;
        let t = StepTable::new(&map, &chart);
        for (h, _) in map.hexes() {
            for (_, n) in map.grid.neighbours_on_map(h) {
                for class in MoveClass::all() {
                    assert_eq!(
                        t.cost(*class, h, n, true),
                        step_cost(&map, &chart, *class, h, n)
                    );
                }
            }
            for class in MoveClass::all() {
                let allowance = chart.allowance(*class);
                assert_eq!(
                    t.reachable(*class, h, allowance, |_| true),
                    reachable(&map, &chart, *class, h, allowance, |_| true),
                    "{h} {class:?}"
                );
            }
        }
    }
}
