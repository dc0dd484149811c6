//! Cedar Mountain 23.0: units retreat only toward their own lines —
//! Confederates northwest, west or southwest (23.1), Union northeast, east
//! or southeast (23.2) — every step of every retreat (a melee result, a
//! rout, retreat before melee). A unit with no such path is captured.
//! Cedar Mountain 24.14 adds: a unit of a brigade that has lost BCE never
//! retreats through an enemy Zone of Control.
//!
//! The map's compass is the scenario's `north` line (the printed compass
//! is not in the text: `north left`, provisional, docs/gbacw-notes.md).

use super::super::Gbacw;
use super::super::state::GbacwState;
use super::bce_loss;
use crate::gbacw::map::{Grid, HexNumber, Offset, Orientation};
use crate::gbacw::oob::CounterId;
use crate::gbacw::retreat::RetreatLimits;
use crate::gbacw::scenario::HookKind;
use hexx::EdgeDirection;

/// The eight compass points, clockwise from north.
const POINTS: [&str; 8] = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];

/// The screen direction of a step from `a` to its neighbour `b`, in
/// eighths of a turn counter-clockwise from "right" (0 = right, 2 = up,
/// 4 = left, 6 = down): flat-topped grids step straight up or down, or
/// diagonally; the diagonal's height comes from the columns' offset.
pub(crate) fn screen_eighth(grid: &Grid, a: HexNumber, b: HexNumber) -> Option<i32> {
    if grid.orientation != Orientation::Flat {
        return None;
    }
    let dc = i32::from(b.col()) - i32::from(a.col());
    // Twice the visual row, so half-hex offsets stay whole.
    let y = |h: HexNumber| {
        let down = match grid.offset {
            Offset::Even => h.col().is_multiple_of(2),
            Offset::Odd => h.col() % 2 == 1,
        };
        2 * i32::from(h.row()) + i32::from(down)
    };
    let dy = y(b) - y(a);
    Some(match (dc.signum(), dy.signum()) {
        (0, -1) => 2,
        (0, 1) => 6,
        (1, -1) => 1,
        (1, 1) => 7,
        (-1, -1) => 3,
        (-1, 1) => 5,
        _ => return None,
    })
}

/// The compass point of a step, given the map edge that is north
/// (`top`, `left`, `right`, `bottom`). Flat-topped hexes have no step
/// straight north-south when north is a side edge, and the diagonals
/// lie nearer the two 45° points (30° off, against 60° to the next).
pub(crate) fn compass(
    grid: &Grid,
    north: &str,
    a: HexNumber,
    b: HexNumber,
) -> Option<&'static str> {
    let screen = screen_eighth(grid, a, b)?;
    let north_eighth = match north {
        "right" => 0,
        "top" => 2,
        "left" => 4,
        "bottom" => 6,
        _ => return None,
    };
    // Compass bearings run clockwise, screen angles counter-clockwise.
    let bearing = (north_eighth - screen).rem_euclid(8);
    POINTS.get(usize::try_from(bearing).ok()?).copied()
}

/// The retreat limits for `unit` now (23.0 directions, 24.14 no ZOC;
/// Corinth 27.0's goal), first choice then fallback (Corinth 27.2: the
/// south-east corner when no path leads toward the town).
pub(crate) fn limits(rs: &Gbacw, state: &GbacwState, unit: &CounterId) -> Vec<RetreatLimits> {
    let base = RetreatLimits {
        directions: directions(rs, unit),
        no_enemy_zoc: bce_loss::retreat_shuns_zoc(rs, state, unit),
        toward: None,
    };
    match super::super::corinth::retreat::goals(rs, state, unit) {
        None => vec![base],
        Some((goal, fallback)) => std::iter::once(goal)
            .chain(fallback)
            .map(|g| RetreatLimits {
                toward: Some(g),
                ..base.clone()
            })
            .collect(),
    }
}

/// Cedar Mountain 23.1, 23.2: the edge directions `unit` may retreat in,
/// from any hex (the compass does not change over the map); `None` if
/// the rule is off or names no limit for its side.
pub(crate) fn directions(rs: &Gbacw, unit: &CounterId) -> Option<Vec<EdgeDirection>> {
    let hook = super::hook(rs, HookKind::RetreatDirections)?;
    let side = &rs.game.oob.units.get(unit)?.side;
    let allowed: Vec<&str> = hook.param(&side.0)?.split(',').collect();
    let north = rs.game.scenario.north.as_deref()?;
    let grid = &rs.game.map.grid;
    // Only flat-topped grids have a compass here (every shipped battle);
    // a pointy-topped one would need its own reading, not a ban on all.
    if grid.orientation != Orientation::Flat {
        return None;
    }
    // Any hex with all six neighbours shows every direction; both column
    // parities give the same compass.
    let mid = HexNumber::new(
        grid.cols.0.saturating_add(2) | 1,
        grid.rows.0.saturating_add(2),
    )?;
    Some(
        grid.neighbours_on_map(mid)
            .into_iter()
            .filter(|(_, to)| compass(grid, north, mid, *to).is_some_and(|p| allowed.contains(&p)))
            .map(|(d, _)| d)
            .collect(),
    )
}

/// Cedar Mountain 23.0 for a path the player gives (retreat before melee):
/// every step toward the unit's own lines.
pub(crate) fn path_allowed(
    rs: &Gbacw,
    unit: &CounterId,
    start: HexNumber,
    path: &[HexNumber],
) -> bool {
    let Some(dirs) = directions(rs, unit) else {
        return true;
    };
    let grid = &rs.game.map.grid;
    let mut at = start;
    for &to in path {
        if !grid.direction(at, to).is_some_and(|d| dirs.contains(&d)) {
            return false;
        }
        at = to;
    }
    true
}
