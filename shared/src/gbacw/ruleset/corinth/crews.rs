//! Corinth 24.2: battery crews.
//!
//! The engine keeps a battery's crew as its `UnitStatus::crew` (full,
//! half, none), not as a counter of its own, so:
//! - 24.22 holds already: a battery whose crew is gone leaves play
//!   (`combat::effects`, 15.12) and is never re-crewed (15.15). Its guns
//!   count for 31.1's Victory Points when the enemy eliminated it
//!   (`victory.rs`: batteries captured or eliminated).
//! - 24.23 holds already: the half crew is `Crew::Half` (fire halved,
//!   15.13), shown with the battery.
//! - 24.21 (a routed crew leaves its guns under a neutral Crew marker and
//!   routs on its own) is NOT modelled: unlimbered guns never rout (13.25)
//!   and the crew's own rout is not followed apart from the battery.
//! - 24.24 (optional) is here: `hook crew-melee-zero units=… when=OPTION`.

use super::super::Gbacw;
use crate::gbacw::oob::{CounterId, UnitKind};
use crate::gbacw::scenario::HookKind;

/// Corinth 24.24 (optional): "The companies of the 1st US Infantry which
/// acted as crews for the batteries Robinett, Phillips and Williams ...
/// regardless of their status (full or half crew), their Melee Strength is
/// always 0." `strength` as computed, or 0 for such a battery when the
/// table plays the option.
pub(crate) fn melee_strength(rs: &Gbacw, unit: &CounterId, strength: u16) -> u16 {
    let Some(h) = super::hook(rs, HookKind::CrewMeleeZero) else {
        return strength;
    };
    if let Some(option) = h.param("when")
        && !rs.scenario_options().iter().any(|o| o.0 == option)
    {
        return strength;
    }
    let listed = h
        .param("units")
        .is_some_and(|list| list.split(',').any(|u| u == unit.0));
    let battery = rs
        .game
        .oob
        .units
        .get(unit)
        .is_some_and(|u| matches!(u.kind, UnitKind::Battery { .. }));
    if listed && battery { 0 } else { strength }
}
