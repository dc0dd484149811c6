//! The embedded SQLite store: one file, WAL journal, `synchronous = FULL`.
//!
//! Why FULL and not NORMAL: in WAL mode NORMAL survives a process crash but
//! may lose the last commits on power loss, and the server promises that
//! nothing it acknowledged is lost. FULL costs one `fsync` per commit; group
//! commit (see [`super`]) spreads that over every request waiting.

use super::group_window::{CommitWindow, GroupWindow};
use super::journal;
use super::{
    Damaged, NewTable, Op, SeatHolder, StorageError, StoredChain, StoredTable, TokenLookup,
};
use muster_shared::Hash32;
use muster_shared::codec;
use muster_shared::protocol::{SessionId, SessionInfo, TableId, TableStatus, UserId};
use rusqlite::{Connection, OptionalExtension, Statement, params};
use std::collections::HashMap;
use std::path::Path;
use std::sync::mpsc::Receiver;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// Most requests folded into one transaction: bounds how long the first
/// waiter waits for the last one's work.
pub(super) const MAX_GROUP: usize = 512;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS users (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    token_hash BLOB NOT NULL UNIQUE,
    created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY,
    options BLOB NOT NULL,
    header BLOB NOT NULL,
    chain_secret BLOB NOT NULL,
    chain_len INTEGER NOT NULL,
    invite TEXT,
    seats BLOB NOT NULL,
    status INTEGER NOT NULL,
    created INTEGER NOT NULL,
    creator INTEGER
);
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    token_hash BLOB NOT NULL UNIQUE,
    created INTEGER NOT NULL,
    last_used INTEGER NOT NULL,
    revoked INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS sessions_user ON sessions(user_id);
