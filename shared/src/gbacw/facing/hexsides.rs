//! GBACW 7.0: frontal and enfilade hexsides, and which hexside a line of
//! fire crosses.

use crate::gbacw::map::{Grid, HexNumber, Orientation};
use crate::gbacw::oob::Formation;
use hexx::{EdgeDirection, Hex};
use serde::{Deserialize, Serialize};

/// GBACW 7.0: the hexside the top of the counter faces, as a `hexx` edge
/// direction index 0..=5 (kept as a number so states serialize without
/// `hexx`'s serde feature).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Facing(u8);

impl Facing {
    pub fn new(direction: EdgeDirection) -> Self {
        Facing(direction.index())
    }

    pub fn direction(self) -> EdgeDirection {
        EdgeDirection::ALL_DIRECTIONS[usize::from(self.0 % 6)]
    }

    /// A facing from a `hexx` edge direction index; `None` unless 0..=5.
    pub fn from_index(index: u8) -> Option<Self> {
        (index < 6).then_some(Facing(index))
    }

    /// GBACW 7.0: the facing a direction word names on a map of
    /// `orientation` ([`direction_names`]).
    pub fn from_name(orientation: Orientation, word: &str) -> Option<Self> {
        let i = direction_names(orientation)
            .iter()
            .position(|n| *n == word)?;
        Facing::from_index(i as u8)
    }

    /// The word for this facing on a map of `orientation`.
    pub fn name(self, orientation: Orientation) -> &'static str {
        direction_names(orientation)[usize::from(self.0 % 6)]
    }

    /// The index as stored: 0..=5 for every facing made here, but a
    /// decoded one may hold anything, so the engine checks it
    /// ([`Facing::from_index`]) before it takes a facing from a player.
    pub fn index(self) -> u8 {
        self.0
    }
}

/// The words for the six hexsides a counter may face, in `hexx` edge
/// direction order: directions on the map as printed, top up (not the
/// battlefield's compass: Cedar Mountain's north is its left edge).
pub fn direction_names(orientation: Orientation) -> [&'static str; 6] {
    match orientation {
        Orientation::Flat => ["se", "s", "sw", "nw", "n", "ne"],
        Orientation::Pointy => ["e", "se", "sw", "w", "nw", "ne"],
    }
}

/// GBACW 7.0: the hexsides a unit fires through and projects a ZOC from.
/// Line infantry, dismounted cavalry and unlimbered guns: the faced
/// hexside and its two neighbours. Mounted cavalry: the faced hexside only
/// (6.34). Column and limbered guns: none (they cannot fire, 9.62).
///
/// GBACW 11.16: a supply wagon's crew "may only fire in the Friendly
/// Defensive Fire Phase" — so it fires through some hexside. 6.0:
/// "Supply wagons engage in combat as Line infantry" (and 11.1: "The crew
/// has its weapon type, morale, and Combat Strength indicated in the same
/// manner as an infantry unit"): it fires as Line infantry does, through
/// the faced hexside and its two neighbours. The wagon itself is
/// still always enfiladed (7.0) and its crew has no ZOC (11.16,
/// `zoc::exerts_zoc`).
pub fn frontal_directions(facing: Facing, formation: Formation) -> Vec<EdgeDirection> {
    let d = facing.direction();
    match formation {
        Formation::Line | Formation::Dismounted | Formation::Unlimbered | Formation::Wagon => {
            vec![d.counter_clockwise(), d, d.clockwise()]
        }
        Formation::Mounted => vec![d],
        Formation::Column | Formation::Limbered => Vec::new(),
    }
}

/// The hexside(s) of `from` that a line of fire from `from` to `to`
/// leaves through: one, or two when it runs exactly along a vertex (7.23).
/// Empty when the hexes are the same.
pub fn fire_crossings(grid: &Grid, from: HexNumber, to: HexNumber) -> Vec<EdgeDirection> {
    let v = grid.to_hex(to) - grid.to_hex(from);
    let cube = [v.x, v.y, -v.x - v.y];
    if cube == [0, 0, 0] {
        return Vec::new();
    }
    // The line leaves through the edge whose cube vector has +1 where the
    // offset is largest and -1 where it is smallest; a tie for largest or
    // smallest means the line runs along the vertex between two edges.
    let max = cube.iter().copied().max().unwrap_or(0);
    let min = cube.iter().copied().min().unwrap_or(0);
    let highs: Vec<usize> = (0..3).filter(|&i| cube[i] == max).collect();
    let lows: Vec<usize> = (0..3).filter(|&i| cube[i] == min).collect();
    let mut out = Vec::new();
    for &h in &highs {
        for &l in &lows {
            if h == l {
                continue;
            }
            let mut e = [0i32; 3];
            e[h] = 1;
            e[l] = -1;
            if let Some(d) = Hex::ZERO.neighbor_direction(Hex::new(e[0], e[1]))
                && !out.contains(&d)
            {
                out.push(d);
            }
        }
    }
    out
}

