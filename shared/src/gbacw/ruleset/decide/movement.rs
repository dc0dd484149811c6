//! GBACW 5.0–5.3, 6.11–6.13, 7.11, 8.0, 8.16, 8.17, 10.1, 17.11, 17.21:
//! moving units and leaders along a path.
//!
//! A move is validated whole before anything happens ([`plan`]): every
//! step's cost by formation, terrain and hexside, the allowance, the
//! one-hex limits, the hexes no unit may enter, and the stacking limits of
//! the hex where it stops. Then it is carried out step by step
//! ([`execute`]) until a step leaves a hex in an enemy Zone of Control:
//! there the move halts and withdrawal fire is offered to the other seat
//! (10.1, 10.11: before the unit leaves). Once that seat answers, the
//! rest of the path is planned and carried out again from the same hex.

use super::{own_leader, own_unit};
use crate::engine::{RuleCode, RuleError};
use crate::gbacw::charts::{MoveClass, Mp};
use crate::gbacw::facing::{Facing, ZocUse};
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, Formation, Marker, UnitKind};
use crate::gbacw::options::wagon_moves;
use crate::gbacw::ruleset::action::{MAX_PATH, MAX_PIECES};
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::{GbacwState, Resume, Trigger, WithdrawalDecision};
use crate::gbacw::ruleset::{Gbacw, err};
use crate::gbacw::withdrawal::withdrawal_targets;
use std::cell::OnceCell;
use std::collections::BTreeSet;

/// One counter about to move, with what limits it.
#[derive(Clone, Debug)]
pub(crate) struct Mover {
    pub id: CounterId,
    /// A combat unit (not a leader).
    pub is_unit: bool,
    pub formation: Option<Formation>,
    pub class: MoveClass,
    pub allowance: Mp,
    pub spent: Mp,
    pub hexes: u8,
    /// The case that limits it to one hex this phase (5.2, 17.11, 17.21).
    pub one_hex: Option<&'static str>,
    /// GBACW 5.2: routed and out-of-command regiments shun enemy ZOCs.
    pub shuns_zoc: bool,
}

impl Mover {
    pub fn left(&self) -> Mp {
        Mp(self.allowance.0.saturating_sub(self.spent.0))
    }

    fn mounted(&self) -> bool {
        self.formation == Some(Formation::Mounted)
    }
}

/// A validated move.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    pub side: CounterId,
    pub start: HexNumber,
    pub pieces: Vec<CounterId>,
    pub movers: Vec<Mover>,
    pub path: Vec<HexNumber>,
    /// `costs[k][i]`: what mover `i` pays to enter `path[k]`.
    pub costs: Vec<Vec<Mp>>,
}

