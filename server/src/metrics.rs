//! Counters and gauges in atomics, rendered as Prometheus text on a
//! loopback HTTP endpoint. No metrics crate: a dozen numbers do not need one,
//! and atomics keep the hot path (every delta) to one relaxed add.

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// Upper bounds (seconds) of the action latency histogram's buckets.
const LATENCY_BUCKETS: [f64; 12] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
];

#[derive(Default)]
pub struct Metrics {
    pub connections_ws: AtomicU64,
    pub connections_quic: AtomicU64,
    pub rooms: AtomicU64,
    pub deltas_sent: AtomicU64,
    pub actions: AtomicU64,
    pub rejected: AtomicU64,
    /// Connections dropped from a room because their queue was full.
    pub lagged: AtomicU64,
    pub bad_frames: AtomicU64,
    pub rate_limited: AtomicU64,
    /// Rooms a command panicked (each rebuilt from its log, or closed).
    pub room_panics: AtomicU64,
    /// Club webhooks delivered (answered 2xx).
    pub webhooks_delivered: AtomicU64,
    /// Club webhooks given up on after their attempts.
    pub webhooks_failed: AtomicU64,
    /// Failed webhook attempts tried again.
    pub webhooks_retried: AtomicU64,
    /// Club webhooks dropped because the delivery queue was full.
    pub webhooks_dropped: AtomicU64,
    latency_buckets: [AtomicU64; LATENCY_BUCKETS.len()],
    latency_count: AtomicU64,
    latency_sum_us: AtomicU64,
}

impl Metrics {
    /// Record one action from the moment its frame arrived to the moment
    /// its last delta was queued.
    pub fn observe_action(&self, took: Duration) {
        // One add into the first bucket that holds it; rendering sums them
        // up into Prometheus' cumulative buckets. Past the last bound only
        // the count (the +Inf bucket) grows.
        let secs = took.as_secs_f64();
        if let Some(i) = LATENCY_BUCKETS.iter().position(|b| secs <= *b) {
            self.latency_buckets[i].fetch_add(1, Relaxed);
        }
        self.latency_count.fetch_add(1, Relaxed);
        self.latency_sum_us
            .fetch_add(took.as_micros().min(u128::from(u64::MAX)) as u64, Relaxed);
    }

    /// The Prometheus text exposition.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let mut one = |name: &str, kind: &str, help: &str, v: u64| {
            let _ = writeln!(s, "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {v}");
        };
        one(
            "muster_rooms",
            "gauge",
            "Rooms (tables) hosted.",
            self.rooms.load(Relaxed),
        );
        one(
            "muster_storage_commits_total",
            "counter",
            "Storage transactions committed (one per commit group).",
            crate::storage::COMMITS.load(Relaxed),
        );
        one(
            "muster_connections_ws",
            "gauge",
            "Open WebSocket connections.",
            self.connections_ws.load(Relaxed),
        );
        one(
            "muster_connections_quic",
            "gauge",
            "Open QUIC connections.",
            self.connections_quic.load(Relaxed),
        );
        one(
            "muster_deltas_sent_total",
            "counter",
            "Delta frames queued to connections.",
            self.deltas_sent.load(Relaxed),
        );
        one(
            "muster_actions_total",
            "counter",
            "Actions accepted.",
            self.actions.load(Relaxed),
        );
        one(
            "muster_rejected_total",
            "counter",
            "Actions refused by the rules.",
            self.rejected.load(Relaxed),
        );
        one(
            "muster_lagged_total",
            "counter",
            "Connections dropped to a resync because they did not read.",
            self.lagged.load(Relaxed),
        );
        one(
            "muster_bad_frames_total",
            "counter",
            "Frames that did not decode.",
            self.bad_frames.load(Relaxed),
        );
        one(
            "muster_rate_limited_total",
            "counter",
            "Messages refused by the per-connection rate limit.",
            self.rate_limited.load(Relaxed),
        );
        one(
            "muster_room_panics_total",
            "counter",
            "Rooms a command panicked (rebuilt from their log, or closed).",
            self.room_panics.load(Relaxed),
        );
        for (name, help, v) in [
            (
                "muster_webhooks_delivered_total",
                "Club webhooks delivered.",
                &self.webhooks_delivered,
            ),
            (
                "muster_webhooks_failed_total",
                "Club webhooks given up on after every attempt.",
                &self.webhooks_failed,
            ),
            (
                "muster_webhooks_retried_total",
                "Club webhook attempts that failed and were tried again.",
                &self.webhooks_retried,
            ),
            (
                "muster_webhooks_dropped_total",
                "Club webhooks dropped because the delivery queue was full.",
                &self.webhooks_dropped,
            ),
        ] {
            one(name, "counter", help, v.load(Relaxed));
        }
        let name = "muster_action_latency_seconds";
        let _ = writeln!(
            s,
            "# HELP {name} From an action's arrival to its last delta queued.\n# TYPE {name} histogram"
        );
        let mut cumulative = 0;
        for (bound, bucket) in LATENCY_BUCKETS.iter().zip(&self.latency_buckets) {
            cumulative += bucket.load(Relaxed);
            let _ = writeln!(s, "{name}_bucket{{le=\"{bound}\"}} {cumulative}");
        }
        let count = self.latency_count.load(Relaxed);
        let _ = writeln!(s, "{name}_bucket{{le=\"+Inf\"}} {count}");
        let sum = self.latency_sum_us.load(Relaxed) as f64 / 1e6;
        let _ = writeln!(s, "{name}_sum {sum}\n{name}_count {count}");
        s
    }
}

/// Serve `GET /metrics` (any path, really) until the listener task is aborted.
pub async fn serve(listener: TcpListener, metrics: Arc<Metrics>) {
    loop {
        let Ok((mut sock, _)) = listener.accept().await else {
            continue;
        };
        let metrics = metrics.clone();
        tokio::spawn(async move {
            // Read (and ignore) the request head; bounded in size and time.
            let mut buf = [0u8; 2048];
            let _ = tokio::time::timeout(Duration::from_secs(5), sock.read(&mut buf)).await;
            let body = metrics.render();
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = sock.write_all(head.as_bytes()).await;
            let _ = sock.write_all(body.as_bytes()).await;
            let _ = sock.shutdown().await;
        });
    }
}

/// Bind the endpoint; returns the bound address (port 0 picks one).
pub async fn bind(addr: SocketAddr) -> std::io::Result<TcpListener> {
    TcpListener::bind(addr).await
}
