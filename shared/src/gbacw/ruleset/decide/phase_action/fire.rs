//! The Fire Phases' actions (GBACW 9.0) and a battle's own fire actions.

use super::{Turn, not_this_phase};
use crate::engine::{Dice, RuleCode, RuleError};
use crate::gbacw::fire::FireOccasion;
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::CounterId;
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::decide::{check_free, fire_occasion};
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::FireShare;
use crate::gbacw::ruleset::{combat, err};

/// The checks of this part's actions.
pub(super) fn decide(
    turn: &Turn<'_>,
    action: &GbacwAction,
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    use GbacwAction as A;
    let (rs, state, side, phase) = (turn.rs, turn.state, turn.side, turn.phase);
    match action {
        A::DeclareFire { target, firers } => declare(turn, *target, firers),
        // The battle's own fire actions, in a Fire Phase (hooks
        // `rapid_fire`, `unfoul`).
        A::RapidFire { index } => {
            fire_occasion(phase)
                .ok_or_else(|| err("GBACW 4.0", RuleCode::Illegal, "no Fire Phase is running"))?;
            rs.battle().rapid_fire(rs, state, side, *index)
        }
        A::Unfoul { unit } => rs.battle().unfoul(rs, state, side, unit, dice),
        A::CancelFire { index } => {
            fire_occasion(phase)
                .ok_or_else(|| err("GBACW 4.0", RuleCode::Illegal, "no Fire Phase is running"))?;
            combat::declare::cancel(state, *index)
        }
        _ => Err(not_this_phase()),
    }
}

/// GBACW 9.0: fire declared in a Fire Phase.
fn declare(
    turn: &Turn<'_>,
    target: HexNumber,
    firers: &[FireShare],
) -> Result<Vec<GbacwEvent>, RuleError> {
    let (rs, state, side, phase) = (turn.rs, turn.state, turn.side, turn.phase);
    let occasion = fire_occasion(phase).ok_or_else(|| {
        err(
            "GBACW 4.0",
            RuleCode::Illegal,
            "units fire only in the Defensive and Offensive Fire Phases (or withdrawal fire)",
        )
    })?;
    // Counters held back may fire defensively only.
    if occasion == FireOccasion::Offensive {
        let units: Vec<&CounterId> = firers.iter().map(|f| &f.unit).collect();
        check_free(rs, state, &units, "fire offensively")?;
    }
    // Pieces the battle holds that fire not at all (hook
    // `check_not_held`).
    let units: Vec<&CounterId> = firers.iter().map(|f| &f.unit).collect();
    rs.battle().check_not_held(rs, state, &units, "fire")?;
    combat::declare::declare(rs, state, side, occasion, target, firers)
}
