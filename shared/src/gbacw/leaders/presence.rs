//! Where leaders stand and what affects them: GBACW 17.51, 17.52, 9.86,
//! 13.34, 17.74.

use crate::gbacw::oob::CounterId;

/// GBACW 17.51: any number of leaders may share a hex, but only one affects
/// a given unit. The unit's own brigade commander is preferred (he is the
/// one whose radius and rally points concern it); otherwise the first by id.
pub fn effective_leader<'a>(
    leaders_in_hex: &'a [CounterId],
    own_commander: Option<&CounterId>,
) -> Option<&'a CounterId> {
    if let Some(own) = own_commander
        && let Some(l) = leaders_in_hex.iter().find(|l| *l == own)
    {
        return Some(l);
    }
    leaders_in_hex.iter().min()
}

/// GBACW 17.52: a leader ends the Movement Phase with a combat unit,
/// unless the nearest enemy unit is five or more hexes away (`None`: no
/// enemy on the map).
pub fn leader_may_end_move(with_combat_unit: bool, nearest_enemy: Option<u32>) -> bool {
    with_combat_unit || nearest_enemy.is_none_or(|d| d >= 5)
}

/// GBACW 9.86: a pinned leader keeps his ratings but cannot move, except
/// to retreat after a melee.
pub fn leader_may_move(pinned: bool, retreating_after_melee: bool) -> bool {
    !pinned || retreating_after_melee
}

/// A counter in a stack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StackEntry {
    pub id: CounterId,
    pub leader: bool,
}

/// GBACW 13.34, 17.74: a rout moves the routed units; leaders never rout
/// and go along only if the owner says so (`leaders_follow`).
pub fn rout_movers(
    stack: &[StackEntry],
    routed: &[CounterId],
    leaders_follow: bool,
) -> Vec<CounterId> {
    stack
        .iter()
        .filter(|e| {
            if e.leader {
                leaders_follow && !routed.is_empty()
            } else {
                routed.contains(&e.id)
            }
        })
        .map(|e| e.id.clone())
        .collect()
}
