//! End-to-end harness: a server on loopback ports with its data in a
//! temporary directory, and clients that follow a sandbox table with the
//! client library's [`Follower`], verifying every roll and keeping every
//! byte they received (for the hidden-information checks).

use bytes::Bytes;
use muster_client::{ConnectOptions, Connection, Follower, NetError};
use muster_server::Server;
use muster_server::config::Config;
use muster_shared::codec;
use muster_shared::dice::{HashChain, Party};
use muster_shared::engine::{ActionContext, RuleError, Ruleset};
use muster_shared::protocol::{ClientMsg, ErrorCode, ServerMsg, TableId, TableOptions};
use muster_shared::sandbox::{Sandbox, SandboxAction, SandboxConfig};
use muster_shared::{SeatId, Viewer};
use std::time::Duration;

/// Every wait in the tests is bounded by this.
pub const WAIT: Duration = Duration::from_secs(20);

/// Start a server on ephemeral loopback ports with its data in a fresh
/// temporary directory; `tweak` adjusts the configuration.
pub async fn start_server(tweak: impl FnOnce(&mut Config)) -> (Server, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = start_server_in(dir.path(), tweak).await;
    (server, dir)
}

pub async fn start_server_in(dir: &std::path::Path, tweak: impl FnOnce(&mut Config)) -> Server {
    let mut config = Config {
        ws: "127.0.0.1:0".parse().unwrap(),
        quic: "127.0.0.1:0".parse().unwrap(),
        metrics: "127.0.0.1:0".parse().unwrap(),
        data_dir: dir.to_path_buf(),
        ..Config::default()
    };
    tweak(&mut config);
    Server::start(config).await.expect("server starts")
}

/// Where a client connects.
#[derive(Clone, Debug)]
pub struct Target {
    pub ws: String,
    pub quic: String,
    pub fingerprint: String,
}

impl Target {
    pub fn of(server: &Server) -> Target {
        Target {
            ws: format!("ws://{}", server.ws_addr),
            quic: format!("quic://{}", server.quic_addr),
            fingerprint: server.fingerprint.clone(),
        }
    }
    pub fn url(&self, quic: bool) -> &str {
        if quic { &self.quic } else { &self.ws }
    }
    pub fn options(&self) -> ConnectOptions {
        ConnectOptions {
            fingerprint: Some(self.fingerprint.clone()),
            ..ConnectOptions::default()
        }
    }
}

/// A sandbox table's options (free turn order, two seats).
pub fn sandbox_table(private: bool, spectator_delay: u32) -> TableOptions {
    TableOptions {
        ruleset: "sandbox".into(),
        scenario: "test table".into(),
        config: codec::encode_infallible(&SandboxConfig::default()),
        private,
        spectators_allowed: true,
        spectator_delay,
        take_back_needs_agreement: true,
    }
}

/// One signed-in client following (at most) one table.
pub struct Client {
    pub conn: Connection,
    pub name: String,
    pub token: String,
    pub table: Option<TableId>,
    pub follower: Option<Follower<Sandbox>>,
    pub seat: Option<SeatId>,
    /// This seat's dice chain (only its anchor is ever sent).
    pub chain: HashChain,
    /// Every frame received, as bytes.
    pub received: Vec<Bytes>,
    next_ref: u32,
}

impl Client {
    pub async fn connect(target: &Target, quic: bool, name: &str) -> Client {
        let mut conn = Connection::connect(target.url(quic), &target.options())
            .await
            .expect("connect");
        let (_, token) = conn.sign_in_guest(name).await.expect("sign in");
        Client::with(conn, name, token)
    }

    /// Resume an identity on a new connection.
    pub async fn reconnect(
        target: &Target,
        quic: bool,
        name: &str,
        token: &str,
    ) -> Result<Client, NetError> {
        let mut conn = Connection::connect(target.url(quic), &target.options()).await?;
        conn.resume(token).await?;
        Ok(Client::with(conn, name, token.to_string()))
    }

    fn with(conn: Connection, name: &str, token: String) -> Client {
        Client {
            conn,
            name: name.into(),
            token,
            table: None,
            follower: None,
            seat: None,
            chain: HashChain::generate(4096),
            received: Vec::new(),
            next_ref: 1,
        }
    }

    pub fn follower(&self) -> &Follower<Sandbox> {
        self.follower.as_ref().expect("following a table")
    }

    pub fn seq(&self) -> u64 {
        self.follower.as_ref().map_or(0, Follower::seq)
    }

