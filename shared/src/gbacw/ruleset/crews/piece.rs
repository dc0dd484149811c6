//! GBACW 15.16, 13.31, 15.1 (and Corinth 24.21, 24.3, which say the same
//! with a counter for it): a battery's crew away from its guns as a piece
//! of its own on the map.
//!
//! GBACW 15.16: "When an unlimbered artillery crew is routed, the crew
//! routs but the guns remain in the original hex." Corinth 24.21 gives
//! the crew a counter: "When a battery crew routs and abandons its guns, the player whose unit
//! is affected places a neutral Crew marker on the battery and performs
//! rout movement with the crew counter. ... The Crew marker is removed
//! from play once the crew manages to get back to its original battery."
//! The engine keeps the crew away as `GbacwState::crews_away` (battery →
//! the hex the crew stands in; its letter code is the battery's id), the
//! crews away that have rallied as `crews_rallied`, and the Movement Phase
//! each last moved in as `crews_moved`. The battery keeps the Crew marker
//! (its Rout marker) the whole time. So:
//! - it moves as a routed unit does (GBACW 5.2, 13.32: one hex a
//!   Movement Phase regardless of terrain, never into an enemy ZOC, and
//!   out of one only to a hex next to no enemy), [`move_crew`] through
//!   `GbacwAction::MoveCrew`; the guns never move without it;
//! - it rallies in the Rally Phase where it stands (13.54: a die, or a
//!   leader stacked with it, in the crew's hex: `combat/rally.rs` asks
//!   [`rally_hex`]); rallied, it moves as Line infantry (6.13, 15.1: Line
//!   "for all purposes") and walks back: entering its guns' hex ends the
//!   move and lifts the Crew marker. A crew that gets back still routed is
//!   a routed crew at its guns (the marker stays until it rallies there,
//!   as before; hit again it routs away again, 13.33);
//! - it is an enemy unit where it stands: no enemy moves, retreats or
//!   sets up into its hex (5.12, 14.1; `Board::has_enemy`,
//!   `retreat_blocks`), and it stops nothing else: GBACW 15.1 "Artillery
//!   crews do not count for stacking", so friends share its hex freely;
//!   routed, it has no ZOC (13.32) and, rallied away from its guns, none
//!   either (it has no weapon to fire: 9.13, 11.16's wagon crews alike);
//! - it leaves play with its guns (a battery removed: captured, destroyed,
//!   or its crew lost, 24.22, 15.15: no crew is ever transferred).
//!
//! - it can be fired on where it stands (24.12 names "lone crews" as
//!   targets): [`lone_crew`] makes it the attack's target as Line
//!   infantry, [`hit`] applies the result (a step lost to small arms, a
//!   morale check, a rout from where it stands, 13.33's re-rout).
//!
//! - it can be meleed where it stands, alone, where the battle says so
//!   (Corinth 22.4 "a lone wagon or battery crew": its `crew_melee`,
//!   behind the melee hooks of `BattleRules`).
//!
//! - it is pinned by fire (9.84: [`pin`], lifted in its Rally Phase) and
//!   may not move while pinned; leaving an enemy ZOC it draws withdrawal
//!   fire (10.1: [`carry`], `Resume::CrewMove`).

use crate::engine::{RuleCode, RuleError};
use crate::gbacw::charts::{MoveClass, Mp};
use crate::gbacw::map::HexNumber;
use crate::gbacw::morale::MoraleMods;
use crate::gbacw::oob::{CounterId, Crew, Formation, Marker, Unit, UnitKind, UnitStatus};
use crate::gbacw::retreat::RetreatKind;
use crate::gbacw::ruleset::action::MAX_PATH;
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::combat::attack::Prepared;
use crate::gbacw::ruleset::combat::effects::{
    Hit, ROUT_HEXES, leader_casualties, rating_for, retreat_options,
};
use crate::gbacw::ruleset::combat::{Roller, Unfold};
use crate::gbacw::ruleset::decide::movement::{Mover, Zocs, step};
use crate::gbacw::ruleset::decide::own_unit;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::exclusive::bce_loss;
use crate::gbacw::ruleset::state::{
    GbacwState, Resume, RetreatFireOffer, Trigger, WithdrawalDecision,
};
use crate::gbacw::ruleset::{Gbacw, err};
use crate::gbacw::tables::{CasualtyCause, FireResult};

