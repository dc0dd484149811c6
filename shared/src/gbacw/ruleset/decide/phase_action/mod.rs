//! A phase's own actions by the phase's actor, when no decision waits:
//! each checked against the phase it belongs to. A file per phase (and
//! one for the answers nothing asked for) holds its actions' checks.

mod command;
mod fire;
mod melee;
mod movement;
mod refused;
mod upkeep;

use super::{sequence, setup};
use crate::engine::{Dice, RuleCode, RuleError};
use crate::gbacw::oob::CounterId;
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::ruleset::{Gbacw, err};
use crate::gbacw::sequence::{Phase, Step};
use crate::ids::SeatId;

/// Who acts, in which phase: what every phase's checks read.
struct Turn<'a> {
    rs: &'a Gbacw,
    state: &'a GbacwState,
    side: &'a CounterId,
    phase: Option<Phase>,
}

impl Turn<'_> {
    /// Refuse `what` outside the phase `want` (naming `rule`).
    fn in_phase(&self, want: Phase, rule: &str, what: &str) -> Result<(), RuleError> {
        if self.phase == Some(want) {
            Ok(())
        } else {
            Err(err(
                rule,
                RuleCode::Illegal,
                format!("{what} only in the {}", want),
            ))
        }
    }
}

/// The refusal of an action sent to a phase's checks that are not its
/// own (the dispatch below never does).
fn not_this_phase() -> RuleError {
    err(
        "GBACW 4.0",
        RuleCode::Illegal,
        "that action is not one of this phase's",
    )
}

/// The part of the game an action belongs to, for the dispatch.
enum Part {
    EndPhase,
    Movement,
    Command,
    Fire,
    Melee,
    Upkeep,
    SetUp,
    /// An answer to a decision, when none waits.
    Answer,
}

/// Which part of the game `action` belongs to.
fn part_of(action: &GbacwAction) -> Part {
    use GbacwAction as A;
    match action {
        A::EndPhase => Part::EndPhase,
        A::Move { .. }
        | A::MoveCrew { .. }
        | A::Face { .. }
        | A::ChangeFormation { .. }
        | A::Arrive { .. }
        | A::ExitMap { .. }
        | A::PutOnTop { .. } => Part::Movement,
        A::SpendCommandPoints { .. }
        | A::Detach { .. }
        | A::Attach { .. }
        | A::CommitReserve { .. } => Part::Command,
        A::DeclareFire { .. } | A::RapidFire { .. } | A::Unfoul { .. } | A::CancelFire { .. } => {
            Part::Fire
        }
        A::DeclareMelee { .. } | A::WithdrawEngaged { .. } | A::DeclareCharge { .. } => Part::Melee,
        A::TransferRounds { .. }
        | A::Resupply { .. }
        | A::ReplaceLeader { .. }
        | A::Recrew { .. }
        | A::Rally { .. } => Part::Upkeep,
        A::PlaceUnit { .. } | A::PlaceLeader { .. } | A::EndSetUp => Part::SetUp,
        A::WithdrawalFire { .. }
        | A::DeclineWithdrawalFire
        | A::RetreatFire { .. }
        | A::DeclineRetreatFire
        | A::Advance { .. }
        | A::DeclineAdvance
        | A::RetreatBatteries { .. }
        | A::DeclineBatteryRetreat
        | A::LeaderRout { .. }
        | A::StackOrderDone
        | A::ChoosePromotion { .. }
        | A::Retreat { .. }
        | A::RetreatBeforeMelee { .. }
        | A::StandFast
        | A::SolitaireRoll
        | A::BarrageFire { .. }
        | A::EndBarrage
        | A::PlotAssault { .. } => Part::Answer,
    }
}

/// A phase's own action by the phase's actor (`seat`, checked by the
/// caller), when no decision waits: each checked against the phase it
/// belongs to.
pub(crate) fn phase_action(
    rs: &Gbacw,
    state: &GbacwState,
    seat: SeatId,
    action: &GbacwAction,
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let side = rs.side_of(seat);
    let phase = match state.clock.step {
        Step::Phase { phase, .. } => Some(phase),
        _ => None,
    };
    let turn = Turn {
        rs,
        state,
        side,
        phase,
    };
    // What the battle forbids of any action now (hook `check_action`).
    rs.battle().check_action(rs, state, side, action)?;
    match part_of(action) {
        Part::EndPhase => {
            let mut events = sequence::end_phase(rs, state, side, dice)?;
            // The battle's own end of a phase (hook `at_phase_end`).
            events.extend(rs.battle().at_phase_end(rs, state));
            Ok(events)
        }
        Part::Movement => {
            let events = movement::decide(&turn, action)?;
            // GBACW 8.0: no action may leave a stack this phase's moves
            // over-stacked beyond mending before the phase ends.
            crate::gbacw::ruleset::decide::movement::keeps_stacks_mendable(
                rs, state, side, &events,
            )?;
            Ok(events)
        }
        Part::Command => command::decide(&turn, action, dice),
        Part::Fire => fire::decide(&turn, action, dice),
        Part::Melee => melee::decide(&turn, action, dice),
        Part::Upkeep => upkeep::decide(&turn, action, dice),
        Part::SetUp => setup::decide(rs, state, seat, action),
        Part::Answer => Err(refused::nothing_asked(rs, action)),
    }
}
