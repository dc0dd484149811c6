//! A biased player for whole GBACW games that must go the distance.
//!
//! Purely random play scores too little for Corinth's Confederates to carry
//! a game past the first day's determination (Corinth 31.2: 4 VP or less
//! ends it), so the night and the second day are never reached. This
//! player chooses differently, never more freely: one side heads for the
//! victory hexes it does not hold and attacks what it meets (fire at the
//! nearest enemy, melee on the hexes next to it, advance after a melee,
//! fire the Pre-Dawn Barrage); the other is quiet (commitment rolls, a few
//! shots, a few moves once its quiet turns are over). Every action it
//! offers has first been accepted by the ruleset's own `decide` on the
//! state it is offered in, with a fixed dice stream (the check
//! `legal_actions` makes of every action it lists), so it plays only legal
//! actions. Answers to decisions (withdrawal fire, retreat before melee,
//! retreats, advances, the barrage) are chosen from `legal_actions`, which
//! is small there.
//!
//! It builds its candidates itself, one counter at a time, rather than
//! asking for the whole legal set in a Movement or Fire Phase: that set
//! checks every move of every counter (~1 s for Corinth's armies in a
//! debug build), which a 32-turn game cannot afford at every action.

use crate::random_play::Chooser;
use muster_shared::SeatId;
use muster_shared::dice::DiceStream;
use muster_shared::engine::{ActionContext, Dice, Ruleset};
use muster_shared::gbacw::corinth::distance_to_assault_areas;
use muster_shared::gbacw::facing::Facing;
use muster_shared::gbacw::los::Los;
use muster_shared::gbacw::map::HexNumber;
use muster_shared::gbacw::movement::Reach;
use muster_shared::gbacw::oob::{Command, CounterId, Formation, LeaderRole, Marker, UnitKind};
use muster_shared::gbacw::ruleset::state::FireShare;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwAction, GbacwState};
use muster_shared::gbacw::scenario::HookKind;
use muster_shared::gbacw::sequence::{Clock, Phase, Step};
use std::collections::{BTreeMap, BTreeSet};

/// How a side plays.
#[derive(Clone, Debug)]
pub struct Temper {
    /// Moves toward the victory hexes it does not hold (else to a random
    /// hex it can reach).
    pub assault: bool,
    /// Before this Game-Turn the side neither moves (arrivals excepted),
    /// fires offensively nor melees: a passive defender.
    pub quiet_until: u16,
    /// Most counters moved (or turned) in one Movement Phase.
    pub moves: usize,
    /// Most attacks declared in one Fire Phase.
    pub fires: usize,
    /// Most attacks declared in one (Defensive) Fire Phase on quiet turns;
    /// withdrawal and retreat fire are declined then.
    pub quiet_fires: usize,
    /// Most melees declared in one Retreat Before Melee Phase.
    pub melees: usize,
    /// Corinth 30.34: tries to commit its reserves.
    pub commits: bool,
    /// Corinth 26.4: most Pre-Dawn Barrage attacks.
    pub barrage: usize,
    /// Corinth 31.2: the side whose total is tallied turns quiet before a
    /// day's determination once its total (with 30.36's reserves) is past
    /// the middle of the band in which the game goes on, so that the game
    /// goes on (and attacks again after it).
    pub hold_band: bool,
}

impl Temper {
    /// Heads for the objectives, fires and melees wherever it can.
    pub fn assault() -> Self {
        Temper {
            assault: true,
            quiet_until: 0,
            moves: 200,
            fires: 24,
            quiet_fires: 0,
            melees: 8,
            commits: false,
            barrage: 4,
            hold_band: true,
        }
    }

    /// Holds its ground until `quiet_until`, then moves a little; fires a
    /// few defensive shots all along; tries its commitment rolls.
    pub fn quiet(quiet_until: u16) -> Self {
        Temper {
            assault: false,
            quiet_until,
            moves: 4,
            fires: 3,
            quiet_fires: 0,
            melees: 1,
            commits: true,
            barrage: 2,
            hold_band: false,
        }
    }
}

/// What the player has done in the current phase.
#[derive(Default)]
struct Memory {
    clock: Option<Clock>,
    /// Counters (or reserves) already tried in this phase.
    tried: BTreeSet<CounterId>,
    /// Pieces this player brought in in this phase: they move on even on
    /// quiet turns (Corinth 30.13 has some keep moving).
    arrived: BTreeSet<CounterId>,
    /// Moves made by each newcomer in this phase (it may move again).
    again: BTreeMap<CounterId, u8>,
    /// Enemy hexes already tried as a melee's target in this phase.
    targets_tried: BTreeSet<HexNumber>,
    /// Actions offered in this phase, arrivals not counted.
    offered: usize,
}

