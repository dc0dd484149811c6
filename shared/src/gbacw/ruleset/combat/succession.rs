//! Leader succession in the hosted ruleset (17.8–17.85): who leads a
//! brigade or division after battlefield losses, and the successions
//! carried out in the owner's Final Command Phase.
//!
//! The pure rule is [`crate::gbacw::leaders::succession`]; this file
//! keeps its answers in the state ([`LeaderSuccession`]) and gives the
//! rest of the ruleset the leader and ratings now in charge.
//!
//! Decisions (docs/gbacw-notes.md, "The hosted ruleset, part 2"):
//! - A division commander's place goes to the first of the scenario's
//!   `replace` chain (Cedar Mountain 25.32, 25.33) still on the map, else
//!   to the first subordinate brigade commander by id on the map (17.83:
//!   "detailed in the Exclusive Rules").
//! - The promoted commander's brigade is then led by one of the pool's
//!   anonymous "Brigade Cmdr REPL" counters (17.83; `setup pool`), the
//!   first free one by id; with none free it has no commander.
//! - A successor is placed on a unit of his command (17.8); the owner
//!   chooses it with `ReplaceLeader`, else the first such unit by id at
//!   the end of the phase. With no unit of the command on the map, he
//!   waits for a later Final Command Phase.

use crate::engine::{RuleCode, RuleError};
use crate::gbacw::leaders::{Succession, promotion_candidates, succession};
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{BrigadeRatings, Command, CounterId, LeaderRole};
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::{
    GbacwState, LeaderSuccession, SuccessionKind, SuccessionRecord,
};
use crate::gbacw::ruleset::{Gbacw, err};
use std::collections::BTreeSet;

/// The leader counter now commanding brigade `brigade` (its original
/// commander's id): its stand-in when that commander was promoted, `None`
/// when the pool had no one for it, else the commander himself.
pub(crate) fn brigade_commander(state: &GbacwState, brigade: &CounterId) -> Option<CounterId> {
    let s = &state.succession;
    if let Some(x) = s.stand_ins.get(brigade) {
        return Some(x.clone());
    }
    if s.promoted.values().any(|p| p == brigade) {
        return None;
    }
    Some(brigade.clone())
}

/// GBACW 17.1, 17.81: the ratings a brigade commander's counter shows
/// now: the REPL side once flipped.
pub(crate) fn brigade_ratings(
    rs: &Gbacw,
    state: &GbacwState,
    leader: &CounterId,
) -> Option<BrigadeRatings> {
    match &rs.game.oob.leaders.get(leader)?.role {
        LeaderRole::Brigade {
            ratings,
            replacement,
            ..
        } => {
            if state.succession.flipped.contains(leader) {
                *replacement
            } else {
                Some(*ratings)
            }
        }
        LeaderRole::Replacement { ratings } => Some(*ratings),
        _ => None,
    }
}

/// GBACW 17.2, 17.83, 17.85: the leader counter commanding division
/// `division` now and his Divisional Integrity Radius: the promoted
/// brigade commander (his bracketed radius) once the division commander
/// was replaced.
pub(crate) fn division_commander(
    rs: &Gbacw,
    state: &GbacwState,
    division: &CounterId,
) -> Option<(CounterId, u8)> {
    if let Some(p) = state.succession.promoted.get(division) {
        let radius = match &rs.game.oob.leaders.get(p)?.role {
            // Cedar Mountain 25.3: an anonymous replacement may lead one.
            LeaderRole::Brigade { ratings, .. } | LeaderRole::Replacement { ratings } => {
                ratings.promoted_radius?
            }
            _ => return None,
        };
        return Some((p.clone(), radius));
    }
    match &rs.game.oob.leaders.get(division)?.role {
        LeaderRole::Division {
            integrity_radius, ..
        } => Some((division.clone(), *integrity_radius)),
        _ => None,
    }
}

/// The brigade (original commander's id) a stand-in leads, if any.
fn stood_in_for<'a>(s: &'a LeaderSuccession, leader: &CounterId) -> Option<&'a CounterId> {
    s.stand_ins
        .iter()
        .find(|(_, x)| *x == leader)
        .map(|(b, _)| b)
}

