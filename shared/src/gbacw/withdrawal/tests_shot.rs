//! The withdrawal shot and the phases fire belongs to.

use super::*;
use crate::gbacw::ammo::depleted_after_fire;
use crate::gbacw::fire::{FireOccasion, FirePhaseLog, current_fire_strength, fire_allowed_in};
use crate::gbacw::oob::{Formation, Marker, UnitKind};
use crate::gbacw::retreat::hexes_after_withdrawal_pin;
use crate::gbacw::sequence::Phase;
use crate::gbacw::testkit::{dice, id, n, world};

#[test]
fn case_10_11_withdrawal_fire_at_range_one() {
    let w = world();
    let (u, s) = (w.unit("5-conn"), w.status("5-conn", Formation::Line));
    assert_eq!(
        withdrawal_shot(&w.charts.range, &u, &s),
        current_fire_strength(&w.charts.range, &u, &s, 1)
    );
    // Pinned units still fire it (9.84); column never does.
    let mut pinned = s.clone();
    pinned.markers.insert(Marker::Pin);
    assert!(withdrawal_shot(&w.charts.range, &u, &pinned).is_some());
    assert!(withdrawal_shot(&w.charts.range, &u, &w.status("5-conn", Formation::Column)).is_none());
}

#[test]
fn case_10_12_withdrawal_fire_unlimited_but_ammo_can_run_out() {
    let w = world();
    let (u, mut s) = (w.unit("10-me"), w.status("10-me", Formation::Line));
    // Two shots at two movers: both allowed.
    assert!(withdrawal_shot(&w.charts.range, &u, &s).is_some());
    assert!(withdrawal_shot(&w.charts.range, &u, &s).is_some());
    // A 1 on the CRT and a 2 on the depletion die: no more shots.
    let firers = [(id("10-me"), UnitKind::Infantry)];
    if !depleted_after_fire(1, &firers, dice(&[2])).is_empty() {
        s.markers.insert(Marker::AmmoDepleted);
    }
    assert!(withdrawal_shot(&w.charts.range, &u, &s).is_none());
}

#[test]
fn case_10_15_pinned_withdrawer_moves_one_hex_then_pins() {
    assert_eq!(hexes_after_withdrawal_pin(false), 1);
    assert_eq!(hexes_after_withdrawal_pin(true), 0);
}

#[test]
fn case_10_17_withdrawal_fire_only_in_movement_and_rbm_phases() {
    assert_eq!(
        fire_allowed_in(Phase::Movement, FireOccasion::Withdrawal),
        Ok(())
    );
    assert_eq!(
        fire_allowed_in(Phase::RetreatBeforeMelee, FireOccasion::Withdrawal),
        Ok(())
    );
    assert_eq!(
        fire_allowed_in(Phase::DefensiveFire, FireOccasion::Withdrawal),
        Err("GBACW 10.17")
    );
    // A free shot: it does not use up the target's fire for the phase.
    let mut log = FirePhaseLog::default();
    assert_eq!(log.register(n("0505"), true, false, false), Ok(()));
}

#[test]
fn case_5_13_no_fire_in_the_movement_phase_but_withdrawal_and_retreat_fire() {
    assert_eq!(
        fire_allowed_in(Phase::Movement, FireOccasion::Offensive),
        Err("GBACW 5.13")
    );
    assert_eq!(
        fire_allowed_in(Phase::Movement, FireOccasion::Defensive),
        Err("GBACW 5.13")
    );
    assert_eq!(
        fire_allowed_in(Phase::OffensiveFire, FireOccasion::Offensive),
        Ok(())
    );
    assert_eq!(
        fire_allowed_in(Phase::OffensiveFire, FireOccasion::Defensive),
        Err("GBACW 4.0")
    );
}
