//! The sandbox's own rules: who may handle what, turns, and limits.

use super::*;
use crate::dice::DiceStream;
use crate::engine::{ActionContext, Dice, RuleCode, Ruleset};

fn ctx(seat: u8, seq: u64) -> ActionContext {
    ActionContext {
        seat: SeatId(seat),
        seq,
        by_default: false,
    }
}

fn hex(col: u16, row: u16) -> Position {
    Position {
        board: 0,
        loc: Loc::Hex { col, row },
    }
}

/// Apply an action the way the engine does: decide, then fold the events.
fn act(
    rules: &Sandbox,
    state: &mut SandboxState,
    seat: u8,
    seq: u64,
    action: SandboxAction,
) -> Result<Vec<SandboxEvent>, RuleError> {
    let mut dice = Dice::from_stream(DiceStream::from_seed(&seq.to_le_bytes()));
    let events = rules.decide(state, &ctx(seat, seq), &action, &mut dice)?;
    for e in &events {
        rules.evolve(state, e);
    }
    Ok(events)
}

fn place(owner: Option<u8>, at: Position, hidden: bool) -> SandboxAction {
    SandboxAction::Place {
        at,
        label: "Hatch".into(),
        owner: owner.map(SeatId),
        face_up: true,
        hidden,
    }
}

#[test]
fn pieces_of_another_seat_cannot_be_handled_but_neutral_ones_can() {
    let rules = Sandbox::new(&SandboxConfig::default()).unwrap();
    let mut s = rules.initial_state();
    act(&rules, &mut s, 0, 1, place(Some(0), hex(1, 1), false)).unwrap();
    act(&rules, &mut s, 0, 2, place(None, hex(2, 2), false)).unwrap();
    let err = act(
        &rules,
        &mut s,
        1,
        3,
        SandboxAction::Flip { piece: PieceId(1) },
    )
    .unwrap_err();
    assert_eq!(err.code, RuleCode::NotYours);
    act(
        &rules,
        &mut s,
        1,
        4,
        SandboxAction::Flip { piece: PieceId(2) },
    )
    .unwrap();
    assert!(!s.pieces[&PieceId(2)].face_up);
}

#[test]
fn stacking_order_follows_moves_and_reorders() {
    let rules = Sandbox::new(&SandboxConfig::default()).unwrap();
    let mut s = rules.initial_state();
    for seq in 1..=3 {
        act(
            &rules,
            &mut s,
            0,
            seq,
            place(Some(0), hex(seq as u16, 0), false),
        )
        .unwrap();
    }
    let ids = |s: &SandboxState| {
        s.stack_at(hex(3, 0))
            .iter()
            .map(|p| p.id.0)
            .collect::<Vec<_>>()
    };
    act(
        &rules,
        &mut s,
        0,
        4,
        SandboxAction::Stack {
            pieces: vec![PieceId(1), PieceId(2)],
            onto: PieceId(3),
        },
    )
    .unwrap();
    assert_eq!(ids(&s), [3, 1, 2], "moved pieces go on top, in order");
    act(
        &rules,
        &mut s,
        0,
        5,
        SandboxAction::Reorder {
            piece: PieceId(2),
            to_bottom: true,
        },
    )
    .unwrap();
    assert_eq!(ids(&s), [2, 3, 1]);
    act(
        &rules,
        &mut s,
        0,
        6,
        SandboxAction::Reorder {
            piece: PieceId(2),
            to_bottom: false,
        },
    )
    .unwrap();
    assert_eq!(ids(&s), [3, 1, 2]);
    // Unstacking needs an empty place, and a stack to leave.
    let err = act(
        &rules,
        &mut s,
        0,
        7,
        SandboxAction::Unstack {
            piece: PieceId(2),
            to: hex(3, 0),
        },
    )
    .unwrap_err();
    assert_eq!(err.code, RuleCode::Illegal);
    act(
        &rules,
        &mut s,
        0,
        8,
        SandboxAction::Unstack {
            piece: PieceId(2),
            to: hex(7, 7),
        },
    )
    .unwrap();
    assert_eq!(ids(&s), [3, 1]);
}

