//! The [`Ruleset`] trait and the types every ruleset shares.

use crate::dice::DiceStream;
use crate::ids::{SeatId, Viewer};
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use std::fmt::Debug;

/// Why an action was refused. `rule` names the case (`"GBACW 7.21"`,
/// `"sandbox"`), so a player sees which rule said no.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{rule}: {message}")]
pub struct RuleError {
    pub rule: String,
    pub code: RuleCode,
    pub message: String,
}

impl RuleError {
    pub fn new(rule: impl Into<String>, code: RuleCode, message: impl Into<String>) -> Self {
        RuleError {
            rule: rule.into(),
            code,
            message: message.into(),
        }
    }
}

/// The broad kind of a refusal, for clients that react by kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RuleCode {
    /// Another seat is to act (or owns the pending decision).
    NotYourTurn,
    /// The piece, unit or decision belongs to another seat.
    NotYours,
    /// The action names something that does not exist (or that you cannot see).
    NotFound,
    /// Well-formed but against the rules.
    Illegal,
    /// Malformed values: out-of-range numbers, empty paths, overlong labels.
    Invalid,
    /// The action rolls dice and the acting seat has not sent a valid chain link.
    DiceLink,
    /// The game is over.
    GameOver,
    /// The ruleset broke its own contract (e.g. rolled dice it did not declare).
    Internal,
}

/// Who is acting and where in the log, handed to [`Ruleset::decide`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionContext {
    pub seat: SeatId,
    /// The log sequence number this action will get if accepted; rulesets
    /// use it to mint ids without keeping a counter in the state.
    pub seq: u64,
    /// `true` when the server applies a pending decision's default on the
    /// seat's behalf (its deadline passed).
    pub by_default: bool,
}

/// The dice an action may roll. Only actions for which
/// [`Ruleset::rolls_dice`] said yes get a stream; rolling otherwise is a
/// ruleset bug and comes back as an `Internal` error, never a panic.
pub struct Dice {
    stream: Option<DiceStream>,
    /// Test support: die faces given in order instead of a stream (the
    /// rule tests write the roll the rulebook's case needs).
    #[cfg(any(test, feature = "test-support"))]
    script: Option<Script>,
}

/// Die faces handed out in order, and the ones already drawn.
#[cfg(any(test, feature = "test-support"))]
#[derive(Clone, Debug, Default)]
pub struct Script {
    pub faces: std::collections::VecDeque<u16>,
    pub drawn: Vec<u16>,
}

impl Dice {
    /// No dice: the action declared it does not roll.
    pub fn none() -> Self {
        Dice {
            stream: None,
            #[cfg(any(test, feature = "test-support"))]
            script: None,
        }
    }

    pub fn from_stream(stream: DiceStream) -> Self {
        Dice {
            stream: Some(stream),
            #[cfg(any(test, feature = "test-support"))]
            script: None,
        }
    }

    /// Test support: dice that come up `faces`, in order. A roll past the
    /// end of the script, or a face larger than the die, is an `Internal`
    /// error naming what was asked, so a test sees at once that its
    /// script does not fit the resolution.
    #[cfg(any(test, feature = "test-support"))]
    pub fn scripted(faces: impl IntoIterator<Item = u16>) -> Self {
        Dice {
            stream: None,
            script: Some(Script {
                faces: faces.into_iter().collect(),
                drawn: Vec::new(),
            }),
        }
    }

    /// Test support: what is left of a script, and what it handed out.
    #[cfg(any(test, feature = "test-support"))]
    pub fn into_script(self) -> Option<Script> {
        self.script
    }

    /// Roll one die with `sides` faces.
    pub fn roll(&mut self, sides: u16) -> Result<u16, RuleError> {
        #[cfg(any(test, feature = "test-support"))]
        if let Some(script) = &mut self.script {
            let drawn = script.drawn.len();
            return match script.faces.pop_front() {
                Some(face) if (1..=sides).contains(&face) => {
                    script.drawn.push(face);
                    Ok(face)
                }
                Some(face) => Err(RuleError::new(
                    "engine",
                    RuleCode::Internal,
                    format!(
                        "scripted die {} is {face}, but a d{sides} was rolled",
                        drawn + 1
                    ),
                )),
                None => Err(RuleError::new(
                    "engine",
                    RuleCode::Internal,
                    format!(
                        "the scripted dice ran out: die {} (a d{sides}) was asked for",
                        drawn + 1
                    ),
                )),
            };
        }
        match &mut self.stream {
            Some(s) => Ok(s.roll(sides)),
            None => Err(RuleError::new(
                "engine",
                RuleCode::Internal,
                "the ruleset rolled dice for an action it declared dice-free",
            )),
        }
    }