/// Corinth 24.21: the hex `battery`'s crew stands in while it is away
/// from its guns (`None`: with them, or no such battery).
pub fn crew_hex(state: &GbacwState, battery: &CounterId) -> Option<HexNumber> {
    state.crews_away.get(battery).copied()
}

/// Corinth 24.21, GBACW 13.3: whether `battery`'s crew is away and routed
/// (not yet rallied where it stands).
pub fn crew_routed(state: &GbacwState, battery: &CounterId) -> bool {
    state.crews_away.contains_key(battery) && !state.crews_rallied.contains(battery)
}

/// Corinth 24.21: whether `hex` holds a crew away from its guns whose
/// battery is not `side`'s (an enemy unit there).
pub(crate) fn enemy_crew_in(
    rs: &Gbacw,
    state: &GbacwState,
    hex: HexNumber,
    side: &CounterId,
) -> bool {
    state
        .crews_away
        .iter()
        .any(|(b, h)| *h == hex && rs.game.oob.units.get(b).is_some_and(|u| u.side != *side))
}

/// The battery of `side` whose crew stands away in `hex` while its guns
/// are still on the map (the first by id when several crews share it).
pub(crate) fn crew_of(
    rs: &Gbacw,
    state: &GbacwState,
    hex: HexNumber,
    side: &CounterId,
) -> Option<CounterId> {
    state
        .crews_away
        .iter()
        .find(|(b, h)| {
            **h == hex
                && rs.game.oob.units.get(*b).is_some_and(|u| u.side == *side)
                && state.units.get(*b).is_some_and(|x| x.hex.is_some())
        })
        .map(|(b, _)| b.clone())
}

/// The hexes holding crews away of the side opposing `side`.
pub(crate) fn enemy_crew_hexes(rs: &Gbacw, state: &GbacwState, side: &CounterId) -> Vec<HexNumber> {
    state
        .crews_away
        .iter()
        .filter(|(b, _)| rs.game.oob.units.get(*b).is_some_and(|u| u.side != *side))
        .map(|(_, h)| *h)
        .collect()
}

/// GBACW 13.54: a routed crew rallies where it stands; the hex the rally
/// of `id` (standing in `hex`) is tried in.
pub(crate) fn rally_hex(state: &GbacwState, id: &CounterId, hex: HexNumber) -> HexNumber {
    crew_hex(state, id).unwrap_or(hex)
}

/// Corinth 24.21: a crew away that has rallied is no longer routed; its
/// guns keep the Crew marker until it walks back, but there is nothing to
/// rally.
pub(crate) fn check_rally(rs: &Gbacw, state: &GbacwState, id: &CounterId) -> Result<(), RuleError> {
    if state.crews_away.contains_key(id) && state.crews_rallied.contains(id) {
        return Err(err(
            &rs.case_rule("24.21"),
            RuleCode::Illegal,
            format!("{id}'s crew has rallied: it must walk back to its guns"),
        ));
    }
    Ok(())
}

/// Corinth 24.21, GBACW 13.25: guns whose crew is away do not move (only
/// their crew's return lifts the Crew marker).
pub(crate) fn check_guns_manned(
    rs: &Gbacw,
    state: &GbacwState,
    pieces: &[CounterId],
) -> Result<(), RuleError> {
    match pieces.iter().find(|p| state.crews_away.contains_key(*p)) {
        Some(p) => Err(err(
            &rs.case_rule("24.21"),
            RuleCode::Illegal,
            format!("{p}'s crew is away from its guns: the guns do not move without it"),
        )),
        None => Ok(()),
    }
}

