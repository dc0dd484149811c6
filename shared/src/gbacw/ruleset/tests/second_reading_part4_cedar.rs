//! The second reading's Cedar Mountain cases (19.0–27.0,
//! `docs/second-reading/cedar-19-27.md`), part 4: cases parts 1 and 3 left
//! unwritten, written from the cases' text and the seed (not from the
//! engine's code for the rule) with the position builder and the cases'
//! dice. Each test is named as its case and quotes the sentence it rests
//! on. North is the left edge of the Cedar Mountain map, so west is down
//! (higher row numbers) and east is up.

use super::reading_support::{
    cedar, dist, hit, mark, marked, promoted, rally_tried, refused_case, settle, spend, vp,
};
use super::*;
use crate::gbacw::oob::Marker;

fn removed_captured(events: &[GbacwEvent], unit: &str) -> Option<bool> {
    events.iter().find_map(|e| match e {
        GbacwEvent::UnitRemoved { unit: u, captured } if *u == id(unit) => Some(*captured),
        _ => None,
    })
}

// --- 20.1 Leaders' ratings ------------------------------------------------------

/// Cedar Mountain 20.1 (Garnett's counter back "Garnett Winder REPL 2 0
/// (2)") with GBACW 17.13: "For each Point in his Rally Rating a brigade
/// commander may rally one regiment in his command that is within that
/// brigade commander's Effectiveness Radius. Any units stacked with a
/// brigade commander, including any not in his command, are automatically
/// rallied at no cost in Rally Points." Garnett's REPL (ER 2, Rally 0):
/// 48 Va stacked with him rallies; 42 Va, one hex off, cannot.
#[test]
fn cedar_20_1_garnett_replacement_rally_zero() {
    let mut t = cedar(8, 8)
        .turns(12)
        .confederate("brigade garnett indpnt er=2 rally=0")
        .confederate("infantry 48-va brigade=garnett strength=3 morale=3 weapon=R")
        .confederate("infantry 42-va brigade=garnett strength=2 morale=3 weapon=R")
        .union("infantry far strength=4 morale=4 weapon=R")
        .place("48-va", "0404", "n", "line")
        .place("42-va", "0405", "n", "line")
        .leader("garnett", "0404")
        .place("far", "0101", "s", "line")
        .build_at(3, REBEL, Phase::Rally);
    mark(&mut t, "48-va", Marker::Rout);
    mark(&mut t, "42-va", Marker::Rout);
    let events = t.act(REBEL, GbacwAction::Rally { unit: id("48-va") });
    assert!(rally_tried(&events).1, "{events:?}");
    assert!(!marked(&t, "48-va", Marker::Rout));
    // No Rally Point rallies 42 Va; should the engine offer a die (13.54),
    // a 6 fails it.
    t.script(&[6]);
    if let Ok(events) = t.try_act(REBEL, GbacwAction::Rally { unit: id("42-va") }) {
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, GbacwEvent::RallyPointSpent { .. })),
            "no Rally Point to spend: {events:?}"
        );
    }
    assert!(marked(&t, "42-va", Marker::Rout), "42 Va stays routed");
}

// --- 23.0, 26.42 Retreats off the west edge ------------------------------------------

