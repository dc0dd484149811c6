//! GBACW 17.53, 17.54, 17.73, 17.75: leaders left alone.

use crate::gbacw::map::{Grid, HexNumber};
use crate::gbacw::oob::CounterId;

/// GBACW 17.54, 17.75: a leader alone in a hex (no friendly combat unit)
/// is captured the moment an enemy combat unit is in or moves into it.
pub fn captured_on_entry(
    friendly_combat_units_in_hex: usize,
    enemy_combat_unit_entered: bool,
) -> bool {
    friendly_combat_units_in_hex == 0 && enemy_combat_unit_entered
}

/// GBACW 17.73: a leader who is the only friendly counter (or is with
/// other leaders only) after a melee may not retreat: he is captured.
pub fn lone_after_melee(friendly_combat_units_left: usize) -> bool {
    friendly_combat_units_left == 0
}

/// GBACW 17.53: a hex is a trap when every neighbour on the map holds an
/// enemy unit, lies in an enemy ZOC or is impassable (`blocked`). The map
/// edge blocks too: a leader cannot walk off.
pub fn trapped(grid: &Grid, hex: HexNumber, blocked: impl Fn(HexNumber) -> bool) -> bool {
    grid.neighbours_on_map(hex)
        .into_iter()
        .all(|(_, h)| blocked(h))
}

/// Where a leader goes when the units he stood with are wiped out by fire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Relocation {
    /// Placed on this unit in that hex.
    Join(CounterId, HexNumber),
    /// Trapped (or no unit of his command is left): captured.
    Captured,
}

/// GBACW 17.53: an unhurt leader whose stack was eliminated by fire is
/// placed on the nearest combat unit of his command (ties: lowest hex
/// number, then lowest id — the rules leave ties open, so the engine fixes
/// one order). If he is trapped, he is captured instead. With no unit of
/// his command left he is captured too: the rule has nowhere to put him.
pub fn relocate_after_fire(
    grid: &Grid,
    at: HexNumber,
    is_trapped: bool,
    command_units: &[(CounterId, HexNumber)],
) -> Relocation {
    if is_trapped {
        return Relocation::Captured;
    }
    command_units
        .iter()
        .min_by_key(|(id, h)| (grid.distance(at, *h), *h, id.clone()))
        .map(|(id, h)| Relocation::Join(id.clone(), *h))
        .unwrap_or(Relocation::Captured)
}
