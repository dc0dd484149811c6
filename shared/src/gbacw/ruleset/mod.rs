//! GBACW as a hosted ruleset: [`Gbacw`] implements
//! [`crate::engine::Ruleset`] over the pure rule functions of the sibling
//! modules.
//!
//! - [`config`]: the battle and the 001 readings a table is created with.
//! - [`scenario`]: a shipped battle ([`crate::gbacw::battles`]) made ready to play.
//! - [`state`], [`action`], [`event`]: the game state, what players ask, the deltas.
//! - `decide`: validating actions into events (sequence of play, command,
//!   movement, formations, facing, stacking, withdrawal-fire triggers).
//! - [`query`]: what the client highlights with (reachable hexes, facings,
//!   formations), computed by the same code that validates.
//! - `legal`: the representative set of legal actions.
//!
//! The Standard Rules hide nothing, so every viewer sees the whole state
//! (`view` is the identity) and the commutation contract holds trivially.

pub mod action;
pub mod awaiting;
pub(crate) mod battle_rules;
pub mod bce;
pub(crate) mod board;
pub(crate) mod cedar;
pub(crate) mod combat;
pub mod config;
pub mod continued;
pub mod corinth;
pub(crate) mod crews;
mod decide;
pub mod event;
pub mod exclusive;
pub(crate) mod leader_reach;
mod legal;
pub mod query;
// The client's drag-a-path preview (additive query).
pub mod path_query;
// The client's drawn command radius (additive query).
pub mod radius_query;
pub mod scenario;
mod shared_data;
pub(crate) mod sight;
pub mod stack_order;
pub mod state;
// Historical scenarios: set-up, arrivals, exits, victory.
pub mod plan;
// The client's plotting panel: the plan checked as the user edits it.
pub mod plan_query;
pub mod progress;
pub mod victory;
// The client's Pre-Dawn Barrage panel (Corinth 26.4): batteries, targets.
pub mod barrage_query;
// The client's arrivals tray: entry formation and due turn.
pub mod arrival_query;

pub use action::GbacwAction;
pub use awaiting::Awaiting;
pub use board::is_redan_hex;
pub use config::{EDITION_001, GbacwConfig};
pub use event::GbacwEvent;
pub use scenario::Game;
pub use state::*;
pub use victory::VictoryPoints;

use crate::engine::{ActionContext, Dice, Outcome, PendingDecision, RuleCode, RuleError, Ruleset};
use crate::gbacw::movement::StepTable;
use crate::gbacw::oob::{CounterId, UnitStatus};
use crate::gbacw::options::RuleOptions;
use crate::gbacw::sequence::{Clock, PlayerTurn};
use crate::gbacw::tables::Tables;
use crate::ids::{SeatId, Viewer};
pub(crate) use battle_rules::BattleRules;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Seconds the other seat has to answer withdrawal fire in live play.
pub const WITHDRAWAL_DEADLINE_SECS: u32 = 60;

/// The GBACW ruleset for one battle.
#[derive(Clone, Debug)]
pub struct Gbacw {
    config: GbacwConfig,
    // The battle's data is shared by every table of the battle
    // (`shared_data`): a table owns only its config and options.
    game: shared_data::Shared<Game>,
    options: RuleOptions,
    steps: shared_data::Shared<StepTable>,
    /// The step table with the ground the battle's rules clear in play
    /// (`BattleRules::cleared_steps`), read for the hexes cleared.
    steps_cleared: Option<shared_data::Shared<StepTable>>,
    /// The battle's exclusive rules at the Standard Rules' hook points.
    battle: Arc<dyn BattleRules>,
    /// The result tables (9.16, 12.98, 13.15, 17.76, 8.35, 11.34).
    tables: Arc<Tables>,
    /// The scenario options on at this table (Cedar Mountain 26.3).
    scenario_options: std::collections::BTreeSet<CounterId>,
    /// Where a game continued from a saved one starts ([`continued`]);
    /// `None` for a game from the scenario's start.
    start: Option<Arc<GbacwState>>,
}

pub(crate) fn err(rule: &str, code: RuleCode, message: impl Into<String>) -> RuleError {
    RuleError::new(rule, code, message)
}

impl Gbacw {
    /// A table of `config` on an already loaded `game` (a shipped battle,
    /// or one written for a test by the test kit's position builder).
    pub fn with_game(config: &GbacwConfig, game: Game) -> Result<Gbacw, RuleError> {
        let battle = exclusive::rules_for(&config.battle, &game.scenario)
            .map_err(|e| err("GBACW scenario", RuleCode::Invalid, e))?;
        Gbacw::with_rules(config, game, battle)
    }

