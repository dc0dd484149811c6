//! Cedar Mountain as a hosted game: the set-up step (26.2, 26.3), the
//! first turn's omitted Player-Turn (26.1), reinforcements (26.4–26.46),
//! exits (27.23) and victory (27.1–27.22). Tests named `cedar_N_NN_…`
//! test that exclusive-rule case.

use super::*;
use crate::gbacw::oob::{Command, LeaderRole};
use crate::gbacw::scenario::Place;
use crate::gbacw::sequence::PlayerTurn;
use std::collections::{BTreeMap, BTreeSet};

const CEDAR: &str = "cedar_mountain";

fn cedar_with(options: &[(&str, bool)]) -> T {
    T::with(GbacwConfig {
        battle: CEDAR.into(),
        scenario_options: options.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        ..GbacwConfig::default()
    })
}

fn cedar() -> T {
    cedar_with(&[])
}

fn free() -> T {
    cedar_with(&[("free-deployment", true)])
}

/// Cedar Mountain after the default Union set-up, at the Confederate
/// Initial Command Phase of Game-Turn 1.
fn started() -> T {
    let mut t = cedar();
    t.ok(UNION, GbacwAction::EndSetUp);
    t
}

fn place(unit: &str, hex: &str, formation: Formation) -> GbacwAction {
    GbacwAction::PlaceUnit {
        unit: id(unit),
        hex: n(hex),
        facing: dir("s"),
        formation,
    }
}

fn place_leader(leader: &str, hex: &str) -> GbacwAction {
    GbacwAction::PlaceLeader {
        leader: id(leader),
        hex: n(hex),
    }
}

fn arrive(piece: &str, hex: &str) -> GbacwAction {
    GbacwAction::Arrive {
        piece: id(piece),
        hex: n(hex),
        facing: dir("n"),
    }
}

const CM: &str = "Cedar Mountain 26.2";

/// Every Union counter's hex, for `Scenario::check_setup`.
fn union_placed(t: &T) -> BTreeMap<CounterId, HexNumber> {
    let oob = &t.rs.game().oob;
    t.s.units
        .iter()
        .filter(|(i, _)| oob.units[*i].side == id("union"))
        .filter_map(|(i, u)| u.hex.map(|h| (i.clone(), h)))
        .chain(
            t.s.leaders
                .iter()
                .filter(|(i, _)| oob.leaders[*i].side == id("union"))
                .filter_map(|(i, l)| l.hex.map(|h| (i.clone(), h))),
        )
        .collect()
}

fn setup_problems(t: &T) -> Vec<String> {
    t.rs.game()
        .scenario
        .check_setup(
            &t.rs.game().map,
            &t.rs.game().oob,
            &union_placed(t),
            &t.rs.scenario_options,
        )
        .into_iter()
        .map(|p| p.0)
        .collect()
}

#[test]
fn cedar_26_2_the_union_sets_up_before_game_turn_1() {
    let t = cedar();
    assert_eq!(t.s.progress.setting_up, Some(id("union")));
    assert_eq!(t.rs.acting_seat(&t.s), Some(UNION));
    // Every counter the Union chooses a place for starts off the map.
    assert_eq!(t.hex("5-conn"), None);
    assert_eq!(t.hex("banks"), None);
    let legal = t.rs.legal_actions(&t.s, UNION);
    assert!(legal.contains(&GbacwAction::EndSetUp));
    assert!(
        legal
            .iter()
            .any(|a| matches!(a, GbacwAction::PlaceUnit { .. }))
    );
    assert!(t.rs.legal_actions(&t.s, REBEL).is_empty());
    let e = t.refused(REBEL, GbacwAction::EndSetUp, CM);
    assert_eq!(e.code, crate::engine::RuleCode::NotYourTurn);
    t.refused(UNION, GbacwAction::EndPhase, CM);
    // The set-up is a pending decision whose default ends it.
    let p = t.rs.pending(&t.s);
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].seat, UNION);
    assert_eq!(p[0].default, GbacwAction::EndSetUp);
    // Every action the legal set holds is accepted.
    for a in &legal {
        t.decide(UNION, a).unwrap_or_else(|e| panic!("{a:?}: {e}"));
    }
}

