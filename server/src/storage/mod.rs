//! Durable storage behind one small async API. The embedded default is
//! SQLite ([`sqlite`]); a PostgreSQL database ([`pg`]), shared by several
//! nodes, sits behind the same handle. The configured URL picks one
//! ([`Backend`]); the rest of the server never knows which.
//!
//! All database work happens on one dedicated thread, never on the async
//! runtime: a commit waits for `fsync`, which would stall every task on a
//! runtime worker. Requests queue to that thread and are committed in
//! groups (one transaction, one `fsync`, for everything that arrived while
//! the previous group was being written), so many rooms acting at once
//! share the cost of durability.

pub mod club;
pub mod club_db;
pub mod group_window;
pub(crate) mod journal;
pub mod pg;
pub mod sqlite;

use muster_shared::Hash32;
use muster_shared::protocol::{SessionId, SessionInfo, TableId, TableStatus, UserId};
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio::sync::oneshot;

/// What a storage request can fail with.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// Kept as text: `rusqlite::Error` is not `Clone`, and one failed
    /// commit answers every request of its group.
    #[error("database: {0}")]
    Db(String),
    #[error("stored data does not decode: {0}")]
    Corrupt(String),
    #[error("the storage thread has stopped")]
    Closed,
    /// Another node took this table's lease (a higher fencing token): this
    /// node must stop serving it.
    #[error("table {0} is now served by another node; this node may no longer write to it")]
    LeaseLost(u64),
}

impl From<rusqlite::Error> for StorageError {
    fn from(e: rusqlite::Error) -> Self {
        StorageError::Db(e.to_string())
    }
}

/// The server's secret chain for one table, as stored (never sent).
#[derive(Clone, Copy, Debug)]
pub struct StoredChain {
    pub secret: Hash32,
    pub len: u32,
}

/// A seat bound to an identity.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SeatHolder {
    pub user: UserId,
    pub name: String,
}

/// A new table: its options and the first log entries (the server's anchor).
pub struct NewTable {
    /// Who created it (tables per user are capped).
    pub creator: UserId,
    /// From which address (`quota::AddrKey` as text; tables per address are capped).
    pub addr: Option<String>,
    /// Encoded `TableOptions`.
    pub options: Vec<u8>,
    /// Encoded `LogHeader`.
    pub header: Vec<u8>,
    pub chain: StoredChain,
    pub invite: Option<String>,
    pub seats: Vec<Option<SeatHolder>>,
    /// Encoded `LogEntry`s, sequence numbers 1, 2, …
    pub entries: Vec<Vec<u8>>,
}

/// A table read back on start.
pub struct StoredTable {
    pub id: TableId,
    /// `None` for tables stored before creators were recorded.
    pub creator: Option<UserId>,
    /// The creator's address, as [`NewTable::addr`].
    pub addr: Option<String>,
    /// Unix seconds of the last seat taken or given up (or the creation).
    pub active: i64,
    pub options: Vec<u8>,
    pub header: Vec<u8>,
    pub chain: StoredChain,
    pub invite: Option<String>,
    pub seats: Vec<Option<SeatHolder>>,
    pub status: TableStatus,
    pub entries: Vec<Vec<u8>>,
    /// The fencing token this node holds for the table when it was loaded
    /// (a fleet, PostgreSQL), which its room then writes with; `None`
    /// when there are no leases (SQLite, or a node without a name).
    pub lease: Option<u64>,
}

/// What a token is, looked up at sign-in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenLookup {
    /// A live session: its identity, name and session (now marked used).
    Live {
        user: UserId,
        name: String,
        session: SessionId,
    },
    /// No such token.
    Unknown,
    /// Not used for longer than the idle limit (unused for this many seconds).
    Expired { idle_secs: u64 },
    /// Its owner revoked it.
    Revoked,
}

