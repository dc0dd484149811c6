//! The measurements: steady play, join and reconnect bursts, and the step
//! search for tables per core. Every loop here is bounded in count and time.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use anyhow::{Result, anyhow};
use futures_util::StreamExt;
use futures_util::stream;
use serde::Serialize;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio::time::{Instant, sleep, sleep_until, timeout};

use crate::server::Server;
use crate::target::{Client, Event, Meter, Role, Seen, Target};

/// How long any one join or reconnect may take before it counts as failed.
const JOIN_TIMEOUT: Duration = Duration::from_secs(30);
/// Tables being set up at once (seat 0 first, then the rest of the table).
const SETUP_PARALLEL: usize = 32;

#[derive(Clone, Debug)]
pub struct Shape {
    pub tables: usize,
    pub spectators: usize,
    /// Moves per second per table (seats alternate).
    pub rate: f64,
    pub warmup: Duration,
    pub window: Duration,
}

#[derive(Serialize, Debug, Default, Clone)]
pub struct PlayResult {
    pub tables: usize,
    pub spectators: usize,
    pub clients: usize,
    pub rate_per_table: f64,
    pub window_s: f64,
    pub setup_s: f64,
    pub setup_errors: u64,
    /// Moves started (scheduled) inside the window.
    pub moves: u64,
    /// Of those, moves every spectator of the table received in time.
    pub delivered: u64,
    pub expected_moves: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    /// Wire bytes read by clients (TCP payload: framing and keep-alive in).
    pub down_bytes_per_move_per_client: f64,
    pub up_bytes_per_move: f64,
    pub cpu_ms_per_move: f64,
    pub cpu_util: f64,
    pub rss_idle_mb: f64,
    pub rss_loaded_mb: f64,
    pub rss_kb_per_connection: f64,
    /// The driver's own CPU use in the window (one core = 1.0): near 1.0
    /// means the driver, not the server, may be what limits the run.
    pub driver_cpu_util: f64,
    pub bad_dice: u64,
    pub client_errors: u64,
}

#[derive(Serialize, Debug, Default, Clone)]
pub struct BurstResult {
    pub clients: usize,
    pub ok: usize,
    pub failed: usize,
    pub wall_ms: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub first_error: Option<String>,
}

/// Shared between every task of a run.
#[derive(Default)]
struct Tally {
    measuring: AtomicBool,
    lat_us: Mutex<Vec<u64>>,
    moves: AtomicU64,
    delivered: AtomicU64,
    bad_dice: AtomicU64,
    errors: AtomicU64,
    first_error: Mutex<Option<String>>,
}

impl Tally {
    fn error(&self, e: &anyhow::Error) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        let mut f = self.first_error.lock().unwrap();
        if f.is_none() {
            *f = Some(format!("{e:#}"));
        }
    }
}

struct Pending {
    start: Instant,
    remaining: usize,
    max: Duration,
    measured: bool,
}

/// Per table: moves in flight, keyed by the move count they produce.
struct Track {
    spectators: usize,
    pending: Mutex<HashMap<u64, Pending>>,
}

impl Track {
    fn begin(&self, produces: u64, start: Instant, tally: &Tally) {
        let measured = tally.measuring.load(Ordering::Relaxed);
        if measured {
            tally.moves.fetch_add(1, Ordering::Relaxed);
        }
        let p = Pending { start, remaining: self.spectators, max: Duration::ZERO, measured };
        self.pending.lock().unwrap().insert(produces, p);
    }

    fn arrive(&self, seen: Seen, now: Instant, tally: &Tally) {
        if !(1..=6).contains(&seen.die) {
            tally.bad_dice.fetch_add(1, Ordering::Relaxed);
        }
        let mut map = self.pending.lock().unwrap();
        let Some(p) = map.get_mut(&seen.moves) else { return };
        p.max = p.max.max(now.saturating_duration_since(p.start));
        p.remaining -= 1;
        if p.remaining == 0 {
            let p = map.remove(&seen.moves).unwrap();
            if p.measured {
                tally.delivered.fetch_add(1, Ordering::Relaxed);
                tally.lat_us.lock().unwrap().push(p.max.as_micros() as u64);
            }
        }
    }
}

