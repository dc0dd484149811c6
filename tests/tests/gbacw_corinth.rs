//! Corinth's Historical Scenario (30.0) played whole through
//! `engine::Match` with real hash chains: the Union sets up at random (or
//! by default, as on a timeout), both seats then play random legal actions
//! — reinforcements and the Confederate divisions entering through their
//! Assault Areas (30.2, 29.31), moves, fire, commitment rolls (30.34) —
//! to the victory determination (31.2 after Game-Turn 16, or 31.33 after
//! Game-Turn 32), without a rule error; refusals of wild actions change
//! nothing; the log replays to the same state and outcome and verifies.

use muster_shared::SeatId;
use muster_shared::codec;
use muster_shared::engine::verify::{replay, verify_log};
use muster_shared::engine::{MatchError, MatchLog, Ruleset};
use muster_shared::gbacw::facing::Facing;
use muster_shared::gbacw::map::HexNumber;
use muster_shared::gbacw::oob::{CounterId, Formation, Unit, UnitStatus};
use muster_shared::gbacw::ruleset::is_redan_hex;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwAction, GbacwConfig, GbacwState};
use muster_shared::gbacw::stacking::check_hex;
use muster_tests::gbacw_match::GbacwGame;
use muster_tests::random_play::Chooser;
use std::collections::BTreeMap;
use std::time::Instant;

fn config(heat: bool) -> GbacwConfig {
    GbacwConfig {
        battle: "corinth".into(),
        scenario_options: [("heat".to_string(), heat)].into(),
        ..GbacwConfig::default()
    }
}

/// A scenario action that may well be refused: placements of any counter
/// anywhere, arrivals at any hex, exits, phase ends during the set-up.
fn wild_action(ch: &mut Chooser, state: &GbacwState) -> GbacwAction {
    let pieces: Vec<&CounterId> = state.units.keys().chain(state.leaders.keys()).collect();
    let pick = pieces[ch.below(pieces.len())].clone();
    let hex = HexNumber::new(1 + ch.below(39) as u8, 1 + ch.below(45) as u8).unwrap();
    let facing = Facing::from_index(ch.below(6) as u8).unwrap();
    match ch.below(6) {
        0 if ch.below(2) == 0 => GbacwAction::CommitReserve {
            reserve: CounterId(
                ["hamilton", "stanley", "crocker", "mizner", "nobody"][ch.below(5)].into(),
            ),
        },
        0 => GbacwAction::PlaceUnit {
            unit: pick,
            hex,
            facing,
            formation: [Formation::Line, Formation::Column, Formation::Mounted][ch.below(3)],
        },
        1 => GbacwAction::PlaceLeader { leader: pick, hex },
        2 => GbacwAction::EndPhase,
        3 => GbacwAction::Arrive {
            piece: pick,
            hex,
            facing,
        },
        4 => GbacwAction::ExitMap { unit: pick },
        _ => GbacwAction::Move {
            pieces: vec![pick],
            path: vec![hex],
        },
    }
}

/// GBACW 8.1 and 5.12 after every action: no stack over its limits, no
/// hex holding both sides.
fn check_invariants(rs: &Gbacw, state: &GbacwState) {
    let sc = rs.game();
    let mut stacks: BTreeMap<(HexNumber, &CounterId), Vec<(&Unit, &UnitStatus)>> = BTreeMap::new();
    for (id, u) in &state.units {
        let Some(hex) = u.hex else { continue };
        let unit = &sc.oob.units[id];
        stacks
            .entry((hex, &unit.side))
            .or_default()
            .push((unit, &u.status));
    }
    let mut sides_at: BTreeMap<HexNumber, &CounterId> = BTreeMap::new();
    for ((hex, side), units) in &stacks {
        let terrain = &sc.map.hex(*hex).unwrap().terrain;
        check_hex(
            &sc.charts.stacking,
            terrain,
            is_redan_hex(&sc.map, *hex),
            units,
        )
        .unwrap_or_else(|o| panic!("{side} overstacked in {hex}: {o:?}"));
        assert_eq!(
            *sides_at.entry(*hex).or_insert(side),
            *side,
            "5.12: both sides in {hex}"
        );
    }
}