/// The division a promoted commander leads, if any.
fn leads_division<'a>(s: &'a LeaderSuccession, leader: &CounterId) -> Option<&'a CounterId> {
    s.promoted
        .iter()
        .find(|(_, p)| *p == leader)
        .map(|(d, _)| d)
}

/// The units whose command a leader counter would join: a brigade
/// commander's (or a stand-in's) brigade, a division commander's
/// brigades.
fn command_units(
    rs: &Gbacw,
    state: &GbacwState,
    brigade: &CounterId,
) -> Vec<(CounterId, HexNumber)> {
    let oob = &rs.game.oob;
    // Cedar Mountain 25.3: an anonymous commander of a division joins any
    // unit of its brigades.
    let of_division = |b: &CounterId| {
        oob.leaders.get(b).is_some_and(
            |l| matches!(&l.role, LeaderRole::Brigade { division: Some(d), .. } if d == brigade),
        )
    };
    state
        .units
        .iter()
        .filter(|(id, _)| matches!(&oob.units[*id].command, Command::Brigade(b) if b == brigade || of_division(b)))
        .filter_map(|(id, u)| u.hex.map(|h| (id.clone(), h)))
        .collect()
}

/// Where the successor to `lost` may be placed (17.8: on any unit of his
/// command), first by unit id; and the counter placed. `None` when no
/// succession applies (army commanders, 17.3; a brigade counter with no
/// REPL side, 17.81).
pub(crate) struct Plan {
    pub kind: SuccessionKind,
    /// The counter to place, and the brigade whose units he may join.
    pub placing: Option<(CounterId, CounterId)>,
}

/// GBACW 17.81–17.85: what the succession to `lost` (of the owner's
/// side, off the map with a casualty) would be now.
pub(crate) fn plan(rs: &Gbacw, state: &GbacwState, lost: &CounterId) -> Option<Plan> {
    let oob = &rs.game.oob;
    let s = &state.succession;
    if s.replaced.contains(lost) {
        return None;
    }
    // A promoted commander lost leads to a new promotion for his division.
    let division = match leads_division(s, lost) {
        Some(d) => Some(d.clone()),
        None => {
            matches!(oob.leaders.get(lost)?.role, LeaderRole::Division { .. }).then(|| lost.clone())
        }
    };
    if let Some(d) = division {
        let Some(promoted) = promotion_choice(rs, state, &d) else {
            return anonymous_division_commander(rs, state, &d);
        };
        // 17.83: an anonymous replacement leads the promoted one's brigade.
        let stand_in = pool(rs, state, &oob.leaders[&d].side).into_iter().next();
        return Some(Plan {
            placing: stand_in.clone().map(|x| (x, promoted.clone())),
            kind: SuccessionKind::Promote {
                division: d,
                promoted,
                stand_in,
            },
        });
    }
    let flipped = s.flipped.contains(lost);
    let answer = succession(oob, lost, flipped, None).ok()?;
    let brigade = stood_in_for(s, lost)
        .cloned()
        .unwrap_or_else(|| lost.clone());
    match answer {
        Succession::Flip { .. } => Some(Plan {
            kind: SuccessionKind::Flip,
            placing: Some((lost.clone(), brigade)),
        }),
        // A pool counter lost while no brigade needed it is simply back in
        // the pool: nothing to place.
        Succession::Redeploy { .. }
            if stood_in_for(s, lost).is_none()
                && matches!(oob.leaders[lost].role, LeaderRole::Replacement { .. }) =>
        {
            None
        }
        Succession::Redeploy { .. } => Some(Plan {
            kind: SuccessionKind::Redeploy,
            placing: Some((lost.clone(), brigade)),
        }),
        Succession::Promote { .. } | Succession::ExclusiveRules => None,
    }
}

/// Cedar Mountain 25.3: "a division commander may only be replaced by an
/// anonymous brigade commander replacement if *all* the leaders on the
/// list of replacements for that division are casualties." With a
/// scenario list (`replace`) and no one on it left, the first free pool
/// counter leads the division (with its bracketed radius, 17.85), placed
/// on a unit of the division; no stand-in is needed.
fn anonymous_division_commander(
    rs: &Gbacw,
    state: &GbacwState,
    division: &CounterId,
) -> Option<Plan> {
    rs.game
        .scenario
        .replacements
        .iter()
        .any(|r| r.leader == *division)
        .then_some(())?;
    let anonymous = pool(rs, state, &rs.game.oob.leaders[division].side)
        .into_iter()
        .next()?;
    Some(Plan {
        placing: Some((anonymous.clone(), division.clone())),
        kind: SuccessionKind::Promote {
            division: division.clone(),
            promoted: anonymous,
            stand_in: None,
        },
    })
}

