//! The message types. Plain serde derives only: no `untagged`, no
//! `flatten`, nothing that needs a self-describing format.

use crate::dice::{ChainAnchor, ChainHeadState, LeanRoll, Party, RollProof, SeatLink};
use crate::engine::RuleError;
use crate::ids::Hash32;
use crate::ids::{MatchId, SeatId};
use serde::{Deserialize, Serialize};

/// A table (room) on the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct TableId(pub u64);

/// A signed-in identity (guest or otherwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct UserId(pub u64);

/// Which chat channel: players talk among players, spectators among spectators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ChatChannel {
    Players,
    Spectators,
}

/// Options chosen when a table is created.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableOptions {
    /// Ruleset id, e.g. `"sandbox"` or `"gbacw"`.
    pub ruleset: String,
    /// Scenario name, for the lobby list.
    pub scenario: String,
    /// The ruleset's `Config`, encoded.
    #[serde(with = "serde_bytes")]
    pub config: Vec<u8>,
    /// Private tables are listed without seats to join and need the invite code.
    pub private: bool,
    pub spectators_allowed: bool,
    /// Spectators see the game this many actions behind (anti-ghosting).
    pub spectator_delay: u32,
    /// Issue 18: a take-back needs the other players' agreement (the
    /// default for tables on a server; a hot-seat table never asks).
    pub take_back_needs_agreement: bool,
}

impl TableOptions {
    /// Options as a server stored them, from any version of the format.
    /// Tables stored before issue 18 lack the trailing
    /// `take_back_needs_agreement`: they decode as if it were `true` (the
    /// cautious reading: nobody at those tables chose to allow take-backs
    /// without asking). Without this a server upgraded over an existing
    /// database would find every older table undecodable and refuse to
    /// start.
    pub fn decode_stored(
        bytes: &[u8],
        limit: usize,
    ) -> Result<TableOptions, crate::codec::DecodeError> {
        match crate::codec::decode(bytes, limit) {
            Ok(o) => Ok(o),
            Err(e) => {
                let mut older = bytes.to_vec();
                older.push(1); // bincode's `true`
                crate::codec::decode(&older, limit).map_err(|_| e)
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TableStatus {
    /// Waiting for seats to fill.
    Open,
    Playing,
    Finished,
}

/// One line of the lobby list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableSummary {
    pub table: TableId,
    pub ruleset: String,
    pub scenario: String,
    /// Display name in each seat, `None` when free.
    pub seats: Vec<Option<String>>,
    pub status: TableStatus,
    pub spectators: u32,
    pub private: bool,
    pub spectators_allowed: bool,
    /// The identity in each seat, beside [`TableSummary::seats`]: two
    /// names that look alike are told apart by it (issue 20).
    pub seat_users: Vec<Option<UserId>>,
    /// Issue 18: the seats the game waits on now (from the ruleset's
    /// decision model), so the lobby can mark "your move".
    pub to_act: Vec<SeatId>,
    /// Issue 18: where a table carried on from a saved game began, in
    /// words (the server's, from the config: a client cannot hide it);
    /// `None` for a game from its beginning. The saved game's rolls were
    /// made at one machine, so the list says so before anyone sits down.
    pub carried_from: Option<String>,
}

/// A session (one sign-in token) of the signed-in identity, as listed by
/// [`ClientMsg::ListSessions`]. Times are Unix seconds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionInfo {
    pub id: SessionId,
    pub created: u64,
    /// The last sign-in with it.
    pub last_used: u64,
    /// When it expires unless used before (`last_used` plus the server's idle limit).
    pub expires: u64,
    /// The session this connection signed in with.
    pub current: bool,
}

/// One session token of an identity (not the token itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct SessionId(pub u64);

/// Everything a client needs to start following a table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    pub table: TableId,
    pub match_id: MatchId,
    pub ruleset: String,
    #[serde(with = "serde_bytes")]
    pub config: Vec<u8>,
    /// The sequence number of the last entry folded into `state`.
    pub seq: u64,
    /// The ruleset's `State` as this viewer may see it, encoded.
    #[serde(with = "serde_bytes")]
    pub state: Vec<u8>,
    /// Every chain anchor published so far with the last link revealed,
    /// so the client can check the next roll.
    pub chains: Vec<ChainHeadState>,
    pub rolls: u64,
    /// Your seat, if you are seated.
    pub seat: Option<SeatId>,
}

/// What one log entry looks like to one viewer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DeltaBody {
    /// A party published a chain anchor.
    Anchor {
        party: crate::dice::Party,
        anchor: ChainAnchor,
    },
    /// An action was applied. `events` is the ruleset's `Vec<Event>` as this
    /// viewer may see it, encoded. `roll` lets every viewer check the dice.
    Action {
        seat: SeatId,
        #[serde(with = "serde_bytes")]
        events: Vec<u8>,
        roll: Option<RollProof>,
        by_default: bool,
    },
    /// An action in the compact form (issue 22): what spectators receive
    /// when the server shows chain links only every few rolls
    /// (`reveal_every` above 1). `roll` leaves out what the viewer can
    /// compute; its links arrive on this roll or a later one, and the
    /// follower checks the roll then. Appended: variant numbers are the wire.
    Lean {
        seat: SeatId,
        #[serde(with = "serde_bytes")]
        events: Vec<u8>,
        roll: Option<LeanRoll>,
        by_default: bool,
    },
    /// A chain anchor published while `party`'s last used link has not been
    /// shown to this viewer yet (compact form): `last` is that link, so the
    /// rolls that used the old chain can still be checked.
    Reanchor {
        party: Party,
        anchor: ChainAnchor,
        last: Hash32,
    },
    /// Issue 18: `seat` took back its action at `undone`. Every viewer
    /// folds it by restoring its copy of the state from before that
    /// action. Appended: variant numbers are the wire.
    TakeBack { seat: SeatId, undone: u64 },
}

