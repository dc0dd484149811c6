//! The client's plotting panel (Corinth 29.2): who plots now, and whether
//! a draft plan would be accepted, checked by the very code that refuses a
//! `PlotAssault` (so the panel cannot disagree with the table).

use super::Gbacw;
use super::plan::{self, AssaultPlan};
use super::state::GbacwState;
use crate::engine::RuleError;
use crate::gbacw::oob::CounterId;
use crate::ids::SeatId;

impl Gbacw {
    /// Corinth 29.2: the seat that must plot the assault now; `None` when
    /// the battle has no plan or it is plotted.
    pub fn plot_seat(&self, state: &GbacwState) -> Option<SeatId> {
        if plan::plot_pending(self, state) {
            plan::plotting_seat(self)
        } else {
            None
        }
    }

    /// Corinth 29.21-29.27: whether `seat` may plot `plan` announcing
    /// `announce` now: `Ok` exactly when `PlotAssault` with this plan would
    /// be accepted (whatever the salt), else the refusal the table would
    /// give, with its case.
    pub fn check_plot(
        &self,
        state: &GbacwState,
        seat: SeatId,
        plan: &AssaultPlan,
        announce: &CounterId,
    ) -> Result<(), RuleError> {
        plan::plot(self, state, seat, plan, &[0; 32], announce).map(|_| ())
    }
}
