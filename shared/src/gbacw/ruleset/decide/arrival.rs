//! Cedar Mountain 26.4–26.46: reinforcements entering the map; 27.23:
//! units leaving it through an exit hex.
//!
//! A reinforcement waits off the map from the Game-Turn its arrival line
//! names. In its owner's Movement Phase it enters (`Arrive`) at its entry
//! hex as one of a road column: the first unit to enter there in the
//! phase pays 1 Movement Point, the second 2, and so on (26.4; the
//! `column-entry` hook's `first=` and `step=`), and then moves on with
//! what is left. A unit that cannot pay, or that the entry hex cannot hold
//! (stacking, a column alone in its hex: 8.16), simply enters later
//! (26.45). An entry hex held by an enemy combat unit when reinforcements
//! are due delays them a Game-Turn; after that they enter there if it is
//! clear, else at the closest unblocked edge hex (26.44).

use super::{movement, own_unit};
use crate::engine::{RuleCode, RuleError};
use crate::gbacw::charts::{Cost, MoveClass, Mp};
use crate::gbacw::facing::Facing;
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, Formation, UnitStatus};
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::{Casualty, GbacwState};
use crate::gbacw::ruleset::{Gbacw, err};
use crate::gbacw::scenario::{EntryCost, HookKind, on_edge};

/// The rule an arrival refusal names: the `column-entry` hook's case.
fn arrival_rule(rs: &Gbacw, hook: HookKind, fallback: &str) -> String {
    rs.game
        .scenario
        .hook(hook)
        .map_or_else(|| rs.case_rule(fallback), |h| rs.case_rule(&h.case))
}

/// The rule an arrival line's refusals name: its own case.
fn arrival_case(rs: &Gbacw, arrival: &crate::gbacw::scenario::Arrival) -> String {
    rs.case_rule(arrival.case.as_deref().unwrap_or("29.31"))
}

/// What the k-th unit entering at one hex in a phase pays (26.4):
/// `first` + (k − 1) × `step` whole Movement Points.
pub(crate) fn column_cost(rs: &Gbacw, k: u8) -> Mp {
    let hook = rs.game.scenario.hook(HookKind::ColumnEntry);
    let first = hook.and_then(|h| h.number("first")).unwrap_or(1);
    let step = hook.and_then(|h| h.number("step")).unwrap_or(1);
    Mp::from_whole(first.saturating_add(step.saturating_mul(u16::from(k.saturating_sub(1)))))
}

fn side_of<'a>(rs: &'a Gbacw, id: &CounterId) -> Option<&'a CounterId> {
    let oob = &rs.game.oob;
    oob.units
        .get(id)
        .map(|u| &u.side)
        .or_else(|| oob.leaders.get(id).map(|l| &l.side))
}

/// The movement class a piece enters in (26.46: column, mounted, limbered;
/// Corinth 29.3: infantry "in line" when its arrival line says so).
pub(crate) fn entry_class(rs: &Gbacw, piece: &CounterId) -> (MoveClass, Option<Formation>) {
    match rs.game.oob.units.get(piece) {
        Some(unit) => {
            let mut f = UnitStatus::fresh(unit).formation;
            let in_line = rs
                .game
                .scenario
                .arrival_of(piece)
                .is_some_and(|a| a.in_line);
            if in_line && f == Formation::Column {
                f = Formation::Line;
            }
            (f.move_class().unwrap_or(MoveClass::Limbered), Some(f))
        }
        None => (MoveClass::Leader, None),
    }
}