/// Cedar Mountain 23.1 with GBACW 13.31: "Units unable to retreat those
/// three hexes for any reason (terrain or Enemy units) are captured." /
/// 26.42: "If its only path of retreat during rout or retreat is off map,
/// it is considered captured by the enemy player." Confederate 21 Va, two
/// hexes from the west edge (0409 on a 10-row field: every westerly path
/// leaves the map at its third step), routs: captured,
/// worth 2 VP a point to the Union. FIRE8 reads "R" (C4, die 3); its check
/// rolls 6. (The case's 21 Va has 2 SP; 4 keeps FIRE8 on column 4.)
#[test]
fn cedar_23_0_rout_into_west_map_edge_captured() {
    let mut t = cedar(8, 10)
        .turns(12)
        .confederate("infantry 21-va strength=4 morale=4 weapon=R")
        .union("infantry f1 strength=4 morale=4 weapon=R")
        .union("infantry f2 strength=4 morale=4 weapon=R")
        .place("21-va", "0409", "n", "line")
        .place("f1", "0407", "s", "line")
        .place("f2", "0608", "sw", "line")
        .build_at(3, UNION, Phase::OffensiveFire);
    assert_eq!((dist(&t, "0407", "0409"), dist(&t, "0608", "0409")), (2, 2));
    t.ok(UNION, fire("0409", &[("f1", 4), ("f2", 4)]));
    t.script(&[3, 6]);
    let mut events = t.act(UNION, GbacwAction::EndPhase);
    events.extend(settle(&mut t));
    let r = fire_reports(&events).remove(0);
    assert_eq!(r.result, crate::gbacw::tables::FireResult::MaybeRout);
    assert_eq!(t.hex("21-va"), None, "{events:?}");
    assert_eq!(removed_captured(&events, "21-va"), Some(true));
    assert_eq!(vp(&t, UNION).losses, 8, "4 SP captured, 2 VP each");
}

/// Cedar Mountain 26.42: "If its only path of retreat during rout or
/// retreat is off map, it is considered captured by the enemy player." /
/// GBACW 5.17: "A unit which would be forced to retreat off the map is
/// captured by the Enemy Player." Confederate 13 Va (4 SP) on the west
/// edge gets a melee "R2" (5 against 4: +1, die 2 reads "-/R2"): captured,
/// 4 × 2 = 8 VP to the Union.
#[test]
fn cedar_26_42_retreat_off_map_captured() {
    let mut t = cedar(8, 10)
        .turns(12)
        .confederate("infantry 13-va strength=4 morale=4 weapon=R")
        .union("infantry 10-me strength=5 morale=4 weapon=R")
        .place("13-va", "0410", "n", "line")
        .place("10-me", "0409", "s", "line")
        .build_at(3, UNION, Phase::RetreatBeforeMelee);
    t.ok(
        UNION,
        GbacwAction::DeclareMelee {
            target: n("0410"),
            attackers: ids(&["10-me"]),
        },
    );
    if t.s.rbm.is_some() {
        t.ok(REBEL, GbacwAction::StandFast);
    }
    t.ok(UNION, GbacwAction::EndPhase);
    t.script(&[2, 1, 1, 1]);
    let mut events = t.act(UNION, GbacwAction::EndPhase);
    events.extend(settle(&mut t));
    let r = events
        .iter()
        .find_map(|e| match e {
            GbacwEvent::MeleeResolved(r) => Some(r.clone()),
            _ => None,
        })
        .expect("the melee");
    assert_eq!(r.result.to_string(), "-/R2");
    assert_eq!(t.hex("13-va"), None, "{events:?}");
    assert_eq!(removed_captured(&events, "13-va"), Some(true));
    assert_eq!(vp(&t, UNION).losses, 8);
}

// --- 24.2 BCE and detachment ------------------------------------------------------

/// Winder's division with Garnett's brigade (limit 4 of 7) and its
/// regiment; the Confederate Initial Command Phase of Game-Turn 3.
fn garnett_field() -> T {
    cedar(8, 10)
        .turns(12)
        .confederate("army jackson cp=3")
        .confederate("division winder army=jackson dir=4 cp=2")
        .confederate("brigade garnett division=winder er=4 rally=1 bce=4/7 bce-vp=3")
        .confederate("infantry g1 brigade=garnett strength=7 morale=4 weapon=R")
        .union("infantry far strength=4 morale=4 weapon=R")
        .leader("jackson", "0708")
        .leader("winder", "0404")
        .leader("garnett", "0406")
        .place("g1", "0406", "n", "line")
        .place("far", "0101", "s", "line")
        .build_at(3, REBEL, Phase::InitialCommand)
}

