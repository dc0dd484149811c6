//! Cedar Mountain 26.2, 26.3: the set-up step before Game-Turn 1.
//!
//! The scenario's `setup area=…` and `setup with-command` lines leave a
//! side's counters for its player to place. While
//! [`ScenarioProgress::setting_up`](crate::gbacw::ruleset::progress::ScenarioProgress)
//! names that side, its seat places them one at a time (`PlaceUnit`,
//! `PlaceLeader`), each placement checked at once against the scenario's
//! `restrict` lines, and ends with `EndSetUp`. Whatever is not placed then
//! is set up by the default deployment, which is also what a timeout does.
//!
//! Each placement keeps the set-up so far valid, so the checks never need
//! to look ahead: a unit is placed where its area, the stacking limits
//! and the terrain allow, a leader only where a unit he commands already
//! stands, and a unit may not be taken away from a leader it is the only
//! command of.

use crate::engine::{RuleCode, RuleError};
use crate::gbacw::charts::{Cost, MoveClass};
use crate::gbacw::facing::Facing;
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{Command, CounterId, Formation, LeaderRole, Unit, UnitKind, UnitStatus};
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::ruleset::{Gbacw, err};
use crate::gbacw::scenario::{Area, Place, RestrictionKind, Setup};
use crate::ids::SeatId;
use std::collections::BTreeMap;

/// Most hexes the set-up's legal set offers each counter.
const SETUP_HEXES_OFFERED: usize = 12;

/// Seconds a side has for its whole set-up in live play before the
/// server ends it with the default deployment.
pub const SETUP_DEADLINE_SECS: u32 = 900;

impl Gbacw {
    /// The scenario options on at this table (Cedar Mountain 26.3).
    pub fn scenario_options(&self) -> &std::collections::BTreeSet<CounterId> {
        &self.scenario_options
    }

    /// A scenario case as a rule name: `"Cedar Mountain 26.2"`.
    pub(crate) fn case_rule(&self, case: &str) -> String {
        format!("{} {case}", self.game.scenario.name)
    }

    /// The case of the scenario's restriction `kind` if it applies with
    /// this table's options; `None` if it does not.
    pub(crate) fn restriction(&self, kind: RestrictionKind) -> Option<String> {
        self.game
            .scenario
            .restrictions
            .iter()
            .find(|r| {
                r.kind == kind
                    && r.when
                        .as_ref()
                        .is_none_or(|w| self.scenario_options.contains(w))
            })
            .map(|r| self.case_rule(&r.case))
    }

    /// The set-up line of a counter whose place its player chooses (an
    /// area, or with his command); `None` for every other counter.
    pub(crate) fn chosen_setup(&self, id: &CounterId) -> Option<&Setup> {
        self.game
            .scenario
            .setup_of(id)
            .filter(|s| matches!(s.place, Place::Area(_) | Place::WithCommand))
    }

    /// The sides that place counters before play, in seat order.
    pub(crate) fn setup_sides(&self) -> Vec<CounterId> {
        let oob = &self.game.oob;
        self.game
            .seats
            .iter()
            .filter(|side| {
                self.game.scenario.setup.iter().any(|s| {
                    matches!(s.place, Place::Area(_) | Place::WithCommand)
                        && s.units.iter().any(|u| side_of(self, u) == Some(side))
                })
            })
            .filter(|side| oob.sides.contains_key(*side))
            .cloned()
            .collect()
    }

    /// The area holding `hex`, if any.
    pub(crate) fn area_at(&self, hex: HexNumber) -> Option<&Area> {
        let grid = &self.game.map.grid;
        let scenario = &self.game.scenario;
        scenario
            .areas
            .iter()
            .find(|a| scenario.area_contains(grid, a, hex))
    }

    /// Whether `hex` is in `area`.
    pub(crate) fn in_area(&self, area: &Area, hex: HexNumber) -> bool {
        self.game
            .scenario
            .area_contains(&self.game.map.grid, area, hex)
    }
}

fn side_of<'a>(rs: &'a Gbacw, id: &CounterId) -> Option<&'a CounterId> {
    let oob = &rs.game.oob;
    oob.units
        .get(id)
        .map(|u| &u.side)
        .or_else(|| oob.leaders.get(id).map(|l| &l.side))
}

