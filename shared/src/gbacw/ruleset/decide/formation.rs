//! GBACW 6.0–6.24, 7.12, 8.42: changing formation and facing.

use super::own_unit;
use crate::engine::{RuleCode, RuleError};
use crate::gbacw::charts::{FormationChange, MoveClass, Mp};
use crate::gbacw::facing::{Facing, may_change_formation};
use crate::gbacw::oob::{CounterId, Formation, Marker, UnitKind};
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::{GbacwState, Resume, Trigger, WithdrawalDecision};
use crate::gbacw::ruleset::{Gbacw, err};

/// GBACW 7.12, 7.13, 8.42: turn a unit and every friendly unit stacked
/// with it. Free and unlimited in the Friendly Movement Phase, even for
/// units that may not move (out of command, pinned, unlimbered).
pub(crate) fn face(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    unit: &CounterId,
    facing: Facing,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let (u, hex) = own_unit(rs, state, side, unit)?;
    let Some(facing) = Facing::from_index(facing.index()) else {
        return Err(err(
            "GBACW 7.0",
            RuleCode::Invalid,
            "a facing is a hexside, 0 to 5",
        ));
    };
    if u.facing == facing {
        return Err(err(
            "GBACW 7.12",
            RuleCode::Illegal,
            format!("{unit} already faces that way"),
        ));
    }
    let board = Board::new(rs, state);
    Ok(board
        .units_of(hex, side)
        .into_iter()
        .filter(|id| state.units[*id].facing != facing)
        .map(|id| GbacwEvent::FacingChanged {
            unit: id.clone(),
            facing,
        })
        .collect())
}

/// A validated formation change: what it costs, and whether it ends the
/// unit's movement (6.22: cavalry).
pub(crate) struct Change {
    pub cost: Mp,
    pub finished: bool,
}

/// GBACW 6.0: which change of the chart's Formation Change column turns
/// `from` into `to` for a unit of `kind`.
pub(crate) fn change_kind(
    kind: &UnitKind,
    from: Formation,
    to: Formation,
) -> Option<FormationChange> {
    use Formation as F;
    Some(match (kind, from, to) {
        (UnitKind::Infantry, F::Line, F::Column) => FormationChange::ToColumn,
        (UnitKind::Infantry, F::Column, F::Line) => FormationChange::ToLine,
        (UnitKind::Battery { .. }, F::Limbered, F::Unlimbered) => FormationChange::Unlimber,
        (UnitKind::Battery { .. }, F::Unlimbered, F::Limbered) => FormationChange::Limber,
        (UnitKind::Cavalry, F::Mounted, F::Dismounted) => FormationChange::Dismount,
        (UnitKind::Cavalry, F::Dismounted, F::Mounted) => FormationChange::Mount,
        _ => return None,
    })
}