/// One seat's biased player.
pub struct Player {
    pub temper: Temper,
    memory: Memory,
    /// Barrage attacks fired (Corinth 26.4), over the game.
    barrage_fired: usize,
}

/// The hexes `reach` offers but `at` that `keep` allows, each with its
/// `rank` and a random tie-break (drawn for each kept hex, in the reach's
/// order), for [`first_accepted_move`].
fn ranked_hexes<K>(
    reach: &Reach,
    at: HexNumber,
    ch: &mut Chooser,
    keep: impl Fn(&HexNumber) -> bool,
    rank: impl Fn(HexNumber) -> K,
) -> Vec<(K, usize, HexNumber)> {
    reach
        .hexes
        .keys()
        .copied()
        .filter(|h| *h != at && keep(h))
        .map(|h| (rank(h), ch.below(1000), h))
        .collect()
}

/// The move of `id` to the best of its three best-ranked `to` hexes (by
/// the key, then the tie-breaking draw) that the engine accepts.
fn first_accepted_move<K: Ord>(
    v: &View,
    seat: SeatId,
    id: &CounterId,
    reach: &Reach,
    mut to: Vec<(K, usize, HexNumber)>,
) -> Option<GbacwAction> {
    to.sort();
    to.into_iter().take(3).find_map(|(_, _, hex)| {
        let path = reach.path_to(hex)?;
        let a = GbacwAction::Move {
            pieces: vec![id.clone()],
            path: path[1..].to_vec(),
        };
        accepted(v.rs, v.state, seat, &a).then_some(a)
    })
}

/// The check `legal_actions` makes: `decide` accepts `action` now, with a
/// fixed dice stream (whether an action is legal never depends on dice).
pub fn accepted(rs: &Gbacw, state: &GbacwState, seat: SeatId, action: &GbacwAction) -> bool {
    let ctx = ActionContext {
        seat,
        seq: 1,
        by_default: false,
    };
    let mut dice = Dice::from_stream(DiceStream::from_seed(b"muster legal-action check"));
    rs.decide(state, &ctx, action, &mut dice).is_ok()
}

/// Whether a decision (not the phase's own business) waits: withdrawal
/// fire, retreat before melee, retreat fire, retreats, an advance, the
/// Pre-Dawn Barrage. Their legal sets are small.
pub fn deciding(state: &GbacwState) -> bool {
    state.decision.is_some()
        || state.rbm.is_some()
        || !state.retreat_fire.is_empty()
        || !state.retreats.is_empty()
        || state.advance.is_some()
        || state.night.barrage.is_some()
}

/// The side's view of the board, worked out once per action.
struct View<'a> {
    rs: &'a Gbacw,
    state: &'a GbacwState,
    side: &'a CounterId,
    /// Hexes holding enemy combat units.
    enemy: BTreeSet<HexNumber>,
    /// Victory hexes the side does not control (all of them if it
    /// controls every one), with their half points.
    targets: Vec<(HexNumber, u16)>,
}

impl<'a> View<'a> {
    fn new(rs: &'a Gbacw, state: &'a GbacwState, side: &'a CounterId) -> Self {
        let oob = &rs.game().oob;
        let enemy = state
            .units
            .iter()
            .filter(|(id, _)| oob.units[*id].side != *side)
            .filter_map(|(_, u)| u.hex)
            .collect();
        let hexes = &rs.game().scenario.victory.hexes;
        let mut targets: Vec<(HexNumber, u16)> = hexes
            .iter()
            .filter(|h| state.progress.hex_control.get(&h.hex) != Some(side))
            .map(|h| (h.hex, h.halves))
            .collect();
        // A side holding them all goes to them all.
        if targets.is_empty() {
            targets = hexes.iter().map(|h| (h.hex, h.halves)).collect();
        }
        View {
            rs,
            state,
            side,
            enemy,
            targets,
        }
    }

    fn distance(&self, a: HexNumber, b: HexNumber) -> u32 {
        self.rs.game().map.grid.distance(a, b)
    }

