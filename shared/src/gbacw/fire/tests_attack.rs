//! The attack, its targets and the phase log, against the shipped tables
//! and the test order of battle.

use super::*;
use crate::gbacw::morale::{MoraleMods, resolve_fire_result};
use crate::gbacw::oob::{Crew, Formation, Unit, UnitStatus};
use crate::gbacw::tables::{FireResult, FireRow};
use crate::gbacw::testkit::{World, dice, n, world};
use hexx::EdgeDirection;

fn st(w: &World, ids: &[(&str, Formation)]) -> Vec<(Unit, UnitStatus)> {
    ids.iter()
        .map(|(i, f)| (w.unit(i), w.status(i, *f)))
        .collect()
}

fn refs(v: &[(Unit, UnitStatus)]) -> Vec<(&Unit, &UnitStatus)> {
    v.iter().map(|(u, s)| (u, s)).collect()
}

fn seven(shifts: ColumnShifts) -> Attack {
    Attack {
        firers: vec![FireStrength::new(4, 1), FireStrength::new(3, 1)],
        row: FireRow::SmallArmsAndCounterBattery,
        shifts,
    }
}

#[test]
fn case_9_0_total_shift_and_one_die() {
    let w = world();
    let crt = &w.tables.fire;
    // 4 + 3 = 7: the 7-10 column; die 4 gives P/R, die 6 gives 1*.
    assert_eq!(
        resolve_attack(crt, &seven(ColumnShifts::default()), 2, 4),
        Some(FireResult::PinOrRout)
    );
    assert_eq!(
        resolve_attack(crt, &seven(ColumnShifts::default()), 2, 6),
        Some(FireResult::Loss {
            points: 1,
            then_pin_check: true
        })
    );
    // Woods (one left): the 4-6 column, die 4 gives R.
    let woods = ColumnShifts {
        terrain: -1,
        ..ColumnShifts::default()
    };
    assert_eq!(
        resolve_attack(crt, &seven(woods), 2, 4),
        Some(FireResult::MaybeRout)
    );
    assert_eq!(resolve_attack(crt, &seven(woods), 2, 7), None);
}

#[test]
fn case_9_42_all_attacks_rolled_before_results_apply() {
    let w = world();
    let attacks = [
        seven(ColumnShifts::default()),
        seven(ColumnShifts::default()),
    ];
    // Both resolved at their declared strength, one die each, in order.
    let r = resolve_all(&w.tables.fire, &attacks, 2, dice(&[6, 4]));
    assert_eq!(
        r,
        vec![
            Some(FireResult::Loss {
                points: 1,
                then_pin_check: true
            }),
            Some(FireResult::PinOrRout)
        ]
    );
}

#[test]
fn case_8_31_crowded_hexes_suffer_more() {
    let w = world();
    let pts = &w.charts.stacking.points;
    let thin = st(&w, &[("2-va", Formation::Line)]);
    let crowded = st(
        &w,
        &[("5-conn", Formation::Line), ("10-me", Formation::Line)],
    );
    assert!(
        density_shift(&refs(&crowded), pts, &w.tables.density)
            > density_shift(&refs(&thin), pts, &w.tables.density)
    );
    assert_eq!(density_shift(&refs(&crowded), pts, &w.tables.density), 2);
}

#[test]
fn case_8_33_each_battery_counts_one_point() {
    let w = world();
    let pts = &w.charts.stacking.points;
    // Six guns count one, not six.
    let v = st(
        &w,
        &[("4-me", Formation::Unlimbered), ("2-va", Formation::Line)],
    );
    assert_eq!(density_points(&refs(&v), pts), 3);
}

#[test]
fn case_8_34_wagon_counts_four_leaders_nothing() {
    let w = world();
    let pts = &w.charts.stacking.points;
    let v = st(&w, &[("supply-u", Formation::Wagon)]);
    assert_eq!(density_points(&refs(&v), pts), 4);
    // Leaders are not combat units: a hex of leaders alone counts 0 and
    // reads the first column (gbacw-notes: density below 1 SP).
    assert_eq!(density_points(&[], pts), 0);
    assert_eq!(w.tables.density.shift(0), -1);
}

#[test]
fn case_9_31_hexside_limit_counts_points_before_range() {
    let w = world();
    let v = st(
        &w,
        &[("5-conn", Formation::Line), ("10-me", Formation::Line)],
    );
    let d = EdgeDirection::ALL_DIRECTIONS[0];
    let limit = 4;
    // 5 Conn's six points through one hexside: over the limit, whatever
    // range halves its fire to.
    let one = hexside_allotments(&[(d, &v[0].0, &v[0].1)]);
    assert_eq!(check_hexside_limits(&one, limit), Err(d));
    let mut reduced = v[0].1.clone();
    reduced.strength = 4;
    assert_eq!(
        check_hexside_limits(&hexside_allotments(&[(d, &v[0].0, &reduced)]), limit),
        Ok(())
    );
}

