//! Issue 20, item 7: a finished table left the lobby at once, so a
//! spectator watching with a delay learned the result from the lobby
//! before the board showed it. Now the table stays listed, as in play,
//! while its delayed spectators are shown the last actions (one every
//! `finish_reveal_ms`), and leaves the lobby only once they have seen the end.
//!
//! Played over real sockets: a GBACW table on the test battle, both seats
//! ending their phases until the game is over, a spectator three actions
//! behind, and a lobby watcher.

use muster_client::Connection;
use muster_shared::SeatId;
use muster_shared::codec;
use muster_shared::gbacw::ruleset::{GbacwAction, GbacwConfig};
use muster_shared::protocol::{ClientMsg, ServerMsg, TableId, TableOptions, TableStatus};
use muster_tests::e2e::{Target, WAIT, start_server};
use muster_tests::gbacw_client::GbacwClient;
use std::time::{Duration, Instant};

/// The lobby's status of `table` as a fresh watcher sees it (`None`: not listed).
async fn listed(t: &Target, table: TableId) -> Option<TableStatus> {
    let mut w = Connection::connect(t.url(false), &t.options())
        .await
        .unwrap();
    w.send(&ClientMsg::WatchLobby { on: true }).await.unwrap();
    match w.recv_timeout(WAIT).await.unwrap() {
        ServerMsg::Lobby { tables } => tables.iter().find(|s| s.table == table).map(|s| s.status),
        other => panic!("{other:?}"),
    }
}

const DELAY: u32 = 3;
const REVEAL_MS: u64 = 400;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_table_stays_listed_in_play_until_delayed_spectators_see_the_end() {
    let (server, _dir) = start_server(|c| c.limits.finish_reveal_ms = REVEAL_MS).await;
    let t = Target::of(&server);
    let mut union = GbacwClient::connect(&t, false, "union").await;
    let mut rebel = GbacwClient::connect(&t, false, "rebel").await;
    let mut watcher = GbacwClient::connect(&t, false, "watcher").await;
    union
        .conn
        .send(&ClientMsg::CreateTable {
            options: TableOptions {
                ruleset: "gbacw".into(),
                scenario: "test".into(),
                config: codec::encode_infallible(&GbacwConfig::default()),
                private: false,
                spectators_allowed: true,
                spectator_delay: DELAY,
                take_back_needs_agreement: true,
            },
        })
        .await
        .unwrap();
    let table = match union
        .until(|m| matches!(m, ServerMsg::TableCreated { .. } | ServerMsg::Error { .. }))
        .await
    {
        ServerMsg::TableCreated { table, .. } => table,
        other => panic!("{other:?}"),
    };
    union.sit(table, SeatId(0), None).await;
    rebel.sit(table, SeatId(1), None).await;
    watcher.table = Some(table);
    watcher
        .conn
        .send(&ClientMsg::Spectate {
            table,
            invite: None,
        })
        .await
        .unwrap();
    watcher.until(|m| matches!(m, ServerMsg::Snapshot(_))).await;

    // Both sides end their phases until the game is over.
    let mut seq = 0;
    let mut actions = 0;
    while !union.follower().state().over {
        actions += 1;
        assert!(actions < 5000, "the test battle did not end");
        let f = union.follower();
        let actor = f
            .ruleset()
            .acting_seat(f.state())
            .expect("someone acts while the game is on");
        let by = if actor == SeatId(0) {
            &mut union
        } else {
            &mut rebel
        };
        seq = by
            .act(&GbacwAction::EndPhase)
            .await
            .unwrap_or_else(|e| panic!("EndPhase refused: {e}"));
        union.sync_to(seq).await;
        rebel.sync_to(seq).await;
    }
    let ended = Instant::now();
    // The spectator is behind, and the lobby does not give the end away.
    assert_eq!(
        listed(&t, table).await,
        Some(TableStatus::Playing),
        "the finished table must stay listed as in play while spectators are behind"
    );
    assert!(watcher.seq() < seq);
    assert!(!watcher.follower.as_ref().unwrap().state().over);

    // The spectator is shown the last actions at the reveal pace…
    watcher.sync_to(seq).await;
    let seen = ended.elapsed();
    assert!(
        watcher.follower().state().over,
        "the spectator sees the end"
    );
    assert!(
        seen >= Duration::from_millis(REVEAL_MS * u64::from(DELAY) - 200),
        "the last actions came too fast for a delayed spectator: {seen:?}"
    );
    // …and only then does the table leave the lobby.
    let end = Instant::now() + WAIT;
    while listed(&t, table).await.is_some() {
        assert!(
            Instant::now() < end,
            "the finished table never left the lobby"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    println!(
        "{actions} actions to the end of the test battle; the spectator saw it {seen:?} later"
    );
    server.shutdown().await;
}
