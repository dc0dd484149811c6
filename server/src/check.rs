//! `muster-server check`: the operator's report on a data directory. Every
//! table (open, playing, finished, abandoned) is read back and checked the
//! way a start would check it, and more: SQLite's own `quick_check`, the
//! log's numbering, each entry's checksum, the committed head
//! (`head_seq`), that every entry decodes, and a full replay of the log
//! through its ruleset with every roll re-checked (`verify_log`).
//!
//! One line per table: `ok` or `DAMAGED` with the reason, its status, its
//! last sequence number and its head hash (the first 16 hex digits of the
//! blake3 of its last log entry, so two copies of a table can be compared
//! at a glance). The exit status is 0 when everything is ok, 1 when any
//! table (or the file) is damaged, 2 when the database cannot be opened.
//!
//! Reads the database read-only: safe beside a running server.

use muster_shared::codec::{self, MAX_SERVER_MSG};
use muster_shared::engine::{LogEntry, LogHeader, MatchLog, verify_log};
use rusqlite::{Connection, OpenFlags, params};
use std::fmt;
use std::path::Path;
use std::process::ExitCode;

/// One table's state as found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableReport {
    pub table: u64,
    /// `open`, `playing`, `finished`, `abandoned` (or `no record`).
    pub status: String,
    /// Entries read back in order (the last sequence number).
    pub seq: u64,
    /// First 16 hex digits of the blake3 of the last entry, if any.
    pub head: Option<String>,
    /// `None` when the table is ok; else why it is damaged, in words.
    pub damage: Option<String>,
}

/// The whole file.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// What is wrong with the file as a whole, in words: SQLite's
    /// `quick_check` answer when it is not `ok`, a journal missing rows.
    pub file_damage: Option<String>,
    pub tables: Vec<TableReport>,
}

impl Report {
    pub fn damaged(&self) -> usize {
        self.tables.iter().filter(|t| t.damage.is_some()).count()
    }

    pub fn ok(&self) -> bool {
        self.file_damage.is_none() && self.damaged() == 0
    }
}

impl fmt::Display for TableReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = match &self.damage {
            None => "ok".to_string(),
            Some(why) => format!("DAMAGED: {why}"),
        };
        write!(
            f,
            "table {}: {state}; {}; seq {}; head {}",
            self.table,
            self.status,
            self.seq,
            self.head.as_deref().unwrap_or("none")
        )
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(why) = &self.file_damage {
            writeln!(f, "the database file is damaged: {why}")?;
        }
        for t in &self.tables {
            writeln!(f, "{t}")?;
        }
        write!(
            f,
            "{} table(s): {} ok, {} damaged",
            self.tables.len(),
            self.tables.len() - self.damaged(),
            self.damaged()
        )
    }
}

fn status_words(code: i64) -> &'static str {
    match code {
        0 => "open",
        1 => "playing",
        2 => "finished",
        3 => "abandoned",
        _ => "unknown status",
    }
}

/// Note damage to the file as a whole, after any already noted.
fn add_file_damage(report: &mut Report, why: String) {
    report.file_damage = Some(match report.file_damage.take() {
        Some(before) => format!("{before}; {why}"),
        None => why,
    });
}

fn head_hash(entry: &[u8]) -> String {
    hex::encode(&blake3::hash(entry).as_bytes()[..8])
}

/// Check the database in `data_dir`.
pub fn check(data_dir: &Path) -> Result<Report, String> {
    let path = data_dir.join("muster.sqlite3");
    if !path.exists() {
        return Err(format!("there is no database at {}", path.display()));
    }
    let db = Connection::open_with_flags(
        &path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    // One read transaction: every read sees the same moment of the file,
    // even beside a running server that commits and folds meanwhile.
    db.execute_batch("BEGIN")
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut report = Report::default();
    match db.query_row("PRAGMA quick_check", [], |r| r.get::<_, String>(0)) {
        Ok(s) if s == "ok" => {}
        Ok(s) => add_file_damage(&mut report, format!("SQLite's integrity check says {s}")),
        Err(e) => add_file_damage(&mut report, format!("SQLite's integrity check says {e}")),
    }
    let ids: Vec<(i64, i64, Option<i64>, Vec<u8>)> = (|| {
        // `head_seq` exists from the integrity change on; older files lack it.
        let has_head: bool = db.query_row(
            "SELECT COUNT(*) > 0 FROM pragma_table_info('tables') WHERE name = 'head_seq'",
            [],
            |r| r.get(0),
        )?;
        let sql = if has_head {
            "SELECT id, status, head_seq, header FROM tables ORDER BY id"
        } else {
            "SELECT id, status, NULL, header FROM tables ORDER BY id"
        };
        let mut stmt = db.prepare(sql)?;
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
            .collect::<Result<Vec<_>, rusqlite::Error>>()
    })()
    .map_err(|e| format!("cannot read the tables of {}: {e}", path.display()))?;
    // Moves not yet folded into their tables' logs (a running server, or
    // one that stopped without a clean shutdown) are read from the journal.
    let has_journal = crate::storage::journal::exists(&db).unwrap_or(false);
    if has_journal {
        match crate::storage::journal::damage(&db) {
            Ok(None) => {}
            Ok(Some(why)) => add_file_damage(&mut report, why),
            Err(e) => add_file_damage(&mut report, format!("its journal cannot be read ({e})")),
        }
    }
    let has_sum: bool = db
        .query_row(
            "SELECT COUNT(*) > 0 FROM pragma_table_info('entries') WHERE name = 'sum'",
            [],
            |r| r.get(0),
        )
        .unwrap_or(false);
    let set_aside = crate::storage::journal::set_aside_tables(&db).unwrap_or_default();
    for (id, status, head, header) in ids {
        let mut t = check_table(&db, id, status, head, &header, has_sum, has_journal);
        // Named first: whatever else is wrong, its newest moves are
        // elsewhere.
        if set_aside.binary_search(&id).is_ok() {
            t.damage = Some(crate::storage::journal::SET_ASIDE.into());
        }
        report.tables.push(t);
    }
    // A log whose table record is gone.
    let orphans: Vec<i64> = db
        .prepare(if crate::storage::journal::has_table(&db, "journal_set_aside").unwrap_or(false) {
            "SELECT DISTINCT table_id FROM (SELECT table_id FROM entries UNION SELECT table_id FROM journal
                                            UNION SELECT table_id FROM journal_set_aside)
             WHERE table_id NOT IN (SELECT id FROM tables) ORDER BY table_id"
        } else if has_journal {
            "SELECT DISTINCT table_id FROM (SELECT table_id FROM entries UNION SELECT table_id FROM journal)
             WHERE table_id NOT IN (SELECT id FROM tables) ORDER BY table_id"
        } else {
            "SELECT DISTINCT table_id FROM entries WHERE table_id NOT IN (SELECT id FROM tables) ORDER BY table_id"
        })
        .and_then(|mut s| {
            s.query_map([], |r| r.get(0))?
                .collect::<Result<Vec<_>, _>>()
        })
        .unwrap_or_default();
    for id in orphans {
        report.tables.push(TableReport {
            table: id as u64,
            status: "no record".into(),
            seq: 0,
            head: None,
            damage: Some("its log is in the database but its table record is missing".into()),
        });
    }
    report.tables.sort_by_key(|t| t.table);
    Ok(report)
}

