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
}

impl Oob {
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
