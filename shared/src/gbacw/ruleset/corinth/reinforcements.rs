//! Corinth 29.47: "Reinforcements enter the game in column formation, and
//! must stay in column until they come within the Effectiveness Radii of
//! their brigade commanders or until they are attacked."
//!
//! The hook's `units=` may not change formation out of column unless they
//! stand within their brigade commander's Effectiveness Radius (counted
//! in hexes, as printed, 17.11; augmentation by Command Points ignored) or
//! have been attacked (fire or melee declared on their hex), which the
//! engine records (`ReinforcementsAttacked`). "If they change into line
//! formation, they are out of command if outside [the radius]" is then the
//! ordinary command check (17.1).
//!
//! Reading: "until they come within" is checked when the change is asked
//! for; a unit that came within the radius and left it again is held once
//! more (no record is kept of having been within).

use crate::engine::{RuleCode, RuleError};
use crate::gbacw::oob::{Command, CounterId, Formation};
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::combat::succession;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::ruleset::{Gbacw, err};
use crate::gbacw::scenario::{Hook, HookKind};
use std::collections::BTreeSet;

fn hook(rs: &Gbacw) -> Option<&Hook> {
    rs.game.scenario.hook(HookKind::ReinforcementColumn)
}

fn listed(h: &Hook, unit: &CounterId) -> bool {
    h.param("units")
        .is_some_and(|v| v.split(',').any(|u| u == unit.0))
}

/// Whether `unit` stands within its brigade commander's radius.
fn within_radius(rs: &Gbacw, state: &GbacwState, unit: &CounterId) -> bool {
    let Some(at) = state.units.get(unit).and_then(|u| u.hex) else {
        return false;
    };
    let Some(Command::Brigade(b)) = rs.game.oob.units.get(unit).map(|u| &u.command) else {
        return true;
    };
    let Some(commander) = succession::brigade_commander(state, b) else {
        return false;
    };
    let (Some(ch), Some(ratings)) = (
        state.leaders.get(&commander).and_then(|l| l.hex),
        succession::brigade_ratings(rs, state, &commander),
    ) else {
        return false;
    };
    rs.game.map.grid.distance(at, ch) <= u32::from(ratings.effectiveness_radius)
}

/// Refuse a change out of column the rule forbids.
pub(crate) fn check_formation(
    rs: &Gbacw,
    state: &GbacwState,
    unit: &CounterId,
    to: Formation,
) -> Result<(), RuleError> {
    let Some(h) = hook(rs) else { return Ok(()) };
    if !listed(h, unit) || to == Formation::Column {
        return Ok(());
    }
    let in_column = state
        .units
        .get(unit)
        .is_some_and(|u| u.status.formation == Formation::Column);
    if !in_column || state.reinforcements_attacked.contains(unit) || within_radius(rs, state, unit)
    {
        return Ok(());
    }
    Err(err(
        &rs.case_rule("29.47"),
        RuleCode::Illegal,
        format!(
            "{unit} is a reinforcement: it stays in column until within its brigade commander's Effectiveness Radius or attacked"
        ),
    ))
}

/// Fire or melee declared on a hex holding listed units: they are free to
/// leave column from now on.
pub(crate) fn attacked(rs: &Gbacw, state: &GbacwState, action: &GbacwAction) -> Option<GbacwEvent> {
    let h = hook(rs)?;
    let target = match action {
        GbacwAction::DeclareFire { target, .. } | GbacwAction::DeclareMelee { target, .. } => {
            *target
        }
        _ => return None,
    };
    let units: BTreeSet<CounterId> = state
        .units
        .iter()
        .filter(|(id, u)| {
            u.hex == Some(target) && listed(h, id) && !state.reinforcements_attacked.contains(*id)
        })
        .map(|(id, _)| id.clone())
        .collect();
    (!units.is_empty()).then(|| GbacwEvent::ReinforcementsAttacked {
        units,
        case: rs.case_rule("29.47"),
    })
}