/// Corinth 29.31: the hexes of an arrival's areas that `piece` may be
/// placed in now: on the map, open to it, free of the enemy.
fn area_entry_hexes(
    rs: &Gbacw,
    state: &GbacwState,
    piece: &CounterId,
    side: &CounterId,
    areas: &[CounterId],
) -> Vec<HexNumber> {
    let board = Board::new(rs, state);
    let (class, _) = entry_class(rs, piece);
    let scenario = &rs.game.scenario;
    let mut out: Vec<HexNumber> = areas
        .iter()
        .filter_map(|a| scenario.area(&a.0))
        .flat_map(|a| scenario.area_hexes(&rs.game.map.grid, a))
        .filter(|h| !board.has_enemy(*h, side) && board.enemy_leaders_in(*h, side).is_empty())
        .filter(|h| {
            rs.game.map.hex(*h).is_some_and(|x| {
                rs.game.charts.movement.enter_cost(class, &x.terrain) != Cost::Prohibited
            })
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The hexes `piece` may enter at now, or why it may not (26.4, 26.44).
pub(crate) fn entry_hexes(
    rs: &Gbacw,
    state: &GbacwState,
    piece: &CounterId,
) -> Result<Vec<HexNumber>, RuleError> {
    let mut rule = arrival_rule(rs, HookKind::ColumnEntry, "26.4");
    let arrival = rs.game.scenario.arrival_of(piece).ok_or_else(|| {
        err(
            &rule,
            RuleCode::Illegal,
            format!("{piece} is not a reinforcement"),
        )
    })?;
    // Without Cedar Mountain's column hook, the arrival line's own case
    // (Corinth 29.47, 30.2).
    if rs.game.scenario.hook(HookKind::ColumnEntry).is_none() && arrival.case.is_some() {
        rule = arrival_case(rs, arrival);
    }
    if !state.progress.to_arrive.contains(piece) {
        return Err(err(
            &rule,
            RuleCode::Illegal,
            format!("{piece} has already entered the map"),
        ));
    }
    let turn = state.clock.turn;
    // Corinth 29.2: a plan arrival's areas and turn are the plot's.
    let planned = match &arrival.plan {
        None => None,
        Some(_) => Some(
            crate::gbacw::ruleset::plan::entry(rs, state, piece).ok_or_else(|| {
                err(
                    &rule,
                    RuleCode::Illegal,
                    format!("{piece} is not in the assault plan"),
                )
            })?,
        ),
    };
    let due = planned.as_ref().map_or(arrival.turn, |(_, t, _)| *t);
    if due > turn {
        return Err(err(
            &rule,
            RuleCode::Illegal,
            format!("{piece} arrives on Game-Turn {due}"),
        ));
    }
    let side = side_of(rs, piece).cloned().ok_or_else(|| {
        err(
            "GBACW 3.3",
            RuleCode::NotFound,
            format!("there is no counter {piece}"),
        )
    })?;
    let areas = planned.map_or_else(|| arrival.areas.clone(), |(a, _, _)| a);
    if !areas.is_empty() {
        // Corinth 29.32: an earlier division's waiting units first.
        let mine = super::arrival_order::Due {
            areas: areas.clone(),
            turn: due,
            division: None,
        };
        if let Some((first, theirs)) = super::arrival_order::first_in(rs, state, piece, &mine) {
            let area = theirs
                .areas
                .iter()
                .find(|a| areas.contains(a))
                .map_or_else(String::new, |a| crate::gbacw::words::area_name(rs, a));
            let division = theirs.division.map_or_else(
                || "an earlier division".to_string(),
                |d| format!("{d}'s division"),
            );
            return Err(err(
                &rs.case_rule("29.32"),
                RuleCode::Illegal,
                format!(
                    "{first} of {division}, due since Game-Turn {}, still waits to enter through {area} and can enter now: the units from the first division must be entered first",
                    theirs.turn
                ),
            ));
        }
        // Corinth 29.31: through the first row of its Assault Area.
        let hexes = area_entry_hexes(rs, state, piece, &side, &areas);
        if hexes.is_empty() {
            return Err(err(
                &arrival_case(rs, arrival),
                RuleCode::Illegal,
                format!("no hex of {piece}'s entry area is open: it enters later (29.32)"),
            ));
        }
        return Ok(hexes);
    }
    let board = Board::new(rs, state);
    let blocked_rule = arrival_rule(rs, HookKind::BlockedEntryDelay, "26.44");
    let entry = arrival.hex;
    let since = state.progress.entry_blocked.get(&entry).copied();
    if since == Some(turn) {
        return Err(err(
            &blocked_rule,
            RuleCode::Illegal,
            format!("{entry} is held by the enemy: its reinforcements are delayed a Game-Turn"),
        ));
    }
    if !board.has_enemy(entry, &side) {
        return Ok(vec![entry]);
    }
    if since.is_none() || rs.game.scenario.hook(HookKind::BlockedEntryDelay).is_none() {
        return Err(err(
            &blocked_rule,
            RuleCode::Illegal,
            format!("{entry} is held by the enemy"),
        ));
    }
    // 26.44: delayed already: the closest unblocked hex (on the edge,
    // where a column comes in from off the map), the player's choice
    // among equals.
    let grid = &rs.game.map.grid;
    let (class, _) = entry_class(rs, piece);
    let open: Vec<HexNumber> = grid
        .hexes()
        .filter(|h| on_edge(grid, *h) && !board.has_enemy(*h, &side))
        .filter(|h| {
            rs.game.map.hex(*h).is_some_and(|x| {
                rs.game.charts.movement.enter_cost(class, &x.terrain) != Cost::Prohibited
            })
        })
        .collect();
    let best = open.iter().map(|h| grid.distance(entry, *h)).min();
    Ok(open
        .into_iter()
        .filter(|h| Some(grid.distance(entry, *h)) == best)
        .collect())
}

/// Cedar Mountain 26.4: a reinforcement enters the map.
pub(crate) fn arrive(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    piece: &CounterId,
    hex: HexNumber,
    facing: Facing,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let owner = side_of(rs, piece).ok_or_else(|| {
        err(
            "GBACW 3.3",
            RuleCode::NotFound,
            format!("there is no counter {piece}"),
        )
    })?;
    if owner != side {
        return Err(err(
            "GBACW 3.3",
            RuleCode::NotYours,
            format!("{piece} is the enemy's"),
        ));
    }
    if Facing::from_index(facing.index()).is_none() {
        return Err(err(
            "GBACW 7.0",
            RuleCode::Invalid,
            "a unit faces one of its six hexsides",
        ));
    }
    let hexes = entry_hexes(rs, state, piece)?;
    if !hexes.contains(&hex) {
        let rule = match rs.game.scenario.arrival_of(piece) {
            Some(a) if !a.areas.is_empty() || a.plan.is_some() => arrival_case(rs, a),
            _ => arrival_rule(rs, HookKind::BlockedEntryDelay, "26.44"),
        };
        return Err(err(
            &rule,
            RuleCode::Illegal,
            format!(
                "{piece} enters at {}",
                hexes
                    .iter()
                    .map(|h| h.to_string())
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
        ));
    }
    let board = Board::new(rs, state);
    let chart = &rs.game.charts.movement;
    let (class, formation) = entry_class(rs, piece);
    let terrain_ok = rs
        .game
        .map
        .hex(hex)
        .is_some_and(|x| chart.enter_cost(class, &x.terrain) != Cost::Prohibited);
    if !terrain_ok {
        return Err(err(
            "GBACW 5.19",
            RuleCode::Illegal,
            format!("{piece} may not enter {hex}"),
        ));
    }
    let Some(formation) = formation else {
        // A leader rides beside the column: he pays the first place's
        // cost and takes no place in it.
        if !board.enemy_leaders_in(hex, side).is_empty() {
            return Err(err(
                "GBACW 5.12",
                RuleCode::Illegal,
                format!("{hex} holds enemy leaders: only a combat unit takes them (17.75)"),
            ));
        }
        let mut events = vec![GbacwEvent::LeaderArrived {
            leader: piece.clone(),
            hex,
            cost: column_cost(rs, 1),
        }];
        // Corinth 29.2: the division's entry is public now.
        events.extend(crate::gbacw::ruleset::plan::on_arrival(rs, state, piece));
        return Ok(events);
    };
    let k = state
        .progress
        .entered_at(state.clock, hex)
        .saturating_add(1);
    let arrival = rs.game.scenario.arrival_of(piece);
    let cost = match arrival.map(|a| a.entry) {
        None | Some(EntryCost::Hook) => column_cost(rs, k),
        // Corinth 30.13: ½, 1, 1½ ...
        Some(EntryCost::Column { first, step }) => Mp(first
            .halves()
            .saturating_add(step.halves().saturating_mul(u16::from(k - 1)))),
        // Corinth 29.31, 29.47: the placement hex's own cost.
        Some(EntryCost::Terrain) => {
            let terrain = rs.game.map.hex(hex).map(|x| &x.terrain);
            match terrain.map(|t| chart.enter_cost(class, t)) {
                Some(Cost::Mp(mp)) => mp,
                _ => Mp::from_whole(99),
            }
        }
    };
    // Corinth 29.31: "Each hex in that first row must be occupied by at
    // least one combat unit" before a hex takes a second this phase. The
    // area is the arrival line's, or the plot's for a plan arrival (the
    // Free Set-Up and its solitaire version: second reading part 8,
    // corinth_29_31_arrival_first_row_filled_and_mp).
    let areas = arrival.map_or_else(Vec::new, |a| match &a.plan {
        None => a.areas.clone(),
        Some(_) => crate::gbacw::ruleset::plan::entry(rs, state, piece)
            .map_or_else(Vec::new, |(areas, _, _)| areas),
    });
    if let Some(a) = arrival.filter(|_| !areas.is_empty())
        && k > 1
    {
        let open = area_entry_hexes(rs, state, piece, side, &areas);
        if let Some(empty) = open.iter().find(|h| {
            state.progress.entered_at(state.clock, **h) == 0 && board.units_of(**h, side).is_empty()
        }) {
            return Err(err(
                &arrival_case(rs, a),
                RuleCode::Illegal,
                format!(
                    "every hex of the first row takes a unit before any takes a second: {empty} is still empty (29.31)"
                ),
            ));
        }
    }
    let allowance = chart.allowance(class);
    if cost > allowance {
        return Err(err(
            &arrival_rule(rs, HookKind::ColumnEntry, "26.45"),
            RuleCode::Illegal,
            format!(
                "unit {k} of the column at {hex} would pay {cost} Movement Points of its {allowance}: it enters on a later Game-Turn (26.45)"
            ),
        ));
    }
    // 8.16, 8.17 as for any unit entering a hex, then the hex's limits.
    let occupants = board.units_of(hex, side);
    if !occupants.is_empty() {
        if formation == Formation::Column {
            return Err(err(
                "GBACW 8.16",
                RuleCode::Illegal,
                format!("{piece} enters in column and {hex} holds another unit"),
            ));
        }
        if formation == Formation::Mounted
            && occupants
                .iter()
                .any(|o| board.status(o).formation != Formation::Mounted)
        {
            return Err(err(
                "GBACW 8.17",
                RuleCode::Illegal,
                format!(
                    "{piece} enters mounted and {hex} holds units that are not mounted cavalry"
                ),
            ));
        }
    }
    board
        .check_stack(hex, side, &[], &[piece], Some((piece, formation)))
        .map_err(|o| {
            err(
                o.rule(),
                RuleCode::Illegal,
                format!("{piece} entering {hex} would break its stacking limits ({o})"),
            )
        })?;
    let mut events = vec![GbacwEvent::UnitArrived {
        unit: piece.clone(),
        hex,
        facing,
        formation,
        cost,
    }];
    // Corinth 29.2: the division's entry is public now.
    events.extend(crate::gbacw::ruleset::plan::on_arrival(rs, state, piece));
    // 17.75: enemy leaders alone in the hex are taken.
    for l in board.enemy_leaders_in(hex, side) {
        events.push(GbacwEvent::LeaderLost {
            leader: l.clone(),
            casualty: Casualty::Captured,
        });
    }
    Ok(events)
}

/// Cedar Mountain 27.23: a unit in an exit hex spends the hex's
/// Movement Points to leave the map, in its own Movement Phase. It may
/// never come back (26.42 allows no other way off).
pub(crate) fn exit(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    unit: &CounterId,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let (_, hex) = own_unit(rs, state, side, unit)?;
    let victory = &rs.game.scenario.victory;
    if victory.exits.is_empty() {
        return Err(err(
            "GBACW 5.17",
            RuleCode::Illegal,
            "no unit may leave the map in this battle",
        ));
    }
    // The exit hex's case (Cedar Mountain 27.23).
    let rule = rs.case_rule("27.23");
    let Some(exit) = victory.exits.iter().find(|e| e.hex == hex) else {
        return Err(err(
            &rule,
            RuleCode::Illegal,
            format!(
                "units leave the map only from {}",
                victory
                    .exits
                    .iter()
                    .map(|e| e.hex.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    };
    let m = movement::mover(rs, state, side, unit)?;
    let need = Mp::from_whole(exit.mp);
    if m.left() < need {
        return Err(err(
            &rule,
            RuleCode::Illegal,
            format!(
                "{unit} needs {need} Movement Points to leave the map and has {}",
                m.left()
            ),
        ));
    }
    Ok(vec![GbacwEvent::UnitExited { unit: unit.clone() }])
}

/// The map's middle hex, toward which reinforcements face by default.
fn middle(rs: &Gbacw) -> Option<HexNumber> {
    let grid = &rs.game.map.grid;
    let hexes: Vec<HexNumber> = grid.hexes().collect();
    hexes.get(hexes.len() / 2).copied()
}

/// Candidates for the Movement Phase's legal set: each due reinforcement
/// at each hex it may enter, facing the map's middle; each unit in an
/// exit hex leaving.
pub(crate) fn candidates(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    out: &mut Vec<GbacwAction>,
) {
    let middle = middle(rs);
    for piece in &state.progress.to_arrive {
        if side_of(rs, piece) != Some(side) {
            continue;
        }
        let Ok(hexes) = entry_hexes(rs, state, piece) else {
            continue;
        };
        for hex in hexes {
            out.push(GbacwAction::Arrive {
                piece: piece.clone(),
                hex,
                facing: super::setup::facing_toward(rs, hex, middle),
            });
        }
    }
    for e in &rs.game.scenario.victory.exits {
        for (id, u) in &state.units {
            if u.hex == Some(e.hex) && rs.game.oob.units[id].side == *side {
                out.push(GbacwAction::ExitMap { unit: id.clone() });
            }
        }
    }
}
