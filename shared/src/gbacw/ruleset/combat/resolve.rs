//! Rolling fire: the Fire Phase's plan at the end of the phase (9.42), and
//! withdrawal fire when the firing seat answers (10.11–10.19, 6.23, 6.24).

use super::attack::{Prepared, prepare};
use super::effects::{Hit, apply, apply_per_unit};
use super::{Roller, Unfold};
use crate::engine::{Dice, RuleError};
use crate::gbacw::charts::WeaponKind;
use crate::gbacw::facing::Facing;
use crate::gbacw::morale::ammo_depleted;
use crate::gbacw::oob::{CounterId, Marker, UnitKind};
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::decide::{formation, movement};
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::{FireShare, GbacwState, Resume, Trigger, WithdrawalDecision};
use std::collections::BTreeSet;

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
        // The battle's own preparation (Cedar Mountain 22.0's overshoot,
        // its dice first; Corinth 24.1's rapid fire), else GBACW 9.0's.
        match rs.battle().prepare_fire(rs, state, p, &mut u, &mut roll) {
            Some(attacks) => prepared.extend(attacks),
            None => prepared.extend(prepare(rs, state, p.target, &p.firers, None, None).ok()),
        }
    }
    // GBACW 8.22: artillery from three hexes or more at a stack rolls once
    // for each unit in it, top first (`per_unit`); every die of the phase
    // is still rolled before any result is applied (9.42, 8.22).
    let dice_rolled: Vec<Vec<u8>> = prepared
        .iter()
        .map(|p| per_unit(p).iter().map(|_| roll.d6()).collect())
        .collect();
    // GBACW 11.31: "When a battery splits its fire, it expends only one
    // round of ammunition": a battery's first attack of the phase spends
    // its round, the others none.
    let mut spent: BTreeSet<CounterId> = BTreeSet::new();
    for (p, dice) in prepared.iter().zip(dice_rolled) {
        if dice.len() > 1 {
            resolve_per_unit(rs, &mut u, &mut roll, p, &dice, &mut spent);
            continue;
        }
        let Some(&die) = dice.first() else { continue };
        resolve_one(rs, &mut u, &mut roll, p, die, &[], &mut spent);
        // After the attack (Corinth 24.1: the extra rounds, then the
        // fouling roll).
        rs.battle().after_attack(rs, &mut u, &mut roll, p);
    }
    u.push(GbacwEvent::FirePlanCleared);
    // GBACW 8.41: a stack whose top unit ran out of ammunition in this
    // Fire Phase may change its order as the phase ends.
    if let Some(offer) = crate::gbacw::ruleset::stack_order::offer_after_fire(rs, state, &u.state) {
        u.push(offer);
    }
    roll.finish()?;
    Ok(u.events)
}

/// GBACW 8.22: the attacks `p` makes — one on each unit in the hex (top
/// first, each with the whole hex's shifts: 8.23) for artillery from
/// three hexes or more at a stack of two or more, else `p` itself.
/// Corinth's rapid fire (24.1) is left whole.
fn per_unit(p: &Prepared) -> Vec<Prepared> {
    if !p.artillery || p.max_range < 3 || p.rapid || p.stack.len() < 2 {
        return vec![p.clone()];
    }
    p.stack
        .iter()
        .map(|id| Prepared {
            stack: vec![id.clone()],
            ..p.clone()
        })
        .collect()
}

/// GBACW 8.22, 8.23, 13.44, 11.31: an attack rolled once per unit: a
/// report per unit, one round per battery (one fire, 11.31), then
/// [`apply_per_unit`].
fn resolve_per_unit(
    rs: &Gbacw,
    u: &mut Unfold,
    roll: &mut Roller,
    p: &Prepared,
    dice: &[u8],
    spent: &mut BTreeSet<CounterId>,
) {
    let parts = per_unit(p);
    let mut results = Vec::new();
    for (part, die) in parts.iter().zip(dice) {
        let report = part.roll(&rs.tables.fire, *die, rs.options);
        results.push((part, report.result, report.enfilade));
        u.push(GbacwEvent::FireResolved(report));
    }
    if let Some(e) = rs
        .battle()
        .ground_fired_on(rs, &u.state, p.target, &p.firers, p.artillery)
    {
        u.push(e);
    }
    if rs.battle().ammunition_rules(rs) {
        for f in &p.firers {
            if matches!(rs.game.oob.units[f].kind, UnitKind::Battery { .. })
                && spent.insert(f.clone())
            {
                u.push(GbacwEvent::RoundFired { unit: f.clone() });
            }
        }
    }
    apply_per_unit(rs, u, roll, &results);
    // GBACW 6.11: the stack's columns go into Line after the combat.
    super::effects::fired_on_columns_into_line(u, p);
}

