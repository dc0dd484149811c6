//! Facing (GBACW 7.0) and Zones of Control (10.0) as pure queries over the
//! grid and a unit's formation.

pub mod change;
pub mod hexsides;
pub mod zoc;

pub use change::{FacingMoment, facing_on_entry, may_change_facing, may_change_formation};
pub use hexsides::{
    Facing, can_fire_through, direction_names, fire_crossings, frontal_directions, is_enfiladed,
};
pub use zoc::{ZocUse, exerts_zoc, zoc_hexes};

#[cfg(test)]
mod tests_change;
