//! The lobby: every table's summary and the handle of its room. Watchers
//! get the whole list once, then each change as it happens (pushed, never
//! polled) through a broadcast channel of pre-encoded frames; a watcher that
//! falls behind the broadcast gets the whole list again.

use crate::net::conn::encode_msg;
use crate::room::RoomHandle;
use bytes::Bytes;
use muster_shared::protocol::{ServerMsg, TableId, TableSummary};
use std::collections::BTreeMap;
use std::sync::RwLock;
use tokio::sync::broadcast;

/// Lobby updates buffered per watcher before it must start over.
const UPDATES: usize = 1024;

pub struct Lobby {
    tables: RwLock<BTreeMap<TableId, (TableSummary, RoomHandle)>>,
    updates: broadcast::Sender<Bytes>,
}

impl Default for Lobby {
    fn default() -> Self {
        Lobby {
            tables: RwLock::new(BTreeMap::new()),
            updates: broadcast::channel(UPDATES).0,
        }
    }
}

impl Lobby {
    pub fn register(&self, summary: TableSummary, room: RoomHandle) {
        self.write().insert(summary.table, (summary.clone(), room));
        self.announce(summary);
    }

    pub fn update(&self, summary: TableSummary) {
        if let Some(entry) = self.write().get_mut(&summary.table) {
            entry.0 = summary.clone();
        }
        self.announce(summary);
    }

    pub fn remove(&self, table: TableId) {
        self.write().remove(&table);
        let _ = self
            .updates
            .send(encode_msg(&ServerMsg::LobbyRemoved { table }));
    }

    fn announce(&self, table: TableSummary) {
        // No watchers is not an error.
        let _ = self
            .updates
            .send(encode_msg(&ServerMsg::LobbyUpdate { table }));
    }

    pub fn room(&self, table: TableId) -> Option<RoomHandle> {
        self.read().get(&table).map(|(_, r)| r.clone())
    }

    /// Subscribe first, then take the list, so no update falls in between.
    pub fn watch(&self) -> (broadcast::Receiver<Bytes>, Bytes) {
        let rx = self.updates.subscribe();
        (rx, self.list())
    }

    pub fn list(&self) -> Bytes {
        let tables = self.read().values().map(|(s, _)| s.clone()).collect();
        encode_msg(&ServerMsg::Lobby { tables })
    }

    // A poisoned lock only means another thread panicked mid-update of a
    // plain map; the map itself is still consistent, so keep serving.
    fn read(
        &self,
    ) -> std::sync::RwLockReadGuard<'_, BTreeMap<TableId, (TableSummary, RoomHandle)>> {
        self.tables.read().unwrap_or_else(|e| e.into_inner())
    }
    fn write(
        &self,
    ) -> std::sync::RwLockWriteGuard<'_, BTreeMap<TableId, (TableSummary, RoomHandle)>> {
        self.tables.write().unwrap_or_else(|e| e.into_inner())
    }
}
