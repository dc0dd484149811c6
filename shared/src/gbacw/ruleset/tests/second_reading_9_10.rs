//! The second reading of Standard Rules 9.0 (fire combat, line of sight)
//! and 10.0 (zones of control, withdrawal and retreat fire): the cases of
//! `docs/second-reading/std-09-10.md`, written by readers of the rule text
//! only, as positions with printed values and scripted dice. Each test is
//! named after its case; the expectation is the case's, not the engine's.
//!
//! Geometry used throughout (flat-topped hexes, even columns half a hex
//! lower): odd-column 0302's neighbours are 0301 n, 0401 ne, 0402 se,
//! 0303 s, 0202 sw, 0201 nw. A target "T" at 0302 facing south has its
//! frontal hexsides toward 0303, 0402 and 0202 and its rear toward 0301,
//! 0401 and 0201. Firers are turned toward their target with
//! [`T::face_towards`] so that the target lies across their top hexside.
//! The case's CSA is the Confederate seat (REBEL), its USA the Union.

use super::reading_support::{checks, inf, loss, marked, offered, strength};
use super::*;
use crate::gbacw::oob::{Crew, Marker};
use crate::gbacw::ruleset::event::FireReport;
use crate::gbacw::tables::{FireResult, FireRow};
use crate::gbacw::testkit::Position;

fn hb(id: &str, guns: u8) -> String {
    format!("battery {id} weapon=HB guns={guns} rounds=20 morale=4")
}

fn leader(id: &str) -> String {
    format!("brigade {id} indpnt er=3 rally=1")
}

/// The lengths of the retreats `unit` is ordered to make.
fn rout_orders(t: &T, unit: &str) -> Vec<u8> {
    t.s.retreats
        .iter()
        .filter(|o| o.unit == id(unit))
        .map(|o| o.length)
        .collect()
}

fn rounds_fired(events: &[GbacwEvent], unit: &str) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, GbacwEvent::RoundFired { unit: u } if *u == id(unit)))
        .count()
}

/// CSA's Offensive Fire Phase of Game-Turn 1 on `p`.
fn csa_fire(p: &Position) -> T {
    p.build_at(1, REBEL, Phase::OffensiveFire)
}

/// Declare `attacks` (in order), script `dice`, end the phase; returns the
/// events and the fire reports.
fn resolve(
    t: &mut T,
    seat: SeatId,
    attacks: &[GbacwAction],
    dice: &[u16],
) -> (Vec<GbacwEvent>, Vec<FireReport>) {
    for a in attacks {
        t.ok(seat, a.clone());
    }
    t.script(dice);
    let events = t.act(seat, GbacwAction::EndPhase);
    let reports = fire_reports(&events);
    (events, reports)
}

/// T (USA, 4 SP, morale 3) at 0302 facing south on a 6 × 14 field.
fn target_field() -> Position {
    Position::new(6, 14)
        .union(&inf("t", 4, 3))
        .place("t", "0302", "s", "line")
}

// ---------------------------------------------------------------------
// 9.0 Fire Combat
// ---------------------------------------------------------------------

/// GBACW 9.0, 9.41: "The Combat Strength of each separate firing unit is
/// modified by the range of that unit from the target unit. ... The
/// Combat Strengths of all firing units are totaled together, after the
/// effects of range have been applied."
#[test]
fn case_9_0_range_each_unit_then_total() {
    let p = target_field()
        .confederate(&hb("x", 4))
        .confederate(&hb("y", 2))
        .place("x", "0402", "nw", "unlimbered")
        .place("y", "0312", "n", "unlimbered");
    let mut t = csa_fire(&p);
    let grid = &t.rs.game().map.grid;
    assert_eq!(grid.distance(n("0402"), n("0302")), 1);
    assert_eq!(grid.distance(n("0312"), n("0302")), 10);
    let (events, r) = resolve(
        &mut t,
        REBEL,
        &[fire("0302", &[("x", 4), ("y", 2)])],
        &[4, 2, 3],
    );
    assert_eq!(r.len(), 1, "one resolution");
    assert_eq!(r[0].strength, 41);
    assert_eq!(r[0].row, FireRow::Grapeshot);
    assert_eq!((r[0].density_shift, r[0].net_shift), (0, 0));
    assert_eq!(r[0].column, 8);
    assert_eq!(r[0].result, loss(1, true));
    assert_eq!(strength(&t, "t"), 3);
    assert_eq!(checks(&events, "t"), [(2, false), (3, false)]);
    assert!(!marked(&t, "t", Marker::Rout) && !marked(&t, "t", Marker::Pin));
    assert_eq!(rounds_fired(&events, "x"), 1);
    assert_eq!(rounds_fired(&events, "y"), 1);
    assert!(t.dice_left().is_empty());
}

/// GBACW 9.12: "This is the *Current Strength*, not the Initial Strength
/// given on the counter, although the two can be the same."
#[test]
fn case_9_12_fires_current_not_printed_strength() {
    let p = target_field()
        .confederate(&inf("a", 4, 4))
        .place("a", "0304", "n", "line");
    let mut t = csa_fire(&p);
    t.s.units.get_mut(&id("a")).unwrap().status.strength = 2;
    t.refused(REBEL, fire("0302", &[("a", 4)]), "GBACW 9.45");
    let (_, r) = resolve(&mut t, REBEL, &[fire("0302", &[("a", 2)])], &[4, 5]);
    assert_eq!(r[0].strength, 2);
    assert_eq!(r[0].column, 2);
    assert_eq!(r[0].result, FireResult::MaybePin);
    assert!(marked(&t, "t", Marker::Pin));
    assert!(t.dice_left().is_empty());
}

/// GBACW 9.13, 15.13: "All artillery units have a Fire Strength equal to
/// their Combat Strength value (as modified by their gun crew status)" /
/// "When a gun crew is at one-half strength, the current fire strength of
/// the battery is halved (round fractions up)."
#[test]
fn case_9_13_half_crew_halves_guns_before_range() {
    let p = target_field()
        .confederate(&hb("x", 5))
        .place("x", "0303", "n", "unlimbered");
    let mut t = csa_fire(&p);
    t.s.units.get_mut(&id("x")).unwrap().status.crew = Crew::Half;
    let (events, r) = resolve(&mut t, REBEL, &[fire("0302", &[("x", 5)])], &[2, 1]);
    assert_eq!(r[0].strength, 30, "ceil(5/2) = 3 guns, x10");
    assert_eq!(r[0].column, 7);
    assert_eq!(r[0].result, loss(1, false));
    assert_eq!(strength(&t, "t"), 3);
    assert_eq!(checks(&events, "t"), [(1, false)]);
    assert_eq!(rounds_fired(&events, "x"), 1);
    assert!(t.dice_left().is_empty());
    // The other reading, by name: 5 x 10 = 50, halved 25 (C6, roll 2
    // "P/R"; the P/R roll 1 pins).
    let mut t = csa_fire(&p.reading_001("half-crew-halves-final"));
    t.s.units.get_mut(&id("x")).unwrap().status.crew = Crew::Half;
    let (_, r) = resolve(&mut t, REBEL, &[fire("0302", &[("x", 5)])], &[2, 1]);
    assert_eq!((r[0].strength, r[0].column), (25, 6));
}

/// GBACW 9.14, 9.82: "Artillery fire against artillery and supply wagons
/// is resolved using the Small Arms and Counter-Battery row of the CRT" /
/// "Guns themselves are affected only by artillery fire and each Point in
/// a given result eliminates a gun."
#[test]
fn case_9_14_artillery_vs_battery_uses_counter_battery_row() {
    let p = Position::new(6, 6)
        .union("battery z weapon=HB guns=6 rounds=20 morale=4")
        .place("z", "0302", "s", "unlimbered")
        .confederate(&hb("x", 4))
        .place("x", "0303", "n", "unlimbered");
    let mut t = csa_fire(&p);
    // The Fire CRT roll 1, the caisson roll 4, then the crew's morale
    // check 1 (13.0: "A morale check must be made for a unit each time it
    // suffers a casualty"; 15.11: crews "may be routed or pinned as a
    // result of artillery fire").
    let (events, r) = resolve(&mut t, REBEL, &[fire("0302", &[("x", 4)])], &[1, 4, 1]);
    assert_eq!(r[0].row, FireRow::SmallArmsAndCounterBattery);
    assert_eq!(r[0].strength, 40);
    assert_eq!(r[0].density_shift, -1);
    assert_eq!(r[0].column, 8);
    assert_eq!(r[0].result, loss(1, false));
    assert_eq!(strength(&t, "z"), 5);
    assert_eq!(t.s.units[&id("z")].status.crew, Crew::Full);
    assert_eq!(checks(&events, "z"), [(1, false)]);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, GbacwEvent::CaissonRolled { .. })),
        "the 15.2 caisson roll"
    );
    assert_eq!(rounds_fired(&events, "x"), 1);
    assert!(t.dice_left().is_empty());
}

/// GBACW 9.14: "Artillery fire against infantry or cavalry units is
/// resolved using the Grapeshot row of the CRT."
#[test]
fn case_9_14_artillery_vs_infantry_uses_grapeshot_row() {
    let p = target_field()
        .confederate(&hb("x", 4))
        .place("x", "0303", "n", "unlimbered");
    let mut t = csa_fire(&p);
    let (events, r) = resolve(&mut t, REBEL, &[fire("0302", &[("x", 4)])], &[4, 1, 2]);
    assert_eq!(r[0].row, FireRow::Grapeshot);
    assert_eq!(r[0].column, 8);
    assert_eq!(r[0].result, loss(1, true));
    assert_eq!(strength(&t, "t"), 3);
    assert_eq!(checks(&events, "t"), [(1, false), (2, false)]);
    assert!(!marked(&t, "t", Marker::Pin));
    assert!(t.dice_left().is_empty());
}

/// GBACW 9.15, 9.82: "If an artillery battery is hit by small-arms fire,
/// only the crew is affected. If a battery suffers a result of "1," the
/// gun crew counter is flipped over to its Reduced Strength side"
#[test]
fn case_9_15_small_arms_vs_battery_hits_crew_only() {
    let p = Position::new(6, 6)
        .union("battery z weapon=HB guns=6 rounds=20 morale=4")
        .place("z", "0302", "s", "unlimbered")
        .confederate(&inf("a", 4, 4))
        .place("a", "0304", "n", "line");
    let mut t = csa_fire(&p);
    // The Fire CRT roll 6, then the crew's morale check 1 (13.0).
    let (events, r) = resolve(&mut t, REBEL, &[fire("0302", &[("a", 4)])], &[6, 1]);
    assert_eq!(checks(&events, "z"), [(1, false)]);
    assert_eq!(r[0].row, FireRow::SmallArmsAndCounterBattery);
    assert_eq!(r[0].strength, 4);
    assert_eq!(r[0].density_shift, -1);
    assert_eq!(r[0].column, 2);
    assert_eq!(r[0].result, loss(1, false));
    assert_eq!(t.s.units[&id("z")].status.crew, Crew::Half);
    assert_eq!(strength(&t, "z"), 6, "still 6 guns");
    assert!(t.dice_left().is_empty());
}

