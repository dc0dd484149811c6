//! GBACW 17.0–17.23, 17.6: the Initial Command Phase — Command Points,
//! detaching and attaching brigades, and who is in command.

use super::own_leader;
use crate::engine::{RuleCode, RuleError};
use crate::gbacw::command::{
    LinkOrder, PathBlocks, apply_link_order, effective_radius, is_detached, unit_in_command,
    within_radius,
};
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{BrigadeRatings, Command, CounterId, LeaderRole};
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::combat::succession;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::{CommandCheck, GbacwState};
use crate::gbacw::ruleset::{Gbacw, err};
use crate::gbacw::sequence::Phase;

/// A brigade commander's printed division and ratings, or a refusal.
fn brigade_role<'a>(
    rs: &'a Gbacw,
    id: &CounterId,
    rule: &str,
) -> Result<(Option<&'a CounterId>, BrigadeRatings), RuleError> {
    match &rs.game.oob.leaders[id].role {
        LeaderRole::Brigade {
            division, ratings, ..
        } => Ok((division.as_ref(), *ratings)),
        _ => Err(err(
            rule,
            RuleCode::Invalid,
            format!("{id} is not a brigade commander"),
        )),
    }
}

/// A division commander's Divisional Integrity Radius and Command Points.
fn division_role(rs: &Gbacw, id: &CounterId, rule: &str) -> Result<(u8, u8), RuleError> {
    match &rs.game.oob.leaders[id].role {
        LeaderRole::Division {
            integrity_radius,
            command_points,
            ..
        } => Ok((*integrity_radius, *command_points)),
        LeaderRole::Army { .. } => Err(err(
            "GBACW 17.3",
            RuleCode::Illegal,
            format!("{id} is an army commander: his Command Points are exclusive rules"),
        )),
        _ => Err(err(
            rule,
            RuleCode::Invalid,
            format!("{id} is not a division commander"),
        )),
    }
}

/// The division a brigade now answers to (17.6), if any: the one it is
/// attached to, else none if detached, else its original one.
pub(crate) fn current_division<'a>(
    rs: &'a Gbacw,
    state: &'a GbacwState,
    brigade: &CounterId,
) -> Option<&'a CounterId> {
    let original = match &rs.game.oob.leaders[brigade].role {
        LeaderRole::Brigade { division, .. } => division.as_ref(),
        _ => return None,
    };
    if let Some((d, _)) = state
        .links
        .iter()
        .find(|(_, l)| l.attached.as_ref() == Some(brigade))
    {
        return Some(d);
    }
    if is_detached(&state.links, brigade) {
        return None;
    }
    original
}

/// Whether `brigade_hex` lies in the Divisional Integrity Radius of
/// division commander `division` (10.4, 13.53: traced past the enemy).
fn in_radius(
    rs: &Gbacw,
    state: &GbacwState,
    blocks: &PathBlocks,
    division: &CounterId,
    brigade_hex: HexNumber,
) -> bool {
    // GBACW 17.83, 17.85: a promoted commander with his bracketed radius.
    let Some((leader, radius)) = succession::division_commander(rs, state, division) else {
        return false;
    };
    let Some(dh) = state.leaders.get(&leader).and_then(|l| l.hex) else {
        return false;
    };
    // The battle's own rule here (hook `radius_bonus`).
    let radius = radius.saturating_add(rs.battle().radius_bonus(rs, state, division));
    within_radius(&rs.game.map, blocks, dh, brigade_hex, radius)
}

