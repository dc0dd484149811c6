//! GBACW 10.2: retreat fire. A unit forced to retreat into the Zone of
//! Control of an enemy unit, other than the one that caused the retreat,
//! may be fired on by it, as withdrawal fire (10.1x) but triggered by
//! entering the ZOC, once per enemy unit per retreat. A routed unit that
//! suffers casualties from it does not rout again.
//!
//! The retreat stops in the hex where it enters the ZOC of enemy units not
//! offered a shot yet; their seat is offered retreat fire (a pending
//! decision, decline by default); then the retreat goes on from there.
//!
//! Decisions (docs/gbacw-notes.md):
//! - "Other than the unit which caused the retreat": the engine does not
//!   record who caused it, so the enemy units whose ZOC held the hex the
//!   retreat began in are left out (the unit did not enter their ZOC; an
//!   adjacent firer or melee attacker is among them). A unit already in a
//!   firer's ZOC that stays in it does not enter it again.
//! - A firer offered a shot and declining is not offered again in the same
//!   retreat.
//! - Fire at range 1, every firer's whole strength, the retreater facing
//!   the next hex of its path (10.16). A pin does not stop a retreat; a
//!   unit routed by the fire routs on from where it stands (13.31) and the
//!   rest of its path is dropped.

use super::attack::prepare;
use super::{Roller, Unfold};
use crate::engine::{Dice, RuleCode, RuleError};
use crate::gbacw::facing::{Facing, ZocUse};
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, Formation, Marker};
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::{FireShare, GbacwState, RetreatFireOffer};
use crate::gbacw::ruleset::{Gbacw, err};
use std::collections::BTreeSet;

/// GBACW 14.0, 14.3, 10.2: `id` retreats along `path` from where it
/// stands, displacing friends (14.3), until it enters the ZOC of enemy
/// units not yet `offered` a shot: there it halts and retreat fire is
/// offered. `at_start`: the enemy units whose ZOC held the hex the
/// retreat began in (`None`: this call begins it). `leaves_map`: at the
/// end of `path` the unit goes off the map (a goal reached with hexes
/// left, `BattleRules::retreat_leaves_at_goal`; the battle's
/// `retreat_blocked` says what becomes of it).
#[allow(clippy::too_many_arguments)]
pub(crate) fn go_along(
    rs: &Gbacw,
    u: &mut Unfold,
    roll: &mut Roller,
    id: &CounterId,
    path: &[HexNumber],
    leaves_map: bool,
    offered: Vec<CounterId>,
    at_start: Option<Vec<CounterId>>,
) {
    let Some(start) = u.state.units.get(id).and_then(|x| x.hex) else {
        return;
    };
    let side = rs.game.oob.units[id].side.clone();
    let mounted = u.state.units[id].status.formation == Formation::Mounted;
    let zocs = Board::new(rs, &u.state).withdrawal_zocs(&side, mounted);
    let in_zoc = |h: &HexNumber| -> BTreeSet<CounterId> {
        zocs.get(h).into_iter().flatten().cloned().collect()
    };
    let at_start = at_start.unwrap_or_else(|| in_zoc(&start).into_iter().collect());
    let mut before = in_zoc(&start);
    for (k, h) in path.iter().enumerate() {
        let here = in_zoc(h);
        let new: Vec<CounterId> = here
            .iter()
            .filter(|f| !before.contains(*f) && !at_start.contains(f) && !offered.contains(f))
            .filter(|f| !moved_battery(rs, &u.state, f))
            .cloned()
            .collect();
        if !new.is_empty() {
            let segment = &path[..=k];
            u.push(GbacwEvent::UnitRetreated {
                unit: id.clone(),
                path: segment.to_vec(),
            });
            super::displacement::displace(rs, u, roll, id, segment);
            // Cedar Mountain 24.14: captured on the way (a friend it
            // displaced broke its brigade): no retreat fire is left to offer.
            if u.state.units.get(id).is_none_or(|x| x.hex.is_none()) {
                return;
            }
            let mut offered = offered;
            offered.extend(new.iter().cloned());
            u.push(GbacwEvent::RetreatFireOffered(RetreatFireOffer {
                seat: rs.seat_of(rs.enemy_of(&side)),
                unit: id.clone(),
                hex: *h,
                firers: new,
                rest: path[k + 1..].to_vec(),
                offered,
                at_start,
                leaves_map,
            }));
            return;
        }
        before = here;
    }
    u.push(GbacwEvent::UnitRetreated {
        unit: id.clone(),
        path: path.to_vec(),
    });
    super::displacement::displace(rs, u, roll, id, path);
    // Off the map from the last hex, if it still stands there.
    let end = path.last().copied().unwrap_or(start);
    if leaves_map && u.state.units.get(id).and_then(|x| x.hex) == Some(end) {
        u.push(rs.battle().retreat_blocked(rs, &u.state, id));
    }
}

