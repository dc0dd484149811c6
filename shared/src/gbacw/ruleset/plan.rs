//! Corinth 29.2: the Confederate player's secret assault plan.
//!
//! Before the Union sets up, the plotting seat sends `PlotAssault` with the
//! plan (each division's Assault Area and Game-Turn of entry, where the
//! 29.26 counters go, which area each cavalry unit waits at) and a salt it
//! chose. The match log records the event [`GbacwEvent::AssaultPlotted`]
//! with the commitment `blake3(encode(plan) ‖ salt)` for everyone; the plan
//! and salt themselves only in the plotting seat's (and the referee's)
//! view: `Ruleset::view` and `view_event` redact them for the other seat
//! and spectators, and the raw action never leaves the server's log. The
//! one division 29.23 makes public is announced. Each division's entry is
//! revealed when its first counter arrives ([`GbacwEvent::DivisionRevealed`]);
//! the whole plan and salt when the last division is in, or when the game
//! ends ([`GbacwEvent::PlanOpened`]), so anyone can check them against the
//! commitment ([`commitment`]).

use super::event::GbacwEvent;
use super::state::GbacwState;
use super::{Gbacw, err};
use crate::codec;
use crate::engine::{RuleCode, RuleError};
use crate::gbacw::oob::CounterId;
use crate::gbacw::scenario::PlanSpec;
use crate::ids::{SeatId, Viewer};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One division's part of the plan.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PlannedDivision {
    pub division: CounterId,
    pub area: CounterId,
    pub turn: u16,
}

/// Corinth 29.2: the plan as plotted.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssaultPlan {
    /// Every division once.
    pub divisions: Vec<PlannedDivision>,
    /// 29.26: counter to the division it enters with.
    pub attached: BTreeMap<CounterId, CounterId>,
    /// 29.27: cavalry counter to the Assault Area it waits at.
    pub cavalry: BTreeMap<CounterId, CounterId>,
}

impl AssaultPlan {
    pub fn division(&self, id: &CounterId) -> Option<&PlannedDivision> {
        self.divisions.iter().find(|d| d.division == *id)
    }
}

/// The commitment the log shows: blake3 over the plan's canonical
/// encoding followed by the salt.
pub fn commitment(plan: &AssaultPlan, salt: &[u8; 32]) -> [u8; 32] {
    let mut h = blake3::Hasher::new();
    h.update(&codec::encode_infallible(plan));
    h.update(salt);
    *h.finalize().as_bytes()
}

/// The plan's part of the state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssaultState {
    pub commitment: [u8; 32],
    /// `None` in the view of a seat that did not plot it, until opened.
    pub plan: Option<AssaultPlan>,
    pub salt: Option<[u8; 32]>,
    /// 29.23: the division entering on Game-Turn 1 the Union is told of.
    pub announced: PlannedDivision,
    /// Divisions whose entry is public (29.31: they are on the map).
    pub revealed: Vec<PlannedDivision>,
    /// The whole plan and salt are public.
    pub opened: bool,
}

/// Whether `viewer` may see the plan of `state` (the plotting seat and
/// the referee; everyone once it is opened).
fn sees_plan(rs: &Gbacw, viewer: Viewer) -> bool {
    let Some(spec) = &rs.game.scenario.plan else {
        return true;
    };
    match viewer {
        Viewer::Seat(s) => s == rs.seat_of(&spec.side),
        Viewer::Spectator => false,
        _ => true,
    }
}

/// `Ruleset::view`: the plan and salt hidden from who may not see them.
pub(crate) fn redact_state(rs: &Gbacw, state: &mut GbacwState, viewer: Viewer) {
    if let Some(a) = state.progress.assault.as_mut()
        && !a.opened
        && !sees_plan(rs, viewer)
    {
        a.plan = None;
        a.salt = None;
    }
}

/// `Ruleset::view_event`: the plotted event without the plan and salt.
pub(crate) fn redact_event(rs: &Gbacw, event: &GbacwEvent, viewer: Viewer) -> GbacwEvent {
    match event {
        GbacwEvent::AssaultPlotted {
            commitment,
            announced,
            ..
        } if !sees_plan(rs, viewer) => GbacwEvent::AssaultPlotted {
            commitment: *commitment,
            plan: None,
            salt: None,
            announced: announced.clone(),
        },
        other => other.clone(),
    }
}

/// Whether the plot is still to be made (it comes before any set-up).
pub(crate) fn plot_pending(rs: &Gbacw, state: &GbacwState) -> bool {
    rs.game.scenario.plan.is_some() && state.progress.assault.is_none()
}

