//! Corinth's battery crews (24.21–24.23) and the brigade retreat's
//! withdrawal fire and batteries (25.23, 25.26), through `decide` and
//! `evolve`, on corinth_melee's field: Rust's brigade broken around
//! 1325, 52 Ill (Hackleman) in 1326, the Union Melee Phase.

use super::corinth_melee::{brigade_field, check_9_ark, retreated};
use super::*;
use crate::gbacw::oob::Marker;
use crate::gbacw::ruleset::state::Resume;

pub(super) fn copy(t: &T) -> T {
    T {
        rs: t.rs.clone(),
        s: t.s.clone(),
        script: Default::default(),
    }
}

/// The first seed (of 200) whose check of 9 Ark sets Rust's brigade
/// retreating, with the events, applied to `t`.
pub(super) fn brigade_retreat(t: &mut T) -> (u64, Vec<GbacwEvent>) {
    let (seed, events) = (0..200)
        .map(|s| (s, check_9_ark(t, s)))
        .find(|(_, e)| {
            e.iter()
                .any(|x| matches!(x, GbacwEvent::BrigadeRetreated { .. }))
        })
        .expect("9 Ark (morale 4, +1 of 25.11) fails a check within 200 seeds");
    for e in &events {
        t.rs.evolve(&mut t.s, e);
    }
    (seed, events)
}

/// The brigade retreat waiting for 52 Ill's withdrawal fire on 7 Ky.
pub(super) fn fire_offered() -> T {
    let mut t = brigade_field();
    let (seed, _) = brigade_retreat(&mut t);
    let d = t.s.decision.clone().expect("withdrawal fire offered");
    assert_eq!(d.seat, UNION, "seed {seed}");
    assert_eq!(d.hex, n("1425"));
    assert_eq!(d.targets, ids(&["7-ky"]));
    assert_eq!(d.firers, ids(&["52-ill"]));
    assert!(
        matches!(&d.resume, Resume::BrigadeRetreat { unit, check: true, .. } if unit.0 == "7-ky")
    );
    t
}

pub(super) fn checked(events: &[GbacwEvent], unit: &str) -> bool {
    events
        .iter()
        .any(|e| matches!(e, GbacwEvent::MoraleChecked { unit: u, .. } if *u == id(unit)))
}

#[test]
fn corinth_25_23_leaving_an_enemy_zoc_in_brigade_retreat_draws_withdrawal_fire() {
    let t = fire_offered();
    // 7 Ky waits in 52 Ill's ZOC for the answer (10.1: before it leaves).
    assert_eq!(t.hex("7-ky"), Some(n("1425")));
    // Declined (the default): two hexes and the morale check of 25.2.
    let mut declined = copy(&t);
    let (events, _) = declined.roll(UNION, GbacwAction::DeclineWithdrawalFire, 1);
    assert_eq!(retreated(&events, "7-ky"), Some(2));
    assert!(checked(&events, "7-ky"));
    assert!(declined.s.decision.is_none());
    // Only the enemy seat answers.
    t.refused(REBEL, GbacwAction::DeclineWithdrawalFire, "GBACW 10.1");
    // Fired on and neither pinned nor routed: two hexes and the check.
    let unhurt = (0..200)
        .map(|s| {
            let mut x = copy(&t);
            let fire = GbacwAction::WithdrawalFire {
                firers: ids(&["52-ill"]),
            };
            let (e, _) = x.roll(UNION, fire, s);
            (x, e)
        })
        .find(|(x, _)| x.s.units[&id("7-ky")].status.markers.is_empty())
        .expect("a shot that leaves 7 Ky unmarked");
    assert_eq!(retreated(&unhurt.1, "7-ky"), Some(2));
    assert!(checked(&unhurt.1, "7-ky"));
}