/// One rolled attack: the report, rounds fired, the effects, then 11.21.
/// `spent` holds the batteries that already spent their round on this
/// occasion (11.31: a split fire spends one); a withdrawal or retreat
/// fire is an occasion of its own (10.12, 10.2). Returns the deferred
/// pins (10.15).
pub(crate) fn resolve_one(
    rs: &Gbacw,
    u: &mut Unfold,
    roll: &mut Roller,
    p: &Prepared,
    die: u8,
    defer_pins_of: &[CounterId],
    spent: &mut BTreeSet<CounterId>,
) -> Vec<CounterId> {
    let report = p.roll(&rs.tables.fire, die, rs.options);
    let result = report.result;
    let enfiladed = report.enfilade;
    u.push(GbacwEvent::FireResolved(report));
    // The battle's own rule here (hook `ground_fired_on`).
    if let Some(e) = rs
        .battle()
        .ground_fired_on(rs, &u.state, p.target, &p.firers, p.artillery)
    {
        u.push(e);
    }
    // GBACW 11.31: "Each time an artillery battery fires, it expends one
    // round of ammunition. When a battery splits its fire, it expends only
    // one round of ammunition." (Not counted without the ammunition rules:
    // Cedar Mountain 21.2.)
    let ammunition = rs.battle().ammunition_rules(rs);
    for f in &p.firers {
        if ammunition
            && matches!(rs.game.oob.units[f].kind, UnitKind::Battery { .. })
            && spent.insert(f.clone())
        {
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
    // GBACW 6.11: a column fired upon goes into line once the combat is
    // resolved.
    super::effects::fired_on_columns_into_line(u, p);
    deferred
}

/// GBACW 10.11–10.19, 6.23, 6.24: the firing seat fires withdrawal fire
/// with `firers` (already checked against the decision, 10.19). Each
/// fires its whole current strength at the decision's targets, all in one
/// attack (9.41), or under `withdrawal-fire-separate` each in a shot of
/// its own (10.19: "fired on once by every eligible Enemy unit"); the
/// results apply as normal (10.15), then the interrupted action goes on
/// for those still able: a withdrawing unit that was pinned moves one hex
/// and is then pinned (10.15); a routed or removed one has gone its own
/// way; a formation change whose unit was pinned, routed or removed is
/// cancelled (an engine decision: the texts do not say), and a battery's
/// limbering or unlimbering also when its crew took a casualty (6.23).
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
    // GBACW 10.19 against 9.41 (`withdrawal-fire-separate`): one combined
    // attack by default, or one shot per firer in the order named.
    let separate = rs.options.withdrawal_fire_separate && shares.len() > 1;
    let prepared = if separate {
        prepare(rs, state, d.hex, &shares[..1], Some(&d.targets), facing_as)?
    } else {
        prepare(rs, state, d.hex, &shares, Some(&d.targets), facing_as)?
    };
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
    let mut spent = BTreeSet::new();
    let mut pinned = resolve_one(rs, &mut u, &mut roll, &prepared, die, &movers, &mut spent);
    if separate {
        for share in &shares[1..] {
            // GBACW 10.19: "it may be fired on once by every eligible Enemy
            // unit" — each later shot at the targets still in the hex and
            // not routed away (13.31); none left, no more shots.
            let left: Vec<CounterId> = d
                .targets
                .iter()
                .filter(|t| u.state.units.get(*t).is_some_and(|x| x.hex == Some(d.hex)))
                .cloned()
                .collect();
            if left.is_empty() {
                break;
            }
            let Ok(p) = prepare(
                rs,
                &u.state,
                d.hex,
                std::slice::from_ref(share),
                Some(&left),
                facing_as,
            ) else {
                continue;
            };
            let die = roll.d6();
            for id in resolve_one(rs, &mut u, &mut roll, &p, die, &movers, &mut spent) {
                if !pinned.contains(&id) {
                    pinned.push(id);
                }
            }
        }
    }
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
                && let Some(plan) = (1..=path.len()).find_map(|k| {
                    movement::plan_within_limits(rs, &u.state, &side, &pinned, &path[..k]).ok()
                })
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
                && let Ok(plan) = movement::plan_within_limits(rs, &u.state, &side, &going_on, path)
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
        // The battle's own rule here (hook `resume_after_fire`).
        r @ (Resume::BrigadeRetreat { .. } | Resume::CrewMove { .. }) => rs
            .battle()
            .resume_after_fire(rs, &mut u, &mut roll, d.hex, r, &pinned),
        Resume::Formation { unit, to } => {
            // GBACW 6.23 (case_6_23_limber_fired_on_and_hit_fails): "If, as
            // a result of such fire, the gun crew of the battery is pinned
            // or takes a casualty, the battery may not complete its change
            // of formation."
            let crew_hit = d.trigger == Trigger::Limbering
                && state.units.get(unit).map(|x| x.status.crew)
                    != u.state.units.get(unit).map(|x| x.status.crew);
            let ok = !crew_hit
                && u.state.units.get(unit).is_some_and(|x| {
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
