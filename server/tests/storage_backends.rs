//! The storage suite, run against both backends (issue 23): SQLite in a
//! temporary directory and PostgreSQL in a fresh database of a throw-away
//! cluster (support/pg_cluster.rs). Both must keep the same promises:
//! answers only after the commit, one bad request failing alone in its
//! group, logs read back whole and checked (checksums, committed head), and
//! damage named, never silently dropped.

#[path = "support/pg_cluster.rs"]
mod pg_cluster;

use muster_server::storage::group_window::CommitWindow;
use muster_server::storage::{
    Backend, DEFAULT_COMMIT_WINDOW, NewTable, SeatHolder, Storage, StorageError, StoredChain,
    TokenLookup,
};
use muster_shared::Hash32;
use muster_shared::protocol::{TableId, TableStatus, UserId};
use std::time::Duration;

/// One backend under test, with what keeps it alive.
struct Under {
    backend: Backend,
    _dir: Option<tempfile::TempDir>,
}

impl Under {
    fn name(&self) -> &'static str {
        match self.backend {
            Backend::Sqlite(_) => "SQLite",
            Backend::Postgres(_) => "PostgreSQL",
        }
    }

    fn open(&self) -> (Storage, std::thread::JoinHandle<()>) {
        self.open_with(DEFAULT_COMMIT_WINDOW.into())
    }

    fn open_with(&self, window: CommitWindow) -> (Storage, std::thread::JoinHandle<()>) {
        Storage::open_backend(&self.backend, window)
            .unwrap_or_else(|e| panic!("{}: open: {e}", self.name()))
    }

    /// Run raw SQL against the backend, behind the server's back (to damage it).
    fn sql(&self, sqlite: &str, pg: &str) {
        match &self.backend {
            Backend::Sqlite(path) => {
                let c = rusqlite::Connection::open(path).unwrap();
                c.execute_batch(sqlite).unwrap();
            }
            Backend::Postgres(url) => {
                let url = url.clone();
                let pg = pg.to_string();
                // The driver's own runtime cannot start inside the test's.
                std::thread::spawn(move || {
                    let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
                    c.batch_execute(&pg).unwrap();
                })
                .join()
                .unwrap();
            }
        }
    }
}

/// SQLite, and PostgreSQL when it is installed (required in CI).
fn backends() -> Vec<Under> {
    let dir = tempfile::tempdir().unwrap();
    let mut out = vec![Under {
        backend: Backend::Sqlite(dir.path().join("muster.sqlite3")),
        _dir: Some(dir),
    }];
    // Made on a plain thread: the driver's runtime cannot nest in the test's.
    if let Some(url) = std::thread::spawn(pg_cluster::fresh_database)
        .join()
        .unwrap()
    {
        out.push(Under {
            backend: Backend::Postgres(url),
            _dir: None,
        });
    }
    out
}

async fn close(storage: Storage, thread: std::thread::JoinHandle<()>) {
    drop(storage);
    tokio::task::spawn_blocking(move || thread.join().unwrap())
        .await
        .unwrap();
}

fn hash(b: u8) -> Hash32 {
    Hash32([b; 32])
}

fn new_table(creator: UserId, entries: usize) -> NewTable {
    NewTable {
        creator,
        addr: Some("127.0.0.1".into()),
        options: vec![1, 2, 3],
        header: vec![4, 5, 6],
        chain: StoredChain {
            secret: hash(9),
            len: 100,
        },
        invite: Some("inv".into()),
        seats: vec![
            Some(SeatHolder {
                user: creator,
                name: "Meade".into(),
            }),
            None,
        ],
        entries: (1..=entries).map(|i| vec![i as u8; 10]).collect(),
    }
}