/// Corinth 24.21, GBACW 5.2, 13.32, 6.13: `side` moves `battery`'s crew,
/// away from its guns, along `path` in its Movement Phase. Routed: one
/// hex, whatever the terrain, shunning enemy ZOCs. Rallied: Line
/// infantry's allowance and costs (at night as 26.11 makes it). Entering
/// its guns' hex ends the move there: the crew is back.
pub(crate) fn move_crew(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    battery: &CounterId,
    path: &[HexNumber],
) -> Result<Vec<GbacwEvent>, RuleError> {
    let rule = rs.case_rule("24.21");
    let (_, guns) = own_unit(rs, state, side, battery)?;
    let Some(start) = crew_hex(state, battery) else {
        return Err(err(
            &rule,
            RuleCode::Illegal,
            format!("{battery} has no crew away from its guns"),
        ));
    };
    if path.is_empty() || path.len() > MAX_PATH {
        return Err(err(
            "GBACW 5.16",
            RuleCode::Invalid,
            format!("a path has 1 to {MAX_PATH} hexes"),
        ));
    }
    if crew_pinned(state, battery) {
        return Err(err(
            "GBACW 9.84",
            RuleCode::Illegal,
            format!("{battery}'s crew is pinned and may not move"),
        ));
    }
    if state.crews_moved.get(battery) == Some(&state.clock) {
        return Err(err(
            "GBACW 5.11",
            RuleCode::Illegal,
            format!("{battery}'s crew has moved this phase"),
        ));
    }
    if let Some(k) = path.iter().position(|h| *h == guns)
        && k + 1 != path.len()
    {
        return Err(err(
            &rule,
            RuleCode::Illegal,
            format!("{battery}'s crew is back at its guns in {guns}: its move ends there"),
        ));
    }
    let routed = crew_routed(state, battery);
    let chart = &rs.game.charts.movement;
    let mover = Mover {
        id: battery.clone(),
        is_unit: true,
        formation: Some(Formation::Line),
        class: MoveClass::Line,
        allowance: rs
            .battle()
            .allowance(rs, state, chart.allowance(MoveClass::Line)),
        spent: Mp::ZERO,
        hexes: 0,
        one_hex: routed.then_some("GBACW 5.2"),
        shuns_zoc: routed,
    };
    if routed && path.len() > 1 {
        return Err(err(
            "GBACW 5.2",
            RuleCode::Illegal,
            format!("{battery}'s crew is routed: it moves one hex only"),
        ));
    }
    let board = Board::new(rs, state);
    let zocs = Zocs::new(&board, side);
    let mut spent = Mp::ZERO;
    let mut from = start;
    for &to in path {
        // 15.1: crews do not count for stacking, so no group and no limit.
        spent = spent + step(&board, &zocs, side, &mover, &[], from, to)?;
        from = to;
    }
    // 5.2: "regardless of terrain costs" for the routed crew's one hex.
    if !routed && spent > mover.allowance {
        return Err(err(
            "GBACW 5.11",
            RuleCode::Illegal,
            format!(
                "{battery}'s crew needs {spent} Movement Points and has {}",
                mover.allowance
            ),
        ));
    }
    Ok(carry(rs, state, side, battery, start, path, false))
}

/// GBACW 10.1, 10.18 with Corinth 24.21: carry out `battery`'s crew's
/// validated move along `path` from `start` until it ends or leaves a hex
/// in an enemy ZOC: there it halts (`CrewMoved` for the hexes behind it)
/// and withdrawal fire is offered to the other seat, through the engine's
/// decision (`Resume::CrewMove`), as for any unit's move
/// (`decide::movement::execute`). `answered`: the fire from `start` was
/// already offered and answered. Routed or rallied alike: 10.1 spares no
/// unit leaving an enemy ZOC, and a routed crew may leave one (5.2).
pub(crate) fn carry(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    battery: &CounterId,
    start: HexNumber,
    path: &[HexNumber],
    answered: bool,
) -> Vec<GbacwEvent> {
    let guns = state.units.get(battery).and_then(|u| u.hex);
    // A crew moves on foot (6.13: Line infantry), never mounted.
    let zocs = Board::new(rs, state).withdrawal_zocs(side, false);
    let mut events = Vec::new();
    let mut at = start;
    for (k, &to) in path.iter().enumerate() {
        let firers = zocs.get(&at).cloned().unwrap_or_default();
        let already_answered = k == 0 && answered;
        if !firers.is_empty() && !already_answered {
            if k > 0 {
                events.push(GbacwEvent::CrewMoved {
                    battery: battery.clone(),
                    path: path[..k].to_vec(),
                    rejoined: false,
                });
            }
            events.push(GbacwEvent::WithdrawalFireOffered(WithdrawalDecision {
                seat: rs.seat_of(rs.enemy_of(side)),
                trigger: Trigger::Leaving,
                hex: at,
                // 10.13: the crew is alone in its hex (a lone crew: it
                // does not stack, 15.1, and friends there stay).
                targets: vec![battery.clone()],
                firers,
                toward: Some(to),
                resume: Resume::CrewMove {
                    battery: battery.clone(),
                    path: path[k..].to_vec(),
                },
            }));
            return events;
        }
        at = to;
    }
    events.push(GbacwEvent::CrewMoved {
        battery: battery.clone(),
        path: path.to_vec(),
        rejoined: Some(at) == guns,
    });
    events
}

