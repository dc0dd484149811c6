//! Retreat before melee: who may, on what terms.

use super::*;
use crate::gbacw::oob::{Crew, Formation, Marker};
use crate::gbacw::testkit::{id, world};

const FOOT: Threat = Threat {
    foot_only: true,
    charge: false,
};
const MIXED: Threat = Threat {
    foot_only: false,
    charge: false,
};
const CHARGE: Threat = Threat {
    foot_only: false,
    charge: true,
};

#[test]
fn case_12_8_defender_answers_declared_melees_at_once() {
    let threatened = [id("2-va"), id("10-va")];
    assert_eq!(answer_declarations(&threatened, &[id("2-va")]), Ok(()));
    assert_eq!(answer_declarations(&threatened, &[]), Ok(()));
    assert_eq!(
        answer_declarations(&threatened, &[id("whites-c")]),
        Err(id("whites-c"))
    );
}

#[test]
fn case_12_81_retreat_one_or_two_hexes() {
    assert!(!rbm_length_ok(0));
    assert!(rbm_length_ok(1) && rbm_length_ok(2));
    assert!(!rbm_length_ok(3));
}

#[test]
fn case_12_83_rbm_draws_withdrawal_fire_and_a_morale_check() {
    let w = world();
    let t = may_retreat_before_melee(&w.unit("2-va"), &w.status("2-va", Formation::Line), FOOT)
        .unwrap();
    assert_eq!(
        t,
        RbmTerms {
            withdrawal_fire: true,
            morale_check: true
        }
    );
}

#[test]
fn case_12_86_unlimbered_artillery_cannot_retreat_before_melee() {
    let w = world();
    let u = w.unit("aleghny");
    assert_eq!(
        may_retreat_before_melee(&u, &w.status("aleghny", Formation::Unlimbered), MIXED),
        Err("GBACW 12.86")
    );
    assert!(may_retreat_before_melee(&u, &w.status("aleghny", Formation::Limbered), MIXED).is_ok());
}

#[test]
fn case_12_87_pinned_or_routed_units_cannot_retreat_before_melee() {
    let w = world();
    let u = w.unit("2-va");
    for m in [Marker::Pin, Marker::Rout] {
        let mut s = w.status("2-va", Formation::Line);
        s.markers.insert(m);
        assert_eq!(may_retreat_before_melee(&u, &s, FOOT), Err("GBACW 12.87"));
    }
}

#[test]
fn case_12_88_pinned_by_withdrawal_fire_must_stand() {
    let w = world();
    let u = w.unit("2-va");
    let mut s = w.status("2-va", Formation::Line);
    assert!(may_retreat_before_melee(&u, &s, FOOT).is_ok());
    // The withdrawal shot pins it: it moves no hex and cannot retreat.
    s.markers.insert(Marker::Pin);
    assert_eq!(hexes_after_withdrawal_pin(true), 0);
    assert!(may_retreat_before_melee(&u, &s, FOOT).is_err());
}

#[test]
fn case_12_89_rbm_allowed_out_of_command() {
    // Out of command is no input at all: a unit out of its brigade's radius
    // (10 Me with its commander far away) retreats like any other.
    let w = world();
    assert!(
        may_retreat_before_melee(&w.unit("10-me"), &w.status("10-me", Formation::Line), FOOT)
            .is_ok()
    );
}

#[test]
fn case_16_1_mounted_cavalry_refuses_foot_melee_without_check_or_fire() {
    let w = world();
    let u = w.unit("1-nj-c");
    let t = may_retreat_before_melee(&u, &w.status("1-nj-c", Formation::Mounted), FOOT).unwrap();
    assert_eq!(
        t,
        RbmTerms {
            withdrawal_fire: false,
            morale_check: false
        }
    );
    // Threatened by mounted cavalry too: the ordinary terms.
    let t = may_retreat_before_melee(&u, &w.status("1-nj-c", Formation::Mounted), MIXED).unwrap();
    assert!(t.withdrawal_fire && t.morale_check);
    // Dismounted: as infantry.
    let t = may_retreat_before_melee(&u, &w.status("1-nj-c", Formation::Dismounted), FOOT).unwrap();
    assert!(t.withdrawal_fire && t.morale_check);
}

#[test]
fn case_16_26_charged_units_cannot_rbm_except_mounted_cavalry() {
    let w = world();
    assert_eq!(
        may_retreat_before_melee(&w.unit("2-va"), &w.status("2-va", Formation::Line), CHARGE),
        Err("GBACW 16.26")
    );
    let t = may_retreat_before_melee(
        &w.unit("whites-c"),
        &w.status("whites-c", Formation::Mounted),
        CHARGE,
    )
    .unwrap();
    assert!(!t.withdrawal_fire && !t.morale_check);
}

#[test]
fn rbm_crewed_wagons_may_retreat_before_melee() {
    let w = world();
    let u = w.unit("supply-u");
    let mut s = w.status("supply-u", Formation::Wagon);
    assert!(may_retreat_before_melee(&u, &s, FOOT).is_ok());
    s.crew = Crew::None;
    assert_eq!(may_retreat_before_melee(&u, &s, FOOT), Err("GBACW 11.17"));
}
