//! [`LobbyLink`]: the lobby's own connection to a server, on its own
//! thread (as [`crate::app::NetTable`] does for a table): connect (a
//! `quic://` server's certificate pinned on first use, see
//! [`super::store`]), resume the stored identity or sign in as a new guest,
//! watch the lobby, create tables, and ask for the club's events and
//! "your games" every few seconds (issue 21). Everything the server pushes comes back
//! to the UI as [`LobbyEvent`]s; a dropped connection is re-established
//! and the list asked for again. A server of a fleet that says the lobby's
//! business is another node's (`ServerMsg::Moved`, issue 23) is followed
//! there as a table's connection follows it: `ws://` only, at most
//! [`MAX_REDIRECTS`] in a row.

use super::store::Store;
use crate::app::link::Waker;
use crate::app::reconnect::{self, Retried, resume};
use crate::net::{self, ConnectOptions, Connection, NetError};
use muster_shared::protocol::club::{ClubReply, ClubRequest};
use muster_shared::protocol::{
    ClientMsg, ErrorCode, ServerMsg, TableId, TableOptions, TableSummary, UserId,
};
use std::sync::mpsc as std_mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;

/// Redirects followed in a row (with no list served between them) before
/// giving up: two nodes naming each other would otherwise go on for ever.
/// The same bound as a table's connection.
pub const MAX_REDIRECTS: usize = 3;

/// What the lobby connection reports.
#[derive(Clone, Debug)]
pub enum LobbyEvent {
    /// A `quic://` server's certificate was seen for the first time and pinned.
    Pinned {
        host: String,
        fingerprint: String,
    },
    /// Signed in (`resumed`: the stored identity; otherwise a new guest).
    SignedIn {
        user: UserId,
        name: String,
        token: String,
        fingerprint: Option<String>,
        resumed: bool,
        /// The other identities kept for this server (in this profile),
        /// by name.
        others: Vec<String>,
    },
    /// The whole list (on watching, and again after a reconnect).
    Tables(Vec<TableSummary>),
    Update(TableSummary),
    Removed(TableId),
    Created {
        table: TableId,
        invite: Option<String>,
    },
    /// The server refused something (e.g. a table it cannot create).
    Refused {
        code: ErrorCode,
        message: String,
    },
    /// Connecting failed for good (bad address, a changed certificate...).
    Failed(String),
    /// The connection broke; reconnecting.
    Lost(String),
    Reconnected,
    /// The server sent the lobby to another node (`ServerMsg::Moved`):
    /// connected there now; tables open at `to` from now on.
    Moved {
        to: String,
    },
    /// A club answer or news: the events listed, "your games", where to
    /// sit when a round starts.
    Club(ClubReply),
}

enum Cmd {
    Create(TableOptions),
    Club(ClubRequest),
}

/// How often the lobby asks for its events and "your games" by default
/// (the table list is pushed; these are asked for).
pub const CLUB_REFRESH: Duration = Duration::from_secs(5);

/// The lobby's connection.
pub struct LobbyLink {
    to_net: mpsc::UnboundedSender<Cmd>,
    from_net: std_mpsc::Receiver<LobbyEvent>,
    waker: Arc<Mutex<Option<Waker>>>,
}

impl LobbyLink {
    /// Start connecting to `url` as `name`: the identity of that name kept
    /// for this server is resumed, or a new one signed in when there is
    /// none; with an empty name, the identity used last here (or a new
    /// "Guest"). Returns at once; watch [`LobbyLink::poll`].
    ///
    /// `base` supplies everything but the QUIC pin (which comes from the
    /// store) — e.g. how often to ping. The events and "your games" are
    /// asked for every `club_every`.
    pub fn connect(
        url: &str,
        name: &str,
        store: Store,
        base: ConnectOptions,
        club_every: Duration,
    ) -> Result<Self, NetError> {
        Self::connect_as(url, name, None, store, base, club_every)
    }

