//! Fire combat (GBACW 9.0–9.6) as pure queries: who may fire
//! ([`eligibility`]), with what strength ([`strength`]), and on which
//! column of the Fire CRT ([`column`]).

pub mod column;
pub mod eligibility;
pub mod strength;

pub use column::{ColumnShifts, fire_column, fire_row, terrain_shift};
pub use eligibility::{FireOccasion, may_fire};
pub use strength::{FireStrength, check_hexside_limits, check_split, unit_fire_strength};

#[cfg(test)]
mod tests;
