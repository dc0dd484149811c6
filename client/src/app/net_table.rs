//! [`NetTable`]: a table on a Muster server, over [`crate::net`].
//!
//! The connection lives on its own thread with a small Tokio runtime; the
//! UI thread talks to it through channels and never blocks on the network.
//! The thread forwards snapshots and deltas untouched, so the UI's
//! followers check every byte the server sent, exactly as at a local table.
//!
//! This seat's dice chain is made here, on the player's machine, and only
//! its anchor is ever sent; a link goes out with the action that consumes
//! it and never earlier. A table joined again gets a fresh chain (a seat
//! may re-anchor at any time), so no secret needs to survive a restart.
//!
//! A dropped connection is not the end of the table: the thread connects
//! again (backing off up to [`RECONNECT_MAX_WAIT`]), resumes the same
//! identity with its session token, sits in the same seat (the server binds
//! a seat to the identity) or watches again, and forwards the fresh
//! snapshot; the seat publishes a fresh dice chain. The UI's follower
//! simply starts again from that snapshot, its log kept. A server of a
//! fleet that no longer serves the table says where it went
//! (`ServerMsg::Moved`, issue 23): the thread follows it the same way,
//! to the new address.

use super::link::{LinkError, LinkEvent, TableLink, Waker};
use crate::net::{ConnectOptions, Connection, NetError};
use muster_shared::codec;
use muster_shared::dice::{ChainBook, HashChain, Party, SeatLink};
use muster_shared::engine::Ruleset;
use muster_shared::protocol::{
    ChatChannel, ClientMsg, DeltaBody, ErrorCode, ServerMsg, TableId, TableOptions,
};
use muster_shared::{MatchId, SeatId, Viewer};
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc as std_mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;

/// Links in this seat's chain; a new chain is published when it runs out.
const SEAT_CHAIN_LEN: u32 = 4096;
/// How long joining may take before giving up.
const JOIN_TIMEOUT: Duration = Duration::from_secs(20);
/// First wait before reconnecting; doubled after each failed try...
const RECONNECT_FIRST_WAIT: Duration = Duration::from_millis(200);
/// ...up to this.
pub const RECONNECT_MAX_WAIT: Duration = Duration::from_secs(5);

/// Who to be at the table.
#[derive(Clone, Debug)]
pub enum SignIn {
    /// A new guest identity with this display name.
    Guest(String),
    /// The identity this session token belongs to (`Resume`).
    Resume(String),
}

/// Which table to sit at, and how.
#[derive(Clone, Debug)]
pub enum Join {
    /// Create a table with these options and take its first seat.
    Create(TableOptions),
    /// Take a seat (the first free one when `seat` is `None`).
    Seat {
        table: TableId,
        seat: Option<SeatId>,
        invite: Option<String>,
    },
    /// Watch.
    Spectate {
        table: TableId,
        invite: Option<String>,
    },
}

enum Cmd {
    Act {
        client_ref: u32,
        action: Vec<u8>,
        rolls: bool,
    },
    Resync,
    Chat {
        channel: ChatChannel,
        text: String,
    },
    /// Issue 18: ask to take back this seat's last action.
    TakeBack,
    /// Issue 18: answer the open take-back request.
    AnswerTakeBack {
        agree: bool,
    },
}

/// A table on a server.
pub struct NetTable<R: Ruleset> {
    table: TableId,
    invite: Option<String>,
    viewer: Viewer,
    url: String,
    to_net: mpsc::UnboundedSender<Cmd>,
    from_net: std_mpsc::Receiver<LinkEvent>,
    waker: Arc<Mutex<Option<Waker>>>,
    /// False while the thread is reconnecting.
    connected: Arc<AtomicBool>,
    /// The session token of the identity at this table.
    token: String,
    next_ref: u32,
    _rules: PhantomData<fn() -> R>,
}

impl<R: Ruleset> NetTable<R> {
    /// Connect to `url`, sign in as a guest called `name`, and join as
    /// `join` says. Blocks until the first snapshot has arrived (or
    /// [`JOIN_TIMEOUT`]), so the seat is known when this returns.
    pub fn join(url: &str, opts: ConnectOptions, name: &str, join: Join) -> Result<Self, NetError> {
        Self::open(url, opts, SignIn::Guest(name.to_string()), join)
    }

