//! Ammunition against the test order of battle and the shipped 11.34 table.

use super::*;
use crate::gbacw::facing::{ZocUse, exerts_zoc};
use crate::gbacw::fire::{FireOccasion, may_fire};
use crate::gbacw::oob::{Crew, Formation, Marker, UnitKind};
use crate::gbacw::tables::{AmmoLoss, FireResult};
use crate::gbacw::testkit::{dice, id, world};
use std::collections::BTreeMap;

#[test]
fn case_11_0_depleted_units_keep_zoc_only_for_supply_and_leaders() {
    let w = world();
    let mut s = w.status("5-conn", Formation::Line);
    s.markers.insert(Marker::AmmoDepleted);
    assert!(exerts_zoc(
        s.formation,
        &s.markers,
        ZocUse::SupplyAndCommand
    ));
    assert!(!exerts_zoc(
        s.formation,
        &s.markers,
        ZocUse::WithdrawalAndRetreat {
            mover_mounted: false
        }
    ));
    assert_eq!(
        may_fire(
            &w.unit("5-conn"),
            &s,
            &w.charts.range,
            FireOccasion::Defensive
        ),
        Err("GBACW 11.22")
    );
}

#[test]
fn case_11_2_small_arms_units_risk_depletion_whenever_they_fire() {
    let firers = [
        (id("5-conn"), UnitKind::Infantry),
        (id("4-me"), UnitKind::Battery { rounds: 20 }),
        (id("1-nj-c"), UnitKind::Cavalry),
    ];
    // A 1 on the CRT: the two small-arms firers roll (2 and 3); the battery does not.
    let out = depleted_after_fire(1, &firers, dice(&[2, 3]));
    assert_eq!(out, vec![&id("5-conn")]);
    // Any other CRT die: no roll at all.
    assert!(depleted_after_fire(2, &firers, dice(&[1])).is_empty());
}

#[test]
fn case_8_41_stack_reordered_in_movement_or_after_top_unit_depletes() {
    assert!(may_reorder_stack(true, false));
    assert!(may_reorder_stack(false, true));
    assert!(!may_reorder_stack(false, false));
}

#[test]
fn case_11_1_uncrewed_wagon_neither_moves_nor_resupplies() {
    let w = world();
    let mut wagon = w.status("supply-u", Formation::Wagon);
    assert!(wagon_may_move(&wagon));
    wagon.crew = Crew::None;
    assert!(!wagon_may_move(&wagon));
    let mut units = BTreeMap::from([(id("5-conn"), w.status("5-conn", Formation::Line))]);
    units
        .get_mut(&id("5-conn"))
        .unwrap()
        .markers
        .insert(Marker::AmmoDepleted);
    let req = [ResupplyRequest {
        unit: id("5-conn"),
        battery: false,
        rounds_wanted: 0,
        path: true,
        moved: false,
    }];
    assert_eq!(
        resupply(&mut wagon, false, &req, &mut units),
        Err((id("5-conn"), "GBACW 11.1"))
    );
}

#[test]
fn case_11_11_crew_counter_appears_only_when_the_crew_routs() {
    let w = world();
    let t = &w.tables.ammo_loss;
    let rout = wagon_fire_effect(FireResult::MaybeRout, false, true, t, 1);
    assert!(rout.crew_lost && rout.crew_counter_placed);
    let killed = wagon_fire_effect(
        FireResult::Loss {
            points: 1,
            then_pin_check: false,
        },
        false,
        false,
        t,
        1,
    );
    assert!(killed.crew_lost && !killed.crew_counter_placed);
}

#[test]
fn case_11_12_small_arms_hit_the_crew_artillery_the_ammunition() {
    let w = world();
    let t = &w.tables.ammo_loss;
    let two = FireResult::Loss {
        points: 2,
        then_pin_check: true,
    };
    let sa = wagon_fire_effect(two, false, false, t, 6);
    assert!(sa.crew_lost);
    assert_eq!(sa.ammo, None);
    let art = wagon_fire_effect(two, true, false, t, 6);
    assert!(!art.crew_lost);
    assert_eq!(
        art.ammo,
        Some(AmmoLoss::Points {
            small_arms: 4,
            artillery: None
        })
    );
    // Pins from artillery still pin the crew.
    assert!(wagon_fire_effect(FireResult::PinOrRout, true, false, t, 1).pinned);
    // The loss comes off the track: 10/6 less 4/E.
    let mut wagon = w.status("supply-u", Formation::Wagon);
    assert!(apply_ammo_loss(&mut wagon, art.ammo.unwrap()));
    assert_eq!(wagon.supply, (6, 0));
    assert!(!apply_ammo_loss(&mut wagon, AmmoLoss::WagonEliminated));
}

#[test]
fn case_11_17_only_crewed_wagons_retreat_before_melee() {
    let w = world();
    let mut wagon = w.status("supply-u", Formation::Wagon);
    assert_eq!(
        wagon_retreat(&wagon, true),
        WagonRetreat {
            wagon: true,
            crew: true
        }
    );
    assert_eq!(
        wagon_retreat(&wagon, false),
        WagonRetreat {
            wagon: false,
            crew: true
        }
    );
    wagon.crew = Crew::None;
    assert_eq!(
        wagon_retreat(&wagon, true),
        WagonRetreat {
            wagon: false,
            crew: false
        }
    );
}

