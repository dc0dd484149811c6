//! Combat units as printed on their counters (GBACW 3.3, 3.31): what the
//! order of battle fixes for the whole game. What changes in play (current
//! strength, formation, markers) is in [`super::status`].

use serde::{Deserialize, Serialize};
use std::fmt;

/// A counter's id in the order of battle (`5-conn`, `crawford`): unique
/// across units and leaders, stable in logs and saved games.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct CounterId(pub String);

impl CounterId {
    /// Lower-case letters, digits, `-` and `_`, 1..=32 characters: easy to
    /// type in a file and safe in any log.
    pub fn parse(text: &str) -> Option<Self> {
        let ok = (1..=32).contains(&text.len())
            && text
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_');
        ok.then(|| CounterId(text.to_string()))
    }
}

impl fmt::Display for CounterId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// GBACW 13.11/13.12: a morale rating from 1 (worst) to 5 (best), or `?`
/// for a green unit whose rating is found on first seeing the elephant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Morale {
    Rated(u8),
    Green,
}

/// Who commands a unit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// Subordinate to this brigade leader (3.33: read from the counter).
    Brigade(CounterId),
    /// GBACW 5.3: "Indpnt" units need no leader; always in command.
    Independent,
}

/// The four kinds of combat unit (3.3), with what only that kind has.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum UnitKind {
    /// An infantry regiment; strength in Strength Points.
    Infantry,
    /// A cavalry regiment (6.14: mounted or dismounted).
    Cavalry,
    /// An artillery battery; strength in guns (9.13). `rounds` is the
    /// roster's ammunition boxes (11.3).
    Battery { rounds: u16 },
    /// A supply wagon with its supply track (11.1, 11.24, 11.34): small-
    /// arms and artillery ammunition points. Always independent (11.13).
    Wagon { small_arms: u16, artillery: u16 },
}

impl UnitKind {
    pub fn name(&self) -> &'static str {
        match self {
            UnitKind::Infantry => "infantry",
            UnitKind::Cavalry => "cavalry",
            UnitKind::Battery { .. } => "battery",
            UnitKind::Wagon { .. } => "wagon",
        }
    }
}

/// A combat unit's printed data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    pub id: CounterId,
    pub side: CounterId,
    /// The historical designation (3.33), e.g. "5 Conn".
    pub designation: String,
    pub kind: UnitKind,
    pub command: Command,
    pub morale: Morale,
    /// GBACW 3.34/9.21: the weapon code; a unit without one cannot fire.
    pub weapon: Option<String>,
    /// GBACW 9.1: initial strength — Strength Points, or guns for a battery.
    pub strength: u8,
    /// The OB Roster's strength boxes for this unit, where the roster
    /// prints them (independent units, batteries); `None` if not given.
    /// Kept apart from `strength` so a disagreement is reported, not hidden.
    #[serde(default)]
    pub roster_strength: Option<u8>,
    /// The morale printed on a cavalry counter's mounted side when the file
    /// gives it; `morale` is then the dismounted front (Cedar Mountain 21.1).
    #[serde(default)]
    pub mounted_morale: Option<u8>,
}
