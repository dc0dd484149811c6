//! Retreat before melee under withdrawal fire (12.83, 12.88) and the
//! advance into the hex it vacates (12.85).
//!
//! When the defender answers a declared melee by retreating units that
//! draw withdrawal fire (12.83: all but mounted cavalry on cavalry terms,
//! 12.84, 16.1), and enemy units whose Zone of Control holds the hex may
//! fire (10.19), the retreat waits and the attacker's seat is offered
//! withdrawal fire, like a move (10.1), with decline as its default. Once
//! answered, the units still able retreat (a unit pinned by the fire
//! stays and takes the melee, 12.88; one routed has gone its own way),
//! then check morale (12.83: fired on or not). If the hex is left without
//! defenders, the units that were going to melee it are offered the
//! advance (12.85), with not advancing as its default.

use super::effects::check_morale;
use super::{Roller, Unfold};
use crate::engine::{RuleCode, RuleError};
use crate::gbacw::charts::Mp;
use crate::gbacw::facing::{Facing, ZocUse};
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, Formation, Marker};
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::{AdvanceOffer, GbacwState, Resume, Trigger, WithdrawalDecision};
use crate::gbacw::ruleset::{Gbacw, err};

/// GBACW 12.83, 10.19: the withdrawal fire a retreat before melee from
/// `target` draws: `fired_on` are the retreating units on the ordinary
/// terms; `None` when none of them draws fire or no enemy may fire.
pub(crate) fn fire_decision(
    rs: &Gbacw,
    state: &GbacwState,
    target: HexNumber,
    units: &[CounterId],
    fired_on: &[CounterId],
    path: &[HexNumber],
) -> Option<WithdrawalDecision> {
    let first = fired_on.first()?;
    let side = &rs.game.oob.units[first].side;
    let mounted = fired_on
        .iter()
        .any(|id| state.units[id].status.formation == Formation::Mounted);
    let firers = Board::new(rs, state).withdrawal_firers(side, target, mounted);
    if firers.is_empty() {
        return None;
    }
    Some(WithdrawalDecision {
        seat: rs.seat_of(rs.enemy_of(side)),
        trigger: Trigger::Leaving,
        hex: target,
        targets: fired_on.to_vec(),
        firers,
        toward: path.first().copied(),
        resume: Resume::RetreatBeforeMelee {
            units: units.to_vec(),
            path: path.to_vec(),
            checks: fired_on.to_vec(),
        },
    })
}

/// GBACW 12.81–12.85, 12.88: the retreat goes ahead from `target` for the
/// units still there and neither pinned nor routed; those in `checks`
/// check morale at its end; then the advance is offered if the hex is
/// empty of defenders.
pub(crate) fn carry_on(
    rs: &Gbacw,
    u: &mut Unfold,
    roll: &mut Roller,
    target: HexNumber,
    units: &[CounterId],
    path: &[HexNumber],
    checks: &[CounterId],
) {
    for id in units {
        let x = &u.state.units[id];
        let m = &x.status.markers;
        if x.hex != Some(target) || m.contains(&Marker::Pin) || m.contains(&Marker::Rout) {
            continue;
        }
        u.push(GbacwEvent::UnitRetreated {
            unit: id.clone(),
            path: path.to_vec(),
        });
        if checks.contains(id) {
            check_morale(rs, u, roll, id);
        }
    }
    offer_advance(rs, u, target, units);
}

/// GBACW 12.85: if `target` holds none of the defenders' units now, offer
/// the units declared against it the advance.
pub(crate) fn offer_advance(
    rs: &Gbacw,
    u: &mut Unfold,
    target: HexNumber,
    defenders: &[CounterId],
) {
    let Some(first) = defenders.first() else {
        return;
    };
    let side = rs.game.oob.units[first].side.clone();
    let board = Board::new(rs, &u.state);
    if !board.units_of(target, &side).is_empty() {
        return;
    }
    let attackers: Vec<CounterId> = u
        .state
        .melees
        .iter()
        .filter(|m| m.target == target)
        .flat_map(|m| m.attackers.iter().cloned())
        .filter(|a| {
            u.state.units[a]
                .hex
                .is_some_and(|h| rs.game.map.grid.distance(h, target) == 1)
        })
        .collect();
    if attackers.is_empty() {
        return;
    }
    let enemy = rs.enemy_of(&side);
    u.push(GbacwEvent::AdvanceOffered(AdvanceOffer {
        seat: rs.seat_of(enemy),
        hex: target,
        units: attackers,
    }));
}

/// GBACW 12.85: `units` (of those offered) advance into the vacated hex,
/// within the stacking limits (8.18), each facing the way it went (7.11).
/// They were declared against this hex, so they initiate no other melee
/// this Player-Turn: `melee::declare` refuses them under 12.85 (12.26
/// would hold them to it too).
pub(crate) fn advance(
    rs: &Gbacw,
    state: &GbacwState,
    offer: &AdvanceOffer,
    units: &[CounterId],
) -> Result<Vec<GbacwEvent>, RuleError> {
    if units.is_empty() {
        return Err(err(
            "GBACW 12.85",
            RuleCode::Invalid,
            "name the units that advance, or decline",
        ));
    }
    for (k, id) in units.iter().enumerate() {
        if !offer.units.contains(id) || units[..k].contains(id) {
            return Err(err(
                "GBACW 12.85",
                RuleCode::Illegal,
                format!("{id} was not going to melee {}", offer.hex),
            ));
        }
    }
    let side = rs.side_of(offer.seat);
    let board = Board::new(rs, state);
    // Cedar Mountain 24.14: the advance is voluntary ("may be advanced",
    // 12.85), so a unit of a brigade that has lost BCE may not make it
    // into an enemy Zone of Control. (23.0 and Corinth 27.0 speak of
    // retreats only: "may never use the retreat as an advance" limits
    // where a retreat goes, not an advance.)
    for id in units {
        if board.bce_broken(id) {
            let mounted = state.units[id].status.formation == Formation::Mounted;
            let zoc = board.enemy_zoc(
                side,
                ZocUse::WithdrawalAndRetreat {
                    mover_mounted: mounted,
                },
            );
            crate::gbacw::ruleset::exclusive::bce_loss::check_zoc_entry(
                rs,
                state,
                id,
                zoc.contains(&offer.hex),
            )?;
        }
    }
    let arriving: Vec<&CounterId> = units.iter().collect();
    board
        .check_stack(offer.hex, side, &arriving, &arriving, None)
        .map_err(|o| {
            err(
                o.rule(),
                RuleCode::Illegal,
                format!(
                    "advancing into {} would break its stacking limits",
                    offer.hex
                ),
            )
        })?;
    let mut events = vec![GbacwEvent::AdvanceAnswered];
    for id in units {
        let Some(from) = state.units[id].hex else {
            continue;
        };
        let facing = rs
            .game
            .map
            .grid
            .direction(from, offer.hex)
            .map_or(state.units[id].facing, Facing::new);
        events.push(GbacwEvent::UnitMoved {
            unit: id.clone(),
            to: offer.hex,
            facing,
            cost: Mp::ZERO,
        });
    }
    Ok(events)
}
