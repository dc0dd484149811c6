//! A game continued from a saved one (issue 18): a new table whose config
//! carries the saved game's log starts where that log ends, plays on with
//! fresh dice chains, and its own log verifies and replays (the saved log
//! replayed inside it). Refused in words: a saved game of another battle,
//! one that does not replay, one continued already, one with hidden
//! information still hidden.

use muster_shared::codec;
use muster_shared::engine::{LogEntry, MatchLog, Ruleset};
use muster_shared::gbacw::ruleset::continued::{self, CONTINUED_MAGIC};
use muster_shared::gbacw::ruleset::{Gbacw, GbacwAction, GbacwConfig};
use std::sync::Arc;

mod support;
use support::table::Table;

fn battle(name: &str) -> GbacwConfig {
    GbacwConfig {
        battle: name.into(),
        ..GbacwConfig::default()
    }
}

/// Play `n` actions: the set-up ended by default, then each acting seat's
/// first legal action that rolls dice if any does (so the logs hold
/// proofs), else the first that is not the end of a phase, every fifth
/// action the end of the phase (so the game moves on).
fn play(t: &mut Table<Gbacw>, n: usize) {
    for k in 0..n {
        let Some(seat) = t.m.ruleset().acting_seat(t.m.state()) else {
            return;
        };
        let legal = t.m.ruleset().legal_actions(t.m.state(), seat);
        let pick = legal
            .iter()
            .find(|a| matches!(a, GbacwAction::EndSetUp))
            .or_else(|| legal.iter().find(|a| t.m.rolls_dice(seat, a)))
            .or_else(|| {
                (k % 5 == 4)
                    .then(|| legal.iter().find(|a| matches!(a, GbacwAction::EndPhase)))
                    .flatten()
            })
            .or_else(|| legal.iter().find(|a| !matches!(a, GbacwAction::EndPhase)))
            .or_else(|| legal.first())
            .cloned()
            .expect("something is legal");
        t.act(seat.0, pick).expect("a legal action is accepted");
    }
}

fn refusal(config: &GbacwConfig) -> String {
    match Gbacw::new(config) {
        Ok(_) => panic!("not refused"),
        Err(e) => e.message,
    }
}

#[test]
fn a_continued_game_starts_where_the_saved_game_stood_and_plays_on() {
    let mut saved = Table::<Gbacw>::new(&battle("cedar_mountain"));
    play(&mut saved, 120);
    let rolled = saved
        .m
        .log()
        .entries
        .iter()
        .filter(|e| matches!(e, LogEntry::Action(r) if r.roll.is_some()))
        .count();
    assert!(rolled > 0, "the saved game should hold rolls");
    let config = continued::config_for(saved.m.log()).unwrap();
    let rs = Gbacw::new(&config).unwrap();
    assert!(rs.initial_state() == *saved.m.state(), "not where it stood");
    // The new table: its own log, fresh chains, the saved game's in its
    // header's config behind the magic.
    let mut t = Table::<Gbacw>::new(&config);
    assert!(t.m.log().header.config.starts_with(CONTINUED_MAGIC));
    assert!(t.m.state() == saved.m.state());
    assert_eq!(
        t.m.ruleset().acting_seat(t.m.state()),
        saved.m.ruleset().acting_seat(saved.m.state())
    );
    play(&mut t, 30);
    assert!(t.m.log().entries.len() > 30);
    // Verified and replayed from its own log alone, by the same route a
    // spectator's client or `muster-server verify` takes.
    t.assert_replays();
    let decoded = Gbacw::decode_config(&t.m.log().header.config, codec::MAX_SERVER_MSG).unwrap();
    assert_eq!(decoded, config);
}

#[test]
fn a_plain_config_is_written_as_before() {
    for config in [GbacwConfig::default(), battle("corinth")] {
        let bytes = Gbacw::encode_config(&config);
        assert_eq!(bytes, codec::encode_infallible(&config));
        assert_eq!(
            Gbacw::decode_config(&bytes, codec::MAX_CLIENT_MSG).unwrap(),
            config
        );
    }
}