    /// How far `hex` is from the objectives, the better ones counting as
    /// nearer (a primary redan or the Hotel by three hexes, a secondary
    /// redan by one): lower is better.
    fn score(&self, hex: HexNumber) -> i64 {
        self.targets
            .iter()
            .map(|(t, halves)| 2 * i64::from(self.distance(hex, *t)) - i64::from((*halves).min(6)))
            .min()
            .unwrap_or(0)
    }

    fn nearest_enemy(&self, hex: HexNumber) -> Option<(u32, HexNumber)> {
        self.enemy
            .iter()
            .map(|e| (self.distance(hex, *e), *e))
            .min()
    }

    /// The nearest enemy hex within `range` of `hex` in sight from it
    /// (GBACW 9.7).
    fn seen_enemy(&self, hex: HexNumber, range: u32) -> Option<HexNumber> {
        let mut near: Vec<(u32, HexNumber)> = self
            .enemy
            .iter()
            .map(|e| (self.distance(hex, *e), *e))
            .filter(|(d, _)| *d <= range)
            .collect();
        near.sort();
        near.into_iter()
            .map(|(_, e)| e)
            .find(|e| self.rs.line_of_sight(self.state, hex, *e) == Los::Clear)
    }

    /// The facing at `hex` whose neighbour is nearest `target`.
    fn facing_toward(&self, hex: HexNumber, target: HexNumber) -> Option<Facing> {
        let grid = &self.rs.game().map.grid;
        grid.neighbours_on_map(hex)
            .into_iter()
            .min_by_key(|(d, n)| (grid.distance(*n, target), d.index()))
            .and_then(|(d, _)| Facing::from_index(d.index()))
    }

    /// Where `hex` should face: the nearest enemy, else the best objective.
    fn facing_at(&self, hex: HexNumber) -> Option<Facing> {
        let to = self.nearest_enemy(hex).map(|(_, e)| e).or_else(|| {
            self.targets
                .iter()
                .min_by_key(|(t, _)| self.distance(hex, *t))
                .map(|(t, _)| *t)
        })?;
        self.facing_toward(hex, to)
    }

    fn side_of(&self, piece: &CounterId) -> Option<&'a CounterId> {
        let oob = &self.rs.game().oob;
        oob.units
            .get(piece)
            .map(|u| &u.side)
            .or_else(|| oob.leaders.get(piece).map(|l| &l.side))
    }

    fn is_objective(&self, hex: HexNumber) -> bool {
        self.targets.iter().any(|(t, _)| *t == hex)
    }
}

/// Corinth 31.2: whether `side`'s total, were the next day's
/// determination made now (30.36: less the reserves still uncommitted),
/// is past the middle of the band in which the game goes on.
fn past_middle(rs: &Gbacw, state: &GbacwState, side: &CounterId) -> bool {
    let Some(t) = rs.game().scenario.victory.tally.as_ref() else {
        return false;
    };
    let Some(check) = t.checks.iter().find(|c| state.clock.turn <= c.turn) else {
        return false;
    };
    if t.side != *side || state.progress.days.iter().any(|d| d.turn == check.turn) {
        return false;
    }
    let reserves = &rs.game().scenario.reserves;
    let uncommitted = reserves
        .list
        .iter()
        .filter(|r| !state.progress.committed.contains(&r.id))
        .count();
    let penalty = 2 * i32::from(t.reserve) * i32::try_from(uncommitted).unwrap_or(0);
    let total = rs.tally(state).map_or(0, |s| s.total()) - penalty;
    total >= (check.win + check.lose) / 2
}

/// Corinth 29.2: the Assault Area the plan sends `piece` through (`key`:
/// its arrival line's `plan=`, a division, `attached` or `cavalry`).
fn planned_area(state: &GbacwState, piece: &CounterId, key: &CounterId) -> Option<CounterId> {
    let plan = state.progress.assault.as_ref()?.plan.as_ref()?;
    let division = match key.0.as_str() {
        "attached" => plan.attached.get(piece)?.clone(),
        "cavalry" => return plan.cavalry.get(piece).cloned(),
        _ => key.clone(),
    };
    plan.division(&division).map(|d| d.area.clone())
}

