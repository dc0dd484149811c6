//! GBACW 15.2: exploding caissons, when a battery loses guns to artillery
//! fire. The arithmetic is [`crate::gbacw::artillery::caisson_rounds_lost`];
//! this file decides when it rolls and turns it into an event.

use super::{Roller, Unfold};
use crate::gbacw::oob::CounterId;
use crate::gbacw::ruleset::event::GbacwEvent;

/// GBACW 15.2: `unit` has just lost `guns_lost` guns to artillery fire.
/// If it is still in play its owner rolls a die; a 1 hits a caisson and a
/// second die gives the rounds lost. A battery the fire destroyed does not
/// roll (its rounds no longer matter, and no die is drawn for nothing).
pub(crate) fn roll_caissons(u: &mut Unfold, roll: &mut Roller, unit: &CounterId, guns_lost: u8) {
    let Some(st) = u.state.units.get(unit) else {
        return;
    };
    if guns_lost == 0 || st.hex.is_none() || st.status.strength == 0 {
        return;
    }
    let rounds_left = st.status.rounds;
    let mut first = None;
    let rounds_lost = crate::gbacw::artillery::caisson_rounds_lost(guns_lost, rounds_left, || {
        let d = roll.d6();
        first.get_or_insert(d);
        d
    });
    u.push(GbacwEvent::CaissonRolled {
        unit: unit.clone(),
        die: first.unwrap_or(0),
        rounds_lost,
    });
}
