//! What the Corinth scenario holds back beyond the Standard Rules (at the
//! hooks `held`, `check_action`, `check_move_path`, `move_may_enter`,
//! `commit_reserve`, `after_decided`, `at_setup_end` and
//! `check_not_held`, `corinth/rules.rs`):
//!
//! - 30.0: on the Union Player-Turn of Game-Turn 2 "the only thing the
//!   Union player may do ... is bring in the reinforcements he receives
//!   on Game-Turn 2": every other Union counter is held (`only-arrivals`).
//! - 30.3: the four reserve "units" may not move, change formation or fire
//!   offensively until committed (30.32) — by being attacked (30.33), by a
//!   roll in the Union Initial Command Phase from Game-Turn 6, two a turn
//!   (30.34), or at will from Game-Turn 15 (30.35). After the first day
//!   (`until=`) the restriction ends.
//! - 26.13, 26.15: at night no unit moves adjacent to an enemy unit, and
//!   withdrawal fire is the only combat.
//!
//! A held counter may still change facing and fire defensively (30.32).

use crate::engine::{Dice, RuleCode, RuleError};
use crate::gbacw::oob::{Command, CounterId, LeaderRole, UnitKind};
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::ruleset::{Gbacw, err};
use crate::gbacw::scenario::HookKind;
use crate::gbacw::scenario::Reserve;
use crate::gbacw::sequence::{Phase, Step};

/// The reserve `piece` belongs to, if it is one still held on this
/// Game-Turn (Corinth 30.31, 30.32).
pub(crate) fn held_reserve<'a>(
    rs: &'a Gbacw,
    state: &GbacwState,
    piece: &CounterId,
) -> Option<&'a Reserve> {
    let reserves = &rs.game.scenario.reserves;
    if state.clock.turn > reserves.until {
        return None;
    }
    reserves
        .list
        .iter()
        .find(|r| r.units.contains(piece) && !state.progress.committed.contains(&r.id))
}

/// Why `piece` may not move, change formation or fire offensively now:
/// the rule and the reason; `None` if it may.
pub(crate) fn held(rs: &Gbacw, state: &GbacwState, piece: &CounterId) -> Option<(String, String)> {
    let scenario = &rs.game.scenario;
    let side = piece_side(rs, piece)?;
    // Corinth 30.0: the Game-Turn's own reinforcements only.
    if let Some(only) = scenario
        .only_arrivals
        .iter()
        .find(|o| o.turn == state.clock.turn && o.side == *side)
        && rs.phasing_side(state.clock) == Some(side)
        && scenario
            .arrival_of(piece)
            .is_none_or(|a| a.turn != only.turn)
    {
        return Some((
            rs.case_rule(&only.case),
            format!(
                "on Game-Turn {} only the reinforcements of that turn act",
                only.turn
            ),
        ));
    }
    if hotel_frozen(rs, state, piece) {
        return Some((
            rs.case_rule("29.43"),
            "its brigade set up by the Tishomingo Hotel and is not yet activated".into(),
        ));
    }
    // Corinth 29.44.4, 30.18: the artillery park.
    if super::park::frozen(rs, state, piece) {
        return Some((
            rs.case_rule("29.44"),
            "it is in the artillery park, held until the second day or until a Confederate unit comes within six hexes of a Corinth hex".into(),
        ));
    }
    held_reserve(rs, state, piece).map(|r| {
        (
            rs.case_rule("30.32"),
            format!("{piece} is in {}, held in reserve until committed", r.name),
        )
    })
}

/// Corinth 29.43: whether `piece` is of a brigade frozen at the Hotel and
/// not yet activated ("four Game-Turns after the first combat ... or ...
/// if any unit in the three brigades is attacked").
pub(crate) fn hotel_frozen(rs: &Gbacw, state: &GbacwState, piece: &CounterId) -> bool {
    let p = &state.progress;
    if p.frozen_brigades.is_empty() || p.thawed {
        return false;
    }
    let after = rs
        .game
        .scenario
        .hook(HookKind::HotelFreeze)
        .and_then(|h| h.number("after"))
        .unwrap_or(4);
    if p.first_combat
        .is_some_and(|t| state.clock.turn >= t.saturating_add(after))
    {
        return false;
    }
    let brigade = match rs.game.oob.units.get(piece).map(|u| &u.command) {
        Some(Command::Brigade(b)) => Some(b),
        Some(Command::Independent) => None,
        None => Some(piece),
    };
    brigade.is_some_and(|b| p.frozen_brigades.contains(b))
}

