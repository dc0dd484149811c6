//! Corinth 21.2 and 28.0: the command structure.
//!
//! - 21.2 (`hook no-divisional-integrity`): "Divisional Integrity (17.21)
//!   does not apply ... all brigades in the game are classified as
//!   independent." No brigade commander is ever outside a radius, and
//!   none is detached or attached (there is nothing to leave).
//! - 28.11, 28.14, 28.21 (`hook army-brigade-points within=3
//!   price-reach=armstrong`): army commanders spend their Command Points
//!   on the Effectiveness Radius of any brigade commander of their side
//!   within three hexes; Price only on the Army of the West's; division
//!   commanders only on their own division's brigade commanders, at any
//!   distance (they have no Divisional Integrity Radius, 28.2, and 28.21
//!   names no other limit). The spending is the Standard Rules' action
//!   and event (`SpendCommandPoints`, `CommandPointsSpent`), as Cedar
//!   Mountain 25.1 (`cedar/army.rs`) does for division radii.
//! - 28.32 (`hook promotion-by-rank cp=1`): the promoted brigade
//!   commander is the division's highest-ranked, then the higher ER; the
//!   rest of the promotion is 17.83's (`combat/succession.rs`), and the
//!   new division commander has one Command Point.
//! - 28.31 (army commanders never replaced) and 28.33 (brigade commanders
//!   flip, 17.81) are the Standard succession's own answers.

use crate::engine::{RuleCode, RuleError};
use crate::gbacw::oob::{Command, CounterId, LeaderRole};
use crate::gbacw::ruleset::combat::succession;
use crate::gbacw::ruleset::decide::own_leader;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::ruleset::{Gbacw, err};
use crate::gbacw::scenario::HookKind;
use std::cmp::Reverse;

/// Corinth 21.2: whether divisional integrity is off.
pub(crate) fn no_divisional_integrity(rs: &Gbacw) -> bool {
    super::hook(rs, HookKind::NoDivisionalIntegrity).is_some()
}

/// Corinth 21.2: detaching and attaching are refused (every brigade is
/// independent already). `Ok` where the rule is off.
pub(crate) fn check_links(rs: &Gbacw) -> Result<(), RuleError> {
    if !no_divisional_integrity(rs) {
        return Ok(());
    }
    Err(err(
        &rs.case_rule("21.2"),
        RuleCode::Illegal,
        "every brigade is independent: there is no divisional integrity to detach from or attach to",
    ))
}

/// Who may spend Command Points at Corinth, and on whom.
enum Spender {
    /// 28.11: an army commander.
    Army,
    /// 28.21: the commander of `division` (the division commander himself,
    /// or the brigade commander promoted to lead it, 28.32).
    Division(CounterId),
}

/// The spender's role and Command Points, if he has any.
fn spender(rs: &Gbacw, state: &GbacwState, leader: &CounterId) -> Option<(Spender, u8)> {
    match &rs.game.oob.leaders.get(leader)?.role {
        LeaderRole::Army { command_points } => Some((Spender::Army, *command_points)),
        LeaderRole::Division { command_points, .. } => {
            Some((Spender::Division(leader.clone()), *command_points))
        }
        LeaderRole::Brigade { .. } => {
            let division = state
                .succession
                .promoted
                .iter()
                .find(|(_, p)| *p == leader)
                .map(|(d, _)| d.clone())?;
            Some((Spender::Division(division), promoted_command_points(rs)))
        }
        LeaderRole::Replacement { .. } => None,
    }
}

/// Corinth 28.32: "The new division commander has one Command Point
/// (regardless of his brigade values)."
fn promoted_command_points(rs: &Gbacw) -> u8 {
    super::hook(rs, HookKind::PromotionByRank)
        .and_then(|h| h.number("cp"))
        .map_or(1, |n| u8::try_from(n).unwrap_or(1))
}