#[test]
fn corinth_25_23_pinned_by_the_fire_it_retreats_one_hex_pinned_and_checks_morale() {
    let t = fire_offered();
    let (seed, x, events) = (0..400)
        .map(|s| {
            let mut x = copy(&t);
            let fire = GbacwAction::WithdrawalFire {
                firers: ids(&["52-ill"]),
            };
            let (e, _) = x.roll(UNION, fire, s);
            (s, x, e)
        })
        .find(|(_, _, e)| {
            // Pinned (the pin 10.15 holds back), not routed by the fire.
            !e.iter().any(|x| {
                matches!(x, GbacwEvent::MarkersSet { unit, markers }
                    if unit.0 == "7-ky" && markers.contains(&Marker::Rout))
            }) && e.iter().any(|x| {
                matches!(x, GbacwEvent::MarkersSet { unit, markers }
                    if unit.0 == "7-ky" && markers.contains(&Marker::Pin))
            })
        })
        .expect("a shot that pins 7 Ky within 400 seeds");
    // One hex, then the pin, then the morale check of 25.23.
    let moved = events.iter().position(
        |e| matches!(e, GbacwEvent::UnitRetreated { unit, path } if unit.0 == "7-ky" && path.len() == 1),
    );
    let pinned = events.iter().position(|e| {
        matches!(e, GbacwEvent::MarkersSet { unit, markers }
            if unit.0 == "7-ky" && markers.contains(&Marker::Pin))
    });
    let check = events
        .iter()
        .rposition(|e| matches!(e, GbacwEvent::MoraleChecked { unit, .. } if unit.0 == "7-ky"));
    assert!(
        moved.is_some() && moved < pinned && pinned < check,
        "seed {seed}: {events:#?}"
    );
    assert_eq!(retreated(&events, "7-ky"), Some(1));
    assert_eq!(
        x.s.units[&id("7-ky")].status.markers.contains(&Marker::Pin),
        x.hex("7-ky").is_some()
    );
}

#[test]
fn corinth_25_23_without_its_hook_the_brigade_retreat_draws_no_fire() {
    let mut t = brigade_field();
    t.rs.game
        .scenario
        .hooks
        .retain(|h| h.kind != crate::gbacw::scenario::HookKind::BrigadeRetreatFire);
    let (_, events) = brigade_retreat(&mut t);
    assert!(t.s.decision.is_none());
    assert_eq!(retreated(&events, "7-ky"), Some(2));
}

// --- Corinth 25.26: the brigade's batteries may retreat --------------------

/// The brigade field with Rust's battery Hudson unlimbered in 1423 (in
/// Rust's radius), the brigade retreat set off and 25.23's shot on 7 Ky
/// declined: Hudson's owner is asked.
fn batteries_offered() -> T {
    let mut t = brigade_field();
    t.corinth_unit("hudson", "1423", Formation::Unlimbered);
    brigade_retreat(&mut t);
    t.roll(UNION, GbacwAction::DeclineWithdrawalFire, 1);
    answer_the_rest(&mut t);
    t
}

/// The decisions waiting before the batteries' (the routed units' paths,
/// 14.4; retreat fire, 10.2), each answered with its default.
fn answer_the_rest(t: &mut T) {
    for _ in 0..20 {
        let Some(d) =
            t.rs.pending(&t.s)
                .into_iter()
                .next()
                .filter(|d| d.rule != "Corinth 25.26")
        else {
            return;
        };
        t.roll(d.seat, d.default, 1);
    }
    panic!("decisions without end");
}

