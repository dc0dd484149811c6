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
//! 5.6–6.2, and one fold of 126–141 ms every ~33 s (docs/server.md).
//!
//! The journal has no key per table and no foreign key: either would put
//! a page per table back into every commit. So the storage thread keeps
//! each table's last entry (`Hot::heads` in sqlite.rs) and refuses an
//! entry that does not follow it, or whose table does not exist.
//!
//! Integrity: `journal_head.rows` counts the journal's rows, set at the
//! end of every group that appended, in the group's transaction (if that
//! fails the group is not committed). A row lost anywhere, the last
//! included, makes the count disagree; the store then refuses to open (as
//! it does when SQLite's own check fails), since which tables lost an
//! entry cannot be told. Each table's `head_seq` keeps guarding the folded
//! part.
//!
//! A file left by a crash may hold journal rows that cannot join their
//! table's log: the table's record lost, or entries already stored under
//! the same numbers (an older server, which reads only `entries`, run on
//! the file before this one). On open those tables' journal rows are set
//! aside, whole, into `journal_set_aside` and the tables are reported
//! damaged (`--skip-damaged` starts without them), so that one table's
//! damage neither blocks every fold nor is folded into a log.

use rusqlite::{Connection, Transaction, TransactionBehavior};

/// A table's whole log, folded part then journal, in order; `?1` is the
/// table. For the read-only tools (`check`, `export`), which may read a
/// file whose journal was not folded (a server running, or one that
/// crashed). The journal arm scans the journal (it has no index, so that
/// appending stays one page); it holds at most a fold's worth of rows.
/// The fourth column is 1 for a journal row (the folded part is what
/// `head_seq` guards).
pub(crate) const TABLE_LOG: &str = "SELECT seq, entry, sum, 0 FROM entries WHERE table_id = ?1
     UNION ALL SELECT seq, entry, sum, 1 FROM journal WHERE table_id = ?1
     ORDER BY seq";

/// Whether the file has a journal (files from before it do not).
pub(crate) fn exists(conn: &Connection) -> rusqlite::Result<bool> {
    has_table(conn, "journal")
}

pub(crate) fn has_table(conn: &Connection, name: &str) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT COUNT(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = ?1",
        [name],
        |r| r.get(0),
    )
}

/// The tables whose journal rows were set aside on some open (see the
/// module's comment), in order.
pub(crate) fn set_aside_tables(conn: &Connection) -> rusqlite::Result<Vec<i64>> {
    if !has_table(conn, "journal_set_aside")? {
        return Ok(Vec::new());
    }
    let mut stmt =
        conn.prepare("SELECT DISTINCT table_id FROM journal_set_aside ORDER BY table_id")?;
    stmt.query_map([], |r| r.get(0))?.collect()
}

/// Why a table is reported damaged when its journal rows were set aside.
pub(crate) const SET_ASIDE: &str = "its newest moves, left in the journal by a crash, do not \
    fit its log (its table record is missing, or entries stored later took their numbers); \
    they are kept apart in the file for a restore";

/// On open: move the journal rows of every table whose rows cannot join
/// its log (no table record, a number already in `entries`, or a number
/// twice in the journal) into `journal_set_aside`, keeping the row count
/// right, then fold the rest; one transaction, so a failed open changes
/// nothing. Returns the tables set aside.
pub(crate) fn set_aside_and_fold(conn: &Connection) -> rusqlite::Result<Vec<i64>> {
    // IMMEDIATE: the write lock first. A deferred transaction that reads
    // before it writes gets SQLITE_BUSY at once, without waiting, if
    // another connection wrote meanwhile (a server still closing).
    let tx = Transaction::new_unchecked(conn, TransactionBehavior::Immediate)?;
    let bad: Vec<i64> = {
        let mut stmt = tx.prepare(
            "SELECT DISTINCT j.table_id FROM journal j
             WHERE NOT EXISTS (SELECT 1 FROM tables t WHERE t.id = j.table_id)
                OR EXISTS (SELECT 1 FROM entries e WHERE e.table_id = j.table_id AND e.seq = j.seq)
                OR j.table_id IN (SELECT table_id FROM journal
                                  GROUP BY table_id, seq HAVING COUNT(*) > 1)
             ORDER BY j.table_id",
        )?;
        stmt.query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?
    };
    for &table in &bad {
        tx.execute(
            "INSERT INTO journal_set_aside (n, table_id, seq, entry, sum, set_aside)
             SELECT n, table_id, seq, entry, sum, unixepoch() FROM journal WHERE table_id = ?1",
            [table],
        )?;
        let moved = tx.execute("DELETE FROM journal WHERE table_id = ?1", [table])?;
        tx.execute(
            "UPDATE journal_head SET rows = rows - ?1 WHERE only = 1",
            [moved as i64],
        )?;
    }
    fold_statements(&tx)?;
    tx.commit()?;
    Ok(bad)
}

/// `None` when the journal is whole; else what is wrong with it, in words.
/// One statement, so one snapshot: beside a running server (`check`) a
/// commit or a fold between two reads would look like damage.
pub(crate) fn damage(conn: &Connection) -> rusqlite::Result<Option<String>> {
    let (committed, count): (Option<i64>, i64) = conn.query_row(
        "SELECT (SELECT rows FROM journal_head WHERE only = 1), COUNT(*) FROM journal",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    Ok(match committed {
        None => Some("the journal's committed row count is missing".into()),
        Some(c) if c == count => None,
        Some(c) if c > count => Some(format!(
            "the journal of recent moves should hold {c} rows but holds {count}: \
             acknowledged moves are missing"
        )),
        Some(c) => Some(format!(
            "the journal of recent moves should hold {c} rows but holds {count}: \
             rows were added behind the server's back"
        )),
    })
}

/// Move every journal row into `entries`, set each touched table's
/// `head_seq` to its last entry, and empty the journal: one transaction,
/// so a crash leaves either the journal or the fold. Returns the rows moved.
pub(crate) fn fold(conn: &Connection) -> rusqlite::Result<u64> {
    let tx = Transaction::new_unchecked(conn, TransactionBehavior::Immediate)?;
    let moved = fold_in(&tx)?;
    tx.commit()?;
    Ok(moved)
}

/// [`fold`]'s work inside a transaction the caller owns (a group's, when a
/// room is rebuilt at run time and must read its whole log).
pub(crate) fn fold_in(tx: &Connection) -> rusqlite::Result<u64> {
    // All or nothing inside the caller's transaction too: entries copied
    // but left in the journal would be copied twice by the next fold.
    super::sqlite::all_or_nothing(tx, || fold_statements(tx))
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
