use super::*;

fn walk(spec: &SequenceSpec) -> Vec<(u16, String, Option<PlayerTurn>)> {
    let mut out = Vec::new();
    let mut c = Some(Clock::start());
    while let Some(clock) = c {
        out.push((clock.turn, spec.step_name(clock.step), clock.step.phasing()));
        c = clock.next(spec);
        assert!(out.len() < 10_000, "the clock must end");
    }
    out
}

#[test]
fn case_4_0_two_player_turns_of_a_to_j_then_record_interphase() {
    let spec = SequenceSpec::standard(2);
    let steps = walk(&spec);
    assert_eq!(steps.len(), 2 * (2 * 9 + 1));
    let letters: String = Phase::ALL.iter().map(|p| p.letter()).collect();
    assert_eq!(letters, "ABCDEFGHJ");
    assert_eq!(
        steps[0],
        (
            1,
            "A. Initial Command Phase".into(),
            Some(PlayerTurn::First)
        )
    );
    assert_eq!(steps[8].1, "J. Final Command Phase");
    assert_eq!(
        steps[9],
        (
            1,
            "A. Initial Command Phase".into(),
            Some(PlayerTurn::Second)
        )
    );
    assert_eq!(steps[18], (1, "Game-Turn Record Interphase".into(), None));
    assert_eq!(steps[19].0, 2);
    assert_eq!(steps.last().unwrap().1, "Game-Turn Record Interphase");
}

#[test]
fn case_4_0_defensive_fire_belongs_to_the_non_phasing_player() {
    assert!(Phase::DefensiveFire.non_phasing_acts());
    assert!(Phase::ALL.iter().filter(|p| p.non_phasing_acts()).count() == 1);
}

#[test]
fn case_4_0_exclusive_rules_add_phases_and_interphases() {
    // Corinth 21.1: K after J on night turns 17-20; Victory Determination
    // after GT 16; BCE Recovery and Pre-Dawn Barrage after GT 20.
    let spec = SequenceSpec {
        last_turn: 21,
        extra_phases: vec![ExtraPhase {
            name: "K. Straggler Recovery Phase".into(),
            after: Phase::FinalCommand,
            turns: Some((17, 20)),
        }],
        interphases: vec![
            ExtraInterphase {
                name: "Victory Determination Interphase".into(),
                turns: Some((16, 16)),
            },
            ExtraInterphase {
                name: "BCE Recovery Interphase".into(),
                turns: Some((20, 20)),
            },
            ExtraInterphase {
                name: "Pre-Dawn Barrage Interphase".into(),
                turns: Some((20, 20)),
            },
        ],
    };
    let names = |turn: u16| -> Vec<String> {
        spec.steps(turn)
            .into_iter()
            .map(|s| spec.step_name(s))
            .collect()
    };
    assert_eq!(names(1).len(), 19);
    assert!(!names(16).iter().any(|n| n.starts_with('K')));
    let t16 = names(16);
    assert_eq!(t16[t16.len() - 2], "Victory Determination Interphase");
    let t20 = names(20);
    assert_eq!(t20.len(), 2 * 10 + 3);
    assert_eq!(t20[9], "K. Straggler Recovery Phase");
    assert_eq!(
        &t20[20..],
        [
            "BCE Recovery Interphase",
            "Pre-Dawn Barrage Interphase",
            "Game-Turn Record Interphase"
        ]
    );
    let all = walk(&spec);
    assert_eq!(all.last().unwrap().0, 21);
}

#[test]
fn a_clock_not_on_the_spec_stops() {
    let spec = SequenceSpec::standard(1);
    let stray = Clock {
        turn: 1,
        step: Step::ExtraPhase {
            player: PlayerTurn::First,
            index: 3,
        },
    };
    assert_eq!(stray.next(&spec), None);
    assert_eq!(spec.step_name(stray.step), "unknown phase");
}
