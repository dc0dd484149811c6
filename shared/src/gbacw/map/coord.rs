//! Hex numbers as printed on SPI maps and the hex math behind them.
//!
//! An SPI map numbers each hex with four digits, column then row: 2437 is
//! column 24, row 37 (GBACW 3.1: the grid regulates movement, location and
//! range). Columns run left to right and rows top to bottom. Which columns
//! sit half a hex lower differs from map to map, so each map file says it;
//! the math itself (neighbours, distance, the direction of a hexside) is
//! `hexx`'s, over axial coordinates.

use hexx::{EdgeDirection, Hex, HexOrientation, OffsetHexMode};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A hex as printed on the map: column and row, each 0..=99.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct HexNumber {
    col: u8,
    row: u8,
}

impl HexNumber {
    /// `None` unless both parts fit in two digits.
    pub fn new(col: u8, row: u8) -> Option<Self> {
        (col <= 99 && row <= 99).then_some(HexNumber { col, row })
    }

    pub fn col(self) -> u8 {
        self.col
    }

    pub fn row(self) -> u8 {
        self.row
    }

    /// Read exactly four ASCII digits, `"2437"`.
    pub fn parse(text: &str) -> Option<Self> {
        let b = text.as_bytes();
        if b.len() != 4 || !b.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let d = |i: usize| b[i] - b'0';
        HexNumber::new(d(0) * 10 + d(1), d(2) * 10 + d(3))
    }
}

impl fmt::Display for HexNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}{:02}", self.col, self.row)
    }
}

/// Which way the hexes point: SPI's GBACW maps have flat-topped hexes in
/// vertical columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Orientation {
    /// Flat top, columns vertical; the offset shifts whole columns.
    Flat,
    /// Pointy top, rows horizontal; the offset shifts whole rows.
    Pointy,
}

/// Which columns (flat) or rows (pointy) sit half a hex down (flat) or
/// right (pointy), counted by the printed number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Offset {
    Even,
    Odd,
}

/// The shape of one map's grid: orientation, offset and extent. All hex
/// math for that map goes through it, so two maps with different
/// conventions can't be mixed up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grid {
    pub orientation: Orientation,
    pub offset: Offset,
    /// First and last column on the map, inclusive.
    pub cols: (u8, u8),
    /// First and last row on the map, inclusive.
    pub rows: (u8, u8),
}

impl Grid {
    fn hexx_mode(&self) -> (OffsetHexMode, HexOrientation) {
        let mode = match self.offset {
            Offset::Even => OffsetHexMode::Even,
            Offset::Odd => OffsetHexMode::Odd,
        };
        let orientation = match self.orientation {
            Orientation::Flat => HexOrientation::Flat,
            Orientation::Pointy => HexOrientation::Pointy,
        };
        (mode, orientation)
    }

    /// Whether the hex lies inside the map's columns and rows.
    pub fn contains(&self, n: HexNumber) -> bool {
        (self.cols.0..=self.cols.1).contains(&n.col) && (self.rows.0..=self.rows.1).contains(&n.row)
    }

    /// Every hex on the map, in number order.
    pub fn hexes(&self) -> impl Iterator<Item = HexNumber> + '_ {
        (self.cols.0..=self.cols.1).flat_map(move |c| {
            (self.rows.0..=self.rows.1).filter_map(move |r| HexNumber::new(c, r))
        })
    }

    /// The axial coordinate `hexx` works with.
    pub fn to_hex(&self, n: HexNumber) -> Hex {
        let (mode, orientation) = self.hexx_mode();
        Hex::from_offset_coordinates([i32::from(n.col), i32::from(n.row)], mode, orientation)
    }

    /// The printed number of an axial coordinate; `None` when it has no
    /// four-digit number (whether on the map or not is [`Grid::contains`]).
    pub fn number(&self, hex: Hex) -> Option<HexNumber> {
        let (mode, orientation) = self.hexx_mode();
        let [c, r] = hex.to_offset_coordinates(mode, orientation);
        HexNumber::new(u8::try_from(c).ok()?, u8::try_from(r).ok()?)
    }

    /// The hex across the hexside in `direction`, if it has a number.
    pub fn neighbour(&self, n: HexNumber, direction: EdgeDirection) -> Option<HexNumber> {
        self.number(self.to_hex(n).neighbor(direction))
    }

    /// The numbered neighbours that lie on the map, with the direction of
    /// the shared hexside, in `hexx` direction order.
    pub fn neighbours_on_map(&self, n: HexNumber) -> Vec<(EdgeDirection, HexNumber)> {
        EdgeDirection::ALL_DIRECTIONS
            .iter()
            .filter_map(|&d| {
                self.neighbour(n, d)
                    .filter(|m| self.contains(*m))
                    .map(|m| (d, m))
            })
            .collect()
    }

    /// GBACW 9.23: range counts the target hex but not the firer's.
    pub fn distance(&self, a: HexNumber, b: HexNumber) -> u32 {
        self.to_hex(a).unsigned_distance_to(self.to_hex(b))
    }

    /// The direction from `a` of the hexside it shares with `b`; `None`
    /// when they are not adjacent.
    pub fn direction(&self, a: HexNumber, b: HexNumber) -> Option<EdgeDirection> {
        self.to_hex(a).neighbor_direction(self.to_hex(b))
    }

    /// The hexside between two adjacent hexes.
    pub fn hexside(&self, a: HexNumber, b: HexNumber) -> Option<Hexside> {
        self.direction(a, b)?;
        Some(if a < b {
            Hexside { a, b }
        } else {
            Hexside { a: b, b: a }
        })
    }

    /// The hexside on `n`'s side `direction`.
    pub fn hexside_towards(&self, n: HexNumber, direction: EdgeDirection) -> Option<Hexside> {
        self.hexside(n, self.neighbour(n, direction)?)
    }
}

