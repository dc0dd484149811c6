//! The Retreat Before Melee Phase's actions (GBACW 12.8, 12.94, 16.24).

use super::{Turn, not_this_phase};
use crate::engine::{Dice, RuleError};
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::combat;
use crate::gbacw::ruleset::decide::check_free;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::sequence::Phase;

/// The checks of this part's actions.
pub(super) fn decide(
    turn: &Turn<'_>,
    action: &GbacwAction,
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    use GbacwAction as A;
    let (rs, state, side) = (turn.rs, turn.state, turn.side);
    match action {
        A::DeclareMelee { target, attackers } => {
            turn.in_phase(
                Phase::RetreatBeforeMelee,
                "GBACW 12.8",
                "melees are declared",
            )?;
            check_free(rs, state, &attackers.iter().collect::<Vec<_>>(), "melee")?;
            combat::melee::declare(rs, state, side, *target, attackers, false)
        }
        A::WithdrawEngaged { units, path } => {
            turn.in_phase(
                Phase::RetreatBeforeMelee,
                "GBACW 12.94",
                "engaged units withdraw",
            )?;
            combat::engaged::withdraw(rs, state, side, units, path, dice)
        }
        A::DeclareCharge { target, attackers } => {
            turn.in_phase(
                Phase::RetreatBeforeMelee,
                "GBACW 16.24",
                "charges are declared",
            )?;
            combat::charge::declare(rs, state, side, *target, attackers)
        }
        _ => Err(not_this_phase()),
    }
}
