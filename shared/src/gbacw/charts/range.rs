//! GBACW 9.25: the Range Effects Chart — for each weapon code printed on
//! a counter (3.34), whether it is small arms or artillery, its maximum
//! range (9.23) and the multiplier on strength at each range (9.1).
//! The printed chart is not in the seeds; the values live in `charts.toml`.

use super::source::{Sourced, checked, error_at};
use crate::gbacw::text::TextError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use toml::Spanned;

/// GBACW 9.14/9.15: which row of the Fire CRT a weapon uses depends on
/// whether it is small arms or artillery.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WeaponKind {
    SmallArms,
    Artillery,
}

/// A strength multiplier as a fraction: ×10, ×½, ×⅓ (9.45).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Multiplier {
    pub num: u16,
    pub den: u16,
}

impl Multiplier {
    /// `"10"`, `"1/2"`.
    fn parse(text: &str) -> Option<Self> {
        let (num, den) = match text.split_once('/') {
            Some((n, d)) => (n.parse().ok()?, d.parse().ok()?),
            None => (text.parse().ok()?, 1),
        };
        (num > 0 && den > 0 && num <= 100 && den <= 100).then_some(Multiplier { num, den })
    }
}

impl fmt::Display for Multiplier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "x{}", self.num)
        } else {
            write!(f, "x{}/{}", self.num, self.den)
        }
    }
}

/// Ranges `from..=to` (in hexes, 9.23) at which `multiplier` applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RangeBand {
    pub from: u32,
    pub to: u32,
    pub multiplier: Multiplier,
}

impl RangeBand {
    /// `"1 x10"`, `"2-3 x1/2"`.
    fn parse(text: &str) -> Option<Self> {
        let (ranges, mult) = text.split_once(' ')?;
        let (from, to) = match ranges.split_once('-') {
            Some((a, b)) => (a.parse().ok()?, b.parse().ok()?),
            None => {
                let r = ranges.parse().ok()?;
                (r, r)
            }
        };
        let multiplier = Multiplier::parse(mult.trim().strip_prefix('x')?)?;
        (from >= 1 && from <= to && to <= 99).then_some(RangeBand {
            from,
            to,
            multiplier,
        })
    }
}

/// One weapon code's row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Weapon {
    pub name: Sourced<String>,
    pub kind: Sourced<WeaponKind>,
    /// GBACW 6.14/6.34: mounted cavalry may fire only pistols, Colt
    /// repeaters and carbines.
    pub mounted_fire: Sourced<bool>,
    /// Corinth 24.1: only L, N, HA, HB, HC batteries may rapid-fire.
    pub smoothbore: Sourced<bool>,
    /// Consecutive from range 1; the last band's end is the maximum range.
    pub bands: Vec<Sourced<RangeBand>>,
}

impl Weapon {
    /// GBACW 9.23: the farthest hex this weapon reaches.
    pub fn max_range(&self) -> u32 {
        self.bands.last().map_or(0, |b| b.value.to)
    }

    /// GBACW 9.1/9.25: the multiplier at `range`; `None` beyond range.
    pub fn multiplier(&self, range: u32) -> Option<Multiplier> {
        self.bands
            .iter()
            .find(|b| (b.value.from..=b.value.to).contains(&range))
            .map(|b| b.value.multiplier)
    }
}

/// The Range Effects Chart: weapon code (`"R"`, `"HB"`) to its row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RangeChart {
    pub weapons: BTreeMap<String, Weapon>,
}

type V<T> = Spanned<Sourced<T>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawWeapon {
    name: V<String>,
    kind: V<WeaponKind>,
    mounted_fire: V<bool>,
    smoothbore: V<bool>,
    bands: Spanned<Vec<V<String>>>,
}

pub(super) type RawRange = BTreeMap<Spanned<String>, RawWeapon>;

impl RangeChart {
    pub(super) fn read(input: &str, raw: RawRange) -> Result<Self, TextError> {
        let mut weapons = BTreeMap::new();
        for (code, w) in raw {
            let valid = (1..=3).contains(&code.get_ref().len())
                && code.get_ref().bytes().all(|b| b.is_ascii_uppercase());
            if !valid {
                return Err(error_at(
                    input,
                    &code,
                    "a weapon code is one to three capital letters",
                ));
            }
            let bands_span = w.bands.span();
            let mut bands = Vec::new();
            let mut next = 1;
            for b in w.bands.into_inner() {
                let band = RangeBand::parse(&b.get_ref().value).ok_or_else(|| {
                    error_at(
                        input,
                        &b,
                        "write a band as \"RANGE xMULT\" or \"FROM-TO xMULT\", e.g. \"2-3 x1/2\"",
                    )
                })?;
                if band.from != next {
                    return Err(error_at(
                        input,
                        &b,
                        format!("bands must run on without gaps: expected range {next} next"),
                    ));
                }
                next = band.to + 1;
                bands.push(checked(input, b)?.map(|_| band));
            }
            if bands.is_empty() {
                let at = Spanned::new(bands_span, ());
                return Err(error_at(
                    input,
                    &at,
                    "a weapon needs at least one range band",
                ));
            }
            let weapon = Weapon {
                name: checked(input, w.name)?,
                kind: checked(input, w.kind)?,
                mounted_fire: checked(input, w.mounted_fire)?,
                smoothbore: checked(input, w.smoothbore)?,
                bands,
            };
            weapons.insert(code.into_inner(), weapon);
        }
        Ok(RangeChart { weapons })
    }

    /// GBACW 9.21: the row for a counter's weapon code.
    pub fn weapon(&self, code: &str) -> Option<&Weapon> {
        self.weapons.get(code)
    }
}
