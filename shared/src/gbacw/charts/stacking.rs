//! GBACW 8.18: the Stacking Restrictions Chart — per terrain, how many
//! Strength Points and batteries a hex holds, how many small-arms points
//! fire through one hexside, and how many may melee into it. The printed
//! chart is not in the seeds; the values live in `charts.toml`.

use super::rows::keyed;
use super::source::{Sourced, checked};
use crate::gbacw::map::Terrain;
use crate::gbacw::text::TextError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use toml::Spanned;

/// One terrain's row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HexStacking {
    /// GBACW 8.11: most Stacking Points in the hex at the end of a phase.
    pub max_points: Sourced<u16>,
    /// GBACW 8.13: most batteries in the hex.
    pub max_batteries: Sourced<u16>,
    /// GBACW 7.21, 9.3: small-arms points firing out through one frontal hexside.
    pub fire_per_hexside: Sourced<u16>,
    /// GBACW 12.71: most Strength Points per side in a melee in this hex.
    pub melee_points: Sourced<u16>,
}

/// What counts toward stacking and density (8.12–8.14, 8.33, 8.34).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StackingPoints {
    pub battery: Sourced<u16>,
    pub wagon: Sourced<u16>,
    pub leader: Sourced<u16>,
    pub marker: Sourced<u16>,
}

/// Corinth 23.25/23.27: a redan hex's own limits, tighter than its terrain's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RedanStacking {
    /// Infantry points allowed beside one battery.
    pub points_with_battery: Sourced<u16>,
    /// Infantry points allowed with no guns.
    pub points_without_guns: Sourced<u16>,
    pub batteries: Sourced<u16>,
    pub melee_points: Sourced<u16>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StackingChart {
    pub hex: BTreeMap<Terrain, HexStacking>,
    pub points: StackingPoints,
    pub redan: RedanStacking,
}

type V<T> = Spanned<Sourced<T>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawHex {
    max_points: V<u16>,
    max_batteries: V<u16>,
    fire_per_hexside: V<u16>,
    melee_points: V<u16>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawPoints {
    battery: V<u16>,
    wagon: V<u16>,
    leader: V<u16>,
    marker: V<u16>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawRedan {
    points_with_battery: V<u16>,
    points_without_guns: V<u16>,
    batteries: V<u16>,
    melee_points: V<u16>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawStacking {
    hex: Spanned<BTreeMap<Spanned<String>, RawHex>>,
    points: RawPoints,
    redan: RawRedan,
}

impl StackingChart {
    pub(super) fn read(input: &str, raw: RawStacking) -> Result<Self, TextError> {
        let hex = keyed(input, raw.hex, "terrain", |_, h: RawHex| {
            Ok(HexStacking {
                max_points: checked(input, h.max_points)?,
                max_batteries: checked(input, h.max_batteries)?,
                fire_per_hexside: checked(input, h.fire_per_hexside)?,
                melee_points: checked(input, h.melee_points)?,
            })
        })?;
        let p = raw.points;
        let r = raw.redan;
        Ok(StackingChart {
            hex,
            points: StackingPoints {
                battery: checked(input, p.battery)?,
                wagon: checked(input, p.wagon)?,
                leader: checked(input, p.leader)?,
                marker: checked(input, p.marker)?,
            },
            redan: RedanStacking {
                points_with_battery: checked(input, r.points_with_battery)?,
                points_without_guns: checked(input, r.points_without_guns)?,
                batteries: checked(input, r.batteries)?,
                melee_points: checked(input, r.melee_points)?,
            },
        })
    }

    /// GBACW 8.11: the limits of a hex with several terrain types. The
    /// chart gives one row per terrain; the engine takes the tightest of
    /// each limit (an engine decision: 5.15 only says movement pays the
    /// dearest and fire uses the best for the defender). `None` if a
    /// terrain has no row.
    pub fn limits<'a>(&self, terrain: impl IntoIterator<Item = &'a Terrain>) -> Option<HexLimits> {
        let mut out: Option<HexLimits> = None;
        for t in terrain {
            let h = self.hex.get(t)?;
            let row = HexLimits {
                max_points: h.max_points.value,
                max_batteries: h.max_batteries.value,
                fire_per_hexside: h.fire_per_hexside.value,
                melee_points: h.melee_points.value,
            };
            out = Some(match out {
                None => row,
                Some(o) => HexLimits {
                    max_points: o.max_points.min(row.max_points),
                    max_batteries: o.max_batteries.min(row.max_batteries),
                    fire_per_hexside: o.fire_per_hexside.min(row.fire_per_hexside),
                    melee_points: o.melee_points.min(row.melee_points),
                },
            });
        }
        out
    }
}

/// The stacking limits that apply to one hex, values only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HexLimits {
    pub max_points: u16,
    pub max_batteries: u16,
    pub fire_per_hexside: u16,
    pub melee_points: u16,
}
