//! Cavalry charges (16.2–16.27) through `decide` and `evolve`.

use super::*;
use crate::gbacw::oob::Marker;
use crate::gbacw::ruleset::event::MeleeReport;

/// 1 NJ c (Union, 3 SP, mounted) with Bayard in 0803 facing north, and the
/// enemy `defender` in 0802 in `formation`, on clear ground (no hexside
/// between them). The table stands at the Union Retreat Before Melee Phase.
fn field(defender: &str, formation: Formation) -> T {
    let mut t = T::empty();
    t.put("1-nj-c", "0803", "n", Formation::Mounted);
    t.put_leader("bayard", "0803");
    t.put(defender, "0802", "s", formation);
    t.advance_to(UNION, Phase::RetreatBeforeMelee);
    t
}

fn charge(target: &str, attackers: &[&str]) -> GbacwAction {
    GbacwAction::DeclareCharge {
        target: n(target),
        attackers: ids(attackers),
    }
}

fn melee(target: &str, attackers: &[&str]) -> GbacwAction {
    GbacwAction::DeclareMelee {
        target: n(target),
        attackers: ids(attackers),
    }
}

fn report(events: &[GbacwEvent]) -> Option<MeleeReport> {
    events.iter().find_map(|e| match e {
        GbacwEvent::MeleeResolved(r) => Some(r.clone()),
        _ => None,
    })
}

/// Declare `a`, let the defender stand, and roll the Melee Phase.
fn fight(t: &mut T, a: GbacwAction, seed: u64) -> Vec<GbacwEvent> {
    t.ok(UNION, a);
    t.ok(REBEL, GbacwAction::StandFast);
    t.ok(UNION, GbacwAction::EndPhase);
    assert_eq!(t.phase(), Some(Phase::Melee));
    t.roll(UNION, GbacwAction::EndPhase, seed).0
}

#[test]
fn case_16_24_a_charge_melees_at_twice_the_chargers_strength() {
    for seed in 0..20 {
        let mut plain = field("10-va", Formation::Line);
        let walked = report(&fight(&mut plain, melee("0802", &["1-nj-c"]), seed)).unwrap();
        let mut t = field("10-va", Formation::Line);
        let charged = report(&fight(&mut t, charge("0802", &["1-nj-c"]), seed)).unwrap();
        // 16.24: 3 SP charge as 6; everything else is the same.
        assert_eq!(charged.attack - walked.attack, 3, "seed {seed}");
        assert_eq!(charged.defence, walked.defence);
    }
}

#[test]
fn case_16_25_chargers_rout_after_the_melee_whatever_its_result() {
    let mut results = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let mut t = field("10-va", Formation::Line);
        let events = fight(&mut t, charge("0802", &["1-nj-c"]), seed);
        let r = report(&events).unwrap();
        results.insert(format!("{:?}", r.result.attacker));
        let nj = &t.s.units[&id("1-nj-c")];
        // 16.25, 16.27: routed (and gone three hexes), or lost in the fight.
        assert!(
            nj.hex.is_none() || nj.status.markers.contains(&Marker::Rout),
            "seed {seed}: {:?}",
            r.result
        );
        assert!(!nj.status.markers.contains(&Marker::Engaged));
    }
    assert!(results.len() > 1, "one result only: {results:?}");
}

#[test]
fn case_16_23_chargers_begin_the_movement_phase_within_four_hexes() {
    let mut t = field("10-va", Formation::Line);
    assert_eq!(t.s.movement_start.get(&id("1-nj-c")), Some(&n("0803")));
    // As if it had ridden in from five hexes off.
    t.s.movement_start.insert(id("1-nj-c"), n("0808"));
    assert_eq!(t.rs.game().map.grid.distance(n("0808"), n("0802")), 6);
    t.refused(UNION, charge("0802", &["1-nj-c"]), "GBACW 16.23");
    // It may still melee normally (16.23).
    t.ok(UNION, melee("0802", &["1-nj-c"]));
}

#[test]
fn case_16_2_a_charge_goes_through_the_one_front_hexside() {
    let mut t = field("10-va", Formation::Line);
    t.s.units.get_mut(&id("1-nj-c")).unwrap().facing = dir("ne");
    t.refused(UNION, charge("0802", &["1-nj-c"]), "GBACW 16.2");
    // Dismounted cavalry does not charge.
    let mut t = field("10-va", Formation::Line);
    t.s.units.get_mut(&id("1-nj-c")).unwrap().status.formation = Formation::Dismounted;
    t.refused(UNION, charge("0802", &["1-nj-c"]), "GBACW 16.2");
}