/// Corinth 30.1: the set-up as the scenario's own check sees it.
fn check_setup(rs: &Gbacw, state: &GbacwState) {
    let oob = &rs.game().oob;
    let union = CounterId("union".into());
    let placed: BTreeMap<CounterId, HexNumber> = state
        .units
        .iter()
        .filter(|(id, _)| oob.units[*id].side == union)
        .filter_map(|(id, u)| u.hex.map(|h| (id.clone(), h)))
        .chain(
            state
                .leaders
                .iter()
                .filter(|(id, _)| oob.leaders[*id].side == union)
                .filter_map(|(id, l)| l.hex.map(|h| (id.clone(), h))),
        )
        .collect();
    let problems =
        rs.game()
            .scenario
            .check_setup(&rs.game().map, oob, &placed, rs.scenario_options());
    assert!(problems.is_empty(), "{problems:?}");
}

/// What a random game did.
#[derive(Default, Debug)]
struct Played {
    accepted: usize,
    placements: usize,
    arrivals: usize,
    moves: usize,
}

/// Play Corinth at random to its end: in the set-up, up to
/// `placements` placements (0: the server's default at once); then in
/// each phase up to `per_phase[seat]` actions other than ending it.
///
/// The bound is what keeps a game fast in a debug build: the Union's
/// legal set in its Movement Phase (~500 actions, each checked by
/// `decide`) takes up to ~1 s there for Corinth's Confederates on the map.
fn play(game: &mut GbacwGame, seed: u64, placements: usize, per_phase: [usize; 2]) -> Played {
    let mut ch = Chooser::new(seed);
    let mut played = Played::default();
    let mut in_phase = 0;
    let mut clock = game.m.state().clock;
    let mut set_up = false;
    for _ in 0..20_000 {
        if !set_up && game.m.state().progress.setting_up.is_none() {
            check_setup(game.m.ruleset(), game.m.state());
            set_up = true;
        }
        let state = game.m.state().clone();
        let Some(seat) = game.m.ruleset().acting_seat(&state) else {
            break;
        };
        if state.clock != clock {
            clock = state.clock;
            in_phase = 0;
        }
        // Pending decisions: withdrawal fire (and the set-up, when the
        // game asks for the default at once) are answered by default.
        let pending = game.m.ruleset().pending(&state);
        let setting_up = state.progress.setting_up.is_some();
        if let Some(p) = pending.first()
            && (!setting_up && ch.below(2) == 0 || setting_up && placements == 0)
        {
            game.submit(p.seat, p.default.clone(), true)
                .expect("the default is accepted");
            played.accepted += 1;
            check_invariants(game.m.ruleset(), game.m.state());
            continue;
        }
        // A spent budget ends the phase without asking for the legal set
        // (the costly part); 17.52 may refuse, and then the set decides.
        let budget = per_phase[usize::from(seat.0.min(1))];
        if !setting_up && in_phase >= budget {
            let before = game.m.log().entries.len();
            match game.submit(seat, GbacwAction::EndPhase, false) {
                Ok(_) => {
                    played.accepted += 1;
                    check_invariants(game.m.ruleset(), game.m.state());
                    continue;
                }
                Err(MatchError::Rule(_)) => {
                    assert_eq!(game.m.state(), &state, "a refusal changed the state");
                    assert_eq!(game.m.log().entries.len(), before);
                }
                Err(e) => panic!("EndPhase refused outside the rules: {e}"),
            }
        }
        let rs = game.m.ruleset();
        let wild = ch.below(20) == 0;
        let (seat, action) = if wild {
            (SeatId(ch.below(2) as u8), wild_action(&mut ch, &state))
        } else {
            let legal = rs.legal_actions(&state, seat);
            assert!(!legal.is_empty(), "the acting seat always has an action");
            let end = [GbacwAction::EndPhase, GbacwAction::EndSetUp];
            let others: Vec<&GbacwAction> = legal.iter().filter(|a| !end.contains(a)).collect();
            let budget = if setting_up { placements } else { budget };
            // The set-up runs to its budget; phases may end early.
            let done = others.is_empty() || in_phase >= budget || !setting_up && ch.below(8) == 0;
            // GBACW 17.52 holds up the end of a Movement Phase while a
            // leader stands alone near the enemy (a leader entering alone
            // through an Assault Area, 29.31): a spent budget then moves a
            // leader onto a friendly unit if it can.
            let rejoin: Vec<&GbacwAction> = if in_phase >= budget && !setting_up {
                others
                    .iter()
                    .copied()
                    .filter(|a| match a {
                        GbacwAction::Move { pieces, path } => {
                            state.leaders.contains_key(&pieces[0])
                                && path.last().is_some_and(|h| {
                                    state.units.iter().any(|(u, x)| {
                                        x.hex == Some(*h)
                                            && rs.game().oob.units[u].side
                                                == rs.game().oob.leaders[&pieces[0]].side
                                    })
                                })
                        }
                        _ => false,
                    })
                    .collect()
            } else {
                Vec::new()
            };
            let a = match legal.iter().find(|a| end.contains(a)) {
                Some(e) if done => e,
                _ if !rejoin.is_empty() => rejoin[ch.below(rejoin.len())],
                _ if others.is_empty() => &legal[0],
                _ => others[ch.below(others.len())],
            };
            (seat, a.clone())
        };
        let before_len = game.m.log().entries.len();
        match game.submit(seat, action.clone(), false) {
            Ok(_) => {
                played.accepted += 1;
                if !wild {
                    in_phase += 1;
                }
                match action {
                    GbacwAction::PlaceUnit { .. } | GbacwAction::PlaceLeader { .. } => {
                        played.placements += 1
                    }
                    GbacwAction::Arrive { .. } => played.arrivals += 1,
                    GbacwAction::Move { .. } => played.moves += 1,
                    _ => {}
                }
            }
            Err(e) => {
                assert!(wild, "legal action {action:?} refused: {e}");
                let MatchError::Rule(r) = &e else {
                    panic!("{action:?} refused outside the rules: {e}")
                };
                assert!(
                    r.rule.starts_with("GBACW") || r.rule.starts_with("Corinth"),
                    "{r}"
                );
                assert_eq!(game.m.state(), &state, "a refusal changed the state");
                assert_eq!(game.m.log().entries.len(), before_len);
            }
        }
        check_invariants(game.m.ruleset(), game.m.state());
    }
    assert!(set_up, "the set-up ended");
    played
}

