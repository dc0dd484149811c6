//! Load harness (not run in CI): starts the server binary, opens N tables ×
//! (2 players + S spectators), has one player per table roll dice at a
//! fixed rate, and reports action-to-last-delivery latency (p50/p99),
//! deltas per second, bytes per action per client, and the server's CPU
//! per action and RSS per connection (from /proc).
//!
//! ```sh
//! ulimit -n 65536
//! cargo build --release -p muster-tests --bins
//! target/release/muster-load --tables 1000 --spectators 3 --secs 30
//! ```
//!
//! With `--burst N`, after play: join and reconnect bursts of `N`
//! spectators, over WebSocket then QUIC against the same server, for
//! `--burst-rounds` rounds (`muster_tests::burst`).

use bytes::Bytes;
use muster_client::Connection;
use muster_shared::SeatId;
use muster_shared::codec;
use muster_shared::dice::{HashChain, SeatLink};
use muster_shared::protocol::{ClientMsg, ServerMsg, TableId};
use muster_shared::sandbox::SandboxAction;
use muster_tests::e2e::{Process, Target, sandbox_table};
use muster_tests::proc_stats::proc_stat;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Default)]
struct Rec {
    sent: Option<Instant>,
    arrivals: Vec<Instant>,
}

type Book = Arc<Mutex<BTreeMap<u64, Rec>>>;

/// Load harness: N tables × (2 players + S spectators) against a fresh
/// server process; one roll per table per second.
#[derive(clap::Parser)]
#[command(name = "muster-load")]
struct Args {
    /// Tables to open.
    #[arg(long, default_value_t = 100)]
    tables: usize,
    /// Spectators per table (each table also has two players).
    #[arg(long, default_value_t = 3)]
    spectators: usize,
    /// Seconds of play to measure.
    #[arg(long, default_value_t = 20)]
    secs: u64,
    /// Seconds to measure the server idle (connections open, nobody acting)
    /// before play, so that the background cost (keep-alives, timers) can be
    /// told apart from the cost of an action.
    #[arg(long, default_value_t = 5)]
    idle_secs: u64,
    /// Connect over QUIC instead of WebSocket.
    #[arg(long)]
    quic: bool,
    /// Put this many of the tables on QUIC and the rest on WebSocket. QUIC
    /// connections share a few UDP sockets (server and driver), so a run can
    /// pass the per-process file limit that caps WebSocket connections.
    #[arg(long, default_value_t = 0)]
    quic_tables: usize,
    /// The server's runtime threads (its `--workers`; default: its own).
    #[arg(long)]
    workers: Option<usize>,
    /// The server's group-commit window (its `--commit-window-ms`).
    #[arg(long)]
    commit_window_ms: Option<u64>,
    /// The server's storage (its `--database`): `sqlite:` by default, or a
    /// `postgres://…` URL to an empty database.
    #[arg(long)]
    database: Option<String>,
    /// A featured table instead (issue 22): one table, two seats and this
    /// many spectators, one move per `--move-secs` for `--moves` moves
    /// (`--tables`, `--spectators` and `--secs` are then unused).
    #[arg(long)]
    featured: Option<usize>,
    /// Of the featured table's spectators, this many over QUIC.
    #[arg(long, default_value_t = 0)]
    featured_quic: usize,
    /// The featured table's moves.
    #[arg(long, default_value_t = 24)]
    moves: u32,
    /// Seconds between the featured table's moves.
    #[arg(long, default_value_t = 5.0)]
    move_secs: f64,
    /// Spectators joining at once in the featured table's join burst.
    #[arg(long, default_value_t = 200)]
    join_parallel: usize,
    /// After play, this many spectators join at once and then reconnect
    /// at once, over WebSocket and over QUIC (0: no bursts).
    #[arg(long, default_value_t = 0)]
    burst: usize,
    /// Rounds of bursts (WebSocket then QUIC in each); medians reported.
    #[arg(long, default_value_t = 3)]
    burst_rounds: usize,
}

