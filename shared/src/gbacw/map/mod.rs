//! GBACW maps: hex numbers and hex math ([`coord`]), terrain kinds
//! ([`terrain`]), the loaded map ([`model`]) and its text format
//! ([`parse`]).

pub mod coord;
pub mod model;
pub mod parse;
pub mod terrain;

pub use coord::{Grid, HexNumber, Hexside, Offset, Orientation};
pub use model::{HexInfo, Map};
pub use parse::{MAX_MAP_BYTES, parse_map};
pub use terrain::{SideFeature, SideKind, Terrain};

#[cfg(test)]
pub(crate) mod tests;
