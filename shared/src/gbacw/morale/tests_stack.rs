//! Which units check morale, and routs on routed units.

use super::*;
use crate::gbacw::leaders::{UnitCheck, casualties_then_morale};
use crate::gbacw::oob::{Marker, Morale};
use crate::gbacw::tables::CasualtyCause;
use crate::gbacw::testkit::{dice, id, world};
use std::collections::BTreeSet;

fn stack() -> Vec<crate::gbacw::oob::CounterId> {
    vec![id("2-va"), id("10-va"), id("whites-c")]
}

#[test]
fn case_13_0_what_calls_for_a_morale_check() {
    for t in [
        CheckTrigger::FireCasualty,
        CheckTrigger::FirePin,
        CheckTrigger::FireRout,
        CheckTrigger::RetreatBeforeMelee,
        CheckTrigger::MeleeRetreat,
    ] {
        assert!(morale_check_due(t), "{t:?}");
    }
    assert!(!morale_check_due(CheckTrigger::MeleeCasualty));
    assert!(!morale_check_due(CheckTrigger::MeleeEngaged));
}

#[test]
fn case_13_11_ratings_run_from_one_to_five() {
    let w = world();
    let text = crate::gbacw::oob::tests::TEST_OOB.replace(
        "morale=5 weapon=R strength=6",
        "morale=6 weapon=R strength=6",
    );
    assert!(crate::gbacw::oob::parse_oob(&text, &w.charts.range).is_err());
    assert_eq!(w.unit("5-conn").morale, Morale::Rated(5));
    assert_eq!(rating(Morale::Rated(1)), Some(1));
    // Worst is 1: any die above it routs; best is 5: only a 6 does.
    assert!(morale_check(1, 2, MoraleMods::default()));
    assert!(!morale_check(5, 5, MoraleMods::default()));
}

#[test]
fn case_13_41_each_unit_checks_separately() {
    let mut rolls = dice(&[6, 1, 6]);
    let out = check_stack(&stack(), false, true, |_| rolls() > 3);
    assert_eq!(
        out,
        vec![
            (id("2-va"), true),
            (id("10-va"), false),
            (id("whites-c"), true)
        ]
    );
}

#[test]
fn case_13_42_lower_units_check_only_if_top_routs_or_dies() {
    let held = check_stack(&stack(), false, false, |_| false);
    assert_eq!(held, vec![(id("2-va"), false)]);
    let routed = check_stack(&stack(), false, false, |u| *u == id("2-va"));
    assert_eq!(routed.len(), 3);
    // Top unit eliminated: the next checks as the top unit.
    let gone = check_stack(&stack(), true, false, |_| false);
    assert_eq!(gone, vec![(id("10-va"), false)]);
}

#[test]
fn case_13_44_artillery_at_three_hexes_checks_every_unit() {
    let out = check_stack(&stack(), false, true, |_| false);
    assert_eq!(out.len(), 3);
}

#[test]
fn case_13_33_routed_unit_hit_again_routs_three_more() {
    let mut m = BTreeSet::from([Marker::Pin]);
    assert_eq!(rout(&mut m), 3);
    assert_eq!(m, BTreeSet::from([Marker::Rout]));
    assert_eq!(hit_while_routed(&mut m, 1, false, false), Some(3));
    assert_eq!(hit_while_routed(&mut m, 0, true, false), Some(3));
    // Pinned while routed: both.
    assert_eq!(hit_while_routed(&mut m, 0, false, true), None);
    assert_eq!(m, BTreeSet::from([Marker::Pin, Marker::Rout]));
    // Not routed: nothing to re-rout.
    assert_eq!(hit_while_routed(&mut BTreeSet::new(), 2, true, false), None);
}

#[test]
fn case_13_43_all_units_benefit_from_a_leader_in_the_hex() {
    let w = world();
    // Ronald leads 2 Va; White's cavalry is independent. Both get -1.
    let checks = [
        UnitCheck {
            unit: id("2-va"),
            morale: 4,
            mods: MoraleMods::default(),
        },
        UnitCheck {
            unit: id("whites-c"),
            morale: 2,
            mods: MoraleMods::default(),
        },
    ];
    // Leader roll 3+4 = 7 (no effect), then dice 5 and 3.
    let out = casualties_then_morale(
        &w.tables.leader_casualty,
        CasualtyCause::SmallArms,
        &[id("ronald")],
        &checks,
        dice(&[3, 4, 5, 3]),
    );
    assert!(out.routed.is_empty());
}
