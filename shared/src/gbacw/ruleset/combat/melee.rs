//! Melee in the hosted ruleset (12.0–12.98): declaring it in the Retreat
//! Before Melee Phase, the defender's answer (12.8x), and resolving every
//! declared melee when the Melee Phase ends.
//!
//! Decisions the texts leave open (also in docs/gbacw-notes.md): a
//! retreat before melee on the ordinary terms waits for the withdrawal
//! fire it draws ([`super::advance`]); engaged units continue their melee
//! by declaring it again in their Player-Turn (12.94 options 1 and 2) or
//! withdraw ([`super::engaged`]), and an engagement nobody renews ends
//! with the next Melee Phase; charges are [`super::charge`].

use super::effects::{check_morale, leader_casualties, melee_retreat, rating_for, set_markers};
use super::{Roller, Unfold};
use crate::engine::{Dice, RuleCode, RuleError};
use crate::gbacw::facing::{ZocUse, can_fire_through};
use crate::gbacw::map::HexNumber;
use crate::gbacw::melee::{
    MeleeIntent, MeleeRole, Opponents, alive, crossing_penalty, differential,
    formation_after_melee, may_initiate_melee, melee_stacking, morale_edge, resolve_melee,
    side_total, unit_melee_strength,
};
use crate::gbacw::oob::{CounterId, Formation, Marker, Unit, UnitKind, UnitStatus};
use crate::gbacw::retreat::before_melee::Threat;
use crate::gbacw::retreat::{may_retreat_before_melee, rbm_length_ok};
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::decide::own_unit;
use crate::gbacw::ruleset::event::{GbacwEvent, MeleeReport};
use crate::gbacw::ruleset::state::{DeclaredMelee, GbacwState, RbmOffer};
use crate::gbacw::ruleset::{Gbacw, err};
use std::collections::BTreeSet;

fn illegal(rule: &str, message: impl Into<String>) -> RuleError {
    err(rule, RuleCode::Illegal, message)
}

/// Most attackers in one melee.
const MAX_ATTACKERS: usize = 16;

