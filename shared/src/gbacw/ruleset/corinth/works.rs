//! Corinth 23.1: the outer works. On when the scenario has `hook
//! outer-works` (`height=` feet for a unit inside, `die=` off the fire
//! die).
//!
//! Already chart data (`assets/gbacw/charts.toml`, read by the shared
//! code whatever the hooks): the crossing cost (`movement.hexside.works`),
//! the −1 melee strength crossing from outside to inside
//! (`combat.hexside.works`, `melee::crossing_penalty`) and the works'
//! own 10 ft for sight. This file adds the rest of 23.1.

use crate::gbacw::facing::fire_crossings;
use crate::gbacw::map::{HexNumber, Map, SideKind};
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::scenario::HookKind;

/// Whether `hex` is on the inner side of a works hexside: "a unit which is
/// on the inside of the works" (23.1). The map names the inner hex of
/// every works hexside.
pub(crate) fn inside_works(map: &Map, hex: HexNumber) -> bool {
    inner_side_of(map, hex, |k| k == SideKind::Works)
}

/// Whether `hex` is the inner side of a hexside whose feature `is_kind`.
pub(crate) fn inner_side_of(map: &Map, hex: HexNumber, is_kind: impl Fn(SideKind) -> bool) -> bool {
    map.grid
        .neighbours_on_map(hex)
        .into_iter()
        .any(|(_, other)| {
            map.grid.hexside(hex, other).is_some_and(|side| {
                map.side_features(side)
                    .any(|f| is_kind(f.kind) && f.side == Some(hex))
            })
        })
}

/// Corinth 23.1: "A unit which is on the inside of the works is considered
/// to occupy an elevation 10 feet higher than the hex it actually
/// occupies." The feet added to a unit's position for sight.
pub(crate) fn raised_feet(rs: &Gbacw, hex: HexNumber) -> u16 {
    match super::hook(rs, HookKind::OuterWorks) {
        Some(h) if inside_works(&rs.game.map, hex) => h.number("height").unwrap_or(10),
        _ => 0,
    }
}

/// Whether fire from `firer` into `target` crosses only works hexsides
/// whose inner side is `target` (one hexside, or both beside a vertex).
fn solely_across_works(map: &Map, target: HexNumber, firer: HexNumber) -> bool {
    let crossings = fire_crossings(&map.grid, target, firer);
    !crossings.is_empty()
        && crossings.into_iter().all(|d| {
            map.grid.hexside_towards(target, d).is_some_and(|side| {
                map.side_features(side)
                    .any(|f| f.kind == SideKind::Works && f.side == Some(target))
            })
        })
}

/// Corinth 23.1: "A unit which is defending behind an outer works hexside
/// and is attacked by fire combat solely across outer works hexsides has 1
/// subtracted from the attacker's die-roll ... Rolls of less than one are
/// treated as one. In addition, the attacking unit checks for ammo
/// depletion only if its unmodified die-roll is one." The modifier (0 or
/// −`die=`) for an attack on `target` from `firers` (their hexes): every
/// firer's line into the target must cross works hexsides only.
pub(crate) fn fire_die_modifier(rs: &Gbacw, target: HexNumber, firers: &[HexNumber]) -> i8 {
    let Some(h) = super::hook(rs, HookKind::OuterWorks) else {
        return 0;
    };
    let map = &rs.game.map;
    if !firers.is_empty() && firers.iter().all(|&f| solely_across_works(map, target, f)) {
        -i8::try_from(h.number("die").unwrap_or(1)).unwrap_or(1)
    } else {
        0
    }
}

/// Corinth 22.1, 23.1: whether the step from `from` into `target`
/// crosses outer works or a redan hexside from outside to inside ("all
/// the attacking units enter the defending unit's hex by crossing outer
/// works or redans": −1 to the defender's retreat before melee check).
/// False when the hexes are not adjacent.
pub(crate) fn crosses_works_or_redan_into(rs: &Gbacw, from: HexNumber, target: HexNumber) -> bool {
    let map = &rs.game.map;
    map.grid.hexside(from, target).is_some_and(|side| {
        map.side_features(side).any(|f| {
            matches!(
                f.kind,
                SideKind::Works | SideKind::RedanPrimary | SideKind::RedanSecondary
            ) && f.side == Some(target)
        })
    })
}