#[test]
fn corinth_25_26_the_batteries_of_a_retreating_brigade_are_offered_the_retreat() {
    let t = batteries_offered();
    let o =
        t.s.battery_retreat
            .clone()
            .expect("Hudson offered the retreat");
    assert_eq!(o.seat, REBEL);
    assert_eq!(o.brigade, id("rust"));
    assert_eq!(o.batteries, ids(&["hudson"]));
    // A pending decision for the Confederate seat, staying by default.
    let p = t.rs.pending(&t.s);
    let d = p
        .iter()
        .find(|d| d.rule == "Corinth 25.26")
        .expect("pending");
    assert_eq!(d.seat, REBEL);
    assert_eq!(d.default, GbacwAction::DeclineBatteryRetreat);
    assert_eq!(t.rs.acting_seat(&t.s), Some(REBEL));
    // The Union may not answer, nor the Confederates do anything else.
    t.refused(UNION, GbacwAction::DeclineBatteryRetreat, "Corinth 25.26");
    t.refused(REBEL, GbacwAction::EndPhase, "Corinth 25.26");
    t.refused(
        REBEL,
        GbacwAction::RetreatBatteries {
            batteries: ids(&["9-ark"]),
        },
        "Corinth 25.26",
    );
    // Declined (not mandatory): Hudson stays, unlimbered.
    let mut stay = copy(&t);
    stay.ok(REBEL, GbacwAction::DeclineBatteryRetreat);
    assert!(stay.s.battery_retreat.is_none());
    assert_eq!(stay.hex("hudson"), Some(n("1423")));
    assert_eq!(
        stay.s.units[&id("hudson")].status.formation,
        Formation::Unlimbered
    );
}

#[test]
fn corinth_25_26_an_unlimbered_battery_limbers_to_retreat_with_its_brigade() {
    let mut t = batteries_offered();
    let (events, _) = t.roll(
        REBEL,
        GbacwAction::RetreatBatteries {
            batteries: ids(&["hudson"]),
        },
        3,
    );
    // 25.26: limbered (out of its Movement Phase), then 25.2's two hexes
    // and morale check.
    let limbered = events.iter().position(|e| {
        matches!(e, GbacwEvent::FormationChanged { unit, to: Formation::Limbered, .. } if unit.0 == "hudson")
    });
    assert!(limbered.is_some(), "{events:#?}");
    assert_eq!(retreated(&events, "hudson"), Some(2));
    assert!(checked(&events, "hudson"));
    assert_ne!(t.hex("hudson"), Some(n("1423")));
    assert!(t.s.battery_retreat.is_none());
}

#[test]
fn corinth_25_26_pinned_or_abandoned_batteries_stay_and_without_the_hook_none_are_offered() {
    // 25.22: a pinned battery is not offered.
    let mut t = brigade_field();
    t.corinth_unit("hudson", "1423", Formation::Unlimbered);
    t.s.units
        .get_mut(&id("hudson"))
        .unwrap()
        .status
        .markers
        .insert(Marker::Pin);
    brigade_retreat(&mut t);
    t.roll(UNION, GbacwAction::DeclineWithdrawalFire, 1);
    answer_the_rest(&mut t);
    assert!(t.s.battery_retreat.is_none());
    // 24.21: guns whose crew is away cannot go.
    let mut t = brigade_field();
    t.corinth_unit("hudson", "1423", Formation::Unlimbered);
    t.s.units
        .get_mut(&id("hudson"))
        .unwrap()
        .status
        .markers
        .insert(Marker::Rout);
    brigade_retreat(&mut t);
    t.roll(UNION, GbacwAction::DeclineWithdrawalFire, 1);
    answer_the_rest(&mut t);
    assert!(t.s.battery_retreat.is_none());
    assert_eq!(t.hex("hudson"), Some(n("1423")));
    // Without 25.26's hook the batteries simply stay.
    let mut t = brigade_field();
    t.rs.game
        .scenario
        .hooks
        .retain(|h| h.kind != crate::gbacw::scenario::HookKind::BrigadeRetreatBatteries);
    t.corinth_unit("hudson", "1423", Formation::Unlimbered);
    brigade_retreat(&mut t);
    t.roll(UNION, GbacwAction::DeclineWithdrawalFire, 1);
    answer_the_rest(&mut t);
    assert!(t.s.battery_retreat.is_none());
}

// --- Corinth 24.21–24.23: battery crews ------------------------------------

