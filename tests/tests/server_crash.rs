//! Issue 3, "must show" 2: crash safety. The real server binary is
//! started, played against, killed with SIGKILL mid-game and restarted on
//! the same data directory. Every action a client saw acknowledged is in
//! the rebuilt table, the clients' states match the server's, the stored
//! log verifies roll by roll, and the game goes on with dice.

use muster_shared::engine::{ActionContext, Ruleset, verify_log};
use muster_shared::protocol::{ChatChannel, ClientMsg, ServerMsg};
use muster_shared::sandbox::SandboxAction;
use muster_tests::e2e::{Client, Process, WAIT, sandbox_table, stored_logs};
use muster_tests::random_play::Chooser;

const BINARY: &str = env!("CARGO_BIN_EXE_muster-server-e2e");

fn pick(p: &Client, ch: &mut Chooser) -> SandboxAction {
    let f = p.follower();
    let legal = f.ruleset().legal_actions(f.state(), p.seat.unwrap());
    legal[ch.below(legal.len())].clone()
}

fn rolls(p: &Client, a: &SandboxAction) -> bool {
    let f = p.follower();
    let ctx = ActionContext {
        seat: p.seat.unwrap(),
        seq: f.seq() + 1,
        by_default: false,
    };
    f.ruleset().rolls_dice(f.state(), &ctx, a)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_mid_game_then_restart_loses_nothing_acknowledged() {
    let dir = tempfile::tempdir().unwrap();
    let server = Process::start(BINARY, dir.path());
    let t = server.target.clone();
    let mut a = Client::connect(&t, false, "Grant").await;
    let mut b = Client::connect(&t, true, "Lee").await;
    let (table, _) = a.create_table(sandbox_table(false, 0)).await;
    a.sit(table, None).await;
    b.sit(table, None).await;

    let mut ch = Chooser::new(11);
    let mut acknowledged = Vec::new();
    for i in 0..60 {
        let p = if i % 2 == 0 { &mut a } else { &mut b };
        let last = acknowledged.last().copied().unwrap_or(0);
        p.sync_to(last).await;
        let action = pick(p, &mut ch);
        acknowledged.push(p.act(&action).await.expect("legal"));
    }
    // A few more in flight, not waited for: they may or may not survive,
    // but nothing acknowledged before the kill may be lost.
    let last_acked = *acknowledged.last().unwrap();
    a.sync_to(last_acked).await;
    for k in 0..3 {
        let action = SandboxAction::Roll {
            count: 1,
            sides: 6,
            note: format!("in flight {k}"),
        };
        let f = a.follower();
        let link = f.next_link(a.seat.unwrap(), &a.chain).into_iter().collect();
        let bytes = muster_shared::codec::encode_infallible(&action);
        a.send(ClientMsg::Act {
            table,
            client_ref: 9000 + k,
            action: bytes,
            links: link,
        })
        .await;
    }
    server.kill();
    // What the clients had seen acknowledged before the kill.
    let seen_a = a.seq();
    let state_a = a.follower().state().clone();
    let public_a = a.public_view();

    let server = Process::start(BINARY, dir.path());
    let t = server.target.clone();
    // Identities survive: resume with the tokens, on swapped transports.
    let mut a2 = Client::reconnect(&t, true, "Grant", &a.token)
        .await
        .expect("resume a");
    let mut b2 = Client::reconnect(&t, false, "Lee", &b.token)
        .await
        .expect("resume b");
    for (old, new) in [(&mut a, &mut a2), (&mut b, &mut b2)] {
        new.table = Some(table);
        new.seat = old.seat;
        new.chain = old.chain.clone();
        new.follower = old.follower.take();
        new.send(ClientMsg::Resync {
            table,
            last_seq: new.seq(),
        })
        .await;
        // The room answers in order: whatever the resync sends (missing
        // deltas or a snapshot, or nothing when up to date) comes before
        // the echo of this chat line.
        new.send(ClientMsg::Chat {
            table,
            channel: ChatChannel::Players,
            text: "back".into(),
        })
        .await;
        new.until(WAIT, |m| matches!(m, ServerMsg::Chat { .. }))
            .await;
    }
    let restored = a2.seq();
    assert!(
        restored >= last_acked,
        "server at {restored}, {last_acked} was acknowledged"
    );
    assert!(
        restored <= last_acked + 3,
        "only the in-flight actions may be extra"
    );
    if restored == seen_a {
        assert_eq!(
            a2.follower().state(),
            &state_a,
            "state after restart equals the state before"
        );
    } else {
        // The in-flight rolls were committed: only the last roll changed.
        assert_eq!(a2.public_view().pieces, public_a.pieces);
    }
    b2.sync_to(restored).await;
    assert_eq!(a2.public_view(), b2.public_view());

    // The game goes on, dice and all, with the chains where they were.
    let mut rolled = 0;
    for i in 0..30 {
        let p = if i % 2 == 0 { &mut a2 } else { &mut b2 };
        let last = p.seq().max(restored);
        p.sync_to(last).await;
        let action = if i % 3 == 0 {
            SandboxAction::Roll {
                count: 2,
                sides: 6,
                note: "after restart".into(),
            }
        } else {
            pick(p, &mut ch)
        };
        if rolls(p, &action) {
            rolled += 1;
        }
        let seq = p.act(&action).await.expect("legal after restart");
        let other = if i % 2 == 0 { &mut b2 } else { &mut a2 };
        other.sync_to(seq).await;
    }
    assert!(rolled >= 10);
    for c in [&a2, &b2] {
        assert!(
            c.follower().bad_rolls().is_empty(),
            "{:?}",
            c.follower().bad_rolls()
        );
        assert!(c.follower().verified_rolls() >= rolled);
    }
    assert_eq!(a2.public_view(), b2.public_view());
    let final_seq = a2.seq();

    // Kill again, then check the stored log itself.
    server.kill();
    let logs = stored_logs(dir.path()).await;
    assert_eq!(logs.len(), 1);
    let log = &logs[0];
    assert_eq!(log.entries.len() as u64, final_seq);
    let report = verify_log(log);
    assert!(report.ok(), "{report}");
    assert!(report.rolls >= rolled);

    // And a clean stop after a restart exits 0.
    let server = Process::start(BINARY, dir.path());
    assert!(server.terminate(), "SIGTERM stops the server cleanly");
}
