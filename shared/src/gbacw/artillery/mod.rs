//! GBACW 15 (and 8.22, 9.13, 9.82, 13.25, 13.44): artillery. Move or fire
//! (15.0), gun crews and their two steps (15.1x), routed batteries
//! (15.16), exploding caissons (15.2), and rolling per unit at three hexes
//! or more (8.22).
//!
//! - [`crew`]: hits on batteries, crew steps, crews that rout.
//! - [`activity`]: move or fire in a Player-Turn.
//! - [`caisson`]: exploding caissons.
//! - [`stack_fire`]: one roll or a roll per unit (8.22, 8.23).

pub mod activity;
pub mod caisson;
pub mod crew;
pub mod stack_fire;

pub use activity::{Activity, may_do};
pub use caisson::caisson_rounds_lost;
pub use crew::{BatteryHit, BatteryRout, crew_replaceable, hit_battery, rout_battery};
pub use stack_fire::{artillery_rolls, rolls_per_unit};

#[cfg(test)]
mod tests;
