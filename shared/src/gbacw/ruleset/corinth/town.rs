//! Corinth 23.3: the town. On when the scenario has `hook
//! town-road-entry` (23.31), for movement and every retreat.
//!
//! Already chart data (`assets/gbacw/charts.toml`, read by the shared
//! code whatever the hooks): the entry costs (`movement.terrain.town`,
//! provisional: the chart is not in the seeds), no effect on melee (23.32:
//! no melee row), 25 ft for sight (23.33: a town hex between two others
//! blocks a level line; the ends never block, so a unit sees into an
//! adjacent town hex and a unit in town sees out), and the defender's two
//! columns left (23.34, `combat.hex.town`).

use crate::gbacw::charts::MoveClass;
use crate::gbacw::map::{SideKind, Terrain};
use crate::gbacw::movement::{Blocked, StepTable};
use crate::gbacw::ruleset::scenario::Game;
use crate::gbacw::scenario::HookKind;

/// The classes 23.31 names: "Artillery, wagons and mounted cavalry".
const ROAD_ONLY: [MoveClass; 3] = [MoveClass::Limbered, MoveClass::Wagon, MoveClass::Mounted];

/// Corinth 23.31: "Artillery, wagons and mounted cavalry may only enter a
/// town through a hexside crossed by a road. Thus, an artillery unit would
/// be able to enter 2834 from 2833 but not from 2934." Closes, in the
/// ruleset's step table, every step into a town hex across a hexside with
/// no road (or pike) to those classes; moving within the town along a
/// street is a road step too. Retreats and routs (14.0, 12.8x, 26.15)
/// search and check their steps in this same table, so the rule binds
/// them too (`retreat::retreat_paths_on`); with no legal retreat left the
/// Standard outcome follows (captured, 14.1; a retreat before melee is
/// refused and the unit stands, 12.88). 12.33's "could move there" asks
/// this same table (`combat::melee::may_melee_into`), so these classes
/// melee into a town hex only across a road as well.
pub(crate) fn restrict_steps(game: &Game, steps: &mut StepTable) {
    if game.scenario.hook(HookKind::TownRoadEntry).is_none() {
        return;
    }
    let map = &game.map;
    for to in map.grid.hexes() {
        if !map
            .hex(to)
            .is_some_and(|h| h.terrain.contains(&Terrain::Town))
        {
            continue;
        }
        for (_, from) in map.grid.neighbours_on_map(to) {
            let by_road = map.grid.hexside(from, to).is_some_and(|side| {
                map.side_has(side, SideKind::Road) || map.side_has(side, SideKind::Pike)
            });
            if !by_road {
                for class in ROAD_ONLY {
                    steps.forbid(class, from, to, Blocked::RoadOnly(Terrain::Town));
                }
            }
        }
    }
}
