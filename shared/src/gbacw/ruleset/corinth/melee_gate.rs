//! Corinth 22.0: melee initiation. A unit not stacked with a friendly
//! leader passes a morale check to retreat before melee (22.1, the
//! defender's step 4) and to melee (22.2, the attacker's step 6): a die
//! with the modifiers at most its morale rating. A stack checks with its
//! top (eligible) unit and the result binds the whole stack. On when the
//! scenario has `hook melee-initiation`:
//!
//! ```text
//! hook melee-initiation case=22.0 early-until=8 early-case=29.62 retreat-early=union:+1 melee-early=union:+1,confederate:-1
//! ```
//!
//! `early-until=` is the last Game-Turn of 22.1/22.2's side modifiers
//! (29.62: "Game-Turns 1 through 8"), `retreat-early=` and `melee-early=`
//! their sides and signs.
//!
//! Where it hooks in: the defender's answer (`decide`, the
//! `RetreatBeforeMelee` action) rolls the retreat check before the
//! Standard retreat before melee (12.8x) goes on — failing, the stack
//! stands; the attackers' checks are rolled when the Melee Phase resolves
//! its melees (`combat::melee::resolve_all`), after every defender has
//! answered (22.0's steps 5–7) — failing, the stack drops out of that
//! melee. Exempt, as the Standard Rules: units stacked with a leader
//! (steps 3 and 5), mounted cavalry retreating from foot alone (16.1),
//! dismounted cavalry forced back by infantry (21.42), engaged units
//! continuing their melee (25.12's "may continue"; 22.31: leaving an
//! engaged hex is a 12.94 withdrawal, never checked), and 22.4's automatic
//! initiations (routed or pinned targets, unmanned or lone batteries and
//! wagons, cavalry charges).

use crate::engine::{Dice, RuleError};
use crate::gbacw::facing::is_enfiladed;
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, Crew, Formation, Marker, UnitKind};
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::combat::effects::rating_for;
use crate::gbacw::ruleset::combat::{Roller, Unfold};
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::exclusive::bce_loss;
use crate::gbacw::ruleset::state::{DeclaredMelee, GbacwState, RbmOffer};
use crate::gbacw::scenario::{Hook, HookKind};
use serde::{Deserialize, Serialize};

/// One 22.0 check, every input shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GateCheck {
    /// The melee's target hex.
    pub target: HexNumber,
    /// `true`: the attacker's melee check (22.2); `false`: the defender's
    /// retreat check (22.1).
    pub attacking: bool,
    /// The unit that rolled (the stack's top eligible unit).
    pub unit: CounterId,
    /// Everyone the result binds.
    pub stack: Vec<CounterId>,
    pub rating: u8,
    pub die: u8,
    pub modifier: i8,
    /// Die plus modifier at most the rating: it retreats / attacks.
    pub passed: bool,
}

fn hook(rs: &Gbacw) -> Option<&Hook> {
    rs.game.scenario.hook(HookKind::MeleeInitiation)
}

/// 29.62: the side modifier of `key` (`retreat-early`, `melee-early`) for
/// `side` on this Game-Turn.
fn early(rs: &Gbacw, state: &GbacwState, key: &str, side: &CounterId) -> i16 {
    let Some(h) = hook(rs) else { return 0 };
    if h.number("early-until")
        .is_none_or(|last| state.clock.turn > last)
    {
        return 0;
    }
    h.param(key)
        .into_iter()
        .flat_map(|v| v.split(','))
        .filter_map(|p| p.split_once(':'))
        .filter(|(s, _)| *s == side.0)
        .filter_map(|(_, m)| m.trim_start_matches('+').parse::<i16>().ok())
        .sum()
}

fn depleted(state: &GbacwState, id: &CounterId) -> bool {
    state
        .units
        .get(id)
        .is_some_and(|u| u.status.markers.contains(&Marker::AmmoDepleted))
}

fn hex_of(state: &GbacwState, id: &CounterId) -> Option<HexNumber> {
    state.units.get(id).and_then(|u| u.hex)
}

