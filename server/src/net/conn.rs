//! One client connection, whatever its transport: a reader loop that
//! decodes (bounded), rate-limits and dispatches [`ClientMsg`]s, and a writer
//! task that drains the connection's bounded outbound queue.
//!
//! Rooms queue frames with `try_send` on an [`Outbox`] and never wait; when
//! the queue is full the room drops the connection from its subscribers
//! and marks the table as lagged here. Once the writer has drained the
//! queue it tells the client (`Error{Resync}`) and asks the room for a
//! fresh snapshot. A client that never reads therefore costs a room one
//! failed `try_send`, and its writer is closed after the write timeout.

use crate::Shared;
use crate::club::accounts;
use crate::fleet::redirect::Located;
use crate::identity;
use crate::outbox::{Lag, Outbox, encode_msg, error_frame};
use crate::quota::{Bucket, ConnSlot};
use crate::room::actor::{CreateError, Room};
use crate::room::{RoomCmd, Who};
use crate::storage::TokenLookup;
use crate::storage::club as storage_club;
use bytes::Bytes;
use muster_shared::codec::DecodeError;
use muster_shared::protocol::club::{ClubError, ClubReply, ClubRequest};
use muster_shared::protocol::{
    ClientMsg, ErrorCode, PROTOCOL_VERSION, ServerMsg, SessionId, TableId,
};
use std::collections::BTreeSet;
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};
use tokio::sync::{Notify, broadcast, mpsc};

/// Messages that arrive over the rate limit this many times in a row close
/// the connection: a client that ignores `RateLimited` is not a client.
const MAX_RATE_VIOLATIONS: u32 = 1000;
/// Time allowed for the first message.
const HELLO_TIMEOUT: Duration = Duration::from_secs(10);

/// Why reading a frame stopped.
#[derive(Debug)]
pub enum ReadError {
    /// A frame over the client limit; the stream cannot be trusted after it.
    TooLarge,
    /// The transport failed or the peer broke the framing.
    Transport(String),
}

impl From<DecodeError> for ReadError {
    fn from(_: DecodeError) -> Self {
        ReadError::TooLarge
    }
}

/// The receiving half of a transport: one message's bytes at a time.
pub trait FrameRead: Send {
    /// `Ok(None)` when the peer closed cleanly.
    fn read(&mut self) -> impl Future<Output = Result<Option<Bytes>, ReadError>> + Send;
}

/// The sending half of a transport. Frames are fed (buffered, written out
/// only when the transport's buffer is full) and flushed once per wake-up
/// of the writer, so a burst of frames costs one system call, not one each.
pub trait FrameWrite: Send + 'static {
    fn feed(&mut self, frame: Bytes) -> impl Future<Output = Result<(), String>> + Send;
    fn flush(&mut self) -> impl Future<Output = Result<(), String>> + Send;
    fn close(self) -> impl Future<Output = ()> + Send;
}

/// Most frames fed between two flushes: bounds the writer's buffer.
const MAX_BATCH: usize = 64;

/// Which transport, for the connection gauges.
#[derive(Clone, Copy, Debug)]
pub enum Transport {
    Ws,
    Quic,
}

impl Transport {
    fn gauge(self, shared: &Shared) -> &AtomicU64 {
        match self {
            Transport::Ws => &shared.metrics.connections_ws,
            Transport::Quic => &shared.metrics.connections_quic,
        }
    }
}

