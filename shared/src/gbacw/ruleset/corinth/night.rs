//! Corinth 26.1: night movement, on when the scenario has
//! `hook night-movement allowance=1.5 woods=1`, and 26.15's end-of-day
//! retreat of melees still engaged (`hook night-engaged-retreat turn=16
//! hexes=2`). 26.13 and 26.15's ban on fire and melee at night are
//! `decide/restraint.rs`.

use crate::gbacw::charts::{MoveClass, Mp};
use crate::gbacw::command::PathBlocks;
use crate::gbacw::map::{HexNumber, Terrain};
use crate::gbacw::oob::{CounterId, Marker};
use crate::gbacw::retreat::{RetreatKind, retreat_paths_on};
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::scenario::HookKind;
use std::collections::BTreeSet;

/// Corinth 26.11: "The Movement Allowances of all units are increased by
/// one-half ... an infantry regiment would have an allowance of 9 at
/// night, instead of 6." In half points, rounded down to a half point.
pub(crate) fn allowance(rs: &Gbacw, state: &GbacwState, printed: Mp) -> Mp {
    let Some(h) = super::hook(rs, HookKind::NightMovement) else {
        return printed;
    };
    if !super::is_night(rs, state.clock.turn) {
        return printed;
    }
    // `allowance=1.5` as tenths, so the file keeps the rule's own figure.
    let tenths = h
        .param("allowance")
        .and_then(|v| v.parse::<f64>().ok())
        .map_or(15, |x| (x * 10.0).round() as u32);
    let halves = u32::from(printed.0) * tenths / 10;
    Mp(u16::try_from(halves).unwrap_or(u16::MAX))
}

/// Corinth 26.12: "Add 1 Movement Point to the cost of entering a woods
/// hex" at night; every other cost is the day's.
pub(crate) fn step_cost(rs: &Gbacw, state: &GbacwState, to: HexNumber, cost: Mp) -> Mp {
    let Some(h) = super::hook(rs, HookKind::NightMovement) else {
        return cost;
    };
    if !super::is_night(rs, state.clock.turn) {
        return cost;
    }
    let woods = rs
        .game
        .map
        .hex(to)
        .is_some_and(|info| info.has(Terrain::Woods));
    if !woods {
        return cost;
    }
    let extra = Mp::from_whole(h.number("woods").unwrap_or(1));
    Mp(cost.0.saturating_add(extra.0))
}

/// Corinth 26.15: whether ending the current phase makes the end-of-day
/// retreat: the hook is on, this is the Final Command Phase of `side=`'s
/// Player-Turn (the Union's) on Game-Turn `turn=` (16), and some unit is
/// engaged.
pub(crate) fn end_of_day_due(rs: &Gbacw, state: &GbacwState) -> bool {
    use crate::gbacw::sequence::{Phase, Step};
    let Some(h) = super::hook(rs, HookKind::NightEngagedRetreat) else {
        return false;
    };
    let Step::Phase {
        phase: Phase::FinalCommand,
        ..
    } = state.clock.step
    else {
        return false;
    };
    let turn_ok = h.number("turn") == Some(state.clock.turn);
    let side_ok = h
        .param("side")
        .is_none_or(|s| rs.phasing_side(state.clock).is_some_and(|p| p.0 == s));
    turn_ok
        && side_ok
        && state
            .units
            .values()
            .any(|u| u.hex.is_some() && u.status.markers.contains(&Marker::Engaged))
}

