//! Take-back (issue 18) at the engine and log level: a take-back is an
//! entry of its own in the append-only log; the match, `verify_log` and
//! `replay` fold it the same way, so a replayed log gives the same state.
//! Refused after a roll, after a reveal of hidden information, for another
//! seat's action, and (GBACW) for an answer another seat waits on.

use muster_shared::SeatId;
use muster_shared::engine::verify::replay;
use muster_shared::engine::{LogEntry, MatchError, Ruleset, verify_log};
use muster_shared::gbacw::ruleset::{Gbacw, GbacwConfig};
use muster_shared::sandbox::{Loc, PieceId, Position, Sandbox, SandboxAction, SandboxConfig};

mod support;
use support::table::Table;

fn hex(col: u16, row: u16) -> Position {
    Position {
        board: 0,
        loc: Loc::Hex { col, row },
    }
}

fn place(seat: u8, hidden: bool) -> SandboxAction {
    SandboxAction::Place {
        at: hex(3, 4),
        label: "Iron Brigade".into(),
        owner: Some(SeatId(seat)),
        face_up: true,
        hidden,
    }
}

fn refusal(e: MatchError) -> String {
    match e {
        MatchError::Rule(r) => r.message,
        other => panic!("not a rule refusal: {other}"),
    }
}

#[test]
fn take_back_restores_the_state_and_replays_the_same() {
    let mut t = Table::<Sandbox>::new(&SandboxConfig::default());
    let placed = t.act(0, place(0, false)).unwrap();
    let after_place = t.m.state().clone();
    let moved = t
        .act(
            0,
            SandboxAction::Move {
                pieces: vec![PieceId(placed)],
                to: hex(4, 4),
            },
        )
        .unwrap();
    assert_eq!(t.m.take_back_target(SeatId(0)), Ok(moved));
    let taken = t.m.take_back(SeatId(0)).unwrap();
    assert_eq!(taken.undone, moved);
    assert!(*t.m.state() == after_place, "the move is undone");
    // Append-only: the move is still in the log, and the take-back after it.
    assert_eq!(t.m.log().entries.len() as u64, taken.seq);
    assert!(matches!(
        t.m.log().get(taken.seq),
        Some(LogEntry::TakeBack { seat: SeatId(0), undone }) if *undone == moved
    ));
    t.assert_replays();
    // One at a time, back to before the placement.
    t.m.take_back(SeatId(0)).unwrap();
    assert!(t.m.state().pieces.is_empty());
    t.assert_replays();
    // And play goes on from there, still replaying the same.
    t.act(0, place(0, false)).unwrap();
    t.assert_replays();
}

#[test]
fn nothing_before_a_roll_can_be_taken_back() {
    let mut t = Table::<Sandbox>::new(&SandboxConfig::default());
    t.act(0, place(0, false)).unwrap();
    t.act(
        0,
        SandboxAction::Roll {
            count: 1,
            sides: 6,
            note: "fire".into(),
        },
    )
    .unwrap();
    let before = t.m.log().entries.len();
    let e = refusal(t.m.take_back(SeatId(0)).unwrap_err());
    assert!(e.contains("rolled dice"), "{e}");
    assert_eq!(t.m.log().entries.len(), before, "a refusal logs nothing");
    t.assert_replays();
}

#[test]
fn only_your_own_last_action_can_be_taken_back() {
    let mut t = Table::<Sandbox>::new(&SandboxConfig::default());
    t.act(0, place(0, false)).unwrap();
    t.act(1, place(1, false)).unwrap();
    let e = refusal(t.m.take_back(SeatId(0)).unwrap_err());
    assert!(e.contains("other side"), "{e}");
    // Seat 1 may take back its own.
    t.m.take_back(SeatId(1)).unwrap();
    // Then seat 0's placement is the last standing action again.
    t.m.take_back(SeatId(0)).unwrap();
    t.assert_replays();
}

#[test]
fn hidden_information_is_final() {
    let mut t = Table::<Sandbox>::new(&SandboxConfig::default());
    t.act(0, place(0, true)).unwrap();
    let e = refusal(t.m.take_back(SeatId(0)).unwrap_err());
    assert!(e.contains("hidden"), "{e}");
}

#[test]
fn a_tampered_take_back_fails_verification() {
    let mut t = Table::<Sandbox>::new(&SandboxConfig::default());
    t.act(0, place(0, false)).unwrap();
    let mut log = t.m.log().clone();
    // Seat 1 "takes back" seat 0's placement: the verifier refuses it.
    log.entries.push(LogEntry::TakeBack {
        seat: SeatId(1),
        undone: log.entries.len() as u64,
    });
    let report = verify_log(&log);
    assert!(!report.ok());
    assert_eq!(report.failures[0].seq, log.entries.len() as u64);
    assert!(replay::<Sandbox>(&log).is_err());
}

#[test]
fn gbacw_set_up_placements_are_taken_back_and_replay() {
    let config = GbacwConfig {
        battle: "cedar_mountain".into(),
        ..GbacwConfig::default()
    };
    let mut t = Table::<Gbacw>::new(&config);
    let start = t.m.state().clone();
    let seat = t.m.ruleset().acting_seat(t.m.state()).unwrap();
    let legal = t.m.ruleset().legal_actions(t.m.state(), seat);
    let first = legal
        .iter()
        .find(|a| !t.m.rolls_dice(seat, a))
        .cloned()
        .unwrap();
    t.act(seat.0, first).unwrap();
    assert!(t.m.take_back_target(seat).is_ok());
    t.m.take_back(seat).unwrap();
    assert!(*t.m.state() == start);
    t.assert_replays();
}
