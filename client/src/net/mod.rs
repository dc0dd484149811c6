//! The headless network client: connect over `ws://` or `quic://` (with
//! the server's certificate fingerprint pinned), say Hello, sign in, then
//! send [`ClientMsg`]s and receive [`ServerMsg`]s. The GUI, the end-to-end
//! tests and the load harness all talk to servers through this.
//!
//! Nothing reads in the background: bytes are taken off the socket only
//! when [`Connection::recv`] is called, so a caller that stops reading
//! really does push back on the server (the tests rely on that), and
//! every receive is cancel-safe, so it can sit under a timeout.

pub mod quic;
mod tls;
mod ws;

use bytes::Bytes;
use muster_shared::codec::DecodeError;
use muster_shared::protocol::{
    ClientMsg, ErrorCode, PROTOCOL_VERSION, ServerMsg, SessionId, SessionInfo, UserId,
};
use std::time::Duration;

pub use tls::fingerprint;

/// Time allowed to open a connection and complete the handshake.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Why talking to a server failed.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    #[error("bad address “{0}”: use ws://host:port or quic://host:port")]
    BadUrl(String),
    #[error("connection failed: {0}")]
    Io(String),
    #[error("TLS: {0}")]
    Tls(String),
    #[error("the server sent a message that does not decode: {0}")]
    Decode(#[from] DecodeError),
    #[error("the connection is closed")]
    Closed,
    #[error("timed out")]
    Timeout,
    #[error("the server refused ({code}): {message}")]
    Refused { code: ErrorCode, message: String },
    /// Issue 23: the table is served by another server of the fleet, at
    /// `to`; connect there and go on.
    #[error("the table moved to another server ({to})")]
    Moved { to: String },
    #[error("the server answered something this client did not expect")]
    Unexpected(Box<ServerMsg>),
}

/// How to connect.
#[derive(Clone, Debug, Default)]
pub struct ConnectOptions {
    /// SHA-256 of the server's QUIC certificate (hex, colons allowed), as
    /// the server prints it. Required for `quic://`: the certificate is
    /// self-signed, and the pin is what authenticates the server.
    pub fingerprint: Option<String>,
    /// Kernel receive buffer for WebSocket sockets (bytes); `None` for the
    /// default. Tests use a small one to make back-pressure quick to reach.
    pub recv_buffer: Option<usize>,
    /// Name sent in `Hello`.
    pub client_name: Option<String>,
    /// How often a long-lived connection (a table, the lobby) sends `Ping`,
    /// whatever else it sends: the server closes a connection silent for
    /// its `idle_secs` (120 by default). `None`: [`PING_EVERY`].
    pub ping_every: Option<Duration>,
    /// A QUIC endpoint (one UDP socket) to open the connection on; `None`:
    /// the process's shared one (one per tokio runtime, made on first
    /// use). The load harness spreads thousands of connections over a few.
    pub quic_endpoint: Option<quinn::Endpoint>,
}

/// How often a table or lobby connection pings by default.
pub const PING_EVERY: Duration = Duration::from_secs(30);

impl ConnectOptions {
    /// [`ConnectOptions::ping_every`], or the default.
    pub fn ping_interval(&self) -> Duration {
        self.ping_every.unwrap_or(PING_EVERY)
    }

    /// A timer for [`ConnectOptions::ping_interval`], first ticking one
    /// interval from now.
    pub fn ping_timer(&self) -> tokio::time::Interval {
        let every = self.ping_interval().max(Duration::from_millis(10));
        let mut t = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
        t.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        t
    }
}

enum Link {
    Ws(ws::WsLink),
    Quic(quic::QuicLink),
}

/// One connection to a server, past the version handshake.
pub struct Connection {
    link: Link,
}

