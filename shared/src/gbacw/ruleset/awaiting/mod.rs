//! What the game waits for now: one typed value ([`Awaiting`]) computed
//! from the state by [`awaiting`], in one order of precedence. Each kind
//! lives in its own module and owns, side by side, who answers, the
//! prompt in words, the legal answers, whether an answer rolls dice, the
//! default on a timeout and how an answer is decided. `Gbacw::acting_seat`,
//! `pending`, `legal_actions`, `rolls_dice` and `decide` are dispatches
//! over it.
//!
//! The order (the first that holds is what the game waits for):
//! the game's end; Corinth 29.2's plot (29.51: the solitaire roll in its
//! place); Cedar Mountain 26.2's set-up; Corinth 29.53's solitaire roll;
//! GBACW 10.1's withdrawal-fire offer; 12.8's retreat-before-melee offer;
//! 10.2's retreat-fire offer; 13.43's leader choice when his stack's top
//! unit routs; 14.4's retreat path; 12.85's advance;
//! Corinth 25.26's battery retreat; 8.41's change of stacking order
//! after a Fire Phase; Corinth 26.4's Pre-Dawn Barrage; Corinth 28.32's
//! choice on a tie for a division's command (in the owner's Final
//! Command Phase); and else the phase's own actions (4.0).

mod advance;
mod barrage;
mod battery_retreat;
mod leader_rout;
mod over;
mod phase;
mod plot;
mod promotion;
mod rbm;
mod restack;
mod retreat_fire;
mod retreat_path;
mod setup;
mod solitaire;
mod withdrawal_fire;

use super::action::GbacwAction;
use super::event::GbacwEvent;
use super::exclusive::{Barrage, BatteryRetreatOffer};
use super::state::{
    AdvanceOffer, GbacwState, LeaderRoutOffer, RbmOffer, RestackOffer, RetreatFireOffer,
    RetreatOrder, WithdrawalDecision,
};
use super::{Gbacw, plan};
use crate::engine::{ActionContext, Dice, PendingDecision, RuleError};
use crate::gbacw::oob::CounterId;
use crate::ids::SeatId;