/// What may move, and how far: `Err` names the case that forbids it.
pub(crate) fn mover(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    id: &CounterId,
) -> Result<Mover, RuleError> {
    let chart = &rs.game.charts.movement;
    if state.units.contains_key(id) {
        let (u, _) = own_unit(rs, state, side, id)?;
        let unit = &rs.game.oob.units[id];
        let f = u.status.formation;
        let Some(class) = f.move_class() else {
            return Err(err(
                "GBACW 6.13",
                RuleCode::Illegal,
                format!("{id} is unlimbered: unlimbered artillery may not move"),
            ));
        };
        let m = &u.status.markers;
        if m.contains(&Marker::Pin) {
            return Err(err(
                "GBACW 9.84",
                RuleCode::Illegal,
                format!("{id} is pinned and may not move"),
            ));
        }
        if m.contains(&Marker::Engaged) {
            return Err(err(
                "GBACW 12.94",
                RuleCode::Illegal,
                format!("{id} is engaged in melee"),
            ));
        }
        if matches!(unit.kind, UnitKind::Wagon { .. }) && !wagon_moves(&u.status, rs.options) {
            return Err(err(
                "GBACW 11.1",
                RuleCode::Illegal,
                format!("{id} has no crew: an uncrewed wagon may not move"),
            ));
        }
        if u.moved.finished {
            return Err(err(
                "GBACW 6.22",
                RuleCode::Illegal,
                format!("{id} changed formation at the end of its movement and may move no more"),
            ));
        }
        let one_hex = if m.contains(&Marker::Rout) {
            Some("GBACW 5.2")
        } else if state.command.out_of_command.contains(id)
            // The battle's own rule here (hook `moves_freely`).
            && !rs.battle().moves_freely(rs, state, id)
        {
            Some("GBACW 17.11")
        } else {
            None
        };
        Ok(Mover {
            id: id.clone(),
            is_unit: true,
            formation: Some(f),
            class,
            // The battle's own rule here (hook `allowance`).
            allowance: rs.battle().allowance(rs, state, chart.allowance(class)),
            spent: u.moved.mp,
            hexes: u.moved.hexes,
            one_hex,
            shuns_zoc: one_hex.is_some(),
        })
    } else if state.leaders.contains_key(id) {
        let (l, at) = own_leader(rs, state, side, id)?;
        if pinned_leader(rs, state, side, at) {
            return Err(err(
                "GBACW 9.86",
                RuleCode::Illegal,
                format!("{id} is pinned with the units of his hex and may not move"),
            ));
        }
        Ok(Mover {
            id: id.clone(),
            is_unit: false,
            formation: None,
            class: MoveClass::Leader,
            allowance: rs
                .battle()
                .allowance(rs, state, chart.allowance(MoveClass::Leader)),
            spent: l.moved.mp,
            hexes: l.moved.hexes,
            one_hex: if state.command.out_of_radius.contains(id) {
                Some("GBACW 17.21")
            } else if crate::gbacw::ruleset::exclusive::bce_loss::stranded(rs, state, id) {
                // Cedar Mountain 24.2: one hex a Game-Turn until attached.
                Some(crate::gbacw::ruleset::exclusive::bce_loss::STRANDED_CASE)
            } else {
                None
            },
            shuns_zoc: false,
        })
    } else {
        Err(err(
            "GBACW 3.3",
            RuleCode::NotFound,
            format!("there is no counter {id}"),
        ))
    }
}

/// GBACW 9.86: "A leader may be pinned, but the leader does not lose his
/// Effectiveness Rating as a result of such a pin. He simply cannot move
/// (except to retreat as a result of melee)." 9.84 places the PIN marker
/// "on top of all the units in the hex": a leader in a hex whose friendly
/// units are pinned is under it, and stays until the marker goes (9.85,
/// the Friendly Rally Phase) or no pinned unit is left with him.
pub(crate) fn pinned_leader(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    hex: HexNumber,
) -> bool {
    state.units.iter().any(|(id, u)| {
        u.hex == Some(hex)
            && u.status.markers.contains(&Marker::Pin)
            && rs.game.oob.units[id].side == *side
    })
}

/// The enemy ZOCs a mover must mind (10.0: mounted cavalry's counts only
/// for mounted movers), found when first asked: only units that shun
/// them (5.2) ask.
pub(crate) struct Zocs<'b, 'a> {
    board: &'b Board<'a>,
    side: &'b CounterId,
    foot: OnceCell<BTreeSet<HexNumber>>,
    mounted: OnceCell<BTreeSet<HexNumber>>,
}

impl<'b, 'a> Zocs<'b, 'a> {
    pub fn new(board: &'b Board<'a>, side: &'b CounterId) -> Self {
        Zocs {
            board,
            side,
            foot: OnceCell::new(),
            mounted: OnceCell::new(),
        }
    }

    fn for_mover(&self, m: &Mover) -> &BTreeSet<HexNumber> {
        let mounted = m.mounted();
        let cell = if mounted { &self.mounted } else { &self.foot };
        cell.get_or_init(|| {
            self.board.enemy_zoc(
                self.side,
                ZocUse::WithdrawalAndRetreat {
                    mover_mounted: mounted,
                },
            )
        })
    }
}