/// Corinth 29.43: the Hotel brigades at the end of the set-up: those
/// whose placed infantry and cavalry all stand within the hook's radius of
/// its hex.
pub(crate) fn freeze_at_setup(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
) -> Option<GbacwEvent> {
    let hook = rs.game.scenario.hook(HookKind::HotelFreeze)?;
    if hook.param("side") != Some(side.0.as_str()) {
        return None;
    }
    let centre = hook
        .param("hex")
        .and_then(crate::gbacw::map::HexNumber::parse)?;
    let radius = u32::from(hook.number("radius").unwrap_or(10));
    let oob = &rs.game.oob;
    let grid = &rs.game.map.grid;
    let brigades = oob
        .leaders
        .values()
        .filter(|l| l.side == *side && matches!(l.role, LeaderRole::Brigade { .. }))
        .filter(|l| {
            let hexes: Vec<_> = oob
                .brigade_units(&l.id)
                .filter(|u| matches!(u.kind, UnitKind::Infantry | UnitKind::Cavalry))
                .filter_map(|u| state.units.get(&u.id).and_then(|s| s.hex))
                .collect();
            !hexes.is_empty() && hexes.iter().all(|h| grid.distance(*h, centre) <= radius)
        })
        .map(|l| l.id.clone())
        .collect();
    Some(GbacwEvent::BrigadesFrozen { brigades })
}

/// Corinth 29.43: the first combat of the game is recorded, and an attack
/// on a frozen brigade's unit activates them all.
pub(crate) fn combat_marks(
    rs: &Gbacw,
    state: &GbacwState,
    action: &GbacwAction,
) -> Vec<GbacwEvent> {
    let mut out = Vec::new();
    let target = match action {
        GbacwAction::DeclareFire { target, .. } | GbacwAction::DeclareMelee { target, .. } => {
            Some(*target)
        }
        GbacwAction::WithdrawalFire { .. } => None,
        _ => return out,
    };
    if state.progress.first_combat.is_none()
        && rs.game.scenario.hook(HookKind::HotelFreeze).is_some()
    {
        out.push(GbacwEvent::FirstCombat {
            turn: state.clock.turn,
        });
    }
    let hit = target.is_some_and(|t| {
        state
            .units
            .iter()
            .any(|(id, u)| u.hex == Some(t) && hotel_frozen(rs, state, id))
    });
    if hit {
        out.push(GbacwEvent::BrigadesThawed {
            case: rs.case_rule("29.43"),
        });
    }
    out
}

fn piece_side<'a>(rs: &'a Gbacw, id: &CounterId) -> Option<&'a CounterId> {
    let oob = &rs.game.oob;
    oob.units
        .get(id)
        .map(|u| &u.side)
        .or_else(|| oob.leaders.get(id).map(|l| &l.side))
}

/// Corinth 29.43: "may not ... perform any other action": fire by a
/// unit of a brigade frozen at the Hotel.
pub(crate) fn check_not_frozen(
    rs: &Gbacw,
    state: &GbacwState,
    units: &[&CounterId],
) -> Result<(), RuleError> {
    if let Some(unit) = units.iter().find(|u| hotel_frozen(rs, state, u)) {
        return Err(err(
            &rs.case_rule("29.43"),
            RuleCode::Illegal,
            format!("{unit} is in a brigade frozen by the Hotel until activated"),
        ));
    }
    Ok(())
}