/// The brigade (its original commander's id) `leader` commands now, if
/// he commands one: a brigade commander not promoted away, or a stand-in.
fn brigade_of(rs: &Gbacw, state: &GbacwState, leader: &CounterId) -> Option<CounterId> {
    let s = &state.succession;
    if let Some((b, _)) = s.stand_ins.iter().find(|(_, x)| *x == leader) {
        return Some(b.clone());
    }
    match rs.game.oob.leaders.get(leader)?.role {
        LeaderRole::Brigade { .. } if !s.promoted.values().any(|p| p == leader) => {
            Some(leader.clone())
        }
        _ => None,
    }
}

/// Corinth 28.14: whether army commander `army` may affect `brigade`:
/// without `ARMY-reach=` any brigade of his side; with it, the brigades of
/// the divisions under him (the OOB's `army=`) and the brigades listed.
/// Price's `price-reach=armstrong`: Hebert's and Maury's divisions and
/// Armstrong's cavalry (the reserve artillery is independent batteries,
/// no brigade commander to raise); Jackson's cavalry, listed under the
/// Army of the District of Mississippi, is derived to be outside it.
pub(crate) fn army_reaches(rs: &Gbacw, army: &CounterId, brigade: &CounterId) -> bool {
    let Some(reach) = super::hook(rs, HookKind::ArmyBrigadePoints)
        .and_then(|h| h.param(&format!("{}-reach", army.0)))
    else {
        return true;
    };
    if reach.split(',').any(|b| b == brigade.0) {
        return true;
    }
    let oob = &rs.game.oob;
    let division = match oob.leaders.get(brigade).map(|l| &l.role) {
        Some(LeaderRole::Brigade {
            division: Some(d), ..
        }) => d,
        _ => return false,
    };
    matches!(
        oob.leaders.get(division).map(|l| &l.role),
        Some(LeaderRole::Division { army: Some(a), .. }) if a == army
    )
}

/// Corinth 28.11, 28.14, 28.21, 28.32: `leader` spends `points` on the
/// Effectiveness Radius of brigade commander `receiver`. `None` where the
/// rule is off: the Standard Rules (17.22) or Cedar Mountain decide.
pub(crate) fn spend(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    leader: &CounterId,
    receiver: &CounterId,
    points: u8,
) -> Option<Result<Vec<GbacwEvent>, RuleError>> {
    let hook = super::hook(rs, HookKind::ArmyBrigadePoints)?;
    let within = hook.number("within").unwrap_or(3);
    Some(spend_checked(
        rs, state, side, leader, receiver, points, within,
    ))
}

fn spend_checked(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    leader: &CounterId,
    receiver: &CounterId,
    points: u8,
    within: u16,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let (l, lh) = own_leader(rs, state, side, leader)?;
    let (r, rh) = own_leader(rs, state, side, receiver)?;
    let Some((who, command_points)) = spender(rs, state, leader) else {
        return Err(err(
            &rs.case_rule("28.2"),
            RuleCode::Illegal,
            format!("{leader} has no Command Points: only army and division commanders spend them"),
        ));
    };
    let Some(brigade) = brigade_of(rs, state, receiver) else {
        return Err(err(
            &rs.case_rule("28.11"),
            RuleCode::Illegal,
            format!(
                "{receiver} is not a brigade commander: Command Points raise a brigade commander's Effectiveness Radius"
            ),
        ));
    };
    if points == 0 {
        return Err(err(
            &rs.case_rule("28.11"),
            RuleCode::Invalid,
            "spend at least one Command Point",
        ));
    }
    match &who {
        Spender::Army => {
            if rs.game.map.grid.distance(lh, rh) > u32::from(within) {
                return Err(err(
                    &rs.case_rule("28.11"),
                    RuleCode::Illegal,
                    format!("{receiver} is not within {within} hexes of {leader}"),
                ));
            }
            if !army_reaches(rs, leader, &brigade) {
                return Err(err(
                    &rs.case_rule("28.14"),
                    RuleCode::Illegal,
                    format!(
                        "{leader} commands only his own army: {brigade}'s brigade is not in it"
                    ),
                ));
            }
        }
        Spender::Division(division) => {
            let own = matches!(
                rs.game.oob.leaders.get(&brigade).map(|b| &b.role),
                Some(LeaderRole::Brigade { division: Some(d), .. }) if d == division
            );
            if !own {
                return Err(err(
                    &rs.case_rule("28.21"),
                    RuleCode::Illegal,
                    format!(
                        "{leader} raises only the radii of his own division's brigade commanders; {brigade}'s is not one"
                    ),
                ));
            }
        }
    }
    let left = command_points.saturating_sub(l.cp_spent);
    if points > left {
        return Err(err(
            &rs.case_rule("28.11"),
            RuleCode::Illegal,
            format!("{leader} has {left} Command Points left this Player-Turn"),
        ));
    }
    if let Some((by, _)) = &r.augmented
        && by != leader
    {
        return Err(err(
            "GBACW 17.22",
            RuleCode::Illegal,
            format!("{by} already augments {receiver}: one commander at a time"),
        ));
    }
    Ok(vec![GbacwEvent::CommandPointsSpent {
        division: leader.clone(),
        brigade: receiver.clone(),
        points,
    }])
}

