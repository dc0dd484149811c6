//! Table leases with a fencing token (issue 23), with real processes on one
//! PostgreSQL: node A (a child process) takes a table's lease and writes;
//! A is frozen with SIGSTOP past its lease; node B (this process) takes the
//! table, reads its log back and writes on; A is woken with SIGCONT and its
//! next write is refused inside the transaction, so the log holds nothing
//! from A after B took over.
//!
//! The child is this test binary run again with `MUSTER_LEASE_CHILD` set
//! (the `lease_child` test does nothing otherwise); it reports on stdout in
//! lines starting `LEASE ` and takes `append N` lines on stdin.

#[path = "support/pg_cluster.rs"]
mod pg_cluster;

use muster_server::storage::{Backend, DEFAULT_COMMIT_WINDOW, NewTable, Storage, StoredChain};
use muster_shared::Hash32;
use muster_shared::protocol::{TableId, UserId};
use std::io::{BufRead, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// Long enough that a loaded machine renews it in time (every third).
const LEASE: Duration = Duration::from_secs(3);

fn table(creator: UserId) -> NewTable {
    NewTable {
        creator,
        addr: None,
        options: vec![1],
        header: vec![2],
        chain: StoredChain {
            secret: Hash32([3; 32]),
            len: 10,
        },
        invite: None,
        seats: vec![None, None],
        entries: vec![vec![1; 8]],
    }
}

/// Node A, in the child process.
#[test]
fn lease_child() {
    let Ok(spec) = std::env::var("MUSTER_LEASE_CHILD") else {
        return;
    };
    let (url, table) = spec.split_once('|').expect("url|table");
    let table = TableId(table.parse().expect("table id"));
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let (s, _thread) =
            Storage::open_backend(&Backend::Postgres(url.into()), DEFAULT_COMMIT_WINDOW).unwrap();
        let say = |line: String| {
            let mut out = std::io::stdout().lock();
            writeln!(out, "LEASE {line}").unwrap();
            out.flush().unwrap();
        };
        let token = s
            .acquire_lease(table, "node-a".into(), LEASE)
            .await
            .unwrap()
            .expect("the table is free");
        say(format!("token {token}"));
        s.append(table, 2, vec![2; 8], None).await.unwrap();
        say("appended 2".into());
        let mut lines = std::io::stdin().lock().lines();
        for _ in 0..10 {
            let Some(Ok(line)) = lines.next() else { break };
            let Some(seq) = line.strip_prefix("append ") else {
                continue;
            };
            let seq: u64 = seq.trim().parse().unwrap();
            match s.append(table, seq, vec![seq as u8; 8], None).await {
                Ok(()) => say(format!("ok {seq}")),
                Err(e) => say(format!("refused {seq}: {e}")),
            }
        }
    });
}

fn signal(pid: u32, sig: &str) {
    let ok = Command::new("kill")
        .args([sig, &pid.to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill {sig} {pid}");
}

#[tokio::test]
async fn a_paused_node_cannot_write_after_another_takes_its_table() {
    let Some(url) = std::thread::spawn(pg_cluster::fresh_database)
        .join()
        .unwrap()
    else {
        return;
    };
    let backend = Backend::Postgres(url.clone());
    // This process is node B (and sets the table up).
    let (b, b_thread) = Storage::open_backend(&backend, DEFAULT_COMMIT_WINDOW).unwrap();
    let (user, _) = b.create_user("M".into(), Hash32([1; 32])).await.unwrap();
    let t = b.create_table(table(user)).await.unwrap();

    let mut a = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "lease_child", "--nocapture", "--test-threads=1"])
        .env("MUSTER_LEASE_CHILD", format!("{url}|{}", t.0))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = a.id();
    let mut a_in = a.stdin.take().unwrap();
    let (said, hear) = mpsc::channel();
    let a_out = a.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(a_out).lines().map_while(Result::ok) {
            // The harness may print its "test lease_child ... " first on the line.
            if let Some(at) = line.find("LEASE ") {
                let _ = said.send(line[at + "LEASE ".len()..].to_string());
            }
        }
    });
    let next = |what: &str| {
        hear.recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("node A never said {what}"))
    };
    assert_eq!(next("its token"), "token 1");
    assert_eq!(next("it appended"), "appended 2");

    // A's lease is live (renewed by its storage thread): B cannot take it.
    tokio::time::sleep(LEASE + Duration::from_secs(1)).await;
    assert_eq!(
        b.acquire_lease(t, "node-b".into(), LEASE).await.unwrap(),
        None,
        "a live lease is not taken"
    );

    // Frozen past its lease, A renews nothing; B takes the table.
    signal(pid, "-STOP");
    tokio::time::sleep(LEASE + Duration::from_secs(1)).await;
    let token = b.acquire_lease(t, "node-b".into(), LEASE).await.unwrap();
    assert_eq!(
        token,
        Some(2),
        "an expired lease is taken, with a new token"
    );
    let (tables, damaged) = b.load_unfinished().await.unwrap();
    assert!(damaged.is_empty());
    assert_eq!(tables[0].entries.len(), 2, "B replays what A committed");
    b.append(t, 3, vec![3; 8], None).await.unwrap();

    // A wakes and writes: refused, whatever sequence number it uses.
    writeln!(a_in, "append 3").unwrap();
    writeln!(a_in, "append 4").unwrap();
    a_in.flush().unwrap();
    signal(pid, "-CONT");
    let three = next("its answer for 3");
    let four = next("its answer for 4");
    assert!(
        four.starts_with("refused 4") && four.contains("another node"),
        "{four}"
    );
    assert!(three.starts_with("refused 3"), "{three}");
    drop(a_in);
    let status = a.wait().unwrap();
    assert!(status.success());

    // B goes on; the log holds nothing of A's after the hand-over.
    b.append(t, 4, vec![4; 8], None).await.unwrap();
    let (tables, _) = b.load_unfinished().await.unwrap();
    assert_eq!(
        tables[0].entries,
        vec![vec![1; 8], vec![2; 8], vec![3; 8], vec![4; 8]]
    );
    drop(b);
    tokio::task::spawn_blocking(move || b_thread.join().unwrap())
        .await
        .unwrap();
}

