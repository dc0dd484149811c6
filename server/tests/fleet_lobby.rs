//! Issue 23: one lobby across the fleet. Two real `muster-server`
//! processes on one PostgreSQL; a lobby watcher on node B sees, within
//! [`LIVE`], a table created on node A, each of its seats filling, the
//! game starting, and a table closed on A leaving the list. A watcher
//! who arrives later on B gets A's tables in its first list, and a player
//! on B who asks for A's table is sent to A (`Moved`). When the nodes'
//! listening connections are cut, a table created meanwhile still reaches
//! B's watcher (the feed connects again and reads the directory whole).
//!
//! The lines travel through the database: A writes each change of its
//! lobby to the `lobby` table and announces it (`NOTIFY muster_lobby`);
//! B listens and pushes it to its watchers (`server/src/fleet/lobby_feed.rs`).

#[path = "support/pg_cluster.rs"]
mod pg_cluster;
#[path = "support/raw_client.rs"]
mod raw_client;

use muster_shared::protocol::{ClientMsg, ServerMsg, TableId, TableStatus, TableSummary};
use raw_client::{Node, Player};
use std::time::{Duration, Instant};

/// How soon a change on one node must reach another node's watchers.
const LIVE: Duration = Duration::from_secs(2);
/// An open table with nobody sitting down for this long is closed.
const IDLE_SECS: u64 = 3;

fn node(url: &str, name: &str, config: &std::path::Path) -> Node {
    Node::start(&[
        "--config",
        config.to_str().unwrap(),
        "--database",
        url,
        "--node",
        name,
        "--lease-secs",
        "5",
    ])
}

/// Watch `watcher`'s lobby until `want` holds for table `table`'s line
/// (or `None`: the table left the list), at most [`LIVE`]; how long it took.
async fn until_line(
    watcher: &mut Player,
    table: TableId,
    what: &str,
    want: impl Fn(Option<&TableSummary>) -> bool,
) -> Duration {
    let start = Instant::now();
    let seen = tokio::time::timeout(
        LIVE,
        watcher.until(|m| match m {
            ServerMsg::LobbyUpdate { table: line } if line.table == table => want(Some(line)),
            ServerMsg::LobbyRemoved { table: t } if *t == table => want(None),
            _ => false,
        }),
    )
    .await;
    assert!(
        seen.is_ok(),
        "node B's watcher did not see {what} within {LIVE:?}"
    );
    start.elapsed()
}

async fn watcher(ws: &str) -> (Player, Vec<TableSummary>) {
    let mut w = Player::connect(ws).await;
    w.sign_in("Watcher").await;
    w.send(ClientMsg::WatchLobby { on: true }).await;
    match w.until(|m| matches!(m, ServerMsg::Lobby { .. })).await {
        ServerMsg::Lobby { tables } => (w, tables),
        _ => unreachable!(),
    }
}

#[tokio::test]
async fn a_watcher_on_one_node_sees_another_nodes_tables_live() {
    let Some(url) = std::thread::spawn(pg_cluster::fresh_database)
        .join()
        .unwrap()
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("muster.toml");
    std::fs::write(
        &config,
        format!("[limits]\nopen_table_idle_secs = {IDLE_SECS}\n"),
    )
    .unwrap();
    let a = node(&url, "a", &config);
    let b = node(&url, "b", &config);
    let (mut on_b, first) = watcher(&b.ws).await;
    assert!(first.is_empty(), "nothing listed yet: {first:?}");

    // Created on A: listed on B, every seat free.
    let mut grant = Player::connect(&a.ws).await;
    grant.sign_in("Grant").await;
    let table = grant.create_table("across the fleet").await;
    let created = until_line(&mut on_b, table, "the new table", |l| {
        l.is_some_and(|l| l.status == TableStatus::Open && l.seats.iter().all(Option::is_none))
    })
    .await;

    // A seat taken on A.
    grant.sit(table).await;
    let seated = until_line(&mut on_b, table, "Grant's seat", |l| {
        l.is_some_and(|l| l.seats.contains(&Some("Grant".into())))
    })
    .await;

    // The last seat: the game starts.
    let mut lee = Player::connect(&a.ws).await;
    lee.sign_in("Lee").await;
    lee.sit(table).await;
    let playing = until_line(&mut on_b, table, "the game starting", |l| {
        l.is_some_and(|l| {
            l.status == TableStatus::Playing
                && l.seats.contains(&Some("Grant".into()))
                && l.seats.contains(&Some("Lee".into()))
        })
    })
    .await;
    println!(
        "on B after A: created {} ms, seat {} ms, playing {} ms",
        created.as_millis(),
        seated.as_millis(),
        playing.as_millis()
    );

    // A watcher arriving now on B gets A's table in its first list.
    let (_late, list) = watcher(&b.ws).await;
    let line = list
        .iter()
        .find(|l| l.table == table)
        .expect("A's table in B's list");
    assert_eq!(line.status, TableStatus::Playing);

    // A player on B asking for A's table is sent to A.
    let mut stray = Player::connect(&b.ws).await;
    stray.sign_in("Stray").await;
    stray
        .send(ClientMsg::Spectate {
            table,
            invite: None,
        })
        .await;
    match stray
        .until(|m| matches!(m, ServerMsg::Moved { .. } | ServerMsg::Snapshot(_)))
        .await
    {
        ServerMsg::Moved { table: t, to } => {
            assert_eq!((t, to.as_str()), (table, a.ws.as_str()));
        }
        other => panic!("B served A's table itself: {other:?}"),
    }

    // The feeds' connections cut (PostgreSQL restarted, a network blip):
    // they connect again and read the directory whole, so a table created
    // meanwhile still reaches B's watcher.
    let url2 = url.clone();
    let cut = std::thread::spawn(move || {
        let mut c = postgres::Client::connect(&url2, postgres::NoTls).unwrap();
        c.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE application_name = 'muster lobby feed'",
            &[],
        )
        .unwrap()
        .len()
    })
    .join()
    .unwrap();
    assert_eq!(cut, 2, "one feed per node");
    let during = grant.create_table("while the feeds reconnect").await;
    let back = until_line(
        &mut on_b,
        during,
        "a table made while B's feed was cut",
        |l| l.is_some(),
    )
    .await;
    println!(
        "after the feeds were cut: B saw A's new table in {} ms",
        back.as_millis()
    );

    // A table closed on A (open, nobody sat down for IDLE_SECS) leaves B's list.
    let idle = grant.create_table("left empty").await;
    until_line(&mut on_b, idle, "the second table", |l| l.is_some()).await;
    tokio::time::sleep(Duration::from_secs(IDLE_SECS)).await;
    until_line(&mut on_b, idle, "the closed table leaving", |l| l.is_none()).await;
    let (_later, list) = watcher(&b.ws).await;
    assert!(list.iter().any(|l| l.table == table));
    assert!(!list.iter().any(|l| l.table == idle), "closed: {list:?}");
    drop(a);
    drop(b);
}
