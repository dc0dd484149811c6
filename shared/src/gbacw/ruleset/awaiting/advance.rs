//! GBACW 12.85: the attackers may advance into the hex the defenders
//! left by retreating before melee.

use super::accepted;
use crate::engine::{PendingDecision, RuleCode, RuleError};
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::{AdvanceOffer, GbacwState};
use crate::gbacw::ruleset::{Gbacw, WITHDRAWAL_DEADLINE_SECS, combat, err};
use crate::ids::SeatId;

pub(super) fn prompt(a: &AdvanceOffer) -> String {
    format!("the defenders left {}: advance into it or not", a.hex)
}

pub(super) fn pending(a: &AdvanceOffer) -> PendingDecision<GbacwAction> {
    PendingDecision {
        seat: a.seat,
        rule: "GBACW 12.85".to_string(),
        prompt: prompt(a),
        default: GbacwAction::DeclineAdvance,
        deadline_secs: WITHDRAWAL_DEADLINE_SECS,
    }
}

/// Decline, each unit alone, or all together.
pub(super) fn legal(
    rs: &Gbacw,
    state: &GbacwState,
    a: &AdvanceOffer,
    seat: SeatId,
) -> Vec<GbacwAction> {
    if a.seat != seat {
        return Vec::new();
    }
    let mut out = vec![GbacwAction::DeclineAdvance];
    out.extend(a.units.iter().map(|u| GbacwAction::Advance {
        units: vec![u.clone()],
    }));
    if a.units.len() > 1 {
        out.push(GbacwAction::Advance {
            units: a.units.clone(),
        });
    }
    out.retain(|x| accepted(rs, state, seat, x));
    out
}

pub(super) fn decide(
    rs: &Gbacw,
    state: &GbacwState,
    a: &AdvanceOffer,
    seat: SeatId,
    action: &GbacwAction,
) -> Result<Vec<GbacwEvent>, RuleError> {
    if seat != a.seat {
        return Err(err(
            "GBACW 12.85",
            RuleCode::NotYourTurn,
            format!(
                "waiting for {} to advance into {} or not",
                crate::gbacw::words::seat_name(rs, a.seat),
                a.hex
            ),
        ));
    }
    match action {
        GbacwAction::DeclineAdvance => Ok(vec![GbacwEvent::AdvanceAnswered]),
        GbacwAction::Advance { units } => combat::advance::advance(rs, state, a, units),
        _ => Err(err(
            "GBACW 12.85",
            RuleCode::Illegal,
            "answer the advance first (advance or decline)",
        )),
    }
}
