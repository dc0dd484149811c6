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
    /// its strength now (and any point it gave a wagon's crew, 11.18), or all of it once it has left play other than by
    /// an exit hex. Nothing before it entered.
    pub fn strength_lost(&self, state: &GbacwState, unit: &CounterId) -> u32 {
        let (Some(u), Some(printed)) = (state.units.get(unit), self.game.oob.units.get(unit))
        else {
            return 0;
        };
        let p = &state.progress;
        // Corinth 27.3: a unit held off the map keeps its losses and is
        // not lost.
        let held = state.held_off_map.contains(unit);
        if (p.to_arrive.contains(unit) && !held) || p.setting_up.is_some() {
            return 0;
        }
        let printed = u32::from(printed.strength);
        if u.hex.is_none() && !p.exited.contains(unit) && !held {
            return printed;
        }
        // GBACW 11.18: a Strength Point given to crew a wagon is no loss.
        let given = state.recrewed.values().filter(|c| c.from == *unit).count();
        printed
            .saturating_sub(u32::from(u.status.strength))
            .saturating_sub(u32::try_from(given).unwrap_or(u32::MAX))
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
        // Cedar Mountain 27.21 Note: "If a brigade commander has been
        // promoted, he is considered a division commander for Victory
        // Point purposes." Promoted: leading a division now, or the one
        // whose brigade a pool counter took over when he was (17.83).
        let s = &state.succession;
        let promoted =
            |id: &CounterId| s.promoted.values().any(|p| p == id) || s.stand_ins.contains_key(id);
        for (id, c) in casualties {
            let leader = &oob.leaders[id];
            let value: LossValue = match (&leader.role, v.leaders.get(id)) {
                (_, Some(named)) => *named,
                (LeaderRole::Army { .. }, None) => LossValue::default(),
                (LeaderRole::Division { .. }, None) => price(LossKind::DivisionLeader),
                (LeaderRole::Brigade { .. }, None) if promoted(id) => {
                    price(LossKind::DivisionLeader)
                }
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

/// Corinth 31.1: one side's running total, by source, in half points
/// (positive for what it gains, negative for what it loses).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TallyScore {
    /// Objective hexes it controls now.
    pub hexes: i32,
    /// Enemy leaders lost less its own.
    pub leaders: i32,
    /// Enemy brigades at their BCE limit less its own (roster values).
    pub bce: i32,
    /// Enemy batteries captured or eliminated less its own.
    pub batteries: i32,
    /// The casualty differential (31.1): ⌈(enemy − own inf/cav SP lost) ÷ 5⌉.
    pub casualties: i32,
    /// Corinth 30.36: reserves still uncommitted after the first day.
    pub reserves: i32,
}

impl TallyScore {
    pub fn total(&self) -> i32 {
        self.hexes + self.leaders + self.bce + self.batteries + self.casualties + self.reserves
    }
}

/// Half points as the rules print them: `4`, `4½`, `-1`.
pub fn show_halves(h: i32) -> String {
    let sign = if h < 0 { "-" } else { "" };
    let a = h.unsigned_abs();
    match (a / 2, a % 2) {
        (0, 1) => format!("{sign}½"),
        (w, 1) => format!("{sign}{w}½"),
        (w, _) => format!("{sign}{w}"),
    }
}

impl Gbacw {
    /// Corinth 31.1: the tally side's total now; `None` when the battle
    /// scores each side apart (Cedar Mountain 27.0). Reserves count from
    /// the first day's determination on, as many as were uncommitted then
    /// (30.36).
    pub fn tally(&self, state: &GbacwState) -> Option<TallyScore> {
        let v = &self.game.scenario.victory;
        let t = v.tally.as_ref()?;
        let me = &t.side;
        let enemy = self.enemy_of(me);
        let mut score = TallyScore::default();
        if state.progress.setting_up.is_some() {
            return Some(score);
        }
        // Objective hexes controlled now.
        for h in &v.hexes {
            if state.progress.hex_control.get(&h.hex) == Some(me) {
                score.hexes += i32::from(h.halves);
            }
        }
        // Leaders and BCE as the two-sided schedule prices them.
        let vp = self.victory_points(state);
        let of = |s: &CounterId| vp.iter().find(|p| p.side == *s);
        if let (Some(mine), Some(theirs)) = (of(me), of(enemy)) {
            let signed = |a: u32, b: u32| 2 * (i64::from(a) - i64::from(b));
            score.leaders = i32::try_from(signed(mine.leaders, theirs.leaders)).unwrap_or(0);
            score.bce = i32::try_from(signed(mine.bce, theirs.bce)).unwrap_or(0);
        }
        // Batteries captured or eliminated, and infantry and cavalry lost.
        let oob = &self.game.oob;
        let mut lost_sp = [0i64; 2];
        for (id, unit) in &oob.units {
            let mine = unit.side == *me;
            let lost = self.strength_lost(state, id);
            match unit.kind {
                // Corinth 24.22: not for a crew lost with guns left.
                UnitKind::Battery { .. }
                    if lost > 0
                        && lost >= u32::from(unit.strength)
                        && self.battle().guns_count_as_lost(self, state, id) =>
                {
                    let pts = 2 * i32::from(t.battery);
                    score.batteries += if mine { -pts } else { pts };
                }
                UnitKind::Infantry | UnitKind::Cavalry => {
                    lost_sp[usize::from(mine)] += i64::from(lost);
                }
                _ => {}
            }
        }
        let diff = lost_sp[0] - lost_sp[1];
        if t.casualties_per > 0 && diff > 0 {
            let per = i64::from(t.casualties_per);
            score.casualties = i32::try_from(2 * ((diff + per - 1) / per)).unwrap_or(0);
        }
        if let Some(day) = state.progress.days.first() {
            score.reserves = -2 * i32::from(t.reserve) * i32::from(day.uncommitted);
        }
        Some(score)
    }
}

/// Corinth 31.2: the first day's determination when the Game-Turn `now`
/// ends and `next` (`None`: the game's end) is past a check's turn.
pub(crate) fn day_check(
    rs: &Gbacw,
    state: &GbacwState,
    now: u16,
    next: Option<u16>,
) -> Option<GbacwEvent> {
    let t = rs.game.scenario.victory.tally.as_ref()?;
    let check = t
        .checks
        .iter()
        .find(|c| now <= c.turn && next.is_none_or(|n| n > c.turn))?;
    if state.progress.days.iter().any(|d| d.turn == check.turn) {
        return None;
    }
    let reserves = &rs.game.scenario.reserves;
    let uncommitted = reserves
        .list
        .iter()
        .filter(|r| !state.progress.committed.contains(&r.id))
        .count();
    let uncommitted = u16::try_from(uncommitted).unwrap_or(u16::MAX);
    let mut score = rs.tally(state)?;
    score.reserves = -2 * i32::from(t.reserve) * i32::from(uncommitted);
    let halves = score.total();
    let winner = if halves >= check.win {
        Some(t.side.clone())
    } else if halves <= check.lose {
        Some(rs.enemy_of(&t.side).clone())
    } else {
        None
    };
    Some(GbacwEvent::DayDetermined(super::progress::DayRecord {
        turn: check.turn,
        halves,
        uncommitted,
        winner,
    }))
}

/// Corinth 31.2, 31.33: the outcome of a tallied game: the first day's
/// winner if the game ended then, else the band the final total is in.
fn tally_outcome(rs: &Gbacw, state: &GbacwState) -> Option<Outcome> {
    let scenario = &rs.game.scenario;
    let t = scenario.victory.tally.as_ref()?;
    let name = |s: &CounterId| {
        scenario
            .sides
            .iter()
            .find(|x| x.id == *s)
            .map_or(s.0.clone(), |x| x.name.clone())
    };
    if let Some(day) = state.progress.days.iter().find(|d| d.winner.is_some()) {
        let winner = day.winner.as_ref()?;
        return Some(Outcome {
            winner: Some(rs.seat_of(winner)),
            summary: format!(
                "{}: after Game-Turn {} the {} total is {} VP: {} wins on the first day",
                scenario.name,
                day.turn,
                name(&t.side),
                show_halves(day.halves),
                name(winner)
            ),
        });
    }
    let score = rs.tally(state)?;
    let total = score.total();
    let band = t
        .bands
        .iter()
        .find(|b| b.to.is_none_or(|to| total <= to))
        .or(t.bands.last());
    let (winner, level) = match band {
        Some(b) => (b.winner.as_ref().map(|w| rs.seat_of(w)), b.name.clone()),
        None => (None, "no level".to_string()),
    };
    Some(Outcome {
        winner,
        summary: format!(
            "{}: {} total {} VP (hexes {}, leaders {}, BCE {}, batteries {}, casualties {}, reserves {}): {level}",
            scenario.name,
            name(&t.side),
            show_halves(total),
            show_halves(score.hexes),
            show_halves(score.leaders),
            show_halves(score.bce),
            show_halves(score.batteries),
            show_halves(score.casualties),
            show_halves(score.reserves),
        ),
    })
}

/// Cedar Mountain 27.1: once the game is over, the level of victory from
/// the difference of the totals; the lowest level (a draw) has no winner.
/// A tallied battle (Corinth 31.0) is judged by its bands instead.
pub(crate) fn outcome(rs: &Gbacw, state: &GbacwState) -> Option<Outcome> {
    if !state.over {
        return None;
    }
    let scenario = &rs.game.scenario;
    if scenario.victory.tally.is_some() {
        return tally_outcome(rs, state);
    }
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
    // Cedar Mountain 27.22 under the `vp-hex-stand` reading: control
    // changes only where units stand once the action is done.
    let at_end = rs.options.vp_hex_where_units_stand;
    let last = events.len() - 1;
    for (i, e) in events.into_iter().enumerate() {
        evolve(&mut s, &e);
        out.push(e);
        if at_end && i < last {
            continue;
        }
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
