//! GBACW 15.1, 15.16: a battery's crew, as a piece of its own once it
//! routs away from its unlimbered guns.
//!
//! GBACW 15.16: "When an unlimbered artillery crew is routed, the crew
//! routs but the guns remain in the original hex. When limbered, the
//! entire battery is moved in rout movement." 13.25: "Unlimbered guns
//! never rout. However, their crews may rout, thus abandoning the guns".
//! 15.1: "Artillery crews do not count for stacking and are considered
//! line infantry for all purposes (see 6.13)."
//!
//! The engine keeps a battery's crew as its `UnitStatus::crew` (full,
//! half, none), not as a counter of its own, so a crew of unlimbered guns
//! that routs (a failed morale check that would rout any other unit:
//! 13.21 after fire, 9.81, 9.87, 12.83) leaves its guns: the battery
//! takes the Rout marker, which stands for the crew's absence (Corinth
//! 24.21 calls it the neutral Crew marker; the guns neither fire, 13.32,
//! nor have a ZOC, and defend in melee at 0, 12.51), and the crew's rout
//! movement (three hexes as Line infantry, 13.31, 6.13) is recorded in
//! `GbacwState::crews_away` (`GbacwEvent::CrewRouted`). The guns never
//! move with it (13.25). From there the crew is a piece of its own
//! ([`piece`]): it moves, rallies where it stands (13.54, the battery's
//! `Rally` action), can be fired on, and lifts the marker by walking back
//! into its guns' hex. A crew with no rout path is captured (14.2), and
//! with it the battery (15.12: a battery without its crew leaves play).
//!
//! The Standard Rules play this in every battle. A battle changes it
//! through `BattleRules`: `guns_held_in_place` (Corinth 24.3: a siege
//! battery's crew routs alone, limbered too), the melee and displacement
//! hooks (Corinth 22.4, 24.21), `guns_count_as_lost` (Corinth 24.22).

pub(crate) mod piece;

use crate::gbacw::oob::{CounterId, Formation, Marker, UnitKind};
use crate::gbacw::retreat::RetreatKind;
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::combat::Unfold;
use crate::gbacw::ruleset::combat::effects::{retreat_options, set_markers};
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::GbacwState;

/// GBACW 13.31: the crew routs three hexes.
const CREW_ROUT_HEXES: usize = 3;

/// GBACW 15.16: whether `id` is unlimbered guns on the map, whose crew
/// routs away from them; or guns the battle holds in place limbered too
/// (`BattleRules::guns_held_in_place`, Corinth 24.3's siege guns).
pub(crate) fn crew_routs(rs: &Gbacw, state: &GbacwState, id: &CounterId) -> bool {
    matches!(rs.game.oob.units[id].kind, UnitKind::Battery { .. })
        && state.units.get(id).is_some_and(|s| {
            s.hex.is_some()
                && (s.status.formation == Formation::Unlimbered
                    || rs.battle().guns_held_in_place(rs, id))
        })
}

/// GBACW 13.25, 13.33, 15.16 (Corinth 24.21, 24.3): the rout retreat of `id`, when
/// its guns stay where they are: unlimbered guns, guns whose crew is away
/// already, or guns the battle holds in place (Corinth 24.3's siege
/// guns). A crew at its guns routs away from them
/// (again, if it came back routed). Returns whether the guns stayed (the
/// caller then moves nothing).
pub(crate) fn guns_stay_in_rout(rs: &Gbacw, u: &mut Unfold, id: &CounterId) -> bool {
    if u.state.crews_away.contains_key(id) {
        return true;
    }
    let unlimbered = u.state.units[id].status.formation == Formation::Unlimbered;
    if !unlimbered && !rs.battle().guns_held_in_place(rs, id) {
        return false;
    }
    if crew_routs(rs, &u.state, id) {
        abandon(rs, u, id);
    }
    true
}

/// GBACW 13.25, 15.16 (Corinth 24.21): the crew of the unlimbered battery
/// `id` has failed a morale check that routs: it abandons the guns (the
/// Rout marker on the battery is the Crew marker) and routs three hexes
/// on its own, the guns staying. With no rout path the crew is captured
/// and the battery with it (14.2, 15.12; Corinth 24.22, 25.24).
pub(crate) fn abandon(rs: &Gbacw, u: &mut Unfold, id: &CounterId) {
    if u.state.crews_away.contains_key(id) {
        // Away already: the guns do not rout (13.25).
        return;
    }
    // 6.13: the crew retreats as Line infantry (the unlimbered battery has
    // no move class, so its paths are read as Line; Corinth 24.3's limbered siege
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
    // A crew routs its full three hexes on the map (Corinth 27.3 takes units off
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
        piece::rout_along(rs, u, id, guns, &path, Vec::new(), None);
    }
}

/// GBACW 15.16 (Corinth 24.21): the crew routs away (a piece of its own, routed, where
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
