//! Issue 20: rooms are supervised. A command that panics a room (here by
//! fault injection) does not leave a listed table that cannot answer: the
//! room is rebuilt from its log, its followers are told in words and get
//! a fresh snapshot, and play goes on with nothing acknowledged lost.

use muster_shared::protocol::{ErrorCode, ServerMsg};
use muster_shared::sandbox::SandboxAction;
use muster_tests::e2e::{Client, Target, WAIT, metric, sandbox_table, start_server};

fn roll() -> SandboxAction {
    SandboxAction::Roll {
        count: 1,
        sides: 6,
        note: "r".into(),
    }
}

/// Read until the room's note and the snapshot after it.
async fn told_and_resynced(c: &mut Client) -> String {
    let mut note = None;
    for _ in 0..50 {
        match c.step(WAIT).await.unwrap() {
            ServerMsg::Error {
                code: ErrorCode::Internal,
                message,
                ..
            } => note = Some(message),
            ServerMsg::Snapshot(_) if note.is_some() => return note.unwrap(),
            _ => {}
        }
    }
    panic!("{}: never told and resynced", c.name);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_that_panics_is_rebuilt_from_its_log_and_plays_on() {
    let (server, _dir) = start_server(|_| {}).await;
    let t = Target::of(&server);
    let mut a = Client::connect(&t, false, "a").await;
    let mut b = Client::connect(&t, false, "b").await;
    let (table, _) = a.create_table(sandbox_table(false, 0)).await;
    a.sit(table, None).await;
    b.sit(table, None).await;
    let mut head = 0;
    for _ in 0..3 {
        head = a.act(&roll()).await.unwrap();
    }
    b.sync_to(head).await;
    let before = a.public_view();

    assert!(server.crash_room(table));
    for c in [&mut a, &mut b] {
        let note = told_and_resynced(c).await;
        assert!(
            note.contains("rebuilt from its log") && note.contains("nothing acknowledged was lost"),
            "{note}"
        );
        assert_eq!(c.seq(), head, "the snapshot is at the acknowledged head");
        assert_eq!(c.public_view(), before);
    }
    assert_eq!(metric(&server, "muster_room_panics_total").await, Some(1.0));
    // Play goes on: the same seats, the same chains, everyone follows.
    let seq = a.act(&roll()).await.expect("the rebuilt room plays");
    assert_eq!(seq, head + 1);
    b.sync_to(seq).await;
    assert_eq!(b.public_view(), a.public_view());
    assert!(b.follower().bad_rolls().is_empty());
    server.shutdown().await;
}