/// The rule a set-up refusal names when no narrower case applies.
pub(crate) fn setup_rule(rs: &Gbacw) -> String {
    rs.restriction(RestrictionKind::InPlace)
        .unwrap_or_else(|| rs.case_rule("set-up"))
}

/// An action during the set-up step.
pub(crate) fn decide(
    rs: &Gbacw,
    state: &GbacwState,
    seat: SeatId,
    action: &GbacwAction,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let Some(side) = state.progress.setting_up.as_ref() else {
        return Err(err(
            &setup_rule(rs),
            RuleCode::Illegal,
            "the set-up is over",
        ));
    };
    if rs.seat_of(side) != seat {
        return Err(err(
            &setup_rule(rs),
            RuleCode::NotYourTurn,
            format!(
                "{} is setting up",
                crate::gbacw::words::seat_name(rs, rs.seat_of(side))
            ),
        ));
    }
    match action {
        GbacwAction::PlaceUnit {
            unit,
            hex,
            facing,
            formation,
        } => place_unit(rs, state, side, unit, *hex, *facing, *formation),
        GbacwAction::PlaceLeader { leader, hex } => place_leader(rs, state, side, leader, *hex),
        GbacwAction::EndSetUp => end_setup(rs, state, side),
        _ => Err(err(
            &setup_rule(rs),
            RuleCode::Illegal,
            "the set-up comes first: place counters or end the set-up",
        )),
    }
}

/// The areas a unit of set-up line `line` may stand in now, and the case
/// that says so: its own (26.2); under 26.3 any area, but a named one for
/// the counters fixed to it (26.3), and the area its brigade already
/// stands in (26.2: "all the units of a brigade").
fn allowed_areas<'a>(
    rs: &'a Gbacw,
    state: &GbacwState,
    unit: &Unit,
    line: &Setup,
) -> (Vec<&'a Area>, String) {
    // The set-up line's own case (Corinth 30.11), else the in-place one.
    let own_case = line
        .case
        .as_deref()
        .map_or_else(|| setup_rule(rs), |c| rs.case_rule(c));
    let scenario = &rs.game.scenario;
    let brigade = match &unit.command {
        Command::Brigade(b) => Some(b),
        Command::Independent => None,
    };
    // 26.3: "The 1st Me Cavalry is set up in area 1 and Bayard's brigade
    // in Area 6."
    for r in scenario.restrictions.iter().filter(|r| {
        r.kind == RestrictionKind::FixedArea
            && r.when
                .as_ref()
                .is_none_or(|w| rs.scenario_options.contains(w))
    }) {
        if r.units.contains(&unit.id) || brigade.is_some_and(|b| r.units.contains(b)) {
            let area = r.area.as_ref().and_then(|a| scenario.area(&a.0));
            return (area.into_iter().collect(), rs.case_rule(&r.case));
        }
    }
    let Some(any_case) = rs.restriction(RestrictionKind::AnyArea) else {
        let Place::Area(a) = &line.place else {
            return (Vec::new(), own_case);
        };
        return (scenario.area(&a.0).into_iter().collect(), own_case);
    };
    // 26.3 with 26.2: a brigade's units share one area.
    if let Some(b) = brigade {
        let mates = state.units.iter().filter(|(id, u)| {
            **id != unit.id
                && u.hex.is_some()
                && matches!(&rs.game.oob.units[*id].command, Command::Brigade(x) if x == b)
        });
        for (_, u) in mates {
            if let Some(a) = u.hex.and_then(|h| rs.area_at(h)) {
                return (vec![a], own_case);
            }
        }
    }
    (scenario.areas.iter().collect(), any_case)
}

/// Whether leader `leader` commands `unit` for set-up (26.2: a brigade
/// leader his brigade, a division leader any brigade of his division, an
/// army leader any unit of his side).
fn commands(rs: &Gbacw, leader: &CounterId, unit: &Unit) -> bool {
    let oob = &rs.game.oob;
    let Some(l) = oob.leaders.get(leader) else {
        return false;
    };
    match (&l.role, &unit.command) {
        (LeaderRole::Army { .. }, _) => unit.side == l.side,
        (LeaderRole::Brigade { .. }, Command::Brigade(b)) => b == leader,
        (LeaderRole::Division { .. }, Command::Brigade(b)) => matches!(
            oob.leaders.get(b).map(|x| &x.role),
            Some(LeaderRole::Brigade { division: Some(d), .. }) if d == leader
        ),
        _ => false,
    }
}

