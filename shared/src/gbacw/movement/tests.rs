//! Movement over the test map with the shipped charts.

use super::*;
use crate::gbacw::charts::{Charts, MoveClass, MovementChart, Mp};
use crate::gbacw::map::{HexNumber, Map, SideKind, Terrain, parse_map};

fn n(s: &str) -> HexNumber {
    HexNumber::parse(s).unwrap()
}

fn setup() -> (Map, MovementChart) {
    let map = parse_map(crate::gbacw::map::tests::TEST_MAP).unwrap();
    let charts = Charts::load(crate::gbacw::charts::tests::CHARTS).unwrap();
    (map, charts.movement)
}

fn mp(halves: u16) -> Result<Mp, Blocked> {
    Ok(Mp(halves))
}

#[test]
fn case_5_15_cost_depends_on_terrain_and_formation() {
    let (m, c) = setup();
    // Into woods across a road hexside: Line pays the woods (2), column the road (½).
    assert_eq!(
        step_cost(&m, &c, MoveClass::Line, n("0204"), n("0304")),
        mp(4)
    );
    assert_eq!(
        step_cost(&m, &c, MoveClass::Column, n("0204"), n("0304")),
        mp(1)
    );
    // Woods-and-orchard hex off the road: the dearest, woods (2).
    assert_eq!(
        step_cost(&m, &c, MoveClass::Line, n("0402"), n("0403")),
        mp(4)
    );
}

#[test]
fn case_6_12_line_infantry_ignores_roads() {
    let (m, c) = setup();
    assert_eq!(
        step_cost(&m, &c, MoveClass::Line, n("0104"), n("0204")),
        mp(2)
    );
    assert_eq!(
        step_cost(&m, &c, MoveClass::Column, n("0104"), n("0204")),
        mp(1)
    );
}

#[test]
fn case_6_11_column_crosses_streams_by_bridge() {
    let (m, c) = setup();
    // Bridge with road: column ½; Line may not use the bridge: clear 1 + stream 2.
    assert_eq!(
        step_cost(&m, &c, MoveClass::Column, n("0604"), n("0704")),
        mp(1)
    );
    assert_eq!(
        step_cost(&m, &c, MoveClass::Line, n("0604"), n("0704")),
        mp(6)
    );
    // A ford replaces the stream cost: 1 + 1, against 1 + 2 elsewhere.
    assert_eq!(
        step_cost(&m, &c, MoveClass::Line, n("0602"), n("0702")),
        mp(4)
    );
    assert_eq!(
        step_cost(&m, &c, MoveClass::Line, n("0601"), n("0701")),
        mp(6)
    );
}

#[test]
fn case_5_19_crests_cost_more_uphill_and_some_units_pay_downhill() {
    let (m, c) = setup();
    assert_eq!(
        step_cost(&m, &c, MoveClass::Line, n("0806"), n("0906")),
        mp(4)
    );
    assert_eq!(
        step_cost(&m, &c, MoveClass::Line, n("0906"), n("0806")),
        mp(2)
    );
    assert_eq!(
        step_cost(&m, &c, MoveClass::Limbered, n("0906"), n("0806")),
        mp(4)
    );
    assert_eq!(
        step_cost(&m, &c, MoveClass::Limbered, n("1107"), n("1108")),
        Err(Blocked::Hexside(SideKind::SteepCrest))
    );
}

#[test]
fn case_5_16_movement_is_to_adjacent_hexes() {
    let (m, c) = setup();
    let e = step_cost(&m, &c, MoveClass::Line, n("0101"), n("0103")).unwrap_err();
    assert_eq!((e, e.rule()), (Blocked::NotAdjacent, "GBACW 5.16"));
}

#[test]
fn case_5_17_no_moving_off_the_map() {
    let (m, c) = setup();
    let e = step_cost(&m, &c, MoveClass::Line, n("0101"), n("0201")).map(|_| ());
    assert_eq!(e, Ok(()));
    // 1210 is the corner; 1211 exists as a number but not on this map.
    assert_eq!(
        step_cost(&m, &c, MoveClass::Line, n("1210"), n("1211")),
        Err(Blocked::OffMap)
    );
}

