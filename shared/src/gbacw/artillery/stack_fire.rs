//! GBACW 8.22, 8.23, 9.43: whom an artillery fire rolls against.

use crate::gbacw::oob::CounterId;

/// GBACW 8.22: artillery firing at three hexes or more rolls separately
/// against each unit in the target hex, top unit first, each roll with the
/// whole stack's density shift (8.23). Closer, it is one roll against the
/// hex, applied to the top unit (9.43, 8.21).
pub fn rolls_per_unit(artillery: bool, range: u32) -> bool {
    artillery && range >= 3
}

/// The targets of the rolls, in rolling order: every unit (top first) or
/// the top one alone. `stack` is top first and holds combat units only.
pub fn artillery_rolls(artillery: bool, range: u32, stack: &[CounterId]) -> Vec<CounterId> {
    if rolls_per_unit(artillery, range) {
        stack.to_vec()
    } else {
        stack.iter().take(1).cloned().collect()
    }
}
