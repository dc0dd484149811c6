//! Guest identities and session tokens. A token is 32 random bytes shown
//! to its owner once; the database keeps only its blake3 hash, so a copy of
//! the database does not let anyone act for anyone.

use muster_shared::Hash32;
use muster_shared::protocol::SessionId;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::Notify;

/// Longest display name, in bytes.
pub const MAX_NAME: usize = muster_shared::display_name::MAX_NAME_BYTES;
/// Longest token a client may present (a real one is 64 hex digits).
pub const MAX_TOKEN: usize = 128;

/// A fresh session token, as the client will keep it.
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).expect("the OS random generator is available");
    hex::encode(bytes)
}

/// What the database stores for a token.
pub fn token_hash(token: &str) -> Hash32 {
    let mut h = blake3::Hasher::new_derive_key("muster session token v1");
    h.update(token.as_bytes());
    h.finalize().into()
}

/// A display name as it will be shown, or why it is refused: 1 to 32
/// bytes, nothing invisible or text-reordering
/// ([`muster_shared::display_name`]).
pub fn checked_name(name: &str) -> Result<String, String> {
    muster_shared::display_name::check(name).map_err(|e| e.to_string())
}

/// The connections signed in with each session, so revoking a session
/// closes them at once (a revoked token must not keep acting through a
/// connection it already opened).
#[derive(Default)]
pub struct LiveSessions {
    conns: Mutex<HashMap<SessionId, Vec<Kick>>>,
}

/// A connection (by id) and how to tell it its session was revoked.
type Kick = (u64, Arc<Notify>);

impl LiveSessions {
    /// Connection `conn` is signed in with `session`; `kick` is notified
    /// when the session is revoked.
    pub fn enter(&self, session: SessionId, conn: u64, kick: Arc<Notify>) {
        if let Ok(mut m) = self.conns.lock() {
            m.entry(session).or_default().push((conn, kick));
        }
    }

    /// Connection `conn` is no longer signed in with `session`.
    pub fn leave(&self, session: SessionId, conn: u64) {
        if let Ok(mut m) = self.conns.lock()
            && let Some(v) = m.get_mut(&session)
        {
            v.retain(|(c, _)| *c != conn);
            if v.is_empty() {
                m.remove(&session);
            }
        }
    }

    /// Tell every connection signed in with `session` that it was revoked.
    pub fn revoke(&self, session: SessionId) {
        let kicks = self
            .conns
            .lock()
            .ok()
            .and_then(|mut m| m.remove(&session))
            .unwrap_or_default();
        for (_, kick) in kicks {
            kick.notify_one();
        }
    }
}

/// Words for an idle time, in whole days (or hours, under two days).
pub fn idle_words(secs: u64) -> String {
    let hours = secs / 3600;
    if hours >= 48 {
        format!("{} days", hours / 24)
    } else if hours >= 1 {
        format!("{hours} hours")
    } else {
        format!("{} minutes", (secs / 60).max(1))
    }
}
