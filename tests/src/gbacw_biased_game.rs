//! Whole GBACW battles played by biased players (`gbacw_policy`) through
//! `engine::Match` with real hash chains, from the set-up to the last
//! determination: long enough to reach Corinth's night (26.x) and second
//! day (31.33), which purely random play never does. The same checks as
//! the random driver (`gbacw_whole_game`): the invariants after every
//! action, the set-up as the scenario sees it, wild actions whose refusal
//! changes nothing.

use crate::gbacw_match::GbacwGame;
use crate::gbacw_policy::{Player, deciding};
use crate::gbacw_whole_game::{Battle, GameWatch, Played, check_invariants, check_refusal};
use crate::random_play::Chooser;
use muster_shared::SeatId;
use muster_shared::engine::{MatchError, Ruleset};
use muster_shared::gbacw::ruleset::{GbacwAction, GbacwEvent, GbacwState};
use std::collections::BTreeMap;

/// What a biased game did, beyond the random driver's counts.
#[derive(Default, Debug)]
pub struct Biased {
    pub played: Played,
    /// Events of interest seen, by name (see [`noted`]).
    pub seen: BTreeMap<&'static str, usize>,
    /// Moves accepted on night Game-Turns (Corinth 26.0).
    pub night_moves: usize,
    /// Moves accepted after the night.
    pub day2_moves: usize,
    /// The last Game-Turn played.
    pub last_turn: u16,
}

/// The events a long game is checked for, by name.
pub fn noted(e: &GbacwEvent) -> Option<&'static str> {
    use GbacwEvent as E;
    Some(match e {
        E::UnitArrived { .. } => "arrival",
        E::FireResolved(_) => "fire",
        E::MeleeResolved(_) => "melee",
        E::VictoryHexTaken { .. } => "hex taken",
        E::ReserveCommitted { .. } => "reserve committed",
        E::DayDetermined(_) => "day determined",
        E::StragglerRolled(_) => "straggler rolled",
        E::BceRecovered(_) => "BCE recovered",
        E::BarrageBegun { .. } => "barrage begun",
        E::BarrageRolled(_) => "barrage rolled",
        E::BarrageEnded { .. } => "barrage ended",
        E::GameEnded => "game ended",
        _ => return None,
    })
}

impl Biased {
    fn record(
        &mut self,
        state: &GbacwState,
        night: bool,
        action: &GbacwAction,
        events: &[GbacwEvent],
    ) {
        self.played.accepted += 1;
        self.last_turn = self.last_turn.max(state.clock.turn);
        match action {
            GbacwAction::Arrive { .. } => self.played.arrivals += 1,
            GbacwAction::Move { .. } => {
                self.played.moves += 1;
                if night {
                    self.night_moves += 1;
                } else if self.seen.contains_key("BCE recovered") {
                    self.day2_moves += 1;
                }
            }
            _ => {}
        }
        for name in events.iter().filter_map(noted) {
            *self.seen.entry(name).or_default() += 1;
        }
    }
}