/// QUIC connections per shared driver endpoint (one UDP socket each).
const CONNS_PER_ENDPOINT: usize = 500;
/// Kernel buffers of each shared driver UDP socket: the default (208 KiB)
/// drops datagrams in bursts at 500 connections, and a drop costs its
/// connection a loss-recovery timeout that the latency would then report.
const DRIVER_UDP_BUFFER: usize = 4 * 1024 * 1024;

/// How one table's connections reach the server.
#[derive(Clone)]
enum Via {
    Ws,
    /// QUIC on a shared driver endpoint.
    Quic(quinn::Endpoint),
}

async fn connect(t: &Target, via: &Via, name: &str) -> Connection {
    let mut opts = t.options();
    let quic = match via {
        Via::Ws => false,
        Via::Quic(e) => {
            opts.quic_endpoint = Some(e.clone());
            true
        }
    };
    let mut c = Connection::connect(t.url(quic), &opts)
        .await
        .expect("connect");
    c.sign_in_guest(name).await.expect("sign in");
    c
}

/// Read a connection until told to stop, recording each delta's arrival.
fn reader(
    mut c: Connection,
    book: Book,
    bytes: Arc<AtomicU64>,
    deltas: Arc<AtomicU64>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        while let Ok(b) = c.recv_bytes().await {
            if let Ok(ServerMsg::Delta { seq, .. }) = ServerMsg::decode(&b) {
                bytes.fetch_add(b.len() as u64, Relaxed);
                deltas.fetch_add(1, Relaxed);
                book.lock()
                    .unwrap()
                    .entry(seq)
                    .or_default()
                    .arrivals
                    .push(Instant::now());
            }
        }
    })
}

async fn wait_snapshot(c: &mut Connection) {
    loop {
        if let ServerMsg::Snapshot(_) = c
            .recv_timeout(Duration::from_secs(30))
            .await
            .expect("snapshot")
        {
            return;
        }
    }
}

struct TableRig {
    table: TableId,
    player: Connection,
    chain: HashChain,
    book: Book,
    readers: Vec<tokio::task::JoinHandle<()>>,
}

async fn rig(
    t: Target,
    i: usize,
    spectators: usize,
    via: Via,
    bytes: Arc<AtomicU64>,
    deltas: Arc<AtomicU64>,
) -> TableRig {
    let mut a = connect(&t, &via, &format!("a{i}")).await;
    a.send(&ClientMsg::CreateTable {
        options: sandbox_table(false, 0),
    })
    .await
    .unwrap();
    let table = loop {
        if let ServerMsg::TableCreated { table, .. } = a.recv().await.unwrap() {
            break table;
        }
    };
    a.send(&ClientMsg::JoinSeat {
        table,
        seat: None,
        invite: None,
    })
    .await
    .unwrap();
    wait_snapshot(&mut a).await;
    let chain = HashChain::generate(4096);
    a.send(&ClientMsg::PublishAnchor {
        table,
        anchor: chain.anchor(),
    })
    .await
    .unwrap();
    let mut b = connect(&t, &via, &format!("b{i}")).await;
    b.send(&ClientMsg::JoinSeat {
        table,
        seat: None,
        invite: None,
    })
    .await
    .unwrap();
    wait_snapshot(&mut b).await;
    let book: Book = Arc::default();
    let mut readers = vec![reader(b, book.clone(), bytes.clone(), deltas.clone())];
    for s in 0..spectators {
        let mut c = connect(&t, &via, &format!("s{i}-{s}")).await;
        c.send(&ClientMsg::Spectate {
            table,
            invite: None,
        })
        .await
        .unwrap();
        wait_snapshot(&mut c).await;
        readers.push(reader(c, book.clone(), bytes.clone(), deltas.clone()));
    }
    TableRig {
        table,
        player: a,
        chain,
        book,
        readers,
    }
}

