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
//!   move with it (13.25). From there the crew is a piece of its own
//!   (`crew_piece.rs`): it moves, rallies where it stands (13.54, the
//!   battery's `Rally` action), can be fired on, and lifts the marker by
//!   walking back into its guns' hex. A crew with no rout path is
//!   captured, and with it the battery (24.22, 25.24).
//! - 24.3 (`hook siege-crews-rout`): a siege battery's crew routs away from
//!   its guns limbered too ([`siege_crew`]).
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

use crate::gbacw::oob::{CounterId, Formation, Marker, UnitKind};
use crate::gbacw::retreat::RetreatKind;
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::combat::Unfold;
use crate::gbacw::ruleset::combat::effects::{retreat_options, set_markers};
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::scenario::HookKind;

/// GBACW 13.31: the crew routs three hexes.
const CREW_ROUT_HEXES: usize = 3;

/// Corinth 24.21: whether `id` is unlimbered guns whose crew routs away
/// from them in this battle (`hook crew-rout`); Corinth 24.3 (`hook
/// siege-crews-rout`): a siege battery's crew does so limbered too.
pub(crate) fn crew_routs(rs: &Gbacw, state: &GbacwState, id: &CounterId) -> bool {
    super::hook(rs, HookKind::CrewRout).is_some()
        && matches!(rs.game.oob.units[id].kind, UnitKind::Battery { .. })
        && state.units.get(id).is_some_and(|s| {
            s.hex.is_some() && (s.status.formation == Formation::Unlimbered || siege_crew(rs, id))
        })
}

/// Corinth 24.3: "the guns of these batteries ... may only move one hex per
/// turn ... Their crews are free to move if routed." A siege battery
/// (`hook siege-guns units=`) routed limbered would rout its guns three
/// hexes (15.16); read with 24.3, the guns stay and the crew alone routs
/// (24.21), free of the guns' one hex. On with `hook siege-crews-rout`.
pub(crate) fn siege_crew(rs: &Gbacw, id: &CounterId) -> bool {
    super::hook(rs, HookKind::SiegeCrewsRout).is_some()
        && super::hook(rs, HookKind::CrewRout).is_some()
        && super::hook(rs, HookKind::SiegeGuns).is_some_and(|h| {
            h.param("units")
                .is_some_and(|list| list.split(',').any(|u| u == id.0))
        })
}

/// GBACW 13.25, 13.33, Corinth 24.21, 24.3: the rout retreat of `id`, when
/// its guns stay where they are: unlimbered guns, guns whose crew is away
/// already, or (24.3) siege guns. A crew at its guns routs away from them
/// (again, if it came back routed). Returns whether the guns stayed (the
/// caller then moves nothing).
pub(crate) fn guns_stay_in_rout(rs: &Gbacw, u: &mut Unfold, id: &CounterId) -> bool {
    if u.state.crews_away.contains_key(id) {
        return true;
    }
    let unlimbered = u.state.units[id].status.formation == Formation::Unlimbered;
    if !unlimbered && !siege_crew(rs, id) {
        return false;
    }
    if crew_routs(rs, &u.state, id) {
        abandon(rs, u, id);
    }
    true
}

/// Corinth 24.21, GBACW 13.25, 15.16: the crew of the unlimbered battery
/// `id` has failed a morale check that routs: it abandons the guns (the
/// Rout marker on the battery is the Crew marker) and routs three hexes
/// on its own, the guns staying. With no rout path the crew is captured
/// and the battery with it (24.22, 25.24).
pub(crate) fn abandon(rs: &Gbacw, u: &mut Unfold, id: &CounterId) {
    if u.state.crews_away.contains_key(id) {
        // Away already: the guns do not rout (13.25).
        return;
    }
    // 6.13: the crew retreats as Line infantry (the unlimbered battery has
    // no move class, so its paths are read as Line; 24.3's limbered siege
    // guns are read unlimbered for it).
    let path = if u.state.units[id].status.formation == Formation::Unlimbered {
        retreat_options(rs, &u.state, id, CREW_ROUT_HEXES, RetreatKind::Rout)
    } else {
        let mut as_line = u.state.clone();
        if let Some(s) = as_line.units.get_mut(id) {
            s.status.formation = Formation::Unlimbered;
        }
        retreat_options(rs, &as_line, id, CREW_ROUT_HEXES, RetreatKind::Rout)
    }
    .into_iter()
    // A crew routs its full three hexes on the map (27.3 takes units off
    // it, not crew markers).
    .find(|p| p.len() == CREW_ROUT_HEXES);
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
    // GBACW 10.2: retreat fire on the way.
    if let Some(guns) = u.state.units[id].hex {
        super::crew_piece::rout_along(rs, u, id, guns, &path, Vec::new(), None);
    }
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

/// Corinth 24.21: the crew routs away (a piece of its own, routed, where
/// its rout ended), rallies where it stands (13.54), moves, comes back to
/// its guns (the Crew marker comes off) or goes with them.
pub(crate) fn evolve(state: &mut GbacwState, event: &GbacwEvent) {
    match event {
        GbacwEvent::CrewRouted { battery, path } => {
            if let Some(end) = path.last() {
                state.crews_away.insert(battery.clone(), *end);
                state.crews_rallied.remove(battery);
            }
        }
        GbacwEvent::RallyTried {
            unit,
            rallied: true,
            ..
        } if state.crews_away.contains_key(unit) => {
            state.crews_rallied.insert(unit.clone());
        }
        GbacwEvent::CrewMoved {
            battery,
            path,
            rejoined,
        } => {
            state.crews_moved.insert(battery.clone(), state.clock);
            if *rejoined {
                state.crews_away.remove(battery);
                // A rallied crew lifts the marker; a routed one is a
                // routed crew at its guns (the Rout marker stays, 13.54).
                if state.crews_rallied.remove(battery)
                    && let Some(u) = state.units.get_mut(battery)
                {
                    u.status.markers.remove(&Marker::Rout);
                }
            } else if let Some(end) = path.last() {
                state.crews_away.insert(battery.clone(), *end);
            }
        }
        GbacwEvent::UnitRemoved { unit, .. } => {
            state.crews_away.remove(unit);
            state.crews_rallied.remove(unit);
            state.crews_moved.remove(unit);
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