/// Whether an attacker in `from` occupies an enfilade hex of `unit`
/// (7.23's enfilade, the fire rule's reading).
///
/// Corinth 22.1: "The checking unit is enfiladed (i.e., an attacking
/// unit(s) occupies the enfilade hex(es) of the defending unit)". Mounted
/// cavalry has two readings (option `mounted-always-enfiladed`): by the
/// attacker's hex (the default, 22.1's own parenthesis, with GBACW 7.0's
/// "Mounted cavalry have one frontal hexside": an attacker in any other
/// hex enfilades it), or always, as in fire (GBACW 7.0 "always considered
/// *enfiladed* whenever fired upon regardless of the direction of the
/// fire"; 16.35 "Mounted cavalry units are *always* enfiladed when fired
/// upon").
fn enfilades(rs: &Gbacw, state: &GbacwState, unit: &CounterId, from: HexNumber) -> bool {
    let Some(u) = state.units.get(unit) else {
        return false;
    };
    let Some(at) = u.hex else { return false };
    if u.status.formation == Formation::Mounted
        && !u.status.markers.contains(&Marker::Rout)
        && !rs.options.mounted_always_enfiladed
    {
        let front = super::redans::facing(rs, at, u.facing).direction();
        let crossings = crate::gbacw::facing::hexsides::fire_crossings(&rs.game.map.grid, at, from);
        return !crossings.is_empty() && crossings.iter().all(|c| *c != front);
    }
    is_enfiladed(
        &rs.game.map.grid,
        at,
        // 23.21: a redan's occupant faces the redan (enfiladed from its rear).
        super::redans::facing(rs, at, u.facing),
        u.status.formation,
        u.status.markers.contains(&Marker::Rout),
        from,
    )
}

fn attackers_of(state: &GbacwState, target: HexNumber) -> Vec<CounterId> {
    state
        .melees
        .iter()
        .filter(|m| m.target == target)
        .flat_map(|m| m.attackers.clone())
        .collect()
}

/// Corinth 22.1: the retreat check's modifier for `unit` against
/// `attackers`.
fn retreat_modifier(
    rs: &Gbacw,
    state: &GbacwState,
    unit: &CounterId,
    target: HexNumber,
    attackers: &[CounterId],
) -> i16 {
    let side = &rs.game.oob.units[unit].side;
    let from: Vec<HexNumber> = attackers.iter().filter_map(|a| hex_of(state, a)).collect();
    let mut m = 0;
    m += i16::from(from.iter().any(|h| enfilades(rs, state, unit, *h)));
    m += i16::from(state.command.out_of_command.contains(unit));
    m += i16::from(bce_loss::broken(rs, state, unit));
    m += early(rs, state, "retreat-early", side);
    m -= i16::from(!attackers.is_empty() && attackers.iter().all(|a| depleted(state, a)));
    m -= i16::from(
        !from.is_empty()
            && from
                .iter()
                .all(|h| super::works::crosses_works_or_redan_into(rs, *h, target)),
    );
    m
}

/// Corinth 22.2: the melee check's modifier for `unit` against
/// `defenders`.
fn melee_modifier(
    rs: &Gbacw,
    state: &GbacwState,
    unit: &CounterId,
    defenders: &[CounterId],
) -> i16 {
    let side = &rs.game.oob.units[unit].side;
    let mut m = 0;
    m += i16::from(depleted(state, unit));
    m += early(rs, state, "melee-early", side);
    m -= i16::from(!defenders.is_empty() && defenders.iter().all(|d| depleted(state, d)));
    m -= i16::from(
        hex_of(state, unit).is_some_and(|h| defenders.iter().any(|d| enfilades(rs, state, d, h))),
    );
    m
}

/// Whether a leader of `side` in `hex` exempts `units` there (22.0 steps
/// 3 and 5; 28.14: one who may affect all of them).
fn has_leader(
    rs: &Gbacw,
    state: &GbacwState,
    hex: HexNumber,
    side: &CounterId,
    units: &[CounterId],
) -> bool {
    crate::gbacw::ruleset::leader_reach::stacked_for_all(&Board::new(rs, state), hex, side, units)
}