CREATE TABLE IF NOT EXISTS entries (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    entry BLOB NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS journal (
    n INTEGER PRIMARY KEY,
    table_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    entry BLOB NOT NULL,
    sum BLOB
);
CREATE TABLE IF NOT EXISTS journal_head (
    only INTEGER PRIMARY KEY CHECK (only = 1),
    rows INTEGER NOT NULL
);
INSERT OR IGNORE INTO journal_head (only, rows) VALUES (1, 0);
CREATE TABLE IF NOT EXISTS journal_set_aside (
    n INTEGER, table_id INTEGER NOT NULL, seq INTEGER NOT NULL, entry BLOB NOT NULL,
    sum BLOB, set_aside INTEGER NOT NULL
);
";

/// Journal rows that trigger a fold into `entries` (see [`journal`]).
/// Larger folds share each table's leaf page among more of its entries
/// (fewer bytes per action) but hold the storage thread longer. At 2,000
/// busy tables (`muster-load`) that is ~33 entries per table, one fold
/// every ~33 s holding commits for 126–140 ms; 16,384 folded every 8 s
/// for 50–80 ms and wrote a third more per action (docs/server.md).
pub const FOLD_AT: u64 = 65_536;

pub(crate) struct Db {
    conn: Connection,
}

pub(super) fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

pub(super) fn status_code(s: TableStatus) -> i64 {
    match s {
        TableStatus::Open => 0,
        TableStatus::Playing => 1,
        TableStatus::Finished => 2,
    }
}

/// An open table closed for inactivity: not loaded on start, not shown.
pub(super) const ABANDONED: i64 = 3;

pub(super) fn status_from(code: i64) -> TableStatus {
    match code {
        0 => TableStatus::Open,
        2 => TableStatus::Finished,
        _ => TableStatus::Playing,
    }
}

pub(super) fn corrupt(e: impl std::fmt::Display) -> StorageError {
    StorageError::Corrupt(e.to_string())
}

impl Db {
    pub(crate) fn open(path: &Path) -> Result<Db, StorageError> {
        no_memory_statistics();
        let mut conn = Connection::open(path)?;
        // journal_mode answers with a row, so it is queried, not executed.
        let mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(corrupt(format!("SQLite refused WAL mode (got {mode})")));
        }
        conn.execute_batch(
            "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;",
        )?;
        // A damaged file is refused before anything is read from it: a
        // page lost from the middle of a log would otherwise read as a
        // shorter, valid-looking game.
        let check: String = conn.query_row("PRAGMA quick_check", [], |r| r.get(0))?;
        if check != "ok" {
            return Err(corrupt(format!(
                "{}: SQLite's integrity check failed ({check}); restore it from a backup",
                path.display()
            )));
        }
        conn.execute_batch(SCHEMA)?;
        // Club events' tables, versioned on their own (issue 21).
        let tx = conn.transaction()?;
        super::club::migrate(&mut super::club_db::Lite(&tx))?;
        tx.commit()?;
        // Added after the first release: older files get the column.
        let has_creator: bool = conn.query_row(
            "SELECT COUNT(*) > 0 FROM pragma_table_info('tables') WHERE name = 'creator'",
            [],
            |r| r.get(0),
        )?;
        if !has_creator {
            conn.execute_batch("ALTER TABLE tables ADD COLUMN creator INTEGER;")?;
        }
        // Added for integrity (issue 20): the committed head of each log,
        // and each entry's checksum. Older rows have NULLs and are checked
        // from the first write that sets them.
        let has_head: bool = conn.query_row(
            "SELECT COUNT(*) > 0 FROM pragma_table_info('tables') WHERE name = 'head_seq'",
            [],
            |r| r.get(0),
        )?;
        if !has_head {
            conn.execute_batch(
                "ALTER TABLE tables ADD COLUMN head_seq INTEGER; ALTER TABLE entries ADD COLUMN sum BLOB;",
            )?;
        }
        // Added with the limits of issue 20: the creator's address (tables
        // per address) and the last seat change (abandoned open tables).
        for (column, ty) in [("creator_addr", "TEXT"), ("active", "INTEGER")] {
            let has: bool = conn.query_row(
                "SELECT COUNT(*) > 0 FROM pragma_table_info('tables') WHERE name = ?1",
                [column],
                |r| r.get(0),
            )?;
            if !has {
                conn.execute_batch(&format!("ALTER TABLE tables ADD COLUMN {column} {ty};"))?;
            }
        }
        // Sessions (issue 20): a file from before them has one token per
        // user, in `users`; each becomes a session, counted as used now so
        // nobody is signed out by the upgrade.
        conn.execute(
            "INSERT OR IGNORE INTO sessions (user_id, token_hash, created, last_used)
             SELECT id, token_hash, created, ?1 FROM users
             WHERE token_hash NOT IN (SELECT token_hash FROM sessions)",
            params![now()],
        )?;
        // Entries of the last run still in the journal (a crash, or a
        // file copied from a running server) join their tables' logs now,
        // before anything reads them; a journal missing rows is refused.
        if let Some(why) = journal::damage(&conn)? {
            return Err(corrupt(format!(
                "{}: {why}; restore it from a backup",
                path.display()
            )));
        }
        let set_aside = journal::set_aside_and_fold(&conn).map_err(|e| match e {
            // Rows that break a key: damage no check above foresaw.
            rusqlite::Error::SqliteFailure(f, _)
                if f.code == rusqlite::ErrorCode::ConstraintViolation =>
            {
                corrupt(format!(
                    "{}: the journal of recent moves cannot join the tables' logs ({e}); \
                     restore it from a backup",
                    path.display()
                ))
            }
            // Busy, full, an I/O error: nothing is damaged; try again.
            other => StorageError::from(other),
        })?;
        for table in set_aside {
            tracing::error!(
                "table {table}: {}; it will be reported damaged",
                journal::SET_ASIDE
            );
        }
        Ok(Db { conn })
    }

    /// The storage thread: take every request waiting, run them in one
    /// transaction, commit (one fsync), then answer them all. Answers go out
    /// only after the commit, so "ok" always means "on disk".
    ///
    /// With the server's runtime given, a group's answers are sent from one
    /// task spawned on it: a wake from this thread costs the runtime an
    /// `eventfd` write (and, when it sleeps, a wake-up), so one wake per
    /// commit replaces one per request; the answers' own wakes are then
    /// local to the runtime's thread.
    pub(crate) fn run(
        self,
        rx: Receiver<Op>,
        window: CommitWindow,
        runtime: Option<tokio::runtime::Handle>,
    ) {
        let mut hot = match Hot::prepare(&self.conn) {
            Ok(hot) => hot,
            Err(e) => {
                // Not expected (`open` made the schema): refuse every request.
                tracing::error!("cannot prepare the storage statements: {e}");
                let msg = e.to_string();
                while let Ok(op) = rx.recv() {
                    fail(op, || StorageError::Db(msg.clone()));
                }
                return;
            }
        };
        let mut window = GroupWindow::new(window, Instant::now());
        loop {
            let asked = Instant::now();
            let Ok(first) = rx.recv() else { break };
            let group = super::take_group(first, asked.elapsed(), &rx, &mut window);
            let (answers, err) = self.run_group(&mut hot, group);
            let reply = move || {
                for answer in answers {
                    answer(err.as_deref());
                }
            };
            match &runtime {
                Some(rt) => drop(rt.spawn(async move { reply() })),
                None => reply(),
            }
            // After the group's answers are on their way: the fold holds
            // this thread, not the requests already committed.
            if hot.journal_rows >= FOLD_AT {
                hot.journal_rows = 0;
                if self.fold() {
                    // The journal is empty: every head is in `entries`.
                    hot.heads.clear();
                }
            }
        }
        drop(hot);
        // A clean stop leaves every entry in its table's log.
        self.fold();
        // Every handle is gone: fold the WAL back into the main file so the
        // data directory is a single tidy file after a clean shutdown.
        if let Err(e) = self.conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);") {
            tracing::warn!("final WAL checkpoint failed: {e}");
        }
        tracing::info!("storage closed");
    }

    /// Fold the journal into `entries` between groups (see [`journal`]).
    /// A failed fold loses nothing (the rows stay in the journal) and is
    /// tried again after the next [`FOLD_AT`] rows. Returns whether it
    /// folded.
    fn fold(&self) -> bool {
        let started = Instant::now();
        match journal::fold(&self.conn) {
            Ok(rows) => {
                tracing::debug!(
                    "folded {rows} journal rows into the tables' logs in {:?}",
                    started.elapsed()
                );
                true
            }
            Err(e) => {
                tracing::error!("folding the journal failed (its rows stay there): {e}");
                false
            }
        }
    }

    /// Run one group in one transaction: its answers, to send once the
    /// commit's outcome (an error text, or none) is known.
    fn run_group(&self, hot: &mut Hot, group: Vec<Op>) -> (Vec<Answer>, Option<String>) {
        // BEGIN and COMMIT as prepared statements: rusqlite's
        // `transaction()` and `commit()` parse their SQL every time, two
        // parses per group (~5,000 instructions per action, issue 22).
        if let Err(e) = hot.begin.execute([]) {
            tracing::error!("cannot begin a transaction: {e}");
            // One left open ("cannot start a transaction within a
            // transaction") would fail every group after: end it.
            if !self.conn.is_autocommit()
                && let Err(e) = self.conn.execute_batch("ROLLBACK")
            {
                tracing::error!("rollback of a transaction left open failed: {e}");
            }
            hot.reread_heads(&self.conn);
            let msg = e.to_string();
            for op in group {
                fail(op, || StorageError::Db(msg.clone()));
            }
            return (Vec::new(), None);
        }
        // Run every request; keep its answer until the commit succeeds.
        //
        // SQLite may end the transaction itself part-way (a full disk, an
        // I/O error: "it might be necessary for SQLite to rollback and
        // cancel the entire transaction"). What ran before is then undone,
        // and a request run after would commit alone in autocommit mode
        // while the group is answered with the failed COMMIT's error: an
        // entry stored that nobody was told of, after a hole. So once the
        // transaction is gone nothing more runs, and the group fails whole.
        let mut answers: Vec<Answer> = Vec::new();
        for op in group {
            if self.conn.is_autocommit() {
                fail(op, || StorageError::Db(ROLLED_BACK.into()));
            } else {
                answers.push(execute(&self.conn, hot, op));
            }
        }
        // The journal's row count, once per group and in its transaction:
        // a journal that later holds fewer rows lost acknowledged entries.
        let counted = if std::mem::take(&mut hot.appended) && !self.conn.is_autocommit() {
            hot.count_rows.execute([]).err().map(|e| e.to_string())
        } else {
            None
        };
        let err = if self.conn.is_autocommit() {
            Some(ROLLED_BACK.to_string())
        } else if let Some(e) = counted {
            // Not committed: the group is rolled back below.
            Some(e)
        } else {
            hot.commit.execute([]).err().map(|e| e.to_string())
        };
        super::COMMITS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if let Some(e) = &err {
            tracing::error!("commit failed: {e}");
            // A failed COMMIT may leave the transaction open (SQLITE_BUSY):
            // end it, so the next group begins afresh (as rusqlite's
            // `Transaction` did when dropped).
            if !self.conn.is_autocommit()
                && let Err(e) = self.conn.execute_batch("ROLLBACK")
            {
                tracing::error!("rollback after a failed commit failed: {e}");
            }
            hot.reread_heads(&self.conn);
        }
        (answers, err)
    }
}