/// The log replays to the same bytes and outcome, and verifies.
fn replays_to_the_same_outcome(game: &GbacwGame) {
    let live = codec::encode_infallible(game.m.state());
    let outcome = game.m.ruleset().outcome(game.m.state());
    let stored = MatchLog::from_file_bytes(&game.m.log().to_file_bytes()).unwrap();
    let again = replay::<Gbacw>(&stored).expect("the stored log replays");
    assert_eq!(codec::encode_infallible(again.state()), live);
    assert_eq!(again.ruleset().outcome(again.state()), outcome);
    let report = verify_log(&stored);
    assert!(report.ok() && report.rules_checked, "{report}");
}

#[test]
fn corinth_historical_plays_to_victory_determination_and_replays() {
    // (seed, heat, set-up placements, actions per phase by seat: Union,
    // Confederate). Seeds 1 and 3 place part of the Union by hand and leave
    // the rest to `EndSetUp`; seed 2 takes the server's default at once and
    // plays with the heat (30.5). Random play scores little for the
    // Confederates, so these games end on the first day (31.2); the night
    // and second day are played in `ruleset/tests/corinth.rs`.
    let games = [
        (1u64, false, 30, [1, 3]),
        (2, true, 0, [1, 3]),
        (3, false, 10, [1, 4]),
    ];
    for (seed, heat, placements, per_phase) in games {
        let started = Instant::now();
        let mut game = GbacwGame::new(seed, &config(heat), 1024);
        let played = play(&mut game, seed, placements, per_phase);
        let t_play = started.elapsed();
        let state = game.m.state();
        assert!(state.over, "seed {seed}: turn {}", state.clock.turn);
        let outcome = game
            .m
            .ruleset()
            .outcome(state)
            .expect("a finished game has an outcome");
        assert!(outcome.summary.contains("VP"), "{}", outcome.summary);
        // 31.2: the first day was determined after Game-Turn 16.
        assert_eq!(state.progress.days.len(), 1, "{:?}", state.progress.days);
        assert!(played.moves > 0 && played.arrivals > 0, "{played:?}");
        replays_to_the_same_outcome(&game);
        eprintln!(
            "seed {seed}: {played:?}, {} log entries, played in {t_play:.1?}, {:.1?} with replay and verification; {}",
            game.m.log().entries.len(),
            started.elapsed(),
            outcome.summary
        );
    }
}