    /// As [`LobbyLink::connect`]; with a `password`, sign in to the
    /// account `name` instead (issue 21: from any machine), and keep its
    /// new session token here as that name's. A refusal (wrong password,
    /// no such account, too many failed sign-ins) ends the link with the
    /// server's words ([`LobbyEvent::Failed`]).
    pub fn connect_as(
        url: &str,
        name: &str,
        password: Option<String>,
        store: Store,
        base: ConnectOptions,
        club_every: Duration,
    ) -> Result<Self, NetError> {
        let (to_net, cmds) = mpsc::unbounded_channel();
        let (events, from_net) = std_mpsc::channel();
        let waker: Arc<Mutex<Option<Waker>>> = Arc::new(Mutex::new(None));
        let task = Task {
            url: url.trim().to_string(),
            home: url.trim().to_string(),
            name: name.trim().to_string(),
            password,
            store,
            base,
            club_every: club_every.max(Duration::from_millis(50)),
            events,
            waker: waker.clone(),
        };
        std::thread::Builder::new()
            .name("muster-lobby".into())
            .spawn(move || {
                match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(rt) => rt.block_on(task.run(cmds)),
                    Err(e) => task.emit(LobbyEvent::Failed(e.to_string())),
                }
            })
            .map_err(|e| NetError::Io(e.to_string()))?;
        Ok(LobbyLink {
            to_net,
            from_net,
            waker,
        })
    }

    /// Ask the server to create a table; answered by `Created` or `Refused`.
    pub fn create(&self, options: TableOptions) {
        let _ = self.to_net.send(Cmd::Create(options));
    }

    /// Send a club request (e.g. register for an event); its answer
    /// arrives as [`LobbyEvent::Club`].
    pub fn club(&self, req: ClubRequest) {
        let _ = self.to_net.send(Cmd::Club(req));
    }

    pub fn poll(&self) -> Vec<LobbyEvent> {
        self.from_net.try_iter().collect()
    }

    /// Called whenever something arrives (the UI asks for a repaint).
    pub fn set_waker(&self, waker: Waker) {
        if let Ok(mut w) = self.waker.lock() {
            *w = Some(waker);
        }
    }
}

struct Task {
    /// Where the lobby is connected: the address given, or where a
    /// redirect sent it.
    url: String,
    /// The address the player gave, under which the identity is kept.
    home: String,
    name: String,
    /// Sign in to the account `name` with this password (once, at the
    /// first connection; reconnects resume its session).
    password: Option<String>,
    store: Store,
    base: ConnectOptions,
    club_every: Duration,
    events: std_mpsc::Sender<LobbyEvent>,
    waker: Arc<Mutex<Option<Waker>>>,
}

impl Task {
    async fn run(mut self, mut cmds: mpsc::UnboundedReceiver<Cmd>) {
        let (mut conn, token, opts) = match self.first_connect().await {
            Ok(x) => x,
            Err(e) => {
                self.emit(LobbyEvent::Failed(e));
                return;
            }
        };
        // Redirects followed since the last list a server sent.
        let mut redirects = 0;
        loop {
            let why = match self.serve(&mut conn, &mut cmds, &mut redirects).await {
                Served::Dropped => {
                    let _ = conn.send(&ClientMsg::WatchLobby { on: false }).await;
                    conn.close().await;
                    return;
                }
                Served::Moved(to) => {
                    conn.close().await;
                    redirects += 1;
                    if redirects > MAX_REDIRECTS || !to.starts_with("ws://") {
                        // A `quic://` address would need its certificate's
                        // print, which a redirect does not carry.
                        self.emit(LobbyEvent::Failed(format!(
                            "the server sent the lobby on to {to} ({redirects} redirects in a \
                             row); connect again, perhaps to another address"
                        )));
                        return;
                    }
                    tracing::info!("the lobby moved to {to}");
                    match self.reconnect_at(&to, &opts, &token).await {
                        Ok(c) => {
                            self.url = to.clone();
                            conn = c;
                            self.emit(LobbyEvent::Moved { to });
                            continue;
                        }
                        Err(e) => {
                            format!("cannot reach {to}, where the server sent the lobby: {e}")
                        }
                    }
                }
                Served::Lost(why) => why,
            };
            self.emit(LobbyEvent::Lost(why));
            let again =
                reconnect::until_connected(|| self.reconnect(&opts, &token), || cmds.is_closed())
                    .await;
            conn = match again {
                Retried::Connected(c) => c,
                Retried::Gone => return,
                // The server no longer knows this identity: retrying
                // cannot help; back to the connect screen.
                Retried::Forgotten(message) => {
                    let _ = self.store.forget_token(&self.home, &token);
                    self.emit(LobbyEvent::Failed(format!(
                        "the server no longer knows your identity ({message}); connect again \
                         to sign in as a new guest"
                    )));
                    return;
                }
            };
            self.emit(LobbyEvent::Reconnected);
        }
    }

