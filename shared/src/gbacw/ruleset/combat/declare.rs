//! Declaring fire in a Fire Phase (9.0–9.46, 7.21, 7.22, 9.7, 12.6):
//! every check that does not need the die, so that the plan the phase
//! rolls at its end (9.42) holds only legal attacks.

use super::attack::prepare;
use crate::engine::{RuleCode, RuleError};
use crate::gbacw::facing::{can_fire_through, fire_crossings, frontal_directions};
use crate::gbacw::fire::{
    FireOccasion, check_hexside_limits, check_split_points, may_fire, unit_fire_strength_read,
};
use crate::gbacw::los::Los;
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, Marker, UnitKind};
use crate::gbacw::ruleset::action::{MAX_ATTACKS, MAX_FIRERS};
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::decide::own_unit;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::{FireShare, GbacwState, PlannedFire};
use crate::gbacw::ruleset::{Gbacw, err};
use hexx::EdgeDirection;
use std::collections::BTreeMap;

fn illegal(rule: &str, message: impl Into<String>) -> RuleError {
    err(rule, RuleCode::Illegal, message)
}

/// GBACW 9.0: `side` declares an attack on `target` in a Fire Phase of
/// `occasion` (Offensive or Defensive).
pub(crate) fn declare(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    occasion: FireOccasion,
    target: HexNumber,
    firers: &[FireShare],
) -> Result<Vec<GbacwEvent>, RuleError> {
    if firers.is_empty() || firers.len() > MAX_FIRERS {
        return Err(err(
            "GBACW 9.0",
            RuleCode::Invalid,
            format!("an attack has 1 to {MAX_FIRERS} firers"),
        ));
    }
    if state.fire_plan.len() >= MAX_ATTACKS {
        return Err(err(
            "GBACW 9.0",
            RuleCode::Invalid,
            format!("at most {MAX_ATTACKS} attacks in a Fire Phase"),
        ));
    }
    for (k, f) in firers.iter().enumerate() {
        if firers[..k].iter().any(|g| g.unit == f.unit) {
            return Err(err(
                "GBACW 9.45",
                RuleCode::Invalid,
                format!("{} is named twice in one attack", f.unit),
            ));
        }
    }
    let board = Board::new(rs, state);
    let game = &rs.game;
    if rs.game.map.hex(target).is_none() {
        return Err(err(
            "GBACW 9.0",
            RuleCode::Invalid,
            format!("{target} is not on the map"),
        ));
    }
    // The battle's own rule here (hook `check_fire_target`).
    rs.battle().check_fire_target(
        rs,
        state,
        target,
        !board.units_of(target, rs.enemy_of(side)).is_empty(),
    )?;
    // GBACW 12.6: never into a hex whose units are engaged in melee.
    if board
        .units_of(target, rs.enemy_of(side))
        .iter()
        .any(|id| state.units[*id].status.markers.contains(&Marker::Engaged))
    {
        return Err(illegal(
            "GBACW 12.6",
            format!("the units in {target} are engaged in melee"),
        ));
    }
    for f in firers {
        let (u, from) = own_unit(rs, state, side, &f.unit)?;
        let unit = &game.oob.units[&f.unit];
        // The battle's own rule here (hook `check_firer`).
        rs.battle().check_firer(rs, state, &f.unit)?;
        // The battle's own rule here (hook `fire_status`).
        let status = rs.battle().fire_status(rs, &unit.kind, &u.status);
        may_fire(unit, &status, &game.charts.range, occasion)
            .map_err(|rule| illegal(rule, format!("{} may not fire now", f.unit)))?;
        // GBACW 17.11: "Furthermore, such a unit may not fire during the
        // Offensive Fire Phase … However, such units may still fire
        // defensive, withdrawal, and retreat fire" — out of command at
        // the Initial Command Phase, no offensive fire.
        if occasion == FireOccasion::Offensive && state.command.out_of_command.contains(&f.unit) {
            return Err(illegal(
                "GBACW 17.11",
                format!(
                    "{} is out of its brigade commander's Effectiveness Radius and may not \
                     fire in the Offensive Fire Phase",
                    unit.designation
                ),
            ));
        }
        // GBACW 15.0: "once an artillery unit has moved, it may not fire.
        // However, if an artillery unit does not move but changes
        // formation (from limbered to unlimbered), it may fire." Hexes
        // entered count from the Movement Phase of this Player-Turn (a
        // formation change enters none).
        if matches!(unit.kind, UnitKind::Battery { .. }) && u.moved.hexes > 0 {
            return Err(illegal(
                "GBACW 15.0",
                format!(
                    "{} moved this Player-Turn, and a battery that has moved may not fire \
                     (unlimbering without moving would have let it fire)",
                    unit.designation
                ),
            ));
        }
        if f.points == 0 || f.points > u.status.strength {
            return Err(illegal(
                "GBACW 9.45",
                format!(
                    "{} fires 1 to {} points (its current strength)",
                    f.unit, u.status.strength
                ),
            ));
        }
        // GBACW 7.22: only through a frontal hexside.
        // Corinth 23.22: out of a redan's ZOC hexsides only.
        let facing = rs.battle().facing_in(rs, from, u.facing);
        if !can_fire_through(&game.map.grid, from, facing, u.status.formation, target) {
            return Err(illegal(
                "GBACW 7.22",
                format!("{target} is not beyond a frontal hexside of {}", f.unit),
            ));
        }
        // GBACW 9.7: the firer must see the target.
        // Cedar Mountain 21.42, 21.43: standing corn blocks, blown down not.
        if let Los::Blocked(_) =
            crate::gbacw::ruleset::sight::line_of_sight(rs, state, from, target, |h| {
                board.unit_feet(h)
            })
        {
            return Err(illegal(
                "GBACW 9.7",
                format!("{} has no line of sight to {target}", f.unit),
            ));
        }
    }
    let prepared = prepare(rs, state, target, firers, None, None)?;
    // GBACW 9.44: once by small arms and once by artillery per Fire Phase.
    if state
        .fire_plan
        .iter()
        .any(|p| p.target == target && p.artillery == prepared.artillery)
    {
        return Err(illegal(
            "GBACW 9.44",
            format!(
                "{target} is already fired at by {} this phase",
                if prepared.artillery {
                    "artillery"
                } else {
                    "small arms"
                }
            ),
        ));
    }
    let planned = PlannedFire {
        target,
        firers: firers.to_vec(),
        artillery: prepared.artillery,
        rapid: false,
    };
    let mut plan = state.fire_plan.clone();
    plan.push(planned.clone());
    check_splits(rs, state, &plan)?;
    check_hexsides(rs, state, &plan)?;
    Ok(vec![GbacwEvent::FireDeclared(planned)])
}

