//! GBACW 4.0: the phases of a Player-Turn, A to J.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Which half of the Game-Turn: the First Player-Turn, then the Second.
/// Which side goes first is scenario data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum PlayerTurn {
    First,
    Second,
}

/// GBACW 4.0: the Standard phases of each Player-Turn, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Phase {
    /// A: attach/detach brigades, check radii, spend Command Points.
    InitialCommand,
    /// B: the phasing player moves; the other may only withdrawal-fire.
    Movement,
    /// C: the non-phasing player fires.
    DefensiveFire,
    /// D: the phasing player fires.
    OffensiveFire,
    /// E: melees are announced; the defender may retreat before melee.
    RetreatBeforeMelee,
    /// F: melee is resolved.
    Melee,
    /// G: the phasing player resupplies.
    AmmunitionResupply,
    /// H: pins come off, routed units rally.
    Rally,
    /// J: replacements, promotions, recrewing, exclusive-rule functions.
    FinalCommand,
}

impl Phase {
    /// All Standard phases in the order 4.0 gives them.
    pub const ALL: [Phase; 9] = [
        Phase::InitialCommand,
        Phase::Movement,
        Phase::DefensiveFire,
        Phase::OffensiveFire,
        Phase::RetreatBeforeMelee,
        Phase::Melee,
        Phase::AmmunitionResupply,
        Phase::Rally,
        Phase::FinalCommand,
    ];

    /// The letter the rules give the phase; there is no I.
    pub fn letter(self) -> char {
        match self {
            Phase::InitialCommand => 'A',
            Phase::Movement => 'B',
            Phase::DefensiveFire => 'C',
            Phase::OffensiveFire => 'D',
            Phase::RetreatBeforeMelee => 'E',
            Phase::Melee => 'F',
            Phase::AmmunitionResupply => 'G',
            Phase::Rally => 'H',
            Phase::FinalCommand => 'J',
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Phase::InitialCommand => "Initial Command Phase",
            Phase::Movement => "Movement Phase",
            Phase::DefensiveFire => "Defensive Fire Phase",
            Phase::OffensiveFire => "Offensive Fire Phase",
            Phase::RetreatBeforeMelee => "Retreat Before Melee Phase",
            Phase::Melee => "Melee Phase",
            Phase::AmmunitionResupply => "Ammunition Resupply Phase",
            Phase::Rally => "Rally Phase",
            Phase::FinalCommand => "Final Command Phase",
        }
    }

    /// GBACW 4.0 C: in the Defensive Fire Phase the non-phasing player
    /// acts; in every other phase the phasing player does (the other side
    /// answers through pending decisions: withdrawal fire, retreat before
    /// melee).
    pub fn non_phasing_acts(self) -> bool {
        self == Phase::DefensiveFire
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}. {}", self.letter(), self.name())
    }
}
