//! GBACW 11.18: recrewing a supply wagon. "A wagon may be recrewed if its
//! crew has been eliminated by moving an infantry unit or dismounted
//! cavalry unit onto the wagon and removing one Strength Point from that
//! unit during the Friendly Final Command Phase. The morale and weapon
//! type of the new crew should be noted on the OB Roster. Only one
//! Strength Point may ever be assigned to a wagon and, once assigned, it
//! may not be withdrawn from that wagon and used to augment the strength
//! of another unit."
//!
//! Decisions (docs/gbacw-notes.md):
//! - "Only one Strength Point may ever be assigned to a wagon": read as
//!   written, a wagon recrewed once is never recrewed again.
//! - The unit gives a point and stays a unit: one with a single Strength
//!   Point left is refused (the rule removes a point "from that unit"; it
//!   does not turn a whole unit into a crew, and the engine has no way
//!   for a unit to leave play that is not a loss).
//! - The Strength Point given is not a combat loss (victory and brigade
//!   losses leave it out: `Gbacw::strength_lost`).
//! - The new crew's morale is the unit's (its rating, once a green unit
//!   has one) and its weapon the unit's; both are recorded with the wagon
//!   (`GbacwState::recrewed`) and shown in the log.

use crate::engine::{RuleCode, RuleError};
use crate::gbacw::oob::{CounterId, Crew, Formation, Morale, UnitKind};
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::{GbacwState, NewCrew};
use crate::gbacw::ruleset::{Gbacw, decide, err};
use crate::gbacw::words::counter_name;

const RULE: &str = "GBACW 11.18";

fn refuse(message: String) -> RuleError {
    err(RULE, RuleCode::Illegal, message)
}

/// GBACW 11.18: `side`'s `unit` crews `side`'s uncrewed `wagon` (the
/// phase is the caller's to check).
pub(crate) fn recrew(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    wagon: &CounterId,
    unit: &CounterId,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let (w, at) = decide::own_unit(rs, state, side, wagon)?;
    if !matches!(rs.game.oob.units[wagon].kind, UnitKind::Wagon { .. }) {
        return Err(refuse(format!(
            "{} is not a supply wagon: only a wagon is recrewed",
            counter_name(rs, wagon)
        )));
    }
    if w.status.crew != Crew::None {
        return Err(refuse(format!(
            "{} still has its crew: only a wagon whose crew has been eliminated is recrewed",
            counter_name(rs, wagon)
        )));
    }
    if state.recrewed.contains_key(wagon) {
        return Err(refuse(format!(
            "{} has been recrewed once: only one Strength Point may ever be assigned to a wagon",
            counter_name(rs, wagon)
        )));
    }
    let (u, hex) = decide::own_unit(rs, state, side, unit)?;
    let donor = &rs.game.oob.units[unit];
    let foot = matches!(donor.kind, UnitKind::Infantry)
        || (matches!(donor.kind, UnitKind::Cavalry) && u.status.formation == Formation::Dismounted);
    if !foot {
        return Err(refuse(format!(
            "{} may not crew a wagon: only infantry or dismounted cavalry may",
            counter_name(rs, unit)
        )));
    }
    if hex != at {
        return Err(refuse(format!(
            "{} is not on {}'s hex ({at}): move it onto the wagon first",
            counter_name(rs, unit),
            counter_name(rs, wagon)
        )));
    }
    if u.status.strength < 2 {
        return Err(refuse(format!(
            "{} has no Strength Point to spare: it would give its last",
            counter_name(rs, unit)
        )));
    }
    let morale = match (donor.morale, state.units[unit].rating) {
        (Morale::Green, Some(r)) => Morale::Rated(r),
        (m, _) => m,
    };
    Ok(vec![GbacwEvent::WagonRecrewed {
        wagon: wagon.clone(),
        crew: NewCrew {
            from: unit.clone(),
            morale,
            weapon: donor.weapon.clone(),
        },
    }])
}

/// GBACW 11.18: the recrews `side` may make now: each uncrewed wagon with
/// each unit of its hex that could give a point (checked by `decide`).
pub(crate) fn candidates(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
) -> Vec<(CounterId, CounterId)> {
    let oob = &rs.game.oob;
    let mut out = Vec::new();
    for (wagon, w) in &state.units {
        let Some(hex) = w.hex else { continue };
        if oob.units[wagon].side != *side
            || !matches!(oob.units[wagon].kind, UnitKind::Wagon { .. })
            || w.status.crew != Crew::None
        {
            continue;
        }
        for (unit, u) in &state.units {
            if u.hex == Some(hex)
                && unit != wagon
                && oob.units[unit].side == *side
                && matches!(oob.units[unit].kind, UnitKind::Infantry | UnitKind::Cavalry)
            {
                out.push((wagon.clone(), unit.clone()));
            }
        }
    }
    out
}
