//! Club events' SQL (issue 21), kept apart from the table log's so it can
//! be ported to another database on its own (a PostgreSQL backend is being
//! written beside SQLite): plain SQL with `?N` parameters, no SQLite-only
//! functions. Each function runs inside the storage thread's group
//! transaction (see [`super::Storage::club`]).
//!
//! Schema versions are recorded in `club_meta` (`schema`); [`migrate`]
//! applies the missing steps in order when the file is opened.
//!
//! An event's whole state (settings, entrants, rounds, results, clocks) is
//! one encoded row (`club_events.state`), written after every change of
//! the event as a whole (registration, a round, a result, a director's
//! action). A move at one table changes only that table's clock and
//! status card: that is written alone, in the table's own row of
//! `club_table_state` (a hundred bytes, where the whole event of 200
//! tables is some 30 KB). Both rows carry the event's write sequence
//! (`seq`); at load a table's row replaces what the event row says of
//! that table only when it is newer. Events stored before the table rows
//! (schema 1) load unchanged: their row is the newest there is.

use super::StorageError;
use super::club_db::{ClubDb, Val};
use muster_shared::protocol::club::{ClubId, ClubRole, EventId};
use muster_shared::protocol::{TableId, UserId};

/// A statement's parameters, each as a [`Val`].
macro_rules! args {
    ($($v:expr),* $(,)?) => {
        &[$(Val::from($v)),*]
    };
}

