//! Corinth 21.3: sharpshooters. On when the scenario has `hook
//! sharpshooters` (`bonus=` added to the fire die). The five "SS" counters
//! carry the OOB flag `sharpshooter`.

use crate::gbacw::oob::CounterId;
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::scenario::HookKind;

/// Corinth 21.3: "When a sharpshooter unit is the only unit firing at an
/// enemy or when all the units firing are sharpshooters, the player adds a
/// 1 to his die-roll on the Fire Combat Results Table. Modified die-rolls
/// of greater than 6 are treated as 6." The modifier (0 or `bonus=`) for
/// an attack by `firers`; the caller keeps the die within 1–6 and checks
/// ammunition on the natural 1 ("before the modification is made").
pub(crate) fn fire_die_modifier(rs: &Gbacw, firers: &[CounterId]) -> i8 {
    let Some(h) = super::hook(rs, HookKind::Sharpshooters) else {
        return 0;
    };
    let all_ss = !firers.is_empty()
        && firers
            .iter()
            .all(|f| rs.game.oob.extras.get(f).is_some_and(|x| x.sharpshooter));
    if all_ss {
        i8::try_from(h.number("bonus").unwrap_or(1)).unwrap_or(1)
    } else {
        0
    }
}