/// GBACW 17.83: the brigade commander promoted to lead `division`: the
/// first of the scenario's chain for it, else of its subordinates by id,
/// who is on the map, not lost and not promoted already.
///
/// Cedar Mountain 25.3: "if that leader is already a casualty, the second
/// replacement is selected": the chain names the men, so a commander
/// whose counter has been flipped to its REPL side (he was a casualty,
/// 17.81: another officer now leads his brigade) is passed over.
///
/// Corinth 28.32: on a full tie the owner's choice, once made
/// ([`promotion_tie`]), is the one promoted.
fn promotion_choice(rs: &Gbacw, state: &GbacwState, division: &CounterId) -> Option<CounterId> {
    let (chain, _) = promotion_chain(rs, state, division);
    match state.succession.chosen.get(division) {
        Some(c) if chain.contains(c) => Some(c.clone()),
        _ => chain.into_iter().next(),
    }
}

/// The brigade commanders who may be promoted to lead `division` now, in
/// the order they would be, and whether the chain is the scenario's own
/// list (Cedar Mountain 25.3) rather than the division's brigades.
fn promotion_chain(rs: &Gbacw, state: &GbacwState, division: &CounterId) -> (Vec<CounterId>, bool) {
    let s = &state.succession;
    let listed = rs
        .game
        .scenario
        .replacements
        .iter()
        .find(|r| r.leader == *division)
        .map(|r| r.by.clone());
    let named = listed.is_some();
    let chain = listed.unwrap_or_else(|| promotion_candidates(&rs.game.oob, division));
    // The battle's own rule here (hook `succession_order`).
    let chain = rs.battle().succession_order(rs, state, chain);
    let eligible = chain
        .into_iter()
        .filter(|c| {
            state
                .leaders
                .get(c)
                .is_some_and(|l| l.hex.is_some() && l.casualty.is_none())
                && !(named && s.flipped.contains(c))
                && leads_division(s, c).is_none()
                && matches!(rs.game.oob.leaders[c].role, LeaderRole::Brigade { .. })
        })
        .collect();
    (eligible, named)
}

/// Corinth 28.32: a promotion the owner must choose: the lost leader,
/// the division, and the candidates that tie for it.
pub(crate) struct PromotionTie {
    pub lost: CounterId,
    pub division: CounterId,
    pub tied: Vec<CounterId>,
}

/// Corinth 28.32: "If there is still a tie, the player has his choice."
/// The tie for the command of the division `lost` led (a division
/// commander, or a brigade commander promoted to lead one), when the
/// battle leaves the choice to the player and it is not made yet; the
/// candidates in the order the default takes (today's pick first).
pub(crate) fn promotion_tie(
    rs: &Gbacw,
    state: &GbacwState,
    lost: &CounterId,
) -> Option<PromotionTie> {
    let s = &state.succession;
    let l = state.leaders.get(lost)?;
    if l.hex.is_some() || l.casualty.is_none() || s.replaced.contains(lost) {
        return None;
    }
    let division = match leads_division(s, lost) {
        Some(d) => d.clone(),
        None => matches!(
            rs.game.oob.leaders.get(lost)?.role,
            LeaderRole::Division { .. }
        )
        .then(|| lost.clone())?,
    };
    let (chain, named) = promotion_chain(rs, state, &division);
    if named {
        return None;
    }
    let n = rs.battle().succession_ties(rs, state, &chain);
    let tied: Vec<CounterId> = chain.into_iter().take(n).collect();
    let chosen = s.chosen.get(&division).is_some_and(|c| tied.contains(c));
    (tied.len() > 1 && !chosen).then(|| PromotionTie {
        lost: lost.clone(),
        division,
        tied,
    })
}

