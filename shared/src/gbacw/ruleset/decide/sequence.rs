//! GBACW 4.0: ending a phase, and what happens at its end.

use super::command;
use crate::engine::{Dice, RuleCode, RuleError};
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::CounterId;
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::combat::rally::unpin;
use crate::gbacw::ruleset::combat::resolve::resolve_plan;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::ruleset::{Gbacw, err};
use crate::gbacw::sequence::{Phase, Step};

/// Hexes a lone leader must keep from the nearest enemy unit (17.52).
pub const LONE_LEADER_DISTANCE: u32 = 5;

/// GBACW 4.0: the acting player ends the phase. The Initial Command Phase
/// ends with the command check (17.0); the Movement Phase only once every
/// leader that can still do so ends it with a combat unit or far from
/// the enemy (17.52). Interphases with nothing to do are passed over.
pub(crate) fn end_phase(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let mut events = Vec::new();
    if let Step::Phase { phase, .. } = state.clock.step {
        match phase {
            Phase::InitialCommand => {
                events.push(GbacwEvent::CommandChecked(command::check(rs, state, side)))
            }
            Phase::Movement => {
                check_lone_leaders(rs, state, side)?;
                check_stacking(rs, state, side)?;
                // The battle's own rule here (hook `check_end_of_movement`).
                rs.battle().check_end_of_movement(rs, state, side)?;
                // GBACW 8.0 under `overstack-displaced`.
                events.extend(displace_excess(rs, state, side, dice)?);
            }
            // GBACW 9.42: the phase's attacks are rolled as it ends.
            Phase::DefensiveFire | Phase::OffensiveFire if !state.fire_plan.is_empty() => {
                events.extend(resolve_plan(rs, state, dice)?)
            }
            // GBACW 12.0: the declared melees are resolved as the phase ends.
            Phase::Melee if melee_due(state) => events.extend(
                crate::gbacw::ruleset::combat::melee::resolve_all(rs, state, dice)?,
            ),
            // GBACW 17.84: successions still due are carried out now.
            Phase::FinalCommand => {
                events.extend(
                    crate::gbacw::ruleset::combat::succession::end_of_final_command(
                        rs, state, side,
                    ),
                );
                // The battle's own rule here (hook `end_of_final_command`).
                events.extend(rs.battle().end_of_final_command(rs, state));
            }
            _ => {}
        }
    }
    let mut next = super::turns::next_step(rs, state.clock);
    // A roll of the battle's own as a Game-Turn begins may skip it (hook
    // `turn_skip_roll`).
    if let Some((event, skipped)) = rs.battle().turn_skip_roll(rs, state, dice)? {
        events.push(event);
        if let Some(turn) = skipped {
            while let Some(c) = next.filter(|c| c.turn == turn) {
                next = super::turns::next_step(rs, c);
            }
        }
    }
    // The battle's own rule here (hook `between_steps`).
    let between = rs.battle().between_steps(rs, state, next, &events, dice)?;
    events.extend(between);
    // Cedar Mountain 26.44, 27.22; Corinth 31.2: what the scenario does
    // between steps.
    events.extend(super::turns::on_step_change(rs, state, next));
    let decided = events
        .iter()
        .any(|e| matches!(e, GbacwEvent::DayDetermined(d) if d.winner.is_some()));
    match next {
        Some(clock) if !decided => events.push(GbacwEvent::PhaseChanged { clock }),
        _ => {
            // Corinth 29.2: the whole plan is public at the end.
            events.extend(crate::gbacw::ruleset::plan::opened(state));
            events.push(GbacwEvent::GameEnded);
        }
    }
    // GBACW 9.85: the friendly Rally Phase begins by removing pins.
    if let Some(c) = next
        && let Step::Phase {
            phase: Phase::Rally,
            ..
        } = c.step
        && let Some(phasing) = rs.phasing_side(c)
    {
        events.extend(unpin(rs, state, phasing));
    }
    Ok(events)
}

/// Whether ending the Melee Phase resolves melee (declared melees, or
/// engagements to end).
pub(crate) fn melee_due(state: &GbacwState) -> bool {
    !state.melees.is_empty()
        || state.units.values().any(|u| {
            u.status
                .markers
                .contains(&crate::gbacw::oob::Marker::Engaged)
        })
}

/// Whether a leader of `side` in `hex` may end the Movement Phase there
/// (17.52): with a friendly combat unit, or five or more hexes from the
/// nearest enemy unit.
pub(crate) fn leader_may_stay(
    board: &Board<'_>,
    side: &CounterId,
    hex: crate::gbacw::map::HexNumber,
) -> bool {
    !board.units_of(hex, side).is_empty()
        || board
            .enemy_units(side)
            .all(|(_, e)| board.map().grid.distance(hex, e) >= LONE_LEADER_DISTANCE)
}

/// GBACW 17.52, enforced so that it never deadlocks: a leader alone near
/// the enemy holds up the end of the phase only while some hex he can
/// still reach would satisfy the rule.
fn check_lone_leaders(rs: &Gbacw, state: &GbacwState, side: &CounterId) -> Result<(), RuleError> {
    let board = Board::new(rs, state);
    for (id, l) in &state.leaders {
        let Some(hex) = l.hex else { continue };
        if rs.game.oob.leaders[id].side != *side || leader_may_stay(&board, side, hex) {
            continue;
        }
        let Some(reach) = rs.reachable(state, id) else {
            continue;
        };
        // The nearest such hex (fewest Movement Points spent, then the
        // lowest number) is the one named: the refusal is read as advice.
        if let Some(ok) = reach
            .hexes
            .iter()
            .filter(|(h, _)| **h != hex && leader_may_stay(&board, side, **h))
            .min_by_key(|(h, (spent, _))| (*spent, **h))
            .map(|(h, _)| *h)
        {
            return Err(err(
                "GBACW 17.52",
                RuleCode::Illegal,
                format!(
                    "{} must end the Movement Phase with a combat unit or {LONE_LEADER_DISTANCE}+ hexes from the enemy (he can reach {ok})",
                    crate::gbacw::words::counter_name(rs, id)
                ),
            ));
        }
    }
    Ok(())
}

