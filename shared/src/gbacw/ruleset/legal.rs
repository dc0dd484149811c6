//! A finite, representative set of legal actions: candidates from the
//! queries, each kept only if `decide` accepts it, so the set never holds
//! an action the engine would refuse.

use super::Gbacw;
use super::action::GbacwAction;
use super::decide;
use super::state::GbacwState;
use crate::gbacw::facing::Facing;
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, Formation, LeaderRole, Marker, UnitKind};
use crate::gbacw::ruleset::state::FireShare;
use crate::gbacw::sequence::{Phase, Step};
use crate::ids::SeatId;
use std::collections::BTreeMap;

/// Most move destinations offered per counter beyond its neighbours.
const FAR_TARGETS: usize = 8;

/// The phase's own actions of `seat` (4.0), when no decision waits
/// (`awaiting::Awaiting::Phase`): none for a seat that does not act.
pub(crate) fn phase_actions(rs: &Gbacw, state: &GbacwState, seat: SeatId) -> Vec<GbacwAction> {
    use GbacwAction as A;
    if rs.acting_seat(state) != Some(seat) {
        return Vec::new();
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
            // Corinth 30.34: commitment attempts.
            if rs.game.scenario.reserves.side.as_ref() == Some(side) {
                for r in &rs.game.scenario.reserves.list {
                    out.push(A::CommitReserve {
                        reserve: r.id.clone(),
                    });
                }
            }
            let is = |id: &CounterId, division: bool| {
                matches!(
                    (&oob.leaders[id].role, division),
                    (LeaderRole::Division { .. }, true) | (LeaderRole::Brigade { .. }, false)
                )
            };
            // Cedar Mountain 25.1, 25.2: army commanders' points, one at a
            // time, to each division commander (refused where the battle
            // has no such rule).
            for (a, _) in own_leaders
                .iter()
                .filter(|(id, _)| matches!(oob.leaders[*id].role, LeaderRole::Army { .. }))
            {
                for (d, _) in own_leaders.iter().filter(|(id, _)| is(id, true)) {
                    out.push(A::SpendCommandPoints {
                        division: (*a).clone(),
                        brigade: (*d).clone(),
                        points: 1,
                    });
                }
            }
            for (b, _) in own_leaders.iter().filter(|(id, _)| is(id, false)) {
                out.push(A::Detach {
                    brigade: (*b).clone(),
                });
                // Corinth 28.11: army commanders' points on brigade
                // commanders (refused where the battle has no such rule).
                for (a, _) in own_leaders
                    .iter()
                    .filter(|(id, _)| matches!(oob.leaders[*id].role, LeaderRole::Army { .. }))
                {
                    out.push(A::SpendCommandPoints {
                        division: (*a).clone(),
                        brigade: (*b).clone(),
                        points: 1,
                    });
                }
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
            // Corinth 30.0, 30.32: held counters neither move nor change
            // formation (left out here rather than refused one by one).
            let free = |id: &CounterId| decide::restraint::held(rs, state, id).is_none();
            let movers: Vec<(&CounterId, HexNumber)> = own_units
                .iter()
                .chain(&own_leaders)
                .copied()
                .filter(|(id, _)| free(id))
                .collect();
            for (id, hex) in &movers {
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
                    if to != u.status.formation && to.allowed_for(&oob.units[*id].kind) && free(id)
                    {
                        out.push(A::ChangeFormation {
                            unit: (*id).clone(),
                            to,
                        });
                    }
                }
            }
            // Cedar Mountain 26.4, 27.23: reinforcements and exits.
            decide::arrival::candidates(rs, state, side, &mut out);
            // Corinth 24.21: crews away from their guns.
            rs.battle().legal_moves(rs, state, side, &mut out);
            // Whole stacks, one hex at a time.
            for (hex, pieces) in stacks.into_iter().filter(|(_, p)| p.len() > 1) {
                for (_, n) in rs.game.map.grid.neighbours_on_map(hex) {
                    if decide::movement::stop_within_limits(rs, state, side, &pieces, n).is_err() {
                        continue;
                    }
                    out.push(A::Move {
                        pieces: pieces.clone(),
                        path: vec![n],
                    });
                }
            }
        }
        Some(Phase::DefensiveFire | Phase::OffensiveFire) => {
            fire_declarations(rs, state, side, &own_units, &mut out);
            if !state.fire_plan.is_empty() {
                out.push(A::CancelFire { index: 0 });
            }
            // Corinth 24.1: rapid fire and unfouling.
            rs.battle().legal_fire(rs, state, side, &mut out);
        }
        Some(Phase::RetreatBeforeMelee) => {
            // GBACW 12.94 option 3: each engaged stack along its first
            // two-hex way back.
            let mut engaged: BTreeMap<HexNumber, Vec<CounterId>> = BTreeMap::new();
            for (id, at) in &own_units {
                if state.units[*id].status.markers.contains(&Marker::Engaged) {
                    engaged.entry(*at).or_default().push((*id).clone());
                }
            }
            for units in engaged.into_values() {
                let paths = crate::gbacw::ruleset::combat::effects::retreat_options(
                    rs,
                    state,
                    &units[0],
                    crate::gbacw::ruleset::combat::engaged::WITHDRAW_HEXES,
                    crate::gbacw::retreat::RetreatKind::MeleeResult,
                );
                if let Some(path) = paths.into_iter().next() {
                    out.push(A::WithdrawEngaged { units, path });
                }
            }
            // GBACW 12.0: each unit alone against each adjacent enemy hex;
            // Corinth 22.4: a lone enemy crew's hex too (the decision
            // refuses it where the battle does not melee lone crews).
            let crews = rs.battle().enemy_pieces(rs, state, side);
            for (id, at) in &own_units {
                for (_, n) in rs.game.map.grid.neighbours_on_map(*at) {
                    if crews.contains(&n)
                        || state
                            .units
                            .iter()
                            .any(|(e, u)| u.hex == Some(n) && oob.units[e].side != *side)
                    {
                        out.push(A::DeclareMelee {
                            target: n,
                            attackers: vec![(*id).clone()],
                        });
                        // GBACW 16.2: mounted cavalry may charge instead.
                        if state.units[*id].status.formation == Formation::Mounted {
                            out.push(A::DeclareCharge {
                                target: n,
                                attackers: vec![(*id).clone()],
                            });
                        }
                    }
                }
            }
        }
        Some(Phase::AmmunitionResupply) => {
            // GBACW 11.33: one round between each pair of batteries.
            let batteries: Vec<&CounterId> = own_units
                .iter()
                .filter(|(id, _)| matches!(oob.units[*id].kind, UnitKind::Battery { .. }))
                .map(|(id, _)| *id)
                .collect();
            for from in &batteries {
                for to in batteries.iter().filter(|b| *b != from) {
                    out.push(A::TransferRounds {
                        from: (*from).clone(),
                        to: (*to).clone(),
                        rounds: 1,
                    });
                }
            }
            for (w, _) in own_units
                .iter()
                .filter(|(id, _)| matches!(oob.units[*id].kind, UnitKind::Wagon { .. }))
            {
                for (u, _) in &own_units {
                    let st = &state.units[*u].status;
                    let wants = st.markers.contains(&Marker::AmmoDepleted)
                        || matches!(oob.units[*u].kind, UnitKind::Battery { rounds } if st.rounds < rounds);
                    if wants {
                        out.push(A::Resupply {
                            wagon: (*w).clone(),
                            unit: (*u).clone(),
                        });
                    }
                }
            }
        }
        Some(Phase::FinalCommand) => {
            // GBACW 17.8: each successor on each unit of his command (up
            // to four hexes).
            use crate::gbacw::ruleset::combat::succession;
            for lost in succession::waiting(rs, state, side) {
                for hex in succession::places(rs, state, &lost).into_iter().take(4) {
                    out.push(A::ReplaceLeader {
                        lost: lost.clone(),
                        hex,
                    });
                }
            }
        }
        Some(Phase::Rally) => {
            for (id, _) in &own_units {
                // Corinth 24.21: a crew away that has rallied walks back.
                if state.units[*id].status.markers.contains(&Marker::Rout)
                    && !state.crews_rallied.contains(*id)
                {
                    out.push(A::Rally {
                        unit: (*id).clone(),
                    });
                }
            }
        }
        _ => {}
    }
    // Actions that roll are checked against a fixed stream: whether they
    // are legal never depends on the dice.
    out.retain(|a| super::awaiting::accepted(rs, state, seat, a));
    out
}

