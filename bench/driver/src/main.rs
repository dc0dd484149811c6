//! bench-driver: the client side of Muster's side-by-side load benchmark.
//!
//! `bench-driver run --target bgio|colyseus|muster-ws|muster-quic ...` starts
//! the server under test itself (so it can restart it for every step of the
//! tables-per-core search and read its /proc entries), runs every scenario,
//! and writes one JSON file. `bench-driver report` turns those files into
//! bench/RESULTS.md. bench/run.sh drives both.

mod bgio;
mod colyseus;
mod count;
mod http;
mod limits;
mod muster;
mod report;
mod scenario;
mod server;
mod target;

use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context as _, Result, bail};
use clap::{Parser, Subcommand};
use serde::Serialize;

use scenario::{BurstResult, PlayResult, Shape};
use server::Server;
use target::{Meter, Target};

#[derive(Parser)]
#[command(about = "Side-by-side load driver for Muster, boardgame.io and Colyseus")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Measure one server configuration.
    Run(RunArgs),
    /// Write RESULTS.md from the JSON files of `run`.
    Report(report::ReportArgs),
}

#[derive(Parser, Clone)]
struct RunArgs {
    /// bgio | colyseus | muster-ws | muster-quic
    #[arg(long)]
    target: String,
    /// Row label in RESULTS.md, e.g. "boardgame.io deltaState=off".
    #[arg(long)]
    label: String,
    /// "default" or "low": the keep-alive setting the server was started with
    /// (for the report; the server reads its own env).
    #[arg(long, default_value = "default")]
    keepalive: String,
    /// Server address (loopback only).
    #[arg(long)]
    addr: String,
    /// Muster only: the QUIC address (UDP); `--addr` is the WebSocket one,
    /// which is also where readiness is checked.
    #[arg(long)]
    quic_addr: Option<String>,
    /// Command that starts the server (run with `sh -c exec`).
    #[arg(long)]
    server_cmd: String,
    #[arg(long, default_value = ".")]
    server_cwd: String,
    /// KEY=VALUE for the server's environment; repeatable.
    #[arg(long = "env")]
    env: Vec<String>,
    /// Where the server's output goes.
    #[arg(long, default_value = "/tmp/bench-server.log")]
    server_log: String,
    #[arg(long, default_value_t = 50)]
    tables: usize,
    #[arg(long, default_value_t = 4)]
    spectators: usize,
    /// Moves per second per table.
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    #[arg(long, default_value_t = 3.0)]
    warmup: f64,
    #[arg(long, default_value_t = 20.0)]
    window: f64,
    /// Joins (and then reconnects) in one burst; 0 skips the bursts.
    #[arg(long, default_value_t = 1000)]
    burst: usize,
    /// First step of the tables-per-core search; 0 skips the search.
    #[arg(long, default_value_t = 0)]
    search_start: usize,
    #[arg(long, default_value_t = 2000)]
    search_max: usize,
    #[arg(long, default_value_t = 7)]
    search_steps: usize,
    #[arg(long, default_value_t = 8.0)]
    step_window: f64,
    /// p99 bound for the search, ms.
    #[arg(long, default_value_t = 50.0)]
    p99_bound: f64,
    /// Cores the server is pinned to (for "tables per core").
    #[arg(long, default_value_t = 1)]
    server_cores: usize,
    #[arg(long)]
    out: String,
}

#[derive(Serialize, Default)]
struct RunResult {
    target: String,
    label: String,
    keepalive: String,
    server_cores: usize,
    steady: Option<PlayResult>,
    join_burst: Option<BurstResult>,
    reconnect_burst: Option<BurstResult>,
    search: Vec<PlayResult>,
    tables_per_core: Option<f64>,
    search_note: String,
    error: Option<String>,
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.cmd {
        Cmd::Report(a) => report::write(&a),
        Cmd::Run(a) => {
            // Fail fast: a panic anywhere (a client task included) ends the
            // run at once with a non-zero status, instead of leaving the
            // driver waiting for a task that is gone.
            let default_hook = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                default_hook(info);
                eprintln!("bench-driver: a task panicked; stopping the run");
                std::process::exit(70);
            }));
            let fits = limits::check(&a)?;
            eprintln!("{fits}");
            // One worker: bench/run.sh pins the driver to its own core.
            let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build()?;
            let failed = rt.block_on(run(a))?;
            if let Some(why) = failed {
                eprintln!("bench-driver: {why}");
                std::process::exit(1);
            }
            Ok(())
        }
    }
}

