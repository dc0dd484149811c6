//! GBACW 12.1, 12.4, 12.5, 12.72, 16.24, 16.32, 16.33: melee strengths.

use crate::gbacw::oob::{Crew, Formation, Marker, Unit, UnitKind, UnitStatus};

/// Which side of the melee a unit is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeleeRole {
    /// `charging`: mounted cavalry charging under 16.2.
    Attacker {
        charging: bool,
    },
    Defender,
}

/// What a unit faces, for cavalry's doubling.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Opponents {
    /// Infantry or dismounted cavalry among the enemy (16.32).
    pub foot: bool,
    /// Mounted cavalry among the enemy (16.33).
    pub mounted: bool,
    /// The enemy is charging mounted cavalry (16.33).
    pub charging: bool,
}

/// One unit's melee strength.
/// - GBACW 12.11: infantry and dismounted cavalry, current strength.
/// - GBACW 12.12, 15.14: a battery melees with its crew, 1 full, 0 half.
/// - GBACW 12.14: a wagon crew, 1 (no half crew); an uncrewed wagon 0.
/// - GBACW 12.13, 16.24: mounted cavalry, current strength, doubled when
///   charging — but not against mounted cavalry (16.33).
/// - GBACW 16.32: mounted cavalry meleed by foot defends doubled, unless
///   it is charged by mounted cavalry (16.33).
/// - GBACW 12.51: a routed defender, half its strength rounded down.
pub fn unit_melee_strength(
    unit: &Unit,
    status: &UnitStatus,
    role: MeleeRole,
    against: Opponents,
) -> u16 {
    let base = u16::from(status.strength);
    let strength = match (&unit.kind, status.formation) {
        (UnitKind::Battery { .. }, _) => u16::from(status.crew == Crew::Full),
        (UnitKind::Wagon { .. }, _) => u16::from(status.crew != Crew::None),
        (UnitKind::Cavalry, Formation::Mounted) => {
            let doubled = match role {
                MeleeRole::Attacker { charging } => charging && !against.mounted,
                MeleeRole::Defender => against.foot && !against.charging,
            };
            if doubled { base * 2 } else { base }
        }
        _ => base,
    };
    let routed = status.markers.contains(&Marker::Rout);
    if routed && role == MeleeRole::Defender {
        strength / 2
    } else {
        strength
    }
}

/// GBACW 12.52: a side whose lowest morale is at least two better than
/// the other side's highest adds one.
pub fn morale_edge(own_lowest: u8, enemy_highest: u8) -> bool {
    own_lowest >= enemy_highest.saturating_add(2)
}

/// A side's melee strength: the units' strengths (each already less any
/// terrain it crosses, 12.31), counted only up to `cap` points (12.72:
/// points over the melee limit of 8.18 do not count), plus one for a
/// leader in the stack (12.4: only one counts) and one for the morale
/// edge (12.52).
pub fn side_total(strengths: &[u16], cap: u16, leader: bool, edge: bool) -> i32 {
    let sum: u32 = strengths.iter().map(|s| u32::from(*s)).sum();
    let counted = sum.min(u32::from(cap));
    i32::try_from(counted).unwrap_or(i32::MAX) + i32::from(leader) + i32::from(edge)
}

/// GBACW 12.0: attacker's strength minus defender's; the table clamps it.
pub fn differential(attacker: i32, defender: i32) -> i32 {
    attacker - defender
}
