//! Whole GBACW battles played at random through `engine::Match` with real
//! hash chains, from the set-up to the victory determination: the driver
//! and the checks the Cedar Mountain and Corinth tests share
//! (`tests/tests/gbacw_cedar.rs`, `gbacw_corinth.rs`).

use crate::gbacw_match::GbacwGame;
use crate::random_play::Chooser;
use muster_shared::SeatId;
use muster_shared::codec;
use muster_shared::engine::verify::{replay, verify_log};
use muster_shared::engine::{MatchError, MatchLog, Ruleset};
use muster_shared::gbacw::facing::Facing;
use muster_shared::gbacw::map::HexNumber;
use muster_shared::gbacw::oob::{CounterId, Formation, Unit, UnitStatus};
use muster_shared::gbacw::ruleset::is_redan_hex;
use muster_shared::gbacw::ruleset::state::Resume;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwAction, GbacwState};
use muster_shared::gbacw::stacking::check_hex;
use std::collections::BTreeMap;

/// What differs between the battles a random game is played on.
pub struct Battle {
    /// A scenario action that may well be refused (placements anywhere,
    /// arrivals at any hex…): one in twenty actions is one of these, and
    /// its refusal must change nothing.
    pub wild_action: fn(&mut Chooser, &GbacwState) -> GbacwAction,
    /// The prefix of the battle's exclusive rules' cases in refusals
    /// (`"Cedar Mountain"`, `"Corinth"`), beside `"GBACW"`.
    pub rules: &'static str,
}

/// The parts of a wild set-up action: any counter, any hex of a
/// `cols` × `rows` grid (some off this battle's map), any facing.
pub fn wild_parts(
    ch: &mut Chooser,
    state: &GbacwState,
    cols: usize,
    rows: usize,
) -> (CounterId, HexNumber, Facing) {
    let pieces: Vec<&CounterId> = state.units.keys().chain(state.leaders.keys()).collect();
    let pick = pieces[ch.below(pieces.len())].clone();
    let hex = HexNumber::new(1 + ch.below(cols) as u8, 1 + ch.below(rows) as u8).unwrap();
    let facing = Facing::from_index(ch.below(6) as u8).unwrap();
    (pick, hex, facing)
}

