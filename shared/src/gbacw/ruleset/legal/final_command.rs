//! The Final Command Phase's candidates (GBACW 17.8, 11.18).

use super::Own;
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::combat::succession;
use crate::gbacw::ruleset::state::GbacwState;

/// GBACW 17.8: each successor on each unit of his command (up to four
/// hexes).
pub(super) fn succession_actions(
    rs: &Gbacw,
    state: &GbacwState,
    own: &Own<'_>,
    out: &mut Vec<GbacwAction>,
) {
    for lost in succession::waiting(rs, state, own.side) {
        for hex in succession::places(rs, state, &lost).into_iter().take(4) {
            out.push(GbacwAction::ReplaceLeader {
                lost: lost.clone(),
                hex,
            });
        }
    }
}

/// GBACW 11.18: each uncrewed wagon with each unit on its hex that may
/// crew it (`decide` keeps the legal ones).
pub(super) fn recrew_actions(
    rs: &Gbacw,
    state: &GbacwState,
    own: &Own<'_>,
    out: &mut Vec<GbacwAction>,
) {
    for (wagon, unit) in crate::gbacw::ruleset::combat::recrew::candidates(rs, state, own.side) {
        out.push(GbacwAction::Recrew { wagon, unit });
    }
}
