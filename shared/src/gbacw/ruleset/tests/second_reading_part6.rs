//! The second reading, part 6 (issue 19): reader cases parts 1–5 left
//! unwritten (`docs/second-reading/results-*.md`, "Still not written"),
//! written from the case and the seed, not from the engine's code for the
//! rule, with the position builder and the case's dice. A test is named
//! after its case; its doc comment quotes the sentence it rests on.

use super::reading_support::{
    cedar, formation, mark, marked, melee, melee_reports, refused_case, resolve, settle, strength,
};
use super::second_reading_corinth::{
    cabell_brigade, corinth_field, corinth_field_sized, ten_first_day_casualties,
};
use super::*;
use crate::gbacw::oob::{Formation, Marker};
use crate::gbacw::testkit::Position;

// --- Cedar Mountain 21.41 ---------------------------------------------------------

/// Cedar Mountain 21.41: "Cornfield hexes have a height of 5 feet above the
/// elevation of the terrain on which the corn grows. A unit occupying a
/// cornfield hex is located on the elevation level of that hex, not the
/// elevation plus five feet." / GBACW 9.72: "Trees are considered to be 20
/// feet high" (20 feet a level, as the builder's map). Union 46 Pa stands
/// in K (0104), standing corn on level 1 (20 ft); a Confederate battery in
/// 0101, level 3 (60 ft), above a crest, three hexes off; between them
/// woods on level 1 in 0103 (40 ft), one hex from K. 46 Pa at its level's
/// height: H = 60 − 20 = 40 over D = 3, the woods (40 − 20 − 5) = 15 over
/// 1: 40/3 < 15, blocked. Raised by the corn's five feet it would see
/// (35/3 ≥ (40 − 25 − 5)/1 = 10). Sight is mutual: blocked as firer too.
#[test]
fn cedar_21_41_corn_occupant_at_ground_level() {
    let field = |side: SeatId| {
        cedar(8, 8)
            .map(
                "hex 0101 level=3\nhex 0102 level=2\nside 0101/0102 crest:0101\n\
                 hex 0103 woods level=1\nhex 0104 corn level=1",
            )
            .confederate("battery hampden weapon=N guns=4 rounds=10 morale=4")
            .union("infantry 46-pa strength=5 morale=4 weapon=R")
            .place("hampden", "0101", "s", "unlimbered")
            .place("46-pa", "0104", "n", "line")
            .build_at(2, side, Phase::OffensiveFire)
    };
    let t = field(REBEL);
    assert_eq!(t.rs.game().map.grid.distance(n("0101"), n("0104")), 3);
    for (from, to) in [("0101", "0104"), ("0104", "0101")] {
        assert_eq!(
            t.rs.line_of_sight(&t.s, n(from), n(to)),
            crate::gbacw::los::Los::Blocked(crate::gbacw::los::Obstacle::Hex(n("0103"))),
            "{from} to {to}"
        );
    }
    assert!(t.decide(REBEL, &fire("0104", &[("hampden", 4)])).is_err());
    let t = field(UNION);
    assert!(t.decide(UNION, &fire("0101", &[("46-pa", 5)])).is_err());
}

// --- Corinth 23.26 ------------------------------------------------------------------

