//! Line of sight (GBACW 9.7–9.73) as a pure query: the hexes a line
//! crosses ([`line`]) and whether anything on it blocks sight ([`sight`]).

pub mod line;
pub mod sight;

pub use line::{Crossing, crossings};
pub use sight::{Los, Obstacle, line_of_sight, line_of_sight_raised};

#[cfg(test)]
mod tests;