/// The seat that plots.
pub(crate) fn plotting_seat(rs: &Gbacw) -> Option<SeatId> {
    rs.game.scenario.plan.as_ref().map(|p| rs.seat_of(&p.side))
}

/// Corinth 29.21-29.27: `PlotAssault`.
pub(crate) fn plot(
    rs: &Gbacw,
    state: &GbacwState,
    seat: SeatId,
    plan: &AssaultPlan,
    salt: &[u8; 32],
    announce: &CounterId,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let Some(spec) = &rs.game.scenario.plan else {
        return Err(err(
            "GBACW 3.0",
            RuleCode::Illegal,
            "this battle has no assault plan",
        ));
    };
    let rule = |case: &str| rs.case_rule(case);
    if !plot_pending(rs, state) {
        return Err(err(
            &rule(&spec.case),
            RuleCode::Illegal,
            "the plan is plotted",
        ));
    }
    if Some(seat) != plotting_seat(rs) {
        return Err(err(
            &rule(&spec.case),
            RuleCode::NotYourTurn,
            "the other player plots the assault",
        ));
    }
    check(rs, spec, plan)?;
    let announced = plan
        .division(announce)
        .filter(|d| d.turn == 1)
        .cloned()
        .ok_or_else(|| {
            err(
                &rule("29.23"),
                RuleCode::Illegal,
                format!("{announce} is not a division entering on Game-Turn 1"),
            )
        })?;
    let mut plan = plan.clone();
    plan.divisions.sort();
    Ok(vec![GbacwEvent::AssaultPlotted {
        commitment: commitment(&plan, salt),
        plan: Some(plan),
        salt: Some(*salt),
        announced,
    }])
}

/// The plan against 29.21-29.27.
fn check(rs: &Gbacw, spec: &PlanSpec, plan: &AssaultPlan) -> Result<(), RuleError> {
    let bad = |case: &str, m: String| Err(err(&rs.case_rule(case), RuleCode::Illegal, m));
    let mut seen: Vec<&CounterId> = plan.divisions.iter().map(|d| &d.division).collect();
    seen.sort();
    let mut want: Vec<&CounterId> = spec.divisions.iter().collect();
    want.sort();
    if seen != want {
        return bad(
            "29.2",
            format!("plot each of {} once", join(&spec.divisions)),
        );
    }
    for d in &plan.divisions {
        let Some((_, from)) = spec.areas.iter().find(|(a, _)| *a == d.area) else {
            return bad("29.1", format!("{} is not an Assault Area", d.area));
        };
        if d.turn < *from {
            return bad(
                "29.22",
                format!("{} may be used from Game-Turn {from}", d.area),
            );
        }
        if d.turn == 0 || d.turn > spec.latest {
            return bad(
                "29.24",
                format!("every division enters by Game-Turn {}", spec.latest),
            );
        }
    }
    if !plan.divisions.iter().any(|d| d.turn == 1) {
        return bad(
            "29.21",
            "at least one division arrives on Game-Turn 1".into(),
        );
    }
    if let Some(r) = &spec.reluctant
        && plan.divisions.iter().any(|d| d.turn > 1)
        && plan.division(r).is_some_and(|d| d.turn == 1)
    {
        return bad(
            "29.21",
            format!("if any division is held back, {r}'s must be one of them"),
        );
    }
    for (i, a) in plan.divisions.iter().enumerate() {
        if plan.divisions[..i]
            .iter()
            .any(|b| b.turn == a.turn && b.area == a.area)
        {
            return bad(
                "29.21",
                format!(
                    "divisions arriving on Game-Turn {} use different areas",
                    a.turn
                ),
            );
        }
    }
    let keys: Vec<&CounterId> = plan.attached.keys().collect();
    if keys
        != spec
            .attach
            .iter()
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect::<Vec<_>>()
    {
        return bad("29.26", format!("assign each of {}", join(&spec.attach)));
    }
    if let Some((c, d)) = plan
        .attached
        .iter()
        .find(|(_, d)| !spec.attach_to.contains(d))
    {
        return bad(
            "29.26",
            format!("{c} goes with {} (not {d})", join(&spec.attach_to)),
        );
    }
    let keys: Vec<&CounterId> = plan.cavalry.keys().collect();
    if keys
        != spec
            .cavalry
            .iter()
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect::<Vec<_>>()
    {
        return bad("29.27", format!("assign each of {}", join(&spec.cavalry)));
    }
    if let Some((c, a)) = plan
        .cavalry
        .iter()
        .find(|(_, a)| !plan.divisions.iter().any(|d| d.area == **a))
    {
        return bad(
            "29.27",
            format!("{c} waits at an area a division enters by, not {a}"),
        );
    }
    Ok(())
}