/// The Movement Points `m` pays to step from `from` into `to` beside the
/// rest of its `group`, or the case that forbids the step.
pub(crate) fn step(
    board: &Board<'_>,
    zocs: &Zocs<'_, '_>,
    side: &CounterId,
    m: &Mover,
    group: &[CounterId],
    from: HexNumber,
    to: HexNumber,
) -> Result<Mp, RuleError> {
    let map = board.map();
    if !map.grid.contains(to) {
        return Err(err(
            "GBACW 5.17",
            RuleCode::Illegal,
            format!("{to} is off the map"),
        ));
    }
    if !board.rs.steps.neighbours(from).any(|n| n == to) {
        return Err(err(
            "GBACW 5.16",
            RuleCode::Illegal,
            format!("{from} and {to} are not adjacent: move hex by hex"),
        ));
    }
    if board.has_enemy(to, side) {
        return Err(err(
            "GBACW 5.12",
            RuleCode::Illegal,
            format!("{to} holds enemy units: enter it only in the Melee Phase"),
        ));
    }
    if !m.is_unit && !board.enemy_leaders_in(to, side).is_empty() {
        return Err(err(
            "GBACW 5.12",
            RuleCode::Illegal,
            format!("{to} holds enemy leaders: only a combat unit takes them (17.75)"),
        ));
    }
    let occupants: Vec<&CounterId> = board
        .units_of(to, side)
        .into_iter()
        .filter(|o| !group.contains(o))
        .collect();
    if !occupants.is_empty() {
        match m.formation {
            Some(Formation::Column) => {
                return Err(err(
                    "GBACW 8.16",
                    RuleCode::Illegal,
                    format!("{} is in column and {to} holds another unit", m.id),
                ));
            }
            Some(Formation::Mounted)
                if occupants
                    .iter()
                    .any(|o| board.status(o).formation != Formation::Mounted) =>
            {
                return Err(err(
                    "GBACW 8.17",
                    RuleCode::Illegal,
                    format!(
                        "{} is mounted and {to} holds units that are not mounted cavalry",
                        m.id
                    ),
                ));
            }
            _ => {}
        }
    }
    // 6.11: column, limbered and mounted units use no road through a
    // friendly-occupied hex.
    let paths = occupants.is_empty()
        || !matches!(
            m.class,
            MoveClass::Column | MoveClass::Limbered | MoveClass::Mounted
        );
    // Cedar Mountain 21.43: blown-down corn costs what clear ground does.
    let steps = match &board.rs.steps_cleared {
        Some(cleared) if board.state.corn_down.contains(&to) => cleared,
        _ => &board.rs.steps,
    };
    let cost = steps.cost(m.class, from, to, paths).map_err(|b| {
        err(
            b.rule(),
            RuleCode::Illegal,
            format!("{} may not move from {from} into {to} ({b})", m.id),
        )
    })?;
    // The battle's own rule here (hook `step_cost`).
    let cost = board.rs.battle().step_cost(board.rs, board.state, to, cost);
    // Cedar Mountain 24.14: a brigade that has lost BCE keeps out of enemy
    // ZOCs (asked only of such units: most movers never build the ZOCs).
    if m.is_unit && board.bce_broken(&m.id) {
        crate::gbacw::ruleset::exclusive::bce_loss::check_zoc_entry(
            board.rs,
            board.state,
            &m.id,
            zocs.for_mover(m).contains(&to),
        )?;
    }
    if m.shuns_zoc {
        let zoc = zocs.for_mover(m);
        if zoc.contains(&to) {
            return Err(err(
                "GBACW 5.2",
                RuleCode::Illegal,
                format!(
                    "{} is routed or out of command and may not enter an enemy ZOC",
                    m.id
                ),
            ));
        }
        let near_enemy = board
            .rs
            .steps
            .neighbours(to)
            .any(|n| board.has_enemy(n, side));
        if zoc.contains(&from) && near_enemy {
            return Err(err(
                "GBACW 5.2",
                RuleCode::Illegal,
                format!(
                    "{} must leave the enemy ZOC for a hex next to no enemy unit",
                    m.id
                ),
            ));
        }
    }
    Ok(cost)
}