/// GBACW 17.52: the side's leaders standing without a combat unit within
/// four hexes of the enemy (they may not end the Movement Phase so).
fn lone_leaders(v: &View) -> Vec<CounterId> {
    let oob = &v.rs.game().oob;
    v.state
        .leaders
        .iter()
        .filter(|(id, _)| oob.leaders[*id].side == *v.side)
        .filter_map(|(id, l)| l.hex.map(|h| (id, h)))
        .filter(|(_, h)| {
            v.nearest_enemy(*h).is_some_and(|(d, _)| d <= 4)
                && !v
                    .state
                    .units
                    .iter()
                    .any(|(u, x)| x.hex == Some(*h) && oob.units[u].side == *v.side)
        })
        .map(|(id, _)| id.clone())
        .collect()
}

/// Corinth 30.13 (the `keep-moving` hook): the side's units that must
/// move on, away from the Assault Areas, with how far they are now.
fn keep_moving(v: &View) -> BTreeMap<CounterId, u32> {
    let Some(h) = v.rs.game().scenario.hook(HookKind::KeepMoving) else {
        return BTreeMap::new();
    };
    if h.param("side") != Some(v.side.0.as_str()) {
        return BTreeMap::new();
    }
    let most = u32::from(h.number("distance").unwrap_or(4));
    h.param("units")
        .unwrap_or("")
        .split(',')
        .filter_map(|u| {
            let id = CounterId(u.to_string());
            let at = v.state.units.get(&id)?.hex?;
            let now = distance_to_assault_areas(&v.rs.game().map, at).filter(|d| *d <= most)?;
            Some((id, now))
        })
        .collect()
}

/// How a hex suits a leader, best lowest: alone near the enemy (17.52),
/// hexes from his command, in the front line, distance to the objectives.
type LeaderRank = (bool, u32, bool, i64);

/// `items` in a random order.
fn shuffled<T>(mut items: Vec<T>, ch: &mut Chooser) -> Vec<T> {
    for i in (1..items.len()).rev() {
        let j = ch.below(i + 1);
        items.swap(i, j);
    }
    items
}

impl Player {
    pub fn new(temper: Temper) -> Self {
        Player {
            temper,
            memory: Memory::default(),
            barrage_fired: 0,
        }
    }

    /// Forget what was tried in this phase (something else changed the
    /// position: a roll made, a leader moved by the legal set).
    pub fn forget(&mut self) {
        self.memory.tried.clear();
        self.memory.targets_tried.clear();
        self.memory.again.clear();
    }

    /// The next action `seat` takes in the current phase, checked legal;
    /// `None` when it is done with the phase (the caller ends it).
    pub fn next(
        &mut self,
        rs: &Gbacw,
        state: &GbacwState,
        seat: SeatId,
        ch: &mut Chooser,
    ) -> Option<GbacwAction> {
        if self.memory.clock != Some(state.clock) {
            self.memory = Memory {
                clock: Some(state.clock),
                ..Memory::default()
            };
        }
        let Step::Phase { phase, .. } = state.clock.step else {
            return None;
        };
        let side = rs.side_of(seat);
        let view = View::new(rs, state, side);
        let quiet = state.clock.turn < self.temper.quiet_until
            || self.temper.hold_band && past_middle(rs, state, side);
        if phase == Phase::Movement
            && let Some(a) = self.arrive(&view, seat, ch)
        {
            return Some(a);
        }
        let chosen = match phase {
            Phase::InitialCommand if self.temper.commits => self.commit(&view, seat),
            Phase::Movement => {
                // Past its budget (or on quiet turns) only newcomers and
                // units that must keep moving (30.13) move; leaders follow
                // their units unless the side is quiet; and whatever it
                // did, no leader ends the phase alone (17.52).
                let newcomers = || {
                    let mut only = self.memory.arrived.clone();
                    only.extend(keep_moving(&view).into_keys());
                    only
                };
                let units = (quiet || self.memory.offered >= self.temper.moves).then(newcomers);
                let leaders = quiet.then(newcomers);
                self.move_unit(&view, seat, ch, units.as_ref())
                    .or_else(|| self.move_leader(&view, seat, ch, leaders.as_ref(), false))
                    .or_else(|| {
                        let lone: BTreeSet<CounterId> = lone_leaders(&view).into_iter().collect();
                        self.move_leader(&view, seat, ch, Some(&lone), true)
                    })
            }
            Phase::DefensiveFire | Phase::OffensiveFire => {
                let most = if quiet {
                    self.temper.quiet_fires
                } else {
                    self.temper.fires
                };
                self.fire(&view, seat, ch, most)
            }
            Phase::RetreatBeforeMelee if !quiet => self.melee(&view, seat, ch),
            Phase::Rally => self.rally(&view, seat),
            Phase::AmmunitionResupply => self.resupply(&view, seat),
            _ => None,
        };
        if chosen.is_some() {
            self.memory.offered += 1;
        }
        chosen
    }

