//! GBACW 9.16: the Fire Combat Results Table.

use super::grid::{RawGrid, fixed, grid};
use crate::gbacw::charts::source::error_at;
use crate::gbacw::text::TextError;
use serde::{Deserialize, Serialize};
use std::fmt;
use toml::Spanned;

/// Number of strength columns on the table.
pub const FIRE_COLUMNS: usize = 11;

/// GBACW 9.14/9.15: which row of column headings applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FireRow {
    /// Artillery firing at infantry or cavalry.
    Grapeshot,
    /// All small arms; artillery firing at artillery or supply wagons.
    SmallArmsAndCounterBattery,
}

/// One cell of the table (key printed below the chart; 9.8x).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum FireResult {
    /// `-`
    #[default]
    NoEffect,
    /// `P`: a die above morale pins (9.87).
    MaybePin,
    /// `R`: a die above morale routs (9.87).
    MaybeRout,
    /// `P/R`: a die above morale routs, otherwise pinned (9.83).
    PinOrRout,
    /// `#` / `#*`: lose that many points or guns and check morale (9.81);
    /// with `*`, a unit that passes rolls again for a pin (9.88).
    Loss { points: u8, then_pin_check: bool },
}

impl FireResult {
    fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "-" => FireResult::NoEffect,
            "P" => FireResult::MaybePin,
            "R" => FireResult::MaybeRout,
            "P/R" => FireResult::PinOrRout,
            _ => {
                let (digits, star) = match s.strip_suffix('*') {
                    Some(d) => (d, true),
                    None => (s, false),
                };
                let points: u8 = digits.parse().ok().filter(|n| (1..=9).contains(n))?;
                FireResult::Loss {
                    points,
                    then_pin_check: star,
                }
            }
        })
    }
}

impl fmt::Display for FireResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FireResult::NoEffect => f.write_str("-"),
            FireResult::MaybePin => f.write_str("P"),
            FireResult::MaybeRout => f.write_str("R"),
            FireResult::PinOrRout => f.write_str("P/R"),
            FireResult::Loss {
                points,
                then_pin_check,
            } => write!(f, "{points}{}", if *then_pin_check { "*" } else { "" }),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FireCrt {
    /// Lowest total strength of columns 2..=11 on the grapeshot row.
    pub grapeshot_from: [u16; FIRE_COLUMNS - 1],
    /// Lowest total strength of columns 2..=11 on the small-arms row.
    pub small_arms_from: [u16; FIRE_COLUMNS - 1],
    /// `rows[die - 1][column]`.
    pub rows: [[FireResult; FIRE_COLUMNS]; 6],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawFire {
    grapeshot_from: Spanned<Vec<u16>>,
    small_arms_from: Spanned<Vec<u16>>,
    rows: RawGrid,
}

const CELL: &str = "-, P, R, P/R, a number of losses or a number with *";

impl FireCrt {
    pub(super) fn read(input: &str, raw: RawFire) -> Result<Self, TextError> {
        let check_rising = |v: &Spanned<Vec<u16>>| {
            if v.get_ref().windows(2).all(|w| w[0] < w[1]) {
                Ok(())
            } else {
                Err(error_at(input, v, "column thresholds must rise"))
            }
        };
        check_rising(&raw.grapeshot_from)?;
        check_rising(&raw.small_arms_from)?;
        Ok(FireCrt {
            grapeshot_from: fixed(input, raw.grapeshot_from, "grapeshot-from")?,
            small_arms_from: fixed(input, raw.small_arms_from, "small-arms-from")?,
            rows: grid(input, raw.rows, CELL, FireResult::parse)?,
        })
    }

    /// The column (0-based) for a total fire strength (9.0), before shifts.
    /// GBACW 9.51: a strength above the last heading uses the last column.
    pub fn column(&self, row: FireRow, strength: u32) -> usize {
        let from = match row {
            FireRow::Grapeshot => &self.grapeshot_from,
            FireRow::SmallArmsAndCounterBattery => &self.small_arms_from,
        };
        from.iter()
            .take_while(|f| strength >= u32::from(**f))
            .count()
    }

    /// GBACW 9.51: apply a net column shift, clamped to the table's ends.
    pub fn shifted(column: usize, shift: i32) -> usize {
        let c = i64::try_from(column).unwrap_or(0) + i64::from(shift);
        usize::try_from(c.clamp(0, FIRE_COLUMNS as i64 - 1)).unwrap_or(0)
    }

    /// The result for a column and a die roll (1..=6); `None` for a die
    /// outside 1..=6 or a column off the table.
    pub fn result(&self, column: usize, die: u8) -> Option<FireResult> {
        self.rows
            .get(usize::from(die).checked_sub(1)?)?
            .get(column)
            .copied()
    }
}
