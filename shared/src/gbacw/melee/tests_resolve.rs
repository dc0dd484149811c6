//! Melee declaration and results against the shipped Melee CRT and the
//! test order of battle.

use super::*;
use crate::gbacw::facing::{ZocUse, exerts_zoc};
use crate::gbacw::fire::{FireOccasion, may_fire};
use crate::gbacw::oob::{Crew, Formation, Marker, Unit, UnitStatus};
use crate::gbacw::tables::{CasualtyCause, MeleeEffect};
use crate::gbacw::testkit::{World, id, n, world};

fn intent<'a>(
    u: &'a Unit,
    s: &'a UnitStatus,
    fired_at: &'a [crate::gbacw::map::HexNumber],
) -> MeleeIntent<'a> {
    MeleeIntent {
        unit: u,
        status: s,
        target: n("0505"),
        adjacent_at_phase_start: true,
        through_frontal_hexside: true,
        in_command: true,
        fired_at,
        continuing_engaged: false,
        advanced_after_retreat: false,
    }
}

fn side<'a>(w: &World, units: &'a [Unit], f: Formation) -> Vec<(&'a Unit, UnitStatus)> {
    units.iter().map(|u| (u, w.status(&u.id.0, f))).collect()
}

#[test]
fn case_12_21_adjacent_at_phase_start_and_through_a_frontal_hexside() {
    let w = world();
    let (u, s) = (w.unit("5-conn"), w.status("5-conn", Formation::Line));
    assert_eq!(may_initiate_melee(&intent(&u, &s, &[])), Ok(()));
    let far = MeleeIntent {
        adjacent_at_phase_start: false,
        ..intent(&u, &s, &[])
    };
    assert_eq!(may_initiate_melee(&far), Err("GBACW 12.21"));
}

#[test]
fn case_7_31_melee_advance_only_through_a_frontal_hexside() {
    let w = world();
    let (u, s) = (w.unit("5-conn"), w.status("5-conn", Formation::Line));
    let rear = MeleeIntent {
        through_frontal_hexside: false,
        ..intent(&u, &s, &[])
    };
    assert_eq!(may_initiate_melee(&rear), Err("GBACW 7.31"));
}

#[test]
fn case_12_22_a_unit_that_fired_melees_only_its_target() {
    let w = world();
    let (u, s) = (w.unit("5-conn"), w.status("5-conn", Formation::Line));
    let at_target = [n("0505")];
    let elsewhere = [n("0506")];
    assert_eq!(may_initiate_melee(&intent(&u, &s, &at_target)), Ok(()));
    assert_eq!(
        may_initiate_melee(&intent(&u, &s, &elsewhere)),
        Err("GBACW 12.22")
    );
}

#[test]
fn case_12_23_melee_is_never_mandatory() {
    assert_eq!(check_declarations(&[]), Ok(()));
}

#[test]
fn case_12_24_column_cannot_initiate_and_goes_into_line_when_meleed() {
    let w = world();
    let (u, s) = (w.unit("5-conn"), w.status("5-conn", Formation::Column));
    assert_eq!(may_initiate_melee(&intent(&u, &s, &[])), Err("GBACW 12.24"));
    assert_eq!(formation_after_melee(Formation::Column), Formation::Line);
    assert_eq!(
        formation_after_melee(Formation::Unlimbered),
        Formation::Unlimbered
    );
}

#[test]
fn case_6_33_column_never_initiates_melee() {
    let w = world();
    let (u, s) = (w.unit("10-me"), w.status("10-me", Formation::Column));
    assert!(may_initiate_melee(&intent(&u, &s, &[])).is_err());
    assert!(may_fire(&u, &s, &w.charts.range, FireOccasion::Defensive).is_err());
}

#[test]
fn case_12_25_crews_initiate_only_to_continue_an_engaged_melee() {
    let w = world();
    let (u, s) = (w.unit("4-me"), w.status("4-me", Formation::Unlimbered));
    assert_eq!(may_initiate_melee(&intent(&u, &s, &[])), Err("GBACW 12.25"));
    let cont = MeleeIntent {
        continuing_engaged: true,
        ..intent(&u, &s, &[])
    };
    assert_eq!(may_initiate_melee(&cont), Ok(()));
}

