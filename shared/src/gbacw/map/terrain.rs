//! The kinds of terrain a GBACW map shows: in a hex, and along a hexside.
//!
//! The names are the words of the map and chart files, so one table
//! (`NAMES`) turns text into a type and back; the charts key their costs
//! and shifts by the same words.

use super::coord::HexNumber;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What fills a hex. A hex may show several (GBACW 5.15: "a hex with two or
/// more types of terrain"); movement pays for the dearest and fire uses the
/// one best for the defender.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Terrain {
    Clear,
    Woods,
    Orchard,
    /// Corinth 23.3.
    Town,
    /// Corinth 23.5.
    Swamp,
    /// Cedar Mountain 21.4: standing corn.
    Corn,
    /// Cedar Mountain 21.34.
    Lake,
}

impl Terrain {
    pub const ALL: [Terrain; 7] = [
        Terrain::Clear,
        Terrain::Woods,
        Terrain::Orchard,
        Terrain::Town,
        Terrain::Swamp,
        Terrain::Corn,
        Terrain::Lake,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Terrain::Clear => "clear",
            Terrain::Woods => "woods",
            Terrain::Orchard => "orchard",
            Terrain::Town => "town",
            Terrain::Swamp => "swamp",
            Terrain::Corn => "corn",
            Terrain::Lake => "lake",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Terrain::ALL.into_iter().find(|t| t.name() == name)
    }
}

impl fmt::Display for Terrain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The kind of a hexside feature, without its direction; what the charts
/// price and what the map file names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum SideKind {
    Stream,
    /// Cedar Mountain 21.35: the forks of Cedar Run, deeper than streams.
    Run,
    /// A stream or run crossing without a bridge that eases the crossing.
    Ford,
    /// GBACW 6.11/6.12: only column, limbered and mounted units use it.
    Bridge,
    /// GBACW 9.52: the elevation changes across this hexside.
    Crest,
    /// Cedar Mountain 21.33.
    SteepCrest,
    Road,
    Pike,
    /// Cedar Mountain 21.31.
    Trail,
    /// Corinth 23.4: eases some movement, no other effect.
    Railroad,
    StoneWall,
    /// Corinth 23.1: the outer works.
    Works,
    /// Corinth 23.2: a primary redan (named after its battery commander).
    RedanPrimary,
    /// Corinth 23.2: a secondary redan (lettered).
    RedanSecondary,
    /// Cedar Mountain 21.34: an all-lake hexside, impassable.
    Lake,
}

impl SideKind {
    pub const ALL: [SideKind; 15] = [
        SideKind::Stream,
        SideKind::Run,
        SideKind::Ford,
        SideKind::Bridge,
        SideKind::Crest,
        SideKind::SteepCrest,
        SideKind::Road,
        SideKind::Pike,
        SideKind::Trail,
        SideKind::Railroad,
        SideKind::StoneWall,
        SideKind::Works,
        SideKind::RedanPrimary,
        SideKind::RedanSecondary,
        SideKind::Lake,
    ];

    pub fn name(self) -> &'static str {
        match self {
            SideKind::Stream => "stream",
            SideKind::Run => "run",
            SideKind::Ford => "ford",
            SideKind::Bridge => "bridge",
            SideKind::Crest => "crest",
            SideKind::SteepCrest => "steep-crest",
            SideKind::Road => "road",
            SideKind::Pike => "pike",
            SideKind::Trail => "trail",
            SideKind::Railroad => "railroad",
            SideKind::StoneWall => "stone-wall",
            SideKind::Works => "works",
            SideKind::RedanPrimary => "redan-primary",
            SideKind::RedanSecondary => "redan-secondary",
            SideKind::Lake => "lake",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        SideKind::ALL.into_iter().find(|k| k.name() == name)
    }

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

impl fmt::Display for SideKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
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

    #[test]
    fn names_round_trip() {
        for t in Terrain::ALL {
            assert_eq!(Terrain::from_name(t.name()), Some(t));
        }
        for k in SideKind::ALL {
            assert_eq!(SideKind::from_name(k.name()), Some(k));
        }
        assert_eq!(Terrain::from_name("Woods"), None);
    }
}
