//! The named hook points through which a battle's exclusive rules reach
//! the Standard Rules.
//!
//! The Standard Rules call `rs.battle().<hook>(rs, …)` at each place a
//! battle may add to them or change them; [`BattleRules`] names every such
//! place, and its default is the Standard Rules' own answer (no change).
//! A battle implements the trait once (its exclusive rules' folder holds
//! the implementation and the rules), and the table holds the battle's
//! implementation ([`crate::gbacw::ruleset::Gbacw::battle`]): the Standard
//! Rules modules name no battle. Each implementation's rules are still
//! switched on rule by rule by the scenario's `hook` lines.
//!
//! The hook points, by the part of the game they serve:
//! - the table: [`BattleRules::adjust_steps`], [`BattleRules::cleared_steps`];
//! - ground and sight: [`BattleRules::terrain_now`], [`BattleRules::ground`],
//!   [`BattleRules::raised_feet`], [`BattleRules::sight_blocked`],
//!   [`BattleRules::facing_in`];
//! - fire: [`BattleRules::check_fire_target`], [`BattleRules::check_firer`],
//!   [`BattleRules::fire_status`], [`BattleRules::ammunition_rules`],
//!   [`BattleRules::fire_shift`], [`BattleRules::fire_die_modifier`],
//!   [`BattleRules::prepare_fire`], [`BattleRules::after_attack`],
//!   [`BattleRules::ground_fired_on`];
//! - melee: `melee_*`, [`BattleRules::before_melees`];
//! - morale, rout and retreat: [`BattleRules::retreat_directions`],
//!   [`BattleRules::retreat_goals`], [`BattleRules::retreat_blocked`],
//!   `crew_*`, `brigade_retreat_*`;
//! - leaders and command: [`BattleRules::leader_may_affect`],
//!   [`BattleRules::spend_command_points`], [`BattleRules::radius_bonus`],
//!   [`BattleRules::no_divisional_integrity`], [`BattleRules::succession_order`];
//! - movement and formations: [`BattleRules::allowance`],
//!   [`BattleRules::step_cost`], `check_*`;
//! - arrivals and the end of actions: [`BattleRules::after_action`];
//! - night and the interphases: [`BattleRules::bce_limit`],
//!   [`BattleRules::between_steps`], [`BattleRules::end_of_final_command`];
//! - victory: [`BattleRules::guns_count_as_lost`];
//! - set-up: `setup_*`;
//! - the battle's own actions: [`BattleRules::decide_own`],
//!   [`BattleRules::legal_own`].

use crate::engine::{Dice, RuleError};
use crate::gbacw::charts::Mp;
use crate::gbacw::facing::Facing;
use crate::gbacw::los::Los;
use crate::gbacw::map::{HexNumber, Map, Terrain};
use crate::gbacw::melee::SideOutcome;
use crate::gbacw::movement::StepTable;
use crate::gbacw::oob::{CounterId, Formation, Unit, UnitKind, UnitStatus};
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::combat::attack::Prepared;
use crate::gbacw::ruleset::combat::effects::Hit;
use crate::gbacw::ruleset::combat::{Roller, Unfold};
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::exclusive::BatteryRetreatOffer;
use crate::gbacw::ruleset::scenario::Game;
use crate::gbacw::ruleset::state::{GbacwState, PlannedFire, RbmOffer, RetreatFireOffer};
use crate::gbacw::scenario::Problem;
use crate::gbacw::sequence::Clock;
use std::borrow::Cow;
use std::collections::BTreeSet;

/// Where a withdrawal fire or a retreat was interrupted, to go on with a
/// battle's own continuation (see [`BattleRules::resume_after_fire`]).
pub(crate) use crate::gbacw::ruleset::state::Resume;

/// How a routed unit rallies under a battle's own rule (see
/// [`BattleRules::rally_way`]).
pub(crate) enum OwnRally {
    /// By a die roll, `minus` off it, against the unit's rating.
    Die { minus: u8 },
    /// At once, without a roll.
    Automatic,
}

/// A set-up's default completion: orders the hexes a unit may take, best
/// first (see [`BattleRules::setup_unit_order`]).
pub(crate) type UnitOrder<'a> = Box<dyn Fn(&GbacwState, &CounterId, &mut [HexNumber]) + 'a>;

