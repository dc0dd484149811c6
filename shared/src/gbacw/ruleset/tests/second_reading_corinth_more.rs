//! More of the second reading of *The Battle of Corinth*'s exclusive rules
//! (issue 19, part 3): reader cases of `docs/second-reading/corinth-19-31.md`
//! that `second_reading_corinth.rs` left unwritten, each built with the
//! position builder (or on the shipped battle where the case names its
//! counters) and scripted dice. A test is named after its case; its doc
//! comment quotes the sentence its expectation rests on. The expectation
//! is the case's, not the engine's.

use super::reading_support::{lost, mark, marked, refused_case, spend, straggler_rolls};
use super::second_reading_corinth::{
    corinth_field, corinth_field_sized, declared, gate_checks, melee_field, retreat_d,
};
use super::*;
use crate::gbacw::oob::Marker;
use crate::gbacw::retreat::RetreatKind;
use crate::gbacw::ruleset::combat::effects::retreat_options;
use crate::gbacw::testkit::Position;
use std::collections::BTreeSet;

fn leader_hex(t: &T, l: &str) -> Option<HexNumber> {
    t.s.leaders[&id(l)].hex
}

/// Answers what the other seat is asked on the way (withdrawal or retreat
/// fire: declined), at most `n` times; the retreat then goes on with the
/// scripted dice (12.83's check at its end).
fn decline_fire(t: &mut T, n: usize) {
    for _ in 0..n {
        let Some(seat) = t.rs.acting_seat(&t.s) else {
            return;
        };
        let legal = t.rs.legal_actions(&t.s, seat);
        let Some(a) = legal.into_iter().find(|a| {
            matches!(
                a,
                GbacwAction::DeclineWithdrawalFire | GbacwAction::DeclineRetreatFire
            )
        }) else {
            return;
        };
        t.act(seat, a);
    }
}

// --- 22.3 Melee restrictions ------------------------------------------------------

/// Corinth 22.31: "Units which retreat from an engaged hex (see 12.94) do
/// not make a Morale Check to determine whether or not they may retreat."
/// Union D (morale 2, no leader), Engaged with Confederate A, withdraws
/// under 12.94 in its own Retreat Before Melee Phase: no 22.0 check is
/// rolled (the script's 6 would have stopped it), and D leaves the hex.
#[test]
fn corinth_22_31_retreat_from_engaged_hex_no_check() {
    let p = melee_field("strength=4 morale=4", "strength=4 morale=2");
    let mut t = p.build_at(10, UNION, Phase::RetreatBeforeMelee);
    mark(&mut t, "a", Marker::Engaged);
    mark(&mut t, "d", Marker::Engaged);
    // 12.94's own check at the end of the withdrawal may roll: 6s.
    t.script(&[6, 6, 6, 6]);
    let events = t.act(
        UNION,
        GbacwAction::WithdrawEngaged {
            units: ids(&["d"]),
            path: vec![n("0405"), n("0406")],
        },
    );
    assert!(gate_checks(&events).is_empty(), "{events:?}");
    assert_ne!(t.hex("d"), Some(n("0404")), "D withdrew");
}

/// Corinth 22.33: "A leader who is stacked with units that retreat before
/// melee or initiate melee must remain stacked with those units if the
/// leader was used to bypass a Morale Check." Union D retreats before
/// melee with no check because its brigade commander L is stacked with
/// it; L ends the retreat in D's final hex (he may not go elsewhere).
#[test]
fn corinth_22_33_leader_must_stay_with_units() {
    let p = corinth_field()
        .confederate("infantry a strength=4 morale=4 weapon=R")
        .union("brigade l indpnt er=3 rally=1")
        .union("infantry d brigade=l strength=4 morale=2 weapon=R")
        .place("a", "0403", "s", "line")
        .place("d", "0404", "n", "line")
        .leader("l", "0404");
    let mut t = declared(p, 10, &["a"]);
    let events = t.act(UNION, retreat_d(&["0405", "0406"]));
    assert!(gate_checks(&events).is_empty(), "L bypasses the check");
    t.script(&[1]);
    decline_fire(&mut t, 4);
    let end = t.hex("d").expect("on the map");
    assert_ne!(end, n("0404"), "D retreated");
    assert_eq!(leader_hex(&t, "l"), Some(end), "L stays with D");
}

/// Corinth 22.34: "Should all the units in a hex retreat before melee, the
/// attacking unit(s) may occupy the hex without making a Morale Check
/// (regardless of whether or not it is stacked with a leader)."
/// Confederate A (morale 2, no leader) declared on Union D; D passes its
/// check and leaves; A advances into the vacated hex with no roll.
#[test]
fn corinth_22_34_attacker_occupies_vacated_hex_without_check() {
    let mut t = declared(
        melee_field("strength=4 morale=2", "strength=4 morale=3"),
        10,
        &["a"],
    );
    t.script(&[3]);
    let events = t.act(UNION, retreat_d(&["0405"]));
    assert!(gate_checks(&events)[0].passed);
    t.script(&[1]);
    decline_fire(&mut t, 4);
    assert_eq!(t.hex("d"), Some(n("0405")));
    assert!(t.s.advance.is_some(), "A is offered the vacated hex");
    let events = t.act(REBEL, GbacwAction::Advance { units: ids(&["a"]) });
    assert!(gate_checks(&events).is_empty(), "no check to occupy");
    assert!(t.dice_left().is_empty());
    assert_eq!(t.hex("a"), Some(n("0404")));
}

// --- 26.13 Night ------------------------------------------------------------------

/// Corinth 26.13: "If a friendly unit begins a night Game-Turn adjacent to
/// an enemy unit, it may only move into a hex that is not adjacent to any
/// enemy units." Confederate C begins Game-Turn 17 next to Union U: a
/// move to H1 (next to U) is refused, one to H2 (next to C's hex, not to
/// any Union unit) allowed, and C need not move at all.
#[test]
fn corinth_26_13_starting_adjacent_must_break_contact() {
    let t = corinth_field_sized(10, 10)
        .turns(24)
        .scenario("night from=17 to=20 case=26.0")
        .scenario("hook night-movement case=26.1 allowance=1.5 woods=1")
        .union("infantry u strength=4 morale=4 weapon=R")
        .confederate("infantry c strength=4 morale=4 weapon=R")
        .place("u", "0504", "s", "line")
        .place("c", "0505", "n", "line")
        .build_at(17, REBEL, Phase::Movement);
    let grid = t.rs.game().map.grid.clone();
    let (c, u) = (n("0505"), n("0504"));
    assert_eq!(grid.distance(c, u), 1);
    let around: Vec<HexNumber> = grid
        .neighbours_on_map(c)
        .into_iter()
        .map(|(_, h)| h)
        .collect();
    let h1 = *around.iter().find(|h| grid.distance(**h, u) == 1).unwrap();
    let h2 = *around.iter().find(|h| grid.distance(**h, u) == 2).unwrap();
    refused_case(&t, REBEL, mv(&["c"], &[&h1.to_string()]), "26.13");
    assert!(
        t.decide(REBEL, &mv(&["c"], &[&h2.to_string()])).is_ok(),
        "to {h2}"
    );
    assert!(t.decide(REBEL, &GbacwAction::EndPhase).is_ok(), "C stays");
}