/// Issue 23: the token a write is checked against is the writing room's
/// own. Node A's first room holds token 1; the table goes to another node
/// (token 2) and comes back to A (token 3): the first room's entry, seat
/// save and lobby line are refused, the new room's (token 3) pass.
#[tokio::test]
async fn a_write_is_checked_against_the_writing_rooms_own_token() {
    use muster_server::storage::StorageError;
    use muster_shared::protocol::TableStatus;
    let Some(url) = tokio::task::spawn_blocking(pg_cluster::fresh_database)
        .await
        .unwrap()
    else {
        return;
    };
    let (s, thread) =
        Storage::open_backend(&Backend::Postgres(url.clone()), DEFAULT_COMMIT_WINDOW).unwrap();
    let sql = |q: String| {
        let url = url.clone();
        std::thread::spawn(move || {
            let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
            c.query(&q, &[])
                .unwrap()
                .iter()
                .map(|r| r.get::<_, Vec<u8>>(0))
                .collect::<Vec<_>>()
        })
        .join()
        .unwrap()
    };
    let t = s.create_table(table(UserId(1))).await.unwrap();
    let long = Duration::from_secs(60);
    assert_eq!(s.acquire_lease(t, "a".into(), long).await.unwrap(), Some(1));
    s.append_fenced(t, 2, vec![2; 8], None, Some(1))
        .await
        .unwrap();
    // Another node took it and died: the lease came back to A, token 3.
    sql(format!(
        "UPDATE leases SET node = 'b', token = token + 1, \
         expires = clock_timestamp() - interval '1 hour' WHERE table_id = {} RETURNING ''::BYTEA",
        t.0
    ));
    assert_eq!(s.acquire_lease(t, "a".into(), long).await.unwrap(), Some(3));

    let old = s.append_fenced(t, 3, vec![3; 8], None, Some(1)).await;
    assert!(matches!(old, Err(StorageError::LeaseLost(_))), "{old:?}");
    let seats = s
        .save_seats_fenced(t, vec![None, None], TableStatus::Open, Some(1))
        .await;
    assert!(
        matches!(seats, Err(StorageError::LeaseLost(_))),
        "{seats:?}"
    );
    s.append_fenced(t, 3, vec![3; 8], None, Some(3))
        .await
        .unwrap();
    s.save_seats_fenced(t, vec![None, None], TableStatus::Open, Some(3))
        .await
        .unwrap();

    // The fleet's lobby line: the old room's is not written, nor can it
    // take the new room's off. (A later answered request means the
    // lines queued before it are committed.)
    let line = || {
        sql(format!(
            "SELECT summary FROM lobby WHERE table_id = {}",
            t.0
        ))
    };
    s.list_table(t, Some(vec![9]), Some(3));
    s.list_table(t, Some(vec![1]), Some(1));
    s.append_fenced(t, 4, vec![4; 8], None, Some(3))
        .await
        .unwrap();
    assert_eq!(line(), vec![vec![9]], "the new room's line stands");
    s.list_table(t, None, Some(1));
    s.append_fenced(t, 5, vec![5; 8], None, Some(3))
        .await
        .unwrap();
    assert_eq!(line(), vec![vec![9]], "the old room cannot take it off");
    s.list_table(t, None, Some(3));
    s.append_fenced(t, 6, vec![6; 8], None, Some(3))
        .await
        .unwrap();
    assert!(line().is_empty(), "the new room takes it off");
    drop(s);
    tokio::task::spawn_blocking(move || thread.join().unwrap())
        .await
        .unwrap();
}
