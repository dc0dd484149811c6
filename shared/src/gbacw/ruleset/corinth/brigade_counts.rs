//! Corinth 29.42: "There are 11 Union infantry and cavalry brigades which
//! must be set up within the following limitations: 1. At least four
//! brigades, but not more than seven, must be placed within 10 hexes of a
//! Confederate Assault Area. 2. Three brigades must be placed within 10
//! hexes of the Tishomingo Hotel (the Hotel hex 2437 is not counted)."
//!
//! It constrains the whole set-up, not one placement, so it is checked
//! when the set-up ends (`EndSetUp`), after the default deployment has
//! placed whatever the player left. That completion aims at the counts
//! ([`Aim`]): each brigade still to place gets a zone (by the Hotel, near
//! an Assault Area, or neither) and its units try that zone's hexes first.
//!
//! Readings (the counting itself is `corinth::setup::brigade_zones`): a
//! brigade is within 10 hexes of a place when every one of its placed
//! infantry and cavalry units is; "the Hotel hex is not counted" is SPI's
//! way of counting a distance (from the next hex), so a brigade 10 hexes
//! from 2437 is within and one in 2437 is too.

use crate::engine::{RuleCode, RuleError};
use crate::gbacw::corinth::setup::{Placement, brigade_zones, check_29_42};
use crate::gbacw::corinth::{TISHOMINGO_HOTEL, distance_to_assault_areas, hex};
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{Command, CounterId, LeaderRole, UnitKind};
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::ruleset::{Gbacw, err};
use crate::gbacw::scenario::HookKind;
use std::collections::BTreeMap;

/// Where a brigade's units go, for the counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Zone {
    /// Within 10 hexes of the Tishomingo Hotel (29.42.2).
    Hotel,
    /// Within 10 hexes of an Assault Area (29.42.1).
    Area,
    /// Neither: counted by no limit (29.42.3, "as desired").
    Neither,
}

/// The 29.42 hook, if this battle plays it for `side`.
pub(crate) fn applies(rs: &Gbacw, side: &CounterId) -> bool {
    rs.game
        .scenario
        .hook(HookKind::BrigadeCounts)
        .is_some_and(|h| h.param("side") == Some(side.0.as_str()))
}

/// The zone of one hex. The Hotel and the Assault Areas are more than 20
/// hexes apart on this map, so no hex is in both; were one, the Hotel
/// would win (its count is exact).
pub(crate) fn zone_of(rs: &Gbacw, h: HexNumber) -> Zone {
    let map = &rs.game.map;
    if hex(TISHOMINGO_HOTEL).is_some_and(|c| map.grid.distance(h, c) <= 10) {
        Zone::Hotel
    } else if distance_to_assault_areas(map, h).is_some_and(|d| d <= 10) {
        Zone::Area
    } else {
        Zone::Neither
    }
}

/// `side`'s counters on the map.
fn placements(rs: &Gbacw, state: &GbacwState, side: &CounterId) -> Vec<Placement> {
    let oob = &rs.game.oob;
    state
        .units
        .iter()
        .filter(|(id, _)| oob.units.get(*id).is_some_and(|u| u.side == *side))
        .filter_map(|(id, u)| {
            u.hex.map(|hex| Placement {
                counter: id.clone(),
                hex,
            })
        })
        .collect()
}

/// Corinth 29.42 on the finished set-up of `side`: a clear refusal naming
/// the counts and the brigades counted.
pub(crate) fn check(rs: &Gbacw, state: &GbacwState, side: &CounterId) -> Result<(), RuleError> {
    if !applies(rs, side) {
        return Ok(());
    }
    let placed = placements(rs, state, side);
    let problems = check_29_42(&rs.game.map, &rs.game.oob, &placed);
    if problems.is_empty() {
        return Ok(());
    }
    let z = brigade_zones(&rs.game.map, &rs.game.oob, &placed);
    let list = |v: &[CounterId]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.iter()
                .map(|b| b.0.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        }
    };
    Err(err(
        &rs.case_rule("29.42"),
        RuleCode::Illegal,
        format!(
            "{}; by the Hotel: {}; near an Assault Area: {} (a brigade counts when all its infantry and cavalry are within 10 hexes)",
            problems
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; "),
            list(&z.near_hotel),
            list(&z.near_assault_areas),
        ),
    ))
}

/// A brigade begun by the player: the zone its placed infantry and cavalry
/// share (`None`: they do not share one) and whether some are still to
/// place.
type Begun = (CounterId, Option<Zone>, bool);

/// Where `side`'s brigades stand: those begun, and those with nothing
/// placed. `extra` counts one more placement (for the legal set's check).
fn statuses(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    extra: Option<(&CounterId, HexNumber)>,
    zone: &dyn Fn(HexNumber) -> Zone,
) -> (Vec<Begun>, Vec<CounterId>) {
    let oob = &rs.game.oob;
    let mut begun = Vec::new();
    let mut fresh = Vec::new();
    for l in oob.leaders.values() {
        if l.side != *side || !matches!(l.role, LeaderRole::Brigade { .. }) {
            continue;
        }
        let fighting: Vec<_> = oob
            .brigade_units(&l.id)
            .filter(|u| matches!(u.kind, UnitKind::Infantry | UnitKind::Cavalry))
            .filter(|u| rs.chosen_setup(&u.id).is_some())
            .collect();
        if fighting.is_empty() {
            continue;
        }
        let placed: Vec<Zone> = fighting
            .iter()
            .filter_map(|u| match extra {
                Some((x, h)) if *x == u.id => Some(h),
                _ => state.units.get(&u.id).and_then(|s| s.hex),
            })
            .map(zone)
            .collect();
        let open = placed.len() < fighting.len();
        if placed.is_empty() {
            fresh.push(l.id.clone());
            continue;
        }
        let shared = placed.iter().all(|z| *z == placed[0]).then_some(placed[0]);
        begun.push((l.id.clone(), shared, open));
    }
    (begun, fresh)
}