/// GBACW 17.22: a division commander spends Command Points on a brigade
/// commander of his division within his Divisional Integrity Radius, one
/// point per hex of Effectiveness Radius; one commander augments a
/// brigade commander at a time.
pub(crate) fn spend(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    division: &CounterId,
    brigade: &CounterId,
    points: u8,
) -> Result<Vec<GbacwEvent>, RuleError> {
    // The battle's own rule here (hook `spend_command_points`).
    if let Some(r) = rs
        .battle()
        .spend_command_points(rs, state, side, division, brigade, points)
    {
        return r;
    }
    let (d, _) = own_leader(rs, state, side, division)?;
    let (_, cp) = division_role(rs, division, "GBACW 17.22")?;
    let (b, bh) = own_leader(rs, state, side, brigade)?;
    brigade_role(rs, brigade, "GBACW 17.22")?;
    if points == 0 {
        return Err(err(
            "GBACW 17.22",
            RuleCode::Invalid,
            "spend at least one Command Point",
        ));
    }
    let left = cp.saturating_sub(d.cp_spent);
    if points > left {
        return Err(err(
            "GBACW 17.22",
            RuleCode::Illegal,
            format!("{division} has {left} Command Points left this Player-Turn"),
        ));
    }
    if current_division(rs, state, brigade) != Some(division) {
        return Err(err(
            "GBACW 17.22",
            RuleCode::Illegal,
            format!("{brigade} is not a brigade of {division}'s division"),
        ));
    }
    if let Some((by, _)) = &b.augmented
        && by != division
    {
        return Err(err(
            "GBACW 17.22",
            RuleCode::Illegal,
            format!("{by} already augments {brigade}: one commander at a time"),
        ));
    }
    let blocks = Board::new(rs, state).command_blocks(side);
    if !in_radius(rs, state, &blocks, division, bh) {
        return Err(err(
            "GBACW 17.22",
            RuleCode::Illegal,
            format!("{brigade} is outside {division}'s Divisional Integrity Radius"),
        ));
    }
    Ok(vec![GbacwEvent::CommandPointsSpent {
        division: division.clone(),
        brigade: brigade.clone(),
        points,
    }])
}

/// GBACW 17.6–17.67: detach or attach a brigade by the rules of
/// [`apply_link_order`], measuring the radius of the division concerned
/// (his own for a detachment, the receiving one for an attachment).
fn link(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    brigade: &CounterId,
    division: Option<&CounterId>,
) -> Result<Vec<GbacwEvent>, RuleError> {
    // The battle's own rule here (hook `check_links`).
    rs.battle().check_links(rs)?;
    let (_, bh) = own_leader(rs, state, side, brigade)?;
    let (original, _) = brigade_role(rs, brigade, "GBACW 17.6")?;
    let (order, concerned) = match division {
        Some(to) => {
            own_leader(rs, state, side, to)?;
            division_role(rs, to, "GBACW 17.64")?;
            let order = LinkOrder::Attach {
                brigade: brigade.clone(),
                to: to.clone(),
            };
            (order, Some(to))
        }
        None => {
            let order = LinkOrder::Detach {
                brigade: brigade.clone(),
            };
            (order, original)
        }
    };
    let blocks = Board::new(rs, state).command_blocks(side);
    let within = concerned.is_some_and(|d| in_radius(rs, state, &blocks, d, bh));
    let mut links = state.links.clone();
    // 17.67, Cedar Mountain 24.2: a brigade past its BCE limit is not
    // detached (it may still be attached if already detached).
    let bce_lost = crate::gbacw::ruleset::exclusive::bce_loss::brigade_at_limit(rs, state, brigade);
    apply_link_order(
        &rs.game.oob,
        &mut links,
        &order,
        Phase::InitialCommand,
        within,
        bce_lost,
    )
    .map_err(|rule| {
        err(
            rule,
            RuleCode::Illegal,
            match &order {
                LinkOrder::Detach { .. } => format!("{brigade} may not be detached now"),
                LinkOrder::Attach { to, .. } => {
                    format!("{brigade} may not be attached to {to} now")
                }
            },
        )
    })?;
    // One event per division whose links changed.
    let divisions: std::collections::BTreeSet<&CounterId> =
        links.keys().chain(state.links.keys()).collect();
    Ok(divisions
        .into_iter()
        .filter(|d| links.get(*d) != state.links.get(*d))
        .map(|d| GbacwEvent::LinksChanged {
            division: d.clone(),
            links: links.get(d).cloned().unwrap_or_default(),
        })
        .collect())
}