impl Connection {
    /// Open a transport to `url` and complete the Hello/Welcome handshake.
    pub async fn connect(url: &str, opts: &ConnectOptions) -> Result<Connection, NetError> {
        let mut conn = Self::open(url, opts).await?;
        let name = opts
            .client_name
            .clone()
            .unwrap_or_else(|| format!("muster-client {}", env!("CARGO_PKG_VERSION")));
        conn.send(&ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            client: name,
        })
        .await?;
        match conn.recv_timeout(CONNECT_TIMEOUT).await? {
            ServerMsg::Welcome { .. } => Ok(conn),
            other => Err(refusal(other)),
        }
    }

    /// Open a transport without the handshake (for tests of the handshake itself).
    pub async fn open(url: &str, opts: &ConnectOptions) -> Result<Connection, NetError> {
        let link = if let Some(rest) = url.strip_prefix("ws://") {
            Link::Ws(ws::WsLink::connect(url, rest, opts).await?)
        } else if let Some(rest) = url.strip_prefix("quic://") {
            Link::Quic(quic::QuicLink::connect(rest, opts).await?)
        } else {
            return Err(NetError::BadUrl(url.into()));
        };
        Ok(Connection { link })
    }

    /// Sign in as a new guest; returns the identity and its session token.
    pub async fn sign_in_guest(&mut self, name: &str) -> Result<(UserId, String), NetError> {
        self.send(&ClientMsg::GuestSignIn { name: name.into() })
            .await?;
        match self.recv_timeout(CONNECT_TIMEOUT).await? {
            ServerMsg::SignedIn {
                user,
                token: Some(token),
                ..
            } => Ok((user, token)),
            other => Err(refusal(other)),
        }
    }

    /// Resume an identity from its session token.
    pub async fn resume(&mut self, token: &str) -> Result<UserId, NetError> {
        self.send(&ClientMsg::Resume {
            token: token.into(),
        })
        .await?;
        match self.recv_timeout(CONNECT_TIMEOUT).await? {
            ServerMsg::SignedIn { user, .. } => Ok(user),
            other => Err(refusal(other)),
        }
    }

    /// This identity's live sessions (sign-in tokens), oldest first; the
    /// one this connection signed in with has `current` set.
    pub async fn list_sessions(&mut self) -> Result<Vec<SessionInfo>, NetError> {
        self.send(&ClientMsg::ListSessions).await?;
        self.sessions_answer().await
    }

    /// End one of this identity's sessions: its token no longer signs in
    /// and the connections signed in with it are closed. Returns the
    /// sessions left. Revoking this connection's own session closes it
    /// (the answer is then the refusal saying so).
    pub async fn revoke_session(
        &mut self,
        session: SessionId,
    ) -> Result<Vec<SessionInfo>, NetError> {
        self.send(&ClientMsg::RevokeSession { session }).await?;
        self.sessions_answer().await
    }

    /// Another session (token) for the signed-in identity, e.g. to sign
    /// in from a second device.
    pub async fn new_session(&mut self) -> Result<String, NetError> {
        self.send(&ClientMsg::NewSession).await?;
        loop {
            match self.recv_timeout(CONNECT_TIMEOUT).await? {
                ServerMsg::SignedIn {
                    token: Some(token), ..
                } => return Ok(token),
                m if skippable(&m) => continue,
                other => return Err(refusal(other)),
            }
        }
    }

    async fn sessions_answer(&mut self) -> Result<Vec<SessionInfo>, NetError> {
        loop {
            match self.recv_timeout(CONNECT_TIMEOUT).await? {
                ServerMsg::Sessions { sessions } => return Ok(sessions),
                m if skippable(&m) => continue,
                other => return Err(refusal(other)),
            }
        }
    }

    pub async fn send(&mut self, msg: &ClientMsg) -> Result<(), NetError> {
        let bytes = muster_shared::codec::encode(msg).map_err(|e| NetError::Io(e.to_string()))?;
        self.send_raw(Bytes::from(bytes)).await
    }

    /// Send bytes as one message (one WebSocket frame, or one length-prefixed
    /// QUIC frame), whether or not they decode.
    pub async fn send_raw(&mut self, payload: Bytes) -> Result<(), NetError> {
        match &mut self.link {
            Link::Ws(l) => l.send(payload).await,
            Link::Quic(l) => l.send_frame(payload).await,
        }
    }

    /// Write bytes to the stream as they are, with no framing (QUIC only;
    /// on WebSocket it sends one binary frame). For tests of broken framing.
    pub async fn send_unframed(&mut self, bytes: Bytes) -> Result<(), NetError> {
        match &mut self.link {
            Link::Ws(l) => l.send(bytes).await,
            Link::Quic(l) => l.send_bytes(bytes).await,
        }
    }

    /// The next message's bytes, exactly as received.
    pub async fn recv_bytes(&mut self) -> Result<Bytes, NetError> {
        match &mut self.link {
            Link::Ws(l) => l.recv().await,
            Link::Quic(l) => l.recv().await,
        }
    }

    /// The next message, decoded (bounded by the server message limit).
    pub async fn recv(&mut self) -> Result<ServerMsg, NetError> {
        let bytes = self.recv_bytes().await?;
        Ok(ServerMsg::decode(&bytes)?)
    }

    /// The next message with its bytes, within `limit`.
    pub async fn recv_frame_timeout(
        &mut self,
        limit: Duration,
    ) -> Result<(ServerMsg, Bytes), NetError> {
        let bytes = tokio::time::timeout(limit, self.recv_bytes())
            .await
            .map_err(|_| NetError::Timeout)??;
        Ok((ServerMsg::decode(&bytes)?, bytes))
    }

    pub async fn recv_timeout(&mut self, limit: Duration) -> Result<ServerMsg, NetError> {
        tokio::time::timeout(limit, self.recv())
            .await
            .map_err(|_| NetError::Timeout)?
    }

    /// Close politely (WebSocket close frame, QUIC stream finish).
    pub async fn close(self) {
        match self.link {
            Link::Ws(l) => l.close().await,
            Link::Quic(l) => l.close().await,
        }
    }
}

