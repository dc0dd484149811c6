//! The Retreat Before Melee Phase's candidates (GBACW 12.8, 12.94,
//! 16.2): engaged stacks withdrawing, melees and charges declared.

use super::Own;
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, Formation, Marker};
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::state::GbacwState;
use std::collections::BTreeMap;

/// GBACW 12.94 option 3: each engaged stack along its first two-hex way
/// back.
pub(super) fn engaged_withdrawals(
    rs: &Gbacw,
    state: &GbacwState,
    own: &Own<'_>,
    out: &mut Vec<GbacwAction>,
) {
    use GbacwAction as A;
    let mut engaged: BTreeMap<HexNumber, Vec<CounterId>> = BTreeMap::new();
    for (id, at) in &own.units {
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
}

/// GBACW 12.0: each unit alone against each adjacent enemy hex, and a
/// lone piece of the battle's own in one too (hook `enemy_pieces`; the
/// decision refuses it where the battle does not melee such pieces).
pub(super) fn melee_declarations(
    rs: &Gbacw,
    state: &GbacwState,
    own: &Own<'_>,
    out: &mut Vec<GbacwAction>,
) {
    use GbacwAction as A;
    let side = own.side;
    let oob = &rs.game.oob;
    let crews = rs.battle().enemy_pieces(rs, state, side);
    for (id, at) in &own.units {
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