/// GBACW 17.61–17.63: detach a brigade from its division.
pub(crate) fn detach(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    brigade: &CounterId,
) -> Result<Vec<GbacwEvent>, RuleError> {
    link(rs, state, side, brigade, None)
}

/// GBACW 17.64, 17.66: attach a detached or independent brigade to a
/// division.
pub(crate) fn attach(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    brigade: &CounterId,
    division: &CounterId,
) -> Result<Vec<GbacwEvent>, RuleError> {
    link(rs, state, side, brigade, Some(division))
}

/// GBACW 17.0: the Initial Command Phase's check for `side`.
/// - 17.21: brigade commanders outside their division commander's
///   Divisional Integrity Radius, neither detached nor independent.
/// - 17.11, 17.12, 17.23, 17.1, 5.3: units in command are independent,
///   stacked with a friendly leader, or within their brigade commander's
///   (augmented) Effectiveness Radius; 5.2 (004): whether that commander
///   is himself in radius does not matter.
pub(crate) fn check(rs: &Gbacw, state: &GbacwState, side: &CounterId) -> CommandCheck {
    let board = Board::new(rs, state);
    let blocks = board.command_blocks(side);
    let oob = &rs.game.oob;
    let mut out = CommandCheck::default();
    for (id, leader) in &oob.leaders {
        if leader.side != *side || !matches!(leader.role, LeaderRole::Brigade { .. }) {
            continue;
        }
        // GBACW 17.81–17.83: whoever leads the brigade now.
        let Some(commander) = succession::brigade_commander(state, id) else {
            continue;
        };
        let Some(hex) = state.leaders.get(&commander).and_then(|l| l.hex) else {
            continue;
        };
        // The battle's own rule here (hook `no_divisional_integrity`).
        if let Some(d) = current_division(rs, state, id)
            && !rs.battle().no_divisional_integrity(rs)
            && !in_radius(rs, state, &blocks, d, hex)
        {
            out.out_of_radius.insert(commander);
        }
    }
    for (id, u) in &state.units {
        let Some(hex) = u.hex else { continue };
        let unit = &oob.units[id];
        if unit.side != *side {
            continue;
        }
        // Corinth 28.14: Price commands none of Lovell's units.
        let with_leader = crate::gbacw::ruleset::leader_reach::stacked_for(&board, hex, side, id);
        let within = match &unit.command {
            Command::Independent => true,
            Command::Brigade(b) => {
                // GBACW 17.81–17.83: whoever leads the brigade now, with
                // the ratings his counter shows.
                let commander = succession::brigade_commander(state, b);
                let leader = commander.as_ref().and_then(|c| state.leaders.get(c));
                let ratings = commander
                    .as_ref()
                    .and_then(|c| succession::brigade_ratings(rs, state, c));
                match (leader, ratings) {
                    // GBACW 12.94: "Leaders that are "engaged" ... nor do
                    // they have Effectiveness Radii" — units away from an
                    // engaged brigade commander are not within his radius.
                    (Some(l), Some(ratings)) => l.hex.is_some_and(|bh| {
                        if crate::gbacw::ruleset::combat::rally::leader_engaged(rs, state, side, bh)
                            && bh != hex
                        {
                            return false;
                        }
                        let plus = l.augmented.as_ref().map_or(0, |(_, p)| *p);
                        within_radius(
                            &rs.game.map,
                            &blocks,
                            bh,
                            hex,
                            effective_radius(&ratings, plus),
                        )
                    }),
                    _ => false,
                }
            }
        };
        if !unit_in_command(&unit.command, within, with_leader) {
            out.out_of_command.insert(id.clone());
        }
    }
    // Cedar Mountain 24.2: a detached, unattached brigade at its BCE
    // limit is out of command.
    out.out_of_command.extend(
        crate::gbacw::ruleset::exclusive::bce_loss::stranded_units(rs, state, side).cloned(),
    );
    out
}