/// Cedar Mountain 26.2 (26.3): set up one unit.
pub(crate) fn place_unit(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    id: &CounterId,
    hex: HexNumber,
    facing: Facing,
    formation: Formation,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let oob = &rs.game.oob;
    let map = &rs.game.map;
    let rule = setup_rule(rs);
    let unit = oob.units.get(id).ok_or_else(|| {
        err(
            "GBACW 3.3",
            RuleCode::NotFound,
            format!("there is no unit {id}"),
        )
    })?;
    if unit.side != *side {
        return Err(err(
            "GBACW 3.3",
            RuleCode::NotYours,
            format!("{id} is the enemy's"),
        ));
    }
    let line = rs.chosen_setup(id).ok_or_else(|| {
        err(
            &rule,
            RuleCode::Illegal,
            format!("{id} is not set up by the player (it arrives later or has a fixed place)"),
        )
    })?;
    if !map.grid.contains(hex) {
        return Err(err(
            "GBACW 5.17",
            RuleCode::Invalid,
            format!("{hex} is off the map"),
        ));
    }
    if Facing::from_index(facing.index()).is_none() {
        return Err(err(
            "GBACW 7.0",
            RuleCode::Invalid,
            "a unit faces one of its six hexsides",
        ));
    }
    // 26.2: "in any formation he wishes" — that its kind may take (6.0).
    let is_wagon = matches!(unit.kind, UnitKind::Wagon { .. });
    if !formation.allowed_for(&unit.kind) || (formation == Formation::Wagon) != is_wagon {
        return Err(err(
            "GBACW 6.0",
            RuleCode::Illegal,
            format!("{id} cannot be in {} formation", formation.name()),
        ));
    }
    // Corinth 30.1, 29.4: "in line (infantry), unlimbered (artillery), and
    // mounted (cavalry)".
    if let Some(case) = rs.restriction(RestrictionKind::DeployedFormation) {
        let deployed = default_formations(&unit.kind)[0];
        if formation != deployed {
            return Err(err(
                &case,
                RuleCode::Illegal,
                format!("{id} sets up in {} formation", deployed.name()),
            ));
        }
    }
    // 26.2 / 26.3: in an area it may use.
    if rs.restriction(RestrictionKind::InPlace).is_some() {
        let (allowed, case) = allowed_areas(rs, state, unit, line);
        let here = rs.area_at(hex);
        // The battle's own rule here (hook `setup_placement`).
        let freed = || rs.battle().setup_placement(rs, state, side, id, hex);
        if !allowed.iter().any(|a| rs.in_area(a, hex)) && freed().transpose()?.is_none() {
            return Err(err(
                &case,
                RuleCode::Illegal,
                format!(
                    "{id} sets up in {}; {hex} is {}",
                    allowed
                        .iter()
                        .map(|a| a.name.as_str())
                        .collect::<Vec<_>>()
                        .join(" or "),
                    here.map_or("in no Deployment Area".to_string(), |a| format!(
                        "in {}",
                        a.name
                    )),
                ),
            ));
        }
    }
    // 26.3: one brigade (only) plus one battery per area.
    if let (Some(case), Some(area)) = (
        rs.restriction(RestrictionKind::OneBrigadeAndBatteryPerArea),
        rs.area_at(hex),
    ) {
        for (other, u) in &state.units {
            if other == id
                || u.hex
                    .and_then(|h| rs.area_at(h))
                    .is_none_or(|a| a.id != area.id)
            {
                continue;
            }
            let o = &oob.units[other];
            let clash = match (&unit.kind, &o.kind, &unit.command, &o.command) {
                (UnitKind::Battery { .. }, UnitKind::Battery { .. }, _, _) => true,
                (_, _, Command::Brigade(a), Command::Brigade(b)) => {
                    !matches!(unit.kind, UnitKind::Battery { .. })
                        && !matches!(o.kind, UnitKind::Battery { .. })
                        && a != b
                }
                _ => false,
            };
            if clash {
                return Err(err(
                    &case,
                    RuleCode::Illegal,
                    format!(
                        "{} already holds {other}: one brigade plus one battery per area",
                        area.name
                    ),
                ));
            }
        }
    }
    // Corinth 29.44: at most so many of these counters in the area.
    at_most(rs, state, id, hex)?;
    // Corinth 29.41: away from the Assault Areas.
    away_from_areas(rs, hex)?;
    // 5.19: not in terrain closed to it.
    let class = formation.move_class().unwrap_or(MoveClass::Limbered);
    let closed = map
        .hex(hex)
        .is_none_or(|h| rs.game.charts.movement.enter_cost(class, &h.terrain) == Cost::Prohibited);
    if closed {
        return Err(err(
            "GBACW 5.19",
            RuleCode::Illegal,
            format!(
                "{id} may not stand in {hex} in {} formation",
                formation.name()
            ),
        ));
    }
    let board = Board::new(rs, state);
    if board.has_enemy(hex, side) || !board.enemy_leaders_in(hex, side).is_empty() {
        return Err(err(
            "GBACW 5.12",
            RuleCode::Illegal,
            format!("{hex} holds enemy counters"),
        ));
    }
    // 26.2: "within the limits of the stacking restrictions for that hex".
    if let Some(case) = rs.restriction(RestrictionKind::Stacking) {
        board
            .check_stack(hex, side, &[id], &[id], Some((id, formation)))
            .map_err(|o| {
                err(
                    &case,
                    RuleCode::Illegal,
                    format!(
                        "{id} in {hex} would break its stacking limits ({}: {o})",
                        o.rule()
                    ),
                )
            })?;
    }
    // 26.2: a leader keeps a unit he commands beside him.
    if let Some(from) = state.units[id].hex.filter(|h| *h != hex) {
        stranded(rs, &board, side, id, from)?;
    }
    Ok(vec![GbacwEvent::UnitPlaced {
        unit: id.clone(),
        hex,
        facing,
        formation,
    }])
}

