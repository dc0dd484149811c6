//! Where a retreat may go beyond GBACW 14.0: the battle's limits
//! ([`crate::gbacw::ruleset::battle_rules::BattleRules::retreat_directions`]:
//! Cedar Mountain 23.0's retreats only toward one's own lines;
//! [`crate::gbacw::ruleset::battle_rules::BattleRules::retreat_goals`]:
//! Corinth 27.0's retreats toward a goal) and the BCE-loss rule's (Cedar
//! Mountain 24.14, Corinth 25.1: a unit of a brigade that has lost BCE
//! never retreats through an enemy Zone of Control; nor advances after
//! melee into one: `combat/advance.rs`; nor goes on through one when its
//! brigade breaks during the retreat: `combat/retreat_fire.rs`), every step
//! of every retreat (a melee result, a rout, a displacement, retreat before
//! melee). A unit with no such path is captured; one retreating before
//! melee stands instead (12.88).
//!
//! The compass of a step ([`compass`]) reads the scenario's `north` line
//! (the printed compass is not in the text: `north left`, provisional,
//! docs/gbacw-notes.md).

use crate::engine::{RuleCode, RuleError};
use crate::gbacw::map::{Grid, HexNumber, Offset, Orientation};
use crate::gbacw::oob::CounterId;
use crate::gbacw::retreat::{RetreatKind, RetreatLimits, retreat_paths_on};
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::combat::effects;
use crate::gbacw::ruleset::err;
use crate::gbacw::ruleset::exclusive::bce_loss;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::scenario::HookKind;

/// The eight compass points, clockwise from north.
const POINTS: [&str; 8] = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];

/// The screen direction of a step from `a` to its neighbour `b`, in
/// eighths of a turn counter-clockwise from "right" (0 = right, 2 = up,
/// 4 = left, 6 = down): flat-topped grids step straight up or down, or
/// diagonally; the diagonal's height comes from the columns' offset.
pub(crate) fn screen_eighth(grid: &Grid, a: HexNumber, b: HexNumber) -> Option<i32> {
    if grid.orientation != Orientation::Flat {
        return None;
    }
    let dc = i32::from(b.col()) - i32::from(a.col());
    // Twice the visual row, so half-hex offsets stay whole.
    let y = |h: HexNumber| {
        let down = match grid.offset {
            Offset::Even => h.col().is_multiple_of(2),
            Offset::Odd => h.col() % 2 == 1,
        };
        2 * i32::from(h.row()) + i32::from(down)
    };
    let dy = y(b) - y(a);
    Some(match (dc.signum(), dy.signum()) {
        (0, -1) => 2,
        (0, 1) => 6,
        (1, -1) => 1,
        (1, 1) => 7,
        (-1, -1) => 3,
        (-1, 1) => 5,
        _ => return None,
    })
}

/// The compass point of a step, given the map edge that is north
/// (`top`, `left`, `right`, `bottom`). Flat-topped hexes have no step
/// straight north-south when north is a side edge, and the diagonals
/// lie nearer the two 45° points (30° off, against 60° to the next).
pub(crate) fn compass(
    grid: &Grid,
    north: &str,
    a: HexNumber,
    b: HexNumber,
) -> Option<&'static str> {
    let screen = screen_eighth(grid, a, b)?;
    let north_eighth = match north {
        "right" => 0,
        "top" => 2,
        "left" => 4,
        "bottom" => 6,
        _ => return None,
    };
    // Compass bearings run clockwise, screen angles counter-clockwise.
    let bearing = (north_eighth - screen).rem_euclid(8);
    POINTS.get(usize::try_from(bearing).ok()?).copied()
}

