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

/// The rallied crew in 1420, in 52 Ill's ZOC (52 Ill in 1419 facing it),
/// on the Confederate Movement Phase: `MoveCrew` 1421, 1422 (toward its
/// guns in 1423) halts for withdrawal fire. The field and the offer.
fn leaving_field() -> (T, Vec<GbacwEvent>) {
    let mut t = fire_field();
    t.s.crews_rallied.insert(id("hudson"));
    at_phase(&mut t, REBEL, Phase::Movement);
    let events = t.ok(REBEL, move_crew(&["1421", "1422"]));
    (t, events)
}

fn withdrawal_fire_on_crew(t: &T, seed: u64) -> (T, Vec<GbacwEvent>) {
    let mut x = T {
        rs: t.rs.clone(),
        s: t.s.clone(),
        script: Default::default(),
    };
    let firers = vec![id("52-ill")];
    let (events, _) = x.roll(UNION, GbacwAction::WithdrawalFire { firers }, seed);
    (x, events)
}

#[test]
fn corinth_24_21_and_case_10_1_a_crew_leaving_an_enemy_zoc_draws_withdrawal_fire() {
    let (t, events) = leaving_field();
    // 10.1: the move halts in 1420; the Union seat is offered the fire,
    // through the engine's one decision (`Resume::CrewMove`).
    let [GbacwEvent::WithdrawalFireOffered(d)] = events.as_slice() else {
        panic!("one offer: {events:?}");
    };
    assert_eq!(d.seat, UNION);
    assert_eq!(d.hex, n("1420"));
    assert_eq!(d.targets, vec![id("hudson")]);
    assert_eq!(d.firers, vec![id("52-ill")]);
    assert_eq!(d.toward, Some(n("1421")));
    assert_eq!(t.s.crews_away.get(&id("hudson")), Some(&n("1420")));
    assert!(t.s.decision.is_some());
    // The answers are among the candidates; the mover waits.
    let legal = t.rs.legal_actions(&t.s, UNION);
    assert!(
        legal
            .iter()
            .any(|a| matches!(a, GbacwAction::WithdrawalFire { .. }))
    );
    let mut wait = T {
        rs: t.rs.clone(),
        s: t.s.clone(),
        script: Default::default(),
    };
    assert!(wait.decide(REBEL, &GbacwAction::EndPhase).is_err());
    // Declined: the move goes on to 1422 (no other ZOC on the way).
    let e = wait.ok(UNION, GbacwAction::DeclineWithdrawalFire);
    assert!(e.contains(&GbacwEvent::CrewMoved {
        battery: id("hudson"),
        path: vec![n("1421"), n("1422")],
        rejoined: false,
    }));
    assert_eq!(wait.s.crews_away.get(&id("hudson")), Some(&n("1422")));
    assert!(wait.s.decision.is_none());
}

#[test]
fn corinth_24_21_and_case_10_15_withdrawal_fire_on_a_crew_pins_routs_or_lets_it_go_on() {
    let (t, _) = leaving_field();
    let runs: Vec<(T, Vec<GbacwEvent>)> =
        (0..300).map(|s| withdrawal_fire_on_crew(&t, s)).collect();
    // Fired on as Line infantry at its battery's morale (4), at once (10.11).
    for (x, e) in &runs {
        assert!(x.s.decision.is_none());
        assert!(
            e.iter()
                .any(|y| matches!(y, GbacwEvent::WithdrawalFireAnswered))
        );
    }
    // 10.15: pinned, it moves one hex (1421) and is pinned there.
    let (pinned_run, _) = runs
        .iter()
        .find(|(x, _)| pinned(x) && x.s.crews_rallied.contains(&id("hudson")))
        .expect("a pin within 300 seeds");
    assert_eq!(pinned_run.s.crews_away.get(&id("hudson")), Some(&n("1421")));
    // Routed by the check (13.31): three hexes from 1420, its move dropped.
    let (routed_run, _) = runs
        .iter()
        .find(|(_, e)| e.iter().any(|y| matches!(y, GbacwEvent::CrewRouted { .. })))
        .expect("a rout within 300 seeds");
    let away = *routed_run
        .s
        .crews_away
        .get(&id("hudson"))
        .expect("still away");
    assert_eq!(routed_run.rs.game.map.grid.distance(n("1420"), away), 3);
    assert!(!routed_run.s.crews_rallied.contains(&id("hudson")));
    // A small-arms casualty costs it a step (9.82).
    assert!(runs.iter().any(|(x, _)| {
        x.s.units
            .get(&id("hudson"))
            .is_some_and(|u| u.status.crew == crate::gbacw::oob::Crew::Half)
    }));
    // Unhurt and unshaken, it goes on to 1422.
    let (on, _) = runs
        .iter()
        .find(|(x, _)| {
            !pinned(x)
                && x.s.crews_rallied.contains(&id("hudson"))
                && x.s.units[&id("hudson")].status.crew == crate::gbacw::oob::Crew::Full
        })
        .expect("no effect within 300 seeds");
    assert_eq!(on.s.crews_away.get(&id("hudson")), Some(&n("1422")));
}

