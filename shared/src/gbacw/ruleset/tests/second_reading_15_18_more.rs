//! The second reading's acceptance cases for Standard Rules 15.0–18.0
//! (`docs/second-reading/std-15-18.md`), part 3: the cases the first
//! translation (`second_reading_15_18.rs`) left. Written from the cases'
//! text and the seed, built with the position builder and the cases'
//! dice; each test is named as its case and quotes its sentence.

use super::reading_support::{
    boxes, casualty, charge, dist, formation, marked, melee, melee_report, morale_dice, reads,
    settle, strength,
};
use super::*;
use crate::gbacw::oob::{Crew, Marker};
use crate::gbacw::ruleset::state::Casualty;
use crate::gbacw::tables::{CasualtyCause, LeaderLoss};
use crate::gbacw::testkit::Position;

/// In the Union Retreat Before Melee Phase: declare `action`, let the
/// defender stand, end the phase, and resolve the Melee Phase with `dice`
/// (decisions left pending are answered by default with the rest).
fn melee_with(t: &mut T, action: GbacwAction, dice: &[u16]) -> Vec<GbacwEvent> {
    assert_eq!(t.phase(), Some(Phase::RetreatBeforeMelee));
    t.ok(UNION, action);
    while t.rs.acting_seat(&t.s) == Some(REBEL) {
        t.ok(REBEL, GbacwAction::StandFast);
    }
    t.ok(UNION, GbacwAction::EndPhase);
    assert_eq!(t.phase(), Some(Phase::Melee));
    t.script(dice);
    let mut events = t.act(UNION, GbacwAction::EndPhase);
    events.extend(settle(t));
    events
}

// ---------------------------------------------------------------- 15.0

/// Union battery A (HB, 4 guns, `rounds`) in 0305 limbered facing north;
/// Confederate E (4 SP, Line) in 0302 facing south, three hexes off.
fn limbered_battery(rounds: u16) -> Position {
    Position::new(6, 8)
        .union(&format!(
            "battery a weapon=HB guns=4 rounds={rounds} morale=3"
        ))
        .confederate("infantry e strength=4 morale=3 weapon=R")
        .place("a", "0305", "n", "limbered")
        .place("e", "0302", "s", "line")
}

/// GBACW 15.0: "Once an artillery unit has fired, it may not move, and
/// once an artillery unit has moved, it may not fire."
#[test]
fn case_15_0_moved_battery_may_not_fire() {
    let mut t = limbered_battery(20).build_at(3, UNION, Phase::Movement);
    t.ok(UNION, mv(&["a"], &["0304"]));
    settle(&mut t);
    t.ok(UNION, formation("a", Formation::Unlimbered));
    settle(&mut t);
    assert_eq!(dist(&t, "0304", "0302"), 2);
    t.advance_to(UNION, Phase::OffensiveFire);
    let e = t
        .decide(UNION, &fire("0302", &[("a", 4)]))
        .expect_err("a battery that moved may not fire");
    assert!(e.rule.contains("15.0"), "{e}");
    assert_eq!(t.s.units[&id("a")].status.rounds, 20);
    assert_eq!(t.s.units[&id("a")].status.formation, Formation::Unlimbered);
}