/// What the game waits for now, and from whom (see the module's order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Awaiting<'s> {
    /// GBACW 4.0: the last Game-Turn is over; no one acts.
    Over,
    /// Corinth 29.2: the Confederate assault is plotted (29.51: rolled,
    /// in the solitaire version).
    Plot,
    /// Cedar Mountain 26.2: `side` sets up before Game-Turn 1.
    SetUp(&'s CounterId),
    /// Corinth 29.53: the solitaire Division Arrival roll.
    SolitaireRoll,
    /// GBACW 10.1: withdrawal fire offered.
    WithdrawalFire(&'s WithdrawalDecision),
    /// GBACW 12.8: a melee declared; retreat before it or stand.
    RetreatBeforeMelee(&'s RbmOffer),
    /// GBACW 10.2: retreat fire offered.
    RetreatFire(&'s RetreatFireOffer),
    /// GBACW 13.43: a leader goes with his stack's routed top unit or
    /// stays.
    LeaderRout(&'s LeaderRoutOffer),
    /// GBACW 14.4: a retreat's path to choose.
    RetreatPath(&'s RetreatOrder),
    /// GBACW 12.85: the advance into a vacated hex, or not.
    Advance(&'s AdvanceOffer),
    /// Corinth 25.26: a retreating brigade's batteries may retreat.
    BatteryRetreat(&'s BatteryRetreatOffer),
    /// GBACW 8.41: a stack's top unit ran out of ammunition in the Fire
    /// Phase just ended; its owner may change the order.
    Restack(&'s RestackOffer),
    /// Corinth 26.4: the Pre-Dawn Barrage.
    Barrage(&'s Barrage),
    /// Corinth 28.32: brigade commanders tie for the command of the
    /// division this lost leader led; his owner chooses.
    Promotion(&'s CounterId),
    /// GBACW 4.0: the phase's own actions, by the phase's actor.
    Phase,
}

/// What the game waits for in `state`: the one place the order of
/// precedence is written.
pub fn awaiting<'s>(rs: &Gbacw, state: &'s GbacwState) -> Awaiting<'s> {
    use Awaiting as W;
    if state.over {
        W::Over
    } else if plan::plot_pending(rs, state) {
        W::Plot
    } else if let Some(side) = &state.progress.setting_up {
        W::SetUp(side)
    } else if rs.battle().roll_due(rs, state) {
        W::SolitaireRoll
    } else if let Some(d) = &state.decision {
        W::WithdrawalFire(d)
    } else if let Some(r) = &state.rbm {
        W::RetreatBeforeMelee(r)
    } else if let Some(o) = state.retreat_fire.first() {
        W::RetreatFire(o)
    } else if let Some(o) = state.leader_routs.first() {
        W::LeaderRout(o)
    } else if let Some(o) = state.retreats.first() {
        W::RetreatPath(o)
    } else if let Some(a) = &state.advance {
        W::Advance(a)
    } else if let Some(o) = &state.battery_retreat {
        W::BatteryRetreat(o)
    } else if let Some(o) = &state.restack {
        W::Restack(o)
    } else if let Some(b) = &state.night.barrage {
        W::Barrage(b)
    } else if let Some(lost) = promotion::due(rs, state) {
        W::Promotion(lost)
    } else {
        W::Phase
    }
}

impl Awaiting<'_> {
    /// The seat that answers; `None` once the game is over (or in an
    /// interphase).
    pub fn seat(&self, rs: &Gbacw, state: &GbacwState) -> Option<SeatId> {
        use Awaiting as W;
        match *self {
            W::Over => None,
            W::Plot => plot::seat(rs),
            W::SetUp(side) => Some(rs.seat_of(side)),
            W::SolitaireRoll => solitaire::seat(rs),
            W::WithdrawalFire(d) => Some(d.seat),
            W::RetreatBeforeMelee(r) => Some(r.seat),
            W::RetreatFire(o) => Some(o.seat),
            W::LeaderRout(o) => Some(o.seat),
            W::RetreatPath(o) => Some(o.seat),
            W::Advance(a) => Some(a.seat),
            W::BatteryRetreat(o) => Some(o.seat),
            W::Restack(o) => Some(o.seat),
            W::Barrage(b) => Some(rs.seat_of(&b.side)),
            W::Promotion(lost) => promotion::seat(rs, lost),
            W::Phase => phase::seat(rs, state),
        }
    }

    /// What the seat is asked, in words for people (printed names, hex
    /// numbers, the rulebook's phases).
    pub fn prompt(&self, rs: &Gbacw, state: &GbacwState) -> String {
        use Awaiting as W;
        match *self {
            W::Over => over::prompt(),
            W::Plot => plot::prompt(rs),
            W::SetUp(side) => setup::prompt(rs, side),
            W::SolitaireRoll => solitaire::prompt(state),
            W::WithdrawalFire(d) => withdrawal_fire::prompt(rs, d),
            W::RetreatBeforeMelee(r) => rbm::prompt(rs, r),
            W::RetreatFire(o) => retreat_fire::prompt(rs, o),
            W::LeaderRout(o) => leader_rout::prompt(rs, o),
            W::RetreatPath(o) => retreat_path::prompt(rs, o),
            W::Advance(a) => advance::prompt(a),
            W::BatteryRetreat(o) => battery_retreat::prompt(rs, o),
            W::Restack(o) => restack::prompt(rs, state, o),
            W::Barrage(_) => barrage::prompt(),
            W::Promotion(lost) => promotion::prompt(rs, state, lost),
            W::Phase => phase::prompt(rs, state),
        }
    }

    /// The decision with its default on a timeout; `None` for the phase's
    /// own actions (no one is timed out of a phase) and the game's end.
    pub fn pending(&self, rs: &Gbacw, state: &GbacwState) -> Option<PendingDecision<GbacwAction>> {
        use Awaiting as W;
        match *self {
            W::Over | W::Phase => None,
            W::Plot => plot::pending(rs),
            W::SetUp(side) => Some(setup::pending(rs, side)),
            W::SolitaireRoll => solitaire::pending(rs, state),
            W::WithdrawalFire(d) => Some(withdrawal_fire::pending(rs, d)),
            W::RetreatBeforeMelee(r) => Some(rbm::pending(rs, state, r)),
            W::RetreatFire(o) => Some(retreat_fire::pending(rs, o)),
            W::LeaderRout(o) => Some(leader_rout::pending(rs, o)),
            W::RetreatPath(o) => Some(retreat_path::pending(rs, state, o)),
            W::Advance(a) => Some(advance::pending(a)),
            W::BatteryRetreat(o) => Some(battery_retreat::pending(rs, o)),
            W::Restack(o) => Some(restack::pending(rs, state, o)),
            W::Barrage(b) => Some(barrage::pending(rs, b)),
            W::Promotion(lost) => promotion::pending(rs, state, lost),
        }
    }

    /// Issue 18: whether an answer given now may later be taken back by
    /// the seat that gave it. Set-up placements and the phase's own
    /// actions may (the engine still refuses anything that rolled or
    /// revealed hidden information); an answer to a decision asked in the
    /// middle of another seat's action may not: that seat was waiting on
    /// it and has been told. The plot is hidden, the game's end final.
    pub fn may_take_back(&self) -> bool {
        matches!(self, Awaiting::SetUp(_) | Awaiting::Phase)
    }

    /// The legal answers of `seat` (none for a seat not asked).
    pub(crate) fn legal(&self, rs: &Gbacw, state: &GbacwState, seat: SeatId) -> Vec<GbacwAction> {
        use Awaiting as W;
        match *self {
            W::Over => Vec::new(),
            W::Plot => plot::legal(rs, seat),
            W::SetUp(_) => super::decide::setup::legal(rs, state, seat),
            W::SolitaireRoll => solitaire::legal(rs, seat),
            W::WithdrawalFire(d) => withdrawal_fire::legal(rs, state, d, seat),
            W::RetreatBeforeMelee(r) => rbm::legal(rs, state, r, seat),
            W::RetreatFire(o) => retreat_fire::legal(rs, state, o, seat),
            W::LeaderRout(o) => leader_rout::legal(rs, state, o, seat),
            W::RetreatPath(o) => retreat_path::legal(rs, state, o, seat),
            W::Advance(a) => advance::legal(rs, state, a, seat),
            W::BatteryRetreat(o) => battery_retreat::legal(o, seat),
            W::Restack(o) => restack::legal(rs, state, o, seat),
            W::Barrage(b) => barrage::legal(rs, state, b, seat),
            W::Promotion(lost) => promotion::legal(rs, state, lost, seat),
            W::Phase => super::legal::phase_actions(rs, state, seat),
        }
    }

    /// `seat`'s `action` decided against what the game waits for.
    pub(crate) fn decide(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        seat: SeatId,
        action: &GbacwAction,
        dice: &mut Dice,
    ) -> Result<Vec<GbacwEvent>, RuleError> {
        use Awaiting as W;
        match *self {
            W::Over => over::decide(),
            W::Plot => plot::decide(rs, state, seat, action, dice),
            W::SetUp(_) => super::decide::setup::decide(rs, state, seat, action),
            // Corinth 29.53: the roll is refused while it is not due.
            _ if matches!(action, GbacwAction::SolitaireRoll) && *self != W::SolitaireRoll => {
                Err(solitaire::not_due(rs))
            }
            W::SolitaireRoll => solitaire::decide(rs, state, seat, action, dice),
            // GBACW 8.41: a change of order asked for out of turn is
            // refused by the rule on when orders change.
            W::Phase
                if matches!(
                    action,
                    GbacwAction::PutOnTop { .. } | GbacwAction::StackOrderDone
                ) && phase::seat(rs, state) != Some(seat) =>
            {
                Err(restack::not_offered())
            }
            W::WithdrawalFire(d) => withdrawal_fire::decide(rs, state, d, seat, action, dice),
            W::RetreatBeforeMelee(r) => rbm::decide(rs, state, r, seat, action, dice),
            W::RetreatFire(o) => retreat_fire::decide(rs, state, o, seat, action, dice),
            W::LeaderRout(o) => leader_rout::decide(rs, state, o, seat, action),
            W::RetreatPath(o) => retreat_path::decide(rs, state, o, seat, action, dice),
            W::Advance(a) => advance::decide(rs, state, a, seat, action),
            W::BatteryRetreat(o) => battery_retreat::decide(rs, state, o, seat, action, dice),
            W::Restack(o) => restack::decide(rs, state, o, seat, action),
            W::Barrage(_) => barrage::decide(rs, state, seat, action, dice),
            W::Promotion(lost) => promotion::decide(rs, state, lost, seat, action),
            W::Phase => phase::decide(rs, state, seat, action, dice),
        }
    }
}

/// Whether `action` rolls dice: asked of the kind the action answers
/// (each answers only while its offer stands).
pub(crate) fn rolls(
    rs: &Gbacw,
    state: &GbacwState,
    ctx: &ActionContext,
    action: &GbacwAction,
) -> bool {
    use GbacwAction as A;
    match action {
        // Corinth 29.51, 29.53: the solitaire assault's dice.
        A::SolitaireRoll => true,
        A::WithdrawalFire { .. } | A::DeclineWithdrawalFire => {
            withdrawal_fire::rolls(state, action)
        }
        A::RetreatBeforeMelee { units, .. } => rbm::rolls(rs, state, units),
        A::RetreatFire { .. } | A::DeclineRetreatFire => retreat_fire::rolls(rs, state, action),
        A::Retreat { unit, path } => retreat_path::rolls(rs, state, unit, path),
        A::RetreatBatteries { .. } => battery_retreat::rolls(state),
        A::BarrageFire { .. } => barrage::rolls(state),
        A::EndPhase
        | A::Unfoul { .. }
        | A::Rally { .. }
        | A::WithdrawEngaged { .. }
        | A::CommitReserve { .. } => phase::rolls(rs, state, ctx, action),
        _ => false,
    }
}

/// The check `legal_actions` keeps a candidate by: `decide` accepts it
/// against a fixed stream (whether it is legal never depends on dice).
pub(crate) fn accepted(rs: &Gbacw, state: &GbacwState, seat: SeatId, a: &GbacwAction) -> bool {
    let mut dice = Dice::from_stream(crate::dice::DiceStream::from_seed(
        b"muster legal-action check",
    ));
    super::decide::decide(rs, state, seat, a, &mut dice).is_ok()
}

/// Several counters by their printed names: "15 Ala, 21 Ga".
fn designations(rs: &Gbacw, ids: &[CounterId]) -> String {
    ids.iter()
        .map(|t| rs.game.oob.units[t].designation.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}
