//! GBACW 9.82, 15.11–15.16, 13.25: gun crews.

use crate::gbacw::oob::{Crew, Formation, UnitKind, UnitStatus};

/// What a numeric result did to a battery.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BatteryHit {
    pub guns_lost: u8,
    pub crew_steps_lost: u8,
    /// GBACW 15.12: the crew is gone; the battery is removed, eliminated
    /// (not captured) for Victory Points.
    pub eliminated: bool,
}

/// GBACW 9.82, 15.11, 15.12: a numeric loss on a battery. Artillery fire
/// kills guns only, leaving the crew; small arms and melee hit the crew,
/// one step per point: full, half, gone. A battery with no guns left is
/// eliminated too.
pub fn hit_battery(status: &mut UnitStatus, points: u8, by_artillery: bool) -> BatteryHit {
    let mut hit = BatteryHit::default();
    if by_artillery {
        hit.guns_lost = points.min(status.strength);
        status.strength -= hit.guns_lost;
    } else {
        for _ in 0..points {
            status.crew = match status.crew {
                Crew::Full => Crew::Half,
                Crew::Half | Crew::None => Crew::None,
            };
            hit.crew_steps_lost += 1;
            if status.crew == Crew::None {
                break;
            }
        }
    }
    hit.eliminated = status.crew == Crew::None || status.strength == 0;
    hit
}

/// What a rout does to a battery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatteryRout {
    /// GBACW 13.25, 15.16: unlimbered guns never rout; the crew routs and
    /// the guns stay in the hex.
    CrewOnly,
    /// GBACW 15.16: a limbered battery routs whole.
    Whole,
}

/// GBACW 13.25, 15.16: how a battery routs.
pub fn rout_battery(status: &UnitStatus) -> BatteryRout {
    if status.formation == Formation::Unlimbered {
        BatteryRout::CrewOnly
    } else {
        BatteryRout::Whole
    }
}

/// GBACW 15.15 against 11.18: gun crews are never transferred or
/// replaced; only a wagon takes a new crew.
pub fn crew_replaceable(kind: &UnitKind) -> bool {
    matches!(kind, UnitKind::Wagon { .. })
}
