//! Club events (issue 21): accounts, clubs with roles, events with rounds,
//! pairings, results, standings and clocks. One request enum and one reply
//! enum, carried by [`super::ClientMsg::Club`] and [`super::ServerMsg::Club`],
//! so the rest of the protocol is untouched. Every refusal is a
//! [`ClubReply::Refused`] with a [`ClubError`] and words.

use super::{TableId, UserId};
use crate::ids::SeatId;
use serde::{Deserialize, Serialize};

/// A club on the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ClubId(pub u64);

/// An event (tournament) of a club.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct EventId(pub u64);

/// What a member may do in a club.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ClubRole {
    Member,
    /// Creates and runs events: starts rounds, adjudicates.
    Director,
    /// Everything a director does, and gives roles.
    Owner,
}

/// How players are paired each round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PairingMethod {
    /// Players of equal score meet, nobody twice; a bye to the lowest.
    Swiss,
    /// Everybody meets everybody (the circle method).
    RoundRobin,
    /// Winners go on; byes to the top seeds in the first round.
    SingleElimination,
}

/// Who plays which side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SideAssignment {
    /// The player who has played the first side less often takes it.
    Balanced,
    /// A coin toss from the event's seed.
    Random,
    // Appended (variant numbers are the wire and the stored events).
    /// Each paired player bids victory points for the side they want
    /// (`ClubRequest::Bid`); when both want the same side the higher bid
    /// gets it (equal bids: a coin toss from the event's seed) and the
    /// bid counts against that player's victory-point margin.
    Bid,
}

/// What happens when a clock reaches zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AtZero {
    /// The side out of time loses the game.
    Loss,
    /// The side out of time plays on with the engine's default answers.
    EngineDefaults,
}

/// Live or slow play time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeControl {
    /// Each side's bank at the start, in seconds.
    pub bank_secs: u32,
    /// Added to a side's bank at each new Player-Turn in which it answers.
    pub increment_secs: u32,
    /// Slow play: the longest one decision may take, in seconds (0: no limit).
    pub per_decision_secs: u32,
    pub at_zero: AtZero,
}

/// Event points for a victory level named in the engine's result
/// (e.g. Cedar Mountain 27: "marginal", "substantive", "decisive").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelPoints {
    /// Words looked for (case-insensitively) in the engine's result.
    pub level: String,
    pub winner: u32,
    pub loser: u32,
}

/// Event points per result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PointsTable {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
    pub bye: u32,
    /// Checked in order before `win`/`loss` for results from the engine.
    pub levels: Vec<LevelPoints>,
}

impl Default for PointsTable {
    fn default() -> Self {
        PointsTable {
            win: 2,
            draw: 1,
            loss: 0,
            bye: 2,
            levels: Vec::new(),
        }
    }
}

/// Everything a director chooses when creating an event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventSettings {
    pub name: String,
    /// Ruleset id and scenario, as for a table.
    pub ruleset: String,
    pub scenario: String,
    #[serde(with = "serde_bytes")]
    pub config: Vec<u8>,
    pub rounds: u8,
    pub pairing: PairingMethod,
    pub sides: SideAssignment,
    /// Registration by invite code only.
    pub invite_only: bool,
    /// Only players who checked in are paired.
    pub check_in: bool,
    pub time: Option<TimeControl>,
    pub points: PointsTable,
    /// Seeds the random choices (sides, Swiss order among equals).
    pub seed: u64,
    // Appended (events stored before it are rewritten by the club
    // schema's third step, `storage/club.rs`).
    /// One battle per round, round 1 first, when the event plays more than
    /// one ("system and scenario(s)"): empty, or exactly `rounds` long.
    /// Empty: every round plays `scenario`, `config` and `points.levels`.
    pub round_scenarios: Vec<RoundScenario>,
}

/// The battle of one round of an event, given when the event is created
/// (so players know what each round plays before they register), with its
/// own levels of victory: Cedar Mountain's (27.1) are not Corinth's
/// (31.33).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundScenario {
    /// As for a table: the scenario's name and the ruleset's config.
    pub scenario: String,
    #[serde(with = "serde_bytes")]
    pub config: Vec<u8>,
    /// This battle's victory levels and their event points, checked in
    /// order before `PointsTable::win`/`loss` (the other points are the
    /// event's).
    pub levels: Vec<LevelPoints>,
}