#[test]
fn cedar_26_2_units_set_up_only_in_their_own_area() {
    let mut t = cedar();
    // Crawford's brigade: Area 4 (1517 and its neighbours).
    t.refused(UNION, place("5-conn", "2111", Formation::Line), CM);
    t.refused(UNION, place("5-conn", "1519", Formation::Line), CM);
    t.ok(UNION, place("5-conn", "1517", Formation::Line));
    t.ok(UNION, place("10-me", "1416", Formation::Line));
    assert_eq!(t.hex("10-me"), Some(n("1416")));
    // Set up again elsewhere in the area.
    t.ok(UNION, place("10-me", "1616", Formation::Line));
    assert_eq!(t.hex("10-me"), Some(n("1616")));
    // Counters that arrive, or are the enemy's, are not the Union's to place.
    let e = t.refused(UNION, place("12-ga", "1517", Formation::Line), "GBACW 3.3");
    assert_eq!(e.code, crate::engine::RuleCode::NotYours);
    t.refused(UNION, place_leader("u-repl-1", "1517"), CM);
    t.refused(
        UNION,
        place("no-such", "1517", Formation::Line),
        "GBACW 3.3",
    );
    t.refused(
        UNION,
        place("5-conn", "9999", Formation::Line),
        "GBACW 5.17",
    );
}

#[test]
fn cedar_26_2_units_set_up_in_any_formation() {
    let mut t = cedar();
    t.ok(UNION, place("5-conn", "1517", Formation::Column));
    t.ok(UNION, place("e-pa", "1416", Formation::Limbered));
    t.ok(UNION, place("e-pa", "1416", Formation::Unlimbered));
    t.ok(UNION, place("1-nj-c", "3310", Formation::Dismounted));
    t.ok(UNION, place("1-pa-c", "3309", Formation::Mounted));
    // ... that its kind may take (6.0).
    t.refused(
        UNION,
        place("10-me", "1517", Formation::Mounted),
        "GBACW 6.0",
    );
    t.refused(UNION, place("10-me", "1517", Formation::Wagon), "GBACW 6.0");
    assert_eq!(
        t.s.units[&id("e-pa")].status.formation,
        Formation::Unlimbered
    );
}

#[test]
fn cedar_26_2_set_up_stacks_keep_to_the_stacking_limits() {
    let mut t = cedar();
    // Prince's brigade, Area 2 (clear). A column stands alone (8.16).
    t.ok(UNION, place("102-ny", "2416", Formation::Column));
    t.refused(UNION, place("109-pa", "2416", Formation::Line), CM);
    t.ok(UNION, place("102-ny", "2416", Formation::Line));
    // Clear: 12 Strength Points. 3 + 3 + 3 + 3 = 12; 8+12 US (2) would be 14.
    for u in ["109-pa", "111-pa", "3-md"] {
        t.ok(UNION, place(u, "2416", Formation::Line));
    }
    let e = t.refused(UNION, place("8-12-us", "2416", Formation::Line), CM);
    assert!(e.message.contains("stacking"), "{e}");
    t.ok(UNION, place("8-12-us", "2417", Formation::Line));
    // Woods (Area 4) hold 8: 5 Conn 6 and 10 Me 4 do not fit together.
    t.ok(UNION, place("5-conn", "1517", Formation::Line));
    t.refused(UNION, place("10-me", "1517", Formation::Line), CM);
}

#[test]
fn cedar_26_2_leaders_set_up_with_their_command() {
    let mut t = cedar();
    // Not before a unit he commands stands there.
    t.refused(UNION, place_leader("crawford", "1517"), CM);
    t.ok(UNION, place("5-conn", "1517", Formation::Line));
    t.ok(UNION, place_leader("crawford", "1517"));
    // Division leaders with any brigade of their division.
    t.ok(UNION, place_leader("williams", "1517"));
    t.ok(UNION, place("102-ny", "2416", Formation::Line));
    t.refused(UNION, place_leader("williams", "2416"), CM);
    t.ok(UNION, place_leader("augur", "2416"));
    // Brigade leaders only with their own brigade.
    t.refused(UNION, place_leader("prince", "1517"), CM);
    // Banks with any Union unit.
    t.ok(UNION, place_leader("banks", "2416"));
    // A unit may not leave a leader with nothing he commands.
    t.refused(UNION, place("102-ny", "2417", Formation::Line), CM);
    t.ok(UNION, place("109-pa", "2416", Formation::Line));
    t.ok(UNION, place("102-ny", "2417", Formation::Line));
    t.refused(UNION, place("109-pa", "2417", Formation::Line), CM);
}

