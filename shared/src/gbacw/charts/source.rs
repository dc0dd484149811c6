//! Provenance of chart values and the plumbing shared by the chart loaders.
//!
//! The mapsheet charts are not in the seed texts (see DESIGN.md §1), so
//! most values are provisional. Every value in `charts.toml` therefore
//! says whether it is provisional and why: `{ v = 6, provisional = false,
//! why = "Corinth 26.11: ..." }`. The client shows the mark; a player who
//! owns the printed charts corrects the file, not the code.

use crate::gbacw::text::TextError;
use serde::{Deserialize, Serialize};
use std::fmt;
use toml::Spanned;

/// Largest chart or table file accepted.
pub const MAX_CHART_BYTES: usize = 256 * 1024;

/// One chart value with where it came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sourced<T> {
    #[serde(rename = "v")]
    pub value: T,
    /// `true` when no seed gives the value and it was chosen by reasoning.
    pub provisional: bool,
    /// The citation, or the one-line reasoning for a provisional value.
    pub why: String,
}

impl<T> Sourced<T> {
    /// Keep the provenance, change the value (after parsing a text cell).
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Sourced<U> {
        Sourced {
            value: f(self.value),
            provisional: self.provisional,
            why: self.why,
        }
    }
}

/// Turn a byte offset into a 1-based line and column (in characters).
pub fn locate(input: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(input.len());
    let before = input.get(..offset).unwrap_or(input);
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = input
        .get(line_start..offset)
        .map_or(1, |s| s.chars().count() + 1);
    (line, column)
}

/// An error at a spanned place of the file.
pub fn error_at<T>(input: &str, at: &Spanned<T>, message: impl Into<String>) -> TextError {
    let (line, column) = locate(input, at.span().start);
    TextError {
        line,
        column,
        message: message.into(),
    }
}

/// Deserialize a whole chart file, turning toml's errors into ours.
pub fn from_toml<T: serde::de::DeserializeOwned>(input: &str, what: &str) -> Result<T, TextError> {
    crate::gbacw::text::check_size(input, MAX_CHART_BYTES, what)?;
    toml::from_str(input).map_err(|e| {
        let (line, column) = e.span().map_or((0, 0), |s| locate(input, s.start));
        TextError {
            line,
            column,
            message: e.message().to_string(),
        }
    })
}

/// Check a value's provenance: the reason must be there.
pub fn checked<T>(input: &str, s: Spanned<Sourced<T>>) -> Result<Sourced<T>, TextError> {
    if s.get_ref().why.trim().is_empty() {
        return Err(error_at(
            input,
            &s,
            "every chart value needs a `why`: a citation or a one-line reason",
        ));
    }
    Ok(s.into_inner())
}

/// Movement Points, counted in halves: Corinth 30.13 has column units
/// entering by road at ½, 1, 1½ MP.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Mp(pub u16);

impl Mp {
    pub const ZERO: Mp = Mp(0);

    pub fn from_whole(n: u16) -> Mp {
        Mp(n.saturating_mul(2))
    }

    /// Read 1, 0.5, 1.5 ...: whole or half points only.
    pub fn from_f64(x: f64) -> Option<Mp> {
        let halves = x * 2.0;
        (halves.fract() == 0.0 && (0.0..=200.0).contains(&halves)).then_some(Mp(halves as u16))
    }

    pub fn halves(self) -> u16 {
        self.0
    }
}

impl std::ops::Add for Mp {
    type Output = Mp;
    fn add(self, rhs: Mp) -> Mp {
        Mp(self.0.saturating_add(rhs.0))
    }
}

impl fmt::Display for Mp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.0 / 2, self.0 % 2) {
            (0, 1) => f.write_str("½"),
            (n, 1) => write!(f, "{n}½"),
            (n, _) => write!(f, "{n}"),
        }
    }
}

/// A chart cell as TOML writes it: a number or a word (`"P"`, `"-"`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Cell {
    Int(i64),
    Float(f64),
    Word(String),
}

impl Cell {
    /// A whole or half number of Movement Points.
    pub fn mp(&self) -> Option<Mp> {
        match self {
            Cell::Int(n) => u16::try_from(*n)
                .ok()
                .filter(|n| *n <= 100)
                .map(Mp::from_whole),
            Cell::Float(x) => Mp::from_f64(*x),
            Cell::Word(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locate_counts_lines_and_characters() {
        let s = "ab\nçd\nef";
        assert_eq!(locate(s, 0), (1, 1));
        assert_eq!(locate(s, 3), (2, 1));
        assert_eq!(locate(s, 5), (2, 2));
        assert_eq!(locate(s, 99), (3, 3));
    }

    #[test]
    fn mp_in_halves() {
        assert_eq!(Mp::from_f64(1.5), Some(Mp(3)));
        assert_eq!(Mp::from_f64(0.3), None);
        assert_eq!(Mp::from_f64(-1.0), None);
        assert_eq!(Mp(1).to_string(), "½");
        assert_eq!(Mp(3).to_string(), "1½");
        assert_eq!(Mp(4).to_string(), "2");
        assert_eq!(Cell::Int(-1).mp(), None);
    }
}
