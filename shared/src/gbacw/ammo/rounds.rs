//! GBACW 11.3–11.33: battery rounds.

use crate::gbacw::oob::UnitStatus;

/// GBACW 11.3, 11.31, 11.32: a battery's fire costs one round, however
/// many guns fire and however many targets it splits among (`targets`).
/// A battery with no rounds may not fire.
pub fn expend_round(status: &mut UnitStatus, targets: usize) -> Result<(), &'static str> {
    if targets == 0 {
        return Err("GBACW 9.0");
    }
    if status.rounds == 0 {
        return Err("GBACW 11.32");
    }
    status.rounds -= 1;
    Ok(())
}

/// GBACW 11.33: two batteries of the same weapon type that spent a whole
/// Game-Turn in the same or adjacent hexes without firing redistribute
/// their rounds in the Resupply Phase; the total is kept. `a_gets` is the
/// new share of the first battery.
pub fn transfer_rounds(
    a: &mut UnitStatus,
    b: &mut UnitStatus,
    same_weapon: bool,
    idle_together_all_turn: bool,
    a_gets: u16,
) -> Result<(), &'static str> {
    let total = a.rounds.saturating_add(b.rounds);
    if !same_weapon || !idle_together_all_turn || a_gets > total {
        return Err("GBACW 11.33");
    }
    a.rounds = a_gets;
    b.rounds = total - a_gets;
    Ok(())
}
