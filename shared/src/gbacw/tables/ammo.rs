//! GBACW 11.34: the Ammunition Loss Table (artillery fire on a wagon, 11.12).

use super::grid::{RawGrid, grid};
use crate::gbacw::text::TextError;
use serde::{Deserialize, Serialize};
use std::fmt;

/// One cell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum AmmoLoss {
    /// Ammunition points lost from the wagon's track; `artillery: None`
    /// means all artillery ammunition (`E`).
    Points {
        small_arms: u8,
        artillery: Option<u8>,
    },
    /// `WE`: the wagon is eliminated.
    #[default]
    WagonEliminated,
}

impl AmmoLoss {
    fn parse(s: &str) -> Option<Self> {
        if s == "WE" {
            return Some(AmmoLoss::WagonEliminated);
        }
        let (sa, art) = s.split_once('/')?;
        let small_arms = sa.parse().ok()?;
        let artillery = if art == "E" {
            None
        } else {
            Some(art.parse().ok()?)
        };
        Some(AmmoLoss::Points {
            small_arms,
            artillery,
        })
    }
}

impl fmt::Display for AmmoLoss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AmmoLoss::WagonEliminated => f.write_str("WE"),
            AmmoLoss::Points {
                small_arms,
                artillery: Some(a),
            } => write!(f, "{small_arms}/{a}"),
            AmmoLoss::Points {
                small_arms,
                artillery: None,
            } => write!(f, "{small_arms}/E"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AmmoLossTable {
    /// `rows[die - 1][fire result - 1]`.
    pub rows: [[AmmoLoss; 3]; 6],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawAmmo {
    rows: RawGrid,
}

impl AmmoLossTable {
    pub(super) fn read(input: &str, raw: RawAmmo) -> Result<Self, TextError> {
        Ok(AmmoLossTable {
            rows: grid(input, raw.rows, "S/A (numbers or E) or WE", AmmoLoss::parse)?,
        })
    }

    /// The loss for a numeric fire result (1..=3; the Fire CRT's largest
    /// artillery result on a wagon is 3) and a die roll 1..=6.
    pub fn result(&self, fire_result: u8, die: u8) -> Option<AmmoLoss> {
        let row = self.rows.get(usize::from(die).checked_sub(1)?)?;
        row.get(usize::from(fire_result).checked_sub(1)?).copied()
    }
}
