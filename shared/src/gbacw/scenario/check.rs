//! A scenario against its map and order of battle: every id, hex and area
//! it names exists, every counter is accounted for exactly once, and a
//! proposed set-up obeys the scenario's restrictions. The loader refuses a
//! scenario with problems; the ruleset calls [`Scenario::check_setup`] on a
//! player's set-up.

use super::model::*;
use crate::gbacw::facing::{Facing, direction_names};
use crate::gbacw::map::{Grid, HexNumber, Map};
use crate::gbacw::oob::{Command, CounterId, LeaderRole, Oob, UnitKind};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// One thing wrong, in words a scenario author can act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem(pub String);

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

macro_rules! problem {
    ($out:expr, $($arg:tt)*) => { $out.push(Problem(format!($($arg)*))) };
}

/// Every hex within `radius` of `centre` that is on the grid.
pub fn hexes_within(grid: &Grid, centre: HexNumber, radius: u8) -> Vec<HexNumber> {
    grid.hexes()
        .filter(|h| grid.distance(centre, *h) <= u32::from(radius))
        .collect()
}

/// A hex on the map's outer ring (fewer than six neighbours on the map):
/// where units enter and leave.
pub fn on_edge(grid: &Grid, n: HexNumber) -> bool {
    grid.contains(n) && grid.neighbours_on_map(n).len() < 6
}

impl Scenario {
    /// The hexes of a set-up area on this map.
    pub fn area_hexes(&self, grid: &Grid, area: &Area) -> Vec<HexNumber> {
        if area.is_listed() {
            return area.hexes.clone();
        }
        hexes_within(grid, area.centre, area.radius)
    }

    /// Whether `h` is one of an area's hexes.
    pub fn area_contains(&self, grid: &Grid, area: &Area, h: HexNumber) -> bool {
        if area.is_listed() {
            area.hexes.contains(&h)
        } else {
            grid.distance(area.centre, h) <= u32::from(area.radius)
        }
    }

    /// Fill the hexes of areas that copy the map's `area` lines, and the
    /// entry hex of arrivals through areas (their first area's first hex).
    /// An area naming no area of the map is left empty, for [`check`] to
    /// report.
    ///
    /// [`check`]: Scenario::check
    pub fn resolve(&mut self, map: &Map) {
        for a in &mut self.areas {
            if let Some(printed) = a.map_area.as_deref().and_then(|m| map.area(m)) {
                a.hexes = printed.iter().copied().collect();
                if let Some(first) = a.hexes.first() {
                    a.centre = *first;
                }
            }
        }
        let firsts: BTreeMap<CounterId, HexNumber> = self
            .areas
            .iter()
            .filter_map(|a| a.hexes.first().map(|h| (a.id.clone(), *h)))
            .collect();
        for arrival in &mut self.arrivals {
            if let Some(h) = arrival.areas.first().and_then(|a| firsts.get(a)) {
                arrival.hex = *h;
            }
        }
    }

