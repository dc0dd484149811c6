//! *Cedar Mountain* (SPI, 1981; exclusive rules 19–27 in seed 004): the
//! files in `assets/gbacw/cedar_mountain/`.

use super::BattleFiles;

pub const NAME: &str = "cedar_mountain";

pub const MAP: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../assets/gbacw/cedar_mountain/cedar_mountain.map"
));
pub const OOB: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../assets/gbacw/cedar_mountain/cedar_mountain.oob"
));
pub const SCENARIO: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../assets/gbacw/cedar_mountain/cedar_mountain.scenario"
));

pub const FILES: BattleFiles = BattleFiles {
    name: NAME,
    map: MAP,
    oob: OOB,
    scenario: SCENARIO,
};

#[cfg(test)]
mod tests;
