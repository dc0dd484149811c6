//! The lobby: every table's summary and the handle of its room. Watchers
//! get the whole list once, then each change as it happens (pushed, never
//! polled) through a broadcast channel of pre-encoded frames; a watcher that
//! falls behind the broadcast gets the whole list again. Finished tables
//! leave the list (their rooms stay reachable while someone follows them),
//! and the lobby counts each identity's unfinished tables for the cap.
//!
//! In a fleet (issue 23) the list is the fleet's, not the node's: each
//! node writes the lines of the tables it serves to the database's
//! directory (`lobby` table, [`crate::storage::Storage::list_table`]) and
//! hears every node's changes through PostgreSQL's `LISTEN/NOTIFY`
//! ([`crate::fleet::lobby_feed`]), which it keeps here beside its own
//! rooms ([`Lobby::remote_put`]). A table this node serves is shown from
//! its room; any other from the directory.
//!
//! Each room's calls carry its serial number ([`RoomHandle::serial`]): a
//! room that stopped serving a table that has a newer room here since (the
//! table left this node and came back) cannot change the newer room's line.

use crate::outbox::encode_msg;
use crate::quota::AddrKey;
use crate::room::RoomHandle;
use crate::storage::Storage;
use bytes::Bytes;
use muster_shared::codec;
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

/// The tables this node serves, and the fleet directory's lines.
#[derive(Default)]
struct Tables {
    local: BTreeMap<TableId, Entry>,
    /// Every line of the fleet's directory, whichever node wrote it;
    /// shown for the tables with no room here.
    remote: BTreeMap<TableId, TableSummary>,
}

pub struct Lobby {
    tables: RwLock<Tables>,
    updates: broadcast::Sender<Bytes>,
    /// Unfinished tables per creator and per address, and in all, for the caps.
    owned: Mutex<Owned>,
    /// In a fleet: where this node's lines go for the other nodes.
    directory: Option<Storage>,
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
            tables: RwLock::new(Tables::default()),
            updates: broadcast::channel(UPDATES).0,
            owned: Mutex::new(Owned::default()),
            directory: None,
        }
    }
}

fn update_frame(table: TableSummary) -> Bytes {
    encode_msg(&ServerMsg::LobbyUpdate { table })
}

fn removed_frame(table: TableId) -> Bytes {
    encode_msg(&ServerMsg::LobbyRemoved { table })
}

impl Lobby {
    /// A fleet node's lobby: its rooms' lines also go to the shared
    /// directory through `storage`.
    pub fn shared_through(storage: Storage) -> Lobby {
        Lobby {
            directory: Some(storage),
            ..Lobby::default()
        }
    }

    /// A room starts serving its table here (replacing an older room of
    /// the same table, if any).
    pub fn register(&self, summary: TableSummary, room: RoomHandle) {
        let mut t = self.write();
        self.to_directory(summary.table, Some(&summary), room.lease);
        t.local.insert(
            summary.table,
            Entry {
                summary: summary.clone(),
                room,
                listed: true,
            },
        );
        self.announce(update_frame(summary));
    }

    /// The room numbered `serial` shows a new summary of its table.
    pub fn update(&self, serial: u64, summary: TableSummary) {
        let mut t = self.write();
        let Some(entry) = t.local.get_mut(&summary.table) else {
            return;
        };
        if entry.room.serial != serial {
            return;
        }
        entry.summary = summary.clone();
        if entry.listed {
            self.to_directory(summary.table, Some(&summary), entry.room.lease);
            self.announce(update_frame(summary));
        }
    }

    /// Take a table off the list (it finished); its room stays reachable.
    pub fn unlist(&self, table: TableId, serial: u64) {
        let mut t = self.write();
        let Some(entry) = t.local.get_mut(&table) else {
            return;
        };
        if entry.room.serial == serial && std::mem::replace(&mut entry.listed, false) {
            self.to_directory(table, None, entry.room.lease);
            self.announce(removed_frame(table));
        }
    }

    /// The room numbered `serial` stopped and its table is closed (or no
    /// longer listed): gone from this node and from the fleet's list.
    pub fn remove(&self, table: TableId, serial: u64) {
        let mut t = self.write();
        if t.local.get(&table).is_some_and(|e| e.room.serial == serial)
            && let Some(e) = t.local.remove(&table)
            && e.listed
        {
            self.to_directory(table, None, e.room.lease);
            self.announce(removed_frame(table));
        }
    }