#[test]
fn case_11_18_recrew_with_one_strength_point_in_final_command_phase() {
    let w = world();
    let mut wagon = w.status("supply-u", Formation::Wagon);
    wagon.crew = Crew::None;
    let mut inf = w.status("5-conn", Formation::Line);
    assert_eq!(
        recrew(&w.unit("5-conn"), &mut inf, &mut wagon, false),
        Err("GBACW 11.18")
    );
    let mut mounted = w.status("1-nj-c", Formation::Mounted);
    assert_eq!(
        recrew(&w.unit("1-nj-c"), &mut mounted, &mut wagon, true),
        Err("GBACW 11.18")
    );
    recrew(&w.unit("5-conn"), &mut inf, &mut wagon, true).unwrap();
    assert_eq!((inf.strength, wagon.crew), (5, Crew::Full));
    // Already crewed: no second point.
    assert_eq!(
        recrew(&w.unit("5-conn"), &mut inf, &mut wagon, true),
        Err("GBACW 11.18")
    );
}

#[test]
fn case_11_19_wagons_captured_by_infantry_or_cavalry_usable_next_turn() {
    let w = world();
    let mut wagon = w.status("supply-u", Formation::Wagon);
    assert_eq!(
        capture_wagon(&w.unit("aleghny"), &mut wagon),
        Err("GBACW 11.19")
    );
    capture_wagon(&w.unit("2-va"), &mut wagon).unwrap();
    assert_eq!(wagon.crew, Crew::None);
    assert!(!captured_wagon_usable(4, 4));
    assert!(captured_wagon_usable(4, 5));
}

fn depleted_units(
    w: &crate::gbacw::testkit::World,
    ids: &[&str],
) -> BTreeMap<crate::gbacw::oob::CounterId, crate::gbacw::oob::UnitStatus> {
    ids.iter()
        .map(|s| {
            let mut st = w.status(s, Formation::Line);
            st.markers.insert(Marker::AmmoDepleted);
            (id(s), st)
        })
        .collect()
}

fn req(unit: &str) -> ResupplyRequest {
    ResupplyRequest {
        unit: id(unit),
        battery: false,
        rounds_wanted: 0,
        path: true,
        moved: false,
    }
}

#[test]
fn case_11_24_wagon_resupplies_as_many_units_as_it_has_boxes() {
    let w = world();
    let mut wagon = w.status("supply-u", Formation::Wagon);
    wagon.supply.0 = 1;
    let mut units = depleted_units(&w, &["5-conn", "10-me"]);
    assert_eq!(
        resupply(
            &mut wagon,
            false,
            &[req("5-conn"), req("10-me")],
            &mut units
        ),
        Err((id("10-me"), "GBACW 11.24"))
    );
    assert!(!units[&id("5-conn")].markers.contains(&Marker::AmmoDepleted));
    // A battery takes rounds from the artillery track, up to what is left.
    let mut wagon = w.status("supply-u", Formation::Wagon);
    let mut bat = BTreeMap::from([(id("4-me"), w.status("4-me", Formation::Unlimbered))]);
    bat.get_mut(&id("4-me")).unwrap().rounds = 0;
    let r = ResupplyRequest {
        battery: true,
        rounds_wanted: 9,
        ..req("4-me")
    };
    assert_eq!(
        resupply(&mut wagon, false, &[r], &mut bat),
        Ok(vec![(id("4-me"), 6)])
    );
    assert_eq!((bat[&id("4-me")].rounds, wagon.supply.1), (6, 0));
}

#[test]
fn case_11_25_neither_wagon_nor_unit_may_have_moved() {
    let w = world();
    let mut wagon = w.status("supply-u", Formation::Wagon);
    let mut units = depleted_units(&w, &["5-conn"]);
    assert_eq!(
        resupply(&mut wagon, true, &[req("5-conn")], &mut units),
        Err((id("5-conn"), "GBACW 11.25"))
    );
    let moved = ResupplyRequest {
        moved: true,
        ..req("5-conn")
    };
    assert_eq!(
        resupply(&mut wagon, false, &[moved], &mut units),
        Err((id("5-conn"), "GBACW 11.25"))
    );
    let no_path = ResupplyRequest {
        path: false,
        ..req("5-conn")
    };
    assert_eq!(
        resupply(&mut wagon, false, &[no_path], &mut units),
        Err((id("5-conn"), "GBACW 11.23"))
    );
    assert_eq!(
        resupply(&mut wagon, false, &[req("5-conn")], &mut units),
        Ok(vec![(id("5-conn"), 1)])
    );
    assert_eq!(wagon.supply.0, 9);
}

#[test]
fn case_11_3_battery_rounds_limited_by_roster_boxes() {
    let w = world();
    let mut s = w.status("aleghny", Formation::Unlimbered);
    assert_eq!(s.rounds, 15);
    for _ in 0..15 {
        expend_round(&mut s, 1).unwrap();
    }
    assert_eq!(expend_round(&mut s, 1), Err("GBACW 11.32"));
}

#[test]
fn case_11_31_split_fire_expends_one_round() {
    let w = world();
    let mut s = w.status("4-me", Formation::Unlimbered);
    expend_round(&mut s, 3).unwrap();
    assert_eq!(s.rounds, 19);
}

#[test]
fn case_11_33_same_type_batteries_pool_rounds_after_an_idle_turn() {
    let w = world();
    let mut a = w.status("4-me", Formation::Unlimbered);
    let mut b = w.status("4-me", Formation::Unlimbered);
    b.rounds = 2;
    assert_eq!(
        transfer_rounds(&mut a, &mut b, false, true, 11),
        Err("GBACW 11.33")
    );
    assert_eq!(
        transfer_rounds(&mut a, &mut b, true, false, 11),
        Err("GBACW 11.33")
    );
    assert_eq!(
        transfer_rounds(&mut a, &mut b, true, true, 23),
        Err("GBACW 11.33")
    );
    transfer_rounds(&mut a, &mut b, true, true, 11).unwrap();
    assert_eq!((a.rounds, b.rounds), (11, 11));
}
