//! GBACW 10.2: a unit retreats into an enemy Zone of Control; its units
//! may fire at it.

use super::{accepted, designations};
use crate::engine::{Dice, PendingDecision, RuleCode, RuleError};
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::{GbacwState, RetreatFireOffer};
use crate::gbacw::ruleset::{Gbacw, WITHDRAWAL_DEADLINE_SECS, combat, err};
use crate::ids::SeatId;

pub(super) fn prompt(rs: &Gbacw, o: &RetreatFireOffer) -> String {
    format!(
        "{} retreats into the Zone of Control of {} in {}: retreat fire?",
        rs.game.oob.units[&o.unit].designation,
        designations(rs, &o.firers),
        o.hex
    )
}

pub(super) fn pending(rs: &Gbacw, o: &RetreatFireOffer) -> PendingDecision<GbacwAction> {
    PendingDecision {
        seat: o.seat,
        rule: "GBACW 10.2".to_string(),
        prompt: prompt(rs, o),
        default: GbacwAction::DeclineRetreatFire,
        deadline_secs: WITHDRAWAL_DEADLINE_SECS,
    }
}

/// Decline, or every offered unit fires.
pub(super) fn legal(
    rs: &Gbacw,
    state: &GbacwState,
    o: &RetreatFireOffer,
    seat: SeatId,
) -> Vec<GbacwAction> {
    if o.seat != seat {
        return Vec::new();
    }
    let mut out = vec![GbacwAction::DeclineRetreatFire];
    let all = GbacwAction::RetreatFire {
        firers: o.firers.clone(),
    };
    if accepted(rs, state, seat, &all) {
        out.push(all);
    }
    out
}

/// The shot rolls; declining may let the retreat displace friends, who
/// check morale.
pub(super) fn rolls(rs: &Gbacw, state: &GbacwState, action: &GbacwAction) -> bool {
    match action {
        GbacwAction::RetreatFire { .. } => !state.retreat_fire.is_empty(),
        _ => state
            .retreat_fire
            .first()
            .is_some_and(|o| combat::retreat_fire::decline_rolls(rs, state, o)),
    }
}

pub(super) fn decide(
    rs: &Gbacw,
    state: &GbacwState,
    o: &RetreatFireOffer,
    seat: SeatId,
    action: &GbacwAction,
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    if seat != o.seat {
        return Err(err(
            "GBACW 10.2",
            RuleCode::NotYourTurn,
            format!(
                "waiting for {} to answer retreat fire",
                crate::gbacw::words::seat_name(rs, o.seat)
            ),
        ));
    }
    match action {
        GbacwAction::DeclineRetreatFire => combat::retreat_fire::answer(rs, state, o, None, dice),
        GbacwAction::RetreatFire { firers } => {
            combat::retreat_fire::answer(rs, state, o, Some(firers), dice)
        }
        _ => Err(err(
            "GBACW 10.2",
            RuleCode::Illegal,
            "answer the retreat fire first (fire or decline)",
        )),
    }
}
