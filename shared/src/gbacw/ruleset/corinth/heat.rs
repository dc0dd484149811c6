//! Corinth 30.5: the heat. As a Game-Turn of the hook's ranges begins (the
//! table playing with the heat), two dice are rolled; doubles skip the
//! Game-Turn (at the hooks `turn_skip_roll` and `turn_skip_roll_due`,
//! `corinth/rules.rs`).

use crate::engine::{Dice, RuleError};
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::scenario::HookKind;

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
    let next = crate::gbacw::ruleset::decide::turns::next_step(rs, state.clock)?;
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

/// Corinth 30.5: the heat roll as a Game-Turn begins; doubles skip it.
/// The roll's event and the Game-Turn it skips.
pub(crate) fn roll(
    rs: &Gbacw,
    state: &GbacwState,
    dice: &mut Dice,
) -> Result<Option<(GbacwEvent, Option<u16>)>, RuleError> {
    let Some(turn) = heat_due(rs, state) else {
        return Ok(None);
    };
    let a = u8::try_from(dice.roll(6)?).unwrap_or(1);
    let b = u8::try_from(dice.roll(6)?).unwrap_or(1);
    let skip = a == b;
    let event = GbacwEvent::HeatRolled {
        turn,
        dice: [a, b],
        skipped: skip,
    };
    Ok(Some((event, skip.then_some(turn))))
}
