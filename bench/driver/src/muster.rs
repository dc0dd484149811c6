//! Muster over WebSocket and over QUIC, through Muster's own headless client
//! (`muster_client::Connection`, `muster_client::Follower`).
//!
//! The game, mapped onto the sandbox ruleset. The peers' game is one message
//! per move: "move the counter to a hex and roll a d6". The sandbox's
//! `MoveRoll` action is exactly that (issue 22): one `Act` with the seat's
//! next dice-chain link, so one log entry, one SQLite commit (group-
//! committed with other tables') and one delta per client per move. A move
//! counts as delivered when a spectator has folded its delta; bytes and
//! server CPU include everything. [`Seen::moves`] is the table's roll count
//! (`Follower::rolls`), so the move number comes from Muster's own dice book.
//! bench/run.sh starts the server with `reveal_every = 8`: spectators get
//! the compact delta and are shown chain links every 8 rolls (each roll is
//! checked once its links are shown; seats get whole proofs).
//!
//! Every client follows its table with [`Follower`], which verifies every
//! roll's proof on arrival; a roll that does not verify is reported as a bad
//! die (`Seen::die == 0`).
//!
//! Set-up per table: seat 0 signs in as a guest, creates a sandbox table,
//! sits and publishes its dice anchor; seat 1 signs in, sits, publishes its
//! anchor and places the counter (the sandbox refuses actions until both
//! seats are taken, and has no initial pieces); spectators sign in and
//! `Spectate`. Reconnect: drop the link without a goodbye, connect, `Resume`
//! with the session token, then `Resync` from one entry back: the room answers
//! with that entry, which tells the client it is subscribed again (with
//! nothing missing Muster sends nothing at all on a `Resync`).
//!
//! Keep-alive: Muster's server sends no pings of its own; it closes a
//! connection silent for `limits.idle_secs` (120 s by default) and documents
//! that clients ping every 15–30 s. The driver's clients send `Ping` every
//! `ping_every` (15 s for "default", 600 s for "low", with the server's
//! `idle_secs` raised to 1200 s by run.sh). Over QUIC the client library also
//! has quinn send transport keep-alives every 15 s (fixed in
//! client/src/net/quic.rs; not turned down in either setting).
//!
//! Bytes: the client library owns its sockets, so the driver counts each
//! message as it crosses the library boundary plus its framing, computed
//! exactly: WebSocket frame header (2 bytes under 126 bytes of payload, 4
//! under 64 KiB) plus the 4-byte mask on client frames — which is all the TCP
//! payload a WebSocket carries after the handshake, so it matches what the
//! peers' counted sockets read; QUIC: the 4-byte length prefix only (QUIC
//! packet headers, AEAD tags and ACK frames are not counted: no per-socket
//! byte counters exist for UDP).

use std::sync::OnceLock;
use std::time::Duration;

use anyhow::{Context as _, Result, anyhow, bail};
use bytes::Bytes;
use muster_client::{ConnectOptions, Connection, Follower};
use muster_shared::codec;
use muster_shared::dice::{HashChain, Party};
use muster_shared::protocol::{ClientMsg, DeltaBody, ErrorCode, ServerMsg, TableId, TableOptions};
use muster_shared::sandbox::{Loc, Position, Sandbox, SandboxAction, SandboxConfig};
use muster_shared::SeatId;
use tokio::time::{Instant, sleep_until};

use crate::target::{Client, Event, Meter, Role, Seen, Target};

/// Links per seat chain: plenty for any run here (one roll per seat every
/// 2 s), and cheap to generate for thousands of seats.
const CHAIN_LEN: u32 = 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    Ws,
    Quic,
}

pub struct Muster {
    pub transport: Transport,
    /// `ws://host:port` or `quic://host:port`.
    pub url: String,
    pub opts: ConnectOptions,
    pub ping_every: Duration,
    pub run: String,
}