/// Corinth 29.41: "No Union unit may move within 4 hexes of an Assault
/// Area until all three Confederate divisions have entered play": while
/// the plan has a division not yet revealed (on the map), the set-up's
/// distance holds for every hex a move of the set-up side enters.
pub(crate) fn keep_away(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    path: &[crate::gbacw::map::HexNumber],
) -> Result<(), RuleError> {
    if !kept_away(rs, state, side) {
        return Ok(());
    }
    for h in path {
        crate::gbacw::ruleset::decide::setup::away_from_areas(rs, *h).map_err(|e| {
            err(
                &e.rule,
                RuleCode::Illegal,
                format!(
                    "until all three Confederate divisions have entered, no Union unit moves within 4 hexes of an Assault Area ({})",
                    e.message
                ),
            )
        })?;
    }
    Ok(())
}

/// Corinth 29.41: whether moves of `side` must still keep away from the
/// Assault Areas (the Union, while the plan has a division not yet
/// revealed).
fn kept_away(rs: &Gbacw, state: &GbacwState, side: &CounterId) -> bool {
    let Some(spec) = &rs.game.scenario.plan else {
        return false;
    };
    spec.side != *side
        && state
            .progress
            .assault
            .as_ref()
            .is_none_or(|a| a.revealed.len() < spec.divisions.len())
}

/// Corinth 29.41 for the movement queries, as [`night_allows_entry`] is
/// 26.13: whether a move of `side` may enter `hex` while the Union keeps
/// away from the Assault Areas. Without it the reach offered hexes whose
/// cheapest path crossed a forbidden one: a click on a lit hex was
/// refused, and 17.52 named hexes a lone leader could not reach.
pub(crate) fn keep_away_allows_entry(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    hex: crate::gbacw::map::HexNumber,
) -> bool {
    !kept_away(rs, state, side)
        || crate::gbacw::ruleset::decide::setup::away_from_areas(rs, hex).is_ok()
}

/// Corinth 30.34, 30.35: an attempt to commit `reserve`.
pub(crate) fn commit(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    reserve: &CounterId,
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let reserves = &rs.game.scenario.reserves;
    let rule = rs.case_rule("30.34");
    let r = reserves
        .list
        .iter()
        .find(|r| r.id == *reserve)
        .ok_or_else(|| {
            err(
                &rule,
                RuleCode::NotFound,
                format!("there is no reserve {reserve}"),
            )
        })?;
    if reserves.side.as_ref() != Some(side) {
        return Err(err(
            &rule,
            RuleCode::NotYours,
            format!("{} is the enemy's", r.name),
        ));
    }
    let turn = state.clock.turn;
    if !matches!(
        state.clock.step,
        Step::Phase {
            phase: Phase::InitialCommand,
            ..
        }
    ) {
        return Err(err(
            &rule,
            RuleCode::Illegal,
            "reserves are committed in the Initial Command Phase",
        ));
    }
    if state.progress.committed.contains(reserve) || turn > reserves.until {
        return Err(err(
            &rule,
            RuleCode::Illegal,
            format!("{} is already free", r.name),
        ));
    }
    if turn < reserves.from {
        return Err(err(
            &rule,
            RuleCode::Illegal,
            format!("commitment rolls begin on Game-Turn {}", reserves.from),
        ));
    }
    // 30.35: "On Game-Turn 15 all uncommitted units are automatically
    // committed (if the Union player so desires)".
    if turn >= reserves.automatic {
        return Ok(vec![GbacwEvent::ReserveCommitted {
            reserve: reserve.clone(),
            case: rs.case_rule("30.35"),
        }]);
    }
    // 30.34: "A commitment roll may only be made once per Game-Turn for
    // each 'unit' although any two may be rolled for."
    if state.progress.commit_rolls.get(reserve) == Some(&turn) {
        return Err(err(
            &rule,
            RuleCode::Illegal,
            format!("{} has rolled this Game-Turn", r.name),
        ));
    }
    let rolled = state
        .progress
        .commit_rolls
        .values()
        .filter(|t| **t == turn)
        .count();
    if rolled >= usize::from(reserves.per_turn) {
        return Err(err(
            &rule,
            RuleCode::Illegal,
            format!("at most {} commitment rolls a Game-Turn", reserves.per_turn),
        ));
    }
    let roll = u8::try_from(dice.roll(6)?).unwrap_or(6);
    Ok(vec![GbacwEvent::ReserveRolled {
        reserve: reserve.clone(),
        roll,
        committed: roll <= r.commit_on,
    }])
}

