//! GBACW 14.3: friendly units displaced by a retreat. A unit retreats
//! through or onto friends only when no clear path is open
//! ([`crate::gbacw::retreat::retreat_paths`] keeps that preference); the
//! friends there then retreat one hex and the top one checks morale,
//! those under it only if it routs. A displaced unit already routed
//! routs again: three more hexes. A displaced unit's own retreat may
//! displace others in turn (the "chain reaction").
//!
//! Decisions (docs/gbacw-notes.md):
//! - GBACW 14.3: "Artillery crews retreat away from their unlimbered
//!   batteries when forced to retreat. The battery remains in the hex
//!   unless captured by the Enemy." An unlimbered battery in the way is
//!   displaced as its crew: the guns stay where they are and the crew
//!   takes the displaced unit's morale check (the top unit's rule holds);
//!   a failed check routs the crew away from its guns (13.25, 15.16, by
//!   `check_morale`). The Standard Rules engine keeps no crew counter
//!   apart from its guns, so a crew that holds sits back at its guns.
//! - The displaced units retreat one hex each, by the ordinary retreat
//!   (the owner chooses among paths, 14.4), before the morale check, which
//!   is made at once even when the path waits for the owner's choice.
//! - GBACW 14.3 against 14.4: "The retreat must be onto a vacant hex if
//!   possible" is read first: a displaced unit goes into a vacant hex
//!   even back toward the enemy ("Players should attempt to follow ...
//!   away from Enemy" is advice, and the retreating player "has the
//!   final say"). Under the reading `displace-away-from-enemy` it takes
//!   no step nearer the enemy while a hex away from him is open, onto
//!   friends if need be, displacing them in turn
//!   ([`super::effects::retreat_options_as`]).
//! - A chain reaction is followed [`MAX_CHAIN`] displacements deep; past
//!   that, friends are left in place (no position in play comes near it).

use super::effects::{check_morale, displaced_retreat, rout_retreat};
use super::{Roller, Unfold};
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, Formation, Marker, UnitKind};
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::state::GbacwState;

/// Deepest chain of displacements followed.
pub const MAX_CHAIN: u8 = 6;

/// GBACW 14.3: one hex for a displaced unit.
pub const DISPLACED_HEXES: usize = 1;

/// GBACW 14.3: whether `id` is an unlimbered battery, whose crew is
/// displaced while its guns stay.
pub(crate) fn guns_stay(rs: &Gbacw, state: &GbacwState, id: &CounterId) -> bool {
    state.units.get(id).is_some_and(|x| {
        matches!(rs.game.oob.units[id].kind, UnitKind::Battery { .. })
            && x.status.formation == Formation::Unlimbered
    })
}

/// Whether `id` would retreat away when displaced by a friend retreating
/// into its hex (the guns of an unlimbered battery stay, 14.3).
pub(crate) fn displaceable(rs: &Gbacw, state: &GbacwState, id: &CounterId) -> bool {
    let Some(x) = state.units.get(id) else {
        return false;
    };
    x.hex.is_some()
        && !(matches!(rs.game.oob.units[id].kind, UnitKind::Battery { .. })
            && x.status.formation == Formation::Unlimbered)
}

/// The friends of `mover` that its retreat along `path` would displace,
/// hex by hex along the path, each hex's units top first (8.41).
pub(crate) fn displaced_by(
    rs: &Gbacw,
    state: &GbacwState,
    mover: &CounterId,
    path: &[HexNumber],
) -> Vec<Vec<CounterId>> {
    displaced_along(rs, state, mover, path)
        .into_iter()
        .map(|(_, stack)| stack)
        .collect()
}

/// [`displaced_by`] with the index in `path` of each stack's hex.
fn displaced_along(
    rs: &Gbacw,
    state: &GbacwState,
    mover: &CounterId,
    path: &[HexNumber],
) -> Vec<(usize, Vec<CounterId>)> {
    let side = &rs.game.oob.units[mover].side;
    path.iter()
        .enumerate()
        .map(|(k, h)| {
            let mut stack = state
                .units
                .iter()
                .filter(|(id, x)| {
                    *id != mover
                        && x.hex == Some(*h)
                        && rs.game.oob.units[*id].side == *side
                        && (displaceable(rs, state, id) || guns_stay(rs, state, id))
                })
                .map(|(id, _)| id.clone())
                .collect::<Vec<_>>();
            // GBACW 8.41: top first.
            crate::gbacw::ruleset::stack_order::sort(state, *h, &mut stack, |id| id);
            (k, stack)
        })
        .filter(|(_, stack)| !stack.is_empty())
        .collect()
}

/// GBACW 14.3: `mover` has just retreated along `path`; displace the
/// friends it went through or onto, hex by hex along the path.
///
/// Cedar Mountain 24.14: a friend displaced may break the mover's brigade
/// (its check failed, it routs and, with no way out, is captured: the
/// boxes reach the limit). From then on the mover "may not retreat
/// through an enemy ZOC at all, and if forced to, is captured instead":
/// if the rest of its path, past the hex where that friend stood, enters
/// an enemy ZOC, it is captured (it never got further; the friends
/// beyond are not displaced).
pub(crate) fn displace(
    rs: &Gbacw,
    u: &mut Unfold,
    roll: &mut Roller,
    mover: &CounterId,
    path: &[HexNumber],
) {
    if u.chain >= MAX_CHAIN {
        return;
    }
    let mut stacks = displaced_along(rs, &u.state, mover, path);
    // The battle's own rule here (hook `displaced_piece_steps`).
    for k in rs.battle().displaced_piece_steps(rs, &u.state, mover, path) {
        if !stacks.iter().any(|(at, _)| *at == k) {
            stacks.push((k, Vec::new()));
        }
    }
    stacks.sort_by_key(|(at, _)| *at);
    if stacks.is_empty() {
        return;
    }
    u.chain += 1;
    for (at, stack) in stacks {
        let mut checked_top_routed = None;
        for id in &stack {
            if u.state.units[id].hex.is_none() {
                continue;
            }
            // GBACW 14.3: the crew of unlimbered guns retreats away from
            // them, the guns stay; it checks as a displaced unit does.
            if guns_stay(rs, &u.state, id) {
                if checked_top_routed.unwrap_or(true) {
                    let routed = check_morale(rs, u, roll, id);
                    checked_top_routed.get_or_insert(routed);
                }
                continue;
            }
            if u.state.units[id].status.markers.contains(&Marker::Rout) {
                // Routed again: three more hexes, no check (14.3, 13.33).
                rout_retreat(rs, u, roll, id);
                continue;
            }
            displaced_retreat(rs, u, roll, id);
            // The top unit checks; the rest only if it routed.
            if checked_top_routed.unwrap_or(true) && u.state.units[id].hex.is_some() {
                let routed = check_morale(rs, u, roll, id);
                checked_top_routed.get_or_insert(routed);
            }
        }
        rs.battle()
            .displace_pieces(rs, u, roll, mover, path, at, checked_top_routed);
        if u.state.units[mover].hex.is_some()
            && super::retreat_fire::shuns_rest(rs, &u.state, mover, &path[at + 1..])
        {
            u.push(rs.battle().retreat_blocked(rs, &u.state, mover));
            break;
        }
    }
    u.chain -= 1;
}
