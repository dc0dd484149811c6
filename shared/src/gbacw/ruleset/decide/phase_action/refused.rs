//! Answers to decisions when none waits: each refused naming the rule
//! of the decision it answers.

use super::not_this_phase;
use crate::engine::{RuleCode, RuleError};
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::{Gbacw, err};

/// The refusal of `action`, an answer to a decision, when none waits.
pub(super) fn nothing_asked(rs: &Gbacw, action: &GbacwAction) -> RuleError {
    use GbacwAction as A;
    match action {
        A::WithdrawalFire { .. } | A::DeclineWithdrawalFire => err(
            "GBACW 10.1",
            RuleCode::Illegal,
            "no withdrawal fire is offered",
        ),
        A::RetreatFire { .. } | A::DeclineRetreatFire => err(
            "GBACW 10.2",
            RuleCode::Illegal,
            "no retreat fire is offered",
        ),
        A::Advance { .. } | A::DeclineAdvance => {
            err("GBACW 12.85", RuleCode::Illegal, "no advance is offered")
        }
        A::RetreatBatteries { .. } | A::DeclineBatteryRetreat => err(
            &rs.case_rule("25.26"),
            RuleCode::Illegal,
            "no batteries are offered a retreat",
        ),
        A::LeaderRout { .. } => err(
            "GBACW 13.43",
            RuleCode::Illegal,
            "no leader is choosing whether to go with a routed unit",
        ),
        A::StackOrderDone => err(
            "GBACW 8.41",
            RuleCode::Illegal,
            "no change of stacking order is offered",
        ),
        A::ChoosePromotion { .. } => err(
            &rs.case_rule("28.32"),
            RuleCode::Illegal,
            "no tie for a division's command waits for a choice",
        ),
        A::Retreat { .. } => err(
            "GBACW 14.4",
            RuleCode::Illegal,
            "no retreat is waiting for a path",
        ),
        A::RetreatBeforeMelee { .. } | A::StandFast => err(
            "GBACW 12.8",
            RuleCode::Illegal,
            "no melee is waiting for an answer",
        ),
        A::SolitaireRoll => err(
            &rs.case_rule("29.53"),
            RuleCode::Illegal,
            "no solitaire roll is due",
        ),
        A::BarrageFire { .. } | A::EndBarrage => err(
            &rs.case_rule("26.4"),
            RuleCode::Illegal,
            "there is no Pre-Dawn Barrage now",
        ),
        A::PlotAssault { .. } => err(
            &rs.case_rule("29.2"),
            RuleCode::Illegal,
            "the assault is plotted before the set-up",
        ),
        _ => not_this_phase(),
    }
}
