//! Cedar Mountain 21.2: "there are no supply wagons in the game and the
//! ammunition rules (11.0) are not used" (`hook no-ammunition`). The
//! batteries carry `rounds=0` (the roster prints guns, not rounds), so
//! without this a Cedar Mountain battery could never fire (11.32); small
//! arms never run out on a fire die of 1 (11.21), and no rounds are
//! counted (11.3).

use crate::gbacw::oob::{Marker, UnitKind, UnitStatus};
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::scenario::HookKind;
use std::borrow::Cow;

/// Whether the battle plays without the ammunition rules.
pub(crate) fn off(rs: &Gbacw) -> bool {
    super::hook(rs, HookKind::NoAmmunition).is_some()
}

/// The status fire eligibility (9.2, 11.32) reads: with 21.2 a battery is
/// never out of rounds and no unit out of ammunition.
pub(crate) fn fire_status<'s>(
    rs: &Gbacw,
    kind: &UnitKind,
    status: &'s UnitStatus,
) -> Cow<'s, UnitStatus> {
    if !off(rs) {
        return Cow::Borrowed(status);
    }
    let battery_empty = matches!(kind, UnitKind::Battery { .. }) && status.rounds == 0;
    if !battery_empty && !status.markers.contains(&Marker::AmmoDepleted) {
        return Cow::Borrowed(status);
    }
    let mut s = status.clone();
    if battery_empty {
        s.rounds = 1;
    }
    s.markers.remove(&Marker::AmmoDepleted);
    Cow::Owned(s)
}
