//! What the client highlights with, computed by the code that validates.

use super::Gbacw;
use super::board::Board;
use super::decide::{formation, movement};
use super::state::{CommandCheck, GbacwState};
use crate::gbacw::facing::Facing;
use crate::gbacw::map::HexNumber;
use crate::gbacw::movement::Reach;
use crate::gbacw::oob::{CounterId, Formation, Marker};
use std::collections::{BTreeMap, BTreeSet};

impl Gbacw {
    fn side_of_piece(&self, piece: &CounterId) -> Option<&CounterId> {
        let oob = &self.game.oob;
        oob.units
            .get(piece)
            .map(|u| &u.side)
            .or_else(|| oob.leaders.get(piece).map(|l| &l.side))
    }

    /// GBACW 5.11, 5.16: every hex `piece` (a unit or leader) can reach by
    /// moving alone now, with the least Movement Points and the cheapest
    /// path to each (ties broken by hex number). `None` when it may not
    /// move at all. A move may stop over a hex's stacking limits (8.0:
    /// they bind at the end of the phase), which `decide` checks.
    pub fn reachable(&self, state: &GbacwState, piece: &CounterId) -> Option<Reach> {
        let side = self.side_of_piece(piece)?;
        let m = movement::mover(self, state, side, piece).ok()?;
        let start = state
            .units
            .get(piece)
            .and_then(|u| u.hex)
            .or_else(|| state.leaders.get(piece).and_then(|l| l.hex))?;
        let board = Board::new(self, state);
        let zocs = movement::Zocs::new(&board, side);
        let group = [piece.clone()];
        // GBACW 12.94: a move may end in a hex holding engaged units,
        // never pass through one (as `decide` refuses it), so no step
        // leaves such a hex but the start.
        let engaged: BTreeSet<HexNumber> = state
            .units
            .values()
            .filter(|u| u.status.markers.contains(&Marker::Engaged))
            .filter_map(|u| u.hex)
            .collect();
        // Hexes the battle's rules keep a move from (hook
        // `move_may_enter`).
        let step = |from, to| {
            if from != start && engaged.contains(&from) {
                return None;
            }
            if !self.battle().move_may_enter(self, state, &board, side, to) {
                return None;
            }
            movement::step(&board, &zocs, side, &m, &group, from, to).ok()
        };
        if m.one_hex.is_some() {
            let mut hexes = BTreeMap::from([(start, (crate::gbacw::charts::Mp::ZERO, None))]);
            if m.hexes == 0 {
                for n in self.steps.neighbours(start) {
                    if step(start, n).is_some() {
                        hexes.insert(n, (m.left(), Some(start)));
                    }
                }
            }
            return Some(Reach { start, hexes });
        }
        Some(self.steps.reachable_with(start, m.left(), step))
    }

    /// GBACW 7.12: the facings `unit` may turn to now (all but its own).
    pub fn legal_facings(&self, state: &GbacwState, unit: &CounterId) -> Vec<Facing> {
        let Some(u) = state.units.get(unit) else {
            return Vec::new();
        };
        (0..6)
            .filter_map(Facing::from_index)
            .filter(|f| *f != u.facing)
            .collect()
    }

    /// GBACW 6.0, 6.21, 6.22: the formations `unit` may change into now
    /// (withdrawal fire may come first: 6.23, 6.24).
    pub fn legal_formations(&self, state: &GbacwState, unit: &CounterId) -> Vec<Formation> {
        let Some(side) = self.side_of_piece(unit) else {
            return Vec::new();
        };
        [
            Formation::Line,
            Formation::Column,
            Formation::Mounted,
            Formation::Dismounted,
            Formation::Limbered,
            Formation::Unlimbered,
        ]
        .into_iter()
        .filter(|f| formation::plan(self, state, side, unit, *f).is_ok())
        .collect()
    }

    /// GBACW 17.0: who of `side` would be out of command if the Initial
    /// Command Phase ended now.
    pub fn command_preview(&self, state: &GbacwState, side: &CounterId) -> CommandCheck {
        super::decide::command_check(self, state, side)
    }

    /// GBACW 9.7, 9.72: whether `from` sees `to` now, the units standing
    /// where they are (mounted cavalry and wagons 10 ft, others 5 ft): the
    /// client's line-of-sight preview, by the code fire will use.
    pub fn line_of_sight(
        &self,
        state: &GbacwState,
        from: crate::gbacw::map::HexNumber,
        to: crate::gbacw::map::HexNumber,
    ) -> crate::gbacw::los::Los {
        let board = Board::new(self, state);
        crate::gbacw::ruleset::sight::line_of_sight(self, state, from, to, |h| board.unit_feet(h))
    }

    /// GBACW 9.0–9.6: what an attack by `firers` on `target` would roll
    /// on: total strength, CRT row, every column shift and the column
    /// after 9.51's cap — the same arithmetic the resolution uses. The
    /// report's die and result are placeholders (nothing is rolled). `Err`
    /// names the rule that refuses the attack's strength or target (range,
    /// mixing, no target); the other checks are `decide`'s.
    pub fn fire_preview(
        &self,
        state: &GbacwState,
        target: crate::gbacw::map::HexNumber,
        firers: &[super::state::FireShare],
    ) -> Result<super::event::FireReport, crate::engine::RuleError> {
        let p = super::combat::attack::prepare(self, state, target, firers, None, None)?;
        Ok(p.roll(&self.tables.fire, 1, self.options))
    }
}
