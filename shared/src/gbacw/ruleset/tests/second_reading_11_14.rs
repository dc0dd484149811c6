//! The second reading's cases for Standard Rules 11.0–14.0
//! (docs/second-reading/std-11-14.md), written from the rule text by
//! readers who never saw the engine, as position-builder tests: the
//! position, the action and the exact dice of each case, and the outcome
//! the text gives. Each test is named after its case and quotes the
//! sentence its expectation rests on.
//!
//! The common field is 8 × 8 and clear. The usual duel: the Union
//! attacker in 0406 facing north, its front hex 0405, where the
//! Confederate defender stands facing south. 0405 (even column) touches
//! 0404 (n), 0505 (ne), 0506 (se), 0406 (s), 0306 (sw) and 0305 (nw); so a
//! second and third attacker stand in 0506 facing nw and 0306 facing ne.

use super::reading_support::{
    dist, field, fight, mark, marked, melee, melee_reports, settle_rules, strength,
};
use super::*;
use crate::gbacw::oob::Marker;
use crate::gbacw::tables::{FireResult, MeleeEffect};
use crate::gbacw::testkit::Position;

fn away(t: &T, u: &str, from: &str) -> u32 {
    let h = t.hex(u).expect("on the map");
    t.rs.game().map.grid.distance(h, n(from))
}

/// Answer every pending retreat order with the owner's first legal path
/// (14.4: the owner's choice; these cases do not care which).
fn retreat_all(t: &mut T) {
    for _ in 0..20 {
        let Some(o) = t.s.retreats.first().cloned() else {
            return;
        };
        let p =
            t.rs.pending(&t.s)
                .into_iter()
                .find(|p| matches!(p.default, GbacwAction::Retreat { .. }))
                .expect("a retreat decision");
        t.act(o.seat, p.default);
    }
    panic!("retreats never ended");
}

fn fire_result(events: &[GbacwEvent]) -> FireResult {
    let r = &fire_reports(events)[0];
    println!("{r:?}");
    r.result
}

// ---------------------------------------------------------------- 11.0