/// GBACW 9.23: "The firing unit's hex is not counted as part of the range
/// figure; the target hex is counted."
#[test]
fn case_9_23_range_counts_target_hex_not_firer() {
    let p = target_field()
        .confederate(&hb("x", 4))
        .place("x", "0304", "n", "unlimbered");
    let mut t = csa_fire(&p);
    let (_, r) = resolve(&mut t, REBEL, &[fire("0302", &[("x", 4)])], &[4, 1]);
    assert_eq!(r[0].strength, 20, "range 2: x5 (provisional)");
    assert_eq!(r[0].column, 5);
    assert_eq!(r[0].result, loss(1, false));
    assert_eq!(strength(&t, "t"), 3);
}

/// GBACW 9.23: "No unit may fire at an Enemy unit that is outside the
/// maximum range for that weapon."
#[test]
fn case_9_23_beyond_maximum_range_refused() {
    let p = Position::new(6, 8)
        .confederate(&inf("a", 4, 4))
        .place("a", "0306", "n", "line")
        .union(&inf("t1", 4, 3))
        .union(&inf("t2", 4, 3))
        .place("t1", "0403", "s", "line")
        .place("t2", "0302", "s", "line");
    let mut t = csa_fire(&p);
    let grid = &t.rs.game().map.grid;
    assert_eq!(grid.distance(n("0306"), n("0403")), 3);
    assert_eq!(grid.distance(n("0306"), n("0302")), 4);
    t.refused(REBEL, fire("0302", &[("a", 4)]), "GBACW 9.23");
    t.ok(REBEL, fire("0403", &[("a", 4)]));
}

/// GBACW 9.3: "*Four* Strength Points may fire out of a given hex through
/// any one of its frontal hexsides."
#[test]
fn case_9_3_four_points_per_frontal_hexside() {
    let p = Position::new(6, 6)
        .confederate(&inf("a", 6, 4))
        .place("a", "0303", "n", "line")
        .union(&inf("t1", 4, 3))
        .union(&inf("t2", 4, 3))
        .place("t1", "0302", "s", "line")
        .place("t2", "0202", "se", "line");
    let mut t = csa_fire(&p);
    // (a) six through the top hexside: refused (the engine cites 7.21,
    // the case that 9.3 restates).
    let e = t.decide(REBEL, &fire("0302", &[("a", 6)])).unwrap_err();
    assert!(matches!(e.rule.as_str(), "GBACW 9.3" | "GBACW 7.21"), "{e}");
    // (b) four through the top, two through the front-left: allowed.
    t.ok(REBEL, fire("0302", &[("a", 4)]));
    t.ok(REBEL, fire("0202", &[("a", 2)]));
}

/// GBACW 9.31: "The four Strength Points that may fire through a hexside
/// are "Pre-Range Effects Modification Strength Points." Thus, the 4
/// Points may be doubled, halved, etc. as an effect of range."
#[test]
fn example_9_31_four_points_are_pre_range() {
    let p = target_field()
        .confederate(&inf("a", 5, 4))
        .place("a", "0303", "n", "line");
    let mut t = csa_fire(&p);
    assert!(t.decide(REBEL, &fire("0302", &[("a", 5)])).is_err());
    let (_, r) = resolve(&mut t, REBEL, &[fire("0302", &[("a", 4)])], &[5, 1]);
    assert_eq!(r[0].strength, 8, "4 x 2, not cut back to 4");
    assert_eq!(r[0].column, 4);
    assert_eq!(r[0].result, loss(1, false));
    assert_eq!(strength(&t, "t"), 3);
    assert!(t.dice_left().is_empty());
}

fn three_regiments_three_enemies() -> Position {
    Position::new(6, 6)
        .confederate(&inf("r1", 3, 4))
        .confederate(&inf("r2", 3, 4))
        .confederate(&inf("r3", 3, 4))
        .place("r1", "0303", "n", "line")
        .place("r2", "0303", "n", "line")
        .place("r3", "0303", "n", "line")
        .union(&inf("e1", 4, 3))
        .union(&inf("e2", 4, 3))
        .union(&inf("e3", 4, 3))
        .place("e1", "0302", "s", "line")
        .place("e2", "0202", "se", "line")
        .place("e3", "0402", "sw", "line")
}

/// GBACW 7.21 (9.32 "see 7.21"): "Three infantry regiments worth "3"
/// points each are in a clear hex. Only four of these nine points may fire
/// through any one hexside. Four more points (out of the remaining five)
/// may fire through a different hexside, while the last remaining point
/// may fire through the remaining frontal hexside."
#[test]
fn example_7_21_nine_points_three_hexsides() {
    let mut t = csa_fire(&three_regiments_three_enemies());
    t.ok(REBEL, fire("0302", &[("r1", 3), ("r2", 1)]));
    t.ok(REBEL, fire("0202", &[("r2", 2), ("r3", 2)]));
    t.ok(REBEL, fire("0402", &[("r3", 1)]));
    let t = csa_fire(&three_regiments_three_enemies());
    let e = t
        .decide(REBEL, &fire("0302", &[("r1", 3), ("r2", 2)]))
        .unwrap_err();
    assert!(matches!(e.rule.as_str(), "GBACW 9.3" | "GBACW 7.21"), "{e}");
}

fn two_regiments_and_a_battery() -> Position {
    Position::new(6, 6)
        .confederate(&inf("i1", 3, 4))
        .confederate(&inf("i2", 3, 4))
        .confederate(&hb("g", 6))
        .place("i1", "0303", "n", "line")
        .place("i2", "0303", "n", "line")
        .place("g", "0303", "n", "unlimbered")
        .union(&inf("e1", 4, 3))
        .place("e1", "0302", "s", "line")
}

/// GBACW 9.32, 7.21: "Artillery is not limited to the number of Strength
/// Points of fire per hexside. Thus, all batteries in a hex may fire out
/// of one hexside (see 7.21)." / "four of the infantry points plus all of
/// the guns could fire through the same hexside (see 9.3)."
#[test]
fn example_9_32_artillery_no_hexside_limit() {
    let mut t = csa_fire(&two_regiments_and_a_battery());
    t.ok(REBEL, fire("0302", &[("i1", 3), ("i2", 1)]));
    t.ok(REBEL, fire("0302", &[("g", 6)]));
    // Two fires: small arms 8 (C4, roll 2 "P", check 1 no effect), then
    // grapeshot 60 (C10, roll 2 "1*", morale 1, pin 1).
    t.script(&[2, 2, 1, 1, 1]);
    let events = t.act(REBEL, GbacwAction::EndPhase);
    let r = fire_reports(&events);
    assert_eq!(r.len(), 2, "two separate resolutions (9.41)");
    assert_eq!(
        (r[0].row, r[0].strength),
        (FireRow::SmallArmsAndCounterBattery, 8)
    );
    assert_eq!((r[1].row, r[1].strength), (FireRow::Grapeshot, 60));
    assert_eq!(r[1].column, 10);
    let t = csa_fire(&two_regiments_and_a_battery());
    let e = t
        .decide(REBEL, &fire("0302", &[("i1", 3), ("i2", 2)]))
        .unwrap_err();
    assert!(matches!(e.rule.as_str(), "GBACW 9.3" | "GBACW 7.21"), "{e}");
}

/// GBACW 9.41: "Infantry Fire Strength and Artillery Fire Strength are
/// never added together; these units always fire separately."
#[test]
fn case_9_41_infantry_and_artillery_never_added() {
    let p = target_field()
        .confederate(&inf("a", 4, 4))
        .confederate(&hb("y", 2))
        .place("a", "0303", "n", "line")
        .place("y", "0312", "n", "unlimbered");
    let t = csa_fire(&p);
    // The battery's line of fire passes A's hex: on level ground a 5-ft
    // unit does not block (9.71).
    t.refused(REBEL, fire("0302", &[("a", 4), ("y", 2)]), "GBACW 9.41");
}

/// T 7 SP at 0302; X (4 HB) adjacent at 0303, A (4 R) adjacent at 0402.
fn seven_point_target() -> Position {
    Position::new(6, 8)
        .union(&inf("t", 7, 3))
        .place("t", "0302", "s", "line")
        .confederate(&hb("x", 4))
        .confederate(&inf("a", 4, 4))
        .place("x", "0303", "n", "unlimbered")
        .place("a", "0402", "nw", "line")
}

/// GBACW 9.42: "When a unit is fired on by both artillery and small-arms,
/// both attacks are resolved before any resulting casualties are applied.
/// ... All casualties (if any) from both fires are then applied before
/// resolving a morale check, if necessary (see 13.2)."
#[test]
fn case_9_42_density_before_either_casualty() {
    let mut t = csa_fire(&seven_point_target());
    let (events, r) = resolve(
        &mut t,
        REBEL,
        &[fire("0302", &[("x", 4)]), fire("0302", &[("a", 4)])],
        &[5, 4, 5],
    );
    assert_eq!((r[0].column, r[0].result), (9, loss(2, true)));
    assert_eq!((r[1].strength, r[1].density_shift), (8, 1));
    assert_eq!((r[1].column, r[1].result), (5, loss(1, false)));
    assert_eq!(strength(&t, "t"), 4);
    assert_eq!(checks(&events, "t"), [(5, true)], "one morale check");
    assert!(marked(&t, "t", Marker::Rout));
    assert_eq!(rout_orders(&t, "t"), [3], "one rout, three hexes (13.31)");
    assert!(t.dice_left().is_empty());
}

