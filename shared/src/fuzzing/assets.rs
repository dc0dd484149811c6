//! The scenario text decoders (`assets/gbacw/`): maps, orders of battle,
//! scenarios and charts. They are read from the binary today, but a
//! designer's file (or a future upload) is untrusted text all the same:
//! each parser refuses with a line and column, never panics, and builds
//! nothing larger than its input warrants.

use super::alloc_guard::limited;
use crate::gbacw::battles::{self, Battle};
use crate::gbacw::charts::Charts;
use crate::gbacw::map::parse_map;
use crate::gbacw::movement::StepTable;
use crate::gbacw::oob::parse_oob;
use crate::gbacw::ruleset::scenario::CHARTS;
use crate::gbacw::scenario::parse_scenario;
use std::sync::OnceLock;

/// The largest single allocation a text decode may make (the largest
/// input a parser accepts is 1 MiB, the map).
const TEXT_CEILING: usize = 4 << 20;

fn charts() -> &'static Charts {
    static CHARTS_LOADED: OnceLock<Charts> = OnceLock::new();
    CHARTS_LOADED.get_or_init(|| Charts::load(CHARTS).expect("the shipped charts load"))
}

/// Corinth's own files, for checking a fuzzed scenario against.
fn corinth() -> &'static Battle {
    static CORINTH: OnceLock<Battle> = OnceLock::new();
    CORINTH.get_or_init(|| {
        battles::load("corinth", &charts().range).expect("the shipped Corinth loads")
    })
}

fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// A map file (`gbacw-map 1`); one that parses gets the engine's movement
/// step table built on it, as a table built on that map would.
pub fn map_file(data: &[u8]) {
    let Some(input) = text(data) else { return };
    limited(TEXT_CEILING, "map file", || {
        if let Ok(map) = parse_map(input) {
            let _ = StepTable::new(&map, &charts().movement);
        }
    });
}

/// An order of battle (`gbacw-oob 1`), weapons checked against the
/// shipped range chart.
pub fn oob_file(data: &[u8]) {
    let Some(input) = text(data) else { return };
    limited(TEXT_CEILING, "order of battle", || {
        let _ = parse_oob(input, &charts().range);
    });
}

/// A scenario (`gbacw-scenario 1`); one that parses is resolved against
/// Corinth's map and checked against its map and order of battle, as
/// `battles::load` does.
pub fn scenario_file(data: &[u8]) {
    let Some(input) = text(data) else { return };
    let corinth = corinth();
    limited(TEXT_CEILING, "scenario", || {
        if let Ok(mut scenario) = parse_scenario(input) {
            scenario.resolve(&corinth.map);
            let _ = scenario.check(&corinth.map, &corinth.oob);
        }
    });
}

/// The mapsheet charts (`gbacw-charts 1`, TOML).
pub fn charts_file(data: &[u8]) {
    let Some(input) = text(data) else { return };
    limited(TEXT_CEILING, "charts", || {
        let _ = Charts::load(input);
    });
}