fn join(ids: &[CounterId]) -> String {
    ids.iter()
        .map(|i| i.0.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Where and from when `piece` arrives under the plan: the areas and the
/// Game-Turn; `None` if it is not a plan arrival or the plan is unknown.
pub(crate) fn entry(
    rs: &Gbacw,
    state: &GbacwState,
    piece: &CounterId,
) -> Option<(Vec<CounterId>, u16, Option<CounterId>)> {
    let arrival = rs.game.scenario.arrival_of(piece)?;
    let key = arrival.plan.as_ref()?;
    let plan = state.progress.assault.as_ref()?.plan.as_ref()?;
    let division = match key.0.as_str() {
        "attached" => plan.attached.get(piece)?.clone(),
        "cavalry" => {
            let area = plan.cavalry.get(piece)?;
            // 29.27: "eligible to enter during any Confederate Movement
            // Phase" once a division has come in through its area.
            let turn = plan
                .divisions
                .iter()
                .filter(|d| d.area == *area)
                .map(|d| d.turn)
                .min()?;
            return Some((vec![area.clone()], turn, None));
        }
        _ => key.clone(),
    };
    let d = plan.division(&division)?;
    Some((vec![d.area.clone()], d.turn, Some(division)))
}

/// The events that follow a plan arrival: the division's entry revealed
/// the first time one of its counters comes in, and the whole plan once
/// every division is revealed.
pub(crate) fn on_arrival(rs: &Gbacw, state: &GbacwState, piece: &CounterId) -> Vec<GbacwEvent> {
    let Some(a) = state.progress.assault.as_ref() else {
        return Vec::new();
    };
    let Some((_, _, Some(division))) = entry(rs, state, piece) else {
        return Vec::new();
    };
    if a.revealed.iter().any(|d| d.division == division) {
        return Vec::new();
    }
    let Some(plan) = a.plan.as_ref() else {
        return Vec::new();
    };
    let Some(d) = plan.division(&division) else {
        return Vec::new();
    };
    let mut out = vec![GbacwEvent::DivisionRevealed(d.clone())];
    if a.revealed.len() + 1 == plan.divisions.len() {
        out.extend(opened(state));
    }
    out
}

/// The whole plan made public, if it is not yet.
pub(crate) fn opened(state: &GbacwState) -> Option<GbacwEvent> {
    let a = state.progress.assault.as_ref().filter(|a| !a.opened)?;
    Some(GbacwEvent::PlanOpened {
        plan: a.plan.clone()?,
        salt: a.salt?,
    })
}

/// Fold a plan event.
pub(crate) fn evolve(state: &mut GbacwState, event: &GbacwEvent) {
    let p = &mut state.progress;
    match event {
        GbacwEvent::AssaultPlotted {
            commitment,
            plan,
            salt,
            announced,
        } => {
            p.assault = Some(AssaultState {
                commitment: *commitment,
                plan: plan.clone(),
                salt: *salt,
                announced: announced.clone(),
                revealed: Vec::new(),
                opened: false,
            });
        }
        GbacwEvent::DivisionRevealed(d) => {
            if let Some(a) = p.assault.as_mut() {
                a.revealed.push(d.clone());
            }
        }
        GbacwEvent::PlanOpened { plan, salt } => {
            if let Some(a) = p.assault.as_mut() {
                a.plan = Some(plan.clone());
                a.salt = Some(*salt);
                a.opened = true;
            }
        }
        _ => {}
    }
}

/// A plan that keeps the rules, for the timeout default and the legal
/// set: every division on Game-Turn 1 through the first distinct areas
/// usable then, the 29.26 counters with the first division allowed, the
/// cavalry at the first division's area; announcing the first division.
pub(crate) fn default_plan(spec: &PlanSpec) -> Option<(AssaultPlan, CounterId)> {
    let open: Vec<&CounterId> = spec
        .areas
        .iter()
        .filter(|(_, from)| *from <= 1)
        .map(|(a, _)| a)
        .collect();
    let divisions: Vec<PlannedDivision> = spec
        .divisions
        .iter()
        .zip(open)
        .map(|(d, a)| PlannedDivision {
            division: d.clone(),
            area: a.clone(),
            turn: 1,
        })
        .collect();
    let first = divisions.first()?.clone();
    let to = spec.attach_to.first()?;
    Some((
        AssaultPlan {
            attached: spec
                .attach
                .iter()
                .map(|c| (c.clone(), to.clone()))
                .collect(),
            cavalry: spec
                .cavalry
                .iter()
                .map(|c| (c.clone(), first.area.clone()))
                .collect(),
            divisions,
        },
        first.division,
    ))
}
