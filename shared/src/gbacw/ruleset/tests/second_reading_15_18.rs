//! The second reading's acceptance cases for Standard Rules 15.0–18.0
//! (`docs/second-reading/std-15-18.md`), written from the rule text by
//! readers who never saw the engine, built with the position builder
//! and scripted dice. Each test is named as its case; the expectation is
//! the case's.

use super::reading_support::{
    boxes, casualty, charge, marked, melee, melee_report, reads, strength,
};
use super::*;
use crate::gbacw::oob::{Crew, Marker};
use crate::gbacw::ruleset::state::Casualty;
use crate::gbacw::testkit::Position;

/// In the Union Retreat Before Melee Phase: declare `action` (a melee or
/// a charge), let the defender stand, end the phase, and resolve the
/// Melee Phase with `dice`.
fn melee_with(t: &mut T, action: GbacwAction, dice: &[u16]) -> Vec<GbacwEvent> {
    assert_eq!(t.phase(), Some(Phase::RetreatBeforeMelee));
    t.ok(UNION, action);
    while t.rs.acting_seat(&t.s) == Some(REBEL) {
        t.ok(REBEL, GbacwAction::StandFast);
    }
    t.ok(UNION, GbacwAction::EndPhase);
    assert_eq!(t.phase(), Some(Phase::Melee));
    t.script(dice);
    t.act(UNION, GbacwAction::EndPhase)
}

// ---------------------------------------------------------------- 15.0