/// Validate a change of `unit` into `to`, without its withdrawal fire.
pub(crate) fn plan(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    unit: &CounterId,
    to: Formation,
) -> Result<Change, RuleError> {
    let (u, hex) = own_unit(rs, state, side, unit)?;
    let kind = &rs.game.oob.units[unit].kind;
    let from = u.status.formation;
    if from == to {
        return Err(err(
            "GBACW 6.0",
            RuleCode::Illegal,
            format!("{unit} is already in that formation"),
        ));
    }
    let Some(change) = change_kind(kind, from, to) else {
        return Err(err(
            "GBACW 6.0",
            RuleCode::Invalid,
            format!(
                "a {} cannot change from {} to {}",
                kind.name(),
                from.name(),
                to.name()
            ),
        ));
    };
    if u.status.markers.contains(&Marker::Rout) {
        return Err(err(
            "GBACW 5.2",
            RuleCode::Illegal,
            format!("{unit} is routed and may not change formation"),
        ));
    }
    // The battle's own limits on a formation change (hook
    // `check_formation_change`), checked before 6.21's out-of-command
    // refusal: the battle's rule may treat a unit outside its radius as
    // independent, and its own case is the one that forbids the change.
    rs.battle().check_formation_change(rs, state, unit, to)?;
    may_change_formation(!state.command.out_of_command.contains(unit)).map_err(|rule| {
        err(
            rule,
            RuleCode::Illegal,
            format!("{unit} is out of command and may not change formation this Player-Turn"),
        )
    })?;
    if u.status.markers.contains(&Marker::Engaged) {
        return Err(err(
            "GBACW 12.94",
            RuleCode::Illegal,
            format!("{unit} is engaged in melee"),
        ));
    }
    if u.moved.finished {
        return Err(err(
            "GBACW 6.22",
            RuleCode::Illegal,
            format!("{unit} has ended its movement"),
        ));
    }
    let chart = &rs.game.charts.movement;
    let cost = chart.formation_cost(change);
    // The points a unit has are its formation's allowance (a battery: the
    // limbered one, 6.13) less what it has spent.
    let class = from.move_class().unwrap_or(MoveClass::Limbered);
    // The battle's own rule here (hook `allowance`).
    let allowance = rs.battle().allowance(rs, state, chart.allowance(class));
    let left = Mp(allowance.0.saturating_sub(u.moved.mp.0));
    if cost > left {
        return Err(err(
            "GBACW 6.22",
            RuleCode::Illegal,
            format!("{unit} needs {cost} Movement Points to change formation and has {left} left"),
        ));
    }
    let board = Board::new(rs, state);
    let others: Vec<&CounterId> = board
        .units_of(hex, side)
        .into_iter()
        .filter(|id| *id != unit)
        .collect();
    if to == Formation::Column && !others.is_empty() {
        return Err(err(
            "GBACW 8.16",
            RuleCode::Illegal,
            format!("{unit} may not form column in a hex with other units"),
        ));
    }
    if to == Formation::Mounted
        && others
            .iter()
            .any(|o| board.status(o).formation != Formation::Mounted)
    {
        return Err(err(
            "GBACW 8.17",
            RuleCode::Illegal,
            format!("{unit} may not mount in a hex with units that are not mounted cavalry"),
        ));
    }
    board
        .check_stack(hex, side, &[], &[], Some((unit, to)))
        .map_err(|o| {
            err(
                o.rule(),
                RuleCode::Illegal,
                format!("{hex} would break its stacking limits ({o})"),
            )
        })?;
    Ok(Change {
        cost,
        finished: matches!(kind, UnitKind::Cavalry),
    })
}

/// The event that carries out a validated change.
pub(crate) fn changed(unit: &CounterId, to: Formation, c: &Change) -> GbacwEvent {
    GbacwEvent::FormationChanged {
        unit: unit.clone(),
        to,
        cost: c.cost,
        finished: c.finished,
    }
}

/// GBACW 6.0, 6.22–6.24: change formation, unless the change first draws
/// withdrawal fire: in an enemy ZOC (6.24), or for a battery limbering or
/// unlimbering in range and sight of enemy small arms (6.23).
pub(crate) fn change(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    unit: &CounterId,
    to: Formation,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let c = plan(rs, state, side, unit, to)?;
    let (u, hex) = own_unit(rs, state, side, unit)?;
    let board = Board::new(rs, state);
    let mounted = u.status.formation == Formation::Mounted;
    let mut firers = board.withdrawal_firers(side, hex, mounted);
    let mut trigger = Trigger::FormationChange;
    if matches!(rs.game.oob.units[unit].kind, UnitKind::Battery { .. }) {
        let limbering = board.limbering_firers(side, hex);
        if firers.is_empty() && !limbering.is_empty() {
            trigger = Trigger::Limbering;
        }
        for f in limbering {
            if !firers.contains(&f) {
                firers.push(f);
            }
        }
    }
    if firers.is_empty() {
        return Ok(vec![changed(unit, to, &c)]);
    }
    Ok(vec![GbacwEvent::WithdrawalFireOffered(
        WithdrawalDecision {
            seat: rs.seat_of(rs.enemy_of(side)),
            trigger,
            hex,
            targets: vec![unit.clone()],
            firers,
            toward: None,
            resume: Resume::Formation {
                unit: unit.clone(),
                to,
            },
        },
    )])
}
