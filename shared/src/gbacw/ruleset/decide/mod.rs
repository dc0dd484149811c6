//! Validating actions into events. Who may act is checked here; each
//! submodule checks one part of the rules.

mod command;
pub(crate) mod formation;
pub(crate) mod movement;
mod phase_action;
mod sequence;

pub(crate) use phase_action::phase_action;
pub(crate) use sequence::{excess_due, melee_due};
pub(crate) mod withdrawal;
// Historical scenarios.
pub(crate) mod arrival;
mod arrival_order;
pub(crate) mod setup;
pub(crate) mod turns;

use super::action::GbacwAction;
use super::event::GbacwEvent;
use super::state::GbacwState;
use super::{Gbacw, err};
use crate::engine::{Dice, RuleCode, RuleError};
use crate::gbacw::fire::FireOccasion;
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::CounterId;
use crate::gbacw::sequence::Phase;
use crate::ids::SeatId;

/// `seat`'s `action` decided against what the game waits for
/// ([`super::awaiting`]): the one dispatch every caller goes through.
pub(crate) fn decide(
    rs: &Gbacw,
    state: &GbacwState,
    seat: SeatId,
    action: &GbacwAction,
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    rs.awaiting(state).decide(rs, state, seat, action, dice)
}

/// Refuse `what` if any of `pieces` is held where it stands (hook
/// `held`: counters a scenario or a battle holds back).
pub(crate) fn check_free(
    rs: &Gbacw,
    state: &GbacwState,
    pieces: &[&CounterId],
    what: &str,
) -> Result<(), RuleError> {
    for p in pieces {
        if let Some((rule, why)) = rs.battle().held(rs, state, p) {
            return Err(err(
                &rule,
                RuleCode::Illegal,
                format!("{p} may not {what}: {why}"),
            ));
        }
    }
    Ok(())
}

/// GBACW 4.0 C, D: the kind of fire a Fire Phase holds.
pub(crate) fn fire_occasion(phase: Option<Phase>) -> Option<FireOccasion> {
    match phase {
        Some(Phase::DefensiveFire) => Some(FireOccasion::Defensive),
        Some(Phase::OffensiveFire) => Some(FireOccasion::Offensive),
        _ => None,
    }
}

/// The unit `id` of `side`, on the map: `NotFound`, `NotYours` or a
/// refusal naming 5.0 otherwise.
pub(crate) fn own_unit<'s>(
    rs: &Gbacw,
    state: &'s GbacwState,
    side: &CounterId,
    id: &CounterId,
) -> Result<(&'s super::state::UnitState, HexNumber), RuleError> {
    let u = state.units.get(id).ok_or_else(|| {
        err(
            "GBACW 3.3",
            RuleCode::NotFound,
            format!("there is no unit {id}"),
        )
    })?;
    if rs.game.oob.units[id].side != *side {
        return Err(err(
            "GBACW 3.3",
            RuleCode::NotYours,
            format!("{id} is the enemy's"),
        ));
    }
    match u.hex {
        Some(hex) => Ok((u, hex)),
        None => Err(err(
            "GBACW 5.0",
            RuleCode::Illegal,
            format!("{id} is not on the map"),
        )),
    }
}

/// The leader `id` of `side`, on the map.
pub(crate) fn own_leader<'s>(
    rs: &Gbacw,
    state: &'s GbacwState,
    side: &CounterId,
    id: &CounterId,
) -> Result<(&'s super::state::LeaderState, HexNumber), RuleError> {
    let l = state.leaders.get(id).ok_or_else(|| {
        err(
            "GBACW 3.3",
            RuleCode::NotFound,
            format!("there is no leader {id}"),
        )
    })?;
    if rs.game.oob.leaders[id].side != *side {
        return Err(err(
            "GBACW 3.3",
            RuleCode::NotYours,
            format!("{id} is the enemy's"),
        ));
    }
    match l.hex {
        Some(hex) => Ok((l, hex)),
        None => Err(err(
            "GBACW 17.0",
            RuleCode::Illegal,
            format!("{id} is not on the map"),
        )),
    }
}

/// GBACW 17.0: the command check, for queries.
pub(crate) fn command_check(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
) -> super::state::CommandCheck {
    command::check(rs, state, side)
}
