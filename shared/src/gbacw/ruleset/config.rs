//! What a GBACW table is created with: a scenario and the readings of the
//! rules where the two printings differ.

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// A GBACW table's configuration, fixed when the table is created and
/// recorded in the match log's header.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GbacwConfig {
    /// One of [`super::scenario::SCENARIOS`] (`"test"`).
    pub scenario: String,
    /// The 001 readings chosen instead of 004's. Empty = the later text,
    /// as DESIGN.md §1 makes the default. A set of named variants rather
    /// than a struct of flags, so a later variant does not change how an
    /// older log's config decodes.
    pub variants: BTreeSet<Variant>,
}

impl Default for GbacwConfig {
    fn default() -> Self {
        GbacwConfig {
            scenario: "test".into(),
            variants: BTreeSet::new(),
        }
    }
}

impl GbacwConfig {
    pub fn has(&self, v: Variant) -> bool {
        self.variants.contains(&v)
    }
}

/// A difference between the 001 and 004 printings that the engine decides
/// (`rules/gbacw/differences.md`), named after its 001 reading.
///
/// Differences that need no option: 5.2's "regiments" and 5.3 change
/// nothing 17.11, 11.13 and 13.54 do not already say; 8.17's "Friendly" is
/// implied by 5.12; 10.0 is a cross-reference. 9.7 and 9.73 are read as
/// DESIGN.md §1 says (001's hexside sentence and "or greater than") in
/// [`crate::gbacw::los`]. The fire, melee, morale and supply differences
/// (11.23, 12.31, 13.15, 13.26) get their variants with those phases.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Variant {
    /// GBACW 11.1 (001): an uncrewed supply wagon may still move; 004 adds
    /// "nor may it move (in any Phase)".
    UncrewedWagonsMove,
}

impl Variant {
    pub const ALL: [Variant; 1] = [Variant::UncrewedWagonsMove];

    /// The case the variant reads differently.
    pub fn case(self) -> &'static str {
        match self {
            Variant::UncrewedWagonsMove => "GBACW 11.1",
        }
    }

    /// The 001 reading, in words, for a table-creation screen.
    pub fn describe(self) -> &'static str {
        match self {
            Variant::UncrewedWagonsMove => "uncrewed supply wagons may move (001)",
        }
    }
}