/// GBACW 9.42: "(Thus, a unit does not "escape," for example, artillery
/// fire because small-arms fire causes it to rout and run away.)"
#[test]
fn example_9_42_no_escape_by_rout() {
    let mut t = csa_fire(&seven_point_target());
    let (events, r) = resolve(
        &mut t,
        REBEL,
        &[fire("0302", &[("a", 4)]), fire("0302", &[("x", 4)])],
        &[6, 6, 5],
    );
    assert_eq!((r[0].column, r[0].result), (5, loss(1, true)));
    assert_eq!((r[1].column, r[1].result), (9, loss(2, true)));
    assert_eq!(strength(&t, "t"), 4);
    assert_eq!(checks(&events, "t"), [(5, true)], "one check, no pin roll");
    assert!(marked(&t, "t", Marker::Rout));
    assert_eq!(rout_orders(&t, "t"), [3], "one rout, three hexes (13.31)");
    assert!(t.dice_left().is_empty());
}

/// GBACW 9.43: "During a Fire Phase, small-arms fire (infantry, etc.)
/// generally affects only the top infantry or cavalry unit in a stack
/// (see 8.21)."
#[test]
fn case_9_43_small_arms_hits_top_unit_only() {
    let p = Position::new(6, 6)
        .union(&inf("t1-top", 2, 4))
        .union(&inf("t2-under", 4, 2))
        .place("t1-top", "0302", "s", "line")
        .place("t2-under", "0302", "s", "line")
        .confederate(&inf("a", 4, 4))
        .place("a", "0304", "n", "line");
    let mut t = csa_fire(&p);
    let (events, r) = resolve(&mut t, REBEL, &[fire("0302", &[("a", 4)])], &[6, 3]);
    assert_eq!((r[0].column, r[0].result), (3, loss(1, false)));
    assert_eq!(strength(&t, "t1-top"), 1);
    assert_eq!(strength(&t, "t2-under"), 4);
    assert_eq!(checks(&events, "t1-top"), [(3, false)]);
    assert!(checks(&events, "t2-under").is_empty());
    assert!(t.dice_left().is_empty());
}

/// GBACW 8.21 (9.43): "Thus, if a "1" Strength Point (SP) infantry unit is
/// stacked on top of a "3" SP unit and the units undergo fire with a
/// casualty result of "2," the top unit is eliminated and the bottom unit
/// loses one Strength Point."
#[test]
fn case_9_43_loss_overflows_to_next_unit() {
    let p = Position::new(6, 6)
        .union(&inf("t1-top", 1, 3))
        .union(&inf("t2-under", 3, 3))
        .place("t1-top", "0302", "s", "line")
        .place("t2-under", "0302", "s", "line")
        .confederate(&hb("x", 4))
        .place("x", "0303", "n", "unlimbered");
    let mut t = csa_fire(&p);
    let (events, r) = resolve(&mut t, REBEL, &[fire("0302", &[("x", 4)])], &[5, 1, 1]);
    assert_eq!((r[0].column, r[0].result), (8, loss(2, true)));
    assert_eq!(t.hex("t1-top"), None, "eliminated");
    assert_eq!(strength(&t, "t2-under"), 2);
    assert_eq!(checks(&events, "t2-under"), [(1, false), (1, false)]);
    assert!(t.dice_left().is_empty());
}

/// T at 0303 with four CSA firers around it, each in its own hex.
fn four_firers() -> T {
    let p = Position::new(6, 6)
        .union(&inf("t", 4, 3))
        .place("t", "0303", "s", "line")
        .confederate(&inf("a", 4, 4))
        .confederate(&inf("b", 4, 4))
        .confederate(&hb("x", 4))
        .confederate(&hb("y", 4))
        .place("a", "0302", "s", "line")
        .place("b", "0304", "n", "line")
        .place("x", "0203", "ne", "unlimbered")
        .place("y", "0403", "nw", "unlimbered");
    csa_fire(&p)
}

/// GBACW 9.44: "No unit may be fired upon more than once in any given Fire
/// Phase by small-arms fire, and no unit may be fired upon more than once
/// in a Combat Phase by artillery."
#[test]
fn case_9_44_second_small_arms_attack_refused() {
    let mut t = four_firers();
    t.ok(REBEL, fire("0303", &[("a", 4)]));
    t.refused(REBEL, fire("0303", &[("b", 4)]), "GBACW 9.44");
    t.ok(REBEL, fire("0303", &[("x", 4)]));
    t.refused(REBEL, fire("0303", &[("y", 4)]), "GBACW 9.44");
}

fn split_position(sp: u8) -> T {
    let p = Position::new(6, 6)
        .confederate(&inf("a", sp, 4))
        .place("a", "0303", "n", "line")
        .union(&inf("e1", 4, 3))
        .union(&inf("e2", 4, 3))
        .union(&inf("e3", 4, 3))
        .place("e1", "0302", "s", "line")
        .place("e2", "0202", "se", "line")
        .place("e3", "0402", "sw", "line");
    csa_fire(&p)
}

/// GBACW 9.45: "No unit may fire its entire Fire Strength more than once
/// in any given Fire Phase ... as long as the total Combat Strength is not
/// exceeded and the rules of facing are observed."
#[test]
fn case_9_45_no_second_fire_same_phase() {
    let mut t = split_position(3);
    t.ok(REBEL, fire("0302", &[("a", 3)]));
    t.refused(REBEL, fire("0202", &[("a", 1)]), "GBACW 9.45");
    let mut t = split_position(3);
    t.ok(REBEL, fire("0302", &[("a", 2)]));
    t.refused(REBEL, fire("0202", &[("a", 2)]), "GBACW 9.45");
    t.ok(REBEL, fire("0202", &[("a", 1)]));
}

/// GBACW 9.45: "An infantry regiment with a strength of 3 may fire with a
/// strength of 1 at three different Enemy hexes or it may fire with a
/// strength of 2 at one hex and 1 at another. Note that the Current
/// Strength is divided, not the Final Fire Strength"
#[test]
fn example_9_45_infantry_split() {
    // (a) 1 at each: each part range-modified alone, 1 x 2 = 2 (C2;
    // roll 2 there is "-").
    let mut t = split_position(3);
    let (_, r) = resolve(
        &mut t,
        REBEL,
        &[
            fire("0302", &[("a", 1)]),
            fire("0202", &[("a", 1)]),
            fire("0402", &[("a", 1)]),
        ],
        &[2, 2, 2],
    );
    assert_eq!(r.len(), 3);
    assert!(r.iter().all(|r| r.strength == 2 && r.column == 2));
    // (b) 2 and 1.
    let mut t = split_position(3);
    t.ok(REBEL, fire("0302", &[("a", 2)]));
    t.ok(REBEL, fire("0202", &[("a", 1)]));
    // (c) a split of the final 6 as 4 + 2: refused.
    let t = split_position(3);
    t.refused(REBEL, fire("0302", &[("a", 4)]), "GBACW 9.45");
}

/// GBACW 9.45: "A battery composed of 6 guns can fire at an Enemy unit that
/// is adjacent and one that is ten hexes distant. Four guns (HB) fire at
/// the nearer target (at an Effective Strength of 4 x 10 = 40) and two
/// guns fire at the other target (at an Effective Strength of 2 x 1/2 =
/// 1)." (The one round of 11.31 is tested elsewhere.)
#[test]
fn example_9_45_battery_split() {
    let p = Position::new(6, 14)
        .confederate(&hb("x", 6))
        .place("x", "0312", "n", "unlimbered")
        .union(&inf("t1", 4, 3))
        .union(&inf("t2", 4, 3))
        .place("t1", "0411", "sw", "line")
        .place("t2", "0302", "s", "line");
    let mut t = csa_fire(&p);
    let grid = &t.rs.game().map.grid;
    assert_eq!(grid.distance(n("0312"), n("0411")), 1);
    assert_eq!(grid.distance(n("0312"), n("0302")), 10);
    let (_, r) = resolve(
        &mut t,
        REBEL,
        &[fire("0411", &[("x", 4)]), fire("0302", &[("x", 2)])],
        &[3, 6, 1, 1],
    );
    assert_eq!((r[0].strength, r[0].column), (40, 8));
    assert_eq!(r[0].result, loss(1, false));
    assert_eq!((r[1].strength, r[1].column), (1, 1));
    assert_eq!(r[1].result, FireResult::PinOrRout);
    assert_eq!(strength(&t, "t1"), 3);
    assert!(marked(&t, "t2", Marker::Pin));
    assert!(t.dice_left().is_empty());
}

/// GBACW 9.46: "A battery of six guns could not fire at six individual
/// targets sixteen hexes distant, because the Final Fire Strength would
/// (theoretically) be halved for each of those targets. The battery would
/// have to split its fire among only three of the regiments ... a unit may
/// always fire its whole Strength — no matter how much it is reduced — at
/// a single target."
#[test]
fn example_9_46_split_minimum_one_per_target() {
    // X (6 HB) and X1 (1 HB) at 0519 facing north; six regiments on the
    // ring sixteen hexes off, in X's front.
    let probe = Position::new(9, 20).build();
    let grid = &probe.rs.game().map.grid;
    let ring: Vec<String> = (1..=9u8)
        .flat_map(|c| (1..=20u8).map(move |r| format!("{c:02}{r:02}")))
        .filter(|h| grid.distance(n("0519"), n(h)) == 16)
        .collect();
    let targets: Vec<String> = ring
        .iter()
        .filter(|h| (2..=8).contains(&h[..2].parse::<u8>().unwrap()))
        .take(6)
        .cloned()
        .collect();
    assert_eq!(targets.len(), 6, "{ring:?}");
    let mut p = Position::new(9, 20)
        .confederate(&hb("x", 6))
        .confederate(&hb("x1", 1))
        .place("x", "0519", "n", "unlimbered")
        .place("x1", "0519", "n", "unlimbered");
    for (k, h) in targets.iter().enumerate() {
        let u = format!("t{k}");
        p = p.union(&inf(&u, 4, 3)).place(&u, h, "s", "line");
    }
    // (a) one gun at each: the second share already comes to 1/2.
    let mut t = csa_fire(&p);
    t.ok(REBEL, fire(&targets[0], &[("x", 1)]));
    t.refused(REBEL, fire(&targets[1], &[("x", 1)]), "GBACW 9.46");
    // (b) two guns at each of three, and (c) X1's one gun at a fourth.
    let mut t = csa_fire(&p);
    let (_, r) = resolve(
        &mut t,
        REBEL,
        &[
            fire(&targets[0], &[("x", 2)]),
            fire(&targets[1], &[("x", 2)]),
            fire(&targets[2], &[("x", 2)]),
            fire(&targets[3], &[("x1", 1)]),
        ],
        &[2, 2, 2, 2],
    );
    assert_eq!(r.len(), 4);
    assert!(r[..3].iter().all(|r| r.strength == 1 && r.column == 1));
    assert_eq!(r[3].column, 1, "1/2 reads in C1");
}

