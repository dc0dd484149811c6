//! Set-up restrictions of the Free Set-Up scenario (Corinth 29.4) as
//! checks over the map and a proposed Union deployment. They report every
//! breach instead of stopping at the first, so a set-up screen can mark
//! all offending counters at once.

use super::distance_to_assault_areas;
use crate::gbacw::map::{HexNumber, Map, SideKind};
use crate::gbacw::oob::{CounterId, LeaderRole, Oob, UnitKind};
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

/// Corinth 29.42: where the eleven Union infantry and cavalry brigades
/// stand. A brigade counts as "within 10 hexes" of a place when every one
/// of its placed infantry and cavalry units is (a brigade is placed as a
/// whole; a straggler outside makes it not count). Distance is counted
/// from the place exclusive, so "the Hotel hex 2437 is not counted".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BrigadeZones {
    /// Brigades within 10 hexes of an Assault Area (29.42.1: four to seven).
    pub near_assault_areas: Vec<CounterId>,
    /// Brigades within 10 hexes of the Tishomingo Hotel (29.42.2: exactly
    /// three; they are frozen until activated, 29.43).
    pub near_hotel: Vec<CounterId>,
}

/// Why a set-up breaks Corinth 29.42.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BrigadeCountViolation {
    /// 29.42.1: "at least four brigades, but not more than seven".
    AssaultAreas { found: usize },
    /// 29.42.2: "Three brigades must be placed within 10 hexes of the
    /// Tishomingo Hotel".
    Hotel { found: usize },
}

impl fmt::Display for BrigadeCountViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BrigadeCountViolation::AssaultAreas { found } => write!(
                f,
                "{found} brigades within 10 hexes of an Assault Area; 29.42 wants 4 to 7"
            ),
            BrigadeCountViolation::Hotel { found } => write!(
                f,
                "{found} brigades within 10 hexes of the Tishomingo Hotel; 29.42 wants 3"
            ),
        }
    }
}

/// Sort the Union brigades of `oob` by where their placed infantry and
/// cavalry stand.
pub fn brigade_zones(map: &Map, oob: &Oob, setup: &[Placement]) -> BrigadeZones {
    let hotel = super::hex(super::TISHOMINGO_HOTEL);
    let mut zones = BrigadeZones::default();
    for leader in oob.leaders.values() {
        if leader.side.0 != "union" || !matches!(leader.role, LeaderRole::Brigade { .. }) {
            continue;
        }
        let hexes: Vec<HexNumber> = oob
            .brigade_units(&leader.id)
            .filter(|u| matches!(u.kind, UnitKind::Infantry | UnitKind::Cavalry))
            .filter_map(|u| setup.iter().find(|p| p.counter == u.id).map(|p| p.hex))
            .collect();
        if hexes.is_empty() {
            continue;
        }
        let near_area = hexes
            .iter()
            .all(|h| distance_to_assault_areas(map, *h).is_some_and(|d| d <= 10));
        let near_hotel =
            hotel.is_some_and(|c| hexes.iter().all(|h| map.grid.distance(*h, c) <= 10));
        if near_area {
            zones.near_assault_areas.push(leader.id.clone());
        }
        if near_hotel {
            zones.near_hotel.push(leader.id.clone());
        }
    }
    zones
}

/// Corinth 29.42: the brigade counts of a complete Union set-up.
pub fn check_29_42(map: &Map, oob: &Oob, setup: &[Placement]) -> Vec<BrigadeCountViolation> {
    let z = brigade_zones(map, oob, setup);
    let mut out = Vec::new();
    if !(4..=7).contains(&z.near_assault_areas.len()) {
        out.push(BrigadeCountViolation::AssaultAreas {
            found: z.near_assault_areas.len(),
        });
    }
    if z.near_hotel.len() != 3 {
        out.push(BrigadeCountViolation::Hotel {
            found: z.near_hotel.len(),
        });
    }
    out
}