/// What one round plays: its scenario's name, config and victory levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundPlay<'a> {
    pub scenario: &'a str,
    pub config: &'a [u8],
    pub levels: &'a [LevelPoints],
}

impl EventSettings {
    /// What round `round` (0-based) plays: its own entry of
    /// `round_scenarios`, else the event's one scenario.
    pub fn round_play(&self, round: usize) -> RoundPlay<'_> {
        match self.round_scenarios.get(round) {
            Some(r) => RoundPlay {
                scenario: &r.scenario,
                config: &r.config,
                levels: &r.levels,
            },
            None => RoundPlay {
                scenario: &self.scenario,
                config: &self.config,
                levels: &self.points.levels,
            },
        }
    }

    /// The event's battles in words, for a list of events: its one
    /// scenario, or each different one in the order of the rounds
    /// ("Cedar Mountain, 9 August 1862, then Corinth, …").
    pub fn scenarios_words(&self) -> String {
        let mut names: Vec<&str> = Vec::new();
        for r in &self.round_scenarios {
            if !names.contains(&r.scenario.as_str()) {
                names.push(&r.scenario);
            }
        }
        match names.len() {
            0 => self.scenario.clone(),
            _ => names.join(", then "),
        }
    }
}

/// How a game's result was reached.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ResultHow {
    /// The engine ended the game; its words.
    Engine { summary: String },
    /// A player resigned.
    Resigned { seat: SeatId },
    /// A clock reached zero.
    Clock { seat: SeatId },
    /// The director decided, and why.
    Adjudicated { reason: String },
    /// No opponent this round.
    Bye,
}

/// One game's result: event points per seat and the victory-point margin
/// (seat 0's victory points minus seat 1's, when known).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    pub points: [u32; 2],
    pub vp_margin: i32,
    pub how: ResultHow,
}

/// One table of a round, as players and directors see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    pub table: Option<TableId>,
    /// Seat 0 and seat 1 (seat 1 empty for a bye).
    pub players: [Option<(UserId, String)>; 2],
    pub result: Option<GameResult>,
    /// Each side's time left in milliseconds, when the event has clocks.
    pub clock_ms: Option<[u64; 2]>,
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StandingRow {
    pub rank: u32,
    pub user: UserId,
    pub name: String,
    pub points: u32,
    /// Sum of the opponents' points (Buchholz).
    pub buchholz: u32,
    /// Sum of this player's victory-point margins.
    pub vp_margin: i64,
    pub games: u32,
}

