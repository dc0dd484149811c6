//! Corinth 25.26: "The batteries of a brigade undergoing brigade retreat
//! are given the option to retreat; it is not mandatory. If unlimbered,
//! they may limber in order to retreat. This is the only way an artillery
//! unit may ever change formation in a Phase other than the friendly
//! Movement Phase." On with `hook brigade-retreat-batteries`.
//!
//! Once the brigade's other units have retreated (25.2, `brigade_retreat`),
//! the owning seat is offered the retreat of its batteries (a pending
//! decision whose default is to stay: declining is legal, 25.26 "not
//! mandatory"). It names the batteries that go; each unlimbered one limbers
//! at no cost, then each retreats as a unit of the brigade does (25.2: two
//! hexes and a morale check, three for a routed one, 25.21), drawing
//! withdrawal fire where it leaves an enemy ZOC (25.23).
//!
//! Decisions (docs/gbacw-notes.md): the batteries offered are those the
//! brigade retreat would move if they were infantry — on the map, not
//! pinned (25.22), inside the brigade commander's Effectiveness Radius —
//! and with a way to retreat (one without would only be captured, 25.24);
//! they go after the rest of the brigade; limbering here draws no
//! limbering fire (6.23): 25.26 makes it part of the retreat, and the
//! retreat's own fire is 25.23's.

use super::brigade_retreat::{BrigadeRun, go_on, in_radius};
use crate::engine::{Dice, RuleCode, RuleError};
use crate::gbacw::charts::Mp;
use crate::gbacw::oob::{Command, CounterId, Formation, Marker, UnitKind};
use crate::gbacw::retreat::RetreatKind;
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::combat::effects::retreat_options;
use crate::gbacw::ruleset::combat::{Roller, Unfold};
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::scenario::HookKind;
use crate::ids::SeatId;
use serde::{Deserialize, Serialize};

/// Corinth 25.26: the retreat offered to `brigade`'s `batteries`, asked of
/// their owner's `seat`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BatteryRetreatOffer {
    pub seat: SeatId,
    pub brigade: CounterId,
    pub batteries: Vec<CounterId>,
}

pub(crate) fn case(rs: &Gbacw) -> String {
    super::hook(rs, HookKind::BrigadeRetreatBatteries)
        .map(|h| crate::gbacw::ruleset::cedar::case(rs, &h.case))
        .unwrap_or_else(|| rs.case_rule("25.26"))
}

/// Whether `battery` may be offered the retreat now: on the map and not
/// pinned (25.22).
fn may_go(state: &GbacwState, battery: &CounterId) -> bool {
    state.units.get(battery).is_some_and(|s| {
        // Corinth 24.21: guns whose crew is away cannot go (a routed
        // limbered battery routs whole, 15.16, and goes three, 25.21).
        let crew_away =
            s.status.formation == Formation::Unlimbered && s.status.markers.contains(&Marker::Rout);
        s.hex.is_some() && !s.status.markers.contains(&Marker::Pin) && !crew_away
    })
}

/// Whether `battery`, limbered, has a way to retreat: one without would
/// be captured (25.24), which 25.26's option does not offer.
fn has_path(rs: &Gbacw, state: &GbacwState, battery: &CounterId) -> bool {
    let mut limbered = state.clone();
    let Some(st) = limbered.units.get_mut(battery) else {
        return false;
    };
    let routed = st.status.markers.contains(&Marker::Rout);
    st.status.formation = Formation::Limbered;
    let (length, kind) = if routed {
        (3, RetreatKind::Rout)
    } else {
        (2, RetreatKind::MeleeResult)
    };
    !retreat_options(rs, &limbered, battery, length, kind).is_empty()
}

/// Corinth 25.26: the batteries of `brigade` its brigade retreat offers
/// the retreat to (none where the battle does not play 25.26).
pub(crate) fn eligible(rs: &Gbacw, state: &GbacwState, brigade: &CounterId) -> Vec<CounterId> {
    if super::hook(rs, HookKind::BrigadeRetreatBatteries).is_none() {
        return Vec::new();
    }
    rs.game
        .oob
        .units
        .iter()
        .filter(|(id, u)| {
            matches!(u.kind, UnitKind::Battery { .. })
                && matches!(&u.command, Command::Brigade(b) if b == brigade)
                && may_go(state, id)
                && in_radius(rs, state, brigade, id)
        })
        .map(|(id, _)| id.clone())
        .collect()
}

/// Corinth 25.26: the rest of `run` has retreated; its batteries still
/// able are offered the retreat.
pub(crate) fn offer(rs: &Gbacw, u: &mut Unfold, run: BrigadeRun) {
    let batteries: Vec<CounterId> = run
        .batteries
        .into_iter()
        .filter(|b| may_go(&u.state, b) && has_path(rs, &u.state, b))
        .collect();
    // One offer at a time (another brigade's may wait already): the
    // batteries then stay, as declining would leave them.
    let Some(first) = batteries.first() else {
        return;
    };
    if u.state.battery_retreat.is_some() {
        return;
    }
    let side = &rs.game.oob.units[first].side;
    u.push(GbacwEvent::BatteryRetreatOffered(BatteryRetreatOffer {
        seat: rs.seat_of(side),
        brigade: run.brigade,
        batteries,
    }));
}

/// Corinth 25.26: the owner's answer: `chosen` retreat (each once, of
/// those offered; unlimbered ones limber first), or none (`None`).
pub(crate) fn answer(
    rs: &Gbacw,
    state: &GbacwState,
    offer: &BatteryRetreatOffer,
    chosen: Option<&[CounterId]>,
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    if let Some(c) = chosen {
        if c.is_empty() {
            return Err(crate::gbacw::ruleset::err(
                &case(rs),
                RuleCode::Invalid,
                "name the batteries that retreat, or decline",
            ));
        }
        for (k, b) in c.iter().enumerate() {
            if !offer.batteries.contains(b) || c[..k].contains(b) {
                return Err(crate::gbacw::ruleset::err(
                    &case(rs),
                    RuleCode::Illegal,
                    format!("{b} was not offered this retreat (each offered battery once)"),
                ));
            }
        }
    }
    let mut u = Unfold::new(state);
    u.push(GbacwEvent::BatteryRetreatAnswered);
    let Some(chosen) = chosen else {
        return Ok(u.events);
    };
    let mut roll = Roller::new(dice);
    for b in chosen {
        // 25.26: "If unlimbered, they may limber in order to retreat."
        if u.state.units[b].status.formation == Formation::Unlimbered {
            u.push(GbacwEvent::FormationChanged {
                unit: b.clone(),
                to: Formation::Limbered,
                cost: Mp::ZERO,
                finished: false,
            });
        }
    }
    go_on(
        rs,
        &mut u,
        &mut roll,
        BrigadeRun {
            brigade: offer.brigade.clone(),
            members: chosen.to_vec(),
            batteries: Vec::new(),
        },
    );
    roll.finish()?;
    Ok(u.events)
}

pub(crate) fn evolve(state: &mut GbacwState, event: &GbacwEvent) {
    match event {
        GbacwEvent::BatteryRetreatOffered(o) => state.battery_retreat = Some(o.clone()),
        GbacwEvent::BatteryRetreatAnswered => state.battery_retreat = None,
        _ => {}
    }
}
