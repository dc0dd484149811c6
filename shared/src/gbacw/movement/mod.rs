//! Movement as pure queries over a map and the movement chart: the cost of
//! one step ([`cost`]) and every hex a unit can reach ([`reach`]). The
//! client highlights with the same functions the engine validates with.

pub mod cost;
pub mod reach;
pub mod table;

pub use cost::{Blocked, step_cost, step_cost_by};
pub use reach::{Reach, one_hex_moves, reachable, reachable_over, reachable_with};
pub use table::StepTable;

#[cfg(test)]
mod tests;
