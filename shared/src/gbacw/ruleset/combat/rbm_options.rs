//! The retreats before melee the legal set offers the defender (12.81):
//! every path of one *or two* hexes away from the threatened hex, found by
//! the ruleset's own retreat search (the step table, so Corinth 23.31
//! binds; never into enemy units or a ZOC that counts against the first
//! threatened unit, 12.82). `legal_actions` keeps only those `decide`
//! accepts, which checks every threatened unit, the exclusive rules'
//! directions (Cedar Mountain 23.0, Corinth 27.0) and the stacking at the
//! end.

use super::effects::{retreat_blocks, retreat_class};
use crate::gbacw::map::HexNumber;
use crate::gbacw::retreat::{
    MAX_LENGTH, RetreatKind, RetreatLimits, rbm_length_ok, retreat_paths_on,
};
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::state::{GbacwState, RbmOffer};

/// GBACW 12.81: "one or two hexes away from the hex they are in": the
/// candidate paths for `offer`'s threatened units moving together, the
/// one-hex paths first. At most 6 + 18 on a hex grid, so the legal set
/// stays small.
pub(crate) fn candidate_paths(
    rs: &Gbacw,
    state: &GbacwState,
    offer: &RbmOffer,
) -> Vec<Vec<HexNumber>> {
    let Some(first) = offer
        .threatened
        .iter()
        .find(|u| state.units.get(*u).is_some_and(|s| s.hex.is_some()))
    else {
        return Vec::new();
    };
    let board = Board::new(rs, state);
    let mut blocks = retreat_blocks(rs, state, &board, first, offer.target);
    // The retreat is the defender's choice, not a forced one: 14.3's
    // preference for hexes free of friends does not narrow it (the end
    // hex's stacking is `decide`'s to check, 8.1).
    blocks.friendly_units.clear();
    let class = retreat_class(state, first);
    (1..=MAX_LENGTH)
        .filter(|n| rbm_length_ok(*n))
        .flat_map(|length| {
            retreat_paths_on(
                &rs.game.map,
                &rs.steps,
                class,
                offer.target,
                length,
                RetreatKind::BeforeMelee,
                &blocks,
                &RetreatLimits::default(),
            )
        })
        .map(|p| p.hexes)
        .collect()
}
