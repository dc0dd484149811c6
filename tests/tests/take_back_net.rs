//! Issue 18: take-back over a real server (loopback sockets, a real
//! SQLite file). Two players and a delayed spectator, each following with
//! the client library's follower:
//! - at a table that needs agreement, the other player is asked; a
//!   refusal says who refused, an agreement undoes the move for everyone;
//! - a take-back after a roll is refused in words;
//! - at a table that needs no agreement it applies at once;
//! - the stored logs verify, and a restarted server (which replays them)
//!   shows the same table.

use muster_shared::engine::{Ruleset, verify_log};
use muster_shared::protocol::{ClientMsg, DeltaBody, ServerMsg, TableOptions};
use muster_shared::sandbox::{Loc, PieceId, Position, SandboxAction};
use muster_shared::{SeatId, Viewer};
use muster_tests::e2e::{Client, Target, WAIT, sandbox_table, start_server_in, stored_logs};

fn hex(col: u16, row: u16) -> Position {
    Position {
        board: 0,
        loc: Loc::Hex { col, row },
    }
}

fn place(seat: u8) -> SandboxAction {
    SandboxAction::Place {
        at: hex(3, 4),
        label: "Iron Brigade".into(),
        owner: Some(SeatId(seat)),
        face_up: true,
        hidden: false,
    }
}

fn ended(m: &ServerMsg) -> bool {
    matches!(m, ServerMsg::TakeBackEnded { .. })
}

fn refusal(m: ServerMsg) -> Option<String> {
    match m {
        ServerMsg::TakeBackEnded { refusal, .. } => refusal,
        other => panic!("not the end of a take-back: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn take_back_with_and_without_agreement_over_a_real_server() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server_in(dir.path(), |_| {}).await;
    let t = Target::of(&server);
    let mut a = Client::connect(&t, false, "Meade").await;
    let mut b = Client::connect(&t, true, "Jackson").await;
    let mut s = Client::connect(&t, false, "Onlooker").await;

    // A table that needs agreement (the default for server tables), with
    // spectators one action behind.
    let (table, _) = a.create_table(sandbox_table(false, 1)).await;
    a.sit(table, None).await;
    b.sit(table, None).await;
    s.spectate(table, None).await;
    let placed = a.act(&place(0)).await.unwrap();
    let before_move = a.follower().state().clone();
    let moved = a
        .act(&SandboxAction::Move {
            pieces: vec![PieceId(placed)],
            to: hex(4, 4),
        })
        .await
        .unwrap();
    b.sync_to(moved).await;

    // Asked, refused: nothing changes, and Meade is told who refused.
    a.send(ClientMsg::TakeBack { table }).await;
    let asked = b
        .until(WAIT, |m| matches!(m, ServerMsg::TakeBackAsked { .. }))
        .await;
    assert!(matches!(
        asked,
        ServerMsg::TakeBackAsked { seat: SeatId(0), ref name, undone, .. }
            if name == "Meade" && undone == moved
    ));
    b.send(ClientMsg::AnswerTakeBack {
        table,
        agree: false,
    })
    .await;
    let why = refusal(a.until(WAIT, ended).await).expect("refused");
    assert_eq!(why, "Jackson refused the take-back");
    assert_eq!(a.seq(), moved, "a refusal logs nothing");

    // Meade cannot answer his own request; Jackson agrees: undone for all.
    a.send(ClientMsg::TakeBack { table }).await;
    b.until(WAIT, |m| matches!(m, ServerMsg::TakeBackAsked { .. }))
        .await;
    a.send(ClientMsg::AnswerTakeBack { table, agree: true })
        .await;
    let own = refusal(a.until(WAIT, ended).await).expect("refused");
    assert!(own.contains("other player"), "{own}");
    b.send(ClientMsg::AnswerTakeBack { table, agree: true })
        .await;
    let taken = match a
        .until(WAIT, |m| {
            matches!(
                m,
                ServerMsg::Delta {
                    body: DeltaBody::TakeBack { .. },
                    ..
                }
            )
        })
        .await
    {
        ServerMsg::Delta { seq, body, .. } => {
            assert_eq!(
                body,
                DeltaBody::TakeBack {
                    seat: SeatId(0),
                    undone: moved
                }
            );
            seq
        }
        _ => unreachable!(),
    };
    b.sync_to(taken).await;
    assert!(*a.follower().state() == before_move);
    assert!(b.public_view() == a.public_view());

    // A roll makes everything before it final.
    let rolled = a
        .act(&SandboxAction::Roll {
            count: 2,
            sides: 6,
            note: "fire".into(),
        })
        .await
        .unwrap();
    a.send(ClientMsg::TakeBack { table }).await;
    let why = refusal(a.until(WAIT, ended).await).expect("refused");
    assert!(why.contains("rolled dice"), "{why}");
    // The spectator, one action behind, has folded the take-back too.
    b.act(&place(1)).await.unwrap();
    s.sync_to(rolled).await;
    assert!(s.follower().state().pieces.len() == 1);

    // A table that needs no agreement: applied at once, nobody asked.
    let free = TableOptions {
        take_back_needs_agreement: false,
        ..sandbox_table(false, 0)
    };
    let (table2, _) = a.create_table(free).await;
    let b_seen = b.received.len();
    a.sit(table2, None).await;
    b.sit(table2, None).await;
    let placed = a.act(&place(0)).await.unwrap();
    a.send(ClientMsg::TakeBack { table: table2 }).await;
    assert_eq!(refusal(a.until(WAIT, ended).await), None);
    a.sync_to(placed + 1).await;
    b.sync_to(placed + 1).await;
    assert!(a.follower().state().pieces.is_empty());
    assert!(b.follower().state().pieces.is_empty());
    assert!(
        !b.received[b_seen..].iter().any(|f| matches!(
            ServerMsg::decode(&f[..]),
            Ok(ServerMsg::TakeBackAsked { .. })
        )),
        "nobody is asked at a table that needs no agreement"
    );
    let a_view = a
        .follower()
        .ruleset()
        .view(a.follower().state(), Viewer::Spectator);
    drop((a, b, s));
    server.shutdown().await;

    // The stored logs verify, take-backs and all ...
    let logs = stored_logs(dir.path()).await;
    assert_eq!(logs.len(), 2);
    for log in &logs {
        let report = verify_log(log);
        assert!(report.ok(), "{report}");
    }
    // ... and a restarted server replays them to the same table.
    let server = start_server_in(dir.path(), |_| {}).await;
    let t = Target::of(&server);
    let mut w = Client::connect(&t, false, "Watcher").await;
    w.spectate(table2, None).await;
    assert!(*w.follower().state() == a_view);
    drop(w);
    server.shutdown().await;
}