    /// A table of `config` on `game` playing `battle`'s exclusive rules (a
    /// battle of the registry's, `exclusive::rules_for`, or one a test
    /// writes).
    pub(crate) fn with_rules(
        config: &GbacwConfig,
        game: Game,
        battle: Arc<dyn BattleRules>,
    ) -> Result<Gbacw, RuleError> {
        Gbacw::with_data(config, shared_data::BattleData::build(game, battle)?)
    }

    /// A table of `config` on a battle's shared data.
    fn with_data(config: &GbacwConfig, data: shared_data::BattleData) -> Result<Gbacw, RuleError> {
        let shared_data::BattleData {
            game,
            battle,
            steps,
            steps_cleared,
            tables,
        } = data;
        let options = config
            .rule_options()
            .map_err(|e| err("GBACW config", RuleCode::Invalid, e))?;
        let scenario_options = scenario_options(&game, config)?;
        let rs = Gbacw {
            config: config.clone(),
            game,
            options,
            steps,
            steps_cleared,
            battle,
            tables,
            scenario_options,
            start: None,
        };
        // A battle whose set-up is the players' must have a default one
        // (the set-up's timeout and `EndSetUp` rely on it).
        let start = rs.initial_state();
        if let Some(side) = &start.progress.setting_up
            && decide::setup::default_deployment(&rs, &start, side).is_none()
        {
            return Err(err(
                "GBACW scenario",
                RuleCode::Invalid,
                format!(
                    "{}: the default deployment of {side} does not fit the set-up restrictions",
                    rs.game.scenario.name
                ),
            ));
        }
        Ok(rs)
    }

    pub fn config(&self) -> &GbacwConfig {
        &self.config
    }

    /// The battle's exclusive rules, at the Standard Rules' hook points.
    pub(crate) fn battle(&self) -> &dyn BattleRules {
        &*self.battle
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The edition options this table plays with.
    pub fn options(&self) -> RuleOptions {
        self.options
    }

    /// The seat playing `side`.
    pub fn seat_of(&self, side: &CounterId) -> SeatId {
        SeatId(u8::from(self.game.seats[1] == *side))
    }

    /// The side `seat` plays.
    pub fn side_of(&self, seat: SeatId) -> &CounterId {
        &self.game.seats[usize::from(seat.0.min(1))]
    }

    /// The other side.
    pub fn enemy_of(&self, side: &CounterId) -> &CounterId {
        if self.game.seats[0] == *side {
            &self.game.seats[1]
        } else {
            &self.game.seats[0]
        }
    }

    /// The side of a Player-Turn (4.0): the scenario says who goes first.
    pub fn side_of_turn(&self, player: PlayerTurn) -> &CounterId {
        match player {
            PlayerTurn::First => &self.game.first,
            PlayerTurn::Second => self.enemy_of(&self.game.first),
        }
    }

    /// The phasing side at `clock`; `None` in an interphase.
    pub fn phasing_side(&self, clock: Clock) -> Option<&CounterId> {
        clock.step.phasing().map(|p| self.side_of_turn(p))
    }

    /// What the game waits for now (see [`awaiting`]): its seat, its
    /// prompt in words, its legal answers.
    pub fn awaiting<'s>(&self, state: &'s GbacwState) -> Awaiting<'s> {
        awaiting::awaiting(self, state)
    }

    /// Who acts now: the seat [`Gbacw::awaiting`] asks; `None` once the
    /// game is over.
    pub fn acting_seat(&self, state: &GbacwState) -> Option<SeatId> {
        self.awaiting(state).seat(self, state)
    }
}

impl Ruleset for Gbacw {
    const ID: &'static str = "gbacw";
    type Config = GbacwConfig;
    type State = GbacwState;
    type Action = GbacwAction;
    type Event = GbacwEvent;

    fn new(config: &GbacwConfig) -> Result<Self, RuleError> {
        let mut rs = Gbacw::with_data(config, shared_data::BattleData::shipped(&config.battle)?)?;
        if let Some(saved) = &config.continued {
            rs.start = Some(Arc::new(continued::start(&rs, saved)?));
        }
        Ok(rs)
    }

    fn encode_config(config: &GbacwConfig) -> Vec<u8> {
        continued::encode(config)
    }

    fn decode_config(bytes: &[u8], limit: usize) -> Result<GbacwConfig, crate::codec::DecodeError> {
        continued::decode(bytes, limit)
    }

    fn seats(&self) -> u8 {
        2
    }