/// A plan the seed picks among a few that keep 29.21-29.27: Hebert and
/// Maury through two of A-E on Game-Turn 1 or Maury later, Lovell later
/// still (through F from Game-Turn 3), the cavalry with Hebert.
fn seeded_plan(ch: &mut Chooser) -> GbacwAction {
    use muster_shared::gbacw::ruleset::plan::{AssaultPlan, PlannedDivision};
    let id = |s: &str| CounterId(s.into());
    let areas = [
        "assault-a",
        "assault-b",
        "assault-c",
        "assault-d",
        "assault-e",
    ];
    let h = ch.below(5);
    let m = (h + 1 + ch.below(4)) % 5;
    let maury_turn = [1, 1, 2, 3][ch.below(4)] as u16;
    let lovell_turn = maury_turn.max(1) + 1 + ch.below(4) as u16;
    let lovell_area = if lovell_turn >= 3 && ch.below(2) == 0 {
        "assault-f"
    } else {
        areas[(m + 1 + ch.below(3)) % 5]
    };
    let plan = AssaultPlan {
        divisions: vec![
            PlannedDivision {
                division: id("hebert"),
                area: id(areas[h]),
                turn: 1,
            },
            PlannedDivision {
                division: id("maury"),
                area: id(areas[m]),
                turn: maury_turn,
            },
            PlannedDivision {
                division: id("lovell"),
                area: id(lovell_area),
                turn: lovell_turn,
            },
        ],
        attached: ["hoxton", "sengstak", "price", "van-dorn", "supply-reserve"]
            .iter()
            .map(|c| (id(c), id(["hebert", "maury"][ch.below(2)])))
            .collect(),
        cavalry: [
            "armstrong",
            "2-ark-cav",
            "2-mo-cav",
            "adams-cav",
            "jackson",
            "1-miss-cav",
            "7-tenn-cav",
        ]
        .iter()
        .map(|c| (id(c), id(areas[h])))
        .collect(),
    };
    let mut salt = [0u8; 32];
    for b in &mut salt {
        *b = ch.below(256) as u8;
    }
    GbacwAction::PlotAssault {
        plan,
        salt,
        announce: id("hebert"),
    }
}

#[test]
fn corinth_free_set_up_plays_to_victory_determination_and_replays() {
    use muster_shared::gbacw::ruleset::plan::commitment;
    // (seed, plot by the seed or by default, Union placements, budgets).
    let games = [(4u64, true, 10, [1, 3]), (5, false, 0, [1, 3])];
    for (seed, seeded, placements, per_phase) in games {
        let started = Instant::now();
        let config = GbacwConfig {
            battle: "corinth_free".into(),
            ..GbacwConfig::default()
        };
        let mut game = GbacwGame::new(seed, &config, 1024);
        if seeded {
            let mut ch = Chooser::new(seed ^ 0xc0);
            let plot = seeded_plan(&mut ch);
            game.submit(SeatId(1), plot, false)
                .expect("the seeded plan keeps 29.21-29.27");
        }
        let played = play(&mut game, seed, placements, per_phase);
        let state = game.m.state();
        assert!(state.over, "seed {seed}: turn {}", state.clock.turn);
        let outcome = game.m.ruleset().outcome(state).expect("an outcome");
        // 29.2: the plan is public at the end and matches its commitment.
        let a = state.progress.assault.as_ref().expect("plotted");
        assert!(a.opened);
        assert_eq!(
            commitment(a.plan.as_ref().unwrap(), a.salt.as_ref().unwrap()),
            a.commitment
        );
        assert!(played.arrivals > 0, "{played:?}");
        replays_to_the_same_outcome(&game);
        eprintln!(
            "free seed {seed}: {played:?}, {} log entries, {:.1?} with replay and verification; {}",
            game.m.log().entries.len(),
            started.elapsed(),
            outcome.summary
        );
    }
}

