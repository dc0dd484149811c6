//! GBACW 5.2, 5.3, 17.11–17.23: who is in command, and Command Points.

use crate::gbacw::oob::{BrigadeRatings, Command, CounterId, LeaderRole};
use std::collections::BTreeMap;

/// GBACW 17.12, 17.22: a brigade leader's Effectiveness Radius, plus one
/// hex per Command Point his division commander spent on him this turn.
pub fn effective_radius(ratings: &BrigadeRatings, augmented_by: u8) -> u8 {
    ratings.effectiveness_radius.saturating_add(augmented_by)
}

/// Whether a unit is in command for this Player-Turn.
/// - GBACW 5.3: independent units always are.
/// - GBACW 17.23: so is a unit stacked with a division commander at the
///   Initial Command Phase.
/// - GBACW 17.11: otherwise it must be within its brigade commander's
///   (augmented) Effectiveness Radius. Whether that commander is himself
///   within his division's radius does not matter (5.2, 004).
pub fn unit_in_command(
    command: &Command,
    within_brigade_radius: bool,
    with_division_leader: bool,
) -> bool {
    match command {
        Command::Independent => true,
        Command::Brigade(_) => within_brigade_radius || with_division_leader,
    }
}

/// GBACW 17.21: a brigade commander outside his division commander's
/// Divisional Integrity Radius moves one hex only — unless his brigade is
/// independent or detached (17.6).
pub fn brigade_moves_one_hex(
    role: &LeaderRole,
    within_division_radius: bool,
    detached: bool,
) -> bool {
    match role {
        LeaderRole::Brigade {
            division: Some(_), ..
        } => !within_division_radius && !detached,
        _ => false,
    }
}

/// GBACW 17.22: a division commander spends Command Points on brigade
/// commanders within his radius, one point per hex, never more than he
/// has. `requests` maps each brigade to the points asked and whether he
/// is within the radius. `Err` names the brigade that may not be
/// augmented, or `None` when the total is too high.
pub fn allocate_command_points(
    available: u8,
    requests: &BTreeMap<CounterId, (u8, bool)>,
) -> Result<u16, Option<CounterId>> {
    if let Some((id, _)) = requests.iter().find(|(_, (_, within))| !within) {
        return Err(Some(id.clone()));
    }
    let total: u16 = requests.values().map(|(cp, _)| u16::from(*cp)).sum();
    if total > u16::from(available) {
        return Err(None);
    }
    Ok(total)
}
