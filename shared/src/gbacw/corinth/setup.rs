//! Set-up restrictions of the Free Set-Up scenario (Corinth 29.4) as
//! checks over the map and a proposed Union deployment. They report every
//! breach instead of stopping at the first, so a set-up screen can mark
//! all offending counters at once.

use super::distance_to_assault_areas;
use crate::gbacw::map::{HexNumber, Map, SideKind};
use crate::gbacw::oob::CounterId;
use std::fmt;

/// One Union counter placed on the map before play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    pub counter: CounterId,
    pub hex: HexNumber,
}

/// Why a placement breaks Corinth 29.41.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupViolation {
    /// 29.41: within 4 hexes of an Assault Area, and not adjacent to and on
    /// the interior side of the outer works.
    NearAssaultArea {
        counter: CounterId,
        hex: HexNumber,
        distance: u32,
    },
    /// The hex is not on the map at all.
    OffMap { counter: CounterId, hex: HexNumber },
}

impl fmt::Display for SetupViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupViolation::NearAssaultArea {
                counter,
                hex,
                distance,
            } => write!(
                f,
                "{counter} in {hex} is {distance} hexes from an Assault Area (29.41: more than 4, unless just inside the outer works)"
            ),
            SetupViolation::OffMap { counter, hex } => {
                write!(f, "{counter} in {hex} is off the map")
            }
        }
    }
}

/// Corinth 29.41, exception: a hex adjacent to and on the interior side of
/// an outer works hexside (e.g. 2802). The map's works name their inner
/// hex, so this is "some works hexside of `h` names `h`".
pub fn inside_outer_works(map: &Map, h: HexNumber) -> bool {
    map.grid.neighbours_on_map(h).into_iter().any(|(_, n)| {
        map.grid.hexside(h, n).is_some_and(|side| {
            map.side_feature(side, SideKind::Works)
                .is_some_and(|f| f.side == Some(h))
        })
    })
}

/// Corinth 29.41: "No Union unit may be set up within 4 hexes of a
/// Confederate Assault Area", except just inside the outer works.
pub fn hex_allowed_29_41(map: &Map, h: HexNumber) -> bool {
    if map.hex(h).is_none() {
        return false;
    }
    match distance_to_assault_areas(map, h) {
        Some(d) if d <= 4 => inside_outer_works(map, h),
        _ => true,
    }
}

/// Every placement that breaks Corinth 29.41, in the order given.
pub fn check_29_41(map: &Map, setup: &[Placement]) -> Vec<SetupViolation> {
    setup
        .iter()
        .filter_map(|p| {
            if map.hex(p.hex).is_none() {
                return Some(SetupViolation::OffMap {
                    counter: p.counter.clone(),
                    hex: p.hex,
                });
            }
            if hex_allowed_29_41(map, p.hex) {
                return None;
            }
            Some(SetupViolation::NearAssaultArea {
                counter: p.counter.clone(),
                hex: p.hex,
                distance: distance_to_assault_areas(map, p.hex).unwrap_or(0),
            })
        })
        .collect()
}