/// T (USA, `sp` SP, morale 3) in woods on a hill at 0302 facing south; a
/// crest between it and 0301 (rear) or 0303 (front), X (4 HB) below it.
fn woods_crest(sp: u8, rear: bool) -> T {
    let (below, facing) = if rear { ("0301", "s") } else { ("0303", "n") };
    let p = Position::new(6, 6)
        .map(&format!(
            "hex 0302 woods level=1\nside 0302/{below} crest:0302"
        ))
        .union(&inf("t", sp, 3))
        .place("t", "0302", "s", "line")
        .confederate(&hb("x", 4))
        .place("x", below, facing, "unlimbered");
    csa_fire(&p)
}

/// GBACW 9.51: "Effects of terrain are cumulative, but the final net
/// adjustment on the CRT may never be more than two columns in any
/// direction. Thus, you may adjust three to the left and one to the right
/// for a cumulative change of two to the left"
#[test]
fn example_9_51_net_shift_three_left_one_right() {
    let mut t = woods_crest(2, true);
    let (_, r) = resolve(&mut t, REBEL, &[fire("0302", &[("x", 4)])], &[3, 1]);
    assert_eq!((r[0].terrain_shift, r[0].density_shift), (-2, -1));
    assert!(r[0].enfilade);
    assert_eq!(r[0].net_shift, -2);
    assert_eq!((r[0].column, r[0].result), (6, loss(1, false)));
    assert_eq!(strength(&t, "t"), 1);
}

/// GBACW 9.51: "but you could not adjust three to the left, as a final
/// result."
#[test]
fn case_9_51_three_left_capped_at_two() {
    let mut t = woods_crest(2, false);
    let (_, r) = resolve(&mut t, REBEL, &[fire("0302", &[("x", 4)])], &[3, 1]);
    assert_eq!((r[0].terrain_shift, r[0].density_shift), (-2, -1));
    assert!(!r[0].enfilade);
    assert_eq!(r[0].net_shift, -2);
    assert_eq!((r[0].column, r[0].result), (6, loss(1, false)));
    assert_eq!(strength(&t, "t"), 1);
}

/// GBACW 9.51: "The CRT column is never adjusted to the left of the last
/// column"
#[test]
fn case_9_51_clamp_at_leftmost_column() {
    let p = Position::new(6, 6)
        .map("hex 0302 woods")
        .union(&inf("t", 1, 2))
        .place("t", "0302", "s", "line")
        .confederate(&inf("a", 2, 4))
        .place("a", "0304", "n", "line");
    let mut t = csa_fire(&p);
    let (_, r) = resolve(&mut t, REBEL, &[fire("0302", &[("a", 2)])], &[5]);
    assert_eq!(r[0].strength, 2);
    assert_eq!((r[0].column, r[0].result), (1, FireResult::NoEffect));
    assert_eq!(strength(&t, "t"), 1);
    assert!(t.dice_left().is_empty());
}

/// GBACW 9.61, 7.23: "Units fired upon through their rear (enfilade)
/// hexsides have the total Fire Strength Column adjusted one to the
/// right" / "A unit which is enfiladed by at least one firing Enemy unit
/// has the total Fire Strength being directed against it adjusted one
/// column to the right"
#[test]
fn case_9_61_enfilade_one_right_once() {
    let p = target_field()
        .confederate(&hb("x", 4))
        .confederate(&hb("y", 2))
        .place("x", "0401", "sw", "unlimbered")
        .place("y", "0312", "n", "unlimbered");
    let mut t = csa_fire(&p);
    let (events, r) = resolve(
        &mut t,
        REBEL,
        &[fire("0302", &[("x", 4), ("y", 2)])],
        &[3, 1, 1],
    );
    assert_eq!(r[0].strength, 41);
    assert!(r[0].enfilade);
    assert_eq!((r[0].column, r[0].result), (9, loss(1, true)));
    assert_eq!(strength(&t, "t"), 3);
    assert_eq!(checks(&events, "t"), [(1, false), (1, false)]);
}

/// GBACW 7.0 (9.61): "Infantry in *Column* ... are always considered
/// *enfiladed* whenever fired upon regardless of the direction of the
/// fire."
#[test]
fn case_9_61_column_always_enfiladed_not_twice() {
    for (hex, facing) in [("0303", "n"), ("0301", "s")] {
        let p = Position::new(6, 6)
            .union(&inf("t", 4, 3))
            .place("t", "0302", "s", "column")
            .confederate(&hb("x", 4))
            .place("x", hex, facing, "unlimbered");
        let mut t = csa_fire(&p);
        let (_, r) = resolve(&mut t, REBEL, &[fire("0302", &[("x", 4)])], &[3, 1, 1]);
        assert!(r[0].enfilade);
        assert_eq!((r[0].net_shift, r[0].column), (1, 9), "from {hex}");
        assert_eq!(r[0].result, loss(1, true));
        assert_eq!(strength(&t, "t"), 3);
    }
}

/// GBACW 9.61: "Units may fire only through their frontal hexsides"
#[test]
fn case_9_61_cannot_fire_through_rear() {
    let p = Position::new(6, 6)
        .confederate(&inf("a", 4, 4))
        .place("a", "0302", "n", "line")
        .union(&inf("t", 4, 3))
        .place("t", "0303", "n", "line");
    // USA Player-Turn, Defensive Fire Phase: CSA fires.
    let t = p.build_at(1, UNION, Phase::DefensiveFire);
    let e = t.decide(REBEL, &fire("0303", &[("a", 4)])).unwrap_err();
    assert!(
        matches!(e.rule.as_str(), "GBACW 9.61" | "GBACW 7.22"),
        "{e}"
    );
}

/// GBACW 9.7, 9.72, 9.73: "If the LOS is blocked, fire is not possible." /
/// "Trees are considered to be 20 feet high"
#[test]
fn case_9_7_intervening_woods_blocks_refused() {
    let p = |woods: bool| {
        Position::new(6, 6)
            .map(if woods { "hex 0303 woods" } else { "" })
            .confederate(&inf("a", 4, 4))
            .place("a", "0304", "n", "line")
            .union(&inf("t", 4, 3))
            .place("t", "0302", "s", "line")
    };
    csa_fire(&p(true)).refused(REBEL, fire("0302", &[("a", 4)]), "GBACW 9.7");
    csa_fire(&p(false)).ok(REBEL, fire("0302", &[("a", 4)]));
}

/// GBACW 9.7: "A clear LOS always exists out of a blocking hex containing
/// a firing unit, and into a blocking hex containing a target unit"
#[test]
fn case_9_7_out_of_and_into_blocking_hex() {
    let p = Position::new(6, 6)
        .map("hex 0304 woods\nhex 0302 woods")
        .confederate(&inf("a", 4, 4))
        .place("a", "0304", "n", "line")
        .union(&inf("t", 4, 3))
        .place("t", "0302", "s", "line");
    let mut t = csa_fire(&p);
    let (_, r) = resolve(&mut t, REBEL, &[fire("0302", &[("a", 4)])], &[2]);
    assert_eq!(r[0].terrain_shift, -1);
}

/// GBACW 9.73 (read as in 001): "A clear Line of Sight exists only if: H/D
/// is equal to (hp-5)/dp or greater than" / "dp = Distance (in hexes)
/// from potential obstacle to lower position."
#[test]
fn case_9_73_equal_ratio_is_clear_and_dp_from_lower() {
    let p = |woods: &str| {
        Position::new(6, 8)
            .map(&format!("hex 0302 level=1\nhex {woods} woods"))
            .confederate(&hb("x", 4))
            .place("x", "0302", "s", "unlimbered")
            .union(&inf("t", 4, 3))
            .place("t", "0306", "n", "line")
    };
    // (a) woods 1 from X, 3 from T: 20/4 = (20-5)/3: clear.
    csa_fire(&p("0303")).ok(REBEL, fire("0306", &[("x", 4)]));
    // (b) woods 2 from each: (20-5)/2 = 7.5 > 5: blocked.
    csa_fire(&p("0304")).refused(REBEL, fire("0306", &[("x", 4)]), "GBACW 9.7");
}

/// GBACW 9.71, 9.72: "units, Friendly or otherwise, are considered
/// blocking terrain." / "infantry, artillery and dismounted cavalry five
/// feet high, and mounted cavalry and supply wagons ten feet high"
#[test]
fn case_9_71_units_block_by_height() {
    let p = |between: &str, formation: &str| {
        Position::new(6, 6)
            .confederate(&inf("a", 4, 4))
            .confederate(between)
            .place("a", "0304", "n", "line")
            .place("m", "0303", "n", formation)
            .union(&inf("t", 4, 3))
            .place("t", "0302", "s", "line")
    };
    // (a) a friendly regiment between: clear.
    csa_fire(&p(&inf("m", 3, 4), "line")).ok(REBEL, fire("0302", &[("a", 4)]));
    // (b) mounted cavalry between: blocked.
    csa_fire(&p("cavalry m strength=3 morale=4 weapon=C", "mounted")).refused(
        REBEL,
        fire("0302", &[("a", 4)]),
        "GBACW 9.7",
    );
}

/// GBACW 9.81: "When the Fire CRT yields a numerical result and the target
/// unit is infantry or cavalry, that unit has lost that number of Strength
/// Points. ... A morale check for the affected unit must be made"
#[test]
fn case_9_81_numeric_result_loses_sp_and_checks_morale() {
    let p = target_field()
        .confederate(&hb("x", 4))
        .place("x", "0303", "n", "unlimbered");
    let mut t = csa_fire(&p);
    let (events, r) = resolve(&mut t, REBEL, &[fire("0302", &[("x", 4)])], &[2, 4]);
    assert_eq!(r[0].result, loss(1, false));
    assert_eq!(strength(&t, "t"), 3);
    assert_eq!(checks(&events, "t"), [(4, true)]);
    assert!(marked(&t, "t", Marker::Rout));
    assert!(t.dice_left().is_empty());
}

fn two_guns_on_t(rear: bool, leaders: usize) -> T {
    let (hex, facing) = if rear { ("0401", "sw") } else { ("0303", "n") };
    let mut p = target_field()
        .confederate(&hb("x", 2))
        .place("x", hex, facing, "unlimbered");
    for k in 0..leaders {
        let l = format!("l{k}");
        p = p.union(&leader(&l)).leader(&l, "0302");
    }
    csa_fire(&p)
}