/// Hudson (Rust's battery, morale 4, +1 of 25.11) unlimbered in 1423 on
/// the brigade field; its morale check (a melee "R" or 25.2 check, 13.2)
/// with dice seeded by `seed`: the events.
fn check_hudson(t: &T, seed: u64) -> Vec<GbacwEvent> {
    use crate::gbacw::ruleset::combat::{Roller, Unfold, effects::check_morale};
    let stream = crate::dice::DiceStream::from_seed(&seed.to_le_bytes());
    let mut dice = Dice::from_stream(stream);
    let mut u = Unfold::new(&t.s);
    let mut roll = Roller::new(&mut dice);
    check_morale(&t.rs, &mut u, &mut roll, &id("hudson"));
    roll.finish().unwrap();
    u.events
}

fn hudson_field() -> T {
    let mut t = brigade_field();
    t.corinth_unit("hudson", "1423", Formation::Unlimbered);
    t
}

/// Hudson's crew routed away (the first failing seed), applied.
fn crew_away() -> T {
    let mut t = hudson_field();
    let events = (0..200)
        .map(|s| check_hudson(&t, s))
        .find(|e| {
            e.iter()
                .any(|x| matches!(x, GbacwEvent::MoraleChecked { failed: true, .. }))
        })
        .expect("Hudson fails a check within 200 seeds");
    for e in &events {
        t.rs.evolve(&mut t.s, e);
    }
    t
}

#[test]
fn corinth_24_21_a_routed_crew_abandons_its_guns_under_the_crew_marker() {
    let t = crew_away();
    // The guns stay, unlimbered, under the Crew marker (the Rout marker:
    // 13.32, they do not fire).
    assert_eq!(t.hex("hudson"), Some(n("1423")));
    let st = &t.s.units[&id("hudson")].status;
    assert_eq!(st.formation, Formation::Unlimbered);
    assert!(st.markers.contains(&Marker::Rout));
    // The crew routed three hexes away on its own (13.31, 6.13).
    let away = *t.s.crews_away.get(&id("hudson")).expect("the crew is away");
    assert_eq!(t.rs.game.map.grid.distance(n("1423"), away), 3);
    // Abandoned guns neither fire withdrawal fire nor hold a ZOC.
    let board = crate::gbacw::ruleset::board::Board::new(&t.rs, &t.s);
    let zocs = board.withdrawal_zocs(&crate::gbacw::oob::CounterId("union".into()), false);
    assert!(!zocs.values().flatten().any(|f| *f == id("hudson")));
    // Hit again, the guns still never rout (13.25): they do not move.
    let again = check_hudson(&t, 0);
    assert!(!again.iter().any(|e| matches!(
        e,
        GbacwEvent::UnitRetreated { .. } | GbacwEvent::RetreatOrdered(_)
    )));
    // Without the hook the crew routs away all the same: GBACW 15.16 is
    // the Standard Rules' (before, the engine held it at its guns).
    let mut t = hudson_field();
    t.rs.game
        .scenario
        .hooks
        .retain(|h| h.kind != crate::gbacw::scenario::HookKind::CrewRout);
    assert!((0..50).any(|s| {
        check_hudson(&t, s)
            .iter()
            .any(|e| matches!(e, GbacwEvent::CrewRouted { .. }))
    }));
}

