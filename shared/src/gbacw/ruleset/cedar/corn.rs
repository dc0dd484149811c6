//! Cedar Mountain 21.43: a cornfield hex fired into by small arms at one
//! hex, or by artillery at three hexes or less, is blown down and is clear
//! for the rest of the game; and no unit fires into an empty cornfield to
//! blow it down (21.43 "Important"). On when the scenario has `hook
//! cornfields`, whose `blow-down-small-arms=` and `blow-down-artillery=`
//! give the two ranges.
//!
//! The blown-down hexes are the state's `corn_down` (a map-state change
//! every follower folds from `CornBlownDown`). "Clear for all purposes":
//! movement reads a second step table built with every cornfield cleared
//! ([`cleared_map`]) for those hexes; line of sight, the terrain's fire
//! shift and stacking read [`map`], the printed map with the blown-down
//! hexes cleared.

use crate::engine::{RuleCode, RuleError};
use crate::gbacw::map::{HexNumber, Map, Terrain};
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::ruleset::{Gbacw, err};
use crate::gbacw::scenario::HookKind;
use std::borrow::Cow;
use std::collections::BTreeSet;

fn hook(rs: &Gbacw) -> Option<&crate::gbacw::scenario::Hook> {
    super::hook(rs, HookKind::Cornfields)
}

/// Whether `hex` holds standing corn now.
pub(crate) fn standing(rs: &Gbacw, state: &GbacwState, hex: HexNumber) -> bool {
    rs.game
        .map
        .hex(hex)
        .is_some_and(|h| h.terrain.contains(&Terrain::Corn))
        && !state.corn_down.contains(&hex)
}

/// `map` with the corn of `hexes` blown down: clear where nothing else
/// grows.
pub(crate) fn cleared_map(map: &Map, hexes: impl IntoIterator<Item = HexNumber>) -> Map {
    let mut out = map.clone();
    for h in hexes {
        if let Some(info) = map.hex(h)
            && info.terrain.contains(&Terrain::Corn)
        {
            let mut t: BTreeSet<Terrain> = info.terrain.clone();
            t.remove(&Terrain::Corn);
            out.set_terrain(h, t);
        }
    }
    out
}

/// Every cornfield hex of the battle's map (for the ruleset's second step
/// table); empty when the battle has no cornfield rule.
pub(crate) fn all_cornfields(rs_map: &Map, on: bool) -> Vec<HexNumber> {
    if !on {
        return Vec::new();
    }
    rs_map
        .hexes()
        .filter(|(_, h)| h.terrain.contains(&Terrain::Corn))
        .map(|(n, _)| n)
        .collect()
}

/// The map as the ground stands now: the printed one, or a copy with the
/// blown-down cornfields cleared.
pub(crate) fn map<'a>(rs: &'a Gbacw, state: &GbacwState) -> Cow<'a, Map> {
    if state.corn_down.is_empty() {
        Cow::Borrowed(&rs.game.map)
    } else {
        Cow::Owned(cleared_map(&rs.game.map, state.corn_down.iter().copied()))
    }
}

/// Cedar Mountain 21.43 "Important": fire into a standing cornfield hex
/// needs an enemy unit there (the refusal names the case; elsewhere 9.0's
/// own refusal stands).
pub(crate) fn check_target(
    rs: &Gbacw,
    state: &GbacwState,
    target: HexNumber,
    enemy_there: bool,
) -> Result<(), RuleError> {
    if hook(rs).is_some() && standing(rs, state, target) && !enemy_there {
        return Err(err(
            &super::case(rs, "21.43"),
            RuleCode::Illegal,
            format!(
                "{target} is an empty cornfield: fire needs an enemy unit there, not corn to blow down"
            ),
        ));
    }
    Ok(())
}

/// Cedar Mountain 21.43: the corn of `target` blown down by this attack,
/// if the hex stands in corn and a firer is close enough for its kind
/// (small arms at `blow-down-small-arms` hexes, artillery at
/// `blow-down-artillery` or less).
pub(crate) fn blown_down(
    rs: &Gbacw,
    state: &GbacwState,
    target: HexNumber,
    firers: &[crate::gbacw::oob::CounterId],
    artillery: bool,
) -> Option<GbacwEvent> {
    let h = hook(rs)?;
    if !standing(rs, state, target) {
        return None;
    }
    let reach = if artillery {
        h.number("blow-down-artillery").unwrap_or(3)
    } else {
        h.number("blow-down-small-arms").unwrap_or(1)
    };
    let grid = &rs.game.map.grid;
    let close = firers.iter().any(|f| {
        state
            .units
            .get(f)
            .and_then(|u| u.hex)
            .is_some_and(|at| grid.distance(at, target) <= u32::from(reach))
    });
    close.then_some(GbacwEvent::CornBlownDown { hex: target })
}

/// The terrain of `hex` as the ground stands now (blown-down corn gone);
/// `None` off the map.
pub(crate) fn terrain(rs: &Gbacw, state: &GbacwState, hex: HexNumber) -> Option<BTreeSet<Terrain>> {
    let mut t = rs.game.map.hex(hex)?.terrain.clone();
    if state.corn_down.contains(&hex) && t.remove(&Terrain::Corn) && t.is_empty() {
        t.insert(Terrain::Clear);
    }
    Some(t)
}

/// Cedar Mountain 21.42 and 21.43 on a line GBACW 9.7 finds clear over
/// the ground as it stands now (`sight.rs`). Standing corn blocks any line
/// through it whatever the heights (21.42: "no unit may fire through a
/// standing cornfield hex"; the 5 ft of 21.41 alone would let an
/// equal-level line pass); a line along a hexside is blocked only if both
/// hexes are corn (as 9.7 treats other obstacles); the ends never block
/// (one fires out of corn and into it). Blown-down corn is clear.
pub(crate) fn blocking(
    rs: &Gbacw,
    state: &GbacwState,
    from: HexNumber,
    to: HexNumber,
) -> Option<crate::gbacw::los::Los> {
    use crate::gbacw::los::{Crossing, Los, Obstacle, crossings};
    hook(rs)?;
    for (_, c) in crossings(&rs.game.map.grid, from, to) {
        match c {
            Crossing::Hex(h) if standing(rs, state, h) => {
                return Some(Los::Blocked(Obstacle::Hex(h)));
            }
            Crossing::Along(a, b) if standing(rs, state, a) && standing(rs, state, b) => {
                return Some(Los::Blocked(Obstacle::Along(a, b)));
            }
            _ => {}
        }
    }
    None
}
