use super::*;
use crate::gbacw::charts::{Charts, Mp};
use crate::gbacw::map::{HexNumber, Map, parse_map};
use crate::gbacw::oob::{BrigadeRatings, Command, CounterId, LeaderRole};
use std::collections::{BTreeMap, BTreeSet};

fn n(s: &str) -> HexNumber {
    HexNumber::parse(s).unwrap()
}

fn map() -> Map {
    parse_map(crate::gbacw::map::tests::TEST_MAP).unwrap()
}

fn set(hexes: &[&str]) -> BTreeSet<HexNumber> {
    hexes.iter().map(|h| n(h)).collect()
}

#[test]
fn case_17_11_effectiveness_radius_counts_hexes() {
    let m = map();
    let none = PathBlocks::default();
    assert!(within_radius(&m, &none, n("0101"), n("0104"), 3));
    assert!(!within_radius(&m, &none, n("0101"), n("0105"), 3));
    assert!(within_radius(&m, &none, n("0101"), n("0101"), 0));
}

#[test]
fn case_13_53_radius_not_through_enemy_units_or_unnegated_zoc() {
    let m = map();
    // A wall of enemy ZOC across column 01-02 between rows 2 and 4.
    let zoc = PathBlocks {
        enemy_zoc: set(&["0102", "0202", "0201"]),
        ..PathBlocks::default()
    };
    assert!(!within_radius(&m, &zoc, n("0101"), n("0103"), 2));
    // A friendly unit in 0102 negates the ZOC there (10.5).
    let negated = PathBlocks {
        friendly_units: set(&["0102"]),
        ..zoc.clone()
    };
    assert!(within_radius(&m, &negated, n("0101"), n("0103"), 2));
    // An enemy unit is never negated.
    let enemy = PathBlocks {
        enemy_units: set(&["0102"]),
        friendly_units: set(&["0102"]),
        ..PathBlocks::default()
    };
    assert!(!within_radius(&m, &enemy, n("0101"), n("0103"), 2));
}

#[test]
fn case_10_4_leader_radius_may_end_in_enemy_zoc() {
    let m = map();
    let zoc = PathBlocks {
        enemy_zoc: set(&["0103"]),
        ..PathBlocks::default()
    };
    assert!(within_radius(&m, &zoc, n("0101"), n("0103"), 2));
}

#[test]
fn case_10_3_supply_path_avoids_enemy_zoc() {
    let m = map();
    let chart = Charts::load(crate::gbacw::charts::tests::CHARTS)
        .unwrap()
        .movement;
    let none = PathBlocks::default();
    assert_eq!(
        supply_path(&m, &chart, n("0101"), n("0104"), &none),
        Some(Mp::from_whole(3))
    );
    let zoc = PathBlocks {
        enemy_zoc: set(&["0102", "0202", "0201"]),
        ..PathBlocks::default()
    };
    // 0101's only neighbours on the map, 0102 and 0201, are both in ZOC.
    assert_eq!(supply_path(&m, &chart, n("0101"), n("0104"), &zoc), None);
    let negated = PathBlocks {
        friendly_units: set(&["0102"]),
        ..zoc
    };
    assert_eq!(
        supply_path(&m, &chart, n("0101"), n("0104"), &negated),
        Some(Mp::from_whole(3))
    );
}

#[test]
fn case_11_23_supply_path_is_one_column_movement_phase_long() {
    let m = map();
    let chart = Charts::load(crate::gbacw::charts::tests::CHARTS)
        .unwrap()
        .movement;
    let none = PathBlocks::default();
    // Six clear hexes: in reach. Seven: not.
    assert!(supply_path(&m, &chart, n("0101"), n("0107"), &none).is_some());
    assert_eq!(supply_path(&m, &chart, n("0101"), n("0108"), &none), None);
}

#[test]
fn case_5_3_independent_units_are_always_in_command() {
    assert!(unit_in_command(&Command::Independent, false, false));
}

#[test]
fn case_17_23_division_leader_commands_units_stacked_with_him() {
    let b = Command::Brigade(CounterId::parse("crawford").unwrap());
    assert!(unit_in_command(&b, false, true));
    assert!(!unit_in_command(&b, false, false));
    assert!(unit_in_command(&b, true, false));
}

#[test]
fn case_17_12_division_commander_augments_radius() {
    let r = BrigadeRatings {
        effectiveness_radius: 3,
        rally: 1,
        promoted_radius: None,
    };
    assert_eq!(effective_radius(&r, 0), 3);
    assert_eq!(effective_radius(&r, 2), 5);
}

#[test]
fn case_17_22_one_command_point_per_hex_within_the_radius() {
    let a = CounterId::parse("a").unwrap();
    let b = CounterId::parse("b").unwrap();
    let ok = BTreeMap::from([(a.clone(), (1, true)), (b.clone(), (1, true))]);
    assert_eq!(allocate_command_points(2, &ok), Ok(2));
    assert_eq!(allocate_command_points(1, &ok), Err(None));
    let far = BTreeMap::from([(a, (1, true)), (b.clone(), (1, false))]);
    assert_eq!(allocate_command_points(2, &far), Err(Some(b)));
}

#[test]
fn case_17_21_brigade_outside_division_radius_moves_one_hex() {
    let ratings = BrigadeRatings {
        effectiveness_radius: 3,
        rally: 1,
        promoted_radius: None,
    };
    let in_div = LeaderRole::Brigade {
        division: Some(CounterId::parse("d").unwrap()),
        ratings,
        replacement: None,
    };
    assert!(brigade_moves_one_hex(&in_div, false, false));
    assert!(!brigade_moves_one_hex(&in_div, true, false));
    assert!(!brigade_moves_one_hex(&in_div, false, true));
    let indpnt = LeaderRole::Brigade {
        division: None,
        ratings,
        replacement: None,
    };
    assert!(!brigade_moves_one_hex(&indpnt, false, false));
}
