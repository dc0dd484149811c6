//! Issue 20, item 3: a damaged database never loses acknowledged play
//! silently. A log shorter than its committed head, an entry that fails
//! its checksum, a table record gone while its log remains, or a file
//! that fails SQLite's own check stops the start with a message naming
//! the table; `skip_damaged` serves the others. Random byte damage either
//! stops the start or leaves every acknowledged entry in place.

use muster_server::Server;
use muster_server::config::Config;
use muster_shared::sandbox::SandboxAction;
use muster_tests::e2e::{Client, Target, sandbox_table, start_server_in, stored_logs};
use std::path::Path;

const DB: &str = "muster.sqlite3";

fn roll() -> SandboxAction {
    SandboxAction::Roll {
        count: 1,
        sides: 6,
        note: "r".into(),
    }
}

fn config(dir: &Path) -> Config {
    Config {
        ws: "127.0.0.1:0".parse().unwrap(),
        quic: "127.0.0.1:0".parse().unwrap(),
        metrics: "127.0.0.1:0".parse().unwrap(),
        data_dir: dir.to_path_buf(),
        ..Config::default()
    }
}

/// A data directory with one table of `n` acknowledged rolls (plus its
/// set-up entries); returns its head.
async fn played(dir: &Path, n: usize) -> u64 {
    let server = start_server_in(dir, |_| {}).await;
    let t = Target::of(&server);
    let mut a = Client::connect(&t, false, "a").await;
    let mut b = Client::connect(&t, false, "b").await;
    let (table, _) = a.create_table(sandbox_table(false, 0)).await;
    a.sit(table, None).await;
    b.sit(table, None).await;
    let mut head = 0;
    for _ in 0..n {
        head = a.act(&roll()).await.unwrap();
    }
    server.shutdown().await;
    head
}

fn copy(from: &Path) -> tempfile::TempDir {
    let to = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        if e.path().is_file() {
            std::fs::copy(e.path(), to.path().join(e.file_name())).unwrap();
        }
    }
    to
}

fn sql(dir: &Path, statement: &str) {
    let c = rusqlite::Connection::open(dir.join(DB)).unwrap();
    c.execute_batch(statement).unwrap();
}

async fn refused(dir: &Path, words: &str) {
    let e = match Server::start(config(dir)).await {
        Ok(s) => {
            s.shutdown().await;
            panic!("the server started on a damaged database ({words})");
        }
        Err(e) => e,
    };
    assert!(e.contains("table 1") && e.contains(words), "{e}");
    assert!(
        e.contains("--skip-damaged"),
        "the message says how to go on: {e}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lost_or_changed_entries_and_lost_tables_stop_the_start() {
    let good = tempfile::tempdir().unwrap();
    let head = played(good.path(), 6).await;

    // The last two acknowledged entries gone.
    let cut = copy(good.path());
    sql(
        cut.path(),
        &format!(
            "DELETE FROM entries WHERE table_id = 1 AND seq > {}",
            head - 2
        ),
    );
    refused(cut.path(), "were committed").await;
    // The operator may go on without it; its rows stay.
    let s = Server::start(Config {
        skip_damaged: true,
        ..config(cut.path())
    })
    .await
    .expect("starts with skip_damaged");
    s.shutdown().await;
    let c = rusqlite::Connection::open(cut.path().join(DB)).unwrap();
    let rows: i64 = c
        .query_row("SELECT COUNT(*) FROM entries WHERE table_id = 1", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(rows as u64, head - 2, "nothing deleted");

    // An entry's bytes changed.
    let changed = copy(good.path());
    sql(
        changed.path(),
        "UPDATE entries SET entry = zeroblob(length(entry)) WHERE table_id = 1 AND seq = 3",
    );
    refused(changed.path(), "checksum").await;

    // The table's record gone, its log left.
    let orphan = copy(good.path());
    sql(
        orphan.path(),
        "PRAGMA foreign_keys = OFF; DELETE FROM tables WHERE id = 1",
    );
    refused(orphan.path(), "record is missing").await;

    // The intact copy starts and holds every entry.
    let logs = stored_logs(good.path()).await;
    assert_eq!(logs[0].entries.len() as u64, head);
}

/// Random damage to the file's pages: the server either refuses to start
/// or serves every acknowledged entry. Bounded: 12 damaged copies.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_damage_never_serves_a_shorter_game() {
    let good = tempfile::tempdir().unwrap();
    let head = played(good.path(), 30).await;
    let len = std::fs::metadata(good.path().join(DB)).unwrap().len();
    let (mut refusals, mut intact) = (0, 0);
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..12 {
        let d = copy(good.path());
        let mut bytes = std::fs::read(d.path().join(DB)).unwrap();
        for _ in 0..3 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Past the 100-byte header (a damaged header is refused by SQLite itself).
            let i = 100 + (x % (len - 100)) as usize;
            bytes[i] ^= (x >> 32) as u8 | 1;
        }
        std::fs::write(d.path().join(DB), &bytes).unwrap();
        match Server::start(config(d.path())).await {
            Err(_) => refusals += 1,
            Ok(s) => {
                s.shutdown().await;
                let logs = stored_logs(d.path()).await;
                assert_eq!(logs.len(), 1, "the table is still there");
                assert_eq!(
                    logs[0].entries.len() as u64,
                    head,
                    "every acknowledged entry"
                );
                intact += 1;
            }
        }
    }
    eprintln!("12 damaged copies: {refusals} refused to start, {intact} served intact");
}
