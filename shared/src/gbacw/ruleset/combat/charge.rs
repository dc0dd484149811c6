//! Cavalry charges in the hosted ruleset (16.2–16.27): declaring one in
//! the Retreat Before Melee Phase, and the chargers' rout once its melee
//! is fought. The rule checks are [`crate::gbacw::cavalry`]'s; the charge
//! strength (16.24, 16.33) is [`crate::gbacw::melee::unit_melee_strength`]'s,
//! applied when the melee resolves ([`super::melee`]); who may retreat
//! before a charge (16.26) is [`crate::gbacw::retreat::may_retreat_before_melee`]'s.

use super::Unfold;
use super::effects::{rout_retreat, set_markers};
use crate::engine::{RuleCode, RuleError};
use crate::gbacw::cavalry::{ChargeSetup, charge_allowed, charger_routs};
use crate::gbacw::map::HexNumber;
use crate::gbacw::morale::rout;
use crate::gbacw::oob::{CounterId, Marker};
use crate::gbacw::ruleset::decide::own_unit;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::{DeclaredMelee, GbacwState};
use crate::gbacw::ruleset::{Gbacw, err};
use crate::gbacw::tables::MeleeResult;

/// GBACW 16.2–16.24: `attackers` charge `target`. Each must be mounted and
/// unrouted, have begun this Player-Turn's Movement Phase within four
/// hexes of the target (16.23), be adjacent to it through its one front
/// hexside (16.2, 16.24), and not charge into or across terrain the
/// Terrain Effects on Combat Chart closes to charges (16.22). Then it is a
/// melee like any other (12.2x), declared with the charge flag.
pub(crate) fn declare(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    target: HexNumber,
    attackers: &[CounterId],
) -> Result<Vec<GbacwEvent>, RuleError> {
    let game = &rs.game;
    for a in attackers {
        let (u, at) = own_unit(rs, state, side, a)?;
        // A unit that entered the map during the phase did not begin it
        // within four hexes of anything.
        let start_distance = state
            .movement_start
            .get(a)
            .map_or(u32::MAX, |h| game.map.grid.distance(*h, target));
        charge_allowed(
            &game.map,
            &game.charts.combat,
            &u.status,
            ChargeSetup {
                start_distance,
                at,
                facing: u.facing,
                target,
            },
        )
        .map_err(|rule| {
            err(
                rule,
                RuleCode::Illegal,
                format!("{a} may not charge {target}"),
            )
        })?;
    }
    super::melee::declare(rs, state, side, target, attackers, true)
}

/// GBACW 16.25, 16.27: once the melee a charge brought on is fought,
/// whatever its result (engaged included), every charger still on the map
/// routs and retreats (13.31). No melee (the charged mounted cavalry rode
/// off before it, 16.26, or no one was left to fight): no rout.
pub(crate) fn rout_chargers(
    rs: &Gbacw,
    u: &mut Unfold,
    roll: &mut super::Roller,
    m: &DeclaredMelee,
    fought: Option<&MeleeResult>,
) {
    if !m.charge || !charger_routs(fought.map(|r| r.attacker), false) {
        return;
    }
    for id in &m.attackers {
        let Some(x) = u.state.units.get(id) else {
            continue;
        };
        if x.hex.is_none() {
            continue;
        }
        let already = x.status.markers.contains(&Marker::Rout);
        set_markers(u, id, |s| {
            rout(&mut s.markers);
            // Routed off the field: the fight it started goes on without it.
            s.markers.remove(&Marker::Engaged);
        });
        if !already {
            rout_retreat(rs, u, roll, id);
        }
    }
}
