//! What a scenario adds to the turn of the clock: omitted Player-Turns
//! (Cedar Mountain 26.1), the victory hexes recorded at the end of a
//! Player-Turn (27.22), and entry hexes found held by the enemy when a
//! Movement Phase begins (26.44).

use crate::gbacw::oob::CounterId;
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::progress::HexRecord;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::scenario::HookKind;
use crate::gbacw::sequence::{Clock, Phase, Step};
use std::collections::BTreeSet;

/// Cedar Mountain 26.1: whether the Player-Turn `clock` is in is omitted
/// ("On Game-Turn One, however, the Union Player-Turn is omitted").
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

/// Corinth 30.5: the Game-Turn whose heat roll ending the current step
/// makes, if any: the next step opens a new Game-Turn, the table plays
/// with the heat, the turn is in the hook's `turns=` ranges (GT 8-16 and
/// 25-31: none at night, none on the last turn), and no turn was skipped
/// in the `rest=` turns before it.
pub(crate) fn heat_due(rs: &Gbacw, state: &GbacwState) -> Option<u16> {
    let hook = rs.game.scenario.hook(HookKind::Heat)?;
    if let Some(option) = hook.param("when")
        && !rs.scenario_options().iter().any(|o| o.0 == option)
    {
        return None;
    }
    if state.progress.setting_up.is_some() {
        return None;
    }
    let next = next_step(rs, state.clock)?;
    let turn = next.turn;
    if turn == state.clock.turn {
        return None;
    }
    let in_range = hook.param("turns").is_some_and(|ranges| {
        ranges.split(',').any(|r| {
            let (a, b) = r.split_once('-').unwrap_or((r, r));
            match (a.parse::<u16>(), b.parse::<u16>()) {
                (Ok(a), Ok(b)) => (a..=b).contains(&turn),
                _ => false,
            }
        })
    });
    let rest = hook.number("rest").unwrap_or(2);
    let resting = state
        .progress
        .heat_skipped
        .iter()
        .any(|s| *s < turn && turn - *s <= rest);
    (in_range && !resting).then_some(turn)
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
