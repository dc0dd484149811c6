//! A finite, representative set of legal actions: candidates from the
//! queries, each kept only if `decide` accepts it, so the set never holds
//! an action the engine would refuse. A file per phase gathers its
//! candidates.

mod command;
mod final_command;
mod fire;
mod melee;
mod movement;
mod rally;
mod supply;

use super::Gbacw;
use super::action::GbacwAction;
use super::state::GbacwState;
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::CounterId;
use crate::gbacw::sequence::{Phase, Step};
use crate::ids::SeatId;

/// The acting side and its pieces on the map: what every phase's
/// candidates start from.
struct Own<'a> {
    side: &'a CounterId,
    leaders: Vec<(&'a CounterId, HexNumber)>,
    units: Vec<(&'a CounterId, HexNumber)>,
}

impl<'a> Own<'a> {
    fn of(rs: &'a Gbacw, state: &'a GbacwState, side: &'a CounterId) -> Self {
        let oob = &rs.game.oob;
        Own {
            side,
            leaders: state
                .leaders
                .iter()
                .filter(|(id, _)| oob.leaders[*id].side == *side)
                .filter_map(|(id, l)| l.hex.map(|h| (id, h)))
                .collect(),
            units: state
                .units
                .iter()
                .filter(|(id, _)| oob.units[*id].side == *side)
                .filter_map(|(id, u)| u.hex.map(|h| (id, h)))
                .collect(),
        }
    }
}

/// The phase's own actions of `seat` (4.0), when no decision waits
/// (`awaiting::Awaiting::Phase`): none for a seat that does not act.
pub(crate) fn phase_actions(rs: &Gbacw, state: &GbacwState, seat: SeatId) -> Vec<GbacwAction> {
    if rs.acting_seat(state) != Some(seat) {
        return Vec::new();
    }
    let own = Own::of(rs, state, rs.side_of(seat));
    let mut out = vec![GbacwAction::EndPhase];
    let phase = match state.clock.step {
        Step::Phase { phase, .. } => Some(phase),
        _ => None,
    };
    let out_ = &mut out;
    match phase {
        Some(Phase::InitialCommand) => {
            command::reserve_commitments(rs, &own, out_);
            command::command_actions(rs, &own, out_);
        }
        Some(Phase::Movement) => movement::movement_actions(rs, state, &own, out_),
        Some(Phase::DefensiveFire | Phase::OffensiveFire) => {
            fire::fire_actions(rs, state, &own, out_)
        }
        Some(Phase::RetreatBeforeMelee) => {
            melee::engaged_withdrawals(rs, state, &own, out_);
            melee::melee_declarations(rs, state, &own, out_);
        }
        Some(Phase::AmmunitionResupply) => {
            supply::transfers(rs, &own, out_);
            supply::resupplies(rs, state, &own, out_);
        }
        Some(Phase::FinalCommand) => {
            final_command::succession_actions(rs, state, &own, out_);
            final_command::recrew_actions(rs, state, &own, out_);
        }
        Some(Phase::Rally) => rally::rally_actions(state, &own, out_),
        _ => {}
    }
    // Actions that roll are checked against a fixed stream: whether they
    // are legal never depends on the dice.
    out.retain(|a| super::awaiting::accepted(rs, state, seat, a));
    out
}
