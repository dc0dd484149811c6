//! GBACW 13.2: the morale check and its modifiers; 13.14: green units.

use crate::gbacw::oob::Morale;
use crate::gbacw::tables::ElephantTable;

/// What modifies a morale check die roll.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoraleMods {
    /// GBACW 13.23, 17.4: stacked with a leader (however many): −1.
    pub leader: bool,
    /// GBACW 13.24: lost more than half its initial strength: +1.
    pub over_half_lost: bool,
    /// GBACW 13.26 (001 "enfiladed", 004 "enveloped"), 9.83: the fire
    /// causing the check enfiladed the unit: +1.
    pub enfiladed: bool,
}

impl MoraleMods {
    pub fn modifier(self) -> i16 {
        i16::from(self.over_half_lost) + i16::from(self.enfiladed) - i16::from(self.leader)
    }
}

/// GBACW 13.21: a unit routs if the modified die is greater than its
/// morale rating. Returns `true` for a rout. The same test decides P/R
/// (9.83) and P or R (9.87) results.
pub fn morale_check(morale: u8, die: u8, mods: MoraleMods) -> bool {
    i16::from(die) + mods.modifier() > i16::from(morale)
}

/// GBACW 13.14: a green unit's rating is fixed by 2d6 on the Seeing the
/// Elephant Table the first time it checks morale or melees; a rated unit
/// keeps its rating (13.13). `None` for a 2d6 total outside 2..=12.
pub fn sees_the_elephant(morale: Morale, table: &ElephantTable, two_dice: u8) -> Option<u8> {
    match morale {
        Morale::Rated(m) => Some(m),
        Morale::Green => table.morale(two_dice),
    }
}

/// The rating to check against, once known; `None` for a green unit that
/// has not yet seen the elephant.
pub fn rating(morale: Morale) -> Option<u8> {
    match morale {
        Morale::Rated(m) => Some(m),
        Morale::Green => None,
    }
}

/// GBACW 11.21: after a fire die of 1, each small-arms unit that fired
/// rolls again; 1 or 2 and it is out of ammunition.
pub fn ammo_depleted(die: u8) -> bool {
    die <= 2
}
