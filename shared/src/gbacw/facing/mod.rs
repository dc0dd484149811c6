//! Facing (GBACW 7.0) and Zones of Control (10.0) as pure queries over the
//! grid and a unit's formation.

pub mod hexsides;
pub mod zoc;

pub use hexsides::{Facing, can_fire_through, fire_crossings, frontal_directions, is_enfiladed};
pub use zoc::{ZocUse, exerts_zoc, zoc_hexes};
