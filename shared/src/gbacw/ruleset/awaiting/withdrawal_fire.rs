//! GBACW 10.1: withdrawal fire offered to the units a move leaves (and
//! 12.83, Corinth 25.23: the retreats that wait on its answer).

use super::{accepted, designations};
use crate::engine::{Dice, PendingDecision, RuleCode, RuleError};
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::{self, GbacwState, WithdrawalDecision};
use crate::gbacw::ruleset::{Gbacw, WITHDRAWAL_DEADLINE_SECS, decide, err};
use crate::ids::SeatId;

pub(super) fn prompt(rs: &Gbacw, d: &WithdrawalDecision) -> String {
    format!(
        "{} may fire withdrawal fire at {} in {}",
        designations(rs, &d.firers),
        designations(rs, &d.targets),
        d.hex
    )
}

pub(super) fn pending(rs: &Gbacw, d: &WithdrawalDecision) -> PendingDecision<GbacwAction> {
    PendingDecision {
        seat: d.seat,
        rule: d.trigger.rule().to_string(),
        prompt: prompt(rs, d),
        default: GbacwAction::DeclineWithdrawalFire,
        deadline_secs: WITHDRAWAL_DEADLINE_SECS,
    }
}

/// Decline, or every offered unit fires (10.19).
pub(super) fn legal(
    rs: &Gbacw,
    state: &GbacwState,
    d: &WithdrawalDecision,
    seat: SeatId,
) -> Vec<GbacwAction> {
    if d.seat != seat {
        return Vec::new();
    }
    let mut out = vec![GbacwAction::DeclineWithdrawalFire];
    let all = GbacwAction::WithdrawalFire {
        firers: d.firers.clone(),
    };
    if accepted(rs, state, seat, &all) {
        out.push(all);
    }
    out
}

/// The fire rolls; declining rolls when it lets a retreat before melee
/// go on (12.83: its morale checks), or a brigade retreat (Corinth
/// 25.23), or those held behind it.
pub(super) fn rolls(state: &GbacwState, action: &GbacwAction) -> bool {
    let Some(d) = &state.decision else {
        return false;
    };
    match action {
        GbacwAction::WithdrawalFire { .. } => true,
        _ => {
            matches!(
                d.resume,
                state::Resume::RetreatBeforeMelee { .. } | state::Resume::BrigadeRetreat { .. }
            ) || !state.held_brigade_runs.is_empty()
        }
    }
}

pub(super) fn decide(
    rs: &Gbacw,
    state: &GbacwState,
    d: &WithdrawalDecision,
    seat: SeatId,
    action: &GbacwAction,
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    if seat != d.seat {
        return Err(err(
            d.trigger.rule(),
            RuleCode::NotYourTurn,
            format!(
                "waiting for {} to answer withdrawal fire",
                crate::gbacw::words::seat_name(rs, d.seat)
            ),
        ));
    }
    match action {
        GbacwAction::DeclineWithdrawalFire => decide::withdrawal::decline(rs, state, d, dice),
        GbacwAction::WithdrawalFire { firers } => {
            decide::withdrawal::fire(rs, state, d, firers, dice)
        }
        _ => Err(err(
            d.trigger.rule(),
            RuleCode::Illegal,
            "answer the withdrawal fire first (fire or decline)",
        )),
    }
}