/// Serve one connection from `peer` until it closes, fails, or the
/// server shuts down. Over the limit of connections from one address the
/// client gets `Error{RateLimited}` in words, and the connection closes.
pub async fn serve<R: FrameRead, W: FrameWrite>(
    shared: Arc<Shared>,
    transport: Transport,
    peer: std::net::IpAddr,
    reader: R,
    mut writer: W,
) {
    let slot = match shared.addrs.connect(peer) {
        Ok(slot) => slot,
        Err(why) => {
            shared.metrics.rate_limited.fetch_add(1, Relaxed);
            tracing::debug!(%peer, "refused: {why}");
            drop(reader);
            let _ = tokio::time::timeout(Duration::from_secs(2), async {
                writer
                    .feed(error_frame(ErrorCode::RateLimited, &why, None))
                    .await?;
                writer.flush().await
            })
            .await;
            writer.close().await;
            return;
        }
    };
    let gauge = transport.gauge(&shared);
    gauge.fetch_add(1, Relaxed);
    let id = shared.next_conn.fetch_add(1, Relaxed);
    let (tx, rx) = mpsc::channel(shared.config.limits.queue);
    let lag = Arc::new(Lag::default());
    let out = Outbox::new(id, tx, lag.clone());
    let writer = tokio::spawn(write_loop(shared.clone(), writer, rx, lag, id));
    let mut conn = Conn {
        shared: shared.clone(),
        out,
        hello: false,
        who: None,
        tables: BTreeSet::new(),
        lobby: None,
        bad: 0,
        violations: 0,
        bucket: Bucket::new(
            f64::from(shared.config.limits.rate_per_sec),
            shared.config.limits.rate_burst,
        ),
        slot,
        session: None,
        kick: Arc::new(Notify::new()),
    };
    conn.run(reader).await;
    conn.finish().await;
    let _ = writer.await;
    gauge.fetch_sub(1, Relaxed);
}

async fn write_loop<W: FrameWrite>(
    shared: Arc<Shared>,
    mut w: W,
    mut rx: mpsc::Receiver<Bytes>,
    lag: Arc<Lag>,
    id: u64,
) {
    let timeout = Duration::from_secs(shared.config.limits.write_timeout_secs);
    let mut batch: Vec<Bytes> = Vec::new();
    'outer: loop {
        tokio::select! {
            biased;
            n = rx.recv_many(&mut batch, MAX_BATCH) => if n == 0 {
                break;
            },
            _ = lag.notify.notified() => {}
        }
        // Everything queued at this wake-up goes out in one flush.
        let mut close = false;
        let written = tokio::time::timeout(timeout, async {
            for f in batch.drain(..) {
                // An empty frame is the reader's "close now" (no message encodes to nothing).
                if f.is_empty() {
                    close = true;
                    break;
                }
                w.feed(f).await?;
            }
            w.flush().await
        })
        .await;
        match written {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                tracing::debug!(conn = id, "write failed: {e}");
                break;
            }
            Err(_) => {
                tracing::info!(conn = id, "client stopped reading; closing");
                break;
            }
        }
        batch.clear();
        if close {
            break;
        }
        if rx.is_empty() {
            for table in lag.take() {
                let f = error_frame(
                    ErrorCode::Resync,
                    &format!("you fell behind at table {}; a snapshot follows", table.0),
                    None,
                );
                if w.feed(f).await.is_err() || w.flush().await.is_err() {
                    break 'outer;
                }
                if let Some(room) = shared.lobby.room(table) {
                    resubscribe(room, id);
                }
            }
        }
    }
    w.close().await;
}

/// Ask `room` for a fresh snapshot for connection `conn`. A full command
/// queue must not lose the request (the connection would wait forever), so
/// then a small task waits for space instead of the writer.
fn resubscribe(room: crate::room::RoomHandle, conn: u64) {
    match room.tx.try_send(RoomCmd::Resubscribe { conn }) {
        Ok(()) | Err(mpsc::error::TrySendError::Closed(_)) => {}
        Err(mpsc::error::TrySendError::Full(cmd)) => {
            tokio::spawn(async move {
                let _ = room.tx.send(cmd).await;
            });
        }
    }
}

struct Conn {
    shared: Arc<Shared>,
    out: Outbox,
    hello: bool,
    who: Option<Who>,
    /// Tables this connection sits at or watches, to detach from on close.
    tables: BTreeSet<TableId>,
    lobby: Option<tokio::task::JoinHandle<()>>,
    bad: u32,
    violations: u32,
    bucket: Bucket,
    /// This connection's place in its address's count (freed on drop).
    slot: ConnSlot,
    /// The session this connection signed in with.
    session: Option<SessionId>,
    /// Notified when that session is revoked: the connection closes.
    kick: Arc<Notify>,
}

