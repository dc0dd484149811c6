//! What a historical scenario adds to the state beyond the Standard
//! sequence of play: the set-up step before Game-Turn 1, reinforcements
//! waiting off the map, units exited, and the victory record. Its deltas
//! fold here ([`evolve`]); `decide/setup.rs`, `decide/arrival.rs`,
//! `decide/turns.rs` and `victory.rs` make them.

use super::event::GbacwEvent;
use super::state::{GbacwState, Moved};
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::CounterId;
use crate::gbacw::sequence::Clock;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// One row of the Victory Point Hex Possession Track (Cedar Mountain
/// 27.22: "recorded on the Union OB Roster each Game-Turn").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HexRecord {
    pub turn: u16,
    /// Each victory hex and the side controlling it then (`None`:
    /// uncontrolled), in the scenario's order.
    pub control: Vec<(HexNumber, Option<CounterId>)>,
}

/// The reinforcements that entered at each hex in one Movement Phase
/// (Cedar Mountain 26.4: the k-th unit of the column pays k).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryColumn {
    /// The phase the counts belong to; other phases start from nothing.
    pub clock: Clock,
    pub entered: BTreeMap<HexNumber, u8>,
}

/// The scenario's part of the state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScenarioProgress {
    /// The side placing its counters before Game-Turn 1 (Cedar Mountain
    /// 26.2); `None` once play has begun.
    pub setting_up: Option<CounterId>,
    /// Units and leaders still off the map, waiting to arrive (26.4, 26.45).
    pub to_arrive: BTreeSet<CounterId>,
    /// This Movement Phase's entry columns.
    pub column: Option<EntryColumn>,
    /// Entry hexes found held by the enemy when reinforcements were due,
    /// with the Game-Turn they were first found so (Cedar Mountain 26.44).
    pub entry_blocked: BTreeMap<HexNumber, u16>,
    /// Units that left the map through an exit hex (Cedar Mountain 27.23).
    pub exited: BTreeSet<CounterId>,
    /// Victory hexes and the side that last occupied each with a combat
    /// unit (27.22); a hex not here is uncontrolled.
    pub hex_control: BTreeMap<HexNumber, CounterId>,
    /// The Victory Point Hex Possession Track, a row per Game-Turn.
    pub hex_track: Vec<HexRecord>,
    /// Corinth 30.3: the reserves committed so far.
    #[serde(default)]
    pub committed: BTreeSet<CounterId>,
    /// Corinth 30.34: the Game-Turn each reserve last rolled to commit.
    #[serde(default)]
    pub commit_rolls: BTreeMap<CounterId, u16>,
    /// Corinth 31.2: the early victory determinations made.
    #[serde(default)]
    pub days: Vec<DayRecord>,
    /// Corinth 30.5: the Game-Turns skipped for the heat.
    #[serde(default)]
    pub heat_skipped: Vec<u16>,
    /// Corinth 29.2: the secret assault plan (redacted per viewer).
    #[serde(default)]
    pub assault: Option<super::plan::AssaultState>,
    /// Corinth 29.43: the brigades frozen at the Hotel.
    #[serde(default)]
    pub frozen_brigades: BTreeSet<CounterId>,
    /// Corinth 29.43: they were attacked and are active.
    #[serde(default)]
    pub thawed: bool,
    /// The Game-Turn of the game's first fire or melee (Corinth 29.43).
    #[serde(default)]
    pub first_combat: Option<u16>,
}

/// Corinth 31.2: the total when the first day ended, and whether it ended
/// the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DayRecord {
    pub turn: u16,
    /// The tally side's total then, in half points.
    pub halves: i32,
    /// Corinth 30.36: the reserves still uncommitted then.
    pub uncommitted: u16,
    /// The game ended here, won by this side.
    pub winner: Option<CounterId>,
}

impl ScenarioProgress {
    /// How many units have entered at `hex` in the phase at `clock`.
    pub fn entered_at(&self, clock: Clock, hex: HexNumber) -> u8 {
        self.column
            .as_ref()
            .filter(|c| c.clock == clock)
            .and_then(|c| c.entered.get(&hex).copied())
            .unwrap_or(0)
    }
}

/// Fold one of the scenario's events into a state.
pub(crate) fn evolve(state: &mut GbacwState, event: &GbacwEvent) {
    use GbacwEvent as E;
    let p = &mut state.progress;
    match event {
        E::UnitPlaced {
            unit,
            hex,
            facing,
            formation,
        } => {
            if let Some(u) = state.units.get_mut(unit) {
                u.hex = Some(*hex);
                u.facing = *facing;
                u.status.formation = *formation;
            }
        }
        E::LeaderPlaced { leader, hex } => {
            if let Some(l) = state.leaders.get_mut(leader) {
                l.hex = Some(*hex);
            }
        }
        E::SetUpEnded { next } => p.setting_up = next.clone(),
        E::UnitArrived {
            unit,
            hex,
            facing,
            formation,
            cost,
        } => {
            p.to_arrive.remove(unit);
            // Corinth 27.1: remembered for the unit's retreats; 27.3: a
            // unit held off the map is back.
            state.entered_at.insert(unit.clone(), *hex);
            state.held_off_map.remove(unit);
            let clock = state.clock;
            let column = p.column.get_or_insert_with(|| EntryColumn {
                clock,
                entered: BTreeMap::new(),
            });
            if column.clock != clock {
                *column = EntryColumn {
                    clock,
                    entered: BTreeMap::new(),
                };
            }
            let n = column.entered.entry(*hex).or_default();
            *n = n.saturating_add(1);
            if let Some(u) = state.units.get_mut(unit) {
                u.hex = Some(*hex);
                u.facing = *facing;
                u.status.formation = *formation;
                u.moved = Moved {
                    mp: *cost,
                    hexes: 1,
                    finished: false,
                };
            }
        }
        E::LeaderArrived { leader, hex, cost } => {
            p.to_arrive.remove(leader);
            if let Some(l) = state.leaders.get_mut(leader) {
                l.hex = Some(*hex);
                l.moved = Moved {
                    mp: *cost,
                    hexes: 1,
                    finished: false,
                };
            }
        }
        E::EntryBlocked { hex, turn } => {
            p.entry_blocked.entry(*hex).or_insert(*turn);
        }
        E::EntryCleared { hex } => {
            p.entry_blocked.remove(hex);
        }
        E::UnitExited { unit } => {
            p.exited.insert(unit.clone());
            if let Some(u) = state.units.get_mut(unit) {
                u.hex = None;
            }
        }
        E::VictoryHexTaken { hex, side } => {
            p.hex_control.insert(*hex, side.clone());
        }
        E::VictoryHexesRecorded(row) => p.hex_track.push(row.clone()),
        E::ReserveRolled {
            reserve, committed, ..
        } => {
            p.commit_rolls.insert(reserve.clone(), state.clock.turn);
            if *committed {
                p.committed.insert(reserve.clone());
            }
        }
        E::ReserveCommitted { reserve, .. } => {
            p.committed.insert(reserve.clone());
        }
        E::DayDetermined(record) => p.days.push(record.clone()),
        E::BrigadesFrozen { brigades } => p.frozen_brigades = brigades.clone(),
        E::BrigadesThawed { .. } => p.thawed = true,
        E::FirstCombat { turn } => {
            p.first_combat.get_or_insert(*turn);
        }
        E::HeatRolled {
            turn,
            skipped: true,
            ..
        } => p.heat_skipped.push(*turn),
        _ => {}
    }
}