/// Corinth 29.44 ("the remaining four independent batteries are set up
/// ... on or adjacent to hex 2737"): the scenario's `at-most` lines, each
/// a most number of its counters in its area.
fn at_most(
    rs: &Gbacw,
    state: &GbacwState,
    id: &CounterId,
    hex: HexNumber,
) -> Result<(), RuleError> {
    let scenario = &rs.game.scenario;
    for r in scenario.restrictions.iter().filter(|r| {
        r.kind == RestrictionKind::AtMost
            && r.units.contains(id)
            && r.when
                .as_ref()
                .is_none_or(|w| rs.scenario_options.contains(w))
    }) {
        let (Some(area), Some(most)) = (r.area.as_ref().and_then(|a| scenario.area(&a.0)), r.count)
        else {
            continue;
        };
        if !rs.in_area(area, hex) {
            continue;
        }
        let there = r
            .units
            .iter()
            .filter(|u| *u != id)
            .filter(|u| {
                state
                    .units
                    .get(*u)
                    .and_then(|x| x.hex)
                    .is_some_and(|h| rs.in_area(area, h))
            })
            .count();
        if there >= usize::from(most) {
            return Err(err(
                &rs.case_rule(&r.case),
                RuleCode::Illegal,
                format!("{} already holds {there} of its {most}", area.name),
            ));
        }
    }
    Ok(())
}

/// Corinth 29.41: "No Union unit may be set up within 4 hexes of a
/// Confederate Assault Area ... Exception: ... adjacent to and on the
/// interior side of an outer works hex".
pub(crate) fn away_from_areas(rs: &Gbacw, hex: HexNumber) -> Result<(), RuleError> {
    let scenario = &rs.game.scenario;
    let map = &rs.game.map;
    for r in scenario.restrictions.iter().filter(|r| {
        r.kind == RestrictionKind::AwayFromAreas
            && r.when
                .as_ref()
                .is_none_or(|w| rs.scenario_options.contains(w))
    }) {
        let most = u32::from(r.count.unwrap_or(0));
        let near = r
            .units
            .iter()
            .filter_map(|a| scenario.area(&a.0))
            .flat_map(|a| scenario.area_hexes(&map.grid, a))
            .map(|h| map.grid.distance(h, hex))
            .min();
        if near.is_some_and(|d| d <= most) && !rs.battle().setup_exempt_hex(rs, hex) {
            return Err(err(
                &rs.case_rule(&r.case),
                RuleCode::Illegal,
                format!(
                    "{hex} is within {most} hexes of an Assault Area and not just inside the outer works"
                ),
            ));
        }
    }
    Ok(())
}

