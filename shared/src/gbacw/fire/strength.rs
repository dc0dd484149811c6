//! GBACW 9.1, 9.25, 9.3, 9.4, 15.13: fire strength after range.

use crate::gbacw::charts::{Multiplier, Weapon};
use crate::gbacw::oob::Crew;
use hexx::EdgeDirection;
use serde::{Deserialize, Serialize};
use std::ops::Add;

/// A fire strength as an exact fraction: range multipliers give halves
/// and thirds (9.45: 2 guns at x1/2 = 1), and several firers are totalled
/// before the column is found (9.41).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FireStrength {
    num: u64,
    den: u64,
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a.max(1) } else { gcd(b, a % b) }
}

impl FireStrength {
    pub const ZERO: FireStrength = FireStrength { num: 0, den: 1 };

    pub fn new(num: u64, den: u64) -> Self {
        let den = den.max(1);
        let g = gcd(num, den);
        FireStrength {
            num: num / g,
            den: den / g,
        }
    }

    /// The whole strength the CRT's column headings are read with. The
    /// texts do not say how to round a fractional total; the engine drops
    /// the fraction (a total of 1½ reads the "1 to 3" column either way
    /// except at the column edges).
    pub fn whole(self) -> u32 {
        u32::try_from(self.num / self.den).unwrap_or(u32::MAX)
    }

    /// GBACW 9.46: a split share must come to at least 1.
    pub fn at_least_one(self) -> bool {
        self.num >= self.den
    }
}

impl Add for FireStrength {
    type Output = FireStrength;
    fn add(self, o: FireStrength) -> FireStrength {
        let den = self.den / gcd(self.den, o.den) * o.den;
        FireStrength::new(self.num * (den / self.den) + o.num * (den / o.den), den)
    }
}

/// GBACW 9.1/9.25: the final strength of `points` (SP, or guns for a
/// battery: 9.13) fired at `range`, with the weapon's multiplier; a
/// half-crewed battery's guns are halved, rounding up, before range
/// (15.13, 9.13). `None` beyond the weapon's maximum range (9.23).
pub fn unit_fire_strength(
    weapon: &Weapon,
    points: u8,
    range: u32,
    crew: Crew,
) -> Option<FireStrength> {
    unit_fire_strength_read(weapon, points, range, crew, false)
}

/// [`unit_fire_strength`] under a reading of 15.13. GBACW 9.13: "All
/// artillery units have a Fire Strength equal to their Combat Strength
/// value (as modified by their gun crew status)", and the 9.0 Procedure
/// then modifies "the Combat Strength of each separate firing unit" by
/// range: a half crew halves the guns (rounding up, 15.13) before the
/// range multiplier — the default. With `half_crew_after_range` (the
/// `half-crew-after-range` reading: 15.13's "the current fire strength of
/// the battery is halved" read as the final strength) the strength after
/// range is halved, rounding up.
pub fn unit_fire_strength_read(
    weapon: &Weapon,
    points: u8,
    range: u32,
    crew: Crew,
    half_crew_after_range: bool,
) -> Option<FireStrength> {
    let Multiplier { num, den } = weapon.multiplier(range)?;
    let at = |guns: u8| FireStrength::new(u64::from(guns) * u64::from(num), u64::from(den));
    Some(match crew {
        // Halve, rounding fractions up: ceil(s / 2).
        Crew::Half if half_crew_after_range => {
            let s = at(points);
            FireStrength::new(s.num.div_ceil(2 * s.den), 1)
        }
        Crew::Half => at(points.div_ceil(2)),
        Crew::Full | Crew::None => at(points),
    })
}

/// GBACW 9.3/9.31: at most `limit` small-arms points (before range) fire
/// out through any one frontal hexside; artillery is exempt (9.32), so
/// callers pass small-arms allotments only. `Err` names the hexside.
pub fn check_hexside_limits(
    allotments: &[(EdgeDirection, u8)],
    limit: u16,
) -> Result<(), EdgeDirection> {
    for d in EdgeDirection::ALL_DIRECTIONS {
        let total: u16 = allotments
            .iter()
            .filter(|(x, _)| *x == d)
            .map(|(_, p)| u16::from(*p))
            .sum();
        if total > limit {
            return Err(d);
        }
    }
    Ok(())
}

/// GBACW 9.46: when a unit splits its fire, every share must reach a final
/// strength of at least 1; a unit firing whole at one target may fire at
/// any strength. `Err` is the index of the first short share.
pub fn check_split(shares: &[FireStrength]) -> Result<(), usize> {
    if shares.len() < 2 {
        return Ok(());
    }
    match shares.iter().position(|s| !s.at_least_one()) {
        Some(i) => Err(i),
        None => Ok(()),
    }
}

/// GBACW 3.32, 3.34, 9.1, 9.12, 9.22: a unit's fire strength now: its
/// current strength (the strength marker, not the printed number) for
/// infantry and dismounted cavalry, its guns for a battery (crew-modified,
/// 15.13), with the multiplier its counter's weapon letter gives at
/// `range`. `None` without a known weapon or beyond its range.
pub fn current_fire_strength(
    chart: &crate::gbacw::charts::RangeChart,
    unit: &crate::gbacw::oob::Unit,
    status: &crate::gbacw::oob::UnitStatus,
    range: u32,
) -> Option<FireStrength> {
    let weapon = chart.weapon(unit.weapon.as_deref()?)?;
    unit_fire_strength(weapon, status.strength, range, status.crew)
}

/// GBACW 9.45: a unit fires its Current Strength once in a Fire Phase; it
/// may split it among any number of target hexes, but the shares (of the
/// Current Strength, before range and terrain) may not add up to more. A
/// share of nothing is no share.
pub fn check_split_points(current: u8, shares: &[u8]) -> Result<(), &'static str> {
    let total: u16 = shares.iter().map(|s| u16::from(*s)).sum();
    if shares.contains(&0) || total > u16::from(current) {
        return Err("GBACW 9.45");
    }
    Ok(())
}