    /// As [`NetTable::join`], signing in as `sign_in` says (a stored
    /// session token keeps the same identity, and so the same seat).
    pub fn open(
        url: &str,
        opts: ConnectOptions,
        sign_in: SignIn,
        join: Join,
    ) -> Result<Self, NetError> {
        let (to_net, cmds) = mpsc::unbounded_channel();
        let (events, from_net) = std_mpsc::channel();
        let (ready_tx, ready_rx) = std_mpsc::channel();
        let waker: Arc<Mutex<Option<Waker>>> = Arc::new(Mutex::new(None));
        let connected = Arc::new(AtomicBool::new(false));
        let task = Task {
            url: Mutex::new(url.to_string()),
            home: url.to_string(),
            opts,
            sign_in,
            join,
            events,
            waker: waker.clone(),
            connected: connected.clone(),
        };
        std::thread::Builder::new()
            .name("muster-net".into())
            .spawn(move || {
                let rt = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(rt) => rt,
                    Err(e) => {
                        let _ = ready_tx.send(Err(NetError::Io(e.to_string())));
                        return;
                    }
                };
                rt.block_on(task.run(cmds, ready_tx));
            })
            .map_err(|e| NetError::Io(e.to_string()))?;
        let ready = ready_rx
            .recv_timeout(JOIN_TIMEOUT + Duration::from_secs(5))
            .map_err(|_| NetError::Timeout)??;
        Ok(NetTable {
            table: ready.table,
            invite: ready.invite,
            viewer: ready.viewer,
            url: url.to_string(),
            to_net,
            from_net,
            waker,
            connected,
            token: ready.token,
            next_ref: 1,
            _rules: PhantomData,
        })
    }

    pub fn table(&self) -> TableId {
        self.table
    }

    /// The invite code of a private table this client created.
    pub fn invite(&self) -> Option<&str> {
        self.invite.as_deref()
    }

    /// The session token of the identity at this table (keep it to come
    /// back as the same player).
    pub fn token(&self) -> &str {
        &self.token
    }

    /// Seated here, or watching.
    pub fn viewer(&self) -> Viewer {
        self.viewer
    }

    /// False while the connection is being re-established.
    pub fn is_connected(&self) -> bool {
        self.connected.load(Ordering::Relaxed)
    }
}

impl<R: Ruleset> TableLink<R> for NetTable<R> {
    fn seats(&self) -> Vec<SeatId> {
        match self.viewer {
            Viewer::Seat(s) => vec![s],
            _ => Vec::new(),
        }
    }

    fn viewers(&self) -> Vec<Viewer> {
        vec![self.viewer]
    }

    fn submit(
        &mut self,
        seat: SeatId,
        action: R::Action,
        rolls_dice: bool,
    ) -> Result<u32, LinkError> {
        if self.viewer != Viewer::Seat(seat) {
            return Err(LinkError::NotYourSeat(seat));
        }
        let client_ref = self.next_ref;
        self.next_ref = self.next_ref.wrapping_add(1);
        self.to_net
            .send(Cmd::Act {
                client_ref,
                action: codec::encode_infallible(&action),
                rolls: rolls_dice,
            })
            .map_err(|_| LinkError::Disconnected("the connection has closed".into()))?;
        Ok(client_ref)
    }

    fn poll(&mut self) -> Vec<LinkEvent> {
        self.from_net.try_iter().collect()
    }

    fn resync(&mut self, _viewer: Viewer) {
        let _ = self.to_net.send(Cmd::Resync);
    }

    fn say(&mut self, channel: ChatChannel, text: String) -> Result<(), LinkError> {
        self.to_net
            .send(Cmd::Chat { channel, text })
            .map_err(|_| LinkError::Disconnected("the connection has closed".into()))
    }

    fn take_back(&mut self, seat: SeatId) -> Result<(), LinkError> {
        if self.viewer != Viewer::Seat(seat) {
            return Err(LinkError::NotYourSeat(seat));
        }
        self.to_net
            .send(Cmd::TakeBack)
            .map_err(|_| LinkError::Disconnected("the connection has closed".into()))
    }

    fn answer_take_back(&mut self, agree: bool) -> Result<(), LinkError> {
        self.to_net
            .send(Cmd::AnswerTakeBack { agree })
            .map_err(|_| LinkError::Disconnected("the connection has closed".into()))
    }

    fn describe(&self) -> String {
        if self.is_connected() {
            format!("{} table {}", self.url, self.table.0)
        } else {
            format!("{} table {} (reconnecting...)", self.url, self.table.0)
        }
    }