/// The answer to a group whose transaction SQLite rolled back on its own.
const ROLLED_BACK: &str = "the database rolled the transaction back (disk full or an I/O error?); nothing of it was stored";

/// The hot path's statements, prepared once when the storage thread starts
/// and kept for its life (issue 22). rusqlite's statement cache found them
/// by their SQL text and put them back after each use: ~1,200 instructions
/// per statement, four statements per action (BEGIN, the entry, the head,
/// COMMIT). They borrow the connection, so they live in the thread's loop
/// (`Db::run`), not in `Db`.
pub(crate) struct Hot<'c> {
    begin: Statement<'c>,
    commit: Statement<'c>,
    insert_entry: Statement<'c>,
    last_folded: Statement<'c>,
    count_rows: Statement<'c>,
    /// Whether the group being run appended to the journal (its row count
    /// is then set before the commit).
    appended: bool,
    /// The last entry of each table with rows in the journal (and of
    /// others appended to since the last fold): the journal has no
    /// per-table key to refuse an entry twice, so [`append`] checks that
    /// each entry follows its table's last one.
    heads: HashMap<u64, u64>,
    /// Rows appended to the journal since the last fold (an estimate: a
    /// group that failed to commit counted too; it only brings a fold on).
    journal_rows: u64,
}

impl<'c> Hot<'c> {
    /// After a group that did not commit (or a transaction left open was
    /// ended): the heads it advanced are undone with it, so they are read
    /// again from the journal (a scan, rare).
    fn reread_heads(&mut self, conn: &Connection) {
        self.heads.clear();
        let read = (|| {
            let mut stmt =
                conn.prepare("SELECT table_id, MAX(seq) FROM journal GROUP BY table_id")?;
            let rows = stmt.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)))?;
            for row in rows {
                let (table, seq) = row?;
                self.heads.insert(table as u64, seq as u64);
            }
            Ok::<_, rusqlite::Error>(())
        })();
        if let Err(e) = read {
            // Left empty, a table with journal rows is looked up in
            // `entries` alone, so its next entry reads as not following
            // and is refused until the next fold (which empties the
            // journal). Loud, but nothing is lost or taken twice.
            tracing::error!("cannot read the journal's heads: {e}");
            // A fold empties the journal and so makes `entries` the truth
            // again; bring it on after this group.
            self.journal_rows = FOLD_AT;
        }
    }

    fn prepare(conn: &'c Connection) -> rusqlite::Result<Hot<'c>> {
        Ok(Hot {
            begin: conn.prepare("BEGIN")?,
            commit: conn.prepare("COMMIT")?,
            insert_entry: conn.prepare(
                "INSERT INTO journal (table_id, seq, entry, sum) VALUES (?1, ?2, ?3, ?4)",
            )?,
            last_folded: conn.prepare(
                "SELECT (SELECT COALESCE(MAX(seq), 0) FROM entries WHERE table_id = ?1)
                 FROM tables WHERE id = ?1",
            )?,
            // Between folds the journal's rows are numbered 1, 2, … (a
            // fold empties it; a rolled-back insert gives its number
            // back), so the last number is the count; `MAX` of the row
            // key is one lookup, where `COUNT(*)` would read every row.
            count_rows: conn.prepare(
                "UPDATE journal_head SET rows = (SELECT COALESCE(MAX(n), 0) FROM journal)
                 WHERE only = 1",
            )?,
            appended: false,
            heads: HashMap::new(),
            journal_rows: 0,
        })
    }
}

