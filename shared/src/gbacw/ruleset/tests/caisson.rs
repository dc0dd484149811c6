//! Exploding caissons (15.2) through `decide` and `evolve`.

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