/// Keep reading or close.
enum Next {
    Go,
    Close,
}

impl Conn {
    /// Replies from the connection itself wait for queue space: this only
    /// slows this client's own reading.
    async fn send(&self, frame: Bytes) {
        let _ = self.out.tx.send(frame).await;
    }

    async fn error(&self, code: ErrorCode, message: &str, client_ref: Option<u32>) {
        self.send(error_frame(code, message, client_ref)).await;
    }

    async fn run<R: FrameRead>(&mut self, mut reader: R) {
        let idle = Duration::from_secs(self.shared.config.limits.idle_secs);
        let mut shutdown = self.shared.shutdown.clone();
        let kick = self.kick.clone();
        loop {
            let wait = if self.hello { idle } else { HELLO_TIMEOUT };
            let read = tokio::select! {
                r = tokio::time::timeout(wait, reader.read()) => r,
                _ = shutdown.changed() => return,
                _ = kick.notified() => {
                    self.session = None;
                    self.who = None;
                    self.error(
                        ErrorCode::BadToken,
                        "this sign-in was ended from one of your sessions (revoked); \
                         this connection is closed, sign in again",
                        None,
                    )
                    .await;
                    return;
                }
            };
            let bytes = match read {
                Err(_) => return, // silent too long
                Ok(Ok(Some(b))) => b,
                Ok(Ok(None)) => return,
                Ok(Err(ReadError::TooLarge)) => {
                    self.shared.metrics.bad_frames.fetch_add(1, Relaxed);
                    self.error(ErrorCode::BadMessage, "frame too large", None)
                        .await;
                    return;
                }
                Ok(Err(ReadError::Transport(e))) => {
                    tracing::debug!(conn = self.out.id, "read failed: {e}");
                    return;
                }
            };
            if !self.bucket.take() {
                self.shared.metrics.rate_limited.fetch_add(1, Relaxed);
                self.violations += 1;
                if self.violations > MAX_RATE_VIOLATIONS {
                    return;
                }
                self.error(ErrorCode::RateLimited, "slow down", None).await;
                continue;
            }
            self.violations = 0;
            let msg = match ClientMsg::decode(&bytes) {
                Ok(m) => m,
                Err(e) => {
                    self.shared.metrics.bad_frames.fetch_add(1, Relaxed);
                    self.bad += 1;
                    self.error(ErrorCode::BadMessage, &e.to_string(), None)
                        .await;
                    if self.bad >= self.shared.config.limits.bad_frames {
                        return;
                    }
                    continue;
                }
            };
            if let Next::Close = self.dispatch(msg).await {
                return;
            }
        }
    }

    async fn finish(&mut self) {
        self.set_session(None);
        self.shared.club.detach(self.out.id);
        if let Some(task) = self.lobby.take() {
            task.abort();
        }
        for table in std::mem::take(&mut self.tables) {
            if let Some(room) = self.shared.lobby.room(table) {
                // Detach must arrive even if the room is busy.
                let _ = room.tx.send(RoomCmd::Detach { conn: self.out.id }).await;
            }
        }
        // Flush what is queued, then close.
        let _ = tokio::time::timeout(Duration::from_secs(1), self.out.tx.send(Bytes::new())).await;
    }

