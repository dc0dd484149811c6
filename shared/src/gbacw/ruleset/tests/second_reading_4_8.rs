//! The second reading's acceptance cases for Standard Rules 4.0–8.0
//! (`docs/second-reading/std-04-08.md`), written from the rule text by
//! readers who never saw the engine, built with the position builder
//! and scripted dice. Each test is named as its case; the expectation is
//! the case's.

use super::reading_support::{formation, mark, marked, melee, reads, strength};
use super::*;
use crate::gbacw::oob::{Crew, Marker};
use crate::gbacw::testkit::Position;

fn adjacent(t: &T, a: &str, b: &str) {
    assert_eq!(t.rs.game().map.grid.distance(n(a), n(b)), 1, "{a}-{b}");
}

/// GBACW 8.21: "Thus, if a "1" Strength Point (SP) infantry unit is
/// stacked on top of a "3" SP unit and the units undergo fire with a
/// casualty result of "2," the top unit is eliminated and the bottom unit
/// loses one Strength Point."
#[test]
fn example_8_21_one_sp_on_three_sp_loses_two() {
    let mut t = Position::new(6, 6)
        .union("infantry a-top strength=1 morale=3 weapon=R")
        .union("infantry b-under strength=3 morale=4 weapon=R")
        .confederate("battery gun weapon=HB guns=4 rounds=20 morale=4")
        .place("a-top", "0303", "n", "line")
        .place("b-under", "0303", "n", "line")
        .place("gun", "0302", "s", "unlimbered")
        .build_at(1, UNION, Phase::DefensiveFire);
    adjacent(&t, "0303", "0302");
    t.ok(REBEL, fire("0303", &[("gun", 4)]));
    t.script(&[5, 3, 2]);
    let events = t.act(REBEL, GbacwAction::EndPhase);
    let r = &fire_reports(&events)[0];
    assert_eq!(r.strength, 40);
    assert_eq!(r.row, crate::gbacw::tables::FireRow::Grapeshot);
    assert_eq!(r.density_shift, 0);
    assert_eq!(reads(&events), vec![(8, 5, "2*".to_string())]);
    assert_eq!(t.hex("a-top"), None, "the 1-point top unit is eliminated");
    assert_eq!(strength(&t, "b-under"), 2, "the second loss goes below");
    assert!(!marked(&t, "b-under", Marker::Rout));
    assert!(!marked(&t, "b-under", Marker::Pin));
    assert_eq!(t.s.units[&id("gun")].status.rounds, 19, "one round (11.31)");
    assert!(t.dice_left().is_empty(), "left: {:?}", t.dice_left());
}