/// Cedar Mountain 24.2: "A brigade that has reached its BCE limit may not
/// be detached from its division." Garnett's brigade at its limit, within
/// Winder's DIR: the detachment is refused.
#[test]
fn cedar_24_2_bce_brigade_may_not_detach() {
    let mut t = garnett_field();
    assert!(
        t.decide(
            REBEL,
            &GbacwAction::Detach {
                brigade: id("garnett")
            }
        )
        .is_ok(),
        "before BCE it may"
    );
    hit(&mut t, "g1", 4);
    assert!(t.rs.brigade_at_bce_limit(&t.s, &id("garnett")));
    // The engine cites GBACW 17.67, which says the same for every battle
    // ("may not be detached from its division"); the outcome is the case's.
    let e = t
        .decide(
            REBEL,
            &GbacwAction::Detach {
                brigade: id("garnett"),
            },
        )
        .expect_err("24.2");
    assert!(
        e.rule.ends_with(" 24.2") || e.rule.ends_with(" 17.67"),
        "{e}"
    );
}

/// Cedar Mountain 24.2: "If a detached brigade has not been attached to
/// another division and it reaches its BCE limit, then it is "out of
/// command." The brigade's leader may only move one hex per Game-Turn
/// until the brigade is reattached to some friendly division." Garnett's
/// brigade, detached, reaches its limit: in the Movement Phase its
/// leader may move one hex, not three.
#[test]
fn cedar_24_2_detached_unattached_bce_out_of_command() {
    let mut t = garnett_field();
    t.ok(
        REBEL,
        GbacwAction::Detach {
            brigade: id("garnett"),
        },
    );
    hit(&mut t, "g1", 4);
    assert!(t.rs.brigade_at_bce_limit(&t.s, &id("garnett")));
    t.advance_to(REBEL, Phase::Movement);
    assert!(
        t.decide(REBEL, &mv(&["garnett"], &["0407", "0408", "0409"]))
            .is_err(),
        "three hexes"
    );
    assert!(t.decide(REBEL, &mv(&["garnett"], &["0407"])).is_ok());
}

// --- 25.1, 25.2 Army commanders' Command Points ------------------------------------

/// Jackson, Winder (DIR 4) and Ewell (DIR 6) where the case puts them, with
/// Winder's brigade Taliaferro (ER 4) and its regiment at `tal`; the
/// Confederate Initial Command Phase of Game-Turn 3.
fn jackson_field(jackson: &str, winder: &str, ewell: &str, tal: &str) -> T {
    cedar(10, 16)
        .turns(12)
        .turns(12)
        .confederate("army jackson cp=3")
        .confederate("division winder army=jackson dir=4 cp=2")
        .confederate("division ewell army=jackson dir=6 cp=2")
        .confederate("brigade taliaferro division=winder er=4 rally=1")
        .confederate("infantry t1 brigade=taliaferro strength=4 morale=4 weapon=R")
        .union("infantry far strength=4 morale=4 weapon=R")
        .leader("jackson", jackson)
        .leader("winder", winder)
        .leader("ewell", ewell)
        .leader("taliaferro", tal)
        .place("t1", tal, "n", "line")
        .place("far", "1001", "s", "line")
        .build_at(3, REBEL, Phase::InitialCommand)
}

/// Cedar Mountain 25.1: "General Jackson has three Command Points (as
/// indicated on his counter) which may be used each Game-Turn to increase
/// the Divisional Integrity Radius of *any* Confederate division
/// commander." Jackson, 2 hexes from Winder (DIR 4), gives him 3: DIR 7,
/// so Taliaferro 6 hexes from Winder moves normally; without them he
/// moves one hex only (17.21).
#[test]
fn cedar_25_1_jackson_adds_to_division_dir() {
    let t = jackson_field("0302", "0304", "0102", "0310");
    assert_eq!((dist(&t, "0302", "0304"), dist(&t, "0304", "0310")), (2, 6));
    let path = ["0309", "0308", "0307"];
    let mut with = t.clone();
    with.ok(REBEL, spend("jackson", "winder", 3));
    with.advance_to(REBEL, Phase::Movement);
    assert!(
        with.decide(REBEL, &mv(&["taliaferro"], &path)).is_ok(),
        "in Winder's DIR of 7"
    );
    let mut without = t.clone();
    without.advance_to(REBEL, Phase::Movement);
    assert!(
        without.decide(REBEL, &mv(&["taliaferro"], &path)).is_err(),
        "outside the DIR of 4: one hex"
    );
}

