//! Cedar Mountain 26.2 (Corinth 29.4): a side sets up before Game-Turn 1.
//! The legal placements and their checks are `decide::setup`'s.

use crate::engine::PendingDecision;
use crate::gbacw::oob::CounterId;
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::{Gbacw, decide};

pub(super) fn prompt(rs: &Gbacw, side: &CounterId) -> String {
    format!(
        "{}: set up your counters before Game-Turn 1",
        rs.game.oob.sides.get(side).map_or(side.0.as_str(), |s| s)
    )
}

/// The set-up as a pending decision: the setting-up seat's, ended by
/// default with the default deployment.
pub(super) fn pending(rs: &Gbacw, side: &CounterId) -> PendingDecision<GbacwAction> {
    PendingDecision {
        seat: rs.seat_of(side),
        rule: decide::setup::setup_rule(rs),
        prompt: prompt(rs, side),
        default: GbacwAction::EndSetUp,
        deadline_secs: decide::setup::SETUP_DEADLINE_SECS,
    }
}
