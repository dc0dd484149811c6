use super::*;
use crate::gbacw::charts::{Charts, MoveClass, MovementChart};
use crate::gbacw::command::PathBlocks;
use crate::gbacw::map::{HexNumber, Map, parse_map};
use std::collections::BTreeSet;

fn n(s: &str) -> HexNumber {
    HexNumber::parse(s).unwrap()
}

fn set(hexes: &[&str]) -> BTreeSet<HexNumber> {
    hexes.iter().map(|h| n(h)).collect()
}

fn setup() -> (Map, MovementChart) {
    let map = parse_map(crate::gbacw::map::tests::TEST_MAP).unwrap();
    (
        map,
        Charts::load(crate::gbacw::charts::tests::CHARTS)
            .unwrap()
            .movement,
    )
}

fn ends(paths: &[RetreatPath]) -> BTreeSet<HexNumber> {
    paths
        .iter()
        .filter_map(|p| p.hexes.last().copied())
        .collect()
}

#[test]
fn case_14_4_full_distance_never_the_same_hex_twice() {
    let (m, c) = setup();
    let paths = retreat_paths(
        &m,
        &c,
        MoveClass::Line,
        n("0505"),
        2,
        RetreatKind::MeleeResult,
        &PathBlocks::default(),
    );
    assert!(!paths.is_empty());
    for p in &paths {
        assert_eq!(p.hexes.len(), 2);
        assert_eq!(m.grid.distance(n("0505"), p.hexes[1]), 2);
        assert_ne!(p.hexes[0], p.hexes[1]);
    }
    // Every hex two away is an end: twelve of them.
    assert_eq!(ends(&paths).len(), 12);
}

#[test]
fn case_14_1_never_through_enemy_units_or_impassable_terrain() {
    let (m, c) = setup();
    let enemy = PathBlocks {
        enemy_units: set(&["0504"]),
        ..PathBlocks::default()
    };
    let paths = retreat_paths(
        &m,
        &c,
        MoveClass::Line,
        n("0505"),
        1,
        RetreatKind::MeleeResult,
        &enemy,
    );
    assert!(!ends(&paths).contains(&n("0504")));
    // Guns cannot retreat into swamp (Corinth 23.5 via the chart).
    let paths = retreat_paths(
        &m,
        &c,
        MoveClass::Limbered,
        n("0109"),
        1,
        RetreatKind::Rout,
        &PathBlocks::default(),
    );
    assert_eq!(ends(&paths), set(&["0108", "0110"]));
}

#[test]
fn case_5_17_a_unit_forced_off_the_map_is_captured() {
    let (_, c) = setup();
    // On a 2x2 map no hex lies three away from 0101: only off the map.
    let tiny = parse_map(concat!(
        "gbacw-map 1\nname \"t\"\nreconstruction \"t\"\norientation flat\n",
        "offset even\ncolumns 01-02\nrows 01-02\nlevels 0=0\n"
    ))
    .unwrap();
    let none = PathBlocks::default();
    assert!(
        retreat_paths(
            &tiny,
            &c,
            MoveClass::Line,
            n("0101"),
            3,
            RetreatKind::Rout,
            &none
        )
        .is_empty()
    );
    assert!(
        !retreat_paths(
            &tiny,
            &c,
            MoveClass::Line,
            n("0101"),
            1,
            RetreatKind::Rout,
            &none
        )
        .is_empty()
    );
}

#[test]
fn overlong_retreats_find_no_path() {
    let (m, c) = setup();
    let none = PathBlocks::default();
    assert!(
        retreat_paths(
            &m,
            &c,
            MoveClass::Line,
            n("0505"),
            MAX_LENGTH + 1,
            RetreatKind::Rout,
            &none
        )
        .is_empty()
    );
}

#[test]
fn case_12_82_retreat_before_melee_never_enters_enemy_zoc() {
    let (m, c) = setup();
    let zoc = PathBlocks {
        enemy_zoc: set(&["0504", "0404", "0604"]),
        ..PathBlocks::default()
    };
    let paths = retreat_paths(
        &m,
        &c,
        MoveClass::Line,
        n("0505"),
        1,
        RetreatKind::BeforeMelee,
        &zoc,
    );
    assert_eq!(ends(&paths), set(&["0405", "0506", "0605"]));
}

#[test]
fn case_12_92_no_legal_retreat_means_capture() {
    let (m, c) = setup();
    let ring = PathBlocks {
        enemy_zoc: set(&["0504", "0404", "0604", "0405", "0506", "0605"]),
        ..PathBlocks::default()
    };
    assert!(
        retreat_paths(
            &m,
            &c,
            MoveClass::Line,
            n("0505"),
            2,
            RetreatKind::MeleeResult,
            &ring
        )
        .is_empty()
    );
}

#[test]
fn case_14_2_routs_may_pass_enemy_zoc() {
    let (m, c) = setup();
    let ring = PathBlocks {
        enemy_zoc: set(&["0504", "0404", "0604", "0405", "0506", "0605"]),
        ..PathBlocks::default()
    };
    let paths = retreat_paths(
        &m,
        &c,
        MoveClass::Line,
        n("0505"),
        3,
        RetreatKind::Rout,
        &ring,
    );
    assert!(!paths.is_empty());
    assert!(paths.iter().all(|p| p.through_enemy_zoc));
}

#[test]
fn case_13_31_routed_units_retreat_three_hexes() {
    let (m, c) = setup();
    let paths = retreat_paths(
        &m,
        &c,
        MoveClass::Line,
        n("0505"),
        3,
        RetreatKind::Rout,
        &PathBlocks::default(),
    );
    assert!(
        paths
            .iter()
            .all(|p| p.hexes.len() == 3 && m.grid.distance(n("0505"), p.hexes[2]) == 3)
    );
}

#[test]
fn case_14_3_friendly_hexes_only_when_no_clear_path() {
    let (m, c) = setup();
    let friends = PathBlocks {
        friendly_units: set(&["0504", "0404"]),
        ..PathBlocks::default()
    };
    let paths = retreat_paths(
        &m,
        &c,
        MoveClass::Line,
        n("0505"),
        1,
        RetreatKind::MeleeResult,
        &friends,
    );
    assert!(paths.iter().all(|p| !p.through_friendly));
    // Surrounded by friends: through them (displacing, 8.15).
    let all = PathBlocks {
        friendly_units: set(&["0504", "0404", "0604", "0405", "0506", "0605"]),
        ..PathBlocks::default()
    };
    let paths = retreat_paths(
        &m,
        &c,
        MoveClass::Line,
        n("0505"),
        1,
        RetreatKind::MeleeResult,
        &all,
    );
    assert_eq!(paths.len(), 6);
    assert!(paths.iter().all(|p| p.through_friendly));
}

#[test]
fn case_8_15_friends_preferred_over_enemy_zoc_in_a_rout() {
    let (m, c) = setup();
    // Three neighbours friendly, three in enemy ZOC: a friendly hex is the
    // way out (an enemy-ZOC path is no "open" alternative, 14.3).
    let mixed = PathBlocks {
        friendly_units: set(&["0504", "0404", "0604"]),
        enemy_zoc: set(&["0405", "0506", "0605"]),
        ..PathBlocks::default()
    };
    let paths = retreat_paths(
        &m,
        &c,
        MoveClass::Line,
        n("0505"),
        1,
        RetreatKind::Rout,
        &mixed,
    );
    assert_eq!(ends(&paths), set(&["0404", "0504", "0604"]));
}
