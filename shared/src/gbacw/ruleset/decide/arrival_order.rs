//! Corinth 29.32: the order of divisions through one Assault Area.
//!
//! 29.32: "Any units unable to enter with their division because of space
//! restrictions must be brought in on the assigned Area on the next turn.
//! If another division is to arrive that turn in the same Area, the units
//! from the first division must be entered first."
//!
//! Enforced at the arrival (`arrival::entry_hexes`): a unit due through an
//! area may not be placed there while a unit of an earlier division (one
//! due on an earlier Game-Turn) still waits to come in through that area
//! and could be placed now. "Could" is the whole arrival check for the
//! waiting unit (its area's open hexes, 29.31's first row, stacking,
//! its Movement Points); a waiting unit that no hex can take blocks no
//! one, so the later division comes in where there is still room and no
//! division is held up by units that cannot move. Units due the same
//! Game-Turn are not ordered (29.21: "divisions arriving in the same turn
//! may not use the same Assault Area").
//!
//! Decisions (docs/gbacw-notes.md, "Corinth 29.32"):
//! - Only combat and wagon counters are ordered, never leaders: a leader
//!   takes no place in a stack (8.0), so he is never "unable to enter ...
//!   because of space restrictions", and a later division's leader does
//!   not take the room 29.32 keeps for the first division's units.
//! - Cavalry held off the map (29.27: "eligible to enter during any
//!   Confederate Movement Phase") waits by the player's choice, not for
//!   want of space: it neither holds up a division nor is held up by one.
//! - A division that did not place what it could (29.31: "places as many
//!   units as he can, within stacking restrictions") is not refused the
//!   end of its Movement Phase: its unplaced units wait as 29.32's do, due
//!   through their assigned Area only (the plan's area, never another),
//!   and go before any later division there. The text says what the
//!   player does, not what follows if he does not; holding the units back
//!   costs him their Game-Turn and gains him nothing against the next
//!   division.

use super::arrival;
use crate::gbacw::facing::Facing;
use crate::gbacw::oob::CounterId;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::ruleset::{Gbacw, plan};

/// A counter's place in the arrivals: its areas, the Game-Turn it is due
/// from, and its division (`None`: not a plan arrival's division).
pub(super) struct Due {
    pub areas: Vec<CounterId>,
    pub turn: u16,
    pub division: Option<CounterId>,
}

/// Whether `piece` takes a place in 29.32's order: a unit (not a leader)
/// that is not cavalry held off the map by choice (29.27).
fn ordered(rs: &Gbacw, piece: &CounterId) -> bool {
    let Some(a) = rs.game.scenario.arrival_of(piece) else {
        return false;
    };
    rs.game.oob.units.contains_key(piece)
        && a.plan.as_ref().is_none_or(|k| k.0 != "cavalry")
        && a.case.as_deref() != Some("29.27")
}

/// Where and from when `piece` arrives through areas; `None` for an entry
/// hex's arrivals (and a plan arrival while the plan is unknown).
pub(super) fn due(rs: &Gbacw, state: &GbacwState, piece: &CounterId) -> Option<Due> {
    let a = rs.game.scenario.arrival_of(piece)?;
    let (areas, turn, division) = match &a.plan {
        None => (a.areas.clone(), a.turn, None),
        Some(_) => plan::entry(rs, state, piece)?,
    };
    (!areas.is_empty()).then_some(Due {
        areas,
        turn,
        division,
    })
}

/// Corinth 29.32: a unit of an earlier division that waits to enter
/// through one of `mine`'s areas and could be placed now, which `piece`
/// must let in first; `None` when `piece` may come in.
pub(super) fn first_in(
    rs: &Gbacw,
    state: &GbacwState,
    piece: &CounterId,
    mine: &Due,
) -> Option<(CounterId, Due)> {
    if !ordered(rs, piece) {
        return None;
    }
    let side = &rs.game.oob.units[piece].side;
    let facing = Facing::from_index(0)?;
    state
        .progress
        .to_arrive
        .iter()
        .filter(|q| {
            *q != piece
                && rs.game.oob.units.get(*q).is_some_and(|u| u.side == *side)
                && ordered(rs, q)
        })
        .filter_map(|q| due(rs, state, q).map(|d| (q, d)))
        // Strictly earlier: the check for `q` looks only further back,
        // so this recursion ends.
        .filter(|(_, d)| d.turn < mine.turn && d.areas.iter().any(|a| mine.areas.contains(a)))
        .find(|(q, _)| {
            arrival::entry_hexes(rs, state, q).is_ok_and(|hexes| {
                hexes
                    .into_iter()
                    .any(|h| arrival::arrive(rs, state, side, q, h, facing).is_ok())
            })
        })
        .map(|(q, d)| (q.clone(), d))
}
