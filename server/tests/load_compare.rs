//! Issue 23: one node under the same load on SQLite and on PostgreSQL.
//! A measurement, not a check (ignored; run by hand, release build):
//!
//! ```sh
//! cargo test --release -p muster-server --test load_compare -- --ignored --nocapture
//! ```
//!
//! `LOAD_TABLES` tables (default 50) of two players each; one player per
//! table places a piece `LOAD_RATE` times a second (default 2), spread
//! over the second, for `LOAD_SECS` (default 15) after a 2 s warm-up. It
//! reports action → `Accepted` latency (the answer leaves after the
//! commit), the server's CPU per action (with PostgreSQL, the database's
//! own processes are counted too: the work moved there), and commits per
//! second from `muster_storage_commits_total`.
//!
//! The muster-load harness (tests/) needs the client crate and its UI
//! toolkit, which a release build on this machine could not finish in
//! time; this driver is a few lines of WebSocket instead (no dice, no
//! spectators), so its numbers compare the two backends with each other,
//! not with docs/server.md's earlier "Load" entries.

#[path = "support/pg_cluster.rs"]
mod pg_cluster;
#[path = "support/raw_client.rs"]
mod raw_client;

use raw_client::{Node, Player, accepted};
use std::io::{Read, Write};
use std::time::{Duration, Instant};

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// CPU seconds (user + system) of a process.
fn cpu(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let f: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let ticks = |i: usize| f.get(i).and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

/// CPU seconds of every `postgres` process (the test cluster is the only one).
fn postgres_cpu() -> f64 {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/comm"))
                .is_ok_and(|c| c.trim() == "postgres")
        })
        .map(cpu)
        .sum()
}

/// A counter from the metrics endpoint.
fn metric(addr: &str, name: &str) -> f64 {
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(b"GET /metrics HTTP/1.0\r\n\r\n").unwrap();
    let mut body = String::new();
    let _ = s.read_to_string(&mut body);
    body.lines()
        .find_map(|l| l.strip_prefix(&format!("{name} ")))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0.0)
}

struct Outcome {
    actions: usize,
    secs: f64,
    p50: Duration,
    p99: Duration,
    server_cpu: f64,
    db_cpu: f64,
    commits: f64,
}

async fn run(database: &str, tables: usize, secs: u64, rate: u64) -> Outcome {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("load.toml");
    std::fs::write(
        &config,
        "[limits]\nconns_per_addr = 1000000\nguest_signins_per_minute = 1000000\n\
         guest_signin_burst = 1000000\ntables_per_addr = 1000000\nmax_tables = 1000000\n",
    )
    .unwrap();
    let node = Node::start(&["--database", database, "--config", config.to_str().unwrap()]);
    let pid = node.child.id();
    let mut pairs = Vec::new();
    for t in 0..tables {
        let mut a = Player::connect(&node.ws).await;
        a.sign_in(&format!("A{t}")).await;
        let table = a.create_table(&format!("load {t}")).await;
        a.sit(table).await;
        let mut b = Player::connect(&node.ws).await;
        b.sign_in(&format!("B{t}")).await;
        b.sit(table).await;
        pairs.push((table, a, b));
    }
    let warm = Duration::from_secs(2);
    let run_for = warm + Duration::from_secs(secs);
    let every = Duration::from_millis(1000 / rate.max(1));
    let start = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for (i, (table, mut a, mut b)) in pairs.into_iter().enumerate() {
        // The other player only reads (its deltas), so its socket never fills.
        tasks.spawn(async move {
            let _ = tokio::time::timeout(run_for + Duration::from_secs(5), async {
                while futures_util::StreamExt::next(&mut b.ws).await.is_some() {}
            })
            .await;
            Vec::new()
        });
        let offset = every.mul_f64(i as f64 / tables as f64);
        tasks.spawn(async move {
            let mut latencies = Vec::new();
            tokio::time::sleep(offset).await;
            let mut tick = tokio::time::interval(every);
            let mut n = 0u64;
            while start.elapsed() < run_for {
                tick.tick().await;
                let sent = Instant::now();
                accepted(a.place(table, &format!("p{n}")).await);
                n += 1;
                if sent.duration_since(start) >= warm {
                    latencies.push(sent.elapsed());
                }
            }
            drop(a);
            latencies
        });
    }
    // Measured window: from the end of the warm-up.
    tokio::time::sleep(warm).await;
    let (s0, d0, c0) = (
        cpu(pid),
        postgres_cpu(),
        metric(&node.metrics, "muster_storage_commits_total"),
    );
    let t0 = Instant::now();
    tokio::time::sleep(Duration::from_secs(secs)).await;
    let (s1, d1, c1) = (
        cpu(pid),
        postgres_cpu(),
        metric(&node.metrics, "muster_storage_commits_total"),
    );
    let took = t0.elapsed().as_secs_f64();
    let mut lat = Vec::new();
    while let Some(r) = tasks.join_next().await {
        lat.extend(r.unwrap_or_default());
    }
    lat.sort();
    let pct = |p: f64| {
        lat.get(((lat.len().max(1) - 1) as f64 * p) as usize)
            .copied()
            .unwrap_or_default()
    };
    let is_pg = database.starts_with("postgres");
    Outcome {
        actions: lat.len(),
        secs: took,
        p50: pct(0.5),
        p99: pct(0.99),
        server_cpu: s1 - s0,
        db_cpu: if is_pg { d1 - d0 } else { 0.0 },
        commits: (c1 - c0) / took,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement (a minute, release build): run by hand"]
async fn sqlite_and_postgres_under_the_same_load() {
    let tables = env("LOAD_TABLES", 50) as usize;
    let secs = env("LOAD_SECS", 15);
    let rate = env("LOAD_RATE", 2);
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "{tables} tables × 2 players, {rate} actions/s per table, {secs} s measured; load average before: {}",
        load.trim()
    );
    let pg = std::thread::spawn(pg_cluster::fresh_database)
        .join()
        .unwrap();
    let mut runs = vec![("SQLite", "sqlite:".to_string())];
    if let Some(url) = pg {
        runs.push(("PostgreSQL", url));
    }
    for (name, url) in runs {
        let o = run(&url, tables, secs, rate).await;
        let per = |cpu: f64| cpu * 1e6 / o.actions.max(1) as f64;
        println!(
            "{name}: {} actions in {:.1} s ({:.0}/s); action → Accepted p50 {:?}, p99 {:?}; \
             server CPU {:.0} µs/action{}; commits {:.0}/s ({:.1} actions per commit)",
            o.actions,
            o.secs,
            o.actions as f64 / o.secs,
            o.p50,
            o.p99,
            per(o.server_cpu),
            if o.db_cpu > 0.0 {
                format!(
                    " + PostgreSQL {:.0} µs/action = {:.0}",
                    per(o.db_cpu),
                    per(o.server_cpu + o.db_cpu)
                )
            } else {
                String::new()
            },
            o.commits,
            o.actions as f64 / o.secs / o.commits.max(1e-9),
        );
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("load average after: {}", load.trim());
}
