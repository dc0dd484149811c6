//! The second reading of the Standard Rules, part 5 (issue 19): reader
//! cases (`docs/second-reading/std-*.md`) that parts 1–4 left unwritten,
//! each built with the position builder and scripted dice, written from the
//! case and the seed (not from the engine's code for the rule). A test is
//! named after its case; its doc comment quotes the sentence its
//! expectation rests on. The expectation is the case's, not the engine's.
//!
//! Most positions use a lake corridor (the builder's impassable terrain),
//! so that a retreat or a supply path has one way only, as the cases say.

use super::reading_support::{
    all_checks, cedar, checks, fight, lost, mark, marked, reads, settle, strength, vp,
};
use super::second_reading_corinth::corinth_field;
use super::*;
use crate::gbacw::oob::Marker;
use crate::gbacw::ruleset::state::Casualty;
use crate::gbacw::tables::MeleeEffect;
use crate::gbacw::testkit::Position;

fn captured(events: &[GbacwEvent], unit: &str) -> bool {
    events
        .iter()
        .any(|e| matches!(e, GbacwEvent::UnitRemoved { unit: u, captured: true } if *u == id(unit)))
}

// --- 7.23 ---------------------------------------------------------------------

/// GBACW 7.23: "If a Line of Fire bisects a frontal hexside and an
/// enfilade hexside, the unit is considered to be fired on through its
/// frontal hexside." Confederate B (4 SP) in 0404 faces north; Union A
/// (4 SP, R) in 0604, two hexes due east, fires along the 0504|0505
/// hexside, so the line enters B's hex at the vertex between its ne
/// (frontal) and se (rear) hexsides. Final strength 4 is C3: roll 5 reads
/// "P/R", not C4's "1".
#[test]
fn case_7_23_line_along_frontal_and_rear_hexside_counts_frontal() {
    let mut t = Position::new(8, 8)
        .union("infantry a strength=4 morale=4 weapon=R")
        .confederate("infantry b strength=4 morale=4 weapon=R")
        .place("a", "0604", "nw", "line")
        .place("b", "0404", "n", "line")
        .build_at(1, UNION, Phase::OffensiveFire);
    assert_eq!(t.rs.game().map.grid.distance(n("0404"), n("0604")), 2);
    t.ok(UNION, fire("0404", &[("a", 4)]));
    t.script(&[5, 1, 1]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    let r = &fire_reports(&events)[0];
    assert_eq!(r.strength, 4);
    assert!(!r.enfilade, "fired on through a frontal hexside: {r:?}");
    assert_eq!(reads(&events), vec![(3, 5, "P/R".to_string())]);
}

// --- 10.3 ---------------------------------------------------------------------

/// U (ammo depleted) in 0202 and wagon W in 0204, two hexes apart; lakes
/// leave one hex between them, H (0203), in the frontal ZOC of
/// Confederate A (0304, facing north). With `friend`, Union F stands in H.
fn supply_through(friend: bool) -> T {
    let lakes = [
        "0101", "0102", "0103", "0104", "0105", "0201", "0205", "0301", "0302", "0303", "0305",
        "0401", "0402", "0403", "0404", "0405",
    ];
    let map = lakes
        .iter()
        .map(|h| format!("hex {h} lake"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut p = Position::new(4, 5)
        .map(&map)
        .union("infantry u strength=3 morale=4 weapon=R")
        .union("wagon w morale=4 weapon=R strength=1 small-arms=5 artillery=0")
        .union("infantry f strength=3 morale=4 weapon=R")
        .confederate("infantry a strength=4 morale=4 weapon=R")
        .place("u", "0202", "s", "line")
        .place("w", "0204", "n", "-")
        .place("a", "0304", "n", "line");
    p = if friend {
        p.place("f", "0203", "s", "line")
    } else {
        // F somewhere out of the way (a lake-free corner is not needed:
        // it is off the path, on W's hex).
        p.place("f", "0204", "n", "line")
    };
    let mut t = p.build_at(1, UNION, Phase::AmmunitionResupply);
    mark(&mut t, "u", Marker::AmmoDepleted);
    t
}

/// GBACW 10.3: "Units attempting to trace a Line of Supply to their supply
/// wagons (11.23) may not trace this line through an Enemy ZOC, unless the
/// hex is occupied by a Friendly unit." / 10.5: "The presence of a Friendly
/// unit negates an Enemy ZOC for purposes of supply and leadership lines."
/// (a) H empty: refused. (b) Union F in H: U is resupplied.
#[test]
fn case_10_3_supply_path_blocked_by_empty_zoc_hex() {
    let resupply = GbacwAction::Resupply {
        wagon: id("w"),
        unit: id("u"),
    };
    let t = supply_through(false);
    let e = t.decide(UNION, &resupply).expect_err("H is in A's ZOC");
    assert!(
        e.rule.ends_with(" 10.3") || e.rule.ends_with(" 11.23"),
        "{e}"
    );
    let mut t = supply_through(true);
    t.ok(UNION, resupply);
    assert!(!marked(&t, "u", Marker::AmmoDepleted));
}

// --- 5.18 ---------------------------------------------------------------------

/// GBACW 5.18: "Retreats conducted during any Phase do not require the
/// expenditure of Movement Points and are not considered movement." /
/// 11.25: "Neither the wagon nor the unit being resupplied may have moved
/// in that Player-Turn." Union C (4 SP) in 0404 melees Confederate E
/// (4 SP) in 0403: 4 − 4 = 0, die 5 reads "R2/-". Lakes leave C one way
/// back, through D's hex (0405); D (ammo depleted, did not move) is
/// displaced and checks (2: holds). In the Ammunition Resupply Phase D is
/// resupplied from W (0409), which did not move either.
#[test]
fn case_5_18_retreat_is_not_movement_for_resupply() {
    let mut t = Position::new(8, 10)
        .map(
            "hex 0304 lake\nhex 0305 lake\nhex 0504 lake\nhex 0505 lake\n\
             hex 0306 lake\nhex 0506 lake\nhex 0307 lake\nhex 0507 lake",
        )
        .union("infantry c strength=4 morale=4 weapon=R")
        .union("infantry d strength=4 morale=4 weapon=R")
        .union("wagon w morale=4 weapon=R strength=1 small-arms=5 artillery=0")
        .confederate("infantry e strength=4 morale=4 weapon=R")
        .place("c", "0404", "n", "line")
        .place("d", "0405", "n", "line")
        .place("w", "0409", "n", "-")
        .place("e", "0403", "s", "line")
        .build_at(1, UNION, Phase::RetreatBeforeMelee);
    mark(&mut t, "d", Marker::AmmoDepleted);
    let (r, mut events) = fight(&mut t, UNION, "0403", &["c"], &[5, 2, 2, 2]);
    assert_eq!(r.result.to_string(), "R2/-");
    events.extend(settle(&mut t));
    let checks = all_checks(&events);
    assert!(
        checks
            .iter()
            .any(|(u, die, failed)| *u == id("d") && *die == 2 && !failed),
        "D displaced and checked: {checks:?}"
    );
    assert_ne!(t.hex("d"), Some(n("0405")), "D was displaced");
    assert!(!marked(&t, "d", Marker::Rout));
    t.advance_to(UNION, Phase::AmmunitionResupply);
    t.ok(
        UNION,
        GbacwAction::Resupply {
            wagon: id("w"),
            unit: id("d"),
        },
    );
    assert!(!marked(&t, "d", Marker::AmmoDepleted));
}

// --- 12.51 --------------------------------------------------------------------

/// Routed Confederate D (5 SP, morale 3) in 0405, meleed from 0406 by
/// Union A (3 SP); lakes close every side of D's hex but A's and 0404.
/// With `e1`, Union E1 (0403, facing south; no part in the melee) holds
/// 0404 in its frontal ZOC.
fn routed_d_engaged(e1: bool) -> T {
    let mut p = Position::new(8, 8)
        .map("hex 0305 lake\nhex 0306 lake\nhex 0505 lake\nhex 0506 lake")
        .union("infantry a strength=3 morale=3 weapon=R")
        .confederate("infantry d strength=5 morale=3 weapon=R")
        .place("a", "0406", "n", "line")
        .place("d", "0405", "s", "line");
    if e1 {
        p = p
            .union("infantry e1 strength=3 morale=3 weapon=R")
            .place("e1", "0403", "s", "line");
    }
    let mut t = p.build_at(1, UNION, Phase::RetreatBeforeMelee);
    mark(&mut t, "d", Marker::Rout);
    t
}

/// GBACW 12.51: "If a routed unit defends against melee, that unit defends
/// at *one-half* its Current Strength rounded down. Routed units may not
/// initiate melee; if "engaged" in melee, a routed unit must retreat from
/// melee, if possible. If the routed unit cannot retreat from the melee
/// without entering an Enemy ZOC, it is captured." Routed Confederate D
/// (5 SP, halved to 2) is meleed by Union A (3 SP): +1, die 4, "Eng/Eng".
/// Lakes close every side of D's hex but A's and 0404, which is in the
/// frontal ZOC of Union E1 (0403, facing south; E1 took no part). D cannot
/// retreat: it is captured, 5 SP. A, engaged with nobody, is engaged no
/// more.
#[test]
fn case_12_51_engaged_routed_unit_captured_if_zoc() {
    let mut t = routed_d_engaged(true);
    let (r, mut events) = fight(&mut t, UNION, "0405", &["a"], &[4, 1, 1]);
    assert_eq!((r.attack, r.defence, r.differential), (3, 2, 1));
    assert_eq!(r.result.defender, MeleeEffect::Engaged);
    events.extend(settle(&mut t));
    assert!(captured(&events, "d"), "D is captured");
    assert_eq!(t.hex("d"), None);
    assert_eq!(
        t.s.units[&id("d")].captured,
        5,
        "all 5 SP recorded as captured"
    );
    assert!(
        !marked(&t, "a", Marker::Engaged),
        "A is engaged with nobody"
    );
}

/// GBACW 12.51, the same sentence, "must retreat from melee, if possible",
/// with 0404 free of any ZOC (no E1): D retreats out of the melee, two
/// hexes (12.94 option 3: "retreat his engaged units two hexes, checking
/// their morale at the end of the retreat"; 12.51 gives no length), and
/// checks: 2 against 3, it holds, still routed. It is not captured.
#[test]
fn case_12_51_engaged_routed_unit_captured_if_zoc_free_hex_retreats() {
    let mut t = routed_d_engaged(false);
    let (r, mut events) = fight(&mut t, UNION, "0405", &["a"], &[4, 2]);
    assert_eq!(r.result.defender, MeleeEffect::Engaged);
    events.extend(settle(&mut t));
    assert!(!captured(&events, "d"), "D retreats instead");
    let d = t.hex("d").expect("D on the map");
    assert_eq!(
        t.rs.game().map.grid.distance(n("0405"), d),
        2,
        "two hexes: {d}"
    );
    assert_eq!(checks(&events, "d"), vec![(2, false)]);
    assert!(marked(&t, "d", Marker::Rout));
    assert!(!marked(&t, "d", Marker::Engaged));
    assert!(!marked(&t, "a", Marker::Engaged));
    assert!(t.dice_left().is_empty(), "left: {:?}", t.dice_left());
}

// --- 14.3 ---------------------------------------------------------------------

/// Confederate X (3 SP, morale 5; its own check, 12.92, comes last) in
/// 0404 is meleed from 0403 by Union I (4 SP). A lake corridor runs south
/// down column 04: F (3 SP, morale 4) in 0406 (S1), G (3 SP, morale 3) in
/// 0407 (S2), 0408 beyond vacant. `reading`: a table's reading, if any.
fn chain_position(reading: Option<&str>) -> T {
    let lakes = [
        "0304", "0305", "0306", "0307", "0308", "0504", "0505", "0506", "0507", "0508",
    ];
    let map = lakes
        .iter()
        .map(|h| format!("hex {h} lake"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut p = Position::new(8, 14)
        .map(&map)
        .union("infantry i strength=4 morale=4 weapon=R")
        .confederate("infantry x strength=3 morale=5 weapon=R")
        .confederate("infantry f strength=3 morale=4 weapon=R")
        .confederate("infantry g strength=3 morale=3 weapon=R")
        .place("i", "0403", "s", "line")
        .place("x", "0404", "n", "line")
        .place("f", "0406", "n", "line")
        .place("g", "0407", "n", "line");
    if let Some(name) = reading {
        p = p.reading_001(name);
    }
    p.build_at(3, UNION, Phase::RetreatBeforeMelee)
}

/// GBACW 14.3: "The retreat must be onto a vacant hex if possible; if not,
/// the third unit in turn is retreated one hex and the owning Player must
/// conduct a morale check for that unit. In this manner, a "chain
/// reaction" of retreats and routs is theoretically possible." / 14.4:
/// "Players should attempt to follow the terrain of least resistance ...
/// away from Enemy and toward their own lines." (X's morale is 5, the
/// case's position leaves it open; its own check at the end of its
/// retreat, 12.92, comes after the displacements and reads 1.) The case
/// reads 14.4 as
/// ruling out a displacement back toward the enemy: under the reading
/// `displace-away-from-enemy`. I melees X: +1, die 2, "-/R2". X's two
/// hexes end on F (S1). F's hexes are 0405 (vacant, but back toward I:
/// the case's "lies toward the enemy") and 0407 (S2), where G stands. The
/// case: F goes into S2 and checks (2 in the case: holds); G is displaced
/// into 0408, checks (5 in the case: > 3) and routs three more hexes.
#[test]
fn case_14_3_displacement_chain() {
    let mut t = chain_position(Some("displace-away-from-enemy"));
    assert!(t.rs.options.displace_away_from_enemy);
    // Melee die 2. The case rolls F's check (2) before G's (5); the text
    // orders the checks of a chain nowhere, and the engine rolls G's
    // first (G's displacement is part of F's one-hex retreat, and F checks
    // once displaced, 8.15: "displaced and must then undergo a morale
    // check"). A 4 for each gives the case's outcomes in either order: F
    // (morale 4) holds, G (morale 3) routs. X's own check 1 (1s after).
    let (r, mut events) = fight(&mut t, UNION, "0404", &["i"], &[2, 4, 4, 1, 1, 1, 1, 1]);
    assert_eq!(r.result.to_string(), "-/R2");
    events.extend(settle(&mut t));
    let checks = all_checks(&events);
    assert_eq!(t.hex("f"), Some(n("0407")), "F into S2: {checks:?}");
    assert!(checks.contains(&(id("f"), 4, false)), "{checks:?}");
    assert!(checks.contains(&(id("g"), 4, true)), "{checks:?}");
    assert!(!marked(&t, "f", Marker::Rout));
    assert!(marked(&t, "g", Marker::Rout));
    let g = t.hex("g").expect("G on the map");
    assert_eq!(
        t.rs.game().map.grid.distance(n("0408"), g),
        3,
        "G routs three hexes beyond 0408: {g}"
    );
}

/// GBACW 14.3, the default reading: "The retreat must be onto a vacant hex
/// if possible" binds, and 14.4's "Players should attempt to follow ...
/// away from Enemy" is advice ("the retreating Player has the final
/// say"). The same melee: F, displaced by X, goes into the vacant hex
/// 0405 X passed through, though it lies toward I, and checks (2: holds);
/// G is not displaced and makes no check.
#[test]
fn case_14_3_displacement_chain_default_vacant_hex_first() {
    let mut t = chain_position(None);
    assert!(!t.rs.options.displace_away_from_enemy);
    let (r, mut events) = fight(&mut t, UNION, "0404", &["i"], &[2, 2, 1, 1, 1, 1, 1]);
    assert_eq!(r.result.to_string(), "-/R2");
    events.extend(settle(&mut t));
    let checks = all_checks(&events);
    assert_eq!(t.hex("x"), Some(n("0406")), "{checks:?}");
    assert_eq!(
        t.hex("f"),
        Some(n("0405")),
        "F into the vacant hex: {checks:?}"
    );
    assert!(checks.contains(&(id("f"), 2, false)), "{checks:?}");
    assert!(!checks.iter().any(|(u, _, _)| *u == id("g")), "{checks:?}");
    assert_eq!(t.hex("g"), Some(n("0407")));
}

// --- 9.51 with Corinth 23.34 ------------------------------------------------------

/// GBACW 9.51: "the final net adjustment on the CRT may never be more than
/// two columns in any direction" / Corinth 23.34: "A defending unit in a
/// town hex receives a two column shift to the left in fire combat."
/// Union T (4 SP, morale 3) in a town hex one level up (0404), facing
/// north; Confederate battery X (4 HB guns) adjacent across the crest
/// hexside 0404|0403 (a frontal hexside of T), one level lower. Town −2
/// and crest −1 are −3 of terrain alone, capped at −2: C8 moves to C6,
/// roll 3 reads "1" (uncapped, C5 would read "P/R").
#[test]
fn corinth_9_51_town_and_crest_capped() {
    let mut t = corinth_field()
        .map("hex 0404 town level=1\nside 0404/0403 crest:0404")
        .union("infantry t strength=4 morale=3 weapon=R")
        .confederate("battery x weapon=HB guns=4 rounds=20 morale=4")
        .place("t", "0404", "n", "line")
        .place("x", "0403", "s", "unlimbered")
        .build_at(10, REBEL, Phase::OffensiveFire);
    t.ok(REBEL, fire("0404", &[("x", 4)]));
    t.script(&[3, 1, 1, 1]);
    let events = t.act(REBEL, GbacwAction::EndPhase);
    let r = &fire_reports(&events)[0];
    println!("{r:?}");
    assert_eq!(r.net_shift, -2, "capped at two columns: {r:?}");
    assert_eq!((r.column, r.die), (6, 3), "{r:?}");
    assert_eq!(r.result.to_string(), "1");
    assert_eq!(strength(&t, "t"), 3);
}

// --- 17.82 ---------------------------------------------------------------------

/// Confederate R (4 SP) in 0404 with its brigade commander S (ER 3, REPL
/// side 3/1) at `turn`'s Union Offensive Fire Phase; Union F1 and F2 two
/// hexes off (FIRE8: C4, die 5 reads "1"). S is stacked with R.
fn replacement_under_fire(t: &mut T) -> Vec<GbacwEvent> {
    t.ok(UNION, fire("0404", &[("f1", 4), ("f2", 4)]));
    // Fire die 5 ("1"); S's two dice 2 + 3 = 5 (small arms: wounded);
    // R's morale 1.
    t.script(&[5, 2, 3, 1]);
    let mut events = t.act(UNION, GbacwAction::EndPhase);
    events.extend(settle(t));
    assert!(t.dice_left().is_empty(), "left: {:?}", t.dice_left());
    events
}

/// GBACW 17.82: "If a replacement brigade commander is killed, wounded, or
/// captured, the counter is not actually removed from the game. Instead it
/// is simply redeployed on the map during the next Final Friendly Command
/// Phase and the loss is recorded on paper. ... Victory Points are scored
/// for the elimination of replacement leaders in the same manner as a
/// regular brigade commander." / Cedar Mountain 27.21: "Enemy brigade
/// commander: Wounded 1 VP each". S was killed before Game-Turn 7 and
/// flipped to his REPL side; his REPL counter is wounded by Union fire in
/// Game-Turn 7 (Union +1), redeployed on R in the Confederate Final
/// Command Phase, wounded again in Game-Turn 8 (Union +1 again).
#[test]
fn case_17_82_replacement_recycled_and_scores_again() {
    let mut t = cedar(8, 10)
        .turns(12)
        .confederate("brigade s indpnt er=3 rally=1 repl=3/1")
        .confederate("infantry r brigade=s strength=4 morale=4 weapon=R")
        .union("infantry f1 strength=4 morale=4 weapon=R")
        .union("infantry f2 strength=4 morale=4 weapon=R")
        .place("r", "0404", "n", "line")
        .leader("s", "0404")
        .place("f1", "0402", "s", "line")
        .place("f2", "0603", "sw", "line")
        .build_at(6, REBEL, Phase::FinalCommand);
    // S, the original, was lost earlier: he comes back on his REPL side.
    lost(&mut t, "s", Casualty::Killed);
    let events = t.act(REBEL, GbacwAction::EndPhase);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, GbacwEvent::LeaderSucceeded(_))),
        "S flips to his REPL side"
    );
    assert_eq!(t.hex("s"), Some(n("0404")));
    let before = vp(&t, UNION).leaders;
    for turn in [7, 8] {
        t.advance_to_turn(turn, UNION, Phase::OffensiveFire);
        let events = replacement_under_fire(&mut t);
        assert!(
            events.iter().any(|e| matches!(
                e,
                GbacwEvent::LeaderRolled {
                    casualty: Some(Casualty::Wounded),
                    ..
                }
            )),
            "GT {turn}: R's REPL counter is wounded: {events:?}"
        );
        assert_eq!(t.hex("s"), None, "GT {turn}: off the map until redeployed");
        assert_eq!(
            vp(&t, UNION).leaders,
            before + u32::from(turn - 6),
            "GT {turn}: one more VP for a wounded brigade commander"
        );
        t.advance_to(REBEL, Phase::FinalCommand);
        let events = t.act(REBEL, GbacwAction::EndPhase);
        assert!(
            events
                .iter()
                .any(|e| matches!(e, GbacwEvent::LeaderSucceeded(_))),
            "GT {turn}: the same REPL counter is redeployed"
        );
        assert_eq!(t.hex("s"), Some(n("0404")), "on a unit of his brigade");
    }
}