/// Client → server, inside [`super::ClientMsg::Club`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClubRequest {
    /// Make the signed-in guest identity an account under its name.
    ClaimAccount {
        password: String,
    },
    /// Sign in to an account from any connection: answered with
    /// `SignedIn` carrying a new session token.
    SignIn {
        name: String,
        password: String,
    },
    CreateClub {
        name: String,
    },
    /// Become a member of a club.
    JoinClub {
        club: ClubId,
    },
    /// Owner only: give a member a role.
    SetRole {
        club: ClubId,
        user: UserId,
        role: ClubRole,
    },
    /// Director only.
    CreateEvent {
        club: ClubId,
        settings: EventSettings,
    },
    Register {
        event: EventId,
        invite: Option<String>,
    },
    CheckIn {
        event: EventId,
    },
    /// Director only: pair the next round and create its tables.
    StartRound {
        event: EventId,
    },
    /// Give up the current game of the event.
    Resign {
        event: EventId,
    },
    /// Director only: decide a game, with a reason kept.
    Adjudicate {
        event: EventId,
        table: TableId,
        /// Event points per seat.
        points: [u32; 2],
        vp_margin: i32,
        reason: String,
    },
    /// Pairings and results of a round (1-based).
    Round {
        event: EventId,
        round: u8,
    },
    Standings {
        event: EventId,
    },
    ExportCsv {
        event: EventId,
    },
    /// Director only: the log of directors' actions.
    DirectorLog {
        event: EventId,
    },
    // Appended (variant numbers are the wire): the director's desk and
    // watching an event.
    /// Director only: stop (or resume) one table of the current round:
    /// its clocks stop and its players cannot act until it goes on.
    PauseTable {
        event: EventId,
        table: TableId,
        on: bool,
    },
    /// Director only: stop (or resume) every unfinished table of the
    /// current round.
    PauseRound {
        event: EventId,
        on: bool,
    },
    /// Director only: give a side of a table more time.
    AddTime {
        event: EventId,
        table: TableId,
        seat: SeatId,
        secs: u32,
    },
    /// Director only: `user` (an entrant not playing) takes `seat` at a
    /// table of the current round, and the replaced player's place in the
    /// event from then on.
    Replace {
        event: EventId,
        table: TableId,
        seat: SeatId,
        user: UserId,
    },
    /// Director only: pair the next round without starting it (asked
    /// again: paired afresh). `StartRound` then starts these pairings.
    PairRound {
        event: EventId,
    },
    /// Director only: the next round's pairings by hand, before it starts:
    /// the same players as the proposal, each once; seat 1 empty is a bye.
    RePair {
        event: EventId,
        games: Vec<[Option<UserId>; 2]>,
    },
    /// The event at a glance: every table of the current round with its
    /// status, the standings; for its directors, the proposed next round.
    Watch {
        event: EventId,
    },
    /// Slow play: the caller's unfinished event games, whose move, how long.
    YourGames,
    // Appended (variant numbers are the wire): webhooks, vacations, bids.
    /// The club's owner or a director: the club's webhook, an `http://` or
    /// `https://` address of at most 512 bytes that gets a JSON POST when
    /// a round starts, when it is a player's move in slow play and when a
    /// game ends; `None` removes it. Answered with `Webhook`.
    SetWebhook {
        club: ClubId,
        url: Option<String>,
    },
    /// Director only: how many whole vacation days each player of the
    /// event may take (0 to 60). Answered with a `Notice`.
    SetVacationDays {
        event: EventId,
        days: u8,
    },
    /// Take `days` whole days of vacation from now (on vacation already:
    /// added to its end). The caller's slow-play clocks stop until it
    /// ends. `days: 0` takes none and only asks what is left. Answered
    /// with `Vacation`.
    TakeVacation {
        event: EventId,
        days: u8,
    },
    /// Events whose sides are given by bid: the caller wants `seat` (seat
    /// 0 or seat 1) in their next game and bids `vp` victory points for
    /// it, at most a thousand. Asked again, the last bid counts; it is
    /// used when the next round starts. Answered with a `Notice`.
    Bid {
        event: EventId,
        seat: SeatId,
        vp: u32,
    },
    /// The events the lobby lists for the caller: those they entered or
    /// direct, and those open to anyone for registration.
    Events,
    // Appended (variant numbers are the wire): the client's club screens.
    /// The clubs of the server (at most [`MAX_LISTED_CLUBS`], the
    /// caller's first), the caller's role in each, the members of the
    /// caller's own clubs, and whether the caller is an account.
    /// Answered with `Clubs`.
    Clubs,
    // Appended (variant numbers are the wire).
    /// Leave a club: the caller is no longer a member (nor its director).
    /// The owner names the member who owns the club after them
    /// (`new_owner`); anyone else gives `None`. Answered with `LeftClub`.
    LeaveClub {
        club: ClubId,
        new_owner: Option<UserId>,
    },
    // Appended (variant numbers are the wire).
    /// Director only: round `round` (1-based), not started yet, plays
    /// `battle`, a battle of the game `ruleset` (named so that a battle of
    /// another game than the event's is refused in words, not misread).
    /// An event of one battle then has a battle per round, the other
    /// rounds keeping the event's. Answered with a `Notice`.
    SetRoundBattle {
        event: EventId,
        round: u8,
        ruleset: String,
        battle: RoundScenario,
    },
}

