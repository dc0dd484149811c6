//! The GBACW deltas and how they fold into a state.

use super::progress::HexRecord;
use super::state::{Casualty, CommandCheck, GbacwState, Moved, WithdrawalDecision};
use crate::gbacw::charts::Mp;
use crate::gbacw::command::DivisionLinks;
use crate::gbacw::facing::Facing;
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, Formation};
use crate::gbacw::sequence::{Clock, Phase, Step};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GbacwEvent {
    /// GBACW 4.0: the sequence of play moved on to `clock`.
    PhaseChanged { clock: Clock },
    /// The last Game-Turn is over.
    GameEnded,
    /// GBACW 17.0: the Initial Command Phase's findings.
    CommandChecked(CommandCheck),
    /// GBACW 17.22.
    CommandPointsSpent {
        division: CounterId,
        brigade: CounterId,
        points: u8,
    },
    /// GBACW 17.6: a division's detached and attached brigades now.
    LinksChanged {
        division: CounterId,
        links: DivisionLinks,
    },
    /// A unit entered `to` facing `facing`, paying `cost`.
    UnitMoved {
        unit: CounterId,
        to: HexNumber,
        facing: Facing,
        cost: Mp,
    },
    /// A leader entered `to`, paying `cost`.
    LeaderMoved {
        leader: CounterId,
        to: HexNumber,
        cost: Mp,
    },
    /// GBACW 7.12, 8.42.
    FacingChanged { unit: CounterId, facing: Facing },
    /// GBACW 6.0, 6.22; `finished` for cavalry (6.22: at the end of movement).
    FormationChanged {
        unit: CounterId,
        to: Formation,
        cost: Mp,
        finished: bool,
    },
    /// GBACW 17.75: an enemy leader alone in a hex a unit entered.
    LeaderLost {
        leader: CounterId,
        casualty: Casualty,
    },
    /// GBACW 10.1, 6.23, 6.24: withdrawal fire offered to the other seat.
    WithdrawalFireOffered(WithdrawalDecision),
    /// The firing seat declined; the interrupted action goes on.
    WithdrawalFireDeclined,
    // --- Historical scenarios (folded by `progress::evolve`). ---
    /// Cedar Mountain 26.2: a unit set up (or set up again) before play.
    UnitPlaced {
        unit: CounterId,
        hex: HexNumber,
        facing: Facing,
        formation: Formation,
    },
    /// Cedar Mountain 26.2: a leader set up with his command.
    LeaderPlaced { leader: CounterId, hex: HexNumber },
    /// A side finished its set-up: `next` sets up now, or play begins.
    SetUpEnded { next: Option<CounterId> },
    /// Cedar Mountain 26.4, 26.46: a reinforcement entered at `hex`,
    /// paying `cost` for its place in the column.
    UnitArrived {
        unit: CounterId,
        hex: HexNumber,
        facing: Facing,
        formation: Formation,
        cost: Mp,
    },
    /// Cedar Mountain 26.4: a leader entered with the reinforcements.
    LeaderArrived {
        leader: CounterId,
        hex: HexNumber,
        cost: Mp,
    },
    /// Cedar Mountain 26.44: an entry hex held by the enemy when
    /// reinforcements were due there.
    EntryBlocked { hex: HexNumber, turn: u16 },
    /// The entry hex is clear again.
    EntryCleared { hex: HexNumber },
    /// Cedar Mountain 27.23: a unit left the map through an exit hex.
    UnitExited { unit: CounterId },
    /// Cedar Mountain 27.22: a combat unit of `side` occupied a victory hex.
    VictoryHexTaken { hex: HexNumber, side: CounterId },
    /// Cedar Mountain 27.22: the victory hexes scored at the end of a
    /// Player-Turn.
    VictoryHexesRecorded(HexRecord),
}

/// Fold one event into a state (the full one or any viewer's copy).
pub(crate) fn evolve(state: &mut GbacwState, event: &GbacwEvent) {
    use GbacwEvent as E;
    match event {
        E::PhaseChanged { clock } => {
            state.clock = *clock;
            if let Step::Phase { phase, .. } = clock.step {
                match phase {
                    // 5.11: allowances start afresh each Movement Phase.
                    Phase::Movement => {
                        for u in state.units.values_mut() {
                            u.moved = Moved::default();
                        }
                        for l in state.leaders.values_mut() {
                            l.moved = Moved::default();
                        }
                    }
                    // 17.0, 17.22: command is found anew each Player-Turn.
                    Phase::InitialCommand => {
                        state.command = CommandCheck::default();
                        for l in state.leaders.values_mut() {
                            l.cp_spent = 0;
                            l.augmented = None;
                        }
                    }
                    _ => {}
                }
            }
        }
        E::GameEnded => state.over = true,
        E::CommandChecked(check) => state.command = check.clone(),
        E::CommandPointsSpent {
            division,
            brigade,
            points,
        } => {
            if let Some(d) = state.leaders.get_mut(division) {
                d.cp_spent = d.cp_spent.saturating_add(*points);
            }
            if let Some(b) = state.leaders.get_mut(brigade) {
                let before = b.augmented.as_ref().map_or(0, |(_, p)| *p);
                b.augmented = Some((division.clone(), before.saturating_add(*points)));
            }
        }
        E::LinksChanged { division, links } => {
            if *links == DivisionLinks::default() {
                state.links.remove(division);
            } else {
                state.links.insert(division.clone(), links.clone());
            }
        }
        E::UnitMoved {
            unit,
            to,
            facing,
            cost,
        } => {
            if let Some(u) = state.units.get_mut(unit) {
                u.hex = Some(*to);
                u.facing = *facing;
                u.moved.mp = u.moved.mp + *cost;
                u.moved.hexes = u.moved.hexes.saturating_add(1);
            }
        }
        E::LeaderMoved { leader, to, cost } => {
            if let Some(l) = state.leaders.get_mut(leader) {
                l.hex = Some(*to);
                l.moved.mp = l.moved.mp + *cost;
                l.moved.hexes = l.moved.hexes.saturating_add(1);
            }
        }
        E::FacingChanged { unit, facing } => {
            if let Some(u) = state.units.get_mut(unit) {
                u.facing = *facing;
            }
        }
        E::FormationChanged {
            unit,
            to,
            cost,
            finished,
        } => {
            if let Some(u) = state.units.get_mut(unit) {
                u.status.formation = *to;
                u.moved.mp = u.moved.mp + *cost;
                u.moved.finished |= *finished;
            }
        }
        E::LeaderLost { leader, casualty } => {
            if let Some(l) = state.leaders.get_mut(leader) {
                l.hex = None;
                l.casualty = Some(*casualty);
            }
        }
        E::WithdrawalFireOffered(d) => state.decision = Some(d.clone()),
        E::WithdrawalFireDeclined => state.decision = None,
        E::UnitPlaced { .. }
        | E::LeaderPlaced { .. }
        | E::SetUpEnded { .. }
        | E::UnitArrived { .. }
        | E::LeaderArrived { .. }
        | E::EntryBlocked { .. }
        | E::EntryCleared { .. }
        | E::UnitExited { .. }
        | E::VictoryHexTaken { .. }
        | E::VictoryHexesRecorded(_) => super::progress::evolve(state, event),
    }
}
