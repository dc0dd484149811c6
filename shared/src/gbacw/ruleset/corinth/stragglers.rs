//! Corinth 26.2: straggler recovery, on when the scenario has
//! `hook straggler-recovery roll=5 day1-bce=1`.
//!
//! 21.1 puts a K. Straggler Recovery Phase after each night Player-Turn's
//! Final Command Phase, but 26.21 says "at the end of the turn both
//! players recover stragglers for those units which are eligible", and
//! eligibility ("may not move or fire withdrawal fire during a night
//! Game-Turn") is about the whole Game-Turn. The engine reads 26.21: one
//! recovery for both sides as the night Game-Turn ends (the last phase's
//! `EndPhase` rolls it), each regiment's die in unit id order. No player
//! chooses anything in it, so it needs no phase of its own.

use crate::engine::{Dice, RuleError};
use crate::gbacw::oob::{Command, CounterId, UnitKind};
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::scenario::HookKind;
use crate::gbacw::sequence::Clock;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// What the Corinth night rules remember (26.2, 26.3, 26.4).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct NightRecord {
    /// Corinth 26.21: units that moved (or changed formation, arrived,
    /// retreated) or fired in the current Game-Turn; cleared as each
    /// Game-Turn begins. Kept in every battle (it costs a set), read only
    /// where the rule is on.
    pub active: BTreeSet<CounterId>,
    /// Corinth 26.23: the Game-Turn each brigade first lost its BCE.
    pub bce_lost_on: BTreeMap<CounterId, u16>,
    /// Corinth 26.32: brigades whose limit is the second day's.
    pub bce_extended: BTreeSet<CounterId>,
    /// Corinth 26.3: the BCE Recovery Interphase has been held.
    pub bce_recovered: bool,
    /// Corinth 26.4: the Pre-Dawn Barrage under way.
    pub barrage: Option<super::barrage::Barrage>,
    /// Corinth 26.4: the Pre-Dawn Barrage is over.
    pub barrage_held: bool,
}

/// Keep [`NightRecord`] up to date with an event, before it is folded
/// (a new Game-Turn is seen against the old clock).
pub(crate) fn note(state: &mut GbacwState, event: &GbacwEvent) {
    use GbacwEvent as E;
    let turn = state.clock.turn;
    let r = &mut state.night;
    match event {
        E::PhaseChanged { clock } if clock.turn != turn => r.active.clear(),
        E::UnitMoved { unit, .. }
        | E::FormationChanged { unit, .. }
        | E::UnitRetreated { unit, .. }
        | E::UnitArrived { unit, .. } => {
            r.active.insert(unit.clone());
        }
        E::FireResolved(report) => r.active.extend(report.firers.iter().cloned()),
        E::BceLost { brigade } => {
            r.bce_lost_on.entry(brigade.clone()).or_insert(turn);
        }
        _ => {}
    }
}

/// Corinth 26.2: one regiment's straggler roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StragglerRoll {
    pub unit: CounterId,
    pub die: u8,
    /// 26.23: -1 when its brigade reached BCE on the first day.
    pub modifier: i8,
    /// 26.22: one Strength Point regained (a killed box erased, 26.24,
    /// 26.25).
    pub recovered: bool,
}

/// Whether ending the current step ends a night Game-Turn with the rule
/// on (the `EndPhase` then rolls).
pub(crate) fn due(rs: &Gbacw, state: &GbacwState, next: Option<Clock>) -> bool {
    super::hook(rs, HookKind::StragglerRecovery).is_some()
        && super::is_night(rs, state.clock.turn)
        && next.is_none_or(|c| c.turn != state.clock.turn)
        && !eligible(rs, state).is_empty()
}