/// GBACW 15.0: "Artillery units may either move or fire in any one
/// Player-Turn. They may not do both. … once an artillery unit has moved,
/// it may not fire." Retreat fire is fire too, "a free shot" (10.2) only
/// in that it costs no Fire Phase: a battery that entered a hex since
/// this Player-Turn's Movement Phase began is not offered it (its ZOC
/// still holds the retreater). Unlimbering in place moves no hex.
fn moved_battery(rs: &Gbacw, state: &GbacwState, id: &CounterId) -> bool {
    let battery = rs
        .game
        .oob
        .units
        .get(id)
        .is_some_and(|x| matches!(x.kind, crate::gbacw::oob::UnitKind::Battery { .. }));
    battery && state.units.get(id).is_some_and(|x| x.moved.hexes > 0)
}

/// GBACW 10.2: the answer to `offer`: `firers` (of those offered, each
/// once) fire, or none (`None`: declined); then the retreat goes on.
pub(crate) fn answer(
    rs: &Gbacw,
    state: &GbacwState,
    offer: &RetreatFireOffer,
    firers: Option<&[CounterId]>,
    dice: &mut Dice,
) -> Result<Vec<GbacwEvent>, RuleError> {
    if let Some(f) = firers {
        if f.is_empty() {
            return Err(err(
                "GBACW 10.2",
                RuleCode::Invalid,
                "name the units that fire, or decline",
            ));
        }
        for (k, x) in f.iter().enumerate() {
            if !offer.firers.contains(x) || f[..k].contains(x) {
                return Err(err(
                    "GBACW 10.2",
                    RuleCode::Illegal,
                    format!("{x} may not fire this retreat fire (each offered unit once)"),
                ));
            }
        }
    }
    // The battle's own rule here (hook `answer_retreat_fire`).
    if let Some(answer) = rs
        .battle()
        .answer_retreat_fire(rs, state, offer, firers, dice)
    {
        return answer;
    }
    let mut u = Unfold::new(state);
    u.push(GbacwEvent::RetreatFireAnswered);
    let mut roll = Roller::new(dice);
    let was_routed = state.units[&offer.unit]
        .status
        .markers
        .contains(&Marker::Rout);
    let here = |u: &Unfold| u.state.units[&offer.unit].hex == Some(offer.hex);
    if let Some(f) = firers
        && here(&u)
    {
        // 10.2: a routed retreater hit does not rout again.
        fire_on_retreater(rs, state, &mut u, &mut roll, offer, f, was_routed)?;
    }
    let routed_now = u.state.units[&offer.unit]
        .status
        .markers
        .contains(&Marker::Rout);
    if here(&u) && (was_routed || !routed_now) && broke_into_zoc(rs, &u.state, offer) {
        // The battle's own rule here (hook `retreat_blocked`).
        u.push(rs.battle().retreat_blocked(rs, &u.state, &offer.unit));
    } else if here(&u) && (was_routed || !routed_now) {
        go_along(
            rs,
            &mut u,
            &mut roll,
            &offer.unit,
            &offer.rest,
            offer.leaves_map,
            offer.offered.clone(),
            Some(offer.at_start.clone()),
        );
    }
    roll.finish()?;
    Ok(u.events)
}