/// Who must check among `units` retreating before `offer`'s melee: none
/// when the rule is off or a leader is with them (step 3); mounted
/// cavalry threatened by foot alone (16.1, not charged: 22.32) and
/// dismounted cavalry forced back (21.42) go without a check.
fn retreat_checkers(
    rs: &Gbacw,
    state: &GbacwState,
    offer: &RbmOffer,
    units: &[CounterId],
) -> Vec<CounterId> {
    let side = rs.side_of(offer.seat);
    // The answer's units come from a client and are asked about before
    // the answer is decided (`rolls_dice`): a counter the game does not
    // have is no checker (the answer is refused in words when decided);
    // found by the `gbacw_config` fuzz target, a saved game's changed log.
    let units: Vec<CounterId> = units
        .iter()
        .filter(|u| state.units.contains_key(*u) && rs.game.oob.units.contains_key(*u))
        .cloned()
        .collect();
    if has_leader(rs, state, offer.target, side, &units) {
        return Vec::new();
    }
    checkers_but_for_leaders(rs, state, offer, &units)
}

/// [`retreat_checkers`] as if no leader stood with them (22.33: whether
/// one was "used to bypass" the check).
fn checkers_but_for_leaders(
    rs: &Gbacw,
    state: &GbacwState,
    offer: &RbmOffer,
    units: &[CounterId],
) -> Vec<CounterId> {
    if hook(rs).is_none() {
        return Vec::new();
    }
    let attackers = attackers_of(state, offer.target);
    let foot_only = attackers.iter().all(|a| {
        matches!(rs.game.oob.units[a].kind, UnitKind::Infantry)
            || state.units[a].status.formation == Formation::Dismounted
    });
    let charged = crate::gbacw::ruleset::combat::melee::charged(state, offer.target);
    let forced =
        crate::gbacw::ruleset::exclusive::dismounted_cavalry::must_retreat(rs, state, offer);
    units
        .iter()
        .filter(|u| {
            let mounted = state.units[*u].status.formation == Formation::Mounted;
            // 16.1: from foot alone (and not charged, 22.32); 21.42.
            let cavalry_free = mounted && foot_only && !charged;
            !(cavalry_free || forced.contains(u))
        })
        .cloned()
        .collect()
}

/// The stack's top unit that may make the check: in the hex's stack
/// order, one of `among`, never unlimbered artillery (22.0 step 4).
fn top_checker(
    rs: &Gbacw,
    state: &GbacwState,
    hex: HexNumber,
    side: &CounterId,
    among: &[CounterId],
) -> Option<CounterId> {
    Board::new(rs, state)
        .units_of(hex, side)
        .into_iter()
        .find(|u| {
            among.contains(u)
                && !(matches!(rs.game.oob.units[*u].kind, UnitKind::Battery { .. })
                    && state.units[*u].status.formation == Formation::Unlimbered)
        })
        .cloned()
}

/// Whether the defender's answer retreating `units` rolls a 22.1 check.
pub(crate) fn retreat_rolls(rs: &Gbacw, state: &GbacwState, units: &[CounterId]) -> bool {
    let Some(offer) = &state.rbm else {
        return false;
    };
    let side = rs.side_of(offer.seat);
    let checkers = retreat_checkers(rs, state, offer, units);
    top_checker(rs, state, offer.target, side, &checkers).is_some()
}

