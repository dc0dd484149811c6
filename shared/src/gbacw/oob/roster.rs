//! The OB Roster check: do the counters add up to the roster? Each
//! brigade's Brigade Combat Effectiveness record ("13 of 18 = 17 VP's")
//! names the brigade's total Strength Points; the counters of its infantry
//! and cavalry must add up to that total, and a unit whose roster prints
//! strength boxes (batteries, independents) must have that many on its
//! counter. Disagreements are reported, never corrected: the printed
//! components themselves disagree in places (Cedar Mountain's Purcell and
//! Middlesex batteries), and only a physical copy can settle them.

use super::Oob;
use super::counter::{CounterId, UnitKind};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A brigade's BCE record on the OB Roster (GBACW 17.5; Cedar Mountain
/// 27.21: the enemy scores `victory_points` when the limit is reached).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bce {
    /// Strength Points lost at which the brigade loses effectiveness.
    pub limit: u16,
    /// The brigade's total Strength Points as the roster prints them.
    pub total: u16,
    pub victory_points: u16,
}

/// One brigade's counters against its roster record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrigadeSum {
    pub brigade: CounterId,
    /// Sum of the printed strengths of the brigade's infantry and cavalry
    /// (the units whose losses go on the BCE record, OB Roster notes).
    pub counters: u16,
    pub roster: u16,
}

/// A place where counters and roster disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mismatch {
    /// The brigade's counters do not add up to its roster total.
    Brigade(BrigadeSum),
    /// A unit's counter strength differs from its roster boxes.
    Unit {
        unit: CounterId,
        counter: u8,
        roster: u8,
    },
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mismatch::Brigade(b) => write!(
                f,
                "brigade {}: counters add up to {}, the roster says {}",
                b.brigade, b.counters, b.roster
            ),
            Mismatch::Unit {
                unit,
                counter,
                roster,
            } => write!(
                f,
                "{unit}: {counter} on the counter, {roster} boxes on the roster"
            ),
        }
    }
}

/// The result of [`check_roster`]: every comparison made, and the ones
/// that failed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RosterCheck {
    /// Every brigade with a roster record, in id order.
    pub brigades: Vec<BrigadeSum>,
    /// Units compared with their roster boxes.
    pub units_checked: usize,
    /// Brigade leaders with units but no `bce=` record in the file.
    pub without_record: Vec<CounterId>,
    pub mismatches: Vec<Mismatch>,
}

/// Compare every brigade's counters with its BCE total and every unit with
/// its roster boxes.
pub fn check_roster(oob: &Oob) -> RosterCheck {
    let mut out = RosterCheck::default();
    for (id, leader) in &oob.leaders {
        let units: Vec<_> = oob
            .brigade_units(id)
            .filter(|u| matches!(u.kind, UnitKind::Infantry | UnitKind::Cavalry))
            .collect();
        let Some(bce) = oob.bce.get(id) else {
            if !units.is_empty() {
                out.without_record.push(leader.id.clone());
            }
            continue;
        };
        let sum = BrigadeSum {
            brigade: id.clone(),
            counters: units.iter().map(|u| u16::from(u.strength)).sum(),
            roster: bce.total,
        };
        if sum.counters != sum.roster {
            out.mismatches.push(Mismatch::Brigade(sum.clone()));
        }
        out.brigades.push(sum);
    }
    for u in oob.units.values() {
        if let Some(roster) = u.roster_strength {
            out.units_checked += 1;
            if roster != u.strength {
                out.mismatches.push(Mismatch::Unit {
                    unit: u.id.clone(),
                    counter: u.strength,
                    roster,
                });
            }
        }
    }
    out
}
