//! Hex geometry. [`HexLayout`] is any grid a map may have (flat or pointy
//! tops, which columns or rows are shifted, the first number); the free
//! functions are the sandbox's grid: flat tops in "odd-q" offset
//! coordinates from 0, odd columns half a hex lower. World units are
//! pixels at zoom 1; a hex is `HEX_SIZE` from centre to corner.

use egui::{Pos2, Vec2, vec2};

/// Centre-to-corner radius of a hex in world units.
pub const HEX_SIZE: f32 = 32.0;

const SQRT3: f32 = 1.732_050_8;

/// Height of a flat-top hex (flat side to flat side).
pub fn hex_height() -> f32 {
    SQRT3 * HEX_SIZE
}

/// The sandbox's grid: flat tops, odd columns lower, numbered from 0.
const SANDBOX: HexLayout = HexLayout {
    pointy: false,
    shifted_parity: 1,
    first: (0, 0),
};

/// Centre of hex (`col`, `row`).
pub fn centre(col: u16, row: u16) -> Pos2 {
    SANDBOX.centre(col, row)
}

/// The six corners of a flat-top hex around `c`, scaled by `size` (screen units).
pub fn corners(c: Pos2, size: f32) -> [Pos2; 6] {
    SANDBOX.corners(c, size)
}

/// Size of a `columns` × `rows` grid in world units.
pub fn extent(columns: u16, rows: u16) -> Vec2 {
    SANDBOX.extent(columns, rows)
}

/// The hex containing world point `p`, if it is on a `columns` × `rows` grid.
pub fn hex_at(p: Pos2, columns: u16, rows: u16) -> Option<(u16, u16)> {
    let (col, row) = SANDBOX.hex_at(p)?;
    (col < columns && row < rows).then_some((col, row))
}

/// Any hex grid a map may have: flat tops with whole columns shifted half
/// a hex down, or pointy tops with whole rows shifted half a hex right;
/// which columns (rows) are shifted by the parity of their printed number;
/// the first column and row numbers at the top-left. The sandbox's grid and
/// every GBACW map (`gbacw::map::Grid`) are both one of these. World units
/// are pixels at zoom 1, the first hex touching (0, 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HexLayout {
    /// Pointy tops (rows shifted) instead of flat tops (columns shifted).
    pub pointy: bool,
    /// Columns (rows, when pointy) whose number has this parity (0 or 1)
    /// sit half a hex lower (righter).
    pub shifted_parity: u16,
    /// The numbers of the top-left hex: (column, row).
    pub first: (u16, u16),
}

impl HexLayout {
    /// Swap x and y for a pointy grid: it is the flat grid transposed.
    fn orient(self, v: Vec2) -> Vec2 {
        if self.pointy { vec2(v.y, v.x) } else { v }
    }

    /// The "major" index (column when flat, row when pointy) and the minor.
    fn major_minor(self, col: u16, row: u16) -> (u16, u16) {
        if self.pointy { (row, col) } else { (col, row) }
    }

    fn major_first(self) -> u16 {
        if self.pointy {
            self.first.1
        } else {
            self.first.0
        }
    }

    fn minor_first(self) -> u16 {
        if self.pointy {
            self.first.0
        } else {
            self.first.1
        }
    }

    /// Centre of hex (`col`, `row`) as numbered.
    pub fn centre(self, col: u16, row: u16) -> Pos2 {
        let h = hex_height();
        let (major, minor) = self.major_minor(col, row);
        let i = f32::from(major.saturating_sub(self.major_first()));
        let j = f32::from(minor.saturating_sub(self.minor_first()));
        let shifted = if major % 2 == self.shifted_parity {
            1.0
        } else {
            0.0
        };
        let v = vec2(
            HEX_SIZE + 1.5 * HEX_SIZE * i,
            h / 2.0 + h * j + shifted * h / 2.0,
        );
        self.orient(v).to_pos2()
    }

    /// The six corners of a hex around `c`, scaled by `size`.
    pub fn corners(self, c: Pos2, size: f32) -> [Pos2; 6] {
        std::array::from_fn(|i| {
            let a = std::f32::consts::FRAC_PI_3 * i as f32;
            c + self.orient(vec2(a.cos(), a.sin())) * size
        })
    }

    /// Size in world units of a grid of `majors` columns (rows when
    /// pointy) by `minors` rows (columns).
    pub fn extent(self, columns: u16, rows: u16) -> Vec2 {
        let h = hex_height();
        let (majors, minors) = self.major_minor(columns, rows);
        self.orient(vec2(
            HEX_SIZE * (1.5 * f32::from(majors) + 0.5),
            h * f32::from(minors) + if majors > 1 { h / 2.0 } else { 0.0 },
        ))
    }

    /// The number (column, row) of the hex containing world point `p`;
    /// `None` left of or above the first hex. The caller checks the far
    /// edges.
    pub fn hex_at(self, p: Pos2) -> Option<(u16, u16)> {
        let v = self.orient(p.to_vec2());
        // Relative to the centre of the first hex, in axial fractional
        // coordinates of a grid whose odd local columns are lower.
        let first_shifted = self.major_first() % 2 == self.shifted_parity;
        let mut y = v.y - hex_height() / 2.0;
        if first_shifted {
            // Every local column is half a hex lower than odd-q has it.
            y -= hex_height() / 2.0;
        }
        let x = v.x - HEX_SIZE;
        let q = (2.0 / 3.0 * x) / HEX_SIZE;
        let r = (-1.0 / 3.0 * x + SQRT3 / 3.0 * y) / HEX_SIZE;
        let (q, r) = cube_round(q, r);
        // Axial to offset: odd-q, or even-q when the first column is shifted.
        let j = if first_shifted {
            r + (q + (q & 1)) / 2
        } else {
            r + (q - (q & 1)) / 2
        };
        let major = u16::try_from(q + i64::from(self.major_first())).ok()?;
        let minor = u16::try_from(j + i64::from(self.minor_first())).ok()?;
        if q < 0 || j < 0 {
            return None;
        }
        Some(if self.pointy {
            (minor, major)
        } else {
            (major, minor)
        })
    }