/// GBACW 12.8, 12.2x, 12.7x: `side` declares a melee on `target`.
pub(crate) fn declare(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    target: HexNumber,
    attackers: &[CounterId],
    charge: bool,
) -> Result<Vec<GbacwEvent>, RuleError> {
    if attackers.is_empty() || attackers.len() > MAX_ATTACKERS {
        return Err(err(
            "GBACW 12.0",
            RuleCode::Invalid,
            format!("a melee has 1 to {MAX_ATTACKERS} attackers"),
        ));
    }
    let game = &rs.game;
    let board = Board::new(rs, state);
    let enemy = rs.enemy_of(side);
    let mut defenders: Vec<CounterId> =
        board.units_of(target, enemy).into_iter().cloned().collect();
    // The battle's own rule here (hook `melee_lone_defender`).
    let lone_crew = if defenders.is_empty()
        && let Some(b) = rs.battle().melee_lone_defender(rs, state, target, enemy)
    {
        defenders.push(b);
        true
    } else {
        false
    };
    if defenders.is_empty() {
        return Err(illegal(
            "GBACW 12.0",
            format!("there is no enemy unit to melee in {target}"),
        ));
    }
    // GBACW 12.85: "A unit so advancing may not initiate melee in that
    // Game-Turn": an attacker now standing in the hex its own declared
    // melee targeted advanced into it after a retreat before melee (the
    // 12.26 check below would refuse it too, under the wrong case).
    for a in attackers {
        let advanced = state.melees.iter().any(|m| {
            m.attackers.contains(a) && state.units.get(a).and_then(|u| u.hex) == Some(m.target)
        });
        if advanced {
            return Err(illegal(
                "GBACW 12.85",
                format!("{a} advanced after a retreat before melee: no melee this Game-Turn"),
            ));
        }
    }
    // GBACW 12.94: option 3 taken this Player-Turn excludes options 1, 2.
    super::engaged::check_not_combined(state, target, attackers)?;
    // GBACW 12.23, 12.26, 12.75: each unit melees into one hex only.
    let mut declared: Vec<(CounterId, HexNumber)> = state
        .melees
        .iter()
        .flat_map(|m| m.attackers.iter().map(move |a| (a.clone(), m.target)))
        .collect();
    declared.extend(attackers.iter().map(|a| (a.clone(), target)));
    crate::gbacw::melee::check_declarations(&declared).map_err(|u| {
        illegal(
            "GBACW 12.26",
            format!("{u} melees into one hex only this Player-Turn"),
        )
    })?;
    let mut points = 0u16;
    for a in attackers {
        let (u, from) = own_unit(rs, state, side, a)?;
        let unit = &game.oob.units[a];
        let class = u
            .status
            .formation
            .move_class()
            .unwrap_or(crate::gbacw::charts::MoveClass::Line);
        let engaged = u.status.markers.contains(&Marker::Engaged);
        let intent = MeleeIntent {
            unit,
            status: &u.status,
            target,
            adjacent_at_phase_start: game.map.grid.distance(from, target) == 1,
            through_frontal_hexside: can_fire_through(
                &game.map.grid,
                from,
                // The battle's own rule here (hook `facing_in`).
                rs.battle().facing_in(rs, from, u.facing),
                // 12.21: mounted cavalry melee through their frontal side.
                match u.status.formation {
                    Formation::Column => Formation::Line,
                    f => f,
                },
                target,
            ),
            in_command: !state.command.out_of_command.contains(a),
            fired_at: state.fired_at.get(a).map_or(&[], |v| v.as_slice()),
            continuing_engaged: engaged,
            advanced_after_retreat: false,
        };
        may_initiate_melee(&intent)
            .map_err(|rule| illegal(rule, format!("{a} may not melee {target}")))?;
        // Cedar Mountain 24.12: not from a brigade that has lost BCE.
        crate::gbacw::ruleset::exclusive::bce_loss::may_initiate_melee(rs, state, a)?;
        // Cedar Mountain 21.11: dismounted cavalry's targets.
        crate::gbacw::ruleset::exclusive::dismounted_cavalry::may_initiate(
            rs, state, a, &defenders,
        )?;
        // GBACW 12.33: only into a hex it could move into, by the
        // ruleset's steps (Corinth 23.31: guns, wagons and mounted cavalry
        // enter a town only across a road, and so melee into it only so).
        may_melee_into(rs, class, from, target).map_err(|rule| {
            illegal(
                rule,
                format!("{a} could not move into {target}, so it may not melee there"),
            )
        })?;
        points += u16::from(u.status.strength);
    }
    // GBACW 12.71, 12.72: the attacker may not exceed the hex's melee limit.
    // Cedar Mountain 21.43: blown-down corn has clear ground's limits.
    if let Some(limits) = rs
        .battle()
        .terrain_now(rs, state, target)
        .and_then(|t| game.charts.stacking.limits(&t))
    {
        melee_stacking(points, 0, limits.melee_points).map_err(|rule| {
            illegal(
                rule,
                format!(
                    "{points} points would melee into {target}, over its limit of {}",
                    limits.melee_points
                ),
            )
        })?;
    }
    // The battle's own rule here (hook `check_melee_stacking`).
    rs.battle()
        .check_melee_stacking(rs, state, target, attackers)?;
    // GBACW 12.72: "The attacker may not enter a hex to melee with more
    // Strength Points than are allowed": the points already declared
    // into the hex this phase (12.75, from other hexes) count too.
    let earlier: u16 = state
        .melees
        .iter()
        .filter(|m| m.target == target)
        .flat_map(|m| &m.attackers)
        .filter_map(|a| state.units.get(a))
        .map(|u| u16::from(u.status.strength))
        .sum();
    if earlier > 0
        && let Some(limits) = rs
            .battle()
            .terrain_now(rs, state, target)
            .and_then(|t| game.charts.stacking.limits(&t))
    {
        melee_stacking(points + earlier, 0, limits.melee_points).map_err(|rule| {
            illegal(
                rule,
                format!(
                    "{} points would melee into {target} with those declared before, over its limit of {}",
                    points + earlier,
                    limits.melee_points
                ),
            )
        })?;
    }
    let already = state.melees.iter().any(|m| m.target == target);
    let threatened: Vec<CounterId> = defenders
        .into_iter()
        // Decision: a lone crew is not offered a retreat before melee.
        .filter(|d| !already && !lone_crew && can_retreat(rs, state, d, attackers, charge))
        .collect();
    Ok(vec![GbacwEvent::MeleeDeclared(
        DeclaredMelee {
            target,
            attackers: attackers.to_vec(),
            charge,
        },
        RbmOffer {
            seat: rs.seat_of(enemy),
            target,
            threatened,
        },
    )])
}

