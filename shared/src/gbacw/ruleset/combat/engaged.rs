//! Engaged units' options (12.94): besides fighting on with the same units
//! (option 1, a `DeclareMelee` by engaged units) or with more brought into
//! their hex (option 2: a `Move` into the engaged hex, then a melee
//! declared by old and new hands together), the owner may withdraw them two
//! hexes (option 3), checking morale at the end.
//!
//! Decisions (docs/gbacw-notes.md): option 3 is taken in the owner's own
//! Retreat Before Melee Phase, where the other options are declared too;
//! the path is a retreat's (14.1, 14.3, 14.4): each hex farther away, never
//! into the enemy or, the engaged enemy having no Zone of Control (12.94),
//! into any other enemy's ZOC (12.92's terms: 12.94 is silent, and the
//! withdrawal is the owner's choice, not a forced retreat that 14.2 lets
//! pass enemy ZOCs); no withdrawal fire (12.94).
//!
//! A routed unit has no such choice (12.51, [`routed_leave`]): an
//! "engaged" result sends it out of the melee at once, or captures it.

use super::effects::{check_morale, melee_retreat, retreat_options, set_markers};
use super::{Roller, Unfold};
use crate::engine::{Dice, RuleCode, RuleError};
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, Formation, Marker, UnitKind};
use crate::gbacw::retreat::RetreatKind;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::ruleset::{Gbacw, err};

/// GBACW 12.94 option 3: hexes the engaged units withdraw.
pub const WITHDRAW_HEXES: usize = 2;

/// GBACW 12.94 option 3: `side`'s engaged `units` (one hex) withdraw two
/// hexes along `path`, then each checks morale (13.2; a failed check
/// routs it on, 13.31). Unlimbered artillery may not withdraw.
pub(crate) fn withdraw(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    units: &[CounterId],
    path: &[HexNumber],
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let Some(first) = units.first() else {
        return Err(err(
            "GBACW 12.94",
            RuleCode::Invalid,
            "name the engaged units that withdraw",
        ));
    };
    let (_, from) = crate::gbacw::ruleset::decide::own_unit(rs, state, side, first)?;
    for id in units {
        let (u, at) = crate::gbacw::ruleset::decide::own_unit(rs, state, side, id)?;
        if at != from {
            return Err(err(
                "GBACW 12.94",
                RuleCode::Illegal,
                "the units withdrawing together share one hex",
            ));
        }
        if !u.status.markers.contains(&Marker::Engaged) {
            return Err(err(
                "GBACW 12.94",
                RuleCode::Illegal,
                format!("{id} is not engaged"),
            ));
        }
        if matches!(rs.game.oob.units[id].kind, UnitKind::Battery { .. })
            && u.status.formation == Formation::Unlimbered
        {
            return Err(err(
                "GBACW 12.94",
                RuleCode::Illegal,
                format!("{id} is unlimbered artillery and may not withdraw"),
            ));
        }
        let options = retreat_options(rs, state, id, WITHDRAW_HEXES, RetreatKind::MeleeResult);
        // A withdrawal is a move of the full two hexes, never off the map
        // (a retreat's shorter path goes off it: `effects::leaves_map`).
        if !options
            .iter()
            .any(|p| p == path && p.len() == WITHDRAW_HEXES)
        {
            return Err(err(
                "GBACW 12.94",
                RuleCode::Illegal,
                format!(
                    "not a way back for {id}: two hexes, each farther away, not into the enemy or an enemy Zone of Control"
                ),
            ));
        }
    }
    // GBACW 12.94: "Option 3 may not be combined with options 1 or 2":
    // no withdrawal from an engagement this Player-Turn's melees already
    // fight on (option 1: a melee by units of this hex; option 2: a melee
    // on the enemy engaged with them).
    let enemy = engaged_enemy(rs, state, side, from);
    if state.melees.iter().any(|m| {
        enemy.contains(&m.target)
            || m.attackers
                .iter()
                .any(|a| state.units.get(a).and_then(|x| x.hex) == Some(from))
    }) {
        return Err(err(
            "GBACW 12.94",
            RuleCode::Illegal,
            format!(
                "a melee has been declared in the engagement at {from} this Player-Turn: \
                 option 3 (withdrawing) may not be combined with fighting on"
            ),
        ));
    }
    let end = *path.last().unwrap_or(&from);
    let board = crate::gbacw::ruleset::board::Board::new(rs, state);
    let moving: Vec<&CounterId> = units.iter().collect();
    if board.check_stack(end, side, &[], &moving, None).is_err() {
        return Err(err(
            "GBACW 8.1",
            RuleCode::Illegal,
            format!("{end} would be over its stacking limits"),
        ));
    }
    let mut u = Unfold::new(state);
    let mut roll = Roller::new(dice);
    u.push(GbacwEvent::EngagedWithdrawn { from, enemy });
    for id in units {
        set_markers(&mut u, id, |s| {
            s.markers.remove(&Marker::Engaged);
        });
        u.push(GbacwEvent::UnitRetreated {
            unit: id.clone(),
            path: path.to_vec(),
        });
    }
    for id in units {
        check_morale(rs, &mut u, &mut roll, id);
    }
    roll.finish()?;
    Ok(u.events)
}

