//! The server's configuration: defaults that work with no set-up, an
//! optional TOML file, and command-line flags that override both.

use serde::Deserialize;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

/// Everything `serve` needs. Every field has a default, so an empty file
/// (or none) gives a server on loopback with its data in `./muster-data`.
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// WebSocket listener (plain `ws://`; put a TLS proxy in front for the internet).
    pub ws: SocketAddr,
    /// QUIC listener (UDP).
    pub quic: SocketAddr,
    /// Prometheus text endpoint; keep it on loopback.
    pub metrics: SocketAddr,
    /// SQLite database and the generated certificate live here.
    pub data_dir: PathBuf,
    /// Where games are stored: `sqlite:` (the default) is the embedded
    /// SQLite file in `data_dir`; `postgres://user@host:port/db` a
    /// PostgreSQL database (see `storage::Backend`).
    pub database: String,
    /// This node's name when several nodes share one PostgreSQL database
    /// (empty: the only node, no leases). A named node takes a lease on
    /// each table it creates or rebuilds, and leaves alone the tables whose
    /// lease another node holds (see docs/server.md, "PostgreSQL").
    pub node: String,
    /// How long a node's table lease lasts without renewal (it is renewed
    /// every third of it): how long a dead node's tables wait for another.
    pub lease_secs: u64,
    /// Where clients reach this node, as other nodes send them here
    /// (`ws://host:port`, recorded with each lease it takes). Empty: the
    /// WebSocket listener's own address, right when it is reachable as
    /// bound (not `0.0.0.0`, not behind a NAT or a proxy).
    pub public_addr: String,
    /// A real certificate chain and key (PEM) for QUIC; when absent a
    /// self-signed one is generated on first run and kept in `data_dir`.
    pub tls_cert: Option<PathBuf>,
    pub tls_key: Option<PathBuf>,
    /// Runtime threads for the network and the rooms. `1` runs everything
    /// on one thread (no hand-offs between workers: measured cheaper per
    /// action, see docs/server.md "Load"); `0` one per core.
    pub workers: usize,
    /// The longest the storage thread waits, after a group's first
    /// request, to gather more into one commit (one `fsync`); it waits only
    /// when requests arrive fast enough to fill the window. See
    /// `storage::DEFAULT_COMMIT_WINDOW` and `storage::group_window`.
    pub commit_window_ms: u64,
    /// Spectators are shown chain links every this many rolls (the compact
    /// delta, `DeltaBody::Lean`): a later link of a chain gives the earlier
    /// ones, so they check every roll, up to `reveal_every - 1` rolls late,
    /// for a fraction of the bytes (issue 22). 1 sends every proof whole
    /// and spectators check each roll on arrival. Seats always get whole proofs.
    pub reveal_every: u32,
    /// Start even when some unfinished tables cannot be rebuilt from the
    /// database (damaged rows, a log shorter than what was acknowledged).
    /// Off by default: the server refuses to start and names them, so no
    /// acknowledged play disappears unnoticed; on, each is logged at ERROR
    /// and left untouched in the database (nothing is deleted).
    pub skip_damaged: bool,
    pub limits: Limits,
}

