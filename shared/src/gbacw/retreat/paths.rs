//! GBACW 14.1–14.4: legal retreat paths.

use crate::gbacw::charts::{MoveClass, MovementChart};
use crate::gbacw::command::PathBlocks;
use crate::gbacw::map::{HexNumber, Map};
use crate::gbacw::movement::step_cost;
use hexx::EdgeDirection;

/// Why the unit retreats; the kinds differ on enemy ZOCs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetreatKind {
    /// An `R#` melee result (12.92): never into an enemy ZOC.
    MeleeResult,
    /// Retreat before melee (12.81, 12.82): one or two hexes, never into
    /// an enemy ZOC.
    BeforeMelee,
    /// A rout (13.31) or a displacement (14.3): may pass through enemy
    /// ZOCs, drawing retreat fire (14.2, 10.2).
    Rout,
}

/// One legal path, without the start hex.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetreatPath {
    pub hexes: Vec<HexNumber>,
    /// It enters friendly-occupied hexes, displacing them (8.15, 14.3).
    pub through_friendly: bool,
    /// It enters enemy ZOC hexes, drawing retreat fire (14.2, 10.2).
    pub through_enemy_zoc: bool,
}

/// Longest retreat searched. The rules never ask for more than three
/// hexes at once (R3, 13.31); a longer request finds no path, which keeps
/// the search small whatever the caller passes.
pub const MAX_LENGTH: usize = 9;

/// GBACW 14.0–14.4: every path of exactly `length` hexes from `start`, each
/// step one hex further from it (14.4: end the full distance away, never
/// the same hex twice), on the map (5.17), never into an enemy unit or
/// impassable terrain (14.1, 12.92: the class's movement chart decides
/// what is impassable), nor into an enemy ZOC unless the kind allows it.
/// `blocks.enemy_zoc` holds the hexes in enemy ZOC for retreat purposes
/// (10.0: mounted cavalry's counts only against mounted cavalry).
///
/// Only the most preferred tier of paths is returned (14.3): clear of
/// friends and enemy ZOC; else through friendly hexes (a path through
/// enemy ZOC is not an open alternative to a friendly hex); else through
/// enemy ZOC (routs only); else through both. Empty: the unit is captured
/// (5.17, 12.92, 13.31).
pub fn retreat_paths(
    map: &Map,
    chart: &MovementChart,
    class: MoveClass,
    start: HexNumber,
    length: usize,
    kind: RetreatKind,
    blocks: &PathBlocks,
) -> Vec<RetreatPath> {
    retreat_paths_limited(
        map,
        chart,
        class,
        start,
        length,
        kind,
        blocks,
        &RetreatLimits::default(),
    )
}

/// What exclusive rules add to a retreat: where it may go.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RetreatLimits {
    /// Cedar Mountain 23.0: every step must go in one of these directions
    /// (toward the unit's own lines); `None`: any.
    pub directions: Option<Vec<EdgeDirection>>,
    /// Cedar Mountain 24.14: never into an enemy ZOC, even routing.
    pub no_enemy_zoc: bool,
    /// Corinth 27.1, 27.2: retreat toward these hexes (an Assault Area,
    /// the town): no step farther from the nearest of them, and the path
    /// ends nearer than it started (a retreat is never an advance); `None`:
    /// anywhere.
    pub toward: Option<std::collections::BTreeSet<HexNumber>>,
}

impl RetreatLimits {
    /// Hexes from `hex` to the nearest goal hex (`toward`).
    pub fn to_goal(&self, grid: &crate::gbacw::map::Grid, hex: HexNumber) -> Option<u32> {
        self.toward
            .as_ref()
            .and_then(|g| g.iter().map(|t| grid.distance(hex, *t)).min())
    }
}

/// [`retreat_paths`] under an exclusive rule's [`RetreatLimits`]; the
/// limits hold inside the search, so 14.3's tiers are chosen among the
/// paths that keep them.
#[allow(clippy::too_many_arguments)]
pub fn retreat_paths_limited(
    map: &Map,
    chart: &MovementChart,
    class: MoveClass,
    start: HexNumber,
    length: usize,
    kind: RetreatKind,
    blocks: &PathBlocks,
    limits: &RetreatLimits,
) -> Vec<RetreatPath> {
    if length > MAX_LENGTH {
        return Vec::new();
    }
    let mut search = Search {
        map,
        chart,
        class,
        start,
        length,
        kind,
        blocks,
        limits,
        found: Vec::new(),
    };
    search.walk(start, &mut Vec::new());
    let mut all = search.found;
    let tier = |p: &RetreatPath| match (p.through_friendly, p.through_enemy_zoc) {
        (false, false) => 0,
        (true, false) => 1,
        (false, true) => 2,
        (true, true) => 3,
    };
    let best = all.iter().map(tier).min();
    all.retain(|p| Some(tier(p)) == best);
    all
}

/// The fixed inputs of one path search and what it has found.
struct Search<'a> {
    map: &'a Map,
    chart: &'a MovementChart,
    class: MoveClass,
    start: HexNumber,
    length: usize,
    kind: RetreatKind,
    blocks: &'a PathBlocks,
    limits: &'a RetreatLimits,
    found: Vec<RetreatPath>,
}

impl Search<'_> {
    fn walk(&mut self, at: HexNumber, path: &mut Vec<HexNumber>) {
        if path.len() == self.length {
            // Corinth 27.0: nearer the goal at the end than at the start.
            let grid = &self.map.grid;
            if let (Some(end), Some(from)) = (
                self.limits.to_goal(grid, at),
                self.limits.to_goal(grid, self.start),
            ) && end >= from
            {
                return;
            }
            self.found.push(RetreatPath {
                hexes: path.clone(),
                through_friendly: path.iter().any(|h| self.blocks.friendly_units.contains(h)),
                through_enemy_zoc: path.iter().any(|h| self.blocks.enemy_zoc.contains(h)),
            });
            return;
        }
        let step = path.len() + 1;
        for (direction, next) in self.map.grid.neighbours_on_map(at) {
            let further = usize::try_from(self.map.grid.distance(self.start, next)) == Ok(step);
            let zoc_ok = (self.kind == RetreatKind::Rout && !self.limits.no_enemy_zoc)
                || !self.blocks.enemy_zoc.contains(&next);
            let direction_ok = self
                .limits
                .directions
                .as_ref()
                .is_none_or(|d| d.contains(&direction))
                // Corinth 27.0: never a step away from the goal.
                && match (
                    self.limits.to_goal(&self.map.grid, next),
                    self.limits.to_goal(&self.map.grid, at),
                ) {
                    (Some(n), Some(a)) => n <= a,
                    _ => true,
                };
            if !further
                || !direction_ok
                || !zoc_ok
                || self.blocks.enemy_units.contains(&next)
                || step_cost(self.map, self.chart, self.class, at, next).is_err()
            {
                continue;
            }
            path.push(next);
            self.walk(next, path);
            path.pop();
        }
    }
}