pub(crate) enum Op {
    CreateUser {
        name: String,
        token_hash: Hash32,
        reply: oneshot::Sender<Result<(UserId, SessionId), StorageError>>,
    },
    FindUser {
        token_hash: Hash32,
        /// Sessions unused for longer than this are expired.
        idle_secs: u64,
        reply: oneshot::Sender<Result<TokenLookup, StorageError>>,
    },
    NewSession {
        user: UserId,
        token_hash: Hash32,
        reply: oneshot::Sender<Result<SessionId, StorageError>>,
    },
    ListSessions {
        user: UserId,
        idle_secs: u64,
        reply: oneshot::Sender<Result<Vec<SessionInfo>, StorageError>>,
    },
    /// `true` if the session was this user's and live.
    RevokeSession {
        user: UserId,
        session: SessionId,
        reply: oneshot::Sender<Result<bool, StorageError>>,
    },
    CreateTable {
        table: NewTable,
        reply: oneshot::Sender<Result<TableId, StorageError>>,
    },
    Append {
        table: TableId,
        seq: u64,
        entry: Vec<u8>,
        /// A new server chain replacing the stored one, in the same transaction.
        chain: Option<StoredChain>,
        /// The fencing token of the room writing (see [`Storage::append_fenced`]).
        lease: Option<u64>,
        reply: oneshot::Sender<Result<(), StorageError>>,
    },
    SaveSeats {
        table: TableId,
        seats: Vec<Option<SeatHolder>>,
        status: TableStatus,
        /// As for [`Op::Append`].
        lease: Option<u64>,
        reply: oneshot::Sender<Result<(), StorageError>>,
    },
    /// The table directory shared by a fleet's lobbies (PostgreSQL): this
    /// table's lobby line, or `None` to take it off. Nobody waits for it;
    /// the other nodes hear of it after the commit (`NOTIFY`). Written
    /// only while `lease` is still the table's fencing token, so a node
    /// that lost the table cannot overwrite the new owner's line.
    Listing {
        table: TableId,
        /// Encoded `TableSummary`.
        summary: Option<Vec<u8>>,
        lease: Option<u64>,
    },
    LoadUnfinished {
        reply: oneshot::Sender<Result<(Vec<StoredTable>, Damaged), StorageError>>,
    },
    /// An open table nobody sat at for too long: never rebuilt again.
    Abandon {
        table: TableId,
        reply: oneshot::Sender<Result<(), StorageError>>,
    },
    /// Club events' work (issue 21; its SQL is in [`club`]): run in the
    /// group's transaction, or told why it could not run.
    Club { job: ClubJob },
    /// Take (or keep) a table's lease for this node: its fencing token, or
    /// `None` while another node's lease is live.
    AcquireLease {
        table: TableId,
        node: String,
        lease: Duration,
        reply: oneshot::Sender<Result<Option<u64>, StorageError>>,
    },
    /// The rest of a fleet's bookkeeping (PostgreSQL only): see [`FleetReq`].
    Fleet {
        req: FleetReq,
        reply: oneshot::Sender<Result<FleetAnswer, StorageError>>,
    },
}

/// A fleet's requests to the shared database (issue 23). Kept in one
/// request type so the SQLite store, which has no fleet, refuses them all
/// in one line.
#[derive(Debug)]
pub enum FleetReq {
    /// This node joins the fleet under `node`, reached by clients at
    /// `addr`; its leases last `lease`. Recorded in `nodes`, renewed with
    /// the leases (a heartbeat), and written beside every lease it takes.
    Join {
        node: String,
        addr: String,
        lease: Duration,
    },
    /// This node leaves (drain): other nodes stop sending clients here.
    Leave,
    /// Take the expired leases of other nodes' unfinished tables (this
    /// node's share of them, and any left over for a while): the tables
    /// taken, with their new fencing tokens held.
    TakeExpired,
    /// Renew now; the tables whose lease this node found lost since the
    /// last ask (another node holds a higher token).
    LostLeases,
    /// Who holds `table`'s lease, and whether the table is unfinished.
    Owner(TableId),
    /// Another live node's address, if any.
    Peer,
    /// Give up `table`'s lease now (drain): another node may take it at
    /// once instead of after its expiry.
    Release(TableId),
    /// These tables, as [`Storage::load_unfinished`] loads them.
    Load(Vec<TableId>),
}

