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

use bytes::Bytes;
use muster_shared::codec;
use muster_shared::protocol::{DeltaBody, ServerMsg};
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

/// Where a spectator's bytes go: each part's bytes summed over frames.
const PARTS: [&str; 10] = [
    "WebSocket frame header",
    "message tag (Delta)",
    "table id",
    "sequence number",
    "body tag, seat, by-default flag",
    "events (length + moved + rolled)",
    "proof: option, seats, dice-option, reveal-count bytes",
    "proof: action (tag + bytes or digest)",
    "proof: chain links shown",
    "other messages",
];

/// A value's encoded length.
macro_rules! len_of {
    ($v:expr) => {
        codec::encode_infallible($v).len() as u64
    };
}

/// Split each frame into [`PARTS`], decoding it and re-encoding every
/// field on its own (the codec has no framing between fields, so the
/// parts add up to the frame exactly).
fn anatomy(frames: &[Bytes]) -> [u64; PARTS.len()] {
    let mut parts = [0u64; PARTS.len()];
    for frame in frames {
        let len = frame.len() as u64;
        parts[0] += if len < 126 { 2 } else { 4 };
        let msg = ServerMsg::decode(frame).expect("a server message");
        let ServerMsg::Delta { table, seq, body } = &msg else {
            parts[9] += len;
            continue;
        };
        let (t, q, b) = (len_of!(table), len_of!(seq), len_of!(body));
        parts[1] += len - t - q - b;
        parts[2] += t;
        parts[3] += q;
        let DeltaBody::Lean { events, roll, .. } = body else {
            parts[9] += b;
            continue;
        };
        let ev = len_of!(&(events.len() as u64)) + events.len() as u64;
        let r = len_of!(roll);
        parts[4] += b - ev - r;
        parts[5] += ev;
        let Some(lean) = roll else {
            parts[6] += r;
            continue;
        };
        // The tags and counts stay in the fixed part; the payloads apart.
        let action = len_of!(&lean.action);
        let shown = len_of!(&lean.reveal) - len_of!(&0u64);
        parts[7] += action;
        parts[8] += shown;
        parts[6] += r - action - shown;
    }
    parts
}

/// Bytes a spectator received per move, averaged over the four.
async fn bytes_per_move(form: Form, reveal_every: u32) -> f64 {
    bytes_and_anatomy(form, reveal_every).await.0
}

/// Also where the first spectator's bytes went, per move.
async fn bytes_and_anatomy(form: Form, reveal_every: u32) -> (f64, [f64; PARTS.len()]) {
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
    let parts = anatomy(&specs[0].received[counted_from[0]..]).map(|b| b as f64 / f64::from(MOVES));
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
    (total as f64 / f64::from(MOVES) / specs.len() as f64, parts)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_with_its_dice_proof_costs_a_spectator_at_most_64_bytes() {
    let before = bytes_per_move(Form::TwoActions, 1).await;
    let one_action = bytes_per_move(Form::OneAction, 1).await;
    let (after, parts) = bytes_and_anatomy(Form::OneAction, 8).await;
    let every_4 = bytes_per_move(Form::OneAction, 4).await;
    eprintln!(
        "bytes per move per spectator: Move + Roll, whole proofs {before:.1}; \
         MoveRoll, whole proofs {one_action:.1}; MoveRoll, links every 4 rolls \
         {every_4:.1}; every 8 rolls {after:.1}"
    );
    eprintln!("where a spectator's {after:.1} B per move go (links every 8 rolls):");
    for (name, b) in PARTS.iter().zip(parts) {
        eprintln!("  {b:>5.2} B  {name}");
    }
    let sum: f64 = parts.iter().sum();
    assert!(
        (sum - after).abs() < 0.01,
        "the parts add up: {sum} = {after}"
    );
    assert!(one_action < before, "{one_action} < {before}");
    assert!(after <= 64.0, "{after:.1} B per move per spectator");
}
