//! Scenarios: the data that turns a map and an order of battle into one
//! game — sides and seats, length, set-up and its restrictions, arrivals,
//! victory, and which exclusive-rule hooks are on ([`model`]); the text
//! format ([`parse`]); checks against map and order of battle ([`check`]).

pub mod check;
pub mod model;
pub mod parse;

pub use check::{Problem, hexes_within, on_edge};
pub use model::*;
pub use parse::{MAX_LIST, MAX_SCENARIO_BYTES, parse_scenario};

#[cfg(test)]
mod tests;
