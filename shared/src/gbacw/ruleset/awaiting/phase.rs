//! GBACW 4.0: no decision waits; the phase's actor takes the phase's own
//! actions (the phasing player's, the other one's in the Defensive Fire
//! Phase). The actions themselves are `decide::phase_action`'s and
//! `legal::phase_actions`'s.

use crate::engine::{ActionContext, Dice, RuleCode, RuleError};
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::ruleset::{Gbacw, combat, decide, err};
use crate::gbacw::sequence::{Phase, Step};
use crate::ids::SeatId;

/// The phase's actor; `None` in an interphase.
pub(super) fn seat(rs: &Gbacw, state: &GbacwState) -> Option<SeatId> {
    let (player, non_phasing) = match state.clock.step {
        Step::Phase { player, phase } => (player, phase.non_phasing_acts()),
        // An exclusive rule's phase: the phasing player runs it.
        Step::ExtraPhase { player, .. } => (player, false),
        Step::Interphase { .. } | Step::GameTurnRecord => return None,
    };
    let phasing = rs.side_of_turn(player);
    let side = if non_phasing {
        rs.enemy_of(phasing)
    } else {
        phasing
    };
    Some(rs.seat_of(side))
}

/// "Union: Movement Phase".
pub(super) fn prompt(rs: &Gbacw, state: &GbacwState) -> String {
    let step = rs.game.sequence.step_name(state.clock.step);
    match seat(rs, state) {
        Some(s) => format!(
            "{}: {step}",
            crate::gbacw::words::side_name(rs, rs.side_of(s))
        ),
        None => step,
    }
}

/// Which of the phase's actions roll dice: the end of a phase that
/// resolves fire (9.42), melee, heat (Cedar Mountain 23.0) or night
/// stragglers (Corinth 26.2); unfouling (Corinth 24.1); a rally by die
/// (13.54); a withdrawal of engaged units (12.94 option 3: each checks
/// morale); a reserve's commitment (Corinth 30.34).
pub(super) fn rolls(
    rs: &Gbacw,
    state: &GbacwState,
    ctx: &ActionContext,
    action: &GbacwAction,
) -> bool {
    match action {
        GbacwAction::EndPhase => {
            state.decision.is_none()
                && state.rbm.is_none()
                && (rs.battle().turn_skip_roll_due(rs, state)
                    || rs.battle().between_steps_roll(
                        rs,
                        state,
                        decide::turns::next_step(rs, state.clock),
                    )
                    || match state.clock.step {
                        Step::Phase {
                            phase: Phase::DefensiveFire | Phase::OffensiveFire,
                            ..
                        } => !state.fire_plan.is_empty(),
                        Step::Phase {
                            phase: Phase::Melee,
                            ..
                        } => decide::melee_due(state),
                        // GBACW 8.0 under `overstack-displaced`: the
                        // displaced check morale.
                        Step::Phase {
                            phase: Phase::Movement,
                            ..
                        } => rs
                            .phasing_side(state.clock)
                            .is_some_and(|side| !decide::excess_due(rs, state, side).is_empty()),
                        _ => false,
                    })
        }
        GbacwAction::Unfoul { .. } => true,
        GbacwAction::Rally { unit } => combat::rally::rolls(rs, state, rs.side_of(ctx.seat), unit),
        GbacwAction::WithdrawEngaged { units, .. } => {
            state.decision.is_none()
                && state.rbm.is_none()
                && state.retreats.is_empty()
                && !units.is_empty()
        }
        GbacwAction::CommitReserve { .. } => rs.battle().commit_reserve_rolls(rs, state),
        _ => false,
    }
}

/// Only the phase's actor acts; then the action is the phase's.
pub(super) fn decide(
    rs: &Gbacw,
    state: &GbacwState,
    seat: SeatId,
    action: &GbacwAction,
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let acting = self::seat(rs, state);
    if acting != Some(seat) {
        return Err(err(
            "GBACW 4.0",
            RuleCode::NotYourTurn,
            match acting {
                Some(s) => format!(
                    "{} is to act in the {}",
                    crate::gbacw::words::seat_name(rs, s),
                    rs.game.sequence.step_name(state.clock.step)
                ),
                None => "no one acts now".to_string(),
            },
        ));
    }
    decide::phase_action(rs, state, seat, action, dice)
}