#[test]
fn corinth_24_21_a_crew_routed_away_rallies_by_die_where_it_stands() {
    let mut t = crew_away();
    // The Confederate Rally Phase of this Game-Turn (set directly: the
    // phases between would ask the case's lone leaders to move, 17.52).
    use crate::gbacw::sequence::{PlayerTurn, Step};
    let player = [PlayerTurn::First, PlayerTurn::Second]
        .into_iter()
        .find(|p| t.rs.side_of_turn(*p) == t.rs.side_of(REBEL))
        .unwrap();
    t.s.clock.step = Step::Phase {
        player,
        phase: Phase::Rally,
    };
    let away = *t.s.crews_away.get(&id("hudson")).expect("the crew is away");
    // 13.54: the crew rallies by a die (morale 4) where it stands; the
    // Crew marker stays on the guns until it walks back (corinth_crews.rs).
    let (seed, x) = (0..100)
        .map(|s| {
            let mut x = copy(&t);
            x.roll(REBEL, GbacwAction::Rally { unit: id("hudson") }, s);
            (s, x)
        })
        .find(|(_, x)| x.s.crews_rallied.contains(&id("hudson")))
        .expect("the crew rallies within 100 seeds");
    assert_eq!(
        x.s.crews_away.get(&id("hudson")),
        Some(&away),
        "seed {seed}"
    );
    assert!(
        x.s.units[&id("hudson")]
            .status
            .markers
            .contains(&Marker::Rout)
    );
    // A failed rally leaves the crew away and routed.
    let failed = (0..100)
        .map(|s| {
            let mut x = copy(&t);
            x.roll(REBEL, GbacwAction::Rally { unit: id("hudson") }, s);
            x
        })
        .find(|x| !x.s.crews_rallied.contains(&id("hudson")))
        .expect("a failed rally within 100 seeds");
    assert!(failed.s.crews_away.contains_key(&id("hudson")));
}

#[test]
fn corinth_24_22_guns_lost_with_the_crew_away_take_the_crew_with_them() {
    let mut t = crew_away();
    // The abandoned guns captured (12.92: an "R" on unlimbered guns).
    let e = GbacwEvent::UnitRemoved {
        unit: id("hudson"),
        captured: true,
    };
    t.rs.evolve(&mut t.s, &e);
    assert!(t.s.crews_away.is_empty());
    assert_eq!(t.hex("hudson"), None);
    // 24.22: never re-crewed; captured, its guns count for the victor.
    assert_eq!(t.s.units[&id("hudson")].captured, 6);
}

#[test]
fn corinth_24_23_a_half_crew_routs_and_keeps_its_step() {
    let mut t = hudson_field();
    t.s.units.get_mut(&id("hudson")).unwrap().status.crew = crate::gbacw::oob::Crew::Half;
    let events = (0..200)
        .map(|s| check_hudson(&t, s))
        .find(|e| e.iter().any(|x| matches!(x, GbacwEvent::CrewRouted { .. })))
        .expect("the half crew routs within 200 seeds");
    for e in &events {
        t.rs.evolve(&mut t.s, e);
    }
    assert_eq!(
        t.s.units[&id("hudson")].status.crew,
        crate::gbacw::oob::Crew::Half
    );
}

#[test]
fn corinth_24_22_guns_count_for_victory_only_captured_or_destroyed_not_with_a_lost_crew() {
    let t = hudson_field();
    let batteries = |t: &T| t.rs.tally(&t.s).expect("Corinth keeps a tally").batteries;
    let before = batteries(&t);
    let after = |events: &[GbacwEvent]| {
        let mut x = copy(&t);
        for e in events {
            x.rs.evolve(&mut x.s, e);
        }
        batteries(&x)
    };
    let removed = |captured| GbacwEvent::UnitRemoved {
        unit: id("hudson"),
        captured,
    };
    // The crew lost (15.12: a half crew hit again), the guns left: no VP.
    assert_eq!(after(&[removed(false)]), before);
    // Captured, or every gun destroyed by enemy fire: the guns count.
    assert_ne!(after(&[removed(true)]), before);
    let destroyed = GbacwEvent::UnitHit {
        unit: id("hudson"),
        points: 6,
    };
    assert_ne!(after(&[destroyed, removed(false)]), before);
    // Without the hook (the Standard Rules) a battery gone is guns lost.
    let mut t = copy(&t);
    t.rs.game
        .scenario
        .hooks
        .retain(|h| h.kind != crate::gbacw::scenario::HookKind::CrewLossKeepsGuns);
    let before = batteries(&t);
    t.rs.evolve(&mut t.s, &removed(false));
    assert_ne!(batteries(&t), before);
}
