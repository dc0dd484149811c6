//! The room actor: the only owner of one table's match. Commands arrive in
//! order on a bounded channel; every entry is durable in storage before any
//! delta about it leaves; deltas go to each subscriber's own bounded queue
//! with `try_send`, so a subscriber that stops reading is dropped to a
//! resync instead of slowing the table.

use super::any_match::{AnyMatch, AppliedEntry, Pending, registry};
use super::{RoomCmd, SERVER_CHAIN_LEN, Who, chain_heads, class_index};
use crate::Shared;
use crate::lobby::{Caps, Owner, Refused};
use crate::outbox::{Outbox, Push, encode_msg, error_frame};
use crate::quota::{AddrKey, Bucket, retry_in};
use crate::storage::{NewTable, SeatHolder, StoredChain, StoredTable};
use bytes::Bytes;
use futures_util::FutureExt;
use muster_shared::codec;
use muster_shared::dice::{ChainAnchor, HashChain, Party, SeatLink};
use muster_shared::engine::{LogEntry, LogHeader, MatchLog, RuleCode, RuleError};
use muster_shared::protocol::{
    ChatChannel, DeltaBody, ErrorCode, ServerMsg, Snapshot, TableId, TableOptions, TableStatus,
    TableSummary, UserId,
};
use muster_shared::{MatchId, SeatId, Viewer};
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// Longest chat line, in bytes.
const MAX_CHAT: usize = 500;
/// Longest scenario name, in bytes.
const MAX_SCENARIO: usize = 64;
/// A seat whose chain has used links and has at most this many left may
/// publish a new anchor without counting against `limits.anchor_burst`.
const NEAR_EXHAUSTED: u32 = 16;

/// How the lobby and connections reach a room.
#[derive(Clone)]
pub struct RoomHandle {
    pub id: TableId,
    pub tx: mpsc::Sender<RoomCmd>,
    /// This room's number in this process, unique across its tables and
    /// their successive rooms: the lobby hears a room only while it is
    /// the one serving its table.
    pub serial: u64,
    /// The fencing token the room writes with (see [`Room::lease`]).
    pub lease: Option<u64>,
}

/// The next room's [`RoomHandle::serial`].
static NEXT_ROOM: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

struct Sub {
    out: Outbox,
    viewer: Viewer,
}

pub struct Room {
    id: TableId,
    options: TableOptions,
    invite: Option<String>,
    m: Box<dyn AnyMatch>,
    /// The server's secret chain for this match (its secret is in storage).
    chain: HashChain,
    seats: Vec<Option<SeatHolder>>,
    status: TableStatus,
    subs: HashMap<u64, Sub>,
    /// Subscribers dropped for not reading; they get a snapshot once their
    /// queue has drained (see [`RoomCmd::Resubscribe`]).
    lagged: HashMap<u64, Sub>,
    /// The last entries' frames, one per viewer class, for `Resync`, and
    /// whether each is an action: the window counts actions, so anchors
    /// cannot push actions out of it.
    history: VecDeque<(u64, Vec<Bytes>, bool)>,
    /// Actions in `history`.
    history_actions: usize,
    /// Spectator frames held back by the table's delay.
    spec_held: VecDeque<(u64, Bytes)>,
    /// The last `spectator_delay` action sequence numbers.
    recent_actions: VecDeque<u64>,
    first_action: Option<u64>,
    /// Spectators see entries up to here.
    horizon: u64,
    pending: Vec<Pending>,
    deadline: Option<tokio::time::Instant>,
    /// Storage failed after the match moved on in memory: refuse everything.
    broken: bool,
    published: Option<TableSummary>,
    /// Who created the table and from where, counted against the caps
    /// while it is unfinished (`None`s for tables stored before these were kept).
    owner: Owner,
    /// Chat lines per identity (`limits.chat_per_minute`).
    chat_buckets: HashMap<UserId, Bucket>,
    /// Anchors per seat beyond the free ones (`limits.anchor_burst`).
    anchor_buckets: HashMap<SeatId, Bucket>,
    /// When an open table with no seat change is closed (`limits.open_table_idle_secs`).
    idle_close: Option<tokio::time::Instant>,
    /// A finished game whose delayed spectators have not seen the end yet:
    /// when the next held action is shown to them (`limits.finish_reveal_ms`).
    /// Until the last is shown the table stays listed, as in play.
    reveal: Option<tokio::time::Instant>,
    /// A table of a club event: its clock turns and its end are told to
    /// the club hub (issue 21).
    event_table: bool,
    /// A director of its club event stopped the table (issue 21).
    paused: bool,
    /// Issue 18: an open take-back request: the seat asking, and the
    /// action it would undo.
    take_back_ask: Option<(SeatId, u64)>,
    /// Issue 23: a commit was refused because another node took the
    /// table's lease; the room hands the table over and stops.
    lease_lost: bool,
    /// Handed over: the room stops.
    gone: bool,
    /// Issue 23: the fencing token of the table's lease this room was
    /// built under (a fleet; `None` without leases). Every commit of the
    /// room is checked against it inside its transaction, so a room
    /// whose table left this node can never write again, even if the
    /// table came back to this node under a newer token (and a new room).
    lease: Option<u64>,
    /// See [`RoomHandle::serial`].
    serial: u64,
    shared: Arc<Shared>,
}

/// A refusal while creating a table.
pub struct CreateError(pub ErrorCode, pub String);

fn random_invite() -> String {
    let mut b = [0u8; 6];
    getrandom::fill(&mut b).expect("the OS random generator is available");
    hex::encode(b)
}

fn check_text(text: &str, max: usize) -> bool {
    !text.trim().is_empty() && text.len() <= max && !text.chars().any(char::is_control)
}

/// Spectators' horizon: everything before the `delay`-th most recent action.
fn horizon(last: u64, delay: u32, recent: &VecDeque<u64>, first_action: Option<u64>) -> u64 {
    if delay == 0 {
        return last;
    }
    if recent.len() >= delay as usize {
        recent.front().map_or(last, |s| s - 1)
    } else {
        first_action.map_or(last, |s| s - 1)
    }
}

impl Room {
    /// Create a table: a new match, the server's chain and its anchor as
    /// entry 1, all durable before the table exists for anyone.
    pub async fn create(
        shared: &Arc<Shared>,
        options: TableOptions,
        creator: UserId,
        addr: Option<AddrKey>,
    ) -> Result<(TableId, Option<String>), CreateError> {
        let l = &shared.config.limits;
        let caps = Caps {
            per_user: l.tables_per_user,
            per_addr: l.tables_per_addr,
            total: l.max_tables,
        };
        let owner = Owner {
            user: Some(creator),
            addr,
        };
        if let Err(why) = shared.lobby.claim(owner, Some(caps)) {
            shared
                .metrics
                .rate_limited
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            return Err(match why {
                // Kept as before for the per-identity cap.
                Refused::User(m) => CreateError(ErrorCode::Forbidden, m),
                Refused::Addr(m) | Refused::Server(m) => CreateError(ErrorCode::RateLimited, m),
            });
        }
        let made = Room::create_claimed(shared, options, owner, creator, None).await;
        if made.is_err() {
            shared.lobby.release(owner);
        }
        made
    }

    /// Create a table of a club event (issue 21) through the same path,
    /// its seats already bound to the paired players, so it is in play at
    /// once. Stored with the director as creator but counted against no
    /// identity or address (an event of many tables is not one player's),
    /// only against the server's `max_tables`.
    pub async fn create_seated(
        shared: &Arc<Shared>,
        options: TableOptions,
        director: UserId,
        seats: Vec<SeatHolder>,
    ) -> Result<TableId, CreateError> {
        let caps = Caps {
            per_user: u32::MAX,
            per_addr: u32::MAX,
            total: shared.config.limits.max_tables,
        };
        let owner = Owner::default();
        if let Err(Refused::User(m) | Refused::Addr(m) | Refused::Server(m)) =
            shared.lobby.claim(owner, Some(caps))
        {
            return Err(CreateError(ErrorCode::RateLimited, m));
        }
        let made = Room::create_claimed(shared, options, owner, director, Some(seats)).await;
        if made.is_err() {
            shared.lobby.release(owner);
        }
        made.map(|(table, _)| table)
    }

