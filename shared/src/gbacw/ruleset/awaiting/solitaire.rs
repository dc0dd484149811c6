//! Corinth 29.53: in the solitaire version, the Division Arrival Table is
//! rolled at the start of each Confederate Movement Phase while a
//! division is still out; nothing else is done before.

use crate::engine::{Dice, PendingDecision, RuleCode, RuleError};
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::ruleset::{Gbacw, err, plan};
use crate::ids::SeatId;

/// The Confederate seat (the phasing one: the roll is due in its
/// Movement Phase only).
pub(super) fn seat(rs: &Gbacw) -> Option<SeatId> {
    plan::plotting_seat(rs)
}

pub(super) fn prompt(state: &GbacwState) -> String {
    format!(
        "Game-Turn {}: roll the Division Arrival Table for each Confederate division still out",
        state.clock.turn
    )
}

/// The roll as a pending decision of the Confederate seat (its default
/// is the roll itself: a timeout rolls for the player), so that the
/// client shows it and the server's clock applies it.
pub(super) fn pending(rs: &Gbacw, state: &GbacwState) -> Option<PendingDecision<GbacwAction>> {
    let spec = rs.game.scenario.plan.as_ref()?;
    Some(PendingDecision {
        seat: rs.seat_of(&spec.side),
        rule: rs.case_rule("29.53"),
        prompt: prompt(state),
        default: GbacwAction::SolitaireRoll,
        deadline_secs: crate::gbacw::ruleset::WITHDRAWAL_DEADLINE_SECS,
    })
}

pub(super) fn legal(rs: &Gbacw, seat: SeatId) -> Vec<GbacwAction> {
    if self::seat(rs) == Some(seat) {
        vec![GbacwAction::SolitaireRoll]
    } else {
        Vec::new()
    }
}

/// The roll, or a refusal of anything else while it is due.
pub(super) fn decide(
    rs: &Gbacw,
    state: &GbacwState,
    seat: SeatId,
    action: &GbacwAction,
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let rule = rs.case_rule("29.53");
    match action {
        GbacwAction::SolitaireRoll => {
            if Some(seat) != plan::plotting_seat(rs) {
                return Err(err(
                    &rule,
                    RuleCode::NotYourTurn,
                    "the Confederate seat rolls the Division Arrival Table",
                ));
            }
            rs.battle().arrival_roll(rs, state, dice)
        }
        _ => Err(err(
            &rule,
            RuleCode::Illegal,
            "roll the Division Arrival Table first (SolitaireRoll)",
        )),
    }
}

/// The refusal of a roll while none is due (or in a battle without one).
pub(super) fn not_due(rs: &Gbacw) -> RuleError {
    if !rs.battle().rolls_the_plot(rs) {
        return err(
            "GBACW 4.0",
            RuleCode::Illegal,
            "this battle has no solitaire rolls",
        );
    }
    err(
        &rs.case_rule("29.53"),
        RuleCode::Illegal,
        "the Division Arrival Table is rolled at the start of a Confederate Movement Phase while a division is still out, once a Game-Turn",
    )
}