/// GBACW 10.11–10.15 with Corinth 24.21: after withdrawal fire on a crew
/// leaving `hex` (`pinned`: its pin deferred by 10.15), its move along
/// `path` goes on if the crew still stands there: pinned, it moves one
/// hex and is then pinned (10.15); routed by the fire, captured or
/// eliminated, it has gone its own way; otherwise it goes on, and leaving
/// another enemy ZOC on the way draws withdrawal fire again (10.1).
pub(crate) fn after_withdrawal_fire(
    rs: &Gbacw,
    u: &mut Unfold,
    hex: HexNumber,
    battery: &CounterId,
    path: &[HexNumber],
    pinned: bool,
) {
    if crew_hex(&u.state, battery) != Some(hex) || path.is_empty() {
        return;
    }
    let side = rs.game.oob.units[battery].side.clone();
    let guns = u.state.units[battery].hex;
    if pinned {
        u.push(GbacwEvent::CrewMoved {
            battery: battery.clone(),
            path: vec![path[0]],
            rejoined: Some(path[0]) == guns,
        });
        // Back at its guns on that hex, the battery is pinned there.
        if u.state.units.contains_key(battery) {
            pin(u, battery);
        }
        return;
    }
    if crew_pinned(&u.state, battery) {
        return;
    }
    for e in carry(rs, &u.state, &side, battery, hex, path, true) {
        u.push(e);
    }
}

/// Corinth 24.21, 24.12 ("lone crews"), GBACW 6.13: the crew away standing
/// in `target` of `side`'s batteries (the first by id when several crews
/// share the hex), as the target of fire: its battery, the crew as Line
/// infantry (for the Grapeshot row, 9.15) and its status (Line, routed or
/// not). The caller has found no unit of `side` in `target`.
pub(crate) fn lone_crew(
    rs: &Gbacw,
    state: &GbacwState,
    target: HexNumber,
    side: &CounterId,
) -> Option<(CounterId, Unit, UnitStatus)> {
    let (battery, _) = state.crews_away.iter().find(|(b, h)| {
        **h == target && rs.game.oob.units.get(*b).is_some_and(|u| u.side == *side)
    })?;
    let mut unit = rs.game.oob.units[battery].clone();
    unit.kind = UnitKind::Infantry;
    unit.weapon = None;
    let mut status = state.units.get(battery)?.status.clone();
    status.formation = Formation::Line;
    status.markers.clear();
    if crew_routed(state, battery) {
        status.markers.insert(Marker::Rout);
    }
    Some((battery.clone(), unit, status))
}

/// Whether the attack `p` is on a lone crew (its one "unit" a battery
/// whose crew stands in the target hex).
pub(crate) fn is_crew_target(state: &GbacwState, p: &Prepared) -> bool {
    p.stack.len() == 1 && state.crews_away.get(&p.stack[0]) == Some(&p.target)
}