    fn set_waker(&mut self, waker: Waker) {
        if let Ok(mut w) = self.waker.lock() {
            *w = Some(waker);
        }
    }
}

/// The network thread's side.
struct Task {
    /// Where the table is served; a redirect changes it.
    url: Mutex<String>,
    /// The address the player gave: where to start again when a server
    /// that a redirect named cannot be reached (it died after naming it).
    home: String,
    opts: ConnectOptions,
    sign_in: SignIn,
    join: Join,
    events: std_mpsc::Sender<LinkEvent>,
    waker: Arc<Mutex<Option<Waker>>>,
    connected: Arc<AtomicBool>,
}

/// What the network thread knows of the table: enough to pick this seat's
/// next dice link, to ask for a resync, and to sit down again after a
/// reconnect.
struct Seen {
    table: TableId,
    viewer: Viewer,
    invite: Option<String>,
    token: String,
    match_id: MatchId,
    seq: u64,
    book: ChainBook,
    chain: HashChain,
}

/// What the caller of [`NetTable::open`] learns once seated.
struct Ready {
    table: TableId,
    invite: Option<String>,
    viewer: Viewer,
    token: String,
}

/// How a connected stretch ended.
enum Ended {
    /// The UI dropped its `NetTable`.
    Dropped,
    /// The connection broke.
    Lost(String),
    /// The server said the table is served elsewhere now (issue 23).
    Moved(String),
}

/// Redirects followed in a row while joining before giving up (two
/// servers naming each other would otherwise go on for ever).
const MAX_REDIRECTS: usize = 3;

impl Task {
    fn url(&self) -> String {
        self.url.lock().map(|u| u.clone()).unwrap_or_default()
    }

    /// Back to the address the player gave (it asks the fleet again
    /// where the table is).
    fn go_home(&self) {
        if let Ok(mut url) = self.url.lock() {
            url.clone_from(&self.home);
        }
    }

    /// Go to `to` from now on. Only `ws://`: a `quic://` address would
    /// need its certificate's fingerprint, which a redirect does not carry.
    fn follow(&self, to: &str) {
        if to.starts_with("ws://")
            && let Ok(mut url) = self.url.lock()
        {
            tracing::info!("the table moved to {to}");
            *url = to.to_string();
        }
    }

    async fn run(
        self,
        mut cmds: mpsc::UnboundedReceiver<Cmd>,
        ready: std_mpsc::Sender<Result<Ready, NetError>>,
    ) {
        let mut opened = tokio::time::timeout(JOIN_TIMEOUT, self.open()).await;
        for _ in 0..MAX_REDIRECTS {
            let Ok(Err(NetError::Moved { to })) = &opened else {
                break;
            };
            self.follow(to);
            opened = tokio::time::timeout(JOIN_TIMEOUT, self.open()).await;
        }
        let (mut conn, mut seen) = match opened {
            Ok(Ok(x)) => x,
            Ok(Err(e)) => {
                let _ = ready.send(Err(e));
                return;
            }
            Err(_) => {
                let _ = ready.send(Err(NetError::Timeout));
                return;
            }
        };
        self.connected.store(true, Ordering::Relaxed);
        let _ = ready.send(Ok(Ready {
            table: seen.table,
            invite: seen.invite.clone(),
            viewer: seen.viewer,
            token: seen.token.clone(),
        }));
        loop {
            match self.serve(&mut conn, &mut seen, &mut cmds).await {
                Ended::Dropped => {
                    let _ = conn.send(&ClientMsg::Leave { table: seen.table }).await;
                    conn.close().await;
                    return;
                }
                Ended::Moved(to) => {
                    self.connected.store(false, Ordering::Relaxed);
                    self.follow(&to);
                    conn.close().await;
                    match self.reconnect(&mut seen, &mut cmds).await {
                        Some(c) => {
                            conn = c;
                            self.connected.store(true, Ordering::Relaxed);
                        }
                        None => return,
                    }
                }
                Ended::Lost(why) => {
                    self.connected.store(false, Ordering::Relaxed);
                    self.emit(LinkEvent::Error(format!(
                        "lost the connection: {why}; reconnecting"
                    )));
                    match self.reconnect(&mut seen, &mut cmds).await {
                        Some(c) => {
                            conn = c;
                            self.connected.store(true, Ordering::Relaxed);
                        }
                        None => return,
                    }
                }
            }
        }
    }