/// Cedar Mountain 25.1: "The division commander must begin the Confederate
/// Initial Command Phase within three hexes of Jackson". Ewell, 5 hexes
/// away: refused.
#[test]
fn cedar_25_1_jackson_must_begin_phase_in_range() {
    let t = jackson_field("0302", "0304", "0307", "0310");
    assert_eq!(dist(&t, "0302", "0307"), 5);
    refused_case(&t, REBEL, spend("jackson", "ewell", 1), "25.1");
}

/// Cedar Mountain 25.1: "Jackson's three points may be split among his
/// division commanders so long as each commander is within the three hex
/// limit." (a) 2 to Winder and 1 to Ewell; (b) 2 and 2 is 4 > 3:
/// refused; (c) points unused on one Game-Turn do not carry over: on
/// Game-Turn 4 no more than 3.
#[test]
fn cedar_25_1_jackson_split_points() {
    let t = jackson_field("0302", "0303", "0304", "0310");
    assert_eq!((dist(&t, "0302", "0303"), dist(&t, "0302", "0304")), (1, 2));
    let mut a = t.clone();
    a.ok(REBEL, spend("jackson", "winder", 2));
    a.ok(REBEL, spend("jackson", "ewell", 1));
    let mut b = t.clone();
    b.ok(REBEL, spend("jackson", "winder", 2));
    assert!(
        b.decide(REBEL, &spend("jackson", "ewell", 2)).is_err(),
        "(b)"
    );
    let mut c = t.clone();
    c.advance_to_turn(4, REBEL, Phase::InitialCommand);
    assert!(
        c.decide(REBEL, &spend("jackson", "winder", 4)).is_err(),
        "(c) 4 > 3"
    );
    assert!(c.decide(REBEL, &spend("jackson", "winder", 3)).is_ok());
}

/// Banks, Augur (DIR 5) and Williams (DIR 6) where the case puts them, and
/// Augur's brigade Greene (ER 3) with its regiment at `greene`; the Union
/// Initial Command Phase of Game-Turn 2.
fn banks_field(banks: &str, augur: &str, williams: &str, greene: &str) -> T {
    cedar(10, 16)
        .turns(12)
        .union("army banks cp=1")
        .union("division augur army=banks dir=5 cp=2")
        .union("division williams army=banks dir=6 cp=2")
        .union("brigade greene division=augur er=3 rally=1")
        .union("infantry g1 brigade=greene strength=4 morale=4 weapon=R")
        .confederate("infantry far strength=4 morale=4 weapon=R")
        .leader("banks", banks)
        .leader("augur", augur)
        .leader("williams", williams)
        .leader("greene", greene)
        .place("g1", greene, "n", "line")
        .place("far", "1016", "n", "line")
        .build_at(2, UNION, Phase::InitialCommand)
}

/// Cedar Mountain 25.2: "General Banks has one Command Point which may be
/// used each Game-Turn to increase the Divisional Integrity Radius of one
/// Union divisional commander by one." (a) Banks, 2 hexes from Augur
/// (DIR 5), gives him his point: Greene, 6 hexes from Augur, moves
/// normally; (b) a point to both Augur and Williams, or two to Augur, is
/// refused.
#[test]
fn cedar_25_2_banks_one_point_one_division() {
    let t = banks_field("0302", "0304", "0305", "0310");
    assert_eq!((dist(&t, "0302", "0304"), dist(&t, "0304", "0310")), (2, 6));
    assert!(t.decide(UNION, &spend("banks", "augur", 2)).is_err(), "+2");
    let mut a = t.clone();
    a.ok(UNION, spend("banks", "augur", 1));
    assert!(
        a.decide(UNION, &spend("banks", "williams", 1)).is_err(),
        "one point, one commander"
    );
    a.advance_to(UNION, Phase::Movement);
    assert!(
        a.decide(UNION, &mv(&["greene"], &["0309", "0308", "0307"]))
            .is_ok(),
        "Greene in Augur's DIR of 6"
    );
}

