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
//! one encoded row (`club_events.state`), written after every change: an
//! event is small (kilobytes) and changes a few times a minute, and one
//! row per event keeps each change atomic.

use super::StorageError;
use muster_shared::protocol::UserId;
use muster_shared::protocol::club::{ClubId, ClubRole, EventId};
use rusqlite::{Connection, OptionalExtension, Transaction, params};

/// Each step of the club schema, in order; step `i` makes version `i + 1`.
const STEPS: &[&str] = &["
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
"];

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
        tx.execute_batch(step)?;
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
    tx: &Transaction<'_>,
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
    tx: &Transaction<'_>,
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
pub fn is_account(tx: &Transaction<'_>, user: UserId) -> Result<bool, StorageError> {
    Ok(tx.query_row(
        "SELECT COUNT(*) > 0 FROM accounts WHERE user_id = ?1",
        params![user.0 as i64],
        |r| r.get(0),
    )?)
}

pub fn create_club(
    tx: &Transaction<'_>,
    name: &str,
    owner: UserId,
) -> Result<ClubId, StorageError> {
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
    tx: &Transaction<'_>,
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

/// A new event row; its id.
pub fn create_event(
    tx: &Transaction<'_>,
    club: ClubId,
    state: &[u8],
) -> Result<EventId, StorageError> {
    tx.execute(
        "INSERT INTO club_events (club_id, state, updated) VALUES (?1, ?2, ?3)",
        params![club.0 as i64, state, now()],
    )?;
    Ok(EventId(tx.last_insert_rowid() as u64))
}

pub fn save_event(tx: &Transaction<'_>, event: EventId, state: &[u8]) -> Result<(), StorageError> {
    tx.execute(
        "UPDATE club_events SET state = ?1, updated = ?2 WHERE id = ?3",
        params![state, now(), event.0 as i64],
    )?;
    Ok(())
}

/// A director's action, kept for the event's log.
pub fn log_action(
    tx: &Transaction<'_>,
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
pub fn read_log(tx: &Transaction<'_>, event: EventId) -> Result<Vec<String>, StorageError> {
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
pub fn alive(tx: &Transaction<'_>) -> Result<Option<u64>, StorageError> {
    Ok(tx
        .query_row(
            "SELECT value FROM club_meta WHERE key = 'alive_ms'",
            [],
            |r| r.get::<_, i64>(0),
        )
        .optional()?
        .map(|v| u64::try_from(v).unwrap_or(0)))
}

pub fn set_alive(tx: &Transaction<'_>, ms: u64) -> Result<(), StorageError> {
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
    pub clubs: Vec<(ClubId, String)>,
    pub members: Vec<(ClubId, UserId, ClubRole)>,
    pub events: Vec<(EventId, ClubId, Vec<u8>)>,
    pub alive_ms: Option<u64>,
}

pub fn load(tx: &Transaction<'_>) -> Result<ClubRows, StorageError> {
    let mut out = ClubRows {
        alive_ms: alive(tx)?,
        ..ClubRows::default()
    };
    let mut s = tx.prepare("SELECT id, name FROM clubs ORDER BY id")?;
    for row in s.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))? {
        let (id, name) = row?;
        out.clubs.push((ClubId(id as u64), name));
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
    let mut s = tx.prepare("SELECT id, club_id, state FROM club_events ORDER BY id")?;
    for row in s.query_map([], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, Vec<u8>>(2)?,
        ))
    })? {
        let (e, c, state) = row?;
        out.events
            .push((EventId(e as u64), ClubId(c as u64), state));
    }
    Ok(out)
}