    pub(crate) fn into_stream(self) -> Option<DiceStream> {
        self.stream
    }
}

/// A choice the rules hand to one seat in the middle of another's action
/// (defensive fire, retreat before melee, loss allocation, a retreat path).
/// If the seat does not answer by the deadline the server applies `default`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PendingDecision<A> {
    pub seat: SeatId,
    /// The rule that asks, e.g. `"GBACW 12.8"`.
    pub rule: String,
    /// What the seat is asked, in words.
    pub prompt: String,
    /// What happens if the seat does not answer.
    pub default: A,
    /// Seconds the seat has to answer in live play (slow play scales it).
    pub deadline_secs: u32,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// `None` for a draw or a game with no winner.
    pub winner: Option<SeatId>,
    pub summary: String,
}

/// Bytes on the wire and in the log: every ruleset type is a plain serde derive.
pub trait Wire: Serialize + DeserializeOwned + Clone + Debug + Send + Sync + 'static {}
impl<T: Serialize + DeserializeOwned + Clone + Debug + Send + Sync + 'static> Wire for T {}

/// A deterministic ruleset. Pure functions of their inputs: no clocks, no
/// global RNG, no hash-map iteration order in anything that reaches a state
/// or an event, so the same log gives the same state byte for byte.
pub trait Ruleset: Sized + Send + Sync + 'static {
    /// Stable name in logs and on the wire (`"sandbox"`, `"gbacw"`).
    const ID: &'static str;
    /// Scenario and options chosen when the table is created.
    type Config: Wire + Default;
    type State: Wire + PartialEq;
    type Action: Wire;
    /// The deltas: small facts that [`Ruleset::evolve`] folds into a state.
    type Event: Wire + PartialEq;

    /// Load the scenario's fixed data (maps, charts, orders of battle).
    fn new(config: &Self::Config) -> Result<Self, RuleError>;

    /// The config as a log header records it and a snapshot carries it.
    /// A plain encoding unless the ruleset has a form of its own (GBACW's
    /// game continued from a saved one). Every reader goes through
    /// [`Ruleset::decode_config`].
    fn encode_config(config: &Self::Config) -> Vec<u8> {
        crate::codec::encode_infallible(config)
    }

    /// Read a config written by [`Ruleset::encode_config`] (bounded by
    /// `limit` as every decoder).
    fn decode_config(
        bytes: &[u8],
        limit: usize,
    ) -> Result<Self::Config, crate::codec::DecodeError> {
        crate::codec::decode(bytes, limit)
    }

    /// How many seats this scenario has.
    fn seats(&self) -> u8;

    fn initial_state(&self) -> Self::State;

    /// Whether `action` will roll dice. Decided before the action is applied
    /// so the acting client knows to attach its next chain link.
    fn rolls_dice(&self, state: &Self::State, ctx: &ActionContext, action: &Self::Action) -> bool;

    /// Validate `action` and resolve it into events. Must not depend on
    /// anything but its arguments. An `Err` leaves everything unchanged.
    fn decide(
        &self,
        state: &Self::State,
        ctx: &ActionContext,
        action: &Self::Action,
        dice: &mut Dice,
    ) -> Result<Vec<Self::Event>, RuleError>;

    /// Fold one event into a state, the full one or a viewer's copy.
    fn evolve(&self, state: &mut Self::State, event: &Self::Event);

    /// What `viewer` may see of `state`.
    fn view(&self, state: &Self::State, viewer: Viewer) -> Self::State;

    /// What `viewer` may see of `event`, given the state just before it;
    /// `None` when the viewer learns nothing from it.
    fn view_event(
        &self,
        state_before: &Self::State,
        event: &Self::Event,
        viewer: Viewer,
    ) -> Option<Self::Event>;

    /// Decisions currently waiting on a seat.
    fn pending(&self, _state: &Self::State) -> Vec<PendingDecision<Self::Action>> {
        Vec::new()
    }

    /// A finite, representative set of actions `seat` may take now; every
    /// one of them must be accepted by `decide`. Clients highlight with it;
    /// random-play tests draw from it.
    fn legal_actions(&self, state: &Self::State, seat: crate::ids::SeatId) -> Vec<Self::Action>;

    /// The dice `events` show, in the order rolled, when they show them
    /// all; `None` when this viewer's events do not (hidden or partial).
    /// Followers compare it with the roll proof, so a server cannot publish
    /// a valid proof beside different numbers.
    fn dice_shown(&self, _events: &[Self::Event]) -> Option<Vec<crate::dice::Die>> {
        None
    }

    /// Whether `viewer` may see `action` itself, not only its events, with
    /// `state` as it was before the action. Then the viewer's compact delta
    /// carries the action's bytes (usually shorter than its 32-byte digest)
    /// and the viewer computes the digest itself (issue 22). `false`, the
    /// default, keeps actions to the viewers of their events only.
    fn action_visible(
        &self,
        _state: &Self::State,
        _action: &Self::Action,
        _viewer: crate::ids::Viewer,
    ) -> bool {
        false
    }

    /// The action these events (as a viewer of them sees them) could only
    /// have come from, when they tell it whole. A viewer who may see the
    /// action then rebuilds it from the events it was sent anyway, and the
    /// compact delta carries neither the action nor its digest (issue 22).
    /// The server sends that form only when the rebuilt action encodes to
    /// exactly the logged bytes, so a ruleset may answer for the common
    /// shapes only; `None`, the default, always sends the bytes.
    fn action_from_events(&self, _seat: SeatId, _events: &[Self::Event]) -> Option<Self::Action> {
        None
    }

    /// Issue 18: the seats the game waits on now (the lobby marks "your
    /// move" with it). The default asks [`Ruleset::legal_actions`]; a
    /// ruleset with a decision model answers from it more cheaply.
    fn to_act(&self, state: &Self::State) -> Vec<SeatId> {
        if self.outcome(state).is_some() {
            return Vec::new();
        }
        (0..self.seats())
            .map(SeatId)
            .filter(|s| !self.legal_actions(state, *s).is_empty())
            .collect()
    }

    /// Issue 18: whether `action`, taken with the game in `state_before`,
    /// may later be taken back by its seat. The engine already refuses a
    /// take-back of anything that rolled, was applied by default or
    /// involved hidden information; a ruleset says here which of its
    /// decisions are final for other reasons (an answer another seat is
    /// waiting on). `true`, the default, leaves only the engine's limits.
    fn may_take_back(&self, _state_before: &Self::State, _action: &Self::Action) -> bool {
        true
    }

    /// `Some` once the game is over.
    fn outcome(&self, _state: &Self::State) -> Option<Outcome> {
        None
    }

    /// Whose answer the game waits for, and which Player-Turn it is, for
    /// the clocks of club events (issue 21). `None`, the default: nobody's
    /// clock runs.
    fn clock_turn(&self, _state: &Self::State) -> Option<ClockTurn> {
        None
    }

    /// Where the game is, in words, for the status cards of club events
    /// (issue 21), e.g. "Game-Turn 3: Union Movement Phase". `None`, the
    /// default: the ruleset keeps no turns to name.
    fn progress(&self, _state: &Self::State) -> Option<String> {
        None
    }

    /// Where a table that does not begin at the game's beginning began, in
    /// words, for the lobby (issue 18: a game carried on from one saved at
    /// a hot seat, whose rolls so far were made at one machine that held
    /// every chain; a player deciding whether to sit down should know).
    /// `None`, the default: the game begins at its beginning.
    fn carried_from(&self) -> Option<String> {
        None
    }
}

/// Whose clock runs (see [`Ruleset::clock_turn`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockTurn {
    /// The seat whose answer is awaited.
    pub seat: crate::ids::SeatId,
    /// A number that grows by one with each new Player-Turn: the clock's
    /// increment is given once per Player-Turn.
    pub player_turn: u32,
}