    /// Receive one message and fold it in: snapshots start (or restart)
    /// the follower, deltas advance it.
    pub async fn step(&mut self, limit: Duration) -> Result<ServerMsg, NetError> {
        let (msg, bytes) = self.conn.recv_frame_timeout(limit).await?;
        self.received.push(bytes);
        match &msg {
            ServerMsg::Snapshot(snap) => {
                self.follower = Some(Follower::from_snapshot(snap).expect("snapshot follows"));
                self.seat = snap.seat.or(self.seat);
            }
            ServerMsg::Delta { seq, body, .. } => {
                let f = self.follower.as_mut().expect("a delta before any snapshot");
                f.apply(*seq, body).expect("delta follows");
            }
            _ => {}
        }
        Ok(msg)
    }

    /// Step until `pred` matches (returning that message) or `limit` passes.
    pub async fn until(
        &mut self,
        limit: Duration,
        mut pred: impl FnMut(&ServerMsg) -> bool,
    ) -> ServerMsg {
        let end = tokio::time::Instant::now() + limit;
        loop {
            let left = end.saturating_duration_since(tokio::time::Instant::now());
            let msg = self
                .step(left)
                .await
                .unwrap_or_else(|e| panic!("{}: waiting: {e}", self.name));
            if pred(&msg) {
                return msg;
            }
        }
    }

    /// Step until the follower has folded `seq`.
    pub async fn sync_to(&mut self, seq: u64) {
        let end = tokio::time::Instant::now() + WAIT;
        while self.seq() < seq {
            let left = end.saturating_duration_since(tokio::time::Instant::now());
            self.step(left)
                .await
                .unwrap_or_else(|e| panic!("{}: syncing to {seq}: {e}", self.name));
        }
    }

    pub async fn send(&mut self, msg: ClientMsg) {
        self.conn.send(&msg).await.expect("send");
    }

    pub async fn create_table(&mut self, options: TableOptions) -> (TableId, Option<String>) {
        self.send(ClientMsg::CreateTable { options }).await;
        match self
            .until(WAIT, |m| {
                matches!(m, ServerMsg::TableCreated { .. } | ServerMsg::Error { .. })
            })
            .await
        {
            ServerMsg::TableCreated { table, invite } => (table, invite),
            other => panic!("table not created: {other:?}"),
        }
    }

    /// Take a seat and publish this seat's dice anchor; returns once the
    /// anchor is in the log.
    pub async fn sit(&mut self, table: TableId, invite: Option<String>) {
        self.table = Some(table);
        self.send(ClientMsg::JoinSeat {
            table,
            seat: None,
            invite,
        })
        .await;
        self.until(WAIT, |m| matches!(m, ServerMsg::Snapshot(_)))
            .await;
        let anchor = self.chain.anchor();
        if let Some(f) = self.follower.as_mut() {
            // So the follower can tell if anyone else anchors in our name.
            f.note_own_anchor(anchor);
        }
        self.send(ClientMsg::PublishAnchor { table, anchor }).await;
        let seat = self.seat.expect("seated");
        self.until(WAIT, |m| {
            matches!(m, ServerMsg::Delta { body: muster_shared::protocol::DeltaBody::Anchor { party, anchor: a }, .. }
                if *party == Party::Seat(seat) && *a == anchor)
        })
        .await;
    }

    pub async fn spectate(&mut self, table: TableId, invite: Option<String>) {
        self.table = Some(table);
        self.send(ClientMsg::Spectate { table, invite }).await;
        self.until(WAIT, |m| matches!(m, ServerMsg::Snapshot(_)))
            .await;
    }

    /// Send an action (with this seat's next chain link when it rolls) and
    /// wait for its answer: `Ok(seq)` when accepted.
    pub async fn act(&mut self, action: &SandboxAction) -> Result<u64, RuleError> {
        let table = self.table.expect("at a table");
        let seat = self.seat.expect("seated");
        let f = self.follower();
        let ctx = ActionContext {
            seat,
            seq: f.seq() + 1,
            by_default: false,
        };
        let links = if f.ruleset().rolls_dice(f.state(), &ctx, action) {
            f.next_link(seat, &self.chain).into_iter().collect()
        } else {
            Vec::new()
        };
        let bytes = codec::encode_infallible(action);
        if let (Some(link), Some(f)) = (links.first(), self.follower.as_mut()) {
            // The roll that comes back must be about exactly these bytes.
            f.note_sent(link.index, &bytes);
        }
        // A full room queue answers "busy, try again" before the action
        // reaches the room (nothing consumed): a player's client tries
        // again, and so does this one, a bounded number of times.
        for _ in 0..50 {
            let client_ref = self.next_ref;
            self.next_ref += 1;
            self.send(ClientMsg::Act {
                table,
                client_ref,
                action: bytes.clone(),
                links: links.clone(),
            })
            .await;
            match self
                .until(WAIT, |m| match m {
                    ServerMsg::Accepted { client_ref: r, .. }
                    | ServerMsg::Rejected { client_ref: r, .. } => *r == client_ref,
                    ServerMsg::Error { client_ref: r, .. } => *r == Some(client_ref),
                    _ => false,
                })
                .await
            {
                ServerMsg::Accepted { seq, .. } => return Ok(seq),
                ServerMsg::Rejected { error, .. } => return Err(error),
                ServerMsg::Error {
                    code: ErrorCode::RateLimited,
                    ..
                } => tokio::time::sleep(Duration::from_millis(20)).await,
                other => panic!("{}: action failed: {other:?}", self.name),
            }
        }
        panic!("{}: the table stayed busy for 50 tries", self.name)
    }

