//! Corinth 29.44.1: "Batteries assigned directly to brigades are set up
//! within the Effectiveness Radius of their commanders."
//!
//! Leaders are placed after units, so this is a check of the whole set-up
//! when it ends (`EndSetUp`); the default completion puts each brigade
//! battery nearest the hex its brigade commander will take (his own hex if
//! placed, else the first unit of his brigade in set-up order, where the
//! default puts him). The radius is counted in hexes from the commander
//! (GBACW 17.11), at set-up with no enemy on the map to block it.

use crate::engine::{RuleCode, RuleError};
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{Command, CounterId, LeaderRole, UnitKind};
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::ruleset::{Gbacw, err};
use crate::gbacw::scenario::HookKind;

/// Whether the battle plays 29.44.1 for `side`.
pub(crate) fn applies(rs: &Gbacw, side: &CounterId) -> bool {
    rs.game
        .scenario
        .hook(HookKind::BrigadeBatteries)
        .is_some_and(|h| h.param("side") == Some(side.0.as_str()))
}

/// The brigade commander and his Effectiveness Radius, for a battery that
/// belongs to a brigade.
fn commander_of<'a>(rs: &'a Gbacw, unit: &CounterId) -> Option<(&'a CounterId, u8)> {
    let u = rs.game.oob.units.get(unit)?;
    if !matches!(u.kind, UnitKind::Battery { .. }) {
        return None;
    }
    let Command::Brigade(b) = &u.command else {
        return None;
    };
    match &rs.game.oob.leaders.get(b)?.role {
        LeaderRole::Brigade { ratings, .. } => Some((b, ratings.effectiveness_radius)),
        _ => None,
    }
}

/// Where the commander of `brigade` stands or will stand: his hex if
/// placed; else a battery of his placed by the player (the default puts
/// him where his batteries are, [`order_leader`]); else the hex of the
/// first unit of his brigade placed, in set-up order (where the default
/// deployment puts a leader).
pub(crate) fn commander_hex(
    rs: &Gbacw,
    state: &GbacwState,
    brigade: &CounterId,
) -> Option<HexNumber> {
    if let Some(h) = state.leaders.get(brigade).and_then(|l| l.hex) {
        return Some(h);
    }
    let battery = state.units.iter().find_map(|(id, u)| {
        let (b, _) = commander_of(rs, id)?;
        (b == brigade).then_some(u.hex).flatten()
    });
    if battery.is_some() {
        return battery;
    }
    rs.game
        .scenario
        .setup
        .iter()
        .flat_map(|l| l.units.iter())
        .filter(|u| {
            rs.game
                .oob
                .units
                .get(*u)
                .is_some_and(|x| matches!(&x.command, Command::Brigade(b) if b == brigade))
        })
        .find_map(|u| state.units.get(u).and_then(|s| s.hex))
}

/// The default completion's order for a brigade battery: nearest its
/// commander's (future) hex first.
pub(crate) fn order(rs: &Gbacw, state: &GbacwState, unit: &CounterId, hexes: &mut [HexNumber]) {
    let Some((brigade, _)) = commander_of(rs, unit) else {
        return;
    };
    let Some(at) = commander_hex(rs, state, brigade) else {
        return;
    };
    let grid = &rs.game.map.grid;
    hexes.sort_by_key(|h| grid.distance(*h, at));
}

/// The default completion's order for placing brigade commander
/// `leader`: the hexes leaving fewest of his batteries outside his radius
/// first (stable, so the set-up order decides among equals).
pub(crate) fn order_leader(
    rs: &Gbacw,
    state: &GbacwState,
    leader: &CounterId,
    hexes: &mut [HexNumber],
) {
    let Some(LeaderRole::Brigade { ratings, .. }) =
        rs.game.oob.leaders.get(leader).map(|l| &l.role)
    else {
        return;
    };
    let radius = u32::from(ratings.effectiveness_radius);
    let grid = &rs.game.map.grid;
    let batteries: Vec<HexNumber> = state
        .units
        .iter()
        .filter(|(id, _)| commander_of(rs, id).is_some_and(|(b, _)| b == leader))
        .filter_map(|(_, u)| u.hex)
        .collect();
    if batteries.is_empty() {
        return;
    }
    hexes.sort_by_key(|h| {
        batteries
            .iter()
            .filter(|b| grid.distance(**b, *h) > radius)
            .count()
    });
}

/// Whether a placement keeps 29.44.1 within reach (the legal set offers
/// only such): a brigade battery within its commander's radius of him if
/// he is placed, and of each of its brigade's batteries already placed
/// (so he can stand with any of them); a brigade commander within his
/// radius of each of his placed batteries.
pub(crate) fn feasible_after(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    piece: &CounterId,
    hex: HexNumber,
) -> bool {
    if !applies(rs, side) {
        return true;
    }
    let grid = &rs.game.map.grid;
    let batteries_of = |brigade: &CounterId| -> Vec<HexNumber> {
        state
            .units
            .iter()
            .filter(|(id, _)| *id != piece)
            .filter(|(id, _)| commander_of(rs, id).is_some_and(|(b, _)| b == brigade))
            .filter_map(|(_, u)| u.hex)
            .collect()
    };
    if let Some((brigade, radius)) = commander_of(rs, piece) {
        let r = u32::from(radius);
        let leader_ok = state
            .leaders
            .get(brigade)
            .and_then(|l| l.hex)
            .is_none_or(|at| grid.distance(at, hex) <= r);
        return leader_ok
            && batteries_of(brigade)
                .iter()
                .all(|b| grid.distance(*b, hex) <= r);
    }
    if let Some(LeaderRole::Brigade { ratings, .. }) =
        rs.game.oob.leaders.get(piece).map(|l| &l.role)
    {
        let r = u32::from(ratings.effectiveness_radius);
        return batteries_of(piece)
            .iter()
            .all(|b| grid.distance(*b, hex) <= r);
    }
    true
}

/// Corinth 29.44.1 on the finished set-up of `side`.
pub(crate) fn check(rs: &Gbacw, state: &GbacwState, side: &CounterId) -> Result<(), RuleError> {
    if !applies(rs, side) {
        return Ok(());
    }
    let grid = &rs.game.map.grid;
    for (id, u) in &state.units {
        let Some(hex) = u.hex else { continue };
        let Some((brigade, radius)) = commander_of(rs, id) else {
            continue;
        };
        if rs.game.oob.units[id].side != *side {
            continue;
        }
        let Some(at) = state.leaders.get(brigade).and_then(|l| l.hex) else {
            continue;
        };
        let d = grid.distance(hex, at);
        if d > u32::from(radius) {
            return Err(err(
                &rs.case_rule("29.44"),
                RuleCode::Illegal,
                format!(
                    "{id} in {hex} is {d} hexes from its brigade commander {brigade} in {at}: a brigade battery sets up within his Effectiveness Radius of {radius}"
                ),
            ));
        }
    }
    Ok(())
}
