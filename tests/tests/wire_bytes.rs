//! Issue 22: bytes down per move per spectator, counted over real loopback
//! sockets. Two seats and four spectators follow a sandbox table; the seats
//! take turns making the benchmark's move (move the counter to a hex and
//! roll a d6), each waited for, and every frame a spectator receives from
//! the first move to the last is counted (payload plus the 2-byte
//! WebSocket frame header of a server frame under 126 bytes).
//!
//! The figure before (two actions, `Move` then `Roll`, whole proofs) and
//! after (one `MoveRoll`, compact spectator deltas with links shown every
//! 8 rolls) are both measured; the test asserts the second is at most 64 B
//! and that every spectator still checked every roll.

use muster_shared::sandbox::{Loc, PieceId, Position, SandboxAction};
use muster_tests::e2e::{Client, Target, sandbox_table, start_server};

/// A multiple of every `reveal_every` below, so the last move shows every
/// link and each spectator ends with every roll checked.
const MOVES: u32 = 64;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Form {
    /// `Move`, then `Roll`: two actions, two entries, two deltas.
    TwoActions,
    /// `MoveRoll`: one action.
    OneAction,
}

fn hex(i: u32) -> Position {
    Position {
        board: 0,
        loc: Loc::Hex {
            col: (i % 40) as u16,
            row: ((i / 40) % 30) as u16,
        },
    }
}

/// Bytes a spectator received per move, averaged over the four.
async fn bytes_per_move(form: Form, reveal_every: u32) -> f64 {
    let (server, _dir) = start_server(|c| c.reveal_every = reveal_every).await;
    let target = Target::of(&server);
    let mut a = Client::connect(&target, false, "Ada").await;
    let (table, _) = a.create_table(sandbox_table(false, 0)).await;
    a.sit(table, None).await;
    let mut b = Client::connect(&target, false, "Bo").await;
    b.sit(table, None).await;
    let placed = b
        .act(&SandboxAction::Place {
            at: hex(0),
            label: "counter".into(),
            owner: None,
            face_up: true,
            hidden: false,
        })
        .await
        .expect("the counter is placed");
    a.sync_to(placed).await;
    let piece = PieceId(placed);
    let mut specs = Vec::new();
    for i in 0..4 {
        let mut s = Client::connect(&target, false, &format!("watcher {i}")).await;
        s.spectate(table, None).await;
        s.sync_to(placed).await;
        specs.push(s);
    }
    let counted_from: Vec<usize> = specs.iter().map(|s| s.received.len()).collect();
    for i in 0..MOVES {
        let (mover, other) = if i % 2 == 0 {
            (&mut a, &mut b)
        } else {
            (&mut b, &mut a)
        };
        let to = hex(i + 1);
        let last = match form {
            Form::TwoActions => {
                mover
                    .act(&SandboxAction::Move {
                        pieces: vec![piece],
                        to,
                    })
                    .await
                    .expect("move accepted");
                mover
                    .act(&SandboxAction::Roll {
                        count: 1,
                        sides: 6,
                        note: String::new(),
                    })
                    .await
                    .expect("roll accepted")
            }
            Form::OneAction => mover
                .act(&SandboxAction::MoveRoll {
                    pieces: vec![piece],
                    to,
                    count: 1,
                    sides: 6,
                })
                .await
                .expect("move-and-roll accepted"),
        };
        other.sync_to(last).await;
        for s in specs.iter_mut() {
            s.sync_to(last).await;
        }
    }
    let mut total = 0u64;
    for (s, from) in specs.iter().zip(&counted_from) {
        let f = s.follower();
        assert!(f.bad_rolls().is_empty(), "{}: {:?}", s.name, f.bad_rolls());
        assert_eq!(f.rolls(), u64::from(MOVES), "{} saw every roll", s.name);
        assert_eq!(
            f.verified_rolls(),
            u64::from(MOVES),
            "{} checked every roll",
            s.name
        );
        assert_eq!(f.waiting_rolls(), 0);
        assert_eq!(f.state(), &a.public_view(), "{} sees the table", s.name);
        total += s.received[*from..]
            .iter()
            .map(|frame| frame.len() as u64 + if frame.len() < 126 { 2 } else { 4 })
            .sum::<u64>();
    }
    for p in [&a, &b] {
        assert!(p.follower().bad_rolls().is_empty());
        assert_eq!(p.follower().verified_rolls(), u64::from(MOVES));
    }
    server.shutdown().await;
    total as f64 / f64::from(MOVES) / specs.len() as f64
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_with_its_dice_proof_costs_a_spectator_at_most_64_bytes() {
    let before = bytes_per_move(Form::TwoActions, 1).await;
    let one_action = bytes_per_move(Form::OneAction, 1).await;
    let after = bytes_per_move(Form::OneAction, 8).await;
    let every_4 = bytes_per_move(Form::OneAction, 4).await;
    eprintln!(
        "bytes per move per spectator: Move + Roll, whole proofs {before:.1}; \
         MoveRoll, whole proofs {one_action:.1}; MoveRoll, links every 4 rolls \
         {every_4:.1}; every 8 rolls {after:.1}"
    );
    assert!(one_action < before, "{one_action} < {before}");
    assert!(after <= 64.0, "{after:.1} B per move per spectator");
}
