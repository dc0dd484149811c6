//! The SQLite store's journal (issue 22, storage/journal.rs): entries are
//! appended in commit order and folded into their tables' logs later. What
//! it must keep: every acknowledged entry comes back in its table's order
//! after a crash (journal not folded) as after a clean stop (folded); a
//! journal missing a row is refused, never read as shorter logs; a fold
//! happens on its own as the journal grows; and an entry that does not
//! follow its table's last one is refused, as the old per-table key did.

use muster_server::storage::group_window::CommitWindow;
use muster_server::storage::sqlite::FOLD_AT;
use muster_server::storage::{
    Backend, DEFAULT_COMMIT_WINDOW, NewTable, Storage, StorageError, StoredChain,
};
use muster_shared::Hash32;
use muster_shared::protocol::{TableId, UserId};
use std::path::{Path, PathBuf};

const DB: &str = "muster.sqlite3";

fn open(path: &Path) -> (Storage, std::thread::JoinHandle<()>) {
    let window: CommitWindow = DEFAULT_COMMIT_WINDOW.into();
    Storage::open_backend(&Backend::Sqlite(path.to_path_buf()), window)
        .unwrap_or_else(|e| panic!("open: {e}"))
}

fn open_err(path: &Path) -> String {
    let window: CommitWindow = DEFAULT_COMMIT_WINDOW.into();
    match Storage::open_backend(&Backend::Sqlite(path.to_path_buf()), window) {
        Ok(_) => panic!("opened a damaged journal"),
        Err(e) => e.to_string(),
    }
}

async fn close(storage: Storage, thread: std::thread::JoinHandle<()>) {
    drop(storage);
    tokio::task::spawn_blocking(move || thread.join().unwrap())
        .await
        .unwrap();
}

fn new_table(creator: UserId) -> NewTable {
    NewTable {
        creator,
        addr: None,
        options: vec![1],
        header: vec![2],
        chain: StoredChain {
            secret: Hash32([9; 32]),
            len: 100,
        },
        invite: None,
        seats: vec![None, None],
        entries: vec![vec![1; 10]],
    }
}

fn entry(table: TableId, seq: u64) -> Vec<u8> {
    vec![table.0 as u8, seq as u8, (seq >> 8) as u8, 7, 7, 7]
}

/// What a crash leaves: the database and its WAL as they are on disk now,
/// copied while the store is open (every append awaited, so nothing is in
/// flight). SQLite rebuilds the WAL index from the WAL.
fn crash_copy(dir: &Path) -> tempfile::TempDir {
    let to = tempfile::tempdir().unwrap();
    for suffix in ["", "-wal"] {
        let from = PathBuf::from(format!("{}{suffix}", dir.join(DB).display()));
        if from.exists() {
            std::fs::copy(&from, format!("{}{suffix}", to.path().join(DB).display())).unwrap();
        }
    }
    to
}

fn rows(path: &Path, sql: &str) -> i64 {
    let c = rusqlite::Connection::open(path).unwrap();
    c.query_row(sql, [], |r| r.get(0)).unwrap()
}

/// Three tables, entries 2..=`last` each, appended interleaved.
async fn played(s: &Storage, last: u64) -> Vec<TableId> {
    let (user, _) = s.create_user("M".into(), Hash32([1; 32])).await.unwrap();
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(s.create_table(new_table(user)).await.unwrap());
    }
    for seq in 2..=last {
        for &id in &ids {
            s.append(id, seq, entry(id, seq), None).await.unwrap();
        }
    }
    ids
}

async fn assert_whole(path: &Path, ids: &[TableId], last: u64) {
    let (s, t) = open(path);
    let (tables, damaged) = s.load_unfinished().await.unwrap();
    assert!(damaged.is_empty(), "{damaged:?}");
    assert_eq!(tables.iter().map(|t| t.id).collect::<Vec<_>>(), ids);
    for t in &tables {
        assert_eq!(t.entries.len() as u64, last, "table {}", t.id.0);
        for (i, e) in t.entries.iter().enumerate().skip(1) {
            assert_eq!(*e, entry(t.id, i as u64 + 1), "table {}", t.id.0);
        }
    }
    close(s, t).await;
}