impl Muster {
    /// `ws` and `quic` are host:port; the fingerprint is read from the
    /// server's start-up line in `log`.
    pub fn new(transport: Transport, ws: &str, quic: &str, log: &str, ping_every: Duration, run: String) -> Result<Muster> {
        let url = match transport {
            Transport::Ws => format!("ws://{ws}"),
            Transport::Quic => format!("quic://{quic}"),
        };
        let fingerprint = std::fs::read_to_string(log)
            .ok()
            .and_then(|t| t.split_whitespace().find_map(|w| w.strip_prefix("fingerprint=")).map(str::to_string));
        if transport == Transport::Quic && fingerprint.is_none() {
            bail!("no fingerprint= in the server's output ({log})");
        }
        let opts = ConnectOptions { fingerprint, client_name: Some("bench-driver".into()), ..Default::default() };
        Ok(Muster { transport, url, opts, ping_every, run })
    }

    async fn open(&self) -> Result<Connection> {
        Connection::connect(&self.url, &self.opts).await.with_context(|| format!("connect {}", self.url))
    }
}

/// Table `index` of the run; seat 0 creates it and sets the ID.
pub struct MusterTable {
    pub index: usize,
    pub id: OnceLock<TableId>,
}

pub struct MusterClient {
    transport: Transport,
    url: String,
    opts: ConnectOptions,
    conn: Option<Connection>,
    token: String,
    table: TableId,
    seat: Option<SeatId>,
    chain: Option<HashChain>,
    follower: Option<Follower<Sandbox>>,
    meter: Meter,
    next_ref: u32,
    ping_every: Duration,
    next_ping: Instant,
    nonce: u64,
}

fn sandbox_table(index: usize, run: &str) -> TableOptions {
    TableOptions {
        ruleset: "sandbox".into(),
        scenario: format!("bench {run} table {index}"),
        config: codec::encode_infallible(&SandboxConfig::default()),
        private: false,
        spectators_allowed: true,
        spectator_delay: 0,
        take_back_needs_agreement: true,
    }
}

fn hex_at(hex: (u8, u8)) -> Position {
    Position { board: 0, loc: Loc::Hex { col: hex.0 as u16, row: hex.1 as u16 } }
}

impl Target for Muster {
    type Table = MusterTable;
    type Client = MusterClient;

    fn table(&self, index: usize) -> MusterTable {
        MusterTable { index, id: OnceLock::new() }
    }

    async fn join(&self, table: &MusterTable, role: Role, meter: Meter) -> Result<(MusterClient, Seen)> {
        let mut conn = self.open().await?;
        let name = match role {
            Role::Player(s) => format!("t{}-seat{s}", table.index),
            Role::Spectator => format!("t{}-watch", table.index),
        };
        let (_, token) = conn.sign_in_guest(&name).await.context("sign in")?;
        let mut c = MusterClient {
            transport: self.transport,
            url: self.url.clone(),
            opts: self.opts.clone(),
            conn: Some(conn),
            token,
            table: TableId(0),
            seat: None,
            chain: None,
            follower: None,
            meter,
            next_ref: 1,
            ping_every: self.ping_every,
            next_ping: Instant::now() + self.ping_every,
            nonce: 0,
        };
        if role == Role::Player(0) {
            c.send(&ClientMsg::CreateTable { options: sandbox_table(table.index, &self.run) }).await?;
            let id = match c.until(|m| matches!(m, ServerMsg::TableCreated { .. })).await? {
                ServerMsg::TableCreated { table, .. } => table,
                _ => unreachable!(),
            };
            let _ = table.id.set(id);
        }
        c.table = *table.id.get().ok_or_else(|| anyhow!("seat 0 must create the table first"))?;
        let table_id = c.table;
        match role {
            Role::Player(s) => {
                let seat = SeatId(s);
                c.send(&ClientMsg::JoinSeat { table: table_id, seat: Some(seat), invite: None }).await?;
                c.until(|m| matches!(m, ServerMsg::Snapshot(_))).await?;
                c.seat = Some(seat);
                let chain = HashChain::generate(CHAIN_LEN);
                let anchor = chain.anchor();
                c.chain = Some(chain);
                c.send(&ClientMsg::PublishAnchor { table: table_id, anchor }).await?;
                c.until(|m| {
                    matches!(m, ServerMsg::Delta { body: DeltaBody::Anchor { party, anchor: a }, .. }
                        if *party == Party::Seat(seat) && *a == anchor)
                })
                .await?;
                if s == 1 {
                    // The counter the seats move: placed once both seats are taken.
                    let place = SandboxAction::Place {
                        at: hex_at((0, 0)),
                        label: "counter".into(),
                        owner: None,
                        face_up: true,
                        hidden: false,
                    };
                    let r = c.act(&place, false).await?;
                    c.until(|m| matches!(m, ServerMsg::Accepted { client_ref, .. } if *client_ref == r)).await?;
                }
            }
            Role::Spectator => {
                c.send(&ClientMsg::Spectate { table: table_id, invite: None }).await?;
                c.until(|m| matches!(m, ServerMsg::Snapshot(_))).await?;
            }
        }
        let seen = c.seen();
        Ok((c, seen))
    }
}

