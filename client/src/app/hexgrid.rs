//! Flat-top hex geometry in "odd-q" offset coordinates: columns run left to
//! right, odd columns sit half a hex lower, as on SPI's GBACW mapsheets.
//! World units are pixels at zoom 1; a hex is `HEX_SIZE` from centre to corner.

use egui::{Pos2, Vec2, pos2, vec2};

/// Centre-to-corner radius of a hex in world units.
pub const HEX_SIZE: f32 = 32.0;

const SQRT3: f32 = 1.732_050_8;

/// Height of a flat-top hex (flat side to flat side).
pub fn hex_height() -> f32 {
    SQRT3 * HEX_SIZE
}

/// Centre of hex (`col`, `row`).
pub fn centre(col: u16, row: u16) -> Pos2 {
    let h = hex_height();
    let odd = f32::from(col % 2);
    pos2(
        HEX_SIZE + 1.5 * HEX_SIZE * f32::from(col),
        h / 2.0 + h * f32::from(row) + odd * h / 2.0,
    )
}

/// The six corners of a hex around `c`, scaled by `size` (screen units).
pub fn corners(c: Pos2, size: f32) -> [Pos2; 6] {
    std::array::from_fn(|i| {
        let a = std::f32::consts::FRAC_PI_3 * i as f32;
        c + vec2(a.cos(), a.sin()) * size
    })
}

/// Size of a `columns` × `rows` grid in world units.
pub fn extent(columns: u16, rows: u16) -> Vec2 {
    let h = hex_height();
    vec2(
        HEX_SIZE * (1.5 * f32::from(columns) + 0.5),
        h * f32::from(rows) + if columns > 1 { h / 2.0 } else { 0.0 },
    )
}

/// The hex containing world point `p`, if it is on a `columns` × `rows` grid.
pub fn hex_at(p: Pos2, columns: u16, rows: u16) -> Option<(u16, u16)> {
    // Relative to the centre of hex (0, 0), in axial fractional coordinates.
    let x = p.x - HEX_SIZE;
    let y = p.y - hex_height() / 2.0;
    let q = (2.0 / 3.0 * x) / HEX_SIZE;
    let r = (-1.0 / 3.0 * x + SQRT3 / 3.0 * y) / HEX_SIZE;
    let (q, r) = cube_round(q, r);
    // Axial to odd-q offset.
    let col = q;
    let row = r + (q - (q & 1)) / 2;
    if (0..i64::from(columns)).contains(&col) && (0..i64::from(rows)).contains(&row) {
        Some((col as u16, row as u16))
    } else {
        None
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
}