/// Server → client, inside [`super::ServerMsg::Club`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClubReply {
    AccountClaimed {
        user: UserId,
        name: String,
    },
    ClubCreated {
        club: ClubId,
        name: String,
    },
    Member {
        club: ClubId,
        user: UserId,
        role: ClubRole,
    },
    EventCreated {
        event: EventId,
        invite: Option<String>,
    },
    Registered {
        event: EventId,
    },
    CheckedIn {
        event: EventId,
    },
    /// A round's pairings (to its director, and as the answer to `Round`).
    Round {
        event: EventId,
        round: u8,
        pairings: Vec<Pairing>,
    },
    /// To each player when a round starts: where to sit.
    YourTable {
        event: EventId,
        round: u8,
        table: TableId,
        seat: SeatId,
        opponent: String,
    },
    /// To a player with no opponent this round.
    Bye {
        event: EventId,
        round: u8,
    },
    /// A game of the event has its result (to both players and the director).
    Result {
        event: EventId,
        round: u8,
        table: TableId,
        result: GameResult,
    },
    Standings {
        event: EventId,
        rows: Vec<StandingRow>,
    },
    Csv {
        event: EventId,
        text: String,
    },
    DirectorLog {
        event: EventId,
        lines: Vec<String>,
    },
    Refused {
        error: ClubError,
        message: String,
    },
    // Appended (variant numbers are the wire).
    /// The answer to `Watch`.
    EventView(Box<EventView>),
    /// The next round's pairings, proposed and not started (`PairRound`,
    /// `RePair`).
    Proposed {
        event: EventId,
        round: u8,
        pairings: Vec<Pairing>,
    },
    /// A director's action was done (to the director), or news of one
    /// (to the players of the table): in words.
    Notice {
        event: EventId,
        words: String,
    },
    /// The answer to `YourGames`.
    YourGames {
        games: Vec<YourGame>,
    },
    // Appended (variant numbers are the wire).
    /// The club's webhook as set (`None`: none).
    Webhook {
        club: ClubId,
        url: Option<String>,
    },
    /// The caller's vacation in an event: whole days left to take, and
    /// when the vacation under way ends (Unix seconds), if one is.
    Vacation {
        event: EventId,
        days_left: u8,
        until: Option<u64>,
    },
    /// The answer to `Events`, newest first.
    Events {
        events: Vec<EventSummary>,
    },
    // Appended (variant numbers are the wire).
    /// The answer to `Clubs`.
    Clubs {
        /// The caller's identity is an account (claimed or signed in to).
        account: bool,
        clubs: Vec<ClubSummary>,
    },
    // Appended (variant numbers are the wire).
    /// The caller left the club (`LeaveClub`); `new_owner` named when the
    /// owner left.
    LeftClub {
        club: ClubId,
        new_owner: Option<UserId>,
    },
}

/// How many clubs one `Clubs` answer lists at most, and how many members
/// of one club it names.
pub const MAX_LISTED_CLUBS: usize = 200;
pub const MAX_LISTED_MEMBERS: usize = 500;

/// One club as the client's club screen shows it (see `ClubRequest::Clubs`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClubSummary {
    pub club: ClubId,
    pub name: String,
    /// The caller's role (`None`: not a member).
    pub role: Option<ClubRole>,
    /// The members with their names and roles, owner first (members
    /// only see them; empty for others).
    pub members: Vec<ClubMember>,
    /// Whether the club has a webhook.
    pub webhook_set: bool,
    /// The webhook's address, for the club's owner and directors only.
    pub webhook: Option<String>,
}

/// A member of a club.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClubMember {
    pub user: UserId,
    pub name: String,
    pub role: ClubRole,
}

/// One event as the lobby lists it (see `ClubRequest::Events`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventSummary {
    pub event: EventId,
    pub name: String,
    /// Ruleset id and scenario, as the event's settings give them (an
    /// event of several battles: each, `EventSettings::scenarios_words`).
    pub ruleset: String,
    pub scenario: String,
    pub rounds: u8,
    /// The round being played or last played (0: none yet).
    pub round: u8,
    /// Every round played and every game of the last one decided.
    pub finished: bool,
    pub players: u32,
    /// Registration is open (no round started yet).
    pub registration_open: bool,
    pub invite_only: bool,
    /// The caller is registered.
    pub entered: bool,
    /// The caller directs it.
    pub director: bool,
}

/// How many events one `Events` answer lists at most.
pub const MAX_LISTED_EVENTS: usize = 200;

/// One table of an event as its status card shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableCard {
    /// `None` for a bye.
    pub table: Option<TableId>,
    pub players: [Option<(UserId, String)>; 2],
    /// Where the game is, in words (e.g. "Game-Turn 3: Union Movement
    /// Phase"), once the table has said.
    pub progress: Option<String>,
    /// The seat whose answer the game waits for.
    pub awaiting: Option<SeatId>,
    /// Each side's time left in milliseconds, when the event has clocks.
    pub clock_ms: Option<[u64; 2]>,
    /// The last action at the table (Unix seconds).
    pub last_activity: Option<u64>,
    pub paused: bool,
    pub result: Option<GameResult>,
}

