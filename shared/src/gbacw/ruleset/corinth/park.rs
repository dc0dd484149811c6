//! Corinth 29.44.4: "The remaining four independent batteries are set up
//! ... on or adjacent to hex 2737. These batteries constitute the Union
//! artillery park, and may not move or fire until the second day. If a
//! Confederate unit comes within six hexes of a Corinth hex, these
//! batteries are freed from this restriction." (30.18: "Batteries of the
//! artillery park may not move until activated.")
//!
//! The scenario's `hook park-freeze` names the park's area, the batteries
//! that may stand in it, the last Game-Turn of the freeze and the range.
//! A park battery is one of those standing in the park area: frozen, it
//! cannot have left it. "Freed" is for good: the end of any phase in which
//! a Confederate unit stands within range of a town hex records it
//! (`ParkFreed`), and until then the same condition frees them at once.
//!
//! Readings: "the second day" begins after the night (Game-Turn 21), so
//! the hook's `until=20`; "fire" is offensive and defensive fire and
//! melee; withdrawal fire (a reaction, 10.1) is not held back; changing
//! formation in place is allowed (the rule names moving and firing only).

use crate::engine::{RuleCode, RuleError};
use crate::gbacw::map::{HexNumber, Terrain};
use crate::gbacw::oob::CounterId;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::ruleset::{Gbacw, err};
use crate::gbacw::scenario::{Hook, HookKind};

fn hook(rs: &Gbacw) -> Option<&Hook> {
    rs.game.scenario.hook(HookKind::ParkFreeze)
}

/// Whether a unit of the enemy of the park's side stands within the
/// hook's range of a town hex.
pub(crate) fn enemy_near_town(rs: &Gbacw, state: &GbacwState) -> bool {
    let Some(h) = hook(rs) else { return false };
    let side = h.param("side").unwrap_or("union");
    let range = u32::from(h.number("range").unwrap_or(6));
    let map = &rs.game.map;
    let towns: Vec<HexNumber> = map
        .hexes()
        .filter(|(_, info)| info.terrain.contains(&Terrain::Town))
        .map(|(h, _)| h)
        .collect();
    state.units.iter().any(|(id, u)| {
        u.hex.is_some_and(|at| {
            rs.game.oob.units.get(id).is_some_and(|x| x.side.0 != side)
                && towns.iter().any(|t| map.grid.distance(at, *t) <= range)
        })
    })
}

/// Whether `piece` is a park battery still frozen now.
pub(crate) fn frozen(rs: &Gbacw, state: &GbacwState, piece: &CounterId) -> bool {
    let Some(h) = hook(rs) else { return false };
    if state.park_freed || state.clock.turn > h.number("until").unwrap_or(20) {
        return false;
    }
    let listed = h
        .param("units")
        .is_some_and(|v| v.split(',').any(|u| u == piece.0));
    let Some(at) = state.units.get(piece).and_then(|u| u.hex) else {
        return false;
    };
    let in_park = h
        .param("area")
        .and_then(|a| rs.game.scenario.area(a))
        .is_some_and(|a| rs.in_area(a, at));
    listed && in_park && !enemy_near_town(rs, state)
}

/// Refuse `what` if any of `pieces` is a frozen park battery.
pub(crate) fn check(
    rs: &Gbacw,
    state: &GbacwState,
    pieces: &[&CounterId],
    what: &str,
) -> Result<(), RuleError> {
    match pieces.iter().find(|p| frozen(rs, state, p)) {
        Some(p) => Err(err(
            &rs.case_rule("29.44"),
            RuleCode::Illegal,
            format!(
                "{p} is in the artillery park: it may not {what} until the second day or until a Confederate unit comes within six hexes of a Corinth hex"
            ),
        )),
        None => Ok(()),
    }
}

/// At the end of a phase: the park freed for good, once.
pub(crate) fn freed_at_phase_end(rs: &Gbacw, state: &GbacwState) -> Option<GbacwEvent> {
    let h = hook(rs)?;
    if state.park_freed || state.clock.turn > h.number("until").unwrap_or(20) {
        return None;
    }
    enemy_near_town(rs, state).then(|| GbacwEvent::ParkFreed {
        case: rs.case_rule("29.44"),
    })
}
