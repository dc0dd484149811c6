//! Corinth 24.2: battery crews.
//!
//! The crew as a piece of its own is the Standard Rules' (GBACW 15.16,
//! `ruleset/crews/`: 24.21 says the same with a counter for it); here is
//! what Corinth adds or changes:
//! - 24.21 (`hook crew-rout`): the crew counter and its neutral Crew
//!   marker are the Standard crew away from its guns (`crews::piece`);
//!   the hook stays on in the scenario and is read by 24.3 below.
//! - 24.3 (`hook siege-crews-rout`): a siege battery's crew routs away from
//!   its guns limbered too ([`siege_crew`]).
//! - 24.22 holds: a battery whose crew is gone leaves play
//!   (`combat::effects`, 15.12) and is never re-crewed (15.15). Its guns
//!   count for 31.1's Victory Points only when the enemy captured it or
//!   destroyed all its guns by fire (`hook crew-loss-keeps-guns`,
//!   [`guns_count_as_lost`], read by `victory.rs`); a battery removed
//!   because its crew was lost to small arms or melee (15.12) leaves its
//!   guns uncounted.
//! - 24.23 holds already: the half crew is `Crew::Half` (fire halved,
//!   15.13), shown with the battery; a crew that routs keeps its step.
//! - 24.24 (optional) is here: `hook crew-melee-zero units=… when=OPTION`.

use crate::gbacw::oob::{CounterId, UnitKind};
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::scenario::HookKind;

/// Corinth 24.3: "the guns of these batteries ... may only move one hex per
/// turn ... Their crews are free to move if routed." A siege battery
/// (`hook siege-guns units=`) routed limbered would rout its guns three
/// hexes (15.16); read with 24.3, the guns stay and the crew alone routs
/// (24.21), free of the guns' one hex. On with `hook siege-crews-rout`.
pub(crate) fn siege_crew(rs: &Gbacw, id: &CounterId) -> bool {
    super::hook(rs, HookKind::SiegeCrewsRout).is_some()
        && super::hook(rs, HookKind::CrewRout).is_some()
        && super::hook(rs, HookKind::SiegeGuns).is_some_and(|h| {
            h.param("units")
                .is_some_and(|list| list.split(',').any(|u| u == id.0))
        })
}

/// Corinth 24.22: "the guns are not considered lost for Victory Point
/// purposes unless the enemy player eliminated the battery by capture or
/// the guns were eliminated by enemy battery fire": whether the battery
/// `id`, out of play, counts as lost guns. Off the hook (the Standard
/// Rules, Cedar Mountain), always.
pub(crate) fn guns_count_as_lost(rs: &Gbacw, state: &GbacwState, id: &CounterId) -> bool {
    if super::hook(rs, HookKind::CrewLossKeepsGuns).is_none() {
        return true;
    }
    // Captured guns were counted into `captured`; guns all destroyed
    // leave no strength. A crew lost (15.12) leaves guns behind.
    state
        .units
        .get(id)
        .is_none_or(|u| u.captured > 0 || u.status.strength == 0)
}

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
