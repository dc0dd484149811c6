//! Corinth 25.2: brigade retreat. When an infantry or cavalry unit of a
//! brigade that has lost BCE routs inside its brigade commander's
//! Effectiveness Radius, every other unpinned unit of that brigade inside
//! the radius retreats: unrouted ones two hexes and then check morale
//! (routing three more on failure), routed ones three (25.21); pinned ones
//! stay (25.22); one with no way is captured (25.24); once per brigade per
//! Phase, and the unit that set it off only routs its own three hexes
//! (25.25). On when the scenario's `bce-loss` hook has `brigade-retreat=`.
//!
//! Decisions (docs/gbacw-notes.md): each retreating unit takes the first
//! legal path (the default of a retreat order, 14.4) rather than waiting
//! for its owner's choice, since the morale check follows the move in the
//! same resolution; 25.23's withdrawal fire on leaving an enemy Zone of
//! Control and 25.26's optional battery retreat are not offered (the
//! batteries stay: the option is the owner's and declining it is legal).

use super::super::Gbacw;
use super::super::board::Board;
use super::super::cedar::bce_loss::{self, Effect};
use super::super::combat::effects::{check_morale, retreat_options};
use super::super::combat::{Roller, Unfold};
use super::super::event::GbacwEvent;
use super::super::state::GbacwState;
use crate::gbacw::command::{effective_radius, within_radius};
use crate::gbacw::oob::{Command, CounterId, LeaderRole, Marker, UnitKind};
use crate::gbacw::retreat::RetreatKind;

/// GBACW 13.31: a routed unit retreats three hexes.
const ROUTED_HEXES: usize = 3;
/// Corinth 25.2: the brigade's unrouted units retreat two hexes.
const BRIGADE_HEXES: usize = 2;

/// Whether `unit` stands within its brigade commander's Effectiveness
/// Radius now (the commander on the map).
fn in_radius(rs: &Gbacw, state: &GbacwState, brigade: &CounterId, unit: &CounterId) -> bool {
    let Some(hex) = state.units.get(unit).and_then(|u| u.hex) else {
        return false;
    };
    let Some(leader) = state.leaders.get(brigade) else {
        return false;
    };
    let Some(at) = leader.hex else {
        return false;
    };
    let ratings = match rs.game.oob.leaders.get(brigade).map(|l| &l.role) {
        Some(LeaderRole::Brigade { ratings, .. }) | Some(LeaderRole::Replacement { ratings }) => {
            *ratings
        }
        _ => return false,
    };
    let side = &rs.game.oob.units[unit].side;
    let plus = leader.augmented.as_ref().map_or(0, |(_, p)| *p);
    within_radius(
        &rs.game.map,
        &Board::new(rs, state).command_blocks(side),
        at,
        hex,
        effective_radius(&ratings, plus),
    )
}

/// Corinth 25.2: the brigade `unit` would set retreating if it routed now,
/// with the units that go; `None` when 25.2 does not apply. Asked before
/// the unit's own rout retreat moves it (the radius is where it routed).
pub(crate) fn triggered(
    rs: &Gbacw,
    state: &GbacwState,
    unit: &CounterId,
) -> Option<(CounterId, Vec<CounterId>)> {
    bce_loss::effect_case(rs, Effect::BrigadeRetreat)?;
    let printed = rs.game.oob.units.get(unit)?;
    if !matches!(printed.kind, UnitKind::Infantry | UnitKind::Cavalry) {
        return None;
    }
    let Command::Brigade(brigade) = &printed.command else {
        return None;
    };
    if !bce_loss::brigade_broken(rs, state, brigade) {
        return None;
    }
    // 25.25: once per Phase.
    if state.brigade_retreats.get(brigade) == Some(&state.clock) {
        return None;
    }
    if !in_radius(rs, state, brigade, unit) {
        return None;
    }
    let members: Vec<CounterId> = rs
        .game
        .oob
        .units
        .iter()
        .filter(|(id, u)| {
            *id != unit
                && matches!(&u.command, Command::Brigade(b) if b == brigade)
                && state.units.get(*id).is_some_and(|s| {
                    s.hex.is_some()
                        // 25.22: the pinned stay; 25.26: batteries may
                        // stay, and do (see the module comment).
                        && !s.status.markers.contains(&Marker::Pin)
                        && !matches!(u.kind, UnitKind::Battery { .. } | UnitKind::Wagon { .. })
                })
                && in_radius(rs, state, brigade, id)
        })
        .map(|(id, _)| id.clone())
        .collect();
    Some((brigade.clone(), members))
}

/// Corinth 25.2–25.25: the brigade retreat `triggered` found, carried out
/// after the triggering unit's own rout.
pub(crate) fn carry_out(
    rs: &Gbacw,
    u: &mut Unfold,
    roll: &mut Roller,
    trigger: &CounterId,
    brigade: CounterId,
    members: Vec<CounterId>,
) {
    u.push(GbacwEvent::BrigadeRetreated {
        brigade,
        trigger: trigger.clone(),
        units: members.clone(),
    });
    for id in &members {
        let Some(st) = u.state.units.get(id) else {
            continue;
        };
        if st.hex.is_none() {
            continue;
        }
        let routed = st.status.markers.contains(&Marker::Rout);
        let (length, kind) = if routed {
            // 25.21: the routed retreat three.
            (ROUTED_HEXES, RetreatKind::Rout)
        } else {
            (BRIGADE_HEXES, RetreatKind::MeleeResult)
        };
        let options = retreat_options(rs, &u.state, id, length, kind);
        let Some(path) = options.into_iter().next() else {
            // 25.24: unable to retreat, it is captured.
            u.push(GbacwEvent::UnitRemoved {
                unit: id.clone(),
                captured: true,
            });
            continue;
        };
        super::super::combat::retreat_fire::go_along(rs, u, roll, id, &path, Vec::new(), None);
        // 25.2: at the end of the two hexes, a morale check; failing, the
        // unit routs three more (and, 25.25, sets off nothing more).
        if !routed && u.state.units[id].hex.is_some() && u.state.retreat_fire.is_empty() {
            check_morale(rs, u, roll, id);
        }
    }
}