#[test]
fn alternating_turns_refuse_the_other_seat() {
    let config = SandboxConfig {
        turn_order: TurnOrder::Alternating,
        ..SandboxConfig::default()
    };
    let rules = Sandbox::new(&config).unwrap();
    let mut s = rules.initial_state();
    let err = act(&rules, &mut s, 1, 1, place(Some(1), hex(0, 0), false)).unwrap_err();
    assert_eq!(err.code, RuleCode::NotYourTurn);
    act(&rules, &mut s, 0, 2, SandboxAction::EndTurn).unwrap();
    act(&rules, &mut s, 1, 3, place(Some(1), hex(0, 0), false)).unwrap();
    assert!(rules.legal_actions(&s, SeatId(0)).is_empty());
}

#[test]
fn values_out_of_range_are_refused() {
    let rules = Sandbox::new(&SandboxConfig::default()).unwrap();
    let mut s = rules.initial_state();
    let refused = |s: &mut SandboxState, a| act(&rules, s, 0, 9, a).unwrap_err().code;
    assert_eq!(
        refused(&mut s, place(Some(0), hex(40, 0), false)),
        RuleCode::Invalid
    );
    assert_eq!(
        refused(
            &mut s,
            place(
                Some(0),
                Position {
                    board: 7,
                    loc: Loc::Hex { col: 0, row: 0 }
                },
                false
            )
        ),
        RuleCode::Invalid
    );
    assert_eq!(
        refused(
            &mut s,
            place(
                Some(0),
                Position {
                    board: 0,
                    loc: Loc::Point { x: 1, y: 1 }
                },
                false
            )
        ),
        RuleCode::Invalid
    );
    assert_eq!(
        refused(&mut s, place(Some(5), hex(0, 0), false)),
        RuleCode::Invalid
    );
    assert_eq!(
        refused(&mut s, place(Some(1), hex(0, 0), true)),
        RuleCode::NotYours
    );
    let long = SandboxAction::Place {
        at: hex(0, 0),
        label: "x".repeat(MAX_TEXT + 1),
        owner: None,
        face_up: true,
        hidden: false,
    };
    assert_eq!(refused(&mut s, long), RuleCode::Invalid);
    for (count, sides) in [(0, 6), (MAX_DICE + 1, 6), (1, 1), (1, MAX_SIDES + 1)] {
        let roll = SandboxAction::Roll {
            count,
            sides,
            note: String::new(),
        };
        assert_eq!(refused(&mut s, roll), RuleCode::Invalid);
    }
    assert_eq!(refused(&mut s, SandboxAction::EndTurn), RuleCode::Illegal);
    assert!(s.pieces.is_empty(), "refusals change nothing");
}

#[test]
fn rolls_record_every_die_in_range() {
    let rules = Sandbox::new(&SandboxConfig::default()).unwrap();
    let mut s = rules.initial_state();
    let action = SandboxAction::Roll {
        count: 10,
        sides: 6,
        note: "fire".into(),
    };
    assert!(rules.rolls_dice(&s, &ctx(0, 1), &action));
    act(&rules, &mut s, 0, 1, action).unwrap();
    let roll = s.last_roll.clone().unwrap();
    assert_eq!(roll.dice.len(), 10);
    assert!(roll.dice.iter().all(|d| (1..=6).contains(d)));
    // Only rolls roll: a move with no dice stream is fine.
    let mut none = Dice::none();
    let flip_free = rules.decide(&s, &ctx(0, 2), &place(None, hex(0, 0), false), &mut none);
    assert!(flip_free.is_ok());
}