    /// The direction, in screen space (y down), from a hex's centre to the
    /// middle of its hexside number `index` in `hexx`'s edge order (the
    /// order of `gbacw::facing::direction_names`: flat se, s, sw, nw, n,
    /// ne; pointy e, se, sw, w, nw, ne).
    pub fn edge_direction(self, index: u8) -> Vec2 {
        let base = if self.pointy { 0.0 } else { 30.0_f32 };
        let a = (base + 60.0 * f32::from(index % 6)).to_radians();
        vec2(a.cos(), a.sin())
    }
}

fn cube_round(q: f32, r: f32) -> (i64, i64) {
    let s = -q - r;
    let (mut rq, mut rr, rs) = (q.round(), r.round(), s.round());
    let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
    if dq > dr && dq > ds {
        rq = -rr - rs;
    } else if dr > ds {
        rr = -rq - rs;
    }
    (rq as i64, rr as i64)
}

/// The printed hex number: column then row, two digits each, from 01 —
/// the SPI convention players read rules and set-up cards in.
pub fn hex_number(col: u16, row: u16) -> String {
    format!("{:02}{:02}", u32::from(col) + 1, u32::from(row) + 1)
}

/// Columns and rows whose hexes may touch the world rectangle `r`.
pub fn visible_range(
    r: egui::Rect,
    columns: u16,
    rows: u16,
) -> (std::ops::Range<u16>, std::ops::Range<u16>) {
    let h = hex_height();
    let clamp = |v: f32, max: u16| v.clamp(0.0, f32::from(max)) as u16;
    let c0 = clamp(
        ((r.min.x - 2.0 * HEX_SIZE) / (1.5 * HEX_SIZE)).floor(),
        columns,
    );
    let c1 = clamp(((r.max.x) / (1.5 * HEX_SIZE)).ceil() + 1.0, columns);
    let r0 = clamp(((r.min.y - h) / h).floor(), rows);
    let r1 = clamp((r.max.y / h).ceil() + 1.0, rows);
    (c0..c1, r0..r1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::pos2;

    #[test]
    fn every_centre_maps_back_to_its_hex() {
        for col in 0..30 {
            for row in 0..20 {
                let c = centre(col, row);
                assert_eq!(hex_at(c, 30, 20), Some((col, row)));
                // Points well inside the hex too.
                for p in corners(c, HEX_SIZE * 0.8) {
                    assert_eq!(hex_at(p, 30, 20), Some((col, row)), "{col},{row} {p:?}");
                }
            }
        }
    }

    #[test]
    fn off_grid_points_are_no_hex() {
        assert_eq!(hex_at(pos2(-40.0, 10.0), 10, 10), None);
        assert_eq!(hex_at(centre(9, 9) + vec2(60.0, 0.0), 10, 10), None);
    }

    #[test]
    fn hex_numbers_are_printed_from_01() {
        assert_eq!(hex_number(0, 0), "0101");
        assert_eq!(hex_number(11, 4), "1205");
    }

    #[test]
    fn the_visible_range_covers_every_hex_in_view() {
        let view = egui::Rect::from_min_max(pos2(300.0, 200.0), pos2(700.0, 500.0));
        let (cols, rows) = visible_range(view, 40, 30);
        for col in 0..40 {
            for row in 0..30 {
                let c = centre(col, row);
                let touches =
                    egui::Rect::from_center_size(c, Vec2::splat(2.0 * HEX_SIZE)).intersects(view);
                if touches {
                    assert!(cols.contains(&col) && rows.contains(&row), "{col},{row}");
                }
            }
        }
    }

    #[test]
    fn every_layout_maps_its_centres_back() {
        for pointy in [false, true] {
            for shifted_parity in [0, 1] {
                for first in [(0, 0), (1, 1)] {
                    let l = HexLayout {
                        pointy,
                        shifted_parity,
                        first,
                    };
                    for col in first.0..first.0 + 12 {
                        for row in first.1..first.1 + 9 {
                            let c = l.centre(col, row);
                            for p in std::iter::once(c).chain(l.corners(c, HEX_SIZE * 0.8)) {
                                assert_eq!(l.hex_at(p), Some((col, row)), "{l:?} {col},{row}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn edge_directions_point_at_the_gbacw_grids_neighbours() {
        use muster_shared::gbacw::map::{Grid, HexNumber, Offset, Orientation};
        for (orientation, pointy) in [(Orientation::Flat, false), (Orientation::Pointy, true)] {
            for (offset, parity) in [(Offset::Even, 0), (Offset::Odd, 1)] {
                let grid = Grid {
                    orientation,
                    offset,
                    cols: (1, 20),
                    rows: (1, 20),
                };
                let l = HexLayout {
                    pointy,
                    shifted_parity: parity,
                    first: (1, 1),
                };
                let n = HexNumber::new(10, 10).unwrap();
                for (i, d) in hexx::EdgeDirection::ALL_DIRECTIONS.iter().enumerate() {
                    let m = grid.neighbour(n, *d).unwrap();
                    let c = |h: HexNumber| l.centre(u16::from(h.col()), u16::from(h.row()));
                    let v = (c(m) - c(n)).normalized();
                    let e = l.edge_direction(i as u8);
                    assert!(
                        (v - e).length() < 1e-3,
                        "{orientation:?} {offset:?} {i}: {v:?} {e:?}"
                    );
                }
            }
        }
    }
}
