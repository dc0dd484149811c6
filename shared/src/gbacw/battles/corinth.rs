//! *The Battle of Corinth* (GBACW volume 6, SPI 1981; exclusive rules
//! 19–31 in seed 001): the files in `assets/gbacw/corinth/`. The map and
//! order of battle are those [`crate::gbacw::corinth`] checks against the
//! rules; the scenario is the Historical Scenario (30.0).

use super::BattleFiles;

pub const NAME: &str = "corinth";

/// Corinth 30.0: the Historical Scenario.
pub const SCENARIO: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../assets/gbacw/corinth/corinth.scenario"
));

pub const FILES: BattleFiles = BattleFiles {
    name: NAME,
    map: crate::gbacw::corinth::MAP,
    oob: crate::gbacw::corinth::OOB,
    scenario: SCENARIO,
};

/// Corinth 29.0: the Free Set-Up Scenario (two-player), with the secret
/// assault plan (29.2).
pub const FREE_NAME: &str = "corinth_free";

pub const FREE_SCENARIO: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../assets/gbacw/corinth/corinth_free.scenario"
));

pub const FREE_FILES: BattleFiles = BattleFiles {
    name: FREE_NAME,
    map: crate::gbacw::corinth::MAP,
    oob: crate::gbacw::corinth::OOB,
    scenario: FREE_SCENARIO,
};

/// Corinth 29.5: the Free Set-Up Scenario, solitaire version: the
/// Confederate assault is rolled, not plotted (`hook solitaire`).
pub const SOLO_NAME: &str = "corinth_solo";

pub const SOLO_SCENARIO: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../assets/gbacw/corinth/corinth_solo.scenario"
));

pub const SOLO_FILES: BattleFiles = BattleFiles {
    name: SOLO_NAME,
    map: crate::gbacw::corinth::MAP,
    oob: crate::gbacw::corinth::OOB,
    scenario: SOLO_SCENARIO,
};
