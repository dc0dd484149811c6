//! Cedar Mountain 24.0: what a brigade that has lost its Brigade Combat
//! Effectiveness (GBACW 18.0, `ruleset/bce.rs`) may no longer do. On when
//! the scenario has `hook bce-loss`.

use super::super::board::Board;
use super::super::event::GbacwEvent;
use super::super::state::GbacwState;
use super::super::{Gbacw, bce, err};
use crate::engine::{RuleCode, RuleError};
use crate::gbacw::command::{effective_radius, is_detached, within_radius};
use crate::gbacw::oob::{Command, CounterId, LeaderRole, Marker, Morale, UnitKind};
use crate::gbacw::scenario::HookKind;

fn on(rs: &Gbacw) -> bool {
    super::hook(rs, HookKind::BceLoss).is_some()
}

/// Whether 24.0 applies to `unit` now: the rule is on and its brigade has
/// reached its BCE limit.
pub(crate) fn broken(rs: &Gbacw, state: &GbacwState, unit: &CounterId) -> bool {
    on(rs) && bce::unit_at_limit(rs, state, unit)
}

/// The brigades 24.0 applies to now (none when the rule is off).
pub(crate) fn broken_brigades(
    rs: &Gbacw,
    state: &GbacwState,
) -> std::collections::BTreeSet<CounterId> {
    if on(rs) {
        bce::lost_brigades(rs, state)
    } else {
        Default::default()
    }
}

fn foot_or_horse(rs: &Gbacw, unit: &CounterId) -> bool {
    rs.game
        .oob
        .units
        .get(unit)
        .is_some_and(|u| matches!(u.kind, UnitKind::Infantry | UnitKind::Cavalry))
}

/// Cedar Mountain 24.11: 1 is added to the die of every morale check of
/// an infantry or cavalry unit of a brigade that has lost BCE.
pub(crate) fn morale_modifier(rs: &Gbacw, state: &GbacwState, unit: &CounterId) -> i16 {
    i16::from(foot_or_horse(rs, unit) && broken(rs, state, unit))
}

/// Cedar Mountain 24.12: no unit of a brigade that has lost BCE initiates
/// melee; one already engaged melees normally.
pub(crate) fn may_initiate_melee(
    rs: &Gbacw,
    state: &GbacwState,
    unit: &CounterId,
) -> Result<(), RuleError> {
    let engaged = state
        .units
        .get(unit)
        .is_some_and(|u| u.status.markers.contains(&Marker::Engaged));
    if broken(rs, state, unit) && !engaged {
        return Err(err(
            &super::case(rs, "24.12"),
            RuleCode::Illegal,
            format!(
                "{unit}'s brigade has lost its Brigade Combat Effectiveness: it may not initiate melee"
            ),
        ));
    }
    Ok(())
}

/// Cedar Mountain 24.13: fire with a non-artillery unit of a brigade that
/// has lost BCE among the firers is read one Fire Strength column to the
/// left, even combined with others. Returns the columns (0 or 1).
pub(crate) fn fire_columns_left(rs: &Gbacw, state: &GbacwState, firers: &[CounterId]) -> u8 {
    let any = firers.iter().any(|f| {
        rs.game
            .oob
            .units
            .get(f)
            .is_some_and(|u| !matches!(u.kind, UnitKind::Battery { .. }))
            && broken(rs, state, f)
    });
    u8::from(any)
}

/// Cedar Mountain 24.14: a unit of a brigade at its BCE limit may not
/// voluntarily enter an enemy Zone of Control (one that starts its move
/// in one need not leave it).
pub(crate) fn check_zoc_entry(
    rs: &Gbacw,
    state: &GbacwState,
    unit: &CounterId,
    into_enemy_zoc: bool,
) -> Result<(), RuleError> {
    if into_enemy_zoc && broken(rs, state, unit) {
        return Err(err(
            &super::case(rs, "24.14"),
            RuleCode::Illegal,
            format!(
                "{unit}'s brigade has lost its Brigade Combat Effectiveness: it may not enter an enemy Zone of Control"
            ),
        ));
    }
    Ok(())
}

/// Cedar Mountain 24.14: such a unit may not retreat through an enemy Zone
/// of Control at all; forced to, it is captured instead.
pub(crate) fn retreat_shuns_zoc(rs: &Gbacw, state: &GbacwState, unit: &CounterId) -> bool {
    broken(rs, state, unit)
}

/// GBACW 17.67, Cedar Mountain 24.2: whether `brigade` has reached its BCE
/// limit, for the detachment rules (17.67 is the Standard Rules' own and
/// holds with or without the hook).
pub(crate) fn brigade_at_limit(rs: &Gbacw, state: &GbacwState, brigade: &CounterId) -> bool {
    bce::at_limit(rs, state, brigade)
}

/// Cedar Mountain 24.2: a detached brigade not attached to another
/// division that reaches its BCE limit is out of command, and its leader
/// moves one hex a Game-Turn, until it is attached again.
pub(crate) fn stranded(rs: &Gbacw, state: &GbacwState, brigade: &CounterId) -> bool {
    on(rs)
        && is_detached(&state.links, brigade)
        && !state
            .links
            .values()
            .any(|l| l.attached.as_ref() == Some(brigade))
        && bce::at_limit(rs, state, brigade)
}