/// Runs one configuration and writes its JSON; `Some(why)` when any
/// client failed (the caller then exits non-zero).
async fn run(a: RunArgs) -> Result<Option<String>> {
    let mut out = RunResult {
        target: a.target.clone(),
        label: a.label.clone(),
        keepalive: a.keepalive.clone(),
        server_cores: a.server_cores,
        ..Default::default()
    };
    let r = match a.target.as_str() {
        "bgio" => {
            let addr = a.addr.clone();
            measure(&a, &mut out, move |run| Ok(bgio::Bgio { addr: addr.clone(), run })).await
        }
        "colyseus" => {
            let addr = a.addr.clone();
            measure(&a, &mut out, move |_| Ok(colyseus::Colyseus { addr: addr.clone() })).await
        }
        "muster-ws" | "muster-quic" => {
            let (ws, log) = (a.addr.clone(), a.server_log.clone());
            let quic = a.quic_addr.clone().unwrap_or_default();
            let transport = if a.target == "muster-ws" { muster::Transport::Ws } else { muster::Transport::Quic };
            // The clients' keep-alive: Ping every 15 s by default (what the
            // server's config documents), every 600 s when turned down.
            let ping = Duration::from_secs(if a.keepalive == "low" { 600 } else { 15 });
            measure(&a, &mut out, move |run| muster::Muster::new(transport, &ws, &quic, &log, ping, run)).await
        }
        t => bail!("unknown target {t}"),
    };
    if let Err(e) = r {
        eprintln!("{}: {e:#}", a.label);
        out.error = Some(format!("{e:#}"));
    }
    std::fs::write(&a.out, serde_json::to_string_pretty(&out)?).with_context(|| format!("write {}", a.out))?;
    Ok(client_failures(&out))
}

/// Any client error in the steady run or the bursts, or a run that
/// stopped with an error. (A search step that fails, client errors
/// included, is the search's answer, not a failed run.)
fn client_failures(out: &RunResult) -> Option<String> {
    if let Some(e) = &out.error {
        return Some(format!("the run stopped: {e}"));
    }
    let mut why = Vec::new();
    if let Some(s) = &out.steady {
        if s.client_errors > 0 || s.setup_errors > 0 || s.bad_dice > 0 {
            why.push(format!(
                "steady run: {} client errors, {} tables not seated, {} bad dice",
                s.client_errors, s.setup_errors, s.bad_dice
            ));
        }
    }
    for (name, b) in [("join burst", &out.join_burst), ("reconnect burst", &out.reconnect_burst)] {
        if let Some(b) = b
            && b.failed > 0
        {
            why.push(format!("{name}: {} of {} failed (first: {})", b.failed, b.clients, b.first_error.as_deref().unwrap_or("?")));
        }
    }
    (!why.is_empty()).then(|| why.join("; "))
}

fn env_pairs(a: &RunArgs) -> Result<Vec<(String, String)>> {
    a.env
        .iter()
        .map(|kv| kv.split_once('=').map(|(k, v)| (k.to_string(), v.to_string())).context("--env wants KEY=VALUE"))
        .collect()
}