/// GBACW 9.83: "If it is higher than the Morale Rating, the unit is
/// *routed*; if it is the same as or lower than the rating, the unit is
/// *pinned*."
#[test]
fn case_9_83_pr_roll_equal_to_morale_pins() {
    let mut t = two_guns_on_t(false, 0);
    let (_, r) = resolve(&mut t, REBEL, &[fire("0302", &[("x", 2)])], &[3, 3]);
    assert_eq!((r[0].column, r[0].result), (5, FireResult::PinOrRout));
    assert!(marked(&t, "t", Marker::Pin));
    assert!(!marked(&t, "t", Marker::Rout));
    assert!(t.dice_left().is_empty());
}

/// GBACW 9.83: "When rolling for P/R results, if the unit has been
/// enfiladed add *one* to the die-roll, and subtract *one* if the unit is
/// stacked with a leader (regardless of the number of leaders)"
#[test]
fn case_9_83_pr_modifiers_enfilade_and_one_leader() {
    // (a) no leader: 3 + 1 = 4 > 3.
    let mut t = two_guns_on_t(true, 0);
    let (_, r) = resolve(&mut t, REBEL, &[fire("0302", &[("x", 2)])], &[2, 3]);
    assert!(r[0].enfilade);
    assert_eq!((r[0].column, r[0].result), (6, FireResult::PinOrRout));
    assert!(marked(&t, "t", Marker::Rout));
    // (b) two leaders: 4 + 1 - 1 = 4 > 3.
    let mut t = two_guns_on_t(true, 2);
    resolve(&mut t, REBEL, &[fire("0302", &[("x", 2)])], &[2, 4]);
    assert!(marked(&t, "t", Marker::Rout), "one leader's -1, not two");
}

/// GBACW 9.84: "If any unit in a stack becomes pinned, all units in that
/// hex are pinned. ... Pinned units may change facing but they may not
/// change formation."
#[test]
fn case_9_84_pin_covers_whole_stack() {
    let p = Position::new(6, 6)
        .union(&inf("t1-top", 3, 3))
        .union(&inf("t2-under", 2, 4))
        .place("t1-top", "0302", "s", "line")
        .place("t2-under", "0302", "s", "line")
        .confederate(&hb("x", 2))
        .place("x", "0303", "n", "unlimbered");
    let mut t = csa_fire(&p);
    let (events, r) = resolve(&mut t, REBEL, &[fire("0302", &[("x", 2)])], &[1, 4]);
    assert_eq!((r[0].column, r[0].result), (5, FireResult::MaybePin));
    assert_eq!(checks(&events, "t1-top"), [(4, true)]);
    assert!(checks(&events, "t2-under").is_empty());
    assert!(marked(&t, "t1-top", Marker::Pin));
    assert!(marked(&t, "t2-under", Marker::Pin));
}

/// GBACW 9.85, 4.0 H: "PIN markers are removed in the Friendly Rally Phase
/// before units are rallied." / "Rally Phase: Pin Markers are removed from
/// the Phasing Player's units." (The Union moves first here, so the case's
/// sides are swapped: the Union pins a Confederate regiment.)
#[test]
fn case_9_85_pin_lasts_into_own_player_turn() {
    let p = Position::new(6, 6)
        .confederate(&inf("t", 4, 3))
        .place("t", "0302", "s", "line")
        .union(&hb("x", 2))
        .place("x", "0303", "n", "unlimbered");
    let mut t = p.build_at(1, UNION, Phase::OffensiveFire);
    resolve(&mut t, UNION, &[fire("0302", &[("x", 2)])], &[1, 4]);
    assert!(marked(&t, "t", Marker::Pin));
    // (1) through the Union Rally Phase: still pinned.
    t.advance_to(REBEL, Phase::Movement);
    assert!(marked(&t, "t", Marker::Pin));
    // (2) it may not move, nor fire.
    assert!(t.decide(REBEL, &mv(&["t"], &["0301"])).is_err());
    t.advance_to(REBEL, Phase::OffensiveFire);
    assert!(t.decide(REBEL, &fire("0303", &[("t", 4)])).is_err());
    // (3) the Confederate Rally Phase takes the pin off.
    t.advance_to(REBEL, Phase::Rally);
    assert!(!marked(&t, "t", Marker::Pin));
}

/// GBACW 9.87: "A die is rolled; if the result is *greater* than the
/// unit's morale, it is pinned or routed, respectively. If the result is
/// the same or lower than the unit's morale, there is no effect."
#[test]
fn case_9_87_p_or_r_equal_is_no_effect() {
    for (leaders, die, routed) in [(0, 3, false), (0, 4, true), (1, 4, false)] {
        let mut t = two_guns_on_t(false, leaders);
        let (_, r) = resolve(&mut t, REBEL, &[fire("0302", &[("x", 2)])], &[2, die]);
        assert_eq!((r[0].column, r[0].result), (5, FireResult::MaybeRout));
        assert_eq!(marked(&t, "t", Marker::Rout), routed, "{leaders} {die}");
        assert!(!marked(&t, "t", Marker::Pin), "an R never pins");
        assert!(t.dice_left().is_empty());
    }
}

/// GBACW 9.88: "After the casualty is recorded, a morale check is executed
/// for that unit. If the unit routs, no further action is taken. If the
/// unit does not rout, a second die is rolled; a result greater than the
/// unit's morale level results in the unit being pinned."
#[test]
fn case_9_88_asterisk_sequence() {
    for (dice, pinned, routed) in [
        (&[4, 3, 3][..], false, false),
        (&[4, 3, 4][..], true, false),
        (&[4, 4][..], false, true),
    ] {
        let p = target_field()
            .confederate(&hb("x", 4))
            .place("x", "0303", "n", "unlimbered");
        let mut t = csa_fire(&p);
        let (_, r) = resolve(&mut t, REBEL, &[fire("0302", &[("x", 4)])], dice);
        assert_eq!(r[0].result, loss(1, true));
        assert_eq!(strength(&t, "t"), 3);
        assert_eq!(marked(&t, "t", Marker::Pin), pinned, "{dice:?}");
        assert_eq!(marked(&t, "t", Marker::Rout), routed, "{dice:?}");
        assert!(t.dice_left().is_empty(), "{dice:?}");
    }
}

// ---------------------------------------------------------------------
// 10.0 Zones of Control
// ---------------------------------------------------------------------

/// GBACW 10.0: "All infantry units in Line formation, dismounted cavalry,
/// and unlimbered artillery units have a Zone of Control extending into
/// three hexes adjacent to their frontal hexsides." USA Movement Phase:
/// CSA A (4 R, Line) at 0303 facing north; USA B at 0302 (across A's top
/// hexside) and C at 0304 (across A's rear).
#[test]
fn case_10_0_zoc_only_three_frontal_hexes() {
    let p = Position::new(6, 8)
        .confederate(&inf("a", 4, 4))
        .place("a", "0303", "n", "line")
        .union(&inf("b", 4, 3))
        .union(&inf("c", 4, 3))
        .place("b", "0302", "s", "line")
        .place("c", "0304", "n", "line");
    let mut t = p.build_at(1, UNION, Phase::Movement);
    let events = t.mv(UNION, &["c"], &["0305"]);
    assert!(offered(&events).is_none(), "C was never in A's ZOC");
    assert_eq!(t.hex("c"), Some(n("0305")));
    let d = offered(&t.mv(UNION, &["b"], &["0301"])).expect("A may fire at B");
    assert_eq!(d.firers, ids(&["a"]));
}

/// X (4 HB) at 0303 facing north; B (USA, 4 SP, morale 3) at 0302 facing
/// X. USA Movement Phase.
fn battery_and_withdrawer(guns: u8) -> T {
    let p = Position::new(6, 8)
        .confederate(&hb("x", guns))
        .place("x", "0303", "n", "unlimbered")
        .union(&inf("b", 4, 3))
        .place("b", "0302", "s", "line");
    p.build_at(1, UNION, Phase::Movement)
}

/// GBACW 10.1, 10.11, 10.16: "Withdrawal fire takes place before the
/// withdrawing unit leaves the hex; i.e., the range is one hex." /
/// "However, if in withdrawing the unit presents its enfillade hexsides to
/// the firing unit, the unit firing withdrawal fire then gets the benefit
/// of enfilade fire (see 7.11)."
#[test]
fn case_10_1_withdrawal_fire_enfiladed() {
    let mut t = battery_and_withdrawer(4);
    let d = offered(&t.mv(UNION, &["b"], &["0301"])).unwrap();
    assert_eq!(d.firers, ids(&["x"]));
    t.script(&[4, 1, 1]);
    let events = t.act(
        REBEL,
        GbacwAction::WithdrawalFire {
            firers: ids(&["x"]),
        },
    );
    let r = fire_reports(&events);
    assert_eq!(r[0].strength, 40);
    assert!(r[0].enfilade);
    assert_eq!((r[0].column, r[0].result), (9, loss(2, true)));
    assert_eq!(strength(&t, "b"), 2);
    assert_eq!(checks(&events, "b"), [(1, false), (1, false)]);
    assert_eq!(t.hex("b"), Some(n("0301")));
    assert_eq!(rounds_fired(&events, "x"), 1);
    assert!(t.dice_left().is_empty());
}

/// GBACW 10.11: "Withdrawal fire takes place before the withdrawing unit
/// leaves the hex; i.e., the range is one hex."
#[test]
fn case_10_11_withdrawal_range_is_one_regardless_of_destination() {
    let mut t = battery_and_withdrawer(4);
    offered(&t.mv(UNION, &["b"], &["0301"])).unwrap();
    assert_eq!(t.rs.game().map.grid.distance(n("0303"), n("0301")), 2);
    t.script(&[4, 1, 1]);
    let events = t.act(
        REBEL,
        GbacwAction::WithdrawalFire {
            firers: ids(&["x"]),
        },
    );
    assert_eq!(fire_reports(&events)[0].strength, 40);
}