fn check_table(
    db: &Connection,
    id: i64,
    status: i64,
    head: Option<i64>,
    header: &[u8],
    has_sum: bool,
    has_journal: bool,
) -> TableReport {
    let mut t = TableReport {
        table: id as u64,
        status: status_words(status).into(),
        seq: 0,
        head: None,
        damage: None,
    };
    // The fourth column: 1 for a row still in the journal.
    let sql = if has_journal {
        crate::storage::journal::TABLE_LOG
    } else if has_sum {
        "SELECT seq, entry, sum, 0 FROM entries WHERE table_id = ?1 ORDER BY seq"
    } else {
        "SELECT seq, entry, NULL, 0 FROM entries WHERE table_id = ?1 ORDER BY seq"
    };
    let mut entries: Vec<Vec<u8>> = Vec::new();
    // Rows read from `entries`, the part `head_seq` guards.
    let mut folded = 0usize;
    let read = (|| {
        let mut stmt = db.prepare(sql)?;
        let rows = stmt.query_map(params![id], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, Vec<u8>>(1)?,
                r.get::<_, Option<Vec<u8>>>(2)?,
                r.get::<_, i64>(3)?,
            ))
        })?;
        let mut problem = None;
        for row in rows {
            let (seq, bytes, sum, in_journal) = row?;
            if in_journal == 0 {
                folded += 1;
            }
            if problem.is_some() {
                continue;
            }
            if seq as usize != entries.len() + 1 {
                problem = Some(format!(
                    "its log jumps from entry {} to {seq}",
                    entries.len()
                ));
                continue;
            }
            if sum.is_some_and(|s| s.as_slice() != &blake3::hash(&bytes).as_bytes()[..16]) {
                problem = Some(format!("log entry {seq} does not match its checksum"));
            }
            entries.push(bytes);
        }
        Ok::<_, rusqlite::Error>(problem)
    })();
    t.seq = entries.len() as u64;
    t.head = entries.last().map(|e| head_hash(e));
    let problem = match read {
        Err(e) => Some(format!("its log cannot be read ({e})")),
        Ok(Some(p)) => Some(p),
        // `head_seq` is the head of the folded part; entries still in the
        // journal follow it.
        Ok(None) => match head {
            Some(h) if h as usize != folded => Some(format!(
                "{h} log entries were committed but {folded} are in the database"
            )),
            _ => None,
        },
    };
    if problem.is_some() {
        t.damage = problem;
        return t;
    }
    // Everything decodes and replays, every roll re-checked.
    let header: LogHeader = match codec::decode(header, MAX_SERVER_MSG) {
        Ok(h) => h,
        Err(e) => {
            t.damage = Some(format!("its log header does not decode ({e})"));
            return t;
        }
    };
    let mut decoded = Vec::with_capacity(entries.len());
    for (i, bytes) in entries.iter().enumerate() {
        match codec::decode::<LogEntry>(bytes, MAX_SERVER_MSG) {
            Ok(e) => decoded.push(e),
            Err(e) => {
                t.damage = Some(format!("log entry {} does not decode ({e})", i + 1));
                return t;
            }
        }
    }
    let log = MatchLog {
        header,
        entries: decoded,
    };
    let verified = verify_log(&log);
    if let Some(first) = verified.failures.first() {
        t.damage = Some(format!(
            "its log does not replay ({first}; {} failure(s) in all)",
            verified.failures.len()
        ));
    }
    t
}

/// The command: print the report; the exit status says whether all is ok.
pub fn run(data_dir: &Path) -> ExitCode {
    match check(data_dir) {
        Ok(report) => {
            println!("{report}");
            if report.ok() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(e) => {
            eprintln!("muster-server check: {e}");
            ExitCode::from(2)
        }
    }
}