/// GBACW 7.22: whether a unit at `firer` facing `facing` may fire at
/// `target` — the line of fire must leave through a frontal hexside.
pub fn can_fire_through(
    grid: &Grid,
    firer: HexNumber,
    facing: Facing,
    formation: Formation,
    target: HexNumber,
) -> bool {
    let front = frontal_directions(facing, formation);
    fire_crossings(grid, firer, target)
        .iter()
        .any(|d| front.contains(d))
}

/// GBACW 7.23: whether fire from `firer` enfilades a unit at `target`: it
/// enters through one of the target's rear hexsides, and a line along a
/// vertex between a frontal and a rear hexside counts as frontal. Column,
/// wagons, mounted cavalry and limbered guns (7.0) and routed units (6.35)
/// are always enfiladed.
pub fn is_enfiladed(
    grid: &Grid,
    target: HexNumber,
    facing: Facing,
    formation: Formation,
    routed: bool,
    firer: HexNumber,
) -> bool {
    if routed || formation.always_enfiladed() {
        return true;
    }
    let d = facing.direction();
    let front = [d.counter_clockwise(), d, d.clockwise()];
    let crossings = fire_crossings(grid, target, firer);
    !crossings.is_empty() && crossings.iter().all(|c| !front.contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gbacw::map::{Offset, Orientation};

    fn grid() -> Grid {
        Grid {
            orientation: Orientation::Flat,
            offset: Offset::Even,
            cols: (1, 20),
            rows: (1, 20),
        }
    }

    fn n(s: &str) -> HexNumber {
        HexNumber::parse(s).unwrap()
    }

    const NORTH: EdgeDirection = EdgeDirection::FLAT_TOP;

    #[test]
    fn case_7_0_line_has_three_frontal_hexsides_mounted_one() {
        let f = Facing::new(NORTH);
        assert_eq!(frontal_directions(f, Formation::Line).len(), 3);
        assert_eq!(frontal_directions(f, Formation::Unlimbered).len(), 3);
        assert_eq!(frontal_directions(f, Formation::Mounted), vec![NORTH]);
        assert!(frontal_directions(f, Formation::Column).is_empty());
        assert_eq!(Facing::new(NORTH).direction(), NORTH);
    }

    #[test]
    fn case_7_22_units_fire_only_through_frontal_hexsides() {
        let g = grid();
        let f = Facing::new(NORTH);
        // 1010 facing north: 1008 is straight ahead, 1012 straight behind.
        assert!(can_fire_through(
            &g,
            n("1010"),
            f,
            Formation::Line,
            n("1008")
        ));
        assert!(!can_fire_through(
            &g,
            n("1010"),
            f,
            Formation::Line,
            n("1012")
        ));
        assert!(!can_fire_through(
            &g,
            n("1010"),
            f,
            Formation::Column,
            n("1008")
        ));
    }

    #[test]
    fn case_7_23_rear_fire_enfilades_and_a_vertex_counts_frontal() {
        let g = grid();
        let f = Facing::new(NORTH);
        // From straight behind: enfiladed. From straight ahead: not.
        assert!(is_enfiladed(
            &g,
            n("1010"),
            f,
            Formation::Line,
            false,
            n("1013")
        ));
        assert!(!is_enfiladed(
            &g,
            n("1010"),
            f,
            Formation::Line,
            false,
            n("1007")
        ));
        // Along the vertex between the top-right (frontal) and bottom-right
        // (rear) hexsides: two hexes due east, 1210. Counts as frontal.
        let crossings = fire_crossings(&g, n("1010"), n("1210"));
        assert_eq!(crossings.len(), 2, "{crossings:?}");
        assert!(!is_enfiladed(
            &g,
            n("1010"),
            f,
            Formation::Line,
            false,
            n("1210")
        ));
        // Facing south-west, both hexsides beside that vertex (top-right,
        // bottom-right) are rear: enfiladed.
        let south_west = Facing::new(EdgeDirection::FLAT_BOTTOM_LEFT);
        assert!(is_enfiladed(
            &g,
            n("1010"),
            south_west,
            Formation::Line,
            false,
            n("1210")
        ));
    }

    #[test]
    fn case_6_35_routed_units_are_always_enfiladed() {
        let g = grid();
        let f = Facing::new(NORTH);
        assert!(is_enfiladed(
            &g,
            n("1010"),
            f,
            Formation::Line,
            true,
            n("1008")
        ));
    }

    #[test]
    fn case_16_35_mounted_cavalry_always_enfiladed() {
        let g = grid();
        assert!(is_enfiladed(
            &g,
            n("1010"),
            Facing::new(NORTH),
            Formation::Mounted,
            false,
            n("1008")
        ));
    }

    #[test]
    fn fire_crossings_match_neighbours() {
        let g = grid();
        for (d, m) in g.neighbours_on_map(n("1010")) {
            assert_eq!(fire_crossings(&g, n("1010"), m), vec![d]);
        }
        assert!(fire_crossings(&g, n("1010"), n("1010")).is_empty());
    }
}