    /// Whether any received frame contains `needle`.
    pub fn saw(&self, needle: &[u8]) -> bool {
        self.received
            .iter()
            .any(|b| b.windows(needle.len()).any(|w| w == needle))
    }

    /// This viewer's state, seen as a spectator would see it.
    pub fn public_view(&self) -> muster_shared::sandbox::SandboxState {
        let f = self.follower();
        f.ruleset().view(f.state(), Viewer::Spectator)
    }
}

/// Read the last value of a metric from the Prometheus text endpoint.
pub async fn metric(server: &Server, name: &str) -> Option<f64> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(server.metrics_addr)
        .await
        .ok()?;
    s.write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .ok()?;
    let mut body = String::new();
    tokio::time::timeout(WAIT, s.read_to_string(&mut body))
        .await
        .ok()?
        .ok()?;
    body.lines()
        .find(|l| l.split_whitespace().next() == Some(name))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
}

/// A server binary running as its own process (for crash tests).
pub struct Process {
    pub child: std::process::Child,
    pub target: Target,
}

impl Process {
    /// Start `muster-server serve` on ephemeral loopback ports with `dir`
    /// as its data directory; returns once it prints where it listens.
    pub fn start(binary: &str, dir: &std::path::Path) -> Process {
        Self::start_with(binary, dir, &[])
    }

    /// [`Process::start`] with more `serve` flags (the load harness's
    /// `--workers`, `--commit-window-ms`).
    pub fn start_with(binary: &str, dir: &std::path::Path, extra: &[String]) -> Process {
        use std::io::BufRead;
        let mut child = std::process::Command::new(binary)
            .args([
                "--ws",
                "127.0.0.1:0",
                "--quic",
                "127.0.0.1:0",
                "--metrics",
                "127.0.0.1:0",
                "--data-dir",
            ])
            .arg(dir)
            .args(extra)
            .env("RUST_LOG", "warn")
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("server binary starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = std::io::BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx.recv_timeout(WAIT).expect("server prints its addresses");
        let field = |key: &str| -> String {
            line.split_whitespace()
                .find_map(|w| w.strip_prefix(key))
                .unwrap_or_else(|| panic!("no {key} in {line:?}"))
                .to_string()
        };
        let target = Target {
            ws: field("ws="),
            quic: field("quic="),
            fingerprint: field("fingerprint="),
        };
        Process { child, target }
    }

    /// SIGKILL: no chance to flush anything.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// SIGTERM, then wait (bounded) for a clean exit; returns whether it exited 0.
    pub fn terminate(mut self) -> bool {
        let pid = self.child.id().to_string();
        // The shell's built-in kill: present wherever `sh` is, unlike /bin/kill.
        let _ = std::process::Command::new("sh")
            .args(["-c", &format!("kill -TERM {pid}")])
            .status();
        let end = std::time::Instant::now() + WAIT;
        while std::time::Instant::now() < end {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.success();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        false
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        // Never leave a server behind, whatever the test did.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Every table's log as stored in `dir`, checked by the verifier.
pub async fn stored_logs(dir: &std::path::Path) -> Vec<muster_shared::engine::MatchLog> {
    use muster_shared::engine::{LogEntry, LogHeader, MatchLog};
    let (storage, thread) =
        muster_server::storage::Storage::open(dir, muster_server::storage::DEFAULT_COMMIT_WINDOW)
            .expect("open storage");
    let (tables, damaged) = storage.load_unfinished().await.expect("load");
    assert!(damaged.is_empty(), "damaged tables: {damaged:?}");
    drop(storage);
    let _ = tokio::task::spawn_blocking(move || thread.join()).await;
    tables
        .into_iter()
        .map(|t| MatchLog {
            header: codec::decode::<LogHeader>(&t.header, codec::MAX_SERVER_MSG).expect("header"),
            entries: t
                .entries
                .iter()
                .map(|e| codec::decode::<LogEntry>(e, codec::MAX_SERVER_MSG).expect("entry"))
                .collect(),
        })
        .collect()
}