/// Corinth 24.21 with GBACW 9.82, 15.11, 15.12, 13.2, 13.33: a fire result
/// on a lone crew away from its guns.
/// - Small-arms casualties cost it a step (full to half, half to gone:
///   the battery leaves play, its guns not counted for Victory Points,
///   24.22); artillery casualties touch only guns, and it has none here
///   (15.11), but the result's morale check stands.
/// - Routed already: a casualty or a rout result routs it again, three
///   more hexes, no check (13.33).
/// - Otherwise it checks morale with its battery's rating (a leader in its
///   hex helps, 13.43); failing a check that routs (9.81, 9.87, P/R), it
///   routs three hexes from where it stands; with no way, captured (24.22:
///   eliminated by capture, its guns count).
/// - GBACW 9.83, 9.87, 9.88, 9.84: a check that pins (P/R passed, P or R
///   failed, the second die of `#*`) pins it, as a routed crew is pinned
///   by a pin result (13.33 "Routed units may become pinned (and remain
///   routed)"): [`pin`]. Returns the crews whose pin 10.15 defers (pinned
///   by withdrawal fire while leaving: it moves one hex first).
pub(crate) fn hit(rs: &Gbacw, u: &mut Unfold, roll: &mut Roller, hit: &Hit) -> Vec<CounterId> {
    let p = hit.prepared;
    let battery = p.stack[0].clone();
    let side = rs.game.oob.units[&battery].side.clone();
    let routed = crew_routed(&u.state, &battery);
    let mut casualties = false;
    if let FireResult::Loss { .. } = hit.result {
        if !p.artillery {
            casualties = true;
            let crew = match u.state.units[&battery].status.crew {
                Crew::Full => Crew::Half,
                Crew::Half | Crew::None => Crew::None,
            };
            u.push(GbacwEvent::CrewHit {
                unit: battery.clone(),
                crew,
            });
            if crew == Crew::None {
                u.push(GbacwEvent::UnitRemoved {
                    unit: battery,
                    captured: false,
                });
                return Vec::new();
            }
        }
        let cause = if p.artillery {
            CasualtyCause::Artillery
        } else {
            CasualtyCause::SmallArms
        };
        leader_casualties(rs, u, roll, &side, p.target, cause);
    }
    let rout_result = matches!(
        hit.result,
        FireResult::MaybeRout | FireResult::PinOrRout | FireResult::Loss { .. }
    );
    let pin_result = matches!(hit.result, FireResult::MaybePin | FireResult::PinOrRout);
    if routed {
        // 13.33, 9.84: hit again, it routs on (shedding any pin, 13.31);
        // pinned, it stays routed and is pinned too.
        // 10.2: under retreat fire a routed crew hit does not rout again.
        let re_rout = (casualties || hit.result == FireResult::MaybeRout)
            && u.no_re_rout.as_ref() != Some(&battery);
        if re_rout {
            rout_crew(rs, u, &battery);
        } else if pin_result {
            // 10.15: leaving under withdrawal fire, one hex first.
            if hit.defer_pins_of.contains(&battery) {
                return vec![battery];
            }
            pin(u, &battery);
        }
        return Vec::new();
    }
    if hit.result == FireResult::NoEffect {
        return Vec::new();
    }
    let failed = check_morale(rs, u, roll, &battery, p.target, hit.enfiladed);
    if failed && rout_result {
        rout_crew(rs, u, &battery);
        return Vec::new();
    }
    let pinned = match hit.result {
        FireResult::MaybePin => failed,
        FireResult::PinOrRout => !failed,
        // 9.88: `#*`, not routed: an unmodified second die above the
        // battery's morale pins.
        FireResult::Loss {
            then_pin_check: true,
            ..
        } => {
            let rating = rating_for(rs, u, roll, &battery);
            let second = roll.d6();
            let pinned = second > rating;
            u.push(GbacwEvent::MoraleChecked {
                unit: battery.clone(),
                rating,
                die: second,
                modifier: 0,
                failed: pinned,
            });
            pinned
        }
        _ => false,
    };
    if !pinned {
        return Vec::new();
    }
    // 10.15: pinned by withdrawal fire as it leaves, it moves one hex
    // first; the caller pins it there.
    if hit.defer_pins_of.contains(&battery) {
        return vec![battery];
    }
    pin(u, &battery);
    Vec::new()
}

/// GBACW 9.84 with Corinth 24.21: `battery`'s crew away is pinned. The
/// PIN marker is kept with the battery's markers (the crew is its crew;
/// its guns, under the Crew marker, neither move nor fire either way), so
/// the Rally Phase lifts it with every other pin of its side (9.85,
/// `combat::rally::unpin`); [`move_crew`] refuses to move a pinned crew.
pub(crate) fn pin(u: &mut Unfold, battery: &CounterId) {
    crate::gbacw::ruleset::combat::effects::set_markers(u, battery, |s| {
        s.markers.insert(Marker::Pin);
    });
}

/// GBACW 9.84: whether `battery`'s crew (away) is pinned.
pub fn crew_pinned(state: &GbacwState, battery: &CounterId) -> bool {
    state.crews_away.contains_key(battery)
        && state
            .units
            .get(battery)
            .is_some_and(|u| u.status.markers.contains(&Marker::Pin))
}

