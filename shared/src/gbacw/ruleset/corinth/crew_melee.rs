//! Corinth 22.4 with 24.21: melee against a lone battery crew away from
//! its guns.
//!
//! 22.4: "A unit may initiate melee without undergoing a Morale Check if
//! ... it is attacking ... a lone wagon or battery crew." So a crew away
//! from its guns (`crew_piece`), standing alone in its hex, may be meleed.
//! On with `hook lone-crew-melee`. How it defends and what the Melee CRT
//! does to it, from the Standard Rules:
//! - GBACW 6.13: "Gun crews are considered to be in Line, for purposes of
//!   melee, fire combat, and when routed and moved without guns": it is
//!   foot to its attackers (mounted cavalry is not doubled against it,
//!   16.2x read through `Opponents::foot`), and it retreats as Line
//!   infantry; no unlimbered guns are with it, so 12.92's capture of
//!   unlimbered guns on a retreat result does not apply.
//! - GBACW 12.12, 15.14: its Melee Strength is its crew's, 1 full, 0 half;
//!   routed, halved (12.51); Corinth 24.24's 1st US Infantry crews 0.
//! - GBACW 12.91, 12.93, 15.12: a K or C takes a crew step; the second
//!   ends the crew and the battery leaves play (24.22: eliminated away
//!   from its guns, not counted for Victory Points with
//!   `crew-loss-keeps-guns`; by a C, eliminated by capture).
//! - GBACW 12.92, 12.95: a retreat result moves it that many hexes from
//!   where it stands (not into its guns' hex where another way exists),
//!   then it checks morale; failing, it routs three hexes (13.31) from
//!   there. With no way to retreat it is captured (12.92). A routed crew
//!   hit again (a loss or a retreat) routs again without a check (13.33).
//! - The leaders in its hex roll on 17.72 as in any melee.
//!
//! A crew away in a hex with friendly units (`hook crew-stack-melee`)
//! defends with them (12.74: "stacked with a gun crew in melee", losses
//! from the infantry/cavalry first) and shares their result
//! ([`apply_stacked`]). Decisions (docs/gbacw-notes.md): the crew
//! is not offered a retreat before melee (12.8x); an Engaged result
//! engages the attackers only (the battery's markers are its guns').

use super::Gbacw;
use super::crew_piece::{check_morale, crew_hex, crew_routed, rout_crew};
use crate::gbacw::map::HexNumber;
use crate::gbacw::melee::SideOutcome;
use crate::gbacw::oob::{CounterId, Crew, Formation, Marker, UnitStatus};
use crate::gbacw::retreat::RetreatKind;
use crate::gbacw::ruleset::combat::effects::{ROUT_HEXES, leader_casualties, retreat_options};
use crate::gbacw::ruleset::combat::{Roller, Unfold};
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::scenario::HookKind;

/// Corinth 22.4: the battery of `side` whose crew stands alone in
/// `target`, away from its guns, when the battle melees lone crews (the
/// first by id when several crews share the hex). The caller has found
/// no unit of `side` in `target`.
pub(crate) fn defender(
    rs: &Gbacw,
    state: &GbacwState,
    target: HexNumber,
    side: &CounterId,
) -> Option<CounterId> {
    super::hook(rs, HookKind::LoneCrewMelee)?;
    super::crew_piece::crew_of(rs, state, target, side)
}

/// GBACW 6.13, 12.12, 12.51: the crew away as it stands in melee: in Line
/// (never unlimbered guns: 12.92's capture of the guns is not for it), its
/// crew's step, routed only if it has not rallied since it routed (the
/// battery's Rout marker is the Crew marker, 24.21, and stays on rallied).
pub(crate) fn status(state: &GbacwState, battery: &CounterId) -> UnitStatus {
    let mut status = state.units[battery].status.clone();
    status.formation = Formation::Line;
    status.markers.clear();
    if crew_routed(state, battery) {
        status.markers.insert(Marker::Rout);
    }
    status
}

/// Corinth 22.4, 24.21 with GBACW 12.91–12.95, 13.33, 15.12, 24.22: the
/// Melee CRT's effect `o` on `battery`'s lone crew, `after` being its
/// status once the losses are taken (its crew step).
pub(crate) fn apply(
    rs: &Gbacw,
    u: &mut Unfold,
    roll: &mut Roller,
    battery: &CounterId,
    after: &UnitStatus,
    o: &SideOutcome,
) {
    let Some(at) = crew_hex(&u.state, battery) else {
        return;
    };
    let side = rs.game.oob.units[battery].side.clone();
    let routed = crew_routed(&u.state, battery);
    let hit = after.crew != u.state.units[battery].status.crew;
    if hit {
        // 12.91, 12.93: a K or a C costs the crew a step (15.12).
        u.push(GbacwEvent::CrewHit {
            unit: battery.clone(),
            crew: after.crew,
        });
    }
    // 17.72: the leaders where it stood roll, before anything moves.
    if let Some(cause) = o.leader_roll {
        leader_casualties(rs, u, roll, &side, at, cause);
    }
    if after.crew == Crew::None {
        // 24.22: eliminated away from its guns; by a C, captured.
        u.push(GbacwEvent::UnitRemoved {
            unit: battery.clone(),
            captured: !o.captured.is_empty(),
        });
        return;
    }
    if routed {
        // 13.33: hit again while routed, it routs again, no check.
        if hit || o.retreat.is_some() {
            rout_crew(rs, u, battery);
        }
        return;
    }
    if let Some(n) = o.retreat
        && !retreat(rs, u, battery, usize::from(n))
    {
        return;
    }
    // 12.92, 12.95: the survivors check morale; a crew back at its guns
    // after the retreat checks there as any battery does.
    if o.morale_check {
        match crew_hex(&u.state, battery) {
            Some(now) => {
                if check_morale(rs, u, roll, battery, now, false) {
                    rout_crew(rs, u, battery);
                }
            }
            None => {
                crate::gbacw::ruleset::combat::effects::check_morale(rs, u, roll, battery);
            }
        }
    }
}

