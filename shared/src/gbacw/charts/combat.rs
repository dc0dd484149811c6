//! GBACW 9.56: the Terrain Effects on Combat Chart — fire column shifts
//! for the target's hex and the hexside fired across (9.5), what blocks
//! line of sight and how high it stands (9.71, 9.72), melee strength lost
//! crossing hexsides (12.31), and where cavalry may not charge (16.22).
//! The printed chart is not in the seeds; the values live in `charts.toml`.

use super::rows::keyed;
use super::source::{Sourced, checked};
use crate::gbacw::map::Terrain;
use crate::gbacw::names::named_enum;
use crate::gbacw::text::TextError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use toml::Spanned;

named_enum! {
    /// The hexside rows of the combat chart. Crests count only when the
    /// fire or the melee goes up them (9.52; 001's 12.31 "moving upcrest").
    pub enum CombatSide {
        Stream = "stream",
        Run = "run",
        CrestUp = "crest-up",
        SteepCrestUp = "steep-crest-up",
        StoneWall = "stone-wall",
        Works = "works",
        RedanPrimary = "redan-primary",
        RedanSecondary = "redan-secondary",
        Road = "road",
    }
}

/// One terrain's effects on combat in its hex.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HexCombat {
    /// Columns on the Fire CRT when the target is in this terrain;
    /// negative = left, in the defender's favour (9.51).
    pub fire_shift: Sourced<i8>,
    /// Height of the obstacle for line of sight (9.72); 0 = does not block.
    pub los_feet: Sourced<u16>,
    /// GBACW 16.22: whether mounted cavalry may charge into it.
    pub charge: Sourced<bool>,
}

/// One hexside kind's effects on combat across it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideCombat {
    /// Fire CRT columns when fire crosses it into the target's hex.
    pub fire_shift: Sourced<i8>,
    /// GBACW 12.31: melee points subtracted from units crossing it.
    pub melee: Sourced<u8>,
    /// GBACW 16.22: whether mounted cavalry may charge across it.
    pub charge: Sourced<bool>,
    /// Height of the obstacle for line of sight; 0 = none.
    pub los_feet: Sourced<u16>,
}

/// GBACW 9.72: the heights units add to the ground for line of sight.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitHeights {
    /// Infantry, artillery, dismounted cavalry.
    pub foot: Sourced<u16>,
    /// Mounted cavalry and supply wagons.
    pub mounted: Sourced<u16>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombatChart {
    pub hex: BTreeMap<Terrain, HexCombat>,
    pub hexside: BTreeMap<CombatSide, SideCombat>,
    pub heights: UnitHeights,
    /// GBACW 9.51: the final net terrain shift is at most this many columns.
    pub max_terrain_shift: Sourced<u8>,
}

type V<T> = Spanned<Sourced<T>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawHex {
    fire_shift: V<i8>,
    los_feet: V<u16>,
    charge: V<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawSide {
    fire_shift: V<i8>,
    melee: V<u8>,
    charge: V<bool>,
    los_feet: V<u16>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHeights {
    foot: V<u16>,
    mounted: V<u16>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawCombat {
    hex: Spanned<BTreeMap<Spanned<String>, RawHex>>,
    hexside: Spanned<BTreeMap<Spanned<String>, RawSide>>,
    heights: RawHeights,
    max_terrain_shift: V<u8>,
}

impl CombatChart {
    pub(super) fn read(input: &str, raw: RawCombat) -> Result<Self, TextError> {
        let hex = keyed(input, raw.hex, "terrain", |_, h: RawHex| {
            Ok(HexCombat {
                fire_shift: checked(input, h.fire_shift)?,
                los_feet: checked(input, h.los_feet)?,
                charge: checked(input, h.charge)?,
            })
        })?;
        let hexside = keyed(input, raw.hexside, "hexside row", |_, s: RawSide| {
            Ok(SideCombat {
                fire_shift: checked(input, s.fire_shift)?,
                melee: checked(input, s.melee)?,
                charge: checked(input, s.charge)?,
                los_feet: checked(input, s.los_feet)?,
            })
        })?;
        Ok(CombatChart {
            hex,
            hexside,
            heights: UnitHeights {
                foot: checked(input, raw.heights.foot)?,
                mounted: checked(input, raw.heights.mounted)?,
            },
            max_terrain_shift: checked(input, raw.max_terrain_shift)?,
        })
    }

    /// GBACW 5.15: fire uses the terrain most beneficial to the defender,
    /// i.e. the most leftward shift among the hex's terrain types.
    pub fn hex_fire_shift<'a>(&self, terrain: impl IntoIterator<Item = &'a Terrain>) -> i8 {
        terrain
            .into_iter()
            .filter_map(|t| self.hex.get(t).map(|h| h.fire_shift.value))
            .min()
            .unwrap_or(0)
    }
}
