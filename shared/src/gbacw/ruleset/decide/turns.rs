//! What a scenario adds to the turn of the clock: omitted Player-Turns
//! (the scenario's `skip` lines), the victory hexes recorded at the end of
//! a Player-Turn, a day's victory determination, and entry hexes found
//! held by the enemy when a Movement Phase begins.

use crate::gbacw::oob::CounterId;
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::progress::HexRecord;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::sequence::{Clock, Phase, Step};
use std::collections::BTreeSet;

/// Whether the Player-Turn `clock` is in is omitted by the scenario (an
/// exclusive rule's Game-Turn One, say).
pub(crate) fn skipped(rs: &Gbacw, clock: Clock) -> bool {
    rs.phasing_side(clock)
        .is_some_and(|side| rs.game.scenario.skips(clock.turn, side))
}

/// The step play opens on: Game-Turn 1's first phase, past omitted
/// Player-Turns and interphases with nothing to do.
pub(crate) fn first_clock(rs: &Gbacw) -> Clock {
    let spec = &rs.game.sequence;
    let mut clock = Clock::start();
    while clock.step.phasing().is_none() || skipped(rs, clock) {
        match clock.next(spec) {
            Some(c) => clock = c,
            None => break,
        }
    }
    clock
}

/// The step after `clock` that play stops on: past interphases with
/// nothing to do and omitted Player-Turns; `None` at the game's end.
pub(crate) fn next_step(rs: &Gbacw, clock: Clock) -> Option<Clock> {
    let spec = &rs.game.sequence;
    let mut next = clock.next(spec);
    while let Some(c) = next
        && (c.step.phasing().is_none() || skipped(rs, c))
    {
        next = c.next(spec);
    }
    next
}

/// The events of passing from `state.clock` to `next` (`None`: the game
/// ends): 27.22's record when the scoring side's Player-Turn ends, 26.44's
/// check when a Movement Phase begins.
pub(crate) fn on_step_change(
    rs: &Gbacw,
    state: &GbacwState,
    next: Option<Clock>,
) -> Vec<GbacwEvent> {
    let mut events = Vec::new();
    let now = state.clock;
    let victory = &rs.game.scenario.victory;
    // Corinth 31.2: the first day's determination as its last turn ends.
    if next.is_none_or(|c| c.turn != now.turn)
        && let Some(e) =
            crate::gbacw::ruleset::victory::day_check(rs, state, now.turn, next.map(|c| c.turn))
    {
        events.push(e);
    }
    // 27.22: "awarded at the end of the Confederate Player-Turn and ...
    // recorded on the Union OB Roster each Game-Turn".
    let ends_player_turn =
        next.is_none_or(|c| c.turn != now.turn || c.step.phasing() != now.step.phasing());
    if ends_player_turn
        && !victory.hexes.is_empty()
        && victory.hexes_scored_after.as_ref() == rs.phasing_side(now)
    {
        events.push(GbacwEvent::VictoryHexesRecorded(HexRecord {
            turn: now.turn,
            control: victory
                .hexes
                .iter()
                .map(|h| (h.hex, state.progress.hex_control.get(&h.hex).cloned()))
                .collect(),
        }));
    }
    // 26.44: entry hexes held by the enemy when reinforcements are due.
    if let Some(c) = next
        && let Step::Phase {
            phase: Phase::Movement,
            player,
        } = c.step
    {
        let side = rs.side_of_turn(player).clone();
        let entries: BTreeSet<_> = state
            .progress
            .to_arrive
            .iter()
            .filter_map(|p| rs.game.scenario.arrival_of(p))
            .filter(|a| a.turn <= c.turn && arrival_side(rs, &a.units) == Some(&side))
            // Corinth 29.31: area arrivals have no single entry hex to block.
            .filter(|a| a.areas.is_empty())
            .map(|a| a.hex)
            .collect();
        for hex in entries {
            let held = state
                .units
                .iter()
                .any(|(id, u)| u.hex == Some(hex) && rs.game.oob.units[id].side != side);
            let since = state.progress.entry_blocked.get(&hex);
            match (held, since) {
                (true, None) => events.push(GbacwEvent::EntryBlocked { hex, turn: c.turn }),
                (false, Some(_)) => events.push(GbacwEvent::EntryCleared { hex }),
                _ => {}
            }
        }
    }
    events
}

fn arrival_side<'a>(rs: &'a Gbacw, units: &[CounterId]) -> Option<&'a CounterId> {
    let oob = &rs.game.oob;
    units.first().and_then(|u| {
        oob.units
            .get(u)
            .map(|x| &x.side)
            .or_else(|| oob.leaders.get(u).map(|l| &l.side))
    })
}