#[test]
fn case_11_15_wagon_crews_never_initiate_melee() {
    let w = world();
    let (u, s) = (w.unit("supply-u"), w.status("supply-u", Formation::Wagon));
    assert_eq!(may_initiate_melee(&intent(&u, &s, &[])), Err("GBACW 11.15"));
    assert!(may_fire(&u, &s, &w.charts.range, FireOccasion::Offensive).is_err());
}

#[test]
fn case_12_96_engaged_pinned_wagons_and_guns_may_melee_on() {
    let w = world();
    let (u, mut s) = (w.unit("2-va"), w.status("2-va", Formation::Line));
    s.markers.insert(Marker::Pin);
    assert_eq!(may_initiate_melee(&intent(&u, &s, &[])), Err("GBACW 9.84"));
    let cont = MeleeIntent {
        continuing_engaged: true,
        ..intent(&u, &s, &[])
    };
    assert_eq!(may_initiate_melee(&cont), Ok(()));
    let (wu, ws) = (w.unit("supply-u"), w.status("supply-u", Formation::Wagon));
    let wagon = MeleeIntent {
        continuing_engaged: true,
        ..intent(&wu, &ws, &[])
    };
    assert_eq!(may_initiate_melee(&wagon), Ok(()));
}

#[test]
fn case_17_0_out_of_command_units_do_not_initiate_melee() {
    let w = world();
    let (u, s) = (w.unit("5-conn"), w.status("5-conn", Formation::Line));
    let out = MeleeIntent {
        in_command: false,
        ..intent(&u, &s, &[])
    };
    assert_eq!(may_initiate_melee(&out), Err("GBACW 17.11"));
    let engaged = MeleeIntent {
        continuing_engaged: true,
        ..out
    };
    assert_eq!(may_initiate_melee(&engaged), Ok(()));
}

#[test]
fn case_12_26_split_fire_units_melee_into_only_one_target_hex() {
    let w = world();
    let (u, s) = (w.unit("5-conn"), w.status("5-conn", Formation::Line));
    let split = [n("0505"), n("0506")];
    assert_eq!(may_initiate_melee(&intent(&u, &s, &split)), Ok(()));
    let twice = [(id("5-conn"), n("0505")), (id("5-conn"), n("0506"))];
    assert_eq!(check_declarations(&twice), Err(id("5-conn")));
}

#[test]
fn case_12_75_units_from_several_hexes_melee_one_hex() {
    let d = [
        (id("5-conn"), n("0505")),
        (id("10-me"), n("0505")),
        (id("pa-zd"), n("0505")),
    ];
    assert_eq!(check_declarations(&d), Ok(()));
}

#[test]
fn case_12_71_melee_limited_by_the_stacking_chart() {
    assert_eq!(melee_stacking(12, 3, 12), Ok((12, 3)));
    assert_eq!(melee_stacking(13, 3, 12), Err("GBACW 12.72"));
    assert_eq!(melee_stacking(4, 20, 12), Ok((4, 12)));
}

#[test]
fn case_12_73_limits_apply_to_each_side_separately() {
    // Both sides at the full limit together: twice what one hex may stack.
    assert_eq!(melee_stacking(12, 12, 12), Ok((12, 12)));
}

#[test]
fn case_12_76_no_moving_through_a_hex_with_engaged_units() {
    assert!(!may_move_through(true, false));
    assert!(may_move_through(true, true));
    assert!(may_move_through(false, false));
}

#[test]
fn case_12_32_continuing_melee_terrain_only_for_new_units() {
    assert_eq!(continuing_terrain_penalty(1, true, false), 0);
    assert_eq!(continuing_terrain_penalty(1, true, true), 1);
    assert_eq!(continuing_terrain_penalty(1, false, false), 1);
}