    async fn dispatch(&mut self, msg: ClientMsg) -> Next {
        if !self.hello {
            return match msg {
                ClientMsg::Hello { protocol, .. } if protocol == PROTOCOL_VERSION => {
                    self.hello = true;
                    self.send(encode_msg(&ServerMsg::Welcome {
                        protocol: PROTOCOL_VERSION,
                        server: format!("muster-server {}", env!("CARGO_PKG_VERSION")),
                    }))
                    .await;
                    Next::Go
                }
                ClientMsg::Hello { protocol, .. } => {
                    let m =
                        format!("this server speaks protocol {PROTOCOL_VERSION}, not {protocol}");
                    self.error(ErrorCode::VersionMismatch, &m, None).await;
                    Next::Close
                }
                _ => {
                    self.error(ErrorCode::HandshakeRequired, "say Hello first", None)
                        .await;
                    Next::Close
                }
            };
        }
        match msg {
            ClientMsg::Hello { .. } => {
                self.error(ErrorCode::HandshakeRequired, "Hello was already said", None)
                    .await
            }
            ClientMsg::Ping { nonce } => self.send(encode_msg(&ServerMsg::Pong { nonce })).await,
            ClientMsg::GuestSignIn { name } => self.guest(name).await,
            ClientMsg::Resume { token } => self.resume(token).await,
            ClientMsg::WatchLobby { on } => self.watch_lobby(on).await,
            ClientMsg::ListSessions | ClientMsg::RevokeSession { .. } | ClientMsg::NewSession => {
                self.sessions_msg(msg).await
            }
            ClientMsg::Club(req) => self.club(req).await,
            other => {
                let Some(who) = self.who.clone() else {
                    self.error(ErrorCode::NotSignedIn, "sign in first", None)
                        .await;
                    return Next::Go;
                };
                return self.table_msg(who, other).await;
            }
        }
        Next::Go
    }

    async fn guest(&mut self, name: String) {
        let name = match identity::checked_name(&name) {
            Ok(name) => name,
            Err(why) => return self.error(ErrorCode::BadMessage, &why, None).await,
        };
        if let Err(why) = self.shared.addrs.guest_signin(self.slot.key) {
            self.shared.metrics.rate_limited.fetch_add(1, Relaxed);
            return self.error(ErrorCode::RateLimited, &why, None).await;
        }
        let token = identity::new_token();
        match self
            .shared
            .storage
            .create_user(name.clone(), identity::token_hash(&token))
            .await
        {
            Ok((user, session)) => {
                self.who = Some(Who {
                    user,
                    name: name.clone(),
                });
                self.set_session(Some(session));
                self.send(encode_msg(&ServerMsg::SignedIn {
                    user,
                    name,
                    token: Some(token),
                }))
                .await;
            }
            Err(e) => {
                tracing::error!("cannot create a user: {e}");
                self.error(ErrorCode::Internal, "storage failed", None)
                    .await;
            }
        }
    }

    /// Sign in with a session token. An unknown, expired or revoked token
    /// is refused with words that say which and what to do.
    async fn resume(&mut self, token: String) {
        if token.len() > identity::MAX_TOKEN {
            return self
                .error(ErrorCode::BadToken, "this is not a sign-in token", None)
                .await;
        }
        let idle = self.shared.config.limits.session_idle_secs;
        match self
            .shared
            .storage
            .find_user(identity::token_hash(&token), idle)
            .await
        {
            Ok(TokenLookup::Live {
                user,
                name,
                session,
            }) => {
                self.who = Some(Who {
                    user,
                    name: name.clone(),
                });
                self.set_session(Some(session));
                self.send(encode_msg(&ServerMsg::SignedIn {
                    user,
                    name,
                    token: None,
                }))
                .await;
            }
            Ok(TokenLookup::Unknown) => {
                self.error(
                    ErrorCode::BadToken,
                    "this server does not know that sign-in; sign in again",
                    None,
                )
                .await
            }
            Ok(TokenLookup::Expired { idle_secs }) => {
                let m = format!(
                    "this sign-in expired: it was not used for {} (the limit is {}); sign in again",
                    identity::idle_words(idle_secs),
                    identity::idle_words(idle)
                );
                self.error(ErrorCode::BadToken, &m, None).await
            }
            Ok(TokenLookup::Revoked) => {
                self.error(
                    ErrorCode::BadToken,
                    "this sign-in was ended (revoked) from one of your sessions; sign in again",
                    None,
                )
                .await
            }
            Err(e) => {
                tracing::error!("cannot look up a token: {e}");
                self.error(ErrorCode::Internal, "storage failed", None)
                    .await;
            }
        }
    }

