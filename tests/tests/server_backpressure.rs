//! Issue 3, "must show" 3: a spectator that never reads does not delay the
//! players (measured against the same play without it), and is dropped to
//! a resync: once it reads again it is told, gets a snapshot, and follows
//! on from there.

use muster_shared::protocol::{ErrorCode, ServerMsg};
use muster_shared::sandbox::{Loc, Position, SandboxAction};
use muster_tests::e2e::{Client, Target, WAIT, metric, sandbox_table, start_server};
use std::time::{Duration, Instant};

/// Place a piece with a long label: fat deltas fill buffers sooner.
fn place(i: usize) -> SandboxAction {
    SandboxAction::Place {
        at: Position {
            board: 0,
            loc: Loc::Hex {
                col: (i % 40) as u16,
                row: (i / 40 % 30) as u16,
            },
        },
        label: format!("{i:04} {}", "x".repeat(56)),
        owner: None,
        face_up: true,
        hidden: false,
    }
}

async fn play(a: &mut Client, b: &mut Client, from: usize, n: usize) -> Vec<Duration> {
    let mut took = Vec::with_capacity(n);
    for i in from..from + n {
        let (p, other) = if i % 2 == 0 {
            (&mut *a, &mut *b)
        } else {
            (&mut *b, &mut *a)
        };
        let t = Instant::now();
        let seq = p.act(&place(i)).await.expect("accepted");
        took.push(t.elapsed());
        other.sync_to(seq).await;
    }
    took.sort();
    took
}

fn pct(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_that_never_reads_does_not_delay_the_players() {
    // Small queues and socket buffers so "not reading" bites within a few
    // hundred deltas instead of megabytes.
    let (server, _dir) = start_server(|c| {
        c.limits.queue = 16;
        c.limits.tcp_send_buffer = Some(4096);
    })
    .await;
    let t = Target::of(&server);
    let mut a = Client::connect(&t, false, "a").await;
    let mut b = Client::connect(&t, true, "b").await;
    let (table, _) = a.create_table(sandbox_table(false, 0)).await;
    a.sit(table, None).await;
    b.sit(table, None).await;

    let baseline = play(&mut a, &mut b, 0, 150).await;

    let mut opts = t.options();
    opts.recv_buffer = Some(4096);
    let conn = muster_client::Connection::connect(&t.ws, &opts)
        .await
        .unwrap();
    let mut stuck = Client::connect(&t, false, "stuck").await;
    stuck.conn = conn;
    stuck.conn.sign_in_guest("stuck").await.unwrap();
    stuck.spectate(table, None).await;
    // From here on `stuck` reads nothing.
    let with_stuck = play(&mut a, &mut b, 150, 300).await;

    let (b50, b99) = (pct(&baseline, 0.5), pct(&baseline, 0.99));
    let (s50, s99) = (pct(&with_stuck, 0.5), pct(&with_stuck, 0.99));
    eprintln!(
        "action round trip: alone p50 {b50:?} p99 {b99:?}; with a stuck spectator p50 {s50:?} p99 {s99:?}"
    );
    let lagged = metric(&server, "muster_lagged_total").await.unwrap_or(0.0);
    assert!(
        lagged >= 1.0,
        "the stuck spectator was dropped from the room ({lagged})"
    );
    // Generous bounds: CI machines are noisy; a room waiting on the stuck
    // socket would add the 30 s write timeout, not milliseconds.
    assert!(
        s50 <= b50 * 3 + Duration::from_millis(20),
        "p50 {s50:?} vs {b50:?}"
    );
    assert!(
        s99 <= b99 * 4 + Duration::from_millis(100),
        "p99 {s99:?} vs {b99:?}"
    );

    // It reads again: old deltas, then Resync, then a snapshot it can follow from.
    stuck
        .until(WAIT, |m| {
            matches!(
                m,
                ServerMsg::Error {
                    code: ErrorCode::Resync,
                    ..
                }
            )
        })
        .await;
    stuck
        .until(WAIT, |m| matches!(m, ServerMsg::Snapshot(_)))
        .await;
    let last = a.seq().max(b.seq());
    stuck.sync_to(last).await;
    assert_eq!(stuck.follower().state(), &a.public_view());
    server.shutdown().await;
}