// --- 27.1, 27.2 Retreats toward one's own lines -----------------------------------

/// An 8 × 8 field whose first row is the Assault Area `zone` and whose
/// "town" is 0808 (the Union's goal), the fallback corner 0801.
fn retreat_field() -> Position {
    corinth_field()
        .map("area zone 0101 0201 0301 0401 0501 0601 0701 0801")
        .scenario(
            "hook retreat-toward case=27.0 confederate=entry-area areas=zone union=0808 union-else=0801 off-map=eliminated",
        )
}

fn goal_distance(t: &T, goal: &BTreeSet<HexNumber>, h: HexNumber) -> u32 {
    let grid = &t.rs.game().map.grid;
    goal.iter().map(|g| grid.distance(h, *g)).min().unwrap()
}

fn zone(t: &T) -> BTreeSet<HexNumber> {
    t.rs.game()
        .map
        .areas()
        .filter(|(n, _)| *n == "zone")
        .flat_map(|(_, h)| h.iter().copied())
        .collect()
}

/// Corinth 27.1: "When retreating, they should take the most direct route
/// in hexes (not Movement Points) towards the Assault Area. They may
/// deviate from the path in order to avoid Union units and ZOC's."
/// Confederate C, in by the first row, gets R2 from 0505; the hex
/// straight toward the row (H1, 0504) lies in a Union ZOC, an equally near
/// woods hex (H2, 0404 or 0604) in none: C may go by H2, the woods' cost
/// no matter; a first hex farther from the row (H3, clear) is never
/// offered.
#[test]
fn corinth_27_1_confederate_toward_entry_area_may_deviate() {
    use crate::gbacw::facing::ZocUse;
    use crate::gbacw::ruleset::board::Board;
    let (start, h1) = (n("0505"), n("0504"));
    let build = |u: &str, facing: &str| {
        let mut p = retreat_field()
            .confederate("infantry c strength=4 morale=4 weapon=R")
            .union("infantry u strength=4 morale=4 weapon=R")
            .place("c", "0505", "n", "line")
            .place("u", u, facing, "line");
        for h in ["0404", "0604"] {
            p = p.map(&format!("hex {h} woods"));
        }
        let mut t = p.build_at(10, UNION, Phase::Melee);
        t.s.entered_at.insert(id("c"), n("0501"));
        t
    };
    // Union U where its front covers H1 but leaves an equally near
    // neighbour of C's hex free (found on the field, not assumed).
    let mut found = None;
    'search: for u in ["0503", "0403", "0603", "0502", "0402", "0602"] {
        for facing in ["s", "se", "sw", "n", "ne", "nw"] {
            let t = build(u, facing);
            let goal = zone(&t);
            let grid = t.rs.game().map.grid.clone();
            let side = t.rs.game().oob.units[&id("c")].side.clone();
            let zoc = Board::new(&t.rs, &t.s).enemy_zoc(
                &side,
                ZocUse::WithdrawalAndRetreat {
                    mover_mounted: false,
                },
            );
            if zoc.contains(&start) || !zoc.contains(&h1) {
                continue;
            }
            let free: Vec<HexNumber> = grid
                .neighbours_on_map(start)
                .into_iter()
                .map(|(_, h)| h)
                .filter(|h| {
                    goal_distance(&t, &goal, *h) == goal_distance(&t, &goal, h1)
                        && *h != h1
                        && !zoc.contains(h)
                })
                .collect();
            if !free.is_empty() {
                found = Some((t, free));
                break 'search;
            }
        }
    }
    let (t, free) = found.expect("a position for the case");
    let goal = zone(&t);
    let options = retreat_options(&t.rs, &t.s, &id("c"), 2, RetreatKind::MeleeResult);
    assert!(!options.is_empty(), "a way round the ZOC");
    for p in &options {
        assert_ne!(p[0], h1, "H1 is in U's ZOC: {p:?}");
        // Never a first hex farther from the row (H3), whatever it costs.
        assert!(goal_distance(&t, &goal, p[0]) <= goal_distance(&t, &goal, start));
    }
    assert!(
        options.iter().any(|p| free.contains(&p[0])),
        "{options:?} by {free:?}"
    );
}

/// Corinth 27.2: "Union units must attempt to retreat towards Corinth. ...
/// A Union unit which is unable to retreat toward Corinth should retreat
/// towards the southeast corner of the game-map. A Union unit which is
/// forced to retreat off the map is eliminated." (a) U, R2 with the way
/// to the town open, ends two hexes nearer it; (b) V, with every hex
/// nearer the town held or in a Confederate ZOC, retreats toward the
/// corner; (c) W, in the corner with the way to the town held and nowhere
/// on the map left, is eliminated, not captured.
#[test]
fn corinth_27_2_union_toward_corinth_else_southeast() {
    let town: BTreeSet<HexNumber> = [n("0808")].into();
    let corner: BTreeSet<HexNumber> = [n("0801")].into();
    // (a)
    let t = retreat_field()
        .union("infantry u strength=4 morale=4 weapon=R")
        .place("u", "0404", "s", "line")
        .build_at(10, UNION, Phase::Melee);
    let options = retreat_options(&t.rs, &t.s, &id("u"), 2, RetreatKind::MeleeResult);
    assert!(!options.is_empty());
    for p in &options {
        assert_eq!(
            goal_distance(&t, &town, p[1]) + 2,
            goal_distance(&t, &town, n("0404")),
            "{p:?}"
        );
    }
    // (b) Confederates on every hex next to V nearer the town.
    let grid = t.rs.game().map.grid.clone();
    let v = n("0404");
    let nearer: Vec<HexNumber> = grid
        .neighbours_on_map(v)
        .into_iter()
        .map(|(_, h)| h)
        .filter(|h| goal_distance(&t, &town, *h) < goal_distance(&t, &town, v))
        .collect();
    let mut p = retreat_field()
        .union("infantry v strength=4 morale=4 weapon=R")
        .place("v", "0404", "n", "line");
    for (k, h) in nearer.iter().enumerate() {
        let c = format!("c{k}");
        p = p
            .confederate(&format!("infantry {c} strength=1 morale=4 weapon=R"))
            .place(&c, &h.to_string(), "n", "line");
    }
    let t = p.build_at(10, UNION, Phase::Melee);
    let options = retreat_options(&t.rs, &t.s, &id("v"), 2, RetreatKind::MeleeResult);
    assert!(!options.is_empty(), "toward the corner");
    for p in &options {
        assert!(
            goal_distance(&t, &corner, p[1]) < goal_distance(&t, &corner, v),
            "{p:?}"
        );
    }
    // (c) W in the corner (its fallback), the way toward the town held by
    // Confederates: only off-map hexes are left: eliminated.
    let w = n("0801");
    let mut p = retreat_field()
        .union("infantry w strength=4 morale=4 weapon=R")
        .place("w", "0801", "n", "line");
    for (k, (_, h)) in grid.neighbours_on_map(w).into_iter().enumerate() {
        let c = format!("x{k}");
        p = p
            .confederate(&format!("infantry {c} strength=1 morale=4 weapon=R"))
            .place(&c, &h.to_string(), "n", "line");
    }
    let mut t = p.build_at(10, UNION, Phase::Melee);
    let events = melee_r(&mut t, "w", 2);
    assert!(
        events.contains(&GbacwEvent::UnitRemoved {
            unit: id("w"),
            captured: false
        }),
        "{events:?}"
    );
}

