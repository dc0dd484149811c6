//! The Fire Phases' candidates (GBACW 9.0).

use super::Own;
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::CounterId;
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::state::{FireShare, GbacwState};

/// A Fire Phase's candidates of `own`: fire declared, the first declared
/// fire cancelled, and the battle's own fire actions (hook `legal_fire`).
pub(super) fn fire_actions(
    rs: &Gbacw,
    state: &GbacwState,
    own: &Own<'_>,
    out: &mut Vec<GbacwAction>,
) {
    fire_declarations(rs, state, own.side, &own.units, out);
    if !state.fire_plan.is_empty() {
        out.push(GbacwAction::CancelFire { index: 0 });
    }
    rs.battle().legal_fire(rs, state, own.side, out);
}

/// Most enemy hexes each unit is offered to fire at, nearest first.
const FIRE_TARGETS: usize = 4;

/// GBACW 9.0: each unit alone at each of the nearest enemy hexes in its
/// weapon's range, with its whole strength; `decide` sorts out the rest
/// (facing, sight, 9.44, 7.21).
fn fire_declarations(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    own_units: &[(&CounterId, HexNumber)],
    out: &mut Vec<GbacwAction>,
) {
    let game = &rs.game;
    let mut enemy_hexes: Vec<HexNumber> = state
        .units
        .iter()
        .filter(|(id, _)| game.oob.units[*id].side != *side)
        .filter_map(|(_, u)| u.hex)
        .collect();
    // Lone pieces of the battle's own are targets too (hook
    // `enemy_pieces`).
    enemy_hexes.extend(rs.battle().enemy_pieces(rs, state, side));
    enemy_hexes.sort();
    enemy_hexes.dedup();
    for (id, at) in own_units {
        let u = &state.units[*id];
        let Some(weapon) = game.oob.units[*id]
            .weapon
            .as_deref()
            .and_then(|w| game.charts.range.weapon(w))
        else {
            continue;
        };
        if u.status.strength == 0 {
            continue;
        }
        let mut near: Vec<(u32, HexNumber)> = enemy_hexes
            .iter()
            .map(|h| (game.map.grid.distance(*at, *h), *h))
            .filter(|(d, _)| *d <= weapon.max_range())
            .collect();
        near.sort();
        for (_, target) in near.into_iter().take(FIRE_TARGETS) {
            out.push(GbacwAction::DeclareFire {
                target,
                firers: vec![FireShare {
                    unit: (*id).clone(),
                    points: u.status.strength,
                }],
            });
        }
    }
}