#[tokio::test]
async fn entries_left_in_the_journal_by_a_crash_come_back_in_their_tables_order() {
    let dir = tempfile::tempdir().unwrap();
    let (s, t) = open(&dir.path().join(DB));
    let ids = played(&s, 9).await;
    let crashed = crash_copy(dir.path());
    close(s, t).await;

    let path = crashed.path().join(DB);
    assert_eq!(
        rows(&path, "SELECT COUNT(*) FROM journal"),
        3 * 9,
        "the crash left every entry in the journal"
    );
    assert_whole(&path, &ids, 9).await;
    assert_eq!(
        rows(&path, "SELECT COUNT(*) FROM journal"),
        0,
        "folded on opening"
    );
    // The clean stop folded too.
    let clean = dir.path().join(DB);
    assert_eq!(rows(&clean, "SELECT COUNT(*) FROM journal"), 0);
    assert_eq!(rows(&clean, "SELECT COUNT(*) FROM entries"), 3 * 9);
    assert_whole(&clean, &ids, 9).await;
}

#[tokio::test]
async fn a_journal_missing_a_row_is_refused_not_read_as_shorter_logs() {
    let dir = tempfile::tempdir().unwrap();
    let (s, t) = open(&dir.path().join(DB));
    played(&s, 5).await;
    let middle = crash_copy(dir.path());
    let last = crash_copy(dir.path());
    close(s, t).await;
    let n = rows(&middle.path().join(DB), "SELECT MAX(n) FROM journal");

    for (copy, gone) in [(&middle, n / 2), (&last, n)] {
        let path = copy.path().join(DB);
        let c = rusqlite::Connection::open(&path).unwrap();
        c.execute("DELETE FROM journal WHERE n = ?1", [gone])
            .unwrap();
        drop(c);
        let e = open_err(&path);
        assert!(
            e.contains("acknowledged moves are missing") && e.contains("restore it from a backup"),
            "row {gone} of {n}: {e}"
        );
        let report = muster_server::check::check(copy.path()).unwrap();
        assert!(
            report
                .file_damage
                .as_deref()
                .is_some_and(|d| d.contains(&format!("should hold {n} rows"))),
            "row {gone} of {n}: {:?}",
            report.file_damage
        );
        assert_eq!(
            rows(&path, "SELECT COUNT(*) FROM journal"),
            n - 1,
            "nothing folded or dropped"
        );
    }
}

#[tokio::test]
async fn the_journal_is_folded_as_it_grows() {
    const TABLES: u64 = 64;
    let each = FOLD_AT / TABLES + 8;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(DB);
    let (s, t) = open(&path);
    let (user, _) = s.create_user("M".into(), Hash32([1; 32])).await.unwrap();
    let mut ids = Vec::new();
    for _ in 0..TABLES {
        ids.push(s.create_table(new_table(user)).await.unwrap());
    }
    let mut rooms = tokio::task::JoinSet::new();
    for &id in &ids {
        let s = s.clone();
        rooms.spawn(async move {
            for seq in 2..=each + 1 {
                s.append(id, seq, entry(id, seq), None).await?;
            }
            Ok::<_, StorageError>(())
        });
    }
    while let Some(r) = rooms.join_next().await {
        r.unwrap().unwrap();
    }
    let in_journal = rows(&path, "SELECT COUNT(*) FROM journal");
    let appended = (TABLES * (each + 1)) as i64;
    assert!(
        in_journal < FOLD_AT as i64,
        "{in_journal} rows in the journal after {appended} entries"
    );
    assert_eq!(
        in_journal + rows(&path, "SELECT COUNT(*) FROM entries"),
        appended
    );
    // Appends after the fold still follow their tables' last entries.
    for &id in &ids {
        assert!(s.append(id, each, vec![0], None).await.is_err());
        s.append(id, each + 2, entry(id, each + 2), None)
            .await
            .unwrap();
    }
    close(s, t).await;
    assert_whole(&path, &ids, each + 2).await;
}

#[tokio::test]
async fn an_entry_that_does_not_follow_its_tables_last_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(DB);
    let (s, t) = open(&path);
    let ids = played(&s, 4).await;
    let a = ids[0];
    let e = s.append(a, 4, vec![0], None).await.unwrap_err();
    assert!(e.to_string().contains("does not follow"), "{e}");
    assert!(s.append(a, 6, vec![0], None).await.is_err(), "a hole");
    s.append(a, 5, entry(a, 5), None).await.unwrap();
    close(s, t).await;
    // After reopening, the last entry is read from the folded log.
    let (s, t) = open(&path);
    assert!(s.append(a, 5, vec![0], None).await.is_err());
    s.append(a, 6, entry(a, 6), None).await.unwrap();
    s.append(ids[1], 5, entry(ids[1], 5), None).await.unwrap();
    close(s, t).await;
    let (s, t) = open(&path);
    let (tables, _) = s.load_unfinished().await.unwrap();
    assert_eq!(
        tables.iter().map(|t| t.entries.len()).collect::<Vec<_>>(),
        [6, 5, 4]
    );
    close(s, t).await;
}