/// GBACW 17.83: the pool's free anonymous replacement counters of `side`,
/// by id. A side's brigade is led by its own side's replacement counter,
/// never the enemy's: the pool holds both sides' counters, and a Union
/// division once took the Confederate "c-repl-1", whose loss then scored
/// for the wrong side (Cedar Mountain 27.21; second reading,
/// `cedar_27_21_promoted_commander_counts_as_division`).
fn pool(rs: &Gbacw, state: &GbacwState, side: &CounterId) -> Vec<CounterId> {
    let s = &state.succession;
    let busy: BTreeSet<&CounterId> = s.stand_ins.values().collect();
    state
        .leaders
        .iter()
        .filter(|(id, l)| {
            let counter = &rs.game.oob.leaders[*id];
            matches!(counter.role, LeaderRole::Replacement { .. })
                && counter.side == *side
                && l.hex.is_none()
                && l.casualty.is_none()
                && !busy.contains(id)
        })
        .map(|(id, _)| id.clone())
        .collect()
}

/// The owner's lost leaders waiting for a successor, by id.
pub(crate) fn waiting(rs: &Gbacw, state: &GbacwState, side: &CounterId) -> Vec<CounterId> {
    state
        .leaders
        .iter()
        .filter(|(id, l)| {
            rs.game.oob.leaders[*id].side == *side && l.hex.is_none() && l.casualty.is_some()
        })
        .filter(|(id, _)| plan(rs, state, id).is_some())
        .map(|(id, _)| id.clone())
        .collect()
}

/// The hexes a successor to `lost` may be placed in now, in hex order.
pub(crate) fn places(rs: &Gbacw, state: &GbacwState, lost: &CounterId) -> Vec<HexNumber> {
    let Some(Plan {
        placing: Some((_, brigade)),
        ..
    }) = plan(rs, state, lost)
    else {
        return Vec::new();
    };
    let mut hexes: Vec<HexNumber> = command_units(rs, state, &brigade)
        .into_iter()
        .map(|(_, h)| h)
        .collect();
    hexes.sort();
    hexes.dedup();
    hexes
}

/// GBACW 17.8: carry out the succession to `lost` of `side`, placing the
/// new counter in `hex` (`None`: the first unit of his command by id).
/// `Ok(None)` when it must wait: nowhere to place him yet.
pub(crate) fn succeed(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    lost: &CounterId,
    hex: Option<HexNumber>,
) -> Result<Option<GbacwEvent>, RuleError> {
    let Some(l) = state.leaders.get(lost) else {
        return Err(err(
            "GBACW 17.8",
            RuleCode::NotFound,
            format!("there is no leader {lost}"),
        ));
    };
    if rs.game.oob.leaders[lost].side != *side {
        return Err(err(
            "GBACW 17.8",
            RuleCode::NotYours,
            format!("{lost} is the enemy's"),
        ));
    }
    let plan = match (l.hex, l.casualty, plan(rs, state, lost)) {
        (None, Some(_), Some(p)) => p,
        _ => {
            return Err(err(
                "GBACW 17.8",
                RuleCode::Illegal,
                format!("{lost} is not a lost leader awaiting a successor"),
            ));
        }
    };
    let placed = match &plan.placing {
        None => None,
        Some((who, brigade)) => {
            let units = command_units(rs, state, brigade);
            let at = match hex {
                Some(h) if units.iter().any(|(_, u)| *u == h) => h,
                Some(h) => {
                    return Err(err(
                        "GBACW 17.8",
                        RuleCode::Illegal,
                        format!("{h} holds no unit of {who}'s command"),
                    ));
                }
                None => match units.first() {
                    Some((_, h)) => *h,
                    None => return Ok(None),
                },
            };
            Some((who.clone(), at))
        }
    };
    Ok(Some(GbacwEvent::LeaderSucceeded(SuccessionRecord {
        lost: lost.clone(),
        kind: plan.kind,
        placed,
    })))
}

/// GBACW 17.84: at the end of the owner's Final Command Phase every
/// succession still due is carried out, each successor on the first unit
/// of his command.
pub(crate) fn end_of_final_command(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
) -> Vec<GbacwEvent> {
    let mut s = state.clone();
    let mut out = Vec::new();
    // One at a time: a promotion takes a pool counter another may want.
    for lost in waiting(rs, state, side) {
        if let Ok(Some(e)) = succeed(rs, &s, side, &lost, None) {
            crate::gbacw::ruleset::event::evolve(&mut s, &e);
            out.push(e);
        }
    }
    out
}