/// GBACW 12.33: "a unit may melee only into a hex it could move into",
/// asked of the ruleset's step table, so what an exclusive rule closes to
/// movement is closed to melee too (Corinth 23.31, `BattleRules::adjust_steps`). `Err`
/// names the rule: the step's own when an exclusive rule closed it
/// ("Corinth 23.31"), else 12.33.
pub(crate) fn may_melee_into(
    rs: &Gbacw,
    class: crate::gbacw::charts::MoveClass,
    from: HexNumber,
    target: HexNumber,
) -> Result<(), &'static str> {
    match rs.steps.cost(class, from, target, true) {
        Ok(_) => Ok(()),
        Err(b @ crate::gbacw::movement::Blocked::RoadOnly(_)) => Err(b.rule()),
        Err(_) => Err("GBACW 12.33"),
    }
}

/// Who threatens a hex: `charge` when a cavalry charge is declared on it
/// (16.26).
fn threat(rs: &Gbacw, state: &GbacwState, attackers: &[CounterId], charge: bool) -> Threat {
    Threat {
        foot_only: attackers.iter().all(|a| {
            matches!(rs.game.oob.units[a].kind, UnitKind::Infantry)
                || state.units[a].status.formation == Formation::Dismounted
        }),
        charge,
    }
}

/// Whether any melee declared on `target` is a charge (16.26).
pub(crate) fn charged(state: &GbacwState, target: HexNumber) -> bool {
    state.melees.iter().any(|m| m.target == target && m.charge)
}

fn can_retreat(
    rs: &Gbacw,
    state: &GbacwState,
    id: &CounterId,
    attackers: &[CounterId],
    charge: bool,
) -> bool {
    let u = &state.units[id];
    may_retreat_before_melee(
        &rs.game.oob.units[id],
        &u.status,
        threat(rs, state, attackers, charge),
    )
    .is_ok()
}

/// GBACW 12.8, 12.81: a retreat before melee names some of the units the
/// melee threatens, and only those. Asked before anything reads the named
/// counters (a client may name any counter, a leader's too). A unit of the
/// hex that is being charged and is not mounted cavalry is told why it
/// may not go: GBACW 16.26, "Units being charged (except mounted cavalry)
/// may not retreat before melee" (restated as Corinth 22.32).
pub(crate) fn check_retreating(
    state: &GbacwState,
    offer: &RbmOffer,
    units: &[CounterId],
) -> Result<(), RuleError> {
    if units.is_empty() {
        return Err(err(
            "GBACW 12.81",
            RuleCode::Invalid,
            "name the units that retreat, or stand fast",
        ));
    }
    crate::gbacw::retreat::before_melee::answer_declarations(&offer.threatened, units).map_err(
        |u| {
            let in_hex = state
                .units
                .get(&u)
                .is_some_and(|x| x.hex == Some(offer.target));
            let mounted = state
                .units
                .get(&u)
                .is_some_and(|x| x.status.formation == Formation::Mounted);
            if in_hex && !mounted && charged(state, offer.target) {
                illegal(
                    "GBACW 16.26",
                    format!(
                        "{u} is being charged by mounted cavalry and may not retreat before melee"
                    ),
                )
            } else {
                illegal("GBACW 12.8", format!("{u} is not threatened by this melee"))
            }
        },
    )
}

