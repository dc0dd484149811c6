//! GBACW 15.2: exploding caissons.

/// GBACW 15.2: after a battery loses guns to artillery fire its owner
/// rolls a die; a 1 hits a caisson and a second die gives the rounds
/// lost. `die` is called only when the rule rolls. Returns the rounds lost
/// (never more than the battery has).
pub fn caisson_rounds_lost(
    guns_lost_to_artillery: u8,
    rounds_left: u16,
    mut die: impl FnMut() -> u8,
) -> u16 {
    if guns_lost_to_artillery == 0 || die() != 1 {
        return 0;
    }
    u16::from(die()).min(rounds_left)
}