    /// An answer to the decision waiting on `seat`, from its legal set.
    pub fn answer(
        &mut self,
        state: &GbacwState,
        legal: &[GbacwAction],
        ch: &mut Chooser,
    ) -> GbacwAction {
        use GbacwAction as A;
        if state.night.barrage.is_some() {
            let fires: Vec<&GbacwAction> = legal
                .iter()
                .filter(|a| matches!(a, A::BarrageFire { .. }))
                .collect();
            if !fires.is_empty() && self.barrage_fired < self.temper.barrage {
                self.barrage_fired += 1;
                return fires[ch.below(fires.len())].clone();
            }
            if let Some(end) = legal.iter().find(|a| **a == A::EndBarrage) {
                return end.clone();
            }
        }
        // Quiet: no withdrawal or retreat fire.
        if state.clock.turn < self.temper.quiet_until
            && let Some(no) = legal
                .iter()
                .find(|a| matches!(a, A::DeclineWithdrawalFire | A::DeclineRetreatFire))
        {
            return no.clone();
        }
        if self.temper.assault && state.advance.is_some() {
            // GBACW 12.85: into the hex the melee emptied, as many as may.
            if let Some(a) = legal
                .iter()
                .filter(|a| matches!(a, A::Advance { .. }))
                .max_by_key(|a| match a {
                    A::Advance { units } => units.len(),
                    _ => 0,
                })
            {
                return a.clone();
            }
        }
        legal[ch.below(legal.len())].clone()
    }

    /// Corinth 30.34: a commitment roll for a reserve not yet tried.
    fn commit(&mut self, v: &View, seat: SeatId) -> Option<GbacwAction> {
        let reserves = &v.rs.game().scenario.reserves;
        for r in &reserves.list {
            if v.state.progress.committed.contains(&r.id) || !self.memory.tried.insert(r.id.clone())
            {
                continue;
            }
            let a = GbacwAction::CommitReserve {
                reserve: r.id.clone(),
            };
            if accepted(v.rs, v.state, seat, &a) {
                return Some(a);
            }
        }
        None
    }

    /// Reinforcements due: each waiting piece tries a few of its entry
    /// hexes, nearest the objectives first, facing them.
    fn arrive(&mut self, v: &View, seat: SeatId, ch: &mut Chooser) -> Option<GbacwAction> {
        let scenario = &v.rs.game().scenario;
        let grid = &v.rs.game().map.grid;
        let waiting: Vec<&CounterId> = v
            .state
            .progress
            .to_arrive
            .iter()
            .filter(|p| v.side_of(p) == Some(v.side))
            .collect();
        for piece in shuffled(waiting, ch) {
            if !self.memory.tried.insert(piece.clone()) {
                continue;
            }
            let Some(line) = scenario.arrival_of(piece) else {
                continue;
            };
            if line.plan.is_none() && line.turn > v.state.clock.turn {
                continue;
            }
            // Fixed entry hex, or the areas of the line, or (Corinth 29.2)
            // the area the plan gives it.
            let areas: Vec<CounterId> = match &line.plan {
                None => line.areas.clone(),
                Some(key) => match planned_area(v.state, piece, key) {
                    Some(area) => vec![area],
                    None => continue,
                },
            };
            let mut hexes: Vec<HexNumber> = if areas.is_empty() {
                vec![line.hex]
            } else {
                areas
                    .iter()
                    .filter_map(|a| scenario.area(&a.0))
                    .flat_map(|a| scenario.area_hexes(grid, a))
                    .filter(|h| !v.enemy.contains(h))
                    .collect()
            };
            hexes.sort();
            hexes.dedup();
            let mut ranked: Vec<(i64, usize, HexNumber)> = hexes
                .into_iter()
                .map(|h| (v.score(h), ch.below(4), h))
                .collect();
            ranked.sort();
            for (_, _, hex) in ranked.into_iter().take(6) {
                let Some(facing) = v.facing_at(hex) else {
                    continue;
                };
                let a = GbacwAction::Arrive {
                    piece: piece.clone(),
                    hex,
                    facing,
                };
                if accepted(v.rs, v.state, seat, &a) {
                    self.memory.arrived.insert(piece.clone());
                    return Some(a);
                }
            }
        }
        None
    }

