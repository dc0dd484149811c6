//! Fire over the test map, test OOB and shipped charts and tables.

use super::*;
use crate::gbacw::charts::Weapon;
use crate::gbacw::oob::{CounterId, Crew, Formation, Marker, UnitKind, UnitStatus};
use crate::gbacw::tables::{FireCrt, FireRow};
use crate::gbacw::testkit::{World, n, world};
use hexx::EdgeDirection;

fn weapon<'a>(w: &'a World, code: &str) -> &'a Weapon {
    w.charts.range.weapon(code).unwrap()
}

fn status(w: &World, id: &str, formation: Formation) -> (crate::gbacw::oob::Unit, UnitStatus) {
    let u = w.oob.units[&CounterId::parse(id).unwrap()].clone();
    let s = UnitStatus {
        formation,
        ..UnitStatus::fresh(&u)
    };
    (u, s)
}

#[test]
fn case_9_45_hb_example_strengths() {
    let w = world();
    let hb = weapon(&w, "HB");
    assert_eq!(
        unit_fire_strength(hb, 4, 1, Crew::Full),
        Some(FireStrength::new(40, 1))
    );
    assert_eq!(
        unit_fire_strength(hb, 2, 10, Crew::Full),
        Some(FireStrength::new(1, 1))
    );
}

#[test]
fn case_9_23_no_fire_beyond_maximum_range() {
    let w = world();
    let r = weapon(&w, "R");
    assert!(unit_fire_strength(r, 4, r.max_range(), Crew::Full).is_some());
    assert_eq!(
        unit_fire_strength(r, 4, r.max_range() + 1, Crew::Full),
        None
    );
}

#[test]
fn case_15_13_half_crew_halves_fire_rounding_up() {
    let w = world();
    let hb = weapon(&w, "HB");
    // GBACW 9.13: the crew-modified guns, then range (second reading,
    // issue 19): 3 guns adjacent: 2 guns, 20. 1 gun at ten hexes: 1 gun,
    // 1/2.
    assert_eq!(
        unit_fire_strength(hb, 3, 1, Crew::Half),
        Some(FireStrength::new(20, 1))
    );
    assert_eq!(
        unit_fire_strength(hb, 1, 10, Crew::Half),
        Some(FireStrength::new(1, 2))
    );
    // The `half-crew-after-range` reading: 30 halved, 15; 1/2 halved and
    // rounded up, 1.
    assert_eq!(
        crate::gbacw::fire::unit_fire_strength_read(hb, 3, 1, Crew::Half, true),
        Some(FireStrength::new(15, 1))
    );
    assert_eq!(
        crate::gbacw::fire::unit_fire_strength_read(hb, 1, 10, Crew::Half, true),
        Some(FireStrength::new(1, 1))
    );
}

#[test]
fn case_9_41_strengths_are_totalled_after_range() {
    let a = FireStrength::new(1, 2);
    let b = FireStrength::new(1, 3);
    assert_eq!(a + b, FireStrength::new(5, 6));
    assert_eq!((a + b).whole(), 0);
    assert_eq!(
        (FireStrength::new(3, 2) + FireStrength::new(3, 2)).whole(),
        3
    );
}

#[test]
fn case_9_46_split_shares_must_each_reach_one() {
    let half = FireStrength::new(1, 2);
    let one = FireStrength::new(1, 1);
    assert_eq!(check_split(&[one, one]), Ok(()));
    assert_eq!(check_split(&[one, half]), Err(1));
    // Whole strength at one target may be anything.
    assert_eq!(check_split(&[half]), Ok(()));
}

#[test]
fn case_9_3_four_small_arms_points_per_frontal_hexside() {
    let up = EdgeDirection::FLAT_TOP;
    let right = EdgeDirection::FLAT_TOP_RIGHT;
    // 7.21's example: nine points, four through one hexside, four through another, one through the third.
    assert_eq!(
        check_hexside_limits(&[(up, 3), (up, 1), (right, 2), (right, 2)], 4),
        Ok(())
    );
    assert_eq!(check_hexside_limits(&[(up, 3), (up, 2)], 4), Err(up));
}

