//! GBACW 9.7: whether one hex sees another over the ground as it stands
//! now, with the battle's raised positions and its own obstacles
//! ([`crate::gbacw::ruleset::battle_rules::BattleRules::raised_feet`],
//! [`crate::gbacw::ruleset::battle_rules::BattleRules::sight_blocked`]).

use crate::gbacw::los::Los;
use crate::gbacw::map::HexNumber;
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::state::GbacwState;

/// GBACW 9.7: whether `from` sees `to` (`unit_feet`: the height of the
/// units standing in a hex, 9.72).
pub(crate) fn line_of_sight(
    rs: &Gbacw,
    state: &GbacwState,
    from: HexNumber,
    to: HexNumber,
    unit_feet: impl Fn(HexNumber) -> u16,
) -> Los {
    let battle = rs.battle();
    let ground = battle.ground(rs, state);
    let seen = crate::gbacw::los::line_of_sight_raised(
        &ground,
        &rs.game.charts.combat,
        from,
        to,
        unit_feet,
        |h| battle.raised_feet(rs, h),
    );
    if seen != Los::Clear {
        return seen;
    }
    battle
        .sight_blocked(rs, state, from, to)
        .unwrap_or(Los::Clear)
}
