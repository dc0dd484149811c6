//! Corinth 24.1: rapid fire. On when the scenario has `hook rapid-fire`:
//! `weapons=` the gun types that may (24.1: L, N, HA, HB, HC), `rounds=`
//! spent (3), `range=` the longest (24.11: 3), `foul-on=` the fouling die
//! (6 or more), `unfoul-to=` the unfouling die (1–3), and
//! `consecutive-when=` the scenario option that plays 24.13.
//!
//! An attack is declared as usual (`DeclareFire`: every check of 9.0 and
//! of the scenario's restrictions), then made rapid by `RapidFire { index
//! }` while the Fire Phase runs. When the plan is rolled (9.42) the
//! batteries fire at twice their guns, before range and half crew, at the
//! hex's infantry and cavalry only; after the results each battery spends
//! its extra rounds and rolls for fouling. `Unfoul { unit }`, once per
//! battery in each of its side's Fire Phases, rolls to clear it.

use crate::engine::{Dice, RuleCode, RuleError};
use crate::gbacw::oob::{CounterId, UnitKind};
use crate::gbacw::ruleset::combat::{Roller, Unfold};
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::{FireShare, GbacwState, PlannedFire};
use crate::gbacw::ruleset::{Gbacw, err};
use crate::gbacw::scenario::{Hook, HookKind};
use crate::gbacw::sequence::{Clock, Phase, Step};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The batteries' rapid-fire record (`GbacwState::rapid_fire`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RapidFireState {
    /// Corinth 24.1: batteries whose guns have fouled ("Fouled guns may
    /// not fire").
    pub fouled: BTreeSet<CounterId>,
    /// Batteries that tried to unfoul in the current Fire Phase ("only
    /// once per friendly Fire Phase").
    pub unfoul_tried: BTreeSet<CounterId>,
    /// Corinth 24.13: the Fire Phase in which each battery last used rapid
    /// fire, and in how many consecutive Fire Phases of its side it had.
    pub last: BTreeMap<CounterId, (Clock, u8)>,
}

fn hook(rs: &Gbacw) -> Option<&Hook> {
    super::hook(rs, HookKind::RapidFire)
}

fn case(rs: &Gbacw, number: &str) -> String {
    rs.case_rule(number)
}

fn number(h: &Hook, key: &str, default: u16) -> u16 {
    h.number(key).unwrap_or(default)
}

/// Whether the `weapon` code may rapid-fire (24.1).
fn rapid_weapon(h: &Hook, weapon: &str) -> bool {
    h.param("weapons")
        .unwrap_or("L,N,HA,HB,HC")
        .split(',')
        .any(|w| w == weapon)
}

/// Corinth 24.1: "Fouled guns may not fire." `Err` for a fouled battery.
pub(crate) fn check_not_fouled(
    rs: &Gbacw,
    state: &GbacwState,
    unit: &CounterId,
) -> Result<(), RuleError> {
    if hook(rs).is_some() && state.rapid_fire.fouled.contains(unit) {
        return Err(err(
            &case(rs, "24.1"),
            RuleCode::Illegal,
            format!("{unit}'s guns are fouled: they may not fire until unfouled"),
        ));
    }
    Ok(())
}

/// Corinth 24.11, 24.12: the units a rapid fire at `target` may hit: the
/// enemy's infantry and cavalry there, "regardless of the stacking order"
/// of any leader, battery, wagon or crew with them.
pub(crate) fn targets(rs: &Gbacw, state: &GbacwState, p: &PlannedFire) -> Vec<CounterId> {
    let Some(side) = p.firers.first().map(|f| &rs.game.oob.units[&f.unit].side) else {
        return Vec::new();
    };
    let enemy = rs.enemy_of(side);
    state
        .units
        .iter()
        .filter(|(id, u)| {
            u.hex == Some(p.target)
                && rs.game.oob.units[*id].side == *enemy
                && matches!(
                    rs.game.oob.units[*id].kind,
                    UnitKind::Infantry | UnitKind::Cavalry
                )
        })
        .map(|(id, _)| id.clone())
        .collect()
}

/// Corinth 24.1: "the strength of the battery is doubled (before any range
/// or half-crew modifications)": twice the guns it puts in.
pub(crate) fn doubled(firers: &[FireShare]) -> Vec<FireShare> {
    firers
        .iter()
        .map(|f| FireShare {
            unit: f.unit.clone(),
            points: f.points.saturating_mul(2),
        })
        .collect()
}