    /// One unit not yet tried moves (toward the objectives, or at random),
    /// turns to face the enemy next to it, or (a battery) unlimbers in
    /// reach of the enemy or limbers out of it.
    fn move_unit(
        &mut self,
        v: &View,
        seat: SeatId,
        ch: &mut Chooser,
        only: Option<&BTreeSet<CounterId>>,
    ) -> Option<GbacwAction> {
        let oob = &v.rs.game().oob;
        // Newcomers head for the objectives even in a quiet side.
        let assault = self.temper.assault || only.is_some();
        let must_move = keep_moving(v);
        let units: Vec<(&CounterId, HexNumber)> = v
            .state
            .units
            .iter()
            .filter(|(id, _)| oob.units[*id].side == *v.side)
            .filter(|(id, _)| only.is_none_or(|o| o.contains(*id)))
            .filter_map(|(id, u)| u.hex.map(|h| (id, h)))
            .collect();
        for (id, at) in shuffled(units, ch) {
            // A newcomer moves on until it has no better hex (Corinth
            // 30.13: some must); the others move once.
            let fresh = self.memory.arrived.contains(id) || must_move.contains_key(id);
            if fresh {
                let n = self.memory.again.entry(id.clone()).or_default();
                if *n >= 4 {
                    continue;
                }
                *n += 1;
            } else if !self.memory.tried.insert(id.clone()) {
                continue;
            }
            let u = &v.state.units[id];
            let m = &u.status.markers;
            if m.contains(&Marker::Engaged) || m.contains(&Marker::Pin) {
                continue;
            }
            let near = v.nearest_enemy(at);
            let support = matches!(
                oob.units[id].kind,
                UnitKind::Battery { .. } | UnitKind::Wagon { .. }
            );
            let battery = matches!(oob.units[id].kind, UnitKind::Battery { .. });
            // A battery that sees the enemy near unlimbers; one that sees
            // none limbers to move on.
            if battery {
                let seen = v.seen_enemy(at, 6);
                let to = match (u.status.formation, seen.is_some()) {
                    (Formation::Limbered, true) => Some(Formation::Unlimbered),
                    (Formation::Unlimbered, false) if self.temper.assault => {
                        Some(Formation::Limbered)
                    }
                    _ => None,
                };
                if let Some(to) = to {
                    let a = GbacwAction::ChangeFormation {
                        unit: id.clone(),
                        to,
                    };
                    if accepted(v.rs, v.state, seat, &a) {
                        return Some(a);
                    }
                }
                if u.status.formation == Formation::Unlimbered {
                    // Guns in place turn to the nearest enemy they see.
                    if let Some(e) = seen.or(near.map(|(_, e)| e))
                        && let Some(f) = v.facing_toward(at, e)
                        && f != u.facing
                    {
                        let a = GbacwAction::Face {
                            unit: id.clone(),
                            facing: f,
                        };
                        if accepted(v.rs, v.state, seat, &a) {
                            return Some(a);
                        }
                    }
                    continue;
                }
            }
            // Next to the enemy: face it and stay (unless it must move on).
            if let Some((d, e)) = near
                && d <= 1
                && !must_move.contains_key(id)
            {
                if let Some(f) = v.facing_toward(at, e)
                    && f != u.facing
                {
                    let a = GbacwAction::Face {
                        unit: id.clone(),
                        facing: f,
                    };
                    if accepted(v.rs, v.state, seat, &a) {
                        return Some(a);
                    }
                }
                if assault {
                    continue;
                }
            }
            let Some(reach) = v.rs.reachable(v.state, id) else {
                continue;
            };
            let keep_off =
                |h: &HexNumber| support && v.nearest_enemy(*h).is_some_and(|(d, _)| d <= 2);
            let score = |h| if assault { v.score(h) } else { 0 };
            let mut to = ranked_hexes(&reach, at, ch, |h| !keep_off(h), score);
            if let Some(now) = must_move.get(id) {
                // Corinth 30.13: farther from the Assault Areas.
                let map = &v.rs.game().map;
                to.retain(|(_, _, h)| distance_to_assault_areas(map, *h).is_some_and(|d| d > *now));
            } else if assault && !fresh {
                let now = v.score(at);
                to.retain(|(s, _, _)| *s < now);
            }
            if let Some(a) = first_accepted_move(v, seat, id, &reach, to) {
                return Some(a);
            }
        }
        None
    }