/// GBACW 10.12, 10.17: "Withdrawal fire is in addition to any normal
/// offensive or defensive fire." / "Withdrawal fire is, in effect, a free
/// shot. **Note:** Remember to check for ammunition depletion."
#[test]
fn case_10_12_withdrawal_fire_is_extra() {
    let p = Position::new(6, 8)
        .confederate(&inf("a", 4, 4))
        .confederate(&inf("d", 4, 4))
        .place("a", "0303", "n", "line")
        .place("d", "0501", "sw", "line")
        .union(&inf("b", 4, 3))
        .union(&inf("c", 4, 3))
        .place("b", "0302", "s", "line")
        .place("c", "0202", "se", "line");
    let mut t = p.build_at(1, UNION, Phase::Movement);
    assert_eq!(t.rs.game().map.grid.distance(n("0501"), n("0301")), 2);
    let d = offered(&t.mv(UNION, &["b"], &["0301"])).unwrap();
    assert_eq!(d.firers, ids(&["a"]));
    // 8 at C4, enfiladed (B turned away) to C5: roll 1 is "P"; the P
    // check 2 has no effect; the 11.21 roll 2 depletes A.
    t.script(&[1, 2, 2]);
    let events = t.act(
        REBEL,
        GbacwAction::WithdrawalFire {
            firers: ids(&["a"]),
        },
    );
    let r = fire_reports(&events);
    assert_eq!((r[0].strength, r[0].die), (8, 1));
    assert!(marked(&t, "a", Marker::AmmoDepleted), "10.17 Note: 11.21");
    assert!(t.dice_left().is_empty());
    t.advance_to(UNION, Phase::DefensiveFire);
    // (2) A is depleted (11.22).
    assert!(t.decide(REBEL, &fire("0202", &[("a", 4)])).is_err());
    // (3) B's small-arms limit for this Fire Phase is untouched.
    t.ok(REBEL, fire("0301", &[("d", 4)]));
}

/// GBACW 10.13: "If there are two (or more) units in the same hex in the
/// ZOC of an Enemy unit and they both wish to withdraw, the Enemy unit may
/// fire once at the stack."
#[test]
fn case_10_13_stack_withdrawing_together_one_shot() {
    let p = Position::new(6, 8)
        .confederate(&hb("x", 4))
        .place("x", "0303", "n", "unlimbered")
        .union(&inf("b1-top", 3, 3))
        .union(&inf("b2-under", 2, 3))
        .place("b1-top", "0302", "s", "line")
        .place("b2-under", "0302", "s", "line");
    let mut t = p.build_at(1, UNION, Phase::Movement);
    offered(&t.mv(UNION, &["b1-top", "b2-under"], &["0301"])).unwrap();
    t.script(&[2, 1]);
    let events = t.act(
        REBEL,
        GbacwAction::WithdrawalFire {
            firers: ids(&["x"]),
        },
    );
    let r = fire_reports(&events);
    assert_eq!(r.len(), 1, "once");
    assert_eq!((r[0].column, r[0].result), (9, loss(1, false)));
    assert_eq!(strength(&t, "b1-top"), 2);
    assert_eq!(strength(&t, "b2-under"), 2);
    assert!(checks(&events, "b2-under").is_empty());
    assert!(offered(&events).is_none(), "no second shot");
    assert_eq!(t.hex("b2-under"), Some(n("0301")));
    assert!(t.dice_left().is_empty());
}

/// GBACW 10.14: "If there are two (or more) units in a stack and some (but
/// not all) of the units wish to withdraw, they may do so *without* being
/// fired upon; however, in such a case, the unit(s) remaining in the hex
/// suffers withdrawal fire."
#[test]
fn case_10_14_partial_withdrawal_remaining_unit_takes_fire() {
    let p = Position::new(6, 8)
        .confederate(&inf("a", 4, 4))
        .place("a", "0303", "n", "line")
        .union(&inf("b1-top", 3, 3))
        .union(&inf("b2-under", 2, 3))
        .place("b1-top", "0302", "s", "line")
        .place("b2-under", "0302", "s", "line");
    let mut t = p.build_at(1, UNION, Phase::Movement);
    let d = offered(&t.mv(UNION, &["b1-top"], &["0301"])).unwrap();
    assert_eq!(d.targets, ids(&["b2-under"]));
    t.script(&[6, 1, 1]);
    let events = t.act(
        REBEL,
        GbacwAction::WithdrawalFire {
            firers: ids(&["a"]),
        },
    );
    let r = fire_reports(&events);
    assert!(!r[0].enfilade, "B2 keeps facing A");
    assert_eq!(r[0].strength, 8);
    assert_eq!(strength(&t, "b2-under"), 1);
    assert_eq!(strength(&t, "b1-top"), 3);
    assert_eq!(t.hex("b1-top"), Some(n("0301")));
    assert_eq!(checks(&events, "b2-under")[0], (1, false));
}

/// GBACW 10.15: "If a unit suffers a pinned result in withdrawal, it may
/// move one hex and then it becomes pinned."
#[test]
fn case_10_15_pinned_withdrawer_moves_one_hex_then_stops() {
    let p = Position::new(6, 8)
        .confederate(&hb("x", 2))
        .place("x", "0301", "s", "unlimbered")
        .union(&inf("b", 4, 3))
        .place("b", "0302", "n", "line");
    let mut t = p.build_at(1, UNION, Phase::Movement);
    offered(&t.mv(UNION, &["b"], &["0303", "0304", "0305", "0306"])).unwrap();
    t.script(&[2, 2]);
    let events = t.act(
        REBEL,
        GbacwAction::WithdrawalFire {
            firers: ids(&["x"]),
        },
    );
    let r = fire_reports(&events);
    assert!(r[0].enfilade);
    assert_eq!((r[0].column, r[0].result), (6, FireResult::PinOrRout));
    assert_eq!(t.hex("b"), Some(n("0303")), "one hex, then pinned");
    assert!(marked(&t, "b", Marker::Pin));
    assert!(!marked(&t, "b", Marker::Rout));
    assert!(t.dice_left().is_empty());
}

/// CSA Offensive Fire: A (4 R) at 0306 routs B (3 SP) at 0305 with an "R";
/// C (4 HB) at 0403 facing north fires its whole strength at E in 0402.
/// B's rout path 0304, 0303, 0302 enters C's ZOC at 0303.
fn routed_into_battery() -> (T, Vec<GbacwEvent>) {
    // Lakes leave B one way north (14.4: the engine offers only the most
    // preferred paths, 14.3, and a path clear of enemy ZOC would be
    // preferred to this one).
    let p = Position::new(6, 8)
        .map("hex 0202 lake\nhex 0203 lake\nhex 0204 lake\nhex 0205 lake\nhex 0404 lake\nhex 0405 lake")
        .confederate(&inf("a", 4, 4))
        .confederate(&hb("c", 4))
        .place("a", "0306", "n", "line")
        .place("c", "0403", "n", "unlimbered")
        .union(&inf("b", 3, 3))
        .union(&inf("e", 4, 3))
        .place("b", "0305", "s", "line")
        .place("e", "0402", "s", "line");
    let mut t = csa_fire(&p);
    // A: 8 at C4, roll 3 "R", check 4: routed. C: 40 at C8 on E, roll 1
    // "1", E's check 1.
    let (events, r) = resolve(
        &mut t,
        REBEL,
        &[fire("0305", &[("a", 4)]), fire("0402", &[("c", 4)])],
        &[3, 1, 4, 1],
    );
    assert_eq!(r[0].result, FireResult::MaybeRout);
    assert!(marked(&t, "b", Marker::Rout));
    (t, events)
}

/// B's rout retreat along 0304, 0303, 0302: the owner's choice where
/// there is one (14.4); with one path only, the engine has already taken
/// it.
fn retreat_b(t: &mut T) -> Vec<GbacwEvent> {
    if t.s.retreats.is_empty() {
        return Vec::new();
    }
    t.act(
        UNION,
        GbacwAction::Retreat {
            unit: id("b"),
            path: vec![n("0304"), n("0303"), n("0302")],
        },
    )
}

/// GBACW 10.2: "A unit that is forced to retreat into the ZOC of an Enemy
/// unit, other than the unit which caused the retreat, may undergo
/// *retreat fire*. ... Retreat fire, like withdrawal fire, is considered a
/// free shot."
#[test]
fn case_10_2_retreat_fire_free_shot() {
    let (mut t, _) = routed_into_battery();
    retreat_b(&mut t);
    let o =
        t.s.retreat_fire
            .first()
            .cloned()
            .expect("retreat fire offered");
    assert_eq!(o.hex, n("0303"));
    assert_eq!(o.firers, ids(&["c"]));
    t.script(&[1]);
    let events = t.act(
        REBEL,
        GbacwAction::RetreatFire {
            firers: ids(&["c"]),
        },
    );
    let r = fire_reports(&events);
    assert_eq!(r[0].strength, 40);
    assert!(r[0].enfilade, "routed: always enfiladed (6.35)");
    assert_eq!((r[0].column, r[0].result), (9, loss(1, false)));
    assert_eq!(strength(&t, "b"), 2);
    assert_eq!(t.hex("b"), Some(n("0302")), "it finishes its retreat");
    assert_eq!(rounds_fired(&events, "c"), 1);
    assert!(t.dice_left().is_empty());
}

/// GBACW 10.2 (not 13.33): "Retreating routed units that suffer
/// casualties from retreat fire do not roll for additional rout."
#[test]
fn case_10_2_routed_retreater_no_additional_rout() {
    let (mut t, _) = routed_into_battery();
    retreat_b(&mut t);
    t.script(&[1]);
    let events = t.act(
        REBEL,
        GbacwAction::RetreatFire {
            firers: ids(&["c"]),
        },
    );
    assert!(checks(&events, "b").is_empty(), "no morale roll");
    assert!(t.s.retreats.is_empty(), "no 3 more hexes");
    assert_eq!(t.hex("b"), Some(n("0302")));
}

/// GBACW 10.17: "(A unit that is in the ZOC of an Enemy unit during a Fire
/// Phase and is forced to retreat out of the ZOC during that Fire Phase
/// does not suffer withdrawal fire)."
#[test]
fn case_10_17_fire_phase_retreat_no_withdrawal_fire() {
    let p = Position::new(6, 8)
        .confederate(&inf("a", 4, 4))
        .confederate(&hb("x", 4))
        .place("a", "0306", "n", "line")
        .place("x", "0405", "nw", "unlimbered")
        .union(&inf("b", 3, 3))
        .place("b", "0305", "s", "line");
    let mut t = csa_fire(&p);
    resolve(&mut t, REBEL, &[fire("0305", &[("a", 4)])], &[3, 4]);
    assert!(marked(&t, "b", Marker::Rout));
    let events = retreat_b(&mut t);
    assert!(offered(&events).is_none());
    assert!(t.s.decision.is_none());
    assert!(t.s.retreat_fire.is_empty());
    assert_eq!(t.hex("b"), Some(n("0302")));
}

