//! What the second-reading tests share (issue 19): the few words their
//! cases are written in (a melee or a charge declared, a unit's strength
//! and markers, the reports a player reads off the charts), answering a
//! case's pending decisions, and checking a refusal's case. Each reader
//! file imports what it uses by name.

use super::*;
use crate::gbacw::oob::{Formation, Marker};
use crate::gbacw::ruleset::event::MeleeReport;
use crate::gbacw::ruleset::state::{Casualty, SuccessionKind, WithdrawalDecision};
use crate::gbacw::ruleset::victory::VictoryPoints;
use crate::gbacw::tables::FireResult;
use crate::gbacw::testkit::Position;

// --- positions ---------------------------------------------------------------

/// An 8 × 8 clear field (the Standard Rules' cases).
pub(super) fn field() -> Position {
    Position::new(8, 8)
}

/// A 4-point-or-other R infantry line of the order-of-battle format.
pub(super) fn inf(id: &str, sp: u8, morale: u8) -> String {
    format!("infantry {id} strength={sp} morale={morale} weapon=R")
}

const CEDAR: &str =
    include_str!("../../../../../assets/gbacw/cedar_mountain/cedar_mountain.scenario");

/// A `cols` × `rows` clear field with Cedar Mountain's exclusive rules: the
/// shipped scenario's `hook` lines, its compass (`north left`, so the
/// Confederates retreat down the map, the Union up it), its victory levels
/// and loss prices (the named army leaders' values only where a case
/// places them).
pub(super) fn cedar(cols: u8, rows: u8) -> Position {
    let mut p = Position::new(cols, rows);
    for line in CEDAR.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        let head = line.split_whitespace().next().unwrap_or("");
        if matches!(
            head,
            "hook" | "north" | "victory" | "victory-level" | "vp-loss" | "vp-bce"
        ) {
            p = p.scenario(line);
        }
    }
    p
}

// --- actions -----------------------------------------------------------------

pub(super) fn melee(target: &str, attackers: &[&str]) -> GbacwAction {
    GbacwAction::DeclareMelee {
        target: n(target),
        attackers: ids(attackers),
    }
}

pub(super) fn charge(target: &str, attackers: &[&str]) -> GbacwAction {
    GbacwAction::DeclareCharge {
        target: n(target),
        attackers: ids(attackers),
    }
}

pub(super) fn formation(unit: &str, to: Formation) -> GbacwAction {
    GbacwAction::ChangeFormation { unit: id(unit), to }
}

/// Division (or army) commander `by` spends `points` on brigade `on`.
pub(super) fn spend(by: &str, on: &str, points: u8) -> GbacwAction {
    GbacwAction::SpendCommandPoints {
        division: id(by),
        brigade: id(on),
        points,
    }
}

// --- what the table shows ----------------------------------------------------

pub(super) fn dist(t: &T, a: &str, b: &str) -> u32 {
    t.rs.game().map.grid.distance(n(a), n(b))
}

pub(super) fn strength(t: &T, unit: &str) -> u8 {
    t.s.units[&id(unit)].status.strength
}

pub(super) fn marked(t: &T, unit: &str, m: Marker) -> bool {
    t.s.units[&id(unit)].status.markers.contains(&m)
}

pub(super) fn casualty(t: &T, leader: &str) -> Option<Casualty> {
    t.s.leaders[&id(leader)].casualty
}

pub(super) fn vp(t: &T, seat: SeatId) -> VictoryPoints {
    t.rs.victory_points(&t.s)[usize::from(seat.0)].clone()
}

/// Brigade X's BCE: boxes marked, and whether it is at its limit.
pub(super) fn boxes(t: &T) -> (u16, bool) {
    let b =
        t.rs.bce(&t.s)
            .into_iter()
            .find(|b| b.brigade == id("x"))
            .unwrap();
    (b.losses, b.at_limit)
}

/// Turn `unit` toward `target` (its neighbour nearest the target).
pub(super) fn aim(t: &mut T, unit: &str, target: &str) {
    let grid = t.rs.game().map.grid.clone();
    let from = t.hex(unit).unwrap();
    let toward = grid
        .neighbours_on_map(from)
        .into_iter()
        .map(|(_, h)| h)
        .min_by_key(|h| grid.distance(*h, n(target)))
        .unwrap();
    t.face_towards(unit, &toward.to_string());
}