/// Messages that may arrive on a connection at any time (lobby pushes,
/// table traffic, pongs) and are not the answer a request waits for.
fn skippable(m: &ServerMsg) -> bool {
    matches!(
        m,
        ServerMsg::Lobby { .. }
            | ServerMsg::LobbyUpdate { .. }
            | ServerMsg::LobbyRemoved { .. }
            | ServerMsg::Delta { .. }
            | ServerMsg::Chat { .. }
            | ServerMsg::Pending { .. }
            | ServerMsg::Pong { .. }
    )
}

/// The fingerprint of the certificate a `quic://` server shows, learned
/// without a pin: trust on first use. The caller keeps it and pins it on
/// every later connection, so a certificate that changes is refused.
pub async fn probe_fingerprint(url: &str) -> Result<String, NetError> {
    let rest = url
        .strip_prefix("quic://")
        .ok_or_else(|| NetError::BadUrl(url.into()))?;
    quic::QuicLink::probe(rest).await
}

/// How many full TLS handshakes this process's QUIC connections to `url`
/// (`quic://` and a literal address) with certificate `fingerprint` have
/// made; every other connection resumed an earlier one's session (the
/// server showed no certificate: issue 22).
pub fn quic_full_handshakes(url: &str, fingerprint: &str) -> Result<u64, NetError> {
    let rest = url
        .strip_prefix("quic://")
        .ok_or_else(|| NetError::BadUrl(url.into()))?;
    quic::full_handshakes(rest, fingerprint)
}

/// A server answer that was not the one hoped for, as an error.
fn refusal(msg: ServerMsg) -> NetError {
    match msg {
        ServerMsg::Error { code, message, .. } => NetError::Refused { code, message },
        ServerMsg::Moved { to, .. } => NetError::Moved { to },
        other => NetError::Unexpected(Box::new(other)),
    }
}