#[tokio::main]
async fn main() {
    let args = <Args as clap::Parser>::parse();
    let exe = std::env::current_exe().expect("own path");
    let server_bin = exe.with_file_name("muster-server-e2e");
    let dir = tempfile::tempdir().expect("temp dir");
    // Every driver connection comes from 127.0.0.1: lift the limits per
    // address (and the server-wide table cap), which model one client, not
    // a load generator.
    let config = dir.path().join("load.toml");
    // A featured table's spectators get compact deltas (as in
    // bench/run.sh) and stay silent through the whole run (no pings).
    let featured = if args.featured.is_some() {
        "reveal_every = 8\n"
    } else {
        ""
    };
    let idle = if args.featured.is_some() {
        "idle_secs = 1200\n"
    } else {
        ""
    };
    std::fs::write(
        &config,
        format!(
            "{featured}[limits]\n{idle}conns_per_addr = 1000000\nguest_signins_per_minute = 1000000\n\
             guest_signin_burst = 1000000\ntables_per_addr = 1000000\nmax_tables = 1000000\n"
        ),
    )
    .expect("write the load configuration");
    let mut extra = vec![
        "--config".to_string(),
        config.to_str().expect("utf-8 path").to_string(),
    ];
    if let Some(w) = args.workers {
        extra.extend(["--workers".to_string(), w.to_string()]);
    }
    if let Some(w) = args.commit_window_ms {
        extra.extend(["--commit-window-ms".to_string(), w.to_string()]);
    }
    if let Some(d) = &args.database {
        extra.extend(["--database".to_string(), d.clone()]);
    }
    let server = Process::start_with(server_bin.to_str().expect("utf-8 path"), dir.path(), &extra);
    let pid = server.child.id();
    let t = server.target.clone();
    if let Some(spectators) = args.featured {
        let ok = featured_run(&args, spectators, &server).await;
        server.kill();
        drop(dir);
        std::process::exit(if ok { 0 } else { 1 });
    }
    let per_table = 2 + args.spectators;
    let rss0 = proc_stat(pid).rss_kib;

    eprintln!(
        "opening {} tables × {per_table} connections… (load average {})",
        args.tables,
        load_average()
    );
    let bytes = Arc::new(AtomicU64::new(0));
    let deltas = Arc::new(AtomicU64::new(0));
    let gate = Arc::new(tokio::sync::Semaphore::new(64));
    let quic_tables = if args.quic {
        args.tables
    } else {
        args.quic_tables.min(args.tables)
    };
    let endpoints: Vec<quinn::Endpoint> = (0..(quic_tables * per_table)
        .div_ceil(CONNS_PER_ENDPOINT))
        .map(|_| {
            muster_client::net::quic::client_endpoint(
                "127.0.0.1:0".parse().expect("literal address"),
                Some(DRIVER_UDP_BUFFER),
            )
            .expect("a driver QUIC endpoint")
        })
        .collect();
    let mut setups = Vec::new();
    for i in 0..args.tables {
        let (t, gate, bytes, deltas) = (t.clone(), gate.clone(), bytes.clone(), deltas.clone());
        let via = if i < quic_tables {
            Via::Quic(endpoints[i * per_table / CONNS_PER_ENDPOINT].clone())
        } else {
            Via::Ws
        };
        let spectators = args.spectators;
        setups.push(tokio::spawn(async move {
            let _permit = gate.acquire().await;
            rig(t, i, spectators, via, bytes, deltas).await
        }));
    }
    let mut rigs = Vec::new();
    for s in setups {
        rigs.push(s.await.expect("table set up"));
    }
    let conns = args.tables * per_table;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let idle_from = proc_stat(pid);
    let rss1 = idle_from.rss_kib;
    let idle_started = Instant::now();
    tokio::time::sleep(Duration::from_secs(args.idle_secs)).await;
    let before = proc_stat(pid);
    let idle_took = idle_started.elapsed().as_secs_f64();
    // Server CPU seconds per wall second with everyone connected and idle.
    let idle_load = (before.user_s + before.system_s - idle_from.user_s - idle_from.system_s)
        / idle_took.max(1e-9);
    eprintln!("{conns} connections open; server RSS {} MiB", rss1 / 1024);
    bytes.store(0, Relaxed);
    deltas.store(0, Relaxed);

    // One roll per table per second, start times spread over the second.
    let started = Instant::now();
    let end = started + Duration::from_secs(args.secs);
    let mut players = Vec::new();
    for (i, mut r) in rigs.into_iter().enumerate() {
        let offset = Duration::from_millis((i as u64 * 1000) / args.tables.max(1) as u64);
        players.push(tokio::spawn(async move {
            tokio::time::sleep(offset).await;
            let mut tick = tokio::time::interval(Duration::from_secs(1));
            let mut index = 0;
            let mut actions = 0u64;
            while Instant::now() < end {
                tick.tick().await;
                index += 1;
                let action = SandboxAction::Roll {
                    count: 2,
                    sides: 6,
                    note: String::new(),
                };
                let links = vec![SeatLink {
                    seat: SeatId(0),
                    index,
                    link: r.chain.link(index).expect("link"),
                }];
                let act = ClientMsg::Act {
                    table: r.table,
                    client_ref: index,
                    action: codec::encode_infallible(&action),
                    links,
                };
                let sent = Instant::now();
                r.player
                    .send_raw(Bytes::from(codec::encode_infallible(&act)))
                    .await
                    .expect("send");
                loop {
                    let b = r.player.recv_bytes().await.expect("answer");
                    match ServerMsg::decode(&b) {
                        Ok(ServerMsg::Delta { seq, .. }) => {
                            r.book
                                .lock()
                                .unwrap()
                                .entry(seq)
                                .or_default()
                                .arrivals
                                .push(Instant::now());
                        }
                        Ok(ServerMsg::Accepted { seq, .. }) => {
                            r.book.lock().unwrap().entry(seq).or_default().sent = Some(sent);
                            actions += 1;
                            break;
                        }
                        Ok(other @ (ServerMsg::Rejected { .. } | ServerMsg::Error { .. })) => {
                            panic!("{other:?}")
                        }
                        _ => {}
                    }
                }
            }
            (r, actions)
        }));
    }
    let mut latencies = Vec::new();
    let mut actions = 0;
    let mut rigs = Vec::new();
    for p in players {
        let (r, n) = p.await.expect("player");
        actions += n;
        rigs.push(r);
    }
    let took = started.elapsed().as_secs_f64();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after = proc_stat(pid);
    let rss2 = after.rss_kib;
    for r in &rigs {
        for rec in r.book.lock().unwrap().values() {
            if let Some(sent) = rec.sent
                && rec.arrivals.len() == per_table - 1 + 1
                && let Some(last) = rec.arrivals.iter().max()
            {
                latencies.push(last.duration_since(sent));
            }
        }
    }
    latencies.sort();
    let pct = |p: f64| {
        latencies
            .get(((latencies.len().max(1) - 1) as f64 * p) as usize)
            .copied()
            .unwrap_or_default()
    };
    let d = deltas.load(Relaxed) as f64;
    println!(
        "tables {} × {per_table} connections ({conns}), {} s, transport {}",
        args.tables,
        args.secs,
        match quic_tables {
            0 => "WebSocket".to_string(),
            q if q == args.tables => "QUIC".to_string(),
            q => format!(
                "mixed: {q} tables on QUIC, {} on WebSocket",
                args.tables - q
            ),
        }
    );
    println!(
        "actions {actions} ({:.0}/s), complete deliveries measured {}",
        actions as f64 / took,
        latencies.len()
    );
    println!(
        "action → last delivery: p50 {:?}, p99 {:?}, max {:?}",
        pct(0.5),
        pct(0.99),
        latencies.last().copied().unwrap_or_default()
    );
    println!("deltas delivered to readers: {:.0}/s", d / took);
    println!(
        "bytes per action per client: {:.0}",
        bytes.load(Relaxed) as f64 / d.max(1.0)
    );
    let per_action = |secs: f64| secs * 1e6 / actions.max(1) as f64;
    let user = after.user_s - before.user_s;
    let system = after.system_s - before.system_s;
    println!(
        "server CPU: {:.1} µs per action ({:.1} user, {:.1} kernel; {:.0}% of one core)",
        per_action(user + system),
        per_action(user),
        per_action(system),
        (user + system) / took * 100.0
    );
    println!(
        "bytes handed to files per action: {:.0}",
        after.written_bytes.saturating_sub(before.written_bytes) as f64 / actions.max(1) as f64
    );
    let marginal = (user + system - idle_load * took).max(0.0);
    println!(
        "server idle: {:.1}% of one core with {conns} connections open; \
         per action above idle: {:.1} µs",
        idle_load * 100.0,
        per_action(marginal)
    );
    println!(
        "server RSS: {} MiB at start, {} MiB with connections open ({:.1} KiB per connection), {} MiB at end",
        rss0 / 1024,
        rss1 / 1024,
        (rss1.saturating_sub(rss0)) as f64 / conns as f64,
        rss2 / 1024
    );
    if args.burst > 0 {
        let tables: Vec<TableId> = rigs.iter().map(|r| r.table).collect();
        bursts(&t, &tables, args.burst, args.burst_rounds, pid).await;
    }
    for r in rigs {
        for h in r.readers {
            h.abort();
        }
    }
    server.kill();
}