    /// One leader not yet tried joins a unit of his command (a brigade
    /// commander the one of his brigade nearest the objectives; others any
    /// unit of their side nearest the objectives), so no leader stands
    /// alone at the end of the phase (17.52).
    fn move_leader(
        &mut self,
        v: &View,
        seat: SeatId,
        ch: &mut Chooser,
        only: Option<&BTreeSet<CounterId>>,
        again: bool,
    ) -> Option<GbacwAction> {
        let oob = &v.rs.game().oob;
        let assault = self.temper.assault || only.is_some();
        let leaders: Vec<(&CounterId, HexNumber)> = v
            .state
            .leaders
            .iter()
            .filter(|(id, _)| oob.leaders[*id].side == *v.side)
            .filter(|(id, _)| only.is_none_or(|o| o.contains(*id)))
            .filter_map(|(id, l)| l.hex.map(|h| (id, h)))
            .collect();
        // Hexes holding the side's units, by the brigade commanding them.
        let mut by_brigade: BTreeMap<&CounterId, BTreeSet<HexNumber>> = BTreeMap::new();
        let mut own: BTreeSet<HexNumber> = BTreeSet::new();
        for (id, u) in &v.state.units {
            let unit = &oob.units[id];
            let Some(h) = u.hex else { continue };
            if unit.side != *v.side {
                continue;
            }
            own.insert(h);
            if let Command::Brigade(b) = &unit.command {
                by_brigade.entry(b).or_default().insert(h);
            }
        }
        for (id, at) in shuffled(leaders, ch) {
            // A lone leader may try again (a unit may have moved on).
            if again {
                let n = self.memory.again.entry(id.clone()).or_default();
                if *n >= 3 {
                    continue;
                }
                *n += 1;
            } else if !self.memory.tried.insert(id.clone()) {
                continue;
            }
            let mine = match &oob.leaders[id].role {
                LeaderRole::Brigade { .. } => by_brigade.get(id).unwrap_or(&own),
                _ => &own,
            };
            if mine.is_empty() {
                continue;
            }
            let Some(reach) = v.rs.reachable(v.state, id) else {
                continue;
            };
            // Never alone near the enemy (17.52), on a unit of his command
            // if he can (else as near one), out of the front line, then
            // nearest the objectives.
            let rank = |h: HexNumber| -> LeaderRank {
                let alone = !own.contains(&h) && v.nearest_enemy(h).is_some_and(|(d, _)| d <= 4);
                let off = mine.iter().map(|m| v.distance(h, *m)).min().unwrap_or(0);
                let front = v.nearest_enemy(h).is_some_and(|(d, _)| d <= 1);
                let s = if assault { v.score(h) } else { 0 };
                (alone, off, front, s)
            };
            let now = rank(at);
            let mut to = ranked_hexes(&reach, at, ch, |_| true, rank);
            to.retain(|(r, _, _)| *r < now);
            if let Some(a) = first_accepted_move(v, seat, id, &reach, to) {
                return Some(a);
            }
        }
        None
    }

    /// One unit not yet tried fires its whole strength at the nearest
    /// enemy hex it may (an objective first among equals).
    fn fire(
        &mut self,
        v: &View,
        seat: SeatId,
        ch: &mut Chooser,
        most: usize,
    ) -> Option<GbacwAction> {
        if self.memory.offered >= most {
            return None;
        }
        let game = v.rs.game();
        let firing: BTreeSet<&CounterId> = v
            .state
            .fire_plan
            .iter()
            .flat_map(|f| f.firers.iter().map(|s| &s.unit))
            .collect();
        let units: Vec<(&CounterId, HexNumber)> = v
            .state
            .units
            .iter()
            .filter(|(id, u)| {
                game.oob.units[*id].side == *v.side && u.status.strength > 0 && !firing.contains(id)
            })
            .filter_map(|(id, u)| u.hex.map(|h| (id, h)))
            .collect();
        for (id, at) in shuffled(units, ch) {
            let Some(weapon) = game.oob.units[id]
                .weapon
                .as_deref()
                .and_then(|w| game.charts.range.weapon(w))
            else {
                continue;
            };
            let range = weapon.max_range();
            let mut targets: Vec<(u32, bool, HexNumber)> = v
                .enemy
                .iter()
                .map(|e| (v.distance(at, *e), !v.is_objective(*e), *e))
                .filter(|(d, _, _)| *d <= range)
                .collect();
            if targets.is_empty() || !self.memory.tried.insert(id.clone()) {
                continue;
            }
            targets.sort();
            for (_, _, target) in targets.into_iter().take(2) {
                let a = GbacwAction::DeclareFire {
                    target,
                    firers: vec![FireShare {
                        unit: id.clone(),
                        points: v.state.units[id].status.strength,
                    }],
                };
                if accepted(v.rs, v.state, seat, &a) {
                    return Some(a);
                }
            }
        }
        None
    }

