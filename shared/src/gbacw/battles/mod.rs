//! The battles shipped in `assets/gbacw/<battle>/`: each one's map, order
//! of battle and scenario, embedded in the binary and loaded together so a
//! ruleset can ask for a battle by name.

pub mod cedar_mountain;
pub mod corinth;
pub mod test;

use crate::gbacw::charts::RangeChart;
use crate::gbacw::map::{Map, parse_map};
use crate::gbacw::oob::{Oob, parse_oob};
use crate::gbacw::scenario::{Scenario, parse_scenario};
use crate::gbacw::text::TextError;

/// A battle's three files, parsed.
#[derive(Clone, Debug)]
pub struct Battle {
    pub map: Map,
    pub oob: Oob,
    pub scenario: Scenario,
}

/// Why a battle failed to load: which file, and where in it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BattleError {
    #[error("no battle named `{0}`")]
    Unknown(String),
    #[error("{file}: {error}")]
    File { file: String, error: TextError },
    #[error("scenario does not fit its map and order of battle: {0}")]
    Check(String),
}

/// The texts of one battle's files.
#[derive(Clone, Copy, Debug)]
pub struct BattleFiles {
    pub name: &'static str,
    pub map: &'static str,
    pub oob: &'static str,
    pub scenario: &'static str,
}

/// Every battle shipped with Muster.
pub const BATTLES: &[BattleFiles] = &[
    cedar_mountain::FILES,
    corinth::FILES,
    corinth::FREE_FILES,
    corinth::SOLO_FILES,
    test::FILES,
];

/// A battle's title as a player reads it in the lobby ("Cedar Mountain,
/// 9 August 1862"); the id itself for a battle not listed here.
pub fn title(name: &str) -> &str {
    match name {
        "cedar_mountain" => "Cedar Mountain, 9 August 1862",
        "corinth" => "Corinth, 3–4 October 1862: the historical scenario (30.0)",
        "corinth_free" => "Corinth, 3–4 October 1862: free set-up, two players (29.0)",
        "corinth_solo" => "Corinth, 3–4 October 1862: free set-up, solitaire (29.5)",
        "test" => "Test ground (for developers)",
        other => other,
    }
}

/// Battles a player chooses from (the `test` fixture is for the tests).
pub fn for_players() -> impl Iterator<Item = &'static BattleFiles> {
    BATTLES.iter().filter(|b| b.name != test::NAME)
}

/// Load a shipped battle by name (`"cedar_mountain"`), parse its three files
/// and check the scenario against its map and order of battle.
pub fn load(name: &str, range: &RangeChart) -> Result<Battle, BattleError> {
    let files = BATTLES
        .iter()
        .find(|b| b.name == name)
        .ok_or_else(|| BattleError::Unknown(name.to_string()))?;
    load_files(files, range)
}

/// Parse and cross-check one battle's files.
pub fn load_files(files: &BattleFiles, range: &RangeChart) -> Result<Battle, BattleError> {
    let wrap = |file: &str| {
        let file = format!("{}/{file}", files.name);
        move |error| BattleError::File {
            file: file.clone(),
            error,
        }
    };
    let map = parse_map(files.map).map_err(wrap(&format!("{}.map", files.name)))?;
    let oob = parse_oob(files.oob, range).map_err(wrap(&format!("{}.oob", files.name)))?;
    let mut scenario =
        parse_scenario(files.scenario).map_err(wrap(&format!("{}.scenario", files.name)))?;
    scenario.resolve(&map);
    let problems = scenario.check(&map, &oob);
    if let Some(first) = problems.first() {
        return Err(BattleError::Check(format!(
            "{first} ({} problem{} in all)",
            problems.len(),
            if problems.len() == 1 { "" } else { "s" }
        )));
    }
    Ok(Battle { map, oob, scenario })
}

/// The names of `battle`'s two sides as its scenario file gives them,
/// seat 0 first ("Union", "Confederate"); `None` for a battle not shipped
/// or a file that does not parse.
pub fn side_names(battle: &str) -> Option<[String; 2]> {
    let files = BATTLES.iter().find(|b| b.name == battle)?;
    let scenario = parse_scenario(files.scenario).ok()?;
    match scenario.sides.as_slice() {
        [a, b, ..] => Some([a.name.clone(), b.name.clone()]),
        _ => None,
    }
}

/// The words of `battle`'s levels of victory, strongest first, as the
/// engine's end-of-game words name them: Cedar Mountain 27.1's levels
/// above a draw ("strategic", "tactical", "marginal"), Corinth 31.33's
/// bands without their side ("decisive", "substantial", "marginal").
/// An event maps each to event points; empty for a battle without levels.
pub fn victory_levels(battle: &str) -> Vec<String> {
    let Some(files) = BATTLES.iter().find(|b| b.name == battle) else {
        return Vec::new();
    };
    let Ok(scenario) = parse_scenario(files.scenario) else {
        return Vec::new();
    };
    let mut words: Vec<String> = Vec::new();
    let mut add = |w: &str| {
        if !w.is_empty() && !words.iter().any(|x| x == w) {
            words.push(w.to_string());
        }
    };
    if let Some(t) = &scenario.victory.tally {
        // Bands run from one side's strongest to the other's: the first
        // half, read inwards, is strongest first.
        for b in t.bands.iter().filter(|b| b.winner.is_some()) {
            add(b.name.split('-').next().unwrap_or(""));
        }
    } else {
        // Ascending, the lowest (a draw) has no winner (27.1).
        for (name, _) in scenario.victory.levels.iter().skip(1).rev() {
            add(name);
        }
    }
    words
}

#[cfg(test)]
mod event_words_tests {
    #[test]
    fn the_battles_name_their_sides_and_levels_of_victory() {
        let [union, confederate] = super::side_names("cedar_mountain").unwrap();
        assert!(union.starts_with("Union"), "{union}");
        assert!(confederate.starts_with("Confederate"), "{confederate}");
        assert_eq!(
            super::victory_levels("cedar_mountain"),
            ["strategic", "tactical", "marginal"]
        );
        assert_eq!(
            super::victory_levels("corinth"),
            ["decisive", "substantial", "marginal"]
        );
        assert_eq!(super::side_names("nowhere"), None);
    }
}
