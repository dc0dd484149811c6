//! Artillery through `decide` and `evolve`: exploding caissons (15.2), rounds
//! transferred between batteries (11.33).

use super::*;
use crate::gbacw::ruleset::state::FireShare;

/// 4 Me (Union, 6 guns) unlimbered two hexes from Aleghny (4 guns,
/// 15 rounds), both facing each other; offensive fire rolled with `seed`.
fn cannonade(seed: u64) -> (T, Vec<GbacwEvent>) {
    let mut t = T::empty();
    t.put("4-me", "0605", "n", Formation::Unlimbered);
    t.put("aleghny", "0805", "n", Formation::Unlimbered);
    t.face_towards("4-me", "0705");
    t.face_towards("aleghny", "0705");
    t.advance_to(UNION, Phase::OffensiveFire);
    t.ok(
        UNION,
        GbacwAction::DeclareFire {
            target: n("0805"),
            firers: vec![FireShare {
                unit: id("4-me"),
                points: 6,
            }],
        },
    );
    let (events, _) = t.roll(UNION, GbacwAction::EndPhase, seed);
    (t, events)
}

#[test]
fn case_15_2_guns_lost_to_artillery_roll_for_the_caissons() {
    let (mut rolled, mut exploded) = (false, false);
    for seed in 0..400 {
        let (t, events) = cannonade(seed);
        let hit = events
            .iter()
            .position(|e| matches!(e, GbacwEvent::UnitHit { unit, .. } if *unit == id("aleghny")));
        let caisson = events.iter().find_map(|e| match e {
            GbacwEvent::CaissonRolled {
                unit,
                die,
                rounds_lost,
            } if *unit == id("aleghny") => Some((*die, *rounds_lost)),
            _ => None,
        });
        let alive = t.s.units[&id("aleghny")].status.strength > 0;
        match (hit, caisson) {
            (Some(_), Some((die, lost))) => {
                rolled = true;
                assert!((1..=6).contains(&die));
                // A die of 1 hits a caisson: a second die of rounds lost.
                assert_eq!(lost > 0, die == 1, "seed {seed}");
                assert!(lost <= 6);
                assert_eq!(t.s.units[&id("aleghny")].status.rounds, 15 - lost);
                exploded |= lost > 0;
            }
            // Destroyed outright: no roll. No loss: no roll.
            (Some(_), None) => assert!(!alive, "seed {seed}: guns lost but no caisson roll"),
            (None, Some(_)) => panic!("seed {seed}: a caisson roll without a loss"),
            (None, None) => {}
        }
        if rolled && exploded {
            return;
        }
    }
    panic!("no seed both rolled for caissons and exploded one (rolled {rolled})");
}

/// 4 Me and a second battery like it ("4-me-b", 6 guns, TA) unlimbered in
/// adjacent hexes, at the Union Ammunition Resupply Phase of Game-Turn 1;
/// 4 Me down to 5 rounds, the other full.
fn two_batteries() -> T {
    let mut t = T::empty();
    let mut twin = t.rs.game.oob.units[&id("4-me")].clone();
    twin.id = id("4-me-b");
    twin.designation = "4 Me (b)".into();
    t.rs.game.oob.units.insert(id("4-me-b"), twin);
    let mut st = t.s.units[&id("4-me")].clone();
    st.hex = None;
    t.s.units.insert(id("4-me-b"), st);
    t.put("4-me", "0305", "ne", Formation::Unlimbered);
    t.put("4-me-b", "0306", "ne", Formation::Unlimbered);
    t.s.units.get_mut(&id("4-me")).unwrap().status.rounds = 5;
    // Where they stand as the Game-Turn begins (recorded by `evolve`).
    t.s.turn_start.clear();
    t.advance_to(UNION, Phase::AmmunitionResupply);
    t
}

fn transfer(from: &str, to: &str, rounds: u16) -> GbacwAction {
    GbacwAction::TransferRounds {
        from: id(from),
        to: id(to),
        rounds,
    }
}

#[test]
fn case_11_33_rounds_pass_between_batteries_that_stood_together_all_turn() {
    let mut t = two_batteries();
    assert_eq!(t.s.turn_start.get(&id("4-me-b")), Some(&n("0306")));
    assert!(
        t.rs.legal_actions(&t.s, UNION)
            .contains(&transfer("4-me-b", "4-me", 1))
    );
    // Never above the printed 20 rounds.
    t.refused(UNION, transfer("4-me-b", "4-me", 16), "GBACW 11.33");
    t.ok(UNION, transfer("4-me-b", "4-me", 7));
    assert_eq!(t.s.units[&id("4-me")].status.rounds, 12);
    assert_eq!(t.s.units[&id("4-me-b")].status.rounds, 13);
}

