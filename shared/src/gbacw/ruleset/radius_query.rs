//! The client's drawn command radius: the hexes a leader's radius reaches
//! now, traced by the same code the Initial Command Phase uses.

use super::Gbacw;
use super::board::Board;
use super::state::GbacwState;
use crate::gbacw::command::{effective_radius, within_radius};
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, LeaderRole};
use std::collections::BTreeSet;

/// A leader's radius as it stands now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandRadius {
    /// The case the radius comes from: 17.12 (Effectiveness Radius,
    /// augmented by 17.22) or 17.21 (Divisional Integrity Radius).
    pub rule: &'static str,
    pub centre: HexNumber,
    /// In hexes.
    pub radius: u8,
    /// Every hex the radius reaches (the centre included): within
    /// `radius` hexes along a path that passes no enemy unit, no unnegated
    /// enemy ZOC and no lake (17.11, 10.4).
    pub hexes: BTreeSet<HexNumber>,
}

impl Gbacw {
    /// GBACW 17.11, 17.12, 17.21, 17.22: the hexes `leader`'s radius
    /// reaches now: a brigade commander's Effectiveness Radius (augmented
    /// this Player-Turn by his division commander's Command Points), a
    /// division commander's Divisional Integrity Radius. `None` for a
    /// leader with no radius (an army commander), off the map or fallen.
    pub fn command_radius(&self, state: &GbacwState, leader: &CounterId) -> Option<CommandRadius> {
        let printed = self.game.oob.leaders.get(leader)?;
        let l = state.leaders.get(leader)?;
        if l.casualty.is_some() {
            return None;
        }
        let centre = l.hex?;
        let (rule, radius) = match &printed.role {
            LeaderRole::Brigade { ratings, .. } | LeaderRole::Replacement { ratings } => {
                let plus = l.augmented.as_ref().map_or(0, |(_, p)| *p);
                ("GBACW 17.12", effective_radius(ratings, plus))
            }
            LeaderRole::Division {
                integrity_radius, ..
            } => ("GBACW 17.21", *integrity_radius),
            LeaderRole::Army { .. } => return None,
        };
        let board = Board::new(self, state);
        let blocks = board.command_blocks(&printed.side);
        let map = &self.game.map;
        let hexes = map
            .hexes()
            .map(|(n, _)| n)
            .filter(|n| map.grid.distance(centre, *n) <= u32::from(radius))
            .filter(|n| within_radius(map, &blocks, centre, *n, radius))
            .collect();
        Some(CommandRadius {
            rule,
            centre,
            radius,
            hexes,
        })
    }
}