    /// Switch the session this connection is signed in with.
    fn set_session(&mut self, session: Option<SessionId>) {
        if let Some(old) = self.session.take() {
            self.shared.sessions.leave(old, self.out.id);
        }
        if let Some(new) = session {
            self.shared
                .sessions
                .enter(new, self.out.id, self.kick.clone());
            self.session = Some(new);
        }
    }

    /// List, revoke or add sessions of the signed-in identity.
    async fn sessions_msg(&mut self, msg: ClientMsg) {
        let Some(who) = self.who.clone() else {
            return self
                .error(ErrorCode::NotSignedIn, "sign in first", None)
                .await;
        };
        let storage = self.shared.storage.clone();
        let storage_failed = |e| {
            tracing::error!("sessions: {e}");
        };
        match msg {
            ClientMsg::NewSession => {
                let token = identity::new_token();
                match storage
                    .new_session(who.user, identity::token_hash(&token))
                    .await
                {
                    Ok(_) => {
                        self.send(encode_msg(&ServerMsg::SignedIn {
                            user: who.user,
                            name: who.name,
                            token: Some(token),
                        }))
                        .await
                    }
                    Err(e) => {
                        storage_failed(e);
                        self.error(ErrorCode::Internal, "storage failed", None)
                            .await
                    }
                }
                return;
            }
            ClientMsg::RevokeSession { session } => {
                match storage.revoke_session(who.user, session).await {
                    Ok(true) => self.shared.sessions.revoke(session),
                    Ok(false) => {
                        return self
                            .error(
                                ErrorCode::Forbidden,
                                &format!(
                                    "you have no live session number {}; list your sessions to see them",
                                    session.0
                                ),
                                None,
                            )
                            .await;
                    }
                    Err(e) => {
                        storage_failed(e);
                        return self
                            .error(ErrorCode::Internal, "storage failed", None)
                            .await;
                    }
                }
                // Revoking this connection's own session closes it (the
                // kick is already waiting); nothing more to say here.
                if self.session == Some(session) {
                    return;
                }
            }
            _ => {}
        }
        let idle = self.shared.config.limits.session_idle_secs;
        match storage.list_sessions(who.user, idle).await {
            Ok(mut sessions) => {
                for s in &mut sessions {
                    s.current = Some(s.id) == self.session;
                }
                self.send(encode_msg(&ServerMsg::Sessions { sessions }))
                    .await
            }
            Err(e) => {
                storage_failed(e);
                self.error(ErrorCode::Internal, "storage failed", None)
                    .await
            }
        }
    }

    async fn club_refuse(&self, error: ClubError, message: String) {
        self.send(encode_msg(&ServerMsg::Club(ClubReply::Refused {
            error,
            message,
        })))
        .await
    }

    /// Club requests (issue 21): accounts here, the rest to the club hub.
    async fn club(&mut self, req: ClubRequest) {
        match req {
            ClubRequest::SignIn { name, password } => {
                return self.account_sign_in(name, password).await;
            }
            ClubRequest::ClaimAccount { password } => return self.claim_account(password).await,
            _ => {}
        }
        let Some(who) = self.who.clone() else {
            return self
                .club_refuse(ClubError::NotSignedIn, "sign in first".into())
                .await;
        };
        if !self
            .shared
            .club
            .request(who, self.slot.key, self.out.clone(), req)
        {
            self.shared.metrics.rate_limited.fetch_add(1, Relaxed);
            self.club_refuse(
                ClubError::Busy,
                "the club service is busy; try again in a moment".into(),
            )
            .await;
        }
    }

