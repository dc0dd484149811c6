//! Where a client's table is served, and the redirect that sends it there.
//!
//! Redirect, not proxy: a node that relayed other nodes' tables would
//! carry their traffic twice and would have to keep a connection to every
//! other node; a redirect costs one message and one reconnect, after
//! which the client talks to the owner directly. Clients already
//! reconnect and resume from their last sequence number (a dropped
//! connection), so following a redirect is the same path with another
//! address. See docs/server.md, "Several nodes".

use crate::Shared;
use crate::outbox::encode_msg;
use crate::room::RoomHandle;
use bytes::Bytes;
use muster_shared::protocol::{ServerMsg, TableId};
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;

/// Where a table is.
pub enum Located {
    /// Served here (possibly just taken over for this request).
    Here(RoomHandle),
    /// Served by the node at this address.
    At(String),
    /// No unfinished table by that number (or the database cannot say).
    Nowhere,
}

/// The redirect message.
pub fn moved_frame(table: TableId, to: &str) -> Bytes {
    encode_msg(&ServerMsg::Moved {
        table,
        to: to.to_string(),
    })
}

/// Find `table`: here, on another node, or nowhere. In a fleet a table
/// whose lease expired or was given up (its node died or drained) is
/// taken over here on the spot, so its clients need not wait for the
/// periodic takeover.
pub async fn locate(shared: &Arc<Shared>, table: TableId) -> Located {
    if let Some(room) = shared.lobby.room(table) {
        return Located::Here(room);
    }
    let Some(lease) = shared.config.lease() else {
        return Located::Nowhere;
    };
    if shared.fleet.draining.load(Relaxed) {
        return where_to(shared, table)
            .await
            .map_or(Located::Nowhere, Located::At);
    }
    // Twice at most: when another node takes the lease between the look
    // and the take, the second look names it.
    for _ in 0..2 {
        let owner = match shared.storage.lease_owner(table).await {
            Ok(Some(o)) if o.unfinished => o,
            Ok(_) => return Located::Nowhere,
            Err(e) => {
                tracing::warn!(table = table.0, "cannot look up the table's node: {e}");
                return Located::Nowhere;
            }
        };
        let mine = owner.node.as_deref() == Some(shared.config.node.as_str());
        if owner.live && !mine && !owner.addr.is_empty() {
            return Located::At(owner.addr);
        }
        // Expired, given up, never leased, or ours with its room still
        // being rebuilt: serve it here.
        let _one_at_a_time = shared.fleet.adopting.lock().await;
        if let Some(room) = shared.lobby.room(table) {
            return Located::Here(room);
        }
        // A dead or drained node's clients arrive together: take this
        // node's whole share of the expired tables in one go (one lease
        // update, one load) rather than one table per client.
        let mut batch = shared.storage.take_expired().await.unwrap_or_default();
        if !batch.contains(&table) {
            match shared
                .storage
                .acquire_lease(table, shared.config.node.clone(), lease)
                .await
            {
                Ok(Some(_)) => batch.push(table),
                Ok(None) => {
                    super::takeover::adopt_locked(shared, batch).await;
                    continue;
                }
                Err(e) => {
                    tracing::warn!(table = table.0, "cannot take the table's lease: {e}");
                    super::takeover::adopt_locked(shared, batch).await;
                    return Located::Nowhere;
                }
            }
        }
        super::takeover::adopt_locked(shared, batch).await;
        return shared
            .lobby
            .room(table)
            .map_or(Located::Nowhere, Located::Here);
    }
    Located::Nowhere
}

/// Where to send the clients of a table a room of this node no longer
/// serves: the node holding its lease (this very node when the table came
/// back here under a newer room, unless it is draining), or else any other
/// live node (which takes the table over when they arrive, if nobody has
/// yet). `None` when this is the only node left.
pub async fn where_to(shared: &Shared, table: TableId) -> Option<String> {
    if let Ok(Some(owner)) = shared.storage.lease_owner(table).await
        && owner.live
        && !owner.addr.is_empty()
    {
        let mine = owner.node.as_deref() == Some(shared.config.node.as_str());
        if !mine {
            return Some(owner.addr);
        }
        if !shared.fleet.draining.load(Relaxed) {
            return Some(shared.config.public_addr.clone());
        }
    }
    match shared.storage.peer().await {
        Ok(peer) => peer,
        Err(e) => {
            tracing::warn!("cannot find another node: {e}");
            None
        }
    }
}