/// Refuses to take `unit` away from `from` when a leader there would be
/// left with no unit he commands (26.2).
fn stranded(
    rs: &Gbacw,
    board: &Board<'_>,
    side: &CounterId,
    unit: &CounterId,
    from: HexNumber,
) -> Result<(), RuleError> {
    let Some(case) = rs.restriction(RestrictionKind::LeaderWithCommand) else {
        return Ok(());
    };
    let staying: Vec<&CounterId> = board
        .units_of(from, side)
        .into_iter()
        .filter(|u| *u != unit)
        .collect();
    for l in board.leaders_of(from, side) {
        if !staying
            .iter()
            .any(|u| commands(rs, l, &rs.game.oob.units[*u]))
        {
            return Err(err(
                &case,
                RuleCode::Illegal,
                format!("{l} in {from} would be left without a unit he commands: move him first"),
            ));
        }
    }
    Ok(())
}

/// Cedar Mountain 26.2: set up a leader with a unit he commands.
pub(crate) fn place_leader(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    id: &CounterId,
    hex: HexNumber,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let oob = &rs.game.oob;
    let rule = setup_rule(rs);
    let leader = oob.leaders.get(id).ok_or_else(|| {
        err(
            "GBACW 3.3",
            RuleCode::NotFound,
            format!("there is no leader {id}"),
        )
    })?;
    if leader.side != *side {
        return Err(err(
            "GBACW 3.3",
            RuleCode::NotYours,
            format!("{id} is the enemy's"),
        ));
    }
    if rs.chosen_setup(id).is_none() {
        return Err(err(
            &rule,
            RuleCode::Illegal,
            format!(
                "{id} is not set up by the player (he arrives later, waits in the pool or has a fixed place)"
            ),
        ));
    }
    if !rs.game.map.grid.contains(hex) {
        return Err(err(
            "GBACW 5.17",
            RuleCode::Invalid,
            format!("{hex} is off the map"),
        ));
    }
    let board = Board::new(rs, state);
    if board.has_enemy(hex, side) || !board.enemy_leaders_in(hex, side).is_empty() {
        return Err(err(
            "GBACW 5.12",
            RuleCode::Illegal,
            format!("{hex} holds enemy counters"),
        ));
    }
    if let Some(case) = rs.restriction(RestrictionKind::LeaderWithCommand)
        && !board
            .units_of(hex, side)
            .iter()
            .any(|u| commands(rs, id, &oob.units[*u]))
    {
        return Err(err(
            &case,
            RuleCode::Illegal,
            format!(
                "{id} sets up with a unit he commands (brigade leaders with their brigade, division leaders with a brigade of their division, army leaders with any unit); {hex} holds none"
            ),
        ));
    }
    Ok(vec![GbacwEvent::LeaderPlaced {
        leader: id.clone(),
        hex,
    }])
}

/// The default formation of a unit set up by default: infantry in line,
/// cavalry mounted, batteries unlimbered (deployed and ready to fire).
fn default_formations(kind: &UnitKind) -> Vec<Formation> {
    let first = match kind {
        UnitKind::Infantry => Formation::Line,
        UnitKind::Cavalry => Formation::Mounted,
        UnitKind::Battery { .. } => Formation::Unlimbered,
        UnitKind::Wagon { .. } => Formation::Wagon,
    };
    let mut out = vec![first];
    for f in [
        Formation::Line,
        Formation::Column,
        Formation::Mounted,
        Formation::Dismounted,
        Formation::Limbered,
        Formation::Unlimbered,
    ] {
        if f != first && f.allowed_for(kind) {
            out.push(f);
        }
    }
    out
}