/// Cedar Mountain 24.14 in the middle of a retreat: the unit's brigade
/// has lost BCE (perhaps to this very fire) and the rest of its path
/// enters an enemy Zone of Control, which such a unit may not retreat
/// through "at all". (23.0's directions and Corinth 27.0's goal do not
/// change on the way: the path was chosen under them.)
fn broke_into_zoc(rs: &Gbacw, state: &GbacwState, offer: &RetreatFireOffer) -> bool {
    shuns_rest(rs, state, &offer.unit, &offer.rest)
}

/// Cedar Mountain 24.14: whether `unit`, part way through a retreat,
/// belongs to a brigade that has lost BCE and `rest` (the hexes still
/// before it) enters an enemy Zone of Control: then it may not go on and
/// is captured. Also asked after each friend it displaces (14.3), whose
/// loss may be what broke the brigade.
pub(crate) fn shuns_rest(
    rs: &Gbacw,
    state: &GbacwState,
    unit: &CounterId,
    rest: &[HexNumber],
) -> bool {
    if rest.is_empty()
        || !crate::gbacw::ruleset::exclusive::bce_loss::retreat_shuns_zoc(rs, state, unit)
    {
        return false;
    }
    let side = &rs.game.oob.units[unit].side;
    let mounted = state.units[unit].status.formation == Formation::Mounted;
    let zoc = Board::new(rs, state).enemy_zoc(
        side,
        ZocUse::WithdrawalAndRetreat {
            mover_mounted: mounted,
        },
    );
    rest.iter().any(|h| zoc.contains(h))
}

/// Whether declining `offer` rolls dice: the rest of the retreat
/// displaces friends, who check morale (14.3).
pub(crate) fn decline_rolls(rs: &Gbacw, state: &GbacwState, offer: &RetreatFireOffer) -> bool {
    // The battle's own rule here (hook `is_own_piece`).
    if rs.battle().is_own_piece(state, &offer.unit) {
        return false;
    }
    !super::displacement::displaced_by(rs, state, &offer.unit, &offer.rest).is_empty()
        || rs
            .battle()
            .displaces_pieces(rs, state, &offer.unit, &offer.rest)
}

/// GBACW 10.2: `firers` shoot at `offer`'s retreater where it halted,
/// facing the hex it goes on to (10.16); `no_re_rout`: a hit does not rout
/// it again (it was routed already). Shared by units and by Corinth's
/// crews away from their guns (24.21).
pub(crate) fn fire_on_retreater(
    rs: &Gbacw,
    state: &GbacwState,
    u: &mut Unfold,
    roll: &mut Roller,
    offer: &RetreatFireOffer,
    firers: &[CounterId],
    no_re_rout: bool,
) -> Result<(), RuleError> {
    let shares: Vec<FireShare> = firers
        .iter()
        .map(|x| FireShare {
            unit: x.clone(),
            points: state.units.get(x).map_or(0, |s| s.status.strength),
        })
        .collect();
    let facing_as = offer
        .rest
        .first()
        .and_then(|to| rs.game.map.grid.direction(offer.hex, *to))
        .map(Facing::new);
    let prepared = prepare(
        rs,
        state,
        offer.hex,
        &shares,
        Some(std::slice::from_ref(&offer.unit)),
        facing_as,
    )?;
    let die = roll.d6();
    u.no_re_rout = no_re_rout.then(|| offer.unit.clone());
    super::resolve::resolve_one(
        rs,
        u,
        roll,
        &prepared,
        die,
        &[],
        &mut std::collections::BTreeSet::new(),
    );
    u.no_re_rout = None;
    Ok(())
}
