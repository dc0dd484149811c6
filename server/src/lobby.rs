//! The lobby: every table's summary and the handle of its room. Watchers
//! get the whole list once, then each change as it happens (pushed, never
//! polled) through a broadcast channel of pre-encoded frames; a watcher that
//! falls behind the broadcast gets the whole list again. Finished tables
//! leave the list (their rooms stay reachable while someone follows them),
//! and the lobby counts each identity's unfinished tables for the cap.

use crate::outbox::encode_msg;
use crate::quota::AddrKey;
use crate::room::RoomHandle;
use bytes::Bytes;
use muster_shared::protocol::{ServerMsg, TableId, TableSummary, UserId};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, RwLock};
use tokio::sync::broadcast;

/// Lobby updates buffered per watcher before it must start over.
const UPDATES: usize = 1024;

/// One table as the lobby holds it.
struct Entry {
    summary: TableSummary,
    room: RoomHandle,
    /// Shown in the list. A finished table leaves the list but its room
    /// stays reachable while clients still follow it.
    listed: bool,
}

pub struct Lobby {
    tables: RwLock<BTreeMap<TableId, Entry>>,
    updates: broadcast::Sender<Bytes>,
    /// Unfinished tables per creator and per address, and in all, for the caps.
    owned: Mutex<Owned>,
}

#[derive(Default)]
struct Owned {
    by_user: HashMap<UserId, u32>,
    by_addr: HashMap<AddrKey, u32>,
    total: u32,
}

/// The caps a new table is checked against.
#[derive(Clone, Copy, Debug)]
pub struct Caps {
    pub per_user: u32,
    pub per_addr: u32,
    pub total: u32,
}

/// Who a table is counted against.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Owner {
    pub user: Option<UserId>,
    pub addr: Option<AddrKey>,
}

/// A refused claim: which cap, in words.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    User(String),
    Addr(String),
    Server(String),
}

fn bump<K: std::hash::Hash + Eq>(map: &mut HashMap<K, u32>, k: K) {
    *map.entry(k).or_default() += 1;
}

fn drop_one<K: std::hash::Hash + Eq>(map: &mut HashMap<K, u32>, k: K) {
    if let Some(n) = map.get_mut(&k) {
        *n = n.saturating_sub(1);
        if *n == 0 {
            map.remove(&k);
        }
    }
}

impl Default for Lobby {
    fn default() -> Self {
        Lobby {
            tables: RwLock::new(BTreeMap::new()),
            updates: broadcast::channel(UPDATES).0,
            owned: Mutex::new(Owned::default()),
        }
    }
}

impl Lobby {
    pub fn register(&self, summary: TableSummary, room: RoomHandle) {
        self.write().insert(
            summary.table,
            Entry {
                summary: summary.clone(),
                room,
                listed: true,
            },
        );
        self.announce(summary);
    }

    pub fn update(&self, summary: TableSummary) {
        let listed = match self.write().get_mut(&summary.table) {
            Some(entry) => {
                entry.summary = summary.clone();
                entry.listed
            }
            None => false,
        };
        if listed {
            self.announce(summary);
        }
    }

    /// Take a table off the list (it finished); its room stays reachable.
    pub fn unlist(&self, table: TableId) {
        let was = self
            .write()
            .get_mut(&table)
            .map(|e| std::mem::replace(&mut e.listed, false));
        if was == Some(true) {
            self.announce_removed(table);
        }
    }

    pub fn remove(&self, table: TableId) {
        if self.write().remove(&table).is_some_and(|e| e.listed) {
            self.announce_removed(table);
        }
    }

    fn announce_removed(&self, table: TableId) {
        let _ = self
            .updates
            .send(encode_msg(&ServerMsg::LobbyRemoved { table }));
    }

    /// Count one more unfinished table for `owner` if that stays within
    /// `caps` (`None`: no cap, used when tables come back after a restart).
    pub fn claim(&self, owner: Owner, caps: Option<Caps>) -> Result<(), Refused> {
        let mut o = self.owned.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(c) = caps {
            if let Some(u) = owner.user
                && o.by_user.get(&u).copied().unwrap_or(0) >= c.per_user
            {
                return Err(Refused::User(format!(
                    "you already have {} unfinished tables; finish one before creating another",
                    c.per_user
                )));
            }
            if let Some(a) = owner.addr
                && o.by_addr.get(&a).copied().unwrap_or(0) >= c.per_addr
            {
                return Err(Refused::Addr(format!(
                    "your address ({a}) already has {} unfinished tables; \
                     try again when one of them has finished",
                    c.per_addr
                )));
            }
            if o.total >= c.total {
                return Err(Refused::Server(format!(
                    "the server is full ({} unfinished tables); join an open table \
                     from the list, or try again later",
                    c.total
                )));
            }
        }
        if let Some(u) = owner.user {
            bump(&mut o.by_user, u);
        }
        if let Some(a) = owner.addr {
            bump(&mut o.by_addr, a);
        }
        o.total += 1;
        Ok(())
    }

    /// One of `owner`'s tables finished or was closed (or was never created).
    pub fn release(&self, owner: Owner) {
        let mut o = self.owned.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(u) = owner.user {
            drop_one(&mut o.by_user, u);
        }
        if let Some(a) = owner.addr {
            drop_one(&mut o.by_addr, a);
        }
        o.total = o.total.saturating_sub(1);
    }

