//! GBACW 18.0 in the hosted ruleset: each brigade's Brigade Combat
//! Effectiveness boxes, marked by its infantry and cavalry losses.
//!
//! The ledger is not kept as a separate record in the state: it is worked
//! out from the units' losses, which every loss event already folds in
//! (`UnitHit` for Strength Points killed, `PointsCaptured` and a captured
//! `UnitRemoved` for prisoners, a unit gone off the map without exiting).
//! A stored copy would need the order of battle inside `evolve` (which
//! has none) and could drift from the units it counts; worked out, it is
//! always the same on the server, on every follower and in the middle of
//! a resolution (a morale check right after the loss that broke the
//! brigade sees the brigade broken).
//!
//! What losing BCE does is the exclusive rules' (Cedar Mountain 24.0,
//! `cedar/bce_loss.rs`); the Standard Rules' own consequence is 17.67 (a
//! brigade past its limit may not be detached, `decide/command.rs`).

use super::Gbacw;
use super::event::GbacwEvent;
use super::state::GbacwState;
use crate::gbacw::bce::{BceEvent, BceLedger, BceTrack, StandardBce};
use crate::gbacw::oob::{Command, CounterId, UnitKind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// One brigade's BCE boxes as the client shows them (18.0: the OB
/// Roster's "13 of 18 = 17 VP's").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BrigadeBce {
    /// The brigade's leader id (brigades are named by their commander).
    pub brigade: CounterId,
    pub side: CounterId,
    /// Boxes to the left of the Victory Point award: the BCE limit.
    pub boxes: u16,
    /// The brigade's total strength as the roster prints it.
    pub total: u16,
    /// Cedar Mountain 27.21: what the enemy scores once the limit is
    /// reached.
    pub victory_points: u16,
    /// Boxes marked: Strength Points its infantry and cavalry have lost,
    /// killed or captured (18.0).
    pub losses: u16,
    /// GBACW 18.0: every box left of the award is marked.
    pub at_limit: bool,
}

/// Strength Points `unit` has lost that mark BCE boxes (18.0: infantry and
/// cavalry only; guns and crews mark none).
pub(crate) fn unit_losses(rs: &Gbacw, state: &GbacwState, unit: &CounterId) -> u16 {
    let Some(u) = rs.game.oob.units.get(unit) else {
        return 0;
    };
    if !matches!(u.kind, UnitKind::Infantry | UnitKind::Cavalry) {
        return 0;
    }
    u16::try_from(rs.strength_lost(state, unit)).unwrap_or(u16::MAX)
}

/// GBACW 18.0: every roster brigade's boxes, marked through the pure
/// ledger ([`BceLedger::record`]) with the Standard Rules' factors (one
/// box per infantry or cavalry Strength Point lost; Cedar Mountain adds
/// none: 21.2 turns ammunition off and 24.0 names no other factor).
pub(crate) fn ledger(rs: &Gbacw, state: &GbacwState) -> BceLedger {
    let oob = &rs.game.oob;
    let mut ledger = BceLedger {
        brigades: oob
            .bce
            .iter()
            .map(|(b, r)| {
                (
                    b.clone(),
                    BceTrack {
                        limit: limit_now(rs, state, b, r.limit),
                        marked: 0,
                    },
                )
            })
            .collect(),
    };
    for (id, unit) in &oob.units {
        let Command::Brigade(b) = &unit.command else {
            continue;
        };
        let points = unit_losses(rs, state, id);
        if points == 0 {
            continue;
        }
        ledger.record(
            &StandardBce,
            b,
            &BceEvent::StrengthLost {
                kind: unit.kind.clone(),
                points: u8::try_from(points).unwrap_or(u8::MAX),
            },
        );
    }
    ledger
}

/// GBACW 18.0: the brigades that have lost their BCE now.
pub(crate) fn lost_brigades(rs: &Gbacw, state: &GbacwState) -> BTreeSet<CounterId> {
    ledger(rs, state)
        .brigades
        .into_iter()
        .filter(|(_, t)| t.lost())
        .map(|(b, _)| b)
        .collect()
}

/// GBACW 18.0: whether `brigade` has reached its BCE limit. A brigade the
/// roster gives no boxes never does.
pub(crate) fn at_limit(rs: &Gbacw, state: &GbacwState, brigade: &CounterId) -> bool {
    let Some(record) = rs.game.oob.bce.get(brigade) else {
        return false;
    };
    let losses: u32 = rs
        .game
        .oob
        .units
        .iter()
        .filter(|(_, u)| matches!(&u.command, Command::Brigade(b) if b == brigade))
        .map(|(id, _)| u32::from(unit_losses(rs, state, id)))
        .sum();
    losses >= u32::from(limit_now(rs, state, brigade, record.limit))
}

/// The limit a brigade's boxes count to now: the roster's, or its second
/// day's once Corinth 26.32 extended it (`BattleRules::bce_limit`).
fn limit_now(rs: &Gbacw, state: &GbacwState, brigade: &CounterId, roster: u16) -> u16 {
    rs.battle().bce_limit(rs, state, brigade, roster)
}

impl Gbacw {
    /// GBACW 18.0: every roster brigade's BCE boxes, losses and whether it
    /// is at its limit, in brigade id order (for the client's roster).
    pub fn bce(&self, state: &GbacwState) -> Vec<BrigadeBce> {
        let ledger = ledger(self, state);
        self.game
            .oob
            .bce
            .iter()
            .filter_map(|(b, r)| {
                let side = self.game.oob.leaders.get(b)?.side.clone();
                let track = ledger.brigades.get(b).copied().unwrap_or_default();
                Some(BrigadeBce {
                    brigade: b.clone(),
                    side,
                    boxes: limit_now(self, state, b, r.limit),
                    total: r.total,
                    victory_points: r.victory_points,
                    losses: track.marked,
                    at_limit: track.lost(),
                })
            })
            .collect()
    }

    /// GBACW 18.0: the hook the exclusive rules call: has `brigade` reached
    /// its BCE limit?
    pub fn brigade_at_bce_limit(&self, state: &GbacwState, brigade: &CounterId) -> bool {
        at_limit(self, state, brigade)
    }
}

/// GBACW 18.0: after an action's events, say which brigades lost their
/// BCE through them (`BceLost`, once per brigade, after the events), so the
/// log and the players see it happen. The state itself needs no change:
/// the losses are already in it.
pub(crate) fn with_bce_lost(
    rs: &Gbacw,
    state: &GbacwState,
    events: Vec<GbacwEvent>,
) -> Vec<GbacwEvent> {
    if rs.game.oob.bce.is_empty() || !events.iter().any(is_loss) {
        return events;
    }
    let before = lost_brigades(rs, state);
    let mut after_state = state.clone();
    for e in &events {
        super::event::evolve(&mut after_state, e);
    }
    let after = lost_brigades(rs, &after_state);
    let mut out = events;
    out.extend(
        after
            .difference(&before)
            .map(|b| GbacwEvent::BceLost { brigade: b.clone() }),
    );
    out
}

/// Events that can take Strength Points away.
fn is_loss(e: &GbacwEvent) -> bool {
    matches!(
        e,
        GbacwEvent::UnitHit { .. }
            | GbacwEvent::PointsCaptured { .. }
            | GbacwEvent::UnitRemoved { .. }
    )
}