#[test]
fn case_11_33_not_after_firing_or_moving_nor_apart() {
    let mut t = two_batteries();
    t.s.fired_this_turn.insert(id("4-me-b"));
    t.refused(UNION, transfer("4-me-b", "4-me", 1), "GBACW 11.33");
    let mut t = two_batteries();
    t.s.turn_start.insert(id("4-me-b"), n("0206"));
    t.refused(UNION, transfer("4-me-b", "4-me", 1), "GBACW 11.33");
    let mut t = two_batteries();
    t.put("4-me-b", "0606", "ne", Formation::Unlimbered);
    t.s.turn_start.insert(id("4-me-b"), n("0606"));
    t.refused(UNION, transfer("4-me-b", "4-me", 1), "GBACW 11.33");
    // Only in the Ammunition Resupply Phase.
    let mut t = two_batteries();
    t.ok(UNION, GbacwAction::EndPhase);
    t.refused(UNION, transfer("4-me-b", "4-me", 1), "GBACW 11.33");
}

/// How many `RoundFired` events name `unit`.
fn rounds_fired(events: &[GbacwEvent], unit: &str) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, GbacwEvent::RoundFired { unit: u } if *u == id(unit)))
        .count()
}

/// GBACW 11.31: "Each time an artillery battery fires, it expends one
/// round of ammunition. When a battery splits its fire, it expends only
/// one round of ammunition." 4 Me (6 guns, 20 rounds) fires 4 guns at
/// 2 Va next to it and 2 guns at 10 Va ten hexes off in one Offensive
/// Fire Phase: one round, 20 -> 19.
#[test]
fn case_11_31_split_fire_spends_one_round() {
    let mut t = T::empty();
    t.put("4-me", "0105", "n", Formation::Unlimbered);
    t.put("2-va", "0205", "n", Formation::Line);
    t.face_towards("4-me", "0205");
    t.advance_to(UNION, Phase::OffensiveFire);
    t.ok(UNION, fire("0205", &[("4-me", 4)]));
    // The first hex ten away that 4 Me may fire at (its fire zone, 9.33,
    // and line of sight, 9.7).
    let far = (1..=12)
        .flat_map(|c| (1..=10).map(move |r| format!("{c:02}{r:02}")))
        .find(|h| {
            let mut probe = t.clone();
            probe.put("10-va", h, "n", Formation::Line);
            t.rs.game().map.grid.distance(n("0105"), n(h)) == 10
                && probe.decide(UNION, &fire(h, &[("4-me", 2)])).is_ok()
        })
        .expect("a hex ten away in 4 Me's fire zone");
    t.put("10-va", &far, "n", Formation::Line);
    t.ok(UNION, fire(&far, &[("4-me", 2)]));
    let (events, _) = t.roll(UNION, GbacwAction::EndPhase, 1);
    assert_eq!(fire_reports(&events).len(), 2, "both attacks rolled");
    assert_eq!(rounds_fired(&events, "4-me"), 1, "{events:?}");
    assert_eq!(t.s.units[&id("4-me")].status.rounds, 19);
}

/// GBACW 15.0: "once an artillery unit has moved, it may not fire.
/// However, if an artillery unit does not move but changes formation
/// (from limbered to unlimbered), it may fire." 4 Me, limbered, moves one
/// hex and unlimbers: its fire at Aleghny is refused; unlimbering in place,
/// it fires.
#[test]
fn case_15_0_a_battery_that_moved_may_not_fire() {
    let setup = || {
        let mut t = T::empty();
        t.put("4-me", "0105", "n", Formation::Limbered);
        // A battery to fire at: no small arms to fire as 4 Me unlimbers (6.23).
        t.put("aleghny", "0405", "n", Formation::Unlimbered);
        t.face_towards("4-me", "0205");
        t.advance_to(UNION, Phase::Movement);
        t
    };
    let unlimber = GbacwAction::ChangeFormation {
        unit: id("4-me"),
        to: Formation::Unlimbered,
    };
    let mut moved = setup();
    moved.mv(UNION, &["4-me"], &["0205"]);
    moved.face_towards("4-me", "0305");
    moved.ok(UNION, unlimber.clone());
    moved.advance_to(UNION, Phase::OffensiveFire);
    let e = moved.refused(UNION, fire("0405", &[("4-me", 6)]), "GBACW 15.0");
    assert!(e.message.contains("4 Me"), "{e}");
    assert!(
        !e.message.contains("4-me"),
        "the printed name, not the id: {e}"
    );
    let mut stood = setup();
    stood.put("4-me", "0205", "n", Formation::Limbered);
    stood.face_towards("4-me", "0305");
    stood.ok(UNION, unlimber);
    stood.advance_to(UNION, Phase::OffensiveFire);
    stood.ok(UNION, fire("0405", &[("4-me", 6)]));
}