#[test]
fn cedar_26_2_end_set_up_completes_the_set_up_by_default() {
    let mut t = cedar();
    t.ok(UNION, place("5-conn", "1416", Formation::Column));
    t.ok(UNION, place("e-pa", "1616", Formation::Limbered));
    t.ok(UNION, GbacwAction::EndSetUp);
    assert_eq!(t.s.progress.setting_up, None);
    // The player's placements stand; the rest is placed, all within the rules.
    assert_eq!(t.hex("5-conn"), Some(n("1416")));
    assert_eq!(t.s.units[&id("e-pa")].status.formation, Formation::Limbered);
    let oob = &t.rs.game().oob;
    for s in &t.rs.game().scenario.setup {
        if matches!(s.place, Place::Area(_) | Place::WithCommand) {
            for u in &s.units {
                assert!(t.hex(&u.0).is_some(), "{u} not set up");
            }
        }
    }
    assert!(setup_problems(&t).is_empty(), "{:?}", setup_problems(&t));
    // The Confederates start off the map (26.4).
    assert!(
        oob.units
            .values()
            .filter(|u| u.side == id("confederate"))
            .all(|u| t.s.units[&u.id].hex.is_none())
    );
    // Now the game: the set-up actions are over.
    t.refused(REBEL, GbacwAction::EndSetUp, CM);
}

#[test]
fn cedar_26_2_the_default_deployment_is_valid_and_deterministic() {
    let a = started();
    let b = started();
    assert_eq!(a.s, b.s);
    assert!(setup_problems(&a).is_empty(), "{:?}", setup_problems(&a));
    // Leaders stand with a unit they command.
    let oob = &a.rs.game().oob;
    for (l, s) in &a.s.leaders {
        let (Some(h), Some(leader)) = (s.hex, oob.leaders.get(l)) else {
            continue;
        };
        let with = a.s.units.iter().any(|(u, x)| {
            x.hex == Some(h)
                && match (&leader.role, &oob.units[u].command) {
                    (LeaderRole::Army { .. }, _) => true,
                    (LeaderRole::Brigade { .. }, Command::Brigade(b)) => b == l,
                    (LeaderRole::Division { .. }, Command::Brigade(b)) => matches!(
                        &oob.leaders[b].role,
                        LeaderRole::Brigade { division: Some(d), .. } if d == l
                    ),
                    _ => false,
                }
        });
        assert!(with, "{l} at {h}");
    }
}

#[test]
fn cedar_26_3_free_deployment_is_an_option_off_by_default() {
    let mut t = cedar();
    t.refused(UNION, place("102-ny", "2111", Formation::Line), CM);
    let e = Gbacw::new(&GbacwConfig {
        battle: CEDAR.into(),
        scenario_options: [("no-such-option".to_string(), true)].into(),
        ..GbacwConfig::default()
    })
    .unwrap_err();
    assert!(e.message.contains("no-such-option"), "{e}");
    let mut f = free();
    f.ok(UNION, place("102-ny", "2111", Formation::Line));
    t.ok(UNION, place("102-ny", "2416", Formation::Line));
}

