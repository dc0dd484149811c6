//! Corinth 23.2: battery redans. On when the scenario has `hook
//! battery-redans` (`height=` feet for the occupant's sight).
//!
//! Already chart data (`assets/gbacw/charts.toml`, read by the shared
//! code whatever the hooks): 23.23's +3 MP and closure to artillery and
//! wagons (`movement.hexside.redan`), 23.26's −1/−2 crossing a secondary /
//! primary redan hexside into the redan to melee (`combat.hexside.redan-*`
//! through `melee::crossing_penalty`, not for an engaged unit's later
//! rounds), 23.27's stacking (`stacking.redan`, `stacking::check_limits`),
//! 23.28's 10 ft hexsides (which never block a line into the redan from
//! an adjacent hex: 9.7 counts a blocking hexside only between two hexes
//! the line passes, not one beside either end). This file adds the rest.

use crate::gbacw::charts::CombatSide;
use crate::gbacw::facing::{Facing, fire_crossings};
use crate::gbacw::map::{HexNumber, Map, SideKind};
use crate::gbacw::oob::{CounterId, Marker};
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::scenario::HookKind;
use hexx::EdgeDirection;

fn is_redan_side(kind: SideKind) -> bool {
    matches!(kind, SideKind::RedanPrimary | SideKind::RedanSecondary)
}

/// Whether `hex` is a redan: the inner side of redan hexsides.
pub(crate) fn is_redan(map: &Map, hex: HexNumber) -> bool {
    super::works::inner_side_of(map, hex, is_redan_side)
}

/// Corinth 23.28: "A unit which is on the inside (occupying) of the redan
/// is considered to occupy an elevation 10 feet higher than the hex it
/// actually occupies." The feet added to a position in a redan for sight.
pub(crate) fn raised_feet(rs: &Gbacw, hex: HexNumber) -> u16 {
    match super::hook(rs, HookKind::BatteryRedans) {
        Some(h) if is_redan(&rs.game.map, hex) => h.number("height").unwrap_or(10),
        _ => 0,
    }
}

/// Corinth 23.24: "A unit which occupies a redan and which is fired upon
/// receives a column shift to the left ... The two column shift maximum is
/// still in effect." Fire across a redan hexside already has the chart's
/// −1 (`combat.hexside.redan-*`); fire from any other side (the rear)
/// gets it here, so the occupant has one column left however it is fired
/// on, never two. Added to the terrain shift, which 9.51 caps.
pub(crate) fn fire_shift(rs: &Gbacw, target: HexNumber, firers: &[HexNumber]) -> i32 {
    let map = &rs.game.map;
    if super::hook(rs, HookKind::BatteryRedans).is_none() || !is_redan(map, target) {
        return 0;
    }
    let across_a_redan_side = firers.iter().any(|&f| {
        fire_crossings(&map.grid, target, f).into_iter().any(|d| {
            map.grid.hexside_towards(target, d).is_some_and(|side| {
                map.side_features(side)
                    .any(|x| is_redan_side(x.kind) && x.side == Some(target))
            })
        })
    });
    if across_a_redan_side { 0 } else { -1 }
}

/// Corinth 23.25: "A maximum of 4 Strength Points may melee into a redan
/// hex. A unit larger than four may melee into the redan, but only 4
/// Strength Points are counted when determining the melee differential.
/// This limit applies regardless of whether or not the meleeing units
/// cross a redan hexside." The attackers' cap (`stacking.redan.
/// melee-points`) for a melee into `target`; `None` if it is no redan.
pub(crate) fn melee_attack_cap(rs: &Gbacw, target: HexNumber) -> Option<u16> {
    super::hook(rs, HookKind::BatteryRedans)?;
    is_redan(&rs.game.map, target).then_some(rs.game.charts.stacking.redan.melee_points.value)
}

