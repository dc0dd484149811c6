//! Corinth 25.2: brigade retreat. When an infantry or cavalry unit of a
//! brigade that has lost BCE routs inside its brigade commander's
//! Effectiveness Radius, every other unpinned unit of that brigade inside
//! the radius retreats: unrouted ones two hexes and then check morale
//! (routing three more on failure), routed ones three (25.21); pinned ones
//! stay (25.22); one with no way is captured (25.24); once per brigade per
//! Phase, and the unit that set it off only routs its own three hexes
//! (25.25). On when the scenario's `bce-loss` hook has `brigade-retreat=`.
//!
//! 25.23 (`hook brigade-retreat-fire`): a unit that retreats out of an
//! enemy Zone of Control draws withdrawal fire (10.1): the retreat halts
//! before it leaves, the enemy seat is offered the shot (the engine's
//! withdrawal-fire decision, `Resume::BrigadeRetreat`), and the rest of
//! the brigade retreat goes on once it is answered ([`after_fire`]).
//! Every shot is offered: where another withdrawal-fire decision already
//! waits (a second brigade broken by the same resolution), the brigade
//! retreat is held back whole from that unit on
//! (`GbacwState::held_brigade_runs`) and goes on once no decision waits
//! ([`resume_held`]).
//!
//! 25.26 (`hook brigade-retreat-batteries`): then the brigade's batteries
//! are offered the retreat (`retreat_batteries`).
//!
//! Decisions (docs/gbacw-notes.md): each retreating unit takes the first
//! legal path (the default of a retreat order, 14.4) rather than waiting
//! for its owner's choice, since the morale check follows the move in the
//! same resolution. The units retreat one after the other, in the order
//! the event names them; the run that is left waits inside the decision.
//! Brigade retreats go one at a time, in the order they were set off:
//! the seed gives no order between two brigades' retreats, but 10.11
//! fires "before the withdrawing unit leaves the hex", so a unit that
//! draws fire cannot go on while another shot is unanswered, and 25.2
//! moves a brigade as one ("all ... must retreat"), so the brigade waits
//! behind it rather than being split. A held retreat resumes after the
//! answer that leaves no decision waiting, its shots coming after all of
//! the earlier brigade's (each shot read on the board as it then stands).

use crate::gbacw::command::{effective_radius, within_radius};
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{Command, CounterId, Formation, LeaderRole, Marker, UnitKind};
use crate::gbacw::retreat::RetreatKind;
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::combat::effects::{check_morale, retreat_options, set_markers};
use crate::gbacw::ruleset::combat::{Roller, Unfold};
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::exclusive::bce_loss::{self, Effect};
use crate::gbacw::ruleset::state::{GbacwState, Resume, Trigger, WithdrawalDecision};
use crate::gbacw::scenario::HookKind;
use serde::{Deserialize, Serialize};

/// GBACW 13.31: a routed unit retreats three hexes.
const ROUTED_HEXES: usize = 3;
/// Corinth 25.2: the brigade's unrouted units retreat two hexes.
const BRIGADE_HEXES: usize = 2;

/// Whether `unit` stands within its brigade commander's Effectiveness
/// Radius now (the commander on the map).
pub(crate) fn in_radius(
    rs: &Gbacw,
    state: &GbacwState,
    brigade: &CounterId,
    unit: &CounterId,
) -> bool {
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

/// Corinth 25.2: what is left of a brigade retreat while a decision
/// holds it (25.23's withdrawal fire, 25.26's batteries).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BrigadeRun {
    pub brigade: CounterId,
    /// The units still to retreat, in order.
    pub members: Vec<CounterId>,
    /// Corinth 25.26: the batteries offered the retreat once the members
    /// have gone.
    #[serde(default)]
    pub batteries: Vec<CounterId>,
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
        brigade: brigade.clone(),
        trigger: trigger.clone(),
        units: members.clone(),
    });
    let batteries = super::retreat_batteries::eligible(rs, &u.state, &brigade);
    go_on(
        rs,
        u,
        roll,
        BrigadeRun {
            brigade,
            members,
            batteries,
        },
    );
}

/// Corinth 25.2: the units of `run` retreat in order, until one waits for
/// withdrawal fire (25.23); then the batteries are offered the retreat
/// (25.26). A unit that would draw fire while another shot waits holds
/// the run back from itself on (see the module comment).
pub(crate) fn go_on(rs: &Gbacw, u: &mut Unfold, roll: &mut Roller, mut run: BrigadeRun) {
    while !run.members.is_empty() {
        let id = run.members.remove(0);
        let Some((path, check)) = begin(rs, u, &id) else {
            continue;
        };
        if let Some(offer) = withdrawal_fire(rs, u, &id, &path, check, &run) {
            if u.state.decision.is_some() {
                // Its path is found again when it resumes: the board
                // will have changed by then.
                run.members.insert(0, id);
                u.push(GbacwEvent::BrigadeRetreatHeld(run));
            } else {
                u.push(GbacwEvent::WithdrawalFireOffered(offer));
            }
            return;
        }
        finish(rs, u, roll, &id, &path, check);
    }
    super::retreat_batteries::offer(rs, u, run);
}

/// Corinth 25.23: once a withdrawal-fire answer leaves no decision
/// waiting, the brigade retreats held back meanwhile go on, first held
/// first, until one stops for its next shot or none is left.
pub(crate) fn resume_held(rs: &Gbacw, u: &mut Unfold, roll: &mut Roller) {
    while u.state.decision.is_none() {
        let Some(run) = u.state.held_brigade_runs.first().cloned() else {
            return;
        };
        u.push(GbacwEvent::BrigadeRetreatResumed {
            brigade: run.brigade.clone(),
        });
        go_on(rs, u, roll, run);
    }
}