/// Turn off SQLite's memory statistics before its first connection: with
/// them on (the bundled build's default) every allocation SQLite makes
/// takes a global mutex to count bytes nobody here reads (issue 22:
/// instructions per action, `bench/callgrind.sh`). Only possible before
/// SQLite initialises; later (another connection opened first, as in
/// tests) SQLite answers "misuse" and keeps counting, which is harmless.
fn no_memory_statistics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: SQLITE_CONFIG_MEMSTATUS takes one int. The call runs
        // once, before this process's first connection (the server opens
        // its storage before anything else touches SQLite); if SQLite is
        // already initialised it only reads its init flag and refuses.
        let off: std::ffi::c_int = 0;
        let _ =
            unsafe { rusqlite::ffi::sqlite3_config(rusqlite::ffi::SQLITE_CONFIG_MEMSTATUS, off) };
    });
}

/// Answer a request that never ran.
pub(super) fn fail(op: Op, err: impl Fn() -> StorageError) {
    match op {
        Op::CreateUser { reply, .. } => drop(reply.send(Err(err()))),
        Op::FindUser { reply, .. } => drop(reply.send(Err(err()))),
        Op::NewSession { reply, .. } => drop(reply.send(Err(err()))),
        Op::ListSessions { reply, .. } => drop(reply.send(Err(err()))),
        Op::RevokeSession { reply, .. } => drop(reply.send(Err(err()))),
        Op::CreateTable { reply, .. } => drop(reply.send(Err(err()))),
        Op::Append { reply, .. } => drop(reply.send(Err(err()))),
        Op::SaveSeats { reply, .. } => drop(reply.send(Err(err()))),
        Op::LoadUnfinished { reply, .. } => drop(reply.send(Err(err()))),
        Op::Abandon { reply, .. } => drop(reply.send(Err(err()))),
        Op::Club { job } => job(Err(err()))(None),
        Op::AcquireLease { reply, .. } => drop(reply.send(Err(err()))),
        Op::Fleet { reply, .. } => drop(reply.send(Err(err()))),
        Op::Listing { .. } => {}
    }
}

