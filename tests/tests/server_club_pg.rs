//! Issue 21 on PostgreSQL: a server whose database is a real PostgreSQL
//! (a throw-away cluster made with `initdb`, as the storage suite's)
//! keeps accounts, clubs and events exactly as one on SQLite, through the
//! same club SQL (`server/src/storage/club.rs`). Over real sockets: an
//! account claimed and signed in from another connection, a club, an
//! event of four players registered and checked in, a round started (its
//! tables created), one game adjudicated, standings, the director's log;
//! then the server stopped and started again on the same database with
//! everything there: the account, the director's role, the result, the
//! table in play with its clock, and the event carried on to its next
//! round.
//!
//! Skipped (with a message) only when PostgreSQL is not installed and
//! `MUSTER_REQUIRE_PG` is unset; CI sets it.

#[path = "../../server/tests/support/pg_cluster.rs"]
mod pg_cluster;

use muster_client::Connection;
use muster_shared::protocol::club::{
    ClubError, ClubReply, ClubRequest, ClubRole, EventId, EventSettings, Pairing, ResultHow,
};
use muster_shared::protocol::{ClientMsg, ServerMsg, UserId};
use muster_tests::club_client::{ClubPlayer, WAIT, cedar_event, refused};
use muster_tests::e2e::{Target, start_server_in};
use std::collections::BTreeMap;

const PASSWORD: &str = "tournament director";

fn settings() -> EventSettings {
    EventSettings {
        seed: 23,
        ..cedar_event("Cedar Mountain on PostgreSQL", 2)
    }
}

fn seat_users(p: &Pairing) -> [UserId; 2] {
    match p.players.clone().map(|s| s.map(|(u, _)| u)) {
        [Some(a), Some(b)] => [a, b],
        other => panic!("a game without two players: {other:?}"),
    }
}

async fn round(d: &mut ClubPlayer, event: EventId, round: u8) -> Vec<Pairing> {
    match d.ask(ClubRequest::Round { event, round }).await {
        ClubReply::Round { pairings, .. } => pairings,
        other => panic!("{other:?}"),
    }
}

async fn standings(p: &mut ClubPlayer, event: EventId) -> Vec<(UserId, u32)> {
    match p.ask(ClubRequest::Standings { event }).await {
        ClubReply::Standings { rows, .. } => rows.iter().map(|r| (r.user, r.points)).collect(),
        other => panic!("{other:?}"),
    }
}

