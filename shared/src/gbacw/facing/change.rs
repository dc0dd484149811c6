//! GBACW 7.12, 7.13, 7.32, 8.42, 6.21: when facing and formation may change,
//! and the one facing of a stack.

use super::hexsides::Facing;
use crate::gbacw::sequence::Phase;

/// When a facing change is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FacingMoment {
    pub phase: Phase,
    /// The unit's owner is the phasing player.
    pub own_player_turn: bool,
    /// Right after a melee the unit took part in (7.32).
    pub after_melee: bool,
}

/// GBACW 7.12, 7.13, 7.32: facing changes are free and unlimited in the
/// owner's Movement Phase — for every unit, even one out of command or
/// routed (7.12: "all units") — and are otherwise allowed only to the
/// units of a melee once it is resolved. `Err` names the case.
pub fn may_change_facing(at: FacingMoment) -> Result<(), &'static str> {
    if at.after_melee || (at.phase == Phase::Movement && at.own_player_turn) {
        Ok(())
    } else {
        Err("GBACW 7.13")
    }
}

/// GBACW 8.42: all units in a hex share one facing; a unit entering an
/// occupied hex takes the facing of the units already there.
pub fn facing_on_entry(hex_facing: Option<Facing>, own: Facing) -> Facing {
    hex_facing.unwrap_or(own)
}

/// GBACW 6.21, 17.11: a unit out of its brigade commander's radius and
/// not stacked with its division commander may not change formation;
/// `in_command` is [`crate::gbacw::command::unit_in_command`].
pub fn may_change_formation(in_command: bool) -> Result<(), &'static str> {
    if in_command {
        Ok(())
    } else {
        Err("GBACW 6.21")
    }
}
