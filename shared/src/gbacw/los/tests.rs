//! Line of sight on small invented maps.

use super::*;
use crate::gbacw::charts::{Charts, CombatChart};
use crate::gbacw::map::{HexNumber, Map, parse_map};

fn n(s: &str) -> HexNumber {
    HexNumber::parse(s).unwrap()
}

fn chart() -> CombatChart {
    Charts::load(crate::gbacw::charts::tests::CHARTS)
        .unwrap()
        .combat
}

fn map(hexes: &str) -> Map {
    let head = "gbacw-map 1\nname \"los\"\nreconstruction \"test\"\norientation flat\noffset even\ncolumns 01-09\nrows 01-09\nlevels 0=0 1=20 2=40\n";
    parse_map(&format!("{head}{hexes}")).unwrap()
}

fn empty(_: HexNumber) -> u16 {
    0
}

#[test]
fn case_9_7_line_runs_centre_to_centre_through_hexes() {
    let m = map("");
    let c: Vec<_> = crossings(&m.grid, n("0101"), n("0105"))
        .into_iter()
        .map(|(_, c)| c)
        .collect();
    assert_eq!(
        c,
        [
            Crossing::Hex(n("0102")),
            Crossing::Hex(n("0103")),
            Crossing::Hex(n("0104"))
        ]
    );
    // 0202 -> 0402 runs along the hexside 0302/0303.
    let c = crossings(&m.grid, n("0202"), n("0402"));
    assert_eq!(c, [(1, Crossing::Along(n("0302"), n("0303")))]);
}

#[test]
fn case_9_24_adjacent_units_always_see_each_other() {
    let m = map("hex 0101 woods\nhex 0102 woods\n");
    assert_eq!(
        line_of_sight(&m, &chart(), n("0101"), n("0102"), |_| 10),
        Los::Clear
    );
}

#[test]
fn case_9_71_woods_between_block_on_level_ground() {
    let m = map("hex 0103 woods\n");
    assert_eq!(
        line_of_sight(&m, &chart(), n("0101"), n("0105"), empty),
        Los::Blocked(Obstacle::Hex(n("0103")))
    );
    // Firing out of or into woods is not blocked by the end hexes (9.7).
    let m = map("hex 0101 woods\nhex 0105 woods\n");
    assert_eq!(
        line_of_sight(&m, &chart(), n("0101"), n("0105"), empty),
        Los::Clear
    );
}

#[test]
fn case_9_71_units_are_blocking_terrain() {
    let m = map("");
    let c = chart();
    // A man (5 ft) between two on level ground: hp - 5 = 0, so H/D = 0 >= 0: clear.
    assert_eq!(
        line_of_sight(&m, &c, n("0101"), n("0105"), |h| if h == n("0103") {
            5
        } else {
            0
        }),
        Los::Clear
    );
    // A mounted trooper or wagon (10 ft) blocks.
    assert_eq!(
        line_of_sight(&m, &c, n("0101"), n("0105"), |h| if h == n("0103") {
            10
        } else {
            0
        }),
        Los::Blocked(Obstacle::Hex(n("0103")))
    );
}

#[test]
fn case_9_72_heights_let_a_hill_see_over_woods() {
    // Firer on level 2 (40 ft) at 0101, target at 0105 on level 0.
    let c = chart();
    // Woods two hexes from the target: hp=20, dp=2: 15/2 = 7.5 <= 40/4 = 10: clear.
    let m = map("hex 0101 level=2\nhex 0103 woods\n");
    assert_eq!(
        line_of_sight(&m, &c, n("0101"), n("0105"), empty),
        Los::Clear
    );
    // Woods next to the target: 15/1 = 15 > 10: blocked.
    let m = map("hex 0101 level=2\nhex 0104 woods\n");
    assert_eq!(
        line_of_sight(&m, &c, n("0101"), n("0105"), empty),
        Los::Blocked(Obstacle::Hex(n("0104")))
    );
    // The same works the other way round (sight is mutual).
    assert_eq!(
        line_of_sight(&m, &c, n("0105"), n("0101"), empty),
        Los::Blocked(Obstacle::Hex(n("0104")))
    );
}