    fn initial_state(&self) -> GbacwState {
        if let Some(start) = &self.start {
            return (**start).clone();
        }
        let s = &self.game;
        let units = s
            .oob
            .units
            .iter()
            .map(|(id, unit)| {
                let setup = s.units.get(id);
                let mut status = UnitStatus::fresh(unit);
                if let Some(set) = setup {
                    status.formation = set.formation;
                }
                let state = UnitState {
                    hex: setup.map(|x| x.hex),
                    facing: setup.map_or(
                        crate::gbacw::facing::Facing::new(hexx::EdgeDirection::FLAT_TOP),
                        |x| x.facing,
                    ),
                    status,
                    moved: Moved::default(),
                    killed: 0,
                    captured: 0,
                    rating: None,
                };
                (id.clone(), state)
            })
            .collect();
        let leaders = s
            .oob
            .leaders
            .keys()
            .map(|id| {
                let state = LeaderState {
                    hex: s.leaders.get(id).copied(),
                    moved: Moved::default(),
                    cp_spent: 0,
                    augmented: None,
                    casualty: None,
                };
                (id.clone(), state)
            })
            .collect::<BTreeMap<_, _>>();
        GbacwState {
            clock: decide::turns::first_clock(self),
            units,
            leaders,
            links: initial_links(self),
            command: CommandCheck::default(),
            decision: None,
            over: false,
            fire_plan: Vec::new(),
            rally_points: BTreeMap::new(),
            rally_tried: std::collections::BTreeSet::new(),
            fired_at: BTreeMap::new(),
            melees: Vec::new(),
            rbm: None,
            retreats: Vec::new(),
            progress: progress::ScenarioProgress {
                setting_up: self.setup_sides().into_iter().next(),
                to_arrive: s
                    .scenario
                    .arrivals
                    .iter()
                    .flat_map(|a| a.units.iter().cloned())
                    .collect(),
                // Corinth 31.1: "All hexes begin the game in Union control."
                hex_control: s
                    .scenario
                    .victory
                    .hexes_start
                    .iter()
                    .flat_map(|side| {
                        s.scenario
                            .victory
                            .hexes
                            .iter()
                            .map(move |h| (h.hex, side.clone()))
                    })
                    .collect(),
                ..progress::ScenarioProgress::default()
            },
            corn_down: std::collections::BTreeSet::new(),
            movement_start: BTreeMap::new(),
            succession: Default::default(),
            advance: None,
            turn_start: BTreeMap::new(),
            fired_this_turn: std::collections::BTreeSet::new(),
            retreat_fire: Vec::new(),
            rapid_fire: Default::default(),
            park_freed: false,
            solitaire_rolled: 0,
            reinforcements_attacked: std::collections::BTreeSet::new(),
            brigade_retreats: BTreeMap::new(),
            entered_at: BTreeMap::new(),
            held_off_map: Default::default(),
            night: Default::default(),
            leader_bindings: Vec::new(),
            battery_retreat: None,
            crews_away: BTreeMap::new(),
            held_brigade_runs: Vec::new(),
            crews_rallied: Default::default(),
            crews_moved: BTreeMap::new(),
            engaged_withdrawals: Vec::new(),
            leader_routs: Vec::new(),
            leaders_following: BTreeMap::new(),
            stack_order: BTreeMap::new(),
            restack: None,
            recrewed: BTreeMap::new(),
        }
    }

    /// Dice are rolled by the answers that say so, each asked of the
    /// kind of decision it answers (see [`awaiting::rolls`]). The acting
    /// client learns it here before it sends its chain link.
    fn rolls_dice(&self, state: &GbacwState, ctx: &ActionContext, action: &GbacwAction) -> bool {
        awaiting::rolls(self, state, ctx, action)
    }

    fn decide(
        &self,
        state: &GbacwState,
        ctx: &ActionContext,
        action: &GbacwAction,
        dice: &mut Dice,
    ) -> Result<Vec<GbacwEvent>, RuleError> {
        // Corinth 29.42: the set-up's end on a timeout is never refused.
        let by_default_end = ctx.by_default
            && *action == GbacwAction::EndSetUp
            && state.progress.setting_up.is_some()
            && !plan::plot_pending(self, state);
        // Refusals leave in printed names, never ids (DESIGN §3).
        let words = |e| crate::gbacw::words::refusal(self, e);
        let mut events = if by_default_end {
            decide::setup::end_setup_by_default(self, state).map_err(words)?
        } else {
            decide::decide(self, state, ctx.seat, action, dice).map_err(words)?
        };
        // What follows the decided action in the battle's rules (hook
        // `after_decided`).
        events.extend(self.battle().after_decided(self, state, ctx.seat, action));
        // The battle's own rule here (hook `after_action`).
        let after = self.battle().after_action(self, state, action, &events);
        events.extend(after);
        // GBACW 18.0: brigades whose BCE these events broke.
        let events = bce::with_bce_lost(self, state, events);
        // Cedar Mountain 27.22: who last occupied each victory hex.
        Ok(victory::with_hex_control(self, state, events))
    }

    fn evolve(&self, state: &mut GbacwState, event: &GbacwEvent) {
        event::evolve(state, event)
    }