#[test]
fn cedar_26_3_one_brigade_plus_one_battery_per_area() {
    let mut t = free();
    let r = "Cedar Mountain 26.3";
    // Prince's brigade in Area 1.
    t.ok(UNION, place("102-ny", "2111", Formation::Line));
    // Greene's may not join it there.
    t.refused(UNION, place("1-dc", "2010", Formation::Line), r);
    // A brigade stays in one area (26.2 still holds).
    t.refused(UNION, place("109-pa", "2416", Formation::Line), CM);
    t.ok(UNION, place("109-pa", "2110", Formation::Line));
    // One battery per area.
    t.ok(UNION, place("4-me", "2112", Formation::Unlimbered));
    t.refused(UNION, place("6-me", "2011", Formation::Unlimbered), r);
    t.ok(UNION, place("6-me", "2416", Formation::Unlimbered));
    // The 1st Maine Cavalry in Area 1, Bayard's brigade in Area 6.
    t.refused(UNION, place("1-me-c", "2416", Formation::Mounted), r);
    t.ok(UNION, place("1-me-c", "2211", Formation::Mounted));
    t.refused(UNION, place("1-nj-c", "2813", Formation::Mounted), r);
    t.ok(UNION, place("1-nj-c", "3310", Formation::Mounted));
    // Greene's brigade now goes elsewhere; the default completes the rest.
    t.ok(UNION, place("1-dc", "2813", Formation::Line));
    t.ok(UNION, GbacwAction::EndSetUp);
    assert_eq!(t.hex("102-ny"), Some(n("2111")));
    assert_eq!(t.hex("1-dc"), Some(n("2813")));
    assert!(setup_problems(&t).is_empty(), "{:?}", setup_problems(&t));
}

#[test]
fn cedar_26_3_a_set_up_that_leaves_no_room_gives_way_to_the_default() {
    let mut t = free();
    // Greene's brigade in Area 6 leaves Bayard's (fixed there) no area.
    t.ok(UNION, place("1-dc", "3310", Formation::Line));
    t.ok(UNION, GbacwAction::EndSetUp);
    let default = {
        let mut d = free();
        d.ok(UNION, GbacwAction::EndSetUp);
        d
    };
    assert_eq!(t.s.units, default.s.units);
    assert!(setup_problems(&t).is_empty(), "{:?}", setup_problems(&t));
}

#[test]
fn cedar_26_1_the_union_player_turn_of_game_turn_1_is_omitted() {
    let mut t = started();
    assert_eq!(t.s.clock.turn, 1);
    assert_eq!(
        t.s.clock.step,
        Step::Phase {
            player: PlayerTurn::Second,
            phase: Phase::InitialCommand
        }
    );
    assert_eq!(t.rs.acting_seat(&t.s), Some(REBEL));
    t.refused(UNION, GbacwAction::EndPhase, "GBACW 4.0");
    // Through the Confederate Player-Turn to Game-Turn 2, the Union first.
    for _ in 0..50 {
        if t.s.clock.turn == 2 {
            break;
        }
        assert_eq!(t.rs.phasing_side(t.s.clock), Some(&id("confederate")));
        let actor = t.rs.acting_seat(&t.s).unwrap();
        t.ok(actor, GbacwAction::EndPhase);
    }
    assert_eq!(t.s.clock.turn, 2);
    assert_eq!(t.rs.acting_seat(&t.s), Some(UNION));
}

/// Cedar Mountain at the Confederate Movement Phase of `turn`.
fn movement(turn: u16) -> T {
    let mut t = started();
    for _ in 0..500 {
        let phasing = t.rs.phasing_side(t.s.clock).map(|s| t.rs.seat_of(s));
        if t.s.clock.turn == turn && t.phase() == Some(Phase::Movement) && phasing == Some(REBEL) {
            return t;
        }
        let actor = t.rs.acting_seat(&t.s).unwrap();
        t.ok(actor, GbacwAction::EndPhase);
    }
    panic!("never reached turn {turn}");
}