/// GBACW 15.0: "However, if an artillery unit does not move but changes
/// formation (from limbered to unlimbered), it may fire." / 11.31: "Each
/// time an artillery battery fires, it expends one round of ammunition."
#[test]
fn case_15_0_unlimber_in_place_may_fire() {
    let mut t = Position::new(6, 8)
        .union("battery a weapon=HB guns=4 rounds=5 morale=3")
        .confederate("infantry e strength=4 morale=3 weapon=R")
        .place("a", "0303", "n", "limbered")
        .place("e", "0302", "s", "line")
        .build_at(3, UNION, Phase::Movement);
    t.ok(UNION, formation("a", Formation::Unlimbered));
    settle(&mut t);
    t.advance_to(UNION, Phase::OffensiveFire);
    t.ok(UNION, fire("0302", &[("a", 4)]));
    // Grapeshot 40 is C8; die 4 "1*"; the check 1; the pin roll 1.
    t.script(&[4, 1, 1]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    let r = &fire_reports(&events)[0];
    assert_eq!((r.strength, r.density_shift, r.enfilade), (40, 0, false));
    assert_eq!(reads(&events), vec![(8, 4, "1*".to_string())]);
    assert_eq!(strength(&t, "e"), 3);
    assert!(!marked(&t, "e", Marker::Rout));
    assert_eq!(t.s.units[&id("a")].status.rounds, 4);
    assert!(t.dice_left().is_empty(), "left: {:?}", t.dice_left());
}

/// GBACW 15.0: "Artillery units may either move or fire in any one
/// Player-Turn." — the Union battery moved in the Union Player-Turn and
/// fires in the Confederate one.
#[test]
fn case_15_0_limit_is_per_player_turn() {
    let mut t = Position::new(6, 8)
        .union("battery a weapon=HB guns=4 rounds=20 morale=3")
        .confederate("infantry e strength=4 morale=3 weapon=R")
        .place("a", "0306", "n", "limbered")
        .place("e", "0301", "s", "line")
        .build_at(3, UNION, Phase::Movement);
    t.ok(UNION, mv(&["a"], &["0305", "0304"]));
    settle(&mut t);
    t.ok(UNION, formation("a", Formation::Unlimbered));
    settle(&mut t);
    t.advance_to(REBEL, Phase::Movement);
    t.ok(REBEL, mv(&["e"], &["0302", "0303"]));
    settle(&mut t);
    t.advance_to(REBEL, Phase::DefensiveFire);
    t.ok(UNION, fire("0303", &[("a", 4)]));
    t.script(&[1, 1, 1, 1, 1, 1]);
    let actor = t.rs.acting_seat(&t.s).unwrap();
    t.act(actor, GbacwAction::EndPhase);
    assert_eq!(t.s.units[&id("a")].status.rounds, 19, "one round spent");
}

/// Confederate battery B (TA, 4 guns, crew morale 3, 6 rounds) in 0302
/// facing south, unlimbered; Union infantry F (`sp`, R) in 0304 facing
/// north, two hexes off, at the Union Offensive Fire Phase.
fn small_arms_on_battery(sp: u8) -> T {
    Position::new(6, 8)
        .union(&format!("infantry f strength={sp} morale=3 weapon=R"))
        .confederate("battery b weapon=TA guns=4 rounds=6 morale=3")
        .place("f", "0304", "n", "line")
        .place("b", "0302", "s", "unlimbered")
        .build_at(1, UNION, Phase::OffensiveFire)
}

/// GBACW 15.11: "Gun crews suffer casualties only as a result of melee or
/// small-arms fire" / 15.12: "When a battery's gun crew takes a 1
/// Strength Point loss, that battery's crew counter is turned over to the
/// ½-crew side." / 9.82: "If an artillery battery is hit by small-arms
/// fire, only the crew is affected."
#[test]
fn case_15_11_small_arms_hits_crew_not_guns() {
    let mut t = small_arms_on_battery(4);
    t.ok(UNION, fire("0302", &[("f", 4)]));
    // Die 6 reads "1" on C2 or C3; the crew's check 2. No caisson roll:
    // a die more asked for would find the script empty.
    t.script(&[6, 2]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    assert_eq!(fire_reports(&events)[0].result.to_string(), "1");
    let b = &t.s.units[&id("b")].status;
    assert_eq!(b.crew, Crew::Half);
    assert_eq!(b.strength, 4, "the guns are untouched");
    assert_eq!(b.rounds, 6, "no caisson hit by small arms");
    assert!(!b.markers.contains(&Marker::Rout));
    assert!(t.dice_left().is_empty(), "left: {:?}", t.dice_left());
}

/// GBACW 15.12: "When the gun crew loses a second Strength Point, the
/// crew is eliminated and the battery is removed from play and considered
/// eliminated (not captured) for Victory Point purposes."
#[test]
fn case_15_12_half_crew_second_loss_eliminates_not_captured() {
    let mut t = small_arms_on_battery(4);
    {
        let b = t.s.units.get_mut(&id("b")).unwrap();
        b.status.crew = Crew::Half;
        b.status.strength = 3;
        b.killed = 1;
    }
    t.ok(UNION, fire("0302", &[("f", 4)]));
    t.script(&[6]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    assert_eq!(fire_reports(&events)[0].result.to_string(), "1");
    assert_eq!(t.hex("b"), None, "the battery is removed");
    assert_eq!(t.s.units[&id("b")].captured, 0, "eliminated, not captured");
    assert!(
        events.iter().any(|e| matches!(
            e,
            GbacwEvent::UnitRemoved { unit, captured: false } if *unit == id("b")
        )),
        "{events:#?}"
    );
    assert!(t.dice_left().is_empty(), "no check is left to make");
}

/// GBACW 15.12: "Each gun crew can sustain a maximum of two step-losses."
/// / 9.82: "If a battery suffers a result of "1," the gun crew counter is
/// flipped over to its Reduced Strength side; another Point loss and the
/// crew is eliminated." — a "2" on a full crew.
#[test]
fn case_15_12_two_point_result_on_full_crew() {
    // 9.3 allows 4 small-arms points through a firer's hexside, so the
    // 35–42 the case asks for comes from five adjacent 4-point regiments,
    // two of them through B's flanks (enfilade: one column more, the "2*"
    // the case names all the same).
    let mut p = Position::new(6, 8)
        .confederate("battery b weapon=TA guns=4 rounds=6 morale=3")
        .place("b", "0302", "s", "unlimbered");
    for (f, hex, facing) in [
        ("f1", "0303", "n"),
        ("f2", "0402", "nw"),
        ("f3", "0202", "ne"),
        ("f4", "0401", "sw"),
        ("f5", "0201", "se"),
    ] {
        p = p
            .union(&format!("infantry {f} strength=4 morale=3 weapon=R"))
            .place(f, hex, facing, "line");
    }
    let mut t = p.build_at(1, UNION, Phase::OffensiveFire);
    let firers = [("f1", 4), ("f2", 4), ("f3", 4), ("f4", 4), ("f5", 4)];
    t.ok(UNION, fire("0302", &firers));
    t.script(&[5]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    let r = &fire_reports(&events)[0];
    assert_eq!(r.strength, 40, "4 × 2 five times, adjacent");
    assert_eq!(r.result.to_string(), "2*", "{r:?}");
    assert_eq!(t.hex("b"), None, "both crew steps lost: removed");
    assert_eq!(t.s.units[&id("b")].captured, 0);
    assert_eq!(strength(&t, "b"), 4, "the guns were not reduced first");
    assert!(t.dice_left().is_empty(), "no check is left to make");
}

/// GBACW 15.13: "A battery with a ½ crew may limber, move, and unlimber
/// normally."
#[test]
fn case_15_13_half_crew_moves_normally() {
    let run = |crew: Crew| {
        let mut t = Position::new(6, 8)
            .union("battery a weapon=HB guns=3 rounds=20 morale=3")
            .confederate("infantry e strength=4 morale=3 weapon=R")
            .place("a", "0305", "n", "unlimbered")
            .place("e", "0601", "s", "line")
            .build_at(1, UNION, Phase::Movement);
        t.s.units.get_mut(&id("a")).unwrap().status.crew = crew;
        t.ok(UNION, formation("a", Formation::Limbered));
        t.ok(UNION, mv(&["a"], &["0304"]));
        t.ok(UNION, formation("a", Formation::Unlimbered));
        assert_eq!(t.hex("a"), Some(n("0304")));
        t.spent("a")
    };
    assert_eq!(run(Crew::Half), run(Crew::Full), "the same costs");
}

/// Confederate battery B (TA, 4 guns, crew morale 2) in 0305 facing south
/// in `formation`; Union infantry F (4 SP, R) adjacent in 0306.
fn battery_under_fire(formation: &str) -> T {
    Position::new(8, 10)
        .union("infantry f strength=4 morale=3 weapon=R")
        .confederate("battery b weapon=TA guns=4 rounds=6 morale=2")
        .place("f", "0306", "n", "line")
        .place("b", "0305", "s", formation)
        .build_at(1, UNION, Phase::OffensiveFire)
}

/// GBACW 15.16: "When an unlimbered artillery crew is routed, the crew
/// routs but the guns remain in the original hex." / 13.25: "Unlimbered
/// guns never rout. However, their crews may rout, thus abandoning the
/// guns". / 13.31: a routed unit "is immediately moved three hexes".
/// The crew routs three hexes as a piece of its own (15.1: "considered
/// line infantry for all purposes"); the guns stay where they were, with
/// the Rout marker standing for their absent crew. (Before, outside
/// Corinth, the crew was held to rout at its guns: an interim reading.)
#[test]
fn case_15_16_unlimbered_crew_routs_guns_stay() {
    let mut t = battery_under_fire("unlimbered");
    t.ok(UNION, fire("0305", &[("f", 4)]));
    // 8 adjacent is C4, density −1: C3; die 4 "R"; the crew's check 5 > 2.
    t.script(&[4, 5]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    settle(&mut t);
    assert_eq!(reads(&events), vec![(3, 4, "R".to_string())]);
    assert_eq!(t.hex("b"), Some(n("0305")), "the guns stay");
    assert!(marked(&t, "b", Marker::Rout), "the guns are crewless");
    let away = *t.s.crews_away.get(&id("b")).expect("the crew routed away");
    assert_eq!(
        t.rs.game().map.grid.distance(n("0305"), away),
        3,
        "13.31: three hexes"
    );
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, GbacwEvent::UnitRetreated { unit, .. } if *unit == id("b"))),
        "the guns never move with it (13.25)"
    );
    assert_eq!(strength(&t, "b"), 4);
}

/// GBACW 15.16: "When an unlimbered artillery crew is routed, the crew
/// routs but the guns remain in the original hex." / 13.32: "Routed units
/// may not engage in any kind of Fire Combat." / 13.54: "Routed artillery
/// gun crews ... may rally without leaders. ... If the die roll result is
/// higher than the unit's Morale Rating, the unit remains routed.
/// Otherwise, the unit rallies." / 15.1: crews are "considered line
/// infantry for all purposes". The guns left behind may not fire; the
/// crew rallies by die where it stands and walks back as Line infantry;
/// in its guns' hex the marker comes off.
#[test]
fn case_15_16_crewless_guns_stay_silent_until_their_crew_rallies_and_returns() {
    let mut t = battery_under_fire("unlimbered");
    t.ok(UNION, fire("0305", &[("f", 4)]));
    t.script(&[4, 5]);
    t.act(UNION, GbacwAction::EndPhase);
    settle(&mut t);
    assert!(marked(&t, "b", Marker::Rout));
    let away = *t.s.crews_away.get(&id("b")).expect("the crew routed away");
    t.advance_to(UNION, Phase::DefensiveFire);
    assert!(
        t.decide(REBEL, &fire("0306", &[("b", 4)])).is_err(),
        "13.32: the guns are without their crew, no fire"
    );
    t.advance_to(REBEL, Phase::Rally);
    t.script(&[2]);
    t.act(REBEL, GbacwAction::Rally { unit: id("b") });
    assert!(
        t.s.crews_rallied.contains(&id("b")),
        "a 2 against morale 2 rallies, where the crew stands"
    );
    assert_eq!(t.s.crews_away.get(&id("b")), Some(&away));
    assert!(marked(&t, "b", Marker::Rout), "the guns are still crewless");
    // The crew walks back (three hexes, each nearer its guns).
    t.advance_to(REBEL, Phase::Movement);
    let grid = &t.rs.game().map.grid;
    let mut path = Vec::new();
    let mut at = away;
    for _ in 0..3 {
        at = grid
            .neighbours_on_map(at)
            .into_iter()
            .map(|(_, h)| h)
            .min_by_key(|h| grid.distance(*h, n("0305")))
            .expect("a neighbour");
        path.push(at);
    }
    assert_eq!(path.last(), Some(&n("0305")));
    t.ok(
        REBEL,
        GbacwAction::MoveCrew {
            battery: id("b"),
            path,
        },
    );
    assert!(!t.s.crews_away.contains_key(&id("b")), "back at its guns");
    assert!(!marked(&t, "b", Marker::Rout), "the guns are crewed again");
    assert_eq!(t.hex("b"), Some(n("0305")));
}

/// GBACW 15.16: "When limbered, the entire battery is moved in rout
/// movement."
#[test]
fn case_15_16_limbered_battery_routs_whole() {
    let mut t = battery_under_fire("limbered");
    t.ok(UNION, fire("0305", &[("f", 4)]));
    // 8 adjacent is C4, density −1, limbered is enfiladed +1: C4; die 3
    // "R"; the check 5 (+1 enfiladed) > 2.
    t.script(&[3, 5]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    settle(&mut t);
    assert_eq!(reads(&events), vec![(4, 3, "R".to_string())]);
    let b = t.hex("b").expect("the battery is on the map");
    assert_eq!(t.rs.game().map.grid.distance(b, n("0305")), 3);
    assert!(marked(&t, "b", Marker::Rout));
    assert_eq!(strength(&t, "b"), 4);
}

/// GBACW 15.2: "Any time that an artillery battery is hit by artillery
/// fire and suffers a loss of "1," "2," etc., there is a chance that some
/// ammunition is lost, too." — no numeric loss, or no artillery fire: no
/// caisson roll.
#[test]
fn case_15_2_no_caisson_roll_without_numeric_loss() {
    // (a) One HB gun adjacent: 10 on the counter-battery row is C4,
    // density −1: C3; die 5 "P/R"; the roll 2 pins.
    let mut t = Position::new(6, 8)
        .union("battery a weapon=HB guns=1 rounds=20 morale=3")
        .confederate("battery b weapon=TA guns=4 rounds=6 morale=3")
        .place("a", "0303", "n", "unlimbered")
        .place("b", "0302", "s", "unlimbered")
        .build_at(1, UNION, Phase::OffensiveFire);
    t.ok(UNION, fire("0302", &[("a", 1)]));
    t.script(&[5, 2]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    assert_eq!(reads(&events), vec![(3, 5, "P/R".to_string())]);
    assert!(marked(&t, "b", Marker::Pin));
    assert_eq!(t.s.units[&id("b")].status.rounds, 6);
    assert!(t.dice_left().is_empty(), "left: {:?}", t.dice_left());
    // (b) Small arms, "1": see case_15_11 — the crew flips, no caisson.
    let mut t = small_arms_on_battery(4);
    t.ok(UNION, fire("0302", &[("f", 4)]));
    t.script(&[6, 2]);
    t.act(UNION, GbacwAction::EndPhase);
    assert_eq!(t.s.units[&id("b")].status.crew, Crew::Half);
    assert_eq!(t.s.units[&id("b")].status.rounds, 6);
    assert!(t.dice_left().is_empty(), "left: {:?}", t.dice_left());
}

// ---------------------------------------------------------------- 16.0

/// Confederate cavalry K (2 SP, C, morale 3) in 0304 facing south in
/// `formation`; Union infantry F (4 SP, R) in 0305 facing north; the
/// Union Retreat Before Melee Phase of Game-Turn 4.
fn rbm_field(formation: &str) -> Position {
    Position::new(6, 10)
        .union("infantry f strength=4 morale=3 weapon=R")
        .confederate("cavalry k strength=2 morale=3 weapon=C")
        .place("f", "0305", "n", "line")
        .place("k", "0304", "s", formation)
}

/// GBACW 16.1: "Dismounted cavalry units retreat before melee as if they
/// were infantry." / 12.83: "Units that retreat before melee are subject
/// to withdrawal fire. The owning Player must conduct a morale check for
/// retreating units (before melee), regardless of whether or not they are
/// fired upon by withdrawal fire."
#[test]
fn case_16_1_dismounted_cav_rbm_as_infantry() {
    let mut t = rbm_field("dismounted").build_at(4, UNION, Phase::RetreatBeforeMelee);
    t.ok(UNION, melee("0304", &["f"]));
    t.act(
        REBEL,
        GbacwAction::RetreatBeforeMelee {
            units: ids(&["k"]),
            path: vec![n("0303")],
        },
    );
    // F may fire withdrawal fire at K leaving 0304: 8 adjacent is C4,
    // density −1, enfiladed (10.12) +1: C4; a 1 reads "-". A fire die of 1
    // makes F roll for its ammunition (11.21): 4, not out. Then K's check
    // 4 > 3: rout. (The case said "any roll"; 11.21's extra die is the
    // text's too.)
    let offered = t.rs.pending(&t.s);
    assert!(
        offered.iter().any(|d| d.seat == UNION),
        "withdrawal fire is offered: {offered:?}"
    );
    t.script(&[1, 4, 4]);
    let mut events = t.act(
        UNION,
        GbacwAction::WithdrawalFire {
            firers: ids(&["f"]),
        },
    );
    events.extend(settle(&mut t));
    assert_eq!(fire_reports(&events)[0].result.to_string(), "-");
    assert_eq!(morale_dice(&events, "k"), vec![4]);
    assert!(marked(&t, "k", Marker::Rout));
    let k = t.hex("k").unwrap();
    assert!(t.rs.game().map.grid.distance(k, n("0304")) >= 3, "{k}");
}

/// GBACW 16.1: "Unrouted mounted cavalry units ... may refuse melee" /
/// 12.87: "A pinned or routed unit may not be retreated before melee."
#[test]
fn case_16_1_routed_mounted_cav_may_not_rbm() {
    let mut t = rbm_field("mounted").build_at(4, UNION, Phase::RetreatBeforeMelee);
    t.s.units
        .get_mut(&id("k"))
        .unwrap()
        .status
        .markers
        .insert(Marker::Rout);
    t.ok(UNION, melee("0304", &["f"]));
    let e = t
        .decide(
            REBEL,
            &GbacwAction::RetreatBeforeMelee {
                units: ids(&["k"]),
                path: vec![n("0303"), n("0302")],
            },
        )
        .expect_err("a routed unit may not retreat before melee");
    // The engine offers no retreat before melee to a routed unit, so the
    // answer is refused as "not threatened" (12.8) rather than citing
    // 16.1 / 12.87; the outcome, refused, is the case's.
    assert!(
        e.rule.contains("16.1") || e.rule.contains("12.87") || e.rule.contains("12.8"),
        "{e}"
    );
}

/// GBACW 16.1: "However, if the cavalry unit is retreated into a hex in an
/// Enemy ZOC, it must undergo possible retreat fire."
#[test]
fn case_16_1_cav_rbm_into_enemy_zoc_retreat_fire() {
    let mut t = rbm_field("mounted")
        .union("infantry g strength=4 morale=3 weapon=R")
        .place("g", "0301", "s", "line")
        .build_at(4, UNION, Phase::RetreatBeforeMelee);
    t.ok(UNION, melee("0304", &["f"]));
    t.ok(
        REBEL,
        GbacwAction::RetreatBeforeMelee {
            units: ids(&["k"]),
            path: vec![n("0303"), n("0302")],
        },
    );
    assert_eq!(t.hex("k"), Some(n("0302")));
    assert!(t.s.decision.is_none(), "F gets no withdrawal fire");
    let offered = t.rs.pending(&t.s);
    assert!(
        offered
            .iter()
            .any(|d| d.seat == UNION && d.rule.contains("10.2")),
        "G's retreat fire is offered: {offered:?}"
    );
    // 8 adjacent is C4, density −1, always enfiladed +1: C4; a 1 "-",
    // and G's ammunition roll (11.21) 4.
    t.script(&[1, 4]);
    let events = t.act(
        UNION,
        GbacwAction::RetreatFire {
            firers: ids(&["g"]),
        },
    );
    assert_eq!(fire_reports(&events)[0].result.to_string(), "-");
    assert!(morale_dice(&events, "k").is_empty(), "no RBM check");
    assert!(!marked(&t, "k", Marker::Rout));
}

/// Union mounted cavalry K (3 SP, C) in 0303 facing north; Confederate E
/// (4 SP, Line) in `e_hex` facing `e_facing`, with `map`; the Union Retreat
/// Before Melee Phase of Game-Turn 5, K having begun the Movement Phase
/// where it stands.
fn charge_field(e_hex: &str, e_facing: &str, map: &str) -> T {
    let mut t = Position::new(6, 10)
        .map(map)
        .union("cavalry k strength=3 morale=3 weapon=C")
        .confederate("infantry e strength=4 morale=3 weapon=R")
        .place("k", "0303", "n", "mounted")
        .place("e", e_hex, e_facing, "line")
        .build_at(5, UNION, Phase::Movement);
    t.advance_to(UNION, Phase::RetreatBeforeMelee);
    t
}

/// GBACW 16.2: "A charge may be conducted only through the cavalry unit's
/// one front hexside." / 7.0: "Mounted cavalry have one frontal hexside,
/// the hex directly at the top of the unit"
#[test]
fn case_16_2_charge_only_through_front_hexside() {
    // 0402 is across K's north-east hexside, clockwise next to its top.
    let t = charge_field("0402", "sw", "");
    assert_eq!(dist(&t, "0303", "0402"), 1);
    let e = t
        .decide(UNION, &charge("0402", &["k"]))
        .expect_err("not through the front hexside");
    assert!(e.rule.contains("16.2") || e.rule.contains("7.31"), "{e}");
    assert!(
        t.decide(UNION, &melee("0402", &["k"])).is_err(),
        "7.31: no melee either"
    );
}

/// GBACW 16.22: "The terrain types which cavalry may not charge into,
/// through or across are listed in the Terrain Effects on Combat Chart"
/// (woods, provisional in charts.toml).
#[test]
fn case_16_22_no_charge_into_barred_terrain() {
    let t = charge_field("0302", "s", "hex 0302 woods");
    let e = t
        .decide(UNION, &charge("0302", &["k"]))
        .expect_err("no charge into woods");
    assert!(e.rule.contains("16.22"), "{e}");
    assert!(t.decide(UNION, &melee("0302", &["k"])).is_ok());
}

/// GBACW 16.26: "Units being charged (except mounted cavalry) may not
/// retreat before melee."
#[test]
fn case_16_26_charged_infantry_may_not_rbm() {
    let mut t = charge_field("0302", "s", "");
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
    // No retreat before melee is offered to a charged infantry unit, so
    // the answer is refused as "not threatened" (12.8).
    assert!(e.rule.contains("16.26") || e.rule.contains("12.8"), "{e}");
}

/// GBACW 16.26: "Mounted cavalry units may retreat before melee in the
/// face of an enemy charge, in which case the charging units are not
/// routed."
#[test]
fn case_16_26_mounted_target_retreats_charger_not_routed() {
    let mut t = Position::new(6, 10)
        .union("cavalry k strength=3 morale=3 weapon=C")
        .confederate("cavalry m strength=2 morale=3 weapon=C")
        .place("k", "0304", "n", "mounted")
        .place("m", "0303", "s", "mounted")
        .build_at(5, UNION, Phase::Movement);
    t.advance_to(UNION, Phase::RetreatBeforeMelee);
    t.ok(UNION, charge("0303", &["k"]));
    let events = t.act(
        REBEL,
        GbacwAction::RetreatBeforeMelee {
            units: ids(&["m"]),
            path: vec![n("0302"), n("0301")],
        },
    );
    assert_eq!(t.hex("m"), Some(n("0301")));
    assert!(t.s.decision.is_none(), "no withdrawal fire");
    assert!(morale_dice(&events, "m").is_empty(), "no morale check");
    settle(&mut t);
    t.advance_to(REBEL, Phase::Movement);
    assert!(!marked(&t, "k", Marker::Rout), "the charger is not routed");
}

/// GBACW 16.27: "Charging cavalry that incur an "engaged" result are
/// still automatically routed after completion of the melee."
#[test]
fn case_16_27_engaged_charger_still_routed() {
    let mut t = Position::new(6, 10)
        .union("cavalry k strength=2 morale=3 weapon=C")
        .confederate("infantry e strength=2 morale=3 weapon=R")
        .place("k", "0303", "n", "mounted")
        .place("e", "0302", "s", "line")
        .build_at(5, UNION, Phase::RetreatBeforeMelee);
    let events = melee_with(&mut t, charge("0302", &["k"]), &[5]);
    let r = melee_report(&events);
    assert_eq!((r.attack, r.defence, r.differential), (4, 2, 2));
    assert_eq!(r.result.to_string(), "Eng/Eng");
    assert!(marked(&t, "k", Marker::Rout));
    assert_ne!(t.hex("k"), Some(n("0303")), "it routs away");
    assert_eq!(t.hex("e"), Some(n("0302")));
}

/// Union mounted cavalry K (2 SP, `weapon`) in 0303 facing north in
/// `formation`; Confederate E1 in 0302 (across its top hexside) and E2 in
/// 0202 (across its north-west hexside), Union Offensive Fire Phase.
fn mounted_fire(weapon: &str, formation: &str) -> T {
    Position::new(6, 8)
        .union(&format!("cavalry k strength=2 morale=3 weapon={weapon}"))
        .confederate("infantry e1 strength=4 morale=3 weapon=R")
        .confederate("infantry e2 strength=4 morale=3 weapon=R")
        .place("k", "0303", "n", formation)
        .place("e1", "0302", "s", "line")
        .place("e2", "0202", "se", "line")
        .build_at(1, UNION, Phase::OffensiveFire)
}

/// GBACW 16.34: "Mounted cavalry units may only fire through their one
/// frontal hexside and only then if armed with pistols, Colt repeaters,
/// or carbines."
#[test]
fn case_16_34_mounted_fire_single_front_hexside() {
    let t = mounted_fire("C", "mounted");
    assert_eq!(dist(&t, "0303", "0202"), 1);
    assert!(t.decide(UNION, &fire("0302", &[("k", 2)])).is_ok());
    let e = t
        .decide(UNION, &fire("0202", &[("k", 2)]))
        .expect_err("not through the one front hexside");
    assert!(
        e.rule.contains("16.34") || e.rule.contains("7.22") || e.rule.contains("6.14"),
        "{e}"
    );
}

/// GBACW 16.34: "and only then if armed with pistols, Colt repeaters, or
/// carbines." / 6.14: dismounted cavalry fire as Line infantry.
#[test]
fn case_16_34_mounted_fire_wrong_weapon() {
    let t = mounted_fire("R", "mounted");
    let e = t
        .decide(UNION, &fire("0302", &[("k", 2)]))
        .expect_err("a rifle does not fire mounted");
    // 6.34 is the same sentence as 16.34.
    assert!(
        e.rule.contains("16.34") || e.rule.contains("6.34") || e.rule.contains("6.14"),
        "{e}"
    );
    let t = mounted_fire("R", "dismounted");
    assert!(t.decide(UNION, &fire("0302", &[("k", 2)])).is_ok());
    assert!(t.decide(UNION, &fire("0202", &[("k", 2)])).is_ok());
}

/// Union brigade commander L (ER 2) in 0302 and his regiment U in 0304;
/// 0303 is the only hex between them. Confederate cavalry K in 0402,
/// facing north-east in `formation`, so 0303 is behind it.
fn zoc_radius(formation: &str) -> T {
    Position::new(8, 10)
        .union("brigade l er=2 rally=1 indpnt")
        .union("infantry u strength=4 morale=3 weapon=R brigade=l")
        .union("infantry h strength=4 morale=3 weapon=R brigade=l")
        .confederate("cavalry k strength=2 morale=3 weapon=C")
        .leader("l", "0302")
        .place("h", "0302", "n", "line")
        .place("u", "0304", "s", "line")
        .place("k", "0402", "ne", formation)
        .build_at(1, UNION, Phase::Movement)
}

/// GBACW 16.31: "A mounted cavalry unit has a ZOC (for the purposes of
/// Enemy supply and Leader Radius paths) that comprises all six
/// surrounding hexes." / 13.53: "The Effectiveness Radius may not be
/// traced through Enemy combat units, Enemy ZOC's".
#[test]
fn case_16_31_mounted_cav_zoc_blocks_leader_path() {
    let t = zoc_radius("mounted");
    assert_eq!(dist(&t, "0302", "0304"), 2);
    assert_eq!(dist(&t, "0402", "0303"), 1);
    assert!(
        t.s.command.out_of_command.contains(&id("u")),
        "Y is in K's ZOC"
    );
    assert!(t.decide(UNION, &mv(&["u"], &["0305", "0306"])).is_err());
    // Control: dismounted, K's ZOC is its three frontal hexes.
    let t = zoc_radius("dismounted");
    assert!(!t.s.command.out_of_command.contains(&id("u")));
    assert!(t.decide(UNION, &mv(&["u"], &["0305", "0306"])).is_ok());
}

/// GBACW 10.0: "**Exception:** Mounted cavalry ZOC's affect the withdrawal
/// and retreat only of mounted cavalry units (also, see 9.62 and 16.31)."
#[test]
fn case_10_0_mounted_zoc_no_withdrawal_fire_on_infantry() {
    // (a) Infantry F across K's front hexside moves away: no fire.
    let mut t = Position::new(8, 10)
        .union("infantry f strength=3 morale=3 weapon=R")
        .confederate("cavalry k strength=3 morale=3 weapon=C")
        .place("k", "0303", "s", "mounted")
        .place("f", "0304", "n", "line")
        .build_at(6, UNION, Phase::Movement);
    t.ok(UNION, formation("f", Formation::Column));
    t.ok(
        UNION,
        GbacwAction::Face {
            unit: id("f"),
            facing: dir("s"),
        },
    );
    t.ok(UNION, mv(&["f"], &["0305"]));
    assert!(t.s.decision.is_none(), "no withdrawal fire on infantry");
    assert!(t.rs.pending(&t.s).is_empty());
    // (b) Mounted cavalry M across K's front hexside moves away: K may
    // fire.
    let mut t = Position::new(8, 10)
        .union("cavalry m strength=3 morale=3 weapon=C")
        .confederate("cavalry k strength=3 morale=3 weapon=C")
        .place("k", "0303", "s", "mounted")
        .place("m", "0304", "s", "mounted")
        .build_at(6, UNION, Phase::Movement);
    t.ok(UNION, mv(&["m"], &["0305"]));
    let offered = t.rs.pending(&t.s);
    assert!(
        offered.iter().any(|d| d.seat == REBEL),
        "withdrawal fire on mounted cavalry: {offered:?}"
    );
}

// ---------------------------------------------------------------- 17.0

/// Brigade S (ER 3) in 0301 with H; its regiment U in 0305, four hexes
/// off; Confederate E in 0307.
fn out_of_radius() -> Position {
    Position::new(8, 12)
        .union("brigade s er=3 rally=1 indpnt")
        .union("infantry h strength=4 morale=3 weapon=R brigade=s")
        .union("infantry u strength=4 morale=3 weapon=R brigade=s")
        .confederate("infantry e strength=4 morale=3 weapon=R")
        .place("h", "0301", "s", "line")
        .leader("s", "0301")
        .place("u", "0305", "s", "line")
        .place("e", "0307", "n", "line")
}

/// GBACW 17.11: "The Effectiveness Radius is the maximum number of hexes
/// a unit may be from its brigade commander during the Initial Command
/// Phase" — S joining U later in the Movement Phase changes nothing.
#[test]
fn case_17_11_status_fixed_in_initial_command_phase() {
    let mut t = out_of_radius().build_at(5, UNION, Phase::Movement);
    assert!(t.s.command.out_of_command.contains(&id("u")));
    t.ok(UNION, mv(&["s"], &["0302", "0303", "0304", "0305"]));
    assert!(t.decide(UNION, &mv(&["u"], &["0205", "0105"])).is_err());
    t.advance_to(UNION, Phase::OffensiveFire);
    let e = t
        .decide(UNION, &fire("0307", &[("u", 4)]))
        .expect_err("still out of command");
    assert!(e.rule.contains("17.11"), "{e}");
}

/// GBACW 17.11: "and may not initiate melee (unless already engaged in
/// one)".
#[test]
fn case_17_11_out_of_command_engaged_may_continue_melee() {
    let mut t = Position::new(8, 12)
        .union("brigade s er=3 rally=1 indpnt")
        .union("infantry h strength=4 morale=3 weapon=R brigade=s")
        .union("infantry u strength=4 morale=3 weapon=R brigade=s")
        .confederate("infantry e strength=4 morale=3 weapon=R")
        .place("h", "0301", "s", "line")
        .leader("s", "0301")
        .place("u", "0306", "s", "line")
        .place("e", "0307", "n", "line")
        .build_at(5, REBEL, Phase::RetreatBeforeMelee);
    // GT 5, the Confederate melee: 4 against 4, die 3 "Eng/Eng".
    t.ok(REBEL, melee("0306", &["e"]));
    if t.s.rbm.is_some() {
        t.ok(UNION, GbacwAction::StandFast);
    }
    t.ok(REBEL, GbacwAction::EndPhase);
    t.script(&[3]);
    let events = t.act(REBEL, GbacwAction::EndPhase);
    assert_eq!(melee_report(&events).result.to_string(), "Eng/Eng");
    t.script(&[1; 20]);
    t.advance_to_turn(6, UNION, Phase::RetreatBeforeMelee);
    t.script.clear();
    assert_eq!(dist(&t, "0301", "0306"), 5);
    assert!(t.s.command.out_of_command.contains(&id("u")));
    assert!(marked(&t, "u", Marker::Engaged));
    assert!(t.decide(UNION, &melee("0307", &["u"])).is_ok());
}

/// GBACW 17.1: "Brigade commanders may only affect subordinate units and
/// units of any command that are stacked with that leader." / 17.0
/// Procedure: "in command (within the Effectiveness Radius of their
/// brigade commander, stacked with a leader, or independent)".
#[test]
fn case_17_1_stacked_with_other_brigade_leader_in_command() {
    let t = Position::new(6, 14)
        .union("brigade s er=3 rally=1 indpnt")
        .union("brigade tt er=3 rally=1 indpnt")
        .union("infantry h strength=4 morale=3 weapon=R brigade=s")
        .union("infantry u strength=4 morale=3 weapon=R brigade=s")
        .union("infantry v strength=4 morale=3 weapon=R brigade=s")
        .confederate("infantry e strength=4 morale=3 weapon=R")
        .place("h", "0101", "n", "line")
        .leader("s", "0101")
        .place("u", "0107", "n", "line")
        .leader("tt", "0107")
        .place("v", "0109", "n", "line")
        .place("e", "0614", "n", "line")
        .build_at(1, UNION, Phase::Movement);
    assert_eq!(dist(&t, "0101", "0107"), 6);
    assert_eq!(dist(&t, "0107", "0109"), 2);
    assert!(!t.s.command.out_of_command.contains(&id("u")));
    assert!(t.s.command.out_of_command.contains(&id("v")));
    assert!(t.decide(UNION, &mv(&["u"], &["0106", "0105"])).is_ok());
    assert!(t.decide(UNION, &mv(&["v"], &["0108", "0107"])).is_err());
}

/// Division D (DIR 10, 2 CP) in 0701; brigade S (ER 3) in 0101 with H;
/// S's regiment U in 0106, five hexes from S.
fn augment() -> T {
    Position::new(10, 12)
        .union("division d dir=10 cp=2")
        .union("brigade s er=3 rally=1 division=d")
        .union("infantry h strength=4 morale=3 weapon=R brigade=s")
        .union("infantry u strength=4 morale=3 weapon=R brigade=s")
        .union("infantry w strength=4 morale=3 weapon=R brigade=s")
        .confederate("infantry e strength=4 morale=3 weapon=R")
        .place("h", "0101", "n", "line")
        .leader("s", "0101")
        .place("u", "0106", "s", "line")
        .place("w", "0701", "s", "line")
        .leader("d", "0701")
        .place("e", "1012", "n", "line")
        .build_at(1, UNION, Phase::InitialCommand)
}

/// GBACW 17.22: "One Command Point is expended for each hex added to the
/// brigade commander's Radius."
#[test]
fn case_17_22_command_points_extend_radius() {
    let spend = |points: u8| GbacwAction::SpendCommandPoints {
        division: id("d"),
        brigade: id("s"),
        points,
    };
    let mut t = augment();
    assert_eq!(dist(&t, "0101", "0106"), 5);
    assert_eq!(dist(&t, "0101", "0701"), 6);
    t.ok(UNION, spend(2));
    t.advance_to(UNION, Phase::Movement);
    assert!(!t.s.command.out_of_command.contains(&id("u")));
    t.ok(UNION, mv(&["u"], &["0107", "0108"]));
    assert_eq!(t.s.leaders[&id("d")].cp_spent, 2);
    // One point: ER 4, U is out of command.
    let mut t = augment();
    t.ok(UNION, spend(1));
    t.advance_to(UNION, Phase::Movement);
    assert!(t.s.command.out_of_command.contains(&id("u")));
    assert!(t.decide(UNION, &mv(&["u"], &["0107", "0108"])).is_err());
}

/// GBACW 17.22: "A commander may split his Points among several brigade
/// commanders so long as all the brigade commanders are within the
/// Divisional Integrity Radius of that commander."
#[test]
fn case_17_22_outside_dir_cannot_be_augmented() {
    let mut t = Position::new(6, 14)
        .union("division d dir=10 cp=2")
        .union("brigade s1 er=3 rally=1 division=d")
        .union("brigade s2 er=3 rally=1 division=d")
        .union("infantry h strength=4 morale=3 weapon=R brigade=s1")
        .union("infantry u1 strength=4 morale=3 weapon=R brigade=s1")
        .union("infantry u2 strength=4 morale=3 weapon=R brigade=s2")
        .confederate("infantry e strength=4 morale=3 weapon=R")
        .place("h", "0101", "s", "line")
        .leader("d", "0101")
        .place("u1", "0111", "s", "line")
        .leader("s1", "0111")
        .place("u2", "0112", "s", "line")
        .leader("s2", "0112")
        .place("e", "0614", "n", "line")
        .build_at(1, UNION, Phase::InitialCommand);
    assert_eq!(dist(&t, "0101", "0111"), 10);
    assert_eq!(dist(&t, "0101", "0112"), 11);
    let spend = |b: &str| GbacwAction::SpendCommandPoints {
        division: id("d"),
        brigade: id(b),
        points: 1,
    };
    t.ok(UNION, spend("s1"));
    let e = t.decide(UNION, &spend("s2")).expect_err("outside the DIR");
    assert!(e.rule.contains("17.22") || e.rule.contains("17.12"), "{e}");
}

/// Division D (DIR 10) in 0101 with H; brigade S (ER 3) `away` hexes off
/// down the column; S's regiment U two hexes beyond S.
fn brigade_away(s_hex: &str, u_hex: &str, s_line: &str) -> Position {
    Position::new(6, 24)
        .map("hex 0113 woods")
        .union("division d dir=10 cp=2")
        .union(s_line)
        .union("brigade dh er=3 rally=1 division=d")
        .union("infantry h strength=4 morale=3 weapon=R brigade=dh")
        .union("infantry u strength=4 morale=3 weapon=R brigade=s")
        .confederate("infantry e strength=4 morale=3 weapon=R")
        .place("h", "0101", "s", "line")
        .leader("d", "0101")
        .leader("dh", "0101")
        .leader("s", s_hex)
        .place("u", u_hex, "s", "line")
        .place("e", "0624", "n", "line")
}

/// GBACW 17.21: "A brigade commander which is outside that Radius and not
/// detached or independent may move one hex (only) during the Friendly
/// Movement Phase, regardless of terrain." / 5.2 (004): "his subordinate
/// units may move normally within his Effectiveness Radius".
#[test]
fn case_17_21_brigade_leader_outside_dir_moves_one_hex() {
    let t = brigade_away("0112", "0114", "brigade s er=3 rally=1 division=d").build_at(
        1,
        UNION,
        Phase::Movement,
    );
    assert_eq!(dist(&t, "0101", "0112"), 11);
    assert!(t.s.command.out_of_radius.contains(&id("s")));
    // (a) Two hexes: refused.
    assert!(t.decide(UNION, &mv(&["s"], &["0111", "0110"])).is_err());
    // (b) One hex into woods: allowed.
    assert!(t.decide(UNION, &mv(&["s"], &["0113"])).is_ok());
    // (c) U, within S's radius, is in command.
    assert!(!t.s.command.out_of_command.contains(&id("u")));
    assert!(t.decide(UNION, &mv(&["u"], &["0115", "0116"])).is_ok());
}

/// GBACW 17.21: "not detached or independent" / 17.62: "Once detached
/// that brigade commander and the units subordinate to him may move
/// independently" / 17.66: "an independent brigade commander functions
/// normally without needing a division commander."
#[test]
fn case_17_21_detached_or_independent_leader_moves_freely() {
    // (a) Detached this Initial Command Phase, 9 hexes from D.
    let mut t = brigade_away("0110", "0112", "brigade s er=3 rally=1 division=d").build_at(
        1,
        UNION,
        Phase::InitialCommand,
    );
    assert_eq!(dist(&t, "0101", "0110"), 9);
    t.ok(UNION, GbacwAction::Detach { brigade: id("s") });
    t.advance_to(UNION, Phase::Movement);
    assert!(!t.s.command.out_of_radius.contains(&id("s")));
    t.ok(UNION, mv(&["u"], &["0113", "0114"]));
    t.ok(UNION, mv(&["s"], &["0111", "0112", "0113", "0114"]));
    t.advance_to(REBEL, Phase::Movement);
    t.advance_to(UNION, Phase::Movement);
    assert!(!t.s.command.out_of_radius.contains(&id("s")));
    t.ok(UNION, mv(&["u"], &["0115", "0116"]));
    t.ok(UNION, mv(&["s"], &["0115", "0116"]));
    // (b) Independent, twenty hexes from D.
    let t = brigade_away("0121", "0123", "brigade s er=3 rally=1 indpnt").build_at(
        1,
        UNION,
        Phase::Movement,
    );
    assert!(dist(&t, "0101", "0121") >= 20);
    assert!(!t.s.command.out_of_radius.contains(&id("s")));
    assert!(
        t.decide(UNION, &mv(&["s"], &["0122", "0123", "0124"]))
            .is_ok()
    );
}

/// Brigade S (ER 3, Rally 1) in 0301 with R3 (another brigade's) and H;
/// S's routed R1 2 hexes off, R2 3 hexes, R4 4 hexes; at the Union Rally
/// Phase. `engaged`: H has fought E (in 0201) to "Eng/Eng" in this
/// Player-Turn's Melee Phase, so S's hex is engaged.
fn rally_field(engaged: bool) -> T {
    let mut p = Position::new(8, 12)
        .union("brigade s er=3 rally=1 indpnt")
        .union("brigade o er=3 rally=1 indpnt")
        .union("infantry h strength=4 morale=3 weapon=R brigade=s")
        .union("infantry r1 strength=4 morale=3 weapon=R brigade=s")
        .union("infantry r2 strength=4 morale=3 weapon=R brigade=s")
        .union("infantry r3 strength=4 morale=3 weapon=R brigade=o")
        .union("infantry r4 strength=4 morale=3 weapon=R brigade=s")
        .union("infantry o1 strength=4 morale=3 weapon=R brigade=o")
        .confederate("infantry e strength=5 morale=3 weapon=R")
        .place("h", "0301", "sw", "line")
        .place("r3", "0301", "sw", "line")
        .leader("s", "0301")
        .place("r1", "0303", "s", "line")
        .place("r2", "0304", "s", "line")
        .place("r4", "0305", "s", "line")
        .place("o1", "0712", "s", "line")
        .leader("o", "0712");
    p = if engaged {
        p.place("e", "0201", "ne", "line")
    } else {
        p.place("e", "0812", "n", "line")
    };
    let mut t = p.build_at(1, UNION, Phase::AmmunitionResupply);
    for u in ["r1", "r2", "r3", "r4"] {
        let m = &mut t.s.units.get_mut(&id(u)).unwrap().status.markers;
        m.insert(Marker::Rout);
    }
    if engaged {
        // H (4, +1 for S) against E (5): 0; die 3 "Eng/Eng".
        t.advance_to(UNION, Phase::RetreatBeforeMelee);
        let events = melee_with(&mut t, melee("0201", &["h"]), &[3]);
        assert_eq!(melee_report(&events).result.to_string(), "Eng/Eng");
    }
    t.advance_to(UNION, Phase::Rally);
    t
}

/// GBACW 17.13: "For each Point in his Rally Rating a brigade commander
/// may rally one regiment in his command that is within that brigade
/// commander's Effectiveness Radius. Any units stacked with a brigade
/// commander, including any not in his command, are automatically
/// rallied at no cost in Rally Points."
#[test]
fn case_17_13_rally_rating_limit_and_stacked_free() {
    let mut t = rally_field(false);
    let rally = |u: &str| GbacwAction::Rally { unit: id(u) };
    t.ok(UNION, rally("r3"));
    t.ok(UNION, rally("r1"));
    assert!(t.decide(UNION, &rally("r2")).is_err(), "one Rally Point");
    assert!(t.decide(UNION, &rally("r4")).is_err(), "beyond the radius");
    assert!(!marked(&t, "r3", Marker::Rout));
    assert!(!marked(&t, "r1", Marker::Rout));
    assert!(marked(&t, "r2", Marker::Rout));
    assert!(marked(&t, "r4", Marker::Rout));
}

/// GBACW 12.94: "Leaders that are "engaged" may not rally other units;
/// nor do they have Effectiveness Radii."
#[test]
fn case_17_13_engaged_leader_cannot_rally() {
    let t = rally_field(true);
    assert!(marked(&t, "h", Marker::Engaged));
    assert!(
        t.decide(UNION, &GbacwAction::Rally { unit: id("r1") })
            .is_err()
    );
}

/// GBACW 17.53: "If a leader is stacked with a combat unit(s) that is
/// eliminated by Fire Combat—and the leader does not suffer a
/// casualty—the leader is immediately placed on the nearest combat unit
/// in his command."
#[test]
fn case_17_53_leader_jumps_to_nearest_unit_of_his_command() {
    let mut t = Position::new(8, 8)
        .confederate("brigade s er=3 rally=1 indpnt")
        .confederate("brigade o er=3 rally=1 indpnt")
        .confederate("infantry u strength=1 morale=3 weapon=R brigade=s")
        .confederate("infantry v strength=4 morale=3 weapon=R brigade=s")
        .confederate("infantry w strength=4 morale=3 weapon=R brigade=s")
        .confederate("infantry z strength=4 morale=3 weapon=R brigade=o")
        .union("battery a weapon=HB guns=2 rounds=20 morale=3")
        .place("u", "0302", "s", "line")
        .leader("s", "0302")
        .place("z", "0301", "s", "line")
        .leader("o", "0301")
        .place("v", "0502", "s", "line")
        .place("w", "0602", "s", "line")
        .place("a", "0303", "n", "unlimbered")
        .build_at(1, UNION, Phase::OffensiveFire);
    assert_eq!(dist(&t, "0302", "0301"), 1);
    assert_eq!(dist(&t, "0302", "0502"), 2);
    assert_eq!(dist(&t, "0302", "0602"), 3);
    t.ok(UNION, fire("0302", &[("a", 2)]));
    // 20 is C5, density −1: C4; die 5 "1". The leader's 7 (3 + 4).
    t.script(&[5, 3, 4]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    assert_eq!(reads(&events), vec![(4, 5, "1".to_string())]);
    assert_eq!(t.hex("u"), None);
    assert_eq!(casualty(&t, "s"), None);
    assert_eq!(t.hex("s"), Some(n("0502")), "on V, not Z nor W");
}

/// GBACW 17.75: "An Enemy leader alone in a hex is instantly captured at
/// any point if a Friendly unit is moved into that hex."
#[test]
fn case_17_75_enemy_moves_into_lone_leader_hex() {
    let mut t = Position::new(8, 14)
        .confederate("brigade s er=3 rally=1 indpnt")
        .confederate("infantry u strength=4 morale=3 weapon=R brigade=s")
        .union("cavalry k strength=3 morale=3 weapon=C")
        .leader("s", "0302")
        .place("u", "0801", "s", "line")
        .place("k", "0305", "n", "mounted")
        .build_at(1, UNION, Phase::Movement);
    t.ok(UNION, mv(&["k"], &["0304", "0303", "0302"]));
    assert_eq!(casualty(&t, "s"), Some(Casualty::Captured));
    assert_eq!(t.hex("s"), None);
}

/// GBACW 17.76, Leader Casualty Table: "Wounded: 6 5 3 - 2 / Killed: 2 or
/// 12 2 or 12 2 - 12" ("K" melee, Small-arms, ...). "Use *two* dice."
#[test]
fn case_17_76_small_arms_and_k_melee_columns() {
    let t = T::new();
    let table = &t.rs.tables.leader_casualty;
    let sa = CasualtyCause::SmallArms;
    assert_eq!(table.result(sa, 5), Some(LeaderLoss::Wounded));
    assert_eq!(table.result(sa, 6), None);
    assert_eq!(table.result(sa, 12), Some(LeaderLoss::Killed));
    assert_eq!(table.result(sa, 2), Some(LeaderLoss::Killed));
    let k = CasualtyCause::KMelee;
    assert_eq!(table.result(k, 6), Some(LeaderLoss::Wounded));
    assert_eq!(table.result(k, 5), None);
    assert_eq!(table.result(k, 12), Some(LeaderLoss::Killed));
}

/// GBACW 17.76: "Captured: - - - 2-4 -" (the "C" melee column).
#[test]
fn case_17_76_c_melee_capture_range() {
    let t = T::new();
    let table = &t.rs.tables.leader_casualty;
    let c = CasualtyCause::CMelee;
    assert_eq!(table.result(c, 4), Some(LeaderLoss::Captured));
    assert_eq!(table.result(c, 5), None);
    // In play: U (3 SP) with S takes C1R2; S rolls 4 (1 + 3): captured.
    let mut t = Position::new(6, 10)
        .union("infantry f strength=6 morale=3 weapon=R")
        .confederate("brigade s er=3 rally=1 indpnt")
        .confederate("infantry u strength=3 morale=3 weapon=R brigade=s")
        .place("f", "0304", "n", "line")
        .place("u", "0303", "s", "line")
        .leader("s", "0303")
        .build_at(4, UNION, Phase::RetreatBeforeMelee);
    // 6 − (3 + 1) = +2; die 2 "-/C1R2"; S rolls 1 + 3; U's check 1.
    let events = melee_with(&mut t, melee("0303", &["f"]), &[2, 1, 3, 1, 1, 1]);
    let r = melee_report(&events);
    assert_eq!((r.attack, r.defence, r.differential), (6, 4, 2));
    assert_eq!(r.result.to_string(), "-/C1R2");
    assert_eq!(casualty(&t, "s"), Some(Casualty::Captured));
    assert_eq!(strength(&t, "u"), 2);
}

/// GBACW 12.95: "A result of "Rpls" indicates that the Phasing Player must
/// retreat 2 hexes, then roll for leader loss on the Leader Casualty
/// Table (17.76), if a leader is present, and then perform a morale check
/// for the affected unit(s). The non-Phasing Player does not retreat
/// although he rolls for leader loss and performs a morale check for his
/// affected unit(s)."
#[test]
fn case_17_76_repulse_both_sides_roll() {
    let mut t = Position::new(6, 10)
        .union("brigade s er=3 rally=1 indpnt")
        .union("infantry f strength=3 morale=3 weapon=R brigade=s")
        .confederate("brigade tt er=3 rally=1 indpnt")
        .confederate("infantry e strength=3 morale=3 weapon=R brigade=tt")
        .place("f", "0304", "n", "line")
        .leader("s", "0304")
        .place("e", "0303", "s", "line")
        .leader("tt", "0303")
        .build_at(4, UNION, Phase::RetreatBeforeMelee);
    // Die 4 at 0: Rpls/Rpls. The case's dice, in the order the engine
    // draws them: both leaders roll as the result is applied (S 1 + 1,
    // wounded; T 6 + 6, killed), E (which stays) checks 4, then F retreats
    // and checks 3 at the end of its retreat (12.92). The text orders F's
    // own steps "retreat 2 hexes, then roll for leader loss ..., and then
    // perform a morale check"; rolling S before the retreat changes no
    // outcome (a leader lost is lost wherever his unit goes).
    let events = melee_with(&mut t, melee("0303", &["f"]), &[4, 1, 1, 6, 6, 4, 3]);
    let r = melee_report(&events);
    assert_eq!((r.attack, r.defence, r.differential), (4, 4, 0));
    assert_eq!(r.result.to_string(), "Rpls/Rpls");
    assert_eq!(dist(&t, &t.hex("f").unwrap().to_string(), "0304"), 2);
    assert_eq!(casualty(&t, "s"), Some(Casualty::Wounded));
    assert_eq!(casualty(&t, "tt"), Some(Casualty::Killed));
    assert_eq!(morale_dice(&events, "f"), vec![3]);
    assert_eq!(morale_dice(&events, "e"), vec![4]);
    assert!(!marked(&t, "f", Marker::Rout), "3 ≤ 3 with no leader");
    assert!(marked(&t, "e", Marker::Rout), "4 > 3 with no leader");
    assert_eq!(t.hex("e").map(|h| h != n("0303")), Some(true), "E routs");
}

/// GBACW 17.62, 17.63: "If a brigade commander is out of the Divisional
/// Integrity Radius of his division commander during the Initial Command
/// Phase, that brigade commander is out of command, not detached."
#[test]
fn case_17_63_out_of_dir_is_out_of_command_not_detached() {
    let mut t = brigade_away("0113", "0115", "brigade s er=3 rally=1 division=d").build_at(
        1,
        UNION,
        Phase::InitialCommand,
    );
    assert_eq!(dist(&t, "0101", "0113"), 12);
    assert!(
        t.decide(UNION, &GbacwAction::Detach { brigade: id("s") })
            .is_err()
    );
    t.advance_to(UNION, Phase::Movement);
    assert!(t.s.command.out_of_radius.contains(&id("s")));
    assert!(
        t.decide(UNION, &mv(&["s"], &["0114", "0115", "0116"]))
            .is_err()
    );
    assert!(t.decide(UNION, &mv(&["s"], &["0114"])).is_ok());
}

/// GBACW 17.67: "A brigade which has reached its Brigade Combat
/// Effectiveness Limit may not be detached from its division, although it
/// may be attached to a division if it is currently detached."
#[test]
fn case_17_67_bce_lost_brigade_cannot_detach() {
    let mut t = Position::new(10, 10)
        .union("division d1 dir=10 cp=2")
        .union("division d2 dir=10 cp=2")
        .union("brigade x er=3 rally=1 division=d1 bce=2/10 bce-vp=3")
        .union("brigade y er=3 rally=1 division=d1 bce=2/10 bce-vp=3")
        .union("infantry ux strength=4 morale=3 weapon=R brigade=x")
        .union("infantry uy strength=4 morale=3 weapon=R brigade=y")
        .confederate("infantry e strength=4 morale=3 weapon=R")
        .place("ux", "0202", "s", "line")
        .leader("x", "0202")
        .place("uy", "0502", "s", "line")
        .leader("y", "0502")
        .leader("d1", "0202")
        .leader("d2", "0502")
        .place("e", "1010", "n", "line")
        .build_at(1, UNION, Phase::InitialCommand);
    // Y is detached first, then both brigades reach their limit.
    t.ok(UNION, GbacwAction::Detach { brigade: id("y") });
    for u in ["ux", "uy"] {
        let s = t.s.units.get_mut(&id(u)).unwrap();
        s.status.strength = 2;
        s.killed = 2;
    }
    let at_limit = |t: &T, b: &str| {
        t.rs.bce(&t.s)
            .into_iter()
            .find(|x| x.brigade == id(b))
            .unwrap()
            .at_limit
    };
    assert!(at_limit(&t, "x") && at_limit(&t, "y"));
    t.advance_to(REBEL, Phase::Movement);
    t.advance_to(UNION, Phase::InitialCommand);
    // (b) Attach Y, detached, to D2: allowed.
    t.ok(
        UNION,
        GbacwAction::Attach {
            brigade: id("y"),
            division: id("d2"),
        },
    );
    // (a) Detach X: refused.
    let e = t
        .decide(UNION, &GbacwAction::Detach { brigade: id("x") })
        .expect_err("17.67");
    assert!(e.rule.contains("17.67"), "{e}");
}

/// GBACW 17.74: "Leaders never rout, although they may retreat with units
/// that do rout." / 13.43: "Leaders in a stack may choose to retreat with a
/// routed unit or remain with the unit beneath (and take their chances
/// there)."
#[test]
fn case_17_74_leader_never_routs() {
    let mut t = Position::new(8, 10)
        .confederate("brigade s er=3 rally=1 indpnt")
        .confederate("infantry a-u1 strength=4 morale=3 weapon=R brigade=s")
        .confederate("infantry b-u2 strength=3 morale=3 weapon=R brigade=s")
        .union("infantry f strength=4 morale=3 weapon=R")
        .place("a-u1", "0303", "n", "line")
        .place("b-u2", "0303", "n", "line")
        .leader("s", "0303")
        .place("f", "0302", "s", "line")
        .build_at(1, UNION, Phase::OffensiveFire);
    t.ok(UNION, fire("0303", &[("f", 4)]));
    // 8 adjacent is C4, 7 points in the hex +1: C5; die 4 "1". S rolls 7
    // (3 + 4): no effect. U1 checks 6 − 1 = 5 > 3: routs; U2 checks 2 − 1.
    t.script(&[4, 3, 4, 6, 2]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    assert_eq!(fire_reports(&events)[0].result.to_string(), "1");
    assert!(marked(&t, "a-u1", Marker::Rout));
    assert!(!marked(&t, "b-u2", Marker::Rout));
    assert_eq!(casualty(&t, "s"), None, "a leader never routs");
    let offered = t.rs.pending(&t.s);
    assert!(
        offered
            .iter()
            .any(|d| d.seat == REBEL && d.rule.contains("13.43")),
        "S may go with U1 or stay with U2: {offered:?}"
    );
}

/// GBACW 17.8: "New leaders are placed on any unit of their command during
/// the next Friendly Final Command Phase after the leader was removed from
/// play." / 17.81: "If a brigade commander is killed, wounded, or
/// captured, flip the Leader Counter over to reveal the Replacement
/// Counter for that brigade."
#[test]
fn case_17_81_brigade_leader_replaced_next_final_command_phase() {
    let mut t = Position::new(8, 10)
        .confederate("brigade s er=3 rally=1 indpnt repl=2/0/2")
        .confederate("infantry u1 strength=4 morale=3 weapon=R brigade=s")
        .confederate("infantry u2 strength=4 morale=3 weapon=R brigade=s")
        .union("battery a weapon=HB guns=2 rounds=20 morale=3")
        .place("u1", "0303", "n", "line")
        .leader("s", "0303")
        .place("u2", "0305", "n", "line")
        .place("a", "0302", "s", "unlimbered")
        .build_at(5, UNION, Phase::OffensiveFire);
    t.ok(UNION, fire("0303", &[("a", 2)]));
    // 20 is grapeshot C5, density 0; die 4 "1". S rolls 2 (1 + 1) on the
    // artillery column: killed. U1 checks 1.
    t.script(&[4, 1, 1, 1]);
    t.act(UNION, GbacwAction::EndPhase);
    assert_eq!(casualty(&t, "s"), Some(Casualty::Killed));
    t.script(&[1; 12]);
    t.advance_to(REBEL, Phase::Movement);
    t.script.clear();
    assert!(t.s.command.out_of_command.contains(&id("u1")));
    assert!(t.s.command.out_of_command.contains(&id("u2")));
    t.advance_to(REBEL, Phase::FinalCommand);
    t.ok(
        REBEL,
        GbacwAction::ReplaceLeader {
            lost: id("s"),
            hex: n("0305"),
        },
    );
    assert_eq!(t.hex("s"), Some(n("0305")));
    assert!(t.s.succession.flipped.contains(&id("s")));
}

// ---------------------------------------------------------------- 18.0

/// Confederate brigade X (6 boxes, 3 VP) with regiments `u_line` in 0302
/// (the one hit) and V (6 SP) far off with X's commander.
fn bce(u_line: &str) -> Position {
    Position::new(8, 8)
        .confederate("brigade x er=6 rally=1 indpnt bce=6/10 bce-vp=3")
        .confederate(u_line)
        .confederate("infantry v strength=6 morale=3 weapon=R brigade=x")
        .place("v", "0105", "s", "line")
        .leader("x", "0105")
}

fn lose(t: &mut T, unit: &str, points: u8) {
    let s = t.s.units.get_mut(&id(unit)).unwrap();
    s.status.strength -= points;
    s.killed += points;
}

/// GBACW 18.0: "Each time the strength of an infantry or cavalry unit of
/// a given brigade is reduced, that brigade's BCE is reduced." / 12.93:
/// "the loss is recorded on the OB Roster as a capture, not a kill."
#[test]
fn case_18_0_melee_capture_marks_boxes() {
    let mut t = bce("cavalry k strength=3 morale=3 weapon=C brigade=x")
        .union("infantry f strength=8 morale=3 weapon=R")
        .place("k", "0302", "s", "mounted")
        .place("f", "0303", "n", "line")
        .build_at(4, UNION, Phase::RetreatBeforeMelee);
    lose(&mut t, "v", 2);
    assert_eq!(boxes(&t), (2, false));
    // 8 − 3 × 2 (16.32) = +2; die 2 "-/C1R2"; K's check 1.
    let events = melee_with(&mut t, melee("0302", &["f"]), &[2, 1, 1, 1]);
    let r = melee_report(&events);
    assert_eq!((r.attack, r.defence, r.differential), (8, 6, 2));
    assert_eq!(r.result.to_string(), "-/C1R2");
    assert_eq!(strength(&t, "k"), 2);
    assert_eq!(boxes(&t), (3, false), "a capture marks a box too");
}

/// GBACW 18.0: "Each time the strength of an infantry or cavalry unit of
/// a given brigade is reduced" / Corinth 25.3: "Gun and crew losses
/// *never* apply to the BCE section of the OB Roster."
#[test]
fn case_18_0_artillery_losses_mark_no_boxes() {
    let p = bce("battery b weapon=TA guns=4 rounds=6 morale=3 brigade=x")
        .union("battery a weapon=HB guns=4 rounds=20 morale=3")
        .place("b", "0302", "s", "unlimbered")
        .place("a", "0303", "n", "unlimbered");
    // (a) Artillery fire kills a gun: 40 counter-battery C9, −1: C8; die
    // 4 "1*"; the caisson roll 2; the crew's check 1, the pin roll 1.
    let mut t = p.build_at(1, UNION, Phase::OffensiveFire);
    lose(&mut t, "v", 5);
    t.ok(UNION, fire("0302", &[("a", 4)]));
    t.script(&[4, 2, 1, 1]);
    t.act(UNION, GbacwAction::EndPhase);
    assert_eq!(strength(&t, "b"), 3);
    assert_eq!(boxes(&t), (5, false));
    // (b) Small arms: the crew flips.
    let mut t = p
        .union("infantry f strength=4 morale=3 weapon=R")
        .place("f", "0402", "nw", "line")
        .build_at(1, UNION, Phase::OffensiveFire);
    lose(&mut t, "v", 5);
    t.ok(UNION, fire("0302", &[("f", 4)]));
    // 8 adjacent is C4, −1: C3; die 6 "1"; the check 1.
    t.script(&[6, 1]);
    t.act(UNION, GbacwAction::EndPhase);
    assert_eq!(t.s.units[&id("b")].status.crew, Crew::Half);
    assert_eq!(boxes(&t), (5, false));
}

/// GBACW 18.0 (Cedar Mountain OB Roster): "Independent regiments and
/// artillery units have losses recorded on their strength record, not a
/// BCE section."
#[test]
fn case_18_0_independent_regiment_no_bce_box() {
    let mut t = bce("infantry u strength=4 morale=3 weapon=R brigade=x")
        .confederate("cavalry c1 strength=4 morale=3 weapon=C")
        .union("battery a weapon=HB guns=2 rounds=20 morale=3")
        .place("u", "0601", "s", "line")
        .place("c1", "0302", "s", "dismounted")
        .place("a", "0303", "n", "unlimbered")
        .build_at(1, UNION, Phase::OffensiveFire);
    t.ok(UNION, fire("0302", &[("a", 2)]));
    // 20 is C5, density 0: C5; die 4 "1"; the check 1.
    t.script(&[4, 1]);
    t.act(UNION, GbacwAction::EndPhase);
    assert_eq!(strength(&t, "c1"), 3);
    assert_eq!(t.s.units[&id("c1")].killed, 1);
    assert_eq!(boxes(&t), (0, false));
}

/// GBACW 18.0: "When all the boxes to the left of the Victory Point award
/// have been marked, that brigade has lost its Brigade Combat
/// Effectiveness." / Corinth 31.1: "The number of Victory Points awarded
/// for the BCE loss of a brigade is always the number listed on the OB
/// Roster."
#[test]
fn case_18_0_overflow_counts_once() {
    let mut t = bce("infantry u strength=4 morale=3 weapon=R brigade=x")
        .scenario("victory case=27.0")
        .scenario("vp-bce roster")
        .union("battery a weapon=HB guns=3 rounds=20 morale=3")
        .place("u", "0302", "s", "line")
        .place("a", "0303", "n", "unlimbered")
        .build_at(1, UNION, Phase::OffensiveFire);
    lose(&mut t, "v", 5);
    let before = t.rs.victory_points(&t.s)[usize::from(UNION.0)].bce;
    t.ok(UNION, fire("0302", &[("a", 3)]));
    // 30 is C7, density 0; die 6 "2*"; the check 1, the pin roll 1.
    t.script(&[6, 1, 1]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    assert_eq!(reads(&events), vec![(7, 6, "2*".to_string())]);
    assert_eq!(boxes(&t), (7, true));
    let after = t.rs.victory_points(&t.s)[usize::from(UNION.0)].bce;
    assert_eq!(after - before, 3, "the roster's award, once");
}