/// `unit` retreats `hexes` (a melee R result) by the engine's own retreat;
/// the events.
fn melee_r(t: &mut T, unit: &str, hexes: usize) -> Vec<GbacwEvent> {
    use crate::gbacw::ruleset::combat::{Roller, Unfold, effects::retreat};
    let mut dice = crate::engine::Dice::none();
    let mut u = Unfold::new(&t.s);
    let mut roll = Roller::new(&mut dice);
    retreat(
        &t.rs,
        &mut u,
        &mut roll,
        &id(unit),
        hexes,
        RetreatKind::MeleeResult,
    );
    roll.finish().unwrap();
    for e in &u.events {
        t.rs.evolve(&mut t.s, e);
    }
    u.events
}

// --- 28.1, 28.2 Army and division commanders ---------------------------------------

/// A Union army commander R (2 CP) at 0101, division commanders Davies
/// (1 CP) and Hamilton (2 CP) under him, Oglesby (ER 3) of Davies' and
/// Buford (ER 4) of Hamilton's, each with a regiment; Game-Turn 10, the
/// Union Initial Command Phase.
fn army_field(oglesby: &str, buford: &str, davies: &str) -> T {
    corinth_field()
        .scenario("hook army-brigade-points case=28.11 within=3")
        .union("army r cp=2 rank=mg")
        .union("division davies army=r dir=0 cp=1 rank=bg")
        .union("division hamilton army=r dir=0 cp=2 rank=bg")
        .union("brigade oglesby division=davies er=3 rally=1 rank=bg")
        .union("brigade buford division=hamilton er=4 rally=2 rank=bg")
        .union("infantry o1 brigade=oglesby strength=4 morale=4 weapon=R")
        .union("infantry b1 brigade=buford strength=4 morale=4 weapon=R")
        .leader("r", "0101")
        .leader("hamilton", "0601")
        .leader("davies", davies)
        .leader("oglesby", oglesby)
        .place("o1", oglesby, "s", "line")
        .leader("buford", buford)
        .place("b1", buford, "s", "line")
        .build_at(10, UNION, Phase::InitialCommand)
}

/// Corinth 28.11: "These points may be spent to increase the Effectiveness
/// Radius of *any* brigade commander on the same side (Union or
/// Confederate) which is within three hexes of the army commander during
/// the friendly Initial Command Phase". R, 3 hexes from Oglesby (Davies'
/// division) and 4 from Buford: 2 CP on Oglesby are allowed; a point on
/// Buford is refused.
#[test]
fn corinth_28_11_army_commander_cp_within_three() {
    let mut t = army_field("0104", "0105", "0808");
    let grid = t.rs.game().map.grid.clone();
    assert_eq!(grid.distance(n("0101"), n("0104")), 3);
    assert_eq!(grid.distance(n("0101"), n("0105")), 4);
    assert!(
        t.decide(UNION, &spend("r", "buford", 1)).is_err(),
        "4 hexes"
    );
    t.ok(UNION, spend("r", "oglesby", 2));
    assert!(t.decide(UNION, &spend("r", "buford", 1)).is_err());
}

/// Corinth 28.11: "which is within three hexes of the army commander".
/// Exactly 4 hexes away, with CP to spend: refused.
#[test]
fn corinth_28_11_four_hexes_refused() {
    let t = army_field("0808", "0105", "0707");
    assert_eq!(t.rs.game().map.grid.distance(n("0101"), n("0105")), 4);
    assert!(t.decide(UNION, &spend("r", "buford", 1)).is_err());
}

/// Corinth 28.11 with GBACW 17.22: "A brigade commander may have his
/// Effectiveness Radius increased by only one commander at a time." Davies
/// spends a point on Oglesby (within 3 of R); R's point on Oglesby is then
/// refused.
#[test]
fn corinth_28_11_only_one_augmenting_commander() {
    let mut t = army_field("0103", "0808", "0104");
    t.ok(UNION, spend("davies", "oglesby", 1));
    assert!(t.decide(UNION, &spend("r", "oglesby", 1)).is_err());
}

/// Corinth 28.21: "they may only have their Effectiveness Radii increased
/// by their army or division commander (not by a division commander of
/// another division)." Davies next to Buford (Hamilton's) and to Oglesby
/// (his own): the point on Buford is refused, the one on Oglesby allowed.
#[test]
fn corinth_28_2_division_cp_only_own_division() {
    let mut t = army_field("0403", "0405", "0404");
    let grid = t.rs.game().map.grid.clone();
    assert_eq!(grid.distance(n("0404"), n("0403")), 1);
    assert_eq!(grid.distance(n("0404"), n("0405")), 1);
    assert!(t.decide(UNION, &spend("davies", "buford", 1)).is_err());
    t.ok(UNION, spend("davies", "oglesby", 1));
}

// --- 26.2 Straggler recovery ---------------------------------------------------------

/// A night field (Game-Turns 17–20, Corinth's 26.1 and 26.2 hooks), built
/// at `phase` of `seat`'s Player-Turn of `turn`; `lines`: the counters
/// (all Union) and where they stand.
fn straggler_field(lines: &[(&str, &str)], turn: u16, seat: SeatId, phase: Phase) -> T {
    let mut p = corinth_field_sized(10, 10)
        .turns(24)
        .scenario("night from=17 to=20 case=26.0")
        .scenario("hook night-movement case=26.1 allowance=1.5 woods=1")
        .scenario("hook straggler-recovery case=26.2 roll=5 day1-bce=1");
    for (line, hex) in lines {
        let unit = line.split_whitespace().nth(1).unwrap();
        let formation = if line.starts_with("battery") {
            "unlimbered"
        } else {
            "line"
        };
        p = p.union(line).place(unit, hex, "n", formation);
    }
    p.build_at(turn, seat, phase)
}

/// `unit` has lost `killed` Strength Points killed and `captured` captured.
fn losses(t: &mut T, unit: &str, killed: u8, captured: u8) {
    let printed = t.rs.game().oob.units[&id(unit)].strength;
    let u = t.s.units.get_mut(&id(unit)).unwrap();
    u.status.strength = printed - killed - captured;
    u.killed = killed;
    u.captured = captured;
}