/// GBACW 15.13: "When a gun crew is at one-half strength, the current
/// fire strength of the battery is halved (round fractions up)."
#[test]
fn case_15_13_half_crew_halves_fire_round_up() {
    let mut t = Position::new(6, 6)
        .union("battery a weapon=HB guns=5 rounds=20 morale=3")
        .confederate("infantry e strength=4 morale=3 weapon=R")
        .place("a", "0303", "n", "unlimbered")
        .place("e", "0302", "s", "line")
        .build_at(1, UNION, Phase::OffensiveFire);
    t.s.units.get_mut(&id("a")).unwrap().status.crew = Crew::Half;
    t.ok(UNION, fire("0302", &[("a", 5)]));
    t.script(&[6, 1, 1]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    let r = &fire_reports(&events)[0];
    assert_eq!(r.strength, 30, "5 halved up is 3, ×10");
    assert_eq!(reads(&events), vec![(7, 6, "2*".to_string())]);
    assert_eq!(strength(&t, "e"), 2);
    assert!(!marked(&t, "e", Marker::Rout));
    assert!(!marked(&t, "e", Marker::Pin));
    assert!(t.dice_left().is_empty(), "left: {:?}", t.dice_left());
    // The other reading (`half-crew-halves-final`): 50 halved is 25, C6.
    let mut t = Position::new(6, 6)
        .union("battery a weapon=HB guns=5 rounds=20 morale=3")
        .confederate("infantry e strength=4 morale=3 weapon=R")
        .place("a", "0303", "n", "unlimbered")
        .place("e", "0302", "s", "line")
        .reading_001("half-crew-halves-final")
        .build_at(1, UNION, Phase::OffensiveFire);
    t.s.units.get_mut(&id("a")).unwrap().status.crew = Crew::Half;
    t.ok(UNION, fire("0302", &[("a", 5)]));
    t.script(&[6, 1, 1]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    assert_eq!(fire_reports(&events)[0].strength, 25);
    assert_eq!(fire_reports(&events)[0].column, 6);
}

/// A Confederate TA battery of 4 guns with `rounds`, fired on by an
/// adjacent Union HB battery of 4 guns.
fn counter_battery(rounds: u16) -> T {
    Position::new(6, 6)
        .union("battery a weapon=HB guns=4 rounds=20 morale=3")
        .confederate(&format!(
            "battery b weapon=TA guns=4 rounds={rounds} morale=3"
        ))
        .place("a", "0303", "n", "unlimbered")
        .place("b", "0302", "s", "unlimbered")
        .build_at(1, UNION, Phase::OffensiveFire)
}

/// GBACW 15.11: "Combat results achieved by artillery fire affect the
/// guns only, leaving the gun crew intact." / 15.2: "In such a case, the
/// Player suffering the loss rolls a second die; if he rolls a "1," then
/// a caisson has been hit. The Player now rolls one die again; the
/// resultant number is the number of Ammunition Points lost."
#[test]
fn case_15_11_artillery_fire_hits_guns_not_crew() {
    let mut t = counter_battery(6);
    t.ok(UNION, fire("0302", &[("a", 4)]));
    t.script(&[4, 1, 3, 3, 2]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    let r = &fire_reports(&events)[0];
    assert_eq!(r.strength, 40);
    assert_eq!(r.density_shift, -1);
    assert_eq!(reads(&events), vec![(8, 4, "1*".to_string())]);
    let b = &t.s.units[&id("b")].status;
    assert_eq!(b.strength, 3, "one gun lost");
    assert_eq!(b.crew, Crew::Full, "the crew is intact");
    assert_eq!(b.rounds, 3, "a caisson hit: three rounds lost");
    assert!(!b.markers.contains(&Marker::Rout));
    assert!(!b.markers.contains(&Marker::Pin));
    assert!(t.dice_left().is_empty(), "left: {:?}", t.dice_left());
}

/// GBACW 15.2: "the resultant number is the number of Ammunition Points
/// lost." / 11.32: "When a battery runs out of ammunition (i.e., all its
/// ammo boxes have been marked off) it may not fire."
#[test]
fn case_15_2_caisson_loss_exceeds_remaining_rounds() {
    let mut t = counter_battery(2);
    t.ok(UNION, fire("0302", &[("a", 4)]));
    t.script(&[4, 1, 5, 3, 2]);
    t.act(UNION, GbacwAction::EndPhase);
    let b = &t.s.units[&id("b")].status;
    assert_eq!(b.strength, 3);
    assert_eq!(b.rounds, 0, "2 − 5 stops at none");
    assert!(t.dice_left().is_empty(), "left: {:?}", t.dice_left());
}

/// GBACW 15.2: "if he rolls a "1," then a caisson has been hit." — a 2
/// misses, and no amount is rolled.
#[test]
fn case_15_2_caisson_roll_misses() {
    let mut t = counter_battery(6);
    t.ok(UNION, fire("0302", &[("a", 4)]));
    t.script(&[4, 2, 3, 2]);
    t.act(UNION, GbacwAction::EndPhase);
    let b = &t.s.units[&id("b")].status;
    assert_eq!(b.strength, 3);
    assert_eq!(b.rounds, 6);
    assert!(t.dice_left().is_empty(), "left: {:?}", t.dice_left());
}

/// GBACW 15.14: "The Melee Strength of a battery is "1" with a full crew
/// and "0" with a ½ crew (see 12.12)."
#[test]
fn case_15_14_half_crew_melee_strength_zero() {
    let mut t = Position::new(6, 6)
        .union("infantry f strength=2 morale=3 weapon=R")
        .confederate("battery b weapon=TA guns=4 rounds=20 morale=3")
        .place("f", "0303", "n", "line")
        .place("b", "0302", "s", "unlimbered")
        .build_at(4, UNION, Phase::RetreatBeforeMelee);
    t.s.units.get_mut(&id("b")).unwrap().status.crew = Crew::Half;
    let events = melee_with(&mut t, melee("0302", &["f"]), &[5]);
    let r = melee_report(&events);
    assert_eq!((r.attack, r.defence, r.differential), (2, 0, 2));
    assert_eq!(r.result.to_string(), "Eng/Eng");
}

// ---------------------------------------------------------------- 16.0

/// Union mounted cavalry `k` (`k_line`) in 0303 facing north, and the
/// Confederate `e_line` in 0302 facing south in `e_formation`, at the
/// Union Retreat Before Melee Phase of Game-Turn 5.
fn cavalry_field(k_line: &str, e_line: &str, e_formation: &str) -> Position {
    Position::new(6, 8)
        .union(k_line)
        .confederate(e_line)
        .place("k", "0303", "n", "mounted")
        .place("e", "0302", "s", e_formation)
}

/// GBACW 16.24: "Thus, a mounted cavalry unit that would normally melee
/// at 2—its given Combat Strength—would charge with a Melee Strength of
/// 4."
#[test]
fn example_16_24_charge_two_becomes_four() {
    let mut t = cavalry_field(
        "cavalry k strength=2 morale=3 weapon=C",
        "infantry e strength=2 morale=3 weapon=R",
        "line",
    )
    .build_at(5, UNION, Phase::RetreatBeforeMelee);
    let events = melee_with(&mut t, charge("0302", &["k"]), &[5]);
    let r = melee_report(&events);
    assert_eq!((r.attack, r.defence, r.differential), (4, 2, 2));
    assert_eq!(r.result.to_string(), "Eng/Eng");
    let k = &t.s.units[&id("k")];
    assert!(
        k.status.markers.contains(&Marker::Rout),
        "16.27: still routed"
    );
}

/// GBACW 16.24: "participating in the Melee Combat at twice its Combat
/// Strength." / 17.4: "Any unit stacked with at least one leader during a
/// melee has one point added to its Melee Strength."
#[test]
fn case_16_24_leader_point_added_after_doubling() {
    let mut t = Position::new(6, 8)
        .union("brigade s er=3 rally=1 indpnt")
        .union("cavalry k strength=2 morale=3 weapon=C brigade=s")
        .confederate("infantry e strength=4 morale=3 weapon=R")
        .place("k", "0303", "n", "mounted")
        .place("e", "0302", "s", "line")
        .leader("s", "0303")
        .build_at(5, UNION, Phase::RetreatBeforeMelee);
    let events = melee_with(&mut t, charge("0302", &["k"]), &[4]);
    let r = melee_report(&events);
    assert_eq!((r.attack, r.defence, r.differential), (5, 4, 1));
    assert_eq!(r.result.to_string(), "Eng/Eng");
    assert!(marked(&t, "k", Marker::Rout), "16.27");
}

/// GBACW 16.33: "When one mounted cavalry unit charges another mounted
/// cavalry unit, they both melee with their Current Strengths. Neither
/// attacker nor defender doubles its strength."
#[test]
fn case_16_33_cav_charges_cav_no_doubling() {
    let mut t = cavalry_field(
        "cavalry k strength=3 morale=3 weapon=C",
        "cavalry e strength=2 morale=3 weapon=C",
        "mounted",
    )
    .build_at(5, UNION, Phase::RetreatBeforeMelee);
    let events = melee_with(&mut t, charge("0302", &["k"]), &[4]);
    let r = melee_report(&events);
    assert_eq!((r.attack, r.defence, r.differential), (3, 2, 1));
    assert_eq!(r.result.to_string(), "Eng/Eng");
    assert!(marked(&t, "k", Marker::Rout), "16.25, 16.27");
}

/// GBACW 16.32: "Mounted cavalry meleed by infantry and/or dismounted
/// cavalry defends at twice its Current Strength."
#[test]
fn case_16_32_mounted_cav_defends_double_vs_infantry() {
    let mut t = Position::new(6, 8)
        .union("infantry f strength=3 morale=3 weapon=R")
        .confederate("cavalry k strength=2 morale=3 weapon=C")
        .place("f", "0304", "n", "line")
        .place("k", "0303", "s", "mounted")
        .build_at(4, UNION, Phase::RetreatBeforeMelee);
    let events = melee_with(&mut t, melee("0303", &["f"]), &[4, 1, 1, 1]);
    let r = melee_report(&events);
    assert_eq!((r.attack, r.defence, r.differential), (3, 4, -1));
    assert_eq!(r.result.to_string(), "R2/-");
}

/// GBACW 16.35: "Mounted cavalry units are *always* enfiladed when fired
/// upon, regardless of their facing." / 6.14: "Mounted cavalry suffer a
/// one *Column* adjustment to the right on the Fire CRT when fired upon
/// (see 7.0)."
#[test]
fn case_16_35_mounted_cav_always_enfiladed_one_shift() {
    let mut t = Position::new(6, 6)
        .union("battery a weapon=HB guns=1 rounds=20 morale=3")
        .confederate("cavalry k strength=2 morale=3 weapon=C")
        .place("a", "0303", "n", "unlimbered")
        .place("k", "0302", "s", "mounted")
        .build_at(1, UNION, Phase::OffensiveFire);
    t.ok(UNION, fire("0302", &[("a", 1)]));
    t.script(&[4, 2]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    let r = &fire_reports(&events)[0];
    assert_eq!(r.strength, 10);
    assert!(r.enfilade);
    assert_eq!((r.density_shift, r.net_shift), (-1, 0));
    assert_eq!(reads(&events), vec![(3, 4, "R".to_string())]);
    assert!(!marked(&t, "k", Marker::Rout));
    assert!(t.dice_left().is_empty(), "left: {:?}", t.dice_left());
}

/// GBACW 16.1: "Unrouted mounted cavalry units in danger of being melee
/// attacked solely by infantry or dismounted cavalry may refuse melee and
/// retreat one or two hexes. Unlike normal Retreat Before Melee (see
/// 12.8) a morale check is not necessary and there is no withdrawal
/// fire."
#[test]
fn case_16_1_mounted_cav_rbm_no_check_no_withdrawal_fire() {
    let mut t = Position::new(6, 8)
        .union("infantry f strength=4 morale=3 weapon=R")
        .confederate("cavalry k strength=2 morale=3 weapon=C")
        .place("f", "0305", "n", "line")
        .place("k", "0304", "s", "mounted")
        .build_at(4, UNION, Phase::RetreatBeforeMelee);
    t.ok(UNION, melee("0304", &["f"]));
    let events = t.act(
        REBEL,
        GbacwAction::RetreatBeforeMelee {
            units: ids(&["k"]),
            path: vec![n("0303"), n("0302")],
        },
    );
    assert_eq!(t.hex("k"), Some(n("0302")));
    assert!(t.s.decision.is_none(), "no withdrawal fire is offered");
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, GbacwEvent::MoraleChecked { .. })),
        "{events:#?}"
    );
    assert!(!marked(&t, "k", Marker::Rout));
}

// ---------------------------------------------------------------- 17.0

/// Confederate `u` (4 SP, morale 3) in 0302 with leaders `leaders`, fired
/// on by an adjacent Union HB battery of 2 guns: 20, grapeshot C5.
fn leader_stack(leaders: &[&str]) -> T {
    let mut p = Position::new(6, 6)
        .confederate("division b-d dir=10 cp=2")
        .confederate("brigade a-s er=3 rally=1 division=b-d")
        .confederate("infantry u strength=4 morale=3 weapon=R brigade=a-s")
        .union("battery a weapon=HB guns=2 rounds=20 morale=3")
        .place("u", "0302", "s", "line")
        .place("a", "0303", "n", "unlimbered");
    for l in leaders {
        p = p.leader(l, "0302");
    }
    if !leaders.contains(&"b-d") {
        p = p.leader("b-d", "0102");
    }
    p.build_at(1, UNION, Phase::OffensiveFire)
}

/// GBACW 17.72: "Whenever a leader is stacked with a unit that suffers a
/// combat casualty, the (owning) Player rolls two dice and refers to the
/// Leader Casualty Table (17.76) ... Leader loss is checked before morale
/// checks are conducted for the units in the hex."
#[test]
fn case_17_72_leader_loss_checked_before_morale() {
    let mut t = leader_stack(&["a-s"]);
    t.ok(UNION, fire("0302", &[("a", 2)]));
    t.script(&[4, 1, 2, 4]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    assert_eq!(reads(&events), vec![(5, 4, "1".to_string())]);
    assert_eq!(strength(&t, "u"), 3);
    assert_eq!(casualty(&t, "a-s"), Some(Casualty::Wounded));
    assert!(marked(&t, "u", Marker::Rout), "4 > 3 with no leader left");
}

/// GBACW 17.72: "Each leader in a hex is rolled for separately."
#[test]
fn case_17_72_each_leader_rolled_separately() {
    let mut t = leader_stack(&["a-s", "b-d"]);
    t.ok(UNION, fire("0302", &[("a", 2)]));
    t.script(&[4, 1, 2, 6, 6, 4]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    let rolled: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            GbacwEvent::LeaderRolled { leader, roll, .. } => Some((leader.0.clone(), *roll)),
            _ => None,
        })
        .collect();
    assert_eq!(rolled, vec![("a-s".into(), 3), ("b-d".into(), 12)]);
    assert_eq!(casualty(&t, "a-s"), Some(Casualty::Wounded));
    assert_eq!(casualty(&t, "b-d"), None, "12 does nothing to artillery");
    assert!(!marked(&t, "u", Marker::Rout), "4 − 1 = 3: holds");
}

/// GBACW 17.72: "Whenever a leader is stacked with a unit that suffers a
/// combat casualty" — a "P" is no casualty: no roll.
#[test]
fn case_17_72_no_casualty_no_leader_roll() {
    let mut t = leader_stack(&["a-s"]);
    t.ok(UNION, fire("0302", &[("a", 2)]));
    t.script(&[1, 4]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    assert_eq!(reads(&events), vec![(5, 1, "P".to_string())]);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, GbacwEvent::LeaderRolled { .. }))
    );
    assert_eq!(casualty(&t, "a-s"), None);
    assert!(!marked(&t, "u", Marker::Pin), "4 − 1 = 3: no effect");
    assert!(t.dice_left().is_empty(), "left: {:?}", t.dice_left());
}

