//! Corinth 26.3: the BCE Recovery Interphase after Game-Turn `after=`
//! (20), on when the scenario has `hook bce-recovery after=20`. The
//! OB Roster's second-day limit is the OOB's `bce-day2=` (26.31); a
//! brigade's limit is read through [`limit`], which `bce.rs` asks.

use crate::gbacw::oob::CounterId;
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::scenario::HookKind;
use crate::gbacw::sequence::Clock;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Corinth 26.32, 26.34: what the interphase found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BceRecovery {
    /// Brigades holding BCE whose limit is now the second day's (26.32).
    pub extended: BTreeSet<CounterId>,
    /// Brigades at their limit: they keep the effects of BCE loss for the
    /// rest of the game (26.34).
    pub kept_lost: BTreeSet<CounterId>,
}

/// Corinth 26.32: `brigade`'s BCE limit now: the second day's once
/// extended, else the first day's (`first_day`, the roster's `bce=`).
pub(crate) fn limit(rs: &Gbacw, state: &GbacwState, brigade: &CounterId, first_day: u16) -> u16 {
    if !state.night.bce_extended.contains(brigade) {
        return first_day;
    }
    rs.game
        .oob
        .extras_of(brigade)
        .bce_day2
        .map_or(first_day, |d| d.max(first_day))
}

/// Whether passing from the current step to `next` holds the interphase:
/// the hook is on, Game-Turn `after=` ends, and it was not held yet.
pub(crate) fn due(rs: &Gbacw, state: &GbacwState, next: Option<Clock>) -> bool {
    let Some(after) = super::hook(rs, HookKind::BceRecovery).and_then(|h| h.number("after")) else {
        return false;
    };
    !state.night.bce_recovered && state.clock.turn == after && next.is_some_and(|c| c.turn != after)
}

/// Corinth 26.32–26.34: every roster brigade holding BCE now (`state`
/// already has the night's stragglers) takes its second-day limit; the
/// others keep their loss. 26.33's single-level brigades (Lovell's and
/// the Confederate cavalry: `bce-day2=` equal to `bce=`) are extended to
/// the same number, which changes nothing.
pub(crate) fn interphase(rs: &Gbacw, state: &GbacwState) -> GbacwEvent {
    let lost = crate::gbacw::ruleset::bce::lost_brigades(rs, state);
    let (kept_lost, extended) = rs
        .game
        .oob
        .bce
        .keys()
        .cloned()
        .partition(|b| lost.contains(b));
    GbacwEvent::BceRecovered(BceRecovery {
        extended,
        kept_lost,
    })
}

/// Fold the interphase's finding.
pub(crate) fn evolve(state: &mut GbacwState, r: &BceRecovery) {
    state.night.bce_recovered = true;
    state.night.bce_extended = r.extended.clone();
}
