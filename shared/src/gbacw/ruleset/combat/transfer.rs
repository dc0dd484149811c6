//! GBACW 11.33: transferring rounds between two friendly batteries of the
//! same weapon type that spent the whole Game-Turn, without firing, in the
//! same or adjacent hexes; done in the Ammunition Resupply Phase.
//!
//! Decisions (docs/gbacw-notes.md): "spent the Game-Turn in the same or
//! adjacent hexes" is read as "neither has left the hex it held when the
//! Game-Turn began, and the two are in the same or adjacent hexes"; it is
//! checked in the owner's Resupply Phase, for the Game-Turn so far. A
//! battery never holds more than its printed rounds.

use crate::engine::{RuleCode, RuleError};
use crate::gbacw::oob::{CounterId, UnitKind};
use crate::gbacw::ruleset::decide::own_unit;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::ruleset::{Gbacw, err};

/// GBACW 11.33: `side` moves `rounds` rounds from battery `from` to `to`.
pub(crate) fn transfer(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    from: &CounterId,
    to: &CounterId,
    rounds: u16,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let refuse = |m: String| err("GBACW 11.33", RuleCode::Illegal, m);
    if from == to || rounds == 0 {
        return Err(err(
            "GBACW 11.33",
            RuleCode::Invalid,
            "name two batteries and at least one round",
        ));
    }
    let (a, a_hex) = own_unit(rs, state, side, from)?;
    let (b, b_hex) = own_unit(rs, state, side, to)?;
    let oob = &rs.game.oob;
    let (UnitKind::Battery { .. }, UnitKind::Battery { rounds: full }) =
        (&oob.units[from].kind, &oob.units[to].kind)
    else {
        return Err(refuse("rounds pass only between batteries".into()));
    };
    if oob.units[from].weapon != oob.units[to].weapon {
        return Err(refuse(format!("{from} and {to} have different weapons")));
    }
    if rs.game.map.grid.distance(a_hex, b_hex) > 1 {
        return Err(refuse(format!(
            "{from} and {to} are neither in the same nor in adjacent hexes"
        )));
    }
    for (id, hex) in [(from, a_hex), (to, b_hex)] {
        if state.turn_start.get(id) != Some(&hex) {
            return Err(refuse(format!(
                "{id} has not spent the whole Game-Turn where it is"
            )));
        }
        if state.fired_this_turn.contains(id) {
            return Err(refuse(format!("{id} has fired this Game-Turn")));
        }
    }
    if rounds > a.status.rounds {
        return Err(refuse(format!(
            "{from} has only {} rounds",
            a.status.rounds
        )));
    }
    if b.status.rounds.saturating_add(rounds) > *full {
        return Err(refuse(format!(
            "{to} holds at most {full} rounds and has {}",
            b.status.rounds
        )));
    }
    Ok(vec![GbacwEvent::RoundsTransferred {
        from: from.clone(),
        to: to.clone(),
        rounds,
    }])
}