/// Cedar Mountain 25.2: "General Banks has one Command Point which may be
/// used each Game-Turn to increase the Divisional Integrity Radius of one
/// Union divisional commander by one." No distance is named (25.1 names
/// one for Jackson only): Banks, 9 hexes from Williams, may give him his
/// point.
#[test]
fn cedar_25_2_banks_no_distance_limit() {
    let t = banks_field("0302", "0304", "0311", "0310");
    assert_eq!(dist(&t, "0302", "0311"), 9);
    assert!(t.decide(UNION, &spend("banks", "williams", 1)).is_ok());
}

// --- 25.31 Army commanders not replaced ------------------------------------------

/// Cedar Mountain 25.31: "General Banks and General Jackson are not
/// replaced if they become casualties or are captured." / 27.21 (the
/// scenario's values): Jackson killed, 10 VP. Jackson, stacked with a
/// Confederate regiment that loses a point to Union fire (C4, die 5: "1"),
/// rolls 2 (killed); in the next Confederate Final Command Phase no one
/// replaces him, and the Union has scored 10 for him.
#[test]
fn cedar_25_31_army_commander_not_replaced() {
    let mut t = cedar(8, 10)
        .turns(12)
        .scenario("vp-leader jackson wounded=5 killed=10 captured=15")
        .confederate("army jackson cp=3")
        .confederate("division winder army=jackson dir=4 cp=2")
        .confederate("infantry r strength=4 morale=4 weapon=R")
        .union("infantry f1 strength=4 morale=4 weapon=R")
        .union("infantry f2 strength=4 morale=4 weapon=R")
        .place("r", "0404", "n", "line")
        .leader("jackson", "0404")
        .leader("winder", "0708")
        .place("f1", "0402", "s", "line")
        .place("f2", "0603", "sw", "line")
        .build_at(3, UNION, Phase::OffensiveFire);
    t.ok(UNION, fire("0404", &[("f1", 4), ("f2", 4)]));
    t.script(&[5, 1, 1, 1, 1, 1, 1]);
    let mut events = t.act(UNION, GbacwAction::EndPhase);
    events.extend(settle(&mut t));
    assert!(
        events.iter().any(|e| matches!(
            e,
            GbacwEvent::LeaderRolled {
                casualty: Some(crate::gbacw::ruleset::state::Casualty::Killed),
                ..
            }
        )),
        "{events:?}"
    );
    assert_eq!(t.hex("jackson"), None);
    assert_eq!(vp(&t, UNION).leaders, 10);
    t.advance_to(REBEL, Phase::FinalCommand);
    assert!(
        t.decide(
            REBEL,
            &GbacwAction::ReplaceLeader {
                lost: id("jackson"),
                hex: n("0404"),
            }
        )
        .is_err(),
        "no replacement for Jackson"
    );
    let end = t.act(REBEL, GbacwAction::EndPhase);
    assert!(
        !end.iter()
            .any(|e| matches!(e, GbacwEvent::LeaderSucceeded(_))),
        "{end:?}"
    );
    assert_eq!(t.hex("jackson"), None);
}

// --- 25.3 Succession on the battle's own leaders ------------------------------------

use crate::gbacw::oob::Formation;
use crate::gbacw::ruleset::state::Casualty;