/// GBACW 12.81–12.83, 12.87, 12.89: the defender retreats `units` (of the
/// threatened ones) along `path`, one or two hexes away from the hex,
/// never into enemy units or an enemy ZOC; each checks morale on arrival
/// unless mounted cavalry threatened by foot (12.84).
pub(crate) fn retreat_before(
    rs: &Gbacw,
    state: &GbacwState,
    offer: &RbmOffer,
    units: &[CounterId],
    path: &[HexNumber],
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    check_retreating(state, offer, units)?;
    if !rbm_length_ok(path.len()) {
        return Err(illegal(
            "GBACW 12.81",
            "retreat before melee is one or two hexes",
        ));
    }
    let game = &rs.game;
    let side = rs.side_of(offer.seat);
    let board = Board::new(rs, state);
    let attackers: Vec<CounterId> = state
        .melees
        .iter()
        .filter(|m| m.target == offer.target)
        .flat_map(|m| m.attackers.clone())
        .collect();
    // Cedar Mountain 23.0: toward the unit's own lines, every step;
    // Corinth 27.0: toward its goal, ending nearer.
    for u in units {
        crate::gbacw::ruleset::combat::retreat_limits::check_given_path(
            rs,
            state,
            u,
            offer.target,
            path,
        )?;
    }
    // GBACW 16.1: "Unrouted mounted cavalry units in danger of being melee
    // attacked solely by infantry or dismounted cavalry may refuse melee
    // and retreat one or two hexes. ... However, if the cavalry unit is
    // retreated into a hex in an Enemy ZOC, it must undergo possible
    // retreat fire." — the one retreat before melee 12.82 does not bar
    // from an enemy ZOC; retreat fire (10.2) meets it there
    // (case_16_1_cav_rbm_into_enemy_zoc_retreat_fire).
    let threat = threat(rs, state, &attackers, charged(state, offer.target));
    let into_zoc_allowed = |u: &CounterId| {
        threat.foot_only
            && !threat.charge
            && state.units[u].status.formation == Formation::Mounted
            && !state.units[u].status.markers.contains(&Marker::Rout)
    };
    let mut entered_zoc = false;
    let mut at = offer.target;
    for (k, &to) in path.iter().enumerate() {
        let away = game.map.grid.distance(offer.target, to) == k as u32 + 1
            && game.map.grid.distance(at, to) == 1;
        if !away {
            return Err(illegal(
                "GBACW 12.81",
                format!("{to} is not a step away from {}", offer.target),
            ));
        }
        if board.has_enemy(to, side) {
            return Err(illegal("GBACW 14.1", format!("{to} holds the enemy")));
        }
        for u in units {
            let st = &state.units[u].status;
            let mounted = st.formation == Formation::Mounted;
            let zoc = board.enemy_zoc(
                side,
                ZocUse::WithdrawalAndRetreat {
                    mover_mounted: mounted,
                },
            );
            if zoc.contains(&to) {
                if !into_zoc_allowed(u) {
                    return Err(illegal(
                        "GBACW 12.82",
                        format!("{to} is in an enemy Zone of Control"),
                    ));
                }
                entered_zoc = true;
            }
            let class = st
                .formation
                .move_class()
                .unwrap_or(crate::gbacw::charts::MoveClass::Line);
            // Corinth 23.31: the ruleset's steps (town entry by road only
            // for guns, wagons and horses) bind this retreat too.
            if let Err(b) = rs.steps.cost(class, at, to, true) {
                let rule = match b {
                    crate::gbacw::movement::Blocked::RoadOnly(_) => b.rule(),
                    _ => "GBACW 14.1",
                };
                return Err(illegal(rule, format!("{u} may not enter {to} ({b})")));
            }
        }
        at = to;
    }
    let moving: Vec<&CounterId> = units.iter().collect();
    if board.check_stack(at, side, &[], &moving, None).is_err() {
        return Err(illegal(
            "GBACW 8.1",
            format!("{at} would be over its stacking limits"),
        ));
    }
    let mut fired_on = Vec::new();
    for id in units {
        let st = &state.units[id];
        let terms = may_retreat_before_melee(&game.oob.units[id], &st.status, threat)
            .map_err(|rule| illegal(rule, format!("{id} may not retreat before melee")))?;
        if terms.withdrawal_fire {
            fired_on.push(id.clone());
        }
    }
    let mut u = Unfold::new(state);
    u.push(GbacwEvent::RbmAnswered);
    // GBACW 12.83: withdrawal fire first, offered to the attacker's seat.
    if let Some(d) = super::advance::fire_decision(rs, state, offer.target, units, &fired_on, path)
    {
        u.push(GbacwEvent::WithdrawalFireOffered(d));
        return Ok(u.events);
    }
    let mut roll = Roller::new(dice);
    if entered_zoc {
        // GBACW 16.1, 10.2: into the enemy ZOC, retreat fire on the way
        // (the units whose ZOC held the hex left, the attackers', fire
        // none); no withdrawal fire, no check.
        for id in units {
            super::retreat_fire::go_along(rs, &mut u, &mut roll, id, path, false, Vec::new(), None);
        }
        super::advance::offer_advance(rs, &mut u, offer.target, units);
    } else {
        super::advance::carry_on(rs, &mut u, &mut roll, offer.target, units, path, &fired_on);
    }
    roll.finish()?;
    Ok(u.events)
}