    /// The room numbered `serial` stopped serving its table, which goes on
    /// elsewhere (handed over to another node): gone from this node, but
    /// its line in the fleet's directory stays for the next node to
    /// update, and this node's watchers see that line.
    pub fn forget(&self, table: TableId, serial: u64) {
        let mut t = self.write();
        if t.local.get(&table).is_some_and(|e| e.room.serial == serial)
            && let Some(e) = t.local.remove(&table)
            && e.listed
        {
            match t.remote.get(&table) {
                Some(line) => self.announce(update_frame(line.clone())),
                None => self.announce(removed_frame(table)),
            }
        }
    }

    /// A line of the fleet's directory, as another node (or this one)
    /// wrote it; watchers see it unless a room here shows the table.
    pub fn remote_put(&self, summary: TableSummary) {
        let mut t = self.write();
        let table = summary.table;
        let changed = t.remote.get(&table) != Some(&summary);
        t.remote.insert(table, summary.clone());
        if changed && !t.local.contains_key(&table) {
            self.announce(update_frame(summary));
        }
    }

    /// A line left the fleet's directory (its table finished or closed).
    pub fn remote_drop(&self, table: TableId) {
        let mut t = self.write();
        if t.remote.remove(&table).is_some() && !t.local.contains_key(&table) {
            self.announce(removed_frame(table));
        }
    }

    /// The whole directory, read again (the feed's connection was made
    /// again and may have missed announcements): lines no longer there
    /// are dropped, the rest put.
    pub fn remote_reset(&self, lines: Vec<TableSummary>) {
        let keep: std::collections::BTreeSet<TableId> = lines.iter().map(|l| l.table).collect();
        let stale: Vec<TableId> = self
            .read()
            .remote
            .keys()
            .filter(|t| !keep.contains(t))
            .copied()
            .collect();
        for table in stale {
            self.remote_drop(table);
        }
        for line in lines {
            self.remote_put(line);
        }
    }

