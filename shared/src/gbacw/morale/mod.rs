//! Morale (GBACW 13.0–13.4) and the fire results that test it (9.8x,
//! 11.21) as pure functions of the dice rolled: the engine rolls, these
//! decide.

pub mod check;
pub mod fire_result;
pub mod stack;

pub use check::{MoraleMods, ammo_depleted, morale_check, rating, sees_the_elephant};
pub use fire_result::{FireOutcome, resolve_fire_result};
pub use stack::{CheckTrigger, check_stack, hit_while_routed, morale_check_due, rout};

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_stack;
