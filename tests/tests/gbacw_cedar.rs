//! Cedar Mountain played whole through `engine::Match` with real hash
//! chains: the Union sets up at random (or by default, as on a timeout),
//! both seats then play random legal actions — reinforcements entering,
//! moves, command, exits — through all 13 Game-Turns to the victory
//! determination (27.1), without a rule error; refusals of wild actions
//! change nothing; the log replays to the same state and outcome and
//! verifies.

use muster_shared::codec;
use muster_shared::dice::{HashChain, Party};
use muster_shared::engine::Ruleset;
use muster_shared::gbacw::ruleset::{GbacwAction, GbacwConfig, GbacwState};
use muster_shared::{MatchId, SeatId};
use muster_tests::gbacw_match::GbacwGame;
use muster_tests::gbacw_mutants::offer_mutants;
use muster_tests::gbacw_whole_game::{
    Battle, play, replays_to_the_same_outcome, wild_of, wild_parts,
};
use muster_tests::random_play::Chooser;
use std::time::Instant;

fn config(free_deployment: bool) -> GbacwConfig {
    GbacwConfig {
        battle: "cedar_mountain".into(),
        scenario_options: [("free-deployment".to_string(), free_deployment)].into(),
        ..GbacwConfig::default()
    }
}

fn new_game(seed: u64, config: &GbacwConfig) -> GbacwGame {
    GbacwGame::new(seed, config, 256)
}

/// A scenario action that may well be refused: placements of any counter
/// anywhere, arrivals at any hex, exits, phase ends during the set-up.
fn wild_action(ch: &mut Chooser, state: &GbacwState) -> GbacwAction {
    let (pick, hex, facing) = wild_parts(ch, state, 40, 34);
    let k = ch.below(6);
    wild_of(ch, k, pick, hex, facing)
}

/// This battle for the shared random-game driver.
const BATTLE: Battle = Battle {
    wild_action,
    rules: "Cedar Mountain",
};

#[test]
fn cedar_mountain_plays_to_victory_determination_and_replays() {
    // (seed, free deployment, set-up placements, actions per phase by
    // seat: Union, Confederate). Seed 1 places everything by hand, seed 2
    // part (26.3) and leaves the rest to `EndSetUp`, seed 3 takes the
    // server's default at once.
    let games = [
        (1u64, false, 40, [1, 3]),
        (2, true, 12, [1, 3]),
        (3, false, 0, [1, 4]),
    ];
    let mut arrivals = 0;
    for (seed, free, placements, per_phase) in games {
        let started = Instant::now();
        let mut game = new_game(seed, &config(free));
        let played = play(&mut game, seed, placements, per_phase, &BATTLE);
        let t_play = started.elapsed();
        let state = game.m.state();
        assert!(state.over, "seed {seed}: turn {}", state.clock.turn);
        let outcome = game
            .m
            .ruleset()
            .outcome(state)
            .expect("a finished game has an outcome");
        assert!(outcome.summary.contains("VP"), "{}", outcome.summary);
        assert_eq!(state.progress.hex_track.len(), 13, "a track row per turn");
        assert!(played.moves > 0 && played.arrivals > 0, "{played:?}");
        if placements > 0 {
            assert!(played.placements > 0, "{played:?}");
        }
        arrivals += played.arrivals;
        // GBACW 18.0, Cedar Mountain 27.21: the brigades at their BCE limit
        // are exactly those whose roster VP the enemy scores.
        let rs = game.m.ruleset();
        let broken: Vec<_> = rs.bce(state).into_iter().filter(|b| b.at_limit).collect();
        for (seat, vp) in rs.victory_points(state).iter().enumerate() {
            let side = rs.side_of(SeatId(u8::try_from(seat).unwrap()));
            let owed: u32 = broken
                .iter()
                .filter(|b| b.side != *side)
                .map(|b| u32::from(b.victory_points))
                .sum();
            assert_eq!(vp.bce, owed, "seed {seed}: BCE VP of {side}");
        }
        eprintln!(
            "seed {seed}: BCE lost by {:?}; cornfields blown down: {}",
            broken
                .iter()
                .map(|b| b.brigade.0.as_str())
                .collect::<Vec<_>>(),
            state.corn_down.len()
        );
        replays_to_the_same_outcome(&game);
        let mutants = offer_mutants(&game, new_game(seed, &config(free)), seed);
        assert!(mutants.offered > 100, "{mutants:?}");
        eprintln!("seed {seed}: mutated actions {mutants:?}");
        eprintln!(
            "seed {seed}: {played:?}, {} log entries, played in {t_play:.1?}, {:.1?} with replay and verification; {}",
            game.m.log().entries.len(),
            started.elapsed(),
            outcome.summary
        );
    }
    assert!(arrivals > 0);
}

/// The server's registry creates a Cedar Mountain table from bytes and
/// waits on the Union's set-up, whose default the server may apply.
#[test]
fn the_server_hosts_cedar_mountain() {
    use muster_server::room::any_match::registry;
    let entry = registry("gbacw").expect("gbacw is registered");
    let bytes = codec::encode_infallible(&config(false));
    let mut hosted = (entry.create)(&bytes, MatchId([6; 16])).unwrap();
    let server = HashChain::generate(4);
    hosted
        .publish_anchor(Party::Server, server.anchor())
        .unwrap();
    let pending = hosted.pending();
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].seat, SeatId(0));
    let end = codec::encode_infallible(&GbacwAction::EndSetUp);
    assert!(
        hosted
            .apply(SeatId(1), &end, vec![], true, &server)
            .is_err()
    );
    hosted
        .apply(SeatId(0), &end, vec![], true, &server)
        .unwrap();
    assert!(hosted.pending().is_empty());
    let state: GbacwState = codec::decode(
        &hosted.state_for(muster_shared::Viewer::Referee),
        codec::MAX_SERVER_MSG,
    )
    .unwrap();
    assert!(state.progress.setting_up.is_none());
    assert!(hosted.outcome().is_none());
}
