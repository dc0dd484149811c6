//! Corinth 30.13: Oliver's brigade enters through 0104 (in Assault Area D)
//! and "these units must keep moving until they are more than four hexes
//! from the nearest Confederate Assault Area (see 29.41)".
//!
//! Enforced as GBACW 17.52 is, so that it never deadlocks: the phasing
//! side's Movement Phase does not end while one of the hook's `units=`
//! stands within `distance=` hexes of an Assault Area and can still reach
//! a hex farther from the areas than where it is, and stop there. A unit out of Movement
//! Points (or hemmed in) may stop; it moves on next Movement Phase.

use crate::engine::{RuleCode, RuleError};
use crate::gbacw::corinth::distance_to_assault_areas;
use crate::gbacw::oob::CounterId;
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::ruleset::{Gbacw, err};
use crate::gbacw::scenario::HookKind;

/// Refuse the end of `side`'s Movement Phase while a unit that must keep
/// moving can still get farther from the Assault Areas.
pub(crate) fn check(rs: &Gbacw, state: &GbacwState, side: &CounterId) -> Result<(), RuleError> {
    let Some(h) = rs.game.scenario.hook(HookKind::KeepMoving) else {
        return Ok(());
    };
    if h.param("side") != Some(side.0.as_str()) {
        return Ok(());
    }
    let most = u32::from(h.number("distance").unwrap_or(4));
    let map = &rs.game.map;
    for unit in h.param("units").unwrap_or("").split(',') {
        let id = CounterId(unit.to_string());
        let Some(at) = state.units.get(&id).and_then(|u| u.hex) else {
            continue;
        };
        let Some(now) = distance_to_assault_areas(map, at).filter(|d| *d <= most) else {
            continue;
        };
        let Some(reach) = rs.reachable(state, &id) else {
            continue;
        };
        // Only a hex where the unit may stop counts (GBACW 8.1: a hex it
        // could only pass through would leave the phase refused for
        // stacking instead, and a player sent there goes round in a
        // circle). The refusal is read as advice, so the hex named is the
        // nearest (fewest Movement Points, then the lowest number) that
        // is more than `most` away, else the farthest it can get.
        let board = Board::new(rs, state);
        let farther = reach
            .hexes
            .iter()
            .filter(|(x, _)| board.check_stack(**x, side, &[], &[&id], None).is_ok())
            .filter_map(|(x, (spent, _))| {
                let d = distance_to_assault_areas(map, *x).filter(|d| *d > now)?;
                Some(((d <= most, most.saturating_sub(d), *spent, *x), *x))
            })
            .min_by_key(|(key, _)| *key)
            .map(|(_, x)| x);
        if let Some(farther) = farther {
            return Err(err(
                &rs.case_rule("30.13"),
                RuleCode::Illegal,
                format!(
                    "{id} in {at} is {now} {hexes} from an Assault Area: it must keep moving until more than {most} away (it can reach {farther})",
                    hexes = if now == 1 { "hex" } else { "hexes" }
                ),
            ));
        }
    }
    Ok(())
}
