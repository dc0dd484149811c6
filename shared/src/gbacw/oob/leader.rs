//! Leaders and their ratings (GBACW 3.31, 17.1, 17.2; army commanders by
//! the Exclusive Rules, 17.3).

use super::counter::CounterId;
use serde::{Deserialize, Serialize};

/// A brigade leader's printed ratings: "Slack Van Drn 3 1 (5)".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BrigadeRatings {
    /// GBACW 17.1: Effectiveness Radius in hexes.
    pub effectiveness_radius: u8,
    /// GBACW 17.13: Rally Rating: routed regiments he may rally per turn.
    pub rally: u8,
    /// GBACW 17.85: the Divisional Integrity Radius he has if promoted;
    /// `None` when the counter shows none.
    pub promoted_radius: Option<u8>,
}

/// What a leader commands and how well.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LeaderRole {
    /// Exclusive rules (Cedar Mountain 25.1, Corinth): only Command Points.
    Army { command_points: u8 },
    /// GBACW 17.2: Divisional Integrity Radius and Command Points.
    Division {
        army: Option<CounterId>,
        integrity_radius: u8,
        command_points: u8,
    },
    /// GBACW 17.1; `division: None` is an "Indpnt" brigade (17.66).
    Brigade {
        division: Option<CounterId>,
        ratings: BrigadeRatings,
        /// GBACW 17.81: the ratings on the counter's back (REPL side).
        replacement: Option<BrigadeRatings>,
    },
    /// A generic "Brigade Cmdr REPL" counter (3.31), used when a
    /// replacement is itself lost (17.82).
    Replacement { ratings: BrigadeRatings },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leader {
    pub id: CounterId,
    pub side: CounterId,
    pub name: String,
    pub role: LeaderRole,
}
