//! A finite, representative set of legal actions: candidates from the
//! queries, each kept only if `decide` accepts it, so the set never holds
//! an action the engine would refuse.

use super::Gbacw;
use super::action::GbacwAction;
use super::decide;
use super::state::GbacwState;
use crate::gbacw::facing::Facing;
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, Formation, LeaderRole};
use crate::gbacw::sequence::{Phase, Step};
use crate::ids::SeatId;
use std::collections::BTreeMap;

/// Most move destinations offered per counter beyond its neighbours.
const FAR_TARGETS: usize = 8;

pub(crate) fn legal_actions(rs: &Gbacw, state: &GbacwState, seat: SeatId) -> Vec<GbacwAction> {
    use GbacwAction as A;
    if state.over {
        return Vec::new();
    }
    if let Some(d) = &state.decision {
        // Firing is not resolved yet (part 2): declining is the answer.
        return if d.seat == seat {
            vec![A::DeclineWithdrawalFire]
        } else {
            Vec::new()
        };
    }
    if rs.acting_seat(state) != Some(seat) {
        return Vec::new();
    }
    // Cedar Mountain 26.2: the set-up step.
    if state.progress.setting_up.is_some() {
        return decide::setup::legal(rs, state, seat);
    }
    let side = rs.side_of(seat);
    let oob = &rs.game.oob;
    let mut out = vec![A::EndPhase];
    let own_leaders: Vec<(&CounterId, HexNumber)> = state
        .leaders
        .iter()
        .filter(|(id, _)| oob.leaders[*id].side == *side)
        .filter_map(|(id, l)| l.hex.map(|h| (id, h)))
        .collect();
    let own_units: Vec<(&CounterId, HexNumber)> = state
        .units
        .iter()
        .filter(|(id, _)| oob.units[*id].side == *side)
        .filter_map(|(id, u)| u.hex.map(|h| (id, h)))
        .collect();
    let phase = match state.clock.step {
        Step::Phase { phase, .. } => Some(phase),
        _ => None,
    };
    match phase {
        Some(Phase::InitialCommand) => {
            let is = |id: &CounterId, division: bool| {
                matches!(
                    (&oob.leaders[id].role, division),
                    (LeaderRole::Division { .. }, true) | (LeaderRole::Brigade { .. }, false)
                )
            };
            for (b, _) in own_leaders.iter().filter(|(id, _)| is(id, false)) {
                out.push(A::Detach {
                    brigade: (*b).clone(),
                });
                for (d, _) in own_leaders.iter().filter(|(id, _)| is(id, true)) {
                    out.push(A::SpendCommandPoints {
                        division: (*d).clone(),
                        brigade: (*b).clone(),
                        points: 1,
                    });
                    out.push(A::Attach {
                        brigade: (*b).clone(),
                        division: (*d).clone(),
                    });
                }
            }
        }
        Some(Phase::Movement) => {
            let mut stacks: BTreeMap<HexNumber, Vec<CounterId>> = BTreeMap::new();
            for (id, hex) in own_units.iter().chain(&own_leaders) {
                stacks.entry(*hex).or_default().push((*id).clone());
                moves(rs, state, id, *hex, &mut out);
            }
            for (id, _) in &own_units {
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
                    if to != u.status.formation && to.allowed_for(&oob.units[*id].kind) {
                        out.push(A::ChangeFormation {
                            unit: (*id).clone(),
                            to,
                        });
                    }
                }
            }
            // Cedar Mountain 26.4, 27.23: reinforcements and exits.
            decide::arrival::candidates(rs, state, side, &mut out);
            // Whole stacks, one hex at a time.
            for (hex, pieces) in stacks.into_iter().filter(|(_, p)| p.len() > 1) {
                for (_, n) in rs.game.map.grid.neighbours_on_map(hex) {
                    out.push(A::Move {
                        pieces: pieces.clone(),
                        path: vec![n],
                    });
                }
            }
        }
        _ => {}
    }
    out.retain(|a| decide::decide(rs, state, seat, a).is_ok());
    out
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
    for to in targets {
        if let Some(path) = reach.path_to(to) {
            out.push(GbacwAction::Move {
                pieces: vec![piece.clone()],
                path: path[1..].to_vec(),
            });
        }
    }
}
