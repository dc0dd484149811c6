//! Cavalry charges and mounted fire over the test map.

use super::*;
use crate::gbacw::facing::Facing;
use crate::gbacw::oob::{Formation, Marker};
use crate::gbacw::tables::MeleeEffect;
use crate::gbacw::testkit::{n, world};

fn setup(w: &crate::gbacw::testkit::World, at: &str, target: &str, start: u32) -> ChargeSetup {
    let dir = w.map.grid.direction(n(at), n(target)).unwrap();
    ChargeSetup {
        start_distance: start,
        at: n(at),
        facing: Facing::new(dir),
        target: n(target),
    }
}

#[test]
fn case_16_2_charge_only_through_the_single_front_hexside() {
    let w = world();
    let s = w.status("1-nj-c", Formation::Mounted);
    let ok = setup(&w, "0101", "0102", 2);
    assert_eq!(charge_allowed(&w.map, &w.charts.combat, &s, ok), Ok(()));
    // Faced one hexside off: the target is not through the front hexside.
    let turned = ChargeSetup {
        facing: Facing::new(ok.facing.direction().clockwise()),
        ..ok
    };
    assert_eq!(
        charge_allowed(&w.map, &w.charts.combat, &s, turned),
        Err("GBACW 16.2")
    );
    // Dismounted or routed cavalry does not charge.
    let dis = w.status("1-nj-c", Formation::Dismounted);
    assert_eq!(
        charge_allowed(&w.map, &w.charts.combat, &dis, ok),
        Err("GBACW 16.2")
    );
    let mut routed = s.clone();
    routed.markers.insert(Marker::Rout);
    assert_eq!(
        charge_allowed(&w.map, &w.charts.combat, &routed, ok),
        Err("GBACW 16.2")
    );
    // Not adjacent at the Melee Phase.
    let far = ChargeSetup {
        target: n("0104"),
        ..ok
    };
    assert_eq!(
        charge_allowed(&w.map, &w.charts.combat, &s, far),
        Err("GBACW 16.24")
    );
    // Barred terrain (16.22): into woods.
    let woods = setup(&w, "0204", "0304", 1);
    assert_eq!(
        charge_allowed(&w.map, &w.charts.combat, &s, woods),
        Err("GBACW 16.22")
    );
}

#[test]
fn case_16_21_mounted_cavalry_may_charge_mounted_cavalry() {
    // The target's kind is no condition of the charge; the strengths then
    // follow 16.33 (tested with the melee strengths).
    let w = world();
    let s = w.status("whites-c", Formation::Mounted);
    assert_eq!(
        charge_allowed(&w.map, &w.charts.combat, &s, setup(&w, "0102", "0101", 1)),
        Ok(())
    );
}

#[test]
fn case_16_23_charger_starts_within_four_hexes() {
    let w = world();
    let s = w.status("1-nj-c", Formation::Mounted);
    assert_eq!(
        charge_allowed(&w.map, &w.charts.combat, &s, setup(&w, "0101", "0102", 4)),
        Ok(())
    );
    assert_eq!(
        charge_allowed(&w.map, &w.charts.combat, &s, setup(&w, "0101", "0102", 5)),
        Err("GBACW 16.23")
    );
}

#[test]
fn case_16_25_chargers_rout_after_the_melee() {
    assert!(charger_routs(Some(MeleeEffect::None), false));
    assert!(charger_routs(Some(MeleeEffect::Casualty), false));
    assert!(!charger_routs(None, false));
}

#[test]
fn case_16_27_engaged_chargers_still_rout() {
    let w = world();
    // Find an Eng cell on the shipped table and feed its attacker side in.
    let eng = (-4..=6)
        .flat_map(|d| (1..=6).map(move |r| (d, r)))
        .filter_map(|(d, r)| w.tables.melee.result(d, r))
        .find(|c| c.attacker == MeleeEffect::Engaged)
        .unwrap();
    assert!(charger_routs(Some(eng.attacker), false));
}

#[test]
fn case_16_26_charged_mounted_cavalry_retreating_cancels_the_rout() {
    assert!(!charger_routs(None, true));
    assert!(!charger_routs(Some(MeleeEffect::None), true));
}

#[test]
fn case_16_34_mounted_fire_only_through_the_front_with_pistols_colts_carbines() {
    let w = world();
    let f = Facing::new(w.map.grid.direction(n("0101"), n("0102")).unwrap());
    let carbine = w.charts.range.weapon("C").unwrap().mounted_fire.value;
    let rifle = w.charts.range.weapon("R").unwrap().mounted_fire.value;
    assert!(carbine && !rifle);
    assert_eq!(mounted_fire_hexsides(f, carbine), vec![f.direction()]);
    assert!(mounted_fire_hexsides(f, rifle).is_empty());
}