/// Every table's clients, still connected.
pub struct Tables<T: Target> {
    pub tables: Vec<Arc<T::Table>>,
    pub clients: Vec<(Role, usize, T::Client, Seen)>,
    pub errors: u64,
    pub first_error: Option<String>,
}

/// Seat every table: seat 0 first (it may create the table), then seat 1 and
/// the spectators together; SETUP_PARALLEL tables at a time.
pub async fn setup<T: Target>(target: &Arc<T>, first: usize, n: usize, spectators: usize, meter: &Meter) -> Tables<T> {
    let tables: Vec<Arc<T::Table>> = (first..first + n).map(|i| Arc::new(target.table(i))).collect();
    let results: Vec<Result<Vec<(Role, usize, T::Client, Seen)>>> = stream::iter(tables.iter().cloned().enumerate())
        .map(|(i, table)| {
            let target = target.clone();
            let meter = meter.clone();
            async move {
                let (c0, s0) = timeout(JOIN_TIMEOUT, target.join(&table, Role::Player(0), meter.clone())).await??;
                let mut rest = vec![Role::Player(1)];
                rest.extend(std::iter::repeat_n(Role::Spectator, spectators));
                let joins = rest.into_iter().map(|role| {
                    let target = target.clone();
                    let table = table.clone();
                    let meter = meter.clone();
                    async move {
                        let (c, s) = timeout(JOIN_TIMEOUT, target.join(&table, role, meter)).await??;
                        anyhow::Ok((role, i, c, s))
                    }
                });
                let mut out = vec![(Role::Player(0), i, c0, s0)];
                for r in futures_util::future::join_all(joins).await {
                    out.push(r?);
                }
                Ok(out)
            }
        })
        .buffer_unordered(SETUP_PARALLEL)
        .collect()
        .await;
    let mut t = Tables { tables, clients: Vec::new(), errors: 0, first_error: None };
    for r in results {
        match r {
            Ok(v) => t.clients.extend(v),
            Err(e) => {
                t.errors += 1;
                t.first_error.get_or_insert_with(|| format!("{e:#}"));
            }
        }
    }
    t
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)] as f64 / 1000.0
}

