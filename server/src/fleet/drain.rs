//! A node leaving on SIGTERM hands its tables over instead of letting
//! their leases run out: the clients of a rolling upgrade or a scale-down
//! wait a reconnect, not a lease.

use crate::Shared;
use crate::room::RoomCmd;
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

/// Longest a drain waits for its rooms to hand over; a service manager's
/// stop timeout (systemd `TimeoutStopSec`, Kubernetes
/// `terminationGracePeriodSeconds`) must be longer.
pub const DRAIN_LIMIT: Duration = Duration::from_secs(10);

/// Stop taking tables, leave the fleet (no node sends clients here any
/// more), then have every room give up its lease, tell its clients where
/// to go and stop. Connections close afterwards, with those messages
/// flushed (see `Server::shutdown`).
pub async fn run(shared: &Arc<Shared>, takeover: Option<tokio::task::JoinHandle<()>>) {
    shared.fleet.draining.store(true, Relaxed);
    if let Some(task) = takeover {
        task.abort();
    }
    // A takeover under way finishes first: its rooms are handed over too.
    let _no_more_adopting = shared.fleet.adopting.lock().await;
    if let Err(e) = shared.storage.leave_fleet().await {
        tracing::warn!("cannot leave the fleet: {e}");
    }
    let rooms = shared.lobby.rooms();
    tracing::info!("draining: handing {} table(s) over", rooms.len());
    for room in rooms {
        let cmd = RoomCmd::HandOver { release: true };
        let _ = tokio::time::timeout(Duration::from_secs(1), room.tx.send(cmd)).await;
    }
    let end = tokio::time::Instant::now() + DRAIN_LIMIT;
    while shared.metrics.rooms.load(Relaxed) > 0 && tokio::time::Instant::now() < end {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let left = shared.metrics.rooms.load(Relaxed);
    if left > 0 {
        tracing::warn!("{left} room(s) still busy after the drain; their leases will expire");
    } else {
        tracing::info!("drained: every table handed over");
    }
}