/// Corinth 23.26: "A unit that crosses a secondary redan hexside to
/// initiate melee subtracts 1 Strength Point from the melee differential;
/// 2 Strength Points are subtracted if the unit crosses a primary redan
/// hexside. This reduction does not apply to additional melees caused by
/// an "engaged" melee result." Confederate A (4 SP, morale 3) in 0403
/// melees Union D (2 SP, morale 3, pinned) in a primary redan (0404, its
/// redan hexsides north, north-east and north-west) across the redan
/// hexside: 4 − 2 − 2 = 0, die 3, "Eng/Eng". The case allows the
/// continuation as D's melee (12.94 option 1, in the Union Player-Turn):
/// then no redan subtraction applies to either side, D 2 − A 4 = −2.
/// (D, no longer pinned, 9.85, checks to initiate, 22.0: 2, at most its
/// morale 3; any die that is not the melee's reads 2.)
#[test]
fn corinth_23_26_no_reduction_after_engaged() {
    let p = corinth_field()
        .map(
            "side 0404/0403 redan-primary:0404\nside 0404/0504 redan-primary:0404\n\
             side 0404/0304 redan-primary:0404",
        )
        .confederate("infantry a strength=4 morale=3 weapon=R")
        .union("infantry d strength=2 morale=3 weapon=R")
        .place("a", "0403", "s", "line")
        .place("d", "0404", "n", "line");
    let mut t = p.build_at(10, REBEL, Phase::RetreatBeforeMelee);
    mark(&mut t, "d", Marker::Pin);
    t.ok(REBEL, melee("0404", &["a"]));
    let events = resolve(&mut t, &[3]);
    let r = melee_reports(&events).remove(0);
    assert_eq!(
        (r.attack, r.defence, r.differential, r.die),
        (2, 2, 0, 3),
        "{r:?}"
    );
    assert_eq!(r.result.to_string(), "Eng/Eng");
    assert!(marked(&t, "a", Marker::Engaged) && marked(&t, "d", Marker::Engaged));
    // The Union Player-Turn: D fights on (12.94 option 1).
    t.advance_to(UNION, Phase::RetreatBeforeMelee);
    t.ok(UNION, melee("0403", &["d"]));
    settle(&mut t);
    t.advance_to(UNION, Phase::Melee);
    t.script(&[2, 2, 2, 2, 2, 2]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    let r = melee_reports(&events).remove(0);
    assert_eq!((r.attack, r.defence, r.differential), (2, 4, -2), "{r:?}");
}

// --- Corinth 30.4 -------------------------------------------------------------------

/// Lovell's division: Rust (limit 8), Villepigue (9) and Bowen (8), with
/// 4, 3 and 2 casualties (9 in all, none at its own limit; on r1, v1 and
/// b2), Corinth's BCE-loss and 30.4 rules; Bowen's 4-point regiment t
/// (morale 4) in 0404 under FIRE8 of Union F1 (0402) and F2 (0603); Rust's
/// r1 in 0403 with Rust, facing Union D in 0404 when `melee_field`.
fn lovell(melee_field: bool) -> Position {
    let mut p = corinth_field_sized(12, 12)
        .turns(12)
        .scenario(
            "hook bce-loss case=25.0 morale=25.11 no-melee=25.12 rally=25.13 fire=25.14 \
             brigade-retreat=25.2",
        )
        .scenario("hook divisional-bce case=30.4 division=lovell limit=10")
        .confederate("army van-dorn cp=3")
        .confederate("division lovell army=van-dorn dir=0 cp=1")
        .confederate("brigade rust division=lovell er=4 rally=1 bce=8/22 bce-vp=2")
        .confederate("brigade villepigue division=lovell er=3 rally=1 bce=9/24 bce-vp=2")
        .confederate("brigade bowen division=lovell er=4 rally=1 bce=8/22 bce-vp=2")
        .confederate("infantry r1 brigade=rust strength=8 morale=4 weapon=R")
        .confederate("infantry v1 brigade=villepigue strength=8 morale=4 weapon=R")
        .confederate("infantry b2 brigade=bowen strength=8 morale=4 weapon=R")
        .place("v1", "1108", "n", "line")
        .place("b2", "1112", "n", "line")
        // The commanders far from t (Bowen's ER 4 does not reach it: no
        // brigade retreat, 25.2).
        .leader("van-dorn", "1108")
        .leader("lovell", "1108")
        .leader("villepigue", "1108")
        .leader("bowen", "1112");
    if melee_field {
        p = p
            .union("infantry d strength=4 morale=4 weapon=R")
            .place("r1", "0403", "s", "line")
            .leader("rust", "0403")
            .place("d", "0404", "n", "line");
    } else {
        p = p
            .confederate("infantry t brigade=bowen strength=4 morale=4 weapon=R")
            .union("infantry f1 strength=4 morale=4 weapon=R")
            .union("infantry f2 strength=4 morale=4 weapon=R")
            .place("r1", "1110", "n", "line")
            .leader("rust", "1110")
            .place("f1", "0402", "s", "line")
            .place("f2", "0603", "sw", "line")
            .place("t", "0404", "n", "line");
    }
    p
}

fn first_casualties(t: &mut T) {
    for (unit, points) in [("r1", 4), ("v1", 3), ("b2", 2)] {
        let e = GbacwEvent::UnitHit {
            unit: id(unit),
            points,
        };
        t.rs.evolve(&mut t.s, &e);
    }
}

/// Corinth 30.4: "If the total casualties of the three brigades of
/// Lovell's division equal or exceed 10, the entire division (all 3
/// brigades) is treated as if it had exceeded its BCE (see 25.0). The
/// Confederate Player does not lose any Victory Points for the loss of
/// Lovell's BCE. Rather, Victory Points are lost for each brigade which
/// individually reaches its BCE as usual." / 25.11: "add one to the die
/// roll" of a brigade that has lost BCE; 25.12: such units "may not
/// initiate melee". Bowen's t loses 1 SP to FIRE8 (C4, die 5 reads "1"):
/// 10 in all. Its check, 4 + 1 = 5 > 4: it routs. No brigade reached its
/// own limit: no BCE loss is scored. Then a Rust regiment may not melee.
#[test]
fn corinth_30_4_lovell_divisional_bce_at_ten() {
    let mut t = lovell(false).build_at(10, UNION, Phase::OffensiveFire);
    first_casualties(&mut t);
    t.ok(UNION, fire("0404", &[("f1", 4), ("f2", 4)]));
    t.script(&[5, 4]);
    let mut events = t.act(UNION, GbacwAction::EndPhase);
    events.extend(settle(&mut t));
    let r = &fire_reports(&events)[0];
    assert_eq!((r.column, r.die), (4, 5), "{r:?}");
    assert_eq!(strength(&t, "t"), 3);
    let checks: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            GbacwEvent::MoraleChecked {
                unit, die, failed, ..
            } if *unit == id("t") => Some((*die, *failed)),
            _ => None,
        })
        .collect();
    assert_eq!(checks, vec![(4, true)], "4 + 1 > 4: {events:?}");
    assert!(marked(&t, "t", Marker::Rout));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, GbacwEvent::BceLost { .. })),
        "no brigade reached its own limit"
    );
    let mut t = lovell(true).build_at(10, REBEL, Phase::RetreatBeforeMelee);
    first_casualties(&mut t);
    let e = GbacwEvent::UnitHit {
        unit: id("b2"),
        points: 1,
    };
    t.rs.evolve(&mut t.s, &e);
    refused_case(&t, REBEL, melee("0404", &["r1"]), "25.12");
}

