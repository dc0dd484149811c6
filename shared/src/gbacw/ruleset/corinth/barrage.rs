//! Corinth 26.4: the Pre-Dawn Barrage Interphase after Game-Turn
//! `after=` (20), on when the scenario has `hook pre-dawn-barrage
//! after=20 side=confederate range=9 die=-1`.
//!
//! The interphase is held between Game-Turn 20 and the first phase of
//! Game-Turn 21 as a pending step of the state (`NightRecord::barrage`),
//! as withdrawal fire and retreats are: while it lasts only its side acts,
//! with `BarrageFire` (one attack, rolled at once) and `EndBarrage`.
//!
//! Decisions (docs/gbacw-notes.md, "Corinth 26, 28, 21.2, 21.43 in
//! play"):
//! - 26.41 "announces that a predawn barrage will be undertaken": the
//!   Confederates initiate it by firing at least one attack; ending their
//!   part without one ends the interphase, and the Union may not fire.
//! - 26.42: each attack is checked as an Offensive Fire Phase's
//!   declaration (eligibility, facing, line of sight, range, 9.45's
//!   points: the battery's whole current strength), by batteries only,
//!   every firer less than nine hexes from the target, each battery once;
//!   each attack is rolled and applied at once, in the order fired (the
//!   Fire Phase's 9.42 all-dice-first is for a phase; the interphase is
//!   a sequence of attacks, 26.43 "after ... all his attacks and the
//!   results have been applied").
//! - 26.42: the die less 1; a modified 0 has no effect (the batteries
//!   have still fired: each spends its round, 11.3).
//! - 26.44: rapid fire is not in the engine yet (Corinth 24, another
//!   part); nothing to forbid here.
//! - 26.45: a loss result pins every unit in the target hex (no loss, no
//!   morale check); other results are applied as in regular fire.

use crate::engine::{Dice, RuleCode, RuleError};
use crate::gbacw::fire::FireOccasion;
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, Marker, UnitKind};
use crate::gbacw::ruleset::combat::attack::prepare;
use crate::gbacw::ruleset::combat::effects::{Hit, apply};
use crate::gbacw::ruleset::combat::{Roller, Unfold};
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::{FireShare, GbacwState};
use crate::gbacw::ruleset::{Gbacw, err};
use crate::gbacw::scenario::HookKind;
use crate::gbacw::sequence::Clock;
use crate::gbacw::tables::FireResult;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// The barrage under way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Barrage {
    /// The side firing now (26.42: the Confederates, then 26.43 the Union).
    pub side: CounterId,
    /// Batteries that have fired in the barrage (each once).
    pub fired: BTreeSet<CounterId>,
    /// The current side has fired at least one attack.
    pub any: bool,
}

/// One barrage attack's die (26.42: less 1; 0 no effect).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BarrageRoll {
    pub target: HexNumber,
    pub firers: Vec<CounterId>,
    pub die: u8,
    pub modified: u8,
}

fn case(rs: &Gbacw, n: &str) -> String {
    rs.case_rule(n)
}

/// Whether passing from the current step to `next` opens the barrage:
/// the hook is on and Game-Turn `after=` ends.
pub(crate) fn due(rs: &Gbacw, state: &GbacwState, next: Option<Clock>) -> bool {
    let Some(after) = super::hook(rs, HookKind::PreDawnBarrage).and_then(|h| h.number("after"))
    else {
        return false;
    };
    !state.night.barrage_held
        && state.night.barrage.is_none()
        && state.clock.turn == after
        && next.is_some_and(|c| c.turn != after)
}

/// Corinth 26.41: the barrage opens with the Confederates (`side=`).
pub(crate) fn open(rs: &Gbacw) -> Option<GbacwEvent> {
    let side = super::hook(rs, HookKind::PreDawnBarrage)?
        .param("side")
        .map_or_else(|| rs.game.first.clone(), |s| CounterId(s.to_string()));
    Some(GbacwEvent::BarrageBegun { side })
}

