//! `muster-server export`: write one table's match log to a file that
//! `muster-server verify` (or anyone's independent verifier) can check.
//!
//! Reads the database read-only, so it is safe beside a running server
//! (SQLite's WAL lets readers and the writer proceed together).

use muster_shared::codec::{self, MAX_LOG_FILE, MAX_SERVER_MSG};
use muster_shared::engine::{LogEntry, LogHeader, MatchLog};
use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use std::path::Path;
use std::process::ExitCode;

/// Why a log could not be exported.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("database: {0}")]
    Db(#[from] rusqlite::Error),
    #[error("there is no table {0}")]
    NoSuchTable(u64),
    #[error("stored data does not decode: {0}")]
    Corrupt(String),
    #[error("the log is larger than the {MAX_LOG_FILE}-byte file limit")]
    TooLarge,
    #[error("cannot write {path}: {source}")]
    Write {
        path: String,
        source: std::io::Error,
    },
}

/// Read table `table`'s log from the database in `data_dir`.
pub fn read_log(data_dir: &Path, table: u64) -> Result<MatchLog, ExportError> {
    let db = Connection::open_with_flags(
        data_dir.join("muster.sqlite3"),
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    let id = i64::try_from(table).map_err(|_| ExportError::NoSuchTable(table))?;
    let header: Vec<u8> = db
        .query_row(
            "SELECT header FROM tables WHERE id = ?1",
            params![id],
            |r| r.get(0),
        )
        .optional()?
        .ok_or(ExportError::NoSuchTable(table))?;
    let header: LogHeader = codec::decode(&header, MAX_SERVER_MSG)
        .map_err(|e| ExportError::Corrupt(format!("header: {e}")))?;
    // Moves not yet folded into the table's log are in the journal.
    let sql = if crate::storage::journal::exists(&db)? {
        // A journal missing rows may be missing this table's last moves:
        // refuse rather than export a shorter game.
        if let Some(why) = crate::storage::journal::damage(&db)? {
            return Err(ExportError::Corrupt(why));
        }
        // Its newest moves set aside at a start: what `entries` holds is
        // not its whole game (or not its game at all).
        if crate::storage::journal::set_aside_tables(&db)?
            .binary_search(&id)
            .is_ok()
        {
            return Err(ExportError::Corrupt(
                crate::storage::journal::SET_ASIDE.into(),
            ));
        }
        crate::storage::journal::TABLE_LOG
    } else {
        "SELECT seq, entry, NULL FROM entries WHERE table_id = ?1 ORDER BY seq"
    };
    let mut stmt = db.prepare(sql)?;
    let mut log = MatchLog::new(header);
    let mut size = 0usize;
    for row in stmt.query_map(params![id], |r| {
        Ok((r.get::<_, i64>(0)?, r.get::<_, Vec<u8>>(1)?))
    })? {
        let (seq, bytes) = row?;
        if seq != log.next_seq() as i64 {
            return Err(ExportError::Corrupt(format!("entry {seq} out of order")));
        }
        size += bytes.len();
        if size > MAX_LOG_FILE {
            return Err(ExportError::TooLarge);
        }
        let entry: LogEntry = codec::decode(&bytes, MAX_SERVER_MSG)
            .map_err(|e| ExportError::Corrupt(format!("entry {seq}: {e}")))?;
        log.entries.push(entry);
    }
    Ok(log)
}

pub fn run(data_dir: &Path, table: u64, out: &Path) -> ExitCode {
    let written = read_log(data_dir, table).and_then(|log| {
        std::fs::write(out, log.to_file_bytes()).map_err(|source| ExportError::Write {
            path: out.display().to_string(),
            source,
        })?;
        Ok(log.entries.len())
    });
    match written {
        Ok(n) => {
            println!(
                "table {table}: {n} log entries written to {}",
                out.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("cannot export table {table}: {e}");
            ExitCode::from(2)
        }
    }
}