// --- 8.41, 11.18 -------------------------------------------------------------------

/// GBACW 11.18: "A wagon may be recrewed if its crew has been eliminated by
/// moving an infantry unit or dismounted cavalry unit onto the wagon and
/// removing one Strength Point from that unit during the Friendly Final
/// Command Phase. The morale and weapon type of the new crew should be
/// noted on the OB Roster." Union wagon W, its crew eliminated earlier, in
/// 0405; Union X (4 SP, morale 4, R) moves onto it in the Union Movement
/// Phase. In the Union Final Command Phase 1 SP of X crews W: X is 3 SP,
/// W crewed. (Sub-case: the same in the Movement Phase is refused.)
#[test]
fn case_11_18_recrew_wagon_final_command_phase() {
    let mut t = Position::new(8, 8)
        .union("wagon w morale=4 weapon=R strength=1 small-arms=5 artillery=0")
        .union("infantry x strength=4 morale=4 weapon=R")
        .place("w", "0405", "n", "-")
        .place("x", "0406", "n", "line")
        .build_at(1, UNION, Phase::Movement);
    t.s.units.get_mut(&id("w")).unwrap().status.crew = crate::gbacw::oob::Crew::None;
    t.mv(UNION, &["x"], &["0405"]);
    let recrew = GbacwAction::Recrew {
        wagon: id("w"),
        unit: id("x"),
    };
    refused_case(&t, UNION, recrew.clone(), "11.18");
    t.advance_to(UNION, Phase::FinalCommand);
    // Here the Union player assigns 1 SP of X to W.
    t.ok(UNION, recrew);
    t.ok(UNION, GbacwAction::EndPhase);
    assert_eq!(strength(&t, "x"), 3, "1 SP of X became W's crew");
    assert_ne!(
        t.s.units[&id("w")].status.crew,
        crate::gbacw::oob::Crew::None,
        "W is crewed"
    );
    let noted = &t.s.recrewed[&id("w")];
    assert_eq!(noted.morale, crate::gbacw::oob::Morale::Rated(4));
    assert_eq!(noted.weapon.as_deref(), Some("R"));
}