/// What a [`FleetReq`] answers.
pub enum FleetAnswer {
    Done,
    Tables(Vec<TableId>),
    Owner(Option<LeaseOwner>),
    Peer(Option<String>),
    Loaded(Vec<StoredTable>, Damaged),
}

/// A table's lease as the database has it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaseOwner {
    /// `None`: no lease was ever taken on it.
    pub node: Option<String>,
    /// Where that node's clients connect (`ws://host:port`).
    pub addr: String,
    /// The lease has not expired.
    pub live: bool,
    /// The table is open or in play (not finished or abandoned).
    pub unfinished: bool,
}

/// A club request: given the transaction (or the error that stopped the
/// group before it ran), it answers after the commit like every other.
pub(crate) type ClubJob =
    Box<dyn FnOnce(Result<&mut dyn club_db::ClubDb, StorageError>) -> sqlite::Answer + Send>;

/// Unfinished tables that cannot be loaded, and why, in words.
pub type Damaged = Vec<(TableId, String)>;

/// The longest a commit group waits for more requests after its first one
/// (config `commit_window_ms`). Rooms act at independent times, so without
/// it most commits under load would carry one entry and pay a whole WAL
/// page write and `fsync` each; the window gathers several rooms' entries
/// per commit, and adds about its length to their latency. It is used only
/// when requests arrive fast enough to fill it ([`group_window`]: from
/// 1,000 a second with 2 ms); below that a group commits at once.
pub const DEFAULT_COMMIT_WINDOW: Duration = Duration::from_millis(2);

/// A commit group: `first` (which the thread waited `idle` for), every
/// request already queued, and, when the arrival rate says company is
/// coming ([`group_window`]) and fewer than [`group_window::COMPANIONS`]
/// were queued, those that arrive during the window; at most
/// [`sqlite::MAX_GROUP`].
///
/// The wait is a sleep, not a wait on the channel: a sender wakes this
/// thread only when it is blocked in `recv`, so requests arriving during
/// the window cost no wake-up (no futex call on either side, no switch to
/// this thread).
fn take_group(
    first: Op,
    idle: Duration,
    rx: &std::sync::mpsc::Receiver<Op>,
    window: &mut group_window::GroupWindow,
) -> Vec<Op> {
    let drain = |group: &mut Vec<Op>| {
        while group.len() < sqlite::MAX_GROUP {
            match rx.try_recv() {
                Ok(op) => group.push(op),
                Err(_) => break,
            }
        }
    };
    let mut group = vec![first];
    drain(&mut group);
    let wait = window.wait(std::time::Instant::now(), idle);
    if !wait.is_zero() && group.len() <= group_window::COMPANIONS {
        std::thread::sleep(wait);
        drain(&mut group);
    }
    window.taken(group.len());
    group
}

/// Which database, from the configured `database` URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    /// `sqlite:` — the file `muster.sqlite3` in the data directory.
    Sqlite(PathBuf),
    /// `postgres://…` or `postgresql://…`, as the driver takes it.
    Postgres(String),
}

impl Backend {
    /// The backend a configured URL names; `data_dir` holds SQLite's file.
    pub fn from_config(url: &str, data_dir: &Path) -> Result<Backend, String> {
        if url == "sqlite:" || url.is_empty() {
            Ok(Backend::Sqlite(data_dir.join("muster.sqlite3")))
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok(Backend::Postgres(url.to_string()))
        } else {
            Err(format!(
                "database must be `sqlite:` (the file in the data directory) or a `postgres://user@host:port/db` URL, not `{}`",
                redact(url)
            ))
        }
    }
}