    fn announce(&self, table: TableSummary) {
        // No watchers is not an error.
        let _ = self
            .updates
            .send(encode_msg(&ServerMsg::LobbyUpdate { table }));
    }

    /// Every room this node runs (a draining node hands each over).
    pub fn rooms(&self) -> Vec<RoomHandle> {
        self.read().values().map(|e| e.room.clone()).collect()
    }

    pub fn room(&self, table: TableId) -> Option<RoomHandle> {
        self.read().get(&table).map(|e| e.room.clone())
    }

    /// Subscribe first, then take the list, so no update falls in between.
    pub fn watch(&self) -> (broadcast::Receiver<Bytes>, Bytes) {
        let rx = self.updates.subscribe();
        (rx, self.list())
    }

    pub fn list(&self) -> Bytes {
        let tables = self
            .read()
            .values()
            .filter(|e| e.listed)
            .map(|e| e.summary.clone())
            .collect();
        encode_msg(&ServerMsg::Lobby { tables })
    }

    // A poisoned lock only means another thread panicked mid-update of a
    // plain map; the map itself is still consistent, so keep serving.
    fn read(&self) -> std::sync::RwLockReadGuard<'_, BTreeMap<TableId, Entry>> {
        self.tables.read().unwrap_or_else(|e| e.into_inner())
    }
    fn write(&self) -> std::sync::RwLockWriteGuard<'_, BTreeMap<TableId, Entry>> {
        self.tables.write().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use muster_shared::protocol::TableStatus;

    fn summary(id: u64, status: TableStatus) -> TableSummary {
        TableSummary {
            table: TableId(id),
            ruleset: "sandbox".into(),
            scenario: "s".into(),
            seats: vec![None, None],
            status,
            spectators: 0,
            private: false,
            spectators_allowed: true,
            seat_users: vec![None, None],
            to_act: Vec::new(),
        }
    }

    fn listed(lobby: &Lobby) -> Vec<TableId> {
        match ServerMsg::decode(&lobby.list()) {
            Ok(ServerMsg::Lobby { tables }) => tables.iter().map(|t| t.table).collect(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_finished_table_leaves_the_list_but_stays_reachable() {
        let lobby = Lobby::default();
        let (mut rx, _) = lobby.watch();
        for id in [1, 2] {
            let (tx, _rx) = tokio::sync::mpsc::channel(1);
            let handle = RoomHandle {
                id: TableId(id),
                tx,
            };
            lobby.register(summary(id, TableStatus::Playing), handle);
        }
        assert_eq!(listed(&lobby), vec![TableId(1), TableId(2)]);
        lobby.unlist(TableId(1));
        // Watchers are told, the list no longer has it, its room is still there
        // for the clients that follow it, and updates do not bring it back.
        let mut last = None;
        while let Ok(f) = rx.try_recv() {
            last = Some(ServerMsg::decode(&f).unwrap());
        }
        assert!(matches!(last, Some(ServerMsg::LobbyRemoved { table }) if table == TableId(1)));
        assert_eq!(listed(&lobby), vec![TableId(2)]);
        assert!(lobby.room(TableId(1)).is_some());
        lobby.update(summary(1, TableStatus::Finished));
        assert!(rx.try_recv().is_err(), "no update for an unlisted table");
        assert_eq!(listed(&lobby), vec![TableId(2)]);
        lobby.remove(TableId(1));
        assert!(lobby.room(TableId(1)).is_none());
        assert!(rx.try_recv().is_err(), "removed once already");
    }

    #[test]
    fn tables_are_counted_per_creator_per_address_and_in_all() {
        let lobby = Lobby::default();
        let ip = |s: &str| Some(AddrKey::of(s.parse().unwrap()));
        let own = |u: u64, a: &str| Owner {
            user: Some(UserId(u)),
            addr: ip(a),
        };
        let caps = Some(Caps {
            per_user: 2,
            per_addr: 3,
            total: 5,
        });
        let (a, b) = (own(1, "10.0.0.1"), own(2, "10.0.0.1"));
        assert!(lobby.claim(a, caps).is_ok());
        assert!(lobby.claim(a, caps).is_ok());
        assert!(matches!(lobby.claim(a, caps), Err(Refused::User(_))));
        assert!(lobby.claim(b, caps).is_ok());
        // A third identity from the same address: the address is full.
        assert!(matches!(
            lobby.claim(own(3, "10.0.0.1"), caps),
            Err(Refused::Addr(_))
        ));
        // Restored tables are counted without a cap.
        assert!(lobby.claim(a, None).is_ok());
        assert!(lobby.claim(own(4, "10.0.0.2"), caps).is_ok());
        assert!(matches!(
            lobby.claim(own(5, "10.0.0.3"), caps),
            Err(Refused::Server(_))
        ));
        lobby.release(a);
        assert!(matches!(lobby.claim(a, caps), Err(Refused::User(_))));
        lobby.release(a);
        lobby.release(b);
        assert!(lobby.claim(a, caps).is_ok(), "room for one more");
    }
}
