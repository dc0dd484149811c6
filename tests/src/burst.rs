//! Join and reconnect bursts for the load harness (`muster-load --burst N`,
//! issue 22): `N` spectators join existing tables all at once, then all of
//! them drop their connection without a goodbye and come back with
//! `Resume`, the way bench/driver measures them. Each burst is timed per
//! client (connect to snapshot) and all-in (first connect to the last
//! client back), with the server's CPU over the burst.
//!
//! The connections use the client library's defaults (no
//! `ConnectOptions::quic_endpoint`): a burst measures what an ordinary
//! client process pays to connect, shared endpoint and TLS resumption
//! included.

use crate::e2e::Target;
use crate::proc_stats::proc_stat;
use muster_client::Connection;
use muster_shared::protocol::{ClientMsg, ServerMsg, TableId};
use std::time::{Duration, Instant};

/// Longest a single join or reconnect may take before it counts as failed.
const CLIENT_LIMIT: Duration = Duration::from_secs(60);

/// One burst's figures.
#[derive(Clone, Debug, Default)]
pub struct BurstFigures {
    pub ok: usize,
    pub failed: usize,
    /// First connect to the last client done.
    pub all_in: Duration,
    pub p50: Duration,
    pub p99: Duration,
    /// Server CPU (user + kernel) over the burst, seconds.
    pub server_cpu_s: f64,
    pub first_error: Option<String>,
}

impl std::fmt::Display for BurstFigures {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} ok, {} failed; all-in {:.0} ms, p50 {:.1} ms, p99 {:.1} ms; server CPU {:.0} ms",
            self.ok,
            self.failed,
            ms(self.all_in),
            ms(self.p50),
            ms(self.p99),
            self.server_cpu_s * 1e3
        )?;
        if let Some(e) = &self.first_error {
            write!(f, " (first error: {e})")?;
        }
        Ok(())
    }
}

pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// A spectator that joined in a burst: its connection and what it needs
/// to come back.
pub struct Joined {
    conn: Connection,
    token: String,
    table: TableId,
    seq: u64,
}

/// `n` guests sign in and spectate `tables` (round robin), all at once.
pub async fn join(
    target: &Target,
    quic: bool,
    tables: &[TableId],
    n: usize,
    server: u32,
) -> (BurstFigures, Vec<Joined>) {
    let cpu0 = cpu(server);
    let start = Instant::now();
    let tasks: Vec<_> = (0..n)
        .map(|k| {
            let target = target.clone();
            let table = tables[k % tables.len()];
            tokio::spawn(async move {
                let t = Instant::now();
                let r = tokio::time::timeout(CLIENT_LIMIT, join_one(target, quic, table, k)).await;
                (t.elapsed(), r.unwrap_or_else(|_| Err("timed out".into())))
            })
        })
        .collect();
    let (figures, joined) = collect(tasks, start).await;
    (
        BurstFigures {
            server_cpu_s: cpu(server) - cpu0,
            ..figures
        },
        joined,
    )
}

/// Every client drops its connection (no goodbye) and comes back with
/// `Resume`, then `Resync` from one entry back: the room's answer (that
/// entry, or a snapshot) shows the spectator is subscribed again.
pub async fn reconnect(
    target: &Target,
    quic: bool,
    clients: Vec<Joined>,
    server: u32,
) -> (BurstFigures, Vec<Joined>) {
    let cpu0 = cpu(server);
    let start = Instant::now();
    let tasks: Vec<_> = clients
        .into_iter()
        .map(|c| {
            let target = target.clone();
            tokio::spawn(async move {
                let t = Instant::now();
                let r = tokio::time::timeout(CLIENT_LIMIT, reconnect_one(target, quic, c)).await;
                (t.elapsed(), r.unwrap_or_else(|_| Err("timed out".into())))
            })
        })
        .collect();
    let (figures, back) = collect(tasks, start).await;
    (
        BurstFigures {
            server_cpu_s: cpu(server) - cpu0,
            ..figures
        },
        back,
    )
}

/// Close every client politely and let the server see them go.
pub async fn close(clients: Vec<Joined>) {
    let closing: Vec<_> = clients
        .into_iter()
        .map(|c| tokio::spawn(async move { c.conn.close().await }))
        .collect();
    for c in closing {
        let _ = tokio::time::timeout(Duration::from_secs(5), c).await;
    }
}

fn cpu(pid: u32) -> f64 {
    let s = proc_stat(pid);
    s.user_s + s.system_s
}

type Outcome = (Duration, Result<Joined, String>);

async fn collect(
    tasks: Vec<tokio::task::JoinHandle<Outcome>>,
    start: Instant,
) -> (BurstFigures, Vec<Joined>) {
    let mut lat = Vec::new();
    let mut joined = Vec::new();
    let mut f = BurstFigures::default();
    for t in tasks {
        match t.await {
            Ok((d, Ok(c))) => {
                lat.push(d);
                joined.push(c);
            }
            Ok((_, Err(e))) => {
                f.failed += 1;
                f.first_error.get_or_insert(e);
            }
            Err(e) => {
                f.failed += 1;
                f.first_error.get_or_insert(e.to_string());
            }
        }
    }
    f.all_in = start.elapsed();
    lat.sort();
    f.ok = lat.len();
    let pct = |p: f64| {
        lat.get(((lat.len().max(1) - 1) as f64 * p) as usize)
            .copied()
            .unwrap_or_default()
    };
    f.p50 = pct(0.5);
    f.p99 = pct(0.99);
    (f, joined)
}

async fn join_one(target: Target, quic: bool, table: TableId, k: usize) -> Result<Joined, String> {
    let err = |e: muster_client::NetError| e.to_string();
    let mut conn = Connection::connect(target.url(quic), &target.options())
        .await
        .map_err(err)?;
    let (_, token) = conn
        .sign_in_guest(&format!("burst{k}"))
        .await
        .map_err(err)?;
    conn.send(&ClientMsg::Spectate {
        table,
        invite: None,
    })
    .await
    .map_err(err)?;
    let seq = loop {
        match conn.recv().await.map_err(err)? {
            ServerMsg::Snapshot(s) => break s.seq,
            ServerMsg::Error { message, .. } => return Err(message),
            _ => {}
        }
    };
    Ok(Joined {
        conn,
        token,
        table,
        seq,
    })
}

async fn reconnect_one(target: Target, quic: bool, c: Joined) -> Result<Joined, String> {
    let err = |e: muster_client::NetError| e.to_string();
    drop(c.conn);
    let mut conn = Connection::connect(target.url(quic), &target.options())
        .await
        .map_err(err)?;
    conn.resume(&c.token).await.map_err(err)?;
    conn.send(&ClientMsg::Resync {
        table: c.table,
        last_seq: c.seq.saturating_sub(1),
    })
    .await
    .map_err(err)?;
    let seq = loop {
        match conn.recv().await.map_err(err)? {
            ServerMsg::Snapshot(s) => break s.seq,
            ServerMsg::Delta { seq, .. } => break seq,
            ServerMsg::Error { message, .. } => return Err(message),
            _ => {}
        }
    };
    Ok(Joined {
        conn,
        token: c.token,
        table: c.table,
        seq: seq.max(c.seq),
    })
}
