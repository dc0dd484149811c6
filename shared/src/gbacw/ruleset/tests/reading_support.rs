//! What the second-reading tests share (issue 19): answering a case's
//! pending decisions with their defaults, and checking a refusal's case.

use super::*;

/// Answer every pending decision with its default, with the scripted dice.
pub(super) fn settle(t: &mut T) -> Vec<GbacwEvent> {
    let mut all = Vec::new();
    for _ in 0..40 {
        let Some(d) = t.rs.pending(&t.s).into_iter().next() else {
            break;
        };
        all.extend(t.act(d.seat, d.default));
    }
    all
}

/// `a` must be refused citing `case` (a position's battle is called
/// "Position", so its exclusive rules cite as "Position 21.11").
pub(super) fn refused_case(t: &T, seat: SeatId, a: GbacwAction, case: &str) {
    let e = t
        .decide(seat, &a)
        .expect_err(&format!("{a:?} should be refused by {case}"));
    assert!(e.rule.ends_with(&format!(" {case}")), "{e}");
}
