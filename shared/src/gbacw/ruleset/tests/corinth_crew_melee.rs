//! Corinth 22.4 with 24.21: melee against a lone battery crew away from
//! its guns (`corinth/crew_melee.rs`). Hudson's guns (Confederate) in
//! 1423 under the Crew marker, the crew routed away to 1420; 52 Ill
//! (Union) in 1419 facing it, in the Union Retreat Before Melee Phase.

use super::corinth_crews::{at_phase, crew_field};
use super::corinth_melee::melee;
use super::*;
use crate::gbacw::oob::{Crew, Marker};

fn melee_field() -> T {
    let mut t = crew_field(Phase::Movement);
    t.corinth_unit("52-ill", "1419", Formation::Line);
    t.face_towards("52-ill", "1420");
    at_phase(&mut t, UNION, Phase::RetreatBeforeMelee);
    t
}

/// 52 Ill melees 1420 (the crew there, and any friends with it), the
/// owner stands (12.8); the Melee Phase ends with dice seeded by `seed`:
/// the table after and its events.
pub(super) fn melee_crew(t: &T, seed: u64) -> (T, Vec<GbacwEvent>) {
    let mut x = t.clone();
    x.ok(UNION, melee("1420", &["52-ill"]));
    // The owner answers: nothing to retreat, it stands (12.8).
    x.ok(REBEL, GbacwAction::StandFast);
    x.advance_to(UNION, Phase::Melee);
    let (events, _) = x.roll(UNION, GbacwAction::EndPhase, seed);
    (x, events)
}

fn hit(events: &[GbacwEvent]) -> bool {
    events
        .iter()
        .any(|e| matches!(e, GbacwEvent::CrewHit { unit, .. } if *unit == id("hudson")))
}

#[test]
fn corinth_22_4_a_lone_crew_is_meleed_without_a_check() {
    let t = melee_field();
    // Only a hex holding an enemy: the empty 1421 next door is refused.
    let mut x = T {
        rs: t.rs.clone(),
        s: t.s.clone(),
        script: Default::default(),
    };
    x.corinth_unit("52-ill", "1422", Formation::Line);
    x.face_towards("52-ill", "1421");
    x.refused(UNION, melee("1421", &["52-ill"]), "GBACW 12.0");
    // 22.4: the crew alone in 1420 may be meleed; it is offered no
    // retreat before melee (a decision, docs/gbacw-notes.md).
    let mut x = T {
        rs: t.rs.clone(),
        s: t.s.clone(),
        script: Default::default(),
    };
    // The candidates list it (random play melees lone crews too).
    assert!(x.rs.legal_actions(&x.s, UNION).iter().any(|a| matches!(
        a,
        GbacwAction::DeclareMelee { target, .. } if *target == n("1420")
    )));
    x.ok(UNION, melee("1420", &["52-ill"]));
    assert!(x.s.rbm.as_ref().unwrap().threatened.is_empty());
    let (after, events) = melee_crew(&t, 1);
    // 22.4: no attacker check (22.2) for a lone crew.
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, GbacwEvent::MeleeGateChecked(_)))
    );
    let report = events
        .iter()
        .find_map(|e| match e {
            GbacwEvent::MeleeResolved(r) => Some(r.clone()),
            _ => None,
        })
        .expect("the melee is fought");
    assert_eq!(report.defenders, ids(&["hudson"]));
    // 12.12, 12.51: a full crew melees at 1, routed halved to 0.
    assert_eq!(report.defence, 0);
    // The guns are untouched where they stand (6.13: only the crew).
    assert_eq!(after.hex("hudson"), Some(n("1423")));
    assert_eq!(after.s.units[&id("hudson")].status.strength, 6);
    assert!(
        !after.s.units[&id("hudson")]
            .status
            .markers
            .contains(&Marker::Engaged)
    );
    // Without the hook a lone crew is not a melee target.
    let mut off = melee_field();
    off.rs
        .game
        .scenario
        .hooks
        .retain(|h| h.kind != crate::gbacw::scenario::HookKind::LoneCrewMelee);
    off.refused(UNION, melee("1420", &["52-ill"]), "GBACW 12.0");
}

