//! The test battle: every counter of the test order of battle on the test
//! ground (`assets/gbacw/maps/test.map`, `assets/gbacw/oob/test.oob`), set
//! up in `assets/gbacw/test/test.scenario`. A fixture to play the engine
//! with, not a historical battle.

use super::BattleFiles;

pub const NAME: &str = "test";

pub const MAP: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../assets/gbacw/maps/test.map"
));
pub const OOB: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../assets/gbacw/oob/test.oob"
));
pub const SCENARIO: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../assets/gbacw/test/test.scenario"
));

pub const FILES: BattleFiles = BattleFiles {
    name: NAME,
    map: MAP,
    oob: OOB,
    scenario: SCENARIO,
};