/// The edge two adjacent hexes share, stored in a canonical order (lower
/// number first) so both sides name the same hexside. Written `2437/2438`
/// as the rules do ("all-lake hexsides such as 3119/3218").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Hexside {
    a: HexNumber,
    b: HexNumber,
}

impl Hexside {
    /// Both hexes, lower number first.
    pub fn hexes(self) -> (HexNumber, HexNumber) {
        (self.a, self.b)
    }

    pub fn touches(self, n: HexNumber) -> bool {
        self.a == n || self.b == n
    }

    /// The hex on the other side from `n`; `None` if `n` is not on it.
    pub fn other(self, n: HexNumber) -> Option<HexNumber> {
        if n == self.a {
            Some(self.b)
        } else if n == self.b {
            Some(self.a)
        } else {
            None
        }
    }
}

impl fmt::Display for Hexside {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.a, self.b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> HexNumber {
        HexNumber::parse(s).unwrap()
    }

    fn flat_even() -> Grid {
        Grid {
            orientation: Orientation::Flat,
            offset: Offset::Even,
            cols: (1, 40),
            rows: (1, 40),
        }
    }

    #[test]
    fn case_3_1_hex_numbers_round_trip_through_hexx() {
        for offset in [Offset::Even, Offset::Odd] {
            for orientation in [Orientation::Flat, Orientation::Pointy] {
                let g = Grid {
                    orientation,
                    offset,
                    cols: (0, 99),
                    rows: (0, 99),
                };
                for h in g.hexes() {
                    assert_eq!(g.number(g.to_hex(h)), Some(h), "{h}");
                }
            }
        }
        assert_eq!(n("2437").to_string(), "2437");
        assert_eq!((n("2437").col(), n("2437").row()), (24, 37));
        assert_eq!(HexNumber::parse("243"), None);
        assert_eq!(HexNumber::parse("24a7"), None);
        assert_eq!(HexNumber::parse("+437"), None);
    }

    #[test]
    fn case_3_1_neighbours_follow_the_column_offset() {
        // Flat, even columns shifted down: 0202's upper-right neighbour is
        // 0302 (also shifted down), and its lower-left is 0103.
        let g = flat_even();
        let mut around: Vec<String> = g
            .neighbours_on_map(n("0202"))
            .into_iter()
            .map(|(_, m)| m.to_string())
            .collect();
        around.sort();
        assert_eq!(around, ["0102", "0103", "0201", "0203", "0302", "0303"]);
        // Odd column 0303 (not shifted): neighbours in even columns are one row up.
        let mut around: Vec<String> = g
            .neighbours_on_map(n("0303"))
            .into_iter()
            .map(|(_, m)| m.to_string())
            .collect();
        around.sort();
        assert_eq!(around, ["0202", "0203", "0302", "0304", "0402", "0403"]);
        // With odd columns shifted instead, the pattern flips.
        let odd = Grid {
            offset: Offset::Odd,
            ..flat_even()
        };
        let mut around: Vec<String> = odd
            .neighbours_on_map(n("0303"))
            .into_iter()
            .map(|(_, m)| m.to_string())
            .collect();
        around.sort();
        assert_eq!(around, ["0203", "0204", "0302", "0304", "0403", "0404"]);
    }

    #[test]
    fn case_9_23_range_counts_target_not_firer() {
        let g = flat_even();
        assert_eq!(g.distance(n("1010"), n("1010")), 0);
        assert_eq!(g.distance(n("1010"), n("1011")), 1);
        assert_eq!(g.distance(n("1010"), n("1015")), 5);
        // Moving along a column diagonal: column 10 -> 16 is six hexes.
        assert_eq!(g.distance(n("1010"), n("1607")), 6);
    }

    #[test]
    fn case_3_1_hexside_is_shared_and_directed() {
        let g = flat_even();
        let s1 = g.hexside(n("0202"), n("0203")).unwrap();
        let s2 = g.hexside(n("0203"), n("0202")).unwrap();
        assert_eq!(s1, s2);
        assert_eq!(s1.to_string(), "0202/0203");
        assert_eq!(s1.other(n("0203")), Some(n("0202")));
        assert_eq!(g.hexside(n("0202"), n("0204")), None);
        let d = g.direction(n("0202"), n("0203")).unwrap();
        assert_eq!(d, EdgeDirection::FLAT_BOTTOM);
        assert_eq!(g.direction(n("0203"), n("0202")), Some(-d));
        assert_eq!(g.hexside_towards(n("0202"), d), Some(s1));
    }

    #[test]
    fn off_map_neighbours_are_dropped() {
        let g = flat_even();
        // 0101 touches 0102 and 0201 only: 0200 has no row 00 on this map.
        assert_eq!(g.neighbours_on_map(n("0101")).len(), 2);
        assert_eq!(g.neighbour(n("0000"), EdgeDirection::FLAT_TOP), None);
    }
}