/// GBACW 9.45, 9.46: each unit fires its current strength once, split
/// among target hexes at most to its total; when split, every share comes
/// to a final strength of at least 1.
fn check_splits(rs: &Gbacw, state: &GbacwState, plan: &[PlannedFire]) -> Result<(), RuleError> {
    let mut shares: BTreeMap<&CounterId, Vec<(u8, HexNumber)>> = BTreeMap::new();
    for p in plan {
        for f in &p.firers {
            shares
                .entry(&f.unit)
                .or_default()
                .push((f.points, p.target));
        }
    }
    let game = &rs.game;
    for (id, list) in shares {
        let u = &state.units[id];
        let points: Vec<u8> = list.iter().map(|(p, _)| *p).collect();
        check_split_points(u.status.strength, &points).map_err(|rule| {
            illegal(
                rule,
                format!(
                    "{id} would fire {} points in all, more than its {}",
                    points.iter().map(|p| u32::from(*p)).sum::<u32>(),
                    u.status.strength
                ),
            )
        })?;
        if list.len() < 2 {
            continue;
        }
        let (Some(from), Some(weapon)) = (
            u.hex,
            game.oob.units[id]
                .weapon
                .as_deref()
                .and_then(|w| game.charts.range.weapon(w)),
        ) else {
            continue;
        };
        for (points, target) in list {
            let range = game.map.grid.distance(from, target);
            let ok = unit_fire_strength_read(
                weapon,
                points,
                range,
                u.status.crew,
                rs.options.half_crew_halves_final,
            )
            .is_some_and(|s| s.at_least_one());
            if !ok {
                return Err(illegal(
                    "GBACW 9.46",
                    format!("{id}'s split share at {target} comes to less than 1"),
                ));
            }
        }
    }
    Ok(())
}

/// GBACW 7.21, 9.31, 9.32: at most the hex's limit (chart 8.18) of
/// small-arms points fire out through any one frontal hexside in a Fire
/// Phase; artillery is exempt. A line along a vertex leaves through the
/// first frontal hexside beside it.
fn check_hexsides(rs: &Gbacw, state: &GbacwState, plan: &[PlannedFire]) -> Result<(), RuleError> {
    let game = &rs.game;
    let mut by_hex: BTreeMap<HexNumber, Vec<(EdgeDirection, u8)>> = BTreeMap::new();
    for p in plan.iter().filter(|p| !p.artillery) {
        for f in &p.firers {
            let u = &state.units[&f.unit];
            if matches!(game.oob.units[&f.unit].kind, UnitKind::Battery { .. }) {
                continue;
            }
            let Some(from) = u.hex else { continue };
            let facing = rs.battle().facing_in(rs, from, u.facing);
            let front = frontal_directions(facing, u.status.formation);
            if let Some(d) = fire_crossings(&game.map.grid, from, p.target)
                .into_iter()
                .find(|d| front.contains(d))
            {
                by_hex.entry(from).or_default().push((d, f.points));
            }
        }
    }
    for (hex, allotments) in by_hex {
        let Some(limits) = rs
            .battle()
            .terrain_now(rs, state, hex)
            .and_then(|t| game.charts.stacking.limits(&t))
        else {
            continue;
        };
        if let Err(d) = check_hexside_limits(&allotments, limits.fire_per_hexside) {
            let name = crate::gbacw::facing::direction_names(game.map.grid.orientation)
                [usize::from(crate::gbacw::facing::Facing::new(d).index())];
            return Err(illegal(
                "GBACW 7.21",
                format!(
                    "more than {} small-arms points would fire out of {hex} through its {name} hexside",
                    limits.fire_per_hexside
                ),
            ));
        }
    }
    Ok(())
}

/// Take back a declared attack.
pub(crate) fn cancel(state: &GbacwState, index: u16) -> Result<Vec<GbacwEvent>, RuleError> {
    if usize::from(index) >= state.fire_plan.len() {
        return Err(err(
            "GBACW 9.0",
            RuleCode::NotFound,
            format!("there is no declared attack {index}"),
        ));
    }
    Ok(vec![GbacwEvent::FireCancelled { index }])
}