/// Whether answering `offer` with this retreat rolls dice (12.83).
pub(crate) fn retreat_rolls(rs: &Gbacw, state: &GbacwState, units: &[CounterId]) -> bool {
    let Some(target) = state.rbm.as_ref().map(|r| r.target) else {
        return false;
    };
    let attackers: Vec<CounterId> = state
        .melees
        .iter()
        .filter(|m| m.target == target)
        .flat_map(|m| m.attackers.clone())
        .collect();
    let threat = threat(rs, state, &attackers, charged(state, target));
    let checked: Vec<CounterId> = units
        .iter()
        .filter(|id| {
            state.units.get(*id).is_some_and(|st| {
                may_retreat_before_melee(&rs.game.oob.units[*id], &st.status, threat)
                    .is_ok_and(|t| t.morale_check)
            })
        })
        .cloned()
        .collect();
    // Offered withdrawal fire first (12.83): the dice roll when it is answered.
    let first_step: Vec<HexNumber> = Vec::new();
    !checked.is_empty()
        && super::advance::fire_decision(rs, state, target, units, &checked, &first_step).is_none()
}

fn pairs<'a>(rs: &'a Gbacw, state: &GbacwState, ids: &[CounterId]) -> Vec<(&'a Unit, UnitStatus)> {
    ids.iter()
        .map(|id| (&rs.game.oob.units[id], state.units[id].status.clone()))
        .collect()
}

/// GBACW 12.0–12.97: resolve every declared melee, in order, one die
/// each, when the Melee Phase ends; then clear the declarations and any
/// engagement not renewed.
pub(crate) fn resolve_all(
    rs: &Gbacw,
    state: &GbacwState,
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    let mut u = Unfold::new(state);
    let mut roll = Roller::new(dice);
    // Engagements from before this phase end unless renewed now (12.94).
    let renewed: BTreeSet<HexNumber> = state.melees.iter().map(|m| m.target).collect();
    let stale: Vec<CounterId> = state
        .units
        .iter()
        .filter(|(_, x)| {
            x.status.markers.contains(&Marker::Engaged)
                && x.hex.is_some_and(|h| !renewed.contains(&h))
        })
        .map(|(id, _)| id.clone())
        .collect();
    // The battle's own rule here (hook `before_melees`).
    rs.battle().before_melees(rs, &mut u, &mut roll);
    let melees = u.state.melees.clone();
    // GBACW 12.97 (case_12_97_half_crew_battery_k_vs_last_point): engaged
    // attackers whose new melee ended engaged again (its result, or a
    // mutual elimination ignored) stay engaged, though their markers did
    // not change.
    let mut engaged_again: BTreeSet<CounterId> = BTreeSet::new();
    for m in &melees {
        let from = u.events.len();
        let fought = resolve_one(rs, &mut u, &mut roll, m);
        if u.events[from..].iter().any(|e| {
            matches!(e, GbacwEvent::MeleeResolved(r)
                if r.mutual_elimination
                    || r.result.attacker == crate::gbacw::tables::MeleeEffect::Engaged)
        }) {
            engaged_again.extend(m.attackers.iter().cloned());
        }
        // GBACW 16.25, 16.27: chargers rout once their melee is fought.
        super::charge::rout_chargers(rs, &mut u, &mut roll, m, fought.as_ref());
    }
    for id in stale {
        // Still engaged only if this phase's results did not touch it.
        if !engaged_again.contains(&id)
            && state.units[&id].status.markers == u.state.units[&id].status.markers
        {
            set_markers(&mut u, &id, |s| {
                s.markers.remove(&Marker::Engaged);
            });
        }
    }
    u.push(GbacwEvent::MeleesCleared);
    roll.finish()?;
    Ok(u.events)
}

