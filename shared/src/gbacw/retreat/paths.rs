//! GBACW 14.1–14.4: legal retreat paths.

use crate::gbacw::charts::{MoveClass, MovementChart};
use crate::gbacw::command::PathBlocks;
use crate::gbacw::map::{HexNumber, Map};
use crate::gbacw::movement::{StepTable, step_cost};
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
    search(
        map,
        Steps::Chart(chart),
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
    /// A retreat that enters a goal hex on the map's edge with hexes
    /// still to go ends there and goes off the map: its path is shorter
    /// than the retreat asked (the caller carries the unit off). Set by
    /// an exclusive rule (`BattleRules::retreat_leaves_at_goal`).
    pub leave_at_goal: bool,
    /// GBACW 14.4 under the reading `displace-away-from-enemy`: no step
    /// nearer the nearest of these hexes (the enemy units') than the hex
    /// it leaves; `None`: any.
    pub away_from: Option<std::collections::BTreeSet<HexNumber>>,
}

impl RetreatLimits {
    /// Hexes from `hex` to the nearest goal hex (`toward`).
    pub fn to_goal(&self, grid: &crate::gbacw::map::Grid, hex: HexNumber) -> Option<u32> {
        self.toward
            .as_ref()
            .and_then(|g| g.iter().map(|t| grid.distance(hex, *t)).min())
    }

    /// Cedar Mountain 23.0 and Corinth 27.0 for one step from `at` to its
    /// neighbour `next`: in an allowed direction, and never farther from
    /// the goal; under [`Self::away_from`] (GBACW 14.4), never nearer the
    /// enemy.
    pub fn allows_step(
        &self,
        grid: &crate::gbacw::map::Grid,
        at: HexNumber,
        next: HexNumber,
    ) -> bool {
        let direction_ok = match &self.directions {
            None => true,
            Some(d) => grid.direction(at, next).is_some_and(|x| d.contains(&x)),
        };
        let nearest_enemy = |hex: HexNumber| {
            self.away_from
                .as_ref()
                .and_then(|e| e.iter().map(|x| grid.distance(hex, *x)).min())
        };
        direction_ok
            && match (self.to_goal(grid, next), self.to_goal(grid, at)) {
                (Some(n), Some(a)) => n <= a,
                _ => true,
            }
            && match (nearest_enemy(next), nearest_enemy(at)) {
                (Some(n), Some(a)) => n >= a,
                _ => true,
            }
    }

    /// Corinth 27.0: a retreat from `start` ending on `end` is no advance:
    /// it ends nearer its goal than it began (always true with no goal).
    pub fn ends_nearer(
        &self,
        grid: &crate::gbacw::map::Grid,
        start: HexNumber,
        end: HexNumber,
    ) -> bool {
        match (self.to_goal(grid, end), self.to_goal(grid, start)) {
            (Some(e), Some(s)) => e < s,
            _ => true,
        }
    }

    /// Corinth 27.1, 27.2: "they should take the most direct route in
    /// hexes (not Movement Points) towards" the goal; "They may deviate
    /// from the path in order to avoid" the enemy and his ZOCs. A path from
    /// `start` is direct when each of its steps is one hex nearer the goal
    /// (always, with no goal). The search keeps the direct paths of 14.3's
    /// preferred tier when there are any; deviating (a step no nearer, never
    /// one farther: [`Self::allows_step`]) is left for when there are none.
    pub fn direct(
        &self,
        grid: &crate::gbacw::map::Grid,
        start: HexNumber,
        path: &[HexNumber],
    ) -> bool {
        let mut at = self.to_goal(grid, start);
        for &h in path {
            let next = self.to_goal(grid, h);
            if let (Some(a), Some(n)) = (at, next)
                && n >= a
            {
                return false;
            }
            at = next;
        }
        true
    }

    /// Whether a path someone gives (a retreat before melee, 12.81) keeps
    /// these limits: every step allowed ([`Self::allows_step`]) and, when
    /// there is a goal, the path toward it ([`Self::ends_nearer`]). The
    /// steps' adjacency and the rest of 14.1 are the caller's to check.
    pub fn path_toward(
        &self,
        grid: &crate::gbacw::map::Grid,
        start: HexNumber,
        path: &[HexNumber],
    ) -> bool {
        let mut at = start;
        for &next in path {
            if !self.allows_step(grid, at, next) {
                return false;
            }
            at = next;
        }
        self.ends_nearer(grid, start, at)
    }
}