/// GBACW 8.41: "Units may stack, or change their stacking order, only
/// during a Friendly Movement Phase, with one exception: If the top unit
/// runs out of ammunition (see 11.0), the Player may change the stacking
/// order at the end of the Fire Phase in which depletion occurred." / 11.21:
/// "if the number rolled is "1" or "2," that unit is considered "ammo
/// depleted"". Confederate A (top, 3 SP) over B (4 SP) in 0405 fires in
/// the Union Player-Turn's Defensive Fire Phase at Union U (0406): Fire
/// CRT 1, depletion roll 2: A is ammo depleted, and at the end of that
/// phase the Confederate player may put B on top (a reorder at its start
/// is refused; with depletion roll 4, at its end too).
#[test]
fn case_8_41_reorder_stack_after_ammo_depletion() {
    let start = || {
        Position::new(8, 8)
            .confederate("infantry a strength=3 morale=4 weapon=R")
            .confederate("infantry b strength=4 morale=4 weapon=R")
            .union("infantry u strength=4 morale=4 weapon=R")
            .place("a", "0405", "s", "line")
            .place("b", "0405", "s", "line")
            .place("u", "0406", "n", "line")
            .build_at(1, UNION, Phase::DefensiveFire)
    };
    let b_on_top = GbacwAction::PutOnTop { unit: id("b") };
    let mut t = start();
    refused_case(&t, REBEL, b_on_top.clone(), "8.41");
    t.ok(REBEL, fire("0406", &[("a", 3)]));
    t.script(&[1, 2, 1, 1]);
    let actor = t.rs.acting_seat(&t.s).expect("someone acts");
    t.act(actor, GbacwAction::EndPhase);
    assert!(marked(&t, "a", Marker::AmmoDepleted));
    // The end of the Defensive Fire Phase: the Confederate player is asked.
    let asked = t.rs.pending(&t.s);
    assert_eq!(asked[0].rule, "GBACW 8.41");
    assert_eq!(asked[0].seat, REBEL);
    assert!(t.rs.legal_actions(&t.s, REBEL).contains(&b_on_top));
    t.ok(REBEL, b_on_top.clone());
    t.ok(REBEL, GbacwAction::StackOrderDone);
    assert_eq!(
        crate::gbacw::ruleset::stack_order::stack_at(&t.s, n("0405")),
        ids(&["b", "a"]),
        "B on top of A"
    );
    assert!(t.rs.pending(&t.s).is_empty());
    refused_case(&t, REBEL, GbacwAction::PutOnTop { unit: id("a") }, "8.41");
    // A depletion roll of 4: A keeps its ammunition, no change of order.
    let mut t = start();
    t.ok(REBEL, fire("0406", &[("a", 3)]));
    t.script(&[1, 4, 1, 1]);
    let actor = t.rs.acting_seat(&t.s).expect("someone acts");
    t.act(actor, GbacwAction::EndPhase);
    assert!(!marked(&t, "a", Marker::AmmoDepleted));
    assert!(t.s.restack.is_none());
    refused_case(&t, REBEL, b_on_top, "8.41");
}

// --- Corinth 25.26 ------------------------------------------------------------------

/// Cabell's brigade at its limit (ten first-day casualties), with Watson a
/// and Watson b, its batteries, unlimbered in 0303 and 0304 (Cabell's ER
/// 5 reaches them; out of the regiments' way back, so nothing displaces
/// them); Union F (4 SP) two hexes south of r5 (0105), in its
/// front. The Union Offensive Fire Phase of Game-Turn 10.
fn cabell_with_batteries() -> T {
    let mut t = cabell_brigade()
        .scenario("hook brigade-retreat-batteries case=25.26")
        .confederate("battery watson-a brigade=cabell weapon=N guns=2 rounds=10 morale=4")
        .confederate("battery watson-b brigade=cabell weapon=N guns=2 rounds=10 morale=4")
        .union("infantry f strength=4 morale=4 weapon=R")
        .place("watson-a", "0303", "s", "unlimbered")
        .place("watson-b", "0304", "s", "unlimbered")
        .place("f", "0107", "n", "line")
        .build_at(10, UNION, Phase::OffensiveFire);
    ten_first_day_casualties(&mut t);
    t
}

