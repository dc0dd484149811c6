//! A featured table (issue 22): one table, two seats and many spectators
//! (an event's final), one move every few seconds. Spectators join in a
//! bounded burst first; then the first seat plays a bounded number of the
//! benchmark's moves (a counter moved to a hex and a d6 rolled, one
//! `MoveRoll`), and every spectator's arrival of every move is recorded.
//!
//! Used by `muster-load --featured N` (against a server process, whose CPU
//! it divides by the deliveries) and by `tests/tests/featured_table.rs`
//! (a smaller table in CI). Every wait is bounded; any connection error,
//! refusal, resync or missing delivery is reported, never waited out.

use crate::e2e::{Target, sandbox_table};
use crate::proc_stats::{ProcSample, proc_stat};
use bytes::Bytes;
use muster_client::Connection;
use muster_shared::SeatId;
use muster_shared::codec;
use muster_shared::dice::{HashChain, SeatLink};
use muster_shared::protocol::{ClientMsg, ServerMsg, TableId};
use muster_shared::sandbox::{Loc, PieceId, Position, SandboxAction};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// What to run.
#[derive(Clone, Debug)]
pub struct Featured {
    /// Spectators of the one table.
    pub spectators: usize,
    /// Of them, this many connect over QUIC (on `quic_endpoints`, shared),
    /// the rest over WebSocket.
    pub quic_spectators: usize,
    /// Moves the first seat plays.
    pub moves: u32,
    /// Time between two moves.
    pub interval: Duration,
    /// Spectators joining at once during the join burst.
    pub join_parallel: usize,
    /// The whole join burst must end within this.
    pub join_limit: Duration,
    /// After the last move, how long every spectator has to receive it.
    pub drain_limit: Duration,
    /// The server's process, when it is one: its CPU and RSS are sampled
    /// from /proc around the join burst and the play.
    pub server_pid: Option<u32>,
}

/// The server process sampled at the phases' edges.
pub struct ServerSamples {
    pub before_join: ProcSample,
    pub joined: ProcSample,
    /// After the last move reached every spectator (or the drain ended).
    pub played: ProcSample,
}

/// What was measured.
pub struct Report {
    pub join_time: Duration,
    /// Per move: its send to its arrival at the last spectator.
    pub to_last: Vec<Duration>,
    /// Per delivery (spectator × move): the move's send to that arrival.
    pub each: Vec<Duration>,
    /// Deltas of the moves that reached spectators (should be spectators × moves).
    pub deliveries: u64,
    /// Bytes of those deltas (the frames' payloads).
    pub delivery_bytes: u64,
    /// Bytes of every frame spectators received after the join (deltas of
    /// the moves and anything else).
    pub all_bytes: u64,
    /// Every failure seen: connects, refusals, resyncs, missing deltas.
    pub errors: Vec<String>,
    /// When play started and ended (for the caller's CPU sampling).
    pub play_started: Instant,
    pub play_ended: Instant,
    pub server: Option<ServerSamples>,
}

impl Report {
    /// `p` (0..=1) of a sorted list.
    pub fn pct(sorted: &[Duration], p: f64) -> Duration {
        sorted
            .get(((sorted.len().max(1) - 1) as f64 * p).round() as usize)
            .copied()
            .unwrap_or_default()
    }
}

fn hex(col: u16, row: u16) -> Position {
    Position {
        board: 0,
        loc: Loc::Hex { col, row },
    }
}

/// One spectator's reading: each delta's (seq, arrival in ns since `t0`,
/// payload bytes), all bytes, and the last error.
struct Watch {
    arrivals: Vec<(u64, u64, u64)>,
    bytes: u64,
    error: Option<String>,
}

/// Read until told to stop; record every delta's arrival.
async fn watch(
    mut c: Connection,
    t0: Instant,
    mut stop: tokio::sync::watch::Receiver<bool>,
    moves: u32,
    delivered: Arc<AtomicU64>,
) -> Watch {
    let mut w = Watch {
        arrivals: Vec::with_capacity(moves as usize + 4),
        bytes: 0,
        error: None,
    };
    loop {
        let b = tokio::select! {
            r = c.recv_bytes() => match r {
                Ok(b) => b,
                Err(e) => {
                    w.error = Some(format!("spectator connection: {e}"));
                    break;
                }
            },
            _ = stop.changed() => break,
        };
        let at = t0.elapsed().as_nanos() as u64;
        w.bytes += b.len() as u64;
        match ServerMsg::decode(&b) {
            Ok(ServerMsg::Delta { seq, .. }) => {
                w.arrivals.push((seq, at, b.len() as u64));
                delivered.fetch_add(1, Relaxed);
            }
            Ok(ServerMsg::Error { code, message, .. }) => {
                w.error = Some(format!("spectator got {code:?}: {message}"));
            }
            Ok(_) => {}
            Err(e) => w.error = Some(format!("spectator got an undecodable frame: {e}")),
        }
    }
    c.close().await;
    w
}