/// `--featured N`: run and print a featured table; false on any error.
async fn featured_run(args: &Args, spectators: usize, server: &Process) -> bool {
    use muster_tests::featured::{Featured, Report, ephemeral_ports, open_file_limit, run};
    let quic = args.featured_quic.min(spectators);
    let ws = spectators - quic + 2;
    let files = open_file_limit();
    let ports = ephemeral_ports();
    eprintln!(
        "open-file limit {}, ephemeral ports {}",
        files.map_or("unknown".into(), |v| v.to_string()),
        ports.map_or("unknown".into(), |v| v.to_string())
    );
    // Each WebSocket connection is a descriptor on both ends and a port.
    if files.is_some_and(|f| ws as u64 + 256 > f) || ports.is_some_and(|p| ws as u64 > p) {
        eprintln!("{ws} WebSocket connections do not fit: put some on QUIC (--featured-quic)");
        return false;
    }
    let endpoints: Vec<quinn::Endpoint> = (0..quic.div_ceil(CONNS_PER_ENDPOINT))
        .map(|_| {
            muster_client::net::quic::client_endpoint(
                "127.0.0.1:0".parse().expect("literal address"),
                Some(DRIVER_UDP_BUFFER),
            )
            .expect("a driver QUIC endpoint")
        })
        .collect();
    let f = Featured {
        spectators,
        quic_spectators: quic,
        moves: args.moves,
        interval: Duration::from_secs_f64(args.move_secs),
        join_parallel: args.join_parallel,
        join_limit: Duration::from_secs(600),
        drain_limit: Duration::from_secs(30),
        server_pid: Some(server.child.id()),
    };
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    eprintln!("load average before: {}", load.trim());
    let r = run(&server.target, &f, &endpoints).await;
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "featured table: 2 seats, {spectators} spectators ({quic} on QUIC), {} moves every {} s",
        args.moves, args.move_secs
    );
    println!("load average after: {}", load.trim());
    println!(
        "join burst: {:.1} s ({} at once)",
        r.join_time.as_secs_f64(),
        args.join_parallel
    );
    println!(
        "move → last spectator: p50 {:?}, p99 {:?}, max {:?} (over {} moves)",
        Report::pct(&r.to_last, 0.5),
        Report::pct(&r.to_last, 0.99),
        r.to_last.last().copied().unwrap_or_default(),
        r.to_last.len()
    );
    println!(
        "move → each spectator: p50 {:?}, p99 {:?} (over {} deliveries)",
        Report::pct(&r.each, 0.5),
        Report::pct(&r.each, 0.99),
        r.each.len()
    );
    let d = r.deliveries.max(1) as f64;
    println!(
        "bytes per spectator per move: {:.1} (move deltas); {:.1} (everything after the join)",
        r.delivery_bytes as f64 / d,
        r.all_bytes as f64 / d
    );
    if let Some(s) = &r.server {
        let cpu = |a: &muster_tests::proc_stats::ProcSample,
                   b: &muster_tests::proc_stats::ProcSample| {
            (b.user_s - a.user_s, b.system_s - a.system_s)
        };
        let (ju, js) = cpu(&s.before_join, &s.joined);
        let (pu, ps) = cpu(&s.joined, &s.played);
        println!(
            "server CPU, join burst: {:.2} s ({:.0} µs per spectator)",
            ju + js,
            (ju + js) * 1e6 / spectators.max(1) as f64
        );
        println!(
            "server CPU, play: {:.2} s ({:.2} user, {:.2} kernel): {:.1} µs per spectator delivery \
             ({:.1} user, {:.1} kernel)",
            pu + ps,
            pu,
            ps,
            (pu + ps) * 1e6 / d,
            pu * 1e6 / d,
            ps * 1e6 / d
        );
        println!(
            "server RSS: {} MiB before the join, {} MiB joined ({:.1} KiB per spectator), {} MiB at the end",
            s.before_join.rss_kib / 1024,
            s.joined.rss_kib / 1024,
            s.joined.rss_kib.saturating_sub(s.before_join.rss_kib) as f64
                / spectators.max(1) as f64,
            s.played.rss_kib / 1024
        );
    }
    for e in &r.errors {
        println!("error: {e}");
    }
    r.errors.is_empty()
}