/// Cedar Mountain 24.2: the units of a stranded brigade (out of command).
pub(crate) fn stranded_units<'s>(
    rs: &'s Gbacw,
    state: &'s GbacwState,
    side: &'s CounterId,
) -> impl Iterator<Item = &'s CounterId> + 's {
    state.units.iter().filter_map(move |(id, u)| {
        let unit = &rs.game.oob.units[id];
        match &unit.command {
            Command::Brigade(b)
                if unit.side == *side && u.hex.is_some() && stranded(rs, state, b) =>
            {
                Some(id)
            }
            _ => None,
        }
    })
}

/// How a routed unit of a brigade that has lost BCE tries to rally
/// (Cedar Mountain 24.15).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum BceRally {
    /// Stacked with a friendly army commander (Banks, Jackson): it
    /// rallies regardless of BCE loss.
    ArmyCommander,
    /// Stacked with a brigade or division commander: a die, less 1, no
    /// Rally Point.
    StackedCommander,
    /// Within its brigade commander's Effectiveness Radius: he spends a
    /// Rally Point (17.13) for a die.
    RallyPoint(CounterId),
}

impl BceRally {
    pub fn rolls(&self) -> bool {
        !matches!(self, BceRally::ArmyCommander)
    }
}

/// Cedar Mountain 24.15: how `id` (routed, its brigade at its BCE limit)
/// may try to rally, or why it may not. `None`: 24.15 does not apply (the
/// rule is off or the brigade has not lost BCE): the Standard Rules do.
pub(crate) fn rally_way(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    id: &CounterId,
) -> Option<Result<BceRally, RuleError>> {
    if !broken(rs, state, id) {
        return None;
    }
    let u = state.units.get(id)?;
    let hex = u.hex?;
    let rule = super::case(rs, "24.15");
    let board = Board::new(rs, state);
    let stacked = board.leaders_of(hex, side);
    let role = |l: &CounterId| rs.game.oob.leaders.get(l).map(|x| &x.role);
    if stacked
        .iter()
        .any(|l| matches!(role(l), Some(LeaderRole::Army { .. })))
    {
        return Some(Ok(BceRally::ArmyCommander));
    }
    if stacked.iter().any(|l| {
        matches!(
            role(l),
            Some(
                LeaderRole::Division { .. }
                    | LeaderRole::Brigade { .. }
                    | LeaderRole::Replacement { .. }
            )
        )
    }) {
        return Some(Ok(BceRally::StackedCommander));
    }
    let Command::Brigade(b) = &rs.game.oob.units[id].command else {
        return None;
    };
    let leader = state.leaders.get(b).and_then(|l| l.hex.map(|h| (l, h)));
    let ratings = match role(b) {
        Some(LeaderRole::Brigade { ratings, .. }) | Some(LeaderRole::Replacement { ratings }) => {
            Some(*ratings)
        }
        _ => None,
    };
    let (Some((l, at)), Some(r)) = (leader, ratings) else {
        return Some(Err(err(
            &rule,
            RuleCode::Illegal,
            format!("{id} has no leader with it and its brigade commander is not on the map"),
        )));
    };
    let plus = l.augmented.as_ref().map_or(0, |(_, p)| *p);
    if !within_radius(
        &rs.game.map,
        &board.command_blocks(side),
        at,
        hex,
        effective_radius(&r, plus),
    ) {
        return Some(Err(err(
            &rule,
            RuleCode::Illegal,
            format!("{id} is not within {b}'s Effectiveness Radius"),
        )));
    }
    if state.rally_points.get(b).copied().unwrap_or(0) >= r.rally {
        return Some(Err(err(
            &rule,
            RuleCode::Illegal,
            format!("{b} has spent his {} Rally Points this phase", r.rally),
        )));
    }
    Some(Ok(BceRally::RallyPoint(b.clone())))
}

/// Cedar Mountain 24.15 with 24.11: the events of the rally attempt; `die`
/// is the action's die for the ways that roll. The unit rallies if the die
/// plus 1 (24.11), less 1 stacked with a commander, is not above its
/// morale rating.
pub(crate) fn rally_events(
    rs: &Gbacw,
    state: &GbacwState,
    id: &CounterId,
    way: &BceRally,
    die: Option<u8>,
) -> Vec<GbacwEvent> {
    let rating = match (rs.game.oob.units[id].morale, state.units[id].rating) {
        (Morale::Rated(m), _) | (Morale::Green, Some(m)) => m,
        // As in the Standard rally: a routed green unit has a rating.
        (Morale::Green, None) => 4,
    };
    let rolled = |less: i16| {
        die.is_some_and(|d| {
            i16::from(d) + morale_modifier(rs, state, id) - less <= i16::from(rating)
        })
    };
    let mut out = Vec::new();
    let rallied = match way {
        BceRally::ArmyCommander => true,
        BceRally::StackedCommander => rolled(1),
        BceRally::RallyPoint(b) => {
            out.push(GbacwEvent::RallyPointSpent { leader: b.clone() });
            rolled(0)
        }
    };
    out.push(GbacwEvent::RallyTried {
        unit: id.clone(),
        die,
        rallied,
    });
    out
}