/// Corinth 25.26: "The batteries of a brigade undergoing brigade retreat
/// are given the option to retreat; it is not mandatory. If unlimbered,
/// they may limber in order to retreat. This is the only way an artillery
/// unit may ever change formation in a Phase other than the friendly
/// Movement Phase." F fires on r5 (die 6 reads "1"); r5 checks 4, +1
/// for the brigade's lost BCE (25.11) and more for its losses: it routs in
/// Cabell's radius, and the brigade retreats (25.2). The Confederate
/// player limbers Watson a and retreats it two hexes; Watson b stays,
/// unlimbered, with no check. Outside a brigade retreat the same limbering
/// in the Union Player-Turn is refused.
#[test]
fn corinth_25_26_battery_may_limber_to_retreat() {
    let mut t = cabell_with_batteries();
    assert!(
        t.decide(REBEL, &formation("watson-b", Formation::Limbered))
            .is_err()
    );
    t.ok(UNION, fire("0105", &[("f", 4)]));
    // Fire die 6, r5's check 4; then 1s (every other check holds).
    t.script(&[6, 4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    let mut events = t.act(UNION, GbacwAction::EndPhase);
    assert_eq!(fire_reports(&events)[0].result.to_string(), "1");
    assert!(marked(&t, "r5", Marker::Rout));
    let mut offered = false;
    for _ in 0..60 {
        let Some(d) = t.rs.pending(&t.s).into_iter().next() else {
            break;
        };
        // The brigade's other checks and anything after: 1s (they hold).
        t.script(&[1, 1, 1, 1]);
        // A position's battle cites its exclusive rules as "Position 25.26".
        let action = if d.rule.ends_with(" 25.26") {
            offered = true;
            GbacwAction::RetreatBatteries {
                batteries: ids(&["watson-a"]),
            }
        } else {
            d.default
        };
        events.extend(t.act(d.seat, action));
    }
    assert!(offered, "the batteries are offered the retreat");
    let a = t.hex("watson-a").expect("Watson a on the map");
    assert_eq!(t.rs.game().map.grid.distance(n("0303"), a), 2, "{a}");
    assert_eq!(
        t.s.units[&id("watson-a")].status.formation,
        Formation::Limbered
    );
    assert_eq!(t.hex("watson-b"), Some(n("0304")));
    assert_eq!(
        t.s.units[&id("watson-b")].status.formation,
        Formation::Unlimbered
    );
    assert!(
        !events.iter().any(
            |e| matches!(e, GbacwEvent::MoraleChecked { unit, .. } if *unit == id("watson-b"))
        ),
        "Watson b makes no check"
    );
}

// --- Corinth 29.47 ------------------------------------------------------------------

/// Corinth 29.47: "Reinforcements enter the game in column formation, and
/// must stay in column until they come within the Effectiveness Radii of
/// their brigade commanders or until they are attacked. ... Reinforcements
/// pay the Movement Point costs of the first hex they enter. On Game-Turn
/// 2, the UnionBd unit enters in hex 2745 and the 18 Mo unit enters in hex
/// 3937." The shipped battle, Union Movement Phase of Game-Turn 2: 18 Mo
/// enters at 3937 (woods, the map's ground: 2 Movement Points for a
/// column), in column ((a): an arrival names no formation, so "in line" is
/// not even askable); (b) line, far from Oliver (ER 3), is refused; (c)
/// with Oliver two hexes off it is allowed.
#[test]
fn corinth_29_47_reinforcement_stays_in_column() {
    let mut t = T::battle("corinth");
    t.ok(UNION, GbacwAction::EndSetUp);
    t.advance_to(UNION, Phase::Movement);
    assert_eq!(t.s.clock.turn, 2);
    t.ok(
        UNION,
        GbacwAction::Arrive {
            piece: id("18-mo"),
            hex: n("3937"),
            facing: dir("n"),
        },
    );
    assert_eq!(t.s.units[&id("18-mo")].status.formation, Formation::Column);
    assert_eq!(t.spent("18-mo"), mp(4), "2 MP (`mp` counts halves)");
    refused_case(&t, UNION, formation("18-mo", Formation::Line), "29.47");
    t.put_leader("oliver", "3935");
    assert_eq!(t.rs.game().map.grid.distance(n("3935"), n("3937")), 2);
    assert!(
        t.decide(UNION, &formation("18-mo", Formation::Line))
            .is_ok()
    );
}