#[test]
fn every_legal_action_is_accepted() {
    let rules = Sandbox::new(&SandboxConfig::default()).unwrap();
    let mut s = rules.initial_state();
    for round in 0..30u64 {
        let seq = round + 1;
        let seat = (round % 2) as u8;
        let legal = rules.legal_actions(&s, SeatId(seat));
        for a in &legal {
            let mut copy = s.clone();
            act(&rules, &mut copy, seat, seq, a.clone()).unwrap_or_else(|e| panic!("{a:?}: {e}"));
        }
        let pick = legal[(round as usize * 7) % legal.len()].clone();
        act(&rules, &mut s, seat, seq, pick).unwrap();
    }
}

/// Issue 22: `to_act` answers without listing actions; it must name
/// exactly the seats `legal_actions` has something for, through requested
/// rolls, turns passed and both turn orders.
#[test]
fn to_act_names_exactly_the_seats_with_a_legal_action() {
    for turn_order in [TurnOrder::Free, TurnOrder::Alternating] {
        let config = SandboxConfig {
            seats: 3,
            turn_order,
            ..SandboxConfig::default()
        };
        let rules = Sandbox::new(&config).unwrap();
        let mut s = rules.initial_state();
        let (mut requests, mut turns) = (0, std::collections::BTreeSet::new());
        for step in 0..60u64 {
            requests += usize::from(s.request.is_some());
            turns.insert(s.turn);
            let with_legal: Vec<SeatId> = (0..3)
                .map(SeatId)
                .filter(|seat| !rules.legal_actions(&s, *seat).is_empty())
                .collect();
            assert_eq!(rules.to_act(&s), with_legal, "{turn_order:?}, step {step}");
            let seat = with_legal[(step as usize * 5) % with_legal.len()];
            let legal = rules.legal_actions(&s, seat);
            // Every third step asks for a roll when one may be asked.
            let pick = legal
                .iter()
                .find(|a| step % 3 == 0 && matches!(a, SandboxAction::RequestRoll { .. }))
                .unwrap_or(&legal[(step as usize * 7) % legal.len()])
                .clone();
            act(&rules, &mut s, seat.0, step + 1, pick).unwrap();
        }
        assert!(requests > 0, "{turn_order:?}: no roll was asked for");
        if turn_order == TurnOrder::Alternating {
            assert!(turns.len() > 1, "the turn never passed");
        }
    }
}

#[test]
fn move_roll_moves_and_rolls_in_one_action_or_does_neither() {
    let rules = Sandbox::new(&SandboxConfig::default()).unwrap();
    let mut s = rules.initial_state();
    act(&rules, &mut s, 0, 1, place(None, hex(0, 0), false)).unwrap();
    let mr = |piece: u64, sides: u16| SandboxAction::MoveRoll {
        pieces: vec![PieceId(piece)],
        to: hex(3, 4),
        count: 1,
        sides,
    };
    let c = ctx(1, 2);
    assert!(rules.rolls_dice(&s, &c, &mr(1, 6)));
    let events = act(&rules, &mut s, 1, 2, mr(1, 6)).unwrap();
    assert!(matches!(
        events[0],
        SandboxEvent::Moved {
            piece: PieceId(1),
            ..
        }
    ));
    let SandboxEvent::Rolled(r) = &events[1] else {
        panic!("the roll follows the move: {events:?}");
    };
    assert_eq!((r.sides, r.dice.len()), (6, 1));
    assert!((1..=6).contains(&r.dice[0]));
    assert_eq!(s.pieces[&PieceId(1)].at, hex(3, 4));
    assert_eq!(s.last_roll.as_ref(), Some(r));
    // A move that is refused refuses the roll with it, and the reverse.
    let before = s.clone();
    assert!(act(&rules, &mut s, 1, 3, mr(9, 6)).is_err());
    assert!(act(&rules, &mut s, 1, 3, mr(1, 1)).is_err());
    assert_eq!(s, before);
}