/// GBACW 12.4: "An infantry regiment worth 5 is stacked with a leader
/// and melees with an Enemy regiment worth 2, which is also stacked with
/// a leader. The Final Combat Differential is +3; the 5 unit add 1 for
/// the leader, for a total of 6, but the defending unit also has a
/// leader (2 + 1 = 3)."
#[test]
fn example_12_4_leaders_on_both_sides() {
    let mut t = Position::new(6, 6)
        .union("brigade s er=3 rally=1 indpnt")
        .union("infantry f strength=5 morale=3 weapon=R brigade=s")
        .confederate("brigade t er=3 rally=1 indpnt")
        .confederate("infantry e strength=2 morale=3 weapon=R brigade=t")
        .place("f", "0303", "n", "line")
        .place("e", "0302", "s", "line")
        .leader("s", "0303")
        .leader("t", "0302")
        .build_at(4, UNION, Phase::RetreatBeforeMelee);
    // The melee die; then T on the "C" column (3 + 4 = 7: no effect).
    let events = melee_with(&mut t, melee("0302", &["f"]), &[1, 3, 4]);
    let r = melee_report(&events);
    assert_eq!((r.attack, r.defence, r.differential), (6, 3, 3));
    assert_eq!(r.result.to_string(), "-/C2R3");
    assert_eq!(t.hex("e"), None, "both points captured");
    assert_eq!(casualty(&t, "t"), Some(Casualty::Captured), "17.73");
}

