//! *The Battle of Corinth* (GBACW volume 6, SPI 1981) as data: the
//! reconstructed map and the order of battle shipped in
//! `assets/gbacw/corinth/`, and the checks that tie them to the exclusive
//! rules (001, cases 19-31): named hexes, the Union set-up limits of 29.41,
//! the OB Roster's BCE totals. The rules themselves (movement, fire, the
//! scenarios' sequence) belong to the ruleset, not here.

pub mod setup;

use crate::gbacw::map::{HexNumber, Map, parse_map};
use crate::gbacw::text::TextError;

#[cfg(test)]
mod tests;

/// The reconstructed map (see its header for how it was built).
pub const MAP: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../assets/gbacw/corinth/corinth.map"
));

/// The seven Confederate Assault Areas, A-G, as the map file names them
/// (Corinth 29.1).
pub const ASSAULT_AREAS: [&str; 7] = [
    "assault-a",
    "assault-b",
    "assault-c",
    "assault-d",
    "assault-e",
    "assault-f",
    "assault-g",
];

/// Corinth 31.1: the Tishomingo Hotel, worth 5 VP.
pub const TISHOMINGO_HOTEL: &str = "2437";

/// Parse the shipped map.
pub fn load_map() -> Result<Map, TextError> {
    parse_map(MAP)
}

/// Hex number from four digits; `None` if malformed. For constants in
/// this module and its tests.
pub fn hex(s: &str) -> Option<HexNumber> {
    HexNumber::parse(s)
}

/// The distance in hexes from `h` to the nearest hex of any Assault Area
/// (Corinth 29.41 counts "within 4 hexes of a Confederate Assault Area");
/// `None` when the map has no Assault Area hexes at all.
pub fn distance_to_assault_areas(map: &Map, h: HexNumber) -> Option<u32> {
    ASSAULT_AREAS
        .iter()
        .filter_map(|a| map.area(a))
        .flatten()
        .map(|&a| map.grid.distance(h, a))
        .min()
}
