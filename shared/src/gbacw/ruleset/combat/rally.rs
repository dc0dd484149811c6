//! The Rally Phase (4.0 H): pins come off (9.85), then routed units try to
//! rally (13.5, 17.13).

use super::Roller;
use crate::engine::{Dice, RuleCode, RuleError};
use crate::gbacw::command::within_radius;
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{Command, CounterId, Marker, Morale, UnitKind};
use crate::gbacw::rally::{RallyBy, rallies};
use crate::gbacw::ruleset::battle_rules::OwnRally;
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::decide::own_unit;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::exclusive::bce_loss;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::ruleset::{Gbacw, err};

/// GBACW 9.85: at the start of the friendly Rally Phase the pins of
/// `side`'s units come off.
pub(crate) fn unpin(rs: &Gbacw, state: &GbacwState, side: &CounterId) -> Vec<GbacwEvent> {
    state
        .units
        .iter()
        .filter(|(id, u)| {
            rs.game.oob.units[*id].side == *side && u.status.markers.contains(&Marker::Pin)
        })
        .map(|(id, u)| {
            let mut markers = u.status.markers.clone();
            crate::gbacw::rally::unpin(&mut markers);
            GbacwEvent::MarkersSet {
                unit: id.clone(),
                markers,
            }
        })
        .collect()
}

/// How a routed unit would try to rally now.
enum Way {
    /// GBACW 13.52, 13.54: stacked with a friendly leader.
    Leader,
    /// GBACW 17.13: its brigade commander spends a Rally Point.
    RallyPoint(CounterId),
    /// GBACW 13.54: crews, wagons and independents roll a die.
    Die,
    /// A battle's own way (hook `rally_way`): by a die roll, `minus` off
    /// it, against the unit's rating.
    OwnDie { minus: u8 },
    /// A battle's own way: it rallies without a roll.
    Automatic,
}

fn self_rallying(rs: &Gbacw, id: &CounterId) -> bool {
    let unit = &rs.game.oob.units[id];
    matches!(unit.command, Command::Independent)
        || matches!(unit.kind, UnitKind::Battery { .. } | UnitKind::Wagon { .. })
}

fn way(rs: &Gbacw, state: &GbacwState, side: &CounterId, id: &CounterId) -> Result<Way, RuleError> {
    let (u, hex) = own_unit(rs, state, side, id)?;
    if !u.status.markers.contains(&Marker::Rout) {
        return Err(err(
            "GBACW 13.51",
            RuleCode::Illegal,
            format!("{id} is not routed"),
        ));
    }
    if state.rally_tried.contains(id) {
        return Err(err(
            "GBACW 13.51",
            RuleCode::Illegal,
            format!("{id} has already tried to rally this Rally Phase"),
        ));
    }
    // The battle's own limits on a rally and where it is tried (hooks
    // `check_rally`, `rally_hex`).
    rs.battle().check_rally(rs, state, id)?;
    let hex = rs.battle().rally_hex(state, id, hex);
    // A battle's own way to rally, before the Standard Rules' (hook
    // `rally_way`).
    match rs.battle().rally_way(rs, state, side, hex, id) {
        Some(OwnRally::Die { minus }) => return Ok(Way::OwnDie { minus }),
        Some(OwnRally::Automatic) => return Ok(Way::Automatic),
        None => {}
    }
    let board = Board::new(rs, state);
    // Leaders who may not affect the unit do not count (`leader_reach`).
    if crate::gbacw::ruleset::leader_reach::stacked_for(&board, hex, side, id) {
        return Ok(Way::Leader);
    }
    if self_rallying(rs, id) {
        return Ok(Way::Die);
    }
    // GBACW 17.13, 13.52, 13.53: a Rally Point of its brigade commander,
    // within his Effectiveness Radius traced clear of the enemy.
    let Command::Brigade(b) = &rs.game.oob.units[id].command else {
        return Ok(Way::Die);
    };
    // GBACW 17.81–17.83: whoever leads the brigade now.
    let commander = super::succession::brigade_commander(state, b);
    let leader = commander
        .as_ref()
        .and_then(|c| state.leaders.get(c))
        .and_then(|l| l.hex.map(|h| (l, h)));
    let ratings = commander
        .as_ref()
        .and_then(|c| super::succession::brigade_ratings(rs, state, c));
    let (Some((l, at)), Some(r)) = (leader, ratings) else {
        return Err(err(
            "GBACW 13.52",
            RuleCode::Illegal,
            format!("{id} has no leader with it and its brigade commander is not on the map"),
        ));
    };
    // GBACW 12.94: "Leaders that are "engaged" may not rally other units;
    // nor do they have Effectiveness Radii." — a leader in a hex whose
    // units are engaged (case_17_13_engaged_leader_cannot_rally).
    if leader_engaged(rs, state, side, at) {
        return Err(err(
            "GBACW 12.94",
            RuleCode::Illegal,
            format!("{b} is engaged in melee and may not rally other units"),
        ));
    }
    let radius = r
        .effectiveness_radius
        .saturating_add(l.augmented.as_ref().map_or(0, |(_, p)| *p));
    if !within_radius(&rs.game.map, &board.command_blocks(side), at, hex, radius) {
        return Err(err(
            "GBACW 13.53",
            RuleCode::Illegal,
            format!("{id} is not within {b}'s Effectiveness Radius"),
        ));
    }
    if state.rally_points.get(b).copied().unwrap_or(0) >= r.rally {
        return Err(err(
            "GBACW 17.13",
            RuleCode::Illegal,
            format!("{b} has spent his {} Rally Points this phase", r.rally),
        ));
    }
    Ok(Way::RallyPoint(b.clone()))
}