    /// Pin (first use) or check the certificate, connect, sign in, watch.
    async fn first_connect(&self) -> Result<(Connection, String, ConnectOptions), String> {
        let mut opts = self.base.clone();
        opts.fingerprint = None;
        if let Some(host) = self.url.strip_prefix("quic://") {
            // The probe learns what the server shows; the real connection
            // then pins exactly that, so a switch in between is refused too.
            let seen = net::probe_fingerprint(&self.url)
                .await
                .map_err(|e| format!("cannot reach {}: {e}", self.url))?;
            if self
                .store
                .check_or_pin(host, &seen)
                .map_err(|e| e.to_string())?
            {
                self.emit(LobbyEvent::Pinned {
                    host: host.to_string(),
                    fingerprint: seen.clone(),
                });
            }
            opts.fingerprint = Some(seen);
        } else if !self.url.starts_with("ws://") {
            return Err(NetError::BadUrl(self.url.clone()).to_string());
        }
        let mut conn = Connection::connect(&self.url, &opts)
            .await
            .map_err(|e| format!("cannot connect to {}: {e}", self.url))?;
        // The identity of the name asked for (a name not kept here is a
        // new identity), or without a name the one used last.
        let wanted = Some(self.name.as_str()).filter(|n| !n.is_empty());
        let saved = if self.password.is_some() {
            None
        } else {
            self.store.session(&self.url, wanted)
        };
        let (user, name, token, resumed) = match saved {
            Some(saved) => match resume(&mut conn, &saved.token).await {
                Ok((user, name)) => {
                    // The most recent now, under the server's name for it.
                    if let Err(e) = self.store.save_token(&self.url, &saved.token, &name) {
                        tracing::warn!("cannot keep the session token: {e}");
                    }
                    (user, name, saved.token, true)
                }
                // The server forgot the identity (new database): start afresh.
                Err(NetError::Refused {
                    code: ErrorCode::BadToken,
                    ..
                }) => {
                    let _ = self.store.forget_token(&self.url, &saved.token);
                    self.guest(&mut conn).await?
                }
                Err(e) => return Err(format!("cannot resume your identity: {e}")),
            },
            None => match &self.password {
                Some(password) => self.account(&mut conn, password).await?,
                None => self.guest(&mut conn).await?,
            },
        };
        let others = self
            .store
            .saved_names(&self.url)
            .into_iter()
            .filter(|n| *n != name)
            .collect();
        self.emit(LobbyEvent::SignedIn {
            user,
            name,
            token: token.clone(),
            fingerprint: opts.fingerprint.clone(),
            resumed,
            others,
        });
        conn.send(&ClientMsg::WatchLobby { on: true })
            .await
            .map_err(|e| e.to_string())?;
        Ok((conn, token, opts))
    }

    async fn guest(&self, conn: &mut Connection) -> Result<(UserId, String, String, bool), String> {
        let name = if self.name.is_empty() {
            "Guest"
        } else {
            &self.name
        };
        let (user, token) = conn
            .sign_in_guest(name)
            .await
            .map_err(|e| format!("cannot sign in: {e}"))?;
        // Not fatal: the identity just will not survive a restart.
        if let Err(e) = self.store.save_token(&self.url, &token, name) {
            tracing::warn!("cannot keep the session token: {e}");
        }
        Ok((user, name.to_string(), token, false))
    }

    /// Sign in to the account `self.name` with `password`: a new session
    /// for it, kept here under the account's name.
    async fn account(
        &self,
        conn: &mut Connection,
        password: &str,
    ) -> Result<(UserId, String, String, bool), String> {
        if self.name.is_empty() {
            return Err("type the account's name to sign in to it".into());
        }
        conn.send(&ClientMsg::Club(ClubRequest::SignIn {
            name: self.name.clone(),
            password: password.to_string(),
        }))
        .await
        .map_err(|e| format!("cannot sign in: {e}"))?;
        // The answer, past anything else the server says first (bounded:
        // the connect timeout).
        let end = tokio::time::Instant::now() + net::CONNECT_TIMEOUT;
        loop {
            let left = end.saturating_duration_since(tokio::time::Instant::now());
            let msg = conn
                .recv_timeout(left)
                .await
                .map_err(|e| format!("cannot sign in: {e}"))?;
            match msg {
                ServerMsg::SignedIn {
                    user,
                    name,
                    token: Some(token),
                } => {
                    if let Err(e) = self.store.save_token(&self.url, &token, &name) {
                        tracing::warn!("cannot keep the session token: {e}");
                    }
                    return Ok((user, name, token, true));
                }
                ServerMsg::Club(ClubReply::Refused { message, .. })
                | ServerMsg::Error { message, .. } => {
                    return Err(crate::app::event::words::sentence(&message));
                }
                _ => {}
            }
        }
    }