/// Wild action `k` (0-5) of every battle: place a unit or a leader, end
/// the phase, arrive, exit, move: placements of any counter anywhere,
/// arrivals at any hex, exits, phase ends during the set-up.
pub fn wild_of(
    ch: &mut Chooser,
    k: usize,
    pick: CounterId,
    hex: HexNumber,
    facing: Facing,
) -> GbacwAction {
    match k {
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

/// Longest a whole game may take to play, on top of its count of actions
/// (a debug game takes ~10 s; the CI machine is slower and shared).
pub const GAME_TIME_LIMIT: std::time::Duration = std::time::Duration::from_secs(240);

/// What every whole-game driver checks around its loop: the time bound
/// ([`GAME_TIME_LIMIT`]) before each action, the set-up (`check_setup`)
/// once it has ended, and at the end that it did end.
pub struct GameWatch {
    deadline: std::time::Instant,
    set_up: bool,
}

impl GameWatch {
    pub fn start() -> GameWatch {
        GameWatch {
            deadline: std::time::Instant::now() + GAME_TIME_LIMIT,
            set_up: false,
        }
    }

    /// A game that stalls fails in minutes, not at the end of its count.
    pub fn before_action(&mut self, game: &GbacwGame) {
        assert!(
            std::time::Instant::now() < self.deadline,
            "a whole game over {GAME_TIME_LIMIT:?} (turn {})",
            game.m.state().clock.turn
        );
        if !self.set_up && game.m.state().progress.setting_up.is_none() {
            check_setup(game.m.ruleset(), game.m.state());
            self.set_up = true;
        }
    }

    pub fn finish(self) {
        assert!(self.set_up, "the set-up ended");
    }
}

/// A refused action: only a wild one may be, by a rule of GBACW or of the
/// battle, and the refusal changed neither the state (`before`) nor the log
/// (`before_len` entries).
pub fn check_refusal(
    game: &GbacwGame,
    battle: &Battle,
    wild: bool,
    action: &GbacwAction,
    e: &MatchError,
    before: &GbacwState,
    before_len: usize,
) {
    assert!(wild, "legal action {action:?} refused: {e}");
    let MatchError::Rule(r) = e else {
        panic!("{action:?} refused outside the rules: {e}")
    };
    assert!(
        r.rule.starts_with("GBACW") || r.rule.starts_with(battle.rules),
        "{r}"
    );
    assert_eq!(game.m.state(), before, "a refusal changed the state");
    assert_eq!(game.m.log().entries.len(), before_len);
}

/// GBACW 8.1 and 5.12 after every action: no stack over its limits, no
/// hex holding both sides. A move stopped for withdrawal fire (10.1), or a
/// retreat stopped for retreat fire (10.2) with hexes still to go, may
/// stand in a hex it is only passing through (8.1 binds where a move
/// ends), so that hex's limits wait for the answer, and for the retreat of
/// a unit the fire routed there. 8.0: "stacking restrictions apply only
/// at the end of a Movement or Combat Phase": during the Movement Phase a
/// stack may stand over its limits until the phase ends.
pub fn check_invariants(rs: &Gbacw, state: &GbacwState) {
    let sc = rs.game();
    let moving = matches!(
        state.clock.step,
        muster_shared::gbacw::sequence::Step::Phase {
            phase: muster_shared::gbacw::sequence::Phase::Movement,
            ..
        }
    );
    let mut passing: Vec<HexNumber> = state
        .decision
        .iter()
        .filter(|d| matches!(d.resume, Resume::Move { .. }))
        .map(|d| d.hex)
        .collect();
    passing.extend(
        state
            .retreat_fire
            .iter()
            .filter(|o| !o.rest.is_empty())
            .map(|o| o.hex),
    );
    passing.extend(
        state
            .retreats
            .iter()
            .filter_map(|o| state.units.get(&o.unit).and_then(|u| u.hex)),
    );
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
        if !moving && !passing.contains(hex) {
            check_hex(
                &sc.charts.stacking,
                terrain,
                is_redan_hex(&sc.map, *hex),
                units,
            )
            .unwrap_or_else(|o| {
                let units: Vec<(&CounterId, &UnitStatus)> =
                    units.iter().map(|(u, s)| (&u.id, *s)).collect();
                panic!("{side} overstacked in {hex}: {o:?} {terrain:?} {units:?}")
            });
        }
        assert_eq!(
            *sides_at.entry(*hex).or_insert(side),
            *side,
            "5.12: both sides in {hex}"
        );
    }
}

/// The set-up as the scenario's own check sees it (Cedar Mountain
/// 26.2/26.3, Corinth 29.4/30.1).
pub fn check_setup(rs: &Gbacw, state: &GbacwState) {
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
    // Corinth 30.18: an independent battery freed to go with a brigade
    // stands outside its area; that case judges it.
    use muster_shared::gbacw::ruleset::corinth::free_batteries;
    let problems: Vec<_> = problems
        .into_iter()
        .filter(|p| !free_batteries::excused(rs, state, &union, p))
        .collect();
    assert!(problems.is_empty(), "{problems:?}");
    free_batteries::check(rs, state, &union).unwrap_or_else(|e| panic!("{e}"));
}

/// What a random game did.
#[derive(Default, Debug)]
pub struct Played {
    pub accepted: usize,
    pub placements: usize,
    pub arrivals: usize,
    pub moves: usize,
}

/// Play a battle at random to its end: in the set-up, up to
/// `placements` placements (0: the server's default at once); then in
/// each phase up to `per_phase[seat]` actions other than ending it.
///
/// The bound is what keeps a game fast in a debug build: the Union's
/// legal set in its Movement Phase (~500 actions, each checked by
/// `decide`) takes ~150 ms there on Cedar Mountain, and up to ~1 s for
/// Corinth's Confederates on the map.
pub fn play(
    game: &mut GbacwGame,
    seed: u64,
    placements: usize,
    per_phase: [usize; 2],
    battle: &Battle,
) -> Played {
    let mut ch = Chooser::new(seed);
    let mut played = Played::default();
    let mut in_phase = 0;
    let mut clock = game.m.state().clock;
    // Bounded in count and in time (`GameWatch`).
    let mut watch = GameWatch::start();
    for _ in 0..20_000 {
        watch.before_action(game);
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
            (
                SeatId(ch.below(2) as u8),
                (battle.wild_action)(&mut ch, &state),
            )
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
            // GBACW 8.0: a spent budget with the end refused mends first.
            let mend = if in_phase >= budget && !setting_up {
                mending_moves(rs, &state, &others)
            } else {
                Vec::new()
            };
            let a = match legal.iter().find(|a| end.contains(a)) {
                Some(e) if done => e,
                _ if !rejoin.is_empty() => rejoin[ch.below(rejoin.len())],
                _ if !mend.is_empty() => mend[ch.below(mend.len())],
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
            Err(e) => check_refusal(game, battle, wild, &action, &e, &state, before_len),
        }
        check_invariants(game.m.ruleset(), game.m.state());
    }
    watch.finish();
    played
}

/// The log replays to the same bytes and outcome, and verifies.
pub fn replays_to_the_same_outcome(game: &GbacwGame) {
    let live = codec::encode_infallible(game.m.state());
    let outcome = game.m.ruleset().outcome(game.m.state());
    let stored = MatchLog::from_file_bytes(&game.m.log().to_file_bytes()).unwrap();
    let again = replay::<Gbacw>(&stored).expect("the stored log replays");
    assert_eq!(codec::encode_infallible(again.state()), live);
    assert_eq!(again.ruleset().outcome(again.state()), outcome);
    let report = verify_log(&stored);
    assert!(report.ok() && report.rules_checked, "{report}");
}

/// GBACW 8.0: a stop over the stacking limits is legal mid-phase, and the
/// Movement Phase may not end until it is mended. When the end is refused
/// the drivers prefer these: single moves of a unit out of a hex it
/// shares with friends, one of which moved this phase (the mends are
/// among them; a random pick from hundreds of moves wanders for long).
pub fn mending_moves<'a>(
    rs: &Gbacw,
    state: &GbacwState,
    others: &[&'a GbacwAction],
) -> Vec<&'a GbacwAction> {
    let oob = &rs.game().oob;
    others
        .iter()
        .copied()
        .filter(|a| match a {
            GbacwAction::Move { pieces, .. } if pieces.len() == 1 => {
                let Some(u) = state.units.get(&pieces[0]) else {
                    return false;
                };
                let (Some(hex), side) = (u.hex, &oob.units[&pieces[0]].side) else {
                    return false;
                };
                let mates: Vec<_> = state
                    .units
                    .iter()
                    .filter(|(id, x)| x.hex == Some(hex) && oob.units[*id].side == *side)
                    .collect();
                mates.len() > 1 && mates.iter().any(|(_, x)| x.moved.hexes > 0)
            }
            _ => false,
        })
        .collect()
}