/// For logs and errors: the URL without its password.
impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Backend::Sqlite(path) => write!(f, "{}", path.display()),
            Backend::Postgres(url) => f.write_str(&redact(url)),
        }
    }
}

fn unexpected(_: FleetAnswer) -> StorageError {
    StorageError::Db("the storage thread answered a fleet request out of turn".into())
}

/// `scheme://user:secret@host…` → `scheme://user:***@host…`.
fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let Some((userinfo, host)) = rest.split_once('@') else {
        return url.to_string();
    };
    match userinfo.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_string(),
    }
}

/// Transactions committed by the storage thread (one per group), for the
/// metric `muster_storage_commits_total`: actions per commit is how well
/// group commit shares the cost of durability.
pub static COMMITS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// A cloneable handle to the storage thread. The thread stops (after
/// committing everything queued and checkpointing the WAL) once every
/// handle is dropped.
#[derive(Clone)]
pub struct Storage {
    tx: std::sync::mpsc::Sender<Op>,
}

impl Storage {
    /// Open (or create) the database in `dir` and start its thread, which
    /// commits in groups gathered, under load, over `window` (a
    /// `Duration`, or [`group_window::CommitWindow::always`] in tests).
    /// Returns the handle and the thread, to join at shutdown.
    pub fn open(
        dir: &Path,
        window: impl Into<group_window::CommitWindow>,
    ) -> Result<(Storage, std::thread::JoinHandle<()>), StorageError> {
        let window = window.into();
        let db = sqlite::Db::open(&dir.join("muster.sqlite3"))?;
        let (tx, rx) = std::sync::mpsc::channel();
        // Answers go back through the caller's runtime when there is one.
        let runtime = tokio::runtime::Handle::try_current().ok();
        let thread = std::thread::Builder::new()
            .name("muster-storage".into())
            .spawn(move || db.run(rx, window, runtime))
            .map_err(|e| StorageError::Corrupt(format!("cannot start storage thread: {e}")))?;
        Ok((Storage { tx }, thread))
    }

    /// Open the configured backend and start its thread (see [`Storage::open`]).
    pub fn open_backend(
        backend: &Backend,
        window: impl Into<group_window::CommitWindow>,
    ) -> Result<(Storage, std::thread::JoinHandle<()>), StorageError> {
        let window = window.into();
        match backend {
            Backend::Sqlite(path) => {
                let dir = path.parent().unwrap_or(Path::new("."));
                Storage::open(dir, window)
            }
            Backend::Postgres(url) => pg::start(url, window),
        }
    }

    async fn ask<T>(
        &self,
        make: impl FnOnce(oneshot::Sender<Result<T, StorageError>>) -> Op,
    ) -> Result<T, StorageError> {
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(make(reply))
            .map_err(|_| StorageError::Closed)?;
        rx.await.map_err(|_| StorageError::Closed)?
    }

    /// A new identity and its first session.
    pub async fn create_user(
        &self,
        name: String,
        token_hash: Hash32,
    ) -> Result<(UserId, SessionId), StorageError> {
        self.ask(|reply| Op::CreateUser {
            name,
            token_hash,
            reply,
        })
        .await
    }

    /// Who a token signs in as, or why it does not; a live session is
    /// marked used now (its idle time starts again).
    pub async fn find_user(
        &self,
        token_hash: Hash32,
        idle_secs: u64,
    ) -> Result<TokenLookup, StorageError> {
        self.ask(|reply| Op::FindUser {
            token_hash,
            idle_secs,
            reply,
        })
        .await
    }

    /// Another session for an identity.
    pub async fn new_session(
        &self,
        user: UserId,
        token_hash: Hash32,
    ) -> Result<SessionId, StorageError> {
        self.ask(|reply| Op::NewSession {
            user,
            token_hash,
            reply,
        })
        .await
    }

