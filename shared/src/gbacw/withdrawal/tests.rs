use super::*;
use crate::gbacw::map::{Grid, HexNumber, Offset, Orientation};
use crate::gbacw::oob::{CounterId, Formation};
use std::collections::BTreeSet;

fn n(s: &str) -> HexNumber {
    HexNumber::parse(s).unwrap()
}

fn id(s: &str) -> CounterId {
    CounterId::parse(s).unwrap()
}

fn grid() -> Grid {
    Grid {
        orientation: Orientation::Flat,
        offset: Offset::Even,
        cols: (1, 20),
        rows: (1, 20),
    }
}

fn enemy(name: &str, zoc: &[&str]) -> EnemyZoc {
    EnemyZoc {
        unit: id(name),
        zoc: zoc.iter().map(|h| n(h)).collect(),
    }
}

#[test]
fn case_10_1_leaving_an_enemy_zoc_draws_fire_from_its_owner() {
    let e = [enemy("a", &["1009"]), enemy("b", &["1110"])];
    assert_eq!(withdrawal_firers(&e, n("1009"), Mover::Unit), [id("a")]);
    assert!(withdrawal_firers(&e, n("0505"), Mover::Unit).is_empty());
}

#[test]
fn case_10_19_every_eligible_enemy_fires_once() {
    let e = [enemy("a", &["1009"]), enemy("b", &["1009"])];
    assert_eq!(
        withdrawal_firers(&e, n("1009"), Mover::Unit),
        [id("a"), id("b")]
    );
}

#[test]
fn case_6_24_formation_change_in_enemy_zoc_draws_fire() {
    // The same firers as leaving the hex: the change happens in it.
    let e = [enemy("a", &["1009"])];
    assert_eq!(withdrawal_firers(&e, n("1009"), Mover::Unit), [id("a")]);
}

#[test]
fn case_10_18_leaders_draw_no_withdrawal_fire() {
    let e = [enemy("a", &["1009"])];
    assert!(withdrawal_firers(&e, n("1009"), Mover::Leader).is_empty());
}

#[test]
fn case_12_84_mounted_cavalry_retreats_before_melee_unfired() {
    let e = [enemy("a", &["1009"])];
    assert!(withdrawal_firers(&e, n("1009"), Mover::MountedRetreatingBeforeMelee).is_empty());
}

#[test]
fn case_10_13_whole_stack_withdrawing_takes_one_shot() {
    let stack = [id("x"), id("y")];
    let all: BTreeSet<_> = stack.iter().cloned().collect();
    assert_eq!(withdrawal_targets(&stack, &all), stack);
}

#[test]
fn case_10_14_units_staying_behind_take_the_fire() {
    let stack = [id("x"), id("y"), id("z")];
    let leaving: BTreeSet<_> = [id("x")].into_iter().collect();
    assert_eq!(withdrawal_targets(&stack, &leaving), [id("y"), id("z")]);
}

#[test]
fn case_10_16_withdrawing_usually_shows_the_rear() {
    let g = grid();
    // A unit at 1010 with the firer at 1009 (north) withdraws south to 1011:
    // facing south, its rear is to the firer.
    assert!(withdrawal_enfiladed(
        &g,
        n("1010"),
        n("1011"),
        Formation::Line,
        n("1009")
    ));
}

#[test]
fn case_7_11_a_unit_faces_the_hex_it_enters() {
    let g = grid();
    // Sidestepping north-east (toward 1110) keeps the northern firer in front.
    assert!(!withdrawal_enfiladed(
        &g,
        n("1010"),
        n("1110"),
        Formation::Line,
        n("1009")
    ));
}

#[test]
fn case_10_2_retreat_fire_once_per_enemy_not_from_the_cause() {
    let e = [
        enemy("cause", &["1009", "1010"]),
        enemy("b", &["1111", "1112"]),
    ];
    let cause: BTreeSet<_> = [id("cause")].into_iter().collect();
    let fire = retreat_firers(&e, &[n("1010"), n("1111"), n("1112")], &cause);
    assert_eq!(fire, [(n("1111"), id("b"))]);
}

#[test]
fn case_6_23_limbering_in_range_and_sight_of_small_arms_draws_fire() {
    let g = grid();
    let candidates = [
        (id("near"), n("1008"), 3),
        (id("far"), n("1002"), 3),
        (id("hidden"), n("1012"), 3),
    ];
    let fire = limbering_firers(&g, n("1010"), &candidates, |h| h != n("1012"));
    assert_eq!(fire, [id("near")]);
}