/// Most enemy hexes each unit is offered to fire at, nearest first.
const FIRE_TARGETS: usize = 4;

/// GBACW 9.0: each unit alone at each of the nearest enemy hexes in its
/// weapon's range, with its whole strength; `decide` sorts out the rest
/// (facing, sight, 9.44, 7.21).
fn fire_declarations(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    own_units: &[(&CounterId, HexNumber)],
    out: &mut Vec<GbacwAction>,
) {
    let game = &rs.game;
    let mut enemy_hexes: Vec<HexNumber> = state
        .units
        .iter()
        .filter(|(id, _)| game.oob.units[*id].side != *side)
        .filter_map(|(_, u)| u.hex)
        .collect();
    // Corinth 24.12: lone crews away from their guns are targets too.
    enemy_hexes.extend(rs.battle().enemy_pieces(rs, state, side));
    enemy_hexes.sort();
    enemy_hexes.dedup();
    for (id, at) in own_units {
        let u = &state.units[*id];
        let Some(weapon) = game.oob.units[*id]
            .weapon
            .as_deref()
            .and_then(|w| game.charts.range.weapon(w))
        else {
            continue;
        };
        if u.status.strength == 0 {
            continue;
        }
        let mut near: Vec<(u32, HexNumber)> = enemy_hexes
            .iter()
            .map(|h| (game.map.grid.distance(*at, *h), *h))
            .filter(|(d, _)| *d <= weapon.max_range())
            .collect();
        near.sort();
        for (_, target) in near.into_iter().take(FIRE_TARGETS) {
            out.push(GbacwAction::DeclareFire {
                target,
                firers: vec![FireShare {
                    unit: (*id).clone(),
                    points: u.status.strength,
                }],
            });
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
