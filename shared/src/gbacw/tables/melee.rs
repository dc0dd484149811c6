//! GBACW 12.98: the Melee Combat Results Table.

use super::grid::{RawGrid, grid};
use crate::gbacw::charts::source::error_at;
use crate::gbacw::text::TextError;
use serde::{Deserialize, Serialize};
use std::fmt;
use toml::Spanned;

pub const MELEE_COLUMNS: usize = 11;
/// GBACW 12.98 note: differentials below −4 use −4.
pub const MIN_DIFFERENTIAL: i32 = -4;
/// GBACW 12.98 note: differentials above +6 use +6. (12.0 says +7, a
/// column the table does not have; see docs/gbacw-notes.md.)
pub const MAX_DIFFERENTIAL: i32 = 6;

/// What one side suffers (12.91–12.95).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum MeleeEffect {
    /// `-`
    #[default]
    None,
    /// `K`: one Strength Point becomes a casualty (12.91).
    Casualty,
    /// `Eng`: engaged (12.94).
    Engaged,
    /// `Rpls`: repulsed (12.95).
    Repulsed,
    /// `C#R#` / `R#`: lose `captured` points as prisoners, then the rest
    /// retreat `retreat` hexes and check morale (12.92, 12.93).
    CaptureRetreat { captured: u8, retreat: u8 },
}

impl MeleeEffect {
    fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "-" => MeleeEffect::None,
            "K" => MeleeEffect::Casualty,
            "Eng" => MeleeEffect::Engaged,
            "Rpls" => MeleeEffect::Repulsed,
            _ => {
                let (captured, rest) = match s.strip_prefix('C') {
                    Some(rest) => {
                        let (n, r) = rest.split_at_checked(1)?;
                        (n.parse().ok().filter(|n| *n > 0)?, r)
                    }
                    None => (0, s),
                };
                let retreat = rest
                    .strip_prefix('R')?
                    .parse()
                    .ok()
                    .filter(|n| (1..=9).contains(n))?;
                MeleeEffect::CaptureRetreat { captured, retreat }
            }
        })
    }
}

impl fmt::Display for MeleeEffect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MeleeEffect::None => f.write_str("-"),
            MeleeEffect::Casualty => f.write_str("K"),
            MeleeEffect::Engaged => f.write_str("Eng"),
            MeleeEffect::Repulsed => f.write_str("Rpls"),
            MeleeEffect::CaptureRetreat {
                captured: 0,
                retreat,
            } => write!(f, "R{retreat}"),
            MeleeEffect::CaptureRetreat { captured, retreat } => write!(f, "C{captured}R{retreat}"),
        }
    }
}

/// One cell: what the attacker and the defender suffer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeleeResult {
    pub attacker: MeleeEffect,
    pub defender: MeleeEffect,
}

impl MeleeResult {
    fn parse(s: &str) -> Option<Self> {
        let (a, d) = s.split_once('/')?;
        Some(MeleeResult {
            attacker: MeleeEffect::parse(a)?,
            defender: MeleeEffect::parse(d)?,
        })
    }
}

impl fmt::Display for MeleeResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.attacker, self.defender)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeleeCrt {
    /// `rows[die - 1][differential + 4]`.
    pub rows: [[MeleeResult; MELEE_COLUMNS]; 6],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawMelee {
    differentials: Spanned<Vec<i32>>,
    rows: RawGrid,
}

const CELL: &str = "ATTACKER/DEFENDER with each side -, K, Eng, Rpls, R# or C#R#";

impl MeleeCrt {
    pub(super) fn read(input: &str, raw: RawMelee) -> Result<Self, TextError> {
        let expected: Vec<i32> = (MIN_DIFFERENTIAL..=MAX_DIFFERENTIAL).collect();
        if raw.differentials.get_ref() != &expected {
            return Err(error_at(
                input,
                &raw.differentials,
                "differentials must be -4 to 6",
            ));
        }
        Ok(MeleeCrt {
            rows: grid(input, raw.rows, CELL, MeleeResult::parse)?,
        })
    }

    /// GBACW 12.0/12.98: the result for a differential (clamped to the
    /// table) and a die roll 1..=6; `None` for a die outside 1..=6.
    pub fn result(&self, differential: i32, die: u8) -> Option<MeleeResult> {
        let d = differential.clamp(MIN_DIFFERENTIAL, MAX_DIFFERENTIAL) - MIN_DIFFERENTIAL;
        let row = self.rows.get(usize::from(die).checked_sub(1)?)?;
        row.get(usize::try_from(d).ok()?).copied()
    }
}