    /// Pass commands out and messages in until the connection breaks or
    /// the UI goes away.
    async fn serve(
        &self,
        conn: &mut Connection,
        seen: &mut Seen,
        cmds: &mut mpsc::UnboundedReceiver<Cmd>,
    ) -> Ended {
        let mut ping = self.opts.ping_timer();
        let mut nonce = 0u64;
        loop {
            tokio::select! {
                _ = ping.tick() => {
                    // Keeps a quiet table (a spectator, a slow game) from
                    // being closed by the server's idle timeout.
                    nonce += 1;
                    if let Err(e) = conn.send(&ClientMsg::Ping { nonce }).await {
                        return Ended::Lost(e.to_string());
                    }
                }
                cmd = cmds.recv() => {
                    let Some(cmd) = cmd else { return Ended::Dropped };
                    let msg = match cmd {
                        Cmd::Act { client_ref, action, rolls } => {
                            let links = if rolls { seen.next_link() } else { Vec::new() };
                            ClientMsg::Act { table: seen.table, client_ref, action, links }
                        }
                        Cmd::Resync => ClientMsg::Resync { table: seen.table, last_seq: seen.seq },
                        Cmd::Chat { channel, text } => ClientMsg::Chat { table: seen.table, channel, text },
                        Cmd::TakeBack => ClientMsg::TakeBack { table: seen.table },
                        Cmd::AnswerTakeBack { agree } => ClientMsg::AnswerTakeBack { table: seen.table, agree },
                    };
                    if let Err(e) = conn.send(&msg).await {
                        return Ended::Lost(e.to_string());
                    }
                }
                msg = conn.recv() => match msg {
                    Ok(ServerMsg::Moved { table, to }) if table == seen.table => {
                        return Ended::Moved(to);
                    }
                    Ok(msg) => {
                        if let Some(reply) = self.receive(seen, msg)
                            && let Err(e) = conn.send(&reply).await
                        {
                            return Ended::Lost(e.to_string());
                        }
                    }
                    // A frame that does not decode is the server's fault,
                    // not a reason to stop: say so and ask to start again.
                    Err(NetError::Decode(e)) => {
                        self.emit(LinkEvent::Error(format!("the server sent a bad message: {e}")));
                        let _ = conn.send(&ClientMsg::Resync { table: seen.table, last_seq: seen.seq }).await;
                    }
                    Err(e) => return Ended::Lost(e.to_string()),
                },
            }
        }
    }

    /// Connect again until it works, the table is gone for good, or the UI
    /// goes away (`None` for the last two). Actions asked for meanwhile are
    /// not sent, and the UI is told so.
    async fn reconnect(
        &self,
        seen: &mut Seen,
        cmds: &mut mpsc::UnboundedReceiver<Cmd>,
    ) -> Option<Connection> {
        let mut wait = RECONNECT_FIRST_WAIT;
        loop {
            let sleep = tokio::time::sleep(wait);
            tokio::pin!(sleep);
            loop {
                tokio::select! {
                    () = &mut sleep => break,
                    cmd = cmds.recv() => match cmd {
                        None => return None,
                        Some(Cmd::Act { .. }) => self.emit(LinkEvent::Error(
                            "not connected: the action was not sent".into(),
                        )),
                        Some(Cmd::Chat { .. }) => self.emit(LinkEvent::Error(
                            "not connected: the message was not sent".into(),
                        )),
                        Some(Cmd::TakeBack | Cmd::AnswerTakeBack { .. }) => self.emit(LinkEvent::Error(
                            "not connected: the take-back was not sent".into(),
                        )),
                        Some(Cmd::Resync) => {}
                    },
                }
            }
            match tokio::time::timeout(JOIN_TIMEOUT, self.rejoin(seen)).await {
                Ok(Ok(conn)) => return Some(conn),
                // The identity or the table is gone: trying again will not help.
                Ok(Err(NetError::Refused { code, message }))
                    if matches!(
                        code,
                        ErrorCode::BadToken
                            | ErrorCode::NoSuchTable
                            | ErrorCode::Forbidden
                            | ErrorCode::BadInvite
                    ) =>
                {
                    self.emit(LinkEvent::Error(format!(
                        "cannot rejoin the table ({code}): {message}"
                    )));
                    return None;
                }
                // Served elsewhere: try there next.
                Ok(Err(NetError::Moved { to })) => self.follow(&to),
                Ok(Err(e)) => {
                    tracing::debug!("reconnect failed: {e}");
                    self.go_home();
                }
                Err(_) => {
                    tracing::debug!("reconnect timed out");
                    self.go_home();
                }
            }
            wait = (wait * 2).min(RECONNECT_MAX_WAIT);
        }
    }

