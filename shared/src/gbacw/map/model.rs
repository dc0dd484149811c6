//! A loaded map: the grid, every hex's terrain and elevation, and the
//! features along hexsides. Fixed scenario data, read once by the ruleset;
//! ordered maps keep every walk over it deterministic.

use super::coord::{Grid, HexNumber, Hexside};
use super::terrain::{SideFeature, SideKind, Terrain};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// What one hex holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HexInfo {
    /// Never empty.
    pub terrain: BTreeSet<Terrain>,
    /// Elevation level as printed on the map (0 = lowest).
    pub level: u8,
    /// A name shown to players (a redan, a church, a victory hex).
    pub name: Option<String>,
}

impl HexInfo {
    pub fn has(&self, t: Terrain) -> bool {
        self.terrain.contains(&t)
    }
}

/// A map as the ruleset reads it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Map {
    pub name: String,
    /// Where the map comes from. Maps in `assets/` are reconstructions, not
    /// scans of the printed sheet, and the client shows this text.
    pub reconstruction: String,
    pub grid: Grid,
    /// Height in feet of each elevation level, for line of sight (GBACW
    /// 9.72: "other heights ... specifically indicated on the map").
    pub level_feet: BTreeMap<u8, u16>,
    pub(super) hexes: BTreeMap<HexNumber, HexInfo>,
    pub(super) sides: BTreeMap<Hexside, BTreeSet<SideFeature>>,
    /// Named sets of hexes printed on the map (Corinth's Assault Areas,
    /// 29.1); empty for maps without `area` lines.
    #[serde(default)]
    pub(super) areas: BTreeMap<String, BTreeSet<HexNumber>>,
}

impl Map {
    /// The hex's contents; `None` off the map.
    pub fn hex(&self, n: HexNumber) -> Option<&HexInfo> {
        self.hexes.get(&n)
    }

    /// Replace a hex's terrain (never left empty: `Clear` then); `false`
    /// off the map. For battle events that change the ground (Cedar
    /// Mountain 21.43: corn blown down is clear for the rest of the game).
    pub fn set_terrain(&mut self, n: HexNumber, mut terrain: BTreeSet<Terrain>) -> bool {
        if terrain.is_empty() {
            terrain.insert(Terrain::Clear);
        }
        match self.hexes.get_mut(&n) {
            Some(h) => {
                h.terrain = terrain;
                true
            }
            None => false,
        }
    }

    /// All hexes on the map, in number order.
    pub fn hexes(&self) -> impl Iterator<Item = (HexNumber, &HexInfo)> {
        self.hexes.iter().map(|(n, h)| (*n, h))
    }

    /// Every hexside that has features, in order.
    pub fn hexsides(&self) -> impl Iterator<Item = (Hexside, &BTreeSet<SideFeature>)> {
        self.sides.iter().map(|(s, f)| (*s, f))
    }

    /// The features along one hexside (empty if none).
    pub fn side_features(&self, side: Hexside) -> impl Iterator<Item = SideFeature> + '_ {
        self.sides.get(&side).into_iter().flatten().copied()
    }

    /// The feature of `kind` on the hexside, if there is one.
    pub fn side_feature(&self, side: Hexside, kind: SideKind) -> Option<SideFeature> {
        self.side_features(side).find(|f| f.kind == kind)
    }

    pub fn side_has(&self, side: Hexside, kind: SideKind) -> bool {
        self.side_feature(side, kind).is_some()
    }

    /// The hexes of a named area; `None` if the map has no such area.
    pub fn area(&self, name: &str) -> Option<&BTreeSet<HexNumber>> {
        self.areas.get(name)
    }

    /// Every named area, in name order.
    pub fn areas(&self) -> impl Iterator<Item = (&str, &BTreeSet<HexNumber>)> {
        self.areas.iter().map(|(n, h)| (n.as_str(), h))
    }

    /// Height of the ground in a hex in feet; `None` off the map.
    pub fn ground_feet(&self, n: HexNumber) -> Option<u16> {
        self.level_feet.get(&self.hex(n)?.level).copied()
    }

    /// GBACW 9.52: whether moving or firing from `from` into `to` goes up a
    /// crest (or steep crest) hexside.
    pub fn crosses_crest_upward(&self, from: HexNumber, to: HexNumber) -> bool {
        let Some(side) = self.grid.hexside(from, to) else {
            return false;
        };
        self.side_features(side)
            .any(|f| matches!(f.kind, SideKind::Crest | SideKind::SteepCrest) && f.side == Some(to))
    }
}
