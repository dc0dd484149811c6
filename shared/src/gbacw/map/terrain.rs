//! The kinds of terrain a GBACW map shows: in a hex, and along a hexside.
//!
//! The names are the words of the map and chart files, so one table
//! (`NAMES`) turns text into a type and back; the charts key their costs
//! and shifts by the same words.

use super::coord::HexNumber;
use crate::gbacw::names::named_enum;
use serde::{Deserialize, Serialize};
use std::fmt;

named_enum! {
    /// What fills a hex. A hex may show several (GBACW 5.15: "a hex with
    /// two or more types of terrain"); movement pays for the dearest and
    /// fire uses the one best for the defender.
    pub enum Terrain {
        Clear = "clear",
        Woods = "woods",
        Orchard = "orchard",
        /// Corinth 23.3.
        Town = "town",
        /// Corinth 23.5.
        Swamp = "swamp",
        /// Cedar Mountain 21.4: standing corn.
        Corn = "corn",
        /// Cedar Mountain 21.34.
        Lake = "lake",
    }
}

named_enum! {
    /// The kind of a hexside feature, without its direction; what the
    /// charts price and what the map file names.
    pub enum SideKind {
        Stream = "stream",
        /// Cedar Mountain 21.35: the forks of Cedar Run, deeper than streams.
        Run = "run",
        /// A stream or run crossing that eases the crossing.
        Ford = "ford",
        /// GBACW 6.11/6.12: only column, limbered and mounted units use it.
        Bridge = "bridge",
        /// GBACW 9.52: the elevation changes across this hexside.
        Crest = "crest",
        /// Cedar Mountain 21.33.
        SteepCrest = "steep-crest",
        Road = "road",
        Pike = "pike",
        /// Cedar Mountain 21.31.
        Trail = "trail",
        /// Corinth 23.4: eases some movement, no other effect.
        Railroad = "railroad",
        StoneWall = "stone-wall",
        /// Corinth 23.1: the outer works.
        Works = "works",
        /// Corinth 23.2: a primary redan (named after its battery commander).
        RedanPrimary = "redan-primary",
        /// Corinth 23.2: a secondary redan (lettered).
        RedanSecondary = "redan-secondary",
        /// Cedar Mountain 21.34: an all-lake hexside, impassable.
        Lake = "lake",
    }
}

impl SideKind {
    /// Whether the feature has a side that matters: the high side of a
    /// crest, the side a wall or work protects.
    pub fn is_directed(self) -> bool {
        matches!(
            self,
            SideKind::Crest
                | SideKind::SteepCrest
                | SideKind::StoneWall
                | SideKind::Works
                | SideKind::RedanPrimary
                | SideKind::RedanSecondary
        )
    }

    /// What the hex named after `:` means for a directed feature.
    pub fn side_meaning(self) -> &'static str {
        match self {
            SideKind::Crest | SideKind::SteepCrest => "the higher side",
            _ => "the protected (inner) side",
        }
    }
}

/// One feature on a hexside. Directed kinds name one of the two hexes:
/// for a crest the higher one (GBACW 9.52 asks whether the firer is
/// lower), for walls, works and redans the inner one (Corinth 23.1: the
/// teeth mark the outer side; 23.21: the occupant sits on the inner side).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct SideFeature {
    pub kind: SideKind,
    pub side: Option<HexNumber>,
}

impl fmt::Display for SideFeature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.side {
            Some(h) => write!(f, "{}:{h}", self.kind),
            None => write!(f, "{}", self.kind),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gbacw::names::Named;

    #[test]
    fn names_round_trip() {
        for &t in Terrain::all() {
            assert_eq!(Terrain::from_name(t.name()), Some(t));
        }
        for &k in SideKind::all() {
            assert_eq!(SideKind::from_name(k.name()), Some(k));
        }
        assert_eq!(Terrain::from_name("Woods"), None);
    }
}
