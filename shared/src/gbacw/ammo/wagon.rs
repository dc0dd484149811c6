//! GBACW 11.1–11.19: supply wagons and their crews.

use crate::gbacw::oob::{Crew, Formation, Marker, Unit, UnitKind, UnitStatus};
use crate::gbacw::tables::{AmmoLoss, AmmoLossTable, FireResult};

/// What one fire result does to a wagon.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WagonEffect {
    pub pinned: bool,
    /// The crew is gone (killed or routed away): the wagon is uncrewed.
    pub crew_lost: bool,
    /// GBACW 11.11: a Wagon Crew counter goes on the map only when the crew
    /// routs (it then routs three hexes).
    pub crew_counter_placed: bool,
    /// GBACW 11.12, 11.34: the loss from the Ammunition Loss Table.
    pub ammo: Option<AmmoLoss>,
}

/// GBACW 11.12: a Fire CRT result on a wagon. `routs` is the outcome of
/// the crew's morale check where the result calls for one (P/R, R, or
/// after losses); `die` is rolled for the Ammunition Loss Table.
/// - Small arms: numbers kill the crew; the wagon itself is untouched.
/// - Artillery: numbers go to the Ammunition Loss Table (capped at its
///   third column, the highest artillery result, tables.md GAP); the crew
///   is untouched by them. Pins and routs hit the crew either way.
pub fn wagon_fire_effect(
    result: FireResult,
    by_artillery: bool,
    routs: bool,
    table: &AmmoLossTable,
    die: u8,
) -> WagonEffect {
    let mut e = WagonEffect::default();
    match result {
        FireResult::NoEffect => {}
        FireResult::MaybePin => e.pinned = routs,
        FireResult::MaybeRout => {
            e.crew_lost = routs;
            e.crew_counter_placed = routs;
        }
        FireResult::PinOrRout => {
            e.crew_lost = routs;
            e.crew_counter_placed = routs;
            e.pinned = !routs;
        }
        FireResult::Loss { points, .. } if by_artillery => {
            e.ammo = table.result(points.clamp(1, 3), die);
        }
        FireResult::Loss { .. } => e.crew_lost = true,
    }
    e
}

/// GBACW 11.34: mark the loss off the wagon's supply track; `false` when
/// the wagon is eliminated (`WE`).
pub fn apply_ammo_loss(status: &mut UnitStatus, loss: AmmoLoss) -> bool {
    match loss {
        AmmoLoss::WagonEliminated => {
            status.supply = (0, 0);
            false
        }
        AmmoLoss::Points {
            small_arms,
            artillery,
        } => {
            status.supply.0 = status.supply.0.saturating_sub(u16::from(small_arms));
            status.supply.1 = match artillery {
                Some(a) => status.supply.1.saturating_sub(u16::from(a)),
                None => 0,
            };
            true
        }
    }
}

/// GBACW 11.1, 11.12: an uncrewed or pinned wagon may neither move nor
/// resupply.
pub fn wagon_may_move(status: &UnitStatus) -> bool {
    status.crew != Crew::None && !status.markers.contains(&Marker::Pin)
}

/// What moves when a wagon's hex must retreat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WagonRetreat {
    pub wagon: bool,
    pub crew: bool,
}

/// GBACW 11.17: a crewed wagon may retreat before melee (wagon and crew
/// go together); in any other retreat only the crew goes, leaving the
/// wagon uncrewed.
pub fn wagon_retreat(status: &UnitStatus, before_melee: bool) -> WagonRetreat {
    let crewed = status.crew != Crew::None;
    WagonRetreat {
        wagon: crewed && before_melee,
        crew: crewed,
    }
}

/// GBACW 11.18: in the friendly Final Command Phase an infantry or
/// dismounted cavalry unit on an uncrewed wagon gives it one Strength
/// Point as a new crew, for good.
pub fn recrew(
    donor: &Unit,
    donor_status: &mut UnitStatus,
    wagon: &mut UnitStatus,
    final_command_phase: bool,
) -> Result<(), &'static str> {
    let foot = matches!(donor.kind, UnitKind::Infantry)
        || (matches!(donor.kind, UnitKind::Cavalry)
            && donor_status.formation == Formation::Dismounted);
    if !final_command_phase || !foot || donor_status.strength == 0 || wagon.crew != Crew::None {
        return Err("GBACW 11.18");
    }
    donor_status.strength -= 1;
    wagon.crew = Crew::Full;
    Ok(())
}

/// GBACW 11.19: only infantry or cavalry captures a wagon; its old crew
/// leaves play wherever it is, and the wagon stays uncrewed until recrewed.
pub fn capture_wagon(capturer: &Unit, wagon: &mut UnitStatus) -> Result<(), &'static str> {
    if !matches!(capturer.kind, UnitKind::Infantry | UnitKind::Cavalry) {
        return Err("GBACW 11.19");
    }
    wagon.crew = Crew::None;
    wagon.markers.clear();
    Ok(())
}

/// GBACW 11.19: a captured wagon resupplies its new owner from the
/// Game-Turn after the one it was recrewed in.
pub fn captured_wagon_usable(recrewed_in_turn: u16, now: u16) -> bool {
    now > recrewed_in_turn
}