#[test]
fn case_7_21_four_small_arms_points_per_hexside_guns_unlimited() {
    let w = world();
    let v = st(
        &w,
        &[
            ("10-me", Formation::Line),
            ("4-me", Formation::Unlimbered),
            ("aleghny", Formation::Unlimbered),
        ],
    );
    let d = EdgeDirection::ALL_DIRECTIONS[2];
    let e = EdgeDirection::ALL_DIRECTIONS[3];
    let all: Vec<_> = v.iter().map(|(u, s)| (d, u, s)).collect();
    assert_eq!(check_hexside_limits(&hexside_allotments(&all), 4), Ok(()));
    let two = st(&w, &[("10-me", Formation::Line), ("2-va", Formation::Line)]);
    let same: Vec<_> = two.iter().map(|(u, s)| (d, u, s)).collect();
    assert_eq!(check_hexside_limits(&hexside_allotments(&same), 4), Err(d));
    // Through two different hexsides: each within its own limit.
    let split = [(d, &two[0].0, &two[0].1), (e, &two[1].0, &two[1].1)];
    assert_eq!(check_hexside_limits(&hexside_allotments(&split), 4), Ok(()));
}

#[test]
fn case_9_32_all_batteries_may_fire_through_one_hexside() {
    let w = world();
    let v = st(
        &w,
        &[
            ("4-me", Formation::Unlimbered),
            ("aleghny", Formation::Unlimbered),
        ],
    );
    let d = EdgeDirection::ALL_DIRECTIONS[1];
    let all: Vec<_> = v.iter().map(|(u, s)| (d, u, s)).collect();
    assert!(hexside_allotments(&all).is_empty());
    assert_eq!(check_hexside_limits(&hexside_allotments(&all), 0), Ok(()));
}

#[test]
fn case_8_21_losses_hit_top_unit_and_overflow_down() {
    let w = world();
    let v = st(
        &w,
        &[
            ("4-me", Formation::Unlimbered),
            ("2-va", Formation::Line),
            ("10-va", Formation::Line),
        ],
    );
    // The battery on top is skipped while infantry is in the hex.
    assert_eq!(allocate_losses(&refs(&v), 3), vec![(1, 2), (2, 1)]);
    assert_eq!(allocate_losses(&refs(&v), 9), vec![(1, 2), (2, 2)]);
    assert!(allocate_losses(&refs(&v), 0).is_empty());
    // Artillery alone takes the loss.
    let alone = st(&w, &[("aleghny", Formation::Unlimbered)]);
    assert_eq!(allocate_losses(&refs(&alone), 2), vec![(0, 2)]);
}

#[test]
fn case_9_43_small_arms_affect_only_the_top_unit() {
    let w = world();
    let v = st(&w, &[("2-va", Formation::Line), ("10-va", Formation::Line)]);
    assert_eq!(result_target(&refs(&v)), Some(0));
    let bat = st(
        &w,
        &[
            ("aleghny", Formation::Unlimbered),
            ("10-va", Formation::Line),
        ],
    );
    assert_eq!(result_target(&refs(&bat)), Some(1));
    assert_eq!(result_target(&[]), None);
}

#[test]
fn case_9_44_target_once_by_small_arms_and_once_by_artillery() {
    let mut log = FirePhaseLog::default();
    let h = n("0505");
    assert_eq!(log.register(h, true, false, false), Ok(()));
    assert_eq!(log.register(h, false, true, false), Ok(()));
    assert_eq!(log.register(h, true, false, false), Err("GBACW 9.44"));
    assert_eq!(log.register(h, false, true, false), Err("GBACW 9.44"));
    assert_eq!(log.register(n("0506"), true, true, false), Ok(()));
}

#[test]
fn case_12_6_no_fire_into_an_engaged_hex() {
    let mut log = FirePhaseLog::default();
    assert_eq!(
        log.register(n("0505"), true, false, true),
        Err("GBACW 12.6")
    );
    // Refused fire is not recorded.
    assert_eq!(log.register(n("0505"), true, false, false), Ok(()));
}

#[test]
fn case_9_8_numbers_kill_letters_restrict() {
    let loss = resolve_fire_result(
        FireResult::Loss {
            points: 2,
            then_pin_check: false,
        },
        4,
        MoraleMods::default(),
        dice(&[1]),
    );
    assert_eq!((loss.losses, loss.pinned, loss.routed), (2, false, false));
    let pin = resolve_fire_result(FireResult::PinOrRout, 4, MoraleMods::default(), dice(&[3]));
    assert_eq!((pin.losses, pin.pinned, pin.routed), (0, true, false));
}