#[test]
fn cedar_26_4_reinforcements_enter_at_their_hex_as_a_column() {
    let mut t = movement(1);
    // Early's brigade enters at 2934 on Game-Turn 1; Ewell's at 4032.
    let first = t.ok(REBEL, arrive("12-ga", "2934"));
    assert!(matches!(
        &first[0],
        GbacwEvent::UnitArrived { cost, formation: Formation::Column, .. } if *cost == Mp::from_whole(1)
    ));
    assert_eq!(t.hex("12-ga"), Some(n("2934")));
    assert_eq!(t.spent("12-ga"), Mp::from_whole(1));
    // 8.16: a column stands alone; the next waits until the hex is clear.
    t.refused(REBEL, arrive("13-va", "2934"), "GBACW 8.16");
    let reach = t.rs.reachable(&t.s, &id("12-ga")).unwrap();
    let to = *reach
        .hexes
        .keys()
        .find(|h| t.rs.game().map.grid.distance(n("2934"), **h) == 2)
        .unwrap();
    let path = reach.path_to(to).unwrap()[1..].to_vec();
    t.ok(
        REBEL,
        GbacwAction::Move {
            pieces: ids(&["12-ga"]),
            path,
        },
    );
    // The second unit of the column pays 2 Movement Points, the third 3.
    t.ok(REBEL, arrive("13-va", "2934"));
    assert_eq!(t.spent("13-va"), Mp::from_whole(2));
    // Elsewhere a new column begins: the first pays 1. 26.46: cavalry
    // enters mounted.
    t.ok(REBEL, arrive("whites-c", "4032"));
    assert_eq!(t.spent("whites-c"), Mp::from_whole(1));
    assert_eq!(
        t.s.units[&id("whites-c")].status.formation,
        Formation::Mounted
    );
    t.refused(REBEL, arrive("15-ala", "4032"), "GBACW 8.16");
    // Leaders ride beside the column: 1 Movement Point, no place in it.
    t.ok(REBEL, arrive("early", "2934"));
    assert_eq!(t.s.leaders[&id("early")].moved.mp, Mp::from_whole(1));
    // Not at another hex, not before its Game-Turn, not twice.
    t.refused(REBEL, arrive("14-la", "2934"), "Cedar Mountain 26.44");
    t.refused(REBEL, arrive("21-va", "2934"), "Cedar Mountain 26.4");
    t.refused(REBEL, arrive("12-ga", "2934"), "Cedar Mountain 26.4");
    // The Union's units are not his.
    t.refused(REBEL, arrive("5-conn", "2934"), "GBACW 3.3");
    // The legal set offers the others, and each is accepted.
    let legal = t.rs.legal_actions(&t.s, REBEL);
    assert!(
        legal
            .iter()
            .any(|a| matches!(a, GbacwAction::Arrive { .. }))
    );
    for a in legal
        .iter()
        .filter(|a| matches!(a, GbacwAction::Arrive { .. }))
    {
        t.decide(REBEL, a).unwrap_or_else(|e| panic!("{a:?}: {e}"));
    }
}

#[test]
fn cedar_26_41_reinforcements_enter_only_in_the_movement_phase() {
    let t = started();
    t.refused(REBEL, arrive("12-ga", "2934"), "Cedar Mountain 26.41");
}

#[test]
fn cedar_26_45_units_that_cannot_pay_enter_on_a_later_turn() {
    let mut t = movement(1);
    // Five units have already entered at 2934 this phase (and moved on).
    t.s.progress.column = Some(crate::gbacw::ruleset::progress::EntryColumn {
        clock: t.s.clock,
        entered: [(n("2934"), 6)].into(),
    });
    // The seventh would pay 7 of a column's 6.
    t.refused(REBEL, arrive("12-ga", "2934"), "Cedar Mountain 26.4");
    // A battery limbered has 8: it pays 7 and enters.
    t.ok(REBEL, arrive("1-md", "2934"));
    assert_eq!(t.spent("1-md"), Mp::from_whole(7));
    // Next Game-Turn the column starts afresh.
    let mut next = movement(2);
    next.ok(REBEL, arrive("12-ga", "2934"));
    assert_eq!(next.spent("12-ga"), Mp::from_whole(1));
}

