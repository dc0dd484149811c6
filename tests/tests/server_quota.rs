//! Issue 20, items 2 and 5: what one client (one address, one identity,
//! one seat) may cost the server. Each limit is set small so the test is
//! quick; every refusal is `RateLimited` (or the per-identity table cap's
//! `Forbidden`) with a message in words that says what to do.

use muster_client::{Connection, NetError};
use muster_shared::dice::HashChain;
use muster_shared::protocol::{ChatChannel, ClientMsg, ErrorCode, ServerMsg, TableId};
use muster_shared::sandbox::SandboxAction;
use muster_tests::e2e::{Client, Target, WAIT, sandbox_table, start_server, start_server_in};
use std::time::Duration;

fn roll() -> SandboxAction {
    SandboxAction::Roll {
        count: 1,
        sides: 6,
        note: "r".into(),
    }
}

/// The next `Error` (skipping anything else), bounded.
async fn next_error(c: &mut Client) -> (ErrorCode, String) {
    match c
        .until(WAIT, |m| matches!(m, ServerMsg::Error { .. }))
        .await
    {
        ServerMsg::Error { code, message, .. } => (code, message),
        _ => unreachable!(),
    }
}

/// Ask for a table; the answer: created, or the refusal.
async fn try_create(c: &mut Client, private: bool) -> Result<TableId, (ErrorCode, String)> {
    c.send(ClientMsg::CreateTable {
        options: sandbox_table(private, 0),
    })
    .await;
    match c
        .until(WAIT, |m| {
            matches!(m, ServerMsg::TableCreated { .. } | ServerMsg::Error { .. })
        })
        .await
    {
        ServerMsg::TableCreated { table, .. } => Ok(table),
        ServerMsg::Error { code, message, .. } => Err((code, message)),
        _ => unreachable!(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_per_address_are_capped_and_freed_on_close() {
    tokio::time::timeout(Duration::from_secs(60), async {
        let (server, _dir) = start_server(|c| c.limits.conns_per_addr = 3).await;
        let t = Target::of(&server);
        let mut open = Vec::new();
        for quic in [false, true, false] {
            open.push(
                Connection::connect(t.url(quic), &t.options())
                    .await
                    .unwrap(),
            );
        }
        // The fourth, on either transport, is refused in words.
        for quic in [false, true] {
            match Connection::connect(t.url(quic), &t.options()).await {
                Err(NetError::Refused { code, message }) => {
                    assert_eq!(code, ErrorCode::RateLimited);
                    assert!(message.contains("at most 3 at once"), "{message}");
                }
                Err(e) => panic!("refused without words: {e}"),
                Ok(_) => panic!("a fourth connection from one address was accepted"),
            }
        }
        // Closing one frees its place.
        open.pop().unwrap().close().await;
        let mut ok = None;
        for _ in 0..50 {
            if let Ok(c) = Connection::connect(&t.ws, &t.options()).await {
                ok = Some(c);
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(ok.is_some(), "the freed place was never given back");
        server.shutdown().await;
    })
    .await
    .expect("bounded");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guest_sign_ins_per_address_are_rate_limited_but_resume_is_not() {
    tokio::time::timeout(Duration::from_secs(60), async {
        let (server, _dir) = start_server(|c| {
            c.limits.guest_signins_per_minute = 1;
            c.limits.guest_signin_burst = 3;
        })
        .await;
        let t = Target::of(&server);
        let mut tokens = Vec::new();
        for i in 0..3 {
            let mut c = Connection::connect(&t.ws, &t.options()).await.unwrap();
            tokens.push(c.sign_in_guest(&format!("g{i}")).await.unwrap().1);
            c.close().await;
        }
        // A fourth new guest, on a fresh connection: refused, with when.
        let mut c = Connection::connect(&t.quic, &t.options()).await.unwrap();
        match c.sign_in_guest("g3").await {
            Err(NetError::Refused { code, message }) => {
                assert_eq!(code, ErrorCode::RateLimited);
                assert!(message.contains("try again in"), "{message}");
            }
            other => panic!("a fourth guest in a minute: {other:?}"),
        }
        // Coming back with a token is not a new guest.
        c.resume(&tokens[0]).await.expect("resume is not limited");
        server.shutdown().await;
    })
    .await
    .expect("bounded");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unfinished_tables_are_capped_per_address_across_guests_and_restarts() {
    tokio::time::timeout(Duration::from_secs(90), async {
        let dir = tempfile::tempdir().unwrap();
        let limits = |c: &mut muster_server::config::Config| {
            c.limits.tables_per_user = 16;
            c.limits.tables_per_addr = 3;
        };
        let server = start_server_in(dir.path(), limits).await;
        let t = Target::of(&server);
        let mut a = Client::connect(&t, false, "a").await;
        let mut b = Client::connect(&t, true, "b").await;
        try_create(&mut a, false).await.unwrap();
        try_create(&mut a, true).await.unwrap();
        try_create(&mut b, false).await.unwrap();
        // A fresh guest from the same address gains nothing.
        let (code, message) = try_create(&mut b, false).await.unwrap_err();
        assert_eq!(code, ErrorCode::RateLimited);
        assert!(message.contains("your address"), "{message}");
        server.shutdown().await;
        // The address is stored with the table: the cap holds after a restart.
        let server = start_server_in(dir.path(), limits).await;
        let t = Target::of(&server);
        let mut c = Client::connect(&t, false, "c").await;
        let (code, _) = try_create(&mut c, false).await.unwrap_err();
        assert_eq!(code, ErrorCode::RateLimited);
        server.shutdown().await;
    })
    .await
    .expect("bounded");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unfinished_tables_are_capped_server_wide() {
    tokio::time::timeout(Duration::from_secs(60), async {
        let (server, _dir) = start_server(|c| c.limits.max_tables = 2).await;
        let t = Target::of(&server);
        let mut a = Client::connect(&t, false, "a").await;
        let mut b = Client::connect(&t, false, "b").await;
        try_create(&mut a, false).await.unwrap();
        try_create(&mut b, false).await.unwrap();
        let (code, message) = try_create(&mut b, false).await.unwrap_err();
        assert_eq!(code, ErrorCode::RateLimited);
        assert!(message.contains("server is full"), "{message}");
        server.shutdown().await;
    })
    .await
    .expect("bounded");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_is_rate_limited_per_identity_per_table() {
    tokio::time::timeout(Duration::from_secs(60), async {
        let (server, _dir) = start_server(|c| {
            c.limits.chat_per_minute = 6;
            c.limits.chat_burst = 3;
        })
        .await;
        let t = Target::of(&server);
        let mut a = Client::connect(&t, false, "a").await;
        let mut b = Client::connect(&t, true, "b").await;
        let (table, _) = a.create_table(sandbox_table(false, 0)).await;
        a.sit(table, None).await;
        b.sit(table, None).await;
        let say = |text: String| ClientMsg::Chat {
            table,
            channel: ChatChannel::Players,
            text,
        };
        for i in 0..3 {
            a.send(say(format!("line {i}"))).await;
        }
        a.send(say("line 3".into())).await;
        let (code, message) = next_error(&mut a).await;
        assert_eq!(code, ErrorCode::RateLimited);
        assert!(
            message.contains("6 lines a minute") && message.contains("try again in"),
            "{message}"
        );
        // The opponent got the three lines, not the fourth: a ping after
        // them comes back before any fourth line could.
        let mut lines = Vec::new();
        b.send(ClientMsg::Ping { nonce: 9 }).await;
        loop {
            match b.step(WAIT).await.unwrap() {
                ServerMsg::Chat { text, .. } => lines.push(text),
                ServerMsg::Pong { nonce: 9 } if lines.len() >= 3 => break,
                _ => {}
            }
        }
        assert_eq!(lines, ["line 0", "line 1", "line 2"]);
        // Another identity has its own allowance.
        b.send(say("hello".into())).await;
        a.until(
            WAIT,
            |m| matches!(m, ServerMsg::Chat { text, .. } if text == "hello"),
        )
        .await;
        server.shutdown().await;
    })
    .await
    .expect("bounded");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn anchors_beyond_the_free_ones_are_capped_and_never_push_actions_out_of_the_window() {
    tokio::time::timeout(Duration::from_secs(60), async {
        let (server, _dir) = start_server(|c| {
            c.limits.anchor_burst = 3;
            c.limits.anchors_per_hour = 0;
            c.limits.resync_window = 4;
        })
        .await;
        let t = Target::of(&server);
        let mut a = Client::connect(&t, false, "a").await;
        let mut b = Client::connect(&t, true, "b").await;
        let (table, _) = a.create_table(sandbox_table(false, 0)).await;
        a.sit(table, None).await; // the first anchor: free
        b.sit(table, None).await;
        let before = b.seq();
        let mut last = 0;
        for _ in 0..4 {
            last = a.act(&roll()).await.unwrap();
        }
        b.sync_to(last).await;
        // b re-anchors three times (its chain barely used): allowed…
        for _ in 0..3 {
            b.chain = HashChain::generate(64);
            let anchor = b.chain.anchor();
            b.send(ClientMsg::PublishAnchor { table, anchor }).await;
            b.until(WAIT, |m| matches!(m, ServerMsg::Delta { .. }))
                .await;
        }
        // …a fourth is refused in words.
        b.send(ClientMsg::PublishAnchor {
            table,
            anchor: HashChain::generate(64).anchor(),
        })
        .await;
        let (code, message) = next_error(&mut b).await;
        assert_eq!(code, ErrorCode::RateLimited);
        assert!(message.contains("anchor refused"), "{message}");
        // The window holds the last 4 actions whatever anchors came after
        // them: a client that saw nothing of them gets deltas, not a snapshot.
        let mut late = Client::reconnect(&t, false, "a", &a.token).await.unwrap();
        late.send(ClientMsg::Resync {
            table,
            last_seq: before,
        })
        .await;
        let mut got = Vec::new();
        while got.len() < 4 + 3 {
            match late.conn.recv_frame_timeout(WAIT).await.unwrap().0 {
                ServerMsg::Delta { seq, .. } => got.push(seq),
                ServerMsg::Snapshot(_) => panic!("a snapshot: actions fell out of the window"),
                _ => {}
            }
        }
        assert_eq!(got, (before + 1..=before + 7).collect::<Vec<_>>());
        server.shutdown().await;
    })
    .await
    .expect("bounded");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_tables_idle_too_long_are_closed_and_not_rebuilt() {
    tokio::time::timeout(Duration::from_secs(60), async {
        let dir = tempfile::tempdir().unwrap();
        // Running: a table with a free seat and no seat change for 1 s closes.
        let server = start_server_in(dir.path(), |c| c.limits.open_table_idle_secs = 1).await;
        let t = Target::of(&server);
        let mut a = Client::connect(&t, false, "a").await;
        let mut b = Client::connect(&t, false, "b").await;
        let (idle, _) = a.create_table(sandbox_table(false, 0)).await;
        let (full, _) = b.create_table(sandbox_table(false, 0)).await;
        b.sit(full, None).await;
        let mut c = Client::connect(&t, true, "c").await;
        c.sit(full, None).await; // in play: never closed for idleness
        a.sit(idle, None).await;
        let (code, message) = next_error(&mut a).await;
        assert_eq!(code, ErrorCode::NoSuchTable);
        assert!(message.contains("was closed"), "{message}");
        a.send(ClientMsg::JoinSeat {
            table: idle,
            seat: None,
            invite: None,
        })
        .await;
        assert_eq!(next_error(&mut a).await.0, ErrorCode::NoSuchTable);
        // The table in play still plays.
        tokio::time::sleep(Duration::from_millis(1200)).await;
        let seq = b.act(&roll()).await.expect("the table in play lives");
        c.sync_to(seq).await;
        // Not counted against its creator any more.
        let later = try_create(&mut a, false)
            .await
            .expect("the closed table is not counted");
        server.shutdown().await;
        // Stored with its last seat change; idle past the limit while the
        // server is down (whole seconds are stored).
        tokio::time::sleep(Duration::from_millis(2100)).await;

        // At start: an open table stored idle past the limit is closed
        // before it is rebuilt (the one in play comes back).
        let server = start_server_in(dir.path(), |c| c.limits.open_table_idle_secs = 1).await;
        let t = Target::of(&server);
        let mut a = Client::reconnect(&t, false, "a", &a.token).await.unwrap();
        let mut w = Client::connect(&t, false, "w").await;
        w.send(ClientMsg::WatchLobby { on: true }).await;
        let listed = match w
            .until(WAIT, |m| matches!(m, ServerMsg::Lobby { .. }))
            .await
        {
            ServerMsg::Lobby { tables } => tables.iter().map(|s| s.table).collect::<Vec<_>>(),
            _ => unreachable!(),
        };
        assert_eq!(listed, [full], "only the table in play comes back");
        for gone in [idle, later] {
            a.send(ClientMsg::Spectate {
                table: gone,
                invite: None,
            })
            .await;
            assert_eq!(next_error(&mut a).await.0, ErrorCode::NoSuchTable);
        }
        server.shutdown().await;
    })
    .await
    .expect("bounded");
}