/// The facing a unit set up by default takes at `hex`: toward the
/// nearest hex where the enemy arrives (else the map's top).
pub(crate) fn facing_toward_enemy(rs: &Gbacw, side: &CounterId, hex: HexNumber) -> Facing {
    let grid = &rs.game.map.grid;
    let target = rs
        .game
        .scenario
        .arrivals
        .iter()
        .filter(|a| {
            a.units
                .iter()
                .any(|u| side_of(rs, u).is_some_and(|s| s != side))
        })
        .map(|a| a.hex)
        .min_by_key(|h| (grid.distance(hex, *h), *h));
    facing_toward(rs, hex, target)
}

/// The facing at `hex` whose neighbour is nearest `target`.
pub(crate) fn facing_toward(rs: &Gbacw, hex: HexNumber, target: Option<HexNumber>) -> Facing {
    let grid = &rs.game.map.grid;
    let Some(target) = target else {
        return Facing::new(hexx::EdgeDirection::FLAT_TOP);
    };
    grid.neighbours_on_map(hex)
        .into_iter()
        .min_by_key(|(d, n)| (grid.distance(*n, target), d.index()))
        .map_or(Facing::new(hexx::EdgeDirection::FLAT_TOP), |(d, _)| {
            Facing::new(d)
        })
}

/// The hexes a unit not yet placed may try, best first: those of the
/// areas it may use, its own area first, each area's centre first.
fn candidate_hexes(rs: &Gbacw, state: &GbacwState, id: &CounterId) -> Vec<HexNumber> {
    let Some(line) = rs.chosen_setup(id) else {
        return Vec::new();
    };
    let unit = &rs.game.oob.units[id];
    let (mut areas, _) = allowed_areas(rs, state, unit, line);
    // The unit's own area first.
    if let Place::Area(own) = &line.place {
        areas.sort_by_key(|a| a.id != *own);
    }
    let grid = &rs.game.map.grid;
    let mut out = Vec::new();
    for a in areas {
        let mut hexes = rs.game.scenario.area_hexes(grid, a);
        hexes.sort_by_key(|h| (*h != a.centre, *h));
        out.extend(hexes);
    }
    out
}

/// The side's counters still to place, units first, each in set-up order.
fn unplaced(rs: &Gbacw, state: &GbacwState, side: &CounterId) -> (Vec<CounterId>, Vec<CounterId>) {
    let mut units = Vec::new();
    let mut leaders = Vec::new();
    for s in &rs.game.scenario.setup {
        if !matches!(s.place, Place::Area(_) | Place::WithCommand) {
            continue;
        }
        for id in &s.units {
            if side_of(rs, id) != Some(side) {
                continue;
            }
            if let Some(u) = state.units.get(id) {
                if u.hex.is_none() {
                    units.push(id.clone());
                }
            } else if state.leaders.get(id).is_some_and(|l| l.hex.is_none()) {
                leaders.push(id.clone());
            }
        }
    }
    (units, leaders)
}