/// A battle's exclusive rules, as the Standard Rules call them. Every
/// method's default is the Standard Rules' answer.
#[allow(unused_variables)]
pub(crate) trait BattleRules: Send + Sync + std::fmt::Debug {
    // ---- The table -------------------------------------------------

    /// The movement step table, changed where the battle's ground differs
    /// from the Terrain Effects Chart.
    fn adjust_steps(&self, game: &Game, steps: &mut StepTable) {}

    /// A second step table for ground the battle's rules may clear during
    /// play (read for the hexes `GbacwState::corn_down` lists).
    fn cleared_steps(&self, game: &Game) -> Option<StepTable> {
        None
    }

    // ---- Ground and sight ------------------------------------------

    /// The terrain of `hex` as it stands now.
    fn terrain_now(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        hex: HexNumber,
    ) -> Option<BTreeSet<Terrain>> {
        rs.game.map.hex(hex).map(|h| h.terrain.clone())
    }

    /// The map as the ground stands now.
    fn ground<'a>(&self, rs: &'a Gbacw, state: &GbacwState) -> Cow<'a, Map> {
        Cow::Borrowed(&rs.game.map)
    }

    /// Feet a unit in `hex` stands above its ground for line of sight.
    fn raised_feet(&self, rs: &Gbacw, hex: HexNumber) -> u16 {
        0
    }

    /// An obstacle of the battle's own on a line GBACW 9.7 finds clear.
    fn sight_blocked(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        from: HexNumber,
        to: HexNumber,
    ) -> Option<Los> {
        None
    }

    /// The facing a unit in `hex` has for fire and ZOC, given its counter's.
    fn facing_in(&self, rs: &Gbacw, hex: HexNumber, stored: Facing) -> Facing {
        stored
    }

    // ---- Fire --------------------------------------------------------

    /// Whether `target` may be fired into at all (`enemy_there`: an enemy
    /// unit stands there).
    fn check_fire_target(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        target: HexNumber,
        enemy_there: bool,
    ) -> Result<(), RuleError> {
        Ok(())
    }

    /// Whether `unit` may fire now, before GBACW 9.2's own checks.
    fn check_firer(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        unit: &CounterId,
    ) -> Result<(), RuleError> {
        Ok(())
    }

    /// The status fire eligibility reads (the ammunition the battle counts).
    fn fire_status<'s>(
        &self,
        rs: &Gbacw,
        kind: &UnitKind,
        status: &'s UnitStatus,
    ) -> Cow<'s, UnitStatus> {
        Cow::Borrowed(status)
    }

    /// Whether the ammunition rules (GBACW 11.0) are played.
    fn ammunition_rules(&self, rs: &Gbacw) -> bool {
        true
    }

    /// Columns added to the terrain shift of fire at `target` from `firers`.
    fn fire_shift(&self, rs: &Gbacw, target: HexNumber, firers: &[HexNumber]) -> i32 {
        0
    }

    /// The fire die's modifier for an attack on `target` by `firers`
    /// standing in `hexes`.
    fn fire_die_modifier(
        &self,
        rs: &Gbacw,
        target: HexNumber,
        firers: &[CounterId],
        hexes: &[HexNumber],
    ) -> i8 {
        0
    }

    /// A planned fire prepared the battle's own way (its dice rolled into
    /// `u` first); `None`: GBACW 9.0's single attack.
    fn prepare_fire(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        plan: &PlannedFire,
        u: &mut Unfold,
        roll: &mut Roller,
    ) -> Option<Vec<Prepared>> {
        None
    }

    /// After an attack of the phase's plan is resolved.
    fn after_attack(&self, rs: &Gbacw, u: &mut Unfold, roll: &mut Roller, attack: &Prepared) {}

    /// What the ground fired into becomes (an event), once fired on.
    fn ground_fired_on(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        target: HexNumber,
        firers: &[CounterId],
        artillery: bool,
    ) -> Option<GbacwEvent> {
        None
    }

    /// A defender that is not a unit on the map: fired on (a lone piece of
    /// the battle's own in `target`), as the unit and status it fights as.
    fn lone_target(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        target: HexNumber,
        side: &CounterId,
    ) -> Option<(CounterId, Unit, UnitStatus)> {
        // GBACW 15.16, 15.1: a crew away from its guns, as Line infantry.
        crate::gbacw::ruleset::crews::piece::lone_crew(rs, state, target, side)
    }

    /// A fire result on such a lone target: `Some` with the deferred pins
    /// when the battle applied it.
    fn apply_lone_hit(
        &self,
        rs: &Gbacw,
        u: &mut Unfold,
        roll: &mut Roller,
        hit: &Hit,
    ) -> Option<Vec<CounterId>> {
        crate::gbacw::ruleset::crews::piece::is_crew_target(&u.state, hit.prepared)
            .then(|| crate::gbacw::ruleset::crews::piece::hit(rs, u, roll, hit))
    }

    // ---- Melee -------------------------------------------------------

    /// A lone defender of the battle's own in `target` (no unit there).
    fn melee_lone_defender(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        target: HexNumber,
        side: &CounterId,
    ) -> Option<CounterId> {
        None
    }

    /// A piece of the battle's own defending among the units in `target`.
    fn melee_stacked_defender(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        target: HexNumber,
        side: &CounterId,
    ) -> Option<CounterId> {
        None
    }

    /// The status such a defender (`id`) melees with.
    fn melee_piece_status(&self, state: &GbacwState, id: &CounterId) -> UnitStatus {
        state.units[id].status.clone()
    }

    /// The melee's result for a lone defender of the battle's own.
    fn melee_lone_result(
        &self,
        rs: &Gbacw,
        u: &mut Unfold,
        roll: &mut Roller,
        id: &CounterId,
        after: &UnitStatus,
        outcome: &SideOutcome,
    ) {
    }

    /// The melee's result for a defender of the battle's own stacked with
    /// units (`index`: its place among the defenders).
    #[allow(clippy::too_many_arguments)]
    fn melee_stacked_result(
        &self,
        rs: &Gbacw,
        u: &mut Unfold,
        roll: &mut Roller,
        id: &CounterId,
        index: usize,
        after: &UnitStatus,
        outcome: &SideOutcome,
    ) {
    }

    /// Whether the attackers' stacks may melee `target`.
    fn check_melee_stacking(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        target: HexNumber,
        attackers: &[CounterId],
    ) -> Result<(), RuleError> {
        Ok(())
    }

    /// Before the phase's melees are fought.
    fn before_melees(&self, rs: &Gbacw, u: &mut Unfold, roll: &mut Roller) {}

    /// The Strength Points crossing from `from` into `target` takes off the
    /// melee differential after the attack's cap.
    fn melee_crossing_penalty(&self, rs: &Gbacw, from: HexNumber, target: HexNumber) -> u16 {
        0
    }

    /// What the attackers lose off their total meleeing `target`.
    fn melee_differential_penalty(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        target: HexNumber,
        attackers: &[CounterId],
    ) -> i32 {
        0
    }

    /// A defender's melee strength.
    fn melee_defender_strength(&self, rs: &Gbacw, unit: &CounterId, strength: u16) -> u16 {
        strength
    }

    /// The most Strength Points that attack into `target`.
    fn melee_attack_cap(&self, rs: &Gbacw, target: HexNumber) -> Option<u16> {
        None
    }

    /// Whether retreating `units` before melee rolls dice.
    fn retreat_before_melee_rolls(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        units: &[CounterId],
    ) -> bool {
        false
    }

    /// Units retreating before melee (GBACW 12.81).
    fn retreat_before_melee(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        offer: &RbmOffer,
        units: &[CounterId],
        path: &[HexNumber],
        dice: &mut Dice,
    ) -> Result<Vec<GbacwEvent>, RuleError> {
        crate::gbacw::ruleset::combat::melee::retreat_before(rs, state, offer, units, path, dice)
    }

    // ---- Morale, rout and retreat ------------------------------------

    /// The edge directions `unit` may retreat in; `None`: any.
    fn retreat_directions(&self, rs: &Gbacw, unit: &CounterId) -> Option<Vec<hexx::EdgeDirection>> {
        None
    }

    /// The hexes `unit` retreats toward, then a fallback; `None`: none.
    fn retreat_goals(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        unit: &CounterId,
    ) -> Option<(BTreeSet<HexNumber>, Option<BTreeSet<HexNumber>>)> {
        None
    }

    /// Whether a retreat of `unit` that enters its goal
    /// ([`Self::retreat_goals`]) at the map's edge with hexes still to go
    /// ends there and goes off the map ([`Self::retreat_blocked`] says
    /// what becomes of it); `false`: it goes on along the map.
    fn retreat_leaves_at_goal(&self, rs: &Gbacw, state: &GbacwState, unit: &CounterId) -> bool {
        false
    }

    /// What becomes of `unit` when it must retreat and has no path (GBACW
    /// 14.2: captured), or goes off the map from its goal
    /// ([`Self::retreat_leaves_at_goal`]).
    fn retreat_blocked(&self, rs: &Gbacw, state: &GbacwState, unit: &CounterId) -> GbacwEvent {
        GbacwEvent::UnitRemoved {
            unit: unit.clone(),
            captured: true,
        }
    }

    /// Whether a routed `id` (guns, unlimbered or not) routs the battle's
    /// own way; `true` when the battle carried the rout out.
    /// GBACW 15.16: an unlimbered battery's crew routs away from its guns.
    fn guns_rout(&self, rs: &Gbacw, u: &mut Unfold, id: &CounterId) -> Option<bool> {
        if crate::gbacw::ruleset::crews::crew_routs(rs, &u.state, id) {
            crate::gbacw::ruleset::crews::abandon(rs, u, id);
            return Some(true);
        }
        None
    }

    /// Whether guns that would rout stay where they are.
    /// GBACW 13.25, 15.16: guns whose crew is away, or that leave a
    /// routed crew go, stay.
    fn guns_stay_in_rout(&self, rs: &Gbacw, u: &mut Unfold, id: &CounterId) -> bool {
        crate::gbacw::ruleset::crews::guns_stay_in_rout(rs, u, id)
    }

    /// Whether `id` is guns that do not move in rout, though limbered.
    fn guns_held_in_place(&self, rs: &Gbacw, id: &CounterId) -> bool {
        false
    }

    /// A brigade that retreats with its routed unit `id`: the brigade and
    /// its members.
    fn brigade_retreat(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        id: &CounterId,
    ) -> Option<(CounterId, Vec<CounterId>)> {
        None
    }

    /// Carry out such a brigade retreat.
    fn carry_out_brigade_retreat(
        &self,
        rs: &Gbacw,
        u: &mut Unfold,
        roll: &mut Roller,
        trigger: &CounterId,
        brigade: CounterId,
        members: Vec<CounterId>,
    ) {
    }

    /// Brigade runs a decision held go on once it is answered.
    fn resume_held_runs(&self, rs: &Gbacw, u: &mut Unfold, roll: &mut Roller) {}

    /// After a withdrawal fire at a battle's own continuation (`pinned`:
    /// the units the fire pinned).
    fn resume_after_fire(
        &self,
        rs: &Gbacw,
        u: &mut Unfold,
        roll: &mut Roller,
        hex: HexNumber,
        resume: &Resume,
        pinned: &[CounterId],
    ) {
        crate::gbacw::ruleset::crews::piece::resume_after_fire(rs, u, hex, resume, pinned);
    }

    /// After withdrawal fire at such a continuation was declined: every
    /// event, the decline first.
    fn resume_after_decline(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        resume: &Resume,
        dice: &mut Dice,
    ) -> Result<Vec<GbacwEvent>, RuleError> {
        Ok(crate::gbacw::ruleset::crews::piece::resume_after_decline(
            rs, state, side, resume,
        ))
    }

    /// Hexes holding pieces of the battle's own: friends in the way of a
    /// retreat of `mover` from `start`.
    fn friendly_pieces_in_the_way(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        mover: &CounterId,
        start: HexNumber,
    ) -> Vec<HexNumber> {
        Vec::new()
    }

    /// Hexes holding enemy pieces of the battle's own (enemy units to a
    /// retreat or to fire).
    fn enemy_pieces(&self, rs: &Gbacw, state: &GbacwState, side: &CounterId) -> Vec<HexNumber> {
        // GBACW 15.16: a lone enemy crew away from its guns is an enemy unit.
        crate::gbacw::ruleset::crews::piece::enemy_crew_hexes(rs, state, side)
    }

    /// Whether `hex` holds an enemy piece of the battle's own.
    fn enemy_piece_in(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        hex: HexNumber,
        side: &CounterId,
    ) -> bool {
        crate::gbacw::ruleset::crews::piece::enemy_crew_in(rs, state, hex, side)
    }

    /// Whether `mover` retreating along `path` displaces pieces of the
    /// battle's own.
    fn displaces_pieces(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        mover: &CounterId,
        path: &[HexNumber],
    ) -> bool {
        false
    }

    /// The steps of `path` where such pieces are displaced.
    fn displaced_piece_steps(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        mover: &CounterId,
        path: &[HexNumber],
    ) -> Vec<usize> {
        Vec::new()
    }

    /// Displace such pieces at step `at` (`top_routed`: what the top unit
    /// displaced there came to).
    #[allow(clippy::too_many_arguments)]
    fn displace_pieces(
        &self,
        rs: &Gbacw,
        u: &mut Unfold,
        roll: &mut Roller,
        mover: &CounterId,
        path: &[HexNumber],
        at: usize,
        top_routed: Option<bool>,
    ) {
    }

    /// A retreat fire offer at a piece of the battle's own, answered.
    fn answer_retreat_fire(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        offer: &RetreatFireOffer,
        firers: Option<&[CounterId]>,
        dice: &mut Dice,
    ) -> Option<Result<Vec<GbacwEvent>, RuleError>> {
        // GBACW 15.16: the crew away from its guns, routing on its own.
        crate::gbacw::ruleset::crews::piece::crew_hex(state, &offer.unit)
            .is_some()
            .then(|| {
                crate::gbacw::ruleset::crews::piece::answer_retreat_fire(
                    rs, state, offer, firers, dice,
                )
            })
    }

    /// Whether `unit` is a piece of the battle's own (not a unit on the
    /// map: it displaces nobody).
    fn is_own_piece(&self, state: &GbacwState, unit: &CounterId) -> bool {
        // GBACW 15.1: a crew away displaces nobody (it does not stack).
        crate::gbacw::ruleset::crews::piece::crew_hex(state, unit).is_some()
    }

    // ---- Rally -------------------------------------------------------

    /// Whether `id` may try to rally now.
    fn check_rally(&self, rs: &Gbacw, state: &GbacwState, id: &CounterId) -> Result<(), RuleError> {
        // GBACW 13.54, 15.16: a crew away rallies where it stands, once.
        crate::gbacw::ruleset::crews::piece::check_rally(rs, state, id)
    }

    /// How `side`'s routed `unit` in `hex` rallies under the battle's own
    /// rule; `None`: the Standard Rules' ways (GBACW 13.5, 17.13).
    fn rally_way(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        hex: HexNumber,
        unit: &CounterId,
    ) -> Option<OwnRally> {
        None
    }

    /// The hex `id`'s rally is tried in (it stands in `hex`).
    fn rally_hex(&self, state: &GbacwState, id: &CounterId, hex: HexNumber) -> HexNumber {
        crate::gbacw::ruleset::crews::piece::rally_hex(state, id, hex)
    }

    // ---- Leaders and command -----------------------------------------

    /// Whether `leader` may affect `unit` at all.
    fn leader_may_affect(&self, rs: &Gbacw, leader: &CounterId, unit: &CounterId) -> bool {
        true
    }

    /// Command Points spent the battle's own way: `None` for GBACW 17.22's.
    fn spend_command_points(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        leader: &CounterId,
        receiver: &CounterId,
        points: u8,
    ) -> Option<Result<Vec<GbacwEvent>, RuleError>> {
        None
    }

    /// Hexes added to a division's Divisional Integrity Radius.
    fn radius_bonus(&self, rs: &Gbacw, state: &GbacwState, division: &CounterId) -> u8 {
        0
    }

    /// Whether divisional integrity (17.21) is not used.
    fn no_divisional_integrity(&self, rs: &Gbacw) -> bool {
        false
    }

    /// Whether brigades may be detached or attached.
    fn check_links(&self, rs: &Gbacw) -> Result<(), RuleError> {
        Ok(())
    }

    /// A division's successors in the order they take command.
    fn succession_order(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        chain: Vec<CounterId>,
    ) -> Vec<CounterId> {
        chain
    }

    /// How many of `chain`'s first successors (in
    /// [`BattleRules::succession_order`]) tie for the player's choice:
    /// 1 where the order settles it.
    fn succession_ties(&self, rs: &Gbacw, state: &GbacwState, chain: &[CounterId]) -> usize {
        1
    }

    // ---- Movement and formations --------------------------------------

    /// A Movement Allowance as the battle has it now.
    fn allowance(&self, rs: &Gbacw, state: &GbacwState, printed: Mp) -> Mp {
        printed
    }

    /// The cost of a step into `to`.
    fn step_cost(&self, rs: &Gbacw, state: &GbacwState, to: HexNumber, cost: Mp) -> Mp {
        cost
    }

    /// Whether `unit` may change into `to`.
    fn check_formation_change(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        unit: &CounterId,
        to: Formation,
    ) -> Result<(), RuleError> {
        Ok(())
    }

    /// Whether out-of-command `unit` still moves freely.
    fn moves_freely(&self, rs: &Gbacw, state: &GbacwState, unit: &CounterId) -> bool {
        false
    }

    /// Whether `pieces` may move along `path`.
    fn check_move(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        pieces: &[CounterId],
        path: &[HexNumber],
    ) -> Result<(), RuleError> {
        Ok(())
    }

    /// Whether `piece` is held where it stands (may neither move nor
    /// fire): the case and the reason.
    fn held(&self, rs: &Gbacw, state: &GbacwState, piece: &CounterId) -> Option<(String, String)> {
        None
    }

    /// Whether `side` may take `action` at all now, before the phase's own
    /// checks (what a night forbids, say).
    fn check_action(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        action: &GbacwAction,
    ) -> Result<(), RuleError> {
        Ok(())
    }

    /// Whether a move of `side` may enter every hex of `path` (hexes kept
    /// clear of an assault's areas, say), after [`Self::held`].
    fn check_move_path(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        path: &[HexNumber],
    ) -> Result<(), RuleError> {
        Ok(())
    }

    /// Whether a move of `side` may enter `hex` now, for the movement
    /// queries: what [`Self::check_action`] accepts of a move.
    fn move_may_enter(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        board: &Board<'_>,
        side: &CounterId,
        hex: HexNumber,
    ) -> bool {
        true
    }

    /// An attempt of `side` to commit the scenario's `reserve`.
    fn commit_reserve(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        reserve: &CounterId,
        dice: &mut Dice,
    ) -> Result<Vec<GbacwEvent>, RuleError> {
        Err(crate::gbacw::ruleset::err(
            "GBACW 4.0",
            crate::engine::RuleCode::NotFound,
            format!("there is no reserve {reserve}"),
        ))
    }

    /// Whether an attempt to commit a reserve rolls a die now.
    fn commit_reserve_rolls(&self, rs: &Gbacw, state: &GbacwState) -> bool {
        false
    }

    /// Events that follow `seat`'s decided `action` before
    /// [`Self::after_action`] (reserves attacked, say).
    fn after_decided(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        seat: crate::ids::SeatId,
        action: &GbacwAction,
    ) -> Vec<GbacwEvent> {
        Vec::new()
    }

    /// Whether `side` may end its Movement Phase now.
    fn check_end_of_movement(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
    ) -> Result<(), RuleError> {
        Ok(())
    }

    // ---- Actions: what follows them, the battle's own -----------------

    /// Events that follow any accepted action (its `events`).
    fn after_action(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        action: &GbacwAction,
        events: &[GbacwEvent],
    ) -> Vec<GbacwEvent> {
        Vec::new()
    }

    /// Whether `unit`, ordered into `to`, must keep its formation.
    fn check_formation_order(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        unit: &CounterId,
        to: Formation,
    ) -> Result<(), RuleError> {
        Ok(())
    }

    /// Whether `pieces` may move at all (guns without their crew).
    fn check_pieces_move(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        pieces: &[CounterId],
    ) -> Result<(), RuleError> {
        // GBACW 15.16: guns whose crew is away stay.
        crate::gbacw::ruleset::crews::piece::check_guns_manned(rs, state, pieces)
    }

    /// Whether `units` may act (`what`: "fire") or are held, after
    /// [`Self::held`] (held pieces that may not even fire defensively).
    fn check_not_held(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        units: &[&CounterId],
        what: &str,
    ) -> Result<(), RuleError> {
        Ok(())
    }

    /// As a phase ends (after the phase's own events).
    fn at_phase_end(&self, rs: &Gbacw, state: &GbacwState) -> Option<GbacwEvent> {
        None
    }

    /// A fire plan's attack `index` made rapid fire.
    fn rapid_fire(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        index: u16,
    ) -> Result<Vec<GbacwEvent>, RuleError> {
        Err(crate::gbacw::ruleset::err(
            "GBACW 9.0",
            crate::engine::RuleCode::Illegal,
            "this battle has no rapid fire",
        ))
    }

    /// Fouled guns `unit` try to clear.
    fn unfoul(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        unit: &CounterId,
        dice: &mut Dice,
    ) -> Result<Vec<GbacwEvent>, RuleError> {
        Err(crate::gbacw::ruleset::err(
            "GBACW 9.0",
            crate::engine::RuleCode::Illegal,
            "this battle has no rapid fire",
        ))
    }

    /// A piece of the battle's own (a crew away from its guns) moves.
    fn move_own_piece(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        battery: &CounterId,
        path: &[HexNumber],
    ) -> Result<Vec<GbacwEvent>, RuleError> {
        // GBACW 15.16: a crew away from its guns moves.
        crate::gbacw::ruleset::crews::piece::move_crew(rs, state, side, battery, path)
    }

    /// The battle's own legal moves in the Movement Phase.
    fn legal_moves(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        out: &mut Vec<GbacwAction>,
    ) {
        // GBACW 15.16: crews away from their guns.
        crate::gbacw::ruleset::crews::piece::legal(rs, state, side, out);
    }

    /// The battle's own legal actions in a Fire Phase.
    fn legal_fire(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        out: &mut Vec<GbacwAction>,
    ) {
    }

    // ---- The battle's own decisions -------------------------------------

    /// Whether the plot is rolled (a solitaire version), not plotted.
    fn rolls_the_plot(&self, rs: &Gbacw) -> bool {
        false
    }

    /// The plot rolled.
    fn roll_plot(&self, rs: &Gbacw, dice: &mut Dice) -> Result<Vec<GbacwEvent>, RuleError> {
        Err(crate::gbacw::ruleset::err(
            "GBACW 4.0",
            crate::engine::RuleCode::Illegal,
            "this battle has no solitaire rolls",
        ))
    }

    /// Whether the battle's roll (the solitaire Division Arrival roll) is
    /// due now.
    fn roll_due(&self, rs: &Gbacw, state: &GbacwState) -> bool {
        false
    }

    /// That roll, rolled.
    fn arrival_roll(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        dice: &mut Dice,
    ) -> Result<Vec<GbacwEvent>, RuleError> {
        Err(crate::gbacw::ruleset::err(
            "GBACW 4.0",
            crate::engine::RuleCode::Illegal,
            "this battle has no solitaire rolls",
        ))
    }

    /// The case a battery retreat offer cites.
    fn battery_retreat_case(&self, rs: &Gbacw) -> String {
        "GBACW 4.0".into()
    }

    /// A battery retreat offer answered (`batteries`: those retreating).
    fn answer_battery_retreat(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        offer: &BatteryRetreatOffer,
        batteries: Option<&[CounterId]>,
        dice: &mut Dice,
    ) -> Result<Vec<GbacwEvent>, RuleError> {
        Err(crate::gbacw::ruleset::err(
            "GBACW 4.0",
            crate::engine::RuleCode::Illegal,
            "this battle has no battery retreats",
        ))
    }

    /// A barrage's fire at `target`.
    fn barrage_fire(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        target: HexNumber,
        firers: &[CounterId],
        dice: &mut Dice,
    ) -> Result<Vec<GbacwEvent>, RuleError> {
        Err(crate::gbacw::ruleset::err(
            "GBACW 4.0",
            crate::engine::RuleCode::Illegal,
            "there is no barrage now",
        ))
    }

    /// A barrage finished.
    fn barrage_end(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
    ) -> Result<Vec<GbacwEvent>, RuleError> {
        Err(crate::gbacw::ruleset::err(
            "GBACW 4.0",
            crate::engine::RuleCode::Illegal,
            "there is no barrage now",
        ))
    }

    /// A barrage's candidate attacks: target and battery.
    fn barrage_candidates(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
    ) -> Vec<(HexNumber, CounterId)> {
        Vec::new()
    }

    // ---- Night and the interphases ------------------------------------

    /// The BCE limit a brigade counts to now (the roster's: `roster`).
    fn bce_limit(&self, rs: &Gbacw, state: &GbacwState, brigade: &CounterId, roster: u16) -> u16 {
        roster
    }

    /// In the Final Command Phase as it ends.
    fn end_of_final_command(&self, rs: &Gbacw, state: &GbacwState) -> Vec<GbacwEvent> {
        Vec::new()
    }

    /// Between the current step and `next` (after `events`, already
    /// decided for this step change).
    fn between_steps(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        next: Option<Clock>,
        events: &[GbacwEvent],
        dice: &mut Dice,
    ) -> Result<Vec<GbacwEvent>, RuleError> {
        Ok(Vec::new())
    }

    /// As the current step ends, a roll of the battle's own that may skip
    /// the Game-Turn the next step opens (its weather, say): the roll's
    /// event and the Game-Turn skipped; `None`: no roll.
    fn turn_skip_roll(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        dice: &mut Dice,
    ) -> Result<Option<(GbacwEvent, Option<u16>)>, RuleError> {
        Ok(None)
    }

    /// Whether [`Self::turn_skip_roll`] rolls as the current step ends.
    fn turn_skip_roll_due(&self, rs: &Gbacw, state: &GbacwState) -> bool {
        false
    }

    /// Whether passing to `next` rolls dice of the battle's own.
    fn between_steps_roll(&self, rs: &Gbacw, state: &GbacwState, next: Option<Clock>) -> bool {
        false
    }

    // ---- Victory -----------------------------------------------------

    /// Whether battery `id`, all its strength lost, counts as lost guns.
    fn guns_count_as_lost(&self, rs: &Gbacw, state: &GbacwState, id: &CounterId) -> bool {
        true
    }

    // ---- Set-up --------------------------------------------------------

    /// A placement a restriction refuses, allowed by the battle: `Some(Ok)`.
    fn setup_placement(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        id: &CounterId,
        hex: HexNumber,
    ) -> Option<Result<(), RuleError>> {
        None
    }

    /// Whether `hex` is exempt from a distance restriction.
    fn setup_exempt_hex(&self, rs: &Gbacw, hex: HexNumber) -> bool {
        false
    }

    /// The default completion's order of a unit's hexes (from `start`,
    /// the state the completion began with).
    fn setup_unit_order<'a>(
        &'a self,
        rs: &'a Gbacw,
        start: &GbacwState,
        side: &'a CounterId,
    ) -> UnitOrder<'a> {
        Box::new(|_, _, _| {})
    }

    /// Hexes a unit with no room in its area may still take.
    fn setup_fallback_hexes(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        id: &CounterId,
    ) -> Vec<HexNumber> {
        Vec::new()
    }

    /// The default completion's order of a leader's hexes.
    fn setup_leader_order(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        leader: &CounterId,
        hexes: &mut [HexNumber],
    ) {
    }

    /// Whether a scenario set-up problem is the battle's to judge.
    fn setup_problem_excused(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        problem: &Problem,
    ) -> bool {
        false
    }

    /// Events as `side`'s set-up ends (after [`Self::check_setup`]; `state`
    /// holds the whole set-up).
    fn at_setup_end(&self, rs: &Gbacw, state: &GbacwState, side: &CounterId) -> Option<GbacwEvent> {
        None
    }

    /// The battle's checks of `side`'s whole set-up.
    fn check_setup(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
    ) -> Result<(), RuleError> {
        Ok(())
    }

    /// Whether [`BattleRules::check_setup`] may refuse (costly to ask).
    fn setup_checks_whole(&self, rs: &Gbacw, side: &CounterId) -> bool {
        false
    }

    /// Whether, after `action`, the set-up can still be finished legally.
    fn setup_feasible_after(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        action: &GbacwAction,
    ) -> bool {
        true
    }
}

/// The Standard Rules alone (the `test` battle): every hook its default.
#[derive(Clone, Copy, Debug, Default)]
pub struct StandardRules;

impl BattleRules for StandardRules {}