#[test]
fn case_9_1_fire_at_current_strength_by_marker() {
    let w = world();
    let u = w.unit("5-conn");
    let mut s = w.status("5-conn", Formation::Line);
    let full = current_fire_strength(&w.charts.range, &u, &s, 1).unwrap();
    s.strength = 3;
    let reduced = current_fire_strength(&w.charts.range, &u, &s, 1).unwrap();
    assert_eq!(full.whole(), 2 * reduced.whole());
}

#[test]
fn case_3_32_strength_markers_track_current_strength() {
    let w = world();
    let u = w.unit("10-me");
    let mut s = w.status("10-me", Formation::Line);
    s.strength = 0;
    assert_eq!(
        current_fire_strength(&w.charts.range, &u, &s, 1).map(|f| f.whole()),
        Some(0)
    );
}

#[test]
fn case_9_11_strength_is_fire_melee_and_stacking_value() {
    let w = world();
    let u = w.unit("2-va");
    let s = w.status("2-va", Formation::Line);
    let melee = crate::gbacw::melee::unit_melee_strength(
        &u,
        &s,
        crate::gbacw::melee::MeleeRole::Defender,
        crate::gbacw::melee::Opponents::default(),
    );
    let stack = crate::gbacw::stacking::stacking_points(&u, &s, &w.charts.stacking.points);
    assert_eq!((u16::from(s.strength), melee, stack), (2, 2, 2));
}

#[test]
fn case_9_12_infantry_and_dismounted_cavalry_fire_at_current_strength() {
    let w = world();
    let u = w.unit("1-nj-c");
    let s = w.status("1-nj-c", Formation::Dismounted);
    let wpn = w.charts.range.weapon("C").unwrap();
    assert_eq!(
        current_fire_strength(&w.charts.range, &u, &s, 1),
        unit_fire_strength(wpn, 3, 1, Crew::Full)
    );
}

#[test]
fn case_3_34_counter_letter_gives_weapon_type() {
    let w = world();
    let u = w.unit("10-va");
    let s = w.status("10-va", Formation::Line);
    // 10 Va carries M; its range is the M row's, not R's.
    let m = w.charts.range.weapon("M").unwrap().max_range();
    assert!(current_fire_strength(&w.charts.range, &u, &s, m).is_some());
    assert!(current_fire_strength(&w.charts.range, &u, &s, m + 1).is_none());
    let mut no_weapon = u.clone();
    no_weapon.weapon = None;
    assert_eq!(
        current_fire_strength(&w.charts.range, &no_weapon, &s, 1),
        None
    );
}

#[test]
fn case_9_22_weapon_type_sets_range_and_effect() {
    let w = world();
    let r = w.charts.range.weapon("R").unwrap();
    let m = w.charts.range.weapon("M").unwrap();
    assert_ne!(
        (r.max_range(), r.multiplier(1)),
        (m.max_range(), m.multiplier(1)),
        "rifles and muskets differ on the Range Effects Chart"
    );
    let u = w.unit("2-va");
    let s = w.status("2-va", Formation::Line);
    let at = r.max_range();
    assert!(current_fire_strength(&w.charts.range, &u, &s, at).is_some());
}

#[test]
fn case_9_45_example_a_regiment_of_three_splits_its_current_strength() {
    // "1 at three different Enemy hexes or ... 2 at one hex and 1 at another."
    assert_eq!(check_split_points(3, &[1, 1, 1]), Ok(()));
    assert_eq!(check_split_points(3, &[2, 1]), Ok(()));
    assert_eq!(check_split_points(3, &[2, 2]), Err("GBACW 9.45"));
    assert_eq!(check_split_points(3, &[3, 0]), Err("GBACW 9.45"));
}

#[test]
fn case_9_45_example_six_hb_guns_adjacent_and_ten_hexes_away() {
    // Four guns at the adjacent target: 4 x 10 = 40; two at ten hexes:
    // 2 x 1/2 = 1. Both shares are legal together.
    let w = world();
    let hb = w.charts.range.weapon("HB").unwrap();
    let near = unit_fire_strength(hb, 4, 1, Crew::Full).unwrap();
    let far = unit_fire_strength(hb, 2, 10, Crew::Full).unwrap();
    assert_eq!((near.whole(), far.whole()), (40, 1));
    assert_eq!(check_split_points(6, &[4, 2]), Ok(()));
    assert_eq!(check_split(&[near, far]), Ok(()));
}

#[test]
fn case_9_46_example_six_guns_cannot_fire_at_six_targets_sixteen_hexes_away() {
    let w = world();
    let hb = w.charts.range.weapon("HB").unwrap();
    let one_gun = unit_fire_strength(hb, 1, 16, Crew::Full).unwrap();
    let two_guns = unit_fire_strength(hb, 2, 16, Crew::Full).unwrap();
    assert!(check_split(&[one_gun; 6]).is_err());
    // Split among three regiments: one point each.
    assert_eq!(check_split(&[two_guns; 3]), Ok(()));
    // Whole at one target: any strength.
    assert_eq!(check_split(&[one_gun]), Ok(()));
}