async fn connect(
    t: &Target,
    quic: Option<&quinn::Endpoint>,
    name: &str,
) -> Result<Connection, String> {
    let mut opts = t.options();
    opts.quic_endpoint = quic.cloned();
    let mut c = Connection::connect(t.url(quic.is_some()), &opts)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    c.sign_in_guest(name)
        .await
        .map_err(|e| format!("sign in: {e}"))?;
    Ok(c)
}

/// Wait for the snapshot after a join; refusals are errors.
async fn snapshot(c: &mut Connection) -> Result<(), String> {
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let left = until.saturating_duration_since(Instant::now());
        match c.recv_timeout(left).await {
            Ok(ServerMsg::Snapshot(_)) => return Ok(()),
            Ok(ServerMsg::Error { message, .. }) => return Err(format!("refused: {message}")),
            Ok(_) => {}
            Err(e) => return Err(format!("waiting for the snapshot: {e}")),
        }
    }
}

/// Send an action and wait for its `Accepted` (within 30 s); its seq.
async fn act(
    c: &mut Connection,
    table: TableId,
    client_ref: u32,
    action: &SandboxAction,
    links: Vec<SeatLink>,
) -> Result<u64, String> {
    let msg = ClientMsg::Act {
        table,
        client_ref,
        action: codec::encode_infallible(action),
        links,
    };
    c.send_raw(Bytes::from(codec::encode_infallible(&msg)))
        .await
        .map_err(|e| format!("send a move: {e}"))?;
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let left = until.saturating_duration_since(Instant::now());
        match c.recv_timeout(left).await {
            Ok(ServerMsg::Accepted {
                client_ref: r, seq, ..
            }) if r == client_ref => return Ok(seq),
            Ok(m @ (ServerMsg::Rejected { .. } | ServerMsg::Error { .. })) => {
                return Err(format!("the move was refused: {m:?}"));
            }
            Ok(_) => {}
            Err(e) => return Err(format!("waiting for the move's answer: {e}")),
        }
    }
}

/// The open-file limit (soft) of this process, from /proc.
pub fn open_file_limit() -> Option<u64> {
    std::fs::read_to_string("/proc/self/limits")
        .ok()?
        .lines()
        .find(|l| l.starts_with("Max open files"))?
        .split_whitespace()
        .nth(3)?
        .parse()
        .ok()
}

/// The ephemeral port range's size, from /proc.
pub fn ephemeral_ports() -> Option<u64> {
    let r = std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range").ok()?;
    let mut it = r.split_whitespace().map(|v| v.parse::<u64>().ok());
    let (lo, hi) = (it.next()??, it.next()??);
    Some(hi.saturating_sub(lo) + 1)
}

