//! The Initial Command Phase's actions (GBACW 17.2, 17.6) and a
//! scenario's reserves committed.

use super::{Turn, not_this_phase};
use crate::engine::{Dice, RuleError};
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::decide::command;
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
        A::SpendCommandPoints {
            division,
            brigade,
            points,
        } => {
            turn.in_phase(
                Phase::InitialCommand,
                "GBACW 17.22",
                "Command Points are spent",
            )?;
            command::spend(rs, state, side, division, brigade, *points)
        }
        A::Detach { brigade } => {
            turn.in_phase(
                Phase::InitialCommand,
                "GBACW 17.61",
                "brigades are detached",
            )?;
            command::detach(rs, state, side, brigade)
        }
        A::Attach { brigade, division } => {
            turn.in_phase(
                Phase::InitialCommand,
                "GBACW 17.64",
                "brigades are attached",
            )?;
            command::attach(rs, state, side, brigade, division)
        }
        // The scenario's reserves, by the battle's rule (hook
        // `commit_reserve`).
        A::CommitReserve { reserve } => rs.battle().commit_reserve(rs, state, side, reserve, dice),
        _ => Err(not_this_phase()),
    }
}