/// The routed crew in 1420 routs on along 1521, 1621, 1722 (the way its
/// rout search takes from 52 Ill's fire, seed 17 of `fire_on_crew`), with
/// 26 Ill in 1721 facing 1621: entering 26 Ill's ZOC in 1621 it halts and
/// the Union seat is offered retreat fire. The rout search shuns enemy
/// ZOCs while another way exists (14.2, `retreat/paths.rs`), so the path
/// is handed to `rout_along`, which every crew rout goes through
/// (`rout_crew`, `crews::abandon`).
fn routing_field() -> (T, Vec<GbacwEvent>) {
    let mut t = fire_field();
    t.corinth_unit("26-ill", "1721", Formation::Line);
    t.face_towards("26-ill", "1621");
    let mut u = crate::gbacw::ruleset::combat::Unfold::new(&t.s);
    let path = [n("1521"), n("1621"), n("1722")];
    crate::gbacw::ruleset::corinth::crew_piece::rout_along(
        &t.rs,
        &mut u,
        &id("hudson"),
        n("1420"),
        &path,
        Vec::new(),
        None,
    );
    for e in &u.events {
        t.rs.evolve(&mut t.s, e);
    }
    (t, u.events)
}

#[test]
fn corinth_24_21_and_case_10_2_a_routing_crew_entering_an_enemy_zoc_draws_retreat_fire() {
    let (t, events) = routing_field();
    // It halts in 1621; 52 Ill, whose ZOC held 1420, caused the rout and
    // is not offered (10.2 "other than the unit which caused the retreat").
    assert_eq!(
        events[0],
        GbacwEvent::CrewRouted {
            battery: id("hudson"),
            path: vec![n("1521"), n("1621")],
        }
    );
    let GbacwEvent::RetreatFireOffered(o) = &events[1] else {
        panic!("an offer: {events:?}");
    };
    assert_eq!(o.seat, UNION);
    assert_eq!(o.unit, id("hudson"));
    assert_eq!(o.hex, n("1621"));
    assert_eq!(o.firers, vec![id("26-ill")]);
    assert_eq!(o.rest, vec![n("1722")]);
    assert_eq!(t.s.crews_away.get(&id("hudson")), Some(&n("1621")));
    let legal = t.rs.legal_actions(&t.s, UNION);
    assert!(
        legal
            .iter()
            .any(|a| matches!(a, GbacwAction::RetreatFire { .. }))
    );
    // Declined: the rout goes on to 1722 (26 Ill already seen it).
    let mut declined = T {
        rs: t.rs.clone(),
        s: t.s.clone(),
        script: Default::default(),
    };
    declined.ok(UNION, GbacwAction::DeclineRetreatFire);
    assert_eq!(declined.s.crews_away.get(&id("hudson")), Some(&n("1722")));
    assert!(declined.s.retreat_fire.is_empty());
    // Fired on: as Line infantry at range 1; a casualty costs it a step
    // but it does not rout again (10.2), and it goes on to 1722.
    let runs: Vec<(T, Vec<GbacwEvent>)> = (0..200)
        .map(|seed| {
            let mut x = T {
                rs: t.rs.clone(),
                s: t.s.clone(),
                script: Default::default(),
            };
            let firers = vec![id("26-ill")];
            let (e, _) = x.roll(UNION, GbacwAction::RetreatFire { firers }, seed);
            (x, e)
        })
        .collect();
    let (hurt, e) = runs
        .iter()
        .find(|(_, e)| e.iter().any(|y| matches!(y, GbacwEvent::CrewHit { .. })))
        .expect("a casualty within 200 seeds");
    assert!(
        e.iter()
            .any(|y| matches!(y, GbacwEvent::FireResolved(r) if r.target == n("1621")))
    );
    assert_eq!(
        hurt.s.units[&id("hudson")].status.crew,
        crate::gbacw::oob::Crew::Half
    );
    assert_eq!(hurt.s.crews_away.get(&id("hudson")), Some(&n("1722")));
    assert!(
        e.iter()
            .filter(|y| matches!(y, GbacwEvent::CrewRouted { .. }))
            .all(|y| *y
                == GbacwEvent::CrewRouted {
                    battery: id("hudson"),
                    path: vec![n("1722")],
                })
    );
    for (x, _) in &runs {
        assert!(x.s.retreat_fire.is_empty());
    }
}