    /// Connect, resume the identity, and sit (or watch) again.
    async fn rejoin(&self, seen: &mut Seen) -> Result<Connection, NetError> {
        let mut conn = Connection::connect(&self.url(), &self.opts).await?;
        conn.resume(&seen.token).await?;
        let msg = match seen.viewer {
            Viewer::Seat(seat) => ClientMsg::JoinSeat {
                table: seen.table,
                seat: Some(seat),
                invite: seen.invite.clone(),
            },
            _ => ClientMsg::Spectate {
                table: seen.table,
                invite: seen.invite.clone(),
            },
        };
        let fresh = self
            .enter(
                &mut conn,
                seen.table,
                msg,
                seen.invite.clone(),
                seen.token.clone(),
            )
            .await?;
        *seen = fresh;
        Ok(conn)
    }

    /// Connect, sign in, join, and wait for the first snapshot (forwarded
    /// to the UI like any other).
    async fn open(&self) -> Result<(Connection, Seen), NetError> {
        let mut conn = Connection::connect(&self.url(), &self.opts).await?;
        let token = match &self.sign_in {
            SignIn::Guest(name) => conn.sign_in_guest(name).await?.1,
            SignIn::Resume(token) => {
                conn.resume(token).await?;
                token.clone()
            }
        };
        let (table, join_msg, invite) = match &self.join {
            Join::Create(options) => {
                conn.send(&ClientMsg::CreateTable {
                    options: options.clone(),
                })
                .await?;
                let (table, invite) = loop {
                    match conn.recv().await? {
                        ServerMsg::TableCreated { table, invite } => break (table, invite),
                        ServerMsg::Error { code, message, .. } => {
                            return Err(NetError::Refused { code, message });
                        }
                        _ => {}
                    }
                };
                let msg = ClientMsg::JoinSeat {
                    table,
                    seat: None,
                    invite: invite.clone(),
                };
                (table, msg, invite)
            }
            Join::Seat {
                table,
                seat,
                invite,
            } => (
                *table,
                ClientMsg::JoinSeat {
                    table: *table,
                    seat: *seat,
                    invite: invite.clone(),
                },
                invite.clone(),
            ),
            Join::Spectate { table, invite } => (
                *table,
                ClientMsg::Spectate {
                    table: *table,
                    invite: invite.clone(),
                },
                invite.clone(),
            ),
        };
        let seen = self
            .enter(&mut conn, table, join_msg, invite, token)
            .await?;
        Ok((conn, seen))
    }

    /// Send the join (or spectate) message, wait for the snapshot, forward
    /// it, and publish a fresh dice chain when seated.
    async fn enter(
        &self,
        conn: &mut Connection,
        table: TableId,
        join_msg: ClientMsg,
        invite: Option<String>,
        token: String,
    ) -> Result<Seen, NetError> {
        conn.send(&join_msg).await?;
        let snap = loop {
            match conn.recv().await? {
                ServerMsg::Snapshot(s) if s.table == table => break s,
                ServerMsg::Error { code, message, .. } => {
                    return Err(NetError::Refused { code, message });
                }
                ServerMsg::Moved { table: t, to } if t == table => {
                    return Err(NetError::Moved { to });
                }
                _ => {}
            }
        };
        let viewer = snap.seat.map_or(Viewer::Spectator, Viewer::Seat);
        let mut seen = Seen {
            table,
            viewer,
            invite,
            token,
            match_id: snap.match_id,
            seq: snap.seq,
            book: ChainBook::from_heads(snap.chains.iter().copied(), snap.rolls),
            chain: HashChain::generate(SEAT_CHAIN_LEN),
        };
        self.emit(LinkEvent::Snapshot {
            viewer,
            snapshot: snap,
        });
        if let Viewer::Seat(seat) = viewer {
            let anchor = seen.chain.anchor();
            conn.send(&ClientMsg::PublishAnchor { table, anchor })
                .await?;
            // Count from the new chain at once: an action that rolls may be
            // sent before the anchor's delta comes back (after a reconnect
            // the old chain's head is still in the snapshot), and the server
            // reads it after the anchor.
            let _ = seen.book.anchor(Party::Seat(seat), anchor);
        }
        Ok(seen)
    }

