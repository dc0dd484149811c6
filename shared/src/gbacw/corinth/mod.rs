//! *The Battle of Corinth* (GBACW volume 6, SPI 1981) as data: the
//! reconstructed map and the order of battle shipped in
//! `assets/gbacw/corinth/`, and the checks that tie them to the exclusive
//! rules (001, cases 19-31): named hexes, the Union set-up limits of 29.41,
//! the OB Roster's BCE totals. The rules themselves (movement, fire, the
//! scenarios' sequence) belong to the ruleset, not here.

pub mod setup;

use crate::gbacw::charts::RangeChart;
use crate::gbacw::map::{HexNumber, Map, parse_map};
use crate::gbacw::oob::roster::{Mismatch, RosterCheck, check_roster};
use crate::gbacw::oob::{Oob, parse_oob};
use crate::gbacw::text::TextError;

#[cfg(test)]
mod oob_tests;
#[cfg(test)]
mod tests;

/// The reconstructed map (see its header for how it was built).
pub const MAP: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../assets/gbacw/corinth/corinth.map"
));

/// The order of battle: every counter, with its provisional values marked.
pub const OOB: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../assets/gbacw/corinth/corinth.oob"
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

/// Parse the shipped order of battle (weapon codes checked against the
/// Range Effects Chart).
pub fn load_oob(range: &RangeChart) -> Result<Oob, TextError> {
    parse_oob(OOB, range)
}

/// Where the printed counters and the OB Roster are known to disagree
/// (counter first, roster second). The files keep both as printed; only a
/// physical copy can settle them.
/// - Moore's brigade: its counters add up to 19 SP, the roster's BCE
///   record says "of 21".
/// - Battery M 1 Mo a: the counter says PA4, the roster prints 3 gun boxes.
pub const KNOWN_MISMATCHES: [(&str, u16, u16); 2] = [("moore", 19, 21), ("m-1-mo-a", 4, 3)];

/// The loader check: compare every brigade's counters with its roster BCE
/// total (and batteries with their gun boxes), and split the
/// disagreements into the known ones, reported, and any others, which mean
/// the data file is wrong.
pub fn roster_report(oob: &Oob) -> (RosterCheck, Vec<Mismatch>) {
    let check = check_roster(oob);
    let known = |m: &Mismatch| {
        let (id, counter, roster) = match m {
            Mismatch::Brigade(b) => (b.brigade.0.as_str(), b.counters, b.roster),
            Mismatch::Unit {
                unit,
                counter,
                roster,
            } => (unit.0.as_str(), u16::from(*counter), u16::from(*roster)),
        };
        KNOWN_MISMATCHES.contains(&(id, counter, roster))
    };
    let unexpected = check
        .mismatches
        .iter()
        .filter(|m| !known(m))
        .cloned()
        .collect();
    (check, unexpected)
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
