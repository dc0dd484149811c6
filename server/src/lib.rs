//! `muster-server`: the authoritative Muster server, as a library so the
//! binary, the end-to-end tests and the load harness start the same thing.
//!
//! Layout (one idea per file):
//! - [`config`]: defaults, the TOML file, flags.
//! - [`net`]: WebSocket and QUIC transports, and the per-connection protocol.
//! - [`lobby`]: the live list of tables.
//! - [`room`]: one actor per table; type-erased matches ([`room::any_match`]).
//! - [`storage`]: the durable log, on its own thread (SQLite by default).
//! - [`identity`]: guest sign-in and session tokens.
//! - [`metrics`]: Prometheus text on loopback.
//! - [`quota`]: limits per source address; token buckets.
//! - [`export`]: one table's match log to a file, for `verify`.
//! - [`check`]: every table's state in a data directory, for operators.
//! - [`club`]: club events: accounts, clubs, events, pairings, clocks.
//! - [`fleet`]: several nodes on one PostgreSQL: taking over a dead
//!   node's tables, redirecting clients, draining on SIGTERM.

pub mod check;
pub mod cli;
pub mod club;
pub mod config;
pub mod export;
pub mod fleet;
pub mod identity;
pub mod lobby;
pub mod metrics;
pub mod net;
pub mod outbox;
pub mod quota;
pub mod room;
pub mod storage;

use config::Config;
use lobby::Lobby;
use metrics::Metrics;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Duration;
use storage::Storage;
use tokio::sync::watch;

/// What every task of the server shares.
pub struct Shared {
    pub config: Config,
    pub storage: Storage,
    pub lobby: Lobby,
    pub metrics: Arc<Metrics>,
    /// Flips to `true` once: stop accepting, close connections, stop rooms.
    pub shutdown: watch::Receiver<bool>,
    pub next_conn: AtomicU64,
    /// Connections and guest sign-ins per source address.
    pub addrs: Arc<quota::Addrs>,
    /// Scenario builds running at once (`limits.table_builds`).
    pub builds: tokio::sync::Semaphore,
    /// Connections signed in with each session (revocation closes them).
    pub sessions: identity::LiveSessions,
    /// Club events: the hub's channels and the event tables (issue 21).
    pub club: club::ClubHub,
    /// This node's part in a fleet (issue 23; idle when alone).
    pub fleet: fleet::FleetState,
}

/// A running server.
pub struct Server {
    pub ws_addr: SocketAddr,
    pub quic_addr: SocketAddr,
    pub metrics_addr: SocketAddr,
    /// SHA-256 of the QUIC certificate, hex, for clients to pin.
    pub fingerprint: String,
    pub shared: Arc<Shared>,
    stop: watch::Sender<bool>,
    storage_thread: std::thread::JoinHandle<()>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
    /// In a fleet: the task taking over dead nodes' tables (stopped first
    /// when draining, so a leaving node takes nothing more).
    takeover: Option<tokio::task::JoinHandle<()>>,
    quic: quinn::Endpoint,
}