#[test]
fn case_9_14_artillery_uses_grapeshot_against_infantry_and_cavalry() {
    assert_eq!(fire_row(true, &UnitKind::Infantry), FireRow::Grapeshot);
    assert_eq!(fire_row(true, &UnitKind::Cavalry), FireRow::Grapeshot);
    assert_eq!(
        fire_row(true, &UnitKind::Battery { rounds: 1 }),
        FireRow::SmallArmsAndCounterBattery
    );
    assert_eq!(
        fire_row(
            true,
            &UnitKind::Wagon {
                small_arms: 0,
                artillery: 0
            }
        ),
        FireRow::SmallArmsAndCounterBattery
    );
}

#[test]
fn case_9_15_small_arms_always_use_the_small_arms_row() {
    assert_eq!(
        fire_row(false, &UnitKind::Infantry),
        FireRow::SmallArmsAndCounterBattery
    );
}

#[test]
fn case_9_53_woods_shift_one_left() {
    let w = world();
    assert_eq!(
        terrain_shift(&w.map, &w.charts.combat, n("0303"), &[n("0103")]),
        -1
    );
    assert_eq!(
        terrain_shift(&w.map, &w.charts.combat, n("0101"), &[n("0103")]),
        0
    );
}

#[test]
fn case_9_52_crest_helps_only_against_fire_from_below() {
    let w = world();
    let c = &w.charts.combat;
    // 0906 (level 1) behind the crest hexside 0806/0906, fired on from 0806 (level 0).
    assert_eq!(terrain_shift(&w.map, c, n("0906"), &[n("0806")]), -1);
    // From 0806 on to 0806's side: the crest is not the target's.
    assert_eq!(terrain_shift(&w.map, c, n("0806"), &[n("0906")]), 0);
}

#[test]
fn case_9_5_benefit_if_any_firer_fires_through() {
    let w = world();
    let c = &w.charts.combat;
    // One firer below the crest, one on the ridge beside: the crest still counts once.
    assert_eq!(
        terrain_shift(&w.map, c, n("0906"), &[n("0806"), n("1006")]),
        -1
    );
}

#[test]
fn case_9_54_roads_have_no_effect_on_fire() {
    let w = world();
    // 0404 -> 0505 crosses a road hexside into the town: only the town counts.
    let town = terrain_shift(&w.map, &w.charts.combat, n("0505"), &[n("0404")]);
    assert_eq!(
        town,
        i32::from(
            w.charts
                .combat
                .hex_fire_shift(&[crate::gbacw::map::Terrain::Town])
        )
    );
}

#[test]
fn case_9_51_net_shift_capped_at_two_and_clamped_to_table() {
    let w = world();
    let crt = &w.tables.fire;
    let max = w.charts.combat.max_terrain_shift.value;
    let s = FireStrength::new(20, 1); // small arms 15-20: column 6 (index 5)
    let row = FireRow::SmallArmsAndCounterBattery;
    let shifts = ColumnShifts {
        terrain: -3,
        density: 0,
        enfiladed: true,
    };
    // 9.51's example: three left and one right is two left.
    assert_eq!(fire_column(crt, row, s, shifts, max), 3);
    let shifts = ColumnShifts {
        terrain: -5,
        density: 0,
        enfiladed: false,
    };
    assert_eq!(fire_column(crt, row, s, shifts, max), 3);
    let tiny = FireStrength::new(1, 1);
    let shifts = ColumnShifts {
        terrain: -2,
        density: 0,
        enfiladed: false,
    };
    assert_eq!(fire_column(crt, row, tiny, shifts, max), 0);
    assert_eq!(FireCrt::shifted(10, 1), 10);
}

#[test]
fn case_8_32_density_shifts_the_column() {
    let w = world();
    let crt = &w.tables.fire;
    let s = FireStrength::new(5, 1); // 4-6: index 2
    let density = i32::from(w.tables.density.shift(10));
    let shifts = ColumnShifts {
        terrain: 0,
        density,
        enfiladed: false,
    };
    assert_eq!(
        fire_column(crt, FireRow::SmallArmsAndCounterBattery, s, shifts, 2),
        4
    );
}