/// Whether `CommitReserve` rolls a die now (before Game-Turn 15).
pub(crate) fn commit_rolls(rs: &Gbacw, state: &GbacwState) -> bool {
    state.clock.turn < rs.game.scenario.reserves.automatic
}

/// Corinth 30.33: "A 'unit' is immediately committed if ever attacked by
/// Confederate units (fire or melee)": the reserves with a counter in the
/// hex `action` attacks.
pub(crate) fn committed_by_attack(
    rs: &Gbacw,
    state: &GbacwState,
    seat: crate::ids::SeatId,
    action: &GbacwAction,
) -> Vec<GbacwEvent> {
    let reserves = &rs.game.scenario.reserves;
    if reserves.list.is_empty() || reserves.side.as_ref() == Some(rs.side_of(seat)) {
        return Vec::new();
    }
    let target = match action {
        GbacwAction::DeclareFire { target, .. } | GbacwAction::DeclareMelee { target, .. } => {
            *target
        }
        _ => return Vec::new(),
    };
    let mut hit: Vec<&Reserve> = state
        .units
        .iter()
        .filter(|(_, u)| u.hex == Some(target))
        .filter_map(|(id, _)| held_reserve(rs, state, id))
        .collect();
    hit.sort_by(|a, b| a.id.cmp(&b.id));
    hit.dedup_by(|a, b| a.id == b.id);
    hit.into_iter()
        .map(|r| GbacwEvent::ReserveCommitted {
            reserve: r.id.clone(),
            case: rs.case_rule("30.33"),
        })
        .collect()
}

/// Corinth 26.13, 26.15: what night forbids. `Ok` outside the night.
pub(crate) fn night_check(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    action: &GbacwAction,
) -> Result<(), RuleError> {
    let scenario = &rs.game.scenario;
    let Some(night) = scenario
        .night
        .as_ref()
        .filter(|_| scenario.is_night(state.clock.turn))
    else {
        return Ok(());
    };
    match action {
        GbacwAction::DeclareFire { .. } | GbacwAction::DeclareMelee { .. } => Err(err(
            &rs.case_rule("26.15"),
            RuleCode::Illegal,
            format!(
                "Game-Turn {} is a night turn ({}): withdrawal fire is the only combat",
                state.clock.turn, night.case
            ),
        )),
        GbacwAction::Move { path, .. } => {
            let board = Board::new(rs, state);
            for h in path {
                if next_to_enemy(rs, &board, side, *h) {
                    return Err(err(
                        &rs.case_rule("26.13"),
                        RuleCode::Illegal,
                        format!("at night no unit moves adjacent to an enemy unit ({h} is)"),
                    ));
                }
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Whether `hex` is next to a unit of `side`'s enemy: a hex a move may not
/// enter on a night Game-Turn (Corinth 26.13).
fn next_to_enemy(
    rs: &Gbacw,
    board: &Board<'_>,
    side: &CounterId,
    hex: crate::gbacw::map::HexNumber,
) -> bool {
    rs.game
        .map
        .grid
        .neighbours_on_map(hex)
        .into_iter()
        .any(|(_, n)| board.has_enemy(n, side))
}

/// Corinth 26.13 for the movement queries: whether a move of `side` may
/// enter `hex` as the night allows (always outside the night). The
/// reachable hexes (`Gbacw::reachable`) are searched with it, so what they
/// offer — the client's highlight, the legal set's moves, and 17.52's "a
/// hex he can still reach" (`sequence::check_lone_leaders`) — is what
/// [`night_check`] accepts. Without it 17.52 held up the end of a night
/// Movement Phase for a lone leader whose every way out passed next to
/// the enemy, and the phase could never end.
pub(crate) fn night_allows_entry(
    rs: &Gbacw,
    state: &GbacwState,
    board: &Board<'_>,
    side: &CounterId,
    hex: crate::gbacw::map::HexNumber,
) -> bool {
    !rs.game.scenario.is_night(state.clock.turn) || !next_to_enemy(rs, board, side, hex)
}
