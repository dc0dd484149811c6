//! Rolling fire: the Fire Phase's plan at the end of the phase (9.42), and
//! withdrawal fire when the firing seat answers (10.11–10.19, 6.23, 6.24).

use super::super::Gbacw;
use super::super::decide::{formation, movement};
use super::super::event::GbacwEvent;
use super::super::state::{FireShare, GbacwState, Resume, Trigger, WithdrawalDecision};
use super::attack::{Prepared, prepare};
use super::effects::{Hit, apply};
use super::{Roller, Unfold};
use crate::engine::{Dice, RuleError};
use crate::gbacw::charts::WeaponKind;
use crate::gbacw::facing::Facing;
use crate::gbacw::morale::ammo_depleted;
use crate::gbacw::oob::{CounterId, Marker, UnitKind};

/// GBACW 9.42: every attack of the phase is rolled — one die each, in the
/// order declared — with the strengths declared, before any casualty or
/// morale result is applied; then the results are applied in that order.
pub(crate) fn resolve_plan(
    rs: &Gbacw,
    state: &GbacwState,
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let mut u = Unfold::new(state);
    let mut roll = Roller::new(dice);
    let mut prepared: Vec<Prepared> = Vec::new();
    for p in &state.fire_plan {
        // Cedar Mountain 22.0: artillery at nine hexes or more may
        // overshoot; its dice come first, each attack's after them all.
        match super::super::cedar::overshoot::split(rs, state, p, &mut u, &mut roll) {
            Some(attacks) => prepared.extend(attacks),
            // Corinth 24.1, 24.12: rapid fire doubles the guns and hits
            // only the hex's infantry and cavalry.
            None if p.rapid => {
                let targets = super::super::corinth::rapid_fire::targets(rs, state, p);
                let doubled = super::super::corinth::rapid_fire::doubled(&p.firers);
                prepared.extend(
                    prepare(rs, state, p.target, &doubled, Some(&targets), None)
                        .ok()
                        .map(|a| Prepared { rapid: true, ..a }),
                );
            }
            None => prepared.extend(prepare(rs, state, p.target, &p.firers, None, None).ok()),
        }
    }
    let dice_rolled: Vec<u8> = prepared.iter().map(|_| roll.d6()).collect();
    for (p, die) in prepared.iter().zip(dice_rolled) {
        resolve_one(rs, &mut u, &mut roll, p, die, &[]);
        // Corinth 24.1: the extra rounds, then the fouling roll.
        if p.rapid {
            super::super::corinth::rapid_fire::after_attack(rs, &mut u, &mut roll, &p.firers);
        }
    }
    u.push(GbacwEvent::FirePlanCleared);
    roll.finish()?;
    Ok(u.events)
}

/// One rolled attack: the report, rounds fired, the effects, then 11.21.
/// Returns the deferred pins (10.15).
pub(crate) fn resolve_one(
    rs: &Gbacw,
    u: &mut Unfold,
    roll: &mut Roller,
    p: &Prepared,
    die: u8,
    defer_pins_of: &[CounterId],
) -> Vec<CounterId> {
    let report = p.roll(&rs.tables.fire, die, rs.options);
    let result = report.result;
    let enfiladed = report.enfilade;
    u.push(GbacwEvent::FireResolved(report));
    // Cedar Mountain 21.43: fired into at close range, the corn goes down.
    if let Some(e) =
        super::super::cedar::corn::blown_down(rs, &u.state, p.target, &p.firers, p.artillery)
    {
        u.push(e);
    }
    // GBACW 11.3: a battery fires one round per fire (not counted without
    // the ammunition rules: Cedar Mountain 21.2).
    let ammunition = !super::super::cedar::ammo::off(rs);
    for f in &p.firers {
        if ammunition && matches!(rs.game.oob.units[f].kind, UnitKind::Battery { .. }) {
            u.push(GbacwEvent::RoundFired { unit: f.clone() });
        }
    }
    let deferred = apply(
        rs,
        u,
        roll,
        &Hit {
            prepared: p,
            result,
            enfiladed,
            defer_pins_of,
        },
    );
    // GBACW 11.2, 11.21: on a fire die of 1, each small-arms unit that
    // fired rolls again; 1 or 2 and it is out of ammunition.
    if die == 1 && ammunition {
        for f in &p.firers {
            let unit = &rs.game.oob.units[f];
            let small_arms = unit
                .weapon
                .as_deref()
                .and_then(|w| rs.game.charts.range.weapon(w))
                .is_some_and(|w| w.kind.value == WeaponKind::SmallArms);
            if !small_arms || u.state.units[f].hex.is_none() {
                continue;
            }
            if ammo_depleted(roll.d6()) {
                let mut markers = u.state.units[f].status.markers.clone();
                if markers.insert(Marker::AmmoDepleted) {
                    u.push(GbacwEvent::MarkersSet {
                        unit: f.clone(),
                        markers,
                    });
                }
            }
        }
    }
    deferred
}

