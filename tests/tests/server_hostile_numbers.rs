//! Issue 20, item 1: numbers a client sends are never trusted for
//! arithmetic. `Resync { last_seq: u64::MAX }` once panicked the room
//! (`last_seq + 1`); the room must answer with a snapshot and play on.

use muster_shared::protocol::{ClientMsg, ServerMsg};
use muster_shared::sandbox::SandboxAction;
use muster_tests::e2e::{Client, Target, WAIT, sandbox_table, start_server};

fn roll() -> SandboxAction {
    SandboxAction::Roll {
        count: 1,
        sides: 6,
        note: "r".into(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resync_with_extreme_sequence_numbers_keeps_the_room_alive() {
    let (server, _dir) = start_server(|_| {}).await;
    let t = Target::of(&server);
    let mut a = Client::connect(&t, false, "a").await;
    let mut b = Client::connect(&t, false, "b").await;
    let mut m = Client::connect(&t, false, "m").await;
    let (table, _) = a.create_table(sandbox_table(false, 0)).await;
    a.sit(table, None).await;
    b.sit(table, None).await;
    let seq = a.act(&roll()).await.unwrap();
    b.sync_to(seq).await;
    // Any signed-in user, on a public table: the extremes, and one past
    // the head.
    for last_seq in [u64::MAX, u64::MAX - 1, seq + 1, seq + 1000] {
        m.send(ClientMsg::Resync { table, last_seq }).await;
        // A snapshot comes back (nothing after `last_seq` can be sent).
        loop {
            match m.step(WAIT).await.unwrap() {
                ServerMsg::Snapshot(_) => break,
                other @ ServerMsg::Error { .. } => {
                    panic!("Resync {last_seq}: expected a snapshot, got {other:?}")
                }
                _ => continue,
            }
        }
    }
    // The room lives: the players play on and both see it.
    let seq = a.act(&roll()).await.expect("the room still plays");
    b.sync_to(seq).await;
    assert_eq!(b.public_view(), a.public_view());
    server.shutdown().await;
}

/// Issue 20, item 1 (the grep for other client numbers): every number a
/// client sends, at its extremes, gets an answer in words and leaves the
/// room playing: a table that does not exist, a seat that does not exist,
/// a chain link numbered `u32::MAX`, the largest `client_ref`, an anchor
/// claiming `u32::MAX` links, a spectator delay of `u32::MAX`, a session
/// number past any, a ping nonce of `u64::MAX`. None may cost an
/// `Internal` error (a room that panicked and was rebuilt says so).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_client_number_at_its_extremes_is_answered_and_the_room_plays_on() {
    use muster_shared::dice::{ChainAnchor, SeatLink};
    use muster_shared::protocol::{ErrorCode, SessionId, TableId};
    use muster_shared::{Hash32, SeatId};

    let (server, _dir) = start_server(|_| {}).await;
    let t = Target::of(&server);
    let mut a = Client::connect(&t, false, "a").await;
    let mut b = Client::connect(&t, false, "b").await;
    let mut m = Client::connect(&t, false, "m").await;
    let (table, _) = a.create_table(sandbox_table(false, 0)).await;
    a.sit(table, None).await;
    b.sit(table, None).await;
    let seq = a.act(&roll()).await.unwrap();
    b.sync_to(seq).await;

    let far = TableId(u64::MAX);
    let action = muster_shared::codec::encode_infallible(&roll());
    let link = |index| SeatLink {
        seat: a.seat.unwrap(),
        index,
        link: Hash32([0; 32]),
    };
    let mut extreme = sandbox_table(false, 0);
    extreme.spectator_delay = u32::MAX;
    // (who sends it, what)
    let requests: Vec<(bool, ClientMsg)> = vec![
        (
            false,
            ClientMsg::Spectate {
                table: far,
                invite: None,
            },
        ),
        (
            false,
            ClientMsg::Resync {
                table: far,
                last_seq: u64::MAX,
            },
        ),
        (
            false,
            ClientMsg::JoinSeat {
                table,
                seat: Some(SeatId(u8::MAX)),
                invite: None,
            },
        ),
        (false, ClientMsg::CreateTable { options: extreme }),
        (
            false,
            ClientMsg::RevokeSession {
                session: SessionId(u64::MAX),
            },
        ),
        (false, ClientMsg::Ping { nonce: u64::MAX }),
        (
            true,
            ClientMsg::PublishAnchor {
                table,
                anchor: ChainAnchor {
                    anchor: Hash32([1; 32]),
                    len: u32::MAX,
                },
            },
        ),
        (
            true,
            ClientMsg::Act {
                table,
                client_ref: u32::MAX,
                action: action.clone(),
                links: vec![link(u32::MAX)],
            },
        ),
        (
            true,
            ClientMsg::Act {
                table: far,
                client_ref: u32::MAX,
                action: action.clone(),
                links: vec![link(u32::MAX - 1)],
            },
        ),
    ];
    for (seated, msg) in requests {
        let what = format!("{msg:?}");
        let c = if seated { &mut a } else { &mut m };
        c.send(msg).await;
        let answer = c
            .until(WAIT, |r| {
                matches!(
                    r,
                    ServerMsg::Error { .. }
                        | ServerMsg::Rejected { .. }
                        | ServerMsg::Pong { .. }
                        | ServerMsg::Snapshot(_)
                        | ServerMsg::TableCreated { .. }
                )
            })
            .await;
        if let ServerMsg::Error { code, message, .. } = &answer {
            assert_ne!(*code, ErrorCode::Internal, "{what}: {message}");
            assert!(!message.is_empty(), "{what}: an error without words");
        }
        assert!(
            !matches!(answer, ServerMsg::TableCreated { .. }),
            "{what}: a spectator delay of u32::MAX was accepted"
        );
    }
    // The room lives: the players play on and both see it.
    let seq = a.act(&roll()).await.expect("the room still plays");
    b.sync_to(seq).await;
    assert_eq!(b.public_view(), a.public_view());
    server.shutdown().await;
}

/// Issue 20, item 4: names that hide or reorder characters are refused at
/// sign-in with words, and a second "Grant" cannot sit at Grant's table.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_that_impersonate_are_refused() {
    use muster_client::Connection;
    use muster_shared::protocol::ErrorCode;
    let (server, _dir) = start_server(|_| {}).await;
    let t = Target::of(&server);
    for bad in [
        "tnarG\u{202E}",
        "\u{2067}Grant\u{2069}",
        "Gr\u{200B}ant",
        "\u{200D}",
        "\u{FEFF}",
        "\u{3164}",
    ] {
        let mut conn = Connection::connect(t.url(false), &t.options())
            .await
            .unwrap();
        let e = conn.sign_in_guest(bad).await.expect_err(bad);
        let words = e.to_string();
        assert!(words.contains("name"), "{bad:?}: {words}");
    }
    let mut grant = Client::connect(&t, false, "Grant").await;
    let mut other = Client::connect(&t, false, "grant").await;
    let (table, _) = grant.create_table(sandbox_table(false, 0)).await;
    grant.sit(table, None).await;
    other
        .send(ClientMsg::JoinSeat {
            table,
            seat: None,
            invite: None,
        })
        .await;
    match other.step(WAIT).await.unwrap() {
        ServerMsg::Error { code, message, .. } => {
            assert_eq!(code, ErrorCode::Forbidden);
            assert!(message.contains("same name"), "{message}");
        }
        m => panic!("a second Grant sat down: {m:?}"),
    }
    // Another name sits.
    let mut lee = Client::connect(&t, false, "Lee").await;
    lee.sit(table, None).await;
    server.shutdown().await;
}