#[test]
fn case_12_85_attackers_may_advance_but_not_melee_after() {
    assert!(may_advance(true, 6, 12));
    assert!(!may_advance(false, 6, 12));
    assert!(!may_advance(true, 13, 12));
    let w = world();
    let (u, s) = (w.unit("5-conn"), w.status("5-conn", Formation::Line));
    let adv = MeleeIntent {
        advanced_after_retreat: true,
        ..intent(&u, &s, &[])
    };
    assert_eq!(may_initiate_melee(&adv), Err("GBACW 12.85"));
}

#[test]
fn case_12_74_infantry_takes_losses_before_gun_crew() {
    let w = world();
    let units = [w.unit("4-me"), w.unit("10-me")];
    let mut v = vec![
        (&units[0], w.status("4-me", Formation::Unlimbered)),
        (&units[1], w.status("10-me", Formation::Line)),
    ];
    let o = apply_effect(&mut v, MeleeEffect::Casualty, false);
    assert_eq!(o.killed, vec![(1, 1)]);
    assert_eq!((v[0].1.crew, v[1].1.strength), (Crew::Full, 3));
}

#[test]
fn case_12_9_results_capture_kill_retreat_or_engage() {
    let w = world();
    let units = [w.unit("2-va"), w.unit("10-va")];
    let mut v = side(&w, &units, Formation::Line);
    let o = apply_effect(
        &mut v,
        MeleeEffect::CaptureRetreat {
            captured: 1,
            retreat: 2,
        },
        false,
    );
    assert_eq!(
        (o.captured.clone(), o.retreat, o.morale_check),
        (vec![(0, 1)], Some(2), true)
    );
    assert_eq!(o.leader_roll, Some(CasualtyCause::CMelee));
    let r = apply_effect(
        &mut v,
        MeleeEffect::CaptureRetreat {
            captured: 0,
            retreat: 2,
        },
        false,
    );
    assert_eq!(
        (r.captured.len(), r.retreat, r.leader_roll),
        (0, Some(2), None)
    );
}

#[test]
fn case_12_91_k_kills_one_point_and_hits_crews_twice_to_eliminate() {
    let w = world();
    let units = [w.unit("4-me")];
    let mut v = side(&w, &units, Formation::Unlimbered);
    let o = apply_effect(&mut v, MeleeEffect::Casualty, false);
    assert_eq!((o.killed.clone(), v[0].1.crew), (vec![(0, 1)], Crew::Half));
    assert_eq!(o.leader_roll, Some(CasualtyCause::KMelee));
    apply_effect(&mut v, MeleeEffect::Casualty, false);
    assert!(!alive(v[0].0, &v[0].1));
}

#[test]
fn case_12_93_any_c_on_unlimbered_artillery_captures_all() {
    let w = world();
    let units = [w.unit("aleghny"), w.unit("2-va")];
    let mut v = vec![
        (&units[0], w.status("aleghny", Formation::Unlimbered)),
        (&units[1], w.status("2-va", Formation::Line)),
    ];
    let o = apply_effect(
        &mut v,
        MeleeEffect::CaptureRetreat {
            captured: 1,
            retreat: 2,
        },
        false,
    );
    assert_eq!(o.captured_whole, vec![0]);
    assert_eq!(v[0].1.strength, 0);
    // The C1 itself came off the infantry.
    assert_eq!(o.captured, vec![(1, 1)]);
    // Limbered guns are not captured whole.
    let mut l = vec![(&units[0], w.status("aleghny", Formation::Limbered))];
    assert!(
        apply_effect(
            &mut l,
            MeleeEffect::CaptureRetreat {
                captured: 0,
                retreat: 2
            },
            false
        )
        .captured_whole
        .is_empty()
    );
}

#[test]
fn case_12_94_engaged_hex_frozen_options_next_turn() {
    let w = world();
    let units = [w.unit("2-va"), w.unit("aleghny")];
    let mut v = vec![
        (&units[0], w.status("2-va", Formation::Line)),
        (&units[1], w.status("aleghny", Formation::Unlimbered)),
    ];
    let o = apply_effect(&mut v, MeleeEffect::Engaged, false);
    assert!(o.engaged);
    let s = &v[0].1;
    assert!(!exerts_zoc(
        s.formation,
        &s.markers,
        ZocUse::SupplyAndCommand
    ));
    assert_eq!(
        may_fire(v[0].0, s, &w.charts.range, FireOccasion::Defensive),
        Err("GBACW 12.94")
    );
    // Option 3: withdraw two hexes, but never unlimbered guns.
    assert!(may_leave_engaged(v[0].0, &v[0].1));
    assert!(!may_leave_engaged(v[1].0, &v[1].1));
}