fn lost(t: &mut T, leader: &str, how: Casualty) {
    let l = t.s.leaders.get_mut(&id(leader)).unwrap();
    l.hex = None;
    l.casualty = Some(how);
    t.s.progress.to_arrive.remove(&id(leader));
}

fn dir_of(t: &T, division: &str) -> Option<(CounterId, u8)> {
    crate::gbacw::ruleset::combat::succession::division_commander(&t.rs, &t.s, &id(division))
}

/// Cedar Mountain 25.32: "Union division commander **Williams** is
/// replaced first by Crawford and then by Gordon." / GBACW 17.85: "When a
/// brigade commander is promoted to division commander, he has a
/// Divisional Integrity Radius but *no* Command Points." Williams killed:
/// at the end of the next Union Final Command Phase Crawford ("Crawfrd
/// Williams ★★★ 5 2 (5)") commands the division with DIR 5; Gordon is not
/// promoted; in the next Initial Command Phase Crawford spends no point.
#[test]
fn cedar_25_32_williams_replaced_by_crawford() {
    let mut t = super::cedar_rules::field();
    t.field_unit("5-conn", "0505", Formation::Line);
    t.field_unit("27-ind", "0507", Formation::Line);
    t.field_leader("crawford", "0505");
    t.field_leader("gordon", "0507");
    t.field_leader("williams", "0506");
    lost(&mut t, "williams", Casualty::Killed);
    t.advance_to(UNION, Phase::FinalCommand);
    let events = t.ok(UNION, GbacwAction::EndPhase);
    assert_eq!(
        promoted(&events, "williams"),
        Some(id("crawford")),
        "{events:?}"
    );
    assert_eq!(dir_of(&t, "williams"), Some((id("crawford"), 5)));
    assert_eq!(t.hex("gordon"), Some(n("0507")), "Gordon stays a brigadier");
}

/// Cedar Mountain 25.33: "**Hill** is replaced by Branch, Pender, Archer,
/// and then Thomas." / 25.3: "if that leader is already a casualty, the
/// second replacement is selected". Branch wounded earlier (his counter
/// flipped); Hill killed, stacked with Archer; Pender 7 hexes off is
/// promoted, not Archer.
#[test]
fn cedar_25_33_hill_order() {
    let mut t = super::cedar_rules::field();
    for (u, l, h) in [
        ("7-nc", "branch", "0505"),
        ("19-ga", "archer", "0506"),
        ("16-nc", "pender", "0513"),
    ] {
        t.field_unit(u, h, Formation::Line);
        t.field_leader(l, h);
    }
    t.field_leader("hill", "0506");
    assert_eq!(dist(&t, "0506", "0513"), 7);
    lost(&mut t, "branch", Casualty::Wounded);
    t.advance_to(REBEL, Phase::FinalCommand);
    t.ok(REBEL, GbacwAction::EndPhase);
    assert_eq!(t.hex("branch"), Some(n("0505")), "Branch's REPL side");
    lost(&mut t, "hill", Casualty::Killed);
    t.advance_to(UNION, Phase::InitialCommand);
    t.advance_to(REBEL, Phase::FinalCommand);
    let events = t.ok(REBEL, GbacwAction::EndPhase);
    assert_eq!(promoted(&events, "hill"), Some(id("pender")), "{events:?}");
    assert_eq!(dir_of(&t, "hill"), Some((id("pender"), 3)));
}