/// Corinth 26.42, 26.43: `side` fires `firers` (batteries, each its whole
/// strength) at `target`, rolled and applied at once.
pub(crate) fn fire(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    target: HexNumber,
    firers: &[CounterId],
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let Some(b) = &state.night.barrage else {
        return Err(err(
            &case(rs, "26.4"),
            RuleCode::Illegal,
            "there is no Pre-Dawn Barrage now",
        ));
    };
    let hook = super::hook(rs, HookKind::PreDawnBarrage);
    let range = hook.and_then(|h| h.number("range")).unwrap_or(9);
    let shares = check(rs, state, b, side, target, firers, range)?;
    let prepared = prepare(rs, state, target, &shares, None, None)?;
    let mut u = Unfold::new(state);
    let mut roll = Roller::new(dice);
    let die = roll.d6();
    let less = hook
        .and_then(|h| h.param("die"))
        .and_then(|d| d.parse::<i16>().ok())
        .unwrap_or(-1);
    let modified = u8::try_from((i16::from(die) + less).clamp(0, 6)).unwrap_or(0);
    u.push(GbacwEvent::BarrageRolled(BarrageRoll {
        target,
        firers: firers.to_vec(),
        die,
        modified,
    }));
    // GBACW 11.3: each battery fires a round.
    if !crate::gbacw::ruleset::cedar::ammo::off(rs) {
        for f in firers {
            u.push(GbacwEvent::RoundFired { unit: f.clone() });
        }
    }
    // 26.42: "An adjusted die-roll of 0 has no effect."
    if modified > 0 {
        let mut report = prepared.roll(&rs.tables.fire, modified, rs.options);
        let loss = matches!(report.result, FireResult::Loss { .. });
        if loss {
            // 26.45: a loss is a pin instead.
            report.result = FireResult::NoEffect;
        }
        let result = report.result;
        let enfiladed = report.enfilade;
        u.push(GbacwEvent::FireResolved(report));
        if loss {
            for id in &prepared.stack {
                let Some(x) = u.state.units.get(id) else {
                    continue;
                };
                let mut markers = x.status.markers.clone();
                if markers.insert(Marker::Pin) {
                    u.push(GbacwEvent::MarkersSet {
                        unit: id.clone(),
                        markers,
                    });
                }
            }
        } else {
            apply(
                rs,
                &mut u,
                &mut roll,
                &Hit {
                    prepared: &prepared,
                    result,
                    enfiladed,
                    defer_pins_of: &[],
                },
            );
        }
    }
    // GBACW 6.11: a column fired upon goes into line.
    crate::gbacw::ruleset::combat::effects::fired_on_columns_into_line(&mut u, &prepared);
    roll.finish()?;
    Ok(u.events)
}

/// The checks of one barrage attack; the shares (each battery's whole
/// current strength).
fn check(
    rs: &Gbacw,
    state: &GbacwState,
    b: &Barrage,
    side: &CounterId,
    target: HexNumber,
    firers: &[CounterId],
    range: u16,
) -> Result<Vec<FireShare>, RuleError> {
    if *side != b.side {
        return Err(err(
            &case(rs, "26.43"),
            RuleCode::NotYourTurn,
            format!("{} fires in the Pre-Dawn Barrage now", b.side),
        ));
    }
    if firers.is_empty() {
        return Err(err(
            &case(rs, "26.42"),
            RuleCode::Invalid,
            "name at least one battery",
        ));
    }
    let mut shares = Vec::new();
    for f in firers {
        let (u, from) = crate::gbacw::ruleset::decide::own_unit(rs, state, side, f)?;
        if !matches!(rs.game.oob.units[f].kind, UnitKind::Battery { .. }) {
            return Err(err(
                &case(rs, "26.42"),
                RuleCode::Illegal,
                format!("{f} is not a battery: only batteries fire in the Pre-Dawn Barrage"),
            ));
        }
        if b.fired.contains(f) {
            return Err(err(
                &case(rs, "26.42"),
                RuleCode::Illegal,
                format!("{f} has fired in the Pre-Dawn Barrage already"),
            ));
        }
        if rs.game.map.grid.distance(from, target) >= u32::from(range) {
            return Err(err(
                &case(rs, "26.42"),
                RuleCode::Illegal,
                format!("{target} is {range} hexes or more from {f}"),
            ));
        }
        shares.push(FireShare {
            unit: f.clone(),
            points: u.status.strength,
        });
    }
    // Every check of an Offensive Fire Phase's declaration (9.0-9.7).
    let mut clean = state.clone();
    clean.fire_plan.clear();
    crate::gbacw::ruleset::combat::declare::declare(
        rs,
        &clean,
        side,
        FireOccasion::Offensive,
        target,
        &shares,
    )?;
    Ok(shares)
}