// --- the position's facts, set by hand -----------------------------------------

pub(super) fn mark(t: &mut T, unit: &str, m: Marker) {
    t.s.units
        .get_mut(&id(unit))
        .unwrap()
        .status
        .markers
        .insert(m);
}

/// `unit` loses `points` (the event fire or melee would fold).
pub(super) fn hit(t: &mut T, unit: &str, points: u8) {
    let e = GbacwEvent::UnitHit {
        unit: id(unit),
        points,
    };
    t.rs.evolve(&mut t.s, &e);
}

/// Z's two losses put brigade X at its BCE limit.
pub(super) fn break_x(t: &mut T) {
    hit(t, "z", 2);
    assert!(t.rs.brigade_at_bce_limit(&t.s, &id("x")));
}

/// `leader` is off the map, a casualty of `how`.
pub(super) fn lost(t: &mut T, leader: &str, how: Casualty) {
    let l = t.s.leaders.get_mut(&id(leader)).unwrap();
    l.hex = None;
    l.casualty = Some(how);
}

// --- reports -----------------------------------------------------------------

/// One overshoot roll: battery, range, die, accurate, scatter die, landing.
pub(super) type Overshoot = (String, u32, u8, bool, Option<u8>, Option<HexNumber>);

pub(super) fn overshoots(events: &[GbacwEvent]) -> Vec<Overshoot> {
    events
        .iter()
        .filter_map(|e| match e {
            GbacwEvent::OvershootRolled {
                battery,
                range,
                die,
                accurate,
                scatter_die,
                lands,
                ..
            } => Some((
                battery.0.clone(),
                u32::from(*range),
                *die,
                *accurate,
                *scatter_die,
                *lands,
            )),
            _ => None,
        })
        .collect()
}

pub(super) fn loss(points: u8, then_pin_check: bool) -> FireResult {
    FireResult::Loss {
        points,
        then_pin_check,
    }
}

/// Each fire report as a player reads it: column, die, result.
pub(super) fn reads(events: &[GbacwEvent]) -> Vec<(u8, u8, String)> {
    fire_reports(events)
        .iter()
        .map(|r| (r.column, r.die, r.result.to_string()))
        .collect()
}

pub(super) fn melee_reports(events: &[GbacwEvent]) -> Vec<MeleeReport> {
    events
        .iter()
        .filter_map(|e| match e {
            GbacwEvent::MeleeResolved(r) => Some(r.clone()),
            _ => None,
        })
        .collect()
}

pub(super) fn melee_report(events: &[GbacwEvent]) -> MeleeReport {
    melee_reports(events)
        .into_iter()
        .next()
        .expect("a melee was resolved")
}

/// The morale checks (and 9.88 pin rolls) of `unit` among `events`:
/// (die, failed).
pub(super) fn checks(events: &[GbacwEvent], unit: &str) -> Vec<(u8, bool)> {
    events
        .iter()
        .filter_map(|e| match e {
            GbacwEvent::MoraleChecked {
                unit: u,
                die,
                failed,
                ..
            } if *u == id(unit) => Some((*die, *failed)),
            _ => None,
        })
        .collect()
}

/// Every morale check among `events`, in order: (unit, die, failed).
pub(super) fn all_checks(events: &[GbacwEvent]) -> Vec<(CounterId, u8, bool)> {
    events
        .iter()
        .filter_map(|e| match e {
            GbacwEvent::MoraleChecked {
                unit, die, failed, ..
            } => Some((unit.clone(), *die, *failed)),
            _ => None,
        })
        .collect()
}

/// The straggler rolls among `events` (Corinth 26.2).
pub(super) fn straggler_rolls(
    events: &[GbacwEvent],
) -> Vec<crate::gbacw::ruleset::corinth::stragglers::StragglerRoll> {
    events
        .iter()
        .filter_map(|e| match e {
            GbacwEvent::StragglerRolled(r) => Some(r.clone()),
            _ => None,
        })
        .collect()
}

/// Who was promoted to lead `division` among `events` (17.83).
pub(super) fn promoted(events: &[GbacwEvent], division: &str) -> Option<CounterId> {
    events.iter().find_map(|e| match e {
        GbacwEvent::LeaderSucceeded(r) if r.lost == id(division) => match &r.kind {
            SuccessionKind::Promote { promoted, .. } => Some(promoted.clone()),
            _ => None,
        },
        _ => None,
    })
}