/// GBACW 13.2, 13.43 with Corinth 24.21: `battery`'s crew away, standing
/// in `at`, checks morale with its battery's rating (a leader in its hex
/// may help). Returns whether it failed; the caller decides what failing
/// does (a rout from where it stands, [`rout_crew`]).
pub(crate) fn check_morale(
    rs: &Gbacw,
    u: &mut Unfold,
    roll: &mut Roller,
    battery: &CounterId,
    at: HexNumber,
    enfiladed: bool,
) -> bool {
    let side = rs.game.oob.units[battery].side.clone();
    let rating = rating_for(rs, u, roll, battery);
    let leader = crate::gbacw::ruleset::leader_reach::stacked_for(
        &Board::new(rs, &u.state),
        at,
        &side,
        battery,
    );
    let mods = MoraleMods {
        leader,
        over_half_lost: false,
        enfiladed,
    };
    let die = roll.d6();
    let modifier = mods.modifier() + bce_loss::morale_modifier(rs, &u.state, battery);
    let failed = i16::from(die) + modifier > i16::from(rating);
    u.push(GbacwEvent::MoraleChecked {
        unit: battery.clone(),
        rating,
        die,
        modifier: i8::try_from(modifier).unwrap_or(0),
        failed,
    });
    failed
}

/// GBACW 13.31, 13.33: `battery`'s crew, away, routs three hexes from
/// where it stands (as Line infantry, 6.13), not back into its guns' hex
/// where another way exists; with none, it is captured (24.22).
pub(crate) fn rout_crew(rs: &Gbacw, u: &mut Unfold, battery: &CounterId) {
    let Some(at) = crew_hex(&u.state, battery) else {
        return;
    };
    let guns = u.state.units[battery].hex;
    // The crew's paths are the battery's read from the crew's hex.
    let mut there = u.state.clone();
    there.crews_away.remove(battery);
    if let Some(s) = there.units.get_mut(battery) {
        s.hex = Some(at);
        s.status.formation = Formation::Unlimbered;
    }
    let paths = retreat_options(rs, &there, battery, ROUT_HEXES, RetreatKind::Rout);
    // A crew moves its full length on the map (27.3 takes units off it,
    // not crew markers).
    let paths: Vec<_> = paths
        .into_iter()
        .filter(|p| p.len() == ROUT_HEXES)
        .collect();
    let path = paths
        .iter()
        .find(|p| !p.iter().any(|h| Some(*h) == guns))
        .or(paths.first())
        .cloned();
    // 13.31 (`morale::stack::rout`): a pinned unit that routs is no
    // longer pinned.
    crate::gbacw::ruleset::combat::effects::set_markers(u, battery, |s| {
        s.markers.remove(&Marker::Pin);
    });
    match path {
        Some(path) => rout_along(rs, u, battery, at, &path, Vec::new(), None),
        None => u.push(GbacwEvent::UnitRemoved {
            unit: battery.clone(),
            captured: true,
        }),
    }
}

/// GBACW 10.2 with Corinth 24.21: `battery`'s crew routs along `path`
/// from `start` (its guns' hex as it abandons them, or where it stands),
/// until it enters the ZOC of enemy units not yet `offered` a shot: there
/// it halts (`CrewRouted` for the hexes behind it) and retreat fire is
/// offered through the engine's offer (`RetreatFireOffer`, answered by
/// [`answer_retreat_fire`]), as `combat::retreat_fire::go_along` does for
/// a unit. `at_start`: the enemy units whose ZOC held the hex the rout
/// began in (`None`: this call begins it); they caused it and are not
/// offered (the engine's reading of "other than the unit which caused the
/// retreat").
pub(crate) fn rout_along(
    rs: &Gbacw,
    u: &mut Unfold,
    battery: &CounterId,
    start: HexNumber,
    path: &[HexNumber],
    offered: Vec<CounterId>,
    at_start: Option<Vec<CounterId>>,
) {
    let side = rs.game.oob.units[battery].side.clone();
    // A crew goes on foot (6.13: Line infantry), never mounted.
    let zocs = Board::new(rs, &u.state).withdrawal_zocs(&side, false);
    let in_zoc = |h: &HexNumber| -> Vec<CounterId> { zocs.get(h).cloned().unwrap_or_default() };
    let at_start = at_start.unwrap_or_else(|| in_zoc(&start));
    let mut before = in_zoc(&start);
    for (k, h) in path.iter().enumerate() {
        let here = in_zoc(h);
        let new: Vec<CounterId> = here
            .iter()
            .filter(|f| !before.contains(*f) && !at_start.contains(f) && !offered.contains(f))
            .cloned()
            .collect();
        if !new.is_empty() {
            u.push(GbacwEvent::CrewRouted {
                battery: battery.clone(),
                path: path[..=k].to_vec(),
            });
            let mut offered = offered;
            offered.extend(new.iter().cloned());
            u.push(GbacwEvent::RetreatFireOffered(RetreatFireOffer {
                seat: rs.seat_of(rs.enemy_of(&side)),
                unit: battery.clone(),
                hex: *h,
                firers: new,
                rest: path[k + 1..].to_vec(),
                offered,
                at_start,
                leaves_map: false,
            }));
            return;
        }
        before = here;
    }
    u.push(GbacwEvent::CrewRouted {
        battery: battery.clone(),
        path: path.to_vec(),
    });
}

