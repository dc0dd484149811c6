//! The Battle of Corinth's exclusive rules at the Standard Rules' hook
//! points ([`BattleRules`]): each hook hands over to the rule's module in
//! this folder, which stays switched on by its scenario `hook` line.

use super::{
    barrage, bce_recovery, brigade_batteries, brigade_counts, brigade_retreat, cavalry, command,
    crew_melee, crew_stack, crews, free_batteries, heat, impetus, keep_moving, leader_binding,
    melee_gate, night, park, rapid_fire, redans, reinforcements, restraint, retreat,
    retreat_batteries, siege, solitaire, stragglers, town,
};
use crate::engine::{Dice, RuleError};
use crate::gbacw::charts::Mp;
use crate::gbacw::facing::Facing;
use crate::gbacw::map::HexNumber;
use crate::gbacw::melee::SideOutcome;
use crate::gbacw::movement::StepTable;
use crate::gbacw::oob::{CounterId, Formation, UnitStatus};
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::battle_rules::{BattleRules, OwnRally, Resume, UnitOrder};
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::combat::attack::Prepared;
use crate::gbacw::ruleset::combat::{Roller, Unfold};
use crate::gbacw::ruleset::crews as std_crews;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::exclusive::BatteryRetreatOffer;
use crate::gbacw::ruleset::scenario::Game;
use crate::gbacw::ruleset::state::{GbacwState, PlannedFire, RbmOffer};
use crate::gbacw::scenario::{Problem, Scenario};
use crate::gbacw::sequence::Clock;
use std::collections::BTreeSet;

/// The Battle of Corinth (seed 001): its scenarios' exclusive rules.
#[derive(Clone, Copy, Debug, Default)]
pub struct Corinth;

impl Corinth {
    /// The rules for `scenario`, its tables checked (29.5's solitaire
    /// tables where the scenario plays the solitaire version).
    pub fn for_scenario(scenario: &Scenario) -> Result<Corinth, String> {
        solitaire::check_for(scenario)?;
        Ok(Corinth)
    }
}

impl BattleRules for Corinth {
    /// Corinth 23.31: guns, wagons and horses enter town by road only.
    fn adjust_steps(&self, game: &Game, steps: &mut StepTable) {
        town::restrict_steps(game, steps);
    }

    /// Corinth 23.1, 23.28: inside the works or a redan, 10 feet higher.
    fn raised_feet(&self, rs: &Gbacw, hex: HexNumber) -> u16 {
        super::raised_feet(rs, hex)
    }

    /// Corinth 23.21, 23.22: a redan's occupant faces its front.
    fn facing_in(&self, rs: &Gbacw, hex: HexNumber, stored: Facing) -> Facing {
        redans::facing(rs, hex, stored)
    }

    /// Corinth 24.1: fouled guns may not fire.
    fn check_firer(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        unit: &CounterId,
    ) -> Result<(), RuleError> {
        rapid_fire::check_not_fouled(rs, state, unit)
    }

    /// Corinth 23.24: a redan's occupant one column left from any side.
    fn fire_shift(&self, rs: &Gbacw, target: HexNumber, firers: &[HexNumber]) -> i32 {
        redans::fire_shift(rs, target, firers)
    }

    /// Corinth 23.1, 21.3: the fire die's modifier.
    fn fire_die_modifier(
        &self,
        rs: &Gbacw,
        target: HexNumber,
        firers: &[CounterId],
        hexes: &[HexNumber],
    ) -> i8 {
        super::fire_die_modifier(rs, target, firers, hexes)
    }

    /// Corinth 24.1, 24.12: rapid fire doubles the guns and hits only the
    /// hex's infantry and cavalry.
    fn prepare_fire(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        p: &PlannedFire,
        _u: &mut Unfold,
        _roll: &mut Roller,
    ) -> Option<Vec<Prepared>> {
        if !p.rapid {
            return None;
        }
        let targets = rapid_fire::targets(rs, state, p);
        let doubled = rapid_fire::doubled(&p.firers);
        Some(
            crate::gbacw::ruleset::combat::attack::prepare(
                rs,
                state,
                p.target,
                &doubled,
                Some(&targets),
                None,
            )
            .ok()
            .map(|a| Prepared { rapid: true, ..a })
            .into_iter()
            .collect(),
        )
    }

