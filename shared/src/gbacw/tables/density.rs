//! GBACW 8.35: the Density Adjustment Chart.

use super::grid::fixed;
use crate::gbacw::charts::source::error_at;
use crate::gbacw::text::TextError;
use serde::{Deserialize, Serialize};
use toml::Spanned;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DensityChart {
    /// Lowest Strength Point count of each column.
    pub points_from: [u16; 4],
    /// Fire CRT column shift of each column (+ = right).
    pub shift: [i8; 4],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawDensity {
    points_from: Spanned<Vec<u16>>,
    shift: Spanned<Vec<i8>>,
}

impl DensityChart {
    pub(super) fn read(input: &str, raw: RawDensity) -> Result<Self, TextError> {
        if !raw.points_from.get_ref().windows(2).all(|w| w[0] < w[1]) {
            return Err(error_at(
                input,
                &raw.points_from,
                "column thresholds must rise",
            ));
        }
        Ok(DensityChart {
            points_from: fixed(input, raw.points_from, "points-from")?,
            shift: fixed(input, raw.shift, "shift")?,
        })
    }

    /// GBACW 8.32: the column shift for `points` Strength Points in the
    /// target hex (batteries 1, wagons 4, leaders 0: 8.33, 8.34). A hex
    /// with fewer points than the first column (a lone leader) uses the
    /// first column.
    pub fn shift(&self, points: u32) -> i8 {
        let i = self
            .points_from
            .iter()
            .take_while(|f| points >= u32::from(**f))
            .count()
            .saturating_sub(1);
        self.shift[i]
    }
}
