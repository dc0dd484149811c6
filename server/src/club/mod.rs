//! Club events (issue 21): accounts, clubs with roles, events whose rounds
//! create many tables at once, results, standings and clocks.
//!
//! - [`accounts`]: claiming an identity with a password (Argon2id), the
//!   limits on failed sign-ins. Handled on the connection itself.
//! - [`event`]: one event's state and rules, without I/O.
//! - [`pairing`]: Swiss, round robin, single elimination, sides: pure.
//! - [`standings`]: points and tiebreaks, CSV: pure.
//! - [`clock`]: a game's two clocks, and the rule for downtime: pure.
//! - [`desk`]: the director's desk: pausing, time, replacements, the
//!   next round proposed and re-paired, the status cards: pure.
//! - [`vacation`]: vacation days for slow play: pure.
//! - [`bid`]: sides by bid: pure.
//! - [`stored`]: events stored by older servers, rewritten by the club
//!   schema's steps: pure.
//! - [`webhook`]: each club's webhook: its queue and delivery task.
//! - [`hub`]: the one task that owns every club and event, stores each
//!   change (SQL in `storage/club.rs`), creates the tables, keeps the
//!   clocks and tells the players.
//!
//! Rooms of event tables tell the hub whose answer their engine awaits
//! after every action and when their game ends ([`ClubHub::turn`],
//! [`ClubHub::game_over`]); the hub ends a table through
//! `RoomCmd::EventOver` (resignation, clock, adjudication).

pub mod accounts;
pub mod bid;
pub mod clock;
pub mod desk;
pub mod event;
pub mod hub;
pub mod margin;
pub mod pairing;
pub mod standings;
pub mod stored;
pub mod vacation;
pub mod webhook;

use crate::outbox::Outbox;
use crate::quota::AddrKey;
use crate::room::Who;
use muster_shared::SeatId;
use muster_shared::engine::{ClockTurn, Outcome};
use muster_shared::protocol::TableId;
use muster_shared::protocol::club::ClubRequest;
use std::collections::HashSet;
use std::sync::RwLock;
use tokio::sync::mpsc;

/// Requests queued for the hub before connections are told it is busy.
const HUB_QUEUE: usize = 1024;

/// What reaches the hub.
pub enum HubMsg {
    Request {
        who: Who,
        addr: AddrKey,
        out: Outbox,
        /// Boxed: a request is much larger than the rooms' notes.
        req: Box<ClubRequest>,
    },
    /// An event table's engine now awaits `turn` (after every action).
    Turn {
        table: TableId,
        turn: Option<ClockTurn>,
        /// Where the game is, in words (the status cards).
        progress: Option<String>,
    },
    GameOver {
        table: TableId,
        outcome: Outcome,
        /// Seat 0's victory points less seat 1's, when the game keeps them.
        vp_margin: Option<i32>,
    },
    /// A seat out of time under `AtZero::EngineDefaults` owes a decision
    /// the engine has no default for.
    NoDefault { table: TableId, seat: SeatId },
    /// A connection closed.
    Detach { conn: u64 },
}

/// How connections and rooms reach the hub; shared by the whole server.
pub struct ClubHub {
    requests: mpsc::Sender<HubMsg>,
    notes: mpsc::UnboundedSender<HubMsg>,
    /// Tables that belong to an event (rooms check once, when they start).
    tables: RwLock<HashSet<TableId>>,
    /// Event tables a director has paused (rooms check when they start).
    paused: RwLock<HashSet<TableId>>,
    /// Failed sign-ins per account and address.
    pub attempts: accounts::Attempts,
}

/// The hub's ends of its channels, for [`hub::run`].
pub struct HubInbox {
    pub requests: mpsc::Receiver<HubMsg>,
    pub notes: mpsc::UnboundedReceiver<HubMsg>,
}

impl ClubHub {
    pub fn new() -> (ClubHub, HubInbox) {
        let (requests, rq) = mpsc::channel(HUB_QUEUE);
        let (notes, nq) = mpsc::unbounded_channel();
        (
            ClubHub {
                requests,
                notes,
                tables: RwLock::new(HashSet::new()),
                paused: RwLock::new(HashSet::new()),
                attempts: accounts::Attempts::default(),
            },
            HubInbox {
                requests: rq,
                notes: nq,
            },
        )
    }

    /// Queue a connection's request; `false` when the hub is too busy.
    pub fn request(&self, who: Who, addr: AddrKey, out: Outbox, req: ClubRequest) -> bool {
        self.requests
            .try_send(HubMsg::Request {
                who,
                addr,
                out,
                req: Box::new(req),
            })
            .is_ok()
    }

    pub fn is_event_table(&self, table: TableId) -> bool {
        self.tables
            .read()
            .map(|t| t.contains(&table))
            .unwrap_or(false)
    }

    pub(crate) fn add_table(&self, table: TableId) {
        if let Ok(mut t) = self.tables.write() {
            t.insert(table);
        }
    }

    pub fn turn(&self, table: TableId, turn: Option<ClockTurn>, progress: Option<String>) {
        let _ = self.notes.send(HubMsg::Turn {
            table,
            turn,
            progress,
        });
    }

    /// Whether a director has paused this event table.
    pub fn is_paused(&self, table: TableId) -> bool {
        self.paused
            .read()
            .map(|t| t.contains(&table))
            .unwrap_or(false)
    }

    pub(crate) fn set_paused(&self, table: TableId, on: bool) {
        if let Ok(mut t) = self.paused.write() {
            if on {
                t.insert(table);
            } else {
                t.remove(&table);
            }
        }
    }

    pub fn game_over(&self, table: TableId, outcome: Outcome, vp_margin: Option<i32>) {
        let _ = self.notes.send(HubMsg::GameOver {
            table,
            outcome,
            vp_margin,
        });
    }

    pub fn no_default(&self, table: TableId, seat: SeatId) {
        let _ = self.notes.send(HubMsg::NoDefault { table, seat });
    }

    pub fn detach(&self, conn: u64) {
        let _ = self.notes.send(HubMsg::Detach { conn });
    }
}