/// GBACW 8.0: "stacking restrictions apply only at the end of a Movement
/// or Combat Phase." The Movement Phase does not end while a hex of the
/// phasing player's is over its limits (8.11, 8.18) and the units there
/// that can still leave it would bring it within them; enforced, like
/// 17.52, so that it never deadlocks (a stop that could not be mended so
/// is refused when it is made: `movement::check_overstack_stop`).
fn check_stacking(rs: &Gbacw, state: &GbacwState, side: &CounterId) -> Result<(), RuleError> {
    use super::movement::{may_mend, overstacked};
    let board = Board::new(rs, state);
    for hex in overstacked(rs, state, side) {
        // Only stacks this phase's moves made: a hex over its limits for
        // another reason (a retreat's or an arrival's rules) is not the
        // Movement Phase's to mend. One beyond mending is refused where it
        // is made (`movement::check_overstack_stop`) or, under the reading
        // `overstack-displaced`, cleared as the phase ends.
        if !moved_in(state, hex) || !may_mend(rs, state, side, hex) {
            continue;
        }
        let Err(o) = board.check_stack(hex, side, &[], &[], None) else {
            continue;
        };
        // The limit broken (8.11, 8.13, a redan's) is the case cited.
        return Err(err(
            o.rule(),
            RuleCode::Illegal,
            format!(
                "{hex} is over its stacking limits ({o}): move units out of it before the Movement Phase ends (8.0)"
            ),
        ));
    }
    Ok(())
}

/// Whether a unit now in `hex` moved this Movement Phase (the stack there
/// is the phase's own doing).
fn moved_in(state: &GbacwState, hex: HexNumber) -> bool {
    state
        .units
        .values()
        .any(|u| u.hex == Some(hex) && u.moved.hexes > 0)
}

/// GBACW 8.0 under the reading `overstack-displaced`: the hexes of
/// `side` this phase's moves left over their stacking limits that no unit
/// there can leave any more (pinned by withdrawal fire, 9.84), which the
/// end of the Movement Phase must clear ([`displace_excess`]).
pub(crate) fn excess_due(rs: &Gbacw, state: &GbacwState, side: &CounterId) -> Vec<HexNumber> {
    use super::movement::{may_mend, overstacked};
    if !rs.options.overstack_displaced {
        return Vec::new();
    }
    overstacked(rs, state, side)
        .into_iter()
        .filter(|h| moved_in(state, *h) && !may_mend(rs, state, side, *h))
        .collect()
}

/// GBACW 8.0 under the reading `overstack-displaced`: "stacking
/// restrictions apply only at the end of a Movement or Combat Phase", and
/// a stack still over them that nothing can mend is brought within them
/// as the phase ends the way the rules clear friends out of a hex that may
/// not hold them (8.15: "the other units in that hex are displaced and
/// must then undergo a morale check (see 14.3)"): the units that entered
/// it this phase, top first, are displaced one hex each (14.3; the owner
/// chooses the path, 14.4) until the rest fit; the top one displaced
/// checks morale, the others only if it routs ("If a stack is displaced,
/// a morale check is performed on the top unit").
fn displace_excess(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    use crate::gbacw::oob::Marker;
    use crate::gbacw::retreat::RetreatKind;
    use crate::gbacw::ruleset::combat::displacement::{DISPLACED_HEXES, displaceable};
    use crate::gbacw::ruleset::combat::effects::{check_morale, retreat, rout_retreat};
    use crate::gbacw::ruleset::combat::{Roller, Unfold};
    let hexes = excess_due(rs, state, side);
    if hexes.is_empty() {
        return Ok(Vec::new());
    }
    let mut u = Unfold::new(state);
    let mut roll = Roller::new(dice);
    for hex in hexes {
        let entered: Vec<CounterId> = Board::new(rs, &u.state)
            .units_of(hex, side)
            .into_iter()
            .filter(|id| u.state.units[*id].moved.hexes > 0)
            .cloned()
            .collect();
        let mut gone: Vec<CounterId> = Vec::new();
        let mut top_routed = None;
        for id in entered {
            let fits = {
                let gone: Vec<&CounterId> = gone.iter().collect();
                Board::new(rs, &u.state)
                    .check_stack(hex, side, &gone, &[], None)
                    .is_ok()
            };
            if fits {
                break;
            }
            if !displaceable(rs, &u.state, &id) {
                continue;
            }
            gone.push(id.clone());
            if u.state.units[&id].status.markers.contains(&Marker::Rout) {
                // Routed again: three more hexes, no check (14.3, 13.33).
                rout_retreat(rs, &mut u, &mut roll, &id);
                continue;
            }
            retreat(
                rs,
                &mut u,
                &mut roll,
                &id,
                DISPLACED_HEXES,
                RetreatKind::Rout,
            );
            if top_routed.unwrap_or(true) && u.state.units[&id].hex.is_some() {
                top_routed.get_or_insert(check_morale(rs, &mut u, &mut roll, &id));
            }
        }
    }
    roll.finish()?;
    Ok(u.events)
}