/// Client → server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClientMsg {
    /// First message on every connection.
    Hello {
        protocol: u32,
        client: String,
    },
    /// Sign in as a guest with a display name; the server answers with a token.
    GuestSignIn {
        name: String,
    },
    /// Resume an identity from any connection with its session token.
    Resume {
        token: String,
    },
    /// Start (or stop) receiving the lobby list and its updates.
    WatchLobby {
        on: bool,
    },
    CreateTable {
        options: TableOptions,
    },
    /// Take a seat; `seat: None` takes the first free one.
    JoinSeat {
        table: TableId,
        seat: Option<SeatId>,
        invite: Option<String>,
    },
    Spectate {
        table: TableId,
        invite: Option<String>,
    },
    Leave {
        table: TableId,
    },
    /// Publish (or replace) this seat's dice chain anchor.
    PublishAnchor {
        table: TableId,
        anchor: ChainAnchor,
    },
    /// Ask to apply an action. `client_ref` comes back in the answer.
    Act {
        table: TableId,
        client_ref: u32,
        #[serde(with = "serde_bytes")]
        action: Vec<u8>,
        links: Vec<SeatLink>,
    },
    /// After a reconnect: the last sequence number seen.
    Resync {
        table: TableId,
        last_seq: u64,
    },
    Chat {
        table: TableId,
        channel: ChatChannel,
        text: String,
    },
    Ping {
        nonce: u64,
    },
    // Appended (variant numbers are the wire): sessions (issue 20).
    /// List this identity's live sessions: answered with [`ServerMsg::Sessions`].
    ListSessions,
    /// End one of this identity's sessions: its token no longer signs in,
    /// and connections signed in with it are closed. Answered with the
    /// remaining [`ServerMsg::Sessions`].
    RevokeSession {
        session: SessionId,
    },
    /// A new session (token) for this identity, e.g. for another device:
    /// answered with `SignedIn` carrying the new token.
    NewSession,
    // Appended: club events (issue 21).
    /// Accounts, clubs and events ([`super::club`]).
    Club(super::club::ClubRequest),
    // Appended: take-back (issue 18).
    /// Ask to take back your seat's last action. Applied at once when the
    /// table needs no agreement; else the other players are asked
    /// ([`ServerMsg::TakeBackAsked`]). Refusals come as
    /// [`ServerMsg::TakeBackEnded`] with the reason in words.
    TakeBack {
        table: TableId,
    },
    /// Answer the open take-back request at `table`.
    AnswerTakeBack {
        table: TableId,
        agree: bool,
    },
}

