//! Corinth 24.3: siege guns. On when the scenario has `hook siege-guns`:
//! `units=` the siege batteries (Phillips' HC and Williams' PC),
//! `hexes=` how far they move in a Game-Turn (1).
//!
//! "Their crews are free to move if routed": a routed siege battery's crew
//! leaves its guns, limbered or not (`crews::siege_crew`, `hook
//! siege-crews-rout`), and the crew away moves as a piece of its own
//! (`crew_piece.rs`), never held to the guns' one hex; only the guns'
//! movement is limited here.

use crate::engine::{RuleCode, RuleError};
use crate::gbacw::map::{HexNumber, SideKind, Terrain};
use crate::gbacw::oob::CounterId;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::ruleset::{Gbacw, err};
use crate::gbacw::scenario::HookKind;

/// Corinth 24.3: "the guns of these batteries (the HC's and PC's) may
/// only move one hex per turn. They may not enter a woods hex except along
/// a road or track." Checks a move of `pieces` along `path`: a siege
/// battery among them may enter at most `hexes=` hexes in the Movement
/// Phase (its only movement in a Game-Turn), and a woods hex only across
/// a road, pike or trail hexside.
pub(crate) fn check_move(
    rs: &Gbacw,
    state: &GbacwState,
    pieces: &[CounterId],
    path: &[HexNumber],
) -> Result<(), RuleError> {
    let Some(h) = super::hook(rs, HookKind::SiegeGuns) else {
        return Ok(());
    };
    let rule = rs.case_rule("24.3");
    let listed = |id: &CounterId| {
        h.param("units")
            .is_some_and(|list| list.split(',').any(|u| u == id.0))
    };
    let limit = usize::from(h.number("hexes").unwrap_or(1));
    let map = &rs.game.map;
    for id in pieces.iter().filter(|id| listed(id)) {
        let Some(u) = state.units.get(id) else {
            continue;
        };
        let moved = usize::from(u.moved.hexes);
        if moved + path.len() > limit {
            return Err(err(
                &rule,
                RuleCode::Illegal,
                format!("{id} is a siege battery: it moves {limit} hex a turn"),
            ));
        }
        let mut at = u.hex;
        for &to in path {
            let woods = map
                .hex(to)
                .is_some_and(|x| x.terrain.contains(&Terrain::Woods));
            let by_road = at
                .and_then(|from| map.grid.hexside(from, to))
                .is_some_and(|side| {
                    map.side_features(side).any(|f| {
                        matches!(f.kind, SideKind::Road | SideKind::Pike | SideKind::Trail)
                    })
                });
            if woods && !by_road {
                return Err(err(
                    &rule,
                    RuleCode::Illegal,
                    format!("{id} is a siege battery: it enters woods ({to}) only along a road"),
                ));
            }
            at = Some(to);
        }
    }
    Ok(())
}
