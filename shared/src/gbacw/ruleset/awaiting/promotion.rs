//! Corinth 28.32: "A division commander who becomes a casualty is replaced
//! by the brigade commander in this division with the highest rank (see
//! 20.2). If two or more brigade commanders have the same rank, the one
//! with the highest Effectiveness Radius is promoted. If there is still a
//! tie, the player has his choice."
//!
//! Asked when the choice is due: in the owner's Final Command Phase, where
//! lost leaders are succeeded (GBACW 17.84), before any other action of
//! the phase, for each lost division commander (or promoted brigade
//! commander) whose candidates still tie after rank and radius
//! (`succession::promotion_tie`). The answer is kept
//! (`LeaderSuccession::chosen`) and the succession, by `ReplaceLeader` or
//! at the phase's end, promotes the one chosen. The default on a timeout
//! is the engine's pick before the choice existed: the first of the tie
//! by id.

use crate::engine::{PendingDecision, RuleCode, RuleError};
use crate::gbacw::oob::CounterId;
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::combat::succession::{self, PromotionTie};
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::ruleset::{Gbacw, WITHDRAWAL_DEADLINE_SECS, err};
use crate::gbacw::sequence::{Phase, Step};
use crate::gbacw::words::{counter_name, seat_name};
use crate::ids::SeatId;

/// The lost leader whose successor's tie waits for his owner's choice:
/// the phasing side's, in its Final Command Phase; `None` otherwise.
pub(super) fn due<'s>(rs: &Gbacw, state: &'s GbacwState) -> Option<&'s CounterId> {
    let Step::Phase {
        player,
        phase: Phase::FinalCommand,
    } = state.clock.step
    else {
        return None;
    };
    let side = rs.side_of_turn(player);
    state
        .leaders
        .iter()
        .filter(|(id, l)| {
            l.hex.is_none()
                && l.casualty.is_some()
                && rs
                    .game
                    .oob
                    .leaders
                    .get(*id)
                    .is_some_and(|x| x.side == *side)
        })
        .map(|(id, _)| id)
        .find(|id| succession::promotion_tie(rs, state, id).is_some())
}

fn tie(rs: &Gbacw, state: &GbacwState, lost: &CounterId) -> Option<PromotionTie> {
    succession::promotion_tie(rs, state, lost)
}

pub(super) fn seat(rs: &Gbacw, lost: &CounterId) -> Option<SeatId> {
    rs.game.oob.leaders.get(lost).map(|l| rs.seat_of(&l.side))
}

/// "Hebert is lost: Green and Gates tie for the command of his division
/// (the same rank and Effectiveness Radius). Choose who is promoted".
pub(super) fn prompt(rs: &Gbacw, state: &GbacwState, lost: &CounterId) -> String {
    let Some(t) = tie(rs, state, lost) else {
        return String::new();
    };
    let mut names: Vec<String> = t.tied.iter().map(|c| counter_name(rs, c)).collect();
    let last = names.pop().unwrap_or_default();
    let names = if names.is_empty() {
        last
    } else {
        format!("{} and {last}", names.join(", "))
    };
    let whose = if t.division == t.lost {
        "his division".to_string()
    } else {
        format!("{}'s division", counter_name(rs, &t.division))
    };
    format!(
        "{} is lost: {} tie for the command of {whose} (the same rank and Effectiveness Radius). Choose who is promoted",
        counter_name(rs, &t.lost),
        names
    )
}

fn answer(division: &CounterId, leader: &CounterId) -> GbacwAction {
    GbacwAction::ChoosePromotion {
        division: division.clone(),
        leader: leader.clone(),
    }
}

pub(super) fn pending(
    rs: &Gbacw,
    state: &GbacwState,
    lost: &CounterId,
) -> Option<PendingDecision<GbacwAction>> {
    let t = tie(rs, state, lost)?;
    Some(PendingDecision {
        seat: seat(rs, lost)?,
        rule: rs.case_rule("28.32"),
        prompt: prompt(rs, state, lost),
        // The engine's pick before the choice: the first of the tie by id.
        default: answer(&t.division, t.tied.first()?),
        deadline_secs: WITHDRAWAL_DEADLINE_SECS,
    })
}

/// One answer per candidate of the tie.
pub(super) fn legal(
    rs: &Gbacw,
    state: &GbacwState,
    lost: &CounterId,
    seat_asked: SeatId,
) -> Vec<GbacwAction> {
    match tie(rs, state, lost) {
        Some(t) if seat(rs, lost) == Some(seat_asked) => {
            t.tied.iter().map(|c| answer(&t.division, c)).collect()
        }
        _ => Vec::new(),
    }
}

pub(super) fn decide(
    rs: &Gbacw,
    state: &GbacwState,
    lost: &CounterId,
    seat_asking: SeatId,
    action: &GbacwAction,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let rule = rs.case_rule("28.32");
    let Some(t) = tie(rs, state, lost) else {
        return Err(err(&rule, RuleCode::Illegal, "no promotion waits"));
    };
    let owner = seat(rs, lost);
    if owner != Some(seat_asking) {
        return Err(err(
            &rule,
            RuleCode::NotYourTurn,
            format!(
                "waiting for {} to choose who commands {}'s division",
                owner.map_or_else(String::new, |s| seat_name(rs, s)),
                t.division
            ),
        ));
    }
    match action {
        GbacwAction::ChoosePromotion { division, leader }
            if *division == t.division && t.tied.contains(leader) =>
        {
            Ok(vec![GbacwEvent::PromotionChosen {
                division: division.clone(),
                leader: leader.clone(),
            }])
        }
        GbacwAction::ChoosePromotion { leader, .. } => Err(err(
            &rule,
            RuleCode::Illegal,
            format!(
                "{leader} is not one of those tied for {}'s division: {}",
                t.division,
                t.tied
                    .iter()
                    .map(|c| c.0.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
        _ => Err(err(
            &rule,
            RuleCode::Illegal,
            format!(
                "choose first who is promoted to command {}'s division",
                t.division
            ),
        )),
    }
}