/// GBACW 8.23: "Thus, if three units, each with 4 Points, were fired on
/// (as in the above Case), when checking for results the Player would
/// adjust two columns to the right for density, even though the
/// individual units are only worth 4 Points. (The stack consists of 12
/// Points)." Two HB guns at range 4 (×2, provisional) make 4: C2.
#[test]
fn example_8_23_density_of_twelve_points_per_unit_roll() {
    let mut t = Position::new(6, 8)
        .confederate("infantry x strength=4 morale=4 weapon=R")
        .confederate("infantry y strength=4 morale=4 weapon=R")
        .confederate("infantry z strength=4 morale=4 weapon=R")
        .union("battery gun weapon=HB guns=2 rounds=20 morale=4")
        .place("x", "0303", "s", "line")
        .place("y", "0303", "s", "line")
        .place("z", "0303", "s", "line")
        .place("gun", "0307", "n", "unlimbered")
        .build_at(1, UNION, Phase::OffensiveFire);
    assert_eq!(t.rs.game().map.grid.distance(n("0307"), n("0303")), 4);
    t.ok(UNION, fire("0303", &[("gun", 2)]));
    t.script(&[4, 3, 2, 1, 1, 1]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    let r = fire_reports(&events);
    assert!(r.iter().all(|r| r.strength == 4 && r.density_shift == 2));
    assert_eq!(
        reads(&events),
        vec![
            (4, 4, "P/R".to_string()),
            (4, 3, "R".to_string()),
            (4, 2, "P".to_string())
        ]
    );
    // 13.44: the morale rolls follow only after all three fire rolls.
    let last_fire = events
        .iter()
        .rposition(|e| matches!(e, GbacwEvent::FireResolved(_)))
        .unwrap();
    let first_check = events
        .iter()
        .position(|e| matches!(e, GbacwEvent::MoraleChecked { .. }))
        .expect("morale checks");
    assert!(last_fire < first_check, "{events:#?}");
}

/// GBACW 8.33: "For the purposes of density each artillery battery is
/// worth only one Strength Point. Thus, an infantry regiment of "4" plus
/// a battery with six guns would still be worth only 5 Points for
/// purposes of density." Final small-arms 4: 2 R points adjacent (×2).
#[test]
fn example_8_33_battery_counts_one_for_density() {
    let mut t = Position::new(6, 6)
        .union("infantry a strength=4 morale=4 weapon=R")
        .union("battery g weapon=N guns=6 rounds=20 morale=4")
        .confederate("infantry b strength=2 morale=4 weapon=R")
        .place("a", "0303", "n", "line")
        .place("g", "0303", "n", "unlimbered")
        .place("b", "0302", "s", "line")
        .build_at(1, UNION, Phase::DefensiveFire);
    t.ok(REBEL, fire("0303", &[("b", 2)]));
    t.script(&[5, 1]);
    let events = t.act(REBEL, GbacwAction::EndPhase);
    let r = &fire_reports(&events)[0];
    assert_eq!(r.strength, 4);
    assert_eq!(r.density_shift, 0, "4 + 1 = 5 points: no shift");
    assert_eq!(reads(&events), vec![(3, 5, "P/R".to_string())]);
}

/// GBACW 8.34: "For density purposes a supply wagon is worth four
/// Stacking Points. Leaders and markers have no effect on density."
#[test]
fn case_8_34_wagon_counts_four_for_density() {
    let mut t = Position::new(6, 6)
        .union("brigade l er=3 rally=1 indpnt")
        .union("infantry a strength=3 morale=4 weapon=R brigade=l")
        .union("wagon w morale=4 weapon=R strength=1 small-arms=10 artillery=6")
        .confederate("infantry b strength=2 morale=4 weapon=R")
        .place("a", "0303", "n", "line")
        .place("w", "0303", "n", "-")
        .leader("l", "0303")
        .place("b", "0302", "s", "line")
        .build_at(1, UNION, Phase::DefensiveFire);
    t.ok(REBEL, fire("0303", &[("b", 2)]));
    // Fire die 5; the leader's two dice (3+4: no effect); morale 5 − 1.
    t.script(&[5, 3, 4, 5]);
    let events = t.act(REBEL, GbacwAction::EndPhase);
    let r = &fire_reports(&events)[0];
    assert_eq!(r.density_shift, 1, "3 + 4 + 0 = 7: one right");
    assert_eq!(reads(&events), vec![(4, 5, "1".to_string())]);
    assert_eq!(strength(&t, "a"), 2);
    assert!(!marked(&t, "a", Marker::Rout), "5 − 1 = 4, not above 4");
    assert!(t.dice_left().is_empty(), "left: {:?}", t.dice_left());
}

/// GBACW 8.22: "If a stack of units is fired upon by artillery at a
/// range of *three* hexes or greater, the artillery fires separately at
/// (and the die is rolled once for) *each* unit in the hex, top unit
/// first. Any result to one unit affects only that unit." ... "All units
/// in the hex take fire before checking for rout." Two HB guns at three
/// hexes (×3, provisional) make 6: C2, one right for 8 points.
#[test]
fn case_8_22_artillery_at_range_three_rolls_per_unit() {
    let mut t = Position::new(6, 8)
        .confederate("infantry a strength=4 morale=3 weapon=R")
        .confederate("infantry b strength=4 morale=4 weapon=R")
        .union("battery gun weapon=HB guns=2 rounds=20 morale=4")
        .place("a", "0303", "s", "line")
        .place("b", "0303", "s", "line")
        .place("gun", "0306", "n", "unlimbered")
        .build_at(1, UNION, Phase::OffensiveFire);
    assert_eq!(t.rs.game().map.grid.distance(n("0306"), n("0303")), 3);
    t.ok(UNION, fire("0303", &[("gun", 2)]));
    t.script(&[6, 2, 3, 4]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    assert_eq!(
        reads(&events),
        vec![(3, 6, "1".to_string()), (3, 2, "-".to_string())]
    );
    assert_eq!(strength(&t, "a"), 3);
    assert_eq!(strength(&t, "b"), 4);
    assert!(!marked(&t, "a", Marker::Rout));
    assert!(!marked(&t, "b", Marker::Rout));
    assert_eq!(t.s.units[&id("gun")].status.rounds, 19, "one round");
    assert!(t.dice_left().is_empty(), "left: {:?}", t.dice_left());
}

/// GBACW 8.22: "If a stack of units is fired upon by artillery at a
/// range of *three* hexes or greater" — at two, one roll, on the top
/// unit (8.21); it holds, so the one beneath is not checked (13.42).
#[test]
fn case_8_22_artillery_at_range_two_single_roll() {
    let mut t = Position::new(6, 8)
        .confederate("infantry a strength=4 morale=3 weapon=R")
        .confederate("infantry b strength=4 morale=4 weapon=R")
        .union("battery gun weapon=HB guns=1 rounds=20 morale=4")
        .place("a", "0303", "s", "line")
        .place("b", "0303", "s", "line")
        .place("gun", "0305", "n", "unlimbered")
        .build_at(1, UNION, Phase::OffensiveFire);
    assert_eq!(t.rs.game().map.grid.distance(n("0305"), n("0303")), 2);
    t.ok(UNION, fire("0303", &[("gun", 1)]));
    t.script(&[6, 3]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    assert_eq!(reads(&events), vec![(3, 6, "1".to_string())]);
    assert_eq!(strength(&t, "a"), 3);
    assert_eq!(strength(&t, "b"), 4);
    assert!(t.dice_left().is_empty(), "left: {:?}", t.dice_left());
}

/// GBACW 8.21: "Only the top-most infantry or cavalry unit in a stack
/// takes losses when the hex is fired on." ... "Artillery only incur
/// losses if no infantry or cavalry units are present in the hex."
#[test]
fn case_8_21_artillery_takes_loss_only_when_alone() {
    let mut t = Position::new(6, 6)
        .union("battery a-gun weapon=N guns=4 rounds=20 morale=4")
        .union("infantry b-foot strength=4 morale=4 weapon=R")
        .confederate("infantry c strength=2 morale=4 weapon=R")
        .place("a-gun", "0303", "n", "unlimbered")
        .place("b-foot", "0303", "n", "line")
        .place("c", "0302", "s", "line")
        .build_at(1, UNION, Phase::DefensiveFire);
    t.ok(REBEL, fire("0303", &[("c", 2)]));
    t.script(&[6, 2]);
    let events = t.act(REBEL, GbacwAction::EndPhase);
    assert_eq!(fire_reports(&events)[0].density_shift, 0, "4 + 1 = 5");
    assert_eq!(reads(&events), vec![(3, 6, "1".to_string())]);
    assert_eq!(strength(&t, "b-foot"), 3, "the infantry takes the loss");
    assert_eq!(t.s.units[&id("a-gun")].status.crew, Crew::Full);
    assert_eq!(strength(&t, "a-gun"), 4);
}

/// GBACW 7.21: "Three infantry regiments worth "3" points each are in a
/// clear hex. Only four of these nine points may fire through any one
/// hexside. Four more points (out of the remaining five) may fire
/// through a different hexside, while the last remaining point may fire
/// through the remaining frontal hexside."
#[test]
fn example_7_21_nine_points_through_three_hexsides() {
    let p = Position::new(6, 6)
        .union("infantry a strength=3 morale=4 weapon=R")
        .union("infantry b strength=3 morale=4 weapon=R")
        .union("infantry c strength=3 morale=4 weapon=R")
        .confederate("infantry f strength=3 morale=4 weapon=R")
        .confederate("infantry fl strength=3 morale=4 weapon=R")
        .confederate("infantry fr strength=3 morale=4 weapon=R")
        .place("a", "0303", "n", "line")
        .place("b", "0303", "n", "line")
        .place("c", "0303", "n", "line")
        .place("f", "0302", "s", "line")
        .place("fl", "0202", "se", "line")
        .place("fr", "0402", "sw", "line");
    let mut t = p.build_at(1, UNION, Phase::OffensiveFire);
    for h in ["0302", "0202", "0402"] {
        adjacent(&t, "0303", h);
    }
    t.ok(UNION, fire("0302", &[("a", 3), ("b", 1)]));
    t.ok(UNION, fire("0202", &[("b", 2), ("c", 2)]));
    t.ok(UNION, fire("0402", &[("c", 1)]));
    // (b) five points through one hexside is refused.
    let t = p.build_at(1, UNION, Phase::OffensiveFire);
    let e = t
        .decide(UNION, &fire("0302", &[("a", 3), ("b", 2)]))
        .expect_err("five points through one hexside");
    assert!(e.rule.contains("7.21") || e.rule.contains("9.3"), "{e}");
}

/// GBACW 7.21: "If one of those units was artillery, four of the
/// infantry points plus all of the guns could fire through the same
/// hexside (see 9.3)." The fires stay separate (9.41).
#[test]
fn example_7_21_artillery_adds_all_guns_through_one_hexside() {
    let mut t = Position::new(6, 6)
        .union("infantry a strength=3 morale=4 weapon=R")
        .union("infantry b strength=3 morale=4 weapon=R")
        .union("battery g weapon=N guns=6 rounds=20 morale=4")
        .confederate("infantry f strength=3 morale=4 weapon=R")
        .confederate("infantry fl strength=3 morale=4 weapon=R")
        .place("a", "0303", "n", "line")
        .place("b", "0303", "n", "line")
        .place("g", "0303", "n", "unlimbered")
        .place("f", "0302", "s", "line")
        .place("fl", "0202", "se", "line")
        .build_at(1, UNION, Phase::OffensiveFire);
    t.ok(UNION, fire("0302", &[("a", 3), ("b", 1)]));
    t.ok(UNION, fire("0302", &[("g", 6)]));
    t.ok(UNION, fire("0202", &[("b", 2)]));
    // Dice: small arms, then the guns; every roll a 1 and every check 1.
    t.script(&[1; 12]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    let at_f: Vec<_> = fire_reports(&events)
        .into_iter()
        .filter(|r| r.target == n("0302"))
        .collect();
    assert_eq!(at_f.len(), 2, "two separate fires at hex F: {at_f:#?}");
    assert!(at_f.iter().any(|r| r.firers == ids(&["g"])));
}

// ---------------------------------------------------------------- 4.0

/// GBACW 4.0 (C): "Neither Player may move his units during this Phase,
/// except as a result of combat."
#[test]
fn case_4_0_no_voluntary_move_in_fire_phase() {
    let mut t = Position::new(6, 8)
        .union("infantry a strength=4 morale=3 weapon=R")
        .confederate("infantry b strength=4 morale=4 weapon=P")
        .place("a", "0303", "n", "line")
        .place("b", "0302", "s", "line")
        .build_at(1, UNION, Phase::DefensiveFire);
    let e = t
        .decide(UNION, &mv(&["a"], &["0304"]))
        .expect_err("no voluntary move in a Fire Phase");
    assert!(e.rule.contains("4.0"), "{e}");
    t.ok(REBEL, fire("0303", &[("b", 4)]));
    t.script(&[5, 5]);
    let events = t.act(REBEL, GbacwAction::EndPhase);
    assert_eq!(reads(&events), vec![(3, 5, "P/R".to_string())]);
    assert!(marked(&t, "a", Marker::Rout), "5 > 3: routed");
    // The rout retreat (13.31) is made in this phase, at once or as the
    // owner's pending choice of path.
    assert!(
        t.hex("a") != Some(n("0303")) || t.s.retreats.iter().any(|o| o.unit == id("a")),
        "the routed unit retreats"
    );
}

/// GBACW 4.0 (F): "Phasing infantry and cavalry units which begin this
/// Phase adjacent to Enemy units may now enter the hex occupied by that
/// Enemy unit(s) and engage in melee combat."
#[test]
fn case_4_0_melee_only_by_units_adjacent_at_phase_start() {
    let mut t = Position::new(6, 8)
        .union("infantry a strength=4 morale=3 weapon=R")
        .union("infantry c strength=4 morale=3 weapon=R")
        .confederate("infantry b strength=3 morale=3 weapon=R")
        .place("a", "0303", "n", "line")
        .place("c", "0304", "n", "line")
        .place("b", "0302", "s", "line")
        .build_at(1, UNION, Phase::RetreatBeforeMelee);
    assert_eq!(t.rs.game().map.grid.distance(n("0304"), n("0302")), 2);
    assert!(t.decide(UNION, &melee("0302", &["c"])).is_err());
    assert!(
        t.decide(UNION, &mv(&["c"], &["0305"])).is_err(),
        "no movement"
    );
    t.ok(UNION, melee("0302", &["a"]));
}

/// GBACW 4.0 (H): "Pin Markers are removed from the Phasing Player's
/// units. The Phasing Player may rally his routed units which are stacked
/// with leaders or in the Effectiveness Radius of their brigade
/// commander." / 9.85: "PIN markers are removed in the Friendly Rally
/// Phase before units are rallied."
#[test]
fn case_4_0_rally_phase_removes_only_phasing_pins() {
    let mut t = Position::new(8, 8)
        .union("brigade l er=3 rally=1 indpnt")
        .union("infantry a strength=4 morale=4 weapon=R brigade=l")
        .union("infantry c strength=4 morale=4 weapon=R brigade=l")
        .confederate("infantry b strength=3 morale=3 weapon=R")
        .place("a", "0303", "n", "line")
        .place("c", "0305", "n", "line")
        .leader("l", "0305")
        .place("b", "0701", "s", "line")
        .build_at(1, UNION, Phase::AmmunitionResupply);
    mark(&mut t, "a", Marker::Pin);
    mark(&mut t, "b", Marker::Pin);
    mark(&mut t, "c", Marker::Pin);
    mark(&mut t, "c", Marker::Rout);
    t.advance_to(UNION, Phase::Rally);
    assert!(!marked(&t, "a", Marker::Pin));
    assert!(!marked(&t, "c", Marker::Pin), "pins off before the rally");
    assert!(marked(&t, "b", Marker::Pin), "the enemy keeps its pin");
    t.ok(UNION, GbacwAction::Rally { unit: id("c") });
    assert!(!marked(&t, "c", Marker::Rout));
    // B's pin stays through the Confederate Movement Phase (9.84).
    t.advance_to(REBEL, Phase::Movement);
    assert!(marked(&t, "b", Marker::Pin));
    assert!(t.decide(REBEL, &mv(&["b"], &["0702"])).is_err());
}

// ---------------------------------------------------------------- 5.0

/// GBACW 5.11: "A unit may never exceed its Movement Allowance although
/// it may move less than its Movement Allowance." (MA 6, clear 1 MP:
/// charts.toml.)
#[test]
fn case_5_11_move_exactly_full_allowance() {
    let mut t = Position::new(6, 10)
        .union("infantry a strength=4 morale=4 weapon=R")
        .place("a", "0301", "s", "line")
        .build_at(1, UNION, Phase::Movement);
    t.ok(
        UNION,
        mv(&["a"], &["0302", "0303", "0304", "0305", "0306", "0307"]),
    );
    assert_eq!(t.spent("a"), mp(12), "6 of 6");
    let e = t
        .decide(UNION, &mv(&["a"], &["0308"]))
        .expect_err("a seventh hex");
    assert!(e.rule.contains("5.11"), "{e}");
}

/// GBACW 5.12: "A unit may not enter a hex containing an Enemy unit
/// during the Movement Phase."
#[test]
fn case_5_12_enemy_hex_not_entered_in_movement() {
    let t = Position::new(6, 6)
        .union("infantry a strength=4 morale=4 weapon=R")
        .confederate("infantry b strength=2 morale=4 weapon=R")
        .place("a", "0303", "n", "line")
        .place("b", "0302", "s", "line")
        .build_at(1, UNION, Phase::Movement);
    let e = t.decide(UNION, &mv(&["a"], &["0302"])).expect_err("5.12");
    assert!(e.rule.contains("5.12"), "{e}");
}

/// GBACW 5.2: "Routed and out of command regiments may only move one hex
/// (regardless of terrain costs). These units may not change formation
/// and may not enter an Enemy Zone of Control"
#[test]
fn case_5_2_routed_unit_moves_one_hex_only() {
    let p = Position::new(6, 8)
        .map("hex 0302 woods")
        .union("infantry a strength=4 morale=4 weapon=R")
        .place("a", "0303", "n", "line");
    let routed = || {
        let mut t = p.build_at(1, UNION, Phase::InitialCommand);
        mark(&mut t, "a", Marker::Rout);
        t.advance_to(UNION, Phase::Movement);
        t
    };
    let mut t = routed();
    assert!(t.decide(UNION, &mv(&["a"], &["0302", "0301"])).is_err());
    assert!(t.decide(UNION, &formation("a", Formation::Column)).is_err());
    t.ok(UNION, mv(&["a"], &["0302"]));
    assert!(t.decide(UNION, &mv(&["a"], &["0301"])).is_err());
}

/// GBACW 5.2: "if already in an Enemy ZOC, they may only move out of the
/// ZOC and into a hex not adjacent to any Enemy units."
#[test]
fn case_5_2_routed_in_zoc_must_leave_to_hex_not_adjacent_to_enemy() {
    let p = Position::new(8, 8)
        .union("infantry a strength=3 morale=4 weapon=R")
        .confederate("infantry b strength=4 morale=4 weapon=R")
        .confederate("infantry c strength=4 morale=4 weapon=R")
        .place("a", "0303", "n", "line")
        .place("b", "0302", "s", "line")
        .place("c", "0503", "ne", "line");
    let mut t = p.build_at(1, UNION, Phase::InitialCommand);
    mark(&mut t, "a", Marker::Rout);
    t.advance_to(UNION, Phase::Movement);
    // P = 0403: behind C (its rear), in no ZOC, but next to C.
    adjacent(&t, "0403", "0503");
    assert!(t.decide(UNION, &mv(&["a"], &["0403"])).is_err(), "P");
    // S = 0402: in B's ZOC (its front-left).
    assert!(t.decide(UNION, &mv(&["a"], &["0402"])).is_err(), "S");
    // Q = 0304: next to no enemy; leaving B's ZOC draws withdrawal fire.
    t.ok(UNION, mv(&["a"], &["0304"]));
    assert!(t.s.decision.is_some(), "B may fire withdrawal fire");
}

// ---------------------------------------------------------------- 6.0

/// GBACW 6.12: "Infantry in *Line* may not benefit from pikes or roads
/// ... (i.e., the presence of a road, pike, or bridge in a hex is
/// disregarded for the purposes of moving a unit in *Line* formation)."
#[test]
fn case_6_12_line_infantry_ignores_road() {
    let cost = |map: &str, form: &str| {
        let mut t = Position::new(6, 6)
            .map(map)
            .union("infantry a strength=4 morale=4 weapon=R")
            .place("a", "0303", "n", form)
            .build_at(1, UNION, Phase::Movement);
        t.ok(UNION, mv(&["a"], &["0302"]));
        t.spent("a")
    };
    let road = "hex 0302 woods\nside 0303/0302 road";
    let woods = "hex 0302 woods";
    assert_eq!(cost(road, "line"), cost(woods, "line"), "road disregarded");
    assert_eq!(cost(road, "line"), mp(4), "woods, 2 MP (provisional)");
    assert_eq!(cost(road, "column"), mp(1), "road, ½ MP");
}

/// GBACW 6.14: "Dismounted cavalry units are considered *Line* infantry
/// for all purposes (except, of course, they cannot go "into column")"
#[test]
fn case_6_14_dismounted_cavalry_may_not_form_column() {
    let t = Position::new(6, 6)
        .union("cavalry k strength=3 morale=4 weapon=C")
        .place("k", "0303", "n", "dismounted")
        .build_at(1, UNION, Phase::Movement);
    assert!(t.decide(UNION, &formation("k", Formation::Column)).is_err());
}

/// GBACW 6.21: "A unit that is outside the Effectiveness Radius of its
/// brigade commander and not stacked with a division commander in the
/// Initial Command Phase may not change its formation during the ensuing
/// Friendly Movement Phase"
#[test]
fn case_6_21_out_of_command_no_formation_change() {
    let mut t = Position::new(10, 10)
        .union("division d dir=10 cp=0")
        .union("brigade s er=3 rally=1 division=d")
        .union("infantry a strength=4 morale=4 weapon=R brigade=s")
        .union("infantry b strength=4 morale=4 weapon=R brigade=s")
        .union("infantry h strength=4 morale=4 weapon=R brigade=s")
        .place("h", "0101", "s", "line")
        .leader("s", "0101")
        .place("a", "0105", "n", "line")
        .place("b", "0501", "s", "line")
        .leader("d", "0501")
        .build_at(1, UNION, Phase::Movement);
    assert!(t.s.command.out_of_command.contains(&id("a")));
    let e = t
        .decide(UNION, &formation("a", Formation::Column))
        .expect_err("out of command");
    assert!(e.rule.contains("6.21") || e.rule.contains("17.11"), "{e}");
    t.ok(UNION, formation("b", Formation::Column));
}

/// GBACW 6.35: "Routed units are always considered *enfiladed* when fired
/// upon."
#[test]
fn case_6_35_routed_unit_always_enfiladed() {
    let mut t = Position::new(6, 8)
        .union("infantry a strength=4 morale=4 weapon=P")
        .confederate("infantry b strength=4 morale=3 weapon=R")
        .place("a", "0304", "n", "line")
        .place("b", "0303", "s", "line")
        .build_at(1, UNION, Phase::InitialCommand);
    mark(&mut t, "b", Marker::Rout);
    t.advance_to(UNION, Phase::OffensiveFire);
    t.ok(UNION, fire("0303", &[("a", 4)]));
    t.script(&[5]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    assert!(fire_reports(&events)[0].enfilade);
    assert_eq!(reads(&events), vec![(4, 5, "1".to_string())]);
    assert_eq!(strength(&t, "b"), 3);
}

// ---------------------------------------------------------------- 7.0

/// GBACW 7.23: "A unit which is enfiladed by at least one firing Enemy
/// unit has the total Fire Strength being directed against it adjusted
/// one column to the right"
#[test]
fn case_7_23_one_enfilading_firer_shifts_combined_total() {
    let mut t = Position::new(6, 6)
        .confederate("infantry b strength=4 morale=4 weapon=R")
        .union("infantry a1 strength=3 morale=4 weapon=P")
        .union("infantry a2 strength=3 morale=4 weapon=P")
        .place("b", "0303", "n", "line")
        .place("a1", "0302", "s", "line")
        .place("a2", "0403", "nw", "line")
        .build_at(1, UNION, Phase::OffensiveFire);
    adjacent(&t, "0403", "0303");
    t.ok(UNION, fire("0303", &[("a1", 3), ("a2", 3)]));
    t.script(&[6, 1, 1]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    let r = &fire_reports(&events)[0];
    assert_eq!(r.strength, 6);
    assert!(r.enfilade);
    assert_eq!(r.net_shift, 1, "once, not per enfilading firer");
    assert_eq!(reads(&events), vec![(4, 6, "1*".to_string())]);
}

/// GBACW 7.23: "A unit which is fired upon through one (or more) of its
/// rear hexsides is enfiladed" — front and rear trials.
#[test]
fn case_7_23_fire_through_rear_hexside_shifts_one_right() {
    let trial = |at: &str, facing: &str| {
        let mut t = Position::new(6, 6)
            .confederate("infantry b strength=4 morale=3 weapon=R")
            .union("infantry a strength=4 morale=4 weapon=P")
            .place("b", "0303", "n", "line")
            .place("a", at, facing, "line")
            .build_at(1, UNION, Phase::OffensiveFire);
        t.ok(UNION, fire("0303", &[("a", 4)]));
        t.script(&[5, 1]);
        let events = t.act(UNION, GbacwAction::EndPhase);
        reads(&events)
    };
    assert_eq!(trial("0302", "s"), vec![(3, 5, "P/R".to_string())]);
    assert_eq!(trial("0304", "n"), vec![(4, 5, "1".to_string())]);
}

/// GBACW 7.0: "Infantry in *Column*, supply wagons, mounted cavalry, and
/// limbered artillery are always considered *enfiladed* whenever fired
/// upon regardless of the direction of the fire."
#[test]
fn case_7_0_column_and_wagon_always_enfiladed() {
    let trial = |line: &str, formation: &str| {
        let mut t = Position::new(6, 6)
            .confederate(line)
            .union("infantry a strength=4 morale=4 weapon=P")
            .place("x", "0302", "s", formation)
            .place("a", "0303", "n", "line")
            .build_at(1, UNION, Phase::OffensiveFire);
        t.ok(UNION, fire("0302", &[("a", 4)]));
        t.script(&[6, 6, 6, 6, 6]);
        let r = fire_reports(&t.act(UNION, GbacwAction::EndPhase))[0].clone();
        (r.enfilade, r.column)
    };
    assert_eq!(
        trial("infantry x strength=4 morale=4 weapon=R", "column"),
        (true, 4)
    );
    assert_eq!(
        trial(
            "wagon x morale=4 weapon=R strength=1 small-arms=10 artillery=6",
            "-"
        ),
        (true, 4)
    );
    assert_eq!(
        trial("cavalry x strength=4 morale=4 weapon=C", "mounted"),
        (true, 4)
    );
    assert_eq!(
        trial("battery x weapon=N guns=4 rounds=20 morale=4", "limbered"),
        (true, 3)
    );
}

/// GBACW 7.0 Procedure: "A unit moving into a hex assumes the facing of
/// the unit(s) already in that hex." / 8.42: "All units stacked in the
/// same hex must maintain the same facing."
#[test]
fn case_7_0_unit_entering_stack_takes_its_facing() {
    let mut t = Position::new(6, 6)
        .union("infantry a strength=3 morale=4 weapon=R")
        .union("infantry b strength=3 morale=4 weapon=R")
        .place("b", "0303", "ne", "line")
        .place("a", "0304", "n", "line")
        .build_at(1, UNION, Phase::Movement);
    t.ok(UNION, mv(&["a"], &["0303"]));
    assert_eq!(t.s.units[&id("a")].facing, dir("ne"));
    // Turning one turns the stack: the two never face apart.
    t.ok(
        UNION,
        GbacwAction::Face {
            unit: id("a"),
            facing: dir("n"),
        },
    );
    assert_eq!(t.s.units[&id("a")].facing, t.s.units[&id("b")].facing);
}

/// GBACW 7.22: "Units may fire through only their frontal hexsides."
#[test]
fn case_7_22_fire_only_through_frontal_hexsides() {
    let t = Position::new(6, 6)
        .union("infantry a strength=4 morale=4 weapon=R")
        .confederate("infantry b strength=4 morale=4 weapon=R")
        .confederate("infantry c strength=4 morale=4 weapon=R")
        .place("a", "0303", "n", "line")
        .place("b", "0203", "ne", "line")
        .place("c", "0402", "sw", "line")
        .build_at(1, UNION, Phase::OffensiveFire);
    adjacent(&t, "0303", "0203");
    let e = t
        .decide(UNION, &fire("0203", &[("a", 4)]))
        .expect_err("rear-left");
    assert!(e.rule.contains("7.2"), "{e}");
    assert!(t.decide(UNION, &fire("0402", &[("a", 4)])).is_ok());
}

/// GBACW 7.31: "A unit may advance only through one of its frontal
/// hexsides into a hex to melee one or more Enemy units."
#[test]
fn case_7_31_melee_only_through_frontal_hexside() {
    let t = Position::new(6, 6)
        .union("infantry a strength=4 morale=4 weapon=R")
        .confederate("infantry b strength=4 morale=4 weapon=R")
        .confederate("infantry c strength=4 morale=4 weapon=R")
        .place("a", "0303", "n", "line")
        .place("b", "0403", "nw", "line")
        .place("c", "0202", "se", "line")
        .build_at(1, UNION, Phase::RetreatBeforeMelee);
    let e = t
        .decide(UNION, &melee("0403", &["a"]))
        .expect_err("rear-right");
    assert!(e.rule.contains("7.31"), "{e}");
    assert!(t.decide(UNION, &melee("0202", &["a"])).is_ok());
}

// ---------------------------------------------------------------- 8.0

/// GBACW 8.16: "An infantry unit in Column formation may never move into
/// a hex containing any other combat unit." A leader is not one (3.3).
#[test]
fn case_8_16_column_may_not_enter_hex_with_combat_unit() {
    let t = Position::new(6, 6)
        .union("brigade l er=3 rally=1 indpnt")
        .union("infantry a strength=4 morale=4 weapon=R brigade=l")
        .union("infantry b strength=2 morale=4 weapon=R brigade=l")
        .union("infantry h strength=2 morale=4 weapon=R brigade=l")
        .place("a", "0303", "n", "column")
        .place("b", "0302", "n", "line")
        .place("h", "0305", "n", "line")
        .leader("l", "0304")
        .build_at(1, UNION, Phase::Movement);
    let e = t
        .decide(UNION, &mv(&["a"], &["0302"]))
        .expect_err("a combat unit in X");
    assert!(e.rule.contains("8.16"), "{e}");
    assert!(t.decide(UNION, &mv(&["a"], &["0304"])).is_ok());
}