impl MusterClient {
    fn conn(&mut self) -> Result<&mut Connection> {
        self.conn.as_mut().ok_or_else(|| anyhow!("not connected"))
    }

    /// Wire bytes of one message of `len` bytes after framing.
    fn framed(&self, len: usize, from_client: bool) -> u64 {
        let len = len as u64;
        match self.transport {
            Transport::Quic => len + codec::FRAME_HEADER as u64,
            Transport::Ws => {
                let header = if len < 126 { 2 } else if len < 65536 { 4 } else { 10 };
                len + header + if from_client { 4 } else { 0 }
            }
        }
    }

    async fn send(&mut self, msg: &ClientMsg) -> Result<()> {
        let bytes = codec::encode(msg).map_err(|e| anyhow!("encode: {e}"))?;
        let n = self.framed(bytes.len(), true);
        self.conn()?.send_raw(Bytes::from(bytes)).await?;
        self.meter.up.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        Ok(())
    }

    /// Send an action for this seat (with its next chain link when `rolls`);
    /// returns its `client_ref`.
    async fn act(&mut self, action: &SandboxAction, rolls: bool) -> Result<u32> {
        let seat = self.seat.ok_or_else(|| anyhow!("not seated"))?;
        let links = if rolls {
            let f = self.follower.as_ref().ok_or_else(|| anyhow!("no snapshot yet"))?;
            let chain = self.chain.as_ref().ok_or_else(|| anyhow!("no chain"))?;
            vec![f.next_link(seat, chain).ok_or_else(|| anyhow!("no chain link left"))?]
        } else {
            Vec::new()
        };
        let client_ref = self.next_ref;
        self.next_ref += 1;
        let msg = ClientMsg::Act { table: self.table, client_ref, action: codec::encode_infallible(action), links };
        self.send(&msg).await?;
        Ok(client_ref)
    }

    /// What the driver checks: moves = rolls made at the table, and the last die.
    fn seen(&self) -> Seen {
        let Some(f) = &self.follower else { return Seen::default() };
        let die = f.state().last_roll.as_ref().and_then(|r| r.dice.first()).map_or(0, |d| *d as u8);
        // A roll that did not verify is reported as an impossible die.
        let die = if f.bad_rolls().is_empty() { die } else { 0 };
        Seen { moves: f.rolls(), die }
    }

    /// Read one message and fold it into the follower.
    async fn pump(&mut self) -> Result<ServerMsg> {
        let bytes = self.conn()?.recv_bytes().await?;
        self.fold(bytes).await
    }

