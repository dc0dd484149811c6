//! Validating actions into events. Who may act is checked here; each
//! submodule checks one part of the rules.

mod command;
pub(crate) mod formation;
pub(crate) mod movement;
mod sequence;

pub(crate) use sequence::melee_due;
pub(crate) mod withdrawal;
// Historical scenarios.
pub(crate) mod arrival;
pub(crate) mod restraint;
pub(crate) mod setup;
pub(crate) mod turns;

use super::action::GbacwAction;
use super::event::GbacwEvent;
use super::state::GbacwState;
use super::{Gbacw, combat, err};
use crate::engine::{Dice, RuleCode, RuleError};
use crate::gbacw::facing::{FacingMoment, may_change_facing};
use crate::gbacw::fire::FireOccasion;
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::CounterId;
use crate::gbacw::sequence::{Phase, Step};
use crate::ids::SeatId;

/// `seat`'s `action` decided against what the game waits for
/// ([`super::awaiting`]): the one dispatch every caller goes through.
pub(crate) fn decide(
    rs: &Gbacw,
    state: &GbacwState,
    seat: SeatId,
    action: &GbacwAction,
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    rs.awaiting(state).decide(rs, state, seat, action, dice)
}

/// A phase's own action by the phase's actor (`seat`, checked by the
/// caller), when no decision waits: each checked against the phase it
/// belongs to.
pub(crate) fn phase_action(
    rs: &Gbacw,
    state: &GbacwState,
    seat: SeatId,
    action: &GbacwAction,
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    use GbacwAction as A;
    let side = rs.side_of(seat);
    let phase = match state.clock.step {
        Step::Phase { phase, .. } => Some(phase),
        _ => None,
    };
    let in_phase = |want: Phase, rule: &str, what: &str| -> Result<(), RuleError> {
        if phase == Some(want) {
            Ok(())
        } else {
            Err(err(
                rule,
                RuleCode::Illegal,
                format!("{what} only in the {}", want),
            ))
        }
    };
    // Corinth 26.13, 26.15: night.
    restraint::night_check(rs, state, side, action)?;
    match action {
        A::EndPhase => {
            let mut events = sequence::end_phase(rs, state, side, dice)?;
            // Corinth 29.44.4: the park freed for good.
            events.extend(rs.battle().at_phase_end(rs, state));
            Ok(events)
        }
        A::Move { pieces, path } => {
            in_phase(Phase::Movement, "GBACW 5.0", "units move")?;
            // Corinth 30.0, 30.32: counters held back.
            restraint::check_free(rs, state, &pieces.iter().collect::<Vec<_>>(), "move")?;
            // Corinth 29.41: away from the Assault Areas until all are in.
            restraint::keep_away(rs, state, side, path)?;
            // Corinth 24.3: siege guns move one hex a turn, not into woods.
            rs.battle().check_move(rs, state, pieces, path)?;
            // Corinth 24.21: guns whose crew is away stay.
            rs.battle().check_pieces_move(rs, state, pieces)?;
            let plan = movement::plan(rs, state, side, pieces, path)?;
            let events = movement::execute(rs, state, &plan, false);
            // GBACW 8.0: a stop over the limits must stay mendable.
            movement::check_overstack_stop(rs, state, side, &plan, &events)?;
            Ok(events)
        }
        A::MoveCrew { battery, path } => {
            in_phase(Phase::Movement, "GBACW 5.0", "crews move")?;
            rs.battle().move_own_piece(rs, state, side, battery, path)
        }
        A::Face { unit, facing } => {
            let moment = FacingMoment {
                phase: phase.unwrap_or(Phase::InitialCommand),
                own_player_turn: rs.phasing_side(state.clock) == Some(side),
                after_melee: false,
            };
            may_change_facing(moment).map_err(|rule| {
                err(
                    rule,
                    RuleCode::Illegal,
                    "units change facing only in their own Movement Phase (or after melee)",
                )
            })?;
            formation::face(rs, state, side, unit, *facing)
        }
        A::ChangeFormation { unit, to } => {
            in_phase(Phase::Movement, "GBACW 6.22", "units change formation")?;
            restraint::check_free(rs, state, &[unit], "change formation")?;
            // Corinth 29.47: reinforcements stay in column.
            rs.battle().check_formation_order(rs, state, unit, *to)?;
            formation::change(rs, state, side, unit, *to)
        }
        A::SpendCommandPoints {
            division,
            brigade,
            points,
        } => {
            in_phase(
                Phase::InitialCommand,
                "GBACW 17.22",
                "Command Points are spent",
            )?;
            command::spend(rs, state, side, division, brigade, *points)
        }
        A::Detach { brigade } => {
            in_phase(
                Phase::InitialCommand,
                "GBACW 17.61",
                "brigades are detached",
            )?;
            command::detach(rs, state, side, brigade)
        }
        A::Attach { brigade, division } => {
            in_phase(
                Phase::InitialCommand,
                "GBACW 17.64",
                "brigades are attached",
            )?;
            command::attach(rs, state, side, brigade, division)
        }
        A::WithdrawalFire { .. } | A::DeclineWithdrawalFire => Err(err(
            "GBACW 10.1",
            RuleCode::Illegal,
            "no withdrawal fire is offered",
        )),
        A::DeclareFire { target, firers } => {
            let occasion = fire_occasion(phase).ok_or_else(|| {
                err(
                    "GBACW 4.0",
                    RuleCode::Illegal,
                    "units fire only in the Defensive and Offensive Fire Phases (or withdrawal fire)",
                )
            })?;
            // Corinth 30.32: reserves "may fire defensively" only.
            if occasion == FireOccasion::Offensive {
                let units: Vec<&CounterId> = firers.iter().map(|f| &f.unit).collect();
                restraint::check_free(rs, state, &units, "fire offensively")?;
            }
            // Corinth 29.44.4: the park "may not move or fire" (defensive
            // fire too).
            let units: Vec<&CounterId> = firers.iter().map(|f| &f.unit).collect();
            rs.battle().check_not_held(rs, state, &units, "fire")?;
            // Corinth 29.43: "may not ... perform any other action".
            if let Some(f) = firers
                .iter()
                .find(|f| restraint::hotel_frozen(rs, state, &f.unit))
            {
                return Err(err(
                    &rs.case_rule("29.43"),
                    RuleCode::Illegal,
                    format!(
                        "{} is in a brigade frozen by the Hotel until activated",
                        f.unit
                    ),
                ));
            }
            combat::declare::declare(rs, state, side, occasion, *target, firers)
        }
        // Corinth 24.1: rapid fire and unfouling, in a Fire Phase.
        A::RapidFire { index } => {
            fire_occasion(phase)
                .ok_or_else(|| err("GBACW 4.0", RuleCode::Illegal, "no Fire Phase is running"))?;
            rs.battle().rapid_fire(rs, state, side, *index)
        }
        A::Unfoul { unit } => rs.battle().unfoul(rs, state, side, unit, dice),
        A::CancelFire { index } => {
            fire_occasion(phase)
                .ok_or_else(|| err("GBACW 4.0", RuleCode::Illegal, "no Fire Phase is running"))?;
            combat::declare::cancel(state, *index)
        }
        A::DeclareMelee { target, attackers } => {
            in_phase(
                Phase::RetreatBeforeMelee,
                "GBACW 12.8",
                "melees are declared",
            )?;
            restraint::check_free(rs, state, &attackers.iter().collect::<Vec<_>>(), "melee")?;
            combat::melee::declare(rs, state, side, *target, attackers, false)
        }
        A::ReplaceLeader { lost, hex } => {
            in_phase(
                Phase::FinalCommand,
                "GBACW 17.8",
                "lost leaders are succeeded",
            )?;
            match combat::succession::succeed(rs, state, side, lost, Some(*hex))? {
                Some(e) => Ok(vec![e]),
                None => Err(err(
                    "GBACW 17.8",
                    RuleCode::Illegal,
                    format!("no unit of {lost}'s command is on the map"),
                )),
            }
        }
        A::TransferRounds { from, to, rounds } => {
            in_phase(
                Phase::AmmunitionResupply,
                "GBACW 11.33",
                "rounds are transferred",
            )?;
            combat::transfer::transfer(rs, state, side, from, to, *rounds)
        }
        A::WithdrawEngaged { units, path } => {
            in_phase(
                Phase::RetreatBeforeMelee,
                "GBACW 12.94",
                "engaged units withdraw",
            )?;
            combat::engaged::withdraw(rs, state, side, units, path, dice)
        }
        A::DeclareCharge { target, attackers } => {
            in_phase(
                Phase::RetreatBeforeMelee,
                "GBACW 16.24",
                "charges are declared",
            )?;
            combat::charge::declare(rs, state, side, *target, attackers)
        }
        A::RetreatFire { .. } | A::DeclineRetreatFire => Err(err(
            "GBACW 10.2",
            RuleCode::Illegal,
            "no retreat fire is offered",
        )),
        A::Advance { .. } | A::DeclineAdvance => Err(err(
            "GBACW 12.85",
            RuleCode::Illegal,
            "no advance is offered",
        )),
        A::RetreatBatteries { .. } | A::DeclineBatteryRetreat => Err(err(
            &rs.case_rule("25.26"),
            RuleCode::Illegal,
            "no batteries are offered a retreat",
        )),
        A::LeaderRout { .. } => Err(err(
            "GBACW 13.43",
            RuleCode::Illegal,
            "no leader is choosing whether to go with a routed unit",
        )),
        A::Retreat { .. } => Err(err(
            "GBACW 14.4",
            RuleCode::Illegal,
            "no retreat is waiting for a path",
        )),
        A::RetreatBeforeMelee { .. } | A::StandFast => Err(err(
            "GBACW 12.8",
            RuleCode::Illegal,
            "no melee is waiting for an answer",
        )),
        A::Resupply { wagon, unit } => {
            in_phase(Phase::AmmunitionResupply, "GBACW 11.23", "wagons resupply")?;
            combat::resupply::resupply(rs, state, side, wagon, unit)
        }
        A::Rally { unit } => {
            in_phase(Phase::Rally, "GBACW 13.51", "routed units rally")?;
            combat::rally::rally(rs, state, side, unit, dice)
        }
        A::PlaceUnit { .. } | A::PlaceLeader { .. } | A::EndSetUp => {
            setup::decide(rs, state, seat, action)
        }
        A::Arrive { piece, hex, facing } => {
            in_phase(
                Phase::Movement,
                &rs.case_rule("26.41"),
                "reinforcements enter",
            )?;
            arrival::arrive(rs, state, side, piece, *hex, *facing)
        }
        A::CommitReserve { reserve } => restraint::commit(rs, state, side, reserve, dice),
        A::SolitaireRoll => Err(err(
            &rs.case_rule("29.53"),
            RuleCode::Illegal,
            "no solitaire roll is due",
        )),
        A::BarrageFire { .. } | A::EndBarrage => Err(err(
            &rs.case_rule("26.4"),
            RuleCode::Illegal,
            "there is no Pre-Dawn Barrage now",
        )),
        A::PlotAssault { .. } => Err(err(
            &rs.case_rule("29.2"),
            RuleCode::Illegal,
            "the assault is plotted before the set-up",
        )),
        A::ExitMap { unit } => {
            in_phase(
                Phase::Movement,
                &rs.case_rule("27.23"),
                "units leave the map",
            )?;
            arrival::exit(rs, state, side, unit)
        }
    }
}

