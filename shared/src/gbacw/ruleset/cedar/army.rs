//! Cedar Mountain 25.1, 25.2: the army commanders' Command Points raise a
//! division commander's Divisional Integrity Radius (not a brigade
//! commander's Effectiveness Radius, as at Corinth). On when the scenario
//! has `hook army-command-points adds-to=division-radius`; its
//! `ARMY-within=N` and `ARMY-per-division=N` parameters carry Jackson's
//! three-hex limit (25.1) and Banks' one point to one commander (25.2).
//!
//! The spending is the Standard Rules' action and event
//! (`SpendCommandPoints`, `CommandPointsSpent`) with the army commander
//! in the `division` place and the division commander in the `brigade`
//! place: the event's fold already charges the spender and records the
//! points on the receiver (`LeaderState::augmented`), and both reset at
//! the next Initial Command Phase (25.1 "each Game-Turn").

use crate::engine::{RuleCode, RuleError};
use crate::gbacw::oob::{CounterId, LeaderRole};
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::ruleset::{Gbacw, decide::own_leader, err};
use crate::gbacw::scenario::HookKind;

/// Whether this battle's army commanders raise division radii.
fn on(rs: &Gbacw) -> bool {
    super::hook(rs, HookKind::ArmyCommandPoints)
        .is_some_and(|h| h.param("adds-to") == Some("division-radius"))
}

/// Cedar Mountain 25.1, 25.2: hexes an army commander's points add to
/// `division`'s Divisional Integrity Radius this Player-Turn.
pub(crate) fn radius_bonus(rs: &Gbacw, state: &GbacwState, division: &CounterId) -> u8 {
    if !on(rs) {
        return 0;
    }
    match state
        .leaders
        .get(division)
        .and_then(|l| l.augmented.as_ref())
    {
        Some((by, points))
            if matches!(
                rs.game.oob.leaders.get(by).map(|l| &l.role),
                Some(LeaderRole::Army { .. })
            ) =>
        {
            *points
        }
        _ => 0,
    }
}

/// Cedar Mountain 25.1, 25.2: `army` spends `points` on `division`'s
/// radius. `None` when the rule is off or `army` is no army commander:
/// the Standard Rules decide (17.3 refuses army points).
pub(crate) fn spend(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    army: &CounterId,
    division: &CounterId,
    points: u8,
) -> Option<Result<Vec<GbacwEvent>, RuleError>> {
    let Some(LeaderRole::Army { command_points }) = rs.game.oob.leaders.get(army).map(|l| &l.role)
    else {
        return None;
    };
    if !on(rs) {
        return None;
    }
    Some(spend_checked(
        rs,
        state,
        side,
        army,
        *command_points,
        division,
        points,
    ))
}

fn spend_checked(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    army: &CounterId,
    command_points: u8,
    division: &CounterId,
    points: u8,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let rule = super::case(rs, "25.1");
    let hook = super::hook(rs, HookKind::ArmyCommandPoints);
    let (a, ah) = own_leader(rs, state, side, army)?;
    let (d, dh) = own_leader(rs, state, side, division)?;
    if !matches!(
        rs.game.oob.leaders[division].role,
        LeaderRole::Division { .. }
    ) {
        return Err(err(
            &rule,
            RuleCode::Illegal,
            format!(
                "{army}'s Command Points raise a division commander's radius; {division} is not one"
            ),
        ));
    }
    if points == 0 {
        return Err(err(
            &rule,
            RuleCode::Invalid,
            "spend at least one Command Point",
        ));
    }
    let left = command_points.saturating_sub(a.cp_spent);
    if points > left {
        return Err(err(
            &rule,
            RuleCode::Illegal,
            format!("{army} has {left} Command Points left this Game-Turn"),
        ));
    }
    // 25.2: Banks raises one division commander's radius by one.
    let per_division = hook.and_then(|h| h.number(&format!("{}-per-division", army.0)));
    let already = radius_bonus(rs, state, division);
    if let Some(cap) = per_division
        && u16::from(already) + u16::from(points) > cap
    {
        return Err(err(
            &super::case(rs, "25.2"),
            RuleCode::Illegal,
            format!("{army} raises a division commander's radius by {cap} at most"),
        ));
    }
    // 25.1: Jackson's division commanders within three hexes of him.
    if let Some(within) = hook.and_then(|h| h.number(&format!("{}-within", army.0)))
        && rs.game.map.grid.distance(ah, dh) > u32::from(within)
    {
        return Err(err(
            &rule,
            RuleCode::Illegal,
            format!("{division} is not within {within} hexes of {army}"),
        ));
    }
    if let Some((by, _)) = &d.augmented
        && by != army
    {
        return Err(err(
            &rule,
            RuleCode::Illegal,
            format!("{by} already raises {division}'s radius"),
        ));
    }
    Ok(vec![GbacwEvent::CommandPointsSpent {
        division: army.clone(),
        brigade: division.clone(),
        points,
    }])
}