/// The retreat limits for `unit` now (23.0 directions, 24.14 no ZOC;
/// Corinth 27.0's goal), first choice then fallback (Corinth 27.2: the
/// south-east corner when no path leads toward the town).
pub(crate) fn limits(rs: &Gbacw, state: &GbacwState, unit: &CounterId) -> Vec<RetreatLimits> {
    let base = RetreatLimits {
        directions: rs.battle().retreat_directions(rs, unit),
        no_enemy_zoc: bce_loss::retreat_shuns_zoc(rs, state, unit),
        toward: None,
        leave_at_goal: false,
        away_from: None,
    };
    match rs.battle().retreat_goals(rs, state, unit) {
        None => vec![base],
        Some((goal, fallback)) => std::iter::once(goal)
            .chain(fallback)
            .map(|g| RetreatLimits {
                toward: Some(g),
                // The battle's own rule here (hook `retreat_leaves_at_goal`).
                leave_at_goal: rs.battle().retreat_leaves_at_goal(rs, state, unit),
                ..base.clone()
            })
            .collect(),
    }
}

/// Cedar Mountain 23.0 and Corinth 27.0 for a path the player gives (a
/// retreat before melee, GBACW 12.81, whether chosen or forced by
/// Corinth 21.42 / Cedar Mountain 21.12): every step toward the unit's own
/// lines (23.1, 23.2), and toward its goal, never a step away from it and
/// ending nearer (27.1, 27.2). The goal is the first choice unless no
/// retreat before melee of one or two hexes is open toward it; then 27.2's
/// fallback (the south-east corner). With no such path at all the
/// retreat is refused: the unit stands and takes the melee (GBACW 12.88's
/// outcome for a unit that may not retreat before melee).
pub(crate) fn check_given_path(
    rs: &Gbacw,
    state: &GbacwState,
    unit: &CounterId,
    start: HexNumber,
    path: &[HexNumber],
) -> Result<(), RuleError> {
    let grid = &rs.game.map.grid;
    let all = limits(rs, state, unit);
    let Some(first) = all.first() else {
        return Ok(());
    };
    let compass = RetreatLimits {
        directions: first.directions.clone(),
        ..RetreatLimits::default()
    };
    if !compass.path_toward(grid, start, path) {
        return Err(err(
            &rs.case_rule(case_of(rs, HookKind::RetreatDirections, "23.0")),
            RuleCode::Illegal,
            format!("{unit} may retreat only toward its own lines"),
        ));
    }
    // Toward the first goal: allowed (and if the rest of 12.81-12.82 and
    // 14.1 holds, it is itself the open path that keeps 27.2 from falling
    // back), without searching.
    if first.toward.is_none() || first.path_toward(grid, start, path) {
        return Ok(());
    }
    let goal = all
        .iter()
        .find(|l| before_melee_open(rs, state, unit, start, l))
        .unwrap_or(first);
    if goal.path_toward(grid, start, path) {
        return Ok(());
    }
    let nearest = goal
        .toward
        .iter()
        .flatten()
        .min_by_key(|g| grid.distance(start, **g))
        .map_or_else(String::new, |g| format!(" (nearest {g})"));
    Err(err(
        &rs.case_rule(case_of(rs, HookKind::RetreatToward, "27.0")),
        RuleCode::Illegal,
        format!(
            "{unit} must retreat toward its goal{nearest}: no step away from it, ending nearer"
        ),
    ))
}

/// The case number the hook `kind` names (`case=27.0`), else `fallback`.
fn case_of<'a>(rs: &'a Gbacw, kind: HookKind, fallback: &'a str) -> &'a str {
    rs.game
        .scenario
        .hook(kind)
        .and_then(|h| h.param("case"))
        .unwrap_or(fallback)
}

/// Whether `unit` has a retreat before melee of one or two hexes from
/// `start` under `limits` (12.81, 12.82: never into an enemy unit or
/// ZOC; Corinth 23.31's town entry by road).
fn before_melee_open(
    rs: &Gbacw,
    state: &GbacwState,
    unit: &CounterId,
    start: HexNumber,
    limits: &RetreatLimits,
) -> bool {
    let board = Board::new(rs, state);
    let blocks = effects::retreat_blocks(rs, state, &board, unit, start);
    let class = effects::retreat_class(state, unit);
    (1..=2).any(|length| {
        !retreat_paths_on(
            &rs.game.map,
            &rs.steps,
            class,
            start,
            length,
            RetreatKind::BeforeMelee,
            &blocks,
            limits,
        )
        .is_empty()
    })
}