/// End the night Game-Turn (its last phase) with `dice` scripted; the
/// straggler rolls made.
fn end_night(
    t: &mut T,
    dice: &[u16],
) -> Vec<crate::gbacw::ruleset::corinth::stragglers::StragglerRoll> {
    t.advance_to(REBEL, Phase::FinalCommand);
    t.script(dice);
    let events = t.act(REBEL, GbacwAction::EndPhase);
    straggler_rolls(&events)
}

/// Corinth 26.21, 26.22, 26.24: "Infantry and cavalry regiments which have
/// suffered more than one Strength Point loss, but have not been
/// eliminated completely, may regain Strength Points during a night
/// Game-Turn." / "on a result of 5 or 6 that regiment has recovered one
/// Strength Point" / "one box on the BCE column of that regiment's brigade
/// is erased." 27 Ohio (4, now 2), still and silent on Game-Turn 17,
/// rolls 5: 3 Strength Points, one loss fewer on its brigade's column.
#[test]
fn corinth_26_21_straggler_recovery_basic() {
    let mut t = straggler_field(
        &[
            ("brigade x indpnt er=5 rally=1 bce=7/16 bce-vp=1", "0808"),
            (
                "infantry ohio-27 brigade=x strength=4 morale=4 weapon=R",
                "0505",
            ),
        ],
        17,
        UNION,
        Phase::InitialCommand,
    );
    losses(&mut t, "ohio-27", 2, 0);
    let rolls = end_night(&mut t, &[5]);
    assert_eq!(rolls.len(), 1, "{rolls:?}");
    assert_eq!((rolls[0].die, rolls[0].recovered), (5, true));
    assert_eq!(t.s.units[&id("ohio-27")].status.strength, 3);
    assert_eq!(t.s.units[&id("ohio-27")].killed, 1, "one box erased");
}

/// Corinth 26.21, 26.26: "which have suffered more than one Strength
/// Point loss" / "To be eligible, a regiment may not move ... during a
/// night Game-Turn" / "a unit which has suffered one loss will always
/// have at least one loss". A (one loss, still), B (three lost, moved a
/// hex this night turn) and D (two lost, one recovered on Game-Turn 17:
/// a net loss of one) roll nothing on Game-Turn 18.
#[test]
fn corinth_26_21_one_loss_or_moved_ineligible() {
    let mut t = straggler_field(
        &[
            ("infantry a strength=4 morale=4 weapon=R", "0202"),
            ("infantry b strength=4 morale=4 weapon=R", "0505"),
            ("infantry d strength=4 morale=4 weapon=R", "0808"),
        ],
        18,
        UNION,
        Phase::Movement,
    );
    losses(&mut t, "a", 1, 0);
    losses(&mut t, "b", 3, 0);
    losses(&mut t, "d", 1, 0);
    t.ok(UNION, mv(&["b"], &["0506"]));
    let rolls = end_night(&mut t, &[6, 6, 6]);
    assert!(rolls.is_empty(), "{rolls:?}");
    assert_eq!(t.s.units[&id("a")].status.strength, 3);
    assert_eq!(t.s.units[&id("b")].status.strength, 1);
    assert_eq!(t.s.units[&id("d")].status.strength, 3);
}

/// Corinth 26.25: "Independent units which recover stragglers have their
/// losses reduced on their OB Roster by erasing a box with a kill result
/// (not a box with a capture result)." The independent 64 Ill SS, one
/// point killed and one captured, rolls 6: it gains the point, the kill
/// box erased, the capture box kept.
#[test]
fn corinth_26_25_independent_erases_kill_not_capture() {
    let mut t = straggler_field(
        &[("infantry ill-64-ss strength=4 morale=4 weapon=R", "0505")],
        19,
        UNION,
        Phase::InitialCommand,
    );
    losses(&mut t, "ill-64-ss", 1, 1);
    let rolls = end_night(&mut t, &[6]);
    assert_eq!(rolls.len(), 1, "{rolls:?}");
    assert!(rolls[0].recovered);
    let u = &t.s.units[&id("ill-64-ss")];
    assert_eq!((u.status.strength, u.killed, u.captured), (3, 0, 1));
}

/// Corinth 26.27: "Batteries may never recover guns or crews, nor may
/// wagon crews be recovered." 8 Wisc, two guns lost, still on Game-Turn
/// 17: no roll, no gun back.
#[test]
fn corinth_26_27_no_guns_or_crews_recovered() {
    let mut t = straggler_field(
        &[("battery wisc-8 weapon=N guns=6 rounds=20 morale=4", "0505")],
        17,
        UNION,
        Phase::InitialCommand,
    );
    losses(&mut t, "wisc-8", 2, 0);
    let rolls = end_night(&mut t, &[6]);
    assert!(rolls.is_empty(), "{rolls:?}");
    assert_eq!(t.s.units[&id("wisc-8")].status.strength, 4);
}

/// Corinth 26.23: "A 1 is subtracted from the straggler recovery die-roll
/// result if that unit's brigade has reached BCE on the first day." Two
/// eligible regiments of brigade X, which reached its limit (4) on
/// Game-Turn 16, roll 5 and 6 on Game-Turn 17: 4, nothing; 5, a point
/// back.
#[test]
fn corinth_26_23_bce_brigade_minus_one() {
    let mut t = corinth_field_sized(10, 10)
        .turns(24)
        .scenario("night from=17 to=20 case=26.0")
        .scenario("hook night-movement case=26.1 allowance=1.5 woods=1")
        .scenario("hook straggler-recovery case=26.2 roll=5 day1-bce=1")
        .scenario("hook bce-loss case=25.0 morale=25.11 no-melee=25.12 rally=25.13 fire=25.14 brigade-retreat=25.2")
        .union("brigade x indpnt er=5 rally=1 bce=4/16 bce-vp=1")
        .union("infantry r1 brigade=x strength=4 morale=4 weapon=R")
        .union("infantry r2 brigade=x strength=4 morale=4 weapon=R")
        .leader("x", "0505")
        .place("r1", "0505", "n", "line")
        .place("r2", "0606", "n", "line")
        .build_at(16, UNION, Phase::InitialCommand);
    for r in ["r1", "r2"] {
        let e = GbacwEvent::UnitHit {
            unit: id(r),
            points: 2,
        };
        t.rs.evolve(&mut t.s, &e);
    }
    assert!(t.rs.brigade_at_bce_limit(&t.s, &id("x")));
    // Reached on Game-Turn 16 (the record a loss in play keeps; these
    // hits were folded in without one).
    t.s.night.bce_lost_on.insert(id("x"), 16);
    t.advance_to_turn(17, UNION, Phase::InitialCommand);
    let rolls = end_night(&mut t, &[5, 6]);
    assert_eq!(rolls.len(), 2, "{rolls:?}");
    assert_eq!(
        rolls
            .iter()
            .map(|r| (r.die, r.modifier, r.recovered))
            .collect::<Vec<_>>(),
        vec![(5, -1, false), (6, -1, true)]
    );
}