/// One melee; returns its result when it was fought.
fn resolve_one(
    rs: &Gbacw,
    u: &mut Unfold,
    roll: &mut Roller,
    m: &DeclaredMelee,
) -> Option<crate::gbacw::tables::MeleeResult> {
    let game = &rs.game;
    let first = m.attackers.first()?;
    let side = game.oob.units[first].side.clone();
    let enemy = rs.enemy_of(&side).clone();
    let attackers: Vec<CounterId> = m
        .attackers
        .iter()
        .filter(|a| {
            let x = &u.state.units[*a];
            x.hex
                .is_some_and(|h| game.map.grid.distance(h, m.target) == 1)
                && !x.status.markers.contains(&Marker::Rout)
        })
        .cloned()
        .collect();
    let board = Board::new(rs, &u.state);
    let mut defenders: Vec<CounterId> = board
        .units_of(m.target, &enemy)
        .into_iter()
        .cloned()
        .collect();
    // The battle's own rule here (hook `melee_lone_defender`).
    let lone = if defenders.is_empty() {
        rs.battle()
            .melee_lone_defender(rs, &u.state, m.target, &enemy)
    } else {
        None
    };
    defenders.extend(lone.clone());
    // The battle's own rule here (hook `melee_stacked_defender`).
    let stacked = if lone.is_none() {
        rs.battle()
            .melee_stacked_defender(rs, &u.state, m.target, &enemy)
    } else {
        None
    };
    defenders.extend(stacked.clone());
    let is_crew = |id: &CounterId| lone.as_ref() == Some(id) || stacked.as_ref() == Some(id);
    // The status each defender melees with (a crew's as 6.13 has it).
    let def_status = |u: &Unfold, id: &CounterId| -> UnitStatus {
        if is_crew(id) {
            rs.battle().melee_piece_status(&u.state, id)
        } else {
            u.state.units[id].status.clone()
        }
    };
    if attackers.is_empty() || defenders.is_empty() {
        return None;
    }
    // GBACW 13.14: a green unit sees the elephant when it first melees.
    for id in attackers.iter().chain(&defenders) {
        rating_for(rs, u, roll, id);
    }
    let rating = |u: &Unfold, id: &CounterId| -> u8 {
        match (game.oob.units[id].morale, u.state.units[id].rating) {
            (crate::gbacw::oob::Morale::Rated(r), _) | (_, Some(r)) => r,
            _ => 4,
        }
    };
    let against = |ids: &[CounterId], charging: bool, u: &Unfold| Opponents {
        foot: ids.iter().any(|id| {
            matches!(game.oob.units[id].kind, UnitKind::Infantry)
                || u.state.units[id].status.formation == Formation::Dismounted
                // GBACW 6.13: a crew without its guns is Line infantry.
                || is_crew(id)
        }),
        mounted: ids
            .iter()
            .any(|id| u.state.units[id].status.formation == Formation::Mounted),
        // 16.33: whether these opponents are charging mounted cavalry.
        charging,
    };
    let board = Board::new(rs, &u.state);
    let att_strengths: Vec<u16> = attackers
        .iter()
        .map(|id| {
            let x = &u.state.units[id];
            let s = unit_melee_strength(
                &game.oob.units[id],
                &x.status,
                // GBACW 16.24: chargers melee at twice their strength.
                MeleeRole::Attacker { charging: m.charge },
                against(&defenders, false, u),
            );
            // GBACW 12.31, 12.32: hexside penalties, not for a continuing
            // engaged melee's old hands.
            let penalty = if x.status.markers.contains(&Marker::Engaged) {
                0
            } else {
                x.hex.map_or(0, |h| {
                    crossing_penalty(&game.map, &game.charts.combat, h, m.target)
                        // The battle's own rule here (hook `melee_crossing_penalty`).
                        - rs.battle().melee_crossing_penalty(rs, h, m.target)
                })
            };
            s.saturating_sub(penalty)
        })
        .collect();
    let def_strengths: Vec<u16> = defenders
        .iter()
        .map(|id| {
            let s = unit_melee_strength(
                &game.oob.units[id],
                &def_status(u, id),
                MeleeRole::Defender,
                against(&attackers, m.charge, u),
            );
            // The battle's own rule here (hook `melee_defender_strength`).
            rs.battle().melee_defender_strength(rs, id, s)
        })
        .collect();
    let cap = rs
        .battle()
        .terrain_now(rs, &u.state, m.target)
        .and_then(|t| game.charts.stacking.limits(&t))
        .map_or(u16::MAX, |l| l.melee_points);
    // GBACW 12.4: a leader with the stack adds one (one per side);
    // Corinth 28.14: a leader who may affect one of its units there.
    use crate::gbacw::ruleset::leader_reach::stacked_for;
    let att_leader = attackers.iter().any(|a| {
        u.state.units[a]
            .hex
            .is_some_and(|h| stacked_for(&board, h, &side, a))
    });
    let def_leader = defenders
        .iter()
        .any(|d| stacked_for(&board, m.target, &enemy, d));
    let lowest = |ids: &[CounterId]| ids.iter().map(|id| rating(u, id)).min().unwrap_or(0);
    let highest = |ids: &[CounterId]| ids.iter().map(|id| rating(u, id)).max().unwrap_or(0);
    // The battle's own rule here (hook `melee_attack_cap`).
    let att_cap = rs
        .battle()
        .melee_attack_cap(rs, m.target)
        .map_or(cap, |r| r.min(cap));
    let attack = side_total(
        &att_strengths,
        att_cap,
        att_leader,
        morale_edge(lowest(&attackers), highest(&defenders)),
    ) - rs
        .battle()
        .melee_differential_penalty(rs, &u.state, m.target, &attackers);
    let defence = side_total(
        &def_strengths,
        cap,
        def_leader,
        morale_edge(lowest(&defenders), highest(&attackers)),
    );
    let diff = differential(attack, defence);
    let die = roll.d6();
    let mut att = pairs(rs, &u.state, &attackers);
    let mut def: Vec<(&Unit, UnitStatus)> = defenders
        .iter()
        .map(|id| (&game.oob.units[id], def_status(u, id)))
        .collect();
    let outcome = resolve_melee(&rs.tables.melee, diff, die, &mut att, &mut def)?;
    u.push(GbacwEvent::MeleeResolved(MeleeReport {
        target: m.target,
        attackers: attackers.clone(),
        defenders: defenders.clone(),
        attack,
        defence,
        differential: diff,
        die,
        result: outcome.cell,
        mutual_elimination: outcome.mutual_elimination,
    }));
    // GBACW 9.85: "Once a pinned unit is meleed, it becomes unpinned.
    // Remove the PIN marker from that unit." (Before the results: a
    // result that pins again, none does in melee, would stand.)
    for id in &defenders {
        if !is_crew(id)
            && u.state
                .units
                .get(id)
                .is_some_and(|x| x.status.markers.contains(&Marker::Pin))
        {
            set_markers(u, id, |s| {
                s.markers.remove(&Marker::Pin);
            });
        }
    }
    // Where each side stood when the blow fell (17.72: the leaders there roll).
    // A crew away stands in the target, not where its guns are.
    let hexes_of = |u: &Unfold, ids: &[CounterId]| -> BTreeSet<HexNumber> {
        ids.iter()
            .filter(|id| !is_crew(id))
            .filter_map(|id| u.state.units[id].hex)
            .collect()
    };
    let sides = [
        (
            &attackers,
            &att,
            &outcome.attacker,
            &side,
            hexes_of(u, &attackers),
        ),
        (
            &defenders,
            &def,
            &outcome.defender,
            &enemy,
            hexes_of(u, &defenders),
        ),
    ];
    for (k, (ids, after, o, owner, stood)) in sides.iter().enumerate() {
        let (ids, after, o) = (*ids, *after, *o);
        if k == 1 && lone.is_some() {
            continue;
        }
        // Losses: killed (12.91), captured (12.93), crews (12.91).
        for (i, pts) in &o.killed {
            let id = &ids[*i];
            if matches!(
                game.oob.units[id].kind,
                UnitKind::Infantry | UnitKind::Cavalry
            ) {
                u.push(GbacwEvent::UnitHit {
                    unit: id.clone(),
                    points: *pts,
                });
            }
        }
        for (i, pts) in &o.captured {
            let id = &ids[*i];
            if matches!(
                game.oob.units[id].kind,
                UnitKind::Infantry | UnitKind::Cavalry
            ) {
                u.push(GbacwEvent::PointsCaptured {
                    unit: id.clone(),
                    points: *pts,
                });
            }
        }
        for (i, id) in ids.iter().enumerate() {
            let before = &u.state.units[id].status;
            if after[i].1.crew != before.crew
                && !o.captured_whole.contains(&i)
                && !(k == 1 && is_crew(id))
            {
                u.push(GbacwEvent::CrewHit {
                    unit: id.clone(),
                    crew: after[i].1.crew,
                });
            }
        }
        for i in &o.captured_whole {
            u.push(GbacwEvent::UnitRemoved {
                unit: ids[*i].clone(),
                captured: true,
            });
        }
        for id in ids {
            let x = &u.state.units[id];
            if x.hex.is_some() && !alive(&game.oob.units[id], &x.status) && !(k == 1 && is_crew(id))
            {
                u.push(GbacwEvent::UnitRemoved {
                    unit: id.clone(),
                    captured: false,
                });
            }
        }
        if o.engaged {
            for id in ids {
                // The crew's markers are its guns' (see `crew_melee`).
                if u.state.units[id].hex.is_some() && !(k == 1 && is_crew(id)) {
                    set_markers(u, id, |s| {
                        s.markers.insert(Marker::Engaged);
                    });
                }
            }
        }
        if let Some(cause) = o.leader_roll {
            for h in stood {
                leader_casualties(rs, u, roll, owner, *h, cause);
            }
        }
        // GBACW 17.73: "If a leader is the only Friendly counter in a hex
        // after a melee (or there are other leaders), it may not retreat;
        // it is captured." — leaders whose units the melee's losses left
        // none of, after their 17.72 rolls.
        for h in stood {
            let board = Board::new(rs, &u.state);
            if !board.units_of(*h, owner).is_empty() {
                continue;
            }
            let alone: Vec<CounterId> = board.leaders_of(*h, owner).into_iter().cloned().collect();
            for leader in alone {
                u.push(GbacwEvent::LeaderLost {
                    leader,
                    casualty: crate::gbacw::ruleset::state::Casualty::Captured,
                });
            }
        }
    }
    if let Some(b) = &lone {
        rs.battle()
            .melee_lone_result(rs, u, roll, b, &def[0].1, &outcome.defender);
    }
    let mut routed_left = false;
    for (k, (ids, _, o, _, _)) in sides.iter().enumerate() {
        if k == 1 && lone.is_some() {
            continue;
        }
        for (i, id) in ids.iter().enumerate() {
            if u.state.units[id].hex.is_none() || (k == 1 && is_crew(id)) {
                continue;
            }
            // GBACW 12.51: "if "engaged" in melee, a routed unit must
            // retreat from melee, if possible", else it is captured.
            if o.engaged && u.state.units[id].status.markers.contains(&Marker::Rout) {
                super::engaged::routed_leave(rs, u, roll, id);
                routed_left = true;
            } else if let Some(n) = o.retreat {
                // GBACW 12.92, 12.95, 12.98: survivors retreat, then check
                // morale "At the end of the retreat" — when the owner has
                // chosen the path, if he has a choice (14.4) — and a rout
                // retreats three hexes more (13.31).
                let lost = o.killed.iter().any(|(j, _)| *j == i)
                    || o.captured.iter().any(|(j, _)| *j == i);
                melee_retreat(rs, u, roll, id, usize::from(n), o.morale_check, lost);
            } else if o.morale_check && u.state.units[id].hex.is_some() {
                check_morale(rs, u, roll, id);
            }
            // GBACW 12.24: a meleed column goes into line.
            let f = u.state.units[id].status.formation;
            if f != formation_after_melee(f) && u.state.units[id].hex.is_some() {
                u.push(GbacwEvent::FormationSet {
                    unit: id.clone(),
                    to: formation_after_melee(f),
                });
            }
        }
    }
    // GBACW 12.51, 12.94: an engagement whose routed side has all left.
    if routed_left {
        let all: Vec<CounterId> = attackers.iter().chain(&defenders).cloned().collect();
        super::engaged::end_where_no_enemy(rs, u, &all);
    }
    // Corinth 24.21, GBACW 12.74, 12.92: the crew shares its friends' lot.
    if let Some(b) = &stacked
        && let Some(i) = defenders.iter().position(|d| d == b)
    {
        rs.battle()
            .melee_stacked_result(rs, u, roll, b, i, &def[i].1, &outcome.defender);
    }
    Some(outcome.cell)
}