/// Corinth 22.0 step 4 (22.1): before `units` retreat before `offer`'s
/// melee, the stack's top unit checks. `Ok(None)`: no check is needed;
/// `Ok(Some(events))`: the check's events (and, failed, the stand that
/// ends the answer: the stack may not retreat at all).
pub(crate) fn retreat_check(
    rs: &Gbacw,
    state: &GbacwState,
    offer: &RbmOffer,
    units: &[CounterId],
    dice: &mut Dice,
) -> Result<Option<(Vec<GbacwEvent>, bool)>, RuleError> {
    let side = rs.side_of(offer.seat);
    let checkers = retreat_checkers(rs, state, offer, units);
    let Some(top) = top_checker(rs, state, offer.target, side, &checkers) else {
        return Ok(None);
    };
    let attackers = attackers_of(state, offer.target);
    let mut u = Unfold::new(state);
    let mut roll = Roller::new(dice);
    let rating = rating_for(rs, &mut u, &mut roll, &top);
    let modifier = retreat_modifier(rs, &u.state, &top, offer.target, &attackers);
    let die = roll.d6();
    roll.finish()?;
    let passed = i16::from(die) + modifier <= i16::from(rating);
    u.push(GbacwEvent::MeleeGateChecked(GateCheck {
        target: offer.target,
        attacking: false,
        unit: top,
        stack: units.to_vec(),
        rating,
        die,
        modifier: i8::try_from(modifier).unwrap_or(0),
        passed,
    }));
    if !passed {
        u.push(GbacwEvent::RbmAnswered);
    }
    Ok(Some((u.events, passed)))
}

/// Corinth 22.4: the melee on `m.target` needs no attacker check: a
/// cavalry charge, or every defender routed or pinned, an unmanned
/// battery or wagon (no crew), a wagon (a lone one: with anyone else in
/// the hex, that one decides), or a battery's crew without guns.
fn automatic(rs: &Gbacw, state: &GbacwState, m: &DeclaredMelee, defenders: &[CounterId]) -> bool {
    m.charge
        || defenders.iter().all(|d| {
            let st = &state.units[d].status;
            st.markers.contains(&Marker::Rout)
                || st.markers.contains(&Marker::Pin)
                || match rs.game.oob.units[d].kind {
                    UnitKind::Wagon { .. } => true,
                    UnitKind::Battery { .. } => st.crew == Crew::None || st.strength == 0,
                    _ => false,
                }
        })
}

/// Corinth 22.0 steps 5–6 (22.2): every declared melee's attackers not
/// stacked with a leader, stack by stack, check before the Melee Phase
/// resolves them; a failed stack leaves that melee (the event's fold
/// takes it off the declaration). 22.34: a hex every defender left is
/// not checked for.
pub(crate) fn melee_checks(rs: &Gbacw, u: &mut Unfold, roll: &mut Roller) {
    if hook(rs).is_none() {
        return;
    }
    let melees = u.state.melees.clone();
    for m in &melees {
        let Some(first) = m.attackers.first() else {
            continue;
        };
        let side = rs.game.oob.units[first].side.clone();
        let enemy = rs.enemy_of(&side).clone();
        let defenders: Vec<CounterId> = Board::new(rs, &u.state)
            .units_of(m.target, &enemy)
            .into_iter()
            .cloned()
            .collect();
        if defenders.is_empty() || automatic(rs, &u.state, m, &defenders) {
            continue;
        }
        // Stack by stack, in the declaration's order of hexes.
        let mut hexes: Vec<HexNumber> = Vec::new();
        for a in &m.attackers {
            if let Some(h) = hex_of(&u.state, a)
                && !hexes.contains(&h)
            {
                hexes.push(h);
            }
        }
        for h in hexes {
            let stack: Vec<CounterId> = m
                .attackers
                .iter()
                .filter(|a| {
                    hex_of(&u.state, a) == Some(h)
                        // 25.12: an engaged unit continues its melee.
                        && !u.state.units[*a].status.markers.contains(&Marker::Engaged)
                })
                .cloned()
                .collect();
            if has_leader(rs, &u.state, h, &side, &stack) {
                // Corinth 22.33: the leader used stays with them.
                if top_checker(rs, &u.state, h, &side, &stack).is_some()
                    && let Some(b) = super::leader_binding::bound(rs, &u.state, h, &side, &stack)
                {
                    u.push(b);
                }
                continue;
            }
            let Some(top) = top_checker(rs, &u.state, h, &side, &stack) else {
                continue;
            };
            let rating = rating_for(rs, u, roll, &top);
            let modifier = melee_modifier(rs, &u.state, &top, &defenders);
            let die = roll.d6();
            let passed = i16::from(die) + modifier <= i16::from(rating);
            u.push(GbacwEvent::MeleeGateChecked(GateCheck {
                target: m.target,
                attacking: true,
                unit: top,
                stack,
                rating,
                die,
                modifier: i8::try_from(modifier).unwrap_or(0),
                passed,
            }));
        }
    }
}