/// Play a battle to its end with `players` (Union seat first): the set-up
/// and any plot by the server's defaults, decisions answered from the
/// legal set, every phase as the seat's player wants it, ended when it
/// has nothing more to do.
pub fn play_biased(
    game: &mut GbacwGame,
    seed: u64,
    players: &mut [Player; 2],
    battle: &Battle,
) -> Biased {
    let mut ch = Chooser::new(seed);
    let mut out = Biased::default();
    // Bounded in count and in time (`GameWatch`).
    let mut watch = GameWatch::start();
    for _ in 0..60_000 {
        watch.before_action(game);
        let state = game.m.state().clone();
        let rs = game.m.ruleset();
        let Some(seat) = rs.acting_seat(&state) else {
            break;
        };
        let night = rs.game().scenario.is_night(state.clock.turn);
        // The set-up (and a plot or solitaire roll before it): the
        // server's defaults, as on a timeout.
        if state.progress.setting_up.is_some() || rs.plot_seat(&state).is_some() {
            let p = rs
                .pending(&state)
                .into_iter()
                .next()
                .expect("the set-up waits");
            let action = p.default.clone();
            let applied = game
                .submit(p.seat, p.default, true)
                .expect("the default is accepted");
            out.record(game.m.state(), night, &action, &applied.events);
            check_invariants(game.m.ruleset(), game.m.state());
            continue;
        }
        let player = &mut players[usize::from(seat.0.min(1))];
        let wild = ch.below(40) == 0;
        let mut fallback = false;
        let (seat, action) = if wild {
            (
                SeatId(ch.below(2) as u8),
                (battle.wild_action)(&mut ch, &state),
            )
        } else if let Some(mend) = mend_now(rs, &state, seat, &mut ch) {
            // GBACW 8.0: a stack over its limits is mended before the
            // player goes on (the phase may not end with it).
            (seat, mend)
        } else if deciding(&state) {
            let legal = rs.legal_actions(&state, seat);
            assert!(!legal.is_empty(), "a decision always has an answer");
            (seat, player.answer(&state, &legal, &mut ch))
        } else if let Some(a) = player.next(rs, &state, seat, &mut ch) {
            (seat, a)
        } else {
            let before = game.m.log().entries.len();
            match game.submit(seat, GbacwAction::EndPhase, false) {
                Ok(applied) => {
                    out.record(
                        game.m.state(),
                        night,
                        &GbacwAction::EndPhase,
                        &applied.events,
                    );
                    check_invariants(game.m.ruleset(), game.m.state());
                    continue;
                }
                Err(MatchError::Rule(_)) => {
                    assert_eq!(game.m.state(), &state, "a refusal changed the state");
                    assert_eq!(game.m.log().entries.len(), before);
                }
                Err(e) => panic!("EndPhase refused outside the rules: {e}"),
            }
            // The phase may not end yet (a roll due first, 29.53; a
            // leader alone near the enemy, 17.52): the legal set decides,
            // a leader joining a friendly unit first.
            fallback = true;
            let rs = game.m.ruleset();
            let legal = rs.legal_actions(&state, seat);
            let others: Vec<&GbacwAction> = legal
                .iter()
                .filter(|a| **a != GbacwAction::EndPhase)
                .collect();
            assert!(
                !others.is_empty(),
                "{seat:?} can neither end the phase nor act"
            );
            let rejoin: Vec<&GbacwAction> = others
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
                .collect();
            let mend = crate::gbacw_whole_game::mending_moves(rs, &state, &others);
            let pick = if !rejoin.is_empty() {
                rejoin[ch.below(rejoin.len())]
            } else if !mend.is_empty() {
                mend[ch.below(mend.len())]
            } else {
                others[ch.below(others.len())]
            };
            (seat, pick.clone())
        };
        let before_len = game.m.log().entries.len();
        match game.submit(seat, action.clone(), false) {
            Ok(applied) => {
                out.record(game.m.state(), night, &action, &applied.events);
                if fallback {
                    // The phase changed under the player: it tries again.
                    players[usize::from(seat.0.min(1))].forget();
                }
            }
            Err(e) => check_refusal(game, battle, wild, &action, &e, &state, before_len),
        }
        check_invariants(game.m.ruleset(), game.m.state());
    }
    watch.finish();
    out
}

/// GBACW 8.0: when `seat`'s side has a stack over its limits in its
/// Movement Phase, a move out of such a hex from the legal set (the
/// phase may not end until it is mended; a random walk takes long).
pub fn mend_now(
    rs: &muster_shared::gbacw::ruleset::Gbacw,
    state: &GbacwState,
    seat: SeatId,
    ch: &mut Chooser,
) -> Option<GbacwAction> {
    use muster_shared::gbacw::sequence::{Phase, Step};
    if !matches!(
        state.clock.step,
        Step::Phase {
            phase: Phase::Movement,
            ..
        }
    ) || deciding(state)
    {
        return None;
    }
    let sc = rs.game();
    let side = &sc
        .oob
        .units
        .values()
        .find(|u| rs.seat_of(&u.side) == seat)?
        .side;
    let mut stacks: BTreeMap<_, Vec<_>> = BTreeMap::new();
    for (id, u) in &state.units {
        let (Some(hex), unit) = (u.hex, &sc.oob.units[id]) else {
            continue;
        };
        if unit.side == *side {
            stacks.entry(hex).or_default().push((unit, &u.status));
        }
    }
    let over: Vec<_> = stacks
        .iter()
        .filter(|(hex, units)| {
            let terrain = &sc.map.hex(**hex).unwrap().terrain;
            muster_shared::gbacw::stacking::check_hex(
                &sc.charts.stacking,
                terrain,
                muster_shared::gbacw::ruleset::is_redan_hex(&sc.map, **hex),
                units,
            )
            .is_err()
        })
        .map(|(h, _)| *h)
        .collect();
    if over.is_empty() {
        return None;
    }
    let legal = rs.legal_actions(state, seat);
    let moves: Vec<&GbacwAction> = legal
        .iter()
        .filter(|a| match a {
            GbacwAction::Move { pieces, .. } if pieces.len() == 1 => state
                .units
                .get(&pieces[0])
                .and_then(|u| u.hex)
                .is_some_and(|h| over.contains(&h)),
            _ => false,
        })
        .collect();
    (!moves.is_empty()).then(|| moves[ch.below(moves.len())].clone())
}