/// GBACW 10.2 with Corinth 24.21: the answer to `offer` on a routing crew
/// away from its guns: `firers` (already checked against the offer) fire
/// at it where it halted, as Line infantry (6.13), at range 1 with their
/// whole strength, the crew facing the next hex of its rout (10.16); hit,
/// it does not rout again (10.2), a pin does not stop it; then, still
/// there, it routs on along the rest of its path.
pub(crate) fn answer_retreat_fire(
    rs: &Gbacw,
    state: &GbacwState,
    offer: &RetreatFireOffer,
    firers: Option<&[CounterId]>,
    dice: &mut crate::engine::Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let mut u = Unfold::new(state);
    u.push(GbacwEvent::RetreatFireAnswered);
    let mut roll = Roller::new(dice);
    if let Some(f) = firers
        && crew_hex(state, &offer.unit) == Some(offer.hex)
    {
        // 10.2: a casualty costs a step; a routing crew does not rout again.
        crate::gbacw::ruleset::combat::retreat_fire::fire_on_retreater(
            rs, state, &mut u, &mut roll, offer, f, true,
        )?;
    }
    if !offer.rest.is_empty() && crew_hex(&u.state, &offer.unit) == Some(offer.hex) {
        rout_along(
            rs,
            &mut u,
            &offer.unit,
            offer.hex,
            &offer.rest,
            offer.offered.clone(),
            Some(offer.at_start.clone()),
        );
    }
    roll.finish()?;
    Ok(u.events)
}

/// The Movement Phase's candidate crew moves of `side`: each crew away,
/// not yet moved, one hex to each neighbour (the decision refuses the
/// illegal ones).
pub(crate) fn legal(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    out: &mut Vec<crate::gbacw::ruleset::GbacwAction>,
) {
    for (battery, at) in &state.crews_away {
        if rs
            .game
            .oob
            .units
            .get(battery)
            .is_none_or(|u| u.side != *side)
            || state.crews_moved.get(battery) == Some(&state.clock)
        {
            continue;
        }
        for (_, n) in rs.game.map.grid.neighbours_on_map(*at) {
            out.push(crate::gbacw::ruleset::GbacwAction::MoveCrew {
                battery: battery.clone(),
                path: vec![n],
            });
        }
    }
}

/// GBACW 10.1, 15.16: after withdrawal fire at a crew's move
/// (`Resume::CrewMove`), the move goes on (`pinned`: the units the fire
/// pinned). Any other continuation is the battle's own: nothing here.
pub(crate) fn resume_after_fire(
    rs: &Gbacw,
    u: &mut Unfold,
    hex: HexNumber,
    resume: &Resume,
    pinned: &[CounterId],
) {
    if let Resume::CrewMove { battery, path } = resume {
        after_withdrawal_fire(rs, u, hex, battery, path, pinned.contains(battery));
    }
}

/// GBACW 10.1, 15.16: withdrawal fire at a crew's move declined: the
/// decline, then the move goes on (further ZOCs left on the way draw
/// withdrawal fire again).
pub(crate) fn resume_after_decline(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    resume: &Resume,
) -> Vec<GbacwEvent> {
    let mut events = vec![GbacwEvent::WithdrawalFireDeclined];
    if let Resume::CrewMove { battery, path } = resume
        && let Some(at) = crew_hex(state, battery)
    {
        events.extend(carry(rs, state, side, battery, at, path, true));
    }
    events
}