// --- 29.2 Confederate assault planning --------------------------------------------

/// The Free Set-Up's plot of `divisions` (division, area letter,
/// Game-Turn), Hoxton, Sengstak, Price and Van Dorn with `attached`, the
/// cavalry through the first division's area; announcing the first.
fn plot(divisions: &[(&str, &str, u16)], attached: &str) -> GbacwAction {
    use crate::gbacw::testkit::corinth::{assault_plan, division};
    let plan = assault_plan(
        divisions
            .iter()
            .map(|(d, a, turn)| division(d, &format!("assault-{a}"), *turn))
            .collect(),
        attached,
        &format!("assault-{}", divisions[0].1),
    );
    GbacwAction::PlotAssault {
        plan,
        salt: [5; 32],
        announce: id(divisions[0].0),
    }
}

fn free() -> T {
    T::battle("corinth_free")
}

/// Corinth 29.21: "At least one division *must* be scheduled to arrive on
/// Game-Turn 1. All divisions may be brought in on the first Game-Turn,
/// but if any are held back, Lovell's division must be one of those in
/// reserve. ... In addition, divisions arriving in the same turn may not
/// use the same Assault Area."
#[test]
fn corinth_29_21_lovell_must_be_held_back() {
    let t = free();
    // (a) all three on Game-Turn 1, three areas: legal.
    let a = plot(
        &[("hebert", "b", 1), ("maury", "c", 1), ("lovell", "d", 1)],
        "hebert",
    );
    assert!(t.decide(REBEL, &a).is_ok(), "(a)");
    // (b) Maury held back, Lovell not: refused.
    let b = plot(
        &[("lovell", "a", 1), ("hebert", "c", 1), ("maury", "b", 3)],
        "hebert",
    );
    assert!(t.decide(REBEL, &b).is_err(), "(b)");
    // (c) two divisions, one turn, one area: refused.
    let c = plot(
        &[("hebert", "c", 1), ("maury", "c", 1), ("lovell", "e", 4)],
        "hebert",
    );
    assert!(t.decide(REBEL, &c).is_err(), "(c)");
    // (d) none on Game-Turn 1: refused.
    let d = plot(
        &[("hebert", "a", 2), ("maury", "b", 2), ("lovell", "c", 3)],
        "hebert",
    );
    assert!(t.decide(REBEL, &d).is_err(), "(d)");
    // (e) Maury on 1, Hebert and Lovell held back to 2: legal.
    let e = plot(
        &[("maury", "d", 1), ("hebert", "b", 2), ("lovell", "e", 2)],
        "hebert",
    );
    assert!(t.decide(REBEL, &e).is_ok(), "(e)");
}

/// Corinth 29.22: "Assault Area F may not be used until Game-Turn 3; Area
/// G may not be used until Game-Turn 5."
#[test]
fn corinth_29_22_area_f_from_gt3_g_from_gt5() {
    let t = free();
    for (area, turn, legal) in [
        ("f", 2, false),
        ("f", 3, true),
        ("g", 4, false),
        ("g", 5, true),
    ] {
        let a = plot(
            &[
                ("hebert", "a", 1),
                ("maury", "b", 1),
                ("lovell", area, turn),
            ],
            "hebert",
        );
        assert_eq!(t.decide(REBEL, &a).is_ok(), legal, "Area {area} on {turn}");
    }
}

/// Corinth 29.24: "All Confederate divisions must enter play by Game-Turn
/// 8 at the latest".
#[test]
fn corinth_29_24_all_divisions_by_gt8() {
    let t = free();
    for (turn, legal) in [(8, true), (9, false)] {
        let a = plot(
            &[("hebert", "a", 1), ("maury", "b", 1), ("lovell", "c", turn)],
            "hebert",
        );
        assert_eq!(t.decide(REBEL, &a).is_ok(), legal, "Lovell on {turn}");
    }
}

/// Corinth 29.26: "Hoxton's Battery, Sengstak's Battery, and Generals
/// Price and Van Dorn must be assigned to either Hebert's or Maury's
/// division." Van Dorn with Lovell: refused; Sengstak with Maury: allowed.
#[test]
fn corinth_29_26_price_van_dorn_not_with_lovell() {
    let t = free();
    let divisions = [("hebert", "a", 1), ("maury", "b", 1), ("lovell", "c", 3)];
    let with = |counter: &str, d: &str| {
        let mut a = plot(&divisions, "hebert");
        if let GbacwAction::PlotAssault { plan, .. } = &mut a {
            plan.attached.insert(id(counter), id(d));
        }
        a
    };
    assert!(t.decide(REBEL, &with("van-dorn", "lovell")).is_err());
    assert!(t.decide(REBEL, &with("sengstak", "maury")).is_ok());
}

// --- 30.0, 30.3 The Historical Scenario -------------------------------------------

/// The Historical Scenario at `phase` of `seat`'s Player-Turn of `turn`.
fn historical(turn: u16, seat: SeatId, phase: Phase) -> T {
    let mut t = crate::gbacw::testkit::corinth::corinth_started();
    t.advance_to_turn(turn, seat, phase);
    t
}

/// Corinth 30.0: "the only thing the Union player may do during his
/// Player-Turn is bring in the reinforcements he receives on Game-Turn 2
/// (Oliver's brigade, the 18th Missouri and the Union Brigade). The game
/// then proceeds to Game-Turn 3". (a) Oliver's regiment enters by 0104;
/// (b) a regiment of Davies' division moving a hex is refused; (c) a
/// redan battery may not fire; the next Player-Turn is the Confederates'
/// of Game-Turn 3.
#[test]
fn corinth_30_0_union_gt2_only_reinforcements() {
    let t = historical(2, UNION, Phase::Movement);
    // (a)
    assert!(
        t.decide(UNION, &arrive("15-mich", "0104")).is_ok(),
        "Oliver's regiment enters"
    );
    // (b) 22 Ohio is Davies' (30.12, at 2636).
    let from = t.hex("22-ohio").expect("22 Ohio set up");
    let grid = t.rs.game().map.grid.clone();
    let to = grid
        .neighbours_on_map(from)
        .into_iter()
        .map(|(_, h)| h)
        .find(|h| t.s.units.values().all(|u| u.hex != Some(*h)))
        .unwrap();
    assert!(
        t.decide(UNION, &mv(&["22-ohio"], &[&to.to_string()]))
            .is_err()
    );
    // (c) no Union fire on Game-Turn 2: a redan battery, at any target.
    let mut t = historical(2, UNION, Phase::OffensiveFire);
    let battery =
        t.s.units
            .iter()
            .find(|(u, s)| {
                s.hex.is_some()
                    && t.rs.game().oob.units[*u].side.0 == "union"
                    && matches!(
                        t.rs.game().oob.units[*u].kind,
                        crate::gbacw::oob::UnitKind::Battery { .. }
                    )
            })
            .map(|(u, _)| u.clone())
            .unwrap();
    let at = t.s.units[&battery].hex.unwrap();
    let target = grid
        .neighbours_on_map(at)
        .into_iter()
        .map(|(_, h)| h)
        .find(|h| t.s.units.values().all(|u| u.hex != Some(*h)))
        .unwrap();
    t.s.units.get_mut(&id("9-ark")).unwrap().hex = Some(target);
    t.s.progress.to_arrive.remove(&id("9-ark"));
    let guns = t.s.units[&battery].status.strength;
    assert!(
        t.decide(
            UNION,
            &fire(&target.to_string(), &[(battery.0.as_str(), guns)])
        )
        .is_err(),
        "{battery} may not fire on Game-Turn 2"
    );
    // Then the Confederate Player-Turn of Game-Turn 3.
    t.advance_to(UNION, Phase::FinalCommand);
    t.ok(UNION, GbacwAction::EndPhase);
    assert_eq!(t.s.clock.turn, 3);
    assert_eq!(t.rs.phasing_side(t.s.clock), Some(&id("confederate")));
}