/// Cedar Mountain 25.34: "an *attached* commander may never be promoted
/// to command a division to which he does not belong". Early (independent)
/// attached to Winder's division; Winder killed, Taliaferro and Ronald
/// already casualties: Early is not promoted; an anonymous replacement
/// takes the division.
#[test]
fn cedar_25_34_attached_commander_never_promoted() {
    let mut t = super::cedar_rules::field();
    t.field_unit("12-ga", "0505", Formation::Line);
    t.field_leader("early", "0505");
    t.field_unit("10-va", "0507", Formation::Line);
    t.field_unit("5-va", "0509", Formation::Line);
    t.field_leader("winder", "0506");
    // The position's fact: Early's brigade is attached to Winder's division.
    t.s.links.entry(id("winder")).or_default().attached = Some(id("early"));
    for (l, h) in [("taliaferro", "0507"), ("ronald", "0509")] {
        t.field_leader(l, h);
        lost(&mut t, l, Casualty::Killed);
    }
    t.advance_to(REBEL, Phase::FinalCommand);
    t.ok(REBEL, GbacwAction::EndPhase);
    lost(&mut t, "winder", Casualty::Killed);
    t.advance_to(UNION, Phase::InitialCommand);
    t.advance_to(REBEL, Phase::FinalCommand);
    let events = t.ok(REBEL, GbacwAction::EndPhase);
    let p = promoted(&events, "winder").expect("someone takes the division");
    assert_ne!(p, id("early"));
    assert!(
        matches!(
            t.rs.game().oob.leaders[&p].role,
            crate::gbacw::oob::LeaderRole::Replacement { .. }
        ),
        "{p:?}"
    );
    assert_eq!(t.hex("early"), Some(n("0505")));
}

// --- 26.1, 27.22 The first Game-Turn -------------------------------------------------

/// The battle after the Union set-up, played phase by phase to the start
/// of Game-Turn 3: the (Game-Turn, phasing seat) of every phase entered.
fn first_turns() -> (T, Vec<(u16, Option<SeatId>)>, T) {
    let mut t = super::cedar_rules::field();
    let mut seen = vec![(
        t.s.clock.turn,
        t.rs.phasing_side(t.s.clock).map(|s| t.rs.seat_of(s)),
    )];
    let mut after_one = None;
    for _ in 0..200 {
        if t.s.clock.turn >= 3 || t.s.over {
            break;
        }
        let actor = t.rs.acting_seat(&t.s).expect("someone acts");
        let (events, _) = t.roll(actor, GbacwAction::EndPhase, u64::from(t.s.clock.turn));
        for e in &events {
            if let GbacwEvent::PhaseChanged { clock } = e {
                seen.push((
                    clock.turn,
                    t.rs.phasing_side(*clock).map(|s| t.rs.seat_of(s)),
                ));
                if clock.turn == 2 && after_one.is_none() {
                    after_one = Some(t.clone());
                }
            }
        }
    }
    (t, seen, after_one.expect("Game-Turn 2 began"))
}

/// Cedar Mountain 26.1: "On Game-Turn One, however, the Union Player-Turn
/// is omitted. Thus, the Confederate player moves first in the game."
/// Every phase of Game-Turn 1 is the Confederates'; Game-Turn 2 opens
/// with the Union's.
#[test]
fn cedar_26_1_game_turn_one_confederate_only() {
    let (_, seen, _) = first_turns();
    let one: Vec<_> = seen.iter().filter(|(turn, _)| *turn == 1).collect();
    assert!(!one.is_empty());
    assert!(
        one.iter().all(|(_, s)| *s == Some(REBEL) || s.is_none()),
        "{seen:?}"
    );
    let two: Vec<Option<SeatId>> = seen
        .iter()
        .filter(|(turn, s)| *turn == 2 && s.is_some())
        .map(|(_, s)| *s)
        .collect();
    assert_eq!(two.first(), Some(&Some(UNION)), "{seen:?}");
    assert!(two.contains(&Some(REBEL)));
}

/// Cedar Mountain 27.22: "**Important:** All Victory Point hexes begin
/// uncontrolled by either player; thus, it is physically impossible for
/// either player to control any of the hexes at the conclusion of
/// Game-Turn One." At the start of Game-Turn 2 neither side has a point
/// for hexes.
#[test]
fn cedar_27_22_vp_hexes_none_on_turn_one() {
    let (_, _, t) = first_turns();
    assert_eq!(t.s.clock.turn, 2);
    assert_eq!((vp(&t, UNION).hexes, vp(&t, REBEL).hexes), (0, 0));
}