    /// Make the signed-in identity an account under its name.
    async fn claim_account(&mut self, password: String) {
        let Some(who) = self.who.clone() else {
            return self
                .club_refuse(
                    ClubError::NotSignedIn,
                    "sign in as a guest first; the account takes that name".into(),
                )
                .await;
        };
        if let Err(why) = accounts::check_password(&password) {
            return self.club_refuse(ClubError::BadRequest, why).await;
        }
        let phc =
            match tokio::task::spawn_blocking(move || accounts::hash_password(&password)).await {
                Ok(Ok(phc)) => phc,
                _ => {
                    return self
                        .club_refuse(
                            ClubError::Internal,
                            "the password could not be stored".into(),
                        )
                        .await;
                }
            };
        let key = accounts::name_key(&who.name);
        let name = who.name.clone();
        let claimed = self
            .shared
            .storage
            .club(move |tx| storage_club::claim_account(tx, who.user, &name, &key, &phc))
            .await;
        match claimed {
            Ok(storage_club::Claimed::Done) => {
                let reply = ClubReply::AccountClaimed { user: who.user, name: who.name };
                self.send(encode_msg(&ServerMsg::Club(reply))).await
            }
            Ok(storage_club::Claimed::NameTaken) => {
                self.club_refuse(
                    ClubError::NameTaken,
                    format!("\"{}\" (or a name that looks the same) is an account already; sign in to it, or play under another name", who.name),
                )
                .await
            }
            Ok(storage_club::Claimed::Already) => {
                self.club_refuse(ClubError::AlreadyAccount, "you are signed in to an account already".into())
                    .await
            }
            Err(e) => {
                tracing::error!("cannot claim an account: {e}");
                self.club_refuse(ClubError::Internal, "the server could not store the account".into())
                    .await
            }
        }
    }

    /// Sign in to an account with its name and password: a new session.
    async fn account_sign_in(&mut self, name: String, password: String) {
        let name = match identity::checked_name(&name) {
            Ok(n) => n,
            Err(why) => {
                return self
                    .club_refuse(
                        ClubError::UnknownAccount,
                        format!("no account can have that name: {why}"),
                    )
                    .await;
            }
        };
        let key = accounts::name_key(&name);
        let addr = self.slot.key;
        if let Err(why) = self.shared.club.attempts.allowed(&key, addr) {
            self.shared.metrics.rate_limited.fetch_add(1, Relaxed);
            return self.club_refuse(ClubError::TooManyAttempts, why).await;
        }
        let k = key.clone();
        let found = match self
            .shared
            .storage
            .club(move |tx| storage_club::find_account(tx, &k))
            .await
        {
            Ok(f) => f,
            Err(e) => {
                tracing::error!("cannot look up an account: {e}");
                return self
                    .club_refuse(ClubError::Internal, "storage failed".into())
                    .await;
            }
        };
        let Some((user, account_name, phc)) = found else {
            self.shared.club.attempts.failed(&key, addr);
            return self
                .club_refuse(ClubError::UnknownAccount, format!("there is no account named \"{name}\"; check the spelling, or claim the name as a guest first"))
                .await;
        };
        let ok = tokio::task::spawn_blocking(move || accounts::verify_password(&password, &phc))
            .await
            .unwrap_or(false);
        if !ok {
            self.shared.club.attempts.failed(&key, addr);
            return self
                .club_refuse(
                    ClubError::BadPassword,
                    format!("wrong password for \"{account_name}\""),
                )
                .await;
        }
        let token = identity::new_token();
        match self
            .shared
            .storage
            .new_session(user, identity::token_hash(&token))
            .await
        {
            Ok(session) => {
                self.who = Some(Who {
                    user,
                    name: account_name.clone(),
                });
                self.set_session(Some(session));
                self.send(encode_msg(&ServerMsg::SignedIn {
                    user,
                    name: account_name,
                    token: Some(token),
                }))
                .await
            }
            Err(e) => {
                tracing::error!("cannot make a session: {e}");
                self.club_refuse(ClubError::Internal, "storage failed".into())
                    .await
            }
        }
    }

    async fn watch_lobby(&mut self, on: bool) {
        if let Some(task) = self.lobby.take() {
            task.abort();
        }
        if !on {
            return;
        }
        let (mut rx, list) = self.shared.lobby.watch();
        let tx = self.out.tx.clone();
        let shared = self.shared.clone();
        // The forwarder waits for queue space: a slow watcher slows only itself.
        self.lobby = Some(tokio::spawn(async move {
            if tx.send(list).await.is_err() {
                return;
            }
            loop {
                let frame = match rx.recv().await {
                    Ok(f) => f,
                    Err(broadcast::error::RecvError::Lagged(_)) => shared.lobby.list(),
                    Err(broadcast::error::RecvError::Closed) => return,
                };
                if tx.send(frame).await.is_err() {
                    return;
                }
            }
        }));
    }

