//! Issue 20, item 4 (the rest): names are kept in NFKC, a name that looks
//! like another seated player's (case, accents, spacing, Cyrillic or Greek
//! look-alikes, 0/O and 1/l) cannot sit at the same table, and chat lines
//! and lobby seats carry the identity, so a client can tell two
//! same-looking names apart.

use muster_client::Connection;
use muster_shared::protocol::{ChatChannel, ClientMsg, ErrorCode, ServerMsg};
use muster_tests::e2e::{Client, Target, WAIT, sandbox_table, start_server};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_are_normalised_and_look_alikes_cannot_sit_together() {
    let (server, _dir) = start_server(|_| {}).await;
    let t = Target::of(&server);
    // Full-width letters are stored as their ordinary form.
    let mut conn = Connection::connect(t.url(false), &t.options())
        .await
        .unwrap();
    conn.send(&ClientMsg::GuestSignIn {
        name: "Ｍｅａｄｅ".into(),
    })
    .await
    .unwrap();
    match conn.recv_timeout(WAIT).await.unwrap() {
        ServerMsg::SignedIn { name, .. } => assert_eq!(name, "Meade"),
        other => panic!("{other:?}"),
    }

    let mut grant = Client::connect(&t, false, "Grant").await;
    let (table, _) = grant.create_table(sandbox_table(false, 0)).await;
    grant.sit(table, None).await;
    for alike in [
        "Gr\u{0430}nt", // Cyrillic а
        "GRANT",
        "G.rant",
        "Gr\u{00E1}nt",
        "\u{FF27}rant", // full-width G
    ] {
        let mut other = Client::connect(&t, false, alike).await;
        other
            .send(ClientMsg::JoinSeat {
                table,
                seat: None,
                invite: None,
            })
            .await;
        match other
            .until(WAIT, |m| {
                matches!(m, ServerMsg::Error { .. } | ServerMsg::Snapshot(_))
            })
            .await
        {
            ServerMsg::Error { code, message, .. } => {
                assert_eq!(code, ErrorCode::Forbidden, "{alike:?}");
                assert!(message.contains("name"), "{alike:?}: {message}");
            }
            other => panic!("{alike:?} sat beside Grant: {other:?}"),
        }
    }
    // A different name sits.
    let mut lee = Client::connect(&t, false, "Lee").await;
    lee.sit(table, None).await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_lines_and_lobby_seats_carry_the_identity() {
    let (server, _dir) = start_server(|_| {}).await;
    let t = Target::of(&server);
    let mut grant = Client::connect(&t, false, "Grant").await;
    let mut lee = Client::connect(&t, false, "Lee").await;
    let grant_id = {
        let mut c = Connection::connect(t.url(false), &t.options())
            .await
            .unwrap();
        c.resume(&grant.token).await.unwrap()
    };
    let (table, _) = grant.create_table(sandbox_table(false, 0)).await;
    grant.sit(table, None).await;
    lee.sit(table, None).await;
    grant
        .send(ClientMsg::Chat {
            table,
            channel: ChatChannel::Players,
            text: "good luck".into(),
        })
        .await;
    match lee
        .until(WAIT, |m| matches!(m, ServerMsg::Chat { .. }))
        .await
    {
        ServerMsg::Chat { from, user, .. } => {
            assert_eq!(from, "Grant");
            assert_eq!(user, grant_id);
        }
        _ => unreachable!(),
    }
    // The lobby lists who sits, by name and identity.
    let mut watcher = Connection::connect(t.url(false), &t.options())
        .await
        .unwrap();
    watcher
        .send(&ClientMsg::WatchLobby { on: true })
        .await
        .unwrap();
    match watcher.recv_timeout(WAIT).await.unwrap() {
        ServerMsg::Lobby { tables } => {
            let s = tables.iter().find(|s| s.table == table).expect("listed");
            assert_eq!(s.seats.len(), s.seat_users.len());
            let i = s
                .seats
                .iter()
                .position(|n| n.as_deref() == Some("Grant"))
                .unwrap();
            assert_eq!(s.seat_users[i], Some(grant_id));
        }
        other => panic!("{other:?}"),
    }
    server.shutdown().await;
}