/// The pool counter that took over the promoted one's brigade, among
/// `events` (17.83).
pub(super) fn stand_in(events: &[GbacwEvent], division: &str) -> Option<CounterId> {
    events.iter().find_map(|e| match e {
        GbacwEvent::LeaderSucceeded(r) if r.lost == id(division) => match &r.kind {
            SuccessionKind::Promote { stand_in, .. } => stand_in.clone(),
            _ => None,
        },
        _ => None,
    })
}

pub(super) fn morale_dice(events: &[GbacwEvent], unit: &str) -> Vec<u8> {
    checks(events, unit).into_iter().map(|(d, _)| d).collect()
}

pub(super) fn rally_tried(events: &[GbacwEvent]) -> (Option<u8>, bool) {
    events
        .iter()
        .find_map(|e| match e {
            GbacwEvent::RallyTried { die, rallied, .. } => Some((*die, *rallied)),
            _ => None,
        })
        .expect("a rally was tried")
}

/// The last withdrawal-fire offer among `events`.
pub(super) fn offered(events: &[GbacwEvent]) -> Option<WithdrawalDecision> {
    events.iter().rev().find_map(|e| match e {
        GbacwEvent::WithdrawalFireOffered(d) => Some(d.clone()),
        _ => None,
    })
}

/// Withdrawal fire was offered among `events` (or waits now).
pub(super) fn withdrawal_offered(t: &T, events: &[GbacwEvent]) -> bool {
    t.s.decision.is_some() || offered(events).is_some()
}

// --- playing a case out --------------------------------------------------------

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

/// Answer every pending decision with its default (retreats by the first
/// legal path, fire and advances declined), recording each decision's
/// rule; stops at the phase's own actions.
pub(super) fn settle_rules(t: &mut T) -> Vec<String> {
    let mut seen = Vec::new();
    for _ in 0..30 {
        let Some(p) = t.rs.pending(&t.s).into_iter().next() else {
            return seen;
        };
        if p.default == GbacwAction::EndPhase {
            return seen;
        }
        seen.push(p.rule.clone());
        t.act(p.seat, p.default);
    }
    panic!("decisions never ended: {seen:?}");
}

/// From `seat`'s Retreat Before Melee Phase: declare the melee, the
/// defender stands fast (if offered a retreat), on to the Melee Phase and
/// end it with `dice` scripted. The melee's report and events.
pub(super) fn fight(
    t: &mut T,
    seat: SeatId,
    target: &str,
    attackers: &[&str],
    dice: &[u16],
) -> (MeleeReport, Vec<GbacwEvent>) {
    assert_eq!(t.phase(), Some(Phase::RetreatBeforeMelee));
    t.ok(seat, melee(target, attackers));
    if let Some(offer) = t.s.rbm.clone() {
        t.ok(offer.seat, GbacwAction::StandFast);
    }
    t.ok(seat, GbacwAction::EndPhase);
    assert_eq!(t.phase(), Some(Phase::Melee));
    t.script(dice);
    let events = t.act(seat, GbacwAction::EndPhase);
    let r = melee_report(&events);
    println!("{r:?}");
    (r, events)
}

/// A Confederate melee declared: after the defender stands (as often as
/// it is asked), the Confederate Melee Phase resolved with `dice`.
pub(super) fn resolve(t: &mut T, dice: &[u16]) -> Vec<GbacwEvent> {
    for _ in 0..8 {
        if t.s.rbm.is_none() {
            break;
        }
        t.ok(UNION, GbacwAction::StandFast);
    }
    t.advance_to(REBEL, Phase::Melee);
    t.script(dice);
    t.act(REBEL, GbacwAction::EndPhase)
}

/// `a` must be refused citing `case`, matched at the end of the cited rule
/// ("23.27" matches "Position 23.27"; "5.19" matches "GBACW 5.19"; a
/// position's battle is called "Position", so its exclusive rules cite as
/// "Position 21.11").
pub(super) fn refused_case(t: &T, seat: SeatId, a: GbacwAction, case: &str) {
    let e = t
        .decide(seat, &a)
        .expect_err(&format!("{a:?} should be refused by {case}"));
    assert!(e.rule.ends_with(&format!(" {case}")), "{e}");
}