/// GBACW 4.0 C, D: the kind of fire a Fire Phase holds.
pub(crate) fn fire_occasion(phase: Option<Phase>) -> Option<FireOccasion> {
    match phase {
        Some(Phase::DefensiveFire) => Some(FireOccasion::Defensive),
        Some(Phase::OffensiveFire) => Some(FireOccasion::Offensive),
        _ => None,
    }
}

/// The unit `id` of `side`, on the map: `NotFound`, `NotYours` or a
/// refusal naming 5.0 otherwise.
pub(crate) fn own_unit<'s>(
    rs: &Gbacw,
    state: &'s GbacwState,
    side: &CounterId,
    id: &CounterId,
) -> Result<(&'s super::state::UnitState, HexNumber), RuleError> {
    let u = state.units.get(id).ok_or_else(|| {
        err(
            "GBACW 3.3",
            RuleCode::NotFound,
            format!("there is no unit {id}"),
        )
    })?;
    if rs.game.oob.units[id].side != *side {
        return Err(err(
            "GBACW 3.3",
            RuleCode::NotYours,
            format!("{id} is the enemy's"),
        ));
    }
    match u.hex {
        Some(hex) => Ok((u, hex)),
        None => Err(err(
            "GBACW 5.0",
            RuleCode::Illegal,
            format!("{id} is not on the map"),
        )),
    }
}

/// The leader `id` of `side`, on the map.
pub(crate) fn own_leader<'s>(
    rs: &Gbacw,
    state: &'s GbacwState,
    side: &CounterId,
    id: &CounterId,
) -> Result<(&'s super::state::LeaderState, HexNumber), RuleError> {
    let l = state.leaders.get(id).ok_or_else(|| {
        err(
            "GBACW 3.3",
            RuleCode::NotFound,
            format!("there is no leader {id}"),
        )
    })?;
    if rs.game.oob.leaders[id].side != *side {
        return Err(err(
            "GBACW 3.3",
            RuleCode::NotYours,
            format!("{id} is the enemy's"),
        ));
    }
    match l.hex {
        Some(hex) => Ok((l, hex)),
        None => Err(err(
            "GBACW 17.0",
            RuleCode::Illegal,
            format!("{id} is not on the map"),
        )),
    }
}

/// GBACW 17.0: the command check, for queries.
pub(crate) fn command_check(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
) -> super::state::CommandCheck {
    command::check(rs, state, side)
}
