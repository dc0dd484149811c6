//! Corinth 29.2: the Confederate assault plotted in secret before the
//! set-up (29.51: rolled instead, in the solitaire version).

use crate::engine::{Dice, PendingDecision, RuleCode, RuleError};
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::ruleset::{Gbacw, decide, err, plan};
use crate::ids::SeatId;

/// The seat that plots.
pub(super) fn seat(rs: &Gbacw) -> Option<SeatId> {
    plan::plotting_seat(rs)
}

pub(super) fn prompt(rs: &Gbacw) -> String {
    if rs.battle().rolls_the_plot(rs) {
        "roll the Confederate assault: the first division and its Assault Area".into()
    } else {
        "plot each division's Assault Area and Game-Turn of entry (secret), and announce one entering on Game-Turn 1".into()
    }
}

/// The plot as a pending decision; its default is a plan that keeps the
/// rules (every division on Game-Turn 1) with a zero salt (a plan the
/// server chose is no secret from it anyway). Corinth 29.51: the
/// solitaire version's default is the roll itself.
pub(super) fn pending(rs: &Gbacw) -> Option<PendingDecision<GbacwAction>> {
    let spec = rs.game.scenario.plan.as_ref()?;
    if rs.battle().rolls_the_plot(rs) {
        return Some(PendingDecision {
            seat: rs.seat_of(&spec.side),
            rule: rs.case_rule("29.51"),
            prompt: prompt(rs),
            default: GbacwAction::SolitaireRoll,
            deadline_secs: decide::setup::SETUP_DEADLINE_SECS,
        });
    }
    let (plan, announce) = plan::default_plan(spec)?;
    Some(PendingDecision {
        seat: rs.seat_of(&spec.side),
        rule: rs.case_rule(&spec.case),
        prompt: prompt(rs),
        default: GbacwAction::PlotAssault {
            plan,
            salt: [0; 32],
            announce,
        },
        deadline_secs: decide::setup::SETUP_DEADLINE_SECS,
    })
}

/// The legal answer offered: the default plan (any plan that keeps the
/// rules is legal; the set is representative).
pub(super) fn legal(rs: &Gbacw, seat: SeatId) -> Vec<GbacwAction> {
    pending(rs)
        .into_iter()
        .filter(|p| p.seat == seat)
        .map(|p| p.default)
        .collect()
}

pub(super) fn decide(
    rs: &Gbacw,
    state: &GbacwState,
    seat: SeatId,
    action: &GbacwAction,
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    use GbacwAction as A;
    // The battle's own rule here (hook `rolls_the_plot`).
    if rs.battle().rolls_the_plot(rs) {
        return match action {
            A::SolitaireRoll if Some(seat) == plan::plotting_seat(rs) => {
                rs.battle().roll_plot(rs, dice)
            }
            _ => Err(err(
                &rs.case_rule("29.51"),
                RuleCode::Illegal,
                "the solitaire assault is rolled first (SolitaireRoll, by the Confederate seat)",
            )),
        };
    }
    match action {
        A::PlotAssault {
            plan,
            salt,
            announce,
        } => plan::plot(rs, state, seat, plan, salt, announce),
        _ => Err(err(
            &rs.case_rule("29.2"),
            if Some(seat) == plan::plotting_seat(rs) {
                RuleCode::Illegal
            } else {
                RuleCode::NotYourTurn
            },
            "the Confederate assault is plotted first",
        )),
    }
}