async fn measure<T: Target, F: Fn(String) -> Result<T>>(a: &RunArgs, out: &mut RunResult, make: F) -> Result<()> {
    let env = env_pairs(a)?;
    let shape = Shape {
        tables: a.tables,
        spectators: a.spectators,
        rate: a.rate,
        warmup: Duration::from_secs_f64(a.warmup),
        window: Duration::from_secs_f64(a.window),
    };

    // 1. Steady play, then the bursts, on one server process.
    eprintln!("{}: steady {} tables x (2 + {}) at {}/s", a.label, a.tables, a.spectators, a.rate);
    let mut server = Server::start(&a.server_cmd, &a.server_cwd, &env, &a.addr, &a.server_log).await?;
    let res = async {
        let target = Arc::new(make(format!("s{}", std::process::id()))?);
        let idle = server.usage()?;
        let meter = Meter::default();
        let t = std::time::Instant::now();
        let tables = scenario::setup(&target, 0, shape.tables, shape.spectators, &meter).await;
        let setup_s = t.elapsed().as_secs_f64();
        if tables.clients.is_empty() {
            bail!("no table could be seated: {}", tables.first_error.unwrap_or_default());
        }
        if let Some(e) = &tables.first_error {
            eprintln!("  setup error: {e}");
        }
        let (mut steady, tables) = scenario::play(&server, &shape, tables, &meter, idle).await?;
        steady.setup_s = setup_s;
        eprintln!("  steady: {}", serde_json::to_string(&steady)?);
        out.steady = Some(steady);
        if a.burst > 0 {
            let (jb, clients) = scenario::join_burst(&target, &tables.tables, a.burst, &meter).await;
            eprintln!("  join burst: {}", serde_json::to_string(&jb)?);
            out.join_burst = Some(jb);
            sleep_s(1.0).await;
            let (rb, clients) = scenario::reconnect_burst(clients).await;
            eprintln!("  reconnect burst: {}", serde_json::to_string(&rb)?);
            out.reconnect_burst = Some(rb);
            drop(clients);
        }
        drop(tables);
        anyhow::Ok(())
    }
    .await;
    server.stop().await;
    res?;

    // 2. Tables per core: a fresh server per step; double, then bisect.
    if a.search_start > 0 {
        let step_shape = Shape { window: Duration::from_secs_f64(a.step_window), warmup: Duration::from_secs(2), ..shape.clone() };
        let (mut lo, mut hi): (usize, Option<usize>) = (0, None);
        let mut n = a.search_start.min(a.search_max);
        for step in 0..a.search_steps {
            eprintln!("{}: search step {step}: {n} tables", a.label);
            let r = step_once(a, &env, &make, n, &step_shape, step).await;
            let pass = match &r {
                Ok(r) => {
                    r.setup_errors == 0
                        && r.client_errors == 0
                        && r.p99_ms <= a.p99_bound
                        && r.moves as f64 >= 0.95 * r.expected_moves
                }
                Err(_) => false,
            };
            match r {
                Ok(r) => {
                    eprintln!("  {} tables: p50 {:.1} ms p99 {:.1} ms cpu {:.0}% -> {}", n, r.p50_ms, r.p99_ms, r.cpu_util * 100.0, if pass { "pass" } else { "fail" });
                    out.search.push(r);
                }
                Err(e) => eprintln!("  {n} tables: error {e:#}"),
            }
            if pass {
                lo = lo.max(n);
            } else {
                hi = Some(hi.map_or(n, |h| h.min(n)));
            }
            n = match hi {
                None if n >= a.search_max => break,
                None => (n * 2).min(a.search_max),
                Some(h) => {
                    if h <= lo + (lo / 10).max(5) {
                        break;
                    }
                    (lo + h) / 2
                }
            };
        }
        out.tables_per_core = Some(lo as f64 / a.server_cores as f64);
        out.search_note = match hi {
            Some(h) => format!("passes at {lo} tables, fails at {h}"),
            None if lo >= a.search_max => format!("passes at {lo} tables, the search cap; more is untested"),
            None => format!("passes at {lo} tables; no step failed within {} steps (a lower bound)", a.search_steps),
        };
    }
    Ok(())
}

async fn step_once<T: Target, F: Fn(String) -> Result<T>>(a: &RunArgs, env: &[(String, String)], make: &F, n: usize, shape: &Shape, step: usize) -> Result<PlayResult> {
    let mut server = Server::start(&a.server_cmd, &a.server_cwd, env, &a.addr, &a.server_log).await?;
    let r = async {
        let target = Arc::new(make(format!("p{}-{step}", std::process::id()))?);
        let idle = server.usage()?;
        let meter = Meter::default();
        let shape = Shape { tables: n, ..shape.clone() };
        let t = std::time::Instant::now();
        let tables = scenario::setup(&target, 0, n, shape.spectators, &meter).await;
        let setup_s = t.elapsed().as_secs_f64();
        if let Some(e) = &tables.first_error {
            eprintln!("  setup error: {e}");
        }
        let (mut r, tables) = scenario::play(&server, &shape, tables, &meter, idle).await?;
        r.setup_s = setup_s;
        drop(tables);
        anyhow::Ok(r)
    }
    .await;
    server.stop().await;
    r
}

async fn sleep_s(s: f64) {
    tokio::time::sleep(Duration::from_secs_f64(s)).await
}
