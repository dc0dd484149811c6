//! GBACW 8.41: "If the top unit runs out of ammunition (see 11.0), the
//! Player may change the stacking order at the end of the Fire Phase in
//! which depletion occurred." Offered once the phase's attacks are rolled
//! (`stack_order::offer_after_fire`): the owner puts units on top in the
//! stacks offered, then says he is done (the default: the order stays).

use crate::engine::{PendingDecision, RuleCode, RuleError};
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::{GbacwState, RestackOffer};
use crate::gbacw::ruleset::{Gbacw, WITHDRAWAL_DEADLINE_SECS, err, stack_order};
use crate::gbacw::words::{counter_name, seat_name};
use crate::ids::SeatId;

/// "The top unit in 0405, 15 Ala, is out of ammunition: put another unit
/// on top, or keep the order".
pub(super) fn prompt(rs: &Gbacw, state: &GbacwState, o: &RestackOffer) -> String {
    let tops: Vec<String> = o
        .hexes
        .iter()
        .filter_map(|h| {
            stack_order::stack_at(state, *h)
                .first()
                .map(|top| format!("{} in {h}", counter_name(rs, top)))
        })
        .collect();
    format!(
        "Out of ammunition on top of its stack: {}. Put another unit on top, or keep the order",
        if tops.is_empty() {
            "none left".to_string()
        } else {
            tops.join(", ")
        }
    )
}

pub(super) fn pending(
    rs: &Gbacw,
    state: &GbacwState,
    o: &RestackOffer,
) -> PendingDecision<GbacwAction> {
    PendingDecision {
        seat: o.seat,
        rule: "GBACW 8.41".to_string(),
        prompt: prompt(rs, state, o),
        default: GbacwAction::StackOrderDone,
        deadline_secs: WITHDRAWAL_DEADLINE_SECS,
    }
}

/// Done, or any unit but the top one of an offered stack put on top.
pub(super) fn legal(
    rs: &Gbacw,
    state: &GbacwState,
    o: &RestackOffer,
    seat: SeatId,
) -> Vec<GbacwAction> {
    if o.seat != seat {
        return Vec::new();
    }
    let mut out = vec![GbacwAction::StackOrderDone];
    out.extend(
        stack_order::candidates(rs, state, rs.side_of(seat), Some(&o.hexes))
            .into_iter()
            .map(|unit| GbacwAction::PutOnTop { unit }),
    );
    out
}

pub(super) fn decide(
    rs: &Gbacw,
    state: &GbacwState,
    o: &RestackOffer,
    seat: SeatId,
    action: &GbacwAction,
) -> Result<Vec<GbacwEvent>, RuleError> {
    if seat != o.seat {
        return Err(err(
            "GBACW 8.41",
            RuleCode::NotYourTurn,
            format!(
                "waiting for {} to change a stacking order",
                seat_name(rs, o.seat)
            ),
        ));
    }
    match action {
        GbacwAction::StackOrderDone => Ok(vec![GbacwEvent::RestackDone]),
        GbacwAction::PutOnTop { unit } => {
            let here = state
                .units
                .get(unit)
                .and_then(|u| u.hex)
                .is_some_and(|h| o.hexes.contains(&h));
            if !here {
                return Err(err(
                    "GBACW 8.41",
                    RuleCode::Illegal,
                    format!(
                        "{} is not in a stack whose top unit ran out of ammunition: only those change order now",
                        counter_name(rs, unit)
                    ),
                ));
            }
            stack_order::put_on_top(rs, state, rs.side_of(seat), unit)
        }
        _ => Err(err(
            "GBACW 8.41",
            RuleCode::Illegal,
            "first put a unit on top of the stack out of ammunition, or keep its order",
        )),
    }
}

/// GBACW 8.41: a change of order asked for when none may be made.
pub(super) fn not_offered() -> RuleError {
    err(
        "GBACW 8.41",
        RuleCode::Illegal,
        "a stacking order changes only in its owner's Movement Phase, or at the end of a Fire Phase in which the top unit ran out of ammunition",
    )
}