/// GBACW 10.18: "Leaders that withdraw from an Enemy ZOC do not trigger
/// withdrawal fire."
#[test]
fn case_10_18_leader_withdrawing_draws_no_fire() {
    for with_b in [false, true] {
        let mut p = Position::new(6, 8)
            .confederate(&inf("a", 4, 4))
            .place("a", "0303", "n", "line")
            .union(&leader("l"))
            .leader("l", "0302");
        if with_b {
            p = p.union(&inf("b", 4, 3)).place("b", "0302", "s", "line");
        }
        let mut t = p.build_at(1, UNION, Phase::Movement);
        let events = t.mv(UNION, &["l"], &["0301"]);
        assert!(offered(&events).is_none(), "with B: {with_b}");
        assert_eq!(t.hex("l"), Some(n("0301")));
    }
}

/// GBACW 10.0, 13.32, 11.0, 12.94, 9.84, 17.11: "Supply wagons and leaders
/// have no ZOC's." / "Routed units ... have no Zone of Control." / "Units
/// that are out of ammunition (ammo depleted) have no ZOC's" / "Engaged
/// units have no ZOC's." / "Pinned units may use withdrawal fire (10.1)" /
/// "such units may still fire defensive, withdrawal, and retreat fire and
/// still exert a ZOC."
#[test]
fn case_10_0_units_without_zoc_give_no_withdrawal_fire() {
    // (name, CSA counter line, formation, marker, out of command, fire?)
    type Variant = (
        &'static str,
        String,
        &'static str,
        Option<Marker>,
        bool,
        bool,
    );
    let cases: [Variant; 8] = [
        ("a column", inf("a", 4, 4), "column", None, false, false),
        ("b limbered", hb("a", 4), "limbered", None, false, false),
        (
            "c wagon",
            "wagon a morale=4 weapon=R strength=1 small-arms=10 artillery=6".into(),
            "-",
            None,
            false,
            false,
        ),
        (
            "e routed",
            inf("a", 4, 4),
            "line",
            Some(Marker::Rout),
            false,
            false,
        ),
        (
            "f depleted",
            inf("a", 4, 4),
            "line",
            Some(Marker::AmmoDepleted),
            false,
            false,
        ),
        (
            "g engaged",
            inf("a", 4, 4),
            "line",
            Some(Marker::Engaged),
            false,
            false,
        ),
        (
            "h pinned",
            inf("a", 4, 4),
            "line",
            Some(Marker::Pin),
            false,
            true,
        ),
        ("i out of command", inf("a", 4, 4), "line", None, true, true),
    ];
    for (name, line, formation, marker, ooc, fires) in cases {
        let mut p = Position::new(6, 8)
            .confederate(&line)
            .place("a", "0303", "n", formation)
            .union(&inf("b", 4, 3))
            .place("b", "0302", "s", "line");
        if ooc {
            p = p.out_of_command("a");
        }
        let mut t = p.build_at(1, UNION, Phase::Movement);
        if let Some(m) = marker {
            t.s.units
                .get_mut(&id("a"))
                .unwrap()
                .status
                .markers
                .insert(m);
        }
        let events = t.mv(UNION, &["b"], &["0301"]);
        let firers = offered(&events).map(|d| d.firers).unwrap_or_default();
        assert_eq!(firers.contains(&id("a")), fires, "{name}");
    }
    // (d) a leader alone.
    let p = Position::new(6, 8)
        .confederate(&leader("l"))
        .leader("l", "0303")
        .union(&inf("b", 4, 3))
        .place("b", "0302", "s", "line");
    let mut t = p.build_at(1, UNION, Phase::Movement);
    assert!(
        offered(&t.mv(UNION, &["b"], &["0301"])).is_none(),
        "d leader"
    );
}

/// GBACW 10.0, 9.62: "Mounted cavalry exerts a ZOC into all six adjacent
/// hexes. ... **Exception:** Mounted cavalry ZOC's affect the withdrawal
/// and retreat only of mounted cavalry units (also, see 9.62 and 16.31)."
#[test]
fn case_10_0_mounted_cavalry_zoc_affects_only_mounted() {
    let m = "cavalry m strength=3 morale=4 weapon=C";
    let run = |line: String, hex: &str, formation: &str| {
        let p = Position::new(6, 8)
            .confederate(m)
            .place("m", "0303", "n", "mounted")
            .union(&line)
            .place("u", hex, "s", formation);
        let mut t = p.build_at(1, UNION, Phase::Movement);
        let away = if hex == "0302" { "0301" } else { "0405" };
        let events = t.mv(UNION, &["u"], &[away]);
        offered(&events)
            .map(|d| d.firers)
            .unwrap_or_default()
            .contains(&id("m"))
    };
    let horse = || "cavalry u strength=3 morale=3 weapon=C".to_string();
    assert!(!run(inf("u", 4, 3), "0302", "line"), "(a) infantry");
    assert!(run(horse(), "0302", "mounted"), "(b) mounted, in front");
    assert!(!run(horse(), "0404", "mounted"), "(c) mounted, behind");
}

/// GBACW 9.62: "Infantry units in Column and limbered artillery may never
/// fire in any Phase. Mounted cavalry may only fire if armed with pistols,
/// carbines or Colt repeaters and then only through their one frontal
/// hexside (see 7.0)."
#[test]
fn case_9_62_column_limbered_mounted_fire_limits() {
    // (name, CSA line, formation, facing, T's hex, allowed)
    let cases = [
        ("a column", inf("a", 4, 4), "column", "n", "0302", false),
        ("b limbered", hb("a", 4), "limbered", "n", "0302", false),
        (
            "c carbine, front",
            "cavalry a strength=3 morale=4 weapon=C".to_string(),
            "mounted",
            "n",
            "0302",
            true,
        ),
        (
            "d carbine, front-left",
            "cavalry a strength=3 morale=4 weapon=C".to_string(),
            "mounted",
            "n",
            "0202",
            false,
        ),
        (
            "e rifle, mounted",
            "cavalry a strength=3 morale=4 weapon=R".to_string(),
            "mounted",
            "n",
            "0302",
            false,
        ),
    ];
    for (name, line, formation, facing, hex, allowed) in cases {
        let p = Position::new(6, 8)
            .confederate(&line)
            .place("a", "0303", facing, formation)
            .union(&inf("t", 4, 3))
            .place("t", hex, "s", "line");
        let t = p.build_at(1, UNION, Phase::DefensiveFire);
        let points = if formation == "limbered" { 4 } else { 3 };
        let ok = t.decide(REBEL, &fire(hex, &[("a", points)])).is_ok();
        assert_eq!(ok, allowed, "{name}");
    }
}

/// GBACW 12.88 (10.15 "Important Exception: See 12.88"): "A unit which a
/// Player attempts to retreat before melee which is "pinned" by withdrawal
/// fire may not be retreated. Thus, it is forced to stand and accept a
/// melee attack."
#[test]
fn case_10_15_rbm_unit_pinned_stays_12_88() {
    let p = Position::new(6, 8)
        .confederate(&hb("x", 2))
        .confederate(&inf("d", 4, 4))
        .place("x", "0303", "n", "unlimbered")
        .place("d", "0402", "nw", "line")
        .union(&inf("b", 4, 3))
        .place("b", "0302", "s", "line");
    let mut t = p.build_at(1, REBEL, Phase::RetreatBeforeMelee);
    t.ok(
        REBEL,
        GbacwAction::DeclareMelee {
            target: n("0302"),
            attackers: ids(&["d"]),
        },
    );
    t.act(
        UNION,
        GbacwAction::RetreatBeforeMelee {
            units: ids(&["b"]),
            path: vec![n("0301")],
        },
    );
    assert!(t.s.decision.is_some(), "withdrawal fire offered");
    // 20 at C5, enfiladed (B faces 0301, away from X) C6: roll 2 "P/R";
    // 2 + 1 = 3, not above 3: pinned.
    t.script(&[2, 2]);
    let events = t.act(
        REBEL,
        GbacwAction::WithdrawalFire {
            firers: ids(&["x"]),
        },
    );
    let r = fire_reports(&events);
    assert_eq!((r[0].column, r[0].result), (6, FireResult::PinOrRout));
    assert!(marked(&t, "b", Marker::Pin));
    assert_eq!(t.hex("b"), Some(n("0302")), "not even one hex");
    assert_eq!(t.s.melees.len(), 1, "the melee stands");
}

/// GBACW 6.24 (-> 10.0): "A unit which changes formation in the ZOC of an
/// Enemy unit triggers withdrawal fire from the Enemy unit (see 10.0)."
#[test]
fn case_6_24_formation_change_in_zoc_triggers_withdrawal_fire() {
    let mut t = battery_and_withdrawer(4);
    let events = t.ok(
        UNION,
        GbacwAction::ChangeFormation {
            unit: id("b"),
            to: Formation::Column,
        },
    );
    let d = offered(&events).expect("6.24: withdrawal fire offered");
    assert_eq!(d.firers, ids(&["x"]));
    // C8 (in Line) or C9 (in Column): roll 2 is "1" in both.
    t.script(&[2, 1]);
    let events = t.act(
        REBEL,
        GbacwAction::WithdrawalFire {
            firers: ids(&["x"]),
        },
    );
    let r = fire_reports(&events);
    assert_eq!((r[0].strength, r[0].result), (40, loss(1, false)));
    assert_eq!(strength(&t, "b"), 3);
    assert_eq!(t.s.units[&id("b")].status.formation, Formation::Column);
    assert!(t.dice_left().is_empty());
}

/// GBACW 10.16: "A unit may withdraw from an Enemy ZOC through any hexside
/// it wishes, as long as it does not enter an Enemy-occupied hex."
#[test]
fn case_10_16_sideways_withdrawal_no_enfilade_not_into_enemy() {
    // X at 0303 facing north; B at 0302; S = 0402 is adjacent to both;
    // E = 0201 holds a CSA regiment.
    let p = Position::new(6, 8)
        .confederate(&hb("x", 4))
        .confederate(&inf("e", 4, 4))
        .place("x", "0303", "n", "unlimbered")
        .place("e", "0201", "n", "column")
        .union(&inf("b", 4, 3))
        .place("b", "0302", "s", "line");
    let mut t = p.build_at(1, UNION, Phase::Movement);
    assert!(t.decide(UNION, &mv(&["b"], &["0201"])).is_err(), "(b)");
    offered(&t.mv(UNION, &["b"], &["0402"])).expect("(a) offered");
    t.script(&[4, 1, 1]);
    let events = t.act(
        REBEL,
        GbacwAction::WithdrawalFire {
            firers: ids(&["x"]),
        },
    );
    let r = fire_reports(&events);
    assert!(!r[0].enfilade, "X is 60 degrees off B's new facing");
    assert_eq!((r[0].column, r[0].result), (8, loss(1, true)));
    assert_eq!(strength(&t, "b"), 3);
    assert_eq!(t.hex("b"), Some(n("0402")));
}