    /// The Standard Rules have no hidden information; Corinth's secret
    /// assault plan (29.2) is seen only by the seat that plotted it (and
    /// the referee) until it is opened.
    fn view(&self, state: &GbacwState, viewer: Viewer) -> GbacwState {
        let mut s = state.clone();
        plan::redact_state(self, &mut s, viewer);
        s
    }

    fn view_event(
        &self,
        _before: &GbacwState,
        event: &GbacwEvent,
        viewer: Viewer,
    ) -> Option<GbacwEvent> {
        Some(plan::redact_event(self, event, viewer))
    }

    /// The decision the game waits for, with its default on a timeout
    /// (none while a phase's own actions are awaited).
    fn pending(&self, state: &GbacwState) -> Vec<PendingDecision<GbacwAction>> {
        let awaiting = self.awaiting(state);
        awaiting.pending(self, state).into_iter().collect()
    }

    fn legal_actions(&self, state: &GbacwState, seat: SeatId) -> Vec<GbacwAction> {
        self.awaiting(state).legal(self, state, seat)
    }

    /// Issue 18: the seat the decision model waits on.
    fn to_act(&self, state: &GbacwState) -> Vec<SeatId> {
        self.acting_seat(state).into_iter().collect()
    }

    /// Issue 18: what the decision model lets a seat take back.
    fn may_take_back(&self, state_before: &GbacwState, _action: &GbacwAction) -> bool {
        self.awaiting(state_before).may_take_back()
    }

    /// Cedar Mountain 27.0: the level of victory once the game is over.
    fn outcome(&self, state: &GbacwState) -> Option<Outcome> {
        victory::outcome(self, state)
    }

    /// GBACW 4.0: the seat [`Gbacw::acting_seat`] names answers; the
    /// Player-Turn is counted from the Game-Turn and the phasing player
    /// (an interphase belongs to the Player-Turn before it).
    fn clock_turn(&self, state: &GbacwState) -> Option<crate::engine::ClockTurn> {
        let seat = self.acting_seat(state)?;
        let second = matches!(state.clock.step.phasing(), Some(PlayerTurn::Second) | None);
        Some(crate::engine::ClockTurn {
            seat,
            player_turn: u32::from(state.clock.turn) * 2 + u32::from(second),
        })
    }

    /// GBACW 4.0: the Game-Turn and the step of the Sequence of Play, as
    /// the log names them.
    fn progress(&self, state: &GbacwState) -> Option<String> {
        Some(format!(
            "Game-Turn {}: {}",
            state.clock.turn,
            self.game().sequence.step_name(state.clock.step)
        ))
    }

    fn carried_from(&self) -> Option<String> {
        let start = self.start.as_ref()?;
        let step = self.game().sequence.step_name(start.clock.step);
        Some(match self.phasing_side(start.clock) {
            Some(side) => format!(
                "carried on from a saved game at Game-Turn {}, {} Player-Turn: {step}",
                start.clock.turn,
                crate::gbacw::words::side_name(self, side)
            ),
            None => format!(
                "carried on from a saved game at Game-Turn {}: {step}",
                start.clock.turn
            ),
        })
    }
}

/// The scenario options on at a table: the scenario's defaults, then the
/// table's choices; a choice naming no option of the battle is refused.
fn scenario_options(
    game: &Game,
    config: &GbacwConfig,
) -> Result<std::collections::BTreeSet<CounterId>, RuleError> {
    let known = &game.scenario.options;
    for name in config.scenario_options.keys() {
        if !known.iter().any(|o| o.id.0 == *name) {
            return Err(err(
                "GBACW config",
                RuleCode::Invalid,
                format!(
                    "{} has no option {name:?} (known: {})",
                    game.scenario.name,
                    known
                        .iter()
                        .map(|o| o.id.0.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
    }
    Ok(known
        .iter()
        .filter(|o| {
            config
                .scenario_options
                .get(&o.id.0)
                .copied()
                .unwrap_or(o.default_on)
        })
        .map(|o| o.id.clone())
        .collect())
}

/// GBACW 17.6: brigades that arrive detached from their division (Cedar
/// Mountain roster: "Thomas enters detached") start detached.
fn initial_links(rs: &Gbacw) -> BTreeMap<CounterId, crate::gbacw::command::DivisionLinks> {
    let mut links = BTreeMap::new();
    for a in &rs.game.scenario.arrivals {
        for b in &a.detached {
            if let Some(crate::gbacw::oob::LeaderRole::Brigade {
                division: Some(d), ..
            }) = rs.game.oob.leaders.get(b).map(|l| &l.role)
            {
                links.insert(
                    d.clone(),
                    crate::gbacw::command::DivisionLinks {
                        detached: Some(b.clone()),
                        attached: None,
                    },
                );
            }
        }
    }
    links
}

#[cfg(test)]
mod tests;
