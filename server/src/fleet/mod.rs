//! Several `muster-server` nodes on one PostgreSQL database (issue 23).
//!
//! Each unfinished table is served by exactly one node: the one holding
//! its lease, whose fencing token every write to the table is checked
//! against inside its own transaction (see `storage::pg`). What this
//! module adds on top of the leases:
//! - [`takeover`]: a running node takes over the tables of a node that
//!   died (its leases expired) and rebuilds them from their logs;
//! - [`redirect`]: a client that asks a node about a table another node
//!   serves is told where to go (`ServerMsg::Moved`);
//! - [`drain`]: on SIGTERM a node gives up its leases at once and tells
//!   its clients where to go, instead of leaving them to expire;
//! - [`lobby_feed`]: one lobby for the fleet: every node hears the
//!   others' lobby changes (`LISTEN/NOTIFY`) and pushes them to its
//!   watchers.

pub mod drain;
pub mod lobby_feed;
pub mod redirect;
pub mod takeover;

use std::sync::atomic::AtomicBool;

/// What the fleet's tasks share on one node.
#[derive(Default)]
pub struct FleetState {
    /// Set once when the node drains: from then on it takes no table and
    /// sends every client elsewhere.
    pub draining: AtomicBool,
    /// Held while tables are taken and rebuilt on this node, so the two
    /// paths that do it (the periodic takeover, a client asking for a
    /// table nobody holds) never rebuild one table twice.
    pub adopting: tokio::sync::Mutex<()>,
}
