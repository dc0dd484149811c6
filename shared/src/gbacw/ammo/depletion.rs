//! GBACW 11.2, 11.21, 8.41: small-arms ammunition depletion.

use crate::gbacw::morale::ammo_depleted;
use crate::gbacw::oob::{CounterId, UnitKind};

/// GBACW 11.2, 11.21: after a fire whose CRT die was `fire_die`, the units
/// that run out of ammunition. Only a 1 on the Fire CRT calls for the
/// check; then each small-arms firer (not a battery: batteries count
/// rounds, 11.3) rolls one die, in the order given, and a 1 or 2 depletes
/// it.
pub fn depleted_after_fire(
    fire_die: u8,
    firers: &[(CounterId, UnitKind)],
    mut die: impl FnMut() -> u8,
) -> Vec<&CounterId> {
    if fire_die != 1 {
        return Vec::new();
    }
    firers
        .iter()
        .filter(|(_, kind)| !matches!(kind, UnitKind::Battery { .. }))
        .filter(|_| ammo_depleted(die()))
        .map(|(id, _)| id)
        .collect()
}

/// GBACW 8.41: a stack's order changes only in the friendly Movement
/// Phase, or at the end of a Fire Phase in which its top unit ran out of
/// ammunition.
pub fn may_reorder_stack(
    friendly_movement_phase: bool,
    top_depleted_this_fire_phase: bool,
) -> bool {
    friendly_movement_phase || top_depleted_this_fire_phase
}