#[test]
fn case_9_61_rear_fire_shifts_one_right() {
    let w = world();
    let s = FireStrength::new(5, 1);
    let shifts = ColumnShifts {
        enfiladed: true,
        ..ColumnShifts::default()
    };
    assert_eq!(
        fire_column(
            &w.tables.fire,
            FireRow::SmallArmsAndCounterBattery,
            s,
            shifts,
            2
        ),
        3
    );
}

#[test]
fn case_9_62_column_and_limbered_never_fire() {
    let w = world();
    let (u, s) = status(&w, "5-conn", Formation::Column);
    assert_eq!(
        may_fire(&u, &s, &w.charts.range, FireOccasion::Offensive),
        Err("GBACW 9.62")
    );
    let (u, s) = status(&w, "4-me", Formation::Limbered);
    assert_eq!(
        may_fire(&u, &s, &w.charts.range, FireOccasion::Offensive),
        Err("GBACW 6.32")
    );
    let (u, s) = status(&w, "4-me", Formation::Unlimbered);
    assert_eq!(
        may_fire(&u, &s, &w.charts.range, FireOccasion::Offensive),
        Ok(())
    );
}

#[test]
fn case_6_34_mounted_cavalry_fires_only_cavalry_arms() {
    let w = world();
    let (u, s) = status(&w, "1-nj-c", Formation::Mounted);
    assert_eq!(
        may_fire(&u, &s, &w.charts.range, FireOccasion::Offensive),
        Ok(())
    );
    let mut u2 = u.clone();
    u2.weapon = Some("R".into());
    assert_eq!(
        may_fire(&u2, &s, &w.charts.range, FireOccasion::Offensive),
        Err("GBACW 6.34")
    );
}

#[test]
fn case_9_21_units_without_weapon_cannot_fire() {
    let w = world();
    let (mut u, s) = status(&w, "5-conn", Formation::Line);
    u.weapon = None;
    assert_eq!(
        may_fire(&u, &s, &w.charts.range, FireOccasion::Offensive),
        Err("GBACW 9.21")
    );
}

#[test]
fn case_9_84_pinned_units_fire_only_withdrawal_fire() {
    let w = world();
    let (u, mut s) = status(&w, "5-conn", Formation::Line);
    s.markers.insert(Marker::Pin);
    assert_eq!(
        may_fire(&u, &s, &w.charts.range, FireOccasion::Defensive),
        Err("GBACW 9.84")
    );
    assert_eq!(
        may_fire(&u, &s, &w.charts.range, FireOccasion::Withdrawal),
        Ok(())
    );
}

#[test]
fn case_11_16_wagon_crews_fire_only_in_defensive_fire() {
    let w = world();
    let (u, s) = status(&w, "supply-u", Formation::Wagon);
    assert_eq!(
        may_fire(&u, &s, &w.charts.range, FireOccasion::Defensive),
        Ok(())
    );
    assert_eq!(
        may_fire(&u, &s, &w.charts.range, FireOccasion::Offensive),
        Err("GBACW 11.16")
    );
    assert_eq!(
        may_fire(&u, &s, &w.charts.range, FireOccasion::Withdrawal),
        Err("GBACW 11.16")
    );
}

#[test]
fn case_11_32_battery_out_of_rounds_cannot_fire() {
    let w = world();
    let (u, mut s) = status(&w, "4-me", Formation::Unlimbered);
    s.rounds = 0;
    assert_eq!(
        may_fire(&u, &s, &w.charts.range, FireOccasion::Offensive),
        Err("GBACW 11.32")
    );
}

#[test]
fn case_11_22_depleted_units_cannot_fire() {
    let w = world();
    let (u, mut s) = status(&w, "5-conn", Formation::Line);
    s.markers.insert(Marker::AmmoDepleted);
    assert_eq!(
        may_fire(&u, &s, &w.charts.range, FireOccasion::Withdrawal),
        Err("GBACW 11.22")
    );
}

#[test]
fn case_13_32_routed_units_cannot_fire() {
    let w = world();
    let (u, mut s) = status(&w, "5-conn", Formation::Line);
    s.markers.insert(Marker::Rout);
    assert_eq!(
        may_fire(&u, &s, &w.charts.range, FireOccasion::Withdrawal),
        Err("GBACW 13.32")
    );
}