    async fn table_msg(&mut self, who: Who, msg: ClientMsg) -> Next {
        let out = self.out.clone();
        let (table, cmd, client_ref) = match msg {
            ClientMsg::CreateTable { options } => {
                let frame = match Room::create(&self.shared, options, who.user, Some(self.slot.key))
                    .await
                {
                    Ok((table, invite)) => encode_msg(&ServerMsg::TableCreated { table, invite }),
                    Err(CreateError(code, m)) => error_frame(code, &m, None),
                };
                self.send(frame).await;
                return Next::Go;
            }
            ClientMsg::JoinSeat {
                table,
                seat,
                invite,
            } => {
                self.tables.insert(table);
                (
                    table,
                    RoomCmd::Join {
                        out,
                        who,
                        seat,
                        invite,
                    },
                    None,
                )
            }
            ClientMsg::Spectate { table, invite } => {
                self.tables.insert(table);
                (table, RoomCmd::Spectate { out, who, invite }, None)
            }
            ClientMsg::Leave { table } => {
                self.tables.remove(&table);
                (table, RoomCmd::Leave { conn: out.id, who }, None)
            }
            ClientMsg::PublishAnchor { table, anchor } => {
                (table, RoomCmd::Anchor { out, who, anchor }, None)
            }
            ClientMsg::Act {
                table,
                client_ref,
                action,
                links,
            } => (
                table,
                RoomCmd::Act {
                    out,
                    who,
                    client_ref,
                    action,
                    links,
                    received: Instant::now(),
                },
                Some(client_ref),
            ),
            ClientMsg::Resync { table, last_seq } => {
                self.tables.insert(table);
                (table, RoomCmd::Resync { out, who, last_seq }, None)
            }
            ClientMsg::Chat {
                table,
                channel,
                text,
            } => (
                table,
                RoomCmd::Chat {
                    out,
                    who,
                    channel,
                    text,
                },
                None,
            ),
            ClientMsg::TakeBack { table } => (table, RoomCmd::TakeBack { out, who }, None),
            ClientMsg::AnswerTakeBack { table, agree } => {
                (table, RoomCmd::AnswerTakeBack { out, who, agree }, None)
            }
            // Handled before sign-in is required.
            ClientMsg::Hello { .. }
            | ClientMsg::Ping { .. }
            | ClientMsg::GuestSignIn { .. }
            | ClientMsg::Resume { .. }
            | ClientMsg::WatchLobby { .. }
            | ClientMsg::ListSessions
            | ClientMsg::RevokeSession { .. }
            | ClientMsg::NewSession
            | ClientMsg::Club(_) => return Next::Go,
        };
        // In a fleet the table may be another node's (issue 23).
        let room = match crate::fleet::redirect::locate(&self.shared, table).await {
            Located::Here(room) => room,
            Located::At(to) => {
                self.tables.remove(&table);
                self.send(crate::fleet::redirect::moved_frame(table, &to))
                    .await;
                // Closed after the redirect: the client must connect
                // there anyway, and a client too old to read `Moved`
                // would otherwise ask again at once, forever.
                return Next::Close;
            }
            Located::Nowhere => {
                self.tables.remove(&table);
                self.error(
                    ErrorCode::NoSuchTable,
                    &format!("no table {}", table.0),
                    client_ref,
                )
                .await;
                return Next::Go;
            }
        };
        if room.tx.try_send(cmd).is_err() {
            self.shared.metrics.rate_limited.fetch_add(1, Relaxed);
            self.error(
                ErrorCode::RateLimited,
                "the table is busy; try again",
                client_ref,
            )
            .await;
        }
        Next::Go
    }
}
