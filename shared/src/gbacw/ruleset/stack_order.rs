//! GBACW 8.41, 8.21: the order of a stack, top first.
//!
//! 8.41: "Units may stack, or change their stacking order, only during a
//! Friendly Movement Phase, with one exception: If the top unit runs out
//! of ammunition (see 11.0), the Player may change the stacking order at
//! the end of the Fire Phase in which depletion occurred. Otherwise, it
//! remains the same."
//!
//! The state keeps only the orders players set (`GbacwState::stack_order`);
//! everything else lies beneath them in id order, so a game in which no
//! one reorders reads every stack exactly as before this order existed.
//! Everything that asks for "the top unit" reads stacks through
//! [`Board`](super::board::Board) (`units_of`), sorted here.
//!
//! Decisions (docs/gbacw-notes.md):
//! - A change of order is one action, "put this unit on top": any order is
//!   a few of them, and the legal set stays a unit per stack member.
//! - A unit that enters a hex whose order was set goes beneath the units
//!   listed (8.41 lets its owner put it on top in the same Movement Phase).
//! - The Fire Phase's exception is offered when the fire is rolled (9.42,
//!   as the phase ends) for each stack whose top unit then ran out of
//!   ammunition and holds another friendly unit; the owner puts units on
//!   top until he says he is done (the default).

use super::Gbacw;
use super::board::Board;
use super::event::GbacwEvent;
use super::state::{GbacwState, RestackOffer};
use super::{decide, err};
use crate::engine::{RuleCode, RuleError};
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, Marker};
use crate::gbacw::words::counter_name;
use std::collections::BTreeSet;

/// The place of `id` in `hex`'s set order: its index in the list, or
/// after every listed unit.
pub(crate) fn rank(state: &GbacwState, hex: HexNumber, id: &CounterId) -> usize {
    state
        .stack_order
        .get(&hex)
        .and_then(|order| order.iter().position(|u| u == id))
        .unwrap_or(usize::MAX)
}

/// Sort `ids` (all in `hex`, in id order) top first: a stable sort, so
/// units without a set place keep their id order.
pub(crate) fn sort<T>(
    state: &GbacwState,
    hex: HexNumber,
    ids: &mut [T],
    id: impl Fn(&T) -> &CounterId,
) {
    if state.stack_order.contains_key(&hex) {
        ids.sort_by_key(|t| rank(state, hex, id(t)));
    }
}

/// Every combat unit in `hex`, both sides, top first (a hex holds one
/// side's units save in the middle of a move).
pub fn stack_at(state: &GbacwState, hex: HexNumber) -> Vec<CounterId> {
    let mut ids: Vec<CounterId> = state
        .units
        .iter()
        .filter(|(_, u)| u.hex == Some(hex))
        .map(|(id, _)| id.clone())
        .collect();
    sort(state, hex, &mut ids, |id| id);
    ids
}

/// Drop from the set orders the units no longer in their hex (folded
/// after every event: a unit that leaves a stack leaves its order).
pub(crate) fn prune(state: &mut GbacwState) {
    if state.stack_order.is_empty() {
        return;
    }
    let units = &state.units;
    state.stack_order.retain(|hex, order| {
        order.retain(|id| units.get(id).is_some_and(|u| u.hex == Some(*hex)));
        !order.is_empty()
    });
}

/// GBACW 8.41: `side` puts `unit` on top of its stack (the phase is the
/// caller's to check). Refused for a unit alone or already on top.
pub(crate) fn put_on_top(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    unit: &CounterId,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let (_, hex) = decide::own_unit(rs, state, side, unit)?;
    let stack: Vec<CounterId> = Board::new(rs, state)
        .units_of(hex, side)
        .into_iter()
        .cloned()
        .collect();
    if stack.len() < 2 {
        return Err(err(
            "GBACW 8.41",
            RuleCode::Illegal,
            format!(
                "{} is alone in {hex}: there is no stacking order to change",
                counter_name(rs, unit)
            ),
        ));
    }
    if stack[0] == *unit {
        return Err(err(
            "GBACW 8.41",
            RuleCode::Illegal,
            format!("{} is already on top in {hex}", counter_name(rs, unit)),
        ));
    }
    let mut order = vec![unit.clone()];
    order.extend(stack.into_iter().filter(|u| u != unit));
    Ok(vec![GbacwEvent::StackReordered { hex, order }])
}

/// GBACW 8.41: `side`'s units that may be put on top of their stack now:
/// every one but the top of a stack of two or more, in `hexes` (all of
/// the side's stacks when `None`).
pub(crate) fn candidates(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    hexes: Option<&[HexNumber]>,
) -> Vec<CounterId> {
    let board = Board::new(rs, state);
    let mut hexes_of_side: BTreeSet<HexNumber> = BTreeSet::new();
    for (id, u) in &state.units {
        if let Some(h) = u.hex
            && rs.game.oob.units[id].side == *side
            && hexes.is_none_or(|hs| hs.contains(&h))
        {
            hexes_of_side.insert(h);
        }
    }
    hexes_of_side
        .iter()
        .flat_map(|h| board.units_of(*h, side).into_iter().skip(1).cloned())
        .collect()
}

/// GBACW 8.41: after the Fire Phase's attacks are rolled (`before` is the
/// state the phase ended in, `after` the state they left): the stacks
/// whose top unit ran out of ammunition in them and that hold another
/// unit of its side, offered to its owner. `None` when there are none.
pub(crate) fn offer_after_fire(
    rs: &Gbacw,
    before: &GbacwState,
    after: &GbacwState,
) -> Option<GbacwEvent> {
    let board = Board::new(rs, after);
    let mut side_hexes: Option<(CounterId, Vec<HexNumber>)> = None;
    for (id, u) in &after.units {
        let Some(hex) = u.hex else { continue };
        let now = u.status.markers.contains(&Marker::AmmoDepleted);
        let was = before
            .units
            .get(id)
            .is_some_and(|b| b.status.markers.contains(&Marker::AmmoDepleted));
        if !now || was {
            continue;
        }
        let side = &rs.game.oob.units[id].side;
        let stack = board.units_of(hex, side);
        if stack.len() < 2 || stack[0] != id {
            continue;
        }
        // Only one side fires in a Fire Phase (4.0 C, D): its stacks.
        match &mut side_hexes {
            None => side_hexes = Some((side.clone(), vec![hex])),
            Some((s, hexes)) if s == side && !hexes.contains(&hex) => hexes.push(hex),
            Some(_) => {}
        }
    }
    let (side, hexes) = side_hexes?;
    Some(GbacwEvent::RestackOffered(RestackOffer {
        seat: rs.seat_of(&side),
        hexes,
    }))
}