/// Place everything of `side` not yet placed, on a copy of the state, by
/// the same checks a player's placements pass; `None` if something finds
/// no room around what is already placed.
fn complete(rs: &Gbacw, state: &GbacwState, side: &CounterId) -> Option<Vec<GbacwEvent>> {
    let mut s = state.clone();
    let mut events = Vec::new();
    let (units, leaders) = unplaced(rs, &s, side);
    // The battle's own rule here (hook `setup_unit_order`).
    let order = rs.battle().setup_unit_order(rs, state, side);
    for id in units {
        let kind = &rs.game.oob.units[&id].kind;
        let mut hexes = candidate_hexes(rs, &s, &id);
        order(&s, &id, &mut hexes);
        let try_hexes = |hexes: Vec<HexNumber>| {
            hexes.into_iter().find_map(|hex| {
                let facing = facing_toward_enemy(rs, side, hex);
                default_formations(kind)
                    .into_iter()
                    .find_map(|f| place_unit(rs, &s, side, &id, hex, facing, f).ok())
            })
        };
        // The battle's own rule here (hook `setup_fallback_hexes`).
        let placed = try_hexes(hexes)
            .or_else(|| try_hexes(rs.battle().setup_fallback_hexes(rs, &s, side, &id)))?;
        for e in placed {
            crate::gbacw::ruleset::event::evolve(&mut s, &e);
            events.push(e);
        }
    }
    for id in leaders {
        // With the first unit he commands, in set-up order.
        let mut hexes: Vec<HexNumber> = rs
            .game
            .scenario
            .setup
            .iter()
            .flat_map(|l| l.units.iter())
            .filter_map(|u| {
                let unit = rs.game.oob.units.get(u)?;
                let hex = s.units.get(u)?.hex?;
                commands(rs, &id, unit).then_some(hex)
            })
            .collect();
        // The battle's own rule here (hook `setup_leader_order`).
        rs.battle()
            .setup_leader_order(rs, &s, side, &id, &mut hexes);
        let placed = hexes
            .into_iter()
            .find_map(|hex| place_leader(rs, &s, side, &id, hex).ok())?;
        for e in placed {
            crate::gbacw::ruleset::event::evolve(&mut s, &e);
            events.push(e);
        }
    }
    // The whole set-up against the scenario's own check.
    let placed: BTreeMap<CounterId, HexNumber> = s
        .units
        .iter()
        .filter_map(|(id, u)| u.hex.map(|h| (id.clone(), h)))
        .chain(
            s.leaders
                .iter()
                .filter_map(|(id, l)| l.hex.map(|h| (id.clone(), h))),
        )
        .filter(|(id, _)| side_of(rs, id) == Some(side))
        .collect();
    let problems =
        rs.game
            .scenario
            .check_setup(&rs.game.map, &rs.game.oob, &placed, &rs.scenario_options);
    // Problems naming the other side's counters (not placed yet) are theirs.
    let theirs = |p: &crate::gbacw::scenario::Problem| {
        rs.game
            .oob
            .units
            .keys()
            .chain(rs.game.oob.leaders.keys())
            .filter(|id| side_of(rs, id).is_some_and(|s| s != side))
            .any(|id| p.0.contains(&format!("`{id}`")))
    };
    // The battle's own rule here (hook `setup_problem_excused`).
    let freed =
        |p: &crate::gbacw::scenario::Problem| rs.battle().setup_problem_excused(rs, &s, side, p);
    problems
        .iter()
        .all(|p| theirs(p) || freed(p))
        .then_some(events)
}

/// The default deployment of `side` from nothing placed: every chosen
/// counter taken off the map, then placed as [`complete`] does.
pub(crate) fn default_deployment(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
) -> Option<Vec<GbacwEvent>> {
    let mut bare = state.clone();
    for (id, u) in bare.units.iter_mut() {
        if side_of(rs, id) == Some(side) && rs.chosen_setup(id).is_some() {
            u.hex = None;
            u.status = UnitStatus::fresh(&rs.game.oob.units[id]);
        }
    }
    for (id, l) in bare.leaders.iter_mut() {
        if side_of(rs, id) == Some(side) && rs.chosen_setup(id).is_some() {
            l.hex = None;
        }
    }
    complete(rs, &bare, side)
}

/// `EndSetUp`: complete the player's set-up by default; if what he placed
/// leaves no room for the rest, the whole default deployment replaces it
/// (so a timeout or a random player always finishes). Then the next side
/// sets up, or play begins.
fn end_setup(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let events = complete(rs, state, side)
        .or_else(|| default_deployment(rs, state, side))
        .ok_or_else(|| {
            err(
                &setup_rule(rs),
                RuleCode::Internal,
                "the scenario's default deployment does not fit its own restrictions",
            )
        })?;
    finish(rs, state, side, events)
}

/// `EndSetUp` sent by the server on a timeout: never refused. When the
/// player's placements cannot be completed into a set-up that keeps the
/// whole-set-up checks (Corinth 29.42), the default deployment replaces
/// them.
pub(crate) fn end_setup_by_default(
    rs: &Gbacw,
    state: &GbacwState,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let Some(side) = state.progress.setting_up.as_ref() else {
        return Err(err(
            &setup_rule(rs),
            RuleCode::Illegal,
            "the set-up is over",
        ));
    };
    end_setup(rs, state, side).or_else(|refused| {
        let events = default_deployment(rs, state, side).ok_or(refused)?;
        finish(rs, state, side, events)
    })
}

