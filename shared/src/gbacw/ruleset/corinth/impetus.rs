//! Corinth 29.61 (30.6): while the Confederate assault impetus lasts
//! (`hook assault-impetus side=union until=5`), a routed Union unit
//! rallies only by a die roll, or at once with an army commander stacked
//! (at the hook `rally_way`, `corinth/rules.rs`).

use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, LeaderRole};
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::battle_rules::OwnRally;
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::scenario::HookKind;

/// Corinth 29.61 (30.6): how `side`'s unit in `hex` rallies while the
/// Confederate assault impetus lasts; `None` when it does not apply.
/// Corinth 28.14: only leaders who may affect `unit` count.
pub(crate) fn rally_way(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    hex: HexNumber,
    unit: &CounterId,
) -> Option<OwnRally> {
    let hook = rs.game.scenario.hook(HookKind::AssaultImpetus)?;
    let until = hook.number("until")?;
    if hook.param("side") != Some(side.0.as_str()) || state.clock.turn > until {
        return None;
    }
    let board = Board::new(rs, state);
    let leaders = crate::gbacw::ruleset::leader_reach::leaders_for(&board, hex, side, unit);
    let army = leaders.iter().any(|l| {
        matches!(
            rs.game.oob.leaders.get(*l).map(|x| &x.role),
            Some(LeaderRole::Army { .. })
        )
    });
    Some(if army {
        OwnRally::Automatic
    } else {
        OwnRally::Die {
            minus: u8::from(!leaders.is_empty()),
        }
    })
}