/// Corinth 26.21, 26.26, 26.27: infantry and cavalry regiments on the map
/// with more than one Strength Point lost (so one regained still leaves a
/// loss), at least one of them killed (26.25: a kill box is erased, never
/// a capture), that neither moved nor fired this Game-Turn. Batteries and
/// wagons never recover.
pub(crate) fn eligible(rs: &Gbacw, state: &GbacwState) -> Vec<CounterId> {
    state
        .units
        .iter()
        .filter(|(id, u)| {
            let Some(unit) = rs.game.oob.units.get(*id) else {
                return false;
            };
            matches!(unit.kind, UnitKind::Infantry | UnitKind::Cavalry)
                && u.hex.is_some()
                && u.status.strength > 0
                && u.killed > 0
                && unit.strength.saturating_sub(u.status.strength) > 1
                && !state.night.active.contains(*id)
        })
        .map(|(id, _)| id.clone())
        .collect()
}

/// Corinth 26.23: whether `brigade` reached BCE on the first day (before
/// the night's first Game-Turn).
fn reached_bce_on_day_one(rs: &Gbacw, state: &GbacwState, brigade: &CounterId) -> bool {
    let night_from = rs.game.scenario.night.as_ref().map_or(u16::MAX, |n| n.from);
    state
        .night
        .bce_lost_on
        .get(brigade)
        .is_some_and(|t| *t < night_from)
}

/// Corinth 26.22, 26.23: roll for every eligible regiment: 5 or 6 (after
/// the day-one BCE modifier) regains one Strength Point, if its hex can
/// hold it: GBACW 8.11's limits hold "at the same time" always, and 26.2
/// says nothing to lift them, so a regiment in a full hex regains nothing
/// (its roll shows `recovered: false`; the regiments before it in the
/// same hex count with what they regained).
pub(crate) fn recover(
    rs: &Gbacw,
    state: &GbacwState,
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let hook = super::hook(rs, HookKind::StragglerRecovery);
    let need = hook.and_then(|h| h.number("roll")).unwrap_or(5);
    let penalty = hook.and_then(|h| h.number("day1-bce")).unwrap_or(1);
    let mut out = Vec::new();
    let mut after = state.clone();
    for id in eligible(rs, state) {
        let die = u8::try_from(dice.roll(6)?).unwrap_or(1);
        let day_one = match &rs.game.oob.units[&id].command {
            Command::Brigade(b) => reached_bce_on_day_one(rs, state, b),
            Command::Independent => false,
        };
        let modifier = if day_one {
            -i8::try_from(penalty).unwrap_or(1)
        } else {
            0
        };
        let total = i16::from(die) + i16::from(modifier);
        let mut roll = StragglerRoll {
            unit: id,
            die,
            modifier,
            recovered: total >= i16::try_from(need).unwrap_or(5),
        };
        if roll.recovered {
            let mut tried = after.clone();
            evolve(&mut tried, &roll);
            if room_for(rs, &tried, &roll.unit) {
                after = tried;
            } else {
                roll.recovered = false;
            }
        }
        out.push(GbacwEvent::StragglerRolled(roll));
    }
    Ok(out)
}

/// GBACW 8.11: whether `unit`'s hex keeps to its stacking limits as the
/// state stands.
fn room_for(rs: &Gbacw, state: &GbacwState, unit: &CounterId) -> bool {
    let Some(hex) = state.units.get(unit).and_then(|u| u.hex) else {
        return true;
    };
    let side = &rs.game.oob.units[unit].side;
    crate::gbacw::ruleset::board::Board::new(rs, state)
        .check_stack(hex, side, &[], &[], None)
        .is_ok()
}

/// Fold a straggler roll: the regiment's strength marker up one, one
/// killed box erased (which erases one BCE box, 26.24, since the brigade's
/// boxes are worked out from its regiments' losses: `bce.rs`).
pub(crate) fn evolve(state: &mut GbacwState, roll: &StragglerRoll) {
    if !roll.recovered {
        return;
    }
    if let Some(u) = state.units.get_mut(&roll.unit)
        && u.killed > 0
    {
        u.killed -= 1;
        u.status.strength = u.status.strength.saturating_add(1);
    }
}
