//! Cedar Mountain 27.0: Victory Points and the level of victory, from
//! the state alone.
//!
//! - 27.21, losses: what each unit has lost is its printed strength less
//!   its strength now (`UnitStatus::strength`), and all of it once it is
//!   off the map without having exited (27.23) or still waiting to arrive.
//!   Of those, the points the state records as captured (`UnitState::
//!   captured`: melee C# results, 12.93; units captured whole for want of
//!   a retreat path, 13.31, 14.1) score at the captured price, the rest
//!   as eliminated; leaders score by the
//!   casualty the state records (wounded, killed, captured). Brigades at
//!   their BCE limit score their roster value.
//! - 27.22, victory hexes: the side that last occupied a hex with a combat
//!   unit controls it ([`with_hex_control`] watches every event); each
//!   Player-Turn end of the scoring side records a row of the track, and
//!   every controlled hex in a row is worth its points.
//! - 27.23, exits: points per unit exited, by the exit line.
//! - 27.1: the difference of the totals gives the level.

use super::Gbacw;
use super::event::{GbacwEvent, evolve};
use super::state::{Casualty, GbacwState};
use crate::engine::Outcome;
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, LeaderRole, UnitKind};
use crate::gbacw::scenario::{LossKind, LossValue};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One side's Victory Points, by source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VictoryPoints {
    pub side: CounterId,
    /// 27.21: enemy Strength Points and guns lost.
    pub losses: u32,
    /// 27.21: enemy leaders wounded, killed or captured.
    pub leaders: u32,
    /// 27.21: enemy brigades at their BCE limit (roster values).
    pub bce: u32,
    /// 27.22: victory hexes, per Game-Turn recorded.
    pub hexes: u32,
    /// 27.23: own units exited.
    pub exits: u32,
}

impl VictoryPoints {
    pub fn total(&self) -> u32 {
        self.losses + self.leaders + self.bce + self.hexes + self.exits
    }
}

impl Gbacw {
    /// Strength Points (guns) `unit` has lost so far: printed strength less
    /// its strength now, or all of it once it has left play other than by
    /// an exit hex. Nothing before it entered.
    pub fn strength_lost(&self, state: &GbacwState, unit: &CounterId) -> u32 {
        let (Some(u), Some(printed)) = (state.units.get(unit), self.game.oob.units.get(unit))
        else {
            return 0;
        };
        let p = &state.progress;
        if p.to_arrive.contains(unit) || p.setting_up.is_some() {
            return 0;
        }
        let printed = u32::from(printed.strength);
        if u.hex.is_none() && !p.exited.contains(unit) {
            return printed;
        }
        printed.saturating_sub(u32::from(u.status.strength))
    }

    /// Cedar Mountain 27.2: each side's Victory Points now, in seat order.
    pub fn victory_points(&self, state: &GbacwState) -> Vec<VictoryPoints> {
        let oob = &self.game.oob;
        let v = &self.game.scenario.victory;
        let mut out: BTreeMap<&CounterId, VictoryPoints> = self
            .game
            .seats
            .iter()
            .map(|s| {
                (
                    s,
                    VictoryPoints {
                        side: s.clone(),
                        losses: 0,
                        leaders: 0,
                        bce: 0,
                        hexes: 0,
                        exits: 0,
                    },
                )
            })
            .collect();
        if state.progress.setting_up.is_some() {
            return self.game.seats.iter().map(|s| out[s].clone()).collect();
        }
        let price = |kind: LossKind| v.losses.get(&kind).copied().unwrap_or_default();
        // 27.21: Strength Points and guns (crews score nothing).
        for (id, unit) in &oob.units {
            let kind = match unit.kind {
                UnitKind::Infantry => LossKind::Infantry,
                UnitKind::Cavalry => LossKind::Cavalry,
                UnitKind::Battery { .. } => LossKind::Gun,
                UnitKind::Wagon { .. } => continue,
            };
            let lost = self.strength_lost(state, id);
            let captured = state
                .units
                .get(id)
                .map_or(0, |u| u32::from(u.captured))
                .min(lost);
            let p = price(kind);
            if let Some(e) = out.get_mut(self.enemy_of(&unit.side)) {
                e.losses +=
                    (lost - captured) * u32::from(p.eliminated) + captured * u32::from(p.captured);
            }
        }
        // 27.21: leaders, by the casualty recorded.
        // 17.82: losses of counters that came back count too.
        let casualties = state
            .leaders
            .iter()
            .filter_map(|(id, l)| l.casualty.map(|c| (id, c)))
            .chain(state.succession.past_losses.iter().map(|(id, c)| (id, *c)));
        for (id, c) in casualties {
            let leader = &oob.leaders[id];
            let value: LossValue = match (&leader.role, v.leaders.get(id)) {
                (_, Some(named)) => *named,
                (LeaderRole::Army { .. }, None) => LossValue::default(),
                (LeaderRole::Division { .. }, None) => price(LossKind::DivisionLeader),
                _ => price(LossKind::BrigadeLeader),
            };
            let points = match c {
                Casualty::Wounded => value.wounded,
                Casualty::Killed => value.eliminated,
                Casualty::Captured => value.captured,
            };
            if let Some(e) = out.get_mut(self.enemy_of(&leader.side)) {
                e.leaders += u32::from(points);
            }
        }
        // 27.21: "enemy brigades which have reached their BCE limit".
        if v.bce_from_roster {
            for (b, bce) in &oob.bce {
                if super::bce::at_limit(self, state, b)
                    && let Some(e) = out.get_mut(self.enemy_of(&oob.leaders[b].side))
                {
                    e.bce += u32::from(bce.victory_points);
                }
            }
        }
        // 27.22: the track, row by row.
        let worth: BTreeMap<HexNumber, u16> = v.hexes.iter().map(|h| (h.hex, h.vp)).collect();
        for row in &state.progress.hex_track {
            for (hex, side) in &row.control {
                if let Some(s) = side.as_ref().and_then(|s| out.get_mut(s)) {
                    s.hexes += u32::from(worth.get(hex).copied().unwrap_or(0));
                }
            }
        }
        // 27.23: exited combat units and batteries.
        for id in &state.progress.exited {
            let side = &oob.units[id].side;
            let each = v
                .exits
                .iter()
                .filter_map(|e| e.vp.get(side))
                .copied()
                .max()
                .unwrap_or(0);
            if let Some(s) = out.get_mut(side) {
                s.exits += u32::from(each);
            }
        }
        self.game.seats.iter().map(|s| out[s].clone()).collect()
    }
}