/// GBACW 17.73: "If a leader is the only Friendly counter in a hex after
/// a melee (or there are other leaders), it may not retreat; it is
/// captured."
#[test]
fn case_17_73_lone_leader_after_melee_captured() {
    let mut t = Position::new(6, 6)
        .union("infantry f strength=6 morale=3 weapon=R")
        .confederate("division d dir=10 cp=2")
        .confederate("brigade s er=3 rally=1 division=d")
        .confederate("infantry e strength=1 morale=3 weapon=R brigade=s")
        .place("f", "0303", "n", "line")
        .place("e", "0302", "s", "line")
        .leader("s", "0302")
        .leader("d", "0302")
        .build_at(4, UNION, Phase::RetreatBeforeMelee);
    let events = melee_with(&mut t, melee("0302", &["f"]), &[1, 3, 4, 4, 5]);
    let r = melee_report(&events);
    assert_eq!((r.attack, r.defence, r.differential), (6, 2, 4));
    assert_eq!(r.result.to_string(), "-/C2R3");
    assert_eq!(t.hex("e"), None);
    assert_eq!(casualty(&t, "s"), Some(Casualty::Captured));
    assert_eq!(casualty(&t, "d"), Some(Casualty::Captured));
}

/// GBACW 17.4: "Any unit stacked with at least one leader during a melee
/// has one point added to its Melee Strength." / 17.51: "However, only
/// one leader can affect a unit in that hex regardless of how many
/// leaders are in that hex."
#[test]
fn case_17_4_leader_melee_plus_one_morale_minus_one() {
    let mut t = Position::new(6, 6)
        .union("division d dir=10 cp=2")
        .union("brigade s er=3 rally=1 division=d")
        .union("infantry f strength=4 morale=3 weapon=R brigade=s")
        .confederate("infantry e strength=4 morale=3 weapon=R")
        .place("f", "0303", "n", "line")
        .place("e", "0302", "s", "line")
        .leader("s", "0303")
        .leader("d", "0303")
        .build_at(4, UNION, Phase::RetreatBeforeMelee);
    let events = melee_with(&mut t, melee("0302", &["f"]), &[4]);
    let r = melee_report(&events);
    assert_eq!((r.attack, r.defence, r.differential), (5, 4, 1));
    assert_eq!(r.result.to_string(), "Eng/Eng");
}

