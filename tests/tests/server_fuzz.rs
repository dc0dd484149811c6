//! Issue 3, "must show" 4: 10,000 random, mutated or truncated frames on
//! both transports while a game goes on alongside. The server answers
//! garbage with typed errors or closes the connection, never panics, and
//! the game in progress loses nothing.

use bytes::Bytes;
use muster_client::Connection;
use muster_shared::codec;
use muster_shared::protocol::{ClientMsg, PROTOCOL_VERSION, ServerMsg, TableId, TableOptions};
use muster_shared::sandbox::SandboxAction;
use muster_tests::e2e::{Client, Target, WAIT, metric, sandbox_table, start_server};
use muster_tests::random_play::Chooser;
use std::time::{Duration, Instant};

const FRAMES: usize = 10_000;
/// The whole fuzz run stops here even if frames remain.
const BUDGET: Duration = Duration::from_secs(90);

/// Well-formed messages to mutate and truncate.
fn seeds(table: TableId) -> Vec<Vec<u8>> {
    let action = codec::encode_infallible(&SandboxAction::Roll {
        count: 2,
        sides: 6,
        note: "x".into(),
    });
    [
        ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            client: "fuzz".into(),
        },
        ClientMsg::GuestSignIn {
            name: "fuzzer".into(),
        },
        ClientMsg::Resume {
            token: "00".repeat(32),
        },
        ClientMsg::WatchLobby { on: true },
        ClientMsg::CreateTable {
            options: TableOptions {
                scenario: "f".into(),
                ..sandbox_table(false, 0)
            },
        },
        ClientMsg::JoinSeat {
            table,
            seat: None,
            invite: None,
        },
        ClientMsg::Spectate {
            table,
            invite: None,
        },
        ClientMsg::Act {
            table,
            client_ref: 1,
            action,
            links: vec![],
        },
        ClientMsg::Resync { table, last_seq: 0 },
        ClientMsg::Chat {
            table,
            channel: muster_shared::protocol::ChatChannel::Players,
            text: "hi".into(),
        },
        ClientMsg::Ping { nonce: 3 },
    ]
    .iter()
    .map(codec::encode_infallible)
    .collect()
}

fn garbage(ch: &mut Chooser, seeds: &[Vec<u8>]) -> Vec<u8> {
    let base = &seeds[ch.below(seeds.len())];
    match ch.below(4) {
        // Random bytes.
        0 => (0..ch.below(300)).map(|_| ch.below(256) as u8).collect(),
        // A valid message cut short.
        1 => base[..ch.below(base.len())].to_vec(),
        // A valid message with bytes flipped.
        2 => {
            let mut b = base.clone();
            for _ in 0..1 + ch.below(4) {
                let i = ch.below(b.len());
                b[i] ^= 1 + ch.below(255) as u8;
            }
            b
        }
        // A valid message with random bytes after it.
        _ => {
            let mut b = base.clone();
            b.extend((0..1 + ch.below(8)).map(|_| ch.below(256) as u8));
            b
        }
    }
}

/// Send `n` bad frames over one transport, reconnecting whenever the server
/// closes on us; returns how many were sent.
async fn fuzz(t: Target, quic: bool, n: usize, seed: u64, table: TableId, end: Instant) -> usize {
    let mut ch = Chooser::new(seed);
    let seeds = seeds(table);
    let mut sent = 0;
    while sent < n && Instant::now() < end {
        let Ok(mut c) = Connection::open(t.url(quic), &t.options()).await else {
            continue;
        };
        // Half the connections get past the handshake first.
        if ch.below(2) == 0 {
            let _ = c
                .send(&ClientMsg::Hello {
                    protocol: PROTOCOL_VERSION,
                    client: "fuzz".into(),
                })
                .await;
            if ch.below(2) == 0 {
                let _ = c
                    .send(&ClientMsg::GuestSignIn {
                        name: "fuzzer".into(),
                    })
                    .await;
            }
        }
        for _ in 0..1 + ch.below(24) {
            if sent >= n {
                break;
            }
            let payload = garbage(&mut ch, &seeds);
            sent += 1;
            let r = if quic && ch.below(20) == 0 {
                // Broken framing: a header promising more than follows, or a huge claim.
                let mut raw = if ch.below(2) == 0 {
                    vec![0x7f, 0xff, 0xff, 0xff]
                } else {
                    vec![0, 0, 1, 0]
                };
                raw.extend_from_slice(&payload[..payload.len().min(16)]);
                c.send_unframed(Bytes::from(raw)).await
            } else {
                c.send_raw(Bytes::from(payload)).await
            };
            if r.is_err() {
                break;
            }
        }
        // Drop without a polite close half the time.
        if ch.below(2) == 0 {
            c.close().await;
        }
    }
    sent
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_bad_frames_on_both_transports_while_a_game_goes_on() {
    // The rate limit is for people; here it would only slow the fuzzer down.
    // So are the limits per address: the fuzzer, the players and the late
    // client all come from 127.0.0.1, and the fuzzer makes a guest on a
    // quarter of its connections (server_quota tests those limits).
    let (server, _dir) = start_server(|c| {
        c.limits.rate_per_sec = 1_000_000;
        c.limits.rate_burst = 1_000_000;
        c.limits.conns_per_addr = 1_000_000;
        c.limits.guest_signins_per_minute = 1_000_000;
        c.limits.guest_signin_burst = 1_000_000;
    })
    .await;
    let t = Target::of(&server);
    let mut a = Client::connect(&t, false, "a").await;
    let mut b = Client::connect(&t, true, "b").await;
    let (table, _) = a.create_table(sandbox_table(false, 0)).await;
    a.sit(table, None).await;
    b.sit(table, None).await;

    let end = Instant::now() + BUDGET;
    let ws = tokio::spawn(fuzz(t.clone(), false, FRAMES / 2, 1, table, end));
    let quic = tokio::spawn(fuzz(t.clone(), true, FRAMES / 2, 2, table, end));

    // The game, alongside.
    let roll = SandboxAction::Roll {
        count: 2,
        sides: 6,
        note: "under fire".into(),
    };
    let mut actions = 0;
    let mut last = 0;
    while !(ws.is_finished() && quic.is_finished()) && Instant::now() < end {
        let (p, other) = if actions % 2 == 0 {
            (&mut a, &mut b)
        } else {
            (&mut b, &mut a)
        };
        p.sync_to(last).await;
        last = p.act(&roll).await.expect("the game goes on");
        other.sync_to(last).await;
        actions += 1;
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let sent = ws.await.unwrap() + quic.await.unwrap();
    eprintln!("{sent} bad frames sent; {actions} game actions played meanwhile");
    assert_eq!(sent, FRAMES, "every frame was sent within the time budget");
    assert!(actions >= 10, "the game kept going ({actions} actions)");
    for c in [&a, &b] {
        assert!(c.follower().bad_rolls().is_empty());
        assert_eq!(c.follower().verified_rolls(), actions);
    }
    assert_eq!(
        a.follower().state(),
        b.follower().state(),
        "no hidden pieces here: same state"
    );
    let bad = metric(&server, "muster_bad_frames_total")
        .await
        .unwrap_or(0.0);
    assert!(bad > 1000.0, "the server saw the garbage ({bad})");
    // Still serving new clients.
    let mut c = Client::connect(&t, true, "late").await;
    c.send(ClientMsg::Ping { nonce: 1 }).await;
    assert!(matches!(
        c.step(WAIT).await.unwrap(),
        ServerMsg::Pong { nonce: 1 }
    ));
    server.shutdown().await;
}