/// Knobs that bound what one client can cost the server.
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Frames queued for one connection before it is dropped to a resync.
    /// Small on purpose: a reader that far behind is better served by a snapshot.
    pub queue: usize,
    /// Messages per second a connection may send on average…
    pub rate_per_sec: u32,
    /// …and in one burst.
    pub rate_burst: u32,
    /// Undecodable messages tolerated on one connection before it is closed.
    pub bad_frames: u32,
    /// Log entries a room keeps encoded for `Resync`; further behind gets a snapshot.
    pub resync_window: usize,
    /// Largest spectator delay a table may ask for, in actions.
    pub max_spectator_delay: u32,
    /// Seconds a connection may stay silent (clients ping every 15–30 s).
    pub idle_secs: u64,
    /// Seconds a write to a client may take before the connection is closed.
    pub write_timeout_secs: u64,
    /// Kernel send buffer for accepted WebSocket sockets, bytes (`None`: the
    /// kernel's default). Small buffers bound memory per idle connection.
    pub tcp_send_buffer: Option<usize>,
    /// Kernel receive and send buffers of the QUIC UDP socket, bytes (the
    /// kernel caps them at `net.core.rmem_max`/`wmem_max`). Every QUIC
    /// connection shares this one socket, so the kernel's default (208 KiB)
    /// overflows in bursts at thousands of connections, and each dropped
    /// datagram costs its connection a loss-recovery timeout (hundreds of
    /// milliseconds to seconds).
    pub udp_socket_buffer: usize,
    /// Unfinished tables one identity may have created at once.
    pub tables_per_user: u32,
    /// Commands a room buffers; past that a connection's request is
    /// answered `RateLimited` (a lagged connection's snapshot request waits).
    pub room_queue: usize,
    /// Connections open at once from one address (an IPv6 /64 counts as
    /// one address). A club night behind one NAT is tens of players with
    /// a connection or two each; thousands from one address is an attack.
    pub conns_per_addr: u32,
    /// New guest identities one address may make per minute (token bucket)…
    pub guest_signins_per_minute: u32,
    /// …and at once. `Resume` with a token is not counted.
    pub guest_signin_burst: u32,
    /// Unfinished tables created from one address, on top of
    /// `tables_per_user`: new guests are cheap, addresses are not.
    pub tables_per_addr: u32,
    /// Unfinished tables on the whole server (each holds its match in
    /// memory, up to ~2 MiB for a large scenario, and is replayed on start).
    pub max_tables: u32,
    /// Scenarios built at once when tables are created (each build runs
    /// on the blocking pool, off the runtime thread); more wait their turn.
    pub table_builds: usize,
    /// Chat lines one identity may send per minute at one table…
    pub chat_per_minute: u32,
    /// …and at once.
    pub chat_burst: u32,
    /// Dice-chain anchors a seat may publish at once beyond the free ones
    /// (the first, and one whose chain is used up or nearly)…
    pub anchor_burst: u32,
    /// …and per hour after that (clients re-anchor on every reconnect).
    pub anchors_per_hour: u32,
    /// Seconds an open table (seats still free) may go without a seat
    /// taken or given up before it is closed and no longer rebuilt on start.
    pub open_table_idle_secs: u64,
    /// Seconds a session token may go unused (no sign-in with it) before
    /// it expires; the player signs in again (issue 20). 90 days.
    pub session_idle_secs: u64,
    /// After a game ends, the actions its delayed spectators have not seen
    /// yet are shown to them one every this many milliseconds; until the
    /// last is shown the table stays in the lobby as in play, so the lobby
    /// does not tell them the result early.
    pub finish_reveal_ms: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            ws: "127.0.0.1:7700".parse().expect("literal address"),
            quic: "127.0.0.1:7701".parse().expect("literal address"),
            metrics: "127.0.0.1:7702".parse().expect("literal address"),
            data_dir: PathBuf::from("muster-data"),
            database: "sqlite:".into(),
            node: String::new(),
            lease_secs: 10,
            public_addr: String::new(),
            tls_cert: None,
            tls_key: None,
            workers: 1,
            commit_window_ms: crate::storage::DEFAULT_COMMIT_WINDOW.as_millis() as u64,
            reveal_every: 1,
            skip_damaged: false,
            limits: Limits::default(),
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            queue: 256,
            rate_per_sec: 50,
            rate_burst: 200,
            bad_frames: 16,
            resync_window: 256,
            max_spectator_delay: 1000,
            idle_secs: 120,
            write_timeout_secs: 30,
            tcp_send_buffer: None,
            udp_socket_buffer: 4 * 1024 * 1024,
            tables_per_user: 16,
            room_queue: 1024,
            conns_per_addr: 128,
            guest_signins_per_minute: 20,
            guest_signin_burst: 20,
            tables_per_addr: 32,
            max_tables: 2000,
            table_builds: 2,
            chat_per_minute: 30,
            chat_burst: 5,
            anchor_burst: 8,
            anchors_per_hour: 12,
            open_table_idle_secs: 7 * 24 * 3600,
            session_idle_secs: 90 * 24 * 3600,
            finish_reveal_ms: 2000,
        }
    }
}

impl Config {
    /// Read a TOML file; missing keys keep their defaults.
    pub fn from_file(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Refuse combinations that would make the server misbehave later.
    /// The table lease length, when this node is one of a fleet.
    pub fn lease(&self) -> Option<std::time::Duration> {
        (!self.node.is_empty()).then(|| std::time::Duration::from_secs(self.lease_secs))
    }

    pub fn check(&self) -> Result<(), String> {
        if self.tls_cert.is_some() != self.tls_key.is_some() {
            return Err("tls_cert and tls_key go together".into());
        }
        if self.commit_window_ms > 100 {
            return Err(
                "commit_window_ms is added to actions' latency under load: at most 100".into(),
            );
        }
        if !(1..=256).contains(&self.reveal_every) {
            return Err("reveal_every is a number of rolls from 1 to 256".into());
        }
        let backend = crate::storage::Backend::from_config(&self.database, &self.data_dir)?;
        if !self.node.is_empty() && matches!(backend, crate::storage::Backend::Sqlite(_)) {
            return Err("node names a node of a fleet, which shares a PostgreSQL database: set database to a postgres:// URL".into());
        }
        if !self.public_addr.is_empty() && !self.public_addr.starts_with("ws://") {
            return Err("public_addr is where clients reach this node: ws://host:port".into());
        }
        if !(1..=3600).contains(&self.lease_secs) {
            return Err("lease_secs is a number of seconds from 1 to 3600".into());
        }
        let l = &self.limits;
        if l.queue == 0
            || l.rate_per_sec == 0
            || l.rate_burst == 0
            || l.resync_window == 0
            || l.room_queue == 0
            || l.conns_per_addr == 0
            || l.guest_signin_burst == 0
            || l.table_builds == 0
            || l.chat_burst == 0
        {
            return Err(
                "limits.queue, rate_per_sec, rate_burst, resync_window, room_queue, \
                 conns_per_addr, guest_signin_burst, table_builds and chat_burst must be > 0"
                    .into(),
            );
        }
        Ok(())
    }
}