#[test]
fn case_12_95_rpls_phasing_side_retreats_both_roll_and_check() {
    let w = world();
    let units = [w.unit("2-va")];
    let mut a = side(&w, &units, Formation::Line);
    let mut d = side(&w, &units, Formation::Line);
    let oa = apply_effect(&mut a, MeleeEffect::Repulsed, true);
    let od = apply_effect(&mut d, MeleeEffect::Repulsed, false);
    assert_eq!((oa.retreat, od.retreat), (Some(2), None));
    assert!(oa.morale_check && od.morale_check);
    assert_eq!(
        (oa.leader_roll, od.leader_roll),
        (
            Some(CasualtyCause::RplsMelee),
            Some(CasualtyCause::RplsMelee)
        )
    );
}

#[test]
fn case_12_97_mutual_elimination_becomes_engaged() {
    let w = world();
    let ua = [w.unit("whites-c")];
    let ud = [w.unit("10-va")];
    let mut a = side(&w, &ua, Formation::Dismounted);
    let mut d = side(&w, &ud, Formation::Line);
    d[0].1.strength = 1;
    // -1, die 1: K/C1R2 — the attacker's last point killed, the defender's captured.
    let o = resolve_melee(&w.tables.melee, -1, 1, &mut a, &mut d).unwrap();
    assert!(o.mutual_elimination);
    assert!(o.attacker.engaged && o.defender.engaged);
    assert_eq!((a[0].1.strength, d[0].1.strength), (1, 1));
    // With two points the defender survives the C1: the result stands.
    let mut a = side(&w, &ua, Formation::Dismounted);
    let mut d = side(&w, &ud, Formation::Line);
    let o = resolve_melee(&w.tables.melee, -1, 1, &mut a, &mut d).unwrap();
    assert!(!o.mutual_elimination);
    assert_eq!((a[0].1.strength, d[0].1.strength), (0, 1));
}

#[test]
fn case_12_98_differential_clamps_minus_four_to_plus_six() {
    let w = world();
    let units = [w.unit("2-va")];
    let mut a = side(&w, &units, Formation::Line);
    let mut d = side(&w, &units, Formation::Line);
    // +7 and beyond read +6 (docs/gbacw-notes.md): die 1 is -/C2R3.
    let o = resolve_melee(&w.tables.melee, 9, 1, &mut a, &mut d).unwrap();
    assert_eq!(o.cell.to_string(), "-/C2R3");
    assert_eq!(
        resolve_melee(&w.tables.melee, -9, 1, &mut a, &mut d)
            .unwrap()
            .cell
            .to_string(),
        "R2/-"
    );
    assert!(resolve_melee(&w.tables.melee, 0, 0, &mut a, &mut d).is_none());
}

#[test]
fn case_12_4_example_five_and_a_leader_against_two_and_a_leader() {
    // 12.4's example: 5 + 1 against 2 + 1 gives +3.
    let a = side_total(&[5], 20, true, false);
    let d = side_total(&[2], 20, true, false);
    assert_eq!(differential(a, d), 3);
}

#[test]
fn case_12_52_example_two_twos_against_a_four_and_a_five() {
    // Union 2 and 2 attack Confederate 4 and 5: the Confederates add one.
    assert!(morale_edge(4, 2));
    assert!(!morale_edge(2, 5));
    // The Confederate side (say 3 and 3 SP) totals 7 with the point.
    assert_eq!(side_total(&[3, 3], 20, false, morale_edge(4, 2)), 7);
    assert_eq!(side_total(&[2, 2], 20, false, morale_edge(2, 5)), 4);
}
