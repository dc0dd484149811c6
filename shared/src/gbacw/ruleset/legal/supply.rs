//! The Ammunition Resupply Phase's candidates (GBACW 11.2, 11.33).

use super::Own;
use crate::gbacw::oob::{CounterId, Marker, UnitKind};
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::state::GbacwState;

/// GBACW 11.33: one round between each pair of batteries.
pub(super) fn transfers(rs: &Gbacw, own: &Own<'_>, out: &mut Vec<GbacwAction>) {
    use GbacwAction as A;
    let oob = &rs.game.oob;
    let batteries: Vec<&CounterId> = own
        .units
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
}

/// GBACW 11.23: each wagon on each unit short of ammunition.
pub(super) fn resupplies(
    rs: &Gbacw,
    state: &GbacwState,
    own: &Own<'_>,
    out: &mut Vec<GbacwAction>,
) {
    use GbacwAction as A;
    let oob = &rs.game.oob;
    for (w, _) in own
        .units
        .iter()
        .filter(|(id, _)| matches!(oob.units[*id].kind, UnitKind::Wagon { .. }))
    {
        for (u, _) in &own.units {
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
