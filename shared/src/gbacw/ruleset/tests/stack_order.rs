//! GBACW 8.41: a stack's order through `decide`: changed in the friendly
//! Movement Phase or after the top unit ran out of ammunition, and read
//! as "the top unit" by fire.

use super::reading_support::{marked, refused_case, strength};
use super::*;
use crate::gbacw::oob::Marker;
use crate::gbacw::ruleset::stack_order::stack_at;
use crate::gbacw::testkit::Position;

fn on_top(unit: &str) -> GbacwAction {
    GbacwAction::PutOnTop { unit: id(unit) }
}

/// Union A and B stacked in 0405, C alone in 0602; Confederate E in 0406.
fn stack(turn_phase: Phase) -> T {
    Position::new(8, 8)
        .union("infantry a strength=3 morale=4 weapon=R")
        .union("infantry b strength=4 morale=4 weapon=R")
        .union("infantry c strength=4 morale=4 weapon=R")
        .confederate("infantry e strength=4 morale=4 weapon=R")
        .place("a", "0405", "s", "line")
        .place("b", "0405", "s", "line")
        .place("c", "0602", "s", "line")
        .place("e", "0406", "n", "line")
        .build_at(1, UNION, turn_phase)
}

/// GBACW 8.41: "Units may stack, or change their stacking order, only
/// during a Friendly Movement Phase" — B put on top of A; then fire hits
/// B first (8.21: losses to the top unit).
#[test]
fn case_8_41_reorder_in_friendly_movement_phase() {
    let mut t = stack(Phase::Movement);
    assert_eq!(
        stack_at(&t.s, n("0405")),
        ids(&["a", "b"]),
        "id order by default"
    );
    assert!(t.rs.legal_actions(&t.s, UNION).contains(&on_top("b")));
    assert!(!t.rs.legal_actions(&t.s, UNION).contains(&on_top("a")));
    t.ok(UNION, on_top("b"));
    assert_eq!(stack_at(&t.s, n("0405")), ids(&["b", "a"]));
    // And back again, as often as the player likes in the phase.
    t.ok(UNION, on_top("a"));
    t.ok(UNION, on_top("b"));
    assert_eq!(stack_at(&t.s, n("0405")), ids(&["b", "a"]));
}

/// The strengths of A and B after E's Defensive Fire at their stack with
/// fire die `die` (B put on top first when `reorder`).
fn fired_on(reorder: bool, die: u16) -> (u8, u8) {
    let mut t = stack(Phase::Movement);
    if reorder {
        t.ok(UNION, on_top("b"));
    }
    t.advance_to(UNION, Phase::DefensiveFire);
    t.ok(REBEL, fire("0405", &[("e", 4)]));
    t.script(&[die, 1, 1, 1, 1, 1, 1]);
    t.act(REBEL, GbacwAction::EndPhase);
    (strength(&t, "a"), strength(&t, "b"))
}

/// GBACW 8.41 with 8.21 ("losses ... to the top unit"): the order set in
/// the Movement Phase is the order fire reads: a die that costs A (on top
/// by id order) a point costs B instead once B is on top.
#[test]
fn case_8_41_fire_hits_the_unit_put_on_top() {
    let die = (1..=6)
        .find(|d| fired_on(false, *d).0 < 3)
        .expect("some die costs the top unit a point");
    let (a, b) = fired_on(false, die);
    assert_eq!(b, 4, "B beneath is untouched");
    let (a2, b2) = fired_on(true, die);
    assert_eq!(a2, 3, "A beneath is untouched");
    assert_eq!(4 - b2, 3 - a, "B on top takes the same loss");
    let _ = b;
}

/// GBACW 8.41: outside the friendly Movement Phase, with no ammunition
/// run out, the order is refused: in a Fire Phase, in the enemy's
/// Movement Phase; a unit alone or already on top, too.
#[test]
fn case_8_41_reorder_refused_outside_movement_phase() {
    let t = stack(Phase::OffensiveFire);
    refused_case(&t, UNION, on_top("b"), "8.41");
    let mut t = stack(Phase::Movement);
    refused_case(&t, UNION, on_top("c"), "8.41");
    refused_case(&t, UNION, on_top("a"), "8.41");
    t.advance_to(REBEL, Phase::Movement);
    refused_case(&t, UNION, on_top("b"), "8.41");
}

/// GBACW 8.41: the change after depletion is offered only for the stacks
/// whose top unit ran out, to their owner, and ends with "keep the
/// order" (the default on a timeout); a unit elsewhere is refused.
#[test]
fn case_8_41_reorder_after_depletion_only_in_the_depleted_stack() {
    let mut t = Position::new(8, 8)
        .confederate("infantry a strength=3 morale=4 weapon=R")
        .confederate("infantry b strength=4 morale=4 weapon=R")
        .confederate("infantry c strength=4 morale=4 weapon=R")
        .confederate("infantry d strength=4 morale=4 weapon=R")
        .union("infantry u strength=4 morale=4 weapon=R")
        .place("a", "0405", "s", "line")
        .place("b", "0405", "s", "line")
        .place("c", "0305", "s", "line")
        .place("d", "0305", "s", "line")
        .place("u", "0406", "n", "line")
        .build_at(1, UNION, Phase::DefensiveFire);
    t.ok(REBEL, fire("0406", &[("a", 3)]));
    t.script(&[1, 2, 1, 1]);
    t.act(REBEL, GbacwAction::EndPhase);
    assert!(marked(&t, "a", Marker::AmmoDepleted));
    let asked = t.rs.pending(&t.s);
    assert_eq!(asked[0].default, GbacwAction::StackOrderDone);
    // The Union player is not the one asked.
    assert!(t.decide(UNION, &GbacwAction::StackOrderDone).is_err());
    refused_case(&t, REBEL, on_top("d"), "8.41");
    refused_case(&t, REBEL, GbacwAction::EndPhase, "8.41");
    t.by_default(REBEL, GbacwAction::StackOrderDone);
    assert!(t.s.restack.is_none());
    assert_eq!(stack_at(&t.s, n("0405")), ids(&["a", "b"]));
    refused_case(&t, REBEL, GbacwAction::StackOrderDone, "8.41");
}
