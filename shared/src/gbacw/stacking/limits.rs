//! GBACW 8.11, 8.13, 8.16: the limits a hex must meet at the end of a
//! Movement or Combat Phase (8.0).

use super::points::stacking_points;
use crate::gbacw::charts::StackingChart;
use crate::gbacw::map::Terrain;
use crate::gbacw::oob::{Formation, Unit, UnitKind, UnitStatus};

/// How a hex breaks its limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Overstack {
    /// GBACW 8.11: more Stacking Points than the terrain allows.
    Points { have: u16, limit: u16 },
    /// GBACW 8.13: more batteries than the terrain allows.
    Batteries { have: u16, limit: u16 },
    /// GBACW 8.16: infantry in Column shares the hex with another unit.
    ColumnNotAlone,
    /// Corinth 23.27: a redan holds one battery plus one infantry point,
    /// or four infantry points and no guns.
    Redan,
    /// A terrain type the stacking chart has no row for.
    UnknownTerrain,
}

impl Overstack {
    pub fn rule(&self) -> &'static str {
        match self {
            Overstack::Points { .. } | Overstack::UnknownTerrain => "GBACW 8.11",
            Overstack::Batteries { .. } => "GBACW 8.13",
            Overstack::ColumnNotAlone => "GBACW 8.16",
            Overstack::Redan => "Corinth 23.27",
        }
    }
}

/// In words, for refusals: "10 Stacking Points where the terrain allows 8".
impl std::fmt::Display for Overstack {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Overstack::Points { have, limit } => {
                write!(f, "{have} Stacking Points where the terrain allows {limit}")
            }
            Overstack::Batteries { have, limit } => {
                write!(f, "{have} batteries where the terrain allows {limit}")
            }
            Overstack::ColumnNotAlone => f.write_str("a unit in Column shares the hex"),
            Overstack::Redan => f.write_str(
                "a redan holds one battery and one infantry point, or four infantry points",
            ),
            Overstack::UnknownTerrain => {
                f.write_str("the stacking chart has no row for this terrain")
            }
        }
    }
}

/// Check one side's units in one hex of `terrain` (leaders and markers are
/// left out: they never count, 8.14). `redan` is true for a hex inside a
/// battery redan, whose own limits replace the terrain's.
pub fn check_hex<'a>(
    chart: &StackingChart,
    terrain: impl IntoIterator<Item = &'a Terrain>,
    redan: bool,
    units: &[(&Unit, &UnitStatus)],
) -> Result<(), Overstack> {
    let limits = chart.limits(terrain).ok_or(Overstack::UnknownTerrain)?;
    if units.len() > 1 && units.iter().any(|(_, s)| s.formation == Formation::Column) {
        return Err(Overstack::ColumnNotAlone);
    }
    let batteries = units
        .iter()
        .filter(|(u, _)| matches!(u.kind, UnitKind::Battery { .. }))
        .count();
    let batteries = u16::try_from(batteries).unwrap_or(u16::MAX);
    let points: u16 = units
        .iter()
        .map(|(u, s)| stacking_points(u, s, &chart.points))
        .fold(0u16, u16::saturating_add);
    if redan {
        let r = &chart.redan;
        let infantry = points.saturating_sub(batteries.saturating_mul(chart.points.battery.value));
        let others = units
            .iter()
            .any(|(u, _)| !matches!(u.kind, UnitKind::Battery { .. } | UnitKind::Infantry));
        let ok = !others
            && match batteries {
                0 => infantry <= r.points_without_guns.value,
                b if b <= r.batteries.value => infantry <= r.points_with_battery.value,
                _ => false,
            };
        return if ok { Ok(()) } else { Err(Overstack::Redan) };
    }
    if batteries > limits.max_batteries {
        return Err(Overstack::Batteries {
            have: batteries,
            limit: limits.max_batteries,
        });
    }
    if points > limits.max_points {
        return Err(Overstack::Points {
            have: points,
            limit: limits.max_points,
        });
    }
    Ok(())
}