/// What prices (or forbids) one step of a retreat.
#[derive(Clone, Copy)]
enum Steps<'a> {
    /// The chart's own costs ([`step_cost`]).
    Chart(&'a MovementChart),
    /// A ruleset's step table: the chart plus what exclusive rules close
    /// (Corinth 23.31: guns, wagons and horses enter town by road only).
    Table(&'a StepTable),
}

impl Steps<'_> {
    fn open(self, map: &Map, class: MoveClass, from: HexNumber, to: HexNumber) -> bool {
        match self {
            Steps::Chart(chart) => step_cost(map, chart, class, from, to).is_ok(),
            Steps::Table(table) => table.cost(class, from, to, true).is_ok(),
        }
    }
}

/// [`retreat_paths`] under an exclusive rule's [`RetreatLimits`] (the
/// limits hold inside the search, so 14.3's tiers are chosen among the
/// paths that keep them), with the steps a ruleset's [`StepTable`] allows
/// instead of the chart's own: what an exclusive rule closes to movement
/// (Corinth 23.31) is closed to retreats and routs too. Under
/// [`RetreatLimits::leave_at_goal`] a path may be shorter than `length`:
/// the unit goes off the map from its last hex.
#[allow(clippy::too_many_arguments)]
pub fn retreat_paths_on(
    map: &Map,
    table: &StepTable,
    class: MoveClass,
    start: HexNumber,
    length: usize,
    kind: RetreatKind,
    blocks: &PathBlocks,
    limits: &RetreatLimits,
) -> Vec<RetreatPath> {
    search(
        map,
        Steps::Table(table),
        class,
        start,
        length,
        kind,
        blocks,
        limits,
    )
}

#[allow(clippy::too_many_arguments)]
fn search(
    map: &Map,
    steps: Steps<'_>,
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
        steps,
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
    // Within the tier, the most direct route when one is open: every
    // step nearer the goal ([`RetreatLimits::direct`]); sideways steps
    // only when no such path is left.
    if all
        .iter()
        .any(|p| limits.direct(&map.grid, start, &p.hexes))
    {
        all.retain(|p| limits.direct(&map.grid, start, &p.hexes));
    }
    all
}

/// The fixed inputs of one path search and what it has found.
struct Search<'a> {
    map: &'a Map,
    steps: Steps<'a>,
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
            if !self.limits.ends_nearer(&self.map.grid, self.start, at) {
                return;
            }
            self.record(path);
            return;
        }
        let step = path.len() + 1;
        for (_, next) in self.map.grid.neighbours_on_map(at) {
            let further = usize::try_from(self.map.grid.distance(self.start, next)) == Ok(step);
            let zoc_ok = (self.kind == RetreatKind::Rout && !self.limits.no_enemy_zoc)
                || !self.blocks.enemy_zoc.contains(&next);
            // Cedar Mountain 23.0's directions; Corinth 27.0: never a step
            // away from the goal.
            let direction_ok = self.limits.allows_step(&self.map.grid, at, next);
            if !further
                || !direction_ok
                || !zoc_ok
                || self.blocks.enemy_units.contains(&next)
                || !self.steps.open(self.map, self.class, at, next)
            {
                continue;
            }
            path.push(next);
            if step < self.length && self.leaves_here(next) {
                // Goes off the map from here: a path of its own, ending
                // nearer its goal (a unit that stood in it already has
                // no path on the map and leaves from where it stands).
                if self.limits.ends_nearer(&self.map.grid, self.start, next) {
                    self.record(path);
                }
            } else {
                self.walk(next, path);
            }
            path.pop();
        }
    }

    fn record(&mut self, path: &[HexNumber]) {
        self.found.push(RetreatPath {
            hexes: path.to_vec(),
            through_friendly: path.iter().any(|h| self.blocks.friendly_units.contains(h)),
            through_enemy_zoc: path.iter().any(|h| self.blocks.enemy_zoc.contains(h)),
        });
    }

    /// Whether a retreat entering `hex` with hexes still to go leaves the
    /// map there ([`RetreatLimits::leave_at_goal`]).
    fn leaves_here(&self, hex: HexNumber) -> bool {
        self.limits.leave_at_goal
            && self
                .limits
                .toward
                .as_ref()
                .is_some_and(|g| g.contains(&hex))
            && self.map.grid.neighbours_on_map(hex).len() < 6
    }
}