/// Corinth 23.26: the Strength Points a unit crossing from `from` into the
/// redan `target` takes off the melee differential (the chart's `melee` of
/// the redan hexside: secondary 1, primary 2). With the redan rules on,
/// the shared hexside penalty leaves this part out, and
/// [`differential_penalty`] takes it off the attackers' total after
/// 23.25's cap ("subtracts 1 Strength Point from the melee differential";
/// taken off a unit's own strength first, a 6-point unit would lose
/// nothing to the cap of 4). 0 when the rules are off.
pub(crate) fn crossing_penalty(rs: &Gbacw, from: HexNumber, target: HexNumber) -> u16 {
    if super::hook(rs, HookKind::BatteryRedans).is_none() {
        return 0;
    }
    let map = &rs.game.map;
    let Some(side) = map.grid.hexside(from, target) else {
        return 0;
    };
    map.side_features(side)
        .filter(|f| f.side == Some(target))
        .filter_map(|f| match f.kind {
            SideKind::RedanPrimary => Some(CombatSide::RedanPrimary),
            SideKind::RedanSecondary => Some(CombatSide::RedanSecondary),
            _ => None,
        })
        .filter_map(|row| rs.game.charts.combat.hexside.get(&row))
        .map(|s| u16::from(s.melee.value))
        .sum()
}

/// Corinth 23.26: the total off the attackers' melee strength for those of
/// `attackers` crossing a redan hexside into `target` to initiate the
/// melee; "This reduction does not apply to additional melees caused by an
/// 'engaged' melee result" (an engaged unit's later rounds).
pub(crate) fn differential_penalty(
    rs: &Gbacw,
    state: &GbacwState,
    target: HexNumber,
    attackers: &[CounterId],
) -> i32 {
    attackers
        .iter()
        .filter_map(|a| state.units.get(a))
        .filter(|u| !u.status.markers.contains(&Marker::Engaged))
        .filter_map(|u| u.hex)
        .map(|h| i32::from(crossing_penalty(rs, h, target)))
        .sum()
}

/// The directions from the redan `hex` across its redan hexsides: toward
/// its outer side hexes.
fn outer_directions(map: &Map, hex: HexNumber) -> Vec<EdgeDirection> {
    EdgeDirection::ALL_DIRECTIONS
        .into_iter()
        .filter(|d| {
            map.grid.hexside_towards(hex, *d).is_some_and(|side| {
                map.side_features(side)
                    .any(|f| is_redan_side(f.kind) && f.side == Some(hex))
            })
        })
        .collect()
}

/// The redan's front: the hexside whose frontal arc (it and its two
/// neighbours, 7.0) holds the most of its redan hexsides (on this map all
/// three: the middle one). `None` if `hex` has no redan hexside.
fn front(map: &Map, hex: HexNumber) -> Option<EdgeDirection> {
    let outer = outer_directions(map, hex);
    if outer.is_empty() {
        return None;
    }
    let covered = |d: EdgeDirection| {
        [d.counter_clockwise(), d, d.clockwise()]
            .iter()
            .filter(|x| outer.contains(x))
            .count()
    };
    EdgeDirection::ALL_DIRECTIONS
        .into_iter()
        .max_by_key(|d| (covered(*d), outer.contains(d)))
}

/// Corinth 23.21, 23.22: how a unit in `hex` faces for its ZOC, its fire
/// and enfilade. In a redan the occupant's ZOC "extends into all outer
/// side hexes of that redan" and its "enfilade hexsides are the rear hexes
/// of the redan"; it fires out of those ZOC hexsides only. The three redan
/// hexsides are a frontal arc (7.0), so the occupant faces the middle one
/// whatever its counter shows, unless the player has declared that it
/// faces the rear ("the above diagram is reversed", e.g. Confederates who
/// took it): a counter turned to any of the three rear hexsides (the free
/// facing change of 7.12, in the Player-Turn) is that declaration, and
/// faces the middle rear hexside. Elsewhere, and without the redan rules,
/// `stored` itself. A unit with no ZOC (a column, limbered guns) has none
/// in a redan either; a lone leader is no unit (23.21: no ZOC).
pub(crate) fn facing(rs: &Gbacw, hex: HexNumber, stored: Facing) -> Facing {
    if super::hook(rs, HookKind::BatteryRedans).is_none() {
        return stored;
    }
    let Some(f) = front(&rs.game.map, hex) else {
        return stored;
    };
    let arc = [f.counter_clockwise(), f, f.clockwise()];
    if arc.contains(&stored.direction()) {
        Facing::new(f)
    } else {
        Facing::new(f.const_neg())
    }
}