#[test]
fn cedar_26_44_a_held_entry_hex_delays_a_turn_then_the_closest_clear_hex() {
    let mut t = started();
    t.put("5-conn", "2934", "s", Formation::Line);
    t.advance_to(REBEL, Phase::Movement);
    assert_eq!(t.s.progress.entry_blocked.get(&n("2934")), Some(&1));
    let r = "Cedar Mountain 26.44";
    t.refused(REBEL, arrive("12-ga", "2934"), r);
    t.refused(REBEL, arrive("12-ga", "2834"), r);
    // Ewell's entry hex is clear.
    t.ok(REBEL, arrive("15-ala", "4032"));
    // Game-Turn 2: still held, so the closest unblocked edge hex.
    for _ in 0..40 {
        if t.s.clock.turn == 2 && t.phase() == Some(Phase::Movement) {
            let phasing = t.rs.phasing_side(t.s.clock).map(|s| t.rs.seat_of(s));
            if phasing == Some(REBEL) {
                break;
            }
        }
        let actor = t.rs.acting_seat(&t.s).unwrap();
        t.ok(actor, GbacwAction::EndPhase);
    }
    assert_eq!(t.s.clock.turn, 2);
    let grid = &t.rs.game().map.grid;
    let hexes =
        crate::gbacw::ruleset::decide::arrival::entry_hexes(&t.rs, &t.s, &id("12-ga")).unwrap();
    assert!(!hexes.is_empty() && !hexes.contains(&n("2934")));
    assert!(hexes.iter().all(|h| grid.distance(*h, n("2934")) == 1));
    t.refused(REBEL, arrive("12-ga", "2934"), r);
    let h = hexes[0].to_string();
    t.ok(REBEL, arrive("12-ga", &h));
    // Once clear again, the entry hex is used again.
    t.s.units.get_mut(&id("5-conn")).unwrap().hex = Some(n("2111"));
    let hexes =
        crate::gbacw::ruleset::decide::arrival::entry_hexes(&t.rs, &t.s, &id("13-va")).unwrap();
    assert_eq!(hexes, vec![n("2934")]);
}

#[test]
fn cedar_26_43_reinforcements_are_in_command_on_their_turn_of_entry() {
    let mut t = movement(1);
    // 13 Va enters without Early, far from any leader, and moves its full
    // allowance: no one-hex limit (17.11) on the turn it enters.
    t.ok(REBEL, arrive("13-va", "2934"));
    assert!(!t.s.command.out_of_command.contains(&id("13-va")));
    let reach = t.rs.reachable(&t.s, &id("13-va")).unwrap();
    assert!(
        reach
            .hexes
            .keys()
            .any(|h| t.rs.game().map.grid.distance(n("2934"), *h) >= 2)
    );
}

#[test]
fn cedar_thomas_enters_detached_from_hills_division() {
    let t = started();
    assert_eq!(
        t.s.links.get(&id("hill")).and_then(|l| l.detached.clone()),
        Some(id("thomas"))
    );
}

#[test]
fn cedar_27_23_units_exit_at_0101_and_only_the_confederates_score() {
    let mut t = movement(1);
    t.put("12-ga", "0101", "n", Formation::Column);
    t.s.progress.to_arrive.remove(&id("12-ga"));
    t.put("13-va", "0102", "n", Formation::Column);
    t.s.progress.to_arrive.remove(&id("13-va"));
    t.refused(
        REBEL,
        GbacwAction::ExitMap { unit: id("13-va") },
        "Cedar Mountain 27.23",
    );
    t.ok(REBEL, GbacwAction::ExitMap { unit: id("12-ga") });
    assert_eq!(t.hex("12-ga"), None);
    assert!(t.s.progress.exited.contains(&id("12-ga")));
    let vp = t.rs.victory_points(&t.s);
    assert_eq!(vp[1].side, id("confederate"));
    assert_eq!(vp[1].exits, 1);
    // An exited unit is not a loss.
    assert_eq!(vp[0].losses, 0);
    // Without the Movement Points, no exit.
    t.put("13-va", "0101", "n", Formation::Column);
    t.s.units.get_mut(&id("13-va")).unwrap().moved.mp = Mp::from_whole(6);
    t.refused(
        REBEL,
        GbacwAction::ExitMap { unit: id("13-va") },
        "Cedar Mountain 27.23",
    );
}

