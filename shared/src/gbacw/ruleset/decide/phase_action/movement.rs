//! The Movement Phase's actions (GBACW 5.0, 6.0), arrivals and exits.

use super::{Turn, not_this_phase};
use crate::engine::{RuleCode, RuleError};
use crate::gbacw::facing::{Facing, FacingMoment, may_change_facing};
use crate::gbacw::oob::CounterId;
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::decide::{arrival, check_free, formation, movement};
use crate::gbacw::ruleset::err;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::sequence::Phase;

/// The checks of this part's actions.
pub(super) fn decide(turn: &Turn<'_>, action: &GbacwAction) -> Result<Vec<GbacwEvent>, RuleError> {
    use GbacwAction as A;
    let (rs, state, side) = (turn.rs, turn.state, turn.side);
    match action {
        A::Move { pieces, path } => {
            turn.in_phase(Phase::Movement, "GBACW 5.0", "units move")?;
            // Counters the scenario or the battle holds back.
            check_free(rs, state, &pieces.iter().collect::<Vec<_>>(), "move")?;
            // Hexes the battle keeps clear (hook `check_move_path`).
            rs.battle().check_move_path(rs, state, side, path)?;
            // The battle's own limits on a move (hooks `check_move`,
            // `check_pieces_move`).
            rs.battle().check_move(rs, state, pieces, path)?;
            rs.battle().check_pieces_move(rs, state, pieces)?;
            let plan = movement::plan(rs, state, side, pieces, path)?;
            let events = movement::execute(rs, state, &plan, false);
            // GBACW 8.0: a stop over the limits must stay mendable.
            movement::check_overstack_stop(rs, state, side, &plan, &events)?;
            Ok(events)
        }
        A::MoveCrew { battery, path } => {
            turn.in_phase(Phase::Movement, "GBACW 5.0", "crews move")?;
            rs.battle().move_own_piece(rs, state, side, battery, path)
        }
        A::Face { unit, facing } => face(turn, unit, *facing),
        A::ChangeFormation { unit, to } => {
            turn.in_phase(Phase::Movement, "GBACW 6.22", "units change formation")?;
            check_free(rs, state, &[unit], "change formation")?;
            // The battle's own limits on a formation change (hook
            // `check_formation_order`).
            rs.battle().check_formation_order(rs, state, unit, *to)?;
            formation::change(rs, state, side, unit, *to)
        }
        A::Arrive { piece, hex, facing } => {
            turn.in_phase(
                Phase::Movement,
                &rs.case_rule("26.41"),
                "reinforcements enter",
            )?;
            arrival::arrive(rs, state, side, piece, *hex, *facing)
        }
        // GBACW 8.41: "Units may stack, or change their stacking order,
        // only during a Friendly Movement Phase" (the Fire Phase's
        // exception is a decision of its own: `awaiting::restack`).
        A::PutOnTop { unit } => {
            turn.in_phase(Phase::Movement, "GBACW 8.41", "the stacking order changes")?;
            crate::gbacw::ruleset::stack_order::put_on_top(rs, state, side, unit)
        }
        A::ExitMap { unit } => {
            turn.in_phase(
                Phase::Movement,
                &rs.case_rule("27.23"),
                "units leave the map",
            )?;
            arrival::exit(rs, state, side, unit)
        }
        _ => Err(not_this_phase()),
    }
}

/// GBACW 6.1: a change of facing, in the moments 6.1 allows.
fn face(turn: &Turn<'_>, unit: &CounterId, facing: Facing) -> Result<Vec<GbacwEvent>, RuleError> {
    let (rs, state, side, phase) = (turn.rs, turn.state, turn.side, turn.phase);
    let moment = FacingMoment {
        phase: phase.unwrap_or(Phase::InitialCommand),
        own_player_turn: rs.phasing_side(state.clock) == Some(side),
        after_melee: false,
    };
    may_change_facing(moment).map_err(|rule| {
        err(
            rule,
            RuleCode::Illegal,
            "units change facing only in their own Movement Phase (or after melee)",
        )
    })?;
    formation::face(rs, state, side, unit, facing)
}