/// GBACW 10.11–10.19, 6.23, 6.24: the firing seat fires withdrawal fire
/// with `firers` (already checked against the decision, 10.19). Each
/// fires its whole current strength at the decision's targets; the
/// results apply as normal (10.15), then the interrupted action goes on
/// for those still able: a withdrawing unit that was pinned moves one hex
/// and is then pinned (10.15); a routed or removed one has gone its own
/// way; a formation change whose unit was pinned, routed or removed is
/// cancelled (an engine decision: the texts do not say).
pub(crate) fn resolve_withdrawal(
    rs: &Gbacw,
    state: &GbacwState,
    d: &WithdrawalDecision,
    firers: &[CounterId],
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let shares: Vec<FireShare> = firers
        .iter()
        .map(|f| FireShare {
            unit: f.clone(),
            points: state.units.get(f).map_or(0, |u| u.status.strength),
        })
        .collect();
    // GBACW 10.16: withdrawing units face the hex they are about to enter.
    let leaving_movers = match (&d.resume, d.trigger) {
        (Resume::Move { pieces, .. }, Trigger::Leaving) => {
            d.targets.iter().all(|t| pieces.contains(t))
        }
        (
            Resume::RetreatBeforeMelee { .. }
            | Resume::BrigadeRetreat { .. }
            | Resume::CrewMove { .. },
            _,
        ) => true,
        _ => false,
    };
    let facing_as = d
        .toward
        .filter(|_| leaving_movers)
        .and_then(|to| rs.game.map.grid.direction(d.hex, to))
        .map(Facing::new);
    let prepared = prepare(rs, state, d.hex, &shares, Some(&d.targets), facing_as)?;
    let mut u = Unfold::new(state);
    u.push(GbacwEvent::WithdrawalFireAnswered);
    let mut roll = Roller::new(dice);
    let die = roll.d6();
    let movers: Vec<CounterId> = match &d.resume {
        Resume::Move { pieces, .. } if d.trigger == Trigger::Leaving => pieces.clone(),
        // Corinth 25.23: pinned after retreating one hex.
        Resume::BrigadeRetreat { unit, .. } => vec![unit.clone()],
        // Corinth 24.21: the crew leaving (10.15: pinned after one hex).
        Resume::CrewMove { battery, .. } => vec![battery.clone()],
        _ => Vec::new(),
    };
    let pinned = resolve_one(rs, &mut u, &mut roll, &prepared, die, &movers);
    let side = rs.enemy_of(rs.side_of(d.seat)).clone();
    match &d.resume {
        Resume::Move { pieces, path } => {
            let still_here = |st: &GbacwState, id: &CounterId| {
                st.units.get(id).map_or_else(
                    || st.leaders.get(id).is_some_and(|l| l.hex == Some(d.hex)),
                    |x| x.hex == Some(d.hex) && !x.status.markers.contains(&Marker::Rout),
                )
            };
            // 10.15: the pinned move one hex, then take their pin. Where
            // that hex cannot hold them (8.0: a move may pass a hex it may
            // not stop in), they go on along the path to the first hex
            // that can: the whole path was valid, so its end always can.
            // No withdrawal fire is offered on that slide (see
            // `execute_forced`).
            if !pinned.is_empty()
                && let Some(plan) = (1..=path.len())
                    .find_map(|k| movement::plan(rs, &u.state, &side, &pinned, &path[..k]).ok())
            {
                for e in movement::execute_forced(rs, &u.state, &plan) {
                    u.push(e);
                }
            }
            // GBACW 9.84: the PIN covers the new hex's friends too.
            for id in &pinned {
                super::effects::pin_hex(rs, &mut u, id);
            }
            let going_on: Vec<CounterId> = pieces
                .iter()
                .filter(|id| !pinned.contains(id) && still_here(&u.state, id))
                .cloned()
                .collect();
            if !going_on.is_empty()
                && let Ok(plan) = movement::plan(rs, &u.state, &side, &going_on, path)
            {
                for e in movement::execute_forced(rs, &u.state, &plan) {
                    u.push(e);
                }
            }
        }
        // GBACW 12.88: a unit pinned by the fire stays and takes the melee.
        Resume::RetreatBeforeMelee {
            units,
            path,
            checks,
        } => super::advance::carry_on(rs, &mut u, &mut roll, d.hex, units, path, checks),
        // Corinth 25.23: the brigade retreat goes on.
        Resume::BrigadeRetreat {
            unit,
            path,
            check,
            run,
        } => crate::gbacw::ruleset::corinth::brigade_retreat::after_fire(
            rs,
            &mut u,
            &mut roll,
            d.hex,
            unit,
            path,
            *check,
            run.clone(),
            &pinned,
        ),
        // Corinth 24.21: the crew's move goes on.
        Resume::CrewMove { battery, path } => {
            crate::gbacw::ruleset::corinth::crew_piece::after_withdrawal_fire(
                rs,
                &mut u,
                d.hex,
                battery,
                path,
                pinned.contains(battery),
            )
        }
        Resume::Formation { unit, to } => {
            let ok = u.state.units.get(unit).is_some_and(|x| {
                x.hex == Some(d.hex)
                    && !x.status.markers.contains(&Marker::Rout)
                    && !x.status.markers.contains(&Marker::Pin)
            });
            if ok && let Ok(c) = formation::plan(rs, &u.state, &side, unit, *to) {
                u.push(formation::changed(unit, *to, &c));
            }
        }
    }
    roll.finish()?;
    Ok(u.events)
}