    /// An identity's sessions that are neither revoked nor expired
    /// (`current` is left `false` for the caller to set).
    pub async fn list_sessions(
        &self,
        user: UserId,
        idle_secs: u64,
    ) -> Result<Vec<SessionInfo>, StorageError> {
        self.ask(|reply| Op::ListSessions {
            user,
            idle_secs,
            reply,
        })
        .await
    }

    /// Revoke one of `user`'s sessions; `false` if it is not theirs or
    /// already revoked.
    pub async fn revoke_session(
        &self,
        user: UserId,
        session: SessionId,
    ) -> Result<bool, StorageError> {
        self.ask(|reply| Op::RevokeSession {
            user,
            session,
            reply,
        })
        .await
    }

    pub async fn create_table(&self, table: NewTable) -> Result<TableId, StorageError> {
        self.ask(|reply| Op::CreateTable { table, reply }).await
    }

    /// Append one log entry; returns once it is durable on disk. In a
    /// fleet it is checked against the newest fencing token this node took
    /// for the table; a room writes with its own ([`Storage::append_fenced`]).
    pub async fn append(
        &self,
        table: TableId,
        seq: u64,
        entry: Vec<u8>,
        chain: Option<StoredChain>,
    ) -> Result<(), StorageError> {
        self.append_fenced(table, seq, entry, chain, None).await
    }

    /// [`Storage::append`] checked against `lease`, the fencing token the
    /// writing room was built with, inside the commit's transaction: a room
    /// whose table left this node is refused (`LeaseLost`) even if the
    /// table has come back to this node since, under a newer token, with
    /// a new room. `None`: this node's newest token for the table, if any.
    pub async fn append_fenced(
        &self,
        table: TableId,
        seq: u64,
        entry: Vec<u8>,
        chain: Option<StoredChain>,
        lease: Option<u64>,
    ) -> Result<(), StorageError> {
        self.ask(|reply| Op::Append {
            table,
            seq,
            entry,
            chain,
            lease,
            reply,
        })
        .await
    }

    pub async fn save_seats(
        &self,
        table: TableId,
        seats: Vec<Option<SeatHolder>>,
        status: TableStatus,
    ) -> Result<(), StorageError> {
        self.save_seats_fenced(table, seats, status, None).await
    }

    /// [`Storage::save_seats`] checked against `lease` (see
    /// [`Storage::append_fenced`]).
    pub async fn save_seats_fenced(
        &self,
        table: TableId,
        seats: Vec<Option<SeatHolder>>,
        status: TableStatus,
        lease: Option<u64>,
    ) -> Result<(), StorageError> {
        self.ask(|reply| Op::SaveSeats {
            table,
            seats,
            status,
            lease,
            reply,
        })
        .await
    }

    /// Put `table`'s lobby line in the fleet's shared directory (`None`:
    /// take it off); see [`Op::Listing`]. Does not wait: the lobby is
    /// updated from inside locks and the line is not a promise to anyone.
    pub fn list_table(&self, table: TableId, summary: Option<Vec<u8>>, lease: Option<u64>) {
        let _ = self.tx.send(Op::Listing {
            table,
            summary,
            lease,
        });
    }

    /// Close an open table for good (abandoned): it is no longer loaded on
    /// start; its log stays.
    pub async fn abandon(&self, table: TableId) -> Result<(), StorageError> {
        self.ask(|reply| Op::Abandon { table, reply }).await
    }

