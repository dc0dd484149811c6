//! GBACW 17.8–17.85: battlefield promotions and replacements.

use crate::gbacw::oob::{BrigadeRatings, CounterId, LeaderRole, Oob};

/// Who takes over from a lost leader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Succession {
    /// GBACW 17.81: the brigade commander's counter is flipped to its
    /// replacement side, with these ratings.
    Flip {
        leader: CounterId,
        ratings: BrigadeRatings,
    },
    /// GBACW 17.82: a replacement (or a generic "Brigade Cmdr REPL") is
    /// lost: the same counter comes back with the same ratings; the loss
    /// still scores Victory Points.
    Redeploy {
        leader: CounterId,
        ratings: BrigadeRatings,
    },
    /// GBACW 17.83, 17.85: a subordinate brigade commander becomes the
    /// division commander, with his promoted Divisional Integrity Radius
    /// and no Command Points; his own brigade is then led by its
    /// replacement (17.81).
    Promote {
        division: CounterId,
        promoted: CounterId,
        integrity_radius: u8,
        command_points: u8,
        brigade_replacement: Box<Succession>,
    },
    /// Army commanders are the Exclusive Rules' business (17.3).
    ExclusiveRules,
}

/// GBACW 17.83: the brigade commanders who may be promoted in place of a
/// lost division commander, in id order. Which of them is chosen is
/// "detailed in the Exclusive Rules": the caller picks.
pub fn promotion_candidates(oob: &Oob, division: &CounterId) -> Vec<CounterId> {
    oob.leaders
        .values()
        .filter(
            |l| matches!(&l.role, LeaderRole::Brigade { division: Some(d), .. } if d == division),
        )
        .map(|l| l.id.clone())
        .collect()
}

/// The succession to `lost`. `flipped` says whether a brigade counter is
/// already on its replacement side; `promote` is the Exclusive Rules'
/// choice among [`promotion_candidates`] (the first when `None`).
/// `Err` names the case that cannot be followed.
pub fn succession(
    oob: &Oob,
    lost: &CounterId,
    flipped: bool,
    promote: Option<&CounterId>,
) -> Result<Succession, &'static str> {
    let leader = oob.leaders.get(lost).ok_or("GBACW 17.7")?;
    match &leader.role {
        LeaderRole::Army { .. } => Ok(Succession::ExclusiveRules),
        LeaderRole::Replacement { ratings } => Ok(Succession::Redeploy {
            leader: lost.clone(),
            ratings: *ratings,
        }),
        LeaderRole::Brigade {
            replacement: Some(r),
            ..
        } if flipped => Ok(Succession::Redeploy {
            leader: lost.clone(),
            ratings: *r,
        }),
        LeaderRole::Brigade {
            replacement: Some(r),
            ..
        } => Ok(Succession::Flip {
            leader: lost.clone(),
            ratings: *r,
        }),
        LeaderRole::Brigade {
            replacement: None, ..
        } => Err("GBACW 17.81"),
        LeaderRole::Division { .. } => {
            let candidates = promotion_candidates(oob, lost);
            let chosen = match promote {
                Some(c) => candidates.iter().find(|x| *x == c).ok_or("GBACW 17.83")?,
                None => candidates.first().ok_or("GBACW 17.83")?,
            };
            let Some(LeaderRole::Brigade { ratings, .. }) =
                oob.leaders.get(chosen).map(|l| &l.role)
            else {
                return Err("GBACW 17.83");
            };
            let integrity_radius = ratings.promoted_radius.ok_or("GBACW 17.85")?;
            let brigade_replacement = Box::new(succession(oob, chosen, false, None)?);
            Ok(Succession::Promote {
                division: lost.clone(),
                promoted: chosen.clone(),
                integrity_radius,
                command_points: 0,
                brigade_replacement,
            })
        }
    }
}

/// GBACW 17.8, 17.84: the Game-Turn in which a lost leader's successor
/// appears: the owner's next Final Command Phase — this Game-Turn's if the
/// loss came before it, else the next Game-Turn's.
pub fn placement_turn(lost_in_turn: u16, before_own_final_command: bool) -> u16 {
    if before_own_final_command {
        lost_in_turn
    } else {
        lost_in_turn.saturating_add(1)
    }
}