/// An event at a glance (see `ClubRequest::Watch`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventView {
    pub event: EventId,
    pub name: String,
    pub scenario: String,
    pub pairing: PairingMethod,
    pub rounds: u8,
    /// The round being played or last played (0: none yet).
    pub round: u8,
    /// Whether the one asking directs the event.
    pub director: bool,
    pub entrants: Vec<(UserId, String)>,
    /// The current round's tables and byes.
    pub tables: Vec<TableCard>,
    pub standings: Vec<StandingRow>,
    /// The next round as proposed, to its directors only.
    pub proposed: Option<Vec<Pairing>>,
    pub time: Option<TimeControl>,
    /// The event's points (an adjudication gives them).
    pub points: PointsTable,
    /// The server's clock (Unix seconds), so "a minute ago" needs no
    /// agreement between clocks.
    pub now: u64,
    /// How each game's sides are given (a bid event lets its players bid
    /// for a side on the page).
    pub sides: SideAssignment,
    // Appended: what the page needs to register, check in and bid in words.
    /// The scenario's sides, seat 0 first ("Union", "Confederate").
    pub side_names: [String; 2],
    /// Registration is open (no round started yet).
    pub registration_open: bool,
    /// Registration by invite code only.
    pub invite_only: bool,
    /// Only players who checked in are paired.
    pub check_in: bool,
    /// The caller is registered and checked in.
    pub checked_in: bool,
    /// The invite code, for the event's directors only.
    pub invite: Option<String>,
    // Appended: an event of several battles.
    /// Each round's battle, round 1 first, when the event plays more than
    /// one (`EventSettings::round_scenarios`; empty: `scenario` for every
    /// round). `scenario` above is the current round's (before the first,
    /// round 1's).
    pub round_scenarios: Vec<RoundScenario>,
    // Appended: the director's desk changes a later round's battle.
    /// The event's game ("gbacw"): which battles a round may be given.
    pub ruleset: String,
}

/// One unfinished game of the caller's (see `ClubRequest::YourGames`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct YourGame {
    pub event: EventId,
    pub event_name: String,
    pub round: u8,
    pub table: TableId,
    pub seat: SeatId,
    pub opponent: String,
    pub progress: Option<String>,
    /// The game waits for this player's answer.
    pub your_move: bool,
    pub paused: bool,
    /// This side's bank, in milliseconds, when the event has clocks.
    pub bank_ms: Option<u64>,
    /// Slow play: the time left for the decision awaited from this
    /// player, in milliseconds.
    pub decision_ms: Option<u64>,
}

/// Why a club request was refused; the reply's message says more.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClubError {
    UnknownAccount,
    BadPassword,
    /// Too many failed sign-ins; the message says when to retry.
    TooManyAttempts,
    /// The name (or one that looks the same) is an account already.
    NameTaken,
    AlreadyAccount,
    /// The request needs an account or a sign-in.
    NotSignedIn,
    BadRequest,
    NoSuchClub,
    NoSuchEvent,
    /// Only a director (or the owner) may do that.
    NotDirector,
    NotMember,
    RegistrationClosed,
    BadInvite,
    NotRegistered,
    /// A round is still being played, or none is.
    WrongTime,
    NotEnoughPlayers,
    NoSuchGame,
    Busy,
    Internal,
}

impl ClubError {
    /// The refusal's kind in words.
    pub fn words(self) -> &'static str {
        match self {
            ClubError::UnknownAccount => "there is no account with that name",
            ClubError::BadPassword => "wrong password",
            ClubError::TooManyAttempts => "too many failed sign-ins",
            ClubError::NameTaken => "that name is taken by an account",
            ClubError::AlreadyAccount => "this identity is an account already",
            ClubError::NotSignedIn => "sign in first",
            ClubError::BadRequest => "that request was refused",
            ClubError::NoSuchClub => "no such club",
            ClubError::NoSuchEvent => "no such event",
            ClubError::NotDirector => "only the event's director may do that",
            ClubError::NotMember => "not a member of that club",
            ClubError::RegistrationClosed => "registration is closed",
            ClubError::BadInvite => "wrong invite code",
            ClubError::NotRegistered => "not registered for that event",
            ClubError::WrongTime => "not now",
            ClubError::NotEnoughPlayers => "not enough players",
            ClubError::NoSuchGame => "no such game in the event",
            ClubError::Busy => "the server is busy; try again",
            ClubError::Internal => "the server had a problem",
        }
    }
}

impl std::fmt::Display for ClubError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.words())
    }
}