    async fn create_claimed(
        shared: &Arc<Shared>,
        options: TableOptions,
        owner: Owner,
        creator: UserId,
        seated: Option<Vec<SeatHolder>>,
    ) -> Result<(TableId, Option<String>), CreateError> {
        let entry = registry(&options.ruleset).ok_or_else(|| {
            CreateError(
                ErrorCode::UnknownRuleset,
                format!("no ruleset {:?}", options.ruleset),
            )
        })?;
        if !check_text(&options.scenario, MAX_SCENARIO) {
            return Err(CreateError(
                ErrorCode::BadOptions,
                "scenario: 1 to 64 printable bytes".into(),
            ));
        }
        if options.spectator_delay > shared.config.limits.max_spectator_delay {
            return Err(CreateError(
                ErrorCode::BadOptions,
                format!(
                    "spectator delay over {}",
                    shared.config.limits.max_spectator_delay
                ),
            ));
        }
        // Building a scenario (a large one takes tens of milliseconds, more
        // in a debug build) and hashing the server's chain run on the
        // blocking pool, a few at a time: the runtime thread keeps serving
        // every other table meanwhile.
        let permit = shared
            .builds
            .acquire()
            .await
            .map_err(|_| CreateError(ErrorCode::Internal, "the server is stopping".into()))?;
        let config = options.config.clone();
        let reveal_every = shared.config.reveal_every;
        let built = tokio::task::spawn_blocking(move || {
            let mut m = (entry.create)(&config, MatchId::random())
                .map_err(|e| CreateError(ErrorCode::BadOptions, e.to_string()))?;
            m.set_reveal_every(reveal_every);
            let chain = HashChain::generate(SERVER_CHAIN_LEN);
            let first = m
                .publish_anchor(Party::Server, chain.anchor())
                .map_err(|e| CreateError(ErrorCode::Internal, e.to_string()))?;
            Ok::<_, CreateError>((m, chain, first))
        })
        .await
        .map_err(|e| {
            CreateError(
                ErrorCode::Internal,
                format!("building the table failed: {e}"),
            )
        })?;
        drop(permit);
        let (m, chain, first) = built?;
        let invite = options.private.then(random_invite);
        let mut seats = vec![None; usize::from(m.seats())];
        if let Some(holders) = &seated {
            if holders.len() != seats.len() {
                return Err(CreateError(
                    ErrorCode::BadOptions,
                    format!("this game has {} seats, not {}", seats.len(), holders.len()),
                ));
            }
            seats = holders.iter().cloned().map(Some).collect();
        }
        let id = shared
            .storage
            .create_table(NewTable {
                creator,
                addr: owner.addr.map(AddrKey::to_text),
                options: codec::encode_infallible(&options),
                header: codec::encode_infallible(m.header()),
                chain: StoredChain {
                    secret: chain.secret(),
                    len: chain.len(),
                },
                invite: invite.clone(),
                seats: seats.clone(),
                entries: vec![first.logged.clone()],
            })
            .await
            .map_err(|e| CreateError(ErrorCode::Internal, e.to_string()))?;
        // In a fleet the new table is this node's by its lease.
        let mut token = None;
        if let Some(lease) = shared.config.lease() {
            token = shared
                .storage
                .acquire_lease(id, shared.config.node.clone(), lease)
                .await
                .map_err(|e| CreateError(ErrorCode::Internal, e.to_string()))?;
            if token.is_none() {
                return Err(CreateError(
                    ErrorCode::Internal,
                    "the new table was taken by another server; try again".into(),
                ));
            }
        }
        // Every seat bound from the start: in play now, durably.
        let status = if seated.is_some() {
            shared
                .storage
                .save_seats_fenced(id, seats.clone(), TableStatus::Playing, token)
                .await
                .map_err(|e| CreateError(ErrorCode::Internal, e.to_string()))?;
            TableStatus::Playing
        } else {
            TableStatus::Open
        };
        let mut room = Room::new(shared, id, options, invite.clone(), m, chain, seats, status);
        room.lease = token;
        room.owner = owner;
        room.event_table = seated.is_some();
        room.touch();
        room.horizon = room.m.last_seq();
        room.m.advance_spectators(room.horizon);
        if seated.is_some() {
            room.pending = room.m.pending();
            room.deadline = room.decision_clock();
        }
        room.spawn();
        Ok((id, invite))
    }

    /// Rebuild a table from storage after a restart.
    pub fn restore(shared: &Arc<Shared>, t: StoredTable) -> Result<(), String> {
        let mut room = Room::rebuild(shared, t)?;
        // An event's table is stored with its director as creator but
        // counted against nobody (see `create_seated`), after a restart too.
        if shared.club.is_event_table(room.id) {
            room.owner = Owner::default();
        }
        if room.status != TableStatus::Finished {
            // Counted, never refused: the table exists already.
            let _ = shared.lobby.claim(room.owner, None);
        }
        room.spawn();
        Ok(())
    }

