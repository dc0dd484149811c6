//! Corinth 27.0: where retreats and routs go. Confederates retreat toward
//! the Assault Area they entered by (27.1), the Union toward Corinth, else
//! toward the south-east corner (27.2), by the most direct route in hexes:
//! no step takes a unit farther from its goal, and the retreat ends nearer
//! than it began (27.0: a retreat is never an advance); deviating around
//! the enemy and its Zones of Control is every path that keeps that. A
//! unit that has reached its goal on the map's edge and must retreat
//! further goes off the map: eliminated (27.1, 27.2; GBACW 5.17 would
//! capture it). On when the scenario has `hook retreat-toward`.
//!
//! 27.3: a Confederate unit going off the map into its Assault Area where
//! the assault plan holds a cavalry unit still off the map (29.27) is not
//! eliminated: it waits off the map, among the arrivals again, and may
//! enter through its division's area in a later Confederate Movement Phase
//! (the text's "next" is read as "from the next": nothing says what
//! becomes of one that waits longer). A retreat that enters the area with
//! hexes left goes off the map there ([`leaves_at_goal`]).
//!
//! Every retreat keeps 27.0: the forced ones (melee results, routs,
//! displacement, brigade retreats, 26.15's nightfall retreat) through the
//! path search's `RetreatLimits`, and a retreat before melee (12.8x,
//! 22.1's, 21.42's forced one) through the check of the path the player
//! gives (`cedar::retreat::check_given_path`). A retreat before melee
//! with no path that keeps 27.0 is refused: the unit stands and takes the
//! melee (GBACW 12.88's outcome for a unit that may not retreat before
//! melee), also when 21.42 would force it.

use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::CounterId;
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::scenario::{Hook, HookKind};
use std::collections::BTreeSet;

fn hook(rs: &Gbacw) -> Option<&Hook> {
    rs.game.scenario.hook(HookKind::RetreatToward)
}

fn hexes(list: &str) -> BTreeSet<HexNumber> {
    list.split(',')
        .filter_map(|h| HexNumber::parse(h.trim()))
        .collect()
}

/// Corinth 27.1, 27.2: the goal hexes of `unit`'s retreats, the first
/// choice and the fallback; `None` when the rule is off or names none for
/// its side (a Confederate unit that never entered by an area).
pub(crate) fn goals(
    rs: &Gbacw,
    state: &GbacwState,
    unit: &CounterId,
) -> Option<(BTreeSet<HexNumber>, Option<BTreeSet<HexNumber>>)> {
    let h = hook(rs)?;
    let side = &rs.game.oob.units.get(unit)?.side.0;
    let value = h.param(side)?;
    if value == "entry-area" {
        // 27.1: the Assault Area(s) holding the hex it entered by (hexes
        // shared by two areas give both).
        let entered = state.entered_at.get(unit)?;
        let names: Vec<&str> = h.param("areas")?.split(',').collect();
        let goal: BTreeSet<HexNumber> = rs
            .game
            .map
            .areas()
            .filter(|(n, hs)| names.contains(n) && hs.contains(entered))
            .flat_map(|(_, hs)| hs.iter().copied())
            .collect();
        return (!goal.is_empty()).then_some((goal, None));
    }
    let goal = hexes(value);
    let fallback = h
        .param(&format!("{side}-else"))
        .map(hexes)
        .filter(|g| !g.is_empty());
    (!goal.is_empty()).then_some((goal, fallback))
}

/// Corinth 27.3: "A unit which is called on to retreat and which occupies
/// or enters an Assault Area hex is always required to retreat off map if
/// it still has hexes left in its retreat result. Thus, a Confederate unit
/// which retreats towards an Assault Area (see 27.1), enters the Assault
/// Area and still has hexes left in its retreat result is retreated off
/// the map". True for a unit whose goal is the Assault Area it entered by
/// (27.1): a retreat path stops at the first area hex it enters with hexes
/// left, and the unit goes off the map there ([`no_path`]: held with
/// cavalry in the area, else eliminated). One standing in the area has no
/// path on the map (none ends nearer it) and goes off from there. The
/// Union's goals (27.2) are not Assault Areas: unchanged.
pub(crate) fn leaves_at_goal(rs: &Gbacw, state: &GbacwState, unit: &CounterId) -> bool {
    let Some(h) = hook(rs) else {
        return false;
    };
    let Some(u) = rs.game.oob.units.get(unit) else {
        return false;
    };
    h.param(&u.side.0) == Some("entry-area") && state.entered_at.contains_key(unit)
}

/// Corinth 27.1, 27.2: `unit`, with no retreat path left, stands on its
/// goal at the map's edge: it retreats off the map and is eliminated
/// rather than captured.
pub(crate) fn off_the_map(rs: &Gbacw, state: &GbacwState, unit: &CounterId) -> bool {
    let Some(hex) = state.units.get(unit).and_then(|u| u.hex) else {
        return false;
    };
    let Some((goal, fallback)) = goals(rs, state, unit) else {
        return false;
    };
    let on_goal = goal.contains(&hex) || fallback.is_some_and(|f| f.contains(&hex));
    on_goal && rs.game.map.grid.neighbours_on_map(hex).len() < 6
}

/// Corinth 27.3: the Assault Area (the scenario's area id) `unit` goes
/// off the map into where a cavalry unit is held off the map by the
/// assault plan (29.27), if there is one.
pub(crate) fn held_in(rs: &Gbacw, state: &GbacwState, unit: &CounterId) -> Option<CounterId> {
    let entered = state.entered_at.get(unit)?;
    let plan = state.progress.assault.as_ref()?.plan.as_ref()?;
    plan.cavalry
        .iter()
        .filter(|(cavalry, _)| {
            state.progress.to_arrive.contains(*cavalry) && !state.held_off_map.contains(*cavalry)
        })
        .map(|(_, area)| area)
        .find(|area| {
            rs.game
                .scenario
                .area(&area.0)
                .is_some_and(|a| a.hexes.contains(entered))
        })
        .cloned()
}

/// What becomes of `unit` that must retreat and has no path: captured
/// (GBACW 14.1); off the map from its goal, eliminated (Corinth 27.1,
/// 27.2) or held off the map (27.3).
pub(crate) fn no_path(rs: &Gbacw, state: &GbacwState, unit: &CounterId) -> GbacwEvent {
    if off_the_map(rs, state, unit)
        && let Some(area) = held_in(rs, state, unit)
    {
        return GbacwEvent::HeldOffMap {
            unit: unit.clone(),
            area,
        };
    }
    GbacwEvent::UnitRemoved {
        unit: unit.clone(),
        captured: !off_the_map(rs, state, unit),
    }
}