#[tokio::test]
async fn users_and_sessions_on_both_backends() {
    for under in backends() {
        let name = under.name();
        let (s, t) = under.open();
        let (user, first) = s.create_user("Meade".into(), hash(1)).await.unwrap();
        let second = s.new_session(user, hash(2)).await.unwrap();
        assert_ne!(first, second, "{name}");
        assert_eq!(
            s.find_user(hash(1), 3600).await.unwrap(),
            TokenLookup::Live {
                user,
                name: "Meade".into(),
                session: first
            },
            "{name}"
        );
        assert_eq!(
            s.find_user(hash(7), 3600).await.unwrap(),
            TokenLookup::Unknown,
            "{name}"
        );
        let listed = s.list_sessions(user, 3600).await.unwrap();
        assert_eq!(
            listed.iter().map(|i| i.id).collect::<Vec<_>>(),
            vec![first, second],
            "{name}"
        );
        assert!(s.revoke_session(user, second).await.unwrap(), "{name}");
        assert!(!s.revoke_session(user, second).await.unwrap(), "{name}");
        assert_eq!(
            s.find_user(hash(2), 3600).await.unwrap(),
            TokenLookup::Revoked,
            "{name}"
        );
        close(s, t).await;
    }
}

/// A request that fails (a token already taken) fails alone: the requests
/// committed in the same group still are.
#[tokio::test]
async fn one_bad_request_fails_alone_in_its_group() {
    for under in backends() {
        let name = under.name();
        let (s, t) = under.open();
        s.create_user("A".into(), hash(1)).await.unwrap();
        // Sent together, into a storage that waits its window after every
        // first request whatever the load, so they share a group.
        let (s, t) = {
            close(s, t).await;
            under.open_with(CommitWindow::always(Duration::from_millis(50)))
        };
        let (dup, fresh, dup2) = tokio::join!(
            s.create_user("B".into(), hash(1)),
            s.create_user("C".into(), hash(2)),
            s.create_user("D".into(), hash(1)),
        );
        assert!(dup.is_err() && dup2.is_err(), "{name}: a taken token");
        let (c, _) = fresh.unwrap_or_else(|e| panic!("{name}: {e}"));
        close(s, t).await;
        let (s, t) = under.open();
        assert!(
            matches!(s.find_user(hash(2), 3600).await.unwrap(), TokenLookup::Live { user, .. } if user == c),
            "{name}: the good request of the group is durable"
        );
        close(s, t).await;
    }
}

#[tokio::test]
async fn tables_and_logs_come_back_whole_after_reopening() {
    for under in backends() {
        let name = under.name();
        let (s, t) = under.open();
        let (user, _) = s.create_user("Meade".into(), hash(1)).await.unwrap();
        let a = s.create_table(new_table(user, 2)).await.unwrap();
        let b = s.create_table(new_table(user, 1)).await.unwrap();
        let gone = s.create_table(new_table(user, 1)).await.unwrap();
        for seq in 3..=10u64 {
            let chain = (seq == 5).then_some(StoredChain {
                secret: hash(42),
                len: 7,
            });
            s.append(a, seq, vec![seq as u8; 10], chain).await.unwrap();
        }
        let seats = vec![
            Some(SeatHolder {
                user,
                name: "Meade".into(),
            }),
            Some(SeatHolder {
                user,
                name: "Lee".into(),
            }),
        ];
        s.save_seats(a, seats.clone(), TableStatus::Playing)
            .await
            .unwrap();
        s.abandon(gone).await.unwrap();
        // A sequence number already stored, and a table that does not exist.
        assert!(s.append(a, 4, vec![0; 3], None).await.is_err(), "{name}");
        assert!(
            s.append(TableId(9999), 1, vec![0; 3], None).await.is_err(),
            "{name}"
        );
        close(s, t).await;

        let (s, t) = under.open();
        let (tables, damaged) = s.load_unfinished().await.unwrap();
        assert!(damaged.is_empty(), "{name}: {damaged:?}");
        assert_eq!(
            tables.iter().map(|t| t.id).collect::<Vec<_>>(),
            vec![a, b],
            "{name}: the abandoned table stays closed"
        );
        let ta = &tables[0];
        assert_eq!(ta.entries.len(), 10, "{name}");
        assert!(
            ta.entries
                .iter()
                .enumerate()
                .all(|(i, e)| *e == vec![i as u8 + 1; 10]),
            "{name}"
        );
        assert_eq!(ta.chain.secret, hash(42), "{name}");
        assert_eq!(ta.chain.len, 7, "{name}");
        assert_eq!(ta.status, TableStatus::Playing, "{name}");
        assert_eq!(ta.seats, seats, "{name}");
        assert_eq!(ta.creator, Some(user), "{name}");
        assert_eq!(ta.addr.as_deref(), Some("127.0.0.1"), "{name}");
        assert_eq!(ta.invite.as_deref(), Some("inv"), "{name}");
        assert_eq!(
            (ta.options.as_slice(), ta.header.as_slice()),
            (&[1u8, 2, 3][..], &[4u8, 5, 6][..])
        );
        assert_eq!(tables[1].status, TableStatus::Open, "{name}");
        assert_eq!(tables[1].chain.secret, hash(9), "{name}");
        close(s, t).await;
    }
}

