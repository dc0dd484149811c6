//! What changes about a unit in play: current strength (3.32), formation
//! (6.0), crew (15.1, 11.1), ammunition (11.3, 11.24) and markers (3.3).

use super::counter::{Unit, UnitKind};
use crate::gbacw::charts::MoveClass;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// GBACW 6.0: the formations, each meaningful for one kind of unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Formation {
    /// GBACW 6.12: infantry's default.
    Line,
    /// GBACW 6.11: shown by a Column marker on the lead unit.
    Column,
    /// GBACW 6.14: cavalry, front of the counter.
    Mounted,
    Dismounted,
    /// GBACW 6.13: ready to move.
    Limbered,
    /// GBACW 6.13: ready to fire; may not move.
    Unlimbered,
    /// Supply wagons have no formation (7.0: always enfiladed).
    Wagon,
}

impl Formation {
    /// The word for the formation in the text formats.
    pub fn name(self) -> &'static str {
        match self {
            Formation::Line => "line",
            Formation::Column => "column",
            Formation::Mounted => "mounted",
            Formation::Dismounted => "dismounted",
            Formation::Limbered => "limbered",
            Formation::Unlimbered => "unlimbered",
            Formation::Wagon => "wagon",
        }
    }

    /// The formation a word names (the inverse of [`Formation::name`]).
    pub fn from_name(word: &str) -> Option<Formation> {
        [
            Formation::Line,
            Formation::Column,
            Formation::Mounted,
            Formation::Dismounted,
            Formation::Limbered,
            Formation::Unlimbered,
            Formation::Wagon,
        ]
        .into_iter()
        .find(|f| f.name() == word)
    }

    /// GBACW 6.0: whether a unit of `kind` may be in this formation.
    pub fn allowed_for(self, kind: &UnitKind) -> bool {
        matches!(
            (kind, self),
            (UnitKind::Infantry, Formation::Line | Formation::Column)
                | (
                    UnitKind::Cavalry,
                    Formation::Mounted | Formation::Dismounted
                )
                | (
                    UnitKind::Battery { .. },
                    Formation::Limbered | Formation::Unlimbered
                )
                | (UnitKind::Wagon { .. }, Formation::Wagon)
        )
    }

    /// GBACW 5.15: which column of the movement chart the unit pays by;
    /// `None` when it may not move at all (6.13: unlimbered guns).
    /// Dismounted cavalry moves as Line infantry (6.14).
    pub fn move_class(self) -> Option<MoveClass> {
        Some(match self {
            Formation::Line | Formation::Dismounted => MoveClass::Line,
            Formation::Column => MoveClass::Column,
            Formation::Mounted => MoveClass::Mounted,
            Formation::Limbered => MoveClass::Limbered,
            Formation::Wagon => MoveClass::Wagon,
            Formation::Unlimbered => return None,
        })
    }

    /// GBACW 7.0: column, wagons, mounted cavalry and limbered artillery
    /// are enfiladed whatever the direction of fire.
    pub fn always_enfiladed(self) -> bool {
        matches!(
            self,
            Formation::Column | Formation::Wagon | Formation::Mounted | Formation::Limbered
        )
    }
}

/// A battery's gun crew (15.12: two steps) or a wagon's crew (11.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Crew {
    Full,
    /// GBACW 15.13: halves the battery's fire strength, rounded up.
    Half,
    /// A battery without crew is removed (15.12); a wagon without crew
    /// may neither resupply nor move (11.1, 004).
    None,
}

/// Markers placed on units in play (3.3). Column is not here: it is
/// [`Formation::Column`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Marker {
    /// GBACW 9.84.
    Pin,
    /// GBACW 13.21.
    Rout,
    /// GBACW 12.94.
    Engaged,
    /// GBACW 11.22.
    AmmoDepleted,
}

/// A unit's state in play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitStatus {
    /// GBACW 3.32: Strength Points, or guns for a battery.
    pub strength: u8,
    pub formation: Formation,
    /// Batteries and wagons; `Full` for the others, where it means nothing.
    pub crew: Crew,
    /// Battery rounds left (11.3); 0 for units that have none.
    pub rounds: u16,
    /// Wagon supply track: small-arms, artillery points left (11.24, 11.34).
    pub supply: (u16, u16),
    pub markers: BTreeSet<Marker>,
}

impl UnitStatus {
    /// A unit as it enters play: printed strength, full crew and
    /// ammunition, in the formation reinforcements arrive in (Cedar
    /// Mountain 26.46: column, mounted, limbered).
    pub fn fresh(unit: &Unit) -> Self {
        let (formation, rounds, supply) = match unit.kind {
            UnitKind::Infantry => (Formation::Column, 0, (0, 0)),
            UnitKind::Cavalry => (Formation::Mounted, 0, (0, 0)),
            UnitKind::Battery { rounds } => (Formation::Limbered, rounds, (0, 0)),
            UnitKind::Wagon {
                small_arms,
                artillery,
            } => (Formation::Wagon, 0, (small_arms, artillery)),
        };
        UnitStatus {
            strength: unit.strength,
            formation,
            crew: Crew::Full,
            rounds,
            supply,
            markers: BTreeSet::new(),
        }
    }

    /// GBACW 13.24: more than half the initial strength lost.
    pub fn lost_over_half(&self, unit: &Unit) -> bool {
        u16::from(self.strength) * 2 < u16::from(unit.strength)
    }
}
