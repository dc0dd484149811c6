//! GBACW's words for people (`muster_shared::gbacw::words`, DESIGN §3):
//! over whole random games of every shipped battle, every accepted
//! action's and every event's description (the full events and each
//! viewer's redacted ones), and every prompt the game asked before each
//! submission (`Gbacw::awaiting`), reads as words: printed names and hex
//! numbers, never a `Debug` form or an id.

use muster_shared::engine::Ruleset;
use muster_shared::gbacw::battles::BATTLES;
use muster_shared::gbacw::ruleset::{GbacwConfig, GbacwState};
use muster_shared::gbacw::words;
use muster_tests::gbacw_match::GbacwGame;
use muster_tests::gbacw_whole_game::{Battle, play, wild_of, wild_parts};
use muster_tests::random_play::Chooser;
use std::collections::BTreeSet;

/// What no description may contain.
const NOT_WORDS: [&str; 6] = ["{", "}", "CounterId", "HexNumber", "Some(", "_"];

fn wild_action(ch: &mut Chooser, state: &GbacwState) -> muster_shared::gbacw::ruleset::GbacwAction {
    let (pick, hex, facing) = wild_parts(ch, state, 40, 45);
    let k = ch.below(6);
    wild_of(ch, k, pick, hex, facing)
}

#[test]
fn every_action_and_event_of_whole_games_reads_as_words() {
    let mut kinds: BTreeSet<String> = BTreeSet::new();
    for (seed, files) in (1u64..).zip(BATTLES) {
        let battle = Battle {
            wild_action,
            rules: if files.name.starts_with("corinth") {
                "Corinth"
            } else if files.name == "cedar_mountain" {
                "Cedar Mountain"
            } else {
                "Test"
            },
        };
        let config = GbacwConfig {
            battle: files.name.into(),
            ..GbacwConfig::default()
        };
        let mut game = GbacwGame::new(seed, &config, 4096);
        game.transcript = Some(Vec::new());
        game.asked = Some(Vec::new());
        // A few placements by hand, then the default for the rest.
        play(&mut game, seed, 6, [1, 2], &battle);
        assert!(game.m.state().over, "{}: the game ends", files.name);
        let rs = game.m.ruleset().clone();
        let transcript = game.transcript.take().unwrap_or_default();
        assert!(
            transcript.len() > 50,
            "{}: {} actions",
            files.name,
            transcript.len()
        );
        for (action, events) in &transcript {
            let said = words::action(&rs, action);
            check(files.name, &said);
            kinds.insert(
                format!("{action:?}")
                    .split([' ', '(', '{'])
                    .next()
                    .unwrap()
                    .to_string(),
            );
            for e in events {
                let said = words::event(&rs, e);
                check(files.name, &said);
                kinds.insert(
                    format!("{e:?}")
                        .split([' ', '(', '{'])
                        .next()
                        .unwrap()
                        .to_string(),
                );
            }
        }
        // The questions the game asked, too: before every submission
        // (`Gbacw::awaiting`'s prompt, decisions and phases alike), and
        // the decisions pending at the end.
        let asked = game.asked.take().unwrap_or_default();
        // (Refused submissions were asked too.)
        assert!(asked.len() >= transcript.len(), "{}", files.name);
        for prompt in &asked {
            check(files.name, prompt);
        }
        for p in rs.pending(game.m.state()) {
            check(files.name, &p.prompt);
        }
    }
    eprintln!(
        "{} kinds of actions and events described: {kinds:?}",
        kinds.len()
    );
    assert!(kinds.len() > 30, "{kinds:?}");
}

fn check(battle: &str, text: &str) {
    for bad in NOT_WORDS {
        assert!(!text.contains(bad), "{battle}: {bad:?} in {text:?}");
    }
    assert!(!text.is_empty());
}
