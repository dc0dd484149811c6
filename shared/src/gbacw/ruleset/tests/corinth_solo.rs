//! Corinth 29.5, the Free Set-Up's solitaire version: the assault rolled
//! with seeded dice (29.51, 29.53-29.57), then played like the two-player
//! game; 31.32's levels.

use super::*;
use crate::gbacw::ruleset::corinth::solitaire::{SOLITAIRE, SolitaireTables};
use crate::gbacw::ruleset::plan::PlannedDivision;

fn solo() -> T {
    T::battle("corinth_solo")
}

fn tables(t: &T) -> SolitaireTables {
    SolitaireTables::load(SOLITAIRE, &t.rs.game().scenario).unwrap()
}

/// The area row of 29.57 for `turn` and `die`.
fn area_for(t: &T, turn: u16, die: u16) -> CounterId {
    let row = tables(t)
        .area
        .into_iter()
        .find(|r| r.from <= turn && r.to.is_none_or(|to| turn <= to))
        .unwrap();
    id(&row.areas[usize::from(die) - 1])
}

fn plan(t: &T) -> crate::gbacw::ruleset::plan::AssaultPlan {
    t.s.progress
        .assault
        .as_ref()
        .and_then(|a| a.plan.clone())
        .unwrap()
}

#[test]
fn corinth_29_51_the_first_division_is_maury_on_1_to_3_hebert_on_4_to_6_its_area_from_29_57() {
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..12u64 {
        let mut t = solo();
        // 29.5 replaces the plot: the Confederate seat rolls, nothing else.
        assert_eq!(t.rs.acting_seat(&t.s), Some(REBEL));
        assert_eq!(
            t.rs.legal_actions(&t.s, REBEL),
            vec![GbacwAction::SolitaireRoll]
        );
        t.refused(UNION, GbacwAction::EndSetUp, "Corinth 29.51");
        let (_, drawn) = t.roll(REBEL, GbacwAction::SolitaireRoll, seed);
        assert_eq!(drawn.len(), 2 + 5, "division, area, five 29.26 counters");
        let p = plan(&t);
        let first = if drawn[0] <= 3 { "maury" } else { "hebert" };
        assert_eq!(
            p.divisions,
            vec![PlannedDivision {
                division: id(first),
                area: area_for(&t, 1, drawn[1]),
                turn: 1,
            }]
        );
        seen.insert(first);
        // 29.55: the 29.26 counters by die, 1-3 Maury, 4-6 Hebert.
        for (c, d) in crate::gbacw::testkit::corinth::CORINTH_ATTACHED
            .iter()
            .zip(&drawn[2..])
        {
            let to = if *d <= 3 { "maury" } else { "hebert" };
            assert_eq!(p.attached[&id(c)], id(to), "{c} on {d}");
        }
        // 29.55, 29.27: the first division's share of the cavalry waits
        // at its area (seven counters: three, two, two).
        let area = &p.divisions[0].area;
        let share = if first == "hebert" { 3 } else { 2 };
        assert_eq!(p.cavalry.len(), share);
        assert!(p.cavalry.values().all(|a| a == area));
        // Public: nothing is secret from the solitaire player.
        let a = t.s.progress.assault.as_ref().unwrap();
        assert!(a.opened);
        // 29.52: then the Union sets up.
        assert_eq!(t.rs.acting_seat(&t.s), Some(UNION));
        t.ok(UNION, GbacwAction::EndSetUp);
    }
    assert_eq!(seen.len(), 2, "both divisions came up in twelve seeds");
}

#[test]
fn corinth_29_53_each_confederate_movement_phase_rolls_the_division_arrival_table_first() {
    let mut t = solo();
    t.roll(REBEL, GbacwAction::SolitaireRoll, 5);
    t.ok(UNION, GbacwAction::EndSetUp);
    t.advance_to(REBEL, Phase::Movement);
    assert_eq!(t.s.clock.turn, 1);
    // "at the beginning of each Confederate Movement Phase (including
    // Game-Turn 1)": nothing before the roll.
    assert_eq!(
        t.rs.legal_actions(&t.s, REBEL),
        vec![GbacwAction::SolitaireRoll]
    );
    t.refused(REBEL, GbacwAction::EndPhase, "Corinth 29.53");
    let out: Vec<CounterId> = ["hebert", "maury", "lovell"]
        .iter()
        .map(|d| id(d))
        .filter(|d| plan(&t).division(d).is_none())
        .collect();
    let (events, drawn) = t.roll(REBEL, GbacwAction::SolitaireRoll, 9);
    let Some(GbacwEvent::SolitaireRolled { rolls, .. }) = events.first() else {
        panic!("{events:?}")
    };
    assert_eq!(rolls.len(), 2);
    let table = tables(&t);
    let mut dice = drawn.iter();
    for (r, d) in rolls.iter().zip(&out) {
        assert_eq!(r.division, *d);
        let die = *dice.next().unwrap() as u8;
        assert_eq!(r.die, Some(die));
        let enters = table
            .arrival
            .iter()
            .any(|a| a.turn == 1 && a.division == d.0 && a.dice.contains(&die));
        assert_eq!(r.entry.is_some(), enters, "{d} on {die}");
        if enters {
            let area_die = *dice.next().unwrap();
            assert_eq!(r.area_die, Some(area_die as u8));
            assert_eq!(r.entry.as_ref().unwrap().turn, 1);
        }
        // 29.21: Lovell never on Game-Turn 1.
        if d.0 == "lovell" {
            assert!(!enters);
        }
    }
    // Once a Game-Turn.
    t.refused(REBEL, GbacwAction::SolitaireRoll, "Corinth 29.53");
    assert!(
        t.rs.legal_actions(&t.s, REBEL)
            .contains(&GbacwAction::EndPhase)
    );
}

