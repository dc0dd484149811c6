//! Corinth 26.4: the Pre-Dawn Barrage before Game-Turn 21 begins: one
//! side's batteries fire, then the other's.

use super::accepted;
use crate::engine::{Dice, PendingDecision, RuleCode, RuleError};
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::exclusive::Barrage;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::ruleset::{Gbacw, WITHDRAWAL_DEADLINE_SECS, err};
use crate::ids::SeatId;

pub(super) fn prompt() -> String {
    "Pre-Dawn Barrage: fire your batteries (under 9 hexes, die -1) or finish".into()
}

pub(super) fn pending(rs: &Gbacw, b: &Barrage) -> PendingDecision<GbacwAction> {
    PendingDecision {
        seat: rs.seat_of(&b.side),
        rule: rs.case_rule("26.4"),
        prompt: prompt(),
        default: GbacwAction::EndBarrage,
        deadline_secs: WITHDRAWAL_DEADLINE_SECS,
    }
}

/// Finish, or a battery at the nearest enemy in range.
pub(super) fn legal(rs: &Gbacw, state: &GbacwState, b: &Barrage, seat: SeatId) -> Vec<GbacwAction> {
    if rs.seat_of(&b.side) != seat {
        return Vec::new();
    }
    let side = rs.side_of(seat);
    let mut out = vec![GbacwAction::EndBarrage];
    out.extend(
        rs.battle()
            .barrage_candidates(rs, state, side)
            .into_iter()
            .map(|(target, b)| GbacwAction::BarrageFire {
                target,
                firers: vec![b],
            }),
    );
    out.retain(|a| accepted(rs, state, seat, a));
    out
}

/// A barrage attack is rolled at once (26.42).
pub(super) fn rolls(state: &GbacwState) -> bool {
    state.night.barrage.is_some()
}

/// The firing side is checked by `barrage::fire` and `barrage::end`.
pub(super) fn decide(
    rs: &Gbacw,
    state: &GbacwState,
    seat: SeatId,
    action: &GbacwAction,
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let side = rs.side_of(seat);
    match action {
        GbacwAction::BarrageFire { target, firers } => rs
            .battle()
            .barrage_fire(rs, state, side, *target, firers, dice),
        GbacwAction::EndBarrage => rs.battle().barrage_end(rs, state, side),
        _ => Err(err(
            &rs.case_rule("26.4"),
            RuleCode::Illegal,
            "the Pre-Dawn Barrage comes first: fire batteries or finish it",
        )),
    }
}