    /// This node's own change to the fleet's directory (nothing without a
    /// fleet). Sent under the lobby's lock so a table's lines leave in the
    /// order its lobby changed.
    fn to_directory(&self, table: TableId, summary: Option<&TableSummary>, lease: Option<u64>) {
        if let Some(storage) = &self.directory {
            storage.list_table(table, summary.map(codec::encode_infallible), lease);
        }
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

    fn announce(&self, frame: Bytes) {
        // No watchers is not an error.
        let _ = self.updates.send(frame);
    }

    /// Every room this node runs (a draining node hands each over).
    pub fn rooms(&self) -> Vec<RoomHandle> {
        self.read().local.values().map(|e| e.room.clone()).collect()
    }

    pub fn room(&self, table: TableId) -> Option<RoomHandle> {
        self.read().local.get(&table).map(|e| e.room.clone())
    }

    /// Subscribe first, then take the list, so no update falls in between.
    pub fn watch(&self) -> (broadcast::Receiver<Bytes>, Bytes) {
        let rx = self.updates.subscribe();
        (rx, self.list())
    }

    /// The list a watcher is shown: this node's listed tables, and the
    /// fleet directory's lines of tables served elsewhere.
    pub fn list(&self) -> Bytes {
        let t = self.read();
        let mut tables: BTreeMap<TableId, TableSummary> = t
            .remote
            .iter()
            .filter(|(id, _)| !t.local.contains_key(id))
            .map(|(id, s)| (*id, s.clone()))
            .collect();
        for (id, e) in &t.local {
            if e.listed {
                tables.insert(*id, e.summary.clone());
            }
        }
        encode_msg(&ServerMsg::Lobby {
            tables: tables.into_values().collect(),
        })
    }

    // A poisoned lock only means another thread panicked mid-update of a
    // plain map; the map itself is still consistent, so keep serving.
    fn read(&self) -> std::sync::RwLockReadGuard<'_, Tables> {
        self.tables.read().unwrap_or_else(|e| e.into_inner())
    }
    fn write(&self) -> std::sync::RwLockWriteGuard<'_, Tables> {
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
            carried_from: None,
        }
    }

    fn listed(lobby: &Lobby) -> Vec<TableId> {
        match ServerMsg::decode(&lobby.list()) {
            Ok(ServerMsg::Lobby { tables }) => tables.iter().map(|t| t.table).collect(),
            other => panic!("{other:?}"),
        }
    }

    fn handle(id: u64, serial: u64) -> RoomHandle {
        let (tx, _rx) = tokio::sync::mpsc::channel(1);
        RoomHandle {
            id: TableId(id),
            tx,
            serial,
            lease: None,
        }
    }

    fn drain(rx: &mut broadcast::Receiver<Bytes>) -> Vec<ServerMsg> {
        let mut out = Vec::new();
        while let Ok(f) = rx.try_recv() {
            out.push(ServerMsg::decode(&f).unwrap());
        }
        out
    }

    #[test]
    fn a_finished_table_leaves_the_list_but_stays_reachable() {
        let lobby = Lobby::default();
        let (mut rx, _) = lobby.watch();
        for id in [1, 2] {
            lobby.register(summary(id, TableStatus::Playing), handle(id, id));
        }
        assert_eq!(listed(&lobby), vec![TableId(1), TableId(2)]);
        lobby.unlist(TableId(1), 1);
        // Watchers are told, the list no longer has it, its room is still there
        // for the clients that follow it, and updates do not bring it back.
        let last = drain(&mut rx).pop();
        assert!(matches!(last, Some(ServerMsg::LobbyRemoved { table }) if table == TableId(1)));
        assert_eq!(listed(&lobby), vec![TableId(2)]);
        assert!(lobby.room(TableId(1)).is_some());
        lobby.update(1, summary(1, TableStatus::Finished));
        assert!(rx.try_recv().is_err(), "no update for an unlisted table");
        assert_eq!(listed(&lobby), vec![TableId(2)]);
        lobby.remove(TableId(1), 1);
        assert!(lobby.room(TableId(1)).is_none());
        assert!(rx.try_recv().is_err(), "removed once already");
    }

    /// Issue 23: a room that stopped serving its table (it left this node
    /// and came back, with a new room) cannot touch the new room's line.
    #[test]
    fn an_old_room_cannot_change_its_successors_line() {
        let lobby = Lobby::default();
        lobby.register(summary(7, TableStatus::Open), handle(7, 1));
        lobby.register(summary(7, TableStatus::Playing), handle(7, 2));
        let (mut rx, _) = lobby.watch();
        lobby.update(1, summary(7, TableStatus::Open));
        lobby.unlist(TableId(7), 1);
        lobby.forget(TableId(7), 1);
        lobby.remove(TableId(7), 1);
        assert!(drain(&mut rx).is_empty(), "the old room is not heard");
        assert_eq!(lobby.room(TableId(7)).map(|r| r.serial), Some(2));
        assert_eq!(listed(&lobby), vec![TableId(7)]);
    }

    /// Issue 23: the fleet directory's lines of tables served elsewhere are
    /// listed and pushed to watchers; a room here takes precedence; a table
    /// handed over stays listed with the directory's line.
    #[test]
    fn the_fleets_lines_are_listed_beside_this_nodes_rooms() {
        let lobby = Lobby::default();
        lobby.register(summary(1, TableStatus::Open), handle(1, 1));
        let (mut rx, _) = lobby.watch();
        lobby.remote_put(summary(2, TableStatus::Open));
        lobby.remote_put(summary(2, TableStatus::Open));
        let seen = drain(&mut rx);
        assert_eq!(seen.len(), 1, "an unchanged line is not sent again");
        assert!(matches!(&seen[0], ServerMsg::LobbyUpdate { table } if table.table == TableId(2)));
        assert_eq!(listed(&lobby), vec![TableId(1), TableId(2)]);
        // This node's own line comes back from the directory: not sent twice.
        lobby.remote_put(summary(1, TableStatus::Playing));
        assert!(drain(&mut rx).is_empty());
        lobby.remote_reset(vec![summary(1, TableStatus::Playing)]);
        assert!(
            matches!(&drain(&mut rx)[..], [ServerMsg::LobbyRemoved { table }] if *table == TableId(2))
        );
        assert_eq!(listed(&lobby), vec![TableId(1)]);
        lobby.remote_drop(TableId(9));
        assert!(drain(&mut rx).is_empty(), "nothing to drop");
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
