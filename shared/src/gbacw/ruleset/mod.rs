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
pub mod bce;
pub(crate) mod board;
pub(crate) mod cedar;
pub(crate) mod combat;
pub mod config;
pub mod corinth;
mod decide;
pub mod event;
mod legal;
pub mod query;
// The client's drag-a-path preview (additive query).
pub mod path_query;
// The client's drawn command radius (additive query).
pub mod radius_query;
pub mod scenario;
pub mod state;
// Historical scenarios: set-up, arrivals, exits, victory.
pub mod plan;
// The client's plotting panel: the plan checked as the user edits it.
pub mod plan_query;
pub mod progress;
pub mod victory;
// The client's Pre-Dawn Barrage panel (Corinth 26.4): batteries, targets.
pub mod barrage_query;

pub use action::GbacwAction;
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
use std::collections::BTreeMap;

/// Seconds the other seat has to answer withdrawal fire in live play.
pub const WITHDRAWAL_DEADLINE_SECS: u32 = 60;

/// The GBACW ruleset for one battle.
#[derive(Clone, Debug)]
pub struct Gbacw {
    config: GbacwConfig,
    game: Game,
    options: RuleOptions,
    steps: StepTable,
    /// Cedar Mountain 21.43: the step table with every cornfield blown
    /// down, read for the hexes whose corn is down; `None` without the rule.
    steps_corn_down: Option<StepTable>,
    /// Cedar Mountain 22.3: the (provisional) Overshoot Table and Scatter
    /// Diagram; `None` without the rule.
    overshoot: Option<cedar::overshoot::OvershootTable>,
    /// The result tables (9.16, 12.98, 13.15, 17.76, 8.35, 11.34).
    tables: Tables,
    /// The scenario options on at this table (Cedar Mountain 26.3).
    scenario_options: std::collections::BTreeSet<CounterId>,
}

pub(crate) fn err(rule: &str, code: RuleCode, message: impl Into<String>) -> RuleError {
    RuleError::new(rule, code, message)
}

