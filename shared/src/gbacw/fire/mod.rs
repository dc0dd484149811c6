//! Fire combat (GBACW 9.0–9.6) as pure queries: who may fire
//! ([`eligibility`]), with what strength ([`strength`]), and on which
//! column of the Fire CRT ([`column`]), the attack and its die
//! ([`attack`]), whom the result hits ([`apply`]), and who was fired at
//! already ([`record`]).

pub mod apply;
pub mod attack;
pub mod column;
pub mod eligibility;
pub mod phase;
pub mod record;
pub mod strength;

pub use apply::{allocate_losses, result_target};
pub use attack::{
    Attack, density_points, density_shift, hexside_allotments, resolve_all, resolve_attack,
};
pub use column::{ColumnShifts, fire_column, fire_row, terrain_shift};
pub use eligibility::{FireOccasion, may_fire};
pub use phase::fire_allowed_in;
pub use record::FirePhaseLog;
pub use strength::{
    FireStrength, check_hexside_limits, check_split, check_split_points, current_fire_strength,
    unit_fire_strength, unit_fire_strength_read,
};

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_attack;
