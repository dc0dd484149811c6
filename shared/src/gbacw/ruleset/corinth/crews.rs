//! Corinth 24.2: battery crews.
//!
//! The engine keeps a battery's crew as its `UnitStatus::crew` (full,
//! half, none), not as a counter of its own, so:
//! - 24.21 (`hook crew-rout`): a crew of unlimbered guns that routs (a
//!   failed morale check that would rout any other unit: 13.21 after fire,
//!   9.81, 9.87, or a morale check of 25.2, 12.83; GBACW 13.25 "their crews
//!   may rout, thus abandoning the guns", 15.16 "the crew routs but the
//!   guns remain") leaves its guns: the battery takes the Rout marker,
//!   which is the engine's neutral Crew marker (the guns neither fire,
//!   13.32, nor have a ZOC, and defend in melee at 0, 12.51), and the
//!   crew's rout movement (three hexes as Line infantry, 13.31, 6.13) is
//!   recorded in `GbacwState::crews_away` (`GbacwEvent::CrewRouted`). The guns never
//!   move with it (13.25). The crew back at its guns lifts the marker: it
//!   rallies by a die (13.54, the battery's `Rally` action) and, rallied,
//!   rejoins its guns (it stands at most three hexes off, one move for Line
//!   infantry), so the rally is its return. A crew with no rout path is
//!   captured, and with it the battery (24.22, 25.24).
//! - 24.22 holds: a battery whose crew is gone leaves play
//!   (`combat::effects`, 15.12) and is never re-crewed (15.15). Its guns
//!   count for 31.1's Victory Points only when the enemy captured it or
//!   destroyed all its guns by fire (`hook crew-loss-keeps-guns`,
//!   [`guns_count_as_lost`], read by `victory.rs`); a battery removed
//!   because its crew was lost to small arms or melee (15.12) leaves its
//!   guns uncounted.
//! - 24.23 holds already: the half crew is `Crew::Half` (fire halved,
//!   15.13), shown with the battery; a crew that routs keeps its step.
//! - 24.24 (optional) is here: `hook crew-melee-zero units=… when=OPTION`.
//!
//! Not modelled: the crew counter as a piece of its own on the map (it
//! cannot be fired on, has no ZOC and draws no retreat fire while away;
//! its letter code is the battery's id).

use super::super::Gbacw;
use super::super::combat::Unfold;
use super::super::combat::effects::{retreat_options, set_markers};
use super::super::event::GbacwEvent;
use super::super::state::GbacwState;
use crate::gbacw::oob::{CounterId, Formation, Marker, UnitKind};
use crate::gbacw::retreat::RetreatKind;
use crate::gbacw::scenario::HookKind;

/// GBACW 13.31: the crew routs three hexes.
const CREW_ROUT_HEXES: usize = 3;

/// Corinth 24.21: whether `id` is unlimbered guns whose crew routs away
/// from them in this battle (`hook crew-rout`).
pub(crate) fn crew_routs(rs: &Gbacw, state: &GbacwState, id: &CounterId) -> bool {
    super::hook(rs, HookKind::CrewRout).is_some()
        && matches!(rs.game.oob.units[id].kind, UnitKind::Battery { .. })
        && state
            .units
            .get(id)
            .is_some_and(|s| s.hex.is_some() && s.status.formation == Formation::Unlimbered)
}

/// Corinth 24.21, GBACW 13.25, 15.16: the crew of the unlimbered battery
/// `id` has failed a morale check that routs: it abandons the guns (the
/// Rout marker on the battery is the Crew marker) and routs three hexes
/// on its own, the guns staying. With no rout path the crew is captured
/// and the battery with it (24.22, 25.24).
pub(crate) fn abandon(rs: &Gbacw, u: &mut Unfold, id: &CounterId) {
    if u.state.units[id].status.markers.contains(&Marker::Rout) {
        // Away already: the guns do not rout (13.25).
        return;
    }
    // 6.13: the crew retreats as Line infantry (the unlimbered battery has
    // no move class, so its paths are read as Line).
    let path = retreat_options(rs, &u.state, id, CREW_ROUT_HEXES, RetreatKind::Rout)
        .into_iter()
        .next();
    let Some(path) = path else {
        u.push(GbacwEvent::UnitRemoved {
            unit: id.clone(),
            captured: true,
        });
        return;
    };
    set_markers(u, id, |s| {
        crate::gbacw::morale::rout(&mut s.markers);
    });
    u.push(GbacwEvent::CrewRouted {
        battery: id.clone(),
        path,
    });
}

/// Corinth 24.22: "the guns are not considered lost for Victory Point
/// purposes unless the enemy player eliminated the battery by capture or
/// the guns were eliminated by enemy battery fire": whether the battery
/// `id`, out of play, counts as lost guns. Off the hook (the Standard
/// Rules, Cedar Mountain), always.
pub(crate) fn guns_count_as_lost(rs: &Gbacw, state: &GbacwState, id: &CounterId) -> bool {
    if super::hook(rs, HookKind::CrewLossKeepsGuns).is_none() {
        return true;
    }
    // Captured guns were counted into `captured`; guns all destroyed
    // leave no strength. A crew lost (15.12) leaves guns behind.
    state
        .units
        .get(id)
        .is_none_or(|u| u.captured > 0 || u.status.strength == 0)
}

/// Corinth 24.21: the crew is back at its guns (rallied, 13.54) or gone
/// with them: the Crew marker comes off.
pub(crate) fn evolve(state: &mut GbacwState, event: &GbacwEvent) {
    match event {
        GbacwEvent::CrewRouted { battery, path } => {
            if let Some(end) = path.last() {
                state.crews_away.insert(battery.clone(), *end);
            }
        }
        GbacwEvent::RallyTried {
            unit,
            rallied: true,
            ..
        }
        | GbacwEvent::UnitRemoved { unit, .. } => {
            state.crews_away.remove(unit);
        }
        _ => {}
    }
}

/// Corinth 24.24 (optional): "The companies of the 1st US Infantry which
/// acted as crews for the batteries Robinett, Phillips and Williams ...
/// regardless of their status (full or half crew), their Melee Strength is
/// always 0." `strength` as computed, or 0 for such a battery when the
/// table plays the option.
pub(crate) fn melee_strength(rs: &Gbacw, unit: &CounterId, strength: u16) -> u16 {
    let Some(h) = super::hook(rs, HookKind::CrewMeleeZero) else {
        return strength;
    };
    if let Some(option) = h.param("when")
        && !rs.scenario_options().iter().any(|o| o.0 == option)
    {
        return strength;
    }
    let listed = h
        .param("units")
        .is_some_and(|list| list.split(',').any(|u| u == unit.0));
    let battery = rs
        .game
        .oob
        .units
        .get(unit)
        .is_some_and(|u| matches!(u.kind, UnitKind::Battery { .. }));
    if listed && battery { 0 } else { strength }
}