/// `RapidFire { index }`: `side` makes its declared attack `index` a rapid
/// fire. Checks 24.1 (every firer a battery of a rapid-fire gun type, not
/// fouled, with the rounds for every rapid attack it is in), 24.11 (the
/// target within `range=` hexes of every firer, holding enemy infantry or
/// cavalry) and 24.12 (never at leaders, batteries, wagons or lone crews:
/// a hex without infantry or cavalry).
pub(crate) fn make_rapid(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    index: u16,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let Some(h) = hook(rs) else {
        return Err(err(
            "GBACW 9.0",
            RuleCode::Illegal,
            "this battle has no rapid fire",
        ));
    };
    let rule = case(rs, "24.1");
    let p = state.fire_plan.get(usize::from(index)).ok_or_else(|| {
        err(
            "GBACW 9.0",
            RuleCode::NotFound,
            format!("there is no declared attack {index}"),
        )
    })?;
    if p.firers
        .first()
        .is_none_or(|f| rs.game.oob.units[&f.unit].side != *side)
    {
        return Err(err(
            "GBACW 9.0",
            RuleCode::NotYours,
            format!("attack {index} is not yours"),
        ));
    }
    if p.rapid {
        return Err(err(
            &rule,
            RuleCode::Illegal,
            format!("attack {index} is already rapid fire"),
        ));
    }
    let ammunition = !crate::gbacw::ruleset::cedar::ammo::off(rs);
    let rounds = number(h, "rounds", 3);
    let range = u32::from(number(h, "range", 3));
    for f in &p.firers {
        let unit = &rs.game.oob.units[&f.unit];
        let u = &state.units[&f.unit];
        let weapon = unit.weapon.as_deref().unwrap_or("");
        if !matches!(unit.kind, UnitKind::Battery { .. }) || !rapid_weapon(h, weapon) {
            return Err(err(
                &rule,
                RuleCode::Illegal,
                format!(
                    "only L, N, HA, HB and HC batteries rapid-fire; {} is not one",
                    f.unit
                ),
            ));
        }
        check_not_fouled(rs, state, &f.unit)?;
        let attacks = 1 + state
            .fire_plan
            .iter()
            .filter(|q| q.rapid && q.firers.iter().any(|g| g.unit == f.unit))
            .count();
        let needed = rounds.saturating_mul(u16::try_from(attacks).unwrap_or(u16::MAX));
        if ammunition && u.status.rounds < needed {
            return Err(err(
                &rule,
                RuleCode::Illegal,
                format!(
                    "{} has {} rounds; rapid fire spends {rounds} an attack",
                    f.unit, u.status.rounds
                ),
            ));
        }
        let at = u
            .hex
            .map_or(u32::MAX, |from| rs.game.map.grid.distance(from, p.target));
        if at > range {
            return Err(err(
                &case(rs, "24.11"),
                RuleCode::Illegal,
                format!(
                    "{} is {at} hexes from {}: rapid fire reaches {range}",
                    f.unit, p.target
                ),
            ));
        }
    }
    if targets(rs, state, p).is_empty() {
        return Err(err(
            &case(rs, "24.12"),
            RuleCode::Illegal,
            format!(
                "rapid fire is only at infantry and cavalry, and {} has none",
                p.target
            ),
        ));
    }
    Ok(vec![GbacwEvent::FireMadeRapid { index }])
}

/// Which side fires in the Fire Phase at `clock`, if it is one: the
/// phasing side in the Offensive Fire Phase, the other in the Defensive.
fn firing_side(rs: &Gbacw, clock: Clock) -> Option<&CounterId> {
    let Step::Phase { phase, .. } = clock.step else {
        return None;
    };
    let phasing = rs.phasing_side(clock)?;
    match phase {
        Phase::OffensiveFire => Some(phasing),
        Phase::DefensiveFire => Some(rs.enemy_of(phasing)),
        _ => None,
    }
}

/// Corinth 24.13: how many Fire Phases of `side` in a row, ending with the
/// one at `now`, `battery` has used rapid fire in: 1, or one more than its
/// record if that was `side`'s Fire Phase just before this one.
fn consecutive(rs: &Gbacw, state: &GbacwState, battery: &CounterId, side: &CounterId) -> u8 {
    let now = state.clock;
    let Some((then, count)) = state.rapid_fire.last.get(battery) else {
        return 1;
    };
    let mut c = *then;
    // A Game-Turn has two Fire Phases of each side's Player-Turn; a few
    // dozen steps always reach the next one of `side`.
    for _ in 0..64 {
        let Some(next) = crate::gbacw::ruleset::decide::turns::next_step(rs, c) else {
            return 1;
        };
        if firing_side(rs, next) == Some(side) {
            return if next == now {
                count.saturating_add(1)
            } else {
                1
            };
        }
        c = next;
    }
    1
}

