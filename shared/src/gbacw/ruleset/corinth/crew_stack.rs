//! Corinth 24.21 with GBACW 14.3: a battery crew away from its guns in
//! the way of a friend's retreat.
//!
//! 14.3: "A unit may not be retreated through a hex containing a Friendly
//! unit if there is another path open to it ... If the unit must be
//! retreated onto or through a Friendly unit, that Friendly unit is
//! retreated one hex and the owning Player must conduct a morale check.
//! (If the unit retreated onto is already routed, it "routs" again and
//! must be retreated an additional three hexes)." A crew away does not
//! count for stacking (15.1), but 15.1 also makes crews "line infantry for
//! all purposes", and 14.3 speaks of a Friendly unit, not of a stacking
//! limit (its displacement happens whatever the hex holds). So with `hook
//! crew-displaced`:
//! - a friend's retreat avoids the crew's hex where another path is open,
//!   as it avoids any friend's (`friendly_crew_hexes`, for
//!   `retreat_blocks`);
//! - a friend retreating through or onto it displaces it
//!   ([`displace`]): rallied, it retreats one hex from where it stands as
//!   Line infantry (6.13; not into its guns' hex where another way
//!   exists) and checks morale with its battery's rating, routing three
//!   hexes on a failure (13.31); routed, it routs again three hexes, no
//!   check (13.33); with no way out it is captured (14.1, 24.22).
//! - 14.3 "If a stack is displaced, a morale check is performed on the
//!   top unit. If it does not rout, the other units need not make morale
//!   checks": with friendly units displaced from the same hex the crew is
//!   the stack's last (12.74 puts it below them for losses too) and checks
//!   only if the top unit routed.

use super::Gbacw;
use super::crew_melee::retreat_from;
use super::crew_piece::{check_morale, crew_hex, crew_routed, rout_crew};
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::CounterId;
use crate::gbacw::retreat::RetreatKind;
use crate::gbacw::ruleset::combat::{Roller, Unfold};
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::scenario::HookKind;

/// GBACW 14.3: one hex for a displaced crew, as for any displaced unit.
const DISPLACED_HEXES: usize = 1;

/// The hexes other than `start` holding crews away of `side` (friends in
/// the way of its retreats, 14.3), when the battle has the hook.
pub(crate) fn friendly_crew_hexes(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    mover: &CounterId,
    start: HexNumber,
) -> Vec<HexNumber> {
    if super::hook(rs, HookKind::CrewDisplaced).is_none() {
        return Vec::new();
    }
    state
        .crews_away
        .iter()
        .filter(|(b, h)| {
            *b != mover
                && **h != start
                && rs.game.oob.units.get(*b).is_some_and(|u| u.side == *side)
        })
        .map(|(_, h)| *h)
        .collect()
}

/// The crews of `mover`'s side its retreat along `path` displaces, in the
/// order of the path (each hex's by battery id).
fn displaced_crews(
    rs: &Gbacw,
    state: &GbacwState,
    mover: &CounterId,
    path: &[HexNumber],
) -> Vec<(usize, CounterId)> {
    if super::hook(rs, HookKind::CrewDisplaced).is_none() {
        return Vec::new();
    }
    let Some(side) = rs.game.oob.units.get(mover).map(|u| &u.side) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (k, h) in path.iter().enumerate() {
        for (b, at) in &state.crews_away {
            if at == h
                && b != mover
                && rs.game.oob.units.get(b).is_some_and(|u| u.side == *side)
                && state.units.get(b).is_some_and(|x| x.hex.is_some())
            {
                out.push((k, b.clone()));
            }
        }
    }
    out
}

/// Whether `mover`'s retreat along `path` displaces a crew (its morale
/// check or rout rolls dice).
pub(crate) fn displaces(
    rs: &Gbacw,
    state: &GbacwState,
    mover: &CounterId,
    path: &[HexNumber],
) -> bool {
    !displaced_crews(rs, state, mover, path).is_empty()
}

/// GBACW 14.3 with Corinth 24.21: displace the crews in `path`'s hex `at`
/// that `mover` retreated through or onto; `top_routed` is what the top
/// unit displaced from that hex came to (`None`: no unit was displaced
/// there, the crew is the top).
pub(crate) fn displace(
    rs: &Gbacw,
    u: &mut Unfold,
    roll: &mut Roller,
    mover: &CounterId,
    path: &[HexNumber],
    at: usize,
    top_routed: Option<bool>,
) {
    let crews: Vec<CounterId> = displaced_crews(rs, &u.state, mover, path)
        .into_iter()
        .filter(|(k, _)| *k == at)
        .map(|(_, b)| b)
        .collect();
    let mut top_routed = top_routed;
    for battery in crews {
        if crew_hex(&u.state, &battery) != Some(path[at]) {
            continue;
        }
        if crew_routed(&u.state, &battery) {
            // Routed again: three more hexes, no check (14.3, 13.33).
            rout_crew(rs, u, &battery);
            continue;
        }
        if !retreat_from(rs, u, &battery, DISPLACED_HEXES, RetreatKind::Rout) {
            continue;
        }
        if top_routed.unwrap_or(true)
            && let Some(now) = crew_hex(&u.state, &battery)
        {
            let routed = check_morale(rs, u, roll, &battery, now, false);
            if routed {
                rout_crew(rs, u, &battery);
            }
            top_routed.get_or_insert(routed);
        }
    }
}

/// The indices of `path` where `mover`'s retreat displaces crews.
pub(crate) fn crew_steps(
    rs: &Gbacw,
    state: &GbacwState,
    mover: &CounterId,
    path: &[HexNumber],
) -> Vec<usize> {
    let mut ks: Vec<usize> = displaced_crews(rs, state, mover, path)
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    ks.dedup();
    ks
}
