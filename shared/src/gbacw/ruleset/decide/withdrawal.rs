//! Answers to withdrawal fire (10.1, 6.23, 6.24).

use super::{formation, movement};
use crate::engine::{Dice, RuleCode, RuleError};
use crate::gbacw::oob::CounterId;
use crate::gbacw::ruleset::combat::resolve::resolve_withdrawal;
use crate::gbacw::ruleset::combat::{Roller, Unfold};
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::{GbacwState, Resume, WithdrawalDecision};
use crate::gbacw::ruleset::{Gbacw, err};

/// The firing seat declines: the interrupted move or formation change
/// goes on from where it stopped. It was valid when it stopped and nothing
/// has moved since, so it stays valid; if it somehow were not, it simply
/// ends there, so that the default answer can never be refused.
pub(crate) fn decline(
    rs: &Gbacw,
    state: &GbacwState,
    d: &WithdrawalDecision,
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let events = carry_on_declined(rs, state, d, dice)?;
    then_held_runs(rs, state, events, dice)
}

fn carry_on_declined(
    rs: &Gbacw,
    state: &GbacwState,
    d: &WithdrawalDecision,
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let side = rs.enemy_of(rs.side_of(d.seat));
    let mut events = vec![GbacwEvent::WithdrawalFireDeclined];
    match &d.resume {
        // GBACW 8.0 with 10.1: a move halted for withdrawal fire goes on
        // only to a stop within the limits (the stop is not the mover's
        // to mend once another seat's answer carries it there).
        Resume::Move { pieces, path } => {
            if let Ok(plan) = movement::plan_within_limits(rs, state, side, pieces, path) {
                events.extend(movement::execute(rs, state, &plan, true));
            }
        }
        // GBACW 12.83: the retreat before melee goes on; morale checks.
        Resume::RetreatBeforeMelee {
            units,
            path,
            checks,
        } => {
            use crate::gbacw::ruleset::combat::{Roller, Unfold, advance};
            let mut u = Unfold::new(state);
            u.push(GbacwEvent::WithdrawalFireDeclined);
            let mut roll = Roller::new(dice);
            advance::carry_on(rs, &mut u, &mut roll, d.hex, units, path, checks);
            roll.finish()?;
            return Ok(u.events);
        }
        // The battle's own rule here (hook `resume_after_decline`).
        r @ (Resume::BrigadeRetreat { .. } | Resume::CrewMove { .. }) => {
            return rs.battle().resume_after_decline(rs, state, side, r, dice);
        }
        Resume::Formation { unit, to } => {
            if let Ok(c) = formation::plan(rs, state, side, unit, *to) {
                events.push(formation::changed(unit, *to, &c));
            }
        }
    }
    Ok(events)
}

/// The firing seat fires with `firers`: each must be one the decision
/// offers, once (10.19), and still able to fire; the fire is resolved at
/// once (10.11) by `combat::resolve::resolve_withdrawal`.
pub(crate) fn fire(
    rs: &Gbacw,
    state: &GbacwState,
    d: &WithdrawalDecision,
    firers: &[CounterId],
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    if firers.is_empty() {
        return Err(err(
            "GBACW 10.19",
            RuleCode::Invalid,
            "name the units that fire, or decline",
        ));
    }
    for (k, f) in firers.iter().enumerate() {
        if !d.firers.contains(f) {
            return Err(err(
                "GBACW 10.19",
                RuleCode::Illegal,
                format!("{f} may not fire this withdrawal fire"),
            ));
        }
        if firers[..k].contains(f) {
            return Err(err(
                "GBACW 10.19",
                RuleCode::Invalid,
                format!("{f} fires once per trigger"),
            ));
        }
    }
    let events = resolve_withdrawal(rs, state, d, firers, dice)?;
    then_held_runs(rs, state, events, dice)
}

/// Corinth 25.23: after an answer, the brigade retreats held back while
/// it waited go on (`BattleRules::resume_held_runs`) if the answer's own
/// resolution left no decision waiting. Their morale checks roll on the
/// same dice stream, after the answer's.
fn then_held_runs(
    rs: &Gbacw,
    state: &GbacwState,
    events: Vec<GbacwEvent>,
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    if state.held_brigade_runs.is_empty() {
        return Ok(events);
    }
    let mut u = Unfold::new(state);
    for e in events {
        u.push(e);
    }
    let mut roll = Roller::new(dice);
    rs.battle().resume_held_runs(rs, &mut u, &mut roll);
    roll.finish()?;
    Ok(u.events)
}