/// One step of the club schema: SQL, or a rewrite of rows in Rust.
enum Step {
    Sql(&'static str),
    Rows(fn(&mut dyn ClubDb) -> Result<(), StorageError>),
}

/// Each step of the club schema, in order; step `i` makes version `i + 1`.
const STEPS: &[Step] = &[
    Step::Sql(
        "
CREATE TABLE IF NOT EXISTS accounts (
    user_id INTEGER PRIMARY KEY REFERENCES users(id),
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    phc TEXT NOT NULL,
    created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS clubs (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS club_members (
    club_id INTEGER NOT NULL REFERENCES clubs(id),
    user_id INTEGER NOT NULL REFERENCES users(id),
    role INTEGER NOT NULL,
    PRIMARY KEY (club_id, user_id)
);
CREATE TABLE IF NOT EXISTS club_events (
    id INTEGER PRIMARY KEY,
    club_id INTEGER NOT NULL REFERENCES clubs(id),
    state BLOB NOT NULL,
    updated INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS club_log (
    id INTEGER PRIMARY KEY,
    event_id INTEGER NOT NULL REFERENCES club_events(id),
    actor INTEGER NOT NULL,
    at INTEGER NOT NULL,
    line TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS club_log_event ON club_log(event_id);
",
    ),
    Step::Sql(
        "
ALTER TABLE clubs ADD COLUMN webhook TEXT;
ALTER TABLE club_events ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
CREATE TABLE IF NOT EXISTS club_table_state (
    table_id INTEGER PRIMARY KEY,
    event_id INTEGER NOT NULL REFERENCES club_events(id),
    seq INTEGER NOT NULL,
    state BLOB NOT NULL
);
",
    ),
    // 3: an event's settings name a battle per round (issue 21).
    Step::Rows(events_with_round_scenarios),
];

/// Club schema 3: every event row gets the settings' `round_scenarios`
/// (empty: its one battle for every round), see `club::stored`. A row that
/// is no event of the old layout is left as it is, to be reported by the
/// hub when it loads (as any row that does not decode).
fn events_with_round_scenarios(tx: &mut dyn ClubDb) -> Result<(), StorageError> {
    let rows = tx.query("SELECT id, state FROM club_events ORDER BY id", &[])?;
    for row in rows {
        let (id, state) = (row.int(0)?, row.blob(1)?);
        match crate::club::stored::with_round_scenarios(&state) {
            Ok(new) => {
                tx.execute(
                    "UPDATE club_events SET state = ?1 WHERE id = ?2",
                    args![new.as_slice(), id],
                )?;
            }
            Err(e) => tracing::error!(event = id, "a stored event does not decode: {e}"),
        }
    }
    Ok(())
}

/// Bring the club schema up to date, inside the caller's transaction (on
/// PostgreSQL, under its migration lock: nodes starting together migrate
/// once).
pub(crate) fn migrate(tx: &mut dyn ClubDb) -> Result<(), StorageError> {
    tx.batch(
        "CREATE TABLE IF NOT EXISTS club_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);",
    )?;
    let version = match tx.query_opt("SELECT value FROM club_meta WHERE key = 'schema'", &[])? {
        Some(row) => row.int(0)?,
        None => 0,
    };
    let have = usize::try_from(version).unwrap_or(0);
    if have > STEPS.len() {
        return Err(StorageError::Corrupt(format!(
            "the club tables are at version {version}, newer than this server ({}); use a newer server",
            STEPS.len()
        )));
    }
    for step in &STEPS[have..] {
        match step {
            Step::Sql(sql) => tx.batch(sql)?,
            Step::Rows(rewrite) => rewrite(tx)?,
        }
    }
    tx.execute(
        "INSERT INTO club_meta (key, value) VALUES ('schema', ?1)
         ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        args![STEPS.len() as i64],
    )?;
    Ok(())
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// What claiming an account did.
#[derive(Debug, PartialEq, Eq)]
pub enum Claimed {
    Done,
    /// Another account has this name (or one that looks the same).
    NameTaken,
    /// This identity is an account already.
    Already,
}

/// A user's id as the tables store it (a signed 64-bit number).
fn id(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

/// An id read back.
fn unid(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

pub fn claim_account(
    tx: &mut dyn ClubDb,
    user: UserId,
    name: &str,
    key: &str,
    phc: &str,
) -> Result<Claimed, StorageError> {
    if is_account(tx, user)? {
        return Ok(Claimed::Already);
    }
    let taken = tx
        .query_opt("SELECT 1 FROM accounts WHERE name_key = ?1", args![key])?
        .is_some();
    if taken {
        return Ok(Claimed::NameTaken);
    }
    tx.execute(
        "INSERT INTO accounts (user_id, name, name_key, phc, created) VALUES (?1, ?2, ?3, ?4, ?5)",
        args![id(user.0), name, key, phc, now()],
    )?;
    Ok(Claimed::Done)
}

/// The account named by `key`: its identity, name and password hash.
pub fn find_account(
    tx: &mut dyn ClubDb,
    key: &str,
) -> Result<Option<(UserId, String, String)>, StorageError> {
    match tx.query_opt(
        "SELECT user_id, name, phc FROM accounts WHERE name_key = ?1",
        args![key],
    )? {
        Some(r) => Ok(Some((UserId(unid(r.int(0)?)), r.text(1)?, r.text(2)?))),
        None => Ok(None),
    }
}

/// Whether `user` is an account.
pub fn is_account(tx: &mut dyn ClubDb, user: UserId) -> Result<bool, StorageError> {
    Ok(tx
        .query_opt(
            "SELECT 1 FROM accounts WHERE user_id = ?1",
            args![id(user.0)],
        )?
        .is_some())
}

pub fn create_club(tx: &mut dyn ClubDb, name: &str, owner: UserId) -> Result<ClubId, StorageError> {
    let club = tx
        .query_one(
            "INSERT INTO clubs (name, created) VALUES (?1, ?2) RETURNING id",
            args![name, now()],
        )?
        .int(0)?;
    let club = ClubId(unid(club));
    set_member(tx, club, owner, ClubRole::Owner)?;
    Ok(club)
}

fn role_code(role: ClubRole) -> i64 {
    match role {
        ClubRole::Member => 0,
        ClubRole::Director => 1,
        ClubRole::Owner => 2,
    }
}

fn role_from(code: i64) -> ClubRole {
    match code {
        2 => ClubRole::Owner,
        1 => ClubRole::Director,
        _ => ClubRole::Member,
    }
}

pub fn set_member(
    tx: &mut dyn ClubDb,
    club: ClubId,
    user: UserId,
    role: ClubRole,
) -> Result<(), StorageError> {
    tx.execute(
        "INSERT INTO club_members (club_id, user_id, role) VALUES (?1, ?2, ?3)
         ON CONFLICT(club_id, user_id) DO UPDATE SET role = excluded.role",
        args![id(club.0), id(user.0), role_code(role)],
    )?;
    Ok(())
}

/// `user` is no longer a member of `club` (whatever their role).
pub fn remove_member(tx: &mut dyn ClubDb, club: ClubId, user: UserId) -> Result<(), StorageError> {
    tx.execute(
        "DELETE FROM club_members WHERE club_id = ?1 AND user_id = ?2",
        args![id(club.0), id(user.0)],
    )?;
    Ok(())
}

/// A new event row; its id.
pub fn create_event(
    tx: &mut dyn ClubDb,
    club: ClubId,
    state: &[u8],
) -> Result<EventId, StorageError> {
    let event = tx
        .query_one(
            "INSERT INTO club_events (club_id, state, updated) VALUES (?1, ?2, ?3) RETURNING id",
            args![id(club.0), state, now()],
        )?
        .int(0)?;
    Ok(EventId(unid(event)))
}

/// The event's whole state, as of write `seq` of the event.
pub fn save_event(
    tx: &mut dyn ClubDb,
    event: EventId,
    seq: u64,
    state: &[u8],
) -> Result<(), StorageError> {
    tx.execute(
        "UPDATE club_events SET state = ?1, updated = ?2, seq = ?3 WHERE id = ?4",
        args![state, now(), seq_sql(seq), id(event.0)],
    )?;
    Ok(())
}

fn seq_sql(seq: u64) -> i64 {
    i64::try_from(seq).unwrap_or(i64::MAX)
}

/// One table's clock and status card, as of write `seq` of its event: what
/// a move writes (O(1) bytes, whatever the event's size).
pub fn save_table(
    tx: &mut dyn ClubDb,
    event: EventId,
    table: TableId,
    seq: u64,
    state: &[u8],
) -> Result<(), StorageError> {
    tx.execute(
        "INSERT INTO club_table_state (table_id, event_id, seq, state) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(table_id) DO UPDATE SET seq = excluded.seq, state = excluded.state",
        args![id(table.0), id(event.0), seq_sql(seq), state],
    )?;
    Ok(())
}

/// The club's webhook address (`None`: none).
pub fn set_webhook(
    tx: &mut dyn ClubDb,
    club: ClubId,
    url: Option<&str>,
) -> Result<(), StorageError> {
    tx.execute(
        "UPDATE clubs SET webhook = ?1 WHERE id = ?2",
        args![url, id(club.0)],
    )?;
    Ok(())
}

/// The names of `users` (their identity's name, an account's being the
/// same), in the order given; a user not found is left out.
pub fn user_names(
    tx: &mut dyn ClubDb,
    users: &[UserId],
) -> Result<Vec<(UserId, String)>, StorageError> {
    let mut out = Vec::with_capacity(users.len());
    for u in users {
        if let Some(r) = tx.query_opt("SELECT name FROM users WHERE id = ?1", args![id(u.0)])? {
            out.push((*u, r.text(0)?));
        }
    }
    Ok(out)
}

/// A director's action, kept for the event's log.
pub fn log_action(
    tx: &mut dyn ClubDb,
    event: EventId,
    actor: UserId,
    line: &str,
) -> Result<(), StorageError> {
    tx.execute(
        "INSERT INTO club_log (event_id, actor, at, line) VALUES (?1, ?2, ?3, ?4)",
        args![id(event.0), id(actor.0), now(), line],
    )?;
    Ok(())
}

/// An event's log lines, oldest first, as "unix-seconds user-id line".
pub fn read_log(tx: &mut dyn ClubDb, event: EventId) -> Result<Vec<String>, StorageError> {
    let rows = tx.query(
        "SELECT at, actor, line FROM club_log WHERE event_id = ?1 ORDER BY id",
        args![id(event.0)],
    )?;
    // Each line names its actor in words already; the time is shown as
    // a clock reads it (UTC), never as a raw number or an identity's id.
    rows.iter()
        .map(|r| {
            let at = unid(r.int(0)?) % 86_400;
            Ok(format!(
                "{:02}:{:02}:{:02} UTC · {}",
                at / 3600,
                (at / 60) % 60,
                at % 60,
                r.text(2)?
            ))
        })
        .collect()
}

/// The last moment the server recorded itself up (Unix ms), if ever.
pub fn alive(tx: &mut dyn ClubDb) -> Result<Option<u64>, StorageError> {
    match tx.query_opt("SELECT value FROM club_meta WHERE key = 'alive_ms'", &[])? {
        Some(r) => Ok(Some(unid(r.int(0)?))),
        None => Ok(None),
    }
}

pub fn set_alive(tx: &mut dyn ClubDb, ms: u64) -> Result<(), StorageError> {
    tx.execute(
        "INSERT INTO club_meta (key, value) VALUES ('alive_ms', ?1)
         ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        args![i64::try_from(ms).unwrap_or(i64::MAX)],
    )?;
    Ok(())
}

/// Everything the club hub keeps in memory, read at start.
#[derive(Default)]
pub struct ClubRows {
    /// Each club's id, name and webhook.
    pub clubs: Vec<(ClubId, String, Option<String>)>,
    pub members: Vec<(ClubId, UserId, ClubRole)>,
    pub events: Vec<StoredEvent>,
    pub alive_ms: Option<u64>,
}

/// An event's row and its tables' rows.
pub struct StoredEvent {
    pub id: EventId,
    pub club: ClubId,
    pub seq: u64,
    pub state: Vec<u8>,
    /// (table, seq, state) of each table row of the event.
    pub tables: Vec<(TableId, u64, Vec<u8>)>,
}

pub fn load(tx: &mut dyn ClubDb) -> Result<ClubRows, StorageError> {
    let mut out = ClubRows {
        alive_ms: alive(tx)?,
        ..ClubRows::default()
    };
    for r in tx.query("SELECT id, name, webhook FROM clubs ORDER BY id", &[])? {
        out.clubs
            .push((ClubId(unid(r.int(0)?)), r.text(1)?, r.opt_text(2)?));
    }
    for r in tx.query(
        "SELECT club_id, user_id, role FROM club_members ORDER BY club_id, user_id",
        &[],
    )? {
        out.members.push((
            ClubId(unid(r.int(0)?)),
            UserId(unid(r.int(1)?)),
            role_from(r.int(2)?),
        ));
    }
    for r in tx.query(
        "SELECT id, club_id, seq, state FROM club_events ORDER BY id",
        &[],
    )? {
        out.events.push(StoredEvent {
            id: EventId(unid(r.int(0)?)),
            club: ClubId(unid(r.int(1)?)),
            seq: unid(r.int(2)?),
            state: r.blob(3)?,
            tables: Vec::new(),
        });
    }
    for r in tx.query(
        "SELECT event_id, table_id, seq, state FROM club_table_state ORDER BY event_id, table_id",
        &[],
    )? {
        let e = unid(r.int(0)?);
        if let Some(ev) = out.events.iter_mut().find(|x| x.id.0 == e) {
            ev.tables
                .push((TableId(unid(r.int(1)?)), unid(r.int(2)?), r.blob(3)?));
        }
    }
    Ok(out)
}

/// A throw-away PostgreSQL cluster (the storage suite's) for the tests
/// of the club schema on PostgreSQL.
#[cfg(test)]
#[path = "../../tests/support/pg_cluster.rs"]
mod pg_cluster;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::club::clock::GameClock;
    use crate::club::desk::{TableLive, TableNote};
    use crate::club::event::{Event, Game, Round};
    use crate::storage::club_db::Lite;
    use muster_shared::SeatId;
    use muster_shared::codec;
    use muster_shared::engine::ClockTurn;
    use muster_shared::protocol::club::{
        AtZero, EventSettings, PairingMethod, PointsTable, SideAssignment, TimeControl,
    };
    use rusqlite::Connection;

    fn open(path: &std::path::Path) -> Connection {
        let conn = Connection::open(path).unwrap();
        let _: String = conn
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .unwrap();
        // As the server runs; no checkpoint, so the WAL's growth is what
        // the writes cost.
        conn.execute_batch(
            "PRAGMA synchronous = FULL; PRAGMA wal_autocheckpoint = 0;
             CREATE TABLE IF NOT EXISTS users (id INTEGER PRIMARY KEY);
             INSERT OR IGNORE INTO users (id) VALUES (1);",
        )
        .unwrap();
        conn
    }

    /// An event of `tables` tables in play (two players each, clocks
    /// running, each table's status card filled), as the hub holds it.
    fn event_of(tables: u64) -> Event {
        let tc = TimeControl {
            bank_secs: 3600,
            increment_secs: 30,
            per_decision_secs: 0,
            at_zero: AtZero::Loss,
        };
        let mut e = Event::new(
            UserId(1),
            EventSettings {
                name: "Two hundred tables".into(),
                ruleset: "gbacw".into(),
                scenario: "Cedar Mountain".into(),
                config: vec![0; 16],
                rounds: 3,
                pairing: PairingMethod::Swiss,
                sides: SideAssignment::Balanced,
                invite_only: false,
                check_in: true,
                time: Some(tc.clone()),
                points: PointsTable::default(),
                seed: 5,
                round_scenarios: Vec::new(),
            },
            None,
        );
        let mut games = Vec::new();
        for i in 0..tables {
            let (a, b) = (UserId(100 + 2 * i), UserId(101 + 2 * i));
            for u in [a, b] {
                e.register(u, &format!("Player number {}", u.0), None)
                    .unwrap();
            }
            let mut clock = GameClock::new(&tc);
            let turn = ClockTurn {
                seat: SeatId(0),
                player_turn: 3,
            };
            clock.turn(&tc, Some(turn), 1_000);
            let table = TableId(1_000 + i);
            e.desk.tables.insert(
                table,
                TableNote {
                    awaiting: Some((0, 3)),
                    progress: Some("Game-Turn 3: Union Movement Phase".into()),
                    last_ms: 1_000,
                    paused: None,
                },
            );
            games.push(Game {
                table: Some(table),
                seats: [Some(a), Some(b)],
                result: None,
                clock: Some(clock),
            });
        }
        e.roster = e.entrants.iter().map(|x| x.user).collect();
        e.rounds.push(Round { games });
        e
    }

    /// Migrate a file as the SQLite store does (one transaction).
    fn migrate_file(conn: &mut Connection) {
        let tx = conn.transaction().unwrap();
        migrate(&mut Lite(&tx)).unwrap();
        tx.commit().unwrap();
    }

    fn wal_len(path: &std::path::Path) -> u64 {
        let mut wal = path.as_os_str().to_owned();
        wal.push("-wal");
        std::fs::metadata(wal).map_or(0, |m| m.len())
    }

    /// Issue 21: what one move stores at an event of 200 tables. Before,
    /// the hub rewrote the whole event row after every move (its clock
    /// note); now it writes the table's own row. Measured as the bytes
    /// handed to SQLite and as the growth of the WAL (what reaches the
    /// disk, in 4 KiB pages), over 100 moves each.
    #[test]
    fn a_move_at_an_event_of_200_tables_writes_its_table_row_not_the_event() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("club.sqlite");
        let mut conn = open(&path);
        migrate_file(&mut conn);
        let mut e = event_of(200);
        let tx = conn.transaction().unwrap();
        let club = create_club(&mut Lite(&tx), "Club", UserId(1)).unwrap();
        let id = create_event(&mut Lite(&tx), club, &codec::encode_infallible(&e)).unwrap();
        tx.commit().unwrap();
        const MOVES: u64 = 100;
        let tc = e.settings.time.clone().unwrap();
        let mut seq = 0;
        let (mut whole_bytes, mut row_bytes) = (0, 0);
        // Before: every move rewrote the event.
        let wal0 = wal_len(&path);
        for m in 0..MOVES {
            let g = usize::try_from(m % 200).unwrap();
            let turn = ClockTurn {
                seat: SeatId(1),
                player_turn: 4,
            };
            if let Some(c) = &mut e.rounds[0].games[g].clock {
                c.turn(&tc, Some(turn), 2_000 + m);
            }
            let state = codec::encode_infallible(&e);
            whole_bytes += state.len() as u64;
            seq += 1;
            let tx = conn.transaction().unwrap();
            save_event(&mut Lite(&tx), id, seq, &state).unwrap();
            tx.commit().unwrap();
        }
        let wal1 = wal_len(&path);
        // Now: the table's row only.
        for m in 0..MOVES {
            let g = usize::try_from(m % 200).unwrap();
            let table = TableId(1_000 + m % 200);
            let turn = ClockTurn {
                seat: SeatId(0),
                player_turn: 5,
            };
            if let Some(c) = &mut e.rounds[0].games[g].clock {
                c.turn(&tc, Some(turn), 3_000 + m);
            }
            let live = e.table_live(table).unwrap();
            let state = codec::encode_infallible(&live);
            row_bytes += state.len() as u64;
            seq += 1;
            let tx = conn.transaction().unwrap();
            save_table(&mut Lite(&tx), id, table, seq, &state).unwrap();
            tx.commit().unwrap();
        }
        let wal2 = wal_len(&path);
        let (before, after) = ((wal1 - wal0) / MOVES, (wal2 - wal1) / MOVES);
        eprintln!(
            "per move at 200 tables: before {} B encoded, {before} B of WAL; after {} B \
             encoded, {after} B of WAL",
            whole_bytes / MOVES,
            row_bytes / MOVES
        );
        assert!(row_bytes / MOVES < 200, "a table's row is O(1)");
        assert!(whole_bytes / MOVES > 20_000);
        assert!(after * 4 < before, "{after} vs {before}");
        // And the newest wins at load: the table rows (seq above the
        // event row's) carry the last moves.
        let tx = conn.transaction().unwrap();
        let rows = load(&mut Lite(&tx)).unwrap();
        let ev = &rows.events[0];
        assert_eq!(ev.seq, MOVES);
        assert_eq!(ev.tables.len(), 100);
        assert!(ev.tables.iter().all(|(_, s, _)| *s > MOVES));
        let live: TableLive = codec::decode(&ev.tables[0].2, codec::MAX_SERVER_MSG).unwrap();
        assert_eq!(live.clock.unwrap().running.unwrap().seat, 0);
    }

    /// Write a database of the first club schema (one row per event, no
    /// table rows, no webhooks, one battle per event) holding `old`.
    fn seed_schema_one(db: &mut dyn ClubDb, old: &[u8]) {
        let Step::Sql(first) = &STEPS[0] else {
            unreachable!()
        };
        db.batch(first).unwrap();
        db.batch(
            "CREATE TABLE club_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
             INSERT INTO club_meta VALUES ('schema', 1);
             INSERT INTO clubs (id, name, created) VALUES (1, 'Old club', 0);",
        )
        .unwrap();
        db.execute(
            "INSERT INTO club_events (club_id, state, updated) VALUES (1, ?1, 0)",
            args![old],
        )
        .unwrap();
    }

    /// The seeded event, after the migration: as it was, with one battle
    /// for every round; the schema at its last version.
    fn check_migrated(db: &mut dyn ClubDb, event: &Event, state: &[u8]) {
        let rows = load(db).unwrap();
        assert_eq!(rows.clubs, vec![(ClubId(1), "Old club".to_string(), None)]);
        assert_eq!(rows.events.len(), 1);
        assert_eq!(
            (rows.events[0].seq, rows.events[0].state.as_slice()),
            (0, state)
        );
        assert!(rows.events[0].tables.is_empty());
        let back = crate::club::desk::decode_stored(&rows.events[0].state).unwrap();
        assert_eq!(back.settings, event.settings);
        assert_eq!(back.rounds[0].games.len(), 3);
        let schema = db
            .query_one("SELECT value FROM club_meta WHERE key = 'schema'", &[])
            .unwrap()
            .int(0)
            .unwrap();
        assert_eq!(schema, STEPS.len() as i64);
        set_webhook(db, ClubId(1), Some("https://chat.example.org/hook")).unwrap();
        assert_eq!(
            load(db).unwrap().clubs[0].2.as_deref(),
            Some("https://chat.example.org/hook")
        );
    }

    /// A file of the first club schema is brought up to date and its
    /// events load as they were, with one battle for every round.
    #[test]
    fn a_schema_one_file_is_migrated_and_its_events_load() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("club.sqlite");
        let event = event_of(3);
        let old = crate::club::stored::old_row(&event);
        let state = codec::encode_infallible(&event);
        assert_ne!(old, state);
        seed_schema_one(&mut Lite(&open(&path)), &old);
        let mut conn = open(&path);
        migrate_file(&mut conn);
        let tx = conn.transaction().unwrap();
        check_migrated(&mut Lite(&tx), &event, &state);
    }

    /// The same on PostgreSQL (the same club SQL, read by `club_db`):
    /// opening the store migrates the club tables with the rest, the
    /// Rust step 3 included. Skipped only when PostgreSQL is not
    /// installed and not required (`MUSTER_REQUIRE_PG`).
    #[test]
    fn a_schema_one_postgresql_database_is_migrated_and_its_events_load() {
        use crate::storage::club_db::Pg;
        let Some(url) = super::pg_cluster::fresh_database() else {
            return;
        };
        let event = event_of(3);
        let old = crate::club::stored::old_row(&event);
        let state = codec::encode_infallible(&event);
        {
            let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
            let mut tx = c.transaction().unwrap();
            // The table log's schema as the store records it, then the
            // club tables at version 1.
            tx.batch_execute(
                "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied BIGINT NOT NULL)",
            )
            .unwrap();
            for (i, step) in crate::storage::pg::MIGRATIONS.iter().enumerate() {
                tx.batch_execute(step).unwrap();
                let v = i32::try_from(i + 1).unwrap();
                tx.execute("INSERT INTO schema_version VALUES ($1, 0)", &[&v])
                    .unwrap();
            }
            seed_schema_one(&mut Pg::new(&mut tx), &old);
            tx.commit().unwrap();
        }
        drop(crate::storage::pg::Db::open(&url).unwrap());
        let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        let mut tx = c.transaction().unwrap();
        check_migrated(&mut Pg::new(&mut tx), &event, &state);
    }
}