#[test]
fn corinth_22_4_a_routed_crew_hit_in_melee_loses_a_step_and_routs_again() {
    let t = melee_field();
    let (after, events) = (0..200)
        .map(|s| melee_crew(&t, s))
        .find(|(x, e)| hit(e) && x.hex("hudson").is_some())
        .expect("a crew step lost within 200 seeds");
    // 12.91, 15.12: a step of the crew; 13.33: routed, it routs again
    // three hexes from 1420 without a check (or is captured with no way).
    assert_eq!(after.s.units[&id("hudson")].status.crew, Crew::Half);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, GbacwEvent::MoraleChecked { unit, .. } if *unit == id("hudson")))
    );
    let away = *after.s.crews_away.get(&id("hudson")).expect("still away");
    assert_eq!(after.rs.game.map.grid.distance(n("1420"), away), 3);
    assert_eq!(after.hex("hudson"), Some(n("1423")));
}

#[test]
fn corinth_22_4_a_half_crew_lost_in_melee_takes_its_battery_out() {
    // 24.22: eliminated away from its guns, the battery leaves play.
    let mut t = melee_field();
    t.s.units.get_mut(&id("hudson")).unwrap().status.crew = Crew::Half;
    let before = t.rs.tally(&t.s).unwrap().batteries;
    // 52 Ill (4) against the routed half crew (0): +4, a C-R on every die.
    // The C takes its last step (12.93, 15.12): eliminated by capture, so
    // its guns count for Victory Points (24.22).
    let (gone, events) = melee_crew(&t, 1);
    assert!(hit(&events));
    assert!(events.iter().any(|e| matches!(
        e,
        GbacwEvent::UnitRemoved { unit, captured: true } if *unit == id("hudson")
    )));
    assert_eq!(gone.hex("hudson"), None);
    assert!(gone.s.crews_away.is_empty());
    assert!(gone.s.crews_rallied.is_empty());
    assert_ne!(gone.rs.tally(&gone.s).unwrap().batteries, before);
}

#[test]
fn corinth_22_4_a_rallied_crew_retreats_from_where_it_stands_and_checks() {
    // Rallied, a retreat result moves it from 1420 (12.92), then it checks
    // morale with Hudson's rating (12.95); failing, it routs from there.
    let mut t = melee_field();
    t.s.crews_rallied.insert(id("hudson"));
    let (after, events) = (0..200)
        .map(|s| melee_crew(&t, s))
        .find(|(_, e)| {
            e.iter().any(
                |x| matches!(x, GbacwEvent::CrewMoved { battery, .. } if *battery == id("hudson")),
            )
        })
        .expect("a retreat result within 200 seeds");
    let report = events
        .iter()
        .find_map(|e| match e {
            GbacwEvent::MeleeResolved(r) => Some(r.clone()),
            _ => None,
        })
        .unwrap();
    // 12.12: a full crew, not routed, melees at 1.
    assert_eq!(report.defence, 1);
    let moved = events
        .iter()
        .find_map(|e| match e {
            GbacwEvent::CrewMoved { path, .. } => Some(path.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        moved
            .first()
            .map(|h| t.rs.game.map.grid.distance(n("1420"), *h)),
        Some(1)
    );
    assert!(!moved.contains(&n("1423")));
    assert!(events.iter().any(|e| matches!(
        e,
        GbacwEvent::MoraleChecked { unit, rating: 4, .. } if *unit == id("hudson")
    )));
    if after.hex("hudson").is_some() {
        assert_eq!(after.hex("hudson"), Some(n("1423")));
        assert!(after.s.crews_away.contains_key(&id("hudson")));
    }
}