/// GBACW 2.0 (Command Points Rating): "Thus, a commander with a total of
/// two Command Points could increase the Effectiveness Radius of one
/// brigade commander by two, or two brigade commanders by one."
#[test]
fn example_2_0_command_points_split() {
    let p = Position::new(8, 8)
        .union("division d dir=10 cp=2")
        .union("brigade s1 er=3 rally=1 division=d")
        .union("brigade s2 er=3 rally=1 division=d")
        .union("infantry u1 strength=4 morale=3 weapon=R brigade=s1")
        .union("infantry u2 strength=4 morale=3 weapon=R brigade=s2")
        .union("infantry ud strength=4 morale=3 weapon=R brigade=s1")
        .place("u1", "0201", "s", "line")
        .place("u2", "0601", "s", "line")
        .place("ud", "0405", "n", "line")
        .leader("s1", "0201")
        .leader("s2", "0601")
        .leader("d", "0405");
    let spend = |b: &str, points: u8| GbacwAction::SpendCommandPoints {
        division: id("d"),
        brigade: id(b),
        points,
    };
    // (a) one each.
    let mut t = p.build_at(1, UNION, Phase::InitialCommand);
    t.ok(UNION, spend("s1", 1));
    t.ok(UNION, spend("s2", 1));
    assert_eq!(t.s.leaders[&id("s1")].augmented, Some((id("d"), 1)));
    assert_eq!(t.s.leaders[&id("s2")].augmented, Some((id("d"), 1)));
    assert!(t.decide(UNION, &spend("s1", 1)).is_err(), "no third point");
    // (b) both to one.
    let mut t = p.build_at(1, UNION, Phase::InitialCommand);
    t.ok(UNION, spend("s1", 2));
    assert_eq!(t.s.leaders[&id("s1")].augmented, Some((id("d"), 2)));
    assert_eq!(t.s.leaders[&id("s2")].augmented, None);
    assert!(t.decide(UNION, &spend("s2", 1)).is_err(), "no third point");
}

/// GBACW 2.0 (Rally Rating): "Thus, if a brigade commander had a Rally
/// Rating of two, he could rally two units of his command which are
/// within his Effectiveness Radius in addition to any stacked with that
/// brigade commander. **Note:** Division commanders have no Rally Rating
/// and may only rally units with which they are stacked."
#[test]
fn example_2_0_rally_rating_two() {
    let mut t = Position::new(10, 10)
        .union("division d dir=10 cp=2")
        .union("brigade s er=3 rally=2 division=d")
        .union("brigade s2 er=2 rally=1 division=d")
        .union("infantry r0 strength=4 morale=3 weapon=R brigade=s")
        .union("infantry r1 strength=4 morale=3 weapon=R brigade=s")
        .union("infantry r2 strength=4 morale=3 weapon=R brigade=s")
        .union("infantry r3 strength=4 morale=3 weapon=R brigade=s")
        .union("infantry x strength=4 morale=3 weapon=R brigade=s2")
        .union("infantry y strength=4 morale=3 weapon=R brigade=s2")
        .union("infantry z strength=4 morale=3 weapon=R brigade=s2")
        .place("r0", "0303", "n", "line")
        .place("r1", "0305", "n", "line")
        .place("r2", "0306", "n", "line")
        .place("r3", "0103", "n", "line")
        .place("x", "0808", "n", "line")
        .place("y", "0809", "n", "line")
        .place("z", "0101", "n", "line")
        .leader("s", "0303")
        .leader("s2", "0101")
        .leader("d", "0808")
        .build_at(1, UNION, Phase::AmmunitionResupply);
    for u in ["r0", "r1", "r2", "r3", "x", "y"] {
        let m = &mut t.s.units.get_mut(&id(u)).unwrap().status.markers;
        m.insert(Marker::Rout);
    }
    t.advance_to(UNION, Phase::Rally);
    let rally = |u: &str| GbacwAction::Rally { unit: id(u) };
    t.ok(UNION, rally("r0"));
    t.ok(UNION, rally("r1"));
    t.ok(UNION, rally("r2"));
    assert!(t.decide(UNION, &rally("r3")).is_err(), "two points spent");
    t.ok(UNION, rally("x"));
    assert!(t.decide(UNION, &rally("y")).is_err(), "no Rally Rating");
    for (u, routed) in [("r0", false), ("r1", false), ("r2", false), ("r3", true)] {
        assert_eq!(marked(&t, u, Marker::Rout), routed, "{u}");
    }
    assert!(!marked(&t, "x", Marker::Rout));
    assert!(marked(&t, "y", Marker::Rout));
}