#[test]
fn cedar_27_22_victory_hexes_go_to_the_last_occupier_and_score_each_turn() {
    let mut t = movement(1);
    // 12 Ga set beside 2319 moves in: the Confederates control it.
    let grid = t.rs.game().map.grid.clone();
    let (_, beside) = grid.neighbours_on_map(n("2319"))[0];
    t.put("12-ga", &beside.to_string(), "n", Formation::Line);
    t.s.progress.to_arrive.remove(&id("12-ga"));
    let events = t.ok(REBEL, mv(&["12-ga"], &["2319"]));
    assert!(events.contains(&GbacwEvent::VictoryHexTaken {
        hex: n("2319"),
        side: id("confederate"),
    }));
    // Leaving does not give it up.
    t.ok(REBEL, mv(&["12-ga"], &[&beside.to_string()]));
    assert_eq!(
        t.s.progress.hex_control.get(&n("2319")),
        Some(&id("confederate"))
    );
    // Recorded at the end of the Confederate Player-Turn: 2 VP a turn.
    while t.s.clock.turn == 1 {
        let actor = t.rs.acting_seat(&t.s).unwrap();
        t.ok(actor, GbacwAction::EndPhase);
    }
    assert_eq!(t.s.progress.hex_track.len(), 1);
    let row = &t.s.progress.hex_track[0];
    assert_eq!(row.turn, 1);
    assert_eq!(row.control[0], (n("2319"), Some(id("confederate"))));
    assert_eq!(row.control[1], (n("1921"), None));
    assert_eq!(t.rs.victory_points(&t.s)[1].hexes, 2);
}

#[test]
fn cedar_27_21_losses_score_from_unit_status() {
    let mut t = started();
    let vp = |t: &T| t.rs.victory_points(&t.s);
    assert_eq!(vp(&t)[1].total(), 0);
    // Infantry: 1 VP a Strength Point (5 Conn, 6 → 4).
    t.s.units.get_mut(&id("5-conn")).unwrap().status.strength = 4;
    assert_eq!(vp(&t)[1].losses, 2);
    // Cavalry: 2 a Strength Point (1 NJ Cav, 3 → 2).
    t.s.units.get_mut(&id("1-nj-c")).unwrap().status.strength = 2;
    assert_eq!(vp(&t)[1].losses, 4);
    // Guns: 1 each (E Pa, 6 → 5).
    t.s.units.get_mut(&id("e-pa")).unwrap().status.strength = 5;
    assert_eq!(vp(&t)[1].losses, 5);
    // A unit gone from the map without exiting has lost everything (28 NY, 3).
    t.s.units.get_mut(&id("28-ny")).unwrap().hex = None;
    assert_eq!(vp(&t)[1].losses, 8);
    // Leaders: brigade 1/2/3, division 3/5/8, Banks 3/5/8, Jackson 5/10/15.
    t.s.leaders.get_mut(&id("geary")).unwrap().casualty = Some(Casualty::Killed);
    t.s.leaders.get_mut(&id("augur")).unwrap().casualty = Some(Casualty::Captured);
    t.s.leaders.get_mut(&id("banks")).unwrap().casualty = Some(Casualty::Wounded);
    assert_eq!(vp(&t)[1].leaders, 2 + 8 + 3);
    t.s.leaders.get_mut(&id("jackson")).unwrap().casualty = Some(Casualty::Killed);
    assert_eq!(vp(&t)[0].leaders, 10);
    // BCE: Greene's brigade, limit 3 of 6, worth 5 (1 DC 2 → 0, 78 NY 4 → 3).
    t.s.units.get_mut(&id("1-dc")).unwrap().status.strength = 0;
    assert_eq!(vp(&t)[1].bce, 0);
    t.s.units.get_mut(&id("78-ny")).unwrap().status.strength = 3;
    assert_eq!(vp(&t)[1].bce, 5);
    // Reinforcements not yet arrived have lost nothing.
    assert_eq!(vp(&t)[0].losses, 0);
    // Captured points score at the captured price (infantry 2, 12.93):
    // 10 Me (4) loses 2 taken prisoner in melee.
    let before = vp(&t)[1].losses;
    let u = t.s.units.get_mut(&id("10-me")).unwrap();
    u.status.strength -= 2;
    u.captured = 2;
    assert_eq!(vp(&t)[1].losses, before + 4);
}