/// A crash copy whose journal holds rows that cannot join their table's
/// log: that table is named damaged (its rows kept apart, not folded and
/// not dropped), the others load whole, and the store opens.
async fn set_aside_case(damage: &str, words: &str) {
    let dir = tempfile::tempdir().unwrap();
    let (s, t) = open(&dir.path().join(DB));
    let ids = played(&s, 6).await;
    let crashed = crash_copy(dir.path());
    close(s, t).await;
    let path = crashed.path().join(DB);
    // The newest table: its number is the one a new table would take.
    let bad = ids[2];
    let c = rusqlite::Connection::open(&path).unwrap();
    c.execute_batch(&damage.replace("{bad}", &bad.0.to_string()))
        .unwrap();
    drop(c);

    let (s, t) = open(&path);
    let (tables, damaged) = s.load_unfinished().await.unwrap();
    assert_eq!(damaged.len(), 1, "{damaged:?}");
    assert_eq!(damaged[0].0, bad);
    assert!(damaged[0].1.contains(words), "{damaged:?}");
    let loaded: Vec<TableId> = tables.iter().map(|t| t.id).collect();
    assert_eq!(loaded, vec![ids[0], ids[1]]);
    assert!(tables.iter().all(|t| t.entries.len() == 6));
    // Started without it, the server opens a new table: it must not take
    // the damaged table's number (its rows would be read as the new one's).
    let (user, _) = s.create_user("N".into(), Hash32([2; 32])).await.unwrap();
    let fresh = s.create_table(new_table(user)).await.unwrap();
    assert!(fresh.0 > bad.0, "{fresh:?} after {bad:?}");
    s.append(fresh, 2, entry(fresh, 2), None).await.unwrap();
    close(s, t).await;
    let (s, t) = open(&path);
    let (tables, damaged) = s.load_unfinished().await.unwrap();
    close(s, t).await;
    assert_eq!(
        damaged.iter().map(|d| d.0).collect::<Vec<_>>(),
        vec![bad],
        "still named, once"
    );
    let loaded: Vec<TableId> = tables.iter().map(|t| t.id).collect();
    assert_eq!(loaded, vec![ids[0], ids[1], fresh]);
    assert_eq!(
        rows(
            &path,
            &format!(
                "SELECT COUNT(*) FROM journal_set_aside WHERE table_id = {}",
                bad.0
            )
        ),
        6,
        "its journal rows (entries 1 to 6) are kept"
    );
    assert_eq!(rows(&path, "SELECT COUNT(*) FROM journal"), 0);
    let report = muster_server::check::check(crashed.path()).unwrap();
    assert!(report.file_damage.is_none(), "{:?}", report.file_damage);
    let line = report.tables.iter().find(|t| t.table == bad.0).unwrap();
    assert!(
        line.damage.as_deref().is_some_and(|d| d.contains(words)),
        "{line:?}"
    );
}

#[tokio::test]
async fn journal_rows_of_a_lost_table_record_are_set_aside_and_named() {
    set_aside_case(
        "PRAGMA foreign_keys = OFF; DELETE FROM tables WHERE id = {bad}",
        "record is missing",
    )
    .await;
}

#[tokio::test]
async fn journal_rows_whose_numbers_were_taken_meanwhile_are_set_aside_and_named() {
    // An older server (it reads `entries` only) ran on the crash's file
    // and stored its own game under the same numbers, head included: a
    // whole log by itself, which only the set-aside rows show is not.
    set_aside_case(
        "INSERT INTO entries (table_id, seq, entry)
             VALUES ({bad}, 1, X'00'), ({bad}, 2, X'00'), ({bad}, 3, X'00'),
                    ({bad}, 4, X'00'), ({bad}, 5, X'00'), ({bad}, 6, X'00');
         UPDATE tables SET head_seq = 6 WHERE id = {bad}",
        "do not fit",
    )
    .await;
}