#[test]
fn corinth_29_54_every_division_still_out_enters_on_game_turn_6() {
    let mut t = solo();
    t.roll(REBEL, GbacwAction::SolitaireRoll, 1);
    t.ok(UNION, GbacwAction::EndSetUp);
    t.advance_to(REBEL, Phase::Movement);
    // Jump to Game-Turn 6 with only the first division plotted.
    t.s.clock.turn = 6;
    let (events, drawn) = t.roll(REBEL, GbacwAction::SolitaireRoll, 2);
    let Some(GbacwEvent::SolitaireRolled { rolls, cavalry, .. }) = events.first() else {
        panic!("{events:?}")
    };
    // No arrival die, an area die each; different areas (29.21).
    assert_eq!(drawn.len(), 2);
    assert!(rolls.iter().all(|r| r.die.is_none() && r.entry.is_some()));
    let p = plan(&t);
    assert_eq!(p.divisions.len(), 3);
    assert_ne!(p.divisions[1].area, p.divisions[2].area);
    assert!(p.divisions[1..].iter().all(|d| d.turn == 6));
    // All seven cavalry counters now have an area.
    assert_eq!(p.cavalry.len(), 7);
    let first_share = if p.divisions[0].division.0 == "hebert" {
        3
    } else {
        2
    };
    assert_eq!(cavalry.len(), 7 - first_share);
    assert!(
        !t.rs
            .legal_actions(&t.s, REBEL)
            .contains(&GbacwAction::SolitaireRoll)
    );
}

#[test]
fn corinth_29_57_the_provisional_tables_keep_29_21_and_29_22() {
    let t = solo();
    let table = tables(&t);
    assert!(table.provisional);
    // 29.22: F from Game-Turn 3, G from 5 (the load checks every row).
    for turn in 1..=2 {
        for die in 1..=6 {
            let a = area_for(&t, turn, die);
            assert!(!["assault-f", "assault-g"].contains(&a.0.as_str()));
        }
    }
    for die in 1..=6 {
        assert_ne!(area_for(&t, 3, die).0, "assault-g");
    }
    // 29.21: Lovell held back on Game-Turn 1.
    assert!(
        table
            .arrival
            .iter()
            .filter(|r| r.turn == 1 && r.division == "lovell")
            .all(|r| r.dice.is_empty())
    );
    // Every value says why.
    assert!(table.arrival.iter().all(|r| !r.why.is_empty()));
    assert!(table.area.iter().all(|r| !r.why.is_empty()));
}

#[test]
fn corinth_31_32_the_solitaire_victory_levels() {
    let t = solo();
    let bands: Vec<(String, Option<f64>)> =
        t.rs.game()
            .scenario
            .victory
            .tally
            .as_ref()
            .unwrap()
            .bands
            .iter()
            .map(|b| (b.name.clone(), b.to.map(|h| f64::from(h) / 2.0)))
            .collect();
    assert_eq!(
        bands,
        vec![
            ("decisive-union".into(), Some(0.0)),
            ("substantial-union".into(), Some(2.5)),
            ("marginal-union".into(), Some(6.0)),
            ("marginal-confederate".into(), Some(11.0)),
            ("substantial-confederate".into(), Some(16.0)),
            ("decisive-confederate".into(), None),
        ]
    );
}

#[test]
fn corinth_29_53_the_roll_is_a_pending_decision_whose_default_rolls() {
    let mut t = solo();
    let p = t.rs.pending(&t.s);
    assert_eq!(p.len(), 1);
    assert_eq!(
        (p[0].seat, &p[0].default),
        (REBEL, &GbacwAction::SolitaireRoll)
    );
    t.roll(REBEL, GbacwAction::SolitaireRoll, 3);
    t.ok(UNION, GbacwAction::EndSetUp);
    t.advance_to(REBEL, Phase::Movement);
    let p = t.rs.pending(&t.s);
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].rule, "Corinth 29.53");
    assert_eq!(p[0].default, GbacwAction::SolitaireRoll);
    t.roll(REBEL, GbacwAction::SolitaireRoll, 4);
    assert!(t.rs.pending(&t.s).is_empty());
}