    /// Count, decode and fold one message.
    async fn fold(&mut self, bytes: Bytes) -> Result<ServerMsg> {
        let n = self.framed(bytes.len(), false);
        self.meter.down.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        let msg = ServerMsg::decode(&bytes).map_err(|e| anyhow!("decode: {e}"))?;
        match &msg {
            ServerMsg::Snapshot(snap) => {
                self.follower = Some(Follower::from_snapshot(snap).map_err(|e| anyhow!("snapshot: {e}"))?);
            }
            ServerMsg::Delta { seq, body, .. } => {
                let Some(f) = self.follower.as_mut() else { bail!("a delta before any snapshot") };
                // Already folded (a resync from one entry back): skip.
                if *seq > f.seq() {
                    if let Err(e) = f.apply(*seq, body) {
                        // Out of order: ask for what is missing.
                        let last_seq = f.seq();
                        eprintln!("  muster: {e}; resync from {last_seq}");
                        self.send(&ClientMsg::Resync { table: self.table, last_seq }).await?;
                    }
                }
            }
            ServerMsg::Error { code: ErrorCode::Resync, .. } => {
                // Dropped for lagging: the room sends what is missing on Resync.
                let last_seq = self.follower.as_ref().map_or(0, |f| f.seq());
                self.send(&ClientMsg::Resync { table: self.table, last_seq }).await?;
            }
            ServerMsg::Error { code, message, .. } => bail!("server error {code:?}: {message}"),
            ServerMsg::Rejected { error, .. } => bail!("action rejected: {error:?}"),
            _ => {}
        }
        Ok(msg)
    }

    /// Pump until `pred` matches; the caller bounds the time.
    async fn until(&mut self, mut pred: impl FnMut(&ServerMsg) -> bool) -> Result<ServerMsg> {
        loop {
            let m = self.pump().await?;
            if pred(&m) {
                return Ok(m);
            }
        }
    }
}

impl Client for MusterClient {
    async fn send_move(&mut self, hex: (u8, u8)) -> Result<()> {
        let piece = self.follower.as_ref().and_then(|f| f.state().pieces.keys().next().copied());
        // Seat 1 places the counter in set-up, before any move is due.
        let piece = piece.ok_or_else(|| anyhow!("no counter on the table to move"))?;
        let action = SandboxAction::MoveRoll { pieces: vec![piece], to: hex_at(hex), count: 1, sides: 6 };
        self.act(&action, true).await?;
        Ok(())
    }

    async fn recv(&mut self) -> Result<Event> {
        loop {
            if Instant::now() >= self.next_ping {
                self.next_ping = Instant::now() + self.ping_every;
                self.nonce += 1;
                let nonce = self.nonce;
                self.send(&ClientMsg::Ping { nonce }).await?;
            }
            let due = self.next_ping;
            let conn = self.conn()?;
            // Both cancel-safe: the library reads only inside recv_bytes.
            tokio::select! {
                r = conn.recv_bytes() => {
                    let bytes = r?;
                    return self.fold_bytes(bytes).await;
                }
                _ = sleep_until(due) => continue,
            }
        }
    }

    async fn reconnect(&mut self) -> Result<Seen> {
        // No goodbye: the socket (or QUIC endpoint) just goes away.
        drop(self.conn.take());
        let mut conn = Connection::connect(&self.url, &self.opts).await.with_context(|| format!("connect {}", self.url))?;
        conn.resume(&self.token).await.context("resume")?;
        self.conn = Some(conn);
        let last = self.follower.as_ref().map_or(0, |f| f.seq());
        self.send(&ClientMsg::Resync { table: self.table, last_seq: last.saturating_sub(1) }).await?;
        self.until(|m| matches!(m, ServerMsg::Delta { .. } | ServerMsg::Snapshot(_))).await?;
        Ok(self.seen())
    }
}

impl MusterClient {
    /// `recv`'s tail for bytes already read: fold them, say whether a move landed.
    async fn fold_bytes(&mut self, bytes: Bytes) -> Result<Event> {
        let before = self.seen().moves;
        let msg = self.fold(bytes).await?;
        let seen = self.seen();
        if seen.moves != before || matches!(msg, ServerMsg::Snapshot(_)) {
            Ok(Event::State(seen))
        } else {
            Ok(Event::Other)
        }
    }
}