/// Corinth 30.34, 30.35: "On Game-Turn 6, the Union player may attempt to
/// commit two of his four "units" in reserve during the Union Initial
/// Command Phase. ... To commit Hamilton's division, the player must roll
/// a 1 or 2; to commit Stanley's division, Crocker's brigade or Mizner's
/// cavalry division, the player must roll a 1. A commitment roll may only
/// be made once per Game-Turn for each "unit" although any two may be
/// rolled for." / "On Game-Turn 15 all uncommitted units are automatically
/// committed (if the Union player so desires)." (a) Game-Turn 5: refused;
/// (b) Game-Turn 6: Hamilton 2 committed, Stanley 2 not, a third roll
/// refused; (c) Game-Turn 15: the rest without a roll.
#[test]
fn corinth_30_34_commit_rolls() {
    let commit = |r: &str| GbacwAction::CommitReserve { reserve: id(r) };
    // (a)
    let t = historical(5, UNION, Phase::InitialCommand);
    assert!(t.decide(UNION, &commit("hamilton")).is_err());
    // (b)
    let mut t = historical(6, UNION, Phase::InitialCommand);
    t.script(&[2]);
    t.act(UNION, commit("hamilton"));
    t.script(&[2]);
    t.act(UNION, commit("stanley"));
    assert!(t.dice_left().is_empty());
    assert!(t.s.progress.committed.contains(&id("hamilton")));
    assert!(!t.s.progress.committed.contains(&id("stanley")));
    assert!(t.decide(UNION, &commit("crocker")).is_err(), "two a turn");
    // (c)
    t.advance_to_turn(15, UNION, Phase::InitialCommand);
    for r in ["stanley", "crocker", "mizner"] {
        if t.s.progress.committed.contains(&id(r)) {
            continue;
        }
        let ctx = crate::engine::ActionContext {
            seat: UNION,
            seq: 1,
            by_default: false,
        };
        assert!(!t.rs.rolls_dice(&t.s, &ctx, &commit(r)), "{r}: no roll");
        t.ok(UNION, commit(r));
        assert!(t.s.progress.committed.contains(&id(r)));
    }
}

// --- 26.4 Pre-Dawn Barrage ----------------------------------------------------------

/// Corinth 26.41: "If the Confederate player does not initiate the
/// barrage, the Union player may not fire his batteries." The
/// Confederates finish the barrage without a shot: no Union barrage fire
/// is allowed, and the interphase is over.
#[test]
fn corinth_26_41_no_confederate_barrage_no_union_barrage() {
    let (mut t, _) = crate::gbacw::testkit::corinth::barrage_on_21_mo();
    t.ok(REBEL, GbacwAction::EndBarrage);
    // Any Union battery at 21 Mo's neighbour's Confederate: none may fire.
    let target = t.hex("bryan").unwrap();
    for (u, s) in &t.s.units {
        if s.hex.is_some()
            && t.rs.game().oob.units[u].side.0 == "union"
            && matches!(
                t.rs.game().oob.units[u].kind,
                crate::gbacw::oob::UnitKind::Battery { .. }
            )
        {
            let a = GbacwAction::BarrageFire {
                target,
                firers: vec![u.clone()],
            };
            assert!(t.decide(UNION, &a).is_err(), "{u} may not fire");
        }
    }
    assert!(t.s.night.barrage.is_none(), "the interphase has ended");
}

fn barrage_roll(events: &[GbacwEvent]) -> crate::gbacw::ruleset::corinth::barrage::BarrageRoll {
    events
        .iter()
        .find_map(|e| match e {
            GbacwEvent::BarrageRolled(r) => Some(r.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no barrage roll: {events:?}"))
}

/// Corinth 26.42, 26.45: "no battery may fire at a Union unit at 9 hexes
/// or greater. When resolving the attack, subtract a 1 from the die-roll
/// (in addition to any normal adjustments). An adjusted die-roll of 0 has
/// no effect." / "Pre-Dawn Barrage results which call for gun or Strength
/// Point losses are treated as "pin" results". Bryan's battery at 21 Mo:
/// (a) a 6 is read as 5, and a loss it calls for is a pin, no point lost;
/// (c) a 1 is 0: no effect; (b) at 9 hexes, refused; (d) an infantry
/// regiment may not fire.
#[test]
fn corinth_26_42_barrage_range_and_die_minus_one() {
    use crate::gbacw::testkit::corinth::{barrage_on_21_mo, bryan_fires};
    // (a)
    let (mut t, _) = barrage_on_21_mo();
    let target = t.hex("21-mo").unwrap();
    let before = t.s.units[&id("21-mo")].status.strength;
    t.script(&[6]);
    let events = t.act(REBEL, bryan_fires(target));
    let r = barrage_roll(&events);
    assert_eq!((r.die, r.modified), (6, 5), "6 less 1");
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, GbacwEvent::UnitHit { .. })),
        "a loss is a pin: {events:?}"
    );
    assert_eq!(t.s.units[&id("21-mo")].status.strength, before, "no loss");
    // (c)
    let (mut t, _) = barrage_on_21_mo();
    t.script(&[1]);
    let events = t.act(REBEL, bryan_fires(target));
    let r = barrage_roll(&events);
    assert_eq!((r.die, r.modified), (1, 0));
    assert!(!marked(&t, "21-mo", Marker::Pin), "0: no effect");
    assert_eq!(t.s.units[&id("21-mo")].status.strength, before);
    // (b) 21 Mo moved 9 hexes from Bryan (clear of other units).
    let (mut t, at) = barrage_on_21_mo();
    let grid = t.rs.game().map.grid.clone();
    let far =
        t.rs.game()
            .map
            .hexes()
            .map(|(h, _)| h)
            .find(|h| grid.distance(*h, at) == 9 && t.s.units.values().all(|u| u.hex != Some(*h)))
            .unwrap();
    t.put("21-mo", &far.to_string(), "n", Formation::Line);
    assert!(t.decide(REBEL, &bryan_fires(far)).is_err(), "9 hexes");
    // (d) only batteries: a Confederate regiment next to 21 Mo.
    let (mut t, _) = barrage_on_21_mo();
    let next = grid
        .neighbours_on_map(target)
        .into_iter()
        .map(|(_, h)| h)
        .find(|h| t.s.units.values().all(|u| u.hex != Some(*h)))
        .unwrap();
    t.put("18-ark", &next.to_string(), "n", Formation::Line);
    t.face_towards("18-ark", &target.to_string());
    let a = GbacwAction::BarrageFire {
        target,
        firers: ids(&["18-ark"]),
    };
    assert!(t.decide(REBEL, &a).is_err(), "a regiment may not fire");
}

