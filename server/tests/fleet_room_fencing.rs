//! Issue 23: the fencing token is the room's, not the node's. A table
//! leaves node A (A frozen past its lease; node B takes it and plays on)
//! and comes back to A (B dies) before A's old room for it noticed: A
//! takes the table again under a newer token. The old room must not
//! write with that token: its state is behind the log (B's entries), so
//! its write would collide with them and leave the table stopped on A
//! with "the server could not store the last action". Instead its write
//! is refused by its own, older token, a new room is rebuilt from the
//! log, and the player is served by it (told to reconnect here, or
//! answered by the new room directly).
//!
//! Before the fix (the token kept per node and table, 2026-11-27) the
//! player's action came back as `Error{Internal}` and the table stayed
//! stopped on A.
//!
//! The steps that need a node to be paused or dead are made exact by
//! SIGSTOP/SIGKILL and by expiring leases in the database, as a long
//! pause would; the lease is long (120 s) so that no periodic lease check
//! of A's runs during the test and hides the old room by handing it over
//! first (that check closes the gap most of the time; the on-demand
//! takeover, when a client asks A for another expired table, does not).

#[path = "support/pg_cluster.rs"]
mod pg_cluster;
#[path = "support/raw_client.rs"]
mod raw_client;

use muster_shared::protocol::{ClientMsg, ServerMsg, TableId};
use raw_client::{Node, Player, accepted};

fn node(url: &str, name: &str) -> Node {
    Node::start(&["--database", url, "--node", name, "--lease-secs", "120"])
}

fn sql(url: &str, statement: &str) -> Vec<i64> {
    let (url, statement) = (url.to_string(), statement.to_string());
    std::thread::spawn(move || {
        let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        c.query(&statement, &[])
            .unwrap()
            .iter()
            .map(|r| r.get(0))
            .collect()
    })
    .join()
    .unwrap()
}

/// Every lease expired long ago, as after a pause or a death longer than
/// a lease: any node may take any table at once.
fn expire_every_lease(url: &str) {
    sql(
        url,
        "UPDATE leases SET expires = clock_timestamp() - interval '1 hour' RETURNING table_id",
    );
}

fn entries_in(url: &str, table: TableId) -> i64 {
    sql(
        url,
        &format!("SELECT count(*) FROM entries WHERE table_id = {}", table.0),
    )[0]
}

async fn resume(ws: &str, token: &str) -> Player {
    let mut p = Player::connect(ws).await;
    p.send(ClientMsg::Resume {
        token: token.into(),
    })
    .await;
    p.until(|m| matches!(m, ServerMsg::SignedIn { .. })).await;
    p
}

#[tokio::test]
async fn a_room_whose_table_left_and_came_back_cannot_write() {
    let Some(url) = std::thread::spawn(pg_cluster::fresh_database)
        .join()
        .unwrap()
    else {
        return;
    };
    // On A: a table in play.
    let a = node(&url, "a");
    let mut on_a = Player::connect(&a.ws).await;
    let token = on_a.sign_in("Grant").await;
    let table = on_a.create_table("there and back").await;
    on_a.sit(table).await;
    let mut lee = Player::connect(&a.ws).await;
    lee.sign_in("Lee").await;
    lee.sit(table).await;
    let mut head = 0;
    for i in 0..2 {
        head = accepted(on_a.place(table, &format!("on A {i}")).await);
    }

    // A is frozen past its lease; B takes the table (at its start) and
    // plays on it. B also makes a table of its own.
    a.signal("-STOP");
    expire_every_lease(&url);
    let b = node(&url, "b");
    let mut on_b = resume(&b.ws, &token).await;
    on_b.sit(table).await;
    let on_b_seq = accepted(on_b.place(table, "on B").await);
    assert_eq!(on_b_seq, head + 1);
    let other = on_b.create_table("B's own").await;

    // B dies; its leases run out. A wakes, and a client asks it for B's
    // other table: A takes over every expired table it may, the first one
    // included, under a newer token, while its old room for it still runs.
    drop(b);
    expire_every_lease(&url);
    a.signal("-CONT");
    let mut asks = resume(&a.ws, &token).await;
    asks.send(ClientMsg::Spectate {
        table: other,
        invite: None,
    })
    .await;
    asks.until(|m| matches!(m, ServerMsg::Snapshot(_))).await;

    // The player's old connection to A's old room acts. The new room may
    // take the action itself (its connection now finds the new room),
    // while the old one tells its followers to come back (`Moved` to A):
    // whichever the player hears first.
    let seq = match on_a.place(table, "A's old room").await {
        ServerMsg::Accepted { seq, .. } => seq,
        ServerMsg::Moved { table: t, to } => {
            assert_eq!((t, to.as_str()), (table, a.ws.as_str()), "back to A");
            let mut again = resume(&a.ws, &token).await;
            again.sit(table).await;
            accepted(again.place(table, "A's new room").await)
        }
        other => panic!("the table is stuck on A: {other:?}"),
    };
    assert!(seq > on_b_seq, "after B's entry, not over it: {seq}");
    assert_eq!(
        entries_in(&url, table),
        seq as i64,
        "no entry lost or doubled"
    );
    // And A goes on serving it.
    let mut again = resume(&a.ws, &token).await;
    again.sit(table).await;
    assert_eq!(
        accepted(again.place(table, "later").await),
        seq + 1,
        "A serves the table from its log"
    );
    drop(a);
}
