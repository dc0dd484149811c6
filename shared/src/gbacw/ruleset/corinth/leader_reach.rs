//! Corinth 28.14: "Gen. Price was an army commander for the Army of the
//! West only. He cannot rally, aid, or in any way affect the units in
//! Lovell's division."
//!
//! One predicate, [`leader_may_affect`], decides whether a leader's
//! presence counts for a unit; every place where the engine gives a unit
//! something for a leader stacked with it asks it (through
//! [`stacked_for`] / [`leaders_for`]):
//!
//! - GBACW 12.4 melee strength (+1 a side): `combat/melee.rs`;
//! - GBACW 13.0 morale checks (the stacked leader's modifier):
//!   `combat/effects.rs` (fire results and the plain check of melee
//!   results and retreats before melee);
//! - GBACW 13.52 rally by a stacked leader, Corinth 29.61's impetus rally
//!   and Corinth 25.13's die roll and army commander's automatic rally
//!   (28.12): `combat/rally.rs`, `cedar/bce_loss.rs`;
//! - GBACW 17.12 in command stacked with a leader: `decide/command.rs`;
//! - Corinth 22.0's leader exemptions (22.1, 22.2, "aid melee
//!   initiation", 28.13) and 22.33's binding: `corinth/melee_gate.rs`,
//!   `corinth/leader_binding.rs`;
//! - Corinth 28.11 Command Points on a brigade commander's radius
//!   ([`super::command::army_reaches`], the brigade-level form of the same
//!   reach).
//!
//! Not effects on a unit, so not limited: a leader's own casualty rolls
//! (17.72), his capture (17.75), his movement. 17.8's succession never
//! makes anyone an army commander at Corinth (28.31: army commanders are
//! not replaced; 28.32 promotes to division command), so no other leader
//! inherits Price's limit.
//!
//! Where the battle has no `ARMY-reach=` on its `army-brigade-points`
//! hook (Cedar Mountain, the test battle), every leader affects every
//! friendly unit and all of this is the Standard Rules.

use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{Command, CounterId, LeaderRole};
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::scenario::HookKind;

/// Corinth 28.14: whether `leader` may affect `unit` at all. An army
/// commander with `ARMY-reach=` on the `army-brigade-points` hook affects
/// only the units of the brigades he reaches
/// ([`super::command::army_reaches`]) and, of the independent units, all
/// but those listed in `ARMY-not=` (Price: `supply-lovell`, Lovell's
/// division's wagon, independent by 11.13 but "in Lovell's division");
/// the other independents (Adams' cavalry, the reserve artillery, the
/// Army of the West's wagons) are within his reach. Every other leader
/// affects every friendly unit.
pub(crate) fn leader_may_affect(rs: &Gbacw, leader: &CounterId, unit: &CounterId) -> bool {
    if !matches!(
        rs.game.oob.leaders.get(leader).map(|l| &l.role),
        Some(LeaderRole::Army { .. })
    ) {
        return true;
    }
    let hook = rs.game.scenario.hook(HookKind::ArmyBrigadePoints);
    let excluded = hook
        .and_then(|h| h.param(&format!("{}-not", leader.0)))
        .is_some_and(|v| v.split(',').any(|u| u == unit.0));
    if excluded {
        return false;
    }
    match rs.game.oob.units.get(unit).map(|u| &u.command) {
        Some(Command::Brigade(b)) => super::command::army_reaches(rs, leader, b),
        _ => true,
    }
}

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
        .filter(|l| leader_may_affect(board.rs, l, unit))
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
    board
        .leaders_of(hex, side)
        .into_iter()
        .any(|l| units.iter().all(|u| leader_may_affect(board.rs, l, u)))
}
