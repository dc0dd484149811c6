//! One lobby for the whole fleet: every node hears the others' lobby
//! changes through PostgreSQL's `LISTEN/NOTIFY` and pushes them to its own
//! lobby watchers.
//!
//! The directory lives in the database (`lobby` table, one line per
//! listed table, written by the node serving it in the same commit group
//! as its other writes: [`crate::lobby::Lobby::register`] and the rest).
//! Each write announces the table's number on the `muster_lobby` channel,
//! which PostgreSQL delivers to every listening session once the write
//! commits, in commit order. This module is the listening side: its own
//! connection, on its own thread (a `LISTEN` session must not share the
//! storage thread's connection, which waits in commit groups), reads the
//! lines it is told about and hands them to the lobby
//! ([`crate::lobby::Lobby::remote_put`]), which sends watchers what
//! changed. On every (re)connection it reads the whole directory first,
//! since announcements made while nobody listened are lost.
//!
//! Why a notification carries only the table's number, not its line: a
//! payload is limited to 8,000 bytes, and the line in the table is the
//! truth anyway; several announcements of one table within a wake-up cost
//! one read.

use crate::Shared;
use muster_shared::codec;
use muster_shared::protocol::{TableId, TableSummary};
use postgres::fallible_iterator::FallibleIterator;
use postgres::{Client, NoTls};
use std::collections::BTreeSet;
use std::sync::{Arc, Weak};
use std::time::Duration;

/// Longest wait for an announcement before the thread looks whether the
/// server is stopping.
const POLL: Duration = Duration::from_millis(500);
/// Tables read at once after a wake-up.
const BATCH: usize = 512;
/// The directory's lines. A finished table's line stays while its
/// delayed spectators have not seen the end (listed as in play, so the
/// list does not tell them the result early); its room takes it off then.
const LINES: &str = "SELECT table_id, summary FROM lobby";
/// The feed's connection's `application_name`.
pub const APPLICATION: &str = "muster lobby feed";
/// Longest pause between attempts to connect again.
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// Start following the fleet's directory (a fleet node on PostgreSQL).
/// The thread stops soon after the server does; it keeps no strong
/// reference to the server between wake-ups, so it never holds storage open.
pub fn start(shared: &Arc<Shared>) -> Result<(), String> {
    let url = shared.config.database.clone();
    let weak = Arc::downgrade(shared);
    std::thread::Builder::new()
        .name("muster-lobby-feed".into())
        .spawn(move || run(&url, &weak))
        .map(drop)
        .map_err(|e| format!("cannot start the fleet's lobby feed: {e}"))
}

fn stopped(shared: &Weak<Shared>) -> bool {
    shared.upgrade().is_none_or(|s| *s.shutdown.borrow())
}

fn run(url: &str, shared: &Weak<Shared>) {
    const FIRST: Duration = Duration::from_millis(100);
    let mut backoff = FIRST;
    while !stopped(shared) {
        let began = std::time::Instant::now();
        match follow(url, shared) {
            Ok(()) => return,
            Err(e) => {
                // A connection that served a while starts the pauses over.
                if began.elapsed() > 2 * MAX_BACKOFF {
                    backoff = FIRST;
                }
                tracing::warn!(
                    "the fleet's lobby feed lost PostgreSQL ({e}); connecting again in {} ms",
                    backoff.as_millis()
                );
                std::thread::sleep(backoff);
                backoff = (backoff * 2).min(MAX_BACKOFF);
            }
        }
    }
}

/// Listen until the server stops (`Ok`) or the connection fails.
fn follow(url: &str, shared: &Weak<Shared>) -> Result<(), String> {
    let db = |e: postgres::Error| crate::storage::StorageError::from(e).to_string();
    let mut client = Client::connect(url, NoTls).map_err(db)?;
    // Named, for an operator reading `pg_stat_activity`; then listen
    // first and read everything: no change falls in between.
    client
        .batch_execute(&format!(
            "SET application_name = '{APPLICATION}'; LISTEN {}",
            crate::storage::pg::LOBBY_CHANNEL
        ))
        .map_err(db)?;
    let all = client.query(LINES, &[]).map_err(db)?;
    let lines = all
        .iter()
        .filter_map(|r| line(r.get(0), r.get(1)))
        .collect();
    match shared.upgrade() {
        Some(s) => s.lobby.remote_reset(lines),
        None => return Ok(()),
    }
    let some = client
        .prepare(&format!("{LINES} WHERE table_id = ANY($1)"))
        .map_err(db)?;
    loop {
        if stopped(shared) {
            return Ok(());
        }
        let mut tables = BTreeSet::new();
        {
            let mut notes = client.notifications();
            let first = notes.timeout_iter(POLL).next().map_err(db)?;
            if let Some(n) = first {
                tables.extend(number(n.payload()));
                // And whatever else has arrived meanwhile, without waiting.
                let mut more = notes.iter();
                while tables.len() < BATCH
                    && let Some(n) = more.next().map_err(db)?
                {
                    tables.extend(number(n.payload()));
                }
            }
        }
        if client.is_closed() {
            return Err("the connection closed".into());
        }
        if tables.is_empty() {
            continue;
        }
        let ids: Vec<i64> = tables.iter().copied().collect();
        let rows = client.query(&some, &[&ids]).map_err(db)?;
        let Some(s) = shared.upgrade() else {
            return Ok(());
        };
        for row in &rows {
            tables.remove(&row.get::<_, i64>(0));
            if let Some(summary) = line(row.get(0), row.get(1)) {
                s.lobby.remote_put(summary);
            }
        }
        // Announced, and no longer in the directory: taken off the list.
        for gone in tables {
            s.lobby.remote_drop(TableId(gone as u64));
        }
    }
}

/// A table's number from an announcement's payload.
fn number(payload: &str) -> Option<i64> {
    payload.trim().parse().ok().filter(|n: &i64| *n > 0)
}

/// A directory line, or `None` (logged) when it does not decode or names
/// another table than its row.
fn line(table: i64, bytes: Vec<u8>) -> Option<TableSummary> {
    match codec::decode::<TableSummary>(&bytes, codec::MAX_SERVER_MSG) {
        Ok(s) if s.table.0 == table as u64 => Some(s),
        Ok(_) => {
            tracing::warn!(table, "the fleet's lobby line names another table; ignored");
            None
        }
        Err(e) => {
            tracing::warn!(
                table,
                "the fleet's lobby line does not decode ({e}); ignored"
            );
            None
        }
    }
}
