//! Corinth 21.43, 21.44: cavalry and their brigade commander's
//! Effectiveness Radius, on when the scenario has `hook
//! cavalry-formation-in-er`.
//!
//! - 21.43: "Cavalry units may only mount or dismount if they are in the
//!   Effectiveness Radius of their brigade commander at the moment the
//!   formation change is made." Measured when the change is asked for,
//!   as the Initial Command Phase measures (17.11: the commander's ER,
//!   with the Command Points spent on it this Player-Turn, traced past the
//!   enemy as 10.4). Out-of-command cavalry may not change formation
//!   either way (6.21, already the Standard Rules').
//! - 21.44: "A mounted cavalry unit is free to move even if it is out of
//!   its brigade commander's Effectiveness Radius": mounted cavalry out of
//!   command moves its whole allowance and need not shun enemy ZOCs.
//!
//! Independent cavalry (Adams') has no brigade commander to be near: it
//! mounts and dismounts freely (it is always in command, 5.3).

use crate::engine::{RuleCode, RuleError};
use crate::gbacw::command::{effective_radius, within_radius};
use crate::gbacw::oob::{Command, CounterId, Formation, UnitKind};
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::ruleset::{combat::succession, err};
use crate::gbacw::scenario::HookKind;

fn on(rs: &Gbacw) -> bool {
    super::hook(rs, HookKind::CavalryFormationInEr).is_some()
}

/// Corinth 21.44: whether `unit`, out of command, still moves freely
/// (mounted cavalry where the rule is on).
pub(crate) fn moves_freely(rs: &Gbacw, state: &GbacwState, unit: &CounterId) -> bool {
    on(rs)
        && matches!(
            rs.game.oob.units.get(unit).map(|u| &u.kind),
            Some(UnitKind::Cavalry)
        )
        && state
            .units
            .get(unit)
            .is_some_and(|u| u.status.formation == Formation::Mounted)
}

/// Whether `unit` stands inside its brigade commander's Effectiveness
/// Radius now (17.11 measured at this moment); independents always are.
fn in_radius_now(rs: &Gbacw, state: &GbacwState, unit: &CounterId) -> bool {
    let Some(hex) = state.units.get(unit).and_then(|u| u.hex) else {
        return false;
    };
    let Command::Brigade(b) = &rs.game.oob.units[unit].command else {
        return true;
    };
    let Some(commander) = succession::brigade_commander(state, b) else {
        return false;
    };
    let (Some(l), Some(ratings)) = (
        state.leaders.get(&commander),
        succession::brigade_ratings(rs, state, &commander),
    ) else {
        return false;
    };
    let Some(bh) = l.hex else { return false };
    let side = &rs.game.oob.units[unit].side;
    let blocks = Board::new(rs, state).command_blocks(side);
    let plus = l.augmented.as_ref().map_or(0, |(_, p)| *p);
    within_radius(
        &rs.game.map,
        &blocks,
        bh,
        hex,
        effective_radius(&ratings, plus),
    )
}

/// Corinth 21.43: a cavalry unit mounts or dismounts only inside its
/// brigade commander's ER. `Ok` where the rule is off or for other
/// changes.
pub(crate) fn check_change(
    rs: &Gbacw,
    state: &GbacwState,
    unit: &CounterId,
    to: Formation,
) -> Result<(), RuleError> {
    let is_cavalry = matches!(
        rs.game.oob.units.get(unit).map(|u| &u.kind),
        Some(UnitKind::Cavalry)
    );
    if !on(rs)
        || !is_cavalry
        || !matches!(to, Formation::Mounted | Formation::Dismounted)
        || in_radius_now(rs, state, unit)
    {
        return Ok(());
    }
    Err(err(
        &rs.case_rule("21.43"),
        RuleCode::Illegal,
        format!(
            "{unit} may mount or dismount only inside its brigade commander's Effectiveness Radius"
        ),
    ))
}