/// Many rooms appending at once: every append acknowledged is stored, in
/// order, whatever groups they were committed in.
#[tokio::test]
async fn concurrent_appends_are_all_durable() {
    const TABLES: usize = 20;
    const EACH: u64 = 30;
    for under in backends() {
        let name = under.name();
        let (s, t) = under.open();
        let (user, _) = s.create_user("M".into(), hash(1)).await.unwrap();
        let mut ids = Vec::new();
        for _ in 0..TABLES {
            ids.push(s.create_table(new_table(user, 1)).await.unwrap());
        }
        let started = std::time::Instant::now();
        let mut rooms = tokio::task::JoinSet::new();
        for &id in &ids {
            let s = s.clone();
            rooms.spawn(async move {
                for seq in 2..=EACH + 1 {
                    s.append(id, seq, vec![(seq % 251) as u8; 40], None).await?;
                }
                Ok::<_, StorageError>(())
            });
        }
        while let Some(r) = rooms.join_next().await {
            r.unwrap().unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        eprintln!(
            "{name}: {} appends from {TABLES} rooms in {:?}",
            TABLES as u64 * EACH,
            started.elapsed()
        );
        close(s, t).await;
        let (s, t) = under.open();
        let (tables, damaged) = s.load_unfinished().await.unwrap();
        assert!(damaged.is_empty(), "{name}: {damaged:?}");
        assert_eq!(tables.len(), TABLES, "{name}");
        assert!(
            tables.iter().all(|t| t.entries.len() as u64 == EACH + 1),
            "{name}"
        );
        close(s, t).await;
    }
}

/// A log entry changed behind the server's back, a log cut shorter than
/// its committed head, a log with a hole: each table is named as damaged,
/// and the others still load.
#[tokio::test]
async fn damaged_logs_are_named_not_dropped() {
    for under in backends() {
        let name = under.name();
        let (s, t) = under.open();
        let (user, _) = s.create_user("M".into(), hash(1)).await.unwrap();
        let mut ids = Vec::new();
        for _ in 0..4 {
            let id = s.create_table(new_table(user, 1)).await.unwrap();
            for seq in 2..=5 {
                s.append(id, seq, vec![seq as u8; 10], None).await.unwrap();
            }
            ids.push(id.0);
        }
        close(s, t).await;
        let [flipped, cut, holed, fine] = ids[..] else {
            unreachable!()
        };
        under.sql(
            &format!(
                "UPDATE entries SET entry = X'00' WHERE table_id = {flipped} AND seq = 3;
                 DELETE FROM entries WHERE table_id = {cut} AND seq = 5;
                 DELETE FROM entries WHERE table_id = {holed} AND seq = 2;"
            ),
            &format!(
                "UPDATE entries SET entry = '\\x00' WHERE table_id = {flipped} AND seq = 3;
                 DELETE FROM entries WHERE table_id = {cut} AND seq = 5;
                 DELETE FROM entries WHERE table_id = {holed} AND seq = 2;"
            ),
        );
        let (s, t) = under.open();
        let (tables, damaged) = s.load_unfinished().await.unwrap();
        assert_eq!(
            tables.iter().map(|t| t.id.0).collect::<Vec<_>>(),
            vec![fine],
            "{name}"
        );
        let why = |id: u64| {
            damaged
                .iter()
                .find(|(t, _)| t.0 == id)
                .map(|(_, w)| w.clone())
                .unwrap_or_else(|| panic!("{name}: table {id} not named: {damaged:?}"))
        };
        assert!(why(flipped).contains("checksum"), "{name}");
        assert!(why(cut).contains("4 are in the database"), "{name}");
        assert!(why(holed).contains("jumps from entry 1 to 3"), "{name}");
        close(s, t).await;
    }
}

/// PostgreSQL's schema is versioned: applied once, recorded, and a
/// database from a newer server is refused rather than misread.
#[tokio::test]
async fn postgres_migrations_are_versioned() {
    let Some(under) = backends()
        .into_iter()
        .find(|u| matches!(u.backend, Backend::Postgres(_)))
    else {
        return;
    };
    let (s, t) = under.open();
    close(s, t).await;
    // Opened again: nothing applied twice.
    let (s, t) = under.open();
    close(s, t).await;
    let Backend::Postgres(url) = under.backend.clone() else {
        unreachable!()
    };
    let versions = std::thread::spawn(move || {
        let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        c.query("SELECT version FROM schema_version ORDER BY version", &[])
            .unwrap()
            .iter()
            .map(|r| r.get::<_, i32>(0))
            .collect::<Vec<_>>()
    })
    .join()
    .unwrap();
    let expect: Vec<i32> = (1..=muster_server::storage::pg::MIGRATIONS.len() as i32).collect();
    assert_eq!(versions, expect);
    under.sql("", "INSERT INTO schema_version VALUES (999, 0)");
    let refused = Storage::open_backend(&under.backend, DEFAULT_COMMIT_WINDOW)
        .err()
        .expect("a newer schema is refused");
    assert!(refused.to_string().contains("version 999"), "{refused}");
}

/// SQLite may roll a whole transaction back on its own part-way through a
/// group (a full disk, an I/O error). Nothing of the group may then be
/// stored and every request of it is refused: before the fix, the requests
/// after the rollback ran alone in autocommit mode and were stored while
/// the group was answered with the failed COMMIT's error (an entry nobody
/// was told of, after a hole in the log). A club job that runs `ROLLBACK`
/// stands in for SQLite's own.
#[tokio::test]
async fn a_group_sqlite_rolled_back_on_its_own_is_refused_whole() {
    let dir = tempfile::tempdir().unwrap();
    let backend = Backend::Sqlite(dir.path().join("muster.sqlite3"));
    let (s, t) =
        Storage::open_backend(&backend, CommitWindow::always(Duration::from_millis(50))).unwrap();
    let (user, _) = s.create_user("Meade".into(), hash(1)).await.unwrap();
    let table = s.create_table(new_table(user, 1)).await.unwrap();
    // Sent together: one group, in this order.
    let (before, rollback, after) = tokio::join!(
        s.append(table, 2, vec![2; 10], None),
        s.club(|db| db.batch("ROLLBACK")),
        s.append(table, 3, vec![3; 10], None),
    );
    assert!(before.is_err(), "undone by the rollback: {before:?}");
    assert!(rollback.is_err(), "{rollback:?}");
    let after = after.expect_err("not run alone after the rollback");
    assert!(
        after.to_string().contains("rolled the transaction back"),
        "{after}"
    );
    // The storage goes on: the next group begins afresh.
    s.append(table, 2, vec![2; 10], None).await.unwrap();
    close(s, t).await;

    let (s, t) = Storage::open_backend(&backend, DEFAULT_COMMIT_WINDOW).unwrap();
    let (tables, damaged) = s.load_unfinished().await.unwrap();
    assert!(damaged.is_empty(), "no hole in the log: {damaged:?}");
    assert_eq!(tables[0].entries, vec![vec![1; 10], vec![2; 10]]);
    close(s, t).await;
}
