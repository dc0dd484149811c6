//! GBACW 9.7: the hexes a line from hex centre to hex centre passes
//! through, including the case where it runs exactly along a hexside.

use crate::gbacw::map::{Grid, HexNumber};
use hexx::Hex;

/// What the line passes at one step between its ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Crossing {
    /// Through the middle of one hex.
    Hex(HexNumber),
    /// Exactly along the hexside between two hexes (001 9.7).
    Along(HexNumber, HexNumber),
}

/// Round fractional cube coordinates to the nearest hex.
fn cube_round(q: f64, r: f64) -> Hex {
    let s = -q - r;
    let (mut rq, mut rr, rs) = (q.round(), r.round(), s.round());
    let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
    if dq > dr && dq > ds {
        rq = -rr - rs;
    } else if dr > ds {
        rr = -rq - rs;
    }
    // Map coordinates are two-digit numbers: these casts never truncate.
    Hex::new(rq as i32, rr as i32)
}

/// The hexes strictly between `from` and `to`, in order from `from`: one
/// entry per hex of distance. The line is sampled twice, nudged a hair to
/// either side; where the two samples differ the line runs along the
/// hexside between them. Hexes without a number are left out.
pub fn crossings(grid: &Grid, from: HexNumber, to: HexNumber) -> Vec<(u32, Crossing)> {
    let a = grid.to_hex(from);
    let b = grid.to_hex(to);
    let n = a.unsigned_distance_to(b);
    let (ax, ay) = (f64::from(a.x), f64::from(a.y));
    let (dx, dy) = (f64::from(b.x - a.x), f64::from(b.y - a.y));
    const EPS: f64 = 1e-6;
    let mut out = Vec::new();
    for i in 1..n {
        let t = f64::from(i) / f64::from(n);
        let (q, r) = (ax + dx * t, ay + dy * t);
        let h1 = cube_round(q + EPS, r + 2.0 * EPS);
        let h2 = cube_round(q - EPS, r - 2.0 * EPS);
        let (Some(n1), Some(n2)) = (grid.number(h1), grid.number(h2)) else {
            continue;
        };
        let c = if n1 == n2 {
            Crossing::Hex(n1)
        } else {
            Crossing::Along(n1.min(n2), n1.max(n2))
        };
        out.push((i, c));
    }
    out
}
