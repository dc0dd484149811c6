//! Detachment, attachment and command against the test order of battle.

use super::*;
use crate::gbacw::oob::{Command, LeaderRole};
use crate::gbacw::sequence::Phase;
use crate::gbacw::testkit::{id, world};
use std::collections::BTreeMap;

const IC: Phase = Phase::InitialCommand;

fn detach(b: &str) -> LinkOrder {
    LinkOrder::Detach { brigade: id(b) }
}

fn attach(b: &str, to: &str) -> LinkOrder {
    LinkOrder::Attach {
        brigade: id(b),
        to: id(to),
    }
}

#[test]
fn case_17_61_detachment_announced_in_initial_command_phase() {
    let w = world();
    let mut l = BTreeMap::new();
    assert_eq!(
        apply_link_order(
            &w.oob,
            &mut l,
            &detach("crawford"),
            Phase::Movement,
            true,
            false
        ),
        Err("GBACW 17.61")
    );
    assert_eq!(
        apply_link_order(&w.oob, &mut l, &detach("crawford"), IC, true, false),
        Ok(())
    );
    assert!(is_detached(&l, &id("crawford")));
}

#[test]
fn case_17_62_detaching_brigade_must_be_within_dir_then_may_attach() {
    let w = world();
    let mut l = BTreeMap::new();
    apply_link_order(&w.oob, &mut l, &detach("crawford"), IC, true, false).unwrap();
    // Detached, Crawford may join Winder's division if within its radius.
    assert_eq!(
        apply_link_order(
            &w.oob,
            &mut l,
            &attach("crawford", "winder"),
            IC,
            true,
            false
        ),
        Ok(())
    );
    assert_eq!(l[&id("winder")].attached, Some(id("crawford")));
}

#[test]
fn case_17_63_out_of_dir_brigade_is_out_of_command_not_detached() {
    let w = world();
    let mut l = BTreeMap::new();
    assert_eq!(
        apply_link_order(&w.oob, &mut l, &detach("crawford"), IC, false, false),
        Err("GBACW 17.63")
    );
    assert!(!is_detached(&l, &id("crawford")));
    let role = &w.oob.leaders[&id("crawford")].role;
    assert!(brigade_moves_one_hex(role, false, false));
}

#[test]
fn case_17_6_one_detached_and_one_attached_at_a_time() {
    let w = world();
    let mut l = BTreeMap::from([(
        id("williams"),
        DivisionLinks {
            detached: Some(id("other")),
            attached: None,
        },
    )]);
    assert_eq!(
        apply_link_order(&w.oob, &mut l, &detach("crawford"), IC, true, false),
        Err("GBACW 17.6")
    );
}

#[test]
fn case_17_64_attach_within_receiving_dir_and_the_attached_may_change() {
    let w = world();
    let mut l = BTreeMap::new();
    // Not detached: it cannot be attached elsewhere.
    assert_eq!(
        apply_link_order(
            &w.oob,
            &mut l,
            &attach("crawford", "winder"),
            IC,
            true,
            false
        ),
        Err("GBACW 17.64")
    );
    apply_link_order(&w.oob, &mut l, &detach("crawford"), IC, true, false).unwrap();
    assert_eq!(
        apply_link_order(
            &w.oob,
            &mut l,
            &attach("crawford", "winder"),
            IC,
            false,
            false
        ),
        Err("GBACW 17.64")
    );
    // Bayard (Indpnt) attached to Winder, then Crawford replaces him.
    apply_link_order(&w.oob, &mut l, &attach("bayard", "winder"), IC, true, false).unwrap();
    apply_link_order(
        &w.oob,
        &mut l,
        &attach("crawford", "winder"),
        IC,
        true,
        false,
    )
    .unwrap();
    assert_eq!(l[&id("winder")].attached, Some(id("crawford")));
}

#[test]
fn case_17_65_nothing_detaches_a_brigade_but_an_order() {
    let w = world();
    let l: BTreeMap<_, DivisionLinks> = BTreeMap::new();
    // Out of radius, or the division leader gone: still not detached; the
    // brigade is out of command (moves one hex), which an order alone changes.
    assert!(!is_detached(&l, &id("crawford")));
    let role = &w.oob.leaders[&id("crawford")].role;
    assert!(brigade_moves_one_hex(
        role,
        false,
        is_detached(&l, &id("crawford"))
    ));
}

#[test]
fn case_17_66_independent_brigades_attach_and_need_no_division() {
    let w = world();
    let mut l = BTreeMap::new();
    let role = &w.oob.leaders[&id("bayard")].role;
    assert!(matches!(role, LeaderRole::Brigade { division: None, .. }));
    assert!(!brigade_moves_one_hex(role, false, false));
    assert_eq!(
        apply_link_order(
            &w.oob,
            &mut l,
            &attach("bayard", "williams"),
            IC,
            true,
            false
        ),
        Ok(())
    );
    // An independent brigade has no division to be detached from.
    assert_eq!(
        apply_link_order(&w.oob, &mut l, &detach("bayard"), IC, true, false),
        Err("GBACW 17.66")
    );
}

#[test]
fn case_17_67_bce_lost_brigade_may_not_be_detached() {
    let w = world();
    let mut l = BTreeMap::new();
    assert_eq!(
        apply_link_order(&w.oob, &mut l, &detach("crawford"), IC, true, true),
        Err("GBACW 17.67")
    );
}

#[test]
fn case_17_68_detached_brigade_units_stay_subordinate() {
    let w = world();
    let unit = &w.oob.units[&id("5-conn")];
    assert_eq!(unit.command, Command::Brigade(id("crawford")));
    assert!(commands(&id("crawford"), &unit.command, false));
    // Not independent: out of Crawford's radius it is out of command.
    assert!(!unit_in_command(&unit.command, false, false));
}

#[test]
fn case_17_1_brigade_commander_commands_his_units_and_those_stacked() {
    let w = world();
    let LeaderRole::Brigade { ratings, .. } = &w.oob.leaders[&id("crawford")].role else {
        panic!()
    };
    assert_eq!(
        (
            ratings.effectiveness_radius,
            ratings.rally,
            ratings.promoted_radius
        ),
        (5, 2, Some(5))
    );
    let other = &w.oob.units[&id("1-nj-c")].command;
    assert!(!commands(&id("crawford"), other, false));
    assert!(commands(&id("crawford"), other, true));
}

#[test]
fn case_17_14_leader_without_units_commands_those_stacked_with_him() {
    let w = world();
    let stranger = &w.oob.units[&id("2-va")].command;
    assert!(commands(&id("bayard"), stranger, true));
    assert!(!commands(&id("bayard"), stranger, false));
}

#[test]
fn case_17_2_division_leader_has_dir_and_command_points() {
    let w = world();
    let LeaderRole::Division {
        integrity_radius,
        command_points,
        ..
    } = w.oob.leaders[&id("williams")].role
    else {
        panic!()
    };
    assert_eq!((integrity_radius, command_points), (6, 2));
    let within = BTreeMap::from([(id("crawford"), (2, true))]);
    assert!(allocate_command_points(command_points, &within).is_ok());
    let too_many = BTreeMap::from([(id("crawford"), (3, true))]);
    assert_eq!(
        allocate_command_points(command_points, &too_many),
        Err(None)
    );
}
