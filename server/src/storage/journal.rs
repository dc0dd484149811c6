//! The SQLite store's journal: new log entries in commit order (issue 22).
//! (A table of ours, not SQLite's own write-ahead log.)
//!
//! `entries` keeps each table's log together (keyed by table, then
//! sequence number), which is what reading a table back wants. Writing
//! there is costly under load: at 2,000 busy tables every action of a
//! commit lands in its own table's leaf page, and its committed head in its
//! own table's row, so a commit of four actions wrote about eight 4 KiB
//! pages to the WAL (and the checkpoint wrote them again): 8,100 bytes
//! handed to files per action in a 15 s run, 11,500 in a 40 s one, against
//! ~100 for a plain append.
//!
//! So an action's entry is first appended to `journal`, whose rows are
//! numbered in commit order: a commit writes the journal's last leaf page
//! and the one-row `journal_head`, whatever tables it touched. Every
//! [`super::sqlite::FOLD_AT`] rows (and when the store opens or closes) the
//! journal is *folded*: its rows move into `entries` in table order, each
//! table's `head_seq` set to its last entry, in one transaction. A fold
//! touches each busy table's pages once for all of its rows since the last
//! fold. Measured (`muster-load --tables 2000 --spectators 3 --secs 40`):
//! 2,800–2,900 bytes per action against 11,500, p99 4.2–4.4 ms against
//! 5.5, and one fold of 126–140 ms every ~33 s (docs/server.md).
//!
//! The journal has no key per table and no foreign key: either would put
//! a page per table back into every commit. So the storage thread keeps
//! each table's last entry (`Hot::heads` in sqlite.rs) and refuses an
//! entry that does not follow it, or whose table does not exist.
//!
//! Integrity: `journal_head.rows` counts the rows committed since the last
//! fold, in the same transaction as each row. Rows are numbered 1, 2, … from
//! the last fold (the fold empties the journal), so a journal that is whole
//! has exactly `rows` rows, numbered 1 to `rows`. A row lost anywhere, the
//! last included, breaks that; the store then refuses to open (as it does
//! when SQLite's own check fails), since which tables lost an entry cannot
//! be told. Each table's `head_seq` keeps guarding the folded part.

use rusqlite::{Connection, OptionalExtension};

/// A table's whole log, folded part then journal, in order; `?1` is the
/// table. For the read-only tools (`check`, `export`), which may read a
/// file whose journal was not folded (a server running, or one that
/// crashed). The journal arm scans the journal (it has no index, so that
/// appending stays one page); it holds at most a fold's worth of rows.
pub(crate) const TABLE_LOG: &str = "SELECT seq, entry, sum FROM entries WHERE table_id = ?1
     UNION ALL SELECT seq, entry, sum FROM journal WHERE table_id = ?1
     ORDER BY seq";

/// Whether the file has a journal (files from before it do not).
pub(crate) fn exists(conn: &Connection) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT COUNT(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'journal'",
        [],
        |r| r.get(0),
    )
}

/// `None` when the journal is whole; else what is wrong with it, in words.
pub(crate) fn damage(conn: &Connection) -> rusqlite::Result<Option<String>> {
    let committed: Option<i64> = conn
        .query_row("SELECT rows FROM journal_head WHERE only = 1", [], |r| {
            r.get(0)
        })
        .optional()?;
    let Some(committed) = committed else {
        return Ok(Some("the journal's committed row count is missing".into()));
    };
    let (count, first, last): (i64, i64, i64) = conn.query_row(
        "SELECT COUNT(*), COALESCE(MIN(n), 1), COALESCE(MAX(n), 0) FROM journal",
        [],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    if count == committed && (count == 0 || (first == 1 && last == committed)) {
        return Ok(None);
    }
    Ok(Some(format!(
        "the journal of recent moves should hold {committed} rows numbered 1 to {committed}, \
         but holds {count} (numbered {first} to {last}): acknowledged moves are missing"
    )))
}

/// Move every journal row into `entries`, set each touched table's
/// `head_seq` to its last entry, and empty the journal: one transaction,
/// so a crash leaves either the journal or the fold. Returns the rows moved.
pub(crate) fn fold(conn: &Connection) -> rusqlite::Result<u64> {
    let tx = conn.unchecked_transaction()?;
    let moved = fold_in(&tx)?;
    tx.commit()?;
    Ok(moved)
}

/// [`fold`]'s work inside a transaction the caller owns (a group's, when a
/// room is rebuilt at run time and must read its whole log).
pub(crate) fn fold_in(tx: &Connection) -> rusqlite::Result<u64> {
    // All or nothing inside the caller's transaction too: entries copied
    // but left in the journal would be copied twice by the next fold.
    tx.execute_batch("SAVEPOINT fold")?;
    match fold_statements(tx) {
        Ok(moved) => {
            tx.execute_batch("RELEASE fold")?;
            Ok(moved)
        }
        Err(e) => {
            // If SQLite has ended the whole transaction itself there is no
            // savepoint left; the caller sees that and fails the group.
            let _ = tx.execute_batch("ROLLBACK TO fold; RELEASE fold");
            Err(e)
        }
    }
}

fn fold_statements(tx: &Connection) -> rusqlite::Result<u64> {
    // Table order: each table's rows are written to its leaf together.
    let moved = tx.execute(
        "INSERT INTO entries (table_id, seq, entry, sum)
         SELECT table_id, seq, entry, sum FROM journal ORDER BY table_id, seq",
        [],
    )?;
    if moved > 0 {
        tx.execute(
            "UPDATE tables SET head_seq = j.last
             FROM (SELECT table_id, MAX(seq) AS last FROM journal GROUP BY table_id) AS j
             WHERE tables.id = j.table_id",
            [],
        )?;
        tx.execute("DELETE FROM journal", [])?;
        tx.execute("UPDATE journal_head SET rows = 0 WHERE only = 1", [])?;
    }
    Ok(moved as u64)
}