    /// Everything that does not fit between the scenario, its map and its
    /// order of battle. Empty when the three agree.
    pub fn check(&self, map: &Map, oob: &Oob) -> Vec<Problem> {
        let mut out = Vec::new();
        let grid = &map.grid;
        let sides: BTreeSet<&CounterId> = self.sides.iter().map(|s| &s.id).collect();
        for s in &self.sides {
            if !oob.sides.contains_key(&s.id) {
                problem!(out, "side `{}` is not a side of the order of battle", s.id);
            }
        }
        for id in oob.sides.keys() {
            if !sides.contains(id) {
                problem!(out, "order-of-battle side `{id}` has no scenario side");
            }
        }
        let turns = self.length.as_ref().map_or(0, |l| l.turns);
        match &self.first_player {
            Some(p) if !sides.contains(p) => problem!(out, "first player `{p}` is not a side"),
            None => problem!(out, "no first player"),
            _ => {}
        }
        for (turn, side) in &self.skipped_player_turns {
            if !sides.contains(side) || *turn > turns {
                problem!(
                    out,
                    "skipped player-turn {turn} of `{side}` is not in the game"
                );
            }
        }
        // Areas: on the map and apart (listed areas may overlap: Corinth
        // 29.1, "hex 2501 is an entry hex for both Areas A and B").
        let mut owner: BTreeMap<HexNumber, &CounterId> = BTreeMap::new();
        for a in &self.areas {
            let hexes = self.area_hexes(grid, a);
            if a.is_listed() {
                if hexes.is_empty() {
                    problem!(out, "area `{}` has no hexes (no such map area?)", a.id);
                }
                for h in hexes.iter().filter(|h| !grid.contains(**h)) {
                    problem!(out, "area `{}`: hex {h} is off the map", a.id);
                }
                continue;
            }
            let full = 1 + 3 * u32::from(a.radius) * (u32::from(a.radius) + 1);
            if !grid.contains(a.centre) || (hexes.len() as u32 != full && !a.clipped) {
                problem!(
                    out,
                    "area `{}` around {} is not wholly on the map",
                    a.id,
                    a.centre
                );
            }
            // An area the map prints (an `area` line) must be the same hexes.
            if let Some(printed) = map.area(&a.id.0) {
                let ours: BTreeSet<HexNumber> = hexes.iter().copied().collect();
                if *printed != ours {
                    problem!(
                        out,
                        "area `{}` differs from the map's `area {}` line",
                        a.id,
                        a.id
                    );
                }
            }
            for h in hexes {
                if let Some(other) = owner.insert(h, &a.id) {
                    problem!(out, "areas `{other}` and `{}` share hex {h}", a.id);
                }
            }
        }
        // Every counter exactly once, in a place that exists.
        let exists = |id: &CounterId| oob.units.contains_key(id) || oob.leaders.contains_key(id);
        let mut seen: BTreeMap<&CounterId, usize> = BTreeMap::new();
        for s in &self.setup {
            match &s.place {
                Place::Area(a) if self.area(&a.0).is_none() => {
                    problem!(out, "set-up area `{a}` is not declared")
                }
                Place::Hex(h) if !grid.contains(*h) => {
                    problem!(out, "set-up hex {h} is off the map")
                }
                _ => {}
            }
            if let Some(f) = &s.facing
                && Facing::from_name(grid.orientation, f).is_none()
            {
                problem!(
                    out,
                    "set-up facing `{f}` is not one of {}",
                    direction_names(grid.orientation).join(" ")
                );
            }
            for id in &s.units {
                if let (Some(f), Some(u)) = (s.formation, oob.units.get(id))
                    && !f.allowed_for(&u.kind)
                {
                    problem!(out, "`{id}` cannot set up in {}", f.name());
                }
                *seen.entry(id).or_default() += 1;
                let leader = oob.leaders.get(id);
                match (&s.place, leader.map(|l| &l.role)) {
                    (Place::WithCommand, None) => {
                        problem!(out, "`{id}` sets up with-command but is not a leader")
                    }
                    (Place::Pool, r) if !matches!(r, Some(LeaderRole::Replacement { .. })) => {
                        problem!(out, "only replacement leaders go to the pool, not `{id}`")
                    }
                    _ => {}
                }
            }
        }
        for a in &self.arrivals {
            if a.turn > turns {
                problem!(
                    out,
                    "arrival on turn {} is after the last turn {turns}",
                    a.turn
                );
            }
            if !on_edge(grid, a.hex) {
                problem!(out, "arrival hex {} is not on the map edge", a.hex);
            }
            for area in a.areas.iter().filter(|x| self.area(&x.0).is_none()) {
                problem!(out, "arrival area `{area}` is not declared");
            }
            for id in &a.units {
                *seen.entry(id).or_default() += 1;
            }
            for d in &a.detached {
                let brigade = matches!(
                    oob.leaders.get(d).map(|l| &l.role),
                    Some(LeaderRole::Brigade {
                        division: Some(_),
                        ..
                    })
                );
                if !a.units.contains(d) || !brigade {
                    problem!(
                        out,
                        "detached `{d}` is not a divisional brigade leader arriving here"
                    );
                }
            }
        }
        for (id, n) in &seen {
            if !exists(id) {
                problem!(out, "`{id}` is not in the order of battle");
            } else if *n > 1 {
                problem!(out, "`{id}` is placed {n} times");
            }
        }
        for id in oob.units.keys().chain(oob.leaders.keys()) {
            if !seen.contains_key(id) {
                problem!(out, "`{id}` neither sets up nor arrives");
            }
        }
        // Restrictions and options.
        let options: BTreeSet<&CounterId> = self.options.iter().map(|o| &o.id).collect();
        for r in &self.restrictions {
            if let Some(w) = r.when.as_ref().filter(|w| !options.contains(w)) {
                problem!(
                    out,
                    "restriction {} depends on unknown option `{w}`",
                    r.kind
                );
            }
            if let Some(a) = r.area.as_ref().filter(|a| self.area(&a.0).is_none()) {
                problem!(out, "restriction {} names unknown area `{a}`", r.kind);
            }
            if let Some(s) = r.side.as_ref().filter(|s| !sides.contains(s)) {
                problem!(out, "restriction {} names unknown side `{s}`", r.kind);
            }
            // `away-from-areas` lists areas, not counters (Corinth 29.41).
            let counters = r.kind != RestrictionKind::AwayFromAreas;
            for u in r.units.iter().filter(|u| counters && !exists(u)) {
                problem!(out, "restriction {} names unknown counter `{u}`", r.kind);
            }
        }
        // Victory.
        let v = &self.victory;
        for h in &v.hexes {
            if !grid.contains(h.hex) {
                problem!(out, "victory hex {} is off the map", h.hex);
            }
        }
        if let Some(s) = v.hexes_scored_after.as_ref().filter(|s| !sides.contains(s)) {
            problem!(out, "victory hexes scored after unknown side `{s}`");
        }
        for e in &v.exits {
            if !on_edge(grid, e.hex) {
                problem!(out, "exit hex {} is not on the map edge", e.hex);
            }
            for s in e.vp.keys().filter(|s| !sides.contains(s)) {
                problem!(out, "exit points for unknown side `{s}`");
            }
        }
        for l in v.leaders.keys() {
            if !matches!(
                oob.leaders.get(l).map(|l| &l.role),
                Some(LeaderRole::Army { .. })
            ) {
                problem!(
                    out,
                    "`{l}` is priced as a named leader but is not an army commander"
                );
            }
        }
        // 17.8 / Cedar Mountain 25.34: successors come from the division.
        for r in &self.replacements {
            if !matches!(
                oob.leaders.get(&r.leader).map(|l| &l.role),
                Some(LeaderRole::Division { .. })
            ) {
                problem!(
                    out,
                    "`{}` is replaced but is not a division leader",
                    r.leader
                );
            }
            for b in &r.by {
                let ok = matches!(
                    oob.leaders.get(b).map(|l| &l.role),
                    Some(LeaderRole::Brigade { division: Some(d), .. }) if *d == r.leader
                );
                if !ok {
                    problem!(
                        out,
                        "`{b}` is not a brigade leader of `{}`'s division",
                        r.leader
                    );
                }
            }
        }
        if let Some(h) = self.hook(HookKind::RetreatDirections) {
            for (k, dirs) in &h.params {
                let known = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
                if !sides.iter().any(|s| s.0 == *k) || dirs.split(',').any(|d| !known.contains(&d))
                {
                    problem!(
                        out,
                        "retreat-directions `{k}={dirs}`: a side and compass points"
                    );
                }
            }
            if self.north.is_none() {
                problem!(out, "retreat-directions needs a `north` line");
            }
        }
        out
    }