#[test]
fn corinth_23_5_no_guns_or_wagons_in_swamp() {
    let (m, c) = setup();
    assert_eq!(
        step_cost(&m, &c, MoveClass::Limbered, n("0108"), n("0208")),
        Err(Blocked::Terrain(Terrain::Swamp))
    );
    assert!(step_cost(&m, &c, MoveClass::Line, n("0108"), n("0208")).is_ok());
}

#[test]
fn corinth_23_23_redan_hexsides_cost_three_and_bar_guns() {
    let (m, c) = setup();
    assert_eq!(
        step_cost(&m, &c, MoveClass::Line, n("0509"), n("0510")),
        mp(8)
    );
    assert_eq!(
        step_cost(&m, &c, MoveClass::Wagon, n("0509"), n("0510")),
        Err(Blocked::Hexside(SideKind::RedanPrimary))
    );
}

#[test]
fn cedar_21_34_all_lake_hexsides_are_impassable() {
    let (m, c) = setup();
    assert_eq!(
        step_cost(&m, &c, MoveClass::Leader, n("1002"), n("1003")),
        Err(Blocked::Hexside(SideKind::Lake))
    );
}

#[test]
fn case_5_11_reach_never_exceeds_the_allowance() {
    let (m, c) = setup();
    let six = c.allowance(MoveClass::Line);
    let r = reachable(&m, &c, MoveClass::Line, n("0101"), six, |_| true);
    assert!(r.hexes.values().all(|(cost, _)| *cost <= six));
    assert_eq!(r.cost(n("0101")), Some(Mp::ZERO));
    assert_eq!(r.cost(n("0107")), Some(Mp::from_whole(6)));
    assert_eq!(r.cost(n("0108")), None);
}

#[test]
fn case_5_16_reach_paths_are_consecutive_hexes() {
    let (m, c) = setup();
    let r = reachable(
        &m,
        &c,
        MoveClass::Column,
        n("0104"),
        Mp::from_whole(6),
        |_| true,
    );
    // Along the road and over the bridge: seven steps at ½.
    assert_eq!(r.cost(n("0804")), Some(Mp(7)));
    let path = r.path_to(n("0804")).unwrap();
    let names: Vec<String> = path.iter().map(|h| h.to_string()).collect();
    assert_eq!(
        names,
        [
            "0104", "0204", "0304", "0404", "0505", "0604", "0704", "0804"
        ]
    );
    for w in path.windows(2) {
        assert!(m.grid.direction(w[0], w[1]).is_some());
    }
    assert_eq!(r.path_to(n("1210")), None);
}

#[test]
fn case_5_12_hexes_the_caller_forbids_are_not_entered() {
    let (m, c) = setup();
    let enemy = n("0204");
    let r = reachable(
        &m,
        &c,
        MoveClass::Column,
        n("0104"),
        Mp::from_whole(6),
        |h| h != enemy,
    );
    assert_eq!(r.cost(enemy), None);
    // The road is cut, so the crossroads now costs clear-terrain steps.
    assert!(r.cost(n("0505")).unwrap() > Mp(4));
}

#[test]
fn case_5_2_restricted_units_move_one_hex_regardless_of_cost() {
    let (m, c) = setup();
    let line = one_hex_moves(&m, &c, MoveClass::Line, n("0109"), |_| true);
    assert_eq!(line, [n("0108"), n("0110"), n("0208"), n("0209")]);
    let guns = one_hex_moves(&m, &c, MoveClass::Limbered, n("0109"), |_| true);
    assert_eq!(guns, [n("0108"), n("0110")]);
}

#[test]
fn case_13_32_routed_units_move_one_hex() {
    let (m, c) = setup();
    let moves = one_hex_moves(&m, &c, MoveClass::Line, n("0505"), |_| true);
    assert_eq!(moves.len(), 6);
}
