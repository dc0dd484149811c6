//! GBACW 8.21, 9.43: which unit of the target stack a fire result hits.

use crate::gbacw::oob::{Unit, UnitKind, UnitStatus};

fn is_foot_or_horse(u: &Unit) -> bool {
    matches!(u.kind, UnitKind::Infantry | UnitKind::Cavalry)
}

/// GBACW 9.43, 8.21: the unit a fire result acts on: the top infantry or
/// cavalry unit of the stack (`stack` is top first); a battery or wagon
/// only when no infantry or cavalry is in the hex (then the top one).
pub fn result_target(stack: &[(&Unit, &UnitStatus)]) -> Option<usize> {
    stack
        .iter()
        .position(|(u, _)| is_foot_or_horse(u))
        .or(if stack.is_empty() { None } else { Some(0) })
}

/// GBACW 8.21: numeric losses go to the top infantry or cavalry unit;
/// what it cannot absorb goes to the next one down, and so on. Artillery
/// and wagons take losses only when they are alone (no infantry or
/// cavalry in the hex): then the top one takes them all (the caller turns
/// them into guns, crew steps or ammunition: 9.82, 11.12). Returns
/// (stack index, points); losses beyond the whole stack are dropped.
pub fn allocate_losses(stack: &[(&Unit, &UnitStatus)], points: u8) -> Vec<(usize, u8)> {
    let any_foot = stack.iter().any(|(u, _)| is_foot_or_horse(u));
    if !any_foot {
        return result_target(stack)
            .filter(|_| points > 0)
            .map(|i| vec![(i, points)])
            .unwrap_or_default();
    }
    let mut left = points;
    let mut out = Vec::new();
    for (i, (u, s)) in stack.iter().enumerate() {
        if left == 0 {
            break;
        }
        if !is_foot_or_horse(u) || s.strength == 0 {
            continue;
        }
        let take = left.min(s.strength);
        out.push((i, take));
        left -= take;
    }
    out
}