#[test]
fn a_saved_game_of_another_battle_is_refused_in_words() {
    let mut saved = Table::<Gbacw>::new(&battle("cedar_mountain"));
    play(&mut saved, 5);
    let config = GbacwConfig {
        continued: Some(Arc::new(saved.m.log().clone())),
        ..battle("corinth")
    };
    assert_eq!(
        refusal(&config),
        "the saved game was played with another battle or other readings than this table's"
    );
}

#[test]
fn a_saved_game_changed_by_hand_is_refused_in_words() {
    let mut saved = Table::<Gbacw>::new(&battle("cedar_mountain"));
    play(&mut saved, 40);
    let mut log: MatchLog = saved.m.log().clone();
    // An action's bytes swapped for another's: the rules refuse it, or a
    // roll's proof no longer matches.
    let actions: Vec<usize> = log
        .entries
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, LogEntry::Action(_)))
        .map(|(i, _)| i)
        .collect();
    let (a, b) = (actions[actions.len() - 1], actions[actions.len() - 2]);
    log.entries.swap(a, b);
    let e = refusal(&continued::config_for(&log).unwrap());
    assert!(e.starts_with("the saved game does not replay: "), "{e}");
    assert!(!e.contains('{') && !e.contains("CounterId"), "{e}");
}

#[test]
fn a_continued_game_is_not_continued_again() {
    let mut saved = Table::<Gbacw>::new(&battle("cedar_mountain"));
    play(&mut saved, 5);
    let config = continued::config_for(saved.m.log()).unwrap();
    let mut t = Table::<Gbacw>::new(&config);
    play(&mut t, 3);
    assert_eq!(
        refusal(&continued::config_for(t.m.log()).unwrap()),
        "the saved game was itself continued from another; save it again at one table first"
    );
}

#[test]
fn a_saved_game_with_a_secret_plan_is_refused_in_words() {
    // Corinth's free set-up (29.0): the Confederate plan is plotted in
    // secret first.
    let mut saved = Table::<Gbacw>::new(&battle("corinth_free"));
    let hidden = |t: &Table<Gbacw>| {
        t.m.ruleset()
            .view(t.m.state(), muster_shared::Viewer::Spectator)
            != *t.m.state()
    };
    for _ in 0..20 {
        if hidden(&saved) {
            break;
        }
        play(&mut saved, 1);
    }
    assert!(hidden(&saved), "no secret in play");
    assert_eq!(
        refusal(&continued::config_for(saved.m.log()).unwrap()),
        "the saved game holds hidden information (a secret plan not yet revealed); \
         its log would show it to everyone at the table"
    );
}

/// No developer text in a refusal a player reads (issue 17's words rule):
/// no `Debug` braces or lists, no type names, no snake_case.
fn assert_words(e: &str) {
    for bad in ["{", "}", "[", "Some(", "CounterId", "HexNumber", "_"] {
        assert!(!e.contains(bad), "{bad:?} in a refusal: {e}");
    }
}

#[test]
fn a_saved_game_whose_settings_do_not_read_is_refused_in_words() {
    let mut saved = Table::<Gbacw>::new(&battle("cedar_mountain"));
    play(&mut saved, 5);
    let mut log: MatchLog = saved.m.log().clone();
    log.header.config = vec![0xff; 7];
    let e = continued::config_for(&log).unwrap_err().to_string();
    assert_eq!(
        e,
        "Continued game: the saved game's settings do not read: \
         the file is damaged or from another version of Muster"
    );
    assert_words(&e);
}

#[test]
fn a_saved_game_with_a_changed_die_is_refused_in_words() {
    let mut saved = Table::<Gbacw>::new(&battle("cedar_mountain"));
    play(&mut saved, 200);
    let mut log: MatchLog = saved.m.log().clone();
    // The first roll's first die changed: its proof no longer holds.
    let (seq, proof) = log
        .entries
        .iter_mut()
        .enumerate()
        .find_map(|(i, e)| match e {
            LogEntry::Action(a) => a.roll.as_mut().map(|r| (i + 1, r)),
            _ => None,
        })
        .expect("a roll within 200 actions");
    let die = proof.dice.first_mut().expect("a die");
    die.value = if die.value == 1 { 2 } else { 1 };
    let e = refusal(&continued::config_for(&log).unwrap());
    assert_eq!(
        e,
        format!(
            "the saved game does not replay: its entry {seq} was changed after \
             the game was saved, or the file is damaged"
        )
    );
    assert_words(&e);
}
