//! GBACW 14.4: a retreating unit's owner chooses its path.

use crate::engine::{Dice, PendingDecision, RuleCode, RuleError};
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::CounterId;
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::{GbacwState, RetreatOrder};
use crate::gbacw::ruleset::{Gbacw, WITHDRAWAL_DEADLINE_SECS, combat, err};
use crate::ids::SeatId;

pub(super) fn prompt(rs: &Gbacw, o: &RetreatOrder) -> String {
    format!(
        "{} retreats {} hexes: choose the path",
        rs.game.oob.units[&o.unit].designation, o.length
    )
}

pub(super) fn pending(
    rs: &Gbacw,
    state: &GbacwState,
    o: &RetreatOrder,
) -> PendingDecision<GbacwAction> {
    PendingDecision {
        seat: o.seat,
        rule: "GBACW 14.4".to_string(),
        prompt: prompt(rs, o),
        default: combat::effects::default_retreat(rs, state, o),
        deadline_secs: WITHDRAWAL_DEADLINE_SECS,
    }
}

/// Each legal path (up to eight), or capture.
pub(super) fn legal(
    rs: &Gbacw,
    state: &GbacwState,
    order: &RetreatOrder,
    seat: SeatId,
) -> Vec<GbacwAction> {
    if order.seat != seat {
        return Vec::new();
    }
    let mut paths = combat::effects::order_options(rs, state, order);
    paths.truncate(8);
    if paths.is_empty() {
        paths.push(Vec::new());
    }
    paths
        .into_iter()
        .map(|path| GbacwAction::Retreat {
            unit: order.unit.clone(),
            path,
        })
        .collect()
}

/// Friends displaced by the chosen path check morale.
pub(super) fn rolls(rs: &Gbacw, state: &GbacwState, unit: &CounterId, path: &[HexNumber]) -> bool {
    state
        .retreats
        .first()
        .is_some_and(|o| o.unit == *unit && combat::effects::answer_rolls(rs, state, o, path))
}

pub(super) fn decide(
    rs: &Gbacw,
    state: &GbacwState,
    order: &RetreatOrder,
    seat: SeatId,
    action: &GbacwAction,
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    if seat != order.seat {
        return Err(err(
            "GBACW 14.4",
            RuleCode::NotYourTurn,
            format!(
                "waiting for {} to choose {}'s retreat",
                crate::gbacw::words::seat_name(rs, order.seat),
                order.unit
            ),
        ));
    }
    match action {
        GbacwAction::Retreat { unit, path } => {
            combat::effects::answer_retreat(rs, state, order, unit, path, dice)
        }
        _ => Err(err(
            "GBACW 14.4",
            RuleCode::Illegal,
            format!("choose {}'s retreat path first", order.unit),
        )),
    }
}