/// Corinth 29.2 through the server's own hosting code (`room::any_match`,
/// what a room sends each connection): the plot's delta for the Union seat
/// and for spectators, and their state snapshots, hold the commitment and
/// not the plan; the Confederate seat's hold the plan. No raw action is
/// sent to anyone (deltas carry events; only storage gets the logged entry).
#[test]
fn the_secret_corinth_plan_does_not_reach_the_union_seat_or_a_spectator_through_the_server() {
    use muster_server::room::any_match::registry;
    use muster_shared::dice::{HashChain, Party};
    use muster_shared::gbacw::ruleset::GbacwEvent;
    use muster_shared::protocol::DeltaBody;
    use muster_shared::{MatchId, Viewer};
    let entry = registry("gbacw").expect("gbacw is registered");
    let config = GbacwConfig {
        battle: "corinth_free".into(),
        ..GbacwConfig::default()
    };
    let mut hosted = (entry.create)(&codec::encode_infallible(&config), MatchId([9; 16])).unwrap();
    let server = HashChain::generate(4);
    hosted
        .publish_anchor(Party::Server, server.anchor())
        .unwrap();
    let pending = hosted.pending();
    assert_eq!(pending.len(), 1, "the plot waits on the Confederate seat");
    assert_eq!(pending[0].seat, SeatId(1));
    let plot = seeded_plan(&mut Chooser::new(11));
    let GbacwAction::PlotAssault { plan, .. } = &plot else {
        unreachable!()
    };
    // Maury's area differs from Hebert's, the one 29.23 announces.
    let secret_area = plan.divisions[1].area.0.clone();
    let applied = hosted
        .apply(
            SeatId(1),
            &codec::encode_infallible(&plot),
            vec![],
            false,
            &server,
        )
        .unwrap();
    // Bodies: seat 0 (Union), seat 1 (Confederate), spectators.
    let events_of = |body: &DeltaBody| -> Vec<GbacwEvent> {
        let DeltaBody::Action { events, .. } = body else {
            panic!("{body:?}")
        };
        codec::decode(events, codec::MAX_SERVER_MSG).unwrap()
    };
    for (who, body) in [
        ("union", &applied.bodies[0]),
        ("spectators", &applied.bodies[2]),
    ] {
        let events = events_of(body);
        assert!(
            matches!(
                &events[..],
                [GbacwEvent::AssaultPlotted {
                    plan: None,
                    salt: None,
                    ..
                }]
            ),
            "{who}: {events:?}"
        );
        let DeltaBody::Action { events: raw, .. } = body else {
            unreachable!()
        };
        assert!(
            !raw.windows(secret_area.len())
                .any(|w| w == secret_area.as_bytes()),
            "{who} receives no unannounced area"
        );
    }
    assert!(matches!(
        &events_of(&applied.bodies[1])[..],
        [GbacwEvent::AssaultPlotted {
            plan: Some(_),
            salt: Some(_),
            ..
        }]
    ));
    for (viewer, sees) in [
        (Viewer::Seat(SeatId(0)), false),
        (Viewer::Spectator, false),
        (Viewer::Seat(SeatId(1)), true),
    ] {
        let state: GbacwState =
            codec::decode(&hosted.state_for(viewer), codec::MAX_SERVER_MSG).unwrap();
        let a = state.progress.assault.expect("plotted");
        assert_eq!(a.plan.is_some(), sees, "{viewer:?}");
        assert_eq!(a.salt.is_some(), sees, "{viewer:?}");
    }
}
