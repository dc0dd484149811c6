//! GBACW 11.18: recrewing a wagon through `decide`: when it may be done
//! and every refusal, each citing the case.

use super::reading_support::{refused_case, strength};
use super::*;
use crate::gbacw::oob::{Crew, Morale};
use crate::gbacw::testkit::Position;

/// Union wagon W (crew eliminated) in 0405 with infantry X (2 SP) and
/// cavalry K (2 SP, dismounted or mounted); wagon U (crew eliminated) in
/// 0603 with battery G and infantry Y (1 SP); infantry Z in 0407, off W's
/// hex, with a crewed wagon V. The Union Final Command Phase of
/// Game-Turn 1.
fn wagon_yard(cavalry: &str) -> T {
    let mut t = Position::new(8, 8)
        .union("wagon w morale=4 weapon=R strength=1 small-arms=5 artillery=0")
        .union("wagon v morale=4 weapon=R strength=1 small-arms=5 artillery=0")
        .union("wagon u morale=4 weapon=R strength=1 small-arms=5 artillery=0")
        .union("infantry x strength=2 morale=3 weapon=M")
        .union("cavalry k strength=2 morale=4 weapon=C")
        .union("battery g weapon=N guns=2 rounds=10 morale=4")
        .union("infantry y strength=1 morale=4 weapon=R")
        .union("infantry z strength=4 morale=4 weapon=R")
        .confederate("infantry e strength=4 morale=4 weapon=R")
        .place("w", "0405", "n", "-")
        .place("x", "0405", "n", "line")
        .place("k", "0405", "n", cavalry)
        .place("u", "0603", "n", "-")
        .place("g", "0603", "n", "limbered")
        .place("y", "0603", "n", "line")
        .place("v", "0407", "n", "-")
        .place("z", "0407", "n", "line")
        .place("e", "0801", "s", "line")
        .build_at(1, UNION, Phase::FinalCommand);
    for w in ["w", "u"] {
        t.s.units.get_mut(&id(w)).unwrap().status.crew = Crew::None;
    }
    t
}

fn recrew(wagon: &str, unit: &str) -> GbacwAction {
    GbacwAction::Recrew {
        wagon: id(wagon),
        unit: id(unit),
    }
}

/// GBACW 11.18: "removing one Strength Point from that unit during the
/// Friendly Final Command Phase" — dismounted cavalry gives its point as
/// infantry does; the new crew's morale and weapon are the unit's, noted
/// with the wagon, and the point given is no loss (victory, 27.21).
#[test]
fn case_11_18_dismounted_cavalry_recrews_and_the_crew_is_noted() {
    let mut t = wagon_yard("dismounted");
    assert!(t.rs.legal_actions(&t.s, UNION).contains(&recrew("w", "k")));
    assert!(t.rs.legal_actions(&t.s, UNION).contains(&recrew("w", "x")));
    t.ok(UNION, recrew("w", "k"));
    assert_eq!(strength(&t, "k"), 1);
    assert_eq!(t.s.units[&id("w")].status.crew, Crew::Full);
    let noted = &t.s.recrewed[&id("w")];
    assert_eq!(noted.from, id("k"));
    assert_eq!(noted.morale, Morale::Rated(4));
    assert_eq!(noted.weapon.as_deref(), Some("C"));
    assert_eq!(
        t.rs.strength_lost(&t.s, &id("k")),
        0,
        "a point given is no loss"
    );
}

/// GBACW 11.18: "during the Friendly Final Command Phase" — refused in
/// the Movement Phase, and in the enemy's Final Command Phase.
#[test]
fn case_11_18_recrew_refused_outside_friendly_final_command_phase() {
    let mut t = wagon_yard("dismounted");
    t.advance_to(UNION, Phase::Movement);
    refused_case(&t, UNION, recrew("w", "x"), "11.18");
    t.advance_to(REBEL, Phase::FinalCommand);
    assert!(t.decide(UNION, &recrew("w", "x")).is_err());
    assert!(
        !t.rs
            .legal_actions(&t.s, REBEL)
            .iter()
            .any(|a| matches!(a, GbacwAction::Recrew { .. }))
    );
}

/// GBACW 11.18: "by moving an infantry unit or dismounted cavalry unit
/// onto the wagon" — mounted cavalry and a battery are refused.
#[test]
fn case_11_18_recrew_refused_to_mounted_cavalry_and_artillery() {
    let t = wagon_yard("mounted");
    refused_case(&t, UNION, recrew("w", "k"), "11.18");
    refused_case(&t, UNION, recrew("u", "g"), "11.18");
    assert!(!t.rs.legal_actions(&t.s, UNION).contains(&recrew("w", "k")));
}

/// GBACW 11.18: "if its crew has been eliminated" — a crewed wagon is
/// refused, and so is a counter that is no wagon.
#[test]
fn case_11_18_recrew_refused_for_a_crewed_wagon_or_no_wagon() {
    let t = wagon_yard("dismounted");
    refused_case(&t, UNION, recrew("v", "z"), "11.18");
    refused_case(&t, UNION, recrew("g", "x"), "11.18");
}

/// GBACW 11.18: "moving ... onto the wagon" — a unit off the wagon's hex
/// is refused; an enemy wagon or unit is not the player's to use.
#[test]
fn case_11_18_recrew_refused_off_the_wagons_hex() {
    let t = wagon_yard("dismounted");
    refused_case(&t, UNION, recrew("w", "z"), "11.18");
    assert!(t.decide(UNION, &recrew("w", "e")).is_err());
}

/// GBACW 11.18: "Only one Strength Point may ever be assigned to a
/// wagon" — a wagon recrewed once, its crew lost again, is not recrewed a
/// second time; a unit with one Strength Point has none to spare.
#[test]
fn case_11_18_recrew_only_once_and_not_a_units_last_point() {
    let mut t = wagon_yard("dismounted");
    refused_case(&t, UNION, recrew("u", "y"), "11.18");
    t.ok(UNION, recrew("w", "x"));
    refused_case(&t, UNION, recrew("w", "k"), "11.18");
    t.s.units.get_mut(&id("w")).unwrap().status.crew = Crew::None;
    refused_case(&t, UNION, recrew("w", "k"), "11.18");
    assert_eq!(strength(&t, "x"), 1);
}
