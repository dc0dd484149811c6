//! Corinth 22.33: "A leader who is stacked with units that retreat before
//! melee or initiate melee must remain stacked with those units if the
//! leader was used to bypass a Morale Check."
//!
//! On when the scenario has `hook leader-stays` (with 22.0's
//! `melee-initiation`: without the gate no check is ever bypassed).
//!
//! The reading, and why it fits the engine: a leader is "used" when
//! 22.0's gate would have rolled a check for the stack (22.1 for a
//! defender retreating before melee, 22.2 for attackers) and did not
//! because he stands with it (melee_gate's exemption, under 28.14). The
//! engine then records the binding (`LeaderBound`, folded into
//! `GbacwState::leader_bindings`) and the leader goes where they go: after
//! every action, a bound leader none of whose units is left in his hex is
//! moved (`LeaderMoved`, no Movement Points) to the hex of the first of
//! them still on the map. That covers every way the engine moves them
//! without their owner moving the leader: the retreat before melee itself
//! (at once, or once withdrawal fire is answered), a melee result's
//! retreat (the engine's path or the one the owner chose, 14.4) and a
//! rout (13.31, as 17.74 lets a leader go with routers). Refusing a
//! retreat path or a leader's move instead would need the leader in the
//! retreat action (`RetreatBeforeMelee` names units only) or would refuse
//! moves no player can make: leaders move only in Movement Phases, and
//! the binding ends as the next Movement Phase begins (the melee, its
//! retreats and routs are over by then), so moving him with them is the
//! whole of the rule here.
//!
//! Which leader: with several in the stack who could exempt it, the one
//! lowest in command (a brigade commander before a division commander
//! before an army commander, then by id) is taken to be the one used: it
//! keeps the higher commanders free, as a player would choose.

use crate::gbacw::charts::Mp;
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, LeaderRole};
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::scenario::HookKind;
use serde::{Deserialize, Serialize};

/// Corinth 22.33: `leader` was used to bypass a morale check of `units`
/// and stays with them until the next Movement Phase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaderBinding {
    pub leader: CounterId,
    pub units: Vec<CounterId>,
}

/// Whether the battle plays 22.33.
pub(crate) fn on(rs: &Gbacw) -> bool {
    rs.game.scenario.hook(HookKind::LeaderStays).is_some()
}

/// The leader of `side` in `hex` taken to exempt `units` from 22.0's
/// check: one who may affect all of them (28.14), the lowest in command
/// first. `None` if none may.
pub(crate) fn exempting_leader(
    board: &Board<'_>,
    hex: HexNumber,
    side: &CounterId,
    units: &[CounterId],
) -> Option<CounterId> {
    let rs = board.rs;
    let rank = |l: &CounterId| match rs.game.oob.leaders.get(l).map(|x| &x.role) {
        Some(LeaderRole::Brigade { .. } | LeaderRole::Replacement { .. }) => 0,
        Some(LeaderRole::Division { .. }) => 1,
        _ => 2,
    };
    let mut leaders: Vec<&CounterId> = board
        .leaders_of(hex, side)
        .into_iter()
        .filter(|l| {
            units
                .iter()
                .all(|u| super::command::leader_may_affect(rs, l, u))
        })
        .collect();
    leaders.sort_by_key(|l| (rank(l), (*l).clone()));
    leaders.first().map(|l| (*l).clone())
}

/// The binding event for `units` in `hex` exempted by a leader, if the
/// rule is on and one exempts them.
pub(crate) fn bound(
    rs: &Gbacw,
    state: &GbacwState,
    hex: HexNumber,
    side: &CounterId,
    units: &[CounterId],
) -> Option<GbacwEvent> {
    if !on(rs) || units.is_empty() {
        return None;
    }
    let leader = exempting_leader(&Board::new(rs, state), hex, side, units)?;
    Some(GbacwEvent::LeaderBound(LeaderBinding {
        leader,
        units: units.to_vec(),
    }))
}

/// The fold: a binding recorded; all of them end as a Movement Phase
/// begins (the melee and everything it moved are over).
pub(crate) fn evolve(state: &mut GbacwState, event: &GbacwEvent) {
    use crate::gbacw::sequence::{Phase, Step};
    match event {
        GbacwEvent::LeaderBound(b) => {
            state.leader_bindings.retain(|x| x.leader != b.leader);
            state.leader_bindings.push(b.clone());
        }
        GbacwEvent::PhaseChanged { clock } => {
            if matches!(
                clock.step,
                Step::Phase {
                    phase: Phase::Movement,
                    ..
                }
            ) {
                state.leader_bindings.clear();
            }
        }
        _ => {}
    }
}

/// Corinth 22.33 after an action's `events` (on `state` before them): each
/// bound leader none of whose units is left in his hex goes to the hex of
/// the first of them still on the map. Nothing to do (and no state copied)
/// when no binding is live.
pub(crate) fn follow(rs: &Gbacw, state: &GbacwState, events: &[GbacwEvent]) -> Vec<GbacwEvent> {
    if !on(rs) {
        return Vec::new();
    }
    let fresh = events
        .iter()
        .any(|e| matches!(e, GbacwEvent::LeaderBound(_)));
    if state.leader_bindings.is_empty() && !fresh {
        return Vec::new();
    }
    let mut after = state.clone();
    for e in events {
        crate::gbacw::ruleset::event::evolve(&mut after, e);
    }
    let mut out = Vec::new();
    for b in &after.leader_bindings {
        let Some(at) = after.leaders.get(&b.leader).and_then(|l| l.hex) else {
            continue;
        };
        let hexes: Vec<HexNumber> = b
            .units
            .iter()
            .filter_map(|u| after.units.get(u).and_then(|x| x.hex))
            .collect();
        if hexes.contains(&at) {
            continue;
        }
        if let Some(to) = hexes.first() {
            out.push(GbacwEvent::LeaderMoved {
                leader: b.leader.clone(),
                to: *to,
                cost: Mp::ZERO,
            });
        }
    }
    out
}