    async fn reconnect(&self, opts: &ConnectOptions, token: &str) -> Result<Connection, NetError> {
        self.reconnect_at(&self.url, opts, token).await
    }

    /// Connect to `url`, resume the identity of `token`, watch the lobby.
    async fn reconnect_at(
        &self,
        url: &str,
        opts: &ConnectOptions,
        token: &str,
    ) -> Result<Connection, NetError> {
        reconnect::connect_as(url, opts, token, Some(&ClientMsg::WatchLobby { on: true })).await
    }

    /// Until the connection breaks, the server sends the lobby elsewhere,
    /// or the UI goes. A list served resets `redirects`.
    async fn serve(
        &self,
        conn: &mut Connection,
        cmds: &mut mpsc::UnboundedReceiver<Cmd>,
        redirects: &mut usize,
    ) -> Served {
        // An idle lobby must still speak, or the server closes it.
        let mut ping = self.base.ping_timer();
        let mut nonce = 0u64;
        // The events and "your games" (asked for at once, then every
        // `club_every`): the club pushes only news, not these lists.
        let mut club = tokio::time::interval(self.club_every);
        club.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        // Not before this node served the list: a node that sends the
        // lobby elsewhere answers `WatchLobby` with `Moved` and closes, and
        // a request written into the closing socket can reset it before
        // `Moved` is read (the redirect would be lost).
        let mut listed = false;
        loop {
            tokio::select! {
                _ = ping.tick() => {
                    nonce += 1;
                    if let Err(e) = conn.send(&ClientMsg::Ping { nonce }).await {
                        return Served::Lost(e.to_string());
                    }
                }
                _ = club.tick(), if listed => {
                    for req in [ClubRequest::Events, ClubRequest::YourGames] {
                        if let Err(e) = conn.send(&ClientMsg::Club(req)).await {
                            return Served::Lost(e.to_string());
                        }
                    }
                }
                cmd = cmds.recv() => {
                    let msg = match cmd {
                        None => return Served::Dropped,
                        Some(Cmd::Create(options)) => ClientMsg::CreateTable { options },
                        Some(Cmd::Club(req)) => ClientMsg::Club(req),
                    };
                    if let Err(e) = conn.send(&msg).await {
                        return Served::Lost(e.to_string());
                    }
                }
                msg = conn.recv() => match msg {
                    Ok(ServerMsg::Moved { to, .. }) => return Served::Moved(to),
                    Ok(msg) => {
                        if matches!(msg, ServerMsg::Lobby { .. }) {
                            *redirects = 0;
                            listed = true;
                        }
                        self.receive(msg);
                    }
                    Err(NetError::Decode(e)) => self.emit(LobbyEvent::Refused {
                        code: ErrorCode::BadMessage,
                        message: format!("the server sent a bad message: {e}"),
                    }),
                    Err(e) => return Served::Lost(e.to_string()),
                },
            }
        }
    }

    fn receive(&self, msg: ServerMsg) {
        let event = match msg {
            ServerMsg::Lobby { tables } => LobbyEvent::Tables(tables),
            ServerMsg::LobbyUpdate { table } => LobbyEvent::Update(table),
            ServerMsg::LobbyRemoved { table } => LobbyEvent::Removed(table),
            ServerMsg::TableCreated { table, invite } => LobbyEvent::Created { table, invite },
            ServerMsg::Error { code, message, .. } => LobbyEvent::Refused { code, message },
            ServerMsg::Club(reply) => LobbyEvent::Club(reply),
            _ => return,
        };
        self.emit(event);
    }

    fn emit(&self, event: LobbyEvent) {
        let _ = self.events.send(event);
        if let Ok(w) = self.waker.lock()
            && let Some(w) = w.as_ref()
        {
            w();
        }
    }
}

/// How a connected stretch of the lobby ended.
enum Served {
    /// The UI dropped the lobby.
    Dropped,
    /// The connection broke.
    Lost(String),
    /// The server sent the lobby to this address (issue 23).
    Moved(String),
}
