//! Artillery against the test order of battle and shipped charts.

use super::*;
use crate::gbacw::fire::{FireOccasion, may_fire, unit_fire_strength};
use crate::gbacw::melee::{MeleeRole, Opponents, unit_melee_strength};
use crate::gbacw::oob::{Crew, Formation};
use crate::gbacw::testkit::{dice, id, world};

#[test]
fn case_15_0_artillery_moves_or_fires_not_both() {
    assert_eq!(may_do(Activity::Fire, true, false), Err("GBACW 15.0"));
    assert_eq!(may_do(Activity::Move, false, true), Err("GBACW 15.0"));
    // Unlimbering in place is not a move: it may still fire.
    assert_eq!(may_do(Activity::Fire, false, false), Ok(()));
    assert_eq!(may_do(Activity::Move, false, false), Ok(()));
}

#[test]
fn case_6_32_limbered_artillery_may_not_fire() {
    let w = world();
    let u = w.unit("4-me");
    let limbered = w.status("4-me", Formation::Limbered);
    assert_eq!(
        may_fire(&u, &limbered, &w.charts.range, FireOccasion::Defensive),
        Err("GBACW 6.32")
    );
    let unlimbered = w.status("4-me", Formation::Unlimbered);
    assert_eq!(
        may_fire(&u, &unlimbered, &w.charts.range, FireOccasion::Defensive),
        Ok(())
    );
}

#[test]
fn case_9_13_artillery_fires_with_guns_and_melees_with_its_crew() {
    let w = world();
    let wpn = w.charts.range.weapon("TA").unwrap();
    let full = unit_fire_strength(wpn, 6, 2, Crew::Full).unwrap();
    let half = unit_fire_strength(wpn, 6, 2, Crew::Half).unwrap();
    assert_eq!(half.whole(), full.whole().div_ceil(2));
    let u = w.unit("4-me");
    let mut s = w.status("4-me", Formation::Unlimbered);
    let m = |s: &crate::gbacw::oob::UnitStatus| {
        unit_melee_strength(&u, s, MeleeRole::Defender, Opponents::default())
    };
    assert_eq!(m(&s), 1);
    s.crew = Crew::Half;
    assert_eq!(m(&s), 0);
}

#[test]
fn case_15_11_artillery_fire_kills_guns_not_crew() {
    let w = world();
    let mut s = w.status("4-me", Formation::Unlimbered);
    let hit = hit_battery(&mut s, 2, true);
    assert_eq!(
        (hit.guns_lost, hit.crew_steps_lost, s.strength, s.crew),
        (2, 0, 4, Crew::Full)
    );
    assert!(!hit.eliminated);
}

#[test]
fn case_9_82_small_arms_hit_the_crew_half_then_gone() {
    let w = world();
    let mut s = w.status("4-me", Formation::Unlimbered);
    let hit = hit_battery(&mut s, 1, false);
    assert_eq!(
        (hit.crew_steps_lost, s.crew, s.strength),
        (1, Crew::Half, 6)
    );
    let hit = hit_battery(&mut s, 3, false);
    assert_eq!(hit.crew_steps_lost, 1);
    assert!(hit.eliminated);
}

#[test]
fn case_15_12_two_crew_steps_then_the_battery_is_removed() {
    let w = world();
    let mut s = w.status("aleghny", Formation::Unlimbered);
    let hit = hit_battery(&mut s, 2, false);
    assert_eq!((hit.crew_steps_lost, s.crew), (2, Crew::None));
    assert!(hit.eliminated);
    // Guns all gone to artillery also ends the battery.
    let mut s = w.status("aleghny", Formation::Unlimbered);
    assert!(hit_battery(&mut s, 9, true).eliminated);
    assert_eq!(s.strength, 0);
}

#[test]
fn case_15_15_gun_crews_are_never_replaced() {
    let w = world();
    assert!(!crew_replaceable(&w.unit("4-me").kind));
    assert!(crew_replaceable(&w.unit("supply-u").kind));
}

#[test]
fn case_15_16_unlimbered_crew_routs_alone_limbered_battery_whole() {
    let w = world();
    assert_eq!(
        rout_battery(&w.status("4-me", Formation::Unlimbered)),
        BatteryRout::CrewOnly
    );
    assert_eq!(
        rout_battery(&w.status("4-me", Formation::Limbered)),
        BatteryRout::Whole
    );
}

#[test]
fn case_13_25_unlimbered_guns_never_rout() {
    let w = world();
    // The crew goes; the guns (the counter) stay in the hex.
    assert_ne!(
        rout_battery(&w.status("aleghny", Formation::Unlimbered)),
        BatteryRout::Whole
    );
}

#[test]
fn case_15_2_caisson_hit_on_a_one_loses_a_die_of_rounds() {
    assert_eq!(caisson_rounds_lost(1, 15, dice(&[1, 4])), 4);
    assert_eq!(caisson_rounds_lost(1, 15, dice(&[2, 4])), 0);
    assert_eq!(caisson_rounds_lost(0, 15, dice(&[1, 4])), 0);
    assert_eq!(caisson_rounds_lost(2, 3, dice(&[1, 6])), 3);
}

#[test]
fn case_8_22_artillery_at_three_hexes_rolls_per_unit_top_first() {
    let stack = [id("5-conn"), id("10-me"), id("pa-zd")];
    assert_eq!(artillery_rolls(true, 3, &stack), stack.to_vec());
    assert_eq!(artillery_rolls(true, 2, &stack), vec![id("5-conn")]);
    assert_eq!(artillery_rolls(false, 5, &stack), vec![id("5-conn")]);
    assert!(artillery_rolls(true, 4, &[]).is_empty());
}