/// GBACW 12.51: "Routed units may not initiate melee; if "engaged" in
/// melee, a routed unit must retreat from melee, if possible. If the
/// routed unit cannot retreat from the melee without entering an Enemy
/// ZOC, it is captured." The routed `id`, just engaged by a melee result,
/// leaves the melee at once (the result is the melee's, like an R; the
/// owner has no 12.94 options to choose among): two hexes, as 12.94
/// option 3 withdraws engaged units (12.51 gives no length; option 3 is
/// the text's one way out of an engagement), each farther away, never
/// into the enemy or an enemy ZOC (the engaged enemy has none, 12.94),
/// then the check option 3 makes "at the end of the retreat" (a routed
/// unit failing it routs again, 13.33, [`super::effects::check_after_melee_retreat`]).
/// With no such path it is captured (12.51, 12.92), all its points.
pub(crate) fn routed_leave(rs: &Gbacw, u: &mut Unfold, roll: &mut Roller, id: &CounterId) {
    set_markers(u, id, |s| {
        s.markers.remove(&Marker::Engaged);
    });
    melee_retreat(rs, u, roll, id, WITHDRAW_HEXES, true, false);
}

/// GBACW 12.94, 12.51: once routed units have left a melee (or been
/// captured), units of `ids` engaged with no engaged enemy left next to
/// them are engaged no more: "the fighting is still raging" no longer,
/// and they may move, fire and exert a ZOC again.
pub(crate) fn end_where_no_enemy(rs: &Gbacw, u: &mut Unfold, ids: &[CounterId]) {
    let grid = &rs.game.map.grid;
    let alone: Vec<CounterId> = ids
        .iter()
        .filter(|id| {
            let Some(x) = u.state.units.get(*id) else {
                return false;
            };
            let (Some(hex), true) = (x.hex, x.status.markers.contains(&Marker::Engaged)) else {
                return false;
            };
            let side = &rs.game.oob.units[*id].side;
            !u.state.units.iter().any(|(other, y)| {
                rs.game.oob.units[other].side != *side
                    && y.status.markers.contains(&Marker::Engaged)
                    && y.hex.is_some_and(|h| grid.distance(hex, h) == 1)
            })
        })
        .cloned()
        .collect();
    for id in &alone {
        set_markers(u, id, |s| {
            s.markers.remove(&Marker::Engaged);
        });
    }
}

/// GBACW 12.94: the hexes next to `from` whose enemy units are engaged:
/// the other side of the engagement `side`'s units in `from` are in.
fn engaged_enemy(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    from: HexNumber,
) -> Vec<HexNumber> {
    let grid = &rs.game.map.grid;
    let mut out: Vec<HexNumber> = state
        .units
        .iter()
        .filter(|(id, x)| {
            rs.game.oob.units[*id].side != *side && x.status.markers.contains(&Marker::Engaged)
        })
        .filter_map(|(_, x)| x.hex)
        .filter(|h| grid.distance(from, *h) == 1)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// GBACW 12.94: "Option 3 may not be combined with options 1 or 2." A
/// melee declared this Player-Turn by units left in a hex engaged units
/// withdrew from (option 1), or on the enemy they were engaged with
/// (option 2), is refused.
pub(crate) fn check_not_combined(
    state: &GbacwState,
    target: HexNumber,
    attackers: &[CounterId],
) -> Result<(), RuleError> {
    for (from, enemy) in &state.engaged_withdrawals {
        let left_behind = attackers.iter().any(|a| {
            state.units.get(a).is_some_and(|x| {
                x.hex == Some(*from) && x.status.markers.contains(&Marker::Engaged)
            })
        });
        if left_behind || enemy.contains(&target) {
            return Err(err(
                "GBACW 12.94",
                RuleCode::Illegal,
                format!(
                    "engaged units withdrew from {from} this Player-Turn (option 3), which may \
                     not be combined with fighting on in that engagement (options 1 and 2)"
                ),
            ));
        }
    }
    Ok(())
}
