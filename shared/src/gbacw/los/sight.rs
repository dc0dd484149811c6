//! GBACW 9.71–9.73: whether an obstacle on the line blocks sight.

use super::line::{Crossing, crossings};
use crate::gbacw::charts::CombatChart;
use crate::gbacw::charts::CombatSide;
use crate::gbacw::map::{HexNumber, Hexside, Map, SideKind};

/// Something on the line that blocked it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Obstacle {
    Hex(HexNumber),
    /// A blocking hexside (works, redans: chart 9.56) the line crosses.
    Hexside(Hexside),
    /// A line along a hexside, both of whose hexes block (001 9.7).
    Along(HexNumber, HexNumber),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Los {
    Clear,
    Blocked(Obstacle),
}

/// Height in feet of what stands in a hex: the ground, plus the tallest
/// of its terrain (9.71, chart 9.56) and the unit in it (9.71: units are
/// blocking terrain; 9.72: 5 or 10 feet).
fn obstacle_feet(map: &Map, chart: &CombatChart, hex: HexNumber, unit_feet: u16) -> Option<i64> {
    let info = map.hex(hex)?;
    let ground = map.ground_feet(hex)?;
    let terrain = info
        .terrain
        .iter()
        .filter_map(|t| chart.hex.get(t).map(|h| h.los_feet.value))
        .max()
        .unwrap_or(0);
    Some(i64::from(ground) + i64::from(terrain.max(unit_feet)))
}

/// Height in feet of what stands on a hexside (works, redans), on top of
/// the higher of its two hexes; `None` if nothing there blocks.
fn hexside_feet(map: &Map, chart: &CombatChart, side: Hexside) -> Option<i64> {
    let tallest = map
        .side_features(side)
        .filter_map(|f| match f.kind {
            SideKind::StoneWall => Some(CombatSide::StoneWall),
            SideKind::Works => Some(CombatSide::Works),
            SideKind::RedanPrimary => Some(CombatSide::RedanPrimary),
            SideKind::RedanSecondary => Some(CombatSide::RedanSecondary),
            _ => None,
        })
        .filter_map(|row| chart.hexside.get(&row).map(|s| s.los_feet.value))
        .max()
        .filter(|f| *f > 0)?;
    let (a, b) = side.hexes();
    let ground = map.ground_feet(a)?.max(map.ground_feet(b)?);
    Some(i64::from(ground) + i64::from(tallest))
}

/// GBACW 9.7/9.73: whether `from` can see `to`.
///
/// The two positions stand at their hexes' ground heights. For every hex
/// the line passes between them (not the ends: 9.7 "a clear LOS always
/// exists out of ... and into a blocking hex"), with `H` the height of the
/// higher position over the lower, `D` their distance, `hp` the
/// obstacle's height over the lower position and `dp` its distance from
/// it, sight is clear if `H/D >= (hp - 5)/dp` — "equal to or greater
/// than", as 001 prints and 004's text lost (see differences.md). A line
/// along a hexside is blocked only if both hexes block (001 9.7; 004 is
/// silent). A blocking hexside counts only between two hexes the line
/// passes through, not one "common with or adjacent to" either end (9.7).
/// Adjacent hexes always see each other (9.24, 004 9.7).
/// `unit_feet` gives the height of the units in a hex (0 if empty).
pub fn line_of_sight(
    map: &Map,
    chart: &CombatChart,
    from: HexNumber,
    to: HexNumber,
    unit_feet: impl Fn(HexNumber) -> u16,
) -> Los {
    line_of_sight_raised(map, chart, from, to, unit_feet, |_| 0)
}

/// [`line_of_sight`], with each end standing `raised` feet above its
/// hex's ground (Corinth 23.1, 23.28: a unit inside the works or a redan
/// "is considered to occupy an elevation 10 feet higher than the hex it
/// actually occupies"). Hexes between the ends keep their ground.
pub fn line_of_sight_raised(
    map: &Map,
    chart: &CombatChart,
    from: HexNumber,
    to: HexNumber,
    unit_feet: impl Fn(HexNumber) -> u16,
    raised: impl Fn(HexNumber) -> u16,
) -> Los {
    let (Some(fh), Some(th)) = (map.ground_feet(from), map.ground_feet(to)) else {
        return Los::Clear;
    };
    let (fh, th) = (
        fh.saturating_add(raised(from)),
        th.saturating_add(raised(to)),
    );
    let d = i64::from(map.grid.distance(from, to));
    if d <= 1 {
        return Los::Clear;
    }
    let (high, low) = (i64::from(fh.max(th)), i64::from(fh.min(th)));
    let from_is_low = fh <= th;
    let h = high - low;
    // Distances in half hexes, so a hexside halfway between two steps is
    // measured exactly.
    let blocks_at = |feet: i64, half_steps: i64| -> bool {
        let dp2 = if from_is_low {
            half_steps
        } else {
            2 * d - half_steps
        };
        let hp = feet - low;
        // H/D >= (hp-5)/dp  <=>  H*dp >= (hp-5)*D, with D and dp positive.
        h * dp2 < (hp - 5) * 2 * d
    };
    let blocks = |feet: i64, step: u32| blocks_at(feet, 2 * i64::from(step));
    let feet = |hex: HexNumber| obstacle_feet(map, chart, hex, unit_feet(hex));
    let mut previous: Option<(u32, HexNumber)> = None;
    for (step, c) in crossings(&map.grid, from, to) {
        match c {
            Crossing::Hex(x) => {
                if feet(x).is_some_and(|f| blocks(f, step)) {
                    return Los::Blocked(Obstacle::Hex(x));
                }
                if let Some((p_step, p)) = previous
                    && p_step + 1 == step
                    && let Some(side) = map.grid.hexside(p, x)
                    && hexside_feet(map, chart, side)
                        .is_some_and(|f| blocks_at(f, 2 * i64::from(p_step) + 1))
                {
                    return Los::Blocked(Obstacle::Hexside(side));
                }
                previous = Some((step, x));
            }
            Crossing::Along(a, b) => {
                previous = None;
                let lower = match (feet(a), feet(b)) {
                    (Some(fa), Some(fb)) => fa.min(fb),
                    _ => continue,
                };
                if blocks(lower, step) {
                    return Los::Blocked(Obstacle::Along(a, b));
                }
            }
        }
    }
    Los::Clear
}
