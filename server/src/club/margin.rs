//! The victory-point margin of a finished game, for the standings'
//! tie-break (seat 0's victory points minus seat 1's).
//!
//! The engine's `Outcome` says who won and in what words; the points
//! themselves are the ruleset's. Only GBACW keeps victory points, so the
//! rooms (generic over their ruleset) ask here, and a game without them
//! has no margin.

use muster_shared::SeatId;
use muster_shared::engine::Ruleset;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwState};
use std::any::Any;

/// Seat 0's victory points less seat 1's, for a ruleset that counts them.
pub fn vp_margin<R: Ruleset>(rs: &R, state: &R::State) -> Option<i32> {
    let rs = (rs as &dyn Any).downcast_ref::<Gbacw>()?;
    let state = (state as &dyn Any).downcast_ref::<GbacwState>()?;
    Some(gbacw_margin(rs, state))
}

/// Cedar Mountain 27.1: the victory level comes from the difference of
/// the two sides' totals; the margin is that difference, signed for seat 0.
/// Corinth 31.1: one running tally for one side, in half points; the
/// margin is the tally in whole points (a half dropped toward zero), for
/// the tally side.
fn gbacw_margin(rs: &Gbacw, state: &GbacwState) -> i32 {
    if let (Some(t), Some(score)) = (&rs.game().scenario.victory.tally, rs.tally(state)) {
        let whole = score.total() / 2;
        return if rs.seat_of(&t.side) == SeatId(0) {
            whole
        } else {
            whole.saturating_neg()
        };
    }
    let vp = rs.victory_points(state);
    let of = |seat: u8| {
        let side = rs.side_of(SeatId(seat));
        vp.iter()
            .find(|p| p.side == *side)
            .map_or(0, |p| i64::from(p.total()))
    };
    let d = of(0) - of(1);
    i32::try_from(d).unwrap_or(if d < 0 { i32::MIN } else { i32::MAX })
}