impl Server {
    /// Open storage, rebuild every unfinished table, bind the listeners.
    pub async fn start(config: Config) -> Result<Server, String> {
        config.check()?;
        std::fs::create_dir_all(&config.data_dir)
            .map_err(|e| format!("cannot create {}: {e}", config.data_dir.display()))?;
        let backend = storage::Backend::from_config(&config.database, &config.data_dir)?;
        let (storage, storage_thread) = Storage::open_backend(
            &backend,
            std::time::Duration::from_millis(config.commit_window_ms),
        )
        .map_err(|e| e.to_string())?;
        let identity = net::quic::load_identity(&config)?;
        // The WebSocket listener binds before the tables are rebuilt
        // (connections wait in its backlog until the accept loops start
        // below): in a fleet the leases record the address clients are
        // sent to, which may be a port the system picked. QUIC and the
        // metrics endpoint (readiness) still bind once the tables are back.
        let ws = net::ws::bind(config.ws)
            .map_err(|e| format!("cannot listen on {} (WebSocket): {e}", config.ws))?;
        let ws_addr = ws.local_addr().map_err(|e| e.to_string())?;
        let mut config = config;
        if config.public_addr.is_empty() {
            // Other nodes would send this node's clients to an address
            // nobody can connect to.
            if config.lease().is_some() && ws_addr.ip().is_unspecified() {
                return Err(format!(
                    "this node of a fleet listens on {ws_addr}, which is not an address clients can be sent to: set public_addr (--public-addr ws://host:port)"
                ));
            }
            config.public_addr = format!("ws://{ws_addr}");
        }
        if let Some(lease) = config.lease() {
            storage
                .join_fleet(config.node.clone(), config.public_addr.clone(), lease)
                .await
                .map_err(|e| format!("cannot join the fleet: {e}"))?;
        }
        let (stop, shutdown) = watch::channel(false);
        let (club, club_inbox) = club::ClubHub::new();
        let shared = Arc::new(Shared {
            config: config.clone(),
            storage: storage.clone(),
            // In a fleet the lobby is the fleet's (issue 23).
            lobby: match config.lease() {
                Some(_) => Lobby::shared_through(storage.clone()),
                None => Lobby::default(),
            },
            metrics: Arc::new(Metrics::default()),
            shutdown,
            next_conn: AtomicU64::new(1),
            addrs: Arc::new(quota::Addrs::new(
                config.limits.conns_per_addr,
                config.limits.guest_signins_per_minute,
                config.limits.guest_signin_burst,
            )),
            builds: tokio::sync::Semaphore::new(config.limits.table_builds),
            sessions: identity::LiveSessions::default(),
            club,
            fleet: fleet::FleetState::default(),
        });
        // The fleet's lobby: other nodes' tables, live (issue 23).
        if config.lease().is_some() {
            fleet::lobby_feed::start(&shared)?;
        }
        // Clubs and events before the tables: an event's rooms must know
        // they belong to it when they are rebuilt.
        let hub = club::hub::load(&shared).await?;
        let club_task = tokio::spawn(club::hub::run(hub, club_inbox));

        let (stored, mut damaged) = storage.load_unfinished().await.map_err(|e| e.to_string())?;
        let count = stored.len();
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let mut closed = 0;
        let mut elsewhere = 0;
        for mut table in stored {
            let id = table.id;
            // In a fleet, a table is this node's only with its lease; one
            // another node holds is served there.
            if let Some(lease) = config.lease() {
                match storage.acquire_lease(id, config.node.clone(), lease).await {
                    Ok(Some(token)) => table.lease = Some(token),
                    Ok(None) => {
                        elsewhere += 1;
                        continue;
                    }
                    Err(e) => {
                        damaged.push((id, format!("cannot take its lease: {e}")));
                        continue;
                    }
                }
            }
            // An open table nobody sat at or left for too long is closed
            // here, before it costs a replay.
            let idle = now.saturating_sub(u64::try_from(table.active).unwrap_or(0));
            if table.status == muster_shared::protocol::TableStatus::Open
                && idle >= config.limits.open_table_idle_secs
            {
                match storage.abandon(id).await {
                    Ok(()) => closed += 1,
                    Err(e) => tracing::error!(table = id.0, "cannot close an idle table: {e}"),
                }
                continue;
            }
            if let Err(e) = room::Room::restore(&shared, table) {
                damaged.push((id, format!("cannot rebuild it: {e}")));
            }
        }
        // Acknowledged play never disappears unnoticed: a table that cannot
        // come back stops the start, unless the operator says to go on
        // without it (its rows stay in the database either way).
        if !damaged.is_empty() {
            let list = damaged
                .iter()
                .map(|(id, why)| format!("table {}: {why}", id.0))
                .collect::<Vec<_>>()
                .join("; ");
            if !config.skip_damaged {
                return Err(format!(
                    "{} unfinished table(s) cannot be rebuilt from {}: {list}. Restore the database from a backup, or start with --skip-damaged to serve the others (the damaged tables stay in the database, untouched)",
                    damaged.len(),
                    backend
                ));
            }
            for (id, why) in &damaged {
                tracing::error!(table = id.0, "table skipped (--skip-damaged): {why}");
            }
        }
        tracing::info!(
            "rebuilt {} unfinished table(s) from storage; closed {closed} open one(s) idle too long; {elsewhere} served by other nodes",
            count.saturating_sub(closed + elsewhere + damaged.len())
        );

        let quic = net::quic::bind(
            net::quic::server_config(&identity)?,
            config.quic,
            config.limits.udp_socket_buffer,
        )
        .map_err(|e| format!("cannot listen on {} (QUIC): {e}", config.quic))?;
        let metrics = metrics::bind(config.metrics)
            .await
            .map_err(|e| format!("cannot listen on {} (metrics): {e}", config.metrics))?;
        let quic_addr = quic.local_addr().map_err(|e| e.to_string())?;
        let metrics_addr = metrics.local_addr().map_err(|e| e.to_string())?;
        let tasks = vec![
            tokio::spawn(net::ws::accept_loop(shared.clone(), ws)),
            tokio::spawn(net::quic::accept_loop(shared.clone(), quic.clone())),
            tokio::spawn(metrics::serve(metrics, shared.metrics.clone())),
            club_task,
        ];
        let takeover = config
            .lease()
            .map(|lease| tokio::spawn(fleet::takeover::run(shared.clone(), lease)));
        Ok(Server {
            ws_addr,
            quic_addr,
            metrics_addr,
            fingerprint: identity.fingerprint,
            shared,
            stop,
            storage_thread,
            tasks,
            takeover,
            quic,
        })
    }

    /// Fault injection for the supervision tests: make table `table`'s
    /// room panic on its next command. `false` if there is no such room.
    #[cfg(feature = "fault-injection")]
    pub fn crash_room(&self, table: muster_shared::protocol::TableId) -> bool {
        self.shared
            .lobby
            .room(table)
            .is_some_and(|r| r.tx.try_send(room::RoomCmd::Crash).is_ok())
    }

    /// Stop accepting, close every connection, stop every room, then close
    /// storage. Every entry was durable before it was announced, so there is
    /// nothing to lose; this only lets clients see a clean close and leaves
    /// the database checkpointed.
    /// In a fleet the node drains first ([`fleet::drain`]).
    pub async fn shutdown(mut self) {
        // In a fleet, hand every table over first (issue 23): give up its
        // lease and tell its clients where to go, before connections close.
        if self.shared.config.lease().is_some() {
            fleet::drain::run(&self.shared, self.takeover.take()).await;
        }
        let _ = self.stop.send(true);
        let m = &self.shared.metrics;
        for _ in 0..50 {
            let busy = m.rooms.load(Relaxed)
                + m.connections_ws.load(Relaxed)
                + m.connections_quic.load(Relaxed);
            if busy == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        for t in &self.tasks {
            t.abort();
        }
        let _ = tokio::time::timeout(Duration::from_secs(2), self.quic.wait_idle()).await;
        drop(self.shared);
        // The storage thread ends when the last handle is gone; wait for it
        // (off the runtime) but not forever, in case a task still holds one.
        let join = tokio::task::spawn_blocking(move || self.storage_thread.join());
        if tokio::time::timeout(Duration::from_secs(5), join)
            .await
            .is_err()
        {
            tracing::warn!("storage still busy at shutdown; its last commit is durable regardless");
        }
    }
}