/// Validate a move of `pieces` into `path`, whole.
pub(crate) fn plan(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    pieces: &[CounterId],
    path: &[HexNumber],
) -> Result<Plan, RuleError> {
    if pieces.is_empty() || pieces.len() > MAX_PIECES {
        return Err(err(
            "GBACW 5.0",
            RuleCode::Invalid,
            format!("move 1 to {MAX_PIECES} counters at a time"),
        ));
    }
    if path.is_empty() || path.len() > MAX_PATH {
        return Err(err(
            "GBACW 5.16",
            RuleCode::Invalid,
            format!("a path has 1 to {MAX_PATH} hexes"),
        ));
    }
    for (k, id) in pieces.iter().enumerate() {
        if pieces[..k].contains(id) {
            return Err(err(
                "GBACW 5.0",
                RuleCode::Invalid,
                format!("{id} listed twice"),
            ));
        }
    }
    let movers = pieces
        .iter()
        .map(|id| mover(rs, state, side, id))
        .collect::<Result<Vec<_>, _>>()?;
    let hex_of = |id: &CounterId| {
        state
            .units
            .get(id)
            .and_then(|u| u.hex)
            .or_else(|| state.leaders.get(id).and_then(|l| l.hex))
    };
    let start =
        hex_of(&pieces[0]).ok_or_else(|| err("GBACW 5.0", RuleCode::Illegal, "not on the map"))?;
    if pieces.iter().any(|id| hex_of(id) != Some(start)) {
        return Err(err(
            "GBACW 5.0",
            RuleCode::Invalid,
            "counters moved together must start in one hex",
        ));
    }
    let units: Vec<&Mover> = movers.iter().filter(|m| m.is_unit).collect();
    if units.len() > 1 {
        if let Some(c) = units
            .iter()
            .find(|m| m.formation == Some(Formation::Column))
        {
            return Err(err(
                "GBACW 8.16",
                RuleCode::Illegal,
                format!("{} is in column and may not move with other units", c.id),
            ));
        }
        if units.iter().any(|m| m.mounted()) && units.iter().any(|m| !m.mounted()) {
            return Err(err(
                "GBACW 8.17",
                RuleCode::Illegal,
                "mounted cavalry moves only with mounted cavalry",
            ));
        }
    }
    let board = Board::new(rs, state);
    let zocs = Zocs::new(&board, side);
    let mut costs = Vec::with_capacity(path.len());
    let mut from = start;
    for &to in path {
        let row = movers
            .iter()
            .map(|m| step(&board, &zocs, side, m, pieces, from, to))
            .collect::<Result<Vec<_>, _>>()?;
        costs.push(row);
        from = to;
    }
    // GBACW 12.94: units may move into a hex holding engaged units, never
    // through one.
    if let Some(h) = path[..path.len() - 1].iter().find(|h| {
        state
            .units
            .values()
            .any(|u| u.hex == Some(**h) && u.status.markers.contains(&Marker::Engaged))
    }) {
        return Err(err(
            "GBACW 12.94",
            RuleCode::Illegal,
            format!("{h} holds engaged units: a move may end there, not pass through"),
        ));
    }
    for (i, m) in movers.iter().enumerate() {
        if let Some(rule) = m.one_hex {
            if path.len() > 1 || m.hexes > 0 {
                return Err(err(
                    rule,
                    RuleCode::Illegal,
                    format!("{} may move one hex only this phase", m.id),
                ));
            }
            // "Regardless of terrain cost": the hex takes the whole allowance.
            costs[0][i] = m.left();
            continue;
        }
        let total = costs.iter().fold(m.spent, |acc, row| acc + row[i]);
        if total > m.allowance {
            let need = costs.iter().fold(Mp::ZERO, |acc, row| acc + row[i]);
            return Err(err(
                "GBACW 5.11",
                RuleCode::Illegal,
                format!(
                    "{} needs {need} Movement Points and has {} left",
                    m.id,
                    m.left()
                ),
            ));
        }
    }
    Ok(Plan {
        side: side.clone(),
        start,
        pieces: pieces.to_vec(),
        movers,
        path: path.to_vec(),
        costs,
    })
}