#[test]
fn case_9_73_equal_ratio_is_clear() {
    // Level 1 (20 ft) firer at 0101, target at 0105 (0 ft): H/D = 5.
    // A mounted unit (10 ft) at 0104, dp = 1: (10 - 5)/1 = 5: equal, so clear (">=").
    let m = map("hex 0101 level=1\n");
    let c = chart();
    assert_eq!(
        line_of_sight(&m, &c, n("0101"), n("0105"), |h| if h == n("0104") {
            10
        } else {
            0
        }),
        Los::Clear
    );
    // Anything taller blocks: standing corn (5 ft) on a level-1 rise next
    // to the target stands 25 ft: (25 - 5)/1 = 20 > 5.
    let m = map("hex 0101 level=1\nhex 0104 corn level=1\n");
    assert_eq!(
        line_of_sight(&m, &c, n("0101"), n("0105"), empty),
        Los::Blocked(Obstacle::Hex(n("0104")))
    );
}

#[test]
fn case_9_7_line_along_a_hexside_needs_both_hexes_to_block() {
    let c = chart();
    let m = map("hex 0302 woods\n");
    assert_eq!(
        line_of_sight(&m, &c, n("0202"), n("0402"), empty),
        Los::Clear
    );
    let m = map("hex 0302 woods\nhex 0303 woods\n");
    assert_eq!(
        line_of_sight(&m, &c, n("0202"), n("0402"), empty),
        Los::Blocked(Obstacle::Along(n("0302"), n("0303")))
    );
}

#[test]
fn case_9_7_blocking_hexsides_count_only_away_from_the_ends() {
    let c = chart();
    // Works (10 ft, Corinth 23.1) between two intervening hexes block level sight.
    let m = map("side 0103/0104 works:0104\n");
    let side = m.grid.hexside(n("0103"), n("0104")).unwrap();
    assert_eq!(
        line_of_sight(&m, &c, n("0101"), n("0106"), empty),
        Los::Blocked(Obstacle::Hexside(side))
    );
    // The same works on a hexside of the firer's or the target's hex do not.
    let m = map("side 0101/0102 works:0102\nside 0105/0106 works:0105\n");
    assert_eq!(
        line_of_sight(&m, &c, n("0101"), n("0106"), empty),
        Los::Clear
    );
    // From high ground the works are looked over: 40 ft over 5 hexes.
    let m = map("hex 0101 level=2\nside 0103/0104 works:0104\n");
    assert_eq!(
        line_of_sight(&m, &c, n("0101"), n("0106"), empty),
        Los::Clear
    );
}

#[test]
fn corinth_23_1_a_position_inside_the_works_sees_over_what_level_ground_hides() {
    let c = chart();
    // An orchard (10 ft) at 0102 hides 0105 from 0101 on level ground.
    let m = map("hex 0102 orchard\n");
    assert_eq!(
        line_of_sight(&m, &c, n("0101"), n("0105"), empty),
        Los::Blocked(Obstacle::Hex(n("0102")))
    );
    assert_eq!(
        line_of_sight_raised(&m, &c, n("0101"), n("0105"), empty, |_| 0),
        Los::Blocked(Obstacle::Hex(n("0102")))
    );
    // 0101 standing 10 ft higher (inside the works, 23.1; in a redan,
    // 23.28) sees over it: 10/4 >= (10 - 5)/3.
    let raised = |h: HexNumber| if h == n("0101") { 10 } else { 0 };
    assert_eq!(
        line_of_sight_raised(&m, &c, n("0101"), n("0105"), empty, raised),
        Los::Clear
    );
    // Woods (20 ft) are still too tall: 10/4 < (20 - 5)/3.
    let m = map("hex 0102 woods\n");
    assert_eq!(
        line_of_sight_raised(&m, &c, n("0101"), n("0105"), empty, raised),
        Los::Blocked(Obstacle::Hex(n("0102")))
    );
}