/// Whether, after `unit` is placed in `hex`, the set-up can still be
/// finished keeping 29.42 (the legal set offers only such placements, so
/// that a player following it, or a random one, can always end the
/// set-up): at most three brigades finished by the Hotel and enough begun
/// there or fresh to make three; likewise four to seven near the areas
/// with the fresh brigades the Hotel does not need.
pub(crate) fn feasible_after(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    unit: &CounterId,
    hex: HexNumber,
) -> bool {
    if !applies(rs, side) {
        return true;
    }
    let (begun, fresh) = statuses(rs, state, side, Some((unit, hex)), &|h| zone_of(rs, h));
    let count = |zone: Zone, open: bool| {
        begun
            .iter()
            .filter(|(_, z, o)| *z == Some(zone) && *o == open)
            .count()
    };
    let (h_fixed, h_open) = (count(Zone::Hotel, false), count(Zone::Hotel, true));
    let (a_fixed, a_open) = (count(Zone::Area, false), count(Zone::Area, true));
    let f = fresh.len();
    let hotel_needs_fresh = 3usize.saturating_sub(h_fixed + h_open.min(3 - h_fixed.min(3)));
    h_fixed <= 3
        && h_fixed + h_open + f >= 3
        && a_fixed <= 7
        && a_fixed + a_open + f.saturating_sub(hotel_needs_fresh) >= 4
}

/// The zone each brigade still being placed should go to so that the
/// finished set-up keeps 29.42, and each hex's zone.
pub(crate) struct Aim {
    wish: BTreeMap<CounterId, Zone>,
    zones: BTreeMap<HexNumber, Zone>,
}

/// The aim for completing `side`'s set-up from `state`; `None` when the
/// battle does not play 29.42 for that side.
///
/// Brigades the player has begun keep the zone their placed infantry and
/// cavalry share (one straggler outside breaks a brigade's count, so a
/// begun brigade beyond a limit is sent to neither zone); the others are
/// dealt (the hook's `hotel-first=` list first, then order of battle
/// order) to the Hotel until it has three, then
/// near the Assault Areas until they have four, then to neither.
pub(crate) fn aim(rs: &Gbacw, state: &GbacwState, side: &CounterId) -> Option<Aim> {
    if !applies(rs, side) {
        return None;
    }
    let zones: BTreeMap<HexNumber, Zone> = rs
        .game
        .map
        .grid
        .hexes()
        .map(|h| (h, zone_of(rs, h)))
        .collect();
    let (begun, mut fresh) = statuses(rs, state, side, None, &|h| {
        zones.get(&h).copied().unwrap_or(Zone::Neither)
    });
    let mut wish = BTreeMap::new();
    let mut count = BTreeMap::<Zone, usize>::new();
    // Finished brigades count as they stand; begun ones as they lean,
    // unless their zone is already full.
    for (b, zone, _) in begun.iter().filter(|(_, _, open)| !open) {
        if let Some(z) = zone {
            *count.entry(*z).or_default() += 1;
        }
        wish.insert(b.clone(), zone.unwrap_or(Zone::Neither));
    }
    let most = |z: Zone| match z {
        Zone::Hotel => 3,
        Zone::Area => 7,
        Zone::Neither => usize::MAX,
    };
    for (b, zone, _) in begun.iter().filter(|(_, _, open)| *open) {
        let z = match zone {
            Some(z) if count.get(z).copied().unwrap_or(0) < most(*z) => *z,
            _ => Zone::Neither,
        };
        if z != Zone::Neither {
            *count.entry(z).or_default() += 1;
        }
        wish.insert(b.clone(), z);
    }
    // The hook's `hotel-first=` brigades are the default's first choice
    // for the Hotel (a choice of the default deployment, not a rule).
    let first: Vec<&str> = rs
        .game
        .scenario
        .hook(HookKind::BrigadeCounts)
        .and_then(|h| h.param("hotel-first"))
        .map(|v| v.split(',').collect())
        .unwrap_or_default();
    fresh.sort_by_key(|b| first.iter().position(|f| *f == b.0).unwrap_or(usize::MAX));
    for b in fresh {
        let z = if count.get(&Zone::Hotel).copied().unwrap_or(0) < 3 {
            Zone::Hotel
        } else if count.get(&Zone::Area).copied().unwrap_or(0) < 4 {
            Zone::Area
        } else {
            Zone::Neither
        };
        *count.entry(z).or_default() += 1;
        wish.insert(b, z);
    }
    Some(Aim { wish, zones })
}

impl Aim {
    /// Put the hexes of `unit`'s wished zone first, keeping their order.
    pub(crate) fn order(&self, rs: &Gbacw, unit: &CounterId, hexes: &mut [HexNumber]) {
        let Some(u) = rs.game.oob.units.get(unit) else {
            return;
        };
        if !matches!(u.kind, UnitKind::Infantry | UnitKind::Cavalry) {
            return;
        }
        let Command::Brigade(b) = &u.command else {
            return;
        };
        let Some(want) = self.wish.get(b) else {
            return;
        };
        hexes.sort_by_key(|h| self.zones.get(h) != Some(want));
    }
}
