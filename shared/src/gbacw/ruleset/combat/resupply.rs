//! The Ammunition Resupply Phase (4.0 G, 11.23–11.34): a wagon gives a
//! depleted small-arms unit a box, or a battery rounds, along a supply
//! path.

use crate::engine::{RuleCode, RuleError};
use crate::gbacw::ammo::ResupplyRequest;
use crate::gbacw::command::supply_path;
use crate::gbacw::oob::{CounterId, UnitKind};
use crate::gbacw::options::resupply_with;
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::decide::own_unit;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::ruleset::{Gbacw, err};
use std::collections::BTreeMap;

/// GBACW 11.23–11.25, 11.32: `side`'s `wagon` resupplies `unit`.
pub(crate) fn resupply(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    wagon: &CounterId,
    unit: &CounterId,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let (w, wagon_hex) = own_unit(rs, state, side, wagon)?;
    if !matches!(rs.game.oob.units[wagon].kind, UnitKind::Wagon { .. }) {
        return Err(err(
            "GBACW 11.23",
            RuleCode::Illegal,
            format!("{wagon} is not a supply wagon"),
        ));
    }
    let (u, unit_hex) = own_unit(rs, state, side, unit)?;
    let battery = match rs.game.oob.units[unit].kind {
        UnitKind::Battery { rounds } => Some(rounds),
        _ => None,
    };
    let board = Board::new(rs, state);
    let path = supply_path(
        &rs.game.map,
        &rs.game.charts.movement,
        unit_hex,
        wagon_hex,
        &board.command_blocks(side),
    )
    .is_some();
    let request = ResupplyRequest {
        unit: unit.clone(),
        battery: battery.is_some(),
        rounds_wanted: battery.map_or(0, |full| full.saturating_sub(u.status.rounds)),
        path,
        moved: u.moved.hexes > 0,
    };
    let mut wagon_status = w.status.clone();
    let mut units = BTreeMap::from([(unit.clone(), u.status.clone())]);
    let given = resupply_with(
        rs.options,
        &mut wagon_status,
        w.moved.hexes > 0,
        &[request],
        &mut units,
    )
    .map_err(|(_, rule)| {
        err(
            rule,
            RuleCode::Illegal,
            format!("{wagon} may not resupply {unit} now"),
        )
    })?;
    let amount = given.first().map_or(0, |(_, n)| *n);
    Ok(vec![GbacwEvent::Resupplied {
        wagon: wagon.clone(),
        unit: unit.clone(),
        amount,
        wagon_supply: wagon_status.supply,
        unit_status: units.remove(unit).unwrap_or_else(|| u.status.clone()),
    }])
}
