//! GBACW 13.43, 17.74: a leader whose stack's top unit routed goes with
//! it or stays with the units beneath. 13.43: "Leaders in a stack may
//! choose to retreat with a routed unit or remain with the unit beneath
//! (and take their chances there)."; 17.74: "Leaders never rout, although
//! they may retreat with units that do rout."
//!
//! Asked before the routed unit's path is chosen (14.4): going, the
//! leader ends where the unit ends its retreat; if it has already
//! retreated, he is placed with it at once. Staying is the default.

use crate::engine::{PendingDecision, RuleCode, RuleError};
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::{GbacwState, LeaderRoutOffer};
use crate::gbacw::ruleset::{Gbacw, WITHDRAWAL_DEADLINE_SECS, err};
use crate::ids::SeatId;

pub(super) fn prompt(rs: &Gbacw, o: &LeaderRoutOffer) -> String {
    format!(
        "{} routed from {}: {} goes with it or stays with the units beneath",
        crate::gbacw::words::counter_name(rs, &o.unit),
        o.hex,
        crate::gbacw::words::counter_name(rs, &o.leader)
    )
}

pub(super) fn pending(rs: &Gbacw, o: &LeaderRoutOffer) -> PendingDecision<GbacwAction> {
    PendingDecision {
        seat: o.seat,
        rule: "GBACW 13.43".to_string(),
        prompt: prompt(rs, o),
        default: GbacwAction::LeaderRout {
            leader: o.leader.clone(),
            go: false,
        },
        deadline_secs: WITHDRAWAL_DEADLINE_SECS,
    }
}

/// Stay, or go while the routed unit is still on the map.
pub(super) fn legal(
    rs: &Gbacw,
    state: &GbacwState,
    o: &LeaderRoutOffer,
    seat: SeatId,
) -> Vec<GbacwAction> {
    if o.seat != seat {
        return Vec::new();
    }
    let mut out = vec![GbacwAction::LeaderRout {
        leader: o.leader.clone(),
        go: false,
    }];
    let go = GbacwAction::LeaderRout {
        leader: o.leader.clone(),
        go: true,
    };
    if decide(rs, state, o, seat, &go).is_ok() {
        out.push(go);
    }
    out
}

pub(super) fn decide(
    rs: &Gbacw,
    state: &GbacwState,
    o: &LeaderRoutOffer,
    seat: SeatId,
    action: &GbacwAction,
) -> Result<Vec<GbacwEvent>, RuleError> {
    if seat != o.seat {
        return Err(err(
            "GBACW 13.43",
            RuleCode::NotYourTurn,
            format!(
                "waiting for {} to choose where {} goes",
                crate::gbacw::words::seat_name(rs, o.seat),
                o.leader
            ),
        ));
    }
    match action {
        GbacwAction::LeaderRout { leader, go } if *leader == o.leader => {
            let answered = |to| {
                Ok(vec![GbacwEvent::LeaderRoutAnswered {
                    leader: leader.clone(),
                    unit: o.unit.clone(),
                    go: *go,
                    to,
                }])
            };
            if !*go {
                return answered(None);
            }
            match state.units.get(&o.unit).and_then(|u| u.hex) {
                None => Err(err(
                    "GBACW 13.43",
                    RuleCode::Illegal,
                    format!("{} is no longer on the map: {leader} stays", o.unit),
                )),
                // Its retreat is still to come: he goes with it.
                Some(h) if h == o.hex => answered(None),
                Some(h) => answered(Some(h)),
            }
        }
        _ => Err(err(
            "GBACW 13.43",
            RuleCode::Illegal,
            format!(
                "choose first whether {} goes with {} or stays",
                o.leader, o.unit
            ),
        )),
    }
}
