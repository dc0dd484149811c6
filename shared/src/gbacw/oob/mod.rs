//! Counters and orders of battle: combat units ([`counter`]), leaders
//! ([`leader`]), their state in play ([`status`]) and the text format
//! ([`parse`]), and the check of counters against the OB Roster ([`roster`]).

pub mod counter;
pub mod leader;
pub mod parse;
pub mod roster;
pub mod status;

pub use counter::{Command, CounterId, Morale, Unit, UnitKind};
pub use leader::{BrigadeRatings, Leader, LeaderRole};
pub use parse::{MAX_COUNTERS, MAX_OOB_BYTES, parse_oob};
pub use status::{Crew, Formation, Marker, UnitStatus};

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// An order of battle: both sides' leaders and units, by id.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Oob {
    pub name: String,
    /// Side id to its display name.
    pub sides: BTreeMap<CounterId, String>,
    pub leaders: BTreeMap<CounterId, Leader>,
    pub units: BTreeMap<CounterId, Unit>,
    /// Brigade leader id to its OB Roster BCE record, where the file gives one.
    #[serde(default)]
    pub bce: BTreeMap<CounterId, roster::Bce>,
    /// Counter id to its exclusive-rule extras, for counters that have any
    /// (Corinth: ranks, second-day BCE, sharpshooters, provisional values).
    #[serde(default)]
    pub extras: BTreeMap<CounterId, CounterExtras>,
}

/// Optional data a counter line may carry for a battle's exclusive rules.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CounterExtras {
    /// Corinth 20.2: the rank symbol on a leader counter (for 28.32).
    pub rank: Option<Rank>,
    /// Corinth 26.31: the roster's second-day BCE limit of a brigade.
    pub bce_day2: Option<u16>,
    /// Corinth 21.3: "SS" printed on the counter.
    pub sharpshooter: bool,
    /// Why some value on the line is not printed in the seeds; the client
    /// shows it (DESIGN §1: provisional data says so).
    pub provisional: Option<String>,
}

/// Corinth 20.2: leader rank symbols. The Confederate counters use one
/// symbol for every general, so a Confederate general is `General`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Rank {
    Colonel,
    BrigadierGeneral,
    MajorGeneral,
    /// The Confederates' single general's symbol.
    General,
}

impl Rank {
    /// The word in the file: `col`, `bg`, `mg`, `gen`.
    pub fn from_word(w: &str) -> Option<Rank> {
        Some(match w {
            "col" => Rank::Colonel,
            "bg" => Rank::BrigadierGeneral,
            "mg" => Rank::MajorGeneral,
            "gen" => Rank::General,
            _ => return None,
        })
    }

    /// Order for Corinth 28.32 ("the highest rank"), compared within one
    /// side: colonel below any general; the Confederate `General` ranks with
    /// a brigadier since it is the only general's symbol the side has.
    pub fn seniority(self) -> u8 {
        match self {
            Rank::Colonel => 1,
            Rank::BrigadierGeneral | Rank::General => 2,
            Rank::MajorGeneral => 3,
        }
    }
}

impl Oob {
    /// The exclusive-rule extras of a counter (all empty if none given).
    pub fn extras_of(&self, id: &CounterId) -> CounterExtras {
        self.extras.get(id).cloned().unwrap_or_default()
    }

    /// GBACW 3.33: the units subordinate to a brigade leader.
    pub fn brigade_units<'a>(
        &'a self,
        brigade: &'a CounterId,
    ) -> impl Iterator<Item = &'a Unit> + 'a {
        self.units
            .values()
            .filter(move |u| matches!(&u.command, Command::Brigade(b) if b == brigade))
    }

    /// A side's units, in id order.
    pub fn side_units<'a>(&'a self, side: &'a CounterId) -> impl Iterator<Item = &'a Unit> + 'a {
        self.units.values().filter(move |u| &u.side == side)
    }
}

#[cfg(test)]
pub(crate) mod tests;