/// Play at a fixed rate on every seated table, measure for the window, then
/// stop playing (clients stay connected and are handed back).
pub async fn play<T: Target>(
    server: &Server,
    shape: &Shape,
    mut tables: Tables<T>,
    meter: &Meter,
    idle: crate::server::Usage,
) -> Result<(PlayResult, Tables<T>)> {
    let tally = Arc::new(Tally::default());
    let tracks: Vec<Arc<Track>> = (0..tables.tables.len())
        .map(|_| Arc::new(Track { spectators: shape.spectators, pending: Mutex::new(HashMap::new()) }))
        .collect();
    let (stop_tx, stop_rx) = watch::channel(false);
    let interval = Duration::from_secs_f64(1.0 / shape.rate);
    let t0 = Instant::now() + Duration::from_millis(300);
    let n_tables = tables.tables.len().max(1);
    let mut tasks: Vec<JoinHandle<(Role, usize, T::Client, Seen)>> = Vec::new();
    for (role, i, mut client, mut seen) in tables.clients.drain(..) {
        let track = tracks[i].clone();
        let tally = tally.clone();
        let mut stop = stop_rx.clone();
        // Tables spread evenly over one interval, so load is smooth.
        let phase = interval.mul_f64(i as f64 / n_tables as f64);
        tasks.push(tokio::spawn(async move {
            let base = seen.moves;
            let mut sent_for: Option<u64> = None;
            // Bounded by the stop signal; the driver always sends it.
            loop {
                let my_turn = match role {
                    Role::Player(s) => seen.moves % 2 == s as u64 && sent_for != Some(seen.moves),
                    Role::Spectator => false,
                };
                let at = t0 + phase + interval.mul_f64((seen.moves - base) as f64);
                tokio::select! {
                    biased;
                    _ = stop.changed() => break,
                    ev = client.recv() => match ev {
                        Ok(Event::State(s)) => {
                            if role == Role::Spectator && s.moves > seen.moves {
                                track.arrive(s, Instant::now(), &tally);
                            }
                            if s.moves >= seen.moves { seen = s; }
                        }
                        Ok(Event::Other) => {}
                        Err(e) => { tally.error(&e); break; }
                    },
                    _ = sleep_until(at), if my_turn => {
                        let k = seen.moves;
                        // Latency runs from when the move was due, not when it
                        // left: a server that holds back a result also holds
                        // back the next move, and that wait counts.
                        track.begin(k + 1, at, &tally);
                        let hex = (((k * 7) % 20) as u8, ((k * 3) % 20) as u8);
                        if let Err(e) = client.send_move(hex).await { tally.error(&e); break; }
                        sent_for = Some(k);
                    }
                }
            }
            (role, i, client, seen)
        }));
    }

    sleep_until(t0 + shape.warmup).await;
    let u1 = server.usage()?;
    let own1 = crate::server::own_cpu_s();
    let (d1, up1) = (meter.down(), meter.up());
    tally.measuring.store(true, Ordering::Relaxed);
    let w0 = Instant::now();
    sleep(shape.window).await;
    tally.measuring.store(false, Ordering::Relaxed);
    let window = w0.elapsed();
    let u2 = server.usage()?;
    let own2 = crate::server::own_cpu_s();
    let (d2, up2) = (meter.down(), meter.up());
    // Moves started in the window get up to 2 s more to arrive.
    sleep(Duration::from_secs(2)).await;
    let _ = stop_tx.send(true);
    for t in tasks {
        match timeout(Duration::from_secs(10), t).await {
            Ok(Ok(c)) => tables.clients.push(c),
            _ => {
                tally.errors.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    let mut lat = std::mem::take(&mut *tally.lat_us.lock().unwrap());
    lat.sort_unstable();
    let moves = tally.moves.load(Ordering::Relaxed);
    let clients = tables.tables.len() * (2 + shape.spectators);
    let per_move = |x: f64| if moves == 0 { f64::NAN } else { x / moves as f64 };
    // A move some spectator never got counts as over any bound.
    let delivered = tally.delivered.load(Ordering::Relaxed);
    let mut p99 = percentile(&lat, 0.99);
    if moves > 0 && (moves - delivered.min(moves)) as f64 > 0.01 * moves as f64 {
        p99 = f64::INFINITY;
    }
    let connections = tables.clients.len().max(1);
    let r = PlayResult {
        tables: tables.tables.len(),
        spectators: shape.spectators,
        clients,
        rate_per_table: shape.rate,
        window_s: window.as_secs_f64(),
        setup_s: 0.0,
        setup_errors: tables.errors,
        moves,
        delivered,
        expected_moves: tables.tables.len() as f64 * shape.rate * window.as_secs_f64(),
        p50_ms: percentile(&lat, 0.50),
        p99_ms: p99,
        max_ms: lat.last().map(|v| *v as f64 / 1000.0).unwrap_or(f64::NAN),
        down_bytes_per_move_per_client: per_move((d2 - d1) as f64) / (2 + shape.spectators) as f64,
        up_bytes_per_move: per_move((up2 - up1) as f64),
        cpu_ms_per_move: per_move((u2.cpu_s - u1.cpu_s) * 1000.0),
        cpu_util: (u2.cpu_s - u1.cpu_s) / window.as_secs_f64(),
        rss_idle_mb: idle.rss as f64 / 1048576.0,
        rss_loaded_mb: u2.rss as f64 / 1048576.0,
        rss_kb_per_connection: (u2.rss as f64 - idle.rss as f64) / 1024.0 / connections as f64,
        driver_cpu_util: (own2 - own1) / window.as_secs_f64(),
        bad_dice: tally.bad_dice.load(Ordering::Relaxed),
        client_errors: tally.errors.load(Ordering::Relaxed),
    };
    if let Some(e) = tally.first_error.lock().unwrap().clone() {
        eprintln!("  first client error: {e}");
    }
    Ok((r, tables))
}

/// `n` spectators join existing tables (round robin) all at once.
pub async fn join_burst<T: Target>(target: &Arc<T>, tables: &[Arc<T::Table>], n: usize, meter: &Meter) -> (BurstResult, Vec<T::Client>) {
    let start = Instant::now();
    let tasks: Vec<_> = (0..n)
        .map(|k| {
            let target = target.clone();
            let table = tables[k % tables.len()].clone();
            let meter = meter.clone();
            tokio::spawn(async move {
                let t = Instant::now();
                let r = timeout(JOIN_TIMEOUT, target.join(&table, Role::Spectator, meter)).await;
                (t.elapsed(), r.map_err(|_| anyhow!("join timed out")).and_then(|r| r))
            })
        })
        .collect();
    let mut lat = Vec::new();
    let mut clients = Vec::new();
    let mut r = BurstResult { clients: n, ..Default::default() };
    for t in tasks {
        // Each task is bounded by JOIN_TIMEOUT; this bounds a lost one too.
        let Ok(t) = timeout(JOIN_TIMEOUT + Duration::from_secs(5), t).await else {
            r.failed += 1;
            r.first_error.get_or_insert_with(|| "a join task never ended".into());
            continue;
        };
        match t {
            Ok((d, Ok((c, _)))) => {
                lat.push(d.as_micros() as u64);
                clients.push(c);
            }
            Ok((_, Err(e))) => {
                r.failed += 1;
                r.first_error.get_or_insert_with(|| format!("{e:#}"));
            }
            Err(e) => {
                r.failed += 1;
                r.first_error.get_or_insert_with(|| format!("{e}"));
            }
        }
    }
    r.wall_ms = start.elapsed().as_secs_f64() * 1000.0;
    lat.sort_unstable();
    r.ok = lat.len();
    r.p50_ms = percentile(&lat, 0.5);
    r.p99_ms = percentile(&lat, 0.99);
    (r, clients)
}

/// Every client drops its connection and comes back, all at once.
pub async fn reconnect_burst<C: Client>(clients: Vec<C>) -> (BurstResult, Vec<C>) {
    let n = clients.len();
    let start = Instant::now();
    let tasks: Vec<_> = clients
        .into_iter()
        .map(|mut c| {
            tokio::spawn(async move {
                let t = Instant::now();
                let r = timeout(JOIN_TIMEOUT, c.reconnect()).await;
                (t.elapsed(), r.map_err(|_| anyhow!("reconnect timed out")).and_then(|r| r), c)
            })
        })
        .collect();
    let mut lat = Vec::new();
    let mut back = Vec::new();
    let mut r = BurstResult { clients: n, ..Default::default() };
    for t in tasks {
        let Ok(t) = timeout(JOIN_TIMEOUT + Duration::from_secs(5), t).await else {
            r.failed += 1;
            r.first_error.get_or_insert_with(|| "a reconnect task never ended".into());
            continue;
        };
        match t {
            Ok((d, Ok(_), c)) => {
                lat.push(d.as_micros() as u64);
                back.push(c);
            }
            Ok((_, Err(e), _)) => {
                r.failed += 1;
                r.first_error.get_or_insert_with(|| format!("{e:#}"));
            }
            Err(e) => {
                r.failed += 1;
                r.first_error.get_or_insert_with(|| format!("{e}"));
            }
        }
    }
    r.wall_ms = start.elapsed().as_secs_f64() * 1000.0;
    lat.sort_unstable();
    r.ok = lat.len();
    r.p50_ms = percentile(&lat, 0.5);
    r.p99_ms = percentile(&lat, 0.99);
    (r, back)
}
