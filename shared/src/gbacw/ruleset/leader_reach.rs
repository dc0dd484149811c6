//! Which leaders count for a unit: every place where the engine gives a
//! unit something for a leader stacked with it asks [`stacked_for`] /
//! [`leaders_for`] (or [`stacked_for_all`] for a whole stack), and they ask
//! the battle's hook `BattleRules::leader_may_affect` (a battle may
//! limit who affects whom):
//!
//! - GBACW 12.4 melee strength (+1 a side): `combat/melee.rs`;
//! - GBACW 13.0 morale checks (the stacked leader's modifier):
//!   `combat/effects.rs`;
//! - GBACW 13.52 rally by a stacked leader: `combat/rally.rs`, `exclusive/bce_loss.rs`;
//! - GBACW 17.12 in command stacked with a leader: `decide/command.rs`;
//! - a battle's own leader exemptions (its melee gate, leader binding).
//!
//! Not effects on a unit, so not limited: a leader's own casualty rolls
//! (17.72), his capture (17.75), his movement. In the Standard Rules every
//! leader affects every friendly unit.

use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::CounterId;
use crate::gbacw::ruleset::board::Board;

/// The leaders of `side` in `hex` who may affect `unit` (28.14), in the
/// board's order (by id).
pub(crate) fn leaders_for<'a>(
    board: &Board<'a>,
    hex: HexNumber,
    side: &CounterId,
    unit: &CounterId,
) -> Vec<&'a CounterId> {
    board
        .leaders_of(hex, side)
        .into_iter()
        .filter(|l| board.rs.battle().leader_may_affect(board.rs, l, unit))
        .collect()
}

/// Whether `unit` in `hex` is stacked with a leader of `side` who may
/// affect it: the "stacked with a friendly leader" of GBACW 12.4, 13.0,
/// 13.52, 17.12 and Corinth 22.0, under 28.14.
pub(crate) fn stacked_for(
    board: &Board<'_>,
    hex: HexNumber,
    side: &CounterId,
    unit: &CounterId,
) -> bool {
    !leaders_for(board, hex, side, unit).is_empty()
}

/// Whether one leader of `side` in `hex` may affect every one of `units`
/// (a stack's exemption: Corinth 22.0's check binds the whole stack, so a
/// leader exempts it only if he may affect all of it).
pub(crate) fn stacked_for_all(
    board: &Board<'_>,
    hex: HexNumber,
    side: &CounterId,
    units: &[CounterId],
) -> bool {
    board.leaders_of(hex, side).into_iter().any(|l| {
        units
            .iter()
            .all(|u| board.rs.battle().leader_may_affect(board.rs, l, u))
    })
}