/// A request's reply, sent once the commit's outcome (an error text or none) is known.
pub(crate) type Answer = Box<dyn FnOnce(Option<&str>) + Send>;

/// Wrap a result so it is sent after the commit, or replaced by the commit's error.
pub(crate) fn deferred<T: Send + 'static>(
    reply: tokio::sync::oneshot::Sender<Result<T, StorageError>>,
    result: Result<T, StorageError>,
) -> Answer {
    Box::new(move |commit_err| {
        let result = match commit_err {
            Some(e) => Err(StorageError::Db(e.to_string())),
            None => result,
        };
        // The requester may have gone away (a connection closed); nothing to do then.
        let _ = reply.send(result);
    })
}

fn execute(tx: &rusqlite::Connection, hot: &mut Hot, op: Op) -> Answer {
    match op {
        Op::CreateUser {
            name,
            token_hash,
            reply,
        } => {
            // The user and its first session, or neither.
            let r: Result<_, StorageError> = all_or_nothing(tx, || {
                tx.execute(
                    "INSERT INTO users (name, token_hash, created) VALUES (?1, ?2, ?3)",
                    params![name, token_hash.0.as_slice(), now()],
                )?;
                let user = UserId(tx.last_insert_rowid() as u64);
                let session = insert_session(tx, user, &token_hash)?;
                Ok((user, session))
            });
            deferred(reply, r)
        }
        Op::FindUser {
            token_hash,
            idle_secs,
            reply,
        } => deferred(reply, find_user(tx, &token_hash, idle_secs)),
        Op::NewSession {
            user,
            token_hash,
            reply,
        } => deferred(reply, insert_session(tx, user, &token_hash)),
        Op::ListSessions {
            user,
            idle_secs,
            reply,
        } => deferred(reply, list_sessions(tx, user, idle_secs)),
        Op::RevokeSession {
            user,
            session,
            reply,
        } => {
            let r = tx
                .execute(
                    "UPDATE sessions SET revoked = 1 WHERE id = ?1 AND user_id = ?2 AND revoked = 0",
                    params![session.0 as i64, user.0 as i64],
                )
                .map(|n| n == 1)
                .map_err(StorageError::from);
            deferred(reply, r)
        }
        Op::CreateTable { table, reply } => {
            // A table record and its first entries, or neither (rare, so
            // the savepoint costs nothing that matters).
            let mut created = None;
            let r = all_or_nothing(tx, || create_table(tx, hot, table, &mut created));
            if r.is_err()
                && let Some(id) = created
            {
                // Its number may be given to the next table.
                hot.heads.remove(&id);
            }
            deferred(reply, r)
        }
        Op::Append {
            table,
            seq,
            entry,
            chain,
            reply,
            // One writer owns every table of a SQLite file: no fencing.
            lease: _,
        } => {
            let r = append(tx, hot, table, seq, &entry, chain);
            deferred(reply, r)
        }
        Op::SaveSeats {
            table,
            seats,
            status,
            reply,
            lease: _,
        } => {
            let r = tx
                .execute(
                    "UPDATE tables SET seats = ?1, status = ?2, active = ?3 WHERE id = ?4",
                    params![
                        codec::encode_infallible(&seats),
                        status_code(status),
                        now(),
                        table.0 as i64
                    ],
                )
                .map(|_| ())
                .map_err(StorageError::from);
            deferred(reply, r)
        }
        Op::LoadUnfinished { reply } => {
            // Read at start and when a room is rebuilt: the journal's rows
            // join their tables' logs first, in this group's transaction
            // (if it does not commit, `reread_heads` restores the heads).
            let r = journal::fold_in(tx)
                .map_err(StorageError::from)
                .and_then(|_| {
                    hot.heads.clear();
                    hot.journal_rows = 0;
                    load_unfinished(tx)
                });
            deferred(reply, r)
        }
        Op::Club { job } => job(Ok(&mut super::club_db::Lite(tx))),
        // One writer owns every table of a SQLite file.
        Op::AcquireLease { reply, .. } => deferred(reply, Ok(Some(0))),
        // `Config::check` refuses a fleet on SQLite; this is the backstop.
        Op::Fleet { reply, .. } => deferred(
            reply,
            Err(StorageError::Db(
                "several nodes share a PostgreSQL database, not a SQLite file".into(),
            )),
        ),
        // No fleet, no shared directory: the lobby is this process's.
        Op::Listing { .. } => Box::new(|_| {}),
        Op::Abandon { table, reply } => {
            let r = tx
                .execute(
                    "UPDATE tables SET status = ?1 WHERE id = ?2 AND status = ?3",
                    params![ABANDONED, table.0 as i64, status_code(TableStatus::Open)],
                )
                .map(|_| ())
                .map_err(StorageError::from);
            deferred(reply, r)
        }
    }
}

