//! GBACW 12.8: a melee declared; the defenders may retreat before it or
//! stand fast (Cedar Mountain 21.12: dismounted cavalry that must go
//! does; Corinth 22.1: a morale check first).

use super::accepted;
use crate::engine::{Dice, PendingDecision, RuleCode, RuleError};
use crate::gbacw::oob::CounterId;
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::{GbacwState, RbmOffer};
use crate::gbacw::ruleset::{Gbacw, WITHDRAWAL_DEADLINE_SECS, combat, err};
use crate::ids::SeatId;

pub(super) fn prompt(rs: &Gbacw, r: &RbmOffer) -> String {
    format!(
        "a melee is declared on {}: retreat before it ({}) or stand fast",
        r.target,
        super::designations(rs, &r.threatened)
    )
}

pub(super) fn pending(
    rs: &Gbacw,
    state: &GbacwState,
    r: &RbmOffer,
) -> PendingDecision<GbacwAction> {
    PendingDecision {
        seat: r.seat,
        rule: "GBACW 12.8".to_string(),
        prompt: prompt(rs, r),
        // Cedar Mountain 21.12: dismounted cavalry that must retreat does.
        default: crate::gbacw::ruleset::exclusive::dismounted_cavalry::default_answer(rs, state, r),
        deadline_secs: WITHDRAWAL_DEADLINE_SECS,
    }
}

/// Stand, or every threatened unit along each path of one or two hexes
/// away (12.81); the forced retreat (21.12) when there is one.
pub(super) fn legal(
    rs: &Gbacw,
    state: &GbacwState,
    offer: &RbmOffer,
    seat: SeatId,
) -> Vec<GbacwAction> {
    if offer.seat != seat {
        return Vec::new();
    }
    let mut out = vec![GbacwAction::StandFast];
    let forced =
        crate::gbacw::ruleset::exclusive::dismounted_cavalry::default_answer(rs, state, offer);
    let paths = combat::rbm_options::candidate_paths(rs, state, offer);
    for a in std::iter::once(forced).chain(paths.into_iter().map(|path| {
        GbacwAction::RetreatBeforeMelee {
            units: offer.threatened.clone(),
            path,
        }
    })) {
        if !out.contains(&a) {
            out.push(a);
        }
    }
    out.retain(|a| accepted(rs, state, seat, a));
    out
}

/// Retreating checks morale where a rule says so.
pub(super) fn rolls(rs: &Gbacw, state: &GbacwState, units: &[CounterId]) -> bool {
    state.rbm.is_some()
        && (combat::melee::retreat_rolls(rs, state, units)
            || rs.battle().retreat_before_melee_rolls(rs, state, units))
}

pub(super) fn decide(
    rs: &Gbacw,
    state: &GbacwState,
    offer: &RbmOffer,
    seat: SeatId,
    action: &GbacwAction,
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    if seat != offer.seat {
        return Err(err(
            "GBACW 12.8",
            RuleCode::NotYourTurn,
            format!(
                "waiting for {} to answer the melee declared on {}",
                crate::gbacw::words::seat_name(rs, offer.seat),
                offer.target
            ),
        ));
    }
    match action {
        GbacwAction::StandFast => {
            // Cedar Mountain 21.12: some dismounted cavalry must go.
            crate::gbacw::ruleset::exclusive::dismounted_cavalry::check_answer(
                rs, state, offer, None,
            )?;
            Ok(vec![GbacwEvent::RbmAnswered])
        }
        GbacwAction::RetreatBeforeMelee { units, path } => {
            combat::melee::check_retreating(state, offer, units)?;
            crate::gbacw::ruleset::exclusive::dismounted_cavalry::check_answer(
                rs,
                state,
                offer,
                Some(units),
            )?;
            // The battle's own rule here (hook `retreat_before_melee`).
            rs.battle()
                .retreat_before_melee(rs, state, offer, units, path, dice)
        }
        _ => Err(err(
            "GBACW 12.8",
            RuleCode::Illegal,
            "answer the declared melee first (retreat before it or stand fast)",
        )),
    }
}