/// Run a featured table against the server at `t`.
pub async fn run(t: &Target, f: &Featured, quic_endpoints: &[quinn::Endpoint]) -> Report {
    let mut errors = Vec::new();
    // The table: seat 0 creates it, places the counter it will move, and
    // publishes its dice chain; seat 1 sits and only reads.
    let mut a = connect(t, None, "featured a").await.expect("seat 0");
    a.send(&ClientMsg::CreateTable {
        options: sandbox_table(false, 0),
    })
    .await
    .expect("create");
    let table = loop {
        match a
            .recv_timeout(Duration::from_secs(30))
            .await
            .expect("table")
        {
            ServerMsg::TableCreated { table, .. } => break table,
            ServerMsg::Error { message, .. } => panic!("table refused: {message}"),
            _ => {}
        }
    };
    a.send(&ClientMsg::JoinSeat {
        table,
        seat: Some(SeatId(0)),
        invite: None,
    })
    .await
    .expect("sit");
    snapshot(&mut a).await.expect("seat 0 snapshot");
    let chain = HashChain::generate(4096);
    a.send(&ClientMsg::PublishAnchor {
        table,
        anchor: chain.anchor(),
    })
    .await
    .expect("anchor");
    let mut b = connect(t, None, "featured b").await.expect("seat 1");
    b.send(&ClientMsg::JoinSeat {
        table,
        seat: Some(SeatId(1)),
        invite: None,
    })
    .await
    .expect("sit");
    snapshot(&mut b).await.expect("seat 1 snapshot");
    let place = SandboxAction::Place {
        at: hex(0, 0),
        label: "counter".into(),
        owner: None,
        face_up: true,
        hidden: false,
    };
    let piece = PieceId(
        act(&mut a, table, 1, &place, Vec::new())
            .await
            .expect("place"),
    );

    // The join burst: `join_parallel` at a time, bounded as a whole.
    let sample = || f.server_pid.map(proc_stat);
    let before_join = sample();
    let t0 = Instant::now();
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let gate = Arc::new(tokio::sync::Semaphore::new(f.join_parallel.max(1)));
    let joined = Arc::new(AtomicU64::new(0));
    // Move deltas received by spectators in all (to end the drain early).
    let delivered = Arc::new(AtomicU64::new(0));
    let mut joins = Vec::with_capacity(f.spectators);
    for i in 0..f.spectators {
        let (t, gate, joined) = (t.clone(), gate.clone(), joined.clone());
        let quic = (i < f.quic_spectators)
            .then(|| quic_endpoints.get(i % quic_endpoints.len().max(1)).cloned())
            .flatten();
        joins.push(tokio::spawn(async move {
            let _permit = gate.acquire().await;
            let mut c = connect(&t, quic.as_ref(), &format!("watcher {i}")).await?;
            c.send(&ClientMsg::Spectate {
                table,
                invite: None,
            })
            .await
            .map_err(|e| format!("spectate: {e}"))?;
            snapshot(&mut c).await?;
            joined.fetch_add(1, Relaxed);
            Ok::<Connection, String>(c)
        }));
    }
    let join_deadline = tokio::time::Instant::now() + f.join_limit;
    let mut watchers = Vec::with_capacity(f.spectators);
    for j in joins {
        match tokio::time::timeout_at(join_deadline, j).await {
            Ok(Ok(Ok(c))) => {
                watchers.push(tokio::spawn(watch(
                    c,
                    t0,
                    stop_rx.clone(),
                    f.moves,
                    delivered.clone(),
                )));
            }
            Ok(Ok(Err(e))) => errors.push(e),
            Ok(Err(e)) => errors.push(format!("a join task failed: {e}")),
            Err(_) => {
                errors.push(format!(
                    "the join burst took over {:?} ({} of {} joined)",
                    f.join_limit,
                    joined.load(Relaxed),
                    f.spectators
                ));
                break;
            }
        }
    }
    let join_time = t0.elapsed();
    // Seat 1 reads too (its deltas are not counted).
    let seat_b = tokio::spawn(watch(b, t0, stop_rx.clone(), f.moves, Arc::default()));

    // Play: one move per interval.
    let joined_sample = sample();
    let play_started = Instant::now();
    let mut sent: Vec<(u64, u64)> = Vec::new();
    let mut tick = tokio::time::interval(f.interval);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    if errors.is_empty() {
        for m in 1..=f.moves {
            tick.tick().await;
            let to = hex((m % 40) as u16, ((m / 40) % 30) as u16);
            let mv = SandboxAction::MoveRoll {
                pieces: vec![piece],
                to,
                count: 1,
                sides: 6,
            };
            let links = vec![SeatLink {
                seat: SeatId(0),
                index: m,
                link: chain.link(m).expect("a link"),
            }];
            let at = t0.elapsed().as_nanos() as u64;
            match act(&mut a, table, m + 1, &mv, links).await {
                Ok(seq) => sent.push((seq, at)),
                Err(e) => {
                    errors.push(e);
                    break;
                }
            }
        }
    }
    let play_ended = Instant::now();

    // Every spectator has `drain_limit` to receive every move.
    let want = sent.len() as u64 * watchers.len() as u64;
    let drain_until = Instant::now() + f.drain_limit;
    while delivered.load(Relaxed) < want && Instant::now() < drain_until {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let played = sample();
    let _ = stop_tx.send(true);

    let mut to_last_ns: Vec<u64> = vec![0; sent.len()];
    let mut got: Vec<u64> = vec![0; sent.len()];
    let mut each = Vec::with_capacity(want as usize);
    let (mut deliveries, mut delivery_bytes, mut all_bytes) = (0u64, 0u64, 0u64);
    let mut watch_errors = 0usize;
    for w in watchers {
        let w = match w.await {
            Ok(w) => w,
            Err(e) => {
                errors.push(format!("a watcher failed: {e}"));
                continue;
            }
        };
        if let Some(e) = w.error {
            watch_errors += 1;
            if watch_errors <= 5 {
                errors.push(e);
            }
        }
        all_bytes += w.bytes;
        for (seq, at, len) in w.arrivals {
            if let Ok(k) = sent.binary_search_by_key(&seq, |s| s.0) {
                delivery_bytes += len;
                let ns = at.saturating_sub(sent[k].1);
                to_last_ns[k] = to_last_ns[k].max(ns);
                got[k] += 1;
                deliveries += 1;
                each.push(Duration::from_nanos(ns));
            }
        }
    }
    let _ = seat_b.await;
    if watch_errors > 5 {
        errors.push(format!("… {} spectators in all had an error", watch_errors));
    }
    for (k, n) in got.iter().enumerate() {
        if (*n as usize) < f.spectators {
            errors.push(format!(
                "move {} reached {} of {} spectators",
                k + 1,
                n,
                f.spectators
            ));
        }
    }
    let mut to_last: Vec<Duration> = to_last_ns.into_iter().map(Duration::from_nanos).collect();
    to_last.sort();
    each.sort();
    a.close().await;
    Report {
        join_time,
        to_last,
        each,
        deliveries,
        delivery_bytes,
        all_bytes,
        errors,
        play_started,
        play_ended,
        server: match (before_join, joined_sample, played) {
            (Some(before_join), Some(joined), Some(played)) => Some(ServerSamples {
                before_join,
                joined,
                played,
            }),
            _ => None,
        },
    }
}
