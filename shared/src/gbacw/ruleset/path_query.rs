//! The client's drag-a-path preview: a path the player draws hex by hex,
//! costed and checked step by step by the code that validates moves
//! (`decide::movement`), so the running cost on screen is the engine's.

use super::board::Board;
use super::decide::movement;
use super::state::GbacwState;
use super::{Gbacw, err};
use crate::engine::{RuleCode, RuleError};
use crate::gbacw::charts::Mp;
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::CounterId;

/// What a drawn path would cost and where the rules stop it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathPreview {
    /// GBACW 5.11: for each hex of the path the rules let the counters
    /// enter, in order, the most Movement Points any of them has spent on
    /// this move by then.
    pub spent: Vec<Mp>,
    /// The least Movement Points any of the moving counters had left
    /// before this move.
    pub left: Mp,
    /// Why the next hex (`path[spent.len()]`) may not be entered; `None`
    /// when the whole path is allowed.
    pub refused: Option<RuleError>,
    /// Whether the move may end on the last allowed hex: the whole move's
    /// check (stacking where it stops, 8.1; the one-hex limits) on the
    /// allowed part of the path.
    pub stop: Result<(), RuleError>,
}

impl Gbacw {
    /// GBACW 5.11, 5.16, 8.16, 8.17: `pieces` (sharing a hex) moving along
    /// `path` (the start hex not included), hex by hex: each step's cost by
    /// the same `step` the move's validation uses, the allowance, the
    /// one-hex limits (5.2, 17.11, 17.21); the first step refused ends the
    /// preview. Stacking is checked only where the move would stop.
    pub fn path_preview(
        &self,
        state: &GbacwState,
        pieces: &[CounterId],
        path: &[HexNumber],
    ) -> PathPreview {
        let refuse = |e: RuleError| PathPreview {
            spent: Vec::new(),
            left: Mp::ZERO,
            refused: Some(e.clone()),
            stop: Err(e),
        };
        let oob = &self.game.oob;
        let Some(side) = pieces.first().and_then(|p| {
            oob.units
                .get(p)
                .map(|u| &u.side)
                .or_else(|| oob.leaders.get(p).map(|l| &l.side))
        }) else {
            return refuse(err("GBACW 5.0", RuleCode::Invalid, "no counter to move"));
        };
        let movers = match pieces
            .iter()
            .map(|id| movement::mover(self, state, side, id))
            .collect::<Result<Vec<_>, _>>()
        {
            Ok(m) => m,
            Err(e) => return refuse(e),
        };
        let hex_of = |id: &CounterId| {
            state
                .units
                .get(id)
                .and_then(|u| u.hex)
                .or_else(|| state.leaders.get(id).and_then(|l| l.hex))
        };
        let Some(start) = hex_of(&pieces[0]) else {
            return refuse(err("GBACW 5.0", RuleCode::Illegal, "not on the map"));
        };
        let left = movers.iter().map(|m| m.left()).min().unwrap_or(Mp::ZERO);
        let board = Board::new(self, state);
        let zocs = movement::Zocs::new(&board, side);
        let mut totals = vec![Mp::ZERO; movers.len()];
        let mut spent = Vec::with_capacity(path.len());
        let mut refused = None;
        let mut from = start;
        'path: for (k, &to) in path.iter().enumerate() {
            for (i, m) in movers.iter().enumerate() {
                let cost = match movement::step(&board, &zocs, side, m, pieces, from, to) {
                    Ok(c) => c,
                    Err(e) => {
                        refused = Some(e);
                        break 'path;
                    }
                };
                if let Some(rule) = m.one_hex {
                    if k > 0 || m.hexes > 0 {
                        refused = Some(err(
                            rule,
                            RuleCode::Illegal,
                            format!("{} may move one hex only this phase", m.id),
                        ));
                        break 'path;
                    }
                    // "Regardless of terrain cost": the hex takes it all.
                    totals[i] = m.left();
                    continue;
                }
                if m.spent + totals[i] + cost > m.allowance {
                    refused = Some(err(
                        "GBACW 5.11",
                        RuleCode::Illegal,
                        format!(
                            "{} needs {} Movement Points to enter {to} and has {} left",
                            m.id,
                            totals[i] + cost,
                            m.left()
                        ),
                    ));
                    break 'path;
                }
                totals[i] = totals[i] + cost;
            }
            spent.push(totals.iter().copied().max().unwrap_or(Mp::ZERO));
            from = to;
        }
        let stop = if spent.is_empty() {
            Err(refused
                .clone()
                .unwrap_or_else(|| err("GBACW 5.16", RuleCode::Invalid, "the path has no hex")))
        } else {
            movement::plan(self, state, side, pieces, &path[..spent.len()]).map(|_| ())
        };
        PathPreview {
            spent,
            left,
            refused,
            stop,
        }
    }
}
