//! [`TableLink`]: the one door between the UI and a table, wherever the table
//! is. The UI submits actions through it and polls it for what came back;
//! it never reads the authoritative state. Everything it shows comes from a
//! [`crate::Follower`] fed by the deltas and snapshots polled here, so the
//! offline table and the network table look exactly alike to the UI.

use muster_shared::engine::{RuleError, Ruleset};
use muster_shared::protocol::{ChatChannel, DeltaBody, Snapshot, UserId};
use muster_shared::{SeatId, Viewer};

/// What a link hands back to the UI, addressed to one viewer.
///
/// A hot-seat table answers for several viewers (every local seat), a
/// network table for the one seat (or spectator place) this client holds.
#[derive(Clone, Debug)]
pub enum LinkEvent {
    /// Start (or restart, after a gap) following the table as `viewer`.
    Snapshot { viewer: Viewer, snapshot: Snapshot },
    /// The next entry of the table as `viewer` may see it.
    Delta {
        viewer: Viewer,
        seq: u64,
        body: DeltaBody,
    },
    /// The action submitted with `client_ref` was logged as `seq`.
    Accepted { client_ref: u32, seq: u64 },
    /// The rules refused the action submitted with `client_ref`.
    Rejected { client_ref: u32, error: RuleError },
    /// Anything else that went wrong: shown to the player, never fatal.
    Error(String),
    /// A chat message on one of the table's channels (players among
    /// players, spectators among spectators; the server echoes one's own).
    Chat {
        channel: ChatChannel,
        from: String,
        text: String,
        /// Who said it (two names that look alike are told apart by it).
        user: UserId,
    },
    /// Issue 18: `name` (at `seat`) asks to take back the action logged
    /// at `undone`; the other players answer Agree or Refuse.
    TakeBackAsked {
        seat: SeatId,
        name: String,
        undone: u64,
    },
    /// The take-back request is over: refused (the reason in words) or
    /// applied (`None`; its delta comes as any other entry).
    TakeBackEnded { refusal: Option<String> },
    /// Issue 18: the server's decision clock: the seat a decision waits on
    /// and the seconds left; `None` when no clock runs. A hot-seat table
    /// never sends one (nobody waits on an absent player).
    Clock {
        seat: Option<SeatId>,
        secs_left: Option<u32>,
    },
}

/// Called when something arrives from a table that lives elsewhere, so the
/// app can wake its event loop (egui does not repaint on its own).
pub type Waker = std::sync::Arc<dyn Fn() + Send + Sync>;

/// Why a submission could not even be sent.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    #[error("this table does not let you act for {0}")]
    NotYourSeat(SeatId),
    #[error("not connected: {0}")]
    Disconnected(String),
}

/// A table the UI can play at.
pub trait TableLink<R: Ruleset> {
    /// The seats this client may act for: every seat at a hot-seat table,
    /// the one it holds at a network table, none for a spectator.
    fn seats(&self) -> Vec<SeatId>;

    /// The viewers this link sends snapshots and deltas for.
    fn viewers(&self) -> Vec<Viewer>;

    /// Ask for `action` to be applied for `seat`. `rolls_dice` is what the
    /// caller's follower says (`Ruleset::rolls_dice`); a link that must
    /// reveal the seat's next dice link does so only then, so no link is
    /// disclosed before the action that consumes it. The answer arrives
    /// later through [`TableLink::poll`] with the returned `client_ref`.
    fn submit(
        &mut self,
        seat: SeatId,
        action: R::Action,
        rolls_dice: bool,
    ) -> Result<u32, LinkError>;

    /// Everything that arrived since the last poll, in order.
    fn poll(&mut self) -> Vec<LinkEvent>;

    /// The follower for `viewer` fell out of step: send a fresh snapshot.
    fn resync(&mut self, viewer: Viewer);

    /// A short description for the window title and status bar.
    fn describe(&self) -> String;

    /// Say `text` on `channel`. A table in this process has nobody else
    /// to talk to: it refuses.
    fn say(&mut self, _channel: ChatChannel, _text: String) -> Result<(), LinkError> {
        Err(LinkError::Disconnected(
            "a table in this process has no chat".into(),
        ))
    }

    /// Issue 18: ask to take back `seat`'s last action. A hot-seat table
    /// applies it at once; a server table asks the other players first
    /// when the table says so. The outcome comes back through
    /// [`TableLink::poll`] (a `TakeBack` delta, or `TakeBackEnded`).
    fn take_back(&mut self, _seat: SeatId) -> Result<(), LinkError> {
        Err(LinkError::Disconnected(
            "this table cannot take actions back".into(),
        ))
    }

    /// Issue 18: answer another player's take-back request.
    fn answer_take_back(&mut self, _agree: bool) -> Result<(), LinkError> {
        Err(LinkError::Disconnected(
            "this table cannot take actions back".into(),
        ))
    }

    /// Ask to be woken when something arrives. A table in this process
    /// answers during `submit`, so it needs no waker.
    fn set_waker(&mut self, _waker: Waker) {}

    /// Issue 18: the game as it stands, to be continued later (titled
    /// `title`). Only a table in this process can: a server keeps its
    /// own tables, and its chains are not the client's to write down.
    fn save(&self, _title: &str) -> Option<super::saved::SavedGame> {
        None
    }
}