/// Corinth 26.41, 26.43: the side firing ends its part: the Union's turn
/// comes if the Confederates fired, else the interphase is over.
pub(crate) fn end(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let Some(b) = &state.night.barrage else {
        return Err(err(
            &case(rs, "26.4"),
            RuleCode::Illegal,
            "there is no Pre-Dawn Barrage now",
        ));
    };
    if *side != b.side {
        return Err(err(
            &case(rs, "26.43"),
            RuleCode::NotYourTurn,
            format!("{} fires in the Pre-Dawn Barrage now", b.side),
        ));
    }
    let opener = super::hook(rs, HookKind::PreDawnBarrage)
        .and_then(|h| h.param("side"))
        .map_or_else(|| rs.game.first.clone(), |s| CounterId(s.to_string()));
    let next = (b.side == opener && b.any).then(|| rs.enemy_of(&opener).clone());
    Ok(vec![GbacwEvent::BarrageEnded { next }])
}

/// Candidate attacks for the legal-action set: each battery that may
/// still fire at the nearest enemy hex in range (kept only if accepted).
pub(crate) fn candidates(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
) -> Vec<(HexNumber, CounterId)> {
    let Some(b) = &state.night.barrage else {
        return Vec::new();
    };
    let grid = &rs.game.map.grid;
    let enemy: Vec<HexNumber> = state
        .units
        .iter()
        .filter(|(id, _)| rs.game.oob.units[*id].side != *side)
        .filter_map(|(_, u)| u.hex)
        .collect();
    state
        .units
        .iter()
        .filter(|(id, u)| {
            rs.game.oob.units[*id].side == *side
                && u.hex.is_some()
                && !b.fired.contains(*id)
                && matches!(rs.game.oob.units[*id].kind, UnitKind::Battery { .. })
        })
        .filter_map(|(id, u)| {
            let from = u.hex?;
            enemy
                .iter()
                .filter(|h| grid.distance(from, **h) < 9)
                .min_by_key(|h| (grid.distance(from, **h), **h))
                .map(|h| (*h, id.clone()))
        })
        .collect()
}

/// Fold the barrage's events.
pub(crate) fn evolve(state: &mut GbacwState, event: &GbacwEvent) {
    match event {
        GbacwEvent::BarrageBegun { side } => {
            state.night.barrage = Some(Barrage {
                side: side.clone(),
                fired: BTreeSet::new(),
                any: false,
            });
        }
        GbacwEvent::BarrageRolled(r) => {
            if let Some(b) = &mut state.night.barrage {
                b.fired.extend(r.firers.iter().cloned());
                b.any = true;
            }
        }
        GbacwEvent::BarrageEnded { next } => {
            state.night.barrage = next.clone().map(|side| Barrage {
                side,
                fired: BTreeSet::new(),
                any: false,
            });
            if next.is_none() {
                state.night.barrage_held = true;
            }
        }
        _ => {}
    }
}
