//! Corinth 25.26: a retreating brigade's batteries may retreat with it
//! (limbering), each checking morale (25.2).

use crate::engine::{Dice, PendingDecision, RuleCode, RuleError};
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::exclusive::BatteryRetreatOffer;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::ruleset::{Gbacw, WITHDRAWAL_DEADLINE_SECS, err};
use crate::gbacw::words::counter_name;
use crate::ids::SeatId;

pub(super) fn prompt(rs: &Gbacw, o: &BatteryRetreatOffer) -> String {
    format!(
        "{}'s brigade retreats: retreat its batteries {} (limbering) or not",
        counter_name(rs, &o.brigade),
        super::designations(rs, &o.batteries)
    )
}

/// The offer as a pending decision (default: they stay).
pub(super) fn pending(rs: &Gbacw, o: &BatteryRetreatOffer) -> PendingDecision<GbacwAction> {
    PendingDecision {
        seat: o.seat,
        rule: rs.battle().battery_retreat_case(rs),
        prompt: prompt(rs, o),
        default: GbacwAction::DeclineBatteryRetreat,
        deadline_secs: WITHDRAWAL_DEADLINE_SECS,
    }
}

/// Decline, each battery alone, or all together.
pub(super) fn legal(o: &BatteryRetreatOffer, seat: SeatId) -> Vec<GbacwAction> {
    if o.seat != seat {
        return Vec::new();
    }
    let mut out = vec![GbacwAction::DeclineBatteryRetreat];
    out.extend(o.batteries.iter().map(|b| GbacwAction::RetreatBatteries {
        batteries: vec![b.clone()],
    }));
    if o.batteries.len() > 1 {
        out.push(GbacwAction::RetreatBatteries {
            batteries: o.batteries.clone(),
        });
    }
    out
}

/// Retreating batteries check morale (25.2).
pub(super) fn rolls(state: &GbacwState) -> bool {
    state.battery_retreat.is_some()
}

pub(super) fn decide(
    rs: &Gbacw,
    state: &GbacwState,
    offer: &BatteryRetreatOffer,
    seat: SeatId,
    action: &GbacwAction,
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let case = rs.battle().battery_retreat_case(rs);
    if seat != offer.seat {
        return Err(err(
            &case,
            RuleCode::NotYourTurn,
            format!(
                "waiting for {} to retreat its batteries or not",
                crate::gbacw::words::seat_name(rs, offer.seat)
            ),
        ));
    }
    match action {
        GbacwAction::DeclineBatteryRetreat => rs
            .battle()
            .answer_battery_retreat(rs, state, offer, None, dice),
        GbacwAction::RetreatBatteries { batteries } => {
            rs.battle()
                .answer_battery_retreat(rs, state, offer, Some(batteries), dice)
        }
        _ => Err(err(
            &case,
            RuleCode::Illegal,
            "answer the batteries' retreat first (retreat them or decline)",
        )),
    }
}