    /// Forward one server message; returns a message to send back, if any.
    fn receive(&self, seen: &mut Seen, msg: ServerMsg) -> Option<ClientMsg> {
        match msg {
            ServerMsg::Snapshot(snap) if snap.table == seen.table => {
                seen.match_id = snap.match_id;
                seen.seq = snap.seq;
                seen.book = ChainBook::from_heads(snap.chains.iter().copied(), snap.rolls);
                self.emit(LinkEvent::Snapshot {
                    viewer: seen.viewer,
                    snapshot: snap,
                });
            }
            ServerMsg::Delta { table, seq, body } if table == seen.table => {
                // Keep the chain heads current so the next link is right;
                // the follower does the real checking.
                match &body {
                    DeltaBody::Anchor { party, anchor }
                    | DeltaBody::Reanchor { party, anchor, .. } => {
                        let _ = seen.book.anchor(*party, *anchor);
                    }
                    DeltaBody::Action {
                        roll: Some(proof), ..
                    } => {
                        let _ = seen.book.check_roll(seen.match_id, seq, None, None, proof);
                    }
                    // Compact deltas go to spectators only, who need no
                    // next link; the follower checks their rolls.
                    DeltaBody::Action { .. } | DeltaBody::Lean { .. } => {}
                    // Rolls nothing: the chains stay as they are.
                    DeltaBody::TakeBack { .. } => {}
                }
                seen.seq = seq;
                self.emit(LinkEvent::Delta {
                    viewer: seen.viewer,
                    seq,
                    body,
                });
                // Our chain used up: publish a fresh one.
                if let Viewer::Seat(s) = seen.viewer
                    && seen.book.remaining(Party::Seat(s)) == 0
                    && seen.book.next_index(Party::Seat(s)).is_some()
                {
                    seen.chain = HashChain::generate(SEAT_CHAIN_LEN);
                    return Some(ClientMsg::PublishAnchor {
                        table: seen.table,
                        anchor: seen.chain.anchor(),
                    });
                }
            }
            ServerMsg::Accepted {
                table,
                client_ref,
                seq,
            } if table == seen.table => {
                self.emit(LinkEvent::Accepted { client_ref, seq });
            }
            ServerMsg::Rejected {
                table,
                client_ref,
                error,
            } if table == seen.table => {
                self.emit(LinkEvent::Rejected { client_ref, error });
            }
            ServerMsg::Error { code, message, .. } => {
                self.emit(LinkEvent::Error(format!(
                    "the server refused ({code}): {message}"
                )));
            }
            ServerMsg::Chat {
                table,
                channel,
                from,
                text,
                user,
            } if table == seen.table => {
                self.emit(LinkEvent::Chat {
                    channel,
                    from,
                    text,
                    user,
                });
            }
            ServerMsg::TakeBackAsked {
                table,
                seat,
                name,
                undone,
            } if table == seen.table => {
                self.emit(LinkEvent::TakeBackAsked { seat, name, undone });
            }
            ServerMsg::TakeBackEnded { table, refusal } if table == seen.table => {
                self.emit(LinkEvent::TakeBackEnded { refusal });
            }
            ServerMsg::Clock {
                table,
                seat,
                secs_left,
            } if table == seen.table => {
                self.emit(LinkEvent::Clock { seat, secs_left });
            }
            // The lobby has its own connection; pending decisions are read
            // from the followed state (`Ruleset::pending`).
            _ => {}
        }
        None
    }

    fn emit(&self, event: LinkEvent) {
        // The UI may have gone; nothing to do then.
        let _ = self.events.send(event);
        if let Ok(w) = self.waker.lock()
            && let Some(w) = w.as_ref()
        {
            w();
        }
    }
}

impl Seen {
    /// This seat's next chain link, for an action that rolls.
    fn next_link(&self) -> Vec<SeatLink> {
        let Viewer::Seat(seat) = self.viewer else {
            return Vec::new();
        };
        self.book
            .next_index(Party::Seat(seat))
            .and_then(|index| {
                Some(SeatLink {
                    seat,
                    index,
                    link: self.chain.link(index)?,
                })
            })
            .into_iter()
            .collect()
    }
}
