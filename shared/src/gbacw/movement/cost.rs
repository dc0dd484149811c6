//! GBACW 5.15/5.16: what one step from a hex to an adjacent hex costs.

use crate::gbacw::charts::{Cost, MoveClass, MovementChart, Mp, PathKind, SideRow};
use crate::gbacw::map::{HexNumber, Map, SideKind, Terrain};

/// Why a step is not possible; `rule` names the case for a `RuleError`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blocked {
    /// GBACW 5.16: movement is from hex to adjacent hex.
    NotAdjacent,
    /// GBACW 5.17: no moving off the map.
    OffMap,
    /// GBACW 5.19: the chart prohibits this terrain for this unit.
    Terrain(Terrain),
    /// GBACW 5.19: the chart prohibits this hexside for this unit.
    Hexside(SideKind),
    /// Corinth 23.31: this unit enters this terrain only across a road.
    RoadOnly(Terrain),
}

impl Blocked {
    pub fn rule(self) -> &'static str {
        match self {
            Blocked::NotAdjacent => "GBACW 5.16",
            Blocked::OffMap => "GBACW 5.17",
            Blocked::Terrain(_) | Blocked::Hexside(_) => "GBACW 5.19",
            Blocked::RoadOnly(_) => "Corinth 23.31",
        }
    }
}

/// In words, for refusals: "the chart prohibits woods".
impl std::fmt::Display for Blocked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Blocked::NotAdjacent => f.write_str("the hexes are not adjacent"),
            Blocked::OffMap => f.write_str("that is off the map"),
            Blocked::Terrain(t) => write!(f, "the chart prohibits {t} for it"),
            Blocked::Hexside(k) => write!(f, "the chart prohibits crossing a {k} hexside"),
            Blocked::RoadOnly(t) => write!(f, "it enters {t} only along a road"),
        }
    }
}

/// The chart row a directed hexside feature is priced by, seen from the
/// hex being left; `None` for features with no movement row of their own.
fn side_row(kind: SideKind, up: bool) -> Option<SideRow> {
    Some(match kind {
        SideKind::Stream => SideRow::Stream,
        SideKind::Run => SideRow::Run,
        SideKind::Crest if up => SideRow::CrestUp,
        SideKind::Crest => SideRow::CrestDown,
        SideKind::SteepCrest if up => SideRow::SteepCrestUp,
        SideKind::SteepCrest => SideRow::SteepCrestDown,
        SideKind::StoneWall => SideRow::StoneWall,
        SideKind::Works => SideRow::Works,
        SideKind::RedanPrimary | SideKind::RedanSecondary => SideRow::Redan,
        SideKind::Lake => SideRow::Lake,
        SideKind::Ford
        | SideKind::Bridge
        | SideKind::Road
        | SideKind::Pike
        | SideKind::Trail
        | SideKind::Railroad => return None,
    })
}

fn path_kind(kind: SideKind) -> Option<PathKind> {
    Some(match kind {
        SideKind::Road => PathKind::Road,
        SideKind::Pike => PathKind::Pike,
        SideKind::Trail => PathKind::Trail,
        SideKind::Railroad => PathKind::Railroad,
        _ => return None,
    })
}

/// The Movement Points a unit of `class` pays to move from `from` into the
/// adjacent hex `to`.
///
/// - GBACW 6.11/6.12, Cedar Mountain 21.31: moving along a road, pike,
///   trail or railroad that crosses the hexside costs that path's rate
///   instead of the terrain and hexside costs — for the classes that may
///   use it (never Line infantry). The cheapest such path counts.
/// - GBACW 5.15: otherwise the dearest terrain of the hex entered, plus
///   each hexside feature crossed: a ford replaces the stream or run cost;
///   a bridge waives it for units that may use bridges (6.11, 6.12);
///   crests cost by direction (Cedar Mountain 21.32, Corinth 23.6).
/// - An all-lake hexside is impassable (Cedar Mountain 21.34) even to a path.
pub fn step_cost(
    map: &Map,
    chart: &MovementChart,
    class: MoveClass,
    from: HexNumber,
    to: HexNumber,
) -> Result<Mp, Blocked> {
    step_cost_by(map, chart, class, from, to, true)
}

/// [`step_cost`], with `paths: false` for a unit that may not use the
/// road, pike, trail or railroad on this step: GBACW 6.11, a column,
/// limbered battery or mounted unit moving through a friendly-occupied
/// road hex pays for the hex's other terrain.
pub fn step_cost_by(
    map: &Map,
    chart: &MovementChart,
    class: MoveClass,
    from: HexNumber,
    to: HexNumber,
    paths: bool,
) -> Result<Mp, Blocked> {
    let side = map.grid.hexside(from, to).ok_or(Blocked::NotAdjacent)?;
    let entered = map.hex(to).ok_or(Blocked::OffMap)?;
    let features: Vec<_> = map.side_features(side).collect();
    let has = |k: SideKind| features.iter().any(|f| f.kind == k);

    if has(SideKind::Lake) && chart.side_cost(class, SideRow::Lake) == Cost::Prohibited {
        return Err(Blocked::Hexside(SideKind::Lake));
    }
    let by_path = features
        .iter()
        .filter(|_| paths)
        .filter_map(|f| path_kind(f.kind))
        .filter_map(|p| chart.path_cost(class, p))
        .min();
    if let Some(mp) = by_path {
        return Ok(mp);
    }

    let mut total = match chart.enter_cost(class, &entered.terrain) {
        Cost::Mp(mp) => mp,
        Cost::Prohibited => {
            let worst = entered
                .terrain
                .iter()
                .copied()
                .find(|t| chart.enter_cost(class, [t]) == Cost::Prohibited)
                .unwrap_or(Terrain::Clear);
            return Err(Blocked::Terrain(worst));
        }
    };
    let uses_bridges = chart.path_cost(class, PathKind::Road).is_some();
    for f in &features {
        let up = f.side == Some(to);
        let Some(mut row) = side_row(f.kind, up) else {
            continue;
        };
        if matches!(row, SideRow::Stream | SideRow::Run) {
            if has(SideKind::Bridge) && uses_bridges {
                continue;
            }
            if has(SideKind::Ford) {
                row = SideRow::Ford;
            }
        }
        match chart.side_cost(class, row) {
            Cost::Mp(mp) => total = total + mp,
            Cost::Prohibited => return Err(Blocked::Hexside(f.kind)),
        }
    }
    Ok(total)
}
