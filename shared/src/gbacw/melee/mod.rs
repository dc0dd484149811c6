//! Melee (GBACW 12.0–12.7, 16.2–16.3) as pure queries: each unit's melee
//! strength ([`strength`]), the terrain it crosses ([`terrain`]), and a
//! side's total for the differential.

pub mod strength;
pub mod terrain;

pub use strength::{
    MeleeRole, Opponents, differential, morale_edge, side_total, unit_melee_strength,
};
pub use terrain::{crossing_penalty, may_charge, may_melee_into};

#[cfg(test)]
mod tests;
