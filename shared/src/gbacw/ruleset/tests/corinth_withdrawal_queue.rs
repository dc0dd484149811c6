//! Corinth 25.23 when more than one withdrawal-fire shot is due in one
//! resolution: a brigade retreat whose unit would draw fire while
//! another shot waits is held back, then offered its shot once the first
//! is answered (`GbacwState::held_brigade_runs`). On corinth_melee's
//! brigade field: Rust's brigade retreat waits for 52 Ill's shot on 7 Ky
//! (1425); 6 Miss (Bowen's brigade) in 1225, also in 52 Ill's ZOC, is the
//! second brigade's unit.

use super::corinth_batteries::{brigade_retreat, checked, copy, fire_offered};
use super::corinth_melee::{brigade_field, retreated};
use super::*;
use crate::gbacw::ruleset::combat::{Roller, Unfold};
use crate::gbacw::ruleset::corinth::brigade_retreat::{BrigadeRun, go_on};
use crate::gbacw::ruleset::state::Resume;

fn bowen_run() -> BrigadeRun {
    BrigadeRun {
        brigade: id("bowen"),
        members: ids(&["6-miss"]),
        batteries: Vec::new(),
    }
}

/// 7 Ky's shot offered; then Bowen's brigade retreat (6 Miss) goes in
/// the same state, with dice from `seed`: its events, applied.
fn second_run(seed: u64) -> (T, Vec<GbacwEvent>) {
    let mut t = fire_offered();
    t.corinth_unit("6-miss", "1225", Formation::Line);
    t.face_towards("6-miss", "1326");
    let stream = crate::dice::DiceStream::from_seed(&seed.to_le_bytes());
    let mut dice = Dice::from_stream(stream);
    let mut u = Unfold::new(&t.s);
    let mut roll = Roller::new(&mut dice);
    go_on(&t.rs, &mut u, &mut roll, bowen_run());
    roll.finish().unwrap();
    for e in &u.events {
        t.rs.evolve(&mut t.s, e);
    }
    (t, u.events)
}

fn shot_on(t: &T) -> Option<Vec<CounterId>> {
    t.s.decision.as_ref().map(|d| d.targets.clone())
}

#[test]
fn corinth_25_23_a_second_brigade_retreat_waits_behind_the_shot_already_offered() {
    let (t, events) = second_run(1);
    // 6 Miss would draw 52 Ill's fire; 7 Ky's shot waits: the run is held,
    // not carried out unfired on.
    assert_eq!(events, vec![GbacwEvent::BrigadeRetreatHeld(bowen_run())]);
    assert_eq!(t.s.held_brigade_runs, vec![bowen_run()]);
    assert_eq!(t.hex("6-miss"), Some(n("1225")));
    assert_eq!(shot_on(&t), Some(ids(&["7-ky"])));
    // Only the first shot is pending (for the Union seat), and the legal
    // answers are to it.
    let pending = t.rs.pending(&t.s);
    assert_eq!(pending[0].seat, UNION);
    assert!(pending[0].prompt.contains("7 Ky"), "{}", pending[0].prompt);
    assert!(t.rs.legal_actions(&t.s, REBEL).is_empty());
    assert_eq!(t.rs.acting_seat(&t.s), Some(UNION));
}

#[test]
fn corinth_25_23_declining_the_first_shot_offers_the_held_brigade_its_own() {
    let (mut t, _) = second_run(1);
    let (events, _) = t.roll(UNION, GbacwAction::DeclineWithdrawalFire, 1);
    // 7 Ky retreats and checks (25.2), then Bowen's retreat goes on and
    // stops for 6 Miss's shot.
    assert_eq!(retreated(&events, "7-ky"), Some(2));
    assert!(checked(&events, "7-ky"));
    let resumed = events.iter().position(
        |e| matches!(e, GbacwEvent::BrigadeRetreatResumed { brigade } if *brigade == id("bowen")),
    );
    let offered = events.iter().rposition(
        |e| matches!(e, GbacwEvent::WithdrawalFireOffered(d) if d.targets == ids(&["6-miss"])),
    );
    assert!(resumed.is_some() && resumed < offered, "{events:#?}");
    assert!(t.s.held_brigade_runs.is_empty());
    let d = t.s.decision.clone().expect("6 Miss's shot offered");
    assert_eq!(d.seat, UNION);
    assert_eq!(d.hex, n("1225"));
    assert!(d.firers.contains(&id("52-ill")), "{:?}", d.firers);
    assert!(
        matches!(&d.resume, Resume::BrigadeRetreat { unit, check: true, run, .. }
            if unit.0 == "6-miss" && run.brigade == id("bowen") && run.members.is_empty())
    );
    assert_eq!(t.hex("6-miss"), Some(n("1225")));
    // The pending decision and the legal set follow: 6 Miss's shot.
    let pending = t.rs.pending(&t.s);
    assert!(
        pending[0].prompt.contains("6 Miss"),
        "{}",
        pending[0].prompt
    );
    let legal = t.rs.legal_actions(&t.s, UNION);
    assert!(
        legal.contains(&GbacwAction::WithdrawalFire {
            firers: d.firers.clone()
        }),
        "{legal:?}"
    );
    // Declined too: 6 Miss retreats its two hexes and checks morale.
    let (events, _) = t.roll(UNION, GbacwAction::DeclineWithdrawalFire, 2);
    assert_eq!(retreated(&events, "6-miss"), Some(2));
    assert!(checked(&events, "6-miss"));
    assert!(t.s.decision.is_none() && t.s.held_brigade_runs.is_empty());
}

#[test]
fn corinth_25_23_firing_the_first_shot_also_lets_the_held_brigade_go_on() {
    let (t, _) = second_run(1);
    let fire = GbacwAction::WithdrawalFire {
        firers: ids(&["52-ill"]),
    };
    for seed in 0..12 {
        let mut x = copy(&t);
        let (events, _) = x.roll(UNION, fire.clone(), seed);
        assert!(
            events.contains(&GbacwEvent::BrigadeRetreatResumed {
                brigade: id("bowen")
            }),
            "seed {seed}: {events:#?}"
        );
        // 52 Ill may fire again (10.19: once per unit that triggers it),
        // unless its first shot ran it out of ammunition: the held shot is
        // read on the board as it stands when the retreat resumes.
        let depleted = x.s.units[&id("52-ill")]
            .status
            .markers
            .contains(&crate::gbacw::oob::Marker::AmmoDepleted);
        if depleted {
            assert_eq!(retreated(&events, "6-miss"), Some(2), "seed {seed}");
        } else {
            assert_eq!(shot_on(&x), Some(ids(&["6-miss"])), "seed {seed}");
        }
        assert!(x.s.held_brigade_runs.is_empty());
    }
}

#[test]
fn corinth_25_23_a_brigade_retreat_in_the_movement_phase_draws_its_fire() {
    // Before, 25.23 was not offered in the Movement Phase (one decision at
    // a time); a brigade retreat there now stops for 7 Ky's shot too.
    let mut t = brigade_field();
    if let Step::Phase { phase, .. } = &mut t.s.clock.step {
        *phase = Phase::Movement;
    }
    let (seed, _) = brigade_retreat(&mut t);
    let d = t.s.decision.clone().expect("withdrawal fire offered");
    assert_eq!(d.targets, ids(&["7-ky"]), "seed {seed}");
    assert_eq!(d.seat, UNION);
    let (events, _) = t.roll(UNION, GbacwAction::DeclineWithdrawalFire, 1);
    assert_eq!(retreated(&events, "7-ky"), Some(2));
}