/// Cedar Mountain 27.1: once the game is over, the level of victory from
/// the difference of the totals; the lowest level (a draw) has no winner.
pub(crate) fn outcome(rs: &Gbacw, state: &GbacwState) -> Option<Outcome> {
    if !state.over {
        return None;
    }
    let scenario = &rs.game.scenario;
    if scenario.victory.levels.is_empty() {
        return Some(Outcome {
            winner: None,
            summary: format!(
                "{}: the last Game-Turn is over (this battle has no victory conditions)",
                scenario.name
            ),
        });
    }
    let vp = rs.victory_points(state);
    let name = |s: &CounterId| {
        scenario
            .sides
            .iter()
            .find(|x| x.id == *s)
            .map_or(s.0.clone(), |x| x.name.clone())
    };
    let totals = vp
        .iter()
        .map(|p| format!("{} {} VP", name(&p.side), p.total()))
        .collect::<Vec<_>>()
        .join(", ");
    let (a, b) = (vp[0].total(), vp[1].total());
    let difference = a.abs_diff(b);
    let level = scenario
        .victory_level(u16::try_from(difference).unwrap_or(u16::MAX))
        .unwrap_or("draw");
    let lowest = scenario.victory.levels.first().map(|(n, _)| n.as_str());
    let leader = if a >= b { &vp[0].side } else { &vp[1].side };
    let (winner, verdict) = if Some(level) == lowest || a == b {
        (None, level.to_string())
    } else {
        (
            Some(rs.seat_of(leader)),
            format!("{} {level} victory", name(leader)),
        )
    };
    Some(Outcome {
        winner,
        summary: format!(
            "{}: {totals}; difference {difference}: {verdict}",
            scenario.name
        ),
    })
}

/// Cedar Mountain 27.22: "the last player to have actually occupied the
/// hex with a combat unit" controls it. Folds `events` on a copy of the
/// state and, after each, appends a `VictoryHexTaken` for every victory
/// hex a combat unit of a side not controlling it now stands in (moving
/// through counts). The set-up places; it does not occupy.
pub(crate) fn with_hex_control(
    rs: &Gbacw,
    state: &GbacwState,
    events: Vec<GbacwEvent>,
) -> Vec<GbacwEvent> {
    let hexes = &rs.game.scenario.victory.hexes;
    if hexes.is_empty() || state.progress.setting_up.is_some() || events.is_empty() {
        return events;
    }
    let mut s = state.clone();
    let mut out = Vec::with_capacity(events.len());
    for e in events {
        evolve(&mut s, &e);
        out.push(e);
        let taken: Vec<GbacwEvent> = hexes
            .iter()
            .filter_map(|h| {
                let (id, _) = s.units.iter().find(|(_, u)| u.hex == Some(h.hex))?;
                let side = &rs.game.oob.units[id].side;
                (s.progress.hex_control.get(&h.hex) != Some(side)).then(|| {
                    GbacwEvent::VictoryHexTaken {
                        hex: h.hex,
                        side: side.clone(),
                    }
                })
            })
            .collect();
        for t in taken {
            evolve(&mut s, &t);
            out.push(t);
        }
    }
    out
}