/// Sign in by account name and password on a fresh connection.
async fn sign_in(t: &Target, name: &str, password: &str) -> ServerMsg {
    let mut c = Connection::connect(t.url(false), &t.options())
        .await
        .unwrap();
    c.send(&ClientMsg::Club(ClubRequest::SignIn {
        name: name.into(),
        password: password.into(),
    }))
    .await
    .unwrap();
    c.recv_timeout(WAIT).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_club_event_on_postgresql_survives_a_restart() {
    // The driver's own runtime cannot start inside the test's.
    let Some(url) = tokio::task::spawn_blocking(pg_cluster::fresh_database)
        .await
        .unwrap()
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let database = url.clone();
    let on_pg = |c: &mut muster_server::config::Config| c.database = database.clone();
    let server = start_server_in(dir.path(), on_pg).await;
    let t = Target::of(&server);

    // An account, signed in from another connection.
    let mut d = ClubPlayer::guest(&t, "Dora").await;
    d.claim_account(PASSWORD).await;
    match sign_in(&t, "Dora", PASSWORD).await {
        ServerMsg::SignedIn { user, .. } => assert_eq!(user, d.user),
        other => panic!("{other:?}"),
    }
    let club = d.create_club("Culpeper Wargamers").await;

    // Four players: two join the club (one leaves again), all register
    // and check in.
    let mut players = Vec::new();
    for n in ["Pope", "Jackson", "Banks", "Ewell"] {
        players.push(ClubPlayer::guest(&t, n).await);
    }
    for p in &mut players[..2] {
        let r = p.ask(ClubRequest::JoinClub { club }).await;
        assert!(
            matches!(
                r,
                ClubReply::Member {
                    role: ClubRole::Member,
                    ..
                }
            ),
            "{r:?}"
        );
    }
    let r = players[1]
        .ask(ClubRequest::LeaveClub {
            club,
            new_owner: None,
        })
        .await;
    assert!(matches!(r, ClubReply::LeftClub { .. }), "{r:?}");
    let event = match d
        .ask(ClubRequest::CreateEvent {
            club,
            settings: settings(),
        })
        .await
    {
        ClubReply::EventCreated { event, .. } => event,
        other => panic!("{other:?}"),
    };
    for p in &mut players {
        let r = p
            .ask(ClubRequest::Register {
                event,
                invite: None,
            })
            .await;
        assert_eq!(r, ClubReply::Registered { event });
        let r = p.ask(ClubRequest::CheckIn { event }).await;
        assert_eq!(r, ClubReply::CheckedIn { event });
    }
    let (_, words) = refused(players[0].ask(ClubRequest::StartRound { event }).await);
    assert!(words.contains("director"), "{words}");

    // Round 1: both tables created, each player told theirs.
    let pairings = match d.ask(ClubRequest::StartRound { event }).await {
        ClubReply::Round { pairings, .. } => pairings,
        other => panic!("{other:?}"),
    };
    assert_eq!(pairings.len(), 2);
    let by_user: BTreeMap<UserId, usize> = players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.user, i))
        .collect();
    for p in &pairings {
        let table = p.table.expect("a table per game");
        assert!(server.shared.lobby.room(table).is_some(), "table created");
        for (seat, u) in seat_users(p).into_iter().enumerate() {
            let me = &mut players[by_user[&u]];
            match me
                .news_where(|r| matches!(r, ClubReply::YourTable { .. }))
                .await
            {
                ClubReply::YourTable {
                    table: t2, seat: s, ..
                } => {
                    assert_eq!((t2, usize::from(s.0)), (table, seat));
                }
                other => panic!("{other:?}"),
            }
        }
    }
    // Table 1 adjudicated for its first seat; table 2 plays on.
    let table1 = pairings[0].table.unwrap();
    let [winner, _] = seat_users(&pairings[0]);
    d.conn
        .send(&ClientMsg::Club(ClubRequest::Adjudicate {
            event,
            table: table1,
            points: [2, 0],
            vp_margin: 5,
            reason: "time called; the position favoured the Union".into(),
        }))
        .await
        .unwrap();
    let result = d.result_of(table1).await;
    assert!(matches!(result.how, ResultHow::Adjudicated { .. }));
    let table_standings = standings(&mut players[3], event).await;
    assert_eq!(table_standings.len(), 4);
    assert_eq!(table_standings[0], (winner, 2));
    assert_eq!(table_standings.iter().map(|r| r.1).sum::<u32>(), 2);
    let ClubReply::DirectorLog { lines, .. } = d.ask(ClubRequest::DirectorLog { event }).await
    else {
        panic!()
    };
    assert!(lines.iter().any(|l| l.contains("time called")), "{lines:?}");
    let before = round(&mut d, event, 1).await;
    let table2 = before[1].table.unwrap();
    assert!(before[1].result.is_none());
    let running = before[1].clock_ms.expect("a clock at the table in play");

    // Stopped and started again on the same database: every connection
    // goes with it, each player keeps their session token.
    server.shutdown().await;
    let server = start_server_in(dir.path(), on_pg).await;
    let t = Target::of(&server);
    match sign_in(&t, "Dora", PASSWORD).await {
        ServerMsg::SignedIn { user, .. } => assert_eq!(user, d.user),
        other => panic!("{other:?}"),
    }
    let mut watcher = ClubPlayer::guest(&t, "Observer").await;
    let after = round(&mut watcher, event, 1).await;
    assert_eq!(
        after[0].result, before[0].result,
        "the adjudication is kept"
    );
    assert_eq!(after[1].table, Some(table2));
    assert!(after[1].result.is_none());
    let kept = after[1].clock_ms.expect("the clock is kept");
    for s in 0..2 {
        assert!(
            kept[s] <= running[s] && running[s] - kept[s] < 5_000,
            "{running:?} then {kept:?}"
        );
    }
    assert!(
        server.shared.lobby.room(table2).is_some(),
        "the table in play was rebuilt"
    );
    assert_eq!(standings(&mut watcher, event).await, table_standings);

    // The game in play is resigned by its loser, back on their session.
    let [_, loser] = seat_users(&before[1]);
    let l = &mut players[by_user[&loser]];
    l.back(&t).await;
    l.conn
        .send(&ClientMsg::Club(ClubRequest::Resign { event }))
        .await
        .unwrap();
    let result = l.result_of(table2).await;
    assert!(matches!(result.how, ResultHow::Resigned { .. }));
    // The player who left the club is still out of it, and only the
    // director (back on her session: her role was kept) starts round 2.
    players[1].back(&t).await;
    let (_, words) = refused(players[1].ask(ClubRequest::StartRound { event }).await);
    assert!(words.contains("director"), "{words}");
    d.back(&t).await;
    let second = match d.ask(ClubRequest::StartRound { event }).await {
        ClubReply::Round {
            pairings, round, ..
        } => {
            assert_eq!(round, 2);
            pairings
        }
        other => panic!("{other:?}"),
    };
    assert_eq!(second.len(), 2);
    for p in &second {
        let table = p.table.expect("a table per game");
        assert!(server.shared.lobby.room(table).is_some(), "table created");
        assert!(table > table2, "new tables after the stored ones");
    }
    let rows = standings(&mut watcher, event).await;
    assert_eq!(rows.iter().map(|r| r.1).sum::<u32>(), 4);
    // A second club gets a number of its own (the ids go on from the
    // stored ones).
    watcher.claim_account("an observer's password").await;
    assert_ne!(watcher.create_club("Orange Court House").await, club);
    server.shutdown().await;
    // And it all lives in PostgreSQL, at the club schema's last version.
    let (schema, clubs, events) = tokio::task::spawn_blocking(move || {
        let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        let one =
            |c: &mut postgres::Client, q: &str| -> i64 { c.query_one(q, &[]).unwrap().get(0) };
        (
            one(&mut c, "SELECT value FROM club_meta WHERE key = 'schema'"),
            one(&mut c, "SELECT COUNT(*) FROM clubs"),
            one(&mut c, "SELECT COUNT(*) FROM club_events"),
        )
    })
    .await
    .unwrap();
    assert_eq!((schema, clubs, events), (3, 2, 1));
}

/// A node of a fleet (several servers on one PostgreSQL) hosts no events:
/// two hubs would each run an event's clocks and overwrite its rows. An
/// account is claimed there (rows alone); a club request is refused in
/// words.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fleet_node_refuses_club_events_in_words() {
    let Some(url) = tokio::task::spawn_blocking(pg_cluster::fresh_database)
        .await
        .unwrap()
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = start_server_in(dir.path(), |c| {
        c.database = url.clone();
        c.node = "a".into();
    })
    .await;
    let t = Target::of(&server);
    let mut d = ClubPlayer::guest(&t, "Dora").await;
    d.claim_account(PASSWORD).await;
    let (e, words) = refused(
        d.ask(ClubRequest::CreateClub {
            name: "Culpeper Wargamers".into(),
        })
        .await,
    );
    assert_eq!(e, ClubError::BadRequest);
    assert_eq!(
        words,
        "this server is one of several sharing a database, and they host no club events; \
         a club's events are hosted by a server of its own"
    );
    server.shutdown().await;
}