/// The end of a side's set-up once every counter is placed: the checks of
/// the whole set-up, the Hotel freeze, the next side or play.
fn finish(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    mut events: Vec<GbacwEvent>,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let mut after = state.clone();
    for e in &events {
        crate::gbacw::ruleset::event::evolve(&mut after, e);
    }
    // The battle's own rule here (hook `check_setup`).
    rs.battle().check_setup(rs, &after, side)?;
    // The battle's own events as the set-up ends (hook `at_setup_end`).
    events.extend(rs.battle().at_setup_end(rs, &after, side));
    let sides = rs.setup_sides();
    let next = sides.iter().skip_while(|s| *s != side).nth(1).cloned();
    events.push(GbacwEvent::SetUpEnded { next });
    Ok(events)
}

/// The set-up's legal actions: `EndSetUp`, and for each counter still to
/// place every hex it may take in its default formation and facing (and
/// its other formations at the first such hex); leaders with each unit
/// they command. Each kept only if `decide` accepts it.
pub(crate) fn legal(rs: &Gbacw, state: &GbacwState, seat: SeatId) -> Vec<GbacwAction> {
    let Some(side) = state.progress.setting_up.as_ref() else {
        return Vec::new();
    };
    if rs.seat_of(side) != seat {
        return Vec::new();
    }
    let mut out = Vec::new();
    // The battle's checks of the whole set-up may refuse the end (hook
    // `setup_checks_whole`; a costly check: only where they apply).
    let whole_checks = rs.battle().setup_checks_whole(rs, side);
    if !whole_checks || end_setup(rs, state, side).is_ok() {
        out.push(GbacwAction::EndSetUp);
    }
    let (units, leaders) = unplaced(rs, state, side);
    for id in &units {
        let kind = &rs.game.oob.units[id].kind;
        let formations = default_formations(kind);
        let mut first = true;
        // Every hex of the first area it may use; the other areas (26.3)
        // by their centres only, to keep the set small.
        let hexes = candidate_hexes(rs, state, id);
        let first_area = rs.chosen_setup(id).and_then(|line| {
            let (areas, _) = allowed_areas(rs, state, &rs.game.oob.units[id], line);
            // Its own area first, as `candidate_hexes` orders them.
            let own = match &line.place {
                Place::Area(own) => areas.iter().find(|a| a.id == *own),
                _ => None,
            };
            own.or(areas.first()).map(|a| (*a).clone())
        });
        let offered: Vec<HexNumber> = hexes
            .into_iter()
            .filter(|h| {
                first_area.as_ref().is_some_and(|a| rs.in_area(a, *h))
                    || rs.area_at(*h).is_some_and(|a| a.centre == *h)
            })
            .collect();
        // A large listed area (Corinth 30.11's hexrows) is offered by a
        // spread of its hexes: each placement is checked in full, and
        // checking every hex of every area for every counter is too slow
        // for a set the client asks for on every state.
        let stride = offered.len().div_ceil(SETUP_HEXES_OFFERED).max(1);
        for hex in offered.into_iter().step_by(stride) {
            let facing = facing_toward_enemy(rs, side, hex);
            let ok = |f: Formation| place_unit(rs, state, side, id, hex, facing, f).is_ok();
            if !ok(formations[0]) {
                continue;
            }
            let offered: &[Formation] = if first { &formations } else { &formations[..1] };
            for f in offered.iter().copied().filter(|f| ok(*f)) {
                out.push(GbacwAction::PlaceUnit {
                    unit: id.clone(),
                    hex,
                    facing,
                    formation: f,
                });
            }
            first = false;
        }
    }
    let board = Board::new(rs, state);
    for id in &leaders {
        let mut hexes: Vec<HexNumber> = state
            .units
            .iter()
            .filter_map(|(u, s)| s.hex.filter(|_| commands(rs, id, &rs.game.oob.units[u])))
            .collect();
        hexes.sort();
        hexes.dedup();
        for hex in hexes {
            if board.units_of(hex, side).is_empty() {
                continue;
            }
            if place_leader(rs, state, side, id, hex).is_ok() {
                out.push(GbacwAction::PlaceLeader {
                    leader: id.clone(),
                    hex,
                });
            }
        }
    }
    // Only placements after which the set-up can still be finished
    // legally (hook `setup_feasible_after`), so that following the legal
    // set always leads to an accepted EndSetUp.
    if whole_checks {
        out.retain(|a| rs.battle().setup_feasible_after(rs, state, side, a));
    }
    out
}