/// [`plan`], keeping to the stacking limits of the hex where the move
/// stops (8.11): for the slide of units pinned by withdrawal fire (10.15),
/// who cannot move again this phase to undo an over-stack.
pub(crate) fn plan_within_limits(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    pieces: &[CounterId],
    path: &[HexNumber],
) -> Result<Plan, RuleError> {
    let plan = plan(rs, state, side, pieces, path)?;
    let end = *plan.path.last().unwrap_or(&plan.start);
    stop_within_limits(rs, state, side, pieces, end)?;
    Ok(plan)
}

/// GBACW 8.11: whether `pieces` (their combat units) stopping in `end`
/// keep to its stacking limits; `Err` names the limit.
pub(crate) fn stop_within_limits(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    pieces: &[CounterId],
    end: HexNumber,
) -> Result<(), RuleError> {
    let arriving: Vec<&CounterId> = pieces
        .iter()
        .filter(|p| state.units.contains_key(*p))
        .collect();
    if arriving.is_empty() {
        return Ok(());
    }
    Board::new(rs, state)
        .check_stack(end, side, &arriving, &arriving, None)
        .map_err(|o| {
            err(
                o.rule(),
                RuleCode::Illegal,
                format!("stopping in {end} would break its stacking limits ({o})"),
            )
        })
}