fn insert_session(
    tx: &rusqlite::Connection,
    user: UserId,
    token_hash: &Hash32,
) -> Result<SessionId, StorageError> {
    let t = now();
    tx.execute(
        "INSERT INTO sessions (user_id, token_hash, created, last_used) VALUES (?1, ?2, ?3, ?3)",
        params![user.0 as i64, token_hash.0.as_slice(), t],
    )?;
    Ok(SessionId(tx.last_insert_rowid() as u64))
}

fn find_user(
    tx: &rusqlite::Connection,
    token_hash: &Hash32,
    idle_secs: u64,
) -> Result<TokenLookup, StorageError> {
    let row = tx
        .query_row(
            "SELECT s.id, s.user_id, u.name, s.last_used, s.revoked
             FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?1",
            params![token_hash.0.as_slice()],
            |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, i64>(4)?,
                ))
            },
        )
        .optional()?;
    let Some((session, user, name, last_used, revoked)) = row else {
        return Ok(TokenLookup::Unknown);
    };
    if revoked != 0 {
        return Ok(TokenLookup::Revoked);
    }
    let t = now();
    let idle = u64::try_from(t.saturating_sub(last_used)).unwrap_or(0);
    if idle > idle_secs {
        return Ok(TokenLookup::Expired { idle_secs: idle });
    }
    tx.execute(
        "UPDATE sessions SET last_used = ?1 WHERE id = ?2",
        params![t, session],
    )?;
    Ok(TokenLookup::Live {
        user: UserId(user as u64),
        name,
        session: SessionId(session as u64),
    })
}

fn list_sessions(
    tx: &rusqlite::Connection,
    user: UserId,
    idle_secs: u64,
) -> Result<Vec<SessionInfo>, StorageError> {
    let oldest = now().saturating_sub(i64::try_from(idle_secs).unwrap_or(i64::MAX));
    let mut stmt = tx.prepare(
        "SELECT id, created, last_used FROM sessions
         WHERE user_id = ?1 AND revoked = 0 AND last_used >= ?2 ORDER BY id",
    )?;
    let rows = stmt.query_map(params![user.0 as i64, oldest], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, i64>(2)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (id, created, last_used) = row?;
        let last_used = u64::try_from(last_used).unwrap_or(0);
        out.push(SessionInfo {
            id: SessionId(id as u64),
            created: u64::try_from(created).unwrap_or(0),
            last_used,
            expires: last_used.saturating_add(idle_secs),
            current: false,
        });
    }
    Ok(out)
}