#[test]
fn case_16_26_charged_foot_may_not_retreat_before_melee() {
    let mut t = field("10-va", Formation::Line);
    assert!(
        t.rs.legal_actions(&t.s, UNION)
            .contains(&charge("0802", &["1-nj-c"]))
    );
    t.ok(UNION, charge("0802", &["1-nj-c"]));
    assert!(t.s.melees[0].charge);
    assert!(t.s.rbm.as_ref().unwrap().threatened.is_empty());
    let away = n("0801");
    t.refused(
        REBEL,
        GbacwAction::RetreatBeforeMelee {
            units: ids(&["10-va"]),
            path: vec![away],
        },
        // The refusal names the rule that forbids it (issue 19, part 3).
        "GBACW 16.26",
    );
}

#[test]
fn case_16_26_charged_mounted_cavalry_rides_off_and_the_charger_does_not_rout() {
    let mut t = field("whites-c", Formation::Mounted);
    t.ok(UNION, charge("0802", &["1-nj-c"]));
    assert_eq!(t.s.rbm.as_ref().unwrap().threatened, ids(&["whites-c"]));
    let a = GbacwAction::RetreatBeforeMelee {
        units: ids(&["whites-c"]),
        path: vec![n("0801")],
    };
    // 12.84, 16.26: no withdrawal fire, no morale check: no dice.
    let ctx = crate::engine::ActionContext {
        seat: REBEL,
        seq: 1,
        by_default: false,
    };
    assert!(!t.rs.rolls_dice(&t.s, &ctx, &a));
    t.ok(REBEL, a);
    assert_eq!(t.hex("whites-c"), Some(n("0801")));
    // 12.85: the charger may advance into the vacated hex; it declines.
    assert_eq!(t.s.advance.as_ref().unwrap().units, ids(&["1-nj-c"]));
    t.ok(UNION, GbacwAction::DeclineAdvance);
    t.ok(UNION, GbacwAction::EndPhase);
    let (events, _) = t.roll(UNION, GbacwAction::EndPhase, 1);
    assert!(report(&events).is_none());
    let nj = &t.s.units[&id("1-nj-c")];
    assert_eq!(nj.hex, Some(n("0803")));
    assert!(!nj.status.markers.contains(&Marker::Rout));
}

#[test]
fn case_16_33_cavalry_charging_cavalry_melee_at_current_strength() {
    for seed in 0..10 {
        let mut plain = field("whites-c", Formation::Mounted);
        let walked = report(&fight(&mut plain, melee("0802", &["1-nj-c"]), seed)).unwrap();
        let mut t = field("whites-c", Formation::Mounted);
        let charged = report(&fight(&mut t, charge("0802", &["1-nj-c"]), seed)).unwrap();
        assert_eq!(charged.attack, walked.attack, "seed {seed}");
        assert_eq!(charged.defence, walked.defence, "seed {seed}");
    }
}

#[test]
fn case_16_34_mounted_cavalry_fires_only_through_its_one_front_hexside() {
    use crate::gbacw::ruleset::state::FireShare;
    let fire = |target: &str| GbacwAction::DeclareFire {
        target: n(target),
        firers: vec![FireShare {
            unit: id("1-nj-c"),
            points: 3,
        }],
    };
    let mut t = field("10-va", Formation::Line);
    // Back to the Union Offensive Fire Phase of the next Game-Turn.
    t.ok(UNION, GbacwAction::EndPhase);
    t.ok(UNION, GbacwAction::EndPhase);
    t.advance_to(UNION, Phase::OffensiveFire);
    t.put("1-nj-c", "0803", "n", Formation::Mounted);
    t.put("10-va", "0802", "s", Formation::Line);
    t.put("2-va", "0903", "s", Formation::Line);
    // 0802 lies beyond the front hexside; 0903 beyond a flank one, which a
    // unit in line could fire through (7.21) but a mounted one may not.
    t.refused(UNION, fire("0903"), "GBACW 7.22");
    t.ok(UNION, fire("0802"));
}