/// GBACW 12.94: a leader of `side` in `hex` is engaged when the friendly
/// units there are.
pub(crate) fn leader_engaged(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    hex: HexNumber,
) -> bool {
    Board::new(rs, state)
        .units_of(hex, side)
        .into_iter()
        .any(|id| state.units[id].status.markers.contains(&Marker::Engaged))
}

/// Whether the rally of `id` rolls a die (13.54), for `rolls_dice`.
pub(crate) fn rolls(rs: &Gbacw, state: &GbacwState, side: &CounterId, id: &CounterId) -> bool {
    // A brigade that has lost BCE rallies by a die (`exclusive::bce_loss`).
    if let Some(w) = bce_rally(rs, state, side, id) {
        return w.is_ok_and(|w| w.rolls());
    }
    matches!(way(rs, state, side, id), Ok(Way::Die | Way::OwnDie { .. }))
}

/// The exclusive BCE-loss rally (`exclusive::bce_loss`), for a routed
/// unit of `side` (after the checks every rally makes: its own, routed,
/// not tried yet); `None` when the Standard Rules apply.
fn bce_rally(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    id: &CounterId,
) -> Option<Result<bce_loss::BceRally, RuleError>> {
    let (u, _) = own_unit(rs, state, side, id).ok()?;
    if !u.status.markers.contains(&Marker::Rout) || state.rally_tried.contains(id) {
        return None;
    }
    bce_loss::rally_way(rs, state, side, id)
}

/// GBACW 13.51–13.54, 17.13: `side`'s routed unit `id` tries to rally.
pub(crate) fn rally(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    id: &CounterId,
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    // The battle's own limits on a rally (hook `check_rally`).
    rs.battle().check_rally(rs, state, id)?;
    if let Some(w) = bce_rally(rs, state, side, id) {
        let w = w?;
        let die = if w.rolls() {
            let mut roll = Roller::new(dice);
            let d = roll.d6();
            roll.finish()?;
            Some(d)
        } else {
            None
        };
        return Ok(bce_loss::rally_events(rs, state, id, &w, die));
    }
    // Whose unit it is, before anything reads its counter: a client may
    // name any counter, a leader's too.
    let way = way(rs, state, side, id)?;
    let unit = &rs.game.oob.units[id];
    let rating = match (unit.morale, state.units[id].rating) {
        (Morale::Rated(m), _) | (Morale::Green, Some(m)) => m,
        // A green unit that routed has checked morale, so it has a
        // rating; 4 (the commonest) only if an exclusive rule routed it
        // without a check.
        (Morale::Green, None) => 4,
    };
    Ok(match way {
        Way::Leader => vec![GbacwEvent::RallyTried {
            unit: id.clone(),
            die: None,
            rallied: rallies(unit, rating, RallyBy::StackedLeader),
        }],
        Way::RallyPoint(b) => vec![
            GbacwEvent::RallyPointSpent { leader: b },
            GbacwEvent::RallyTried {
                unit: id.clone(),
                die: None,
                rallied: rallies(unit, rating, RallyBy::RallyPoint),
            },
        ],
        Way::Automatic => vec![GbacwEvent::RallyTried {
            unit: id.clone(),
            die: None,
            rallied: true,
        }],
        Way::OwnDie { minus } => {
            let mut roll = Roller::new(dice);
            let die = roll.d6();
            roll.finish()?;
            vec![GbacwEvent::RallyTried {
                unit: id.clone(),
                die: Some(die),
                rallied: die.saturating_sub(minus) <= rating,
            }]
        }
        Way::Die => {
            let mut roll = Roller::new(dice);
            let die = roll.d6();
            roll.finish()?;
            vec![GbacwEvent::RallyTried {
                unit: id.clone(),
                die: Some(die),
                rallied: rallies(unit, rating, RallyBy::Die(die)),
            }]
        }
    })
}