/// GBACW 8.0: "stacking restrictions apply only at the end of a Movement
/// or Combat Phase": a move may stop in a hex over its limits, as long as
/// the player can still set it right before the phase ends. The engine
/// refuses the stop that the units able to leave it again could not mend
/// (the phase could then never end within the limits), and, by default,
/// the stop where enemy fire could pin the stack before it is mended
/// ([`pinning_firers`]; docs/gbacw-notes.md, "Issue 19: 8.0 settled").
pub(crate) fn check_overstack_stop(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    plan: &Plan,
    events: &[GbacwEvent],
) -> Result<(), RuleError> {
    let end = *plan.path.last().unwrap_or(&plan.start);
    // A move halted for withdrawal fire has not stopped yet.
    if events
        .iter()
        .any(|e| matches!(e, GbacwEvent::WithdrawalFireOffered(_)))
    {
        return Ok(());
    }
    let Err(e) = stop_within_limits(rs, state, side, &plan.pieces, end) else {
        return Ok(());
    };
    let firers = if rs.options.overstack_displaced {
        Vec::new()
    } else {
        pinning_firers(rs, state, side, end)
    };
    if !firers.is_empty() {
        return Err(err(
            "GBACW 8.0",
            RuleCode::Illegal,
            format!(
                "{}; a stack may stand over its limits before the phase ends only out of enemy \
                 Zones of Control, and {end} is in the Zone of Control of {}, whose withdrawal \
                 fire could pin it there (9.84) before it is brought within them",
                e.message,
                firers
                    .iter()
                    .map(|f| f.0.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    let mut after = state.clone();
    for ev in events {
        crate::gbacw::ruleset::event::evolve(&mut after, ev);
    }
    if may_mend(rs, &after, side, end) {
        Ok(())
    } else {
        Err(err(
            "GBACW 8.0",
            RuleCode::Illegal,
            format!(
                "{}; the units there that could leave it again would not bring it within them before the phase ends",
                e.message
            ),
        ))
    }
}

/// GBACW 8.0 with 9.84 (the default reading): the enemy units whose fire
/// could pin a stack of `side` in `hex` during this Movement Phase, so
/// that it could not be brought within its limits before the phase ends:
/// those whose Zone of Control holds `hex` and who may fire withdrawal
/// fire, for a mover on foot or mounted (10.1, 10.18), since a unit
/// leaving the stack draws their fire on those who stay (10.13, 10.14)
/// and a unit changing formation there draws it too (6.24); "If any unit
/// in a stack becomes pinned, all units in that hex are pinned". Out of
/// every enemy Zone of Control nothing else can pin it in the Movement
/// Phase (5.13: no fire but withdrawal and retreat fire): 6.23's fire at
/// a battery that limbers or unlimbers is never drawn in a hex over its
/// limits, since no unit there may change formation (8.11 binds the
/// change, `formation::plan`); the slide of a unit pinned by withdrawal
/// fire (10.15) keeps to the limits ([`plan_within_limits`]); a retreat,
/// a displacement (14.3) and Corinth's brigade retreat (25.2) end within
/// the limits or displace the friends there. Under the reading
/// `overstack-displaced` the stop stands and the phase's end displaces
/// what is beyond mending (`sequence::displace_excess`).
pub(crate) fn pinning_firers(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    hex: HexNumber,
) -> Vec<CounterId> {
    let board = Board::new(rs, state);
    let mut firers = board.withdrawal_firers(side, hex, false);
    for f in board.withdrawal_firers(side, hex, true) {
        if !firers.contains(&f) {
            firers.push(f);
        }
    }
    firers
}

/// The combat units of `side` in `hex` that can still move out of it this
/// phase (one hex, alone, to a hex that holds it), by the checks a move
/// is decided with.
fn may_leave(rs: &Gbacw, state: &GbacwState, side: &CounterId, hex: HexNumber) -> Vec<CounterId> {
    let units: Vec<CounterId> = state
        .units
        .iter()
        .filter(|(id, u)| u.hex == Some(hex) && rs.game.oob.units[*id].side == *side)
        .map(|(id, _)| id.clone())
        .collect();
    units
        .into_iter()
        .filter(|u| {
            let one = std::slice::from_ref(u);
            super::check_free(rs, state, &[u], "move").is_ok()
                && rs.battle().check_pieces_move(rs, state, one).is_ok()
                && rs.steps.neighbours(hex).any(|n| {
                    let action = crate::gbacw::ruleset::action::GbacwAction::Move {
                        pieces: one.to_vec(),
                        path: vec![n],
                    };
                    rs.battle().check_action(rs, state, side, &action).is_ok()
                        && rs.battle().check_move_path(rs, state, side, &[n]).is_ok()
                        && rs.battle().check_move(rs, state, one, &[n]).is_ok()
                        && plan(rs, state, side, one, &[n]).is_ok()
                        // Out to a hex that holds it: a mend, not a move
                        // of the over-stack next door.
                        && stop_within_limits(rs, state, side, one, n).is_ok()
                })
        })
        .collect()
}

/// GBACW 8.0: whether `side` can still bring `hex` within its limits this
/// phase: with every unit there that can still leave gone, the rest fit.
pub(crate) fn may_mend(rs: &Gbacw, state: &GbacwState, side: &CounterId, hex: HexNumber) -> bool {
    let leaving = may_leave(rs, state, side, hex);
    if leaving.is_empty() {
        return false;
    }
    let gone: Vec<&CounterId> = leaving.iter().collect();
    Board::new(rs, state)
        .check_stack(hex, side, &gone, &[], None)
        .is_ok()
}

/// GBACW 8.0: "stacking restrictions apply only at the end of a Movement
/// or Combat Phase", so a stack this phase's moves put over its limits
/// must still be mendable when the phase ends. A stop over the limits is
/// checked where it happens (`check_overstack_stop`); this refuses any
/// later action of the phase (a facing or formation change spending the
/// last Movement Points of the units that could leave, a move filling the
/// hexes they could leave to) that would leave such a stack beyond
/// mending. A hex already beyond mending before `events` is not this
/// action's doing.
pub(crate) fn keeps_stacks_mendable(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    events: &[GbacwEvent],
) -> Result<(), RuleError> {
    // A move halted for withdrawal fire has not stopped yet.
    if events
        .iter()
        .any(|e| matches!(e, GbacwEvent::WithdrawalFireOffered(_)))
    {
        return Ok(());
    }
    // Only a stack already over its limits can be left beyond mending: a
    // new one is a move's stop (`check_overstack_stop`) or a formation
    // change (checked where it happens). Without one, nothing to do (the
    // legal set asks this of every candidate: it must be cheap).
    // Only what happens in or next to such a stack can change whether it
    // may be mended (its units' allowances, the hexes they could leave to).
    let grid = &rs.game.map.grid;
    let touches = |stacks: &[HexNumber]| {
        let near = |h: HexNumber| stacks.iter().any(|b| grid.distance(*b, h) <= 1);
        events.iter().any(|e| match e {
            GbacwEvent::UnitMoved { unit, to, .. } => {
                near(*to) || state.units.get(unit).and_then(|u| u.hex).is_some_and(near)
            }
            GbacwEvent::FacingChanged { unit, .. } | GbacwEvent::FormationChanged { unit, .. } => {
                state.units.get(unit).and_then(|u| u.hex).is_some_and(near)
            }
            _ => false,
        })
    };
    // The over-limit stacks are among the hexes units entered this phase;
    // an action nowhere near any of those cannot touch one, and is let
    // through before the stacks are weighed (which builds the board).
    if !touches(&moved_in_hexes(rs, state, side)) {
        return Ok(());
    }
    let before = overstacked_moved_in(rs, state, side);
    if before.is_empty() || !touches(&before) {
        return Ok(());
    }
    let mut after = state.clone();
    for ev in events {
        crate::gbacw::ruleset::event::evolve(&mut after, ev);
    }
    for hex in overstacked_moved_in(rs, &after, side) {
        if may_mend(rs, &after, side, hex) {
            continue;
        }
        if before.contains(&hex) && !may_mend(rs, state, side, hex) {
            continue;
        }
        return Err(err(
            "GBACW 8.0",
            RuleCode::Illegal,
            format!(
                "{hex} is over its stacking limits, and after this no unit there could leave it \
                 to bring it within them before the Movement Phase ends"
            ),
        ));
    }
    Ok(())
}

/// GBACW 8.0: the hexes of `side` over their stacking limits now that a
/// unit entered this Movement Phase (the stacks the phase must mend).
fn overstacked_moved_in(rs: &Gbacw, state: &GbacwState, side: &CounterId) -> Vec<HexNumber> {
    let mut hexes = moved_in_hexes(rs, state, side);
    if hexes.is_empty() {
        return hexes;
    }
    let board = Board::new(rs, state);
    hexes.retain(|h| board.check_stack(*h, side, &[], &[], None).is_err());
    hexes
}

/// GBACW 8.0: the hexes a unit of `side` entered this Movement Phase and
/// stands in now, in order, once each.
fn moved_in_hexes(rs: &Gbacw, state: &GbacwState, side: &CounterId) -> Vec<HexNumber> {
    let mut hexes: Vec<HexNumber> = state
        .units
        .iter()
        .filter(|(id, u)| u.moved.hexes > 0 && rs.game.oob.units[*id].side == *side)
        .filter_map(|(_, u)| u.hex)
        .collect();
    hexes.sort();
    hexes.dedup();
    hexes
}

/// GBACW 8.0: the hexes of `side` over their stacking limits now.
pub(crate) fn overstacked(rs: &Gbacw, state: &GbacwState, side: &CounterId) -> Vec<HexNumber> {
    let board = Board::new(rs, state);
    let mut hexes: Vec<HexNumber> = state
        .units
        .iter()
        .filter(|(id, _)| rs.game.oob.units[*id].side == *side)
        .filter_map(|(_, u)| u.hex)
        .collect();
    hexes.sort();
    hexes.dedup();
    hexes.retain(|h| board.check_stack(*h, side, &[], &[], None).is_err());
    hexes
}

/// Carry out a validated move until it ends or leaves a hex in an enemy
/// ZOC; `answered` when withdrawal fire from the start hex was already
/// offered and answered.
pub(crate) fn execute(
    rs: &Gbacw,
    state: &GbacwState,
    plan: &Plan,
    answered: bool,
) -> Vec<GbacwEvent> {
    run(rs, state, plan, answered, true)
}

/// GBACW 10.15 with 8.0: carry out the slide of units pinned by
/// withdrawal fire to the first hex of their path that can hold them,
/// without offering withdrawal fire again on the way: the fire that pinned
/// them was the answer to this withdrawal, and a second offer would stop
/// them (pinned, they could not resume) in a hex they may only pass
/// through.
pub(crate) fn execute_forced(rs: &Gbacw, state: &GbacwState, plan: &Plan) -> Vec<GbacwEvent> {
    run(rs, state, plan, true, false)
}

fn run(
    rs: &Gbacw,
    state: &GbacwState,
    plan: &Plan,
    answered: bool,
    offers: bool,
) -> Vec<GbacwEvent> {
    let board = Board::new(rs, state);
    let side = &plan.side;
    let units: Vec<CounterId> = plan
        .movers
        .iter()
        .filter(|m| m.is_unit)
        .map(|m| m.id.clone())
        .collect();
    let mounted = plan.movers.iter().any(|m| m.is_unit && m.mounted());
    let mut events = Vec::new();
    let mut taken = BTreeSet::new();
    let firers_at = OnceCell::new();
    let mut at = plan.start;
    for (k, &to) in plan.path.iter().enumerate() {
        // 10.1, 10.18: units (not leaders) leaving an enemy ZOC.
        let already_answered = k == 0 && answered;
        if offers && !already_answered && !units.is_empty() {
            let firers = firers_at
                .get_or_init(|| board.withdrawal_zocs(side, mounted))
                .get(&at)
                .cloned()
                .unwrap_or_default();
            if !firers.is_empty() {
                let targets = if k == 0 {
                    // 10.13, 10.14: the stack, or those who stay behind.
                    let stack: Vec<CounterId> =
                        board.units_of(at, side).into_iter().cloned().collect();
                    let leaving: BTreeSet<CounterId> = units.iter().cloned().collect();
                    withdrawal_targets(&stack, &leaving)
                } else {
                    units.clone()
                };
                events.push(GbacwEvent::WithdrawalFireOffered(WithdrawalDecision {
                    seat: rs.seat_of(rs.enemy_of(side)),
                    trigger: Trigger::Leaving,
                    hex: at,
                    targets,
                    firers,
                    toward: Some(to),
                    resume: Resume::Move {
                        pieces: plan.pieces.clone(),
                        path: plan.path[k..].to_vec(),
                    },
                }));
                return events;
            }
        }
        // 7.11: each unit faces the hex it enters; 8.42: entering a stack,
        // it takes the stack's facing.
        let facing = board
            .units_of(to, side)
            .into_iter()
            .find(|o| !plan.pieces.contains(o))
            .map(|o| state.units[o].facing)
            .or_else(|| board.map().grid.direction(at, to).map(Facing::new))
            .unwrap_or(Facing::new(hexx::EdgeDirection::FLAT_TOP));
        for (i, m) in plan.movers.iter().enumerate() {
            let cost = plan.costs[k][i];
            events.push(if m.is_unit {
                GbacwEvent::UnitMoved {
                    unit: m.id.clone(),
                    to,
                    facing,
                    cost,
                }
            } else {
                GbacwEvent::LeaderMoved {
                    leader: m.id.clone(),
                    to,
                    cost,
                }
            });
        }
        // 17.75: a combat unit entering a hex held only by enemy leaders
        // (5.12 keeps it out of enemy units' hexes) captures them.
        if !units.is_empty() {
            for l in board.enemy_leaders_in(to, side) {
                if taken.insert(l.clone()) {
                    events.push(GbacwEvent::LeaderLost {
                        leader: l.clone(),
                        casualty: crate::gbacw::ruleset::state::Casualty::Captured,
                    });
                }
            }
        }
        at = to;
    }
    events
}