    /// Check a proposed set-up (counter to hex) against the restrictions
    /// that apply with the given options on. Stacking and formation are
    /// left to the stacking rules ([`crate::gbacw::stacking`]).
    pub fn check_setup(
        &self,
        map: &Map,
        oob: &Oob,
        placed: &BTreeMap<CounterId, HexNumber>,
        options_on: &BTreeSet<CounterId>,
    ) -> Vec<Problem> {
        let mut out = Vec::new();
        let grid = &map.grid;
        let active: Vec<&Restriction> = self
            .restrictions
            .iter()
            .filter(|r| r.when.as_ref().is_none_or(|w| options_on.contains(w)))
            .collect();
        let has = |k: RestrictionKind| active.iter().any(|r| r.kind == k);
        let area_of = |h: HexNumber| self.areas.iter().find(|a| self.area_contains(grid, a, h));
        let in_area = |h: HexNumber, id: &CounterId| {
            self.area(&id.0)
                .is_some_and(|a| self.area_contains(grid, a, h))
        };
        for (id, h) in placed {
            if !grid.contains(*h) {
                problem!(out, "`{id}` is set up off the map at {h}");
            }
        }
        if has(RestrictionKind::InPlace) {
            let any_area = has(RestrictionKind::AnyArea);
            for s in &self.setup {
                for id in &s.units {
                    let Some(h) = placed.get(id).copied() else {
                        if !matches!(s.place, Place::Pool) {
                            problem!(out, "`{id}` is not set up");
                        }
                        continue;
                    };
                    match &s.place {
                        Place::Area(_) if any_area && area_of(h).is_none() => {
                            problem!(out, "`{id}` at {h} is in no deployment area");
                        }
                        Place::Area(a) if !any_area && !in_area(h, a) => {
                            problem!(out, "`{id}` at {h} is outside area `{a}`");
                        }
                        Place::Hex(x) if *x != h => problem!(out, "`{id}` must set up at {x}"),
                        Place::Pool => problem!(out, "`{id}` stays off the map"),
                        _ => {}
                    }
                }
            }
            if any_area {
                // 26.2 still holds: a brigade's units share one area.
                let mut by_brigade: BTreeMap<&CounterId, BTreeSet<&CounterId>> = BTreeMap::new();
                for (id, h) in placed {
                    if let (Some(u), Some(a)) = (oob.units.get(id), area_of(*h))
                        && let Command::Brigade(b) = &u.command
                    {
                        by_brigade.entry(b).or_default().insert(&a.id);
                    }
                }
                for (b, areas) in by_brigade {
                    if areas.len() > 1 {
                        problem!(out, "brigade `{b}` is split over {} areas", areas.len());
                    }
                }
            }
        }
        if has(RestrictionKind::LeaderWithCommand) {
            for (id, h) in placed {
                let Some(l) = oob.leaders.get(id) else {
                    continue;
                };
                // A leader the scenario puts on a hex of its own (Corinth
                // 30.17: "Rosecrans is placed in hex 2737") is where it says.
                if self
                    .setup_of(id)
                    .is_some_and(|s| matches!(s.place, Place::Hex(_)))
                {
                    continue;
                }
                let commands = |u: &crate::gbacw::oob::Unit| match (&l.role, &u.command) {
                    (LeaderRole::Army { .. }, _) => u.side == l.side,
                    (LeaderRole::Brigade { .. }, Command::Brigade(b)) => b == id,
                    (LeaderRole::Division { .. }, Command::Brigade(b)) => matches!(
                        oob.leaders.get(b).map(|x| &x.role),
                        Some(LeaderRole::Brigade { division: Some(d), .. }) if d == id
                    ),
                    _ => false,
                };
                let with = placed
                    .iter()
                    .any(|(u, uh)| uh == h && oob.units.get(u).is_some_and(commands));
                if !with {
                    problem!(
                        out,
                        "leader `{id}` at {h} is not with a unit he commands (26.2)"
                    );
                }
            }
        }
        if has(RestrictionKind::OneBrigadeAndBatteryPerArea) {
            let mut brigades: BTreeMap<&CounterId, BTreeSet<&CounterId>> = BTreeMap::new();
            let mut batteries: BTreeMap<&CounterId, usize> = BTreeMap::new();
            for (id, h) in placed {
                let (Some(u), Some(a)) = (oob.units.get(id), area_of(*h)) else {
                    continue;
                };
                match (&u.kind, &u.command) {
                    (UnitKind::Battery { .. }, _) => *batteries.entry(&a.id).or_default() += 1,
                    (_, Command::Brigade(b)) => {
                        brigades.entry(&a.id).or_default().insert(b);
                    }
                    _ => {}
                }
            }
            for (a, b) in brigades.iter().filter(|(_, b)| b.len() > 1) {
                problem!(out, "area `{a}` holds {} brigades (26.3: one)", b.len());
            }
            for (a, n) in batteries.iter().filter(|(_, n)| **n > 1) {
                problem!(out, "area `{a}` holds {n} batteries (26.3: one)");
            }
        }
        for r in active
            .iter()
            .filter(|r| r.kind == RestrictionKind::FixedArea)
        {
            let Some(area) = r.area.as_ref().and_then(|a| self.area(&a.0)) else {
                continue;
            };
            for u in &r.units {
                // A fixed brigade is placed through its units.
                let members: Vec<&CounterId> = if oob.leaders.contains_key(u) {
                    oob.brigade_units(u).map(|x| &x.id).collect()
                } else {
                    vec![u]
                };
                for m in members {
                    let inside = placed
                        .get(m)
                        .is_some_and(|h| self.area_contains(grid, area, *h));
                    if !inside {
                        problem!(out, "`{m}` must set up in area `{}` ({})", area.id, r.case);
                    }
                }
            }
        }
        for r in active
            .iter()
            .filter(|r| r.kind == RestrictionKind::StartsOffMap)
        {
            for id in placed.keys() {
                let side = oob
                    .units
                    .get(id)
                    .map(|u| &u.side)
                    .or_else(|| oob.leaders.get(id).map(|l| &l.side));
                if side.is_some() && side == r.side.as_ref() {
                    problem!(out, "`{id}` may not start on the map ({})", r.case);
                }
            }
        }
        out
    }
}
