//! The Movement Phase's candidates (GBACW 5.0, 6.0): moves, facings,
//! formations, arrivals, whole stacks and stacking orders (8.41).

use super::Own;
use crate::gbacw::facing::Facing;
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, Formation};
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::ruleset::{Gbacw, decide};
use std::collections::BTreeMap;

/// Most move destinations offered per counter beyond its neighbours.
const FAR_TARGETS: usize = 8;

/// The Movement Phase's candidates of `own`.
pub(super) fn movement_actions(
    rs: &Gbacw,
    state: &GbacwState,
    own: &Own<'_>,
    out: &mut Vec<GbacwAction>,
) {
    let stacks = single_moves(rs, state, own, out);
    faces_and_formations(rs, state, own, out);
    // GBACW 5.0 with the scenario's arrivals: reinforcements and exits.
    decide::arrival::candidates(rs, state, own.side, out);
    // Pieces of the battle's own that move (hook `legal_moves`).
    rs.battle().legal_moves(rs, state, own.side, out);
    // Whole stacks, one hex at a time.
    for (hex, pieces) in stacks.into_iter().filter(|(_, p)| p.len() > 1) {
        for (_, n) in rs.game.map.grid.neighbours_on_map(hex) {
            if decide::movement::stop_within_limits(rs, state, own.side, &pieces, n).is_err() {
                continue;
            }
            out.push(GbacwAction::Move {
                pieces: pieces.clone(),
                path: vec![n],
            });
        }
    }
    // GBACW 8.41: any unit but the top one of a stack put on top.
    for unit in crate::gbacw::ruleset::stack_order::candidates(rs, state, own.side, None) {
        out.push(GbacwAction::PutOnTop { unit });
    }
}

/// Whether `id` may move and change formation now: counters a scenario
/// or a battle holds back are left out here rather than refused one by
/// one.
fn free(rs: &Gbacw, state: &GbacwState, id: &CounterId) -> bool {
    rs.battle().held(rs, state, id).is_none()
}

/// Each free piece's moves alone; the pieces by hex, for the stack moves.
fn single_moves(
    rs: &Gbacw,
    state: &GbacwState,
    own: &Own<'_>,
    out: &mut Vec<GbacwAction>,
) -> BTreeMap<HexNumber, Vec<CounterId>> {
    let mut stacks: BTreeMap<HexNumber, Vec<CounterId>> = BTreeMap::new();
    let movers: Vec<(&CounterId, HexNumber)> = own
        .units
        .iter()
        .chain(&own.leaders)
        .copied()
        .filter(|(id, _)| free(rs, state, id))
        .collect();
    for (id, hex) in &movers {
        stacks.entry(*hex).or_default().push((*id).clone());
        moves(rs, state, id, *hex, out);
    }
    stacks
}

/// GBACW 6.1, 6.2: every other facing, and every formation the unit may
/// take.
fn faces_and_formations(rs: &Gbacw, state: &GbacwState, own: &Own<'_>, out: &mut Vec<GbacwAction>) {
    use GbacwAction as A;
    let oob = &rs.game.oob;
    for (id, _) in &own.units {
        let u = &state.units[*id];
        for f in (0..6).filter_map(Facing::from_index) {
            if f != u.facing {
                out.push(A::Face {
                    unit: (*id).clone(),
                    facing: f,
                });
            }
        }
        for to in [
            Formation::Line,
            Formation::Column,
            Formation::Mounted,
            Formation::Dismounted,
            Formation::Limbered,
            Formation::Unlimbered,
        ] {
            if to != u.status.formation
                && to.allowed_for(&oob.units[*id].kind)
                && free(rs, state, id)
            {
                out.push(A::ChangeFormation {
                    unit: (*id).clone(),
                    to,
                });
            }
        }
    }
}

/// Moves of `piece` alone by its cheapest paths: to every neighbour it can
/// enter, and to a spread of farther hexes.
fn moves(
    rs: &Gbacw,
    state: &GbacwState,
    piece: &CounterId,
    start: HexNumber,
    out: &mut Vec<GbacwAction>,
) {
    let Some(reach) = rs.reachable(state, piece) else {
        return;
    };
    let grid = &rs.game.map.grid;
    let (near, far): (Vec<HexNumber>, Vec<HexNumber>) = reach
        .hexes
        .keys()
        .copied()
        .filter(|h| *h != start)
        .partition(|h| grid.distance(start, *h) == 1);
    let stride = far.len().div_ceil(FAR_TARGETS).max(1);
    let targets = near.into_iter().chain(far.into_iter().step_by(stride));
    let oob = &rs.game.oob;
    let side = oob
        .units
        .get(piece)
        .map(|u| &u.side)
        .or_else(|| oob.leaders.get(piece).map(|l| &l.side));
    for to in targets {
        // GBACW 8.0: a stop over the limits is legal mid-phase, but the
        // representative set keeps to stops within them.
        if let Some(side) = side
            && decide::movement::stop_within_limits(
                rs,
                state,
                side,
                std::slice::from_ref(piece),
                to,
            )
            .is_err()
        {
            continue;
        }
        if let Some(path) = reach.path_to(to) {
            out.push(GbacwAction::Move {
                pieces: vec![piece.clone()],
                path: path[1..].to_vec(),
            });
        }
    }
}