/// `created` is set as soon as the record is in, for the caller's undo.
fn create_table(
    tx: &rusqlite::Connection,
    hot: &mut Hot,
    t: NewTable,
    created: &mut Option<u64>,
) -> Result<TableId, StorageError> {
    tx.execute(
        // A number no log ever used: a table whose record was lost may
        // have left rows behind (in `entries`, or set aside from the
        // journal), which must never be read as a new table's.
        "INSERT INTO tables (id, options, header, chain_secret, chain_len, invite, seats, status, created, creator, creator_addr, active)
         VALUES (1 + MAX((SELECT COALESCE(MAX(id), 0) FROM tables),
                         (SELECT COALESCE(MAX(table_id), 0) FROM entries),
                         (SELECT COALESCE(MAX(table_id), 0) FROM journal_set_aside)),
                 ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?8)",
        params![
            t.options,
            t.header,
            t.chain.secret.0.as_slice(),
            t.chain.len,
            t.invite,
            codec::encode_infallible(&t.seats),
            status_code(TableStatus::Open),
            now(),
            t.creator.0 as i64,
            t.addr
        ],
    )?;
    let id = TableId(tx.last_insert_rowid() as u64);
    *created = Some(id.0);
    for (i, entry) in t.entries.iter().enumerate() {
        append(tx, hot, id, i as u64 + 1, entry, None)?;
    }
    Ok(id)
}

/// Run `work` so that it stores all or nothing inside the group's
/// transaction: a request answered as failed must leave nothing behind
/// (its first statements would otherwise commit with the group).
pub(super) fn all_or_nothing<T, E: From<rusqlite::Error>>(
    tx: &rusqlite::Connection,
    work: impl FnOnce() -> Result<T, E>,
) -> Result<T, E> {
    tx.execute_batch("SAVEPOINT request")?;
    match work() {
        Ok(v) => {
            tx.execute_batch("RELEASE request")?;
            Ok(v)
        }
        Err(e) => {
            // If SQLite ended the whole transaction itself there is no
            // savepoint left; the caller (`run_group`) sees that and fails
            // the group. If the savepoint cannot be rolled back, the whole
            // transaction is, for the same outcome: the failed request's
            // writes must not commit with the group.
            if tx
                .execute_batch("ROLLBACK TO request; RELEASE request")
                .is_err()
                && !tx.is_autocommit()
            {
                let _ = tx.execute_batch("ROLLBACK");
            }
            Err(e)
        }
    }
}

fn append(
    tx: &rusqlite::Connection,
    hot: &mut Hot,
    table: TableId,
    seq: u64,
    entry: &[u8],
    chain: Option<StoredChain>,
) -> Result<(), StorageError> {
    // What the integrity checks cost is measured by building without them
    // (`bench/callgrind.sh`, feature `bench-no-integrity`): the entry is
    // then stored with no checksum.
    let checked = !cfg!(feature = "bench-no-integrity");
    let sum = checked.then(|| entry_sum(entry));
    // Appended in commit order (see [`journal`]): a commit writes the
    // journal's last page, not a page of each table it touched. Prepared
    // once: the hot path parses no SQL.
    let head = match hot.heads.get(&table.0) {
        Some(&head) => head,
        None => hot
            .last_folded
            .query_row([table.0 as i64], |r| r.get::<_, i64>(0))
            .optional()?
            .map(|h| h as u64)
            .ok_or_else(|| StorageError::Db(format!("there is no table {}", table.0)))?,
    };
    if seq != head.saturating_add(1) {
        return Err(StorageError::Db(format!(
            "table {}: entry {seq} does not follow the last entry stored ({head})",
            table.0
        )));
    }
    // `run_group` sets the journal's row count before the commit.
    let insert = |hot: &mut Hot| {
        hot.insert_entry
            .execute(params![
                table.0 as i64,
                seq as i64,
                entry,
                sum.as_ref().map(|s| s.as_slice())
            ])
            .map(drop)
            .map_err(StorageError::from)
    };
    match chain {
        // One statement: all or nothing by itself (the hot path).
        None => insert(hot)?,
        // The entry and the table's new chain together, or neither.
        Some(c) => all_or_nothing(tx, || {
            insert(hot)?;
            tx.execute(
                "UPDATE tables SET chain_secret = ?1, chain_len = ?2 WHERE id = ?3",
                params![c.secret.0.as_slice(), c.len, table.0 as i64],
            )?;
            Ok::<_, StorageError>(())
        })?,
    }
    hot.heads.insert(table.0, seq);
    hot.journal_rows += 1;
    hot.appended = true;
    Ok(())
}

/// An entry's checksum: the first 16 bytes of its blake3 hash.
pub(super) fn entry_sum(entry: &[u8]) -> [u8; 16] {
    let h = blake3::hash(entry);
    let mut out = [0u8; 16];
    out.copy_from_slice(&h.as_bytes()[..16]);
    out
}

