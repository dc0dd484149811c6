//! The actions of the phases after melee: rounds transferred and wagons
//! resupplying (GBACW 11.2, 11.33), lost leaders succeeded (17.8),
//! routed units rallied (13.5).

use super::{Turn, not_this_phase};
use crate::engine::{Dice, RuleCode, RuleError};
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::{combat, err};
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
        A::TransferRounds { from, to, rounds } => {
            turn.in_phase(
                Phase::AmmunitionResupply,
                "GBACW 11.33",
                "rounds are transferred",
            )?;
            combat::transfer::transfer(rs, state, side, from, to, *rounds)
        }
        A::Resupply { wagon, unit } => {
            turn.in_phase(Phase::AmmunitionResupply, "GBACW 11.23", "wagons resupply")?;
            combat::resupply::resupply(rs, state, side, wagon, unit)
        }
        A::ReplaceLeader { lost, hex } => {
            turn.in_phase(
                Phase::FinalCommand,
                "GBACW 17.8",
                "lost leaders are succeeded",
            )?;
            match combat::succession::succeed(rs, state, side, lost, Some(*hex))? {
                Some(e) => Ok(vec![e]),
                None => Err(err(
                    "GBACW 17.8",
                    RuleCode::Illegal,
                    format!("no unit of {lost}'s command is on the map"),
                )),
            }
        }
        A::Recrew { wagon, unit } => {
            turn.in_phase(Phase::FinalCommand, "GBACW 11.18", "wagons are recrewed")?;
            combat::recrew::recrew(rs, state, side, wagon, unit)
        }
        A::Rally { unit } => {
            turn.in_phase(Phase::Rally, "GBACW 13.51", "routed units rally")?;
            combat::rally::rally(rs, state, side, unit, dice)
        }
        _ => Err(not_this_phase()),
    }
}
