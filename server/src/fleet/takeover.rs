//! A running node takes over a dead node's tables.
//!
//! Its own module because it is the one place where a node starts serving
//! a table it did not create or load at start: every few seconds (a
//! quarter of the lease) it asks the database for unfinished tables whose
//! lease expired, takes their leases (each a new, higher fencing token, so
//! the old owner can never write to them again, even if it was only
//! paused) and rebuilds each room by replaying its log, exactly as at
//! start-up ([`Room::restore`]). Clients then find the table here (their
//! reconnection, or a redirect) and resume from their last sequence
//! number. The same tick notices leases this node lost (it was paused or
//! cut off past its lease and another node took the table) and hands
//! those rooms over, telling their clients where the table went.
//!
//! The dead node's tables are spread over the live nodes (each takes its
//! share at once, and any left over half a lease later; see
//! `storage::pg`), so one survivor does not inherit everything.

use crate::Shared;
use crate::room::{Room, RoomCmd};
use muster_shared::protocol::TableId;
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

/// How often to look, as a part of the lease: a dead node's tables are
/// served again within about `lease + lease / TICKS_PER_LEASE` (plus their
/// replay), and each look is one small query.
const TICKS_PER_LEASE: u32 = 4;

/// The takeover loop; runs until the node drains or stops.
pub async fn run(shared: Arc<Shared>, lease: Duration) {
    let every = (lease / TICKS_PER_LEASE).max(Duration::from_millis(100));
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut shutdown = shared.shutdown.clone();
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = shutdown.changed() => return,
        }
        if shared.fleet.draining.load(Relaxed) {
            return;
        }
        match shared.storage.lost_leases().await {
            Ok(lost) => {
                for table in lost {
                    tracing::warn!(
                        table = table.0,
                        "another node took this table's lease (this node was paused or cut off); handing it over"
                    );
                    hand_over(&shared, table).await;
                }
            }
            Err(e) => tracing::warn!("cannot check this node's leases: {e}"),
        }
        match shared.storage.take_expired().await {
            Ok(taken) if !taken.is_empty() => {
                let count = taken.len();
                let served = adopt(&shared, taken).await;
                tracing::info!("took over {count} table(s) whose lease expired; serving {served}");
            }
            Ok(_) => {}
            Err(e) => tracing::warn!("cannot look for tables to take over: {e}"),
        }
    }
}

/// Tell a room whose lease was lost to stop and send its clients on.
async fn hand_over(shared: &Shared, table: TableId) {
    if let Some(room) = shared.lobby.room(table) {
        let cmd = RoomCmd::HandOver { release: false };
        let _ = tokio::time::timeout(Duration::from_secs(1), room.tx.send(cmd)).await;
    }
}

/// Rebuild and serve tables whose leases this node has just taken; how
/// many now run here.
pub async fn adopt(shared: &Arc<Shared>, tables: Vec<TableId>) -> usize {
    let _one_at_a_time = shared.fleet.adopting.lock().await;
    adopt_locked(shared, tables).await
}

/// [`adopt`], with [`crate::fleet::FleetState::adopting`] already held.
///
/// A table may still have a room here from an older lease: it left this
/// node (paused past its lease, cut off) and has just come back before
/// that room noticed. That room cannot write any more (its token is not
/// the table's), so it is told to hand over (its clients are sent back
/// here) and a new room is rebuilt from the log, which may have grown on
/// the other node meanwhile.
pub(crate) async fn adopt_locked(shared: &Arc<Shared>, tables: Vec<TableId>) -> usize {
    if tables.is_empty() {
        return 0;
    }
    // Loaded after the lease was taken: the old owner's last commit is in
    // the log, and it can add nothing after it (the token changed).
    let (stored, damaged) = match shared.storage.load_tables(tables).await {
        Ok(x) => x,
        Err(e) => {
            tracing::error!("cannot load the tables taken over: {e}");
            return 0;
        }
    };
    // As with --skip-damaged at start: named, and left untouched.
    for (id, why) in damaged {
        tracing::error!(table = id.0, "taken over but cannot be rebuilt: {why}");
    }
    let mut served = 0;
    for table in stored {
        let id = table.id;
        if let Some(old) = shared.lobby.room(id) {
            if old.lease == table.lease {
                // Adopted by the other path already.
                continue;
            }
            tracing::warn!(
                table = id.0,
                "the table came back to this node under a new lease; replacing its old room"
            );
            let cmd = RoomCmd::HandOver { release: false };
            let _ = tokio::time::timeout(Duration::from_secs(1), old.tx.send(cmd)).await;
        }
        match Room::restore(shared, table) {
            Ok(()) => served += 1,
            Err(e) => tracing::error!(table = id.0, "taken over but cannot be rebuilt: {e}"),
        }
    }
    served
}
