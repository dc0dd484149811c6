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
//! Not done: 27.3's survival off the map with a cavalry unit held in the
//! Assault Area (29.27) and re-entry next Movement Phase — a unit off the
//! map is eliminated; a retreat before melee (a choice, 12.8) is not
//! held to 27.0.

use super::super::Gbacw;
use super::super::state::GbacwState;
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::CounterId;
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