/// Corinth 26.15: "Should there be a melee result of 'engaged' at the end
/// of the last day Game-Turn, it is resolved by having both sides retreat
/// two hexes from the engagement hex during the Union Final Command Phase
/// of Game-Turn 16. The phasing player retreats first and then the
/// non-phasing player. The non-phasing player may not retreat into a hex
/// which the phasing player retreated through. There is no Morale Check
/// ... units may retreat through friendly units without causing
/// displacement ... If any unit is unable to retreat, it is captured."
///
/// Decisions (docs/gbacw-notes.md, "Corinth 26, 28, 21.2, 21.43 in play"):
/// the engine picks each path (the first of 14.3's most preferred tier,
/// as a retreat's default), so the phase asks nothing new of the
/// players; enemy ZOCs do not stop the retreat (the text names only the
/// other side's retreat hexes; a rout-like two hexes, no retreat fire:
/// the night's only fire is withdrawal fire, 26.15); each hex farther
/// from the engagement hex; the end hex within the stacking limits; toward
/// the 27.0 goal (27.0 names every forced retreat) and into town by road
/// only for guns, wagons and horses (23.31).
pub(crate) fn end_of_day_retreats(rs: &Gbacw, state: &GbacwState) -> Vec<GbacwEvent> {
    let Some(phasing) = rs.phasing_side(state.clock).cloned() else {
        return Vec::new();
    };
    let length = super::hook(rs, HookKind::NightEngagedRetreat)
        .and_then(|h| h.number("hexes"))
        .map_or(2, usize::from);
    let other = rs.enemy_of(&phasing).clone();
    let mut s = state.clone();
    let mut events = Vec::new();
    let mut used: BTreeSet<HexNumber> = BTreeSet::new();
    for side in [&phasing, &other] {
        let engaged: Vec<CounterId> = s
            .units
            .iter()
            .filter(|(id, u)| {
                u.hex.is_some()
                    && u.status.markers.contains(&Marker::Engaged)
                    && rs.game.oob.units[*id].side == *side
            })
            .map(|(id, _)| id.clone())
            .collect();
        let forbidden = if *side == phasing {
            BTreeSet::new()
        } else {
            used.clone()
        };
        for id in engaged {
            let mut markers = s.units[&id].status.markers.clone();
            markers.remove(&Marker::Engaged);
            let mut out = vec![GbacwEvent::MarkersSet {
                unit: id.clone(),
                markers,
            }];
            match retreat_path(rs, &s, &id, length, &forbidden) {
                Some(path) => {
                    used.extend(path.iter().copied());
                    // 27.3: into its Assault Area with hexes left, off
                    // the map from there.
                    let leaves = crate::gbacw::ruleset::combat::effects::leaves_map(&path, length);
                    let end = path.last().copied();
                    out.push(GbacwEvent::UnitRetreated {
                        unit: id.clone(),
                        path,
                    });
                    if leaves {
                        let mut there = s.clone();
                        if let Some(x) = there.units.get_mut(&id) {
                            x.hex = end;
                        }
                        out.push(super::retreat::no_path(rs, &there, &id));
                    }
                }
                // "If any unit is unable to retreat, it is captured";
                // off the map from its 27.0 goal, eliminated (27.1, 27.2)
                // or held off the map (27.3).
                None => out.push(super::retreat::no_path(rs, &s, &id)),
            }
            for e in out {
                crate::gbacw::ruleset::event::evolve(&mut s, &e);
                events.push(e);
            }
        }
    }
    events
}

/// The path `id` retreats at nightfall, if it has one.
fn retreat_path(
    rs: &Gbacw,
    state: &GbacwState,
    id: &CounterId,
    length: usize,
    forbidden: &BTreeSet<HexNumber>,
) -> Option<Vec<HexNumber>> {
    let start = state.units.get(id)?.hex?;
    let unit = &rs.game.oob.units[id];
    let st = &state.units[id].status;
    let class = st.formation.move_class().unwrap_or(MoveClass::Line);
    let mut blocks = PathBlocks::default();
    for (other, u) in &state.units {
        let Some(h) = u.hex else { continue };
        if rs.game.oob.units[other].side != unit.side {
            blocks.enemy_units.insert(h);
        }
    }
    // The hexes the phasing side retreated through are closed to the other.
    blocks.enemy_units.extend(forbidden.iter().copied());
    let board = Board::new(rs, state);
    // Corinth 27.0 (toward the goal, else 27.2's fallback) and 23.31 (the
    // ruleset's steps: guns, wagons and horses into town by road only).
    crate::gbacw::ruleset::combat::retreat_limits::limits(rs, state, id)
        .iter()
        .map(|limits| {
            retreat_paths_on(
                &rs.game.map,
                &rs.steps,
                class,
                start,
                length,
                RetreatKind::Rout,
                &blocks,
                limits,
            )
        })
        .find(|paths| !paths.is_empty())
        .unwrap_or_default()
        .into_iter()
        .map(|p| p.hexes)
        .find(|p| {
            crate::gbacw::ruleset::combat::effects::leaves_map(p, length)
                || p.last().is_some_and(|end| {
                    board
                        .check_stack(*end, &unit.side, &[], &[id], None)
                        .is_ok()
                })
        })
}
