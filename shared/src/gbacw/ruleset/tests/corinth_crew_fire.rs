//! Fire on a battery crew away from its guns beyond 24.12's Fire Phase
//! (Corinth 24.21 with GBACW 9.84, 10.1, 10.2): its pin, withdrawal fire
//! as a rallied crew leaves an enemy ZOC, retreat fire on its rout. On the
//! crew field of `corinth_crews.rs` (Hudson's guns in 1423, its crew away
//! in 1420, 52 Ill next to it in 1419).

use super::corinth_crews::{at_phase, fire_field, fire_on_crew, move_crew};
use super::*;
use crate::gbacw::oob::Marker;

fn pinned(t: &T) -> bool {
    t.s.units[&id("hudson")]
        .status
        .markers
        .contains(&Marker::Pin)
}

#[test]
fn corinth_24_21_and_case_9_84_a_crew_pinned_by_fire_may_not_move_until_its_rally_phase() {
    // Rallied (not routed): a pin result whose check pins it (9.83, 9.87).
    let mut rallied = fire_field();
    rallied.s.crews_rallied.insert(id("hudson"));
    let (mut t, events) = (0..300)
        .map(|s| fire_on_crew(&rallied, s))
        .find(|(x, _)| pinned(x))
        .expect("the rallied crew is pinned within 300 seeds");
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, GbacwEvent::CrewRouted { .. }))
    );
    assert!(events.iter().any(|e| matches!(
        e,
        GbacwEvent::MoraleChecked { unit, rating: 4, .. } if *unit == id("hudson")
    )));
    assert_eq!(t.s.crews_away.get(&id("hudson")), Some(&n("1420")));
    assert!(t.s.crews_rallied.contains(&id("hudson")));
    // 9.84: "Units in a pinned hex may not move": not in its next
    // Movement Phase, nor listed among the candidates.
    at_phase(&mut t, REBEL, Phase::Movement);
    t.refused(REBEL, move_crew(&["1421"]), "GBACW 9.84");
    assert!(
        !t.rs
            .legal_actions(&t.s, REBEL)
            .iter()
            .any(|a| matches!(a, GbacwAction::MoveCrew { .. }))
    );
    // 9.85: the friendly Rally Phase lifts the pin; then it moves.
    let side = t.rs.side_of(REBEL).clone();
    for e in crate::gbacw::ruleset::combat::rally::unpin(&t.rs, &t.s, &side) {
        t.rs.evolve(&mut t.s, &e);
    }
    assert!(!pinned(&t));
    t.ok(REBEL, move_crew(&["1421"]));
}

#[test]
fn corinth_24_21_and_case_9_84_a_routed_crew_may_be_pinned_and_remains_routed() {
    // 9.84: "Routed units may become pinned (and remain routed)."
    let t = fire_field();
    let (x, events) = (0..300)
        .map(|s| fire_on_crew(&t, s))
        .find(|(x, _)| pinned(x))
        .expect("the routed crew is pinned within 300 seeds");
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, GbacwEvent::CrewRouted { .. }))
    );
    assert_eq!(x.s.crews_away.get(&id("hudson")), Some(&n("1420")));
    assert!(!x.s.crews_rallied.contains(&id("hudson")));
    // Pinned and routed again, it sheds the pin (13.31).
    let mut pinned_field = fire_field();
    let markers = [Marker::Rout, Marker::Pin].into_iter().collect();
    let e = GbacwEvent::MarkersSet {
        unit: id("hudson"),
        markers,
    };
    pinned_field.rs.evolve(&mut pinned_field.s, &e);
    let (again, events) = (0..300)
        .map(|s| fire_on_crew(&pinned_field, s))
        .find(|(_, e)| e.iter().any(|y| matches!(y, GbacwEvent::CrewRouted { .. })))
        .expect("the pinned crew routs again within 300 seeds");
    assert!(!pinned(&again), "{events:?}");
}