/// Confederate mounted cavalry C (0403, facing south) next to the Union
/// `defender` line's counter D (0404) in `formation`, with `extra` lines;
/// C charges D in the Confederate Retreat Before Melee Phase of
/// Game-Turn 10.
fn charged(defender: &str, formation: &str, extra: &[&str]) -> T {
    charged_reading(defender, formation, extra, None)
}

/// [`charged`] at a table playing the named `reading`.
fn charged_reading(defender: &str, formation: &str, extra: &[&str], reading: Option<&str>) -> T {
    let mut p =
        corinth_field().confederate("cavalry c strength=3 morale=2 mounted-morale=4 weapon=C");
    if let Some(r) = reading {
        p = p.reading_001(r);
    }
    for l in extra {
        p = p.union(l);
    }
    p = p
        .union(defender)
        .place("c", "0403", "s", "mounted")
        .place("d", "0404", "n", formation);
    if !extra.is_empty() {
        p = p.leader("l", "0404");
    }
    let mut t = p.build_at(10, REBEL, Phase::RetreatBeforeMelee);
    t.ok(
        REBEL,
        GbacwAction::DeclareCharge {
            target: n("0404"),
            attackers: ids(&["c"]),
        },
    );
    t
}

/// Corinth 22.32: "Units being charged by mounted cavalry may not retreat
/// before melee (except mounted cavalry)." Union infantry D (morale 5),
/// with its brigade commander, charged by C: its retreat before melee is
/// refused, citing 22.32; the leader does not help.
#[test]
fn corinth_22_32_charged_infantry_cannot_retreat() {
    let t = charged(
        "infantry d brigade=l strength=4 morale=5 weapon=R",
        "line",
        &["brigade l indpnt er=3 rally=1"],
    );
    // The Standard rule 22.32 restates (GBACW 16.26) names the reason.
    let e = t.decide(UNION, &retreat_d(&["0405"])).expect_err("22.32");
    assert_eq!(e.rule, "GBACW 16.26", "{e}");
}

/// Corinth 22.32: "Mounted cavalry which are charged by enemy mounted
/// cavalry must make a Morale Check to see whether or not they may
/// retreat." Union mounted cavalry M (printed morale 3, no leader)
/// charged by C: (a) a 3 lets it retreat; (b) a 4 holds it to be charged.
///
/// Two readings, made the named option `mounted-always-enfiladed`: this
/// case is the default's, 22.1's "(i.e., an attacking unit(s) occupies the
/// enfilade hex(es) of the defending unit)" with GBACW 7.0's "Mounted
/// cavalry have one frontal hexside": C, in M's frontal hex, does not
/// enfilade it (see `corinth_22_1_mounted_always_enfiladed_reading` for
/// the other). See docs/second-reading/results-tcor.md.
#[test]
fn corinth_22_32_mounted_charged_by_mounted_must_check() {
    for (die, goes) in [(3, true), (4, false)] {
        let mut t = charged(
            "cavalry d strength=3 morale=2 mounted-morale=3 weapon=C",
            "mounted",
            &[],
        );
        // The die, then 12.83's check at the end of a retreat (1: holds).
        t.script(&[die, 1]);
        let events = t.act(UNION, retreat_d(&["0405"]));
        let c = gate_checks(&events);
        assert_eq!(c.len(), 1, "one check: {events:?}");
        assert_eq!(
            (c[0].die, c[0].rating, c[0].passed),
            (die as u8, 3, goes),
            "{:?}",
            c[0]
        );
        decline_fire(&mut t, 4);
        assert_eq!(t.hex("d") != Some(n("0404")), goes, "die {die}");
    }
}

/// Corinth 22.1 under the option `mounted-always-enfiladed`: GBACW 7.0
/// "Infantry in Column, supply wagons, mounted cavalry, and limbered
/// artillery are always considered *enfiladed* whenever fired upon
/// regardless of the direction of the fire" and 16.35 "Mounted cavalry
/// units are *always* enfiladed when fired upon", read into 22.1's "+1 if
/// the checking unit is enfiladed": M (morale 3) charged from its front
/// fails on a 3 (3 + 1 > 3) and stays to be charged; a 2 passes.
#[test]
fn corinth_22_1_mounted_always_enfiladed_reading() {
    for (die, goes) in [(2, true), (3, false)] {
        let mut t = charged_reading(
            "cavalry d strength=3 morale=2 mounted-morale=3 weapon=C",
            "mounted",
            &[],
            Some("mounted-always-enfiladed"),
        );
        assert!(t.rs.options.mounted_always_enfiladed);
        t.script(&[die, 1]);
        let events = t.act(UNION, retreat_d(&["0405"]));
        let c = gate_checks(&events);
        assert_eq!(c.len(), 1, "one check: {events:?}");
        assert_eq!(
            (c[0].die, c[0].rating, c[0].passed),
            (die as u8, 3, goes),
            "{:?}",
            c[0]
        );
        decline_fire(&mut t, 4);
        assert_eq!(t.hex("d") != Some(n("0404")), goes, "die {die}");
    }
}

/// Corinth 22.1, the default reading: an attacker in any hex but mounted
/// cavalry's one frontal hex (GBACW 7.0) occupies an enfilade hex of it.
/// C charging M from M's rear flank: +1, M (morale 3) fails on a 3.
#[test]
fn corinth_22_1_mounted_enfiladed_from_a_flank_by_default() {
    let mut t = charged(
        "cavalry d strength=3 morale=2 mounted-morale=3 weapon=C",
        "mounted",
        &[],
    );
    // D faces south: C, in 0403 to its north, is behind it.
    t.s.units.get_mut(&id("d")).unwrap().facing = dir("s");
    t.script(&[3, 1]);
    let events = t.act(UNION, retreat_d(&["0405"]));
    let c = gate_checks(&events);
    assert_eq!(c.len(), 1, "one check: {events:?}");
    assert_eq!((c[0].die, c[0].passed), (3, false), "{:?}", c[0]);
}

// --- 28.3 Leader replacement --------------------------------------------------------