/// Server → client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ServerMsg {
    Welcome {
        protocol: u32,
        server: String,
    },
    /// `token` is present only when a new session was created.
    SignedIn {
        user: UserId,
        name: String,
        token: Option<String>,
    },
    Error {
        code: ErrorCode,
        message: String,
        /// The `client_ref` of the `Act` that failed, if one did.
        client_ref: Option<u32>,
    },
    /// An action was refused by the rules.
    Rejected {
        table: TableId,
        client_ref: u32,
        error: RuleError,
    },
    /// Your action was accepted and logged as `seq`.
    Accepted {
        table: TableId,
        client_ref: u32,
        seq: u64,
    },
    Lobby {
        tables: Vec<TableSummary>,
    },
    LobbyUpdate {
        table: TableSummary,
    },
    LobbyRemoved {
        table: TableId,
    },
    TableCreated {
        table: TableId,
        invite: Option<String>,
    },
    Snapshot(Snapshot),
    Delta {
        table: TableId,
        seq: u64,
        body: DeltaBody,
    },
    /// A decision is waiting on your seat.
    Pending {
        table: TableId,
        rule: String,
        prompt: String,
        /// The ruleset's `Action` applied if you do not answer, encoded.
        #[serde(with = "serde_bytes")]
        default: Vec<u8>,
        deadline_secs: u32,
    },
    Chat {
        table: TableId,
        channel: ChatChannel,
        from: String,
        text: String,
        /// Who said it: two names that look alike are told apart by it.
        user: UserId,
    },
    Pong {
        nonce: u64,
    },
    // Appended (variant numbers are the wire).
    /// This identity's live sessions (answer to `ListSessions` and `RevokeSession`).
    Sessions {
        sessions: Vec<SessionInfo>,
    },
    // Appended: club events (issue 21).
    /// Answers and news about accounts, clubs and events ([`super::club`]).
    Club(super::club::ClubReply),
    // Appended: take-back (issue 18).
    /// `name` (at `seat`) asks to take back the action logged at `undone`;
    /// sent to every seated player while the request is open.
    TakeBackAsked {
        table: TableId,
        seat: SeatId,
        name: String,
        undone: u64,
    },
    /// The take-back request at `table` is over: `refusal` says why in
    /// words when it was refused (by the rules or by a player); `None`
    /// when it was applied (its delta follows or went before).
    TakeBackEnded {
        table: TableId,
        refusal: Option<String>,
    },
    /// Issue 18: the decision clock, for every seated player: the seat a
    /// decision waits on and the seconds left before the server applies
    /// its default. `secs_left: None` when no clock runs (no decision, or
    /// a seat still free: nobody is timed out before everyone sits).
    Clock {
        table: TableId,
        seat: Option<SeatId>,
        secs_left: Option<u32>,
    },
    // Appended: several servers (issue 23).
    /// `table` is served by another server of the fleet now (it was
    /// handed over, this server lost it, or it was never here): connect to
    /// `to` (a `ws://host:port` address), sign in again with the same
    /// token and resync from the last sequence number seen; nothing
    /// acknowledged is lost. A connection that asked about a table served
    /// elsewhere is closed after this message (a client too old to read
    /// it reconnects instead of asking again and again).
    Moved {
        table: TableId,
        to: String,
    },
}

/// Protocol-level refusals (rule refusals are [`ServerMsg::Rejected`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ErrorCode {
    VersionMismatch,
    /// The first message was not `Hello`, or a message came out of order.
    HandshakeRequired,
    NotSignedIn,
    BadToken,
    /// A frame that does not decode or is too large.
    BadMessage,
    NoSuchTable,
    SeatTaken,
    TableFull,
    /// Acting for a seat that is not yours, or spectating where not allowed.
    Forbidden,
    BadInvite,
    UnknownRuleset,
    RateLimited,
    /// You fell behind; a snapshot follows.
    Resync,
    Internal,
    /// `CreateTable` options refused: the ruleset could not load the
    /// scenario (unknown battle, bad option), or a value is out of range.
    /// The message says which. Appended last: variant numbers are the wire.
    BadOptions,
}

impl ErrorCode {
    /// The refusal's kind in words a player reads (never the variant name).
    pub fn words(self) -> &'static str {
        match self {
            ErrorCode::VersionMismatch => "this client and the server speak different versions",
            ErrorCode::HandshakeRequired => "the server expected a greeting first",
            ErrorCode::NotSignedIn => "not signed in",
            ErrorCode::BadToken => "your saved sign-in is no longer valid",
            ErrorCode::BadMessage => "the server could not read a message",
            ErrorCode::NoSuchTable => "no such table",
            ErrorCode::SeatTaken => "that seat is taken",
            ErrorCode::TableFull => "the table is full",
            ErrorCode::Forbidden => "not allowed",
            ErrorCode::BadInvite => "wrong invite code",
            ErrorCode::UnknownRuleset => "the server does not know that game",
            ErrorCode::RateLimited => "too many requests; wait a moment",
            ErrorCode::Resync => "you fell behind; catching up",
            ErrorCode::Internal => "the server had a problem",
            ErrorCode::BadOptions => "those table options were refused",
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.words())
    }
}
