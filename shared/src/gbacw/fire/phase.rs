//! GBACW 5.13, 10.17, 4.0: which fire may happen in which phase.

use super::eligibility::FireOccasion;
use crate::gbacw::sequence::Phase;

/// GBACW 4.0 C, D; 5.13; 10.17: offensive fire only in the Offensive Fire
/// Phase, defensive fire only in the Defensive Fire Phase, and withdrawal
/// and retreat fire only in the Movement and Retreat Before Melee Phases
/// (no fire at all in the Movement Phase but the triggered kind). `Err`
/// names the case.
pub fn fire_allowed_in(phase: Phase, occasion: FireOccasion) -> Result<(), &'static str> {
    match (phase, occasion) {
        (Phase::OffensiveFire, FireOccasion::Offensive)
        | (Phase::DefensiveFire, FireOccasion::Defensive)
        | (Phase::Movement | Phase::RetreatBeforeMelee, FireOccasion::Withdrawal) => Ok(()),
        (Phase::Movement, _) => Err("GBACW 5.13"),
        (_, FireOccasion::Withdrawal) => Err("GBACW 10.17"),
        _ => Err("GBACW 4.0"),
    }
}
