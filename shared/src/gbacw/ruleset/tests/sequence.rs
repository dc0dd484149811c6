//! The sequence of play (4.0).

use super::*;
use crate::gbacw::sequence::PlayerTurn;

#[test]
fn case_4_0_a_game_turn_is_two_player_turns_of_phases_a_to_j() {
    let mut t = T::empty();
    let mut seen = Vec::new();
    while t.s.clock.turn == 1 {
        let Step::Phase { player, phase } = t.s.clock.step else {
            panic!("stopped in {:?}", t.s.clock.step);
        };
        let actor = t.rs.acting_seat(&t.s).unwrap();
        // The non-phasing player acts only in the Defensive Fire Phase.
        let phasing = t.rs.seat_of(t.rs.side_of_turn(player));
        assert_eq!(actor == phasing, phase != Phase::DefensiveFire, "{phase:?}");
        let other = SeatId(1 - actor.0);
        t.refused(other, GbacwAction::EndPhase, "GBACW 4.0");
        seen.push((player, phase.letter()));
        t.ok(actor, GbacwAction::EndPhase);
    }
    let letters: String = seen.iter().map(|(_, l)| *l).collect();
    assert_eq!(letters, "ABCDEFGHJABCDEFGHJ");
    assert!(seen[..9].iter().all(|(p, _)| *p == PlayerTurn::First));
    assert!(seen[9..].iter().all(|(p, _)| *p == PlayerTurn::Second));
    // Game-Turn 2 opens with the First Player-Turn's Initial Command Phase.
    assert_eq!(t.s.clock.turn, 2);
    assert_eq!(t.rs.acting_seat(&t.s), Some(UNION));
    assert_eq!(t.phase(), Some(Phase::InitialCommand));
}

#[test]
fn case_4_0_the_game_ends_after_the_last_game_turn() {
    let mut t = T::empty();
    let last = t.rs.game().sequence.last_turn;
    for _ in 0..(usize::from(last) * 18) {
        let actor = t.rs.acting_seat(&t.s).unwrap();
        t.ok(actor, GbacwAction::EndPhase);
    }
    assert!(t.s.over);
    assert!(t.rs.outcome(&t.s).is_some());
    assert_eq!(t.rs.acting_seat(&t.s), None);
    let e = t.refused(UNION, GbacwAction::EndPhase, "GBACW 4.0");
    assert_eq!(e.code, crate::engine::RuleCode::GameOver);
    assert!(t.rs.legal_actions(&t.s, UNION).is_empty());
}

#[test]
fn case_5_0_units_move_only_in_their_own_movement_phase() {
    let mut t = T::new();
    t.refused(UNION, mv(&["5-conn"], &["0306"]), "GBACW 5.0");
    t.advance_to(REBEL, Phase::Movement);
    let e = t.refused(UNION, mv(&["5-conn"], &["0306"]), "GBACW 4.0");
    assert_eq!(e.code, crate::engine::RuleCode::NotYourTurn);
}

#[test]
fn legal_actions_are_all_accepted_in_every_phase_of_a_turn() {
    let mut t = T::new();
    for _ in 0..18 {
        let actor = t.rs.acting_seat(&t.s).unwrap();
        let legal = t.rs.legal_actions(&t.s, actor);
        assert!(legal.contains(&GbacwAction::EndPhase));
        for a in &legal {
            t.decide(actor, a).unwrap_or_else(|e| panic!("{a:?}: {e}"));
        }
        if t.phase() == Some(Phase::Movement) {
            assert!(legal.iter().any(|a| matches!(a, GbacwAction::Move { .. })));
            assert!(
                legal
                    .iter()
                    .any(|a| matches!(a, GbacwAction::ChangeFormation { .. }))
            );
        }
        t.ok(actor, GbacwAction::EndPhase);
    }
}

#[test]
fn case_4_0_exclusive_rule_phases_are_held_and_interphases_passed() {
    use crate::gbacw::sequence::{ExtraInterphase, ExtraPhase};
    let mut t = T::empty();
    t.rs.game.sequence.extra_phases.push(ExtraPhase {
        name: "K. Straggler Recovery Phase".into(),
        after: Phase::FinalCommand,
        turns: None,
    });
    t.rs.game.sequence.interphases.push(ExtraInterphase {
        name: "Victory Determination Interphase".into(),
        turns: None,
    });
    let mut extra = Vec::new();
    while t.s.clock.turn == 1 {
        if let Step::ExtraPhase { player, .. } = t.s.clock.step {
            let phasing = t.rs.seat_of(t.rs.side_of_turn(player));
            assert_eq!(t.rs.acting_seat(&t.s), Some(phasing));
            extra.push(phasing);
        }
        let actor =
            t.rs.acting_seat(&t.s)
                .expect("someone acts in every step held");
        t.ok(actor, GbacwAction::EndPhase);
    }
    assert_eq!(extra, [UNION, REBEL]);
}
