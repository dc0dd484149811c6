//! Facing and formation changes, and other cases on the edges of part 1.

use super::*;
use crate::gbacw::charts::MoveClass;
use crate::gbacw::command::{PathBlocks, unit_in_command};
use crate::gbacw::fire::{ColumnShifts, FireStrength, fire_column};
use crate::gbacw::melee::apply_effect;
use crate::gbacw::oob::{Command, Formation, UnitKind};
use crate::gbacw::retreat::{RetreatKind, retreat_paths};
use crate::gbacw::sequence::Phase;
use crate::gbacw::tables::{FireRow, MeleeEffect};
use crate::gbacw::testkit::{id, n, world};
use crate::gbacw::withdrawal::{EnemyZoc, Mover, withdrawal_firers};
use hexx::EdgeDirection;
use std::collections::BTreeSet;

fn moment(phase: Phase, own: bool, after_melee: bool) -> FacingMoment {
    FacingMoment {
        phase,
        own_player_turn: own,
        after_melee,
    }
}

#[test]
fn case_7_12_facing_free_and_unlimited_in_own_movement_phase() {
    // Any number of changes: each is allowed, none costs anything.
    for _ in 0..6 {
        assert_eq!(
            may_change_facing(moment(Phase::Movement, true, false)),
            Ok(())
        );
    }
}

#[test]
fn case_7_13_facing_changes_only_in_own_movement_phase_or_after_melee() {
    assert_eq!(
        may_change_facing(moment(Phase::Movement, false, false)),
        Err("GBACW 7.13")
    );
    assert_eq!(
        may_change_facing(moment(Phase::DefensiveFire, true, false)),
        Err("GBACW 7.13")
    );
    assert_eq!(may_change_facing(moment(Phase::Melee, false, true)), Ok(()));
}

#[test]
fn case_7_32_owners_reface_units_after_melee() {
    // Both sides, phasing or not.
    assert_eq!(may_change_facing(moment(Phase::Melee, true, true)), Ok(()));
    assert_eq!(may_change_facing(moment(Phase::Melee, false, true)), Ok(()));
    assert!(may_change_facing(moment(Phase::Melee, true, false)).is_err());
}

#[test]
fn case_8_42_units_in_a_hex_share_one_facing() {
    let there = Facing::new(EdgeDirection::ALL_DIRECTIONS[2]);
    let mine = Facing::new(EdgeDirection::ALL_DIRECTIONS[5]);
    assert_eq!(facing_on_entry(Some(there), mine), there);
    assert_eq!(facing_on_entry(None, mine), mine);
}

#[test]
fn case_6_21_out_of_command_units_cannot_change_formation() {
    let brigade = Command::Brigade(id("crawford"));
    assert_eq!(
        may_change_formation(unit_in_command(&brigade, false, false)),
        Err("GBACW 6.21")
    );
    assert_eq!(
        may_change_formation(unit_in_command(&brigade, false, true)),
        Ok(())
    );
    assert_eq!(
        may_change_formation(unit_in_command(&Command::Independent, false, false)),
        Ok(())
    );
}

#[test]
fn case_6_0_formations_by_unit_kind() {
    let w = world();
    let inf = &w.unit("5-conn").kind;
    assert!(Formation::Line.allowed_for(inf) && Formation::Column.allowed_for(inf));
    assert!(!Formation::Mounted.allowed_for(inf));
    assert!(Formation::Limbered.allowed_for(&UnitKind::Battery { rounds: 1 }));
    assert!(!Formation::Line.allowed_for(&UnitKind::Battery { rounds: 1 }));
    // Changing costs Movement Points from the chart.
    assert!(!w.charts.movement.formation.is_empty());
}

#[test]
fn case_6_31_formation_acts_on_defence_only_through_enfilade() {
    let w = world();
    let crt = &w.tables.fire;
    let s = FireStrength::new(5, 1);
    let row = FireRow::SmallArmsAndCounterBattery;
    // Line fired on from the front and column (always enfiladed): the
    // only difference is the enfilade shift.
    let line = fire_column(
        crt,
        row,
        s,
        ColumnShifts {
            enfiladed: Formation::Line.always_enfiladed(),
            ..ColumnShifts::default()
        },
        2,
    );
    let column = fire_column(
        crt,
        row,
        s,
        ColumnShifts {
            enfiladed: Formation::Column.always_enfiladed(),
            ..ColumnShifts::default()
        },
        2,
    );
    assert_eq!(column, line + 1);
}

#[test]
fn case_5_14_units_may_enter_and_leave_enemy_zoc_drawing_fire() {
    let enemy = [EnemyZoc {
        unit: id("2-va"),
        zoc: BTreeSet::from([n("0505")]),
    }];
    assert_eq!(
        withdrawal_firers(&enemy, n("0505"), Mover::Unit),
        vec![id("2-va")]
    );
    assert!(withdrawal_firers(&enemy, n("0506"), Mover::Unit).is_empty());
}

#[test]
fn case_14_0_retreat_length_set_by_the_result() {
    let w = world();
    let units = [w.unit("2-va")];
    let mut side = vec![(&units[0], w.status("2-va", Formation::Line))];
    let o = apply_effect(
        &mut side,
        MeleeEffect::CaptureRetreat {
            captured: 0,
            retreat: 3,
        },
        false,
    );
    let len = usize::from(o.retreat.unwrap());
    let paths = retreat_paths(
        &w.map,
        &w.charts.movement,
        MoveClass::Line,
        n("0606"),
        len,
        RetreatKind::MeleeResult,
        &PathBlocks::default(),
    );
    assert!(!paths.is_empty());
    assert!(paths.iter().all(|p| p.hexes.len() == 3));
}

#[test]
fn case_5_0_allowance_by_unit_type_from_the_chart() {
    use crate::gbacw::movement::{Reach, reachable};
    let w = world();
    let m = &w.charts.movement;
    let line = m.allowance(MoveClass::Line);
    let mounted = m.allowance(MoveClass::Mounted);
    assert!(mounted > line);
    // Hex by hex from the same start, the larger allowance reaches more.
    let start = n("0101");
    let rl = reachable(&w.map, m, MoveClass::Line, start, line, |_| true);
    let rm = reachable(&w.map, m, MoveClass::Mounted, start, mounted, |_| true);
    let count = |r: &Reach| w.map.grid.hexes().filter(|h| r.cost(*h).is_some()).count();
    assert!(count(&rm) > count(&rl));
    // Clear costs 1: Line infantry reaches six hexes down the clear first column.
    assert!(rl.cost(n("0107")).is_some());
    assert!(rl.cost(n("0108")).is_none());
}