/// A Union army commander R, division commander V (2 CP) under him, and
/// V's brigade commanders B1 (Brigadier General, ER 3) and B2 (Colonel,
/// ER 4), each with a regiment; Corinth's 28.3 hooks. Game-Turn 10, the
/// Union Final Command Phase.
fn succession_field() -> T {
    corinth_field()
        .scenario("hook army-brigade-points case=28.11 within=3")
        .scenario("hook army-not-replaced case=28.31")
        .scenario("hook promotion-by-rank case=28.32 cp=1")
        .union("army r cp=2 rank=mg")
        .union("division v army=r dir=0 cp=2 rank=bg")
        .union("brigade b1 division=v er=3 rally=1 repl=2/1 rank=bg")
        .union("brigade b2 division=v er=4 rally=1 repl=2/1 rank=col")
        .union("infantry i1 brigade=b1 strength=4 morale=4 weapon=R")
        .union("infantry i2 brigade=b2 strength=4 morale=4 weapon=R")
        .leader("r", "0606")
        .leader("v", "0404")
        .leader("b1", "0403")
        .place("i1", "0403", "n", "line")
        .leader("b2", "0405")
        .place("i2", "0405", "n", "line")
        .build_at(10, UNION, Phase::FinalCommand)
}

/// Corinth 28.31: "The three army commanders (Van Dorn, Price and
/// Rosecrans) are not replaced if killed." R killed: after the Final
/// Command Phase no counter has taken his place.
#[test]
fn corinth_28_31_army_commander_not_replaced() {
    let mut t = succession_field();
    lost(&mut t, "r", crate::gbacw::ruleset::state::Casualty::Killed);
    let leaders_before: Vec<CounterId> =
        t.s.leaders
            .iter()
            .filter(|(_, l)| l.hex.is_some())
            .map(|(c, _)| c.clone())
            .collect();
    t.ok(UNION, GbacwAction::EndPhase);
    assert_eq!(t.hex("r"), None);
    assert!(!t.s.succession.promoted.contains_key(&id("r")));
    let on_map: Vec<CounterId> =
        t.s.leaders
            .iter()
            .filter(|(_, l)| l.hex.is_some())
            .map(|(c, _)| c.clone())
            .collect();
    assert_eq!(on_map, leaders_before, "no one stands in for R");
}

/// Corinth 28.32: "A division commander who becomes a casualty is
/// replaced by the brigade commander in this division with the highest
/// rank ... The new division commander has one Command Point (regardless
/// of his brigade values)." V wounded: B1 (the general, though B2's ER is
/// larger) is promoted at the end of the Final Command Phase and spends
/// his one point in the next Initial Command Phase; a second is refused.
#[test]
fn corinth_28_32_promoted_division_commander_has_one_cp() {
    let mut t = succession_field();
    lost(&mut t, "v", crate::gbacw::ruleset::state::Casualty::Wounded);
    t.ok(UNION, GbacwAction::EndPhase);
    assert_eq!(t.s.succession.promoted.get(&id("v")), Some(&id("b1")));
    t.advance_to_turn(11, UNION, Phase::InitialCommand);
    t.ok(UNION, spend("b1", "b2", 1));
    assert!(t.decide(UNION, &spend("b1", "b2", 1)).is_err(), "one CP");
}

// --- 29.61 Confederate assault impetus ------------------------------------------------

/// Union R1 (brigade B1, its commander in radius), R2 (brigade B2, with
/// division commander V stacked on it), R3 (brigade B3, its commander far
/// off, army commander A stacked on it), all routed; Confederate C1
/// (brigade CB, in radius) routed too. The Rally Phase of `seat`'s
/// Player-Turn of `turn`, with Corinth's 29.61 hook.
fn impetus_field(turn: u16, seat: SeatId) -> T {
    let mut t = corinth_field_sized(12, 12)
        .scenario("hook assault-impetus case=29.61 side=union until=5")
        .union("army a cp=2 rank=mg")
        .union("division v army=a dir=0 cp=2 rank=bg")
        .union("brigade b1 division=v er=3 rally=1 rank=bg")
        .union("brigade b2 division=v er=3 rally=1 rank=bg")
        .union("brigade b3 division=v er=3 rally=1 rank=bg")
        .union("infantry r1 brigade=b1 strength=4 morale=3 weapon=R")
        .union("infantry r2 brigade=b2 strength=4 morale=3 weapon=R")
        .union("infantry r3 brigade=b3 strength=4 morale=1 weapon=R")
        .confederate("brigade cb indpnt er=3 rally=1")
        .confederate("infantry c1 brigade=cb strength=4 morale=3 weapon=R")
        .place("r1", "0202", "n", "line")
        .leader("b1", "0203")
        .place("r2", "0602", "n", "line")
        .leader("v", "0602")
        .leader("b2", "0603")
        .place("r3", "1002", "n", "line")
        .leader("a", "1002")
        .leader("b3", "1012")
        .place("c1", "0210", "s", "line")
        .leader("cb", "0211")
        .turns(12)
        .build_at(turn, seat, Phase::Rally);
    for u in ["r1", "r2", "r3", "c1"] {
        mark(&mut t, u, Marker::Rout);
    }
    t
}

fn rally(u: &str) -> GbacwAction {
    GbacwAction::Rally { unit: id(u) }
}

/// Corinth 29.61: "During Game-Turns 1 through 5, a Union unit which is
/// routed may only be rallied by a dieroll (see 25.13 for procedure). A
/// friendly commander stacked with the unit allows a 1 to be subtracted
/// from the die-roll total. ... Units stacked with army commanders
/// automatically rally." Game-Turn 5: R1 rolls 4 (> 3), still routed; R2,
/// with V, rolls 4 − 1 = 3, rallies; R3, with the army commander, rallies
/// with no roll.
#[test]
fn corinth_29_61_union_rally_by_roll_gt1_to_5() {
    let mut t = impetus_field(5, UNION);
    t.script(&[4]);
    t.act(UNION, rally("r1"));
    assert!(marked(&t, "r1", Marker::Rout), "4 > 3");
    t.script(&[4]);
    t.act(UNION, rally("r2"));
    assert!(!marked(&t, "r2", Marker::Rout), "4 - 1 = 3");
    assert!(t.dice_left().is_empty());
    t.act(UNION, rally("r3"));
    assert!(!marked(&t, "r3", Marker::Rout), "with the army commander");
}

/// Corinth 29.61: "During Game-Turns 1 through 5". On Game-Turn 6 R1's
/// brigade commander rallies it with a Rally Point and no die (GBACW
/// 13.52, 17.13).
#[test]
fn corinth_29_61_gt6_normal_rally() {
    let mut t = impetus_field(6, UNION);
    t.act(UNION, rally("r1"));
    assert!(!marked(&t, "r1", Marker::Rout));
}

/// Corinth 29.61: "a Union unit which is routed may only be rallied by a
/// dieroll". On Game-Turn 3 a routed Confederate regiment in its brigade
/// commander's radius rallies with a Rally Point and no die.
#[test]
fn corinth_29_61_confederate_unaffected() {
    let mut t = impetus_field(3, REBEL);
    t.act(REBEL, rally("c1"));
    assert!(!marked(&t, "c1", Marker::Rout));
}
