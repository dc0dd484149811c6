//! Rooms: one actor task per table owns its match, the server's secret
//! chain for it, its seats and its subscribers. Connections talk to a room
//! only through [`RoomCmd`]s on a bounded channel and hear back only through
//! their own outbound queue, so no lock is shared between rooms and a
//! connection can never block one.

pub mod actor;
pub mod any_match;

use crate::outbox::Outbox;
use muster_shared::dice::ChainHeadState;
use muster_shared::dice::{ChainAnchor, Party, SeatLink};
use muster_shared::engine::{LogEntry, MatchLog};
use muster_shared::protocol::ChatChannel;
use muster_shared::protocol::UserId;
use muster_shared::{SeatId, Viewer};
use std::collections::BTreeMap;
use std::time::Instant;

pub use actor::{Room, RoomHandle};

/// Links in each server chain; a used-up chain is replaced by a new one
/// (a fresh anchor entry). 4,096 links cost 4,096 hashes to rebuild on start
/// and 2 KiB of checkpoints per table.
pub const SERVER_CHAIN_LEN: u32 = 4096;

/// Who is asking: a signed-in identity.
#[derive(Clone, Debug)]
pub struct Who {
    pub user: UserId,
    pub name: String,
}

/// What a connection asks of a room.
pub enum RoomCmd {
    Join {
        out: Outbox,
        who: Who,
        seat: Option<SeatId>,
        invite: Option<String>,
    },
    Spectate {
        out: Outbox,
        who: Who,
        invite: Option<String>,
    },
    Leave {
        conn: u64,
        who: Who,
    },
    Anchor {
        out: Outbox,
        who: Who,
        anchor: ChainAnchor,
    },
    Act {
        out: Outbox,
        who: Who,
        client_ref: u32,
        action: Vec<u8>,
        links: Vec<SeatLink>,
        /// When the frame arrived, for the latency histogram.
        received: Instant,
    },
    /// Also (re)subscribes the connection: a client reconnecting sends its
    /// last seen sequence number and gets only what it missed.
    Resync {
        out: Outbox,
        who: Who,
        last_seq: u64,
    },
    Chat {
        out: Outbox,
        who: Who,
        channel: ChatChannel,
        text: String,
    },
    /// Issue 18: take back this seat's last action (asking the others
    /// first when the table says so).
    TakeBack {
        out: Outbox,
        who: Who,
    },
    /// Issue 18: answer the open take-back request.
    AnswerTakeBack {
        out: Outbox,
        who: Who,
        agree: bool,
    },
    /// The connection drained its queue after being dropped for lagging:
    /// send it a fresh snapshot.
    Resubscribe {
        conn: u64,
    },
    /// The connection closed.
    Detach {
        conn: u64,
    },
    /// Club events (issue 21): the event ended this game (a resignation,
    /// a clock, a director's decision); `words` say how, for the log.
    EventOver {
        words: String,
    },
    /// Club events: `seat`'s clock is at zero and the event plays on with
    /// the engine's default answers: apply the default of its waiting
    /// decision now.
    TimeOut {
        seat: SeatId,
    },
    /// Club events: a director stopped (`on`) or restarted the table. No
    /// action or take-back is accepted while it is stopped, and a waiting
    /// decision's deadline waits too.
    Pause {
        on: bool,
    },
    /// Club events: a director gave `seat` to another player; the old
    /// holder's connections lose the seat. Answered once stored.
    Replace {
        seat: SeatId,
        holder: crate::storage::SeatHolder,
        done: tokio::sync::oneshot::Sender<Result<(), String>>,
    },
    /// Issue 23: this node no longer serves the table (its lease was lost,
    /// or with `release` the node drains and gives the lease up): the
    /// room tells its clients where the table went and stops.
    HandOver {
        release: bool,
    },
    /// Fault injection for the supervision tests: the room panics while
    /// handling this command (never sent by a connection).
    #[cfg(feature = "fault-injection")]
    Crash,
}

/// The public head of every chain after entry `upto`, and the rolls so far:
/// what a snapshot carries so a client can check the next roll. Computed
/// from the (public) log, so a delayed spectator gets the heads at its
/// horizon, not the present.
pub fn chain_heads(log: &MatchLog, upto: u64) -> (Vec<ChainHeadState>, u64) {
    let mut heads: BTreeMap<Party, ChainHeadState> = BTreeMap::new();
    let mut rolls = 0;
    for entry in log
        .entries
        .iter()
        .take(usize::try_from(upto).unwrap_or(usize::MAX))
    {
        match entry {
            LogEntry::Anchor { party, anchor } => {
                heads.insert(
                    *party,
                    ChainHeadState {
                        party: *party,
                        anchor: *anchor,
                        index: 0,
                        link: anchor.anchor,
                    },
                );
            }
            LogEntry::TakeBack { .. } => {}
            LogEntry::Action(rec) => {
                let Some(proof) = &rec.roll else { continue };
                rolls = proof.roll_index;
                if let Some(h) = heads.get_mut(&Party::Server) {
                    h.index = proof.server_index;
                    h.link = proof.server_link;
                }
                for l in &proof.seat_links {
                    if let Some(h) = heads.get_mut(&Party::Seat(l.seat)) {
                        h.index = l.index;
                        h.link = l.link;
                    }
                }
            }
        }
    }
    (heads.into_values().collect(), rolls)
}

/// Index of a viewer's class in per-class vectors: seats in order, then spectators.
pub fn class_index(viewer: Viewer, seats: u8) -> usize {
    match viewer {
        Viewer::Seat(s) if s.0 < seats => usize::from(s.0),
        _ => usize::from(seats),
    }
}