/// `rounds` rounds of a WebSocket then a QUIC join burst of `n` and its
/// reconnect burst, against the same server; then the medians per
/// transport and their ratios (QUIC / WebSocket).
async fn bursts(t: &Target, tables: &[TableId], n: usize, rounds: usize, pid: u32) {
    use muster_tests::burst::{self, BurstFigures, ms};
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(0.0)
    };
    // [transport][join, reconnect] → the rounds' figures.
    let mut seen: [[Vec<BurstFigures>; 2]; 2] = Default::default();
    for round in 0..rounds {
        for (i, quic) in [false, true].into_iter().enumerate() {
            let name = if quic { "QUIC" } else { "WebSocket" };
            let (joined, clients) = burst::join(t, quic, tables, n, pid).await;
            println!("round {round} {name} join burst of {n}: {joined}");
            let (back, clients) = burst::reconnect(t, quic, clients, pid).await;
            println!("round {round} {name} reconnect burst: {back}");
            burst::close(clients).await;
            seen[i][0].push(joined);
            seen[i][1].push(back);
            // Let the server retire the closed connections.
            tokio::time::sleep(Duration::from_secs(2)).await;
        }
    }
    println!("load average now: {}", load_average());
    for (k, what) in ["join", "reconnect"].into_iter().enumerate() {
        let mut rows = Vec::new();
        for (i, name) in ["WebSocket", "QUIC"].into_iter().enumerate() {
            let figs = &seen[i][k];
            let all_in = median(&mut figs.iter().map(|f| ms(f.all_in)).collect());
            let p50 = median(&mut figs.iter().map(|f| ms(f.p50)).collect());
            let p99 = median(&mut figs.iter().map(|f| ms(f.p99)).collect());
            let cpu = median(&mut figs.iter().map(|f| f.server_cpu_s * 1e3).collect());
            let failed: usize = figs.iter().map(|f| f.failed).sum();
            println!(
                "{what} bursts, {name}, median of {rounds}: all-in {all_in:.0} ms, \
                 p50 {p50:.1} ms, p99 {p99:.1} ms, server CPU {cpu:.0} ms, {failed} failed"
            );
            rows.push([all_in, p50, p99, cpu]);
        }
        let r = |j: usize| rows[1][j] / rows[0][j].max(1e-9);
        println!(
            "{what} bursts, QUIC / WebSocket: all-in {:.2}×, p50 {:.2}×, p99 {:.2}×, server CPU {:.2}×",
            r(0),
            r(1),
            r(2),
            r(3)
        );
    }
}

/// The 1, 5 and 15-minute load averages (the machine may be shared).
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}