/// Corinth 24.1, 24.13: after a rapid attack's results are applied, each
/// of its batteries still in play spends the rest of its rounds (the
/// resolution already counted one) and rolls for fouling: `foul-on=` or
/// more fouls, the die raised by one for each Fire Phase of its side in a
/// row before this one with rapid fire, when the table plays 24.13.
pub(crate) fn after_attack(rs: &Gbacw, u: &mut Unfold, roll: &mut Roller, firers: &[CounterId]) {
    let Some(h) = hook(rs) else {
        return;
    };
    let ammunition = !crate::gbacw::ruleset::cedar::ammo::off(rs);
    let extra = number(h, "rounds", 3).saturating_sub(1);
    let foul_on = number(h, "foul-on", 6);
    let optional = h
        .param("consecutive-when")
        .is_some_and(|o| rs.scenario_options().iter().any(|x| x.0 == o));
    for f in firers {
        if u.state.units.get(f).is_none_or(|x| x.hex.is_none()) {
            continue;
        }
        if ammunition {
            for _ in 0..extra {
                u.push(GbacwEvent::RoundFired { unit: f.clone() });
            }
        }
        let side = rs.game.oob.units[f].side.clone();
        let count = consecutive(rs, &u.state, f, &side);
        let modifier = if optional { count.saturating_sub(1) } else { 0 };
        let die = roll.d6();
        u.push(GbacwEvent::FoulingRolled {
            unit: f.clone(),
            die,
            modifier,
            fouled: u16::from(die) + u16::from(modifier) >= foul_on,
            consecutive: count,
        });
    }
}

/// `Unfoul { unit }`: in a Fire Phase of its side, once per phase, the
/// battery's owner rolls; `unfoul-to=` or less and the guns are clear, and
/// may fire in this same phase (24.1).
pub(crate) fn unfoul(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    unit: &CounterId,
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let Some(h) = hook(rs) else {
        return Err(err(
            "GBACW 9.0",
            RuleCode::Illegal,
            "this battle has no rapid fire",
        ));
    };
    let rule = case(rs, "24.1");
    let owner = rs.game.oob.units.get(unit).map(|u| &u.side);
    if owner.is_none() {
        return Err(err(
            "GBACW 3.3",
            RuleCode::NotFound,
            format!("there is no unit {unit}"),
        ));
    }
    if owner != Some(side) {
        return Err(err(
            "GBACW 3.3",
            RuleCode::NotYours,
            format!("{unit} is not yours"),
        ));
    }
    if firing_side(rs, state.clock) != Some(side) {
        return Err(err(
            &rule,
            RuleCode::Illegal,
            "guns are unfouled in their side's Offensive or Defensive Fire Phase",
        ));
    }
    if !state.rapid_fire.fouled.contains(unit) {
        return Err(err(
            &rule,
            RuleCode::Illegal,
            format!("{unit}'s guns are not fouled"),
        ));
    }
    if state.rapid_fire.unfoul_tried.contains(unit) {
        return Err(err(
            &rule,
            RuleCode::Illegal,
            format!("{unit} has tried to unfoul in this Fire Phase already"),
        ));
    }
    let mut roll = Roller::new(dice);
    let die = roll.d6();
    roll.finish()?;
    Ok(vec![GbacwEvent::UnfoulRolled {
        unit: unit.clone(),
        die,
        unfouled: u16::from(die) <= number(h, "unfoul-to", 3),
    }])
}

/// The rapid-fire actions `side` may take now: each declared attack that
/// may be made rapid, each fouled battery that may try to unfoul.
pub(crate) fn legal(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    out: &mut Vec<crate::gbacw::ruleset::action::GbacwAction>,
) {
    use crate::gbacw::ruleset::action::GbacwAction as A;
    if hook(rs).is_none() {
        return;
    }
    for index in 0..state.fire_plan.len() {
        let Ok(index) = u16::try_from(index) else {
            break;
        };
        if make_rapid(rs, state, side, index).is_ok() {
            out.push(A::RapidFire { index });
        }
    }
    for unit in &state.rapid_fire.fouled {
        if !state.rapid_fire.unfoul_tried.contains(unit)
            && rs.game.oob.units.get(unit).is_some_and(|u| u.side == *side)
            && firing_side(rs, state.clock) == Some(side)
        {
            out.push(A::Unfoul { unit: unit.clone() });
        }
    }
}

/// Fold a rapid-fire event into the state.
pub(crate) fn evolve(state: &mut GbacwState, event: &GbacwEvent) {
    match event {
        GbacwEvent::FireMadeRapid { index } => {
            if let Some(p) = state.fire_plan.get_mut(usize::from(*index)) {
                p.rapid = true;
            }
        }
        GbacwEvent::FoulingRolled {
            unit,
            fouled,
            consecutive,
            ..
        } => {
            state
                .rapid_fire
                .last
                .insert(unit.clone(), (state.clock, *consecutive));
            if *fouled {
                state.rapid_fire.fouled.insert(unit.clone());
            }
        }
        GbacwEvent::UnfoulRolled { unit, unfouled, .. } => {
            state.rapid_fire.unfoul_tried.insert(unit.clone());
            if *unfouled {
                state.rapid_fire.fouled.remove(unit);
            }
        }
        _ => {}
    }
}