/// "Each time a small-arms unit fires and a "1" is rolled on the Fire
/// Combat Results Table, there is a possibility of the unit running out of
/// ammunition. The Player rolls again for each unit that fired in that
/// combat result: if the number rolled is "1" or "2," that unit is
/// considered "ammo depleted.""
#[test]
fn case_11_21_die1_each_firer_rolls_depletion() {
    let mut t = field()
        .union("infantry x strength=4 morale=4 weapon=R")
        .union("infantry y strength=3 morale=4 weapon=R")
        .confederate("infantry z strength=4 morale=4 weapon=R")
        .place("x", "0406", "n", "line")
        .place("y", "0506", "nw", "line")
        .place("z", "0405", "s", "line")
        .build_at(1, UNION, Phase::OffensiveFire);
    assert_eq!(dist(&t, "0506", "0405"), 1);
    t.ok(UNION, fire("0405", &[("x", 4), ("y", 3)]));
    // 8 + 6 = 14 points, "11 to 14": Fire CRT 1 reads "P", resolved
    // normally (Z's pin roll 1 passes); then X's depletion roll 2 and Y's
    // 3. (The text does not order the pin roll and the depletion rolls;
    // the engine rolls the result first.)
    t.script(&[1, 1, 2, 3]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    let r = &fire_reports(&events)[0];
    println!("{r:?}");
    assert_eq!(r.die, 1);
    assert!(
        marked(&t, "x", Marker::AmmoDepleted),
        "X rolled 2: depleted"
    );
    assert!(!marked(&t, "y", Marker::AmmoDepleted), "Y rolled 3");
    assert!(!marked(&t, "z", Marker::AmmoDepleted), "Z did not fire");
    assert!(t.dice_left().is_empty(), "exactly two depletion rolls");
}

/// "Each time a small-arms unit fires and a "1" is rolled on the Fire
/// Combat Results Table, there is a possibility of the unit running out of
/// ammunition."
#[test]
fn case_11_21_die_not_one_no_depletion_roll() {
    let pos = field()
        .union("infantry x strength=4 morale=4 weapon=R")
        .confederate("infantry z strength=4 morale=4 weapon=R")
        .place("x", "0406", "n", "line")
        .place("z", "0405", "s", "line");
    // Roll 2: no depletion roll at all (the spare faces are for Z's
    // morale or pin checks, never a depletion roll).
    let mut t = pos.build_at(1, UNION, Phase::OffensiveFire);
    t.ok(UNION, fire("0405", &[("x", 4)]));
    t.script(&[2, 1, 1]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    assert_eq!(fire_reports(&events)[0].die, 2);
    assert!(!marked(&t, "x", Marker::AmmoDepleted));
    // Roll 1, then depletion 2: depleted; depletion 3: not.
    for (roll, depleted) in [(2, true), (3, false)] {
        let mut t = pos.build_at(1, UNION, Phase::OffensiveFire);
        t.ok(UNION, fire("0405", &[("x", 4)]));
        t.script(&[1, roll]);
        t.act(UNION, GbacwAction::EndPhase);
        assert_eq!(marked(&t, "x", Marker::AmmoDepleted), depleted, "{roll}");
        assert!(t.dice_left().is_empty());
    }
}

/// "A unit out of ammunition may move and engage in melee normally. It
/// may not fire under any circumstances until it is resupplied"
#[test]
fn case_11_22_depleted_unit_cannot_fire_but_may_melee() {
    let mut t = field()
        .union("infantry x strength=4 morale=4 weapon=R")
        .confederate("infantry z strength=3 morale=3 weapon=R")
        .place("x", "0406", "n", "line")
        .place("z", "0405", "s", "line")
        .build_at(1, UNION, Phase::OffensiveFire);
    mark(&mut t, "x", Marker::AmmoDepleted);
    // (a) no fire.
    let e = t
        .try_act(UNION, fire("0405", &[("x", 4)]))
        .expect_err("11.22: a depleted unit may not fire");
    assert_eq!(e.rule, "GBACW 11.22", "{e}");
    // (b) melee at 4 against 3: +1, die 1 reads "– / C1R2".
    t.advance_to(UNION, Phase::RetreatBeforeMelee);
    let (r, _) = fight(&mut t, UNION, "0405", &["x"], &[1, 1]);
    assert_eq!((r.attack, r.defence, r.differential), (4, 3, 1));
    assert_eq!(
        r.result.defender,
        MeleeEffect::CaptureRetreat {
            captured: 1,
            retreat: 2
        }
    );
    assert_eq!(strength(&t, "z"), 2);
    assert_eq!(t.s.units[&id("z")].captured, 1);
    assert!(marked(&t, "x", Marker::AmmoDepleted), "still depleted");
}

fn wagon_and_two() -> Position {
    field()
        .union("wagon w morale=4 weapon=R strength=1 small-arms=1 artillery=0")
        .union("infantry x strength=3 morale=4 weapon=R")
        .union("infantry y strength=3 morale=4 weapon=R")
        .confederate("infantry far strength=3 morale=4 weapon=R")
        .place("w", "0404", "n", "-")
        .place("x", "0406", "n", "line")
        .place("y", "0402", "n", "line")
        .place("far", "0808", "s", "line")
}

/// "The number of units a given supply wagon may resupply is the number
/// of boxes for small-arms ammo on the OB Roster for that wagon"
#[test]
fn case_11_24_wagon_boxes_limit_units_resupplied() {
    let mut t = wagon_and_two().build_at(1, UNION, Phase::AmmunitionResupply);
    assert_eq!(dist(&t, "0404", "0406"), 2);
    assert_eq!(dist(&t, "0404", "0402"), 2);
    mark(&mut t, "x", Marker::AmmoDepleted);
    mark(&mut t, "y", Marker::AmmoDepleted);
    t.ok(
        UNION,
        GbacwAction::Resupply {
            wagon: id("w"),
            unit: id("x"),
        },
    );
    assert!(!marked(&t, "x", Marker::AmmoDepleted));
    assert_eq!(t.s.units[&id("w")].status.supply.0, 0);
    t.refused(
        UNION,
        GbacwAction::Resupply {
            wagon: id("w"),
            unit: id("y"),
        },
        "GBACW 11.24",
    );
}

/// "Neither the wagon nor the unit being resupplied may have moved in
/// that Player-Turn."
#[test]
fn case_11_25_moved_unit_or_wagon_not_resupplied() {
    let pos = field()
        .union("wagon w morale=4 weapon=R strength=1 small-arms=5 artillery=0")
        .union("infantry x strength=3 morale=4 weapon=R")
        .confederate("infantry far strength=3 morale=4 weapon=R")
        .place("w", "0404", "n", "-")
        .place("x", "0407", "n", "line")
        .place("far", "0808", "s", "line");
    for (mover, to) in [("x", "0406"), ("w", "0405")] {
        let mut t = pos.build_at(1, UNION, Phase::Movement);
        mark(&mut t, "x", Marker::AmmoDepleted);
        t.mv(UNION, &[mover], &[to]);
        t.advance_to(UNION, Phase::AmmunitionResupply);
        t.refused(
            UNION,
            GbacwAction::Resupply {
                wagon: id("w"),
                unit: id("x"),
            },
            "GBACW 11.25",
        );
        assert_eq!(t.s.units[&id("w")].status.supply.0, 5, "{mover}");
    }
}

/// "When a battery runs out of ammunition (i.e., all its ammo boxes have
/// been marked off) it may not fire."
#[test]
fn case_11_32_battery_out_of_rounds_cannot_fire() {
    let mut t = field()
        .union("battery b weapon=N guns=4 rounds=1 morale=4")
        .confederate("infantry z strength=3 morale=3 weapon=R")
        .place("b", "0406", "n", "unlimbered")
        .place("z", "0404", "s", "line")
        .build_at(1, UNION, Phase::OffensiveFire);
    // (a) B fires its last round.
    t.ok(UNION, fire("0404", &[("b", 4)]));
    t.script(&[1, 1, 1, 1]);
    t.act(UNION, GbacwAction::EndPhase);
    assert_eq!(t.s.units[&id("b")].status.rounds, 0);
    // (c) the next Union Offensive Fire Phase: refused.
    t.advance_to_turn(2, UNION, Phase::OffensiveFire);
    let e = t
        .try_act(UNION, fire("0404", &[("b", 4)]))
        .expect_err("11.32: out of rounds");
    assert_eq!(e.rule, "GBACW 11.32", "{e}");
}

// ---------------------------------------------------------------- 12.0

/// "The defender's points (adjusted for leaders and morale) are always
/// subtracted from the attacker's regardless of who has more points.
/// Thus, a defender with "8" Points attacked by a unit with a total
/// strength of "5" would produce a differential of minus three (-3)."
#[test]
fn example_12_0_differential_minus_three() {
    let mut t = field()
        .union("infantry a strength=5 morale=3 weapon=R")
        .confederate("infantry d strength=8 morale=3 weapon=R")
        .place("a", "0406", "n", "line")
        .place("d", "0405", "s", "line")
        .build_at(1, UNION, Phase::RetreatBeforeMelee);
    // Die 2 at -3: "R2 / –"; A's morale die 1 passes.
    let (r, _) = fight(&mut t, UNION, "0405", &["a"], &[2, 1]);
    assert_eq!((r.attack, r.defence, r.differential), (5, 8, -3));
    assert_eq!(
        r.result.attacker,
        MeleeEffect::CaptureRetreat {
            captured: 0,
            retreat: 2
        }
    );
    assert_eq!(r.result.defender, MeleeEffect::None);
    retreat_all(&mut t);
    assert_eq!(away(&t, "a", "0406"), 2, "A retreats 2 hexes");
    assert_eq!(strength(&t, "a"), 5);
    assert_eq!(strength(&t, "d"), 8);
    assert_eq!(t.hex("d"), Some(n("0405")));
}

/// 12.0: "Differentials lower than -4 or higher than +7 use the -4 or +7
/// columns, respectively." / 12.98: "Differentials less than -4 are
/// treated as -4; differentials greater than +6 are treated as +6."
#[test]
fn case_12_0_differential_clamped_at_plus_six() {
    let mut t = field()
        .union("brigade l indpnt er=3 rally=1")
        .union("infantry a strength=7 morale=3 weapon=R brigade=l")
        .confederate("infantry d strength=1 morale=3 weapon=R")
        .place("a", "0406", "n", "line")
        .leader("l", "0406")
        .place("d", "0405", "s", "line")
        .build_at(1, UNION, Phase::RetreatBeforeMelee);
    mark(&mut t, "d", Marker::Rout);
    // Die 5 at +6: "K / C1R2"; L's Leader Casualty roll 7 (3 + 4).
    let (r, _) = fight(&mut t, UNION, "0405", &["a"], &[5, 3, 4]);
    assert_eq!((r.attack, r.defence), (8, 0));
    assert_eq!(r.result.attacker, MeleeEffect::Casualty);
    assert_eq!(strength(&t, "a"), 6);
    assert_eq!(t.s.units[&id("d")].captured, 1);
    assert_eq!(strength(&t, "d"), 0);
    assert_eq!(t.hex("l"), Some(n("0406")), "7: no effect on L");
    assert!(t.dice_left().is_empty());
}

/// "Differentials less than -4 are treated as -4"
#[test]
fn case_12_0_differential_clamped_at_minus_four() {
    let mut t = field()
        .union("infantry a strength=1 morale=3 weapon=R")
        .confederate("infantry d strength=7 morale=3 weapon=R")
        .place("a", "0406", "n", "line")
        .place("d", "0405", "s", "line")
        .build_at(1, UNION, Phase::RetreatBeforeMelee);
    // Die 6 at -4: "C3R3 / –": A's only point is captured.
    let (r, _) = fight(&mut t, UNION, "0405", &["a"], &[6]);
    assert_eq!(r.differential, -6);
    assert_eq!(
        r.result.attacker,
        MeleeEffect::CaptureRetreat {
            captured: 3,
            retreat: 3
        }
    );
    assert_eq!(strength(&t, "a"), 0);
    assert_eq!(t.s.units[&id("a")].captured, 1);
    assert_eq!(strength(&t, "d"), 7);
}

/// "**Example:** An infantry regiment worth 5 is stacked with a leader
/// and melees with an Enemy regiment worth 2, which is also stacked with a
/// leader. The Final Combat Differential is +3; the 5 unit add 1 for the
/// leader, for a total of 6, but the defending unit also has a leader
/// (2 + 1 = 3)."
#[test]
fn example_12_4_leaders_on_both_sides() {
    let mut t = field()
        .union("brigade la indpnt er=3 rally=1")
        .union("infantry a strength=5 morale=3 weapon=R brigade=la")
        .confederate("brigade ld indpnt er=3 rally=1")
        .confederate("infantry d strength=2 morale=3 weapon=R brigade=ld")
        .place("a", "0406", "n", "line")
        .leader("la", "0406")
        .place("d", "0405", "s", "line")
        .leader("ld", "0405")
        .build_at(1, UNION, Phase::RetreatBeforeMelee);
    // Die 3 at +3: "– / C1R2". LD's roll on the C column: 3 (1 + 2),
    // captured. D's morale roll 4, with no leader left: rout.
    let (r, _) = fight(&mut t, UNION, "0405", &["a"], &[3, 1, 2, 4]);
    // 12.92: the check comes at the end of the retreat (the owner's path).
    retreat_all(&mut t);
    assert_eq!((r.attack, r.defence, r.differential), (6, 3, 3));
    assert_eq!(
        r.result.defender,
        MeleeEffect::CaptureRetreat {
            captured: 1,
            retreat: 2
        }
    );
    assert_eq!(strength(&t, "d"), 1);
    assert_eq!(t.s.units[&id("d")].captured, 1);
    assert_eq!(t.hex("ld"), None, "LD captured and removed (17.73)");
    assert!(marked(&t, "d", Marker::Rout), "4 > 3 without LD's -1");
    assert_eq!(strength(&t, "a"), 5);
    assert_eq!(t.hex("la"), Some(n("0406")), "LA does not roll");
    assert!(t.dice_left().is_empty());
}

/// "Only one leader per side may be used in the melee regardless of the
/// number of leaders in the hex."
#[test]
fn case_12_4_only_one_leader_per_side() {
    let mut t = field()
        .union("army ar cp=1")
        .union("division dv army=ar dir=6 cp=2")
        .union("brigade la division=dv er=3 rally=1")
        .union("infantry a strength=5 morale=3 weapon=R brigade=la")
        .confederate("infantry d strength=3 morale=3 weapon=R")
        .place("a", "0406", "n", "line")
        .leader("ar", "0406")
        .leader("dv", "0406")
        .leader("la", "0406")
        .place("d", "0405", "s", "line")
        .build_at(1, UNION, Phase::RetreatBeforeMelee);
    let (r, _) = fight(&mut t, UNION, "0405", &["a"], &[3, 1]);
    assert_eq!((r.attack, r.defence, r.differential), (6, 3, 3));
    assert_eq!(r.result.attacker, MeleeEffect::None);
    assert_eq!(strength(&t, "a"), 5);
    assert_eq!(strength(&t, "d"), 2);
}

fn morale_melee(union: [u8; 2], rebel: [u8; 2]) -> T {
    field()
        .union(&format!(
            "infantry u1 strength=3 morale={} weapon=R",
            union[0]
        ))
        .union(&format!(
            "infantry u2 strength=3 morale={} weapon=R",
            union[1]
        ))
        .confederate(&format!(
            "infantry c1 strength=2 morale={} weapon=R",
            rebel[0]
        ))
        .confederate(&format!(
            "infantry c2 strength=2 morale={} weapon=R",
            rebel[1]
        ))
        .place("u1", "0406", "n", "line")
        .place("u2", "0506", "nw", "line")
        .place("c1", "0405", "s", "line")
        .place("c2", "0405", "s", "line")
        .build_at(1, UNION, Phase::RetreatBeforeMelee)
}

/// "**Example:** Two Union units, both with a morale rating of "2,"
/// initiate melee against two Confederate units, with morale ratings of
/// "4" and "5." Because the lowest-rated CSA unit (4) is two better than
/// the highest-rated Union unit (2), the Confederate Player adds one to
/// his Melee Strength for that melee."
#[test]
fn example_12_52_morale_superiority() {
    let mut t = morale_melee([2, 2], [4, 5]);
    // Die 2 at +1: "– / R2"; each Confederate checks morale (1 and 1).
    let (r, _) = fight(&mut t, UNION, "0405", &["u1", "u2"], &[2, 1, 1]);
    assert_eq!((r.attack, r.defence, r.differential), (6, 5, 1));
    assert_eq!(
        r.result.defender,
        MeleeEffect::CaptureRetreat {
            captured: 0,
            retreat: 2
        }
    );
    retreat_all(&mut t);
    assert_eq!(away(&t, "c1", "0405"), 2);
    assert_eq!(away(&t, "c2", "0405"), 2);
    assert_eq!((strength(&t, "c1"), strength(&t, "c2")), (2, 2));
    assert!(t.dice_left().is_empty(), "each checked morale");
}

/// "the unit with the lowest morale in a stack of Friendly meleeing
/// units has a morale rating that is at least two Points higher (better)
/// than the highest morale rating of an Enemy unit"
#[test]
fn case_12_52_lowest_morale_decides_not_best() {
    for (union, rebel, defence) in [
        ([2, 2], [5, 3], 4),
        ([2, 2], [4, 4], 5),
        ([2, 3], [4, 4], 4),
    ] {
        let mut t = morale_melee(union, rebel);
        let (r, _) = fight(&mut t, UNION, "0405", &["u1", "u2"], &[6, 1, 1, 1, 1]);
        assert_eq!((r.attack, r.defence), (6, defence), "{union:?} {rebel:?}");
    }
}

/// "If a routed unit defends against melee, that unit defends at
/// *one-half* its Current Strength rounded down."
#[test]
fn case_12_51_routed_defender_half_rounded_down() {
    let mut t = field()
        .union("infantry a strength=3 morale=3 weapon=R")
        .confederate("infantry d strength=5 morale=3 weapon=R")
        .place("a", "0406", "n", "line")
        .place("d", "0405", "s", "line")
        .build_at(1, UNION, Phase::RetreatBeforeMelee);
    mark(&mut t, "d", Marker::Rout);
    let (r, _) = fight(&mut t, UNION, "0405", &["a"], &[4, 1, 1]);
    assert_eq!((r.attack, r.defence, r.differential), (3, 2, 1));
    assert_eq!(r.result.attacker, MeleeEffect::Engaged);
    assert_eq!(r.result.defender, MeleeEffect::Engaged);
}

/// "If, in a melee combat, the result is such that both sides are
/// totally eliminated (either through a "K" or "C," etc.), ignore that
/// result and consider the units engaged."
#[test]
fn case_12_97_mutual_elimination_becomes_engaged() {
    let mut t = field()
        .union("infantry a strength=1 morale=3 weapon=R")
        .confederate("infantry d strength=1 morale=3 weapon=R")
        .place("a", "0406", "n", "line")
        .place("d", "0405", "s", "line")
        .build_at(1, UNION, Phase::RetreatBeforeMelee);
    let (r, _) = fight(&mut t, UNION, "0405", &["a"], &[2]);
    assert_eq!(r.differential, 0);
    assert!(r.mutual_elimination);
    assert_eq!((strength(&t, "a"), strength(&t, "d")), (1, 1));
    assert_eq!(t.hex("a"), Some(n("0406")));
    assert_eq!(t.hex("d"), Some(n("0405")));
    assert!(marked(&t, "a", Marker::Engaged) && marked(&t, "d", Marker::Engaged));
    assert!(t.dice_left().is_empty(), "no morale check");
}

/// "The non-Phasing (retreating) Player may move any units subject to
/// melee one or two hexes away from the hex they are in."
#[test]
fn case_12_81_rbm_one_or_two_hexes_not_three() {
    let pos = field()
        .union("infantry a strength=4 morale=4 weapon=R")
        .confederate("infantry d strength=3 morale=3 weapon=R")
        .place("a", "0406", "n", "line")
        .place("d", "0405", "s", "line");
    // (b) three hexes: refused.
    let mut t = pos.build_at(1, UNION, Phase::RetreatBeforeMelee);
    t.ok(UNION, melee("0405", &["a"]));
    t.refused(
        REBEL,
        GbacwAction::RetreatBeforeMelee {
            units: ids(&["d"]),
            path: vec![n("0404"), n("0403"), n("0402")],
        },
        "GBACW 12.81",
    );
    // (a) one hex: allowed; A declines to fire; D's morale roll 1.
    t.script(&[1]);
    t.act(
        REBEL,
        GbacwAction::RetreatBeforeMelee {
            units: ids(&["d"]),
            path: vec![n("0404")],
        },
    );
    if t.s.decision.is_some() {
        t.act(UNION, GbacwAction::DeclineWithdrawalFire);
    }
    assert_eq!(t.hex("d"), Some(n("0404")));
    assert!(!marked(&t, "d", Marker::Rout));
    assert!(t.dice_left().is_empty(), "a morale check was made");
}

/// "Unlimbered artillery may not retreat before melee." / "A pinned or
/// routed unit may not be retreated before melee."
#[test]
fn case_12_86_12_87_units_that_cannot_rbm() {
    let mut t = field()
        .union("infantry a1 strength=4 morale=4 weapon=R")
        .union("infantry a2 strength=4 morale=4 weapon=R")
        .union("infantry a3 strength=4 morale=4 weapon=R")
        .confederate("battery g weapon=N guns=4 rounds=20 morale=4")
        .confederate("infantry p strength=3 morale=3 weapon=R")
        .confederate("infantry r strength=3 morale=3 weapon=R")
        .place("a1", "0206", "n", "line")
        .place("a2", "0406", "n", "line")
        .place("a3", "0606", "n", "line")
        .place("g", "0205", "s", "unlimbered")
        .place("p", "0405", "s", "line")
        .place("r", "0605", "s", "line")
        .build_at(1, UNION, Phase::RetreatBeforeMelee);
    mark(&mut t, "p", Marker::Pin);
    mark(&mut t, "r", Marker::Rout);
    for (a, target, unit, back) in [
        ("a1", "0205", "g", "0204"),
        ("a2", "0405", "p", "0404"),
        ("a3", "0605", "r", "0604"),
    ] {
        t.ok(UNION, melee(target, &[a]));
        let e = t
            .try_act(
                REBEL,
                GbacwAction::RetreatBeforeMelee {
                    units: ids(&[unit]),
                    path: vec![n(back)],
                },
            )
            .expect_err("may not retreat before melee");
        println!("{unit}: {e}");
        if t.s.rbm.is_some() {
            t.ok(REBEL, GbacwAction::StandFast);
        }
        assert_eq!(t.hex(unit), Some(n(target)));
    }
}

/// "Stacking limits in melee apply to each side separately. Thus, both
/// Players may each have up to the maximum strength limit for that hex."
#[test]
fn example_12_73_both_sides_full_limit() {
    let pos = field()
        .union("infantry u1 strength=4 morale=3 weapon=R")
        .union("infantry u2 strength=4 morale=3 weapon=R")
        .union("infantry u3 strength=4 morale=3 weapon=R")
        .union("infantry u4 strength=1 morale=3 weapon=R")
        .confederate("infantry c1 strength=4 morale=3 weapon=R")
        .confederate("infantry c2 strength=4 morale=3 weapon=R")
        .confederate("infantry c3 strength=4 morale=3 weapon=R")
        .place("u1", "0406", "n", "line")
        .place("u2", "0506", "nw", "line")
        .place("u3", "0306", "ne", "line")
        .place("u4", "0305", "se", "line")
        .place("c1", "0405", "s", "line")
        .place("c2", "0405", "s", "line")
        .place("c3", "0405", "s", "line");
    let mut t = pos.build_at(1, UNION, Phase::RetreatBeforeMelee);
    assert_eq!(dist(&t, "0305", "0405"), 1);
    t.ok(UNION, melee("0405", &["u1", "u2", "u3"]));
    if let Some(offer) = t.s.rbm.clone() {
        t.ok(offer.seat, GbacwAction::StandFast);
    }
    t.refused(UNION, melee("0405", &["u4"]), "GBACW 12.72");
    let t = pos.build_at(1, UNION, Phase::RetreatBeforeMelee);
    t.refused(
        UNION,
        melee("0405", &["u1", "u2", "u3", "u4"]),
        "GBACW 12.72",
    );
}

/// "Retreats are always executed after losses; thus, a C2R2 means remove
/// two Points which are captured, then retreat the remaining units two
/// hexes."
#[test]
fn example_12_98_c2r2_losses_before_retreat() {
    let mut t = field()
        .union("infantry a1 strength=4 morale=3 weapon=R")
        .union("infantry a2 strength=4 morale=3 weapon=R")
        .confederate("infantry d strength=3 morale=3 weapon=R")
        .place("a1", "0406", "n", "line")
        .place("a2", "0506", "nw", "line")
        .place("d", "0405", "s", "line")
        .build_at(1, UNION, Phase::RetreatBeforeMelee);
    // Morale roll 2: D has lost 2 of 3 (over 50%, 13.24), so 2 + 1 = 3.
    let (r, _) = fight(&mut t, UNION, "0405", &["a1", "a2"], &[2, 2]);
    assert_eq!(r.differential, 5);
    assert_eq!(
        r.result.defender,
        MeleeEffect::CaptureRetreat {
            captured: 2,
            retreat: 2
        }
    );
    assert_eq!(strength(&t, "d"), 1);
    assert_eq!(t.s.units[&id("d")].captured, 2);
    assert_eq!(t.s.units[&id("d")].killed, 0);
    retreat_all(&mut t);
    assert_eq!(away(&t, "d", "0405"), 2);
    assert!(!marked(&t, "d", Marker::Rout), "2 + 1 <= 3");
}

/// "A result of "Rpls" indicates that the Phasing Player must retreat 2
/// hexes, then roll for leader loss on the Leader Casualty Table (17.76),
/// if a leader is present, and then perform a morale check for the
/// affected unit(s). The non-Phasing Player does not retreat although he
/// rolls for leader loss and performs a morale check for his affected
/// unit(s)."
#[test]
fn case_12_95_repulse_order_retreat_leader_morale() {
    let mut t = field()
        .union("brigade la indpnt er=3 rally=1")
        .union("infantry a strength=3 morale=3 weapon=R brigade=la")
        .confederate("brigade ld indpnt er=3 rally=1")
        .confederate("infantry d strength=4 morale=4 weapon=R brigade=ld")
        .place("a", "0406", "n", "line")
        .leader("la", "0406")
        .place("d", "0405", "s", "line")
        .leader("ld", "0405")
        .build_at(1, UNION, Phase::RetreatBeforeMelee);
    // Die 3 at -1: "Rpls / Rpls". LA rolls 12 (6 + 6): killed. LD rolls 7
    // (3 + 4). Morale: A 4 (no leader: rout), D 5 - 1 = 4 (holds).
    let (r, _) = fight(&mut t, UNION, "0405", &["a"], &[3, 6, 6, 3, 4, 4, 5]);
    assert_eq!((r.attack, r.defence, r.differential), (4, 5, -1));
    assert_eq!(r.result.attacker, MeleeEffect::Repulsed);
    retreat_all(&mut t);
    assert_eq!(t.hex("la"), None, "LA killed on 12");
    assert_eq!(t.hex("ld"), Some(n("0405")), "LD: 7, no effect");
    assert!(marked(&t, "a", Marker::Rout), "A: 4 > 3 without LA");
    assert!(!marked(&t, "d", Marker::Rout), "D: 5 - 1 = 4");
    assert_eq!(t.hex("d"), Some(n("0405")), "D does not retreat");
    assert_eq!((strength(&t, "a"), strength(&t, "d")), (3, 4));
    assert!(t.dice_left().is_empty());
}

// ---------------------------------------------------------------- 13.0

/// A Union target `x` in 0406 facing its Confederate firer `z` (4 SP,
/// rifles) in 0405: 8 points adjacent (R ×2, provisional), small-arms
/// "7 to 10"; `extra` counter lines and placements added by the caller.
fn fired_on(x: &str) -> Position {
    field()
        .union(x)
        .confederate("infantry z strength=4 morale=4 weapon=R")
        .place("x", "0406", "n", "line")
        .place("z", "0405", "s", "line")
}

/// Confederate Offensive Fire: `z` fires 4 at 0406 with `dice`.
fn z_fires(t: &mut T, dice: &[u16]) -> Vec<GbacwEvent> {
    t.ok(REBEL, fire("0406", &[("z", 4)]));
    t.script(dice);
    t.act(REBEL, GbacwAction::EndPhase)
}

/// "If the number rolled is greater than the unit's Morale Rating, that
/// unit has routed."
#[test]
fn case_13_21_roll_equal_to_morale_no_rout() {
    for (roll, rout) in [(3, false), (4, true)] {
        let mut t = fired_on("infantry x strength=4 morale=3 weapon=R").build_at(
            1,
            REBEL,
            Phase::OffensiveFire,
        );
        // Fire CRT die 5 in "7 to 10" (density 0): "1" (no depletion roll:
        // the die is not 1); then X's morale die.
        let events = z_fires(&mut t, &[5, roll]);
        assert_eq!(
            fire_result(&events),
            FireResult::Loss {
                points: 1,
                then_pin_check: false
            }
        );
        assert_eq!(strength(&t, "x"), 3);
        assert_eq!(marked(&t, "x", Marker::Rout), rout, "roll {roll}");
        assert!(t.dice_left().is_empty());
    }
}

/// "All casualties are taken prior to determining rout." / "If a unit has
/// suffered greater than 50% losses (from its initial strength) add one to
/// the die-roll."
#[test]
fn case_13_22_casualties_applied_before_check_trigger_50pct() {
    let mut t = fired_on("infantry x strength=4 morale=3 weapon=R").build_at(
        1,
        REBEL,
        Phase::OffensiveFire,
    );
    t.s.units.get_mut(&id("x")).unwrap().status.strength = 2;
    t.s.units.get_mut(&id("x")).unwrap().killed = 2;
    // 2 points in the hex: density -1, "4 to 6"; die 6 reads "1".
    let events = z_fires(&mut t, &[6, 3]);
    assert!(matches!(
        fire_result(&events),
        FireResult::Loss { points: 1, .. }
    ));
    assert_eq!(strength(&t, "x"), 1);
    assert!(marked(&t, "x", Marker::Rout), "3 + 1 > 3: 75% lost");
}

/// "If a unit has suffered greater than 50% losses (from its initial
/// strength) add one to the die-roll."
#[test]
fn case_13_24_exactly_half_lost_no_modifier() {
    let mut t = fired_on("infantry x strength=6 morale=3 weapon=R").build_at(
        1,
        REBEL,
        Phase::OffensiveFire,
    );
    t.s.units.get_mut(&id("x")).unwrap().status.strength = 4;
    t.s.units.get_mut(&id("x")).unwrap().killed = 2;
    // "7 to 10", density 0: die 5 reads "1".
    let events = z_fires(&mut t, &[5, 3]);
    assert!(matches!(
        fire_result(&events),
        FireResult::Loss { points: 1, .. }
    ));
    assert_eq!(strength(&t, "x"), 3);
    assert!(!marked(&t, "x", Marker::Rout), "exactly 50%: no +1");
}

/// "If only the top unit is affected by the combat (as in fire), that
/// unit's morale is checked first. If there is no rout, the morale of the
/// units beneath it is not checked. If the top unit routs, the morale of
/// all units under it must be checked."
#[test]
fn case_13_42_top_unit_first_lower_only_if_top_routs() {
    let pos = field()
        .union("infantry a-top strength=3 morale=3 weapon=R")
        .union("infantry b-low strength=3 morale=2 weapon=R")
        .confederate("infantry z strength=4 morale=4 weapon=R")
        .place("a-top", "0406", "n", "line")
        .place("b-low", "0406", "n", "line")
        .place("z", "0405", "s", "line");
    // (a) "7 to 10", 6 points (density 0): die 5 reads "1". T rolls 3:
    // B not checked.
    let mut t = pos.build_at(1, REBEL, Phase::OffensiveFire);
    let events = z_fires(&mut t, &[5, 3]);
    assert!(matches!(
        fire_result(&events),
        FireResult::Loss { points: 1, .. }
    ));
    assert_eq!(strength(&t, "a-top"), 2);
    assert!(!marked(&t, "a-top", Marker::Rout) && !marked(&t, "b-low", Marker::Rout));
    assert!(t.dice_left().is_empty());
    // (b) T rolls 4 and routs; B rolls 3 > 2 and routs too.
    let mut t = pos.build_at(1, REBEL, Phase::OffensiveFire);
    z_fires(&mut t, &[5, 4, 3]);
    assert!(marked(&t, "a-top", Marker::Rout));
    assert!(marked(&t, "b-low", Marker::Rout));
    assert!(t.dice_left().is_empty());
}

/// "If a stack suffers casualties from artillery firing from a range of
/// three hexes or greater, the morale of all units in the hex is checked."
#[test]
fn case_13_44_artillery_range_three_all_units_checked() {
    let mut t = field()
        .union("infantry a-top strength=4 morale=3 weapon=R")
        .union("infantry b-low strength=4 morale=3 weapon=R")
        .confederate("battery g weapon=N guns=2 rounds=20 morale=4")
        .place("a-top", "0403", "s", "line")
        .place("b-low", "0403", "s", "line")
        .place("g", "0406", "n", "unlimbered")
        .build_at(1, REBEL, Phase::OffensiveFire);
    assert_eq!(dist(&t, "0403", "0406"), 3);
    t.ok(REBEL, fire("0403", &[("g", 2)]));
    // 2 guns × 3 = 6, Grapeshot "4 to 8", density +1 ("9 to 11"). Die 6
    // on T: "1"; die 1 on B: "–". Morale: T 2, B 5.
    t.script(&[6, 1, 2, 5]);
    let events = t.act(REBEL, GbacwAction::EndPhase);
    for r in fire_reports(&events) {
        println!("{r:?}");
    }
    assert_eq!(strength(&t, "a-top"), 3);
    assert_eq!(strength(&t, "b-low"), 4);
    assert!(!marked(&t, "a-top", Marker::Rout));
    assert!(marked(&t, "b-low", Marker::Rout), "B is checked: 5 > 3");
    assert!(t.dice_left().is_empty());
}

/// "Non-independent units (except batteries) are rallied under the
/// following circumstances" / "Routed artillery gun crews, supply wagon
/// crews, and independent units may rally without leaders. ... Leaders may
/// rally these unit types only by being stacked with them in the Rally
/// Phase."
#[test]
fn case_13_52_battery_needs_die_roll_not_rally_point() {
    let mut t = field()
        .union("brigade l indpnt er=3 rally=2")
        .union("infantry i strength=3 morale=3 weapon=R brigade=l")
        .union("battery g weapon=N guns=4 rounds=20 morale=3 brigade=l")
        .confederate("infantry far strength=3 morale=4 weapon=R")
        .place("i", "0405", "n", "line")
        .leader("l", "0405")
        .place("g", "0406", "n", "limbered")
        .place("far", "0801", "s", "line")
        .build_at(1, UNION, Phase::Rally);
    mark(&mut t, "g", Marker::Rout);
    let points = t.s.rally_points.get(&id("l")).copied();
    t.script(&[4]);
    t.act(UNION, GbacwAction::Rally { unit: id("g") });
    assert!(t.dice_left().is_empty(), "G rolls a die");
    assert!(marked(&t, "g", Marker::Rout), "4 > 3: still routed");
    assert_eq!(t.s.rally_points.get(&id("l")).copied(), points);
}

/// "If the die roll result is higher than the unit's Morale Rating, the
/// unit remains routed. Otherwise, the unit rallies. Thus, an independent
/// unit with a Morale Rating of "4" would be rallied on a roll of "4" or
/// less."
#[test]
fn example_13_54_independent_rally_on_four_or_less() {
    for (roll, rallied) in [(4, true), (5, false)] {
        let mut t = field()
            .union("infantry i strength=3 morale=4 weapon=R")
            .confederate("infantry far strength=3 morale=4 weapon=R")
            .place("i", "0406", "n", "line")
            .place("far", "0801", "s", "line")
            .build_at(1, UNION, Phase::Rally);
        mark(&mut t, "i", Marker::Rout);
        t.script(&[roll]);
        t.act(UNION, GbacwAction::Rally { unit: id("i") });
        assert_eq!(!marked(&t, "i", Marker::Rout), rallied, "roll {roll}");
        assert!(t.dice_left().is_empty());
    }
}

// ---------------------------------------------------------------- 14.0

/// "The retreating unit must always end its retreat the number of hexes
/// it is mandated to retreat away from the hex in which it began the
/// retreat. It may not enter the same hex twice during any one retreat."
#[test]
fn case_14_4_retreat_must_end_full_distance() {
    // X (Union) in 0405 is meleed by Confederate D from 0406 and takes
    // "– / R2".
    let mut t = field()
        .union("infantry x strength=3 morale=3 weapon=R")
        .confederate("infantry d strength=4 morale=3 weapon=R")
        .place("x", "0405", "s", "line")
        .place("d", "0406", "n", "line")
        .build_at(1, REBEL, Phase::RetreatBeforeMelee);
    // 4 against 3: +1, die 2 "– / R2"; X's morale die 1.
    let (r, _) = fight(&mut t, REBEL, "0405", &["d"], &[2, 1]);
    assert_eq!(
        r.result.defender,
        MeleeEffect::CaptureRetreat {
            captured: 0,
            retreat: 2
        }
    );
    // H0 = 0405; H1 = 0404 and H2 = 0305 are adjacent to H0 and each
    // other; H3 = 0403 is 2 hexes from H0 beyond H1.
    assert_eq!(dist(&t, "0404", "0305"), 1);
    assert_eq!(dist(&t, "0405", "0403"), 2);
    let order = t.s.retreats.first().cloned().expect("X's owner chooses");
    assert_eq!(order.unit, id("x"));
    for bad in [["0404", "0305"], ["0404", "0405"]] {
        t.refused(
            UNION,
            GbacwAction::Retreat {
                unit: id("x"),
                path: vec![n(bad[0]), n(bad[1])],
            },
            "GBACW 14.4",
        );
    }
    t.act(
        UNION,
        GbacwAction::Retreat {
            unit: id("x"),
            path: vec![n("0404"), n("0403")],
        },
    );
    assert_eq!(t.hex("x"), Some(n("0403")));
}

/// "A unit may not be retreated through an Enemy unit or an impassable
/// hexside. If unable to retreat because it is completely surrounded by
/// Enemy units, impassable terrain and/or the edge of the map, it is
/// captured."
#[test]
fn case_14_1_surrounded_captured() {
    // X in the corner hex 0101: its only on-map neighbours (0102 s and
    // 0201 se) hold Confederate units; the rest is off the map.
    let pos = field()
        .union("infantry x strength=3 morale=3 weapon=R")
        .confederate("infantry e1 strength=4 morale=4 weapon=R")
        .confederate("infantry e2 strength=4 morale=4 weapon=R")
        .place("x", "0101", "s", "line");
    let t0 = field()
        .union("infantry x strength=3 morale=3 weapon=R")
        .place("x", "0101", "s", "line")
        .build();
    let mut nbrs: Vec<HexNumber> = t0
        .rs
        .game()
        .map
        .grid
        .neighbours_on_map(n("0101"))
        .into_iter()
        .map(|(_, h)| h)
        .collect();
    nbrs.sort();
    println!("{nbrs:?}");
    assert_eq!(nbrs, vec![n("0102"), n("0201")]);
    let mut pos = pos;
    for (i, h) in nbrs.iter().enumerate() {
        pos = pos.place(&format!("e{}", i + 1), &h.to_string(), "n", "line");
    }
    let mut t = pos.build_at(1, REBEL, Phase::OffensiveFire);
    t.face_towards("e1", "0101");
    // Fire routs X: e1 fires 4 (8 adjacent, "7 to 10", density 0); die 4
    // reads "P/R", and the P/R roll 6 is above X's morale 3.
    t.ok(REBEL, fire("0101", &[("e1", 4)]));
    t.script(&[4, 6]);
    let events = t.act(REBEL, GbacwAction::EndPhase);
    println!("{:?}", fire_reports(&events));
    retreat_all(&mut t);
    assert_eq!(t.hex("x"), None, "captured");
    assert_eq!(t.s.units[&id("x")].captured, 3);
}

/// "A unit may not be retreated through a hex containing a Friendly unit
/// if there is another path open to it (unless that path includes a
/// hex(es) in an Enemy ZOC)."
#[test]
fn case_14_3_avoid_friendly_hex_if_other_path() {
    // X (Union) in 0404 must rout 3 hexes away from Z (north, 0403).
    // P1 runs south through S1 = 0405, where Union F stands; P2 runs
    // south-east 0505, 0506, 0606, all vacant.
    let mut t = field()
        .union("infantry x strength=3 morale=2 weapon=R")
        .union("infantry f strength=3 morale=3 weapon=R")
        .confederate("infantry z strength=4 morale=4 weapon=R")
        .place("x", "0404", "n", "line")
        .place("f", "0405", "n", "line")
        .place("z", "0403", "s", "line")
        .build_at(1, REBEL, Phase::OffensiveFire);
    t.ok(REBEL, fire("0404", &[("z", 4)]));
    // "7 to 10", density 0: die 4 "P/R", P/R roll 5 > 2: rout.
    t.script(&[4, 5]);
    let events = t.act(REBEL, GbacwAction::EndPhase);
    println!("{:?}", fire_reports(&events));
    assert!(marked(&t, "x", Marker::Rout));
    let p1 = vec![n("0405"), n("0406"), n("0407")];
    let e = t
        .try_act(
            UNION,
            GbacwAction::Retreat {
                unit: id("x"),
                path: p1,
            },
        )
        .expect_err("14.3: another path is open");
    println!("{e}");
    assert_eq!(t.hex("f"), Some(n("0405")));
    assert_eq!(t.hex("x"), Some(n("0404")), "nothing moved");
}

// ------------------------------------------------------- second batch

/// The neighbour of `hex` in direction `word`.
fn toward(t: &T, hex: &str, word: &str) -> String {
    let grid = &t.rs.game().map.grid;
    grid.neighbours_on_map(n(hex))
        .into_iter()
        .find(|(d, _)| Facing::new(*d) == dir(word))
        .map(|(_, h)| h.to_string())
        .expect("on the map")
}

/// "The owning Player must conduct a morale check for retreating units
/// (before melee), regardless of whether or not they are fired upon by
/// withdrawal fire."
#[test]
fn case_12_83_rbm_morale_check_even_without_fire() {
    let mut t = Position::new(8, 12)
        .union("infantry a strength=4 morale=4 weapon=R")
        .confederate("infantry d strength=3 morale=3 weapon=R")
        .place("a", "0410", "n", "line")
        .place("d", "0409", "s", "line")
        .build_at(1, UNION, Phase::RetreatBeforeMelee);
    t.ok(UNION, melee("0409", &["a"]));
    t.script(&[4]);
    t.act(
        REBEL,
        GbacwAction::RetreatBeforeMelee {
            units: ids(&["d"]),
            path: vec![n("0408"), n("0407")],
        },
    );
    if t.s.decision.is_some() {
        t.act(UNION, GbacwAction::DeclineWithdrawalFire);
    }
    assert!(t.dice_left().is_empty(), "a morale check without fire");
    assert!(marked(&t, "d", Marker::Rout), "4 > 3");
    assert_eq!(t.hex("d"), Some(n("0407")), "the 2 hexes first");
    // The rout: 3 more hexes straight on (the owner's path, 14.4).
    t.act(
        REBEL,
        GbacwAction::Retreat {
            unit: id("d"),
            path: vec![n("0406"), n("0405"), n("0404")],
        },
    );
    let seen = settle_rules(&mut t);
    println!("{seen:?}");
    assert_eq!(away(&t, "d", "0409"), 5, "2 hexes, then 3 more (13.31)");
    assert!(
        seen.iter().any(|r| r.contains("12.85")),
        "A may advance into the vacated hex: {seen:?}"
    );
}

/// "Retreating units may not enter an Enemy ZOC."
#[test]
fn case_12_82_rbm_may_not_enter_enemy_zoc() {
    let mut t = field()
        .union("infantry a strength=4 morale=4 weapon=R")
        .union("infantry e strength=4 morale=4 weapon=R")
        .confederate("infantry d strength=3 morale=3 weapon=R")
        .place("a", "0406", "n", "line")
        .place("e", "0808", "n", "line")
        .place("d", "0405", "s", "line")
        .build_at(1, UNION, Phase::RetreatBeforeMelee);
    // H = 0305 (nw of D's hex); E stands se of... no: E stands nw of H's
    // nw, facing se, so H is E's front hex and D's hex is not in E's ZOC.
    let h = "0305";
    assert_eq!(toward(&t, "0405", "nw"), h);
    let e_hex = toward(&t, h, "nw");
    t.put("e", &e_hex, "se", Formation::Line);
    assert_eq!(dist(&t, &e_hex, "0405"), 2);
    t.ok(UNION, melee("0405", &["a"]));
    t.refused(
        REBEL,
        GbacwAction::RetreatBeforeMelee {
            units: ids(&["d"]),
            path: vec![n(h)],
        },
        "GBACW 12.82",
    );
}

/// "A unit which a Player attempts to retreat before melee which is
/// "pinned" by withdrawal fire may not be retreated. Thus, it is forced to
/// stand and accept a melee attack."
#[test]
fn case_12_88_pinned_by_withdrawal_fire_stands() {
    let mut t = field()
        .union("infantry a strength=4 morale=4 weapon=R")
        .confederate("infantry d strength=3 morale=3 weapon=R")
        .place("a", "0406", "n", "line")
        .place("d", "0405", "s", "line")
        .build_at(1, UNION, Phase::RetreatBeforeMelee);
    t.ok(UNION, melee("0405", &["a"]));
    t.act(
        REBEL,
        GbacwAction::RetreatBeforeMelee {
            units: ids(&["d"]),
            path: vec![n("0404"), n("0403")],
        },
    );
    assert!(t.s.decision.is_some(), "A may fire withdrawal fire");
    // 8 points, "7 to 10", density 0, and D, withdrawing, shows A its
    // rear (10.16: enfiladed, one right): "11 to 14", die 3 reads "P/R";
    // the P/R roll 1 (+1) is not above 3: pinned. (A spare die for a
    // morale check, if any.)
    t.script(&[3, 1, 1]);
    let events = t.act(
        UNION,
        GbacwAction::WithdrawalFire {
            firers: ids(&["a"]),
        },
    );
    assert_eq!(fire_result(&events), FireResult::PinOrRout);
    settle_rules(&mut t);
    assert_eq!(t.hex("d"), Some(n("0405")), "pinned: not even one hex");
    assert!(marked(&t, "d", Marker::Pin));
    // D stays and is meleed: 4 against 3, die 4 "Eng / Eng".
    t.ok(UNION, GbacwAction::EndPhase);
    assert_eq!(t.phase(), Some(Phase::Melee));
    t.script(&[4, 1, 1]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    let r = &melee_reports(&events)[0];
    assert_eq!(r.defenders, ids(&["d"]));
    assert!(
        !marked(&t, "d", Marker::Pin),
        "once meleed, no longer pinned (9.85)"
    );
}

/// "Phasing units may be advanced into a hex vacated by a unit retreating
/// before melee by any units that were going to melee the retreating
/// units. ... A unit so advancing may not initiate melee in that
/// Game-Turn."
#[test]
fn case_12_85_advance_after_rbm_no_melee_this_turn() {
    let mut t = field()
        .union("infantry a strength=4 morale=4 weapon=R")
        .confederate("infantry d strength=3 morale=4 weapon=R")
        .confederate("infantry d2 strength=3 morale=4 weapon=R")
        .place("a", "0406", "n", "line")
        .place("d", "0405", "s", "line")
        .place("d2", "0404", "s", "line")
        .build_at(1, UNION, Phase::RetreatBeforeMelee);
    t.ok(UNION, melee("0405", &["a"]));
    // D goes ne then n: 0505, 0504 (2 hexes from 0405).
    assert_eq!(dist(&t, "0405", "0504"), 2);
    t.script(&[4]);
    t.act(
        REBEL,
        GbacwAction::RetreatBeforeMelee {
            units: ids(&["d"]),
            path: vec![n("0505"), n("0504")],
        },
    );
    if t.s.decision.is_some() {
        t.act(UNION, GbacwAction::DeclineWithdrawalFire);
    }
    assert!(t.dice_left().is_empty(), "D checked morale");
    assert!(!marked(&t, "d", Marker::Rout), "4 <= 4");
    assert!(t.s.advance.is_some(), "A may advance");
    t.ok(UNION, GbacwAction::Advance { units: ids(&["a"]) });
    assert_eq!(t.hex("a"), Some(n("0405")));
    t.face_towards("a", "0404");
    t.refused(UNION, melee("0404", &["a"]), "GBACW 12.85");
}

/// "Units that split fire (see Case 9.4) between two or more hexes may
/// melee units in only one of those hexes. Units may not split their
/// Melee Strength between hexes."
#[test]
fn case_12_26_split_fire_melee_one_hex_only() {
    let mut t = field()
        .union("infantry a strength=4 morale=4 weapon=R")
        .confederate("infantry z1 strength=3 morale=4 weapon=R")
        .confederate("infantry z2 strength=3 morale=4 weapon=R")
        .place("a", "0406", "n", "line")
        .place("z1", "0405", "s", "line")
        .place("z2", "0506", "sw", "line")
        .build_at(1, UNION, Phase::OffensiveFire);
    t.ok(UNION, fire("0405", &[("a", 2)]));
    t.ok(UNION, fire("0506", &[("a", 2)]));
    // 2 × 2 = 4 each, "4 to 6", density 0: die 2 is "–" twice.
    t.script(&[2, 2]);
    t.act(UNION, GbacwAction::EndPhase);
    t.advance_to(UNION, Phase::RetreatBeforeMelee);
    t.ok(UNION, melee("0506", &["a"]));
    if let Some(offer) = t.s.rbm.clone() {
        t.ok(offer.seat, GbacwAction::StandFast);
    }
    let e = t
        .try_act(UNION, melee("0405", &["a"]))
        .expect_err("12.26: one hex only");
    println!("{e}");
    assert_eq!(t.s.melees.len(), 1);
    assert_eq!(t.s.melees[0].attackers, ids(&["a"]));
}

/// "The affected unit is reduced by that number of Strength Points as if
/// it were a normal casualty, except the loss is recorded on the OB
/// Roster as a capture, not a kill."
#[test]
fn case_12_93_capture_recorded_not_kill() {
    let mut t = field()
        .union("infantry a strength=3 morale=3 weapon=R")
        .confederate("infantry d strength=3 morale=3 weapon=R")
        .place("a", "0406", "n", "line")
        .place("d", "0405", "s", "line")
        .build_at(1, UNION, Phase::RetreatBeforeMelee);
    // Die 2 at 0: "K / C1R2"; D's morale roll 1.
    let (r, _) = fight(&mut t, UNION, "0405", &["a"], &[2, 1]);
    assert_eq!(r.differential, 0);
    settle_rules(&mut t);
    let (a, d) = (&t.s.units[&id("a")], &t.s.units[&id("d")]);
    assert_eq!((a.status.strength, a.killed, a.captured), (2, 1, 0));
    assert_eq!((d.status.strength, d.killed, d.captured), (2, 0, 1));
    assert_eq!(away(&t, "d", "0405"), 2);
    assert!(!marked(&t, "d", Marker::Rout));
}

/// "Infantry in Column may never initiate melee, although they may be
/// meleed by Enemy units. If a unit in Column is meleed, such a unit goes
/// into Line as soon as melee is resolved."
#[test]
fn case_12_24_column_cannot_initiate_goes_line_when_meleed() {
    let pos = field()
        .union("infantry a strength=4 morale=3 weapon=R")
        .confederate("infantry d strength=3 morale=3 weapon=R")
        .place("a", "0406", "n", "column")
        .place("d", "0405", "s", "line");
    // (a)
    let t = pos.build_at(1, UNION, Phase::RetreatBeforeMelee);
    t.refused(UNION, melee("0405", &["a"]), "GBACW 12.24");
    // (b) D melees A: 3 against 4, die 3 at -1 "Rpls / Rpls"; morale 1, 1.
    let mut t = pos.build_at(1, REBEL, Phase::RetreatBeforeMelee);
    assert_eq!(
        t.s.units[&id("a")].status.formation,
        Formation::Column,
        "still in column"
    );
    let (r, _) = fight(&mut t, REBEL, "0406", &["d"], &[3, 1, 1]);
    assert_eq!((r.attack, r.defence), (3, 4));
    assert_eq!(r.result.attacker, MeleeEffect::Repulsed);
    settle_rules(&mut t);
    assert_eq!(t.hex("a"), Some(n("0406")), "A does not retreat");
    assert_eq!(away(&t, "d", "0405"), 2, "D retreats 2");
    assert_eq!(t.s.units[&id("a")].status.formation, Formation::Line);
}

/// "A morale check must be made for a unit each time it suffers a
/// casualty (e.g., "1"), "R," "P/R," or #* result on the Fire Combat
/// Results Table"
#[test]
fn case_13_0_fire_r_result_requires_check() {
    let mut t = fired_on("infantry x strength=3 morale=3 weapon=R").build_at(
        1,
        REBEL,
        Phase::OffensiveFire,
    );
    // "7 to 10", density 0: die 3 reads "R"; the check rolls 4.
    let events = z_fires(&mut t, &[3, 4]);
    assert_eq!(fire_result(&events), FireResult::MaybeRout);
    assert!(marked(&t, "x", Marker::Rout), "4 > 3");
    settle_rules(&mut t);
    assert_eq!(away(&t, "x", "0406"), 3);
}

/// "A unit that is routed and suffers additional casualties while in a
/// state of rout will rout again. Routed units suffering a second rout
/// result (e.g., from a P/R result on the Fire CRT) must retreat an
/// additional three hexes, remaining routed."
#[test]
fn case_13_33_routed_unit_hit_again_routs_again() {
    let mut t = fired_on("infantry x strength=4 morale=5 weapon=R").build_at(
        1,
        REBEL,
        Phase::OffensiveFire,
    );
    mark(&mut t, "x", Marker::Rout);
    // "7 to 10", density 0: die 5 reads "1". A spare 1 that a morale roll
    // would pass on: none is due.
    let events = z_fires(&mut t, &[5, 1]);
    assert!(matches!(
        fire_result(&events),
        FireResult::Loss { points: 1, .. }
    ));
    settle_rules(&mut t);
    assert_eq!(strength(&t, "x"), 3);
    assert!(marked(&t, "x", Marker::Rout));
    assert_eq!(away(&t, "x", "0406"), 3, "routs again: 3 more hexes");
    assert_eq!(t.dice_left(), vec![1], "no morale roll: automatic");
}

/// "Routed units that become pinned are both pinned and routed; but a
/// pinned unit that routs is no longer pinned—it is routed."
#[test]
fn case_13_33_pinned_unit_that_routs_is_unpinned() {
    // (a) pinned X, "P/R" (die 4), P/R roll 5 > 3.
    let mut t = fired_on("infantry x strength=3 morale=3 weapon=R").build_at(
        1,
        REBEL,
        Phase::OffensiveFire,
    );
    mark(&mut t, "x", Marker::Pin);
    let events = z_fires(&mut t, &[4, 5]);
    assert_eq!(fire_result(&events), FireResult::PinOrRout);
    settle_rules(&mut t);
    assert!(marked(&t, "x", Marker::Rout));
    assert!(!marked(&t, "x", Marker::Pin), "no longer pinned");
    assert_eq!(away(&t, "x", "0406"), 3);
    // (b) routed X (enfiladed, 6.35: "11 to 14"): die 1 reads "P"; Z's
    // depletion roll 6; the P roll 5 > 3: pinned and routed.
    let mut t = fired_on("infantry x strength=3 morale=3 weapon=R").build_at(
        1,
        REBEL,
        Phase::OffensiveFire,
    );
    mark(&mut t, "x", Marker::Rout);
    let events = z_fires(&mut t, &[1, 6, 5]);
    assert_eq!(fire_result(&events), FireResult::MaybePin);
    settle_rules(&mut t);
    assert!(marked(&t, "x", Marker::Rout) && marked(&t, "x", Marker::Pin));
}

/// "Furthermore, if the top unit is eliminated entirely, the morale of
/// the unit beneath it must be checked as if it were the top unit."
#[test]
fn case_13_42_top_eliminated_next_checks_as_top() {
    let mut t = field()
        .union("infantry a-top strength=1 morale=3 weapon=R")
        .union("infantry b-low strength=4 morale=3 weapon=R")
        .confederate("infantry z strength=4 morale=4 weapon=R")
        .place("a-top", "0406", "n", "line")
        .place("b-low", "0406", "n", "line")
        .place("z", "0405", "s", "line")
        .build_at(1, REBEL, Phase::OffensiveFire);
    // 5 points in the hex, density 0: die 5 reads "1". B's roll 4.
    let events = z_fires(&mut t, &[5, 4]);
    assert!(matches!(
        fire_result(&events),
        FireResult::Loss { points: 1, .. }
    ));
    assert_eq!(strength(&t, "a-top"), 0);
    assert_eq!(strength(&t, "b-low"), 4);
    assert!(marked(&t, "b-low", Marker::Rout), "4 > 3");
    assert!(t.dice_left().is_empty());
}

/// "If a unit is stacked with a leader, subtract one from any morale
/// check die-roll." (17.72: the leader's roll comes first.)
#[test]
fn case_13_23_leader_minus_one() {
    let mut t = field()
        .union("brigade l indpnt er=3 rally=1")
        .union("infantry x strength=4 morale=3 weapon=R brigade=l")
        .confederate("infantry z strength=4 morale=4 weapon=R")
        .place("x", "0406", "n", "line")
        .leader("l", "0406")
        .place("z", "0405", "s", "line")
        .build_at(1, REBEL, Phase::OffensiveFire);
    // Die 5: "1". L's Leader Casualty roll 7 (6 + 1): no effect. X's
    // morale roll 4 - 1 = 3: holds. (Rolled the other way round, the 6
    // would be X's morale die and rout it.)
    let events = z_fires(&mut t, &[5, 6, 1, 4]);
    assert!(matches!(
        fire_result(&events),
        FireResult::Loss { points: 1, .. }
    ));
    assert_eq!(strength(&t, "x"), 3);
    assert!(!marked(&t, "x", Marker::Rout));
    assert_eq!(t.hex("l"), Some(n("0406")));
    assert!(t.dice_left().is_empty());
}

/// "When a green unit "Sees the Elephant" for the first time ... He then
/// rolls two dice to determine the Morale Rating of the green unit. The
/// Morale Rating is now the permanent rating for that unit"
#[test]
fn case_13_14_green_unit_sees_elephant_on_check() {
    let mut t = fired_on("infantry x strength=4 morale=? weapon=R").build_at(
        1,
        REBEL,
        Phase::OffensiveFire,
    );
    // Die 5: "1". Seeing the Elephant 6 (3 + 3): morale 2. Morale roll 3.
    let events = z_fires(&mut t, &[5, 3, 3, 3]);
    assert!(matches!(
        fire_result(&events),
        FireResult::Loss { points: 1, .. }
    ));
    assert_eq!(t.s.units[&id("x")].rating, Some(2));
    assert!(marked(&t, "x", Marker::Rout), "3 > 2");
    assert!(t.dice_left().is_empty());
}

/// "Non-independent units (except batteries) are rallied under the
/// following circumstances: 1. They are stacked with any Friendly leader"
#[test]
fn case_13_52_rally_stacked_with_leader_no_roll() {
    let mut t = field()
        .union("brigade l1 indpnt er=3 rally=1")
        .union("brigade l2 indpnt er=3 rally=1")
        .union("infantry x strength=3 morale=1 weapon=R brigade=l1")
        .union("infantry o strength=3 morale=3 weapon=R brigade=l2")
        .confederate("infantry far strength=3 morale=4 weapon=R")
        .place("x", "0406", "n", "line")
        .leader("l2", "0406")
        .place("o", "0403", "n", "line")
        .leader("l1", "0403")
        .place("far", "0801", "s", "line")
        .build_at(1, UNION, Phase::Rally);
    mark(&mut t, "x", Marker::Rout);
    t.act(UNION, GbacwAction::Rally { unit: id("x") });
    assert!(!marked(&t, "x", Marker::Rout), "rallied without a roll");
}

/// "The Effectiveness Radius may not be traced through Enemy combat
/// units, Enemy ZOC's (although the presence of a Friendly unit in that
/// hex negates the effect of such a ZOC) or impassable terrain."
#[test]
fn case_13_53_rally_radius_blocked_by_enemy_zoc() {
    for friend in [false, true] {
        let mut t = field()
            .union("brigade l indpnt er=2 rally=1")
            .union("infantry y strength=3 morale=3 weapon=R brigade=l")
            .union("infantry lx strength=3 morale=3 weapon=R brigade=l")
            .union("infantry f strength=3 morale=3 weapon=R")
            .confederate("infantry e strength=3 morale=3 weapon=R")
            .place("lx", "0403", "n", "line")
            .leader("l", "0403")
            .place("y", "0405", "n", "line")
            .place("f", "0808", "n", "line")
            .place("e", "0101", "s", "line")
            .build_at(1, UNION, Phase::Rally);
        // L in 0403, M = 0404, Y in 0405; E se of M facing north: M is
        // across E's nw (frontal) hexside; L's and Y's hexes are not.
        let e_hex = toward(&t, "0404", "se");
        t.put("e", &e_hex, "n", Formation::Line);
        assert_eq!(toward(&t, &e_hex, "nw"), "0404");
        if friend {
            t.put("f", "0404", "n", Formation::Line);
        }
        mark(&mut t, "y", Marker::Rout);
        let points = t.s.rally_points.get(&id("l")).copied();
        let tried = t.try_act(UNION, GbacwAction::Rally { unit: id("y") });
        println!("{friend}: {:?}", tried.as_ref().err());
        if friend {
            assert!(tried.is_ok());
            assert!(!marked(&t, "y", Marker::Rout), "F negates the ZOC");
        } else {
            assert!(tried.is_err(), "the only path crosses E's ZOC");
            assert!(marked(&t, "y", Marker::Rout));
            assert_eq!(t.s.rally_points.get(&id("l")).copied(), points);
        }
    }
}

/// "The supply path may not pass through a hex in an enemy ZOC (unless
/// occupied by a Friendly unit) or through an Enemy occupied hex."
#[test]
fn case_11_23_supply_path_enemy_zoc_blocked_unless_friendly() {
    for friend in [false, true] {
        let mut t = Position::new(8, 10)
            .union("wagon w morale=4 weapon=R strength=1 small-arms=5 artillery=0")
            .union("infantry x strength=3 morale=4 weapon=R")
            .union("infantry f strength=3 morale=4 weapon=R")
            .confederate("infantry e strength=3 morale=3 weapon=R")
            .place("x", "0402", "n", "line")
            .place("w", "0408", "n", "-")
            .place("f", "0810", "n", "line")
            .place("e", "0101", "s", "line")
            .build_at(1, UNION, Phase::AmmunitionResupply);
        assert_eq!(dist(&t, "0402", "0408"), 6);
        // H3 = 0405; E se of it facing north (H3 across E's nw side).
        let e_hex = toward(&t, "0405", "se");
        t.put("e", &e_hex, "n", Formation::Line);
        if friend {
            t.put("f", "0405", "n", Formation::Line);
        }
        mark(&mut t, "x", Marker::AmmoDepleted);
        let a = GbacwAction::Resupply {
            wagon: id("w"),
            unit: id("x"),
        };
        if friend {
            t.ok(UNION, a);
            assert!(!marked(&t, "x", Marker::AmmoDepleted));
            assert_eq!(t.s.units[&id("w")].status.supply.0, 4);
        } else {
            t.refused(UNION, a, "GBACW 11.23");
        }
    }
}

/// "Players may transfer rounds of ammunition between friendly artillery
/// batteries of the same weapon type. Both batteries involved must spend
/// one entire Game-Turn, without firing, in the same or adjacent hexes."
#[test]
fn case_11_33_transfer_rounds_same_weapon_type() {
    let pos = |b2: &str| {
        field()
            .confederate("battery b1 weapon=N guns=4 rounds=6 morale=4")
            .confederate(&format!("battery b2 weapon={b2} guns=4 rounds=6 morale=4"))
            .union("infantry u strength=3 morale=4 weapon=R")
            .place("b1", "0403", "s", "unlimbered")
            .place("b2", "0404", "s", "unlimbered")
            .place("u", "0406", "n", "line")
    };
    // B2's printed track holds 6 rounds; it has used them all.
    let empty = |t: &mut T| t.s.units.get_mut(&id("b2")).unwrap().status.rounds = 0;
    let transfer = GbacwAction::TransferRounds {
        from: id("b1"),
        to: id("b2"),
        rounds: 3,
    };
    // (a)
    let mut t = pos("N").build_at(1, REBEL, Phase::AmmunitionResupply);
    empty(&mut t);
    t.ok(REBEL, transfer.clone());
    assert_eq!(t.s.units[&id("b1")].status.rounds, 3);
    assert_eq!(t.s.units[&id("b2")].status.rounds, 3);
    // (b) another weapon type.
    let mut t = pos("TA").build_at(1, REBEL, Phase::AmmunitionResupply);
    empty(&mut t);
    t.refused(REBEL, transfer.clone(), "GBACW 11.33");
    // (c) B1 fired in the Defensive Fire Phase of this Game-Turn.
    let mut t = pos("N").build_at(1, UNION, Phase::DefensiveFire);
    empty(&mut t);
    t.ok(REBEL, fire("0406", &[("b1", 4)]));
    t.script(&[1, 1, 1, 1]);
    t.act(REBEL, GbacwAction::EndPhase);
    assert_eq!(t.s.units[&id("b1")].status.rounds, 5);
    t.advance_to(REBEL, Phase::AmmunitionResupply);
    t.refused(REBEL, transfer, "GBACW 11.33");
}

/// 12.92: "Units may not retreat into hexes containing impassable
/// terrain, Enemy units or Enemy ZOC's. Units which cannot retreat legally
/// are captured."
#[test]
fn case_14_2_melee_retreat_zoc_forbidden_exception() {
    // X in the corner 0101; its only other neighbour 0201 is in the ZOC
    // of Confederate Z2 (0301, facing sw); A melees from 0102.
    let mut t = field()
        .union("infantry x strength=4 morale=2 weapon=R")
        .confederate("infantry a strength=5 morale=3 weapon=R")
        .confederate("infantry z2 strength=3 morale=3 weapon=R")
        .place("x", "0101", "n", "line")
        .place("a", "0102", "n", "line")
        .place("z2", "0301", "sw", "line")
        .build_at(1, REBEL, Phase::RetreatBeforeMelee);
    assert_eq!(toward(&t, "0301", "sw"), "0201");
    // 5 against 4: +1, die 2 "– / R2".
    let (r, _) = fight(&mut t, REBEL, "0101", &["a"], &[2, 1]);
    assert_eq!(
        r.result.defender,
        MeleeEffect::CaptureRetreat {
            captured: 0,
            retreat: 2
        }
    );
    settle_rules(&mut t);
    assert_eq!(t.hex("x"), None, "captured");
    assert_eq!(t.s.units[&id("x")].captured, 4);
}

// -------------------------------------------------------- third batch

/// "To engage in melee, a unit must begin the Friendly Melee Phase
/// adjacent to the Enemy unit that is the object of the melee.
/// Furthermore, it must be able to move into the defending unit's hex
/// through one of the attacking unit's frontal hex-sides."
#[test]
fn case_12_21_must_enter_through_frontal_hexside() {
    let t = field()
        .union("infantry a strength=4 morale=4 weapon=R")
        .confederate("infantry d strength=2 morale=3 weapon=R")
        .confederate("infantry d2 strength=2 morale=3 weapon=R")
        .place("a", "0406", "n", "line")
        .place("d", "0407", "n", "line")
        .place("d2", "0404", "s", "line")
        .build_at(1, UNION, Phase::RetreatBeforeMelee);
    // (a) D is across A's rear (south) hexside.
    let e = t.decide(UNION, &melee("0407", &["a"])).expect_err("rear");
    println!("{e}");
    // (b) D2 is two hexes off.
    assert_eq!(dist(&t, "0406", "0404"), 2);
    t.refused(UNION, melee("0404", &["a"]), "GBACW 12.21");
}

/// "A unit can only melee with a unit at which it fired. If it did not
/// fire in the preceding Offensive Fire Phase, it may melee with any unit
/// within the above restrictions."
#[test]
fn case_12_22_melee_only_the_unit_fired_at() {
    let pos = field()
        .union("infantry a strength=4 morale=4 weapon=R")
        .confederate("infantry z1 strength=3 morale=4 weapon=R")
        .confederate("infantry z2 strength=3 morale=4 weapon=R")
        .place("a", "0406", "n", "line")
        .place("z1", "0405", "s", "line")
        .place("z2", "0506", "sw", "line");
    // (a) A fires at Z1 (8, "7 to 10": die 1 "–", A's depletion roll 6).
    let mut t = pos.build_at(1, UNION, Phase::OffensiveFire);
    t.ok(UNION, fire("0405", &[("a", 4)]));
    t.script(&[1, 6]);
    t.act(UNION, GbacwAction::EndPhase);
    assert!(!marked(&t, "a", Marker::AmmoDepleted));
    t.advance_to(UNION, Phase::RetreatBeforeMelee);
    t.refused(UNION, melee("0506", &["a"]), "GBACW 12.22");
    assert!(t.decide(UNION, &melee("0405", &["a"])).is_ok());
    // (b) A did not fire.
    let t = pos.build_at(1, UNION, Phase::RetreatBeforeMelee);
    assert!(t.decide(UNION, &melee("0506", &["a"])).is_ok());
}

/// "Mounted cavalry units (see Case 16.1) may retreat before melee
/// without drawing withdrawal fire. They are simply moved the one or two
/// hexes. A morale check is not required."
#[test]
fn case_12_84_mounted_cavalry_rbm_no_fire_no_check() {
    let mut t = field()
        .union("infantry a strength=4 morale=4 weapon=R")
        .confederate("cavalry m strength=2 morale=3 weapon=C")
        .place("a", "0406", "n", "line")
        .place("m", "0405", "s", "mounted")
        .build_at(1, UNION, Phase::RetreatBeforeMelee);
    t.ok(UNION, melee("0405", &["a"]));
    // No dice scripted: none may be rolled.
    t.act(
        REBEL,
        GbacwAction::RetreatBeforeMelee {
            units: ids(&["m"]),
            path: vec![n("0404"), n("0403")],
        },
    );
    assert!(t.s.decision.is_none(), "no withdrawal fire offered");
    assert_eq!(t.hex("m"), Some(n("0403")));
    assert!(!marked(&t, "m", Marker::Rout));
}

/// "A unit may retreat before melee regardless of whether or not it is in
/// command."
#[test]
fn case_12_89_rbm_allowed_out_of_command() {
    let mut t = field()
        .union("infantry a strength=4 morale=4 weapon=R")
        .confederate("brigade b indpnt er=1 rally=1")
        .confederate("infantry d strength=3 morale=3 weapon=R brigade=b")
        .confederate("infantry o strength=3 morale=3 weapon=R brigade=b")
        .place("a", "0406", "n", "line")
        .place("d", "0405", "s", "line")
        .place("o", "0801", "s", "line")
        .leader("b", "0801")
        .out_of_command("d")
        .build_at(1, UNION, Phase::RetreatBeforeMelee);
    assert!(t.s.command.out_of_command.contains(&id("d")));
    t.ok(UNION, melee("0405", &["a"]));
    t.script(&[2]);
    t.act(
        REBEL,
        GbacwAction::RetreatBeforeMelee {
            units: ids(&["d"]),
            path: vec![n("0404"), n("0403")],
        },
    );
    if t.s.decision.is_some() {
        t.act(UNION, GbacwAction::DeclineWithdrawalFire);
    }
    assert_eq!(t.hex("d"), Some(n("0403")), "a full 2 hexes");
    assert!(!marked(&t, "d", Marker::Rout), "2 <= 3");
    assert!(t.dice_left().is_empty());
}

/// "Units unable to retreat those three hexes for any reason (terrain or
/// Enemy units) are captured."
#[test]
fn case_13_31_rout_unable_to_retreat_captured() {
    // X in the corner 0101: Z in 0201; H = 0102 is vacant, and H's other
    // on-map neighbours (0201, 0202, 0103) hold Confederates.
    let mut t = field()
        .union("infantry x strength=3 morale=2 weapon=R")
        .confederate("infantry z strength=4 morale=4 weapon=R")
        .confederate("infantry c1 strength=3 morale=3 weapon=R")
        .confederate("infantry c2 strength=3 morale=3 weapon=R")
        .place("x", "0101", "se", "line")
        .place("z", "0201", "nw", "line")
        .place("c1", "0202", "n", "line")
        .place("c2", "0103", "n", "line")
        .build_at(1, REBEL, Phase::OffensiveFire);
    assert_eq!(toward(&t, "0101", "se"), "0201");
    assert_eq!(toward(&t, "0201", "nw"), "0101");
    t.ok(REBEL, fire("0101", &[("z", 4)]));
    // 8, "7 to 10", density 0: die 4 "P/R"; P/R roll 5 > 2: rout.
    t.script(&[4, 5]);
    let events = t.act(REBEL, GbacwAction::EndPhase);
    assert_eq!(fire_result(&events), FireResult::PinOrRout);
    settle_rules(&mut t);
    assert_eq!(t.hex("x"), None, "captured");
    assert_eq!(t.s.units[&id("x")].captured, 3);
}

/// "3. He may choose to retreat his engaged units two hexes, checking
/// their morale at the end of the retreat. Units retreated from a melee do
/// not suffer withdrawal fire from the enemy unit(s) with which they were
/// engaged. ... There is no advance by the unit(s) left in the hex. ...
/// Option 3 may not be combined with options 1 or 2."
fn engaged_pair() -> Position {
    field()
        .union("infantry a strength=3 morale=3 weapon=R")
        .confederate("infantry d strength=3 morale=3 weapon=R")
        .confederate("infantry d2 strength=3 morale=3 weapon=R")
        .place("a", "0406", "n", "line")
        .place("d", "0405", "s", "line")
        .place("d2", "0505", "sw", "line")
}

#[test]
fn case_12_94_engaged_option3_retreat_two_no_withdrawal_fire() {
    let pos = engaged_pair();
    let engaged = || {
        let mut t = pos.build_at(1, UNION, Phase::RetreatBeforeMelee);
        // 3 against 3: die 3 "Eng / Eng".
        let (r, _) = fight(&mut t, UNION, "0405", &["a"], &[3]);
        assert_eq!(r.result.defender, MeleeEffect::Engaged);
        t.advance_to(REBEL, Phase::RetreatBeforeMelee);
        assert!(marked(&t, "a", Marker::Engaged) && marked(&t, "d", Marker::Engaged));
        t
    };
    let withdraw = GbacwAction::WithdrawEngaged {
        units: ids(&["d"]),
        path: vec![n("0404"), n("0403")],
    };
    // (a) D withdraws 2 hexes; no withdrawal fire; morale 3 holds.
    let mut t = engaged();
    t.script(&[3]);
    t.act(REBEL, withdraw.clone());
    assert!(t.s.decision.is_none(), "no withdrawal fire from A");
    let seen = settle_rules(&mut t);
    assert!(seen.is_empty(), "no advance offered to A: {seen:?}");
    assert_eq!(t.hex("d"), Some(n("0403")));
    assert!(!marked(&t, "d", Marker::Rout));
    assert!(t.dice_left().is_empty(), "D checked morale");
    assert_eq!(t.hex("a"), Some(n("0406")), "A stays");
}

/// Case 12.94 option 3, sub-case (b): "Option 3 may not be combined with
/// options 1 or 2." Either order is refused: D withdraws, then D2 (brought
/// into the engaged hex, option 2) may not melee A; D2's melee on A is
/// declared, then D may not withdraw.
#[test]
fn case_12_94_engaged_option3_retreat_two_no_withdrawal_fire_not_combined() {
    let pos = engaged_pair();
    let withdraw = GbacwAction::WithdrawEngaged {
        units: ids(&["d"]),
        path: vec![n("0404"), n("0403")],
    };
    // (b) option 2 as the engine has it: D2 moves into the engaged hex
    // (12.94: "units may be moved into the hex"), then fights from there
    // with or instead of D; it may not be combined with D's withdrawal.
    let brought_in = || {
        let mut t = pos.build_at(1, UNION, Phase::RetreatBeforeMelee);
        fight(&mut t, UNION, "0405", &["a"], &[3]);
        t.advance_to(REBEL, Phase::Movement);
        t.mv(REBEL, &["d2"], &["0405"]);
        t.advance_to(REBEL, Phase::RetreatBeforeMelee);
        t
    };
    let mut t = brought_in();
    t.script(&[3]);
    t.act(REBEL, withdraw.clone());
    let e = t
        .try_act(REBEL, melee("0406", &["d2"]))
        .expect_err("option 3, then option 2");
    assert_eq!(e.rule, "GBACW 12.94", "{e}");
    let mut t = brought_in();
    t.ok(REBEL, melee("0406", &["d2"]));
    if let Some(offer) = t.s.rbm.clone() {
        t.ok(offer.seat, GbacwAction::StandFast);
    }
    t.script(&[3]);
    let e = t
        .try_act(REBEL, withdraw)
        .expect_err("option 2, then option 3");
    assert_eq!(e.rule, "GBACW 12.94", "{e}");
    assert_eq!(t.hex("d"), Some(n("0405")), "D stays engaged");
}