    /// Run club work (a function of [`club`]) in the next group's
    /// transaction, on either database ([`club_db`]); its result once
    /// committed.
    pub async fn club<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut dyn club_db::ClubDb) -> Result<T, StorageError> + Send + 'static,
    ) -> Result<T, StorageError> {
        self.ask(|reply| Op::Club {
            job: Box::new(move |tx| match tx {
                Ok(tx) => sqlite::deferred(reply, f(tx)),
                Err(e) => {
                    let _ = reply.send(Err(e));
                    Box::new(|_| {})
                }
            }),
        })
        .await
    }

    /// Take table `table`'s lease for node `node` for `lease` (PostgreSQL,
    /// several nodes): its new fencing token, or `None` while another
    /// node's lease has not expired. From then on this handle's writes to
    /// the table are checked against the token inside their transaction,
    /// so once another node takes the table (a higher token) they are
    /// refused, however late they arrive. The storage thread renews its
    /// leases while it runs. SQLite has one writer: always `Some(0)`.
    pub async fn acquire_lease(
        &self,
        table: TableId,
        node: String,
        lease: Duration,
    ) -> Result<Option<u64>, StorageError> {
        self.ask(|reply| Op::AcquireLease {
            table,
            node,
            lease,
            reply,
        })
        .await
    }

    async fn fleet(&self, req: FleetReq) -> Result<FleetAnswer, StorageError> {
        self.ask(|reply| Op::Fleet { req, reply }).await
    }

    /// Join a fleet (see [`FleetReq::Join`]).
    pub async fn join_fleet(
        &self,
        node: String,
        addr: String,
        lease: Duration,
    ) -> Result<(), StorageError> {
        self.fleet(FleetReq::Join { node, addr, lease })
            .await
            .map(drop)
    }

    /// Leave the fleet (see [`FleetReq::Leave`]).
    pub async fn leave_fleet(&self) -> Result<(), StorageError> {
        self.fleet(FleetReq::Leave).await.map(drop)
    }

    /// Take expired leases (see [`FleetReq::TakeExpired`]).
    pub async fn take_expired(&self) -> Result<Vec<TableId>, StorageError> {
        match self.fleet(FleetReq::TakeExpired).await? {
            FleetAnswer::Tables(t) => Ok(t),
            other => Err(unexpected(other)),
        }
    }

    /// Leases lost since the last ask (see [`FleetReq::LostLeases`]).
    pub async fn lost_leases(&self) -> Result<Vec<TableId>, StorageError> {
        match self.fleet(FleetReq::LostLeases).await? {
            FleetAnswer::Tables(t) => Ok(t),
            other => Err(unexpected(other)),
        }
    }

    /// Who holds a table's lease; `None` when there is no such table.
    pub async fn lease_owner(&self, table: TableId) -> Result<Option<LeaseOwner>, StorageError> {
        match self.fleet(FleetReq::Owner(table)).await? {
            FleetAnswer::Owner(o) => Ok(o),
            other => Err(unexpected(other)),
        }
    }

    /// Another live node's address (see [`FleetReq::Peer`]).
    pub async fn peer(&self) -> Result<Option<String>, StorageError> {
        match self.fleet(FleetReq::Peer).await? {
            FleetAnswer::Peer(p) => Ok(p),
            other => Err(unexpected(other)),
        }
    }

    /// Give up a table's lease now (see [`FleetReq::Release`]).
    pub async fn release_lease(&self, table: TableId) -> Result<(), StorageError> {
        self.fleet(FleetReq::Release(table)).await.map(drop)
    }

    /// Load some unfinished tables (see [`Storage::load_unfinished`]).
    pub async fn load_tables(
        &self,
        tables: Vec<TableId>,
    ) -> Result<(Vec<StoredTable>, Damaged), StorageError> {
        match self.fleet(FleetReq::Load(tables)).await? {
            FleetAnswer::Loaded(t, d) => Ok((t, d)),
            other => Err(unexpected(other)),
        }
    }

    /// Every table not finished, with its whole log, and the unfinished
    /// tables whose rows fail their checks (with why): a log shorter than
    /// its committed head, an entry whose checksum does not match, rows
    /// that do not decode.
    pub async fn load_unfinished(&self) -> Result<(Vec<StoredTable>, Damaged), StorageError> {
        self.ask(|reply| Op::LoadUnfinished { reply }).await
    }
}
