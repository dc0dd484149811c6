//! GBACW 17.6–17.68: detaching and attaching brigades, and whom a brigade
//! commander commands (17.1, 17.14).

use crate::gbacw::oob::{Command, CounterId, LeaderRole, Oob};
use crate::gbacw::sequence::Phase;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A division's current make-up beyond its original brigades.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DivisionLinks {
    /// GBACW 17.6: at most one original brigade detached.
    pub detached: Option<CounterId>,
    /// GBACW 17.6, 17.64: at most one foreign brigade attached.
    pub attached: Option<CounterId>,
}

/// A player's announcement in the Initial Command Phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkOrder {
    Detach { brigade: CounterId },
    Attach { brigade: CounterId, to: CounterId },
}

fn original_division(oob: &Oob, brigade: &CounterId) -> Result<Option<CounterId>, &'static str> {
    match oob.leaders.get(brigade).map(|l| &l.role) {
        Some(LeaderRole::Brigade { division, .. }) => Ok(division.clone()),
        _ => Err("GBACW 17.6"),
    }
}

/// Whether `brigade` is detached from its original division now.
pub fn is_detached(links: &BTreeMap<CounterId, DivisionLinks>, brigade: &CounterId) -> bool {
    links.values().any(|l| l.detached.as_ref() == Some(brigade))
}

/// GBACW 17.6–17.67: apply one order, voluntarily given (17.65: nothing
/// else ever detaches a brigade). `within_radius` is whether the brigade
/// commander is within the Divisional Integrity Radius of the division
/// concerned (his own for a detachment, the receiving one for an
/// attachment); `bce_lost` is 17.67's condition.
/// - 17.61: only in the Initial Command Phase.
/// - 17.62, 17.63: a brigade commander out of radius is out of command,
///   not detached.
/// - 17.6: one original brigade detached at a time.
/// - 17.64, 17.66: a detached or "Indpnt" brigade may be attached to a
///   division whose radius it is in; the attached brigade may be changed
///   (the one it replaces is left detached).
/// - 17.67: a brigade that lost its BCE may not be detached; it may be
///   attached if already detached.
pub fn apply_link_order(
    oob: &Oob,
    links: &mut BTreeMap<CounterId, DivisionLinks>,
    order: &LinkOrder,
    phase: Phase,
    within_radius: bool,
    bce_lost: bool,
) -> Result<(), &'static str> {
    if phase != Phase::InitialCommand {
        return Err("GBACW 17.61");
    }
    match order {
        LinkOrder::Detach { brigade } => {
            let division = original_division(oob, brigade)?.ok_or("GBACW 17.66")?;
            if bce_lost {
                return Err("GBACW 17.67");
            }
            if !within_radius {
                return Err("GBACW 17.63");
            }
            let l = links.entry(division).or_default();
            if l.detached.is_some() {
                return Err("GBACW 17.6");
            }
            l.detached = Some(brigade.clone());
            Ok(())
        }
        LinkOrder::Attach { brigade, to } => {
            if !matches!(
                oob.leaders.get(to).map(|l| &l.role),
                Some(LeaderRole::Division { .. })
            ) {
                return Err("GBACW 17.64");
            }
            let own = original_division(oob, brigade)?;
            if own.is_some() && !is_detached(links, brigade) {
                return Err("GBACW 17.64");
            }
            if own.as_ref() == Some(to) {
                return Err("GBACW 17.64");
            }
            if !within_radius {
                return Err("GBACW 17.64");
            }
            // Attached elsewhere already: it moves.
            for l in links.values_mut() {
                if l.attached.as_ref() == Some(brigade) {
                    l.attached = None;
                }
            }
            links.entry(to.clone()).or_default().attached = Some(brigade.clone());
            Ok(())
        }
    }
}

/// GBACW 17.1, 17.14, 17.68: a brigade commander commands the units of
/// his brigade (detached or not: they stay his) and any unit stacked with
/// him — all he commands once his own units are gone.
pub fn commands(leader: &CounterId, unit_command: &Command, stacked_with_him: bool) -> bool {
    stacked_with_him || matches!(unit_command, Command::Brigade(b) if b == leader)
}
