//! Issue 23: two real `muster-server` processes on one PostgreSQL. Node A
//! serves a table under its lease; A is frozen with SIGSTOP past the
//! lease; node B starts, takes the table's lease (a higher fencing token)
//! and rebuilds it by replaying its log; the player moves to B and plays
//! on. A is woken with SIGCONT and takes one more action on its old
//! connection: its commit is refused by the token, the player is told
//! where the table went (`Moved`, B's address), and nothing of A's
//! reaches the log.
//!
//! The client here is a few lines over WebSocket (the real client crate
//! pulls in the UI toolkit, too heavy for the server's own tests).

#[path = "support/pg_cluster.rs"]
mod pg_cluster;
#[path = "support/raw_client.rs"]
mod raw_client;

use muster_shared::protocol::{ClientMsg, ServerMsg, TableId};
use raw_client::{Node, Player, accepted};
use std::time::Duration;

const LEASE_SECS: u64 = 2;

fn node(url: &str, name: &str) -> Node {
    Node::start(&[
        "--database",
        url,
        "--node",
        name,
        "--lease-secs",
        &LEASE_SECS.to_string(),
    ])
}

fn entries_in(url: &str, table: TableId) -> i64 {
    let url = url.to_string();
    std::thread::spawn(move || {
        let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        c.query_one(
            "SELECT count(*) FROM entries WHERE table_id = $1",
            &[&(table.0 as i64)],
        )
        .unwrap()
        .get(0)
    })
    .join()
    .unwrap()
}

#[tokio::test]
async fn a_frozen_node_is_fenced_off_when_another_takes_its_table() {
    let Some(url) = std::thread::spawn(pg_cluster::fresh_database)
        .join()
        .unwrap()
    else {
        return;
    };
    let a = node(&url, "a");
    let mut on_a = Player::connect(&a.ws).await;
    let token = on_a.sign_in("Grant").await;
    let table = on_a.create_table("fleet").await;
    on_a.sit(table).await;
    // Play starts when every seat is taken.
    let mut other = Player::connect(&a.ws).await;
    other.sign_in("Lee").await;
    other.sit(table).await;
    let mut head = 0;
    for i in 0..3 {
        head = accepted(on_a.place(table, &format!("on A {i}")).await);
    }
    assert_eq!(entries_in(&url, table), head as i64);

    // A frozen past its lease; B starts and takes the table from the log.
    a.signal("-STOP");
    tokio::time::sleep(Duration::from_secs(LEASE_SECS + 1)).await;
    let b = node(&url, "b");
    let mut on_b = Player::connect(&b.ws).await;
    on_b.send(ClientMsg::Resume { token }).await;
    on_b.until(|m| matches!(m, ServerMsg::SignedIn { .. }))
        .await;
    on_b.sit(table).await;
    let on_b_seq = accepted(on_b.place(table, "on B").await);
    assert!(
        on_b_seq > head,
        "B goes on from the log: {on_b_seq} after {head}"
    );

    // A wakes: its player's next action cannot be stored.
    a.signal("-CONT");
    match on_a.place(table, "A after the hand-over").await {
        ServerMsg::Moved { table: t, to } => {
            assert_eq!(t, table);
            assert_eq!(to, b.ws, "A sends its player to B, which took the table");
        }
        other => panic!("A's write was not refused: {other:?}"),
    }
    assert_eq!(
        entries_in(&url, table),
        on_b_seq as i64,
        "nothing of A's after the hand-over"
    );
    // B still serves the table.
    let next = accepted(on_b.place(table, "on B again").await);
    assert_eq!(next, on_b_seq + 1);
    drop(a);
    drop(b);
}
