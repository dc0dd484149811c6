//! GBACW 13.15: the Seeing the Elephant Table (green units, 13.14).

use super::grid::fixed;
use crate::gbacw::charts::source::error_at;
use crate::gbacw::text::TextError;
use serde::{Deserialize, Serialize};
use toml::Spanned;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ElephantTable {
    /// Morale for 2d6 = 2..=12.
    pub morale: [u8; 11],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawElephant {
    morale: Spanned<Vec<u8>>,
}

impl ElephantTable {
    pub(super) fn read(input: &str, raw: RawElephant) -> Result<Self, TextError> {
        // GBACW 13.11: ratings run from 1 (worst) to 5 (best).
        if !raw.morale.get_ref().iter().all(|m| (1..=5).contains(m)) {
            return Err(error_at(
                input,
                &raw.morale,
                "morale ratings run from 1 to 5",
            ));
        }
        Ok(ElephantTable {
            morale: fixed(input, raw.morale, "morale (rolls 2..12)")?,
        })
    }

    /// GBACW 13.14: the permanent morale for a 2d6 roll; `None` outside 2..=12.
    pub fn morale(&self, roll: u8) -> Option<u8> {
        self.morale.get(usize::from(roll).checked_sub(2)?).copied()
    }
}
