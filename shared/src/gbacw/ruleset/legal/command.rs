//! The Initial Command Phase's candidates (GBACW 4.0 A, 17.0).

use super::Own;
use crate::gbacw::oob::{CounterId, LeaderRole};
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::action::GbacwAction;

/// The scenario's reserves, if `own` holds them: an attempt to commit
/// each (the battle's reserve rule decides it).
pub(super) fn reserve_commitments(rs: &Gbacw, own: &Own<'_>, out: &mut Vec<GbacwAction>) {
    use GbacwAction as A;
    let side = own.side;
    if rs.game.scenario.reserves.side.as_ref() == Some(side) {
        for r in &rs.game.scenario.reserves.list {
            out.push(A::CommitReserve {
                reserve: r.id.clone(),
            });
        }
    }
}

/// GBACW 17.2, 17.6: Command Points spent one at a time, and brigades
/// detached and attached.
pub(super) fn command_actions(rs: &Gbacw, own: &Own<'_>, out: &mut Vec<GbacwAction>) {
    use GbacwAction as A;
    let oob = &rs.game.oob;
    let is = |id: &CounterId, division: bool| {
        matches!(
            (&oob.leaders[id].role, division),
            (LeaderRole::Division { .. }, true) | (LeaderRole::Brigade { .. }, false)
        )
    };
    // An exclusive rule may let army commanders spend points, one at a
    // time, on each division commander (refused where the battle has no
    // such rule: `BattleRules::spend_command_points`).
    for (a, _) in own
        .leaders
        .iter()
        .filter(|(id, _)| matches!(oob.leaders[*id].role, LeaderRole::Army { .. }))
    {
        for (d, _) in own.leaders.iter().filter(|(id, _)| is(id, true)) {
            out.push(A::SpendCommandPoints {
                division: (*a).clone(),
                brigade: (*d).clone(),
                points: 1,
            });
        }
    }
    for (b, _) in own.leaders.iter().filter(|(id, _)| is(id, false)) {
        out.push(A::Detach {
            brigade: (*b).clone(),
        });
        // Army commanders' points on brigade commanders, likewise an
        // exclusive rule's (refused where the battle has none).
        for (a, _) in own
            .leaders
            .iter()
            .filter(|(id, _)| matches!(oob.leaders[*id].role, LeaderRole::Army { .. }))
        {
            out.push(A::SpendCommandPoints {
                division: (*a).clone(),
                brigade: (*b).clone(),
                points: 1,
            });
        }
        for (d, _) in own.leaders.iter().filter(|(id, _)| is(id, true)) {
            out.push(A::SpendCommandPoints {
                division: (*d).clone(),
                brigade: (*b).clone(),
                points: 1,
            });
            out.push(A::Attach {
                brigade: (*b).clone(),
                division: (*d).clone(),
            });
        }
    }
}