    /// A room from its stored rows and log (not yet running).
    fn rebuild(shared: &Arc<Shared>, t: StoredTable) -> Result<Room, String> {
        let options = TableOptions::decode_stored(&t.options, codec::MAX_SERVER_MSG)
            .map_err(|e| e.to_string())?;
        let header: LogHeader =
            codec::decode(&t.header, codec::MAX_SERVER_MSG).map_err(|e| e.to_string())?;
        let entries = t
            .entries
            .iter()
            .map(|b| codec::decode::<LogEntry>(b, codec::MAX_SERVER_MSG))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| e.to_string())?;
        let is_action: Vec<bool> = entries
            .iter()
            .map(|e| matches!(e, LogEntry::Action(_)))
            .collect();
        let mut recent = VecDeque::new();
        let mut first_action = None;
        for (i, e) in entries.iter().enumerate() {
            if matches!(e, LogEntry::Action(_)) {
                let seq = i as u64 + 1;
                first_action.get_or_insert(seq);
                recent.push_back(seq);
                if recent.len() > options.spectator_delay as usize {
                    recent.pop_front();
                }
            }
        }
        let last = entries.len() as u64;
        let h = horizon(last, options.spectator_delay, &recent, first_action);
        let entry = registry(&header.ruleset)
            .ok_or_else(|| format!("unknown ruleset {:?}", header.ruleset))?;
        let log = MatchLog { header, entries };
        let window = shared.config.limits.resync_window;
        // The window counts actions (see `distribute`): rebuild as many
        // entries from the end as hold the last `window` actions.
        let mut span = 0;
        let mut actions = 0;
        for a in is_action.iter().rev() {
            if actions == window || span == 2 * window {
                break;
            }
            span += 1;
            actions += usize::from(*a);
        }
        let mut m = (entry.restore)(&log, h, span, shared.config.reveal_every)?;
        let restored = m.take_restored_history();
        let chain = HashChain::from_secret(t.chain.secret, t.chain.len);
        let mut room = Room::new(shared, t.id, options, t.invite, m, chain, t.seats, t.status);
        room.lease = t.lease;
        // The last entries' deltas, as they were sent before the restart:
        // a client behind resumes from them instead of a snapshot.
        for (seq, bodies) in restored {
            let frames = room.frames(seq, bodies);
            let action = usize::try_from(seq - 1)
                .ok()
                .and_then(|i| is_action.get(i))
                .copied()
                .unwrap_or(false);
            room.push_history(seq, frames, action);
        }
        room.owner = Owner {
            user: t.creator,
            addr: t.addr.as_deref().and_then(AddrKey::parse),
        };
        if room.status == TableStatus::Open {
            // Idle since the stored time, not since this start.
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            let idle = now.saturating_sub(u64::try_from(t.active).unwrap_or(0));
            let limit = shared.config.limits.open_table_idle_secs;
            room.idle_close =
                Some(tokio::time::Instant::now() + Duration::from_secs(limit.saturating_sub(idle)));
        }
        room.recent_actions = recent;
        room.first_action = first_action;
        room.horizon = h;
        room.pending = room.m.pending();
        Ok(room)
    }

    /// After a command panicked the room: its state may be half-changed,
    /// so it is rebuilt from its log (everything acknowledged is there:
    /// the log is written before a delta leaves). Its followers are told
    /// in words and get a fresh snapshot; if the log cannot rebuild it,
    /// they are told that, the table leaves the lobby and the room stops
    /// (the rows stay for export). `false`: the room must stop.
    async fn recover(&mut self) -> bool {
        let id = self.id;
        tracing::error!(
            table = id.0,
            "a command panicked the room; rebuilding it from its log"
        );
        self.shared
            .metrics
            .room_panics
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let stored = match self.shared.storage.load_unfinished().await {
            Ok((tables, _)) => tables.into_iter().find(|t| t.id == id),
            Err(e) => {
                tracing::error!(table = id.0, "cannot read the table's log: {e}");
                None
            }
        };
        let rebuilt = stored.map(|t| Room::rebuild(&self.shared, t));
        match rebuilt {
            Some(Ok(mut fresh)) => {
                fresh.subs = std::mem::take(&mut self.subs);
                fresh.lagged = std::mem::take(&mut self.lagged);
                fresh.published = self.published.take();
                fresh.owner = self.owner;
                fresh.idle_close = self.idle_close;
                // The same room to the lobby and to storage.
                fresh.lease = self.lease;
                fresh.serial = self.serial;
                *self = fresh;
                self.deadline = self.decision_clock();
                let note = error_frame(
                    ErrorCode::Internal,
                    &format!(
                        "table {} hit an internal error and was rebuilt from its log; nothing acknowledged was lost",
                        id.0
                    ),
                    None,
                );
                let conns: Vec<u64> = self.subs.keys().copied().collect();
                for conn in conns {
                    self.send_to(conn, note.clone());
                    let viewer = self.subs[&conn].viewer;
                    let snap = self.snapshot(viewer);
                    self.send_to(conn, snap);
                    self.send_pending_to(conn);
                }
                self.publish_summary();
                tracing::info!(table = id.0, "table rebuilt from its log after a panic");
                true
            }
            other => {
                if let Some(Err(e)) = other {
                    tracing::error!(table = id.0, "the log cannot rebuild the table: {e}");
                }
                let note = error_frame(
                    ErrorCode::Internal,
                    &format!(
                        "table {} hit an internal error and cannot be rebuilt; it is closed and its log kept for export",
                        id.0
                    ),
                    None,
                );
                self.broadcast(|_| Some(note.clone()));
                self.shared.lobby.remove(id, self.serial);
                false
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn new(
        shared: &Arc<Shared>,
        id: TableId,
        options: TableOptions,
        invite: Option<String>,
        m: Box<dyn AnyMatch>,
        chain: HashChain,
        seats: Vec<Option<SeatHolder>>,
        status: TableStatus,
    ) -> Room {
        Room {
            id,
            options,
            invite,
            m,
            chain,
            seats,
            status,
            subs: HashMap::new(),
            lagged: HashMap::new(),
            history: VecDeque::new(),
            history_actions: 0,
            spec_held: VecDeque::new(),
            recent_actions: VecDeque::new(),
            first_action: None,
            horizon: 0,
            pending: Vec::new(),
            deadline: None,
            broken: false,
            published: None,
            owner: Owner::default(),
            chat_buckets: HashMap::new(),
            anchor_buckets: HashMap::new(),
            idle_close: None,
            reveal: None,
            event_table: false,
            paused: false,
            take_back_ask: None,
            lease_lost: false,
            gone: false,
            lease: None,
            serial: NEXT_ROOM.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            shared: shared.clone(),
        }
    }

    fn spawn(mut self) {
        self.event_table = self.event_table || self.shared.club.is_event_table(self.id);
        // A table stopped by its director stays stopped across a restart.
        self.paused = self.event_table && self.shared.club.is_paused(self.id);
        if self.paused {
            self.deadline = None;
        }
        if self.event_table && self.status == TableStatus::Playing {
            self.shared
                .club
                .turn(self.id, self.m.clock_turn(), self.m.progress());
        }
        // A full channel answers `RateLimited` to the sender.
        let (tx, rx) = mpsc::channel(self.shared.config.limits.room_queue);
        let summary = self.summary();
        self.published = Some(summary.clone());
        let handle = RoomHandle {
            id: self.id,
            tx,
            serial: self.serial,
            lease: self.lease,
        };
        self.shared.lobby.register(summary, handle);
        self.shared
            .metrics
            .rooms
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        tokio::spawn(self.run(rx));
    }

    async fn run(mut self, mut rx: mpsc::Receiver<RoomCmd>) {
        let mut shutdown = self.shared.shutdown.clone();
        loop {
            let deadline = self.deadline;
            let idle_close = self.idle_close;
            let reveal = self.reveal;
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => {
                        // Supervision: a command that panics the room
                        // does not kill it silently (issue 20).
                        let handled = std::panic::AssertUnwindSafe(self.handle(cmd))
                            .catch_unwind()
                            .await;
                        if handled.is_err() && !self.recover().await {
                            break;
                        }
                    }
                    None => break,
                },
                _ = async { tokio::time::sleep_until(deadline.unwrap_or_else(tokio::time::Instant::now)).await },
                    if deadline.is_some() => {
                        self.apply_default().await;
                        self.publish_summary();
                    }
                _ = async { tokio::time::sleep_until(idle_close.unwrap_or_else(tokio::time::Instant::now)).await },
                    if idle_close.is_some() => {
                        if self.close_idle().await {
                            break;
                        }
                    }
                _ = async { tokio::time::sleep_until(reveal.unwrap_or_else(tokio::time::Instant::now)).await },
                    if reveal.is_some() => self.reveal_step(),
                _ = shutdown.changed() => break,
            }
            // Fenced off (issue 23): another node serves the table now.
            if self.lease_lost && !self.gone {
                self.hand_over(false).await;
            }
            if self.gone {
                break;
            }
            // A finished table is off the list already (once its delayed
            // spectators have seen the end); once nobody follows it any
            // more its room goes (its log stays in storage).
            if self.status == TableStatus::Finished
                && self.reveal.is_none()
                && self.subs.is_empty()
                && self.lagged.is_empty()
            {
                self.shared.lobby.remove(self.id, self.serial);
                break;
            }
        }
        // Nothing to flush: every entry was durable before it was announced.
        self.shared
            .metrics
            .rooms
            .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    }

    async fn handle(&mut self, cmd: RoomCmd) {
        // Actions, anchors and chat change what the lobby shows only when
        // they end the game: skip building a summary for each of them.
        let status = self.status;
        let hot = matches!(
            cmd,
            RoomCmd::Act { .. } | RoomCmd::Anchor { .. } | RoomCmd::Chat { .. }
        );
        match cmd {
            RoomCmd::Join {
                out,
                who,
                seat,
                invite,
            } => self.join(out, who, seat, invite).await,
            RoomCmd::Spectate { out, who, invite } => self.spectate(out, who, invite),
            RoomCmd::Leave { conn, who } => self.leave(conn, who).await,
            RoomCmd::Anchor { out, who, anchor } => self.anchor(out, who, anchor).await,
            RoomCmd::Act {
                out,
                who,
                client_ref,
                action,
                links,
                received,
            } => {
                self.act(out, who, client_ref, action, links, received)
                    .await
            }
            RoomCmd::Resync { out, who, last_seq } => self.resync(out, who, last_seq),
            RoomCmd::TakeBack { out, who } => self.take_back(out, who).await,
            RoomCmd::AnswerTakeBack { out, who, agree } => {
                self.answer_take_back(out, who, agree).await
            }
            RoomCmd::Chat {
                out,
                who,
                channel,
                text,
            } => self.chat(out, who, channel, text),
            RoomCmd::Resubscribe { conn } => {
                if let Some(sub) = self.lagged.remove(&conn) {
                    let snap = self.snapshot(sub.viewer);
                    self.subs.insert(conn, sub);
                    self.send_to(conn, snap);
                    self.send_pending_to(conn);
                }
            }
            RoomCmd::Detach { conn } => {
                self.subs.remove(&conn);
                self.lagged.remove(&conn);
            }
            RoomCmd::EventOver { words } => {
                if self.status == TableStatus::Playing {
                    self.deadline = None;
                    self.pending.clear();
                    tracing::info!(table = self.id.0, "ended by its club event: {words}");
                    self.finish().await;
                }
            }
            RoomCmd::TimeOut { seat } => {
                if self.status == TableStatus::Playing {
                    self.time_out(seat).await;
                }
            }
            RoomCmd::Pause { on } => {
                self.paused = on;
                self.deadline = if on { None } else { self.decision_clock() };
                let frame = self.clock_frame();
                self.broadcast(|_| Some(frame.clone()));
            }
            RoomCmd::Replace { seat, holder, done } => {
                let _ = done.send(self.replace_seat(seat, holder).await);
            }
            RoomCmd::HandOver { release } => {
                if !self.gone {
                    self.hand_over(release).await;
                }
                return;
            }
            #[cfg(feature = "fault-injection")]
            RoomCmd::Crash => panic!("fault injection: table {} crashes", self.id.0),
        }
        // Issue 18: the lobby's "your move" follows whose turn it is.
        let turn_moved = hot
            && self.status == TableStatus::Playing
            && self
                .published
                .as_ref()
                .is_some_and(|p| p.to_act != self.m.to_act());
        if !hot || self.status != status || turn_moved {
            self.publish_summary();
        }
    }

    /// Issue 23: stop serving the table here. With `release` (a drain) the
    /// lease is given up first, so another node can take the table at
    /// once; then every client following it is told where it went
    /// (`Moved`), and the room leaves the lobby and stops. Nothing is
    /// lost: every entry it acknowledged is in the log the next node
    /// replays.
    async fn hand_over(&mut self, release: bool) {
        self.gone = true;
        self.broken = true;
        self.deadline = None;
        if release && let Err(e) = self.shared.storage.release_lease(self.id).await {
            tracing::warn!(table = self.id.0, "cannot give up the lease: {e}");
        }
        if self.status != TableStatus::Finished {
            let frame = Self::where_it_went(self.shared.clone(), self.id).await;
            self.broadcast(|_| Some(frame.clone()));
            for sub in self.lagged.values() {
                let _ = sub.out.push(frame.clone());
            }
            self.shared.lobby.release(self.owner);
        }
        // The table goes on elsewhere: its line in a fleet's lobby stays.
        self.shared.lobby.forget(self.id, self.serial);
        tracing::info!(table = self.id.0, "handed over to another node");
    }

    /// What to tell a client of a table this room no longer serves:
    /// `Moved` to the node that serves it now (this one, under a newer
    /// room, if the table came back here), or to wait and try again.
    /// (Not a method: the room is not `Sync`, so it cannot be borrowed
    /// across the wait.)
    async fn where_it_went(shared: Arc<Shared>, table: TableId) -> Bytes {
        match crate::fleet::redirect::where_to(&shared, table).await {
            Some(to) => crate::fleet::redirect::moved_frame(table, &to),
            None => error_frame(
                ErrorCode::Internal,
                "this server stopped serving the table and no other server is up yet; \
                 connect again shortly",
                None,
            ),
        }
    }

    /// A seat was taken or given up (or the table was made): an open
    /// table's idle clock starts again; a table in play has none.
    fn touch(&mut self) {
        self.idle_close = (self.status == TableStatus::Open).then(|| {
            tokio::time::Instant::now()
                + Duration::from_secs(self.shared.config.limits.open_table_idle_secs)
        });
    }

    /// The idle clock ran out: close an open table for good (it is no
    /// longer rebuilt on start). Returns whether the room should stop.
    async fn close_idle(&mut self) -> bool {
        if self.status != TableStatus::Open {
            self.idle_close = None;
            return false;
        }
        if let Err(e) = self.shared.storage.abandon(self.id).await {
            tracing::error!(table = self.id.0, "cannot close an idle table: {e}");
            self.idle_close = Some(tokio::time::Instant::now() + Duration::from_secs(60));
            return false;
        }
        let days = self.shared.config.limits.open_table_idle_secs as f64 / 86_400.0;
        tracing::info!(
            table = self.id.0,
            "closed: open with no seat change for {days:.1} days"
        );
        let f = error_frame(
            ErrorCode::NoSuchTable,
            &format!(
                "table {} was closed: its seats stayed free with nobody sitting down or \
                 leaving for {}; create a new one",
                self.id.0,
                retry_in(Duration::from_secs(
                    self.shared.config.limits.open_table_idle_secs
                ))
            ),
            None,
        );
        self.broadcast(|_| Some(f.clone()));
        self.shared.lobby.remove(self.id, self.serial);
        self.shared.lobby.release(self.owner);
        true
    }

    /// Keep an entry's frames for `Resync`; the window holds the last
    /// `resync_window` actions and the anchors between them (at most twice
    /// the window in entries).
    fn push_history(&mut self, seq: u64, frames: Vec<Bytes>, action: bool) {
        self.history.push_back((seq, frames, action));
        self.history_actions += usize::from(action);
        let window = self.shared.config.limits.resync_window;
        while self.history_actions > window || self.history.len() > 2 * window {
            match self.history.pop_front() {
                Some((_, _, a)) => self.history_actions -= usize::from(a),
                None => break,
            }
        }
    }

    fn seat_of(&self, user: UserId) -> Option<SeatId> {
        self.seats
            .iter()
            .position(|s| s.as_ref().is_some_and(|h| h.user == user))
            .map(|i| SeatId(i as u8))
    }

    fn summary(&self) -> TableSummary {
        let spectators = self
            .subs
            .values()
            .chain(self.lagged.values())
            .filter(|s| s.viewer == Viewer::Spectator)
            .count();
        TableSummary {
            table: self.id,
            ruleset: self.options.ruleset.clone(),
            scenario: self.options.scenario.clone(),
            seats: self
                .seats
                .iter()
                .map(|s| s.as_ref().map(|h| h.name.clone()))
                .collect(),
            status: self.listed_status(),
            spectators: spectators as u32,
            private: self.options.private,
            spectators_allowed: self.options.spectators_allowed,
            seat_users: self
                .seats
                .iter()
                .map(|s| s.as_ref().map(|h| h.user))
                .collect(),
            to_act: if self.status == TableStatus::Playing {
                self.m.to_act()
            } else {
                Vec::new()
            },
            carried_from: self.m.carried_from(),
        }
    }

    /// The status the lobby shows: a finished game whose delayed
    /// spectators have not seen the end yet is still in play to them.
    fn listed_status(&self) -> TableStatus {
        if self.status == TableStatus::Finished && self.reveal.is_some() {
            TableStatus::Playing
        } else {
            self.status
        }
    }

    /// After the game ended: show delayed spectators the next action they
    /// have not seen (and the anchors before it); once they have seen the
    /// end, the table leaves the lobby.
    fn reveal_step(&mut self) {
        self.recent_actions.pop_front();
        let h = self
            .recent_actions
            .front()
            .map_or(self.m.last_seq(), |s| s - 1);
        self.horizon = self.horizon.max(h);
        while self
            .spec_held
            .front()
            .is_some_and(|(s, _)| *s <= self.horizon)
        {
            if let Some((_, f)) = self.spec_held.pop_front() {
                self.broadcast(|v| (v == Viewer::Spectator).then(|| f.clone()));
            }
        }
        self.m.advance_spectators(self.horizon);
        if self.spec_held.is_empty() {
            self.reveal = None;
            self.shared.lobby.unlist(self.id, self.serial);
        } else {
            self.reveal = Some(tokio::time::Instant::now() + self.reveal_pace());
        }
    }

    fn reveal_pace(&self) -> Duration {
        Duration::from_millis(self.shared.config.limits.finish_reveal_ms)
    }

    /// Push a lobby update when what the lobby shows has changed.
    fn publish_summary(&mut self) {
        let summary = self.summary();
        if self.published.as_ref() != Some(&summary) {
            self.shared.lobby.update(self.serial, summary.clone());
            self.published = Some(summary);
        }
    }

    fn snapshot(&self, viewer: Viewer) -> Bytes {
        let (seq, state) = match viewer {
            Viewer::Spectator => self.m.spectator_state(),
            v => (self.m.last_seq(), self.m.state_for(v)),
        };
        // The book has the present; a delayed spectator needs the past.
        let (chains, rolls) = if seq == self.m.last_seq() {
            self.m.heads()
        } else {
            chain_heads(self.m.log(), seq)
        };
        let header = self.m.header();
        encode_msg(&ServerMsg::Snapshot(Snapshot {
            table: self.id,
            match_id: header.match_id,
            ruleset: header.ruleset.clone(),
            config: header.config.clone(),
            seq,
            state,
            chains,
            rolls,
            seat: match viewer {
                Viewer::Seat(s) => Some(s),
                _ => None,
            },
        }))
    }

    /// Queue a frame for one subscriber; a full queue drops it to a resync.
    fn send_to(&mut self, conn: u64, frame: Bytes) {
        let Some(sub) = self.subs.get(&conn) else {
            return;
        };
        match sub.out.push(frame) {
            Push::Sent => {}
            Push::Lagged => self.drop_lagging(conn),
            Push::Closed => {
                self.subs.remove(&conn);
            }
        }
    }

    fn drop_lagging(&mut self, conn: u64) {
        if let Some(sub) = self.subs.remove(&conn) {
            sub.out.mark_lagged(self.id);
            self.shared
                .metrics
                .lagged
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            self.lagged.insert(conn, sub);
        }
    }

    /// Queue to every subscriber `pick` gives a frame for.
    fn broadcast(&mut self, pick: impl Fn(Viewer) -> Option<Bytes>) {
        let mut lagging = Vec::new();
        let mut closed = Vec::new();
        let mut sent = 0;
        for (id, sub) in &self.subs {
            let Some(frame) = pick(sub.viewer) else {
                continue;
            };
            match sub.out.push(frame) {
                Push::Sent => sent += 1,
                Push::Lagged => lagging.push(*id),
                Push::Closed => closed.push(*id),
            }
        }
        self.shared
            .metrics
            .deltas_sent
            .fetch_add(sent, std::sync::atomic::Ordering::Relaxed);
        for id in lagging {
            self.drop_lagging(id);
        }
        for id in closed {
            self.subs.remove(&id);
        }
    }

    /// Reply to a connection that may not be subscribed.
    fn reply(&mut self, out: &Outbox, frame: Bytes) {
        if self.subs.contains_key(&out.id) {
            self.send_to(out.id, frame);
        } else if let Push::Lagged = out.push(frame) {
            // Not subscribed here, so there is no room state to resync:
            // the reply is lost and the client will time out and ask again.
            self.shared
                .metrics
                .lagged
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    }

    fn subscribe(&mut self, out: Outbox, viewer: Viewer) {
        self.lagged.remove(&out.id);
        self.subs.insert(out.id, Sub { out, viewer });
    }

    async fn join(&mut self, out: Outbox, who: Who, seat: Option<SeatId>, invite: Option<String>) {
        let err = |code, msg: &str| error_frame(code, msg, None);
        let seat = match self.seat_of(who.user) {
            // Already seated (another connection, another machine): same seat.
            Some(s) => s,
            None => {
                if self.invite.is_some() && invite != self.invite {
                    return self.reply(
                        &out,
                        err(ErrorCode::BadInvite, "this table needs its invite code"),
                    );
                }
                let free = |i: usize| self.seats.get(i).is_some_and(Option::is_none);
                // Issue 20: a second "Grant" at the table is somebody
                // passing for the first (chat and seats show only names).
                let key = muster_shared::display_name::same_person_key(&who.name);
                if self.seats.iter().flatten().any(|h| {
                    h.user != who.user
                        && muster_shared::display_name::same_person_key(&h.name) == key
                }) {
                    return self.reply(
                        &out,
                        err(
                            ErrorCode::Forbidden,
                            "a player with the same name already sits at this table; sign in under another name",
                        ),
                    );
                }
                let s = match seat {
                    Some(s) if usize::from(s.0) >= self.seats.len() => {
                        return self.reply(&out, err(ErrorCode::SeatTaken, "no such seat"));
                    }
                    Some(s) if !free(usize::from(s.0)) => {
                        return self.reply(&out, err(ErrorCode::SeatTaken, "that seat is taken"));
                    }
                    Some(s) => s,
                    None => match (0..self.seats.len()).find(|i| free(*i)) {
                        Some(i) => SeatId(i as u8),
                        None => {
                            return self
                                .reply(&out, err(ErrorCode::TableFull, "every seat is taken"));
                        }
                    },
                };
                self.seats[usize::from(s.0)] = Some(SeatHolder {
                    user: who.user,
                    name: who.name.clone(),
                });
                if self.seats.iter().all(Option::is_some) && self.status == TableStatus::Open {
                    self.status = TableStatus::Playing;
                }
                // The seat is bound durably before anyone is told.
                if let Err(e) = self
                    .shared
                    .storage
                    .save_seats_fenced(self.id, self.seats.clone(), self.status, self.lease)
                    .await
                {
                    self.seats[usize::from(s.0)] = None;
                    // Fenced off (issue 23): the table is served elsewhere.
                    if let crate::storage::StorageError::LeaseLost(_) = e {
                        tracing::warn!(table = self.id.0, "{e}; handing it over");
                        self.lease_lost = true;
                        let frame = Self::where_it_went(self.shared.clone(), self.id).await;
                        return self.reply(&out, frame);
                    }
                    tracing::error!(table = self.id.0, "cannot save seats: {e}");
                    return self.reply(&out, err(ErrorCode::Internal, "storage failed"));
                }
                self.touch();
                // The last seat taken: a decision already waiting (Cedar
                // Mountain's set-up) starts its clock now.
                if self.deadline.is_none() && self.seats.iter().all(Option::is_some) {
                    self.pending = self.m.pending();
                    self.deadline = self.decision_clock();
                    let ids: Vec<u64> = self.subs.keys().copied().collect();
                    for id in ids {
                        self.send_pending_to(id);
                    }
                }
                s
            }
        };
        let conn = out.id;
        self.subscribe(out, Viewer::Seat(seat));
        let snap = self.snapshot(Viewer::Seat(seat));
        self.send_to(conn, snap);
        self.send_pending_to(conn);
    }

    fn spectate(&mut self, out: Outbox, _who: Who, invite: Option<String>) {
        if !self.options.spectators_allowed {
            return self.reply(
                &out,
                error_frame(ErrorCode::Forbidden, "this table has no spectators", None),
            );
        }
        if self.invite.is_some() && invite != self.invite {
            return self.reply(
                &out,
                error_frame(
                    ErrorCode::BadInvite,
                    "this table needs its invite code",
                    None,
                ),
            );
        }
        let conn = out.id;
        self.subscribe(out, Viewer::Spectator);
        let snap = self.snapshot(Viewer::Spectator);
        self.send_to(conn, snap);
    }

    /// Issue 21: a director of the event gives `seat` to `holder`. Stored
    /// before anyone is told; the old holder's connections stop following
    /// the table as that seat (told why), the new holder sits with an
    /// ordinary `JoinSeat` and publishes its own dice chain.
    async fn replace_seat(&mut self, seat: SeatId, holder: SeatHolder) -> Result<(), String> {
        let i = usize::from(seat.0);
        if i >= self.seats.len() {
            return Err("this table has no such seat".into());
        }
        if self.status != TableStatus::Playing {
            return Err("the game at this table is not in play".into());
        }
        let old = self.seats[i].replace(holder);
        if let Err(e) = self
            .shared
            .storage
            .save_seats(self.id, self.seats.clone(), self.status)
            .await
        {
            tracing::error!(table = self.id.0, "cannot save seats: {e}");
            self.seats[i] = old;
            return Err("the server could not store the new seat".into());
        }
        self.take_back_ask = None;
        let gone: Vec<u64> = self
            .subs
            .iter()
            .filter(|(_, s)| s.viewer == Viewer::Seat(seat))
            .map(|(c, _)| *c)
            .collect();
        let frame = error_frame(
            ErrorCode::Forbidden,
            "a director of the event gave your seat at this table to another player",
            None,
        );
        for conn in gone {
            self.send_to(conn, frame.clone());
            self.subs.remove(&conn);
        }
        self.publish_summary();
        Ok(())
    }

    async fn leave(&mut self, conn: u64, who: Who) {
        self.subs.remove(&conn);
        self.lagged.remove(&conn);
        // Before the game starts a seat can be given up; once playing it
        // stays bound so its holder can come back.
        if self.status == TableStatus::Open
            && let Some(s) = self.seat_of(who.user)
        {
            self.seats[usize::from(s.0)] = None;
            if let Err(e) = self
                .shared
                .storage
                .save_seats_fenced(self.id, self.seats.clone(), self.status, self.lease)
                .await
            {
                if let crate::storage::StorageError::LeaseLost(_) = e {
                    self.lease_lost = true;
                }
                tracing::error!(table = self.id.0, "cannot save seats: {e}");
            }
            self.touch();
        }
    }

    async fn anchor(&mut self, out: Outbox, who: Who, anchor: ChainAnchor) {
        let Some(seat) = self.seat_of(who.user) else {
            return self.reply(
                &out,
                error_frame(
                    ErrorCode::Forbidden,
                    "only a seated player publishes an anchor",
                    None,
                ),
            );
        };
        if self.broken {
            return self.reply(
                &out,
                error_frame(ErrorCode::Internal, "this table is stopped", None),
            );
        }
        if let Err(why) = self.anchor_allowed(seat) {
            self.shared
                .metrics
                .rate_limited
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            return self.reply(&out, error_frame(ErrorCode::RateLimited, &why, None));
        }
        match self.m.publish_anchor(Party::Seat(seat), anchor) {
            Ok(entry) => {
                if self.commit(&entry, None).await {
                    self.distribute(entry);
                }
            }
            Err(e) => self.reply(
                &out,
                error_frame(ErrorCode::BadMessage, &e.to_string(), None),
            ),
        }
    }

    /// A seat's first anchor, and one replacing a chain that is used up or
    /// nearly (links used, at most `NEAR_EXHAUSTED` left), are free; any
    /// other (a client re-anchors on every reconnect) takes a token from
    /// the seat's bucket: `anchor_burst` at once, `anchors_per_hour` after.
    /// A chain published only to be replaced at once therefore costs a
    /// token, and a used-up one needs real rolls first.
    fn anchor_allowed(&mut self, seat: SeatId) -> Result<(), String> {
        let (heads, _) = self.m.heads();
        let head = heads.iter().find(|h| h.party == Party::Seat(seat));
        let left = head.map(|h| h.anchor.len.saturating_sub(h.index));
        let free = match head {
            None => true,
            Some(h) => h.index > 0 && left.unwrap_or(0) <= NEAR_EXHAUSTED,
        };
        if free {
            return Ok(());
        }
        let l = &self.shared.config.limits;
        let (rate, burst) = (f64::from(l.anchors_per_hour) / 3600.0, l.anchor_burst);
        let bucket = self
            .anchor_buckets
            .entry(seat)
            .or_insert_with(|| Bucket::new(rate, burst));
        if bucket.take() {
            return Ok(());
        }
        let wait = bucket.wait();
        let when = if wait.is_zero() || rate <= 0.0 {
            "not again in this game".to_string()
        } else {
            format!("in {}", retry_in(wait))
        };
        Err(format!(
            "anchor refused: this seat has published {burst} new dice chains recently and its \
             current chain still has {} links; keep rolling with it (a new anchor is free once \
             it is nearly used up), or publish again {when}",
            left.unwrap_or(0)
        ))
    }

    async fn act(
        &mut self,
        out: Outbox,
        who: Who,
        client_ref: u32,
        action: Vec<u8>,
        links: Vec<SeatLink>,
        received: Instant,
    ) {
        let Some(seat) = self.seat_of(who.user) else {
            return self.reply(
                &out,
                error_frame(
                    ErrorCode::Forbidden,
                    "you hold no seat at this table",
                    Some(client_ref),
                ),
            );
        };
        let refuse = |code, msg: &str| {
            encode_msg(&ServerMsg::Rejected {
                table: self.id,
                client_ref,
                error: RuleError::new("table", code, msg),
            })
        };
        if self.broken {
            return self.reply(
                &out,
                error_frame(
                    ErrorCode::Internal,
                    "this table is stopped",
                    Some(client_ref),
                ),
            );
        }
        match self.status {
            TableStatus::Open => {
                let f = refuse(RuleCode::NotYourTurn, "waiting for every seat to be taken");
                return self.reply(&out, f);
            }
            TableStatus::Finished => {
                let f = refuse(RuleCode::GameOver, "the game is over");
                return self.reply(&out, f);
            }
            TableStatus::Playing => {}
        }
        if self.paused {
            let f = refuse(
                RuleCode::NotYourTurn,
                "a director of the event has paused this table; play goes on when they restart it",
            );
            return self.reply(&out, f);
        }
        match self.m.apply(seat, &action, links, false, &self.chain) {
            Err(e) => {
                let frame = match e.as_rule_error() {
                    Some(error) => {
                        self.shared
                            .metrics
                            .rejected
                            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        encode_msg(&ServerMsg::Rejected {
                            table: self.id,
                            client_ref,
                            error,
                        })
                    }
                    None => {
                        tracing::error!(table = self.id.0, "action failed inside the server: {e}");
                        error_frame(ErrorCode::Internal, &e.to_string(), Some(client_ref))
                    }
                };
                self.reply(&out, frame);
            }
            Ok(entry) => {
                let seq = entry.seq;
                if !self.commit(&entry, None).await {
                    return;
                }
                self.distribute(entry);
                // After the delta, so a client that sees `Accepted` has the delta.
                let ok = encode_msg(&ServerMsg::Accepted {
                    table: self.id,
                    client_ref,
                    seq,
                });
                self.reply(&out, ok);
                self.after_action().await;
                self.shared
                    .metrics
                    .actions
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                self.shared.metrics.observe_action(received.elapsed());
            }
        }
    }

    /// Issue 18: `who` asks to take back their seat's last action. With
    /// no one else to ask (the table needs no agreement, or one identity
    /// holds every seat) it is applied at once; else the other players
    /// are asked. Every refusal says why in words.
    async fn take_back(&mut self, out: Outbox, who: Who) {
        let refuse = |id, why: &str| {
            encode_msg(&ServerMsg::TakeBackEnded {
                table: id,
                refusal: Some(why.to_string()),
            })
        };
        let Some(seat) = self.seat_of(who.user) else {
            let f = refuse(self.id, "you hold no seat at this table");
            return self.reply(&out, f);
        };
        let why = if self.broken {
            Some("this table is stopped".to_string())
        } else if self.paused {
            Some("a director of the event has paused this table".to_string())
        } else if self.status != TableStatus::Playing {
            Some("the game is not in play".to_string())
        } else if self.take_back_ask.is_some() {
            Some("a take-back is already waiting for an answer".to_string())
        } else {
            None
        };
        if let Some(why) = why {
            let f = refuse(self.id, &why);
            return self.reply(&out, f);
        }
        let undone = match self.m.take_back_target(seat) {
            Ok(seq) => seq,
            Err(e) => {
                let f = refuse(self.id, &e.message);
                return self.reply(&out, f);
            }
        };
        let someone_else = self.seats.iter().flatten().any(|h| h.user != who.user);
        if self.options.take_back_needs_agreement && someone_else {
            self.take_back_ask = Some((seat, undone));
            let f = encode_msg(&ServerMsg::TakeBackAsked {
                table: self.id,
                seat,
                name: who.name.clone(),
                undone,
            });
            self.broadcast(|v| matches!(v, Viewer::Seat(_)).then(|| f.clone()));
        } else {
            self.apply_take_back(seat).await;
        }
    }

    /// Issue 18: another player answers the open take-back request.
    async fn answer_take_back(&mut self, out: Outbox, who: Who, agree: bool) {
        let refuse = |id, why: &str| {
            encode_msg(&ServerMsg::TakeBackEnded {
                table: id,
                refusal: Some(why.to_string()),
            })
        };
        let Some(seat) = self.seat_of(who.user) else {
            let f = refuse(self.id, "you hold no seat at this table");
            return self.reply(&out, f);
        };
        let Some((asker, _)) = self.take_back_ask else {
            let f = refuse(self.id, "no take-back is waiting for an answer");
            return self.reply(&out, f);
        };
        if asker == seat {
            let f = refuse(self.id, "the other player answers your take-back, not you");
            return self.reply(&out, f);
        }
        self.take_back_ask = None;
        if agree {
            self.apply_take_back(asker).await;
        } else {
            let f = refuse(self.id, &format!("{} refused the take-back", who.name));
            self.broadcast(|v| matches!(v, Viewer::Seat(_)).then(|| f.clone()));
        }
    }

    /// Issue 18: log and send a take-back, then tell the players it is done.
    async fn apply_take_back(&mut self, seat: SeatId) {
        match self.m.take_back(seat) {
            Ok(entry) => {
                if !self.commit(&entry, None).await {
                    return;
                }
                self.distribute(entry);
                let f = encode_msg(&ServerMsg::TakeBackEnded {
                    table: self.id,
                    refusal: None,
                });
                self.broadcast(|v| matches!(v, Viewer::Seat(_)).then(|| f.clone()));
                self.after_action().await;
            }
            Err(e) => {
                let why = match e {
                    muster_shared::engine::MatchError::Rule(r) => r.message,
                    _ => "the server could not take it back".to_string(),
                };
                let f = encode_msg(&ServerMsg::TakeBackEnded {
                    table: self.id,
                    refusal: Some(why),
                });
                self.broadcast(|v| matches!(v, Viewer::Seat(_)).then(|| f.clone()));
            }
        }
    }

    /// A pending decision's deadline passed: apply its default for its seat.
    /// Issue 21: `seat`'s clock is out and its event answers for it with
    /// the engine's defaults. The decision the seat owes has a default
    /// (a reaction, a loss allocation): it is applied. When the engine
    /// awaits the seat but offers no default (its own phase: what to move,
    /// whom to fire at, no answer is the rules' own), or refuses the one it
    /// offers, nothing could ever move the game on; the event is told, and
    /// scores it as a loss on time rather than leave the table stalled.
    async fn time_out(&mut self, seat: SeatId) {
        if self.pending.first().is_some_and(|p| p.seat == seat) {
            if !self.apply_default().await {
                self.shared.club.no_default(self.id, seat);
            }
        } else if !self.pending.iter().any(|p| p.seat == seat)
            && self.m.clock_turn().is_some_and(|t| t.seat == seat)
        {
            self.shared.club.no_default(self.id, seat);
        }
    }

    /// Apply the first pending decision's default; `false` when the
    /// engine refused it.
    async fn apply_default(&mut self) -> bool {
        self.deadline = None;
        let Some(p) = self.pending.first().cloned() else {
            return true;
        };
        if self.broken {
            return true;
        }
        match self
            .m
            .apply(p.seat, &p.default, Vec::new(), true, &self.chain)
        {
            Ok(entry) => {
                if self.commit(&entry, None).await {
                    self.distribute(entry);
                    self.after_action().await;
                }
                true
            }
            Err(e) => {
                tracing::error!(table = self.id.0, "default for {} refused: {e}", p.seat);
                false
            }
        }
    }

    /// Make an entry durable. On failure the match in memory is ahead of
    /// the disk, so the room stops taking anything until a restart rebuilds
    /// it from what was stored.
    async fn commit(&mut self, entry: &AppliedEntry, chain: Option<StoredChain>) -> bool {
        match self
            .shared
            .storage
            .append_fenced(self.id, entry.seq, entry.logged.clone(), chain, self.lease)
            .await
        {
            Ok(()) => true,
            Err(e) => {
                if let crate::storage::StorageError::LeaseLost(_) = e {
                    tracing::warn!(table = self.id.0, seq = entry.seq, "{e}; handing it over");
                } else {
                    tracing::error!(
                        table = self.id.0,
                        seq = entry.seq,
                        "cannot store entry: {e}; table stopped"
                    );
                }
                self.broken = true;
                // Fenced off: another node took the table (this one was
                // paused or cut off past its lease) and serves it now;
                // the room hands it over once this command is done.
                if let crate::storage::StorageError::LeaseLost(_) = e {
                    self.lease_lost = true;
                    return false;
                }
                let f = error_frame(
                    ErrorCode::Internal,
                    "the server could not store the last action",
                    None,
                );
                self.broadcast(|_| Some(f.clone()));
                false
            }
        }
    }

    /// Send a durable entry: each seat its view now, spectators theirs once
    /// the delay lets them.
    /// One `Delta` frame per viewer class; equal bodies are encoded once
    /// and share their bytes.
    fn frames(&self, seq: u64, bodies: Vec<DeltaBody>) -> Vec<Bytes> {
        // Which earlier body each one equals, known before the bodies move
        // into their messages (a body is not copied to be encoded).
        let same: Vec<Option<usize>> = (0..bodies.len())
            .map(|i| bodies[..i].iter().position(|b| *b == bodies[i]))
            .collect();
        let mut frames: Vec<Bytes> = Vec::with_capacity(bodies.len());
        for (body, same) in bodies.into_iter().zip(same) {
            let frame = match same.and_then(|j| frames.get(j)) {
                Some(f) => f.clone(),
                None => encode_msg(&ServerMsg::Delta {
                    table: self.id,
                    seq,
                    body,
                }),
            };
            frames.push(frame);
        }
        frames
    }

    fn distribute(&mut self, entry: AppliedEntry) {
        let seats = self.m.seats();
        let frames = self.frames(entry.seq, entry.bodies);
        let spectator_frame = frames.get(usize::from(seats)).cloned().unwrap_or_default();
        self.broadcast(|v| match v {
            Viewer::Seat(_) => frames.get(class_index(v, seats)).cloned(),
            _ => None,
        });
        self.push_history(entry.seq, frames, entry.is_action);
        if entry.is_action {
            self.first_action.get_or_insert(entry.seq);
            self.recent_actions.push_back(entry.seq);
            if self.recent_actions.len() > self.options.spectator_delay as usize {
                self.recent_actions.pop_front();
            }
        }
        self.spec_held.push_back((entry.seq, spectator_frame));
        let h = horizon(
            entry.seq,
            self.options.spectator_delay,
            &self.recent_actions,
            self.first_action,
        );
        self.horizon = self.horizon.max(h);
        while self
            .spec_held
            .front()
            .is_some_and(|(s, _)| *s <= self.horizon)
        {
            if let Some((_, f)) = self.spec_held.pop_front() {
                self.broadcast(|v| (v == Viewer::Spectator).then(|| f.clone()));
            }
        }
        self.m.advance_spectators(self.horizon);
    }

    /// After every applied action: a new server chain when this one is used
    /// up, pending decisions, and the end of the game.
    async fn after_action(&mut self) {
        // Issue 18: an unanswered take-back lapses once the game moves on.
        if self.take_back_ask.take().is_some() {
            let f = encode_msg(&ServerMsg::TakeBackEnded {
                table: self.id,
                refusal: Some("the game moved on before the take-back was answered".into()),
            });
            self.broadcast(|v| matches!(v, Viewer::Seat(_)).then(|| f.clone()));
        }
        if self.m.server_links_left() == 0 {
            let chain = HashChain::generate(SERVER_CHAIN_LEN);
            match self.m.publish_anchor(Party::Server, chain.anchor()) {
                Ok(entry) => {
                    // The new secret is stored with its anchor, atomically.
                    let stored = StoredChain {
                        secret: chain.secret(),
                        len: chain.len(),
                    };
                    if self.commit(&entry, Some(stored)).await {
                        self.chain = chain;
                        self.distribute(entry);
                    }
                }
                Err(e) => tracing::error!(table = self.id.0, "cannot re-anchor: {e}"),
            }
        }
        let pending = self.m.pending();
        if pending != self.pending {
            self.pending = pending;
            self.deadline = self.decision_clock();
            let ids: Vec<u64> = self.subs.keys().copied().collect();
            for id in ids {
                self.send_pending_to(id);
            }
        }
        if self.event_table && self.status == TableStatus::Playing {
            self.shared
                .club
                .turn(self.id, self.m.clock_turn(), self.m.progress());
            if let Some(outcome) = self.m.outcome() {
                self.shared
                    .club
                    .game_over(self.id, outcome, self.m.vp_margin());
            }
        }
        if self.status == TableStatus::Playing && self.m.outcome().is_some() {
            self.finish().await;
        }
    }

    /// The game is over (by the rules, or by its club event: a
    /// resignation, a clock, a director): stored as finished, off the
    /// lobby once its delayed spectators have seen the end.
    async fn finish(&mut self) {
        self.status = TableStatus::Finished;
        // No longer counted against its creator; off the lobby's list
        // once the delayed spectators have seen the end (issue 20: the
        // list must not tell them the result early).
        self.shared.lobby.release(self.owner);
        if self.spec_held.is_empty() {
            self.shared.lobby.unlist(self.id, self.serial);
        } else {
            self.reveal = Some(tokio::time::Instant::now() + self.reveal_pace());
        }
        if let Err(e) = self
            .shared
            .storage
            .save_seats_fenced(self.id, self.seats.clone(), self.status, self.lease)
            .await
        {
            tracing::error!(table = self.id.0, "cannot save the finished status: {e}");
        }
    }

    /// When the first pending decision's default applies: its deadline
    /// from now, but only once every seat is held (nobody is timed out
    /// while the other player has not sat down yet).
    fn decision_clock(&self) -> Option<tokio::time::Instant> {
        if !self.seats.iter().all(Option::is_some) {
            return None;
        }
        self.pending
            .first()
            .map(|p| tokio::time::Instant::now() + Duration::from_secs(u64::from(p.deadline_secs)))
    }

    /// Issue 18: the decision clock as it runs now (see `ServerMsg::Clock`).
    fn clock_frame(&self) -> Bytes {
        let now = tokio::time::Instant::now();
        encode_msg(&ServerMsg::Clock {
            table: self.id,
            seat: self.pending.first().map(|p| p.seat),
            secs_left: self.deadline.map(|d| {
                u32::try_from(d.saturating_duration_since(now).as_secs()).unwrap_or(u32::MAX)
            }),
        })
    }

    /// The decisions waiting on this subscriber's seat, if it holds one.
    fn send_pending_to(&mut self, conn: u64) {
        let Some(Viewer::Seat(seat)) = self.subs.get(&conn).map(|s| s.viewer) else {
            return;
        };
        // Issue 18: every seated player sees the same clock, the server's.
        let clock = self.clock_frame();
        self.send_to(conn, clock);
        let frames: Vec<Bytes> = self
            .pending
            .iter()
            .filter(|p| p.seat == seat)
            .map(|p| {
                encode_msg(&ServerMsg::Pending {
                    table: self.id,
                    rule: p.rule.clone(),
                    prompt: p.prompt.clone(),
                    default: p.default.clone(),
                    deadline_secs: p.deadline_secs,
                })
            })
            .collect();
        for f in frames {
            self.send_to(conn, f);
        }
    }

    fn resync(&mut self, out: Outbox, who: Who, last_seq: u64) {
        let viewer = match self.seat_of(who.user) {
            Some(s) => Viewer::Seat(s),
            None => {
                let was_spectating = self
                    .subs
                    .get(&out.id)
                    .or(self.lagged.get(&out.id))
                    .is_some();
                let open = self.options.spectators_allowed && self.invite.is_none();
                if !(was_spectating || open) {
                    return self.reply(
                        &out,
                        error_frame(ErrorCode::Forbidden, "spectate this table first", None),
                    );
                }
                Viewer::Spectator
            }
        };
        let conn = out.id;
        self.subscribe(out, viewer);
        let top = match viewer {
            Viewer::Spectator => self.horizon,
            _ => self.m.last_seq(),
        };
        if last_seq == top {
            return;
        }
        let covered = self
            .history
            .front()
            .is_some_and(|(s, _, _)| *s <= last_seq.saturating_add(1));
        if last_seq < top && covered {
            let class = class_index(viewer, self.m.seats());
            let frames: Vec<Bytes> = self
                .history
                .iter()
                .filter(|(s, _, _)| *s > last_seq && *s <= top)
                .filter_map(|(_, f, _)| f.get(class).cloned())
                .collect();
            for f in frames {
                self.send_to(conn, f);
            }
        } else {
            let snap = self.snapshot(viewer);
            self.send_to(conn, snap);
        }
        self.send_pending_to(conn);
    }

    fn chat(&mut self, out: Outbox, who: Who, channel: ChatChannel, text: String) {
        if !check_text(&text, MAX_CHAT) {
            return self.reply(
                &out,
                error_frame(
                    ErrorCode::BadMessage,
                    "chat: 1 to 500 printable bytes",
                    None,
                ),
            );
        }
        let seated = self.seat_of(who.user).is_some();
        let spectating = self
            .subs
            .get(&out.id)
            .is_some_and(|s| s.viewer == Viewer::Spectator);
        // Players talk among players, spectators among spectators: a
        // spectator's chat never reaches a player (no ghosting by chat).
        let allowed = match channel {
            ChatChannel::Players => seated,
            ChatChannel::Spectators => spectating,
        };
        if !allowed {
            return self.reply(
                &out,
                error_frame(ErrorCode::Forbidden, "not your channel", None),
            );
        }
        let l = &self.shared.config.limits;
        let (per_min, burst) = (l.chat_per_minute, l.chat_burst);
        let bucket = self
            .chat_buckets
            .entry(who.user)
            .or_insert_with(|| Bucket::new(f64::from(per_min) / 60.0, burst));
        if !bucket.take() {
            let wait = bucket.wait();
            self.shared
                .metrics
                .rate_limited
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let m = format!(
                "chat: at most {per_min} lines a minute ({burst} in a row) at this table; \
                 this line was not sent, try again in {}",
                retry_in(wait)
            );
            return self.reply(&out, error_frame(ErrorCode::RateLimited, &m, None));
        }
        let frame = encode_msg(&ServerMsg::Chat {
            table: self.id,
            channel,
            from: who.name,
            text,
            user: who.user,
        });
        self.broadcast(|v| match (channel, v) {
            (ChatChannel::Players, Viewer::Seat(_)) => Some(frame.clone()),
            (ChatChannel::Spectators, Viewer::Spectator) => Some(frame.clone()),
            _ => None,
        });
    }
}
