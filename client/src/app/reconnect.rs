//! What the lobby's connection ([`super::lobby::LobbyLink`]) and an event
//! page's ([`super::event::EventLink`]) share: resuming an identity by its
//! session token (keeping the name the server knows it by), connecting
//! again as that identity, and the back-off between tries after a
//! dropped connection. One copy, so both treat a forgotten identity and
//! a slow server the same way.

use crate::net::{self, ConnectOptions, Connection, NetError};
use muster_shared::protocol::{ClientMsg, ErrorCode, ServerMsg, UserId};
use std::time::Duration;

/// First wait before connecting again, doubled after each failed try up
/// to [`crate::app::net_table::RECONNECT_MAX_WAIT`].
pub const FIRST_WAIT: Duration = Duration::from_millis(200);

/// `Resume`, keeping the name the server knows this identity by.
pub async fn resume(conn: &mut Connection, token: &str) -> Result<(UserId, String), NetError> {
    conn.send(&ClientMsg::Resume {
        token: token.into(),
    })
    .await?;
    match conn.recv_timeout(net::CONNECT_TIMEOUT).await? {
        ServerMsg::SignedIn { user, name, .. } => Ok((user, name)),
        ServerMsg::Error { code, message, .. } => Err(NetError::Refused { code, message }),
        other => Err(NetError::Unexpected(Box::new(other))),
    }
}

/// Connect to `url` and resume the identity of `token`, then send
/// `first` (e.g. to watch the lobby again), all within twice the connect
/// timeout.
pub async fn connect_as(
    url: &str,
    opts: &ConnectOptions,
    token: &str,
    first: Option<&ClientMsg>,
) -> Result<Connection, NetError> {
    let connect = async {
        let mut conn = Connection::connect(url, opts).await?;
        resume(&mut conn, token).await?;
        if let Some(msg) = first {
            conn.send(msg).await?;
        }
        Ok(conn)
    };
    tokio::time::timeout(net::CONNECT_TIMEOUT * 2, connect)
        .await
        .map_err(|_| NetError::Timeout)?
}

/// How trying again ended.
pub enum Retried {
    Connected(Connection),
    /// The UI went away while waiting.
    Gone,
    /// The server no longer knows the identity: trying again cannot help.
    Forgotten(String),
}

/// After a dropped connection: wait, try `attempt`, and again with the
/// wait doubled, until it connects, the server has forgotten the identity,
/// or `gone()` says the UI no longer wants the connection.
pub async fn until_connected<F, Fut>(mut attempt: F, gone: impl Fn() -> bool) -> Retried
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<Connection, NetError>>,
{
    let mut wait = FIRST_WAIT;
    loop {
        tokio::time::sleep(wait).await;
        if gone() {
            return Retried::Gone;
        }
        match attempt().await {
            Ok(c) => return Retried::Connected(c),
            Err(NetError::Refused {
                code: ErrorCode::BadToken,
                message,
            }) => return Retried::Forgotten(message),
            Err(e) => tracing::debug!("reconnecting failed: {e}"),
        }
        wait = (wait * 2).min(crate::app::net_table::RECONNECT_MAX_WAIT);
    }
}