fn load_unfinished(tx: &rusqlite::Connection) -> Result<(Vec<StoredTable>, Damaged), StorageError> {
    let mut damaged = Damaged::new();
    let set_aside = journal::set_aside_tables(tx)?;
    let mut stmt = tx.prepare(
        "SELECT id, options, header, chain_secret, chain_len, invite, seats, status, creator,
                head_seq, creator_addr, COALESCE(active, created)
         FROM tables WHERE status IN (?1, ?2) ORDER BY id",
    )?;
    let open = status_code(TableStatus::Open);
    let playing = status_code(TableStatus::Playing);
    let rows = stmt.query_map(params![open, playing], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, Vec<u8>>(1)?,
            r.get::<_, Vec<u8>>(2)?,
            r.get::<_, Vec<u8>>(3)?,
            r.get::<_, u32>(4)?,
            r.get::<_, Option<String>>(5)?,
            r.get::<_, Vec<u8>>(6)?,
            r.get::<_, i64>(7)?,
            r.get::<_, Option<i64>>(8)?,
            r.get::<_, Option<i64>>(9)?,
            r.get::<_, Option<String>>(10)?,
            r.get::<_, i64>(11)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (id, options, header, secret, len, invite, seats, status, creator, head, addr, active) =
            row?;
        let table = TableId(id as u64);
        if set_aside.binary_search(&id).is_ok() {
            damaged.push((table, journal::SET_ASIDE.into()));
            continue;
        }
        let Ok(secret) = <[u8; 32]>::try_from(secret) else {
            damaged.push((table, "its dice-chain secret is not 32 bytes".into()));
            continue;
        };
        let seats: Vec<Option<SeatHolder>> = match codec::decode(&seats, codec::MAX_SERVER_MSG) {
            Ok(s) => s,
            Err(e) => {
                damaged.push((table, format!("its seats do not decode ({e})")));
                continue;
            }
        };
        let mut entries_stmt = tx.prepare_cached(
            "SELECT seq, entry, sum FROM entries WHERE table_id = ?1 ORDER BY seq",
        )?;
        let mut entries = Vec::new();
        let mut problem = None;
        for e in entries_stmt.query_map(params![id], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, Vec<u8>>(1)?,
                r.get::<_, Option<Vec<u8>>>(2)?,
            ))
        })? {
            let (seq, bytes, sum) = e?;
            if seq as usize != entries.len() + 1 {
                problem = Some(format!(
                    "its log jumps from entry {} to {seq}",
                    entries.len()
                ));
                break;
            }
            if sum.is_some_and(|s| s.as_slice() != entry_sum(&bytes).as_slice()) {
                problem = Some(format!("log entry {seq} does not match its checksum"));
                break;
            }
            entries.push(bytes);
        }
        if problem.is_none()
            && let Some(head) = head
            && head as usize != entries.len()
        {
            problem = Some(format!(
                "{head} log entries were committed but {} are in the database",
                entries.len()
            ));
        }
        if let Some(why) = problem {
            damaged.push((table, why));
            continue;
        }
        out.push(StoredTable {
            id: TableId(id as u64),
            creator: creator.map(|c| UserId(c as u64)),
            addr,
            active,
            options,
            header,
            chain: StoredChain {
                secret: Hash32(secret),
                len,
            },
            invite,
            seats,
            status: status_from(status),
            entries,
            lease: None,
        });
    }
    // A table's record gone while its log remains: a table that would
    // otherwise vanish without a word.
    let mut orphans = tx.prepare(
        "SELECT DISTINCT table_id FROM entries WHERE table_id NOT IN (SELECT id FROM tables) ORDER BY table_id",
    )?;
    let mut orphaned: Vec<i64> = orphans
        .query_map([], |r| r.get::<_, i64>(0))?
        .collect::<Result<_, _>>()?;
    // Journal rows set aside because their table record was gone.
    for id in set_aside {
        let known: bool =
            tx.query_row("SELECT COUNT(*) > 0 FROM tables WHERE id = ?1", [id], |r| {
                r.get(0)
            })?;
        if !known {
            orphaned.push(id);
        }
    }
    orphaned.sort_unstable();
    orphaned.dedup();
    for id in orphaned {
        damaged.push((
            TableId(id as u64),
            "its log is in the database but its table record is missing".into(),
        ));
    }
    Ok((out, damaged))
}
