//! The GBACW charts as data.
//!
//! `assets/gbacw/charts.toml` holds the mapsheet charts that no seed
//! contains — Terrain Effects on Movement (5.19), Stacking Restrictions
//! (8.18), Range Effects (9.25), Terrain Effects on Combat (9.56). Each
//! value carries `provisional` and a one-line `why` ([`Sourced`]). The
//! result tables the seeds do print are in [`crate::gbacw::tables`].
//!
//! The loader validates everything and reports errors by line and column.

pub mod combat;
pub mod movement;
pub mod range;
pub(crate) mod rows;
pub mod source;
pub mod stacking;

pub use combat::{CombatChart, CombatSide};
pub use movement::{Cost, FormationChange, MoveClass, MovementChart, PathKind, SideRow};
pub use range::{Multiplier, RangeBand, RangeChart, Weapon, WeaponKind};
pub use source::{MAX_CHART_BYTES, Mp, Sourced};
pub use stacking::{HexLimits, StackingChart};

use crate::gbacw::text::TextError;
use serde::{Deserialize, Serialize};
use toml::Spanned;

/// The mapsheet charts, loaded from `charts.toml`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Charts {
    pub movement: MovementChart,
    pub stacking: StackingChart,
    pub range: RangeChart,
    pub combat: CombatChart,
}

const CHARTS_FORMAT: &str = "gbacw-charts 1";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCharts {
    format: Spanned<String>,
    movement: movement::RawMovement,
    stacking: stacking::RawStacking,
    range: range::RawRange,
    combat: combat::RawCombat,
}

/// Check a file's `format = "..."` line.
fn check_format(input: &str, format: &Spanned<String>, expected: &str) -> Result<(), TextError> {
    if format.get_ref() != expected {
        return Err(source::error_at(
            input,
            format,
            format!("expected format \"{expected}\""),
        ));
    }
    Ok(())
}

impl Charts {
    /// Load and validate `charts.toml`.
    pub fn load(input: &str) -> Result<Self, TextError> {
        let raw: RawCharts = source::from_toml(input, "chart file")?;
        check_format(input, &raw.format, CHARTS_FORMAT)?;
        Ok(Charts {
            movement: MovementChart::read(input, raw.movement)?,
            stacking: StackingChart::read(input, raw.stacking)?,
            range: RangeChart::read(input, raw.range)?,
            combat: CombatChart::read(input, raw.combat)?,
        })
    }
}

#[cfg(test)]
pub(crate) mod tests;
