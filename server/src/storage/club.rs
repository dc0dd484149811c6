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
use muster_shared::protocol::club::{ClubId, ClubRole, EventId};
use muster_shared::protocol::{TableId, UserId};
use rusqlite::{Connection, OptionalExtension, params};

/// One step of the club schema: SQL, or a rewrite of rows in Rust.
enum Step {
    Sql(&'static str),
    Rows(fn(&Connection) -> Result<(), StorageError>),
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
fn events_with_round_scenarios(tx: &Connection) -> Result<(), StorageError> {
    let rows: Vec<(i64, Vec<u8>)> = {
        let mut s = tx.prepare("SELECT id, state FROM club_events ORDER BY id")?;
        s.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?
    };
    for (id, state) in rows {
        match crate::club::stored::with_round_scenarios(&state) {
            Ok(new) => {
                tx.execute(
                    "UPDATE club_events SET state = ?1 WHERE id = ?2",
                    params![new, id],
                )?;
            }
            Err(e) => tracing::error!(event = id, "a stored event does not decode: {e}"),
        }
    }
    Ok(())
}

/// Bring the club schema up to date (in one transaction).
pub(crate) fn migrate(conn: &mut Connection) -> Result<(), StorageError> {
    let tx = conn.transaction()?;
    tx.execute_batch(
        "CREATE TABLE IF NOT EXISTS club_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);",
    )?;
    let version: i64 = tx
        .query_row(
            "SELECT value FROM club_meta WHERE key = 'schema'",
            [],
            |r| r.get(0),
        )
        .optional()?
        .unwrap_or(0);
    let have = usize::try_from(version).unwrap_or(0);
    if have > STEPS.len() {
        return Err(StorageError::Corrupt(format!(
            "the club tables are at version {version}, newer than this server ({}); use a newer server",
            STEPS.len()
        )));
    }
    for step in &STEPS[have..] {
        match step {
            Step::Sql(sql) => tx.execute_batch(sql)?,
            Step::Rows(rewrite) => rewrite(&tx)?,
        }
    }
    tx.execute(
        "INSERT INTO club_meta (key, value) VALUES ('schema', ?1)
         ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        params![STEPS.len() as i64],
    )?;
    tx.commit()?;
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

pub fn claim_account(
    tx: &Connection,
    user: UserId,
    name: &str,
    key: &str,
    phc: &str,
) -> Result<Claimed, StorageError> {
    let already: bool = tx.query_row(
        "SELECT COUNT(*) > 0 FROM accounts WHERE user_id = ?1",
        params![user.0 as i64],
        |r| r.get(0),
    )?;
    if already {
        return Ok(Claimed::Already);
    }
    let taken: bool = tx.query_row(
        "SELECT COUNT(*) > 0 FROM accounts WHERE name_key = ?1",
        params![key],
        |r| r.get(0),
    )?;
    if taken {
        return Ok(Claimed::NameTaken);
    }
    tx.execute(
        "INSERT INTO accounts (user_id, name, name_key, phc, created) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![user.0 as i64, name, key, phc, now()],
    )?;
    Ok(Claimed::Done)
}

/// The account named by `key`: its identity, name and password hash.
pub fn find_account(
    tx: &Connection,
    key: &str,
) -> Result<Option<(UserId, String, String)>, StorageError> {
    Ok(tx
        .query_row(
            "SELECT user_id, name, phc FROM accounts WHERE name_key = ?1",
            params![key],
            |r| {
                Ok((
                    UserId(r.get::<_, i64>(0)? as u64),
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                ))
            },
        )
        .optional()?)
}

/// Whether `user` is an account.
pub fn is_account(tx: &Connection, user: UserId) -> Result<bool, StorageError> {
    Ok(tx.query_row(
        "SELECT COUNT(*) > 0 FROM accounts WHERE user_id = ?1",
        params![user.0 as i64],
        |r| r.get(0),
    )?)
}

pub fn create_club(tx: &Connection, name: &str, owner: UserId) -> Result<ClubId, StorageError> {
    tx.execute(
        "INSERT INTO clubs (name, created) VALUES (?1, ?2)",
        params![name, now()],
    )?;
    let club = ClubId(tx.last_insert_rowid() as u64);
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
    tx: &Connection,
    club: ClubId,
    user: UserId,
    role: ClubRole,
) -> Result<(), StorageError> {
    tx.execute(
        "INSERT INTO club_members (club_id, user_id, role) VALUES (?1, ?2, ?3)
         ON CONFLICT(club_id, user_id) DO UPDATE SET role = excluded.role",
        params![club.0 as i64, user.0 as i64, role_code(role)],
    )?;
    Ok(())
}

/// `user` is no longer a member of `club` (whatever their role).
pub fn remove_member(tx: &Connection, club: ClubId, user: UserId) -> Result<(), StorageError> {
    tx.execute(
        "DELETE FROM club_members WHERE club_id = ?1 AND user_id = ?2",
        params![club.0 as i64, user.0 as i64],
    )?;
    Ok(())
}

/// A new event row; its id.
pub fn create_event(tx: &Connection, club: ClubId, state: &[u8]) -> Result<EventId, StorageError> {
    tx.execute(
        "INSERT INTO club_events (club_id, state, updated) VALUES (?1, ?2, ?3)",
        params![club.0 as i64, state, now()],
    )?;
    Ok(EventId(tx.last_insert_rowid() as u64))
}

/// The event's whole state, as of write `seq` of the event.
pub fn save_event(
    tx: &Connection,
    event: EventId,
    seq: u64,
    state: &[u8],
) -> Result<(), StorageError> {
    tx.execute(
        "UPDATE club_events SET state = ?1, updated = ?2, seq = ?3 WHERE id = ?4",
        params![state, now(), seq_sql(seq), event.0 as i64],
    )?;
    Ok(())
}

fn seq_sql(seq: u64) -> i64 {
    i64::try_from(seq).unwrap_or(i64::MAX)
}

/// One table's clock and status card, as of write `seq` of its event: what
/// a move writes (O(1) bytes, whatever the event's size).
pub fn save_table(
    tx: &Connection,
    event: EventId,
    table: TableId,
    seq: u64,
    state: &[u8],
) -> Result<(), StorageError> {
    tx.execute(
        "INSERT INTO club_table_state (table_id, event_id, seq, state) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(table_id) DO UPDATE SET seq = excluded.seq, state = excluded.state",
        params![table.0 as i64, event.0 as i64, seq_sql(seq), state],
    )?;
    Ok(())
}

/// The club's webhook address (`None`: none).
pub fn set_webhook(tx: &Connection, club: ClubId, url: Option<&str>) -> Result<(), StorageError> {
    tx.execute(
        "UPDATE clubs SET webhook = ?1 WHERE id = ?2",
        params![url, club.0 as i64],
    )?;
    Ok(())
}

/// The names of `users` (their identity's name, an account's being the
/// same), in the order given; a user not found is left out.
pub fn user_names(
    tx: &Connection,
    users: &[UserId],
) -> Result<Vec<(UserId, String)>, StorageError> {
    let mut q = tx.prepare_cached("SELECT name FROM users WHERE id = ?1")?;
    let mut out = Vec::with_capacity(users.len());
    for u in users {
        if let Some(name) = q
            .query_row(params![u.0 as i64], |r| r.get::<_, String>(0))
            .optional()?
        {
            out.push((*u, name));
        }
    }
    Ok(out)
}

/// A director's action, kept for the event's log.
pub fn log_action(
    tx: &Connection,
    event: EventId,
    actor: UserId,
    line: &str,
) -> Result<(), StorageError> {
    tx.execute(
        "INSERT INTO club_log (event_id, actor, at, line) VALUES (?1, ?2, ?3, ?4)",
        params![event.0 as i64, actor.0 as i64, now(), line],
    )?;
    Ok(())
}

/// An event's log lines, oldest first, as "unix-seconds user-id line".
pub fn read_log(tx: &Connection, event: EventId) -> Result<Vec<String>, StorageError> {
    let mut stmt =
        tx.prepare("SELECT at, actor, line FROM club_log WHERE event_id = ?1 ORDER BY id")?;
    // Each line names its actor in words already; the time is shown as
    // a clock reads it (UTC), never as a raw number or an identity's id.
    let rows = stmt.query_map(params![event.0 as i64], |r| {
        let at = u64::try_from(r.get::<_, i64>(0)?).unwrap_or(0) % 86_400;
        Ok(format!(
            "{:02}:{:02}:{:02} UTC · {}",
            at / 3600,
            (at / 60) % 60,
            at % 60,
            r.get::<_, String>(2)?
        ))
    })?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

/// The last moment the server recorded itself up (Unix ms), if ever.
pub fn alive(tx: &Connection) -> Result<Option<u64>, StorageError> {
    Ok(tx
        .query_row(
            "SELECT value FROM club_meta WHERE key = 'alive_ms'",
            [],
            |r| r.get::<_, i64>(0),
        )
        .optional()?
        .map(|v| u64::try_from(v).unwrap_or(0)))
}

pub fn set_alive(tx: &Connection, ms: u64) -> Result<(), StorageError> {
    tx.execute(
        "INSERT INTO club_meta (key, value) VALUES ('alive_ms', ?1)
         ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        params![i64::try_from(ms).unwrap_or(i64::MAX)],
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

pub fn load(tx: &Connection) -> Result<ClubRows, StorageError> {
    let mut out = ClubRows {
        alive_ms: alive(tx)?,
        ..ClubRows::default()
    };
    let mut s = tx.prepare("SELECT id, name, webhook FROM clubs ORDER BY id")?;
    for row in s.query_map([], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, Option<String>>(2)?,
        ))
    })? {
        let (id, name, hook) = row?;
        out.clubs.push((ClubId(id as u64), name, hook));
    }
    let mut s = tx.prepare("SELECT club_id, user_id, role FROM club_members")?;
    for row in s.query_map([], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, i64>(2)?,
        ))
    })? {
        let (c, u, role) = row?;
        out.members
            .push((ClubId(c as u64), UserId(u as u64), role_from(role)));
    }
    let mut s = tx.prepare("SELECT id, club_id, seq, state FROM club_events ORDER BY id")?;
    for row in s.query_map([], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, i64>(2)?,
            r.get::<_, Vec<u8>>(3)?,
        ))
    })? {
        let (e, c, seq, state) = row?;
        out.events.push(StoredEvent {
            id: EventId(e as u64),
            club: ClubId(c as u64),
            seq: u64::try_from(seq).unwrap_or(0),
            state,
            tables: Vec::new(),
        });
    }
    let mut s = tx.prepare(
        "SELECT event_id, table_id, seq, state FROM club_table_state ORDER BY event_id, table_id",
    )?;
    for row in s.query_map([], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, i64>(2)?,
            r.get::<_, Vec<u8>>(3)?,
        ))
    })? {
        let (e, t, seq, state) = row?;
        if let Some(ev) = out.events.iter_mut().find(|x| x.id.0 == e as u64) {
            ev.tables
                .push((TableId(t as u64), u64::try_from(seq).unwrap_or(0), state));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::club::clock::GameClock;
    use crate::club::desk::{TableLive, TableNote};
    use crate::club::event::{Event, Game, Round};
    use muster_shared::SeatId;
    use muster_shared::codec;
    use muster_shared::engine::ClockTurn;
    use muster_shared::protocol::club::{
        AtZero, EventSettings, PairingMethod, PointsTable, SideAssignment, TimeControl,
    };

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
        migrate(&mut conn).unwrap();
        let mut e = event_of(200);
        let tx = conn.transaction().unwrap();
        let club = create_club(&tx, "Club", UserId(1)).unwrap();
        let id = create_event(&tx, club, &codec::encode_infallible(&e)).unwrap();
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
            save_event(&tx, id, seq, &state).unwrap();
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
            save_table(&tx, id, table, seq, &state).unwrap();
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
        let rows = load(&tx).unwrap();
        let ev = &rows.events[0];
        assert_eq!(ev.seq, MOVES);
        assert_eq!(ev.tables.len(), 100);
        assert!(ev.tables.iter().all(|(_, s, _)| *s > MOVES));
        let live: TableLive = codec::decode(&ev.tables[0].2, codec::MAX_SERVER_MSG).unwrap();
        assert_eq!(live.clock.unwrap().running.unwrap().seat, 0);
    }

    /// A file of the first club schema (one row per event, no table rows,
    /// no webhooks, one battle per event) is brought up to date and its
    /// events load as they were, with one battle for every round.
    #[test]
    fn a_schema_one_file_is_migrated_and_its_events_load() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("club.sqlite");
        let event = event_of(3);
        let old = crate::club::stored::old_row(&event);
        let state = codec::encode_infallible(&event);
        assert_ne!(old, state);
        {
            let conn = open(&path);
            let Step::Sql(first) = &STEPS[0] else {
                unreachable!()
            };
            conn.execute_batch(first).unwrap();
            conn.execute_batch(
                "CREATE TABLE club_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
                 INSERT INTO club_meta VALUES ('schema', 1);
                 INSERT INTO clubs (id, name, created) VALUES (1, 'Old club', 0);",
            )
            .unwrap();
            conn.execute(
                "INSERT INTO club_events (club_id, state, updated) VALUES (1, ?1, 0)",
                params![old],
            )
            .unwrap();
        }
        let mut conn = open(&path);
        migrate(&mut conn).unwrap();
        let tx = conn.transaction().unwrap();
        let rows = load(&tx).unwrap();
        assert_eq!(rows.clubs, vec![(ClubId(1), "Old club".to_string(), None)]);
        assert_eq!(rows.events.len(), 1);
        assert_eq!((rows.events[0].seq, &rows.events[0].state), (0, &state));
        assert!(rows.events[0].tables.is_empty());
        let back = crate::club::desk::decode_stored(&rows.events[0].state).unwrap();
        assert_eq!(back.settings, event.settings);
        assert_eq!(back.rounds[0].games.len(), 3);
        let schema: i64 = tx
            .query_row(
                "SELECT value FROM club_meta WHERE key = 'schema'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(schema, STEPS.len() as i64);
        set_webhook(&tx, ClubId(1), Some("https://chat.example.org/hook")).unwrap();
        assert_eq!(
            load(&tx).unwrap().clubs[0].2.as_deref(),
            Some("https://chat.example.org/hook")
        );
    }
}