#[test]
fn cedar_27_1_the_level_of_victory_from_the_difference() {
    let mut t = started();
    assert!(t.rs.outcome(&t.s).is_none());
    t.s.over = true;
    let o = t.rs.outcome(&t.s).unwrap();
    assert_eq!(o.winner, None);
    assert!(o.summary.contains("draw"), "{}", o.summary);
    // Confederates 12 (five hexes... here: losses), Union 0: tactical.
    t.s.units.get_mut(&id("5-conn")).unwrap().status.strength = 0;
    t.s.units.get_mut(&id("27-ind")).unwrap().status.strength = 0;
    let o = t.rs.outcome(&t.s).unwrap();
    assert_eq!(o.winner, Some(REBEL));
    assert!(o.summary.contains("tactical"), "{}", o.summary);
    // Marginal from 6, strategic from 19.
    t.s.units.get_mut(&id("27-ind")).unwrap().status.strength = 6;
    assert!(t.rs.outcome(&t.s).unwrap().summary.contains("marginal"));
    for u in ["27-ind", "2-me", "3-wisc"] {
        t.s.units.get_mut(&id(u)).unwrap().status.strength = 0;
    }
    let o = t.rs.outcome(&t.s).unwrap();
    assert!(o.summary.contains("strategic"), "{}", o.summary);
    // The Union wins the same way.
    let mut u = started();
    u.s.over = true;
    u.s.units.get_mut(&id("15-ala")).unwrap().hex = Some(n("2934"));
    u.s.progress.to_arrive.remove(&id("15-ala"));
    u.s.units.get_mut(&id("15-ala")).unwrap().status.strength = 0;
    assert_eq!(u.rs.outcome(&u.s).unwrap().winner, Some(UNION));
}

#[test]
fn cedar_27_22_the_game_ends_after_game_turn_13() {
    let mut t = started();
    let mut seen = BTreeSet::new();
    for _ in 0..2000 {
        let Some(actor) = t.rs.acting_seat(&t.s) else {
            break;
        };
        seen.insert(t.s.clock.turn);
        t.ok(actor, GbacwAction::EndPhase);
    }
    assert!(t.s.over);
    assert_eq!(seen, (1..=13).collect());
    // A track row for every Game-Turn, all uncontrolled: no one moved.
    assert_eq!(t.s.progress.hex_track.len(), 13);
    let o = t.rs.outcome(&t.s).unwrap();
    assert_eq!(o.winner, None);
}

/// 27.22: "it is physically impossible for either player to control any
/// of the hexes at the conclusion of Game-Turn One". On the reconstructed
/// map no Confederate unit entering on Game-Turn 1 can reach one.
#[test]
fn cedar_27_22_no_victory_hex_can_be_reached_on_game_turn_1() {
    let t = movement(1);
    let vp: Vec<HexNumber> =
        t.rs.game()
            .scenario
            .victory
            .hexes
            .iter()
            .map(|h| h.hex)
            .collect();
    for piece in t.s.progress.to_arrive.clone() {
        let Ok(hexes) = crate::gbacw::ruleset::decide::arrival::entry_hexes(&t.rs, &t.s, &piece)
        else {
            continue;
        };
        if !t.s.units.contains_key(&piece) {
            continue;
        }
        let mut u = T {
            rs: t.rs.clone(),
            s: t.s.clone(),
            script: Default::default(),
        };
        u.ok(REBEL, arrive(&piece.0, &hexes[0].to_string()));
        let reach = u.rs.reachable(&u.s, &piece).unwrap();
        for h in &vp {
            assert!(!reach.hexes.contains_key(h), "{piece} reaches {h}");
        }
    }
}

#[test]
fn cedar_26_3_every_offered_placement_is_accepted_and_the_default_fits() {
    let mut t = free();
    // Place by the legal set until only `EndSetUp` is left.
    for k in 0..200 {
        let legal = t.rs.legal_actions(&t.s, UNION);
        if k == 0 {
            for a in &legal {
                t.decide(UNION, a).unwrap_or_else(|e| panic!("{a:?}: {e}"));
            }
        }
        match legal.iter().find(|a| **a != GbacwAction::EndSetUp) {
            // The last offer each time: spread over the areas.
            Some(_) => {
                let a = legal.last().unwrap().clone();
                t.ok(UNION, a);
            }
            None => break,
        }
    }
    assert!(setup_problems(&t).is_empty(), "{:?}", setup_problems(&t));
    t.ok(UNION, GbacwAction::EndSetUp);
    assert!(setup_problems(&t).is_empty(), "{:?}", setup_problems(&t));
    let d = {
        let mut d = free();
        d.ok(UNION, GbacwAction::EndSetUp);
        d
    };
    assert!(setup_problems(&d).is_empty(), "{:?}", setup_problems(&d));
}