    /// Corinth 24.1: the extra rounds, then the fouling roll.
    fn after_attack(&self, rs: &Gbacw, u: &mut Unfold, roll: &mut Roller, attack: &Prepared) {
        if attack.rapid {
            rapid_fire::after_attack(rs, u, roll, &attack.firers);
        }
    }

    /// Corinth 22.4: "a lone ... battery crew" away from its guns.
    fn melee_lone_defender(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        target: HexNumber,
        side: &CounterId,
    ) -> Option<CounterId> {
        crew_melee::defender(rs, state, target, side)
    }

    /// Corinth 24.21, GBACW 12.74: a crew away among friends defends too.
    fn melee_stacked_defender(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        target: HexNumber,
        side: &CounterId,
    ) -> Option<CounterId> {
        crew_melee::stacked_defender(rs, state, target, side)
    }

    /// Corinth 24.21, GBACW 6.13: a crew melees as Line infantry.
    fn melee_piece_status(&self, state: &GbacwState, id: &CounterId) -> UnitStatus {
        crew_melee::status(state, id)
    }

    /// Corinth 22.4, 24.21: the lone crew's lot.
    fn melee_lone_result(
        &self,
        rs: &Gbacw,
        u: &mut Unfold,
        roll: &mut Roller,
        id: &CounterId,
        after: &UnitStatus,
        outcome: &SideOutcome,
    ) {
        crew_melee::apply(rs, u, roll, id, after, outcome);
    }