/// GBACW 17.6: "Thus, a division which began the game with 3 brigades
/// may be composed of as few as 2 brigades (3 - 1) or as many as 4 (3 +
/// 1)."
#[test]
fn example_17_6_three_brigades_two_to_four() {
    let mut t = Position::new(8, 8)
        .union("division d dir=10 cp=2")
        .union("brigade x er=3 rally=1 division=d")
        .union("brigade y er=3 rally=1 division=d")
        .union("brigade z er=3 rally=1 division=d")
        .union("brigade w er=3 rally=1 indpnt")
        .union("brigade v er=3 rally=1 indpnt")
        .union("infantry ux strength=4 morale=3 weapon=R brigade=x")
        .union("infantry uy strength=4 morale=3 weapon=R brigade=y")
        .union("infantry uz strength=4 morale=3 weapon=R brigade=z")
        .union("infantry uw strength=4 morale=3 weapon=R brigade=w")
        .union("infantry uv strength=4 morale=3 weapon=R brigade=v")
        .place("ux", "0202", "n", "line")
        .place("uy", "0302", "n", "line")
        .place("uz", "0402", "n", "line")
        .place("uw", "0502", "n", "line")
        .place("uv", "0602", "n", "line")
        .leader("x", "0202")
        .leader("y", "0302")
        .leader("z", "0402")
        .leader("w", "0502")
        .leader("v", "0602")
        .leader("d", "0304")
        .build_at(1, UNION, Phase::InitialCommand);
    t.ok(UNION, GbacwAction::Detach { brigade: id("x") });
    t.ok(
        UNION,
        GbacwAction::Attach {
            brigade: id("w"),
            division: id("d"),
        },
    );
    assert_eq!(t.s.links[&id("d")].detached, Some(id("x")));
    assert_eq!(t.s.links[&id("d")].attached, Some(id("w")));
    // 17.64: "Only one brigade may ever be attached to a division
    // although during the course of the game the brigade which is
    // attached may be changed": attaching V changes it, W is released;
    // never two (see the case's note in std-15-18.md).
    t.ok(
        UNION,
        GbacwAction::Attach {
            brigade: id("v"),
            division: id("d"),
        },
    );
    assert_eq!(t.s.links[&id("d")].attached, Some(id("v")));
    let e = t
        .decide(UNION, &GbacwAction::Detach { brigade: id("y") })
        .expect_err("a second detachment");
    assert!(e.rule.contains("17.6"), "{e}");
}

/// GBACW 17.11: "The Effectiveness Radius is the maximum number of hexes
/// a unit may be from its brigade commander during the Initial Command
/// Phase in order to have full movement and combat capability."
#[test]
fn case_17_11_exactly_at_radius_in_command() {
    let mut t = Position::new(8, 12)
        .union("brigade s er=3 rally=1 indpnt")
        .union("infantry u strength=4 morale=3 weapon=R brigade=s")
        .union("infantry v strength=4 morale=3 weapon=R brigade=s")
        .place("u", "0304", "s", "line")
        .place("v", "0301", "s", "line")
        .leader("s", "0301")
        .build_at(1, UNION, Phase::Movement);
    assert_eq!(t.rs.game().map.grid.distance(n("0301"), n("0304")), 3);
    assert!(!t.s.command.out_of_command.contains(&id("u")));
    t.ok(UNION, mv(&["u"], &["0305", "0306", "0307", "0308", "0309"]));
    t.ok(
        UNION,
        GbacwAction::ChangeFormation {
            unit: id("u"),
            to: Formation::Column,
        },
    );
}

/// GBACW 17.13: "For each Point in his Rally Rating a brigade commander
/// may rally one regiment" / "Any units stacked with a brigade commander
/// ... are automatically rallied at no cost in Rally Points." A
/// replacement of Rally 0.
#[test]
fn case_17_13_replacement_leader_rally_zero() {
    let mut t = Position::new(8, 8)
        .union("brigade s er=2 rally=0 indpnt")
        .union("infantry a strength=4 morale=3 weapon=R brigade=s")
        .union("infantry b strength=4 morale=3 weapon=R brigade=s")
        .place("a", "0303", "n", "line")
        .place("b", "0304", "n", "line")
        .leader("s", "0303")
        .build_at(1, UNION, Phase::AmmunitionResupply);
    for u in ["a", "b"] {
        let m = &mut t.s.units.get_mut(&id(u)).unwrap().status.markers;
        m.insert(Marker::Rout);
    }
    t.advance_to(UNION, Phase::Rally);
    t.ok(UNION, GbacwAction::Rally { unit: id("a") });
    assert!(!marked(&t, "a", Marker::Rout));
    assert!(
        t.decide(UNION, &GbacwAction::Rally { unit: id("b") })
            .is_err(),
        "no Rally Points"
    );
}

// ---------------------------------------------------------------- 18.0

/// Confederate brigade `x` (6 boxes) and its regiment `u` (4 SP) in
/// 0302; a Union HB battery of `guns` adjacent.
fn bce_field(guns: u8) -> T {
    Position::new(6, 6)
        .confederate("brigade x er=6 rally=1 indpnt bce=6/10 bce-vp=3")
        .confederate("infantry u strength=4 morale=3 weapon=R brigade=x")
        .confederate("infantry v strength=6 morale=3 weapon=R brigade=x")
        .union(&format!(
            "battery a weapon=HB guns={guns} rounds=20 morale=3"
        ))
        .place("u", "0302", "s", "line")
        .place("v", "0105", "s", "line")
        .leader("x", "0105")
        .place("a", "0303", "n", "unlimbered")
        .build_at(1, UNION, Phase::OffensiveFire)
}