/// The fold of a check: a failed attacking stack leaves the melee.
pub(crate) fn evolve(state: &mut GbacwState, check: &GateCheck) {
    if !check.attacking || check.passed {
        return;
    }
    for m in state.melees.iter_mut().filter(|m| m.target == check.target) {
        m.attackers.retain(|a| !check.stack.contains(a));
    }
}

/// The defender's answer retreating `units` along `path` under 22.0: the
/// answer is checked as the Standard Rules check it (a scratch die, so an
/// illegal answer rolls nothing), then the stack's top unit rolls (22.1);
/// passed, the Standard retreat before melee follows; failed, the stack
/// stands.
pub(crate) fn retreat_before(
    rs: &Gbacw,
    state: &GbacwState,
    offer: &RbmOffer,
    units: &[CounterId],
    path: &[HexNumber],
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    use crate::gbacw::ruleset::combat::melee;
    if !retreat_rolls(rs, state, units) {
        let mut events = melee::retreat_before(rs, state, offer, units, path, dice)?;
        // Corinth 22.33: a leader let them go without the check: he goes too.
        let side = rs.side_of(offer.seat);
        let checkers = checkers_but_for_leaders(rs, state, offer, units);
        if top_checker(rs, state, offer.target, side, &checkers).is_some()
            && let Some(b) = super::leader_binding::bound(rs, state, offer.target, side, units)
        {
            events.insert(0, b);
        }
        return Ok(events);
    }
    let mut scratch = Dice::from_stream(crate::dice::DiceStream::from_seed(b"corinth 22.1"));
    melee::retreat_before(rs, state, offer, units, path, &mut scratch)?;
    let Some((mut events, passed)) = retreat_check(rs, state, offer, units, dice)? else {
        return melee::retreat_before(rs, state, offer, units, path, dice);
    };
    if passed {
        let mut after = state.clone();
        for e in &events {
            crate::gbacw::ruleset::event::evolve(&mut after, e);
        }
        events.extend(melee::retreat_before(rs, &after, offer, units, path, dice)?);
    }
    Ok(events)
}

/// Corinth 22.35: no melee may be declared that, successful, would break
/// the stacking limits of the defender's hex: every unit declared on it
/// (this declaration's and earlier ones') must fit there (GBACW 8.1),
/// except one unit alone into a redan (23.25).
pub(crate) fn check_stacking(
    rs: &Gbacw,
    state: &GbacwState,
    target: HexNumber,
    attackers: &[CounterId],
) -> Result<(), RuleError> {
    let (Some(_), Some(first)) = (hook(rs), attackers.first()) else {
        return Ok(());
    };
    let side = &rs.game.oob.units[first].side;
    let earlier = attackers_of(state, target);
    let all: Vec<&CounterId> = earlier.iter().chain(attackers).collect();
    // Corinth 23.25, the specific rule over this general one: "a unit
    // larger than four may melee into the redan" (only 4 SP count), though
    // a redan holds 4 infantry SP (23.27).
    if all.len() == 1 && super::redans::melee_attack_cap(rs, target).is_some() {
        return Ok(());
    }
    Board::new(rs, state)
        .check_stack(target, side, &[], &all, None)
        .map_err(|_| {
            crate::gbacw::ruleset::err(
                &rs.case_rule("22.35"),
                crate::engine::RuleCode::Illegal,
                format!("the units meleeing {target} would be over its stacking limits there"),
            )
        })
}