impl Gbacw {
    /// A table of `config` on an already loaded `game` (a shipped battle,
    /// or one written for a test by the test kit's position builder).
    pub fn with_game(config: &GbacwConfig, game: Game) -> Result<Gbacw, RuleError> {
        let options = config
            .rule_options()
            .map_err(|e| err("GBACW config", RuleCode::Invalid, e))?;
        let mut steps = StepTable::new(&game.map, &game.charts.movement);
        // Corinth 23.31: guns, wagons and horses enter town by road only.
        corinth::town::restrict_steps(&game, &mut steps);
        let tables = Tables::load(combat::TABLES).map_err(|e| {
            err(
                "GBACW tables",
                RuleCode::Invalid,
                format!("tables.toml: {e}"),
            )
        })?;
        let scenario_options = scenario_options(&game, config)?;
        let corn = cedar::corn::all_cornfields(
            &game.map,
            game.scenario
                .hook(crate::gbacw::scenario::HookKind::Cornfields)
                .is_some(),
        );
        let steps_corn_down = (!corn.is_empty()).then(|| {
            StepTable::new(
                &cedar::corn::cleared_map(&game.map, corn),
                &game.charts.movement,
            )
        });
        let overshoot = cedar::overshoot::load_for(&game.scenario)
            .map_err(|e| err("GBACW scenario", RuleCode::Invalid, e))?;
        corinth::solitaire::check_for(&game.scenario)
            .map_err(|e| err("GBACW scenario", RuleCode::Invalid, e))?;
        let rs = Gbacw {
            config: config.clone(),
            game,
            options,
            steps,
            steps_corn_down,
            overshoot,
            tables,
            scenario_options,
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

    /// Who acts now: the side setting up (Cedar Mountain 26.2), else the
    /// seat a decision waits on, else the phase's actor (4.0: the phasing
    /// player, the other one in the Defensive Fire Phase); `None` once the
    /// game is over.
    pub fn acting_seat(&self, state: &GbacwState) -> Option<SeatId> {
        if state.over {
            return None;
        }
        // Corinth 29.2: the plot comes before the Union's set-up.
        if plan::plot_pending(self, state) {
            return plan::plotting_seat(self);
        }
        // Cedar Mountain 26.2: the set-up comes before Game-Turn 1.
        if let Some(side) = &state.progress.setting_up {
            return Some(self.seat_of(side));
        }
        if let Some(d) = &state.decision {
            return Some(d.seat);
        }
        if let Some(r) = &state.rbm {
            return Some(r.seat);
        }
        if let Some(o) = state.retreat_fire.first() {
            return Some(o.seat);
        }
        if let Some(o) = state.retreats.first() {
            return Some(o.seat);
        }
        if let Some(a) = &state.advance {
            return Some(a.seat);
        }
        // Corinth 25.26: the batteries' owner.
        if let Some(o) = &state.battery_retreat {
            return Some(o.seat);
        }
        // Corinth 26.4: the Pre-Dawn Barrage's side.
        if let Some(seat) = corinth::barrage::acting_seat(self, state) {
            return Some(seat);
        }
        use crate::gbacw::sequence::Step;
        let (player, non_phasing) = match state.clock.step {
            Step::Phase { player, phase } => (player, phase.non_phasing_acts()),
            // An exclusive rule's phase: the phasing player runs it.
            Step::ExtraPhase { player, .. } => (player, false),
            Step::Interphase { .. } | Step::GameTurnRecord => return None,
        };
        let phasing = self.side_of_turn(player);
        let side = if non_phasing {
            self.enemy_of(phasing)
        } else {
            phasing
        };
        Some(self.seat_of(side))
    }
}

impl Ruleset for Gbacw {
    const ID: &'static str = "gbacw";
    type Config = GbacwConfig;
    type State = GbacwState;
    type Action = GbacwAction;
    type Event = GbacwEvent;

    fn new(config: &GbacwConfig) -> Result<Self, RuleError> {
        let game =
            Game::load(&config.battle).map_err(|e| err("GBACW scenario", RuleCode::Invalid, e))?;
        Gbacw::with_game(config, game)
    }

    fn seats(&self) -> u8 {
        2
    }

    fn initial_state(&self) -> GbacwState {
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
        }
    }

    /// Dice are rolled by: withdrawal fire (10.11); the end of a Fire
    /// Phase with attacks declared (9.42); a rally by die (13.54). The
    /// acting client learns it here before it sends its chain link.
    fn rolls_dice(&self, state: &GbacwState, ctx: &ActionContext, action: &GbacwAction) -> bool {
        use crate::gbacw::sequence::{Phase, Step};
        match action {
            // Corinth 29.51, 29.53: the solitaire assault's dice.
            GbacwAction::SolitaireRoll => true,
            GbacwAction::WithdrawalFire { .. } => state.decision.is_some(),
            // GBACW 12.83: declining lets the retreat before melee go on,
            // with its morale checks; Corinth 25.23: the brigade retreat's,
            // and those of the brigade retreats held behind it.
            GbacwAction::DeclineWithdrawalFire => state.decision.as_ref().is_some_and(|d| {
                matches!(
                    d.resume,
                    state::Resume::RetreatBeforeMelee { .. } | state::Resume::BrigadeRetreat { .. }
                ) || !state.held_brigade_runs.is_empty()
            }),
            GbacwAction::EndPhase => {
                state.decision.is_none()
                    && state.rbm.is_none()
                    && (decide::turns::heat_due(self, state).is_some()
                        // Corinth 26.2: the straggler rolls as a night turn ends.
                        || corinth::stragglers::due(
                            self,
                            state,
                            decide::turns::next_step(self, state.clock),
                        )
                        || match state.clock.step {
                            Step::Phase {
                                phase: Phase::DefensiveFire | Phase::OffensiveFire,
                                ..
                            } => !state.fire_plan.is_empty(),
                            Step::Phase {
                                phase: Phase::Melee,
                                ..
                            } => decide::melee_due(state),
                            _ => false,
                        })
            }
            // Corinth 25.26: retreating batteries check morale.
            GbacwAction::RetreatBatteries { .. } => {
                corinth::retreat_batteries::rolls(state, action)
            }
            // Corinth 24.1: the unfouling die.
            GbacwAction::Unfoul { .. } => true,
            GbacwAction::Rally { unit } => {
                combat::rally::rolls(self, state, self.side_of(ctx.seat), unit)
            }
            // GBACW 10.2: the shot; declining may let the retreat displace.
            GbacwAction::RetreatFire { .. } => !state.retreat_fire.is_empty(),
            GbacwAction::DeclineRetreatFire => state
                .retreat_fire
                .first()
                .is_some_and(|o| combat::retreat_fire::decline_rolls(self, state, o)),
            // GBACW 14.3: friends displaced by the chosen path check morale.
            GbacwAction::Retreat { unit, path } => state.retreats.first().is_some_and(|o| {
                o.unit == *unit && combat::effects::answer_rolls(self, state, o, path)
            }),
            // GBACW 12.94 option 3: each withdrawing unit checks morale.
            GbacwAction::WithdrawEngaged { units, .. } => {
                state.decision.is_none()
                    && state.rbm.is_none()
                    && state.retreats.is_empty()
                    && !units.is_empty()
            }
            GbacwAction::CommitReserve { .. } => decide::restraint::commit_rolls(self, state),
            // Corinth 26.42: a barrage attack is rolled at once.
            GbacwAction::BarrageFire { .. } => state.night.barrage.is_some(),
            GbacwAction::RetreatBeforeMelee { units, .. } => {
                state.rbm.is_some()
                    && (combat::melee::retreat_rolls(self, state, units)
                        || corinth::melee_gate::retreat_rolls(self, state, units))
            }
            _ => false,
        }
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
        // Corinth 30.33: a reserve attacked is committed.
        events.extend(decide::restraint::committed_by_attack(
            self, state, ctx.seat, action,
        ));
        // Corinth 29.43: the first combat; the Hotel brigades attacked.
        events.extend(decide::restraint::combat_marks(self, state, action));
        // Corinth 29.47: reinforcements attacked may leave column.
        events.extend(corinth::reinforcements::attacked(self, state, action));
        // Corinth 22.33: a leader used to bypass a check goes with them.
        let follow = corinth::leader_binding::follow(self, state, &events);
        events.extend(follow);
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

    fn pending(&self, state: &GbacwState) -> Vec<PendingDecision<GbacwAction>> {
        let rbm = state.rbm.iter().map(|r| PendingDecision {
            seat: r.seat,
            rule: "GBACW 12.8".to_string(),
            prompt: format!(
                "a melee is declared on {}: retreat before it ({}) or stand fast",
                r.target,
                r.threatened
                    .iter()
                    .map(|t| self.game.oob.units[t].designation.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            // Cedar Mountain 21.12: dismounted cavalry that must retreat does.
            default: cedar::cavalry::default_answer(self, state, r),
            deadline_secs: WITHDRAWAL_DEADLINE_SECS,
        });
        state
            .decision
            .iter()
            .map(|d| PendingDecision {
                seat: d.seat,
                rule: d.trigger.rule().to_string(),
                prompt: format!(
                    "{} may fire withdrawal fire at {} in {}",
                    d.firers
                        .iter()
                        .map(|f| self.game.oob.units[f].designation.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                    d.targets
                        .iter()
                        .map(|t| self.game.oob.units[t].designation.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                    d.hex
                ),
                default: GbacwAction::DeclineWithdrawalFire,
                deadline_secs: WITHDRAWAL_DEADLINE_SECS,
            })
            .chain(rbm)
            .chain(state.retreat_fire.first().map(|o| PendingDecision {
                seat: o.seat,
                rule: "GBACW 10.2".to_string(),
                prompt: format!(
                    "{} retreats into the Zone of Control of {} in {}: retreat fire?",
                    self.game.oob.units[&o.unit].designation,
                    o.firers
                        .iter()
                        .map(|f| self.game.oob.units[f].designation.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                    o.hex
                ),
                default: GbacwAction::DeclineRetreatFire,
                deadline_secs: WITHDRAWAL_DEADLINE_SECS,
            }))
            .chain(state.retreats.first().map(|o| PendingDecision {
                seat: o.seat,
                rule: "GBACW 14.4".to_string(),
                prompt: format!(
                    "{} retreats {} hexes: choose the path",
                    self.game.oob.units[&o.unit].designation, o.length
                ),
                default: combat::effects::default_retreat(self, state, o),
                deadline_secs: WITHDRAWAL_DEADLINE_SECS,
            }))
            .chain(
                state
                    .advance
                    .iter()
                    .filter(|_| state.retreats.is_empty())
                    .map(|a| PendingDecision {
                        seat: a.seat,
                        rule: "GBACW 12.85".to_string(),
                        prompt: format!("the defenders left {}: advance into it or not", a.hex),
                        default: GbacwAction::DeclineAdvance,
                        deadline_secs: WITHDRAWAL_DEADLINE_SECS,
                    }),
            )
            .chain(corinth::retreat_batteries::pending(self, state))
            .chain(decide::setup::pending(self, state))
            .chain(
                state.night.barrage.as_ref().map(|b| PendingDecision {
                    seat: self.seat_of(&b.side),
                    rule: self.case_rule("26.4"),
                    prompt:
                        "Pre-Dawn Barrage: fire your batteries (under 9 hexes, die -1) or finish"
                            .into(),
                    default: GbacwAction::EndBarrage,
                    deadline_secs: WITHDRAWAL_DEADLINE_SECS,
                }),
            )
            .chain(self.plot_decision(state))
            // Corinth 29.53: the solitaire Division Arrival roll.
            .chain(corinth::solitaire::pending(self, state))
            .collect()
    }

    fn legal_actions(&self, state: &GbacwState, seat: SeatId) -> Vec<GbacwAction> {
        legal::legal_actions(self, state, seat)
    }

    /// Cedar Mountain 27.0: the level of victory once the game is over.
    fn outcome(&self, state: &GbacwState) -> Option<Outcome> {
        victory::outcome(self, state)
    }
}

impl Gbacw {
    /// Corinth 29.2: the plot as a pending decision; its default is a plan
    /// that keeps the rules (every division on Game-Turn 1) with a zero
    /// salt (a plan the server chose is no secret from it anyway).
    fn plot_decision(&self, state: &GbacwState) -> Option<PendingDecision<GbacwAction>> {
        if !plan::plot_pending(self, state) {
            return None;
        }
        let spec = self.game.scenario.plan.as_ref()?;
        // Corinth 29.51: the solitaire version rolls instead.
        if corinth::solitaire::active(self) {
            return Some(PendingDecision {
                seat: self.seat_of(&spec.side),
                rule: self.case_rule("29.51"),
                prompt: "roll the Confederate assault: the first division and its Assault Area"
                    .into(),
                default: GbacwAction::SolitaireRoll,
                deadline_secs: decide::setup::SETUP_DEADLINE_SECS,
            });
        }
        let (plan, announce) = plan::default_plan(spec)?;
        Some(PendingDecision {
            seat: self.seat_of(&spec.side),
            rule: self.case_rule(&spec.case),
            prompt: "plot each division's Assault Area and Game-Turn of entry (secret), and announce one entering on Game-Turn 1".into(),
            default: GbacwAction::PlotAssault {
                plan,
                salt: [0; 32],
                announce,
            },
            deadline_secs: decide::setup::SETUP_DEADLINE_SECS,
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
