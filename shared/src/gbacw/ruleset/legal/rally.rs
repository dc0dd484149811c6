//! The Rally Phase's candidates (GBACW 13.5).

use super::Own;
use crate::gbacw::oob::Marker;
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::state::GbacwState;

/// GBACW 13.51: each routed unit's rally (a crew away from its guns that
/// has rallied once walks back instead: `GbacwState::crews_rallied`).
pub(super) fn rally_actions(state: &GbacwState, own: &Own<'_>, out: &mut Vec<GbacwAction>) {
    for (id, _) in &own.units {
        if state.units[*id].status.markers.contains(&Marker::Rout)
            && !state.crews_rallied.contains(*id)
        {
            out.push(GbacwAction::Rally {
                unit: (*id).clone(),
            });
        }
    }
}