    /// A melee on an enemy hex next to the side's units (objectives
    /// first): every adjacent unit not yet attacking, else one of them.
    fn melee(&mut self, v: &View, seat: SeatId, ch: &mut Chooser) -> Option<GbacwAction> {
        if self.memory.offered >= self.temper.melees {
            return None;
        }
        let oob = &v.rs.game().oob;
        let grid = &v.rs.game().map.grid;
        let attacking: BTreeSet<&CounterId> = v
            .state
            .melees
            .iter()
            .flat_map(|m| m.attackers.iter())
            .collect();
        let targets: BTreeSet<HexNumber> = v.state.melees.iter().map(|m| m.target).collect();
        let mut hexes: Vec<(bool, usize, HexNumber)> = v
            .enemy
            .iter()
            .filter(|e| !targets.contains(e))
            .map(|e| (!v.is_objective(*e), ch.below(1000), *e))
            .collect();
        hexes.sort();
        for (_, _, target) in hexes {
            if self.memory.targets_tried.contains(&target) {
                continue;
            }
            let adjacent: BTreeSet<HexNumber> = grid
                .neighbours_on_map(target)
                .into_iter()
                .map(|(_, n)| n)
                .collect();
            let attackers: Vec<CounterId> = v
                .state
                .units
                .iter()
                .filter(|(id, u)| {
                    oob.units[*id].side == *v.side
                        && u.hex.is_some_and(|h| adjacent.contains(&h))
                        && !attacking.contains(id)
                        && matches!(oob.units[*id].kind, UnitKind::Infantry | UnitKind::Cavalry)
                })
                .map(|(id, _)| id.clone())
                .collect();
            if attackers.is_empty() {
                continue;
            }
            self.memory.targets_tried.insert(target);
            let mut tries = vec![attackers.clone()];
            tries.extend(attackers.iter().take(3).map(|a| vec![a.clone()]));
            for attackers in tries {
                let a = GbacwAction::DeclareMelee { target, attackers };
                if accepted(v.rs, v.state, seat, &a) {
                    return Some(a);
                }
            }
        }
        None
    }

    /// Each routed unit tries to rally.
    fn rally(&mut self, v: &View, seat: SeatId) -> Option<GbacwAction> {
        let oob = &v.rs.game().oob;
        for (id, u) in &v.state.units {
            if oob.units[id].side != *v.side
                || u.hex.is_none()
                || !u.status.markers.contains(&Marker::Rout)
                || !self.memory.tried.insert(id.clone())
            {
                continue;
            }
            let a = GbacwAction::Rally { unit: id.clone() };
            if accepted(v.rs, v.state, seat, &a) {
                return Some(a);
            }
        }
        None
    }

    /// Units out of ammunition (and batteries short of rounds) ask the
    /// side's wagons for more.
    fn resupply(&mut self, v: &View, seat: SeatId) -> Option<GbacwAction> {
        let oob = &v.rs.game().oob;
        let own = |id: &CounterId| oob.units[id].side == *v.side;
        let wagons: Vec<&CounterId> = v
            .state
            .units
            .iter()
            .filter(|(id, u)| {
                own(id) && u.hex.is_some() && matches!(oob.units[*id].kind, UnitKind::Wagon { .. })
            })
            .map(|(id, _)| id)
            .collect();
        for (id, u) in &v.state.units {
            let wants = u.status.markers.contains(&Marker::AmmoDepleted)
                || matches!(oob.units[id].kind, UnitKind::Battery { rounds } if u.status.rounds < rounds);
            if !own(id) || u.hex.is_none() || !wants || !self.memory.tried.insert(id.clone()) {
                continue;
            }
            for w in &wagons {
                let a = GbacwAction::Resupply {
                    wagon: (*w).clone(),
                    unit: id.clone(),
                };
                if accepted(v.rs, v.state, seat, &a) {
                    return Some(a);
                }
            }
        }
        None
    }
}