    /// Corinth 24.21, GBACW 12.74, 12.92: the crew shares its friends' lot.
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
        crew_melee::apply_stacked(rs, u, roll, id, index, after, outcome);
    }

    /// Corinth 22.35 stacking of the attackers.
    fn check_melee_stacking(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        target: HexNumber,
        attackers: &[CounterId],
    ) -> Result<(), RuleError> {
        melee_gate::check_stacking(rs, state, target, attackers)
    }

    /// Corinth 22.2: the attackers' checks, before any melee is fought.
    fn before_melees(&self, rs: &Gbacw, u: &mut Unfold, roll: &mut Roller) {
        melee_gate::melee_checks(rs, u, roll);
    }

    /// Corinth 23.26: the redan's part of the hexside penalty.
    fn melee_crossing_penalty(&self, rs: &Gbacw, from: HexNumber, target: HexNumber) -> u16 {
        redans::crossing_penalty(rs, from, target)
    }

    /// Corinth 23.26: taken off the attackers' total after 23.25's cap.
    fn melee_differential_penalty(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        target: HexNumber,
        attackers: &[CounterId],
    ) -> i32 {
        redans::differential_penalty(rs, state, target, attackers)
    }

    /// Corinth 24.24 (optional): the 1st US Infantry crews, 0.
    fn melee_defender_strength(&self, rs: &Gbacw, unit: &CounterId, strength: u16) -> u16 {
        crews::melee_strength(rs, unit, strength)
    }

    /// Corinth 23.25: at most 4 Strength Points meleeing into a redan.
    fn melee_attack_cap(&self, rs: &Gbacw, target: HexNumber) -> Option<u16> {
        redans::melee_attack_cap(rs, target)
    }

    /// Corinth 22.1: the morale check to retreat before melee.
    fn retreat_before_melee_rolls(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        units: &[CounterId],
    ) -> bool {
        melee_gate::retreat_rolls(rs, state, units)
    }

    /// Corinth 22.1: a morale check first; failed, they stand.
    fn retreat_before_melee(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        offer: &RbmOffer,
        units: &[CounterId],
        path: &[HexNumber],
        dice: &mut Dice,
    ) -> Result<Vec<GbacwEvent>, RuleError> {
        melee_gate::retreat_before(rs, state, offer, units, path, dice)
    }

    /// Corinth 27.0: retreats toward a goal, then its fallback.
    fn retreat_goals(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        unit: &CounterId,
    ) -> Option<(BTreeSet<HexNumber>, Option<BTreeSet<HexNumber>>)> {
        retreat::goals(rs, state, unit)
    }

    /// Corinth 27.3: "A unit which is called on to retreat and which
    /// occupies or enters an Assault Area hex is always required to
    /// retreat off map if it still has hexes left in its retreat result."
    fn retreat_leaves_at_goal(&self, rs: &Gbacw, state: &GbacwState, unit: &CounterId) -> bool {
        retreat::leaves_at_goal(rs, state, unit)
    }

    /// Corinth 27.1: retreated off the map; 29.5 cavalry held off it.
    fn retreat_blocked(&self, rs: &Gbacw, state: &GbacwState, unit: &CounterId) -> GbacwEvent {
        retreat::no_path(rs, state, unit)
    }

    /// Corinth 24.3: siege guns' crews rout alone.
    fn guns_held_in_place(&self, rs: &Gbacw, id: &CounterId) -> bool {
        crews::siege_crew(rs, id)
    }

    /// Corinth 25.2: a broken brigade retreats with its routed unit.
    fn brigade_retreat(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        id: &CounterId,
    ) -> Option<(CounterId, Vec<CounterId>)> {
        brigade_retreat::triggered(rs, state, id)
    }

    fn carry_out_brigade_retreat(
        &self,
        rs: &Gbacw,
        u: &mut Unfold,
        roll: &mut Roller,
        trigger: &CounterId,
        brigade: CounterId,
        members: Vec<CounterId>,
    ) {
        brigade_retreat::carry_out(rs, u, roll, trigger, brigade, members);
    }

    /// Corinth 25.23: the brigade retreat goes on (the crew's move, the
    /// Standard Rules').
    fn resume_after_fire(
        &self,
        rs: &Gbacw,
        u: &mut Unfold,
        roll: &mut Roller,
        hex: HexNumber,
        resume: &Resume,
        pinned: &[CounterId],
    ) {
        match resume {
            Resume::BrigadeRetreat {
                unit,
                path,
                check,
                run,
            } => brigade_retreat::after_fire(
                rs,
                u,
                roll,
                hex,
                unit,
                path,
                *check,
                run.clone(),
                pinned,
            ),
            _ => std_crews::piece::resume_after_fire(rs, u, hex, resume, pinned),
        }
    }

    /// Corinth 25.23: the brigade retreat goes on, with its checks; 24.21:
    /// the crew's move goes on (further ZOCs left on the way draw
    /// withdrawal fire again).
    fn resume_after_decline(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        resume: &Resume,
        dice: &mut Dice,
    ) -> Result<Vec<GbacwEvent>, RuleError> {
        match resume {
            Resume::BrigadeRetreat {
                unit,
                path,
                check,
                run,
            } => {
                let mut u = Unfold::new(state);
                u.push(GbacwEvent::WithdrawalFireDeclined);
                let mut roll = Roller::new(dice);
                brigade_retreat::after_decline(
                    rs,
                    &mut u,
                    &mut roll,
                    unit,
                    path,
                    *check,
                    run.clone(),
                );
                roll.finish()?;
                Ok(u.events)
            }
            _ => Ok(std_crews::piece::resume_after_decline(
                rs, state, side, resume,
            )),
        }
    }

    /// Corinth 25.23: brigade runs held by a decision go on.
    fn resume_held_runs(&self, rs: &Gbacw, u: &mut Unfold, roll: &mut Roller) {
        brigade_retreat::resume_held(rs, u, roll);
    }

    /// Corinth 24.21, GBACW 14.3: a friendly crew away is a friend in the way.
    fn friendly_pieces_in_the_way(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        mover: &CounterId,
        start: HexNumber,
    ) -> Vec<HexNumber> {
        crew_stack::friendly_crew_hexes(rs, state, side, mover, start)
    }

    /// Corinth 24.21: crews away in the way are displaced too.
    fn displaces_pieces(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        mover: &CounterId,
        path: &[HexNumber],
    ) -> bool {
        crew_stack::displaces(rs, state, mover, path)
    }

    fn displaced_piece_steps(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        mover: &CounterId,
        path: &[HexNumber],
    ) -> Vec<usize> {
        crew_stack::crew_steps(rs, state, mover, path)
    }

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
        crew_stack::displace(rs, u, roll, mover, path, at, top_routed);
    }

    /// Corinth 29.61 (30.6): the assault impetus; 28.14: only leaders who
    /// may affect the unit count.
    fn rally_way(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        hex: HexNumber,
        unit: &CounterId,
    ) -> Option<OwnRally> {
        impetus::rally_way(rs, state, side, hex, unit)
    }

    /// Corinth 28.14: Price affects none of Lovell's units.
    fn leader_may_affect(&self, rs: &Gbacw, leader: &CounterId, unit: &CounterId) -> bool {
        command::leader_may_affect(rs, leader, unit)
    }

    /// Corinth 28.11, 28.21: army and division commanders raise brigade
    /// commanders' radii.
    fn spend_command_points(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        leader: &CounterId,
        receiver: &CounterId,
        points: u8,
    ) -> Option<Result<Vec<GbacwEvent>, RuleError>> {
        command::spend(rs, state, side, leader, receiver, points)
    }

    /// Corinth 21.2: no divisional integrity.
    fn no_divisional_integrity(&self, rs: &Gbacw) -> bool {
        command::no_divisional_integrity(rs)
    }

    /// Corinth 21.2: every brigade is independent.
    fn check_links(&self, rs: &Gbacw) -> Result<(), RuleError> {
        command::check_links(rs)
    }

    /// Corinth 28.32: the highest rank, then the higher ER.
    fn succession_order(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        chain: Vec<CounterId>,
    ) -> Vec<CounterId> {
        command::by_rank(rs, state, chain)
    }

    /// Corinth 28.32: "If there is still a tie, the player has his
    /// choice."
    fn succession_ties(&self, rs: &Gbacw, state: &GbacwState, chain: &[CounterId]) -> usize {
        command::tied(rs, state, chain)
    }

    /// Corinth 26.11: half as much again at night.
    fn allowance(&self, rs: &Gbacw, state: &GbacwState, printed: Mp) -> Mp {
        night::allowance(rs, state, printed)
    }

    /// Corinth 26.12: woods cost one more at night.
    fn step_cost(&self, rs: &Gbacw, state: &GbacwState, to: HexNumber, cost: Mp) -> Mp {
        night::step_cost(rs, state, to, cost)
    }

    /// Corinth 21.43: mount or dismount inside the brigade commander's ER.
    fn check_formation_change(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        unit: &CounterId,
        to: Formation,
    ) -> Result<(), RuleError> {
        cavalry::check_change(rs, state, unit, to)
    }

    /// Corinth 21.44: mounted cavalry moves freely out of the ER.
    fn moves_freely(&self, rs: &Gbacw, state: &GbacwState, unit: &CounterId) -> bool {
        cavalry::moves_freely(rs, state, unit)
    }

    /// Corinth 24.3: siege guns move one hex a turn, not into woods.
    fn check_move(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        pieces: &[CounterId],
        path: &[HexNumber],
    ) -> Result<(), RuleError> {
        siege::check_move(rs, state, pieces, path)
    }

    /// Corinth 30.0, 30.32: counters held back (the Game-Turn's own
    /// reinforcements only, the reserves until committed); 29.43: the
    /// Hotel brigades until activated; 29.44.4, 30.18: the artillery park.
    fn held(&self, rs: &Gbacw, state: &GbacwState, piece: &CounterId) -> Option<(String, String)> {
        restraint::held(rs, state, piece)
    }

    /// Corinth 26.13, 26.15: what night forbids.
    fn check_action(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        action: &GbacwAction,
    ) -> Result<(), RuleError> {
        restraint::night_check(rs, state, side, action)
    }

    /// Corinth 29.41: away from the Assault Areas until all are in.
    fn check_move_path(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        path: &[HexNumber],
    ) -> Result<(), RuleError> {
        restraint::keep_away(rs, state, side, path)
    }

    /// Corinth 26.13: at night, no hex next to the enemy; 29.41: no
    /// Union move near an Assault Area until all three divisions are in.
    fn move_may_enter(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        board: &Board<'_>,
        side: &CounterId,
        hex: HexNumber,
    ) -> bool {
        restraint::night_allows_entry(rs, state, board, side, hex)
            && restraint::keep_away_allows_entry(rs, state, side, hex)
    }

    /// Corinth 30.34, 30.35: commitment attempts.
    fn commit_reserve(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        reserve: &CounterId,
        dice: &mut Dice,
    ) -> Result<Vec<GbacwEvent>, RuleError> {
        restraint::commit(rs, state, side, reserve, dice)
    }

    /// Corinth 30.34: a commitment roll before Game-Turn 15 (30.35).
    fn commit_reserve_rolls(&self, rs: &Gbacw, state: &GbacwState) -> bool {
        restraint::commit_rolls(rs, state)
    }

    /// Corinth 30.33: a reserve attacked is committed; 29.43: the first
    /// combat, and the Hotel brigades attacked.
    fn after_decided(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        seat: crate::ids::SeatId,
        action: &GbacwAction,
    ) -> Vec<GbacwEvent> {
        let mut out = restraint::committed_by_attack(rs, state, seat, action);
        out.extend(restraint::combat_marks(rs, state, action));
        out
    }

    /// Corinth 30.13: Oliver's column keeps moving.
    fn check_end_of_movement(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
    ) -> Result<(), RuleError> {
        keep_moving::check(rs, state, side)
    }

    /// Corinth 29.47: reinforcements attacked may leave column; 22.33: a
    /// leader used to bypass a check goes with them.
    fn after_action(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        action: &GbacwAction,
        events: &[GbacwEvent],
    ) -> Vec<GbacwEvent> {
        let mut out: Vec<GbacwEvent> = reinforcements::attacked(rs, state, action)
            .into_iter()
            .collect();
        let mut all = events.to_vec();
        all.extend(out.iter().cloned());
        out.extend(leader_binding::follow(rs, state, &all));
        out
    }

    /// Corinth 29.47: reinforcements stay in column.
    fn check_formation_order(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        unit: &CounterId,
        to: Formation,
    ) -> Result<(), RuleError> {
        reinforcements::check_formation(rs, state, unit, to)
    }

    /// Corinth 29.44.4: the park "may not move or fire" (defensive fire
    /// too); 29.43: the Hotel brigades "may not ... perform any other
    /// action".
    fn check_not_held(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        units: &[&CounterId],
        what: &str,
    ) -> Result<(), RuleError> {
        park::check(rs, state, units, what)?;
        restraint::check_not_frozen(rs, state, units)
    }

    /// Corinth 29.44.4: the park freed for good.
    fn at_phase_end(&self, rs: &Gbacw, state: &GbacwState) -> Option<GbacwEvent> {
        park::freed_at_phase_end(rs, state)
    }

    /// Corinth 24.1: rapid fire.
    fn rapid_fire(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        index: u16,
    ) -> Result<Vec<GbacwEvent>, RuleError> {
        rapid_fire::make_rapid(rs, state, side, index)
    }

    /// Corinth 24.1: unfouling.
    fn unfoul(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        unit: &CounterId,
        dice: &mut Dice,
    ) -> Result<Vec<GbacwEvent>, RuleError> {
        rapid_fire::unfoul(rs, state, side, unit, dice)
    }

    /// Corinth 24.1: rapid fire and unfouling.
    fn legal_fire(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        out: &mut Vec<GbacwAction>,
    ) {
        rapid_fire::legal(rs, state, side, out);
    }

    /// Corinth 29.51: the solitaire version rolls what 29.2 plots.
    fn rolls_the_plot(&self, rs: &Gbacw) -> bool {
        solitaire::active(rs)
    }

    fn roll_plot(&self, rs: &Gbacw, dice: &mut Dice) -> Result<Vec<GbacwEvent>, RuleError> {
        solitaire::start(rs, dice)
    }

    /// Corinth 29.53: the solitaire Division Arrival roll.
    fn roll_due(&self, rs: &Gbacw, state: &GbacwState) -> bool {
        solitaire::roll_due(rs, state)
    }

    fn arrival_roll(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        dice: &mut Dice,
    ) -> Result<Vec<GbacwEvent>, RuleError> {
        solitaire::roll(rs, state, dice)
    }

    /// Corinth 25.26: a brigade retreat's batteries may retreat.
    fn battery_retreat_case(&self, rs: &Gbacw) -> String {
        retreat_batteries::case(rs)
    }

    fn answer_battery_retreat(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        offer: &BatteryRetreatOffer,
        batteries: Option<&[CounterId]>,
        dice: &mut Dice,
    ) -> Result<Vec<GbacwEvent>, RuleError> {
        retreat_batteries::answer(rs, state, offer, batteries, dice)
    }

    /// Corinth 26.42, 26.43.
    fn barrage_fire(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        target: HexNumber,
        firers: &[CounterId],
        dice: &mut Dice,
    ) -> Result<Vec<GbacwEvent>, RuleError> {
        barrage::fire(rs, state, side, target, firers, dice)
    }

    fn barrage_end(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
    ) -> Result<Vec<GbacwEvent>, RuleError> {
        barrage::end(rs, state, side)
    }

    fn barrage_candidates(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
    ) -> Vec<(HexNumber, CounterId)> {
        barrage::candidates(rs, state, side)
    }

    /// Corinth 26.32: a brigade's second-day limit once extended.
    fn bce_limit(&self, rs: &Gbacw, state: &GbacwState, brigade: &CounterId, roster: u16) -> u16 {
        bce_recovery::limit(rs, state, brigade, roster)
    }

    /// Corinth 26.15: melees still engaged as the day ends.
    fn end_of_final_command(&self, rs: &Gbacw, state: &GbacwState) -> Vec<GbacwEvent> {
        if night::end_of_day_due(rs, state) {
            night::end_of_day_retreats(rs, state)
        } else {
            Vec::new()
        }
    }

    /// Corinth 30.5: the heat roll as a Game-Turn begins; doubles skip it.
    fn turn_skip_roll(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        dice: &mut Dice,
    ) -> Result<Option<(GbacwEvent, Option<u16>)>, RuleError> {
        heat::roll(rs, state, dice)
    }

    /// Corinth 30.5: whether the heat roll is due.
    fn turn_skip_roll_due(&self, rs: &Gbacw, state: &GbacwState) -> bool {
        heat::heat_due(rs, state).is_some()
    }

    /// Corinth 26.2: straggler recovery as a night Game-Turn ends; 26.3:
    /// then the BCE Recovery Interphase after Game-Turn 20; 26.4: then
    /// the Pre-Dawn Barrage.
    fn between_steps(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        next: Option<Clock>,
        events: &[GbacwEvent],
        dice: &mut Dice,
    ) -> Result<Vec<GbacwEvent>, RuleError> {
        let mut out = Vec::new();
        if stragglers::due(rs, state, next) {
            out.extend(stragglers::recover(rs, state, dice)?);
        }
        if bce_recovery::due(rs, state, next) {
            let mut s = state.clone();
            for e in events.iter().chain(&out) {
                crate::gbacw::ruleset::event::evolve(&mut s, e);
            }
            out.push(bce_recovery::interphase(rs, &s));
        }
        if barrage::due(rs, state, next) {
            out.extend(barrage::open(rs));
        }
        Ok(out)
    }

    /// Corinth 26.2: the straggler rolls as a night turn ends.
    fn between_steps_roll(&self, rs: &Gbacw, state: &GbacwState, next: Option<Clock>) -> bool {
        stragglers::due(rs, state, next)
    }

    /// Corinth 24.22: not for a crew lost with guns left.
    fn guns_count_as_lost(&self, rs: &Gbacw, state: &GbacwState, id: &CounterId) -> bool {
        crews::guns_count_as_lost(rs, state, id)
    }

    /// Corinth 30.18: two independent batteries freed to go with a brigade.
    fn setup_placement(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        id: &CounterId,
        hex: HexNumber,
    ) -> Option<Result<(), RuleError>> {
        free_batteries::placement(rs, state, side, id, hex)
    }

    /// Corinth 29.41: inside the outer works is no nearer an Assault Area.
    fn setup_exempt_hex(&self, rs: &Gbacw, hex: HexNumber) -> bool {
        crate::gbacw::corinth::setup::inside_outer_works(&rs.game.map, hex)
    }

    /// Corinth 29.42: each brigade's units try the zone its count wants;
    /// 29.44.1: brigade batteries by their commander.
    fn setup_unit_order<'a>(
        &'a self,
        rs: &'a Gbacw,
        start: &GbacwState,
        side: &'a CounterId,
    ) -> UnitOrder<'a> {
        let aim = brigade_counts::aim(rs, start, side);
        Box::new(move |s, id, hexes| {
            if let Some(aim) = &aim {
                aim.order(rs, id, hexes);
            }
            if brigade_batteries::applies(rs, side) {
                brigade_batteries::order(rs, s, id, hexes);
            }
        })
    }

    /// Corinth 30.18: no room in its area, a freed battery goes with a
    /// brigade.
    fn setup_fallback_hexes(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        id: &CounterId,
    ) -> Vec<HexNumber> {
        free_batteries::fallback_hexes(rs, state, side, id)
    }

    /// Corinth 30.18: where the free batteries have a commander near;
    /// 29.44.1: where his batteries are within his radius.
    fn setup_leader_order(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        leader: &CounterId,
        hexes: &mut [HexNumber],
    ) {
        free_batteries::order_leader(rs, state, side, leader, hexes);
        if brigade_batteries::applies(rs, side) {
            brigade_batteries::order_leader(rs, state, leader, hexes);
        }
    }

    /// Corinth 30.18: a freed battery outside its area is that case's to
    /// judge.
    fn setup_problem_excused(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        problem: &Problem,
    ) -> bool {
        free_batteries::excused(rs, state, side, problem)
    }

    /// Corinth 29.43: the brigades by the Hotel are frozen.
    fn at_setup_end(&self, rs: &Gbacw, state: &GbacwState, side: &CounterId) -> Option<GbacwEvent> {
        restraint::freeze_at_setup(rs, state, side)
    }

    /// Corinth 29.42: the brigade counts of the whole set-up; 29.44.1:
    /// brigade batteries within their commander's radius; 30.18: the freed
    /// independent batteries.
    fn check_setup(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
    ) -> Result<(), RuleError> {
        brigade_counts::check(rs, state, side)?;
        brigade_batteries::check(rs, state, side)?;
        free_batteries::check(rs, state, side)
    }

    /// Corinth 29.42, 29.44.1 may refuse the end.
    fn setup_checks_whole(&self, rs: &Gbacw, side: &CounterId) -> bool {
        brigade_counts::applies(rs, side) || brigade_batteries::applies(rs, side)
    }

    /// Corinth 29.42, 29.44.1: only placements after which the set-up can
    /// still be finished legally.
    fn setup_feasible_after(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        action: &GbacwAction,
    ) -> bool {
        match action {
            GbacwAction::PlaceUnit { unit, hex, .. } => {
                brigade_counts::feasible_after(rs, state, side, unit, *hex)
                    && brigade_batteries::feasible_after(rs, state, side, unit, *hex)
            }
            GbacwAction::PlaceLeader { leader, hex } => {
                brigade_batteries::feasible_after(rs, state, side, leader, *hex)
            }
            _ => true,
        }
    }
}