/// The path `id` retreats along and whether it checks morale after (the
/// unrouted do, 25.2); `None` when it is off the map, or has no path and
/// is captured (25.24).
fn begin(rs: &Gbacw, u: &mut Unfold, id: &CounterId) -> Option<(Vec<HexNumber>, bool)> {
    let st = u.state.units.get(id)?;
    st.hex?;
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
        return None;
    };
    Some((path, !routed))
}

/// Corinth 25.23: the withdrawal fire (10.1) `id` draws by retreating out
/// of the enemy Zones of Control it stands in, offered to the enemy seat;
/// `None` where the battle does not play 25.23 or no enemy may fire.
fn withdrawal_fire(
    rs: &Gbacw,
    u: &Unfold,
    id: &CounterId,
    path: &[HexNumber],
    check: bool,
    run: &BrigadeRun,
) -> Option<WithdrawalDecision> {
    super::hook(rs, HookKind::BrigadeRetreatFire)?;
    let hex = u.state.units[id].hex?;
    // In the Movement Phase too: a brigade retreat there comes of
    // withdrawal fire on a move, whose decision has been answered by then
    // (the rest of the move goes on without further offers); a second
    // shot waiting holds the run back ([`go_on`]).
    let side = &rs.game.oob.units[id].side;
    let mounted = u.state.units[id].status.formation == Formation::Mounted;
    let firers = Board::new(rs, &u.state).withdrawal_firers(side, hex, mounted);
    if firers.is_empty() {
        return None;
    }
    Some(WithdrawalDecision {
        seat: rs.seat_of(rs.enemy_of(side)),
        trigger: Trigger::Leaving,
        hex,
        targets: vec![id.clone()],
        firers,
        toward: path.first().copied(),
        resume: Resume::BrigadeRetreat {
            unit: id.clone(),
            path: path.to_vec(),
            check,
            run: run.clone(),
        },
    })
}

/// GBACW 14.3, 10.2 and Corinth 25.2: `id` retreats along `path`
/// (displacing friends, drawing retreat fire where it enters new enemy
/// ZOCs); at the end of its two hexes an unrouted unit checks morale,
/// failing it routs three more (and, 25.25, sets off nothing more).
fn finish(
    rs: &Gbacw,
    u: &mut Unfold,
    roll: &mut Roller,
    id: &CounterId,
    path: &[HexNumber],
    check: bool,
) {
    // 27.3: a path shorter than the retreat goes off the map at its end
    // (the unrouted, who check, retreat two; the routed three, 25.21).
    let length = if check { BRIGADE_HEXES } else { ROUTED_HEXES };
    let leaves = crate::gbacw::ruleset::combat::effects::leaves_map(path, length);
    crate::gbacw::ruleset::combat::retreat_fire::go_along(
        rs,
        u,
        roll,
        id,
        path,
        leaves,
        Vec::new(),
        None,
    );
    // A unit halted for retreat fire has not ended its retreat yet.
    let halted = u.state.retreat_fire.iter().any(|o| o.unit == *id);
    if check && u.state.units[id].hex.is_some() && !halted {
        check_morale(rs, u, roll, id);
    }
}

/// Corinth 25.23: the withdrawal fire on `unit` (leaving `hex` along
/// `path`) has been answered (`pinned`: the units whose pin 10.15 held
/// back). A unit pinned by it retreats one hex, is pinned there and
/// checks morale; one the fire routed has gone its own way (13.31); the
/// others retreat on as before. Then the rest of the run.
#[allow(clippy::too_many_arguments)]
pub(crate) fn after_fire(
    rs: &Gbacw,
    u: &mut Unfold,
    roll: &mut Roller,
    hex: HexNumber,
    unit: &CounterId,
    path: &[HexNumber],
    check: bool,
    run: BrigadeRun,
    pinned: &[CounterId],
) {
    let here = u.state.units.get(unit).is_some_and(|s| s.hex == Some(hex));
    let markers = u
        .state
        .units
        .get(unit)
        .map(|s| s.status.markers.clone())
        .unwrap_or_default();
    // An unrouted unit the fire routed has gone its own way (13.31); a
    // routed one hit again has already routed on from here (13.33).
    let gone = !here || (check && markers.contains(&Marker::Rout));
    if !gone {
        // The unit was unpinned when the retreat began (25.22): a pin now
        // is the fire's (a routed unit takes it at once, 13.33).
        if pinned.contains(unit) || markers.contains(&Marker::Pin) {
            let first = &path[..path.len().min(1)];
            crate::gbacw::ruleset::combat::retreat_fire::go_along(
                rs,
                u,
                roll,
                unit,
                first,
                false,
                Vec::new(),
                None,
            );
            set_markers(u, unit, |s| {
                s.markers.insert(Marker::Pin);
            });
            // 25.23: "must make a Morale Check" (a routed unit has none to
            // make: it is routed already).
            let halted = u.state.retreat_fire.iter().any(|o| o.unit == *unit);
            if check && u.state.units[unit].hex.is_some() && !halted {
                check_morale(rs, u, roll, unit);
            }
        } else {
            finish(rs, u, roll, unit, path, check);
        }
    }
    go_on(rs, u, roll, run);
}

/// Corinth 25.23: the enemy seat declined the shot: `unit` retreats as
/// if none had been offered, then the rest of the run.
pub(crate) fn after_decline(
    rs: &Gbacw,
    u: &mut Unfold,
    roll: &mut Roller,
    unit: &CounterId,
    path: &[HexNumber],
    check: bool,
    run: BrigadeRun,
) {
    if u.state.units.get(unit).is_some_and(|s| s.hex.is_some()) {
        finish(rs, u, roll, unit, path, check);
    }
    go_on(rs, u, roll, run);
}