/// Corinth 28.32's order of a candidate: the highest rank (20.2) first,
/// then the higher Effectiveness Radius.
fn rank_key(rs: &Gbacw, state: &GbacwState, c: &CounterId) -> (Reverse<u8>, Reverse<u8>) {
    let rank = rs.game.oob.extras_of(c).rank.map_or(0, |r| r.seniority());
    let er = succession::brigade_ratings(rs, state, c).map_or(0, |r| r.effectiveness_radius);
    (Reverse(rank), Reverse(er))
}

/// Corinth 28.32: the promotion candidates in the rule's order: the
/// highest rank (20.2), then the higher Effectiveness Radius; among a tie
/// left after both, by id (the order a timeout's default takes). The
/// player's choice on that tie is a decision ([`tied`],
/// `awaiting::promotion`). Unchanged where the rule is off.
pub(crate) fn by_rank(rs: &Gbacw, state: &GbacwState, mut chain: Vec<CounterId>) -> Vec<CounterId> {
    if super::hook(rs, HookKind::PromotionByRank).is_none() {
        return chain;
    }
    chain.sort_by_key(|c| rank_key(rs, state, c));
    chain
}

/// Corinth 28.32: "If two or more brigade commanders have the same rank,
/// the one with the highest Effectiveness Radius is promoted. If there is
/// still a tie, the player has his choice." How many of `chain`'s first
/// candidates (in [`by_rank`]'s order) share the first one's rank and
/// radius; 1 where the rule is off.
pub(crate) fn tied(rs: &Gbacw, state: &GbacwState, chain: &[CounterId]) -> usize {
    if super::hook(rs, HookKind::PromotionByRank).is_none() {
        return 1;
    }
    let Some(first) = chain.first().map(|c| rank_key(rs, state, c)) else {
        return 1;
    };
    chain
        .iter()
        .take_while(|c| rank_key(rs, state, c) == first)
        .count()
}

/// Corinth 28.14: whether `leader` may affect `unit` at all. An army
/// commander with `ARMY-reach=` on the `army-brigade-points` hook affects
/// only the units of the brigades he reaches
/// ([`army_reaches`]) and, of the independent units, all
/// but those listed in `ARMY-not=` (Price: `supply-lovell`, Lovell's
/// division's wagon, independent by 11.13 but "in Lovell's division");
/// the other independents (Adams' cavalry, the reserve artillery, the
/// Army of the West's wagons) are within his reach. Every other leader
/// affects every friendly unit.
pub(crate) fn leader_may_affect(rs: &Gbacw, leader: &CounterId, unit: &CounterId) -> bool {
    if !matches!(
        rs.game.oob.leaders.get(leader).map(|l| &l.role),
        Some(LeaderRole::Army { .. })
    ) {
        return true;
    }
    let hook = rs.game.scenario.hook(HookKind::ArmyBrigadePoints);
    let excluded = hook
        .and_then(|h| h.param(&format!("{}-not", leader.0)))
        .is_some_and(|v| v.split(',').any(|u| u == unit.0));
    if excluded {
        return false;
    }
    match rs.game.oob.units.get(unit).map(|u| &u.command) {
        Some(Command::Brigade(b)) => army_reaches(rs, leader, b),
        _ => true,
    }
}