/// GBACW 18.0: "Each time the strength of an infantry or cavalry unit of
/// a given brigade is reduced, that brigade's BCE is reduced. The
/// reduction is indicated by marking one (or more) box(es)."
#[test]
fn case_18_0_infantry_loss_marks_boxes() {
    let mut t = bce_field(3);
    t.ok(UNION, fire("0302", &[("a", 3)]));
    t.script(&[6, 2, 1]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    assert_eq!(reads(&events), vec![(7, 6, "2*".to_string())]);
    assert_eq!(strength(&t, "u"), 2);
    assert_eq!(boxes(&t), (2, false));
    assert!(t.dice_left().is_empty(), "left: {:?}", t.dice_left());
}

/// GBACW 18.0: "Each time the strength of an infantry or cavalry unit of
/// a given brigade is reduced, that brigade's BCE is reduced." — a rout
/// without a loss marks nothing.
#[test]
fn case_18_0_pin_or_rout_without_loss_marks_nothing() {
    let mut t = bce_field(1);
    t.ok(UNION, fire("0302", &[("a", 1)]));
    // 10 is C3; a 5 reads "P/R"; the check 6 routs.
    t.script(&[5, 6]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    assert_eq!(reads(&events), vec![(3, 5, "P/R".to_string())]);
    assert!(marked(&t, "u", Marker::Rout));
    assert_eq!(boxes(&t), (0, false));
}

/// GBACW 18.0: "When all the boxes to the left of the Victory Point
/// award have been marked, that brigade has lost its Brigade Combat
/// Effectiveness." — reached, not exceeded.
#[test]
fn case_18_0_last_box_loses_bce() {
    let mut t = bce_field(1);
    // Five boxes marked before: v has lost five of its six points.
    {
        let v = t.s.units.get_mut(&id("v")).unwrap();
        v.status.strength = 1;
        v.killed = 5;
    }
    assert_eq!(boxes(&t), (5, false));
    t.ok(UNION, fire("0302", &[("a", 1)]));
    // 10 is C3; a 6 reads "1"; the morale check 1.
    t.script(&[6, 1]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    assert_eq!(reads(&events), vec![(3, 6, "1".to_string())]);
    assert_eq!(boxes(&t), (6, true));
}

/// Union mounted cavalry K (3 SP) `from` hexes south of Confederate E
/// (4 SP, Line, in 0302) at the start of the Union Movement Phase.
fn charge_run(k_start: &str) -> T {
    Position::new(6, 10)
        .union("cavalry k strength=3 morale=3 weapon=C")
        .confederate("infantry e strength=4 morale=3 weapon=R")
        .place("k", k_start, "n", "mounted")
        .place("e", "0302", "s", "line")
        .build_at(5, UNION, Phase::Movement)
}

/// GBACW 16.23: "To mount a charge, the cavalry units must begin the
/// Friendly Movement Phase no more than four hexes from the target hex."
/// / 16.24 "participating in the Melee Combat at twice its Combat
/// Strength." / 16.25 "Cavalry units conducting a charge are
/// automatically routed after the completion of the Melee Combat
/// resulting from the charge." / 16.26 "Units being charged (except
/// mounted cavalry) may not retreat before melee."
#[test]
fn case_16_23_charge_from_four_hexes() {
    let mut t = charge_run("0306");
    assert_eq!(t.rs.game().map.grid.distance(n("0306"), n("0302")), 4);
    t.ok(UNION, mv(&["k"], &["0305", "0304", "0303"]));
    t.advance_to(UNION, Phase::RetreatBeforeMelee);
    t.ok(UNION, charge("0302", &["k"]));
    let e = t
        .decide(
            REBEL,
            &GbacwAction::RetreatBeforeMelee {
                units: ids(&["e"]),
                path: vec![n("0301")],
            },
        )
        .expect_err("16.26");
    assert!(e.rule.contains("16.26") || e.rule.contains("12.8"), "{e}");
    while t.rs.acting_seat(&t.s) == Some(REBEL) {
        t.ok(REBEL, GbacwAction::StandFast);
    }
    t.ok(UNION, GbacwAction::EndPhase);
    t.script(&[3, 2]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    let r = melee_report(&events);
    assert_eq!((r.attack, r.defence, r.differential), (6, 4, 2));
    assert_eq!(r.result.to_string(), "-/C1R2");
    assert_eq!(strength(&t, "e"), 3);
    assert!(marked(&t, "k", Marker::Rout), "16.25");
}

/// GBACW 16.23: "A cavalry unit more than four hexes from a target hex
/// may not charge that target hex during that Player-Turn, although it
/// may melee normally."
#[test]
fn case_16_23_five_hexes_may_not_charge_but_may_melee() {
    let mut t = charge_run("0307");
    assert_eq!(t.rs.game().map.grid.distance(n("0307"), n("0302")), 5);
    t.ok(UNION, mv(&["k"], &["0306", "0305", "0304", "0303"]));
    t.advance_to(UNION, Phase::RetreatBeforeMelee);
    let e = t
        .decide(UNION, &charge("0302", &["k"]))
        .expect_err("five hexes");
    assert!(e.rule.contains("16.23"), "{e}");
    let events = melee_with(&mut t, melee("0302", &["k"]), &[4, 1, 1, 1]);
    let r = melee_report(&events);
    assert_eq!((r.attack, r.defence, r.differential), (3, 4, -1));
    assert_eq!(r.result.to_string(), "R2/-");
}

/// GBACW 17.11: "A unit that is not within that Radius may be moved only
/// one hex during that Game-Turn's Movement Phase. Furthermore, such a
/// unit may not fire during the Offensive Fire Phase and may not initiate
/// melee (unless already engaged in one) or change formation."
#[test]
fn case_17_11_out_of_radius_restrictions() {
    let p = Position::new(8, 12)
        .union("brigade s er=3 rally=1 indpnt")
        .union("infantry h strength=4 morale=3 weapon=R brigade=s")
        .union("infantry u strength=4 morale=3 weapon=R brigade=s")
        .confederate("infantry e strength=4 morale=3 weapon=R")
        .place("h", "0301", "s", "line")
        .leader("s", "0301")
        .place("u", "0305", "s", "line")
        .place("e", "0307", "n", "line");
    let mut t = p.build_at(5, UNION, Phase::Movement);
    assert_eq!(t.rs.game().map.grid.distance(n("0301"), n("0305")), 4);
    assert!(t.s.command.out_of_command.contains(&id("u")));
    assert!(t.decide(UNION, &mv(&["u"], &["0205", "0105"])).is_err());
    assert!(
        t.decide(
            UNION,
            &GbacwAction::ChangeFormation {
                unit: id("u"),
                to: Formation::Column
            }
        )
        .is_err()
    );
    t.ok(UNION, mv(&["u"], &["0205"]));
    t.ok(
        UNION,
        GbacwAction::Face {
            unit: id("u"),
            facing: dir("se"),
        },
    );
    // (d) No offensive fire.
    let t = p.build_at(5, UNION, Phase::OffensiveFire);
    assert!(t.s.command.out_of_command.contains(&id("u")));
    let e = t
        .decide(UNION, &fire("0307", &[("u", 4)]))
        .expect_err("no offensive fire");
    assert_eq!(e.rule, "GBACW 17.11", "{e}");
    // (e) No melee initiated, against E2 across its front hexside.
    let t = p
        .confederate("infantry e2 strength=4 morale=3 weapon=R")
        .place("e2", "0306", "n", "line")
        .build_at(5, UNION, Phase::RetreatBeforeMelee);
    assert!(t.s.command.out_of_command.contains(&id("u")));
    let e = t
        .decide(UNION, &melee("0306", &["u"]))
        .expect_err("no melee initiated");
    assert!(e.rule.contains("17.11"), "{e}");
}

/// GBACW 17.11: "However, such units may still fire defensive,
/// withdrawal, and retreat fire and still exert a ZOC."
#[test]
fn case_17_11_out_of_command_still_fires_defensively_and_has_zoc() {
    let mut t = Position::new(8, 12)
        .union("brigade s er=3 rally=1 indpnt")
        .union("infantry h strength=4 morale=3 weapon=R brigade=s")
        .union("infantry u strength=4 morale=3 weapon=R brigade=s")
        .confederate("infantry e strength=4 morale=3 weapon=R")
        .place("h", "0301", "s", "line")
        .leader("s", "0301")
        .place("u", "0305", "s", "line")
        .place("e", "0307", "n", "line")
        .out_of_command("u")
        .build_at(5, REBEL, Phase::DefensiveFire);
    t.ok(UNION, fire("0307", &[("u", 4)]));
}

/// GBACW 17.52: "Leaders must always end a Movement Phase stacked with a
/// combat unit, with one exception: If the leader is five or more hexes
/// distant from the nearest Enemy unit at the completion of all
/// movement, it may remain in the hex alone."
#[test]
fn case_17_52_leader_alone_needs_five_hexes() {
    let trial = |enemy: &str| {
        let mut t = Position::new(6, 12)
            .union("brigade s er=3 rally=1 indpnt")
            .union("infantry u strength=4 morale=3 weapon=R brigade=s")
            .confederate("infantry e strength=4 morale=3 weapon=R")
            .place("u", "0303", "s", "line")
            .leader("s", "0303")
            .place("e", enemy, "n", "line")
            .build_at(1, UNION, Phase::Movement);
        t.ok(UNION, mv(&["s"], &["0302"]));
        assert_eq!(t.rs.game().map.grid.distance(n("0302"), n(enemy)), {
            if enemy == "0307" { 5 } else { 4 }
        });
        t.decide(UNION, &GbacwAction::EndPhase)
    };
    assert!(trial("0307").is_ok(), "five hexes: may stay alone");
    let e = trial("0306").expect_err("four hexes");
    assert!(e.rule.contains("17.52"), "{e}");
}

/// GBACW 17.23: "Division commanders may command combat units which are
/// stacked with that commander during the Friendly Initial Command Phase.
/// These units may be from any brigade and function normally for that
/// entire Player-Turn."
#[test]
fn case_17_23_division_leader_stacked_commands_for_player_turn() {
    let mut t = Position::new(10, 12)
        .union("division d dir=10 cp=0")
        .union("brigade s er=3 rally=1 division=d")
        .union("infantry h strength=4 morale=3 weapon=R brigade=s")
        .union("infantry u strength=4 morale=3 weapon=R brigade=s")
        .union("infantry w strength=4 morale=3 weapon=R brigade=s")
        .place("h", "0101", "s", "line")
        .leader("s", "0101")
        .place("u", "0801", "s", "line")
        .place("w", "0804", "s", "line")
        .leader("d", "0801")
        .build_at(1, UNION, Phase::Movement);
    assert!(t.rs.game().map.grid.distance(n("0101"), n("0801")) > 3);
    assert!(!t.s.command.out_of_command.contains(&id("u")));
    t.ok(UNION, mv(&["d"], &["0802", "0803", "0804"]));
    t.ok(
        UNION,
        mv(&["u"], &["0701", "0601", "0501", "0401", "0301", "0201"]),
    );
}