/// GBACW 12.92 with 6.13: `battery`'s crew retreats `n` hexes from where
/// it stands as Line infantry, not into its guns' hex where another way
/// exists; with no way it is captured (12.92, 24.22). Returns whether it
/// is still in play.
fn retreat(rs: &Gbacw, u: &mut Unfold, battery: &CounterId, n: usize) -> bool {
    retreat_from(rs, u, battery, n, RetreatKind::MeleeResult)
}

/// [`retreat`] for any `kind` of retreat (14.3's displacement too).
pub(crate) fn retreat_from(
    rs: &Gbacw,
    u: &mut Unfold,
    battery: &CounterId,
    n: usize,
    kind: RetreatKind,
) -> bool {
    let Some(at) = crew_hex(&u.state, battery) else {
        return true;
    };
    let guns = u.state.units[battery].hex;
    // The crew's paths are the battery's read from the crew's hex (an
    // unlimbered battery's paths are read as Line, as `rout_crew` does).
    let mut there = u.state.clone();
    there.crews_away.remove(battery);
    if let Some(s) = there.units.get_mut(battery) {
        s.hex = Some(at);
        s.status.formation = Formation::Unlimbered;
    }
    let paths = retreat_options(rs, &there, battery, n.min(ROUT_HEXES), kind);
    // A crew moves its full length on the map (27.3 takes units off it,
    // not crew markers).
    let paths: Vec<_> = paths
        .into_iter()
        .filter(|p| p.len() == n.min(ROUT_HEXES))
        .collect();
    let path = paths
        .iter()
        .find(|p| !p.iter().any(|h| Some(*h) == guns))
        .or(paths.first())
        .cloned();
    match path {
        Some(path) => {
            let rejoined = path.last().copied() == guns;
            u.push(GbacwEvent::CrewMoved {
                battery: battery.clone(),
                path,
                rejoined,
            });
            true
        }
        None => {
            u.push(GbacwEvent::UnitRemoved {
                unit: battery.clone(),
                captured: true,
            });
            false
        }
    }
}

/// Corinth 24.21 with GBACW 12.74, 15.1: the battery of `side` whose crew,
/// away from its guns, stands in `target` with friendly units that are
/// meleed there (the first by id when several crews share the hex), when
/// the battle has `hook crew-stack-melee`. 15.1: crews do not count for
/// stacking but "are considered line infantry for all purposes", and 12.74
/// speaks of infantry "stacked with a gun crew in melee": the crew is one
/// of the defenders. The caller has found units of `side` in `target`.
pub(crate) fn stacked_defender(
    rs: &Gbacw,
    state: &GbacwState,
    target: HexNumber,
    side: &CounterId,
) -> Option<CounterId> {
    super::hook(rs, HookKind::CrewStackMelee)?;
    super::crew_piece::crew_of(rs, state, target, side)
}

/// Corinth 24.21 with GBACW 12.74, 12.91–12.95: the Melee CRT's effect
/// `o` on the defenders, for `battery`'s crew (their `index`) that
/// defended with friendly units in its hex, `after` its status once the
/// losses are taken. The friends' losses, leader rolls (17.72, in the
/// same hex) and retreats have been applied by the caller; the crew
/// shares the rest of the result as a lone crew does (`apply`): a step
/// per point that reached it (12.74 put it last), by a C captured;
/// "the affected unit(s) must retreat" (12.92): it retreats the same
/// number of hexes from the hex, or is captured with no way; then it
/// checks morale; routed, hit again, it routs again (13.33).
pub(crate) fn apply_stacked(
    rs: &Gbacw,
    u: &mut Unfold,
    roll: &mut Roller,
    battery: &CounterId,
    index: usize,
    after: &UnitStatus,
    o: &SideOutcome,
) {
    let own = SideOutcome {
        killed: o
            .killed
            .iter()
            .filter(|(i, _)| *i == index)
            .cloned()
            .collect(),
        captured: o
            .captured
            .iter()
            .filter(|(i, _)| *i == index)
            .cloned()
            .collect(),
        // 17.72: the leaders in the hex rolled with the friends' result.
        leader_roll: None,
        ..o.clone()
    };
    apply(rs, u, roll, battery, after, &own);
}
