//! GBACW 9.44, 12.6: targets already fired at this Fire Phase.

use crate::gbacw::map::HexNumber;
use std::collections::BTreeSet;

/// The hexes fired at this Fire Phase, by kind of fire.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FirePhaseLog {
    small_arms: BTreeSet<HexNumber>,
    artillery: BTreeSet<HexNumber>,
}

impl FirePhaseLog {
    /// GBACW 9.44: a target hex is fired at at most once per Fire Phase by
    /// small arms and once by artillery (a combined attack counts as both).
    /// GBACW 12.6: never into a hex where units are engaged in melee.
    /// Records the attack when it is allowed.
    pub fn register(
        &mut self,
        target: HexNumber,
        small_arms: bool,
        artillery: bool,
        target_engaged: bool,
    ) -> Result<(), &'static str> {
        if target_engaged {
            return Err("GBACW 12.6");
        }
        if (small_arms && self.small_arms.contains(&target))
            || (artillery && self.artillery.contains(&target))
        {
            return Err("GBACW 9.44");
        }
        if small_arms {
            self.small_arms.insert(target);
        }
        if artillery {
            self.artillery.insert(target);
        }
        Ok(())
    }
}