/// GBACW 9.5, 9.52: "A unit adjacent to a crest hexside which is fired on
/// through that crest hexside, derives a defensive benefit from the crest
/// if the firing unit occupies a lower elevation. ... This benefit is
/// derived if any of the firing units fire through the crest hexside."
#[test]
fn case_9_5_crest_benefit_if_any_firer_through_crest() {
    // Y is ten hexes out along T's south-east row, on T's level.
    let p = Position::new(14, 14)
        .map("hex 0302 level=1\nhex 1307 level=1\nside 0302/0303 crest:0302")
        .union(&inf("t", 4, 3))
        .place("t", "0302", "s", "line")
        .confederate(&hb("x", 4))
        .confederate(&hb("y", 2))
        .place("x", "0303", "n", "unlimbered")
        .place("y", "1307", "nw", "unlimbered");
    let mut t = csa_fire(&p);
    assert_eq!(t.rs.game().map.grid.distance(n("1307"), n("0302")), 10);
    let (_, r) = resolve(
        &mut t,
        REBEL,
        &[fire("0302", &[("x", 4), ("y", 2)])],
        &[1, 4],
    );
    assert_eq!(r[0].strength, 41);
    assert_eq!(r[0].terrain_shift, -1);
    assert_eq!((r[0].column, r[0].result), (7, FireResult::PinOrRout));
    assert!(marked(&t, "t", Marker::Rout));
}

/// GBACW 9.52: "derives a defensive benefit from the crest if the firing
/// unit occupies a lower elevation."
#[test]
fn case_9_52_no_crest_benefit_from_same_or_higher() {
    for map in [
        // (a) X above the crest fires down at T below it.
        "hex 0303 level=1\nside 0302/0303 crest:0303",
        // (b) T and X on the same hill, no crest between.
        "hex 0302 level=1\nhex 0303 level=1",
    ] {
        let p =
            target_field()
                .map(map)
                .confederate(&hb("x", 4))
                .place("x", "0303", "n", "unlimbered");
        let mut t = csa_fire(&p);
        let (_, r) = resolve(&mut t, REBEL, &[fire("0302", &[("x", 4)])], &[1, 1]);
        assert_eq!(r[0].terrain_shift, 0, "{map}");
        assert_eq!((r[0].column, r[0].result), (8, loss(1, false)));
        assert_eq!(strength(&t, "t"), 3);
    }
}

/// GBACW 9.51: "a unit(s) firing with more than 51 Strength Points fires in
/// the "51+" column."
#[test]
fn case_9_51_clamp_at_rightmost_column() {
    let p = Position::new(6, 6)
        .union(&inf("t1-top", 4, 3))
        .union(&inf("t2", 3, 3))
        .union(&inf("t3", 3, 3))
        .place("t1-top", "0302", "s", "line")
        .place("t2", "0302", "s", "line")
        .place("t3", "0302", "s", "line")
        .confederate(&hb("x", 4))
        .confederate(&hb("y", 3))
        .place("x", "0303", "n", "unlimbered")
        .place("y", "0402", "nw", "unlimbered");
    let mut t = csa_fire(&p);
    let (_, r) = resolve(
        &mut t,
        REBEL,
        &[fire("0302", &[("x", 4), ("y", 3)])],
        &[1, 1, 1],
    );
    assert_eq!((r[0].strength, r[0].density_shift), (70, 2));
    assert_eq!((r[0].column, r[0].result), (11, loss(1, true)));
    assert_eq!(strength(&t, "t1-top"), 3);
    assert_eq!((strength(&t, "t2"), strength(&t, "t3")), (3, 3));
    assert!(t.dice_left().is_empty());
}

/// GBACW 9.53, 9.54: "Units in woods hexes that are fired upon derive a
/// defensive benefit. The Total Fire Strength Column is adjusted one to
/// the left." / "Roads and pikes have no effect on combat in any way."
#[test]
fn case_9_53_woods_left_road_ignored() {
    for (woods, dice, pinned, lost) in [(true, [1, 3], true, 0), (false, [1, 1], false, 1)] {
        let map = if woods {
            "hex 0302 woods\nside 0302/0301 road\nside 0302/0303 road"
        } else {
            "side 0302/0301 road\nside 0302/0303 road"
        };
        let p =
            target_field()
                .map(map)
                .confederate(&hb("x", 4))
                .place("x", "0303", "n", "unlimbered");
        let mut t = csa_fire(&p);
        let (_, r) = resolve(&mut t, REBEL, &[fire("0302", &[("x", 4)])], &dice);
        assert_eq!(r[0].terrain_shift, if woods { -1 } else { 0 });
        assert_eq!(r[0].column, if woods { 7 } else { 8 });
        assert_eq!(marked(&t, "t", Marker::Pin), pinned, "woods {woods}");
        assert_eq!(strength(&t, "t"), 4 - lost);
    }
}

/// GBACW 9.7: "Thus, units may always fire into an adjacent hex."
#[test]
fn case_9_7_adjacent_always_clear() {
    let p = Position::new(6, 6)
        .map("hex 0303 woods\nhex 0302 woods level=1")
        .confederate(&inf("a", 4, 4))
        .place("a", "0303", "n", "line")
        .union(&inf("t", 4, 3))
        .place("t", "0302", "s", "line");
    let mut t = csa_fire(&p);
    let (_, r) = resolve(&mut t, REBEL, &[fire("0302", &[("a", 4)])], &[2]);
    assert_eq!(r[0].terrain_shift, -1, "woods, no crest");
}

/// GBACW 10.5, Cedar Mountain 21.34: "ZOC's do not extend through
/// impassable hexsides." / "All-lake hexsides (such as 3119/3218) are
/// impassable for purposes of movement. Only combat may be performed
/// across all-lake hexsides." (The all-lake hexside on a built position
/// uses the Standard movement chart's `lake` hexside, impassable.)
#[test]
fn case_10_5_impassable_hexside_stops_zoc() {
    let p = Position::new(6, 8)
        .map("side 0302/0303 lake")
        .confederate(&inf("a", 4, 4))
        .place("a", "0303", "n", "line")
        .union(&inf("b", 4, 3))
        .place("b", "0302", "s", "line");
    let mut t = p.build_at(1, UNION, Phase::Movement);
    assert!(offered(&t.mv(UNION, &["b"], &["0301"])).is_none());
    let mut t = p.build_at(1, UNION, Phase::DefensiveFire);
    t.ok(REBEL, fire("0302", &[("a", 4)]));
}

/// A1 (0303) and A2 (0201) have H = 0302 in their frontal ZOC; A3 (0401)
/// has H behind it. B1 in H, B2 in H2 = 0402 (A1's front only).
fn three_around_h() -> T {
    three_around_h_position().build_at(1, UNION, Phase::Movement)
}

fn three_around_h_position() -> Position {
    Position::new(6, 8)
        .confederate(&inf("a1", 4, 4))
        .confederate(&inf("a2", 4, 4))
        .confederate(&inf("a3", 4, 4))
        .place("a1", "0303", "n", "line")
        .place("a2", "0201", "se", "line")
        .place("a3", "0401", "ne", "line")
        .union(&inf("b1", 4, 3))
        .union(&inf("b2", 4, 3))
        .place("b1", "0302", "s", "line")
        .place("b2", "0402", "sw", "line")
}

/// GBACW 10.19: "When a unit triggers withdrawal fire, it may be fired on
/// once by every eligible Enemy unit. ... A single Enemy unit may perform
/// withdrawal fire as many times as there are Friendly units which
/// trigger such fire."
#[test]
fn case_10_19_every_eligible_enemy_fires_once_each_trigger() {
    let mut t = three_around_h();
    let d = offered(&t.mv(UNION, &["b1"], &["0301"])).unwrap();
    let mut firers = d.firers.clone();
    firers.sort();
    assert_eq!(firers, ids(&["a1", "a2"]), "A3 has no ZOC on H");
    t.refused(
        REBEL,
        GbacwAction::WithdrawalFire {
            firers: ids(&["a1", "a1"]),
        },
        "GBACW 10.19",
    );
    t.ok(REBEL, GbacwAction::DeclineWithdrawalFire);
    let d = offered(&t.mv(UNION, &["b2"], &["0403"])).unwrap();
    assert!(d.firers.contains(&id("a1")), "A1 again, a second trigger");
}

/// GBACW 10.19 under the case's reading of its flagged ambiguity, the
/// named option `withdrawal-fire-separate`: A1 and A2 fire at B1 as
/// separate shots ("When a unit triggers withdrawal fire, it may be fired
/// on once by every eligible Enemy unit"), each at its own strength with
/// its own die. By default the engine combines them into one attack
/// (9.41: "units firing from different hexes at the same Enemy hex must
/// combine their Fire Strength into one total"): one report of 16.
#[test]
fn case_10_19_every_eligible_enemy_fires_once_each_trigger_separate_shots() {
    // The default: one combined attack, one die.
    let mut t = three_around_h();
    offered(&t.mv(UNION, &["b1"], &["0301"])).unwrap();
    t.script(&[2, 2, 2, 2, 2, 2]);
    let events = t.act(
        REBEL,
        GbacwAction::WithdrawalFire {
            firers: ids(&["a1", "a2"]),
        },
    );
    let r = fire_reports(&events);
    assert_eq!(r.len(), 1, "one combined attack");
    assert_eq!(r[0].strength, 16);
    // The option: two shots of 8, a die each, in the order named.
    let mut t = three_around_h_position()
        .reading_001("withdrawal-fire-separate")
        .build_at(1, UNION, Phase::Movement);
    assert!(t.rs.options.withdrawal_fire_separate);
    offered(&t.mv(UNION, &["b1"], &["0301"])).unwrap();
    t.script(&[2, 2, 2, 2, 2, 2]);
    let events = t.act(
        REBEL,
        GbacwAction::WithdrawalFire {
            firers: ids(&["a1", "a2"]),
        },
    );
    let r = fire_reports(&events);
    assert_eq!(r.len(), 2, "two shots: {events:?}");
    assert!(r.iter().all(|r| r.strength == 8), "{r:?}");
    assert_eq!(r.iter().map(|r| r.die).collect::<Vec<_>>(), [2, 2]);
}
