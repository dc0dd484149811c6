//! Every step's chart cost on a scenario's map, worked out once when the
//! ruleset is built: validation, reachable hexes and the legal-action set
//! ask for the same few thousand steps over and over.

use crate::gbacw::charts::{MoveClass, MovementChart, Mp};
use crate::gbacw::map::{HexNumber, Map};
use crate::gbacw::movement::{Blocked, step_cost_by};
use crate::gbacw::names::Named;

/// One class's step costs: by hex index, by neighbour slot.
type Costs = Vec<Vec<Result<Mp, Blocked>>>;

#[derive(Clone, Debug)]
pub(crate) struct Steps {
    cols: (u8, u8),
    rows: (u8, u8),
    /// By hex index: the neighbours on the map.
    neighbours: Vec<Vec<HexNumber>>,
    /// By class (in `MoveClass::all()` order) and road use (6.11), by hex
    /// index, by neighbour slot: the cost of the step.
    costs: Vec<[Costs; 2]>,
}

impl Steps {
    pub fn new(map: &Map, chart: &MovementChart) -> Steps {
        let g = &map.grid;
        let mut steps = Steps {
            cols: g.cols,
            rows: g.rows,
            neighbours: Vec::new(),
            costs: Vec::new(),
        };
        let hexes: Vec<HexNumber> = g.hexes().collect();
        steps.neighbours = hexes
            .iter()
            .map(|h| {
                g.neighbours_on_map(*h)
                    .into_iter()
                    .map(|(_, n)| n)
                    .collect()
            })
            .collect();
        for class in MoveClass::all() {
            let by_paths = [false, true].map(|paths| {
                hexes
                    .iter()
                    .zip(&steps.neighbours)
                    .map(|(from, ns)| {
                        ns.iter()
                            .map(|to| step_cost_by(map, chart, *class, *from, *to, paths))
                            .collect()
                    })
                    .collect()
            });
            steps.costs.push(by_paths);
        }
        steps
    }

    fn index(&self, h: HexNumber) -> Option<usize> {
        let (c, r) = (h.col(), h.row());
        let inside =
            (self.cols.0..=self.cols.1).contains(&c) && (self.rows.0..=self.rows.1).contains(&r);
        let rows = usize::from(self.rows.1 - self.rows.0) + 1;
        inside.then(|| usize::from(c - self.cols.0) * rows + usize::from(r - self.rows.0))
    }

    /// The neighbours of `h` on the map (none off it).
    pub fn neighbours(&self, h: HexNumber) -> &[HexNumber] {
        self.index(h).map_or(&[], |i| &self.neighbours[i])
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
        let k = self.neighbours[i]
            .iter()
            .position(|n| *n == to)
            .ok_or(Blocked::NotAdjacent)?;
        let c = MoveClass::all()
            .iter()
            .position(|x| *x == class)
            .unwrap_or(0);
        self.costs[c][usize::from(paths)][i][k]
    }
}
