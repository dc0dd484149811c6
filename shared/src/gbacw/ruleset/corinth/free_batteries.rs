//! Corinth 30.18, second half: "If batteries of Stanley's division have
//! been set up in redans D and E, then two of the independent batteries
//! are free to be set up with any brigade on the map."
//!
//! The Historical Scenario's set-up puts the eleven independent batteries
//! one to each of the seven other redans and four in the park (29.44.3,
//! 29.44.4). With Stanley's batteries in D and E (30.14 lets them), two
//! of those redans are taken and two independents would have no place:
//! this case gives them one. On with
//!
//! ```text
//! hook free-batteries case=30.18 side=union redans=0633,0527 by=STANLEY'S-BATTERIES units=INDEPENDENTS count=2
//! ```
//!
//! Readings:
//! - "two": one for each of the two redans holding a battery of
//!   Stanley's, so two with both, as printed, and one with one. 30.14
//!   lets Stanley put a battery in D or E alone; the printed two is the
//!   count of redans his batteries take from the independents, and with
//!   one taken the eleven would otherwise have ten places (six redans and
//!   four in the park): no legal set-up at all. At most `count`.
//! - "have been set up": the freedom exists once the redans hold
//!   Stanley's batteries; a free placement asked for before that is
//!   refused (the battery's own area applies), and the whole set-up is
//!   checked again when it ends (a battery of Stanley's moved out of D or
//!   E afterwards makes a free one too many).
//! - "with any brigade on the map": as a brigade battery of that brigade
//!   (29.44.1's "within the Effectiveness Radius of their commanders"):
//!   within the printed radius of some brigade commander of the side on
//!   the map when the set-up ends. When placed (leaders are placed after
//!   units), the hex must be within such a radius of the commander if he
//!   is placed, else of a placed unit of his brigade (where he may stand).
//!
//! The default completion uses the freedom only when a listed battery
//! finds no room in its area: it then stands with a brigade commander
//! already placed (within his radius), else in the hex where the default
//! will put one (his battery's, or his brigade's first unit's).

use crate::engine::{RuleCode, RuleError};
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, LeaderRole};
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::ruleset::{Gbacw, err};
use crate::gbacw::scenario::{Hook, HookKind, Place};

fn hook<'a>(rs: &'a Gbacw, side: &CounterId) -> Option<&'a Hook> {
    rs.game
        .scenario
        .hook(HookKind::FreeBatteries)
        .filter(|h| h.param("side") == Some(side.0.as_str()))
}

fn listed(h: &Hook, key: &str, id: &CounterId) -> bool {
    h.param(key)
        .is_some_and(|v| v.split(',').any(|u| u == id.0))
}

fn count(h: &Hook) -> usize {
    h.number("count").map_or(2, usize::from)
}

/// Whether `id` is one of the independent batteries this case frees.
fn is_listed(rs: &Gbacw, side: &CounterId, id: &CounterId) -> bool {
    hook(rs, side).is_some_and(|h| listed(h, "units", id))
}

/// How many of the listed batteries are free now: one for each redan of
/// the hook (D, E) that holds one of Stanley's batteries, so two with
/// both, as printed (at most `count`).
pub(crate) fn allowed(rs: &Gbacw, state: &GbacwState, side: &CounterId) -> usize {
    let Some(h) = hook(rs, side) else {
        return 0;
    };
    let redans: Vec<HexNumber> = h
        .param("redans")
        .into_iter()
        .flat_map(|v| v.split(','))
        .filter_map(HexNumber::parse)
        .collect();
    let held = redans
        .iter()
        .filter(|r| {
            state
                .units
                .iter()
                .any(|(id, u)| u.hex == Some(**r) && listed(h, "by", id))
        })
        .count();
    held.min(count(h))
}

/// Whether `hex` is in the area of `id`'s own set-up line.
fn in_own_area(rs: &Gbacw, id: &CounterId, hex: HexNumber) -> bool {
    let Some(Place::Area(a)) = rs.chosen_setup(id).map(|l| &l.place) else {
        return true;
    };
    rs.game
        .scenario
        .area(&a.0)
        .is_some_and(|area| rs.in_area(area, hex))
}

/// The listed batteries of `side` standing outside their own area, but
/// `except`.
fn free_ones(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    except: Option<&CounterId>,
) -> Vec<(CounterId, HexNumber)> {
    state
        .units
        .iter()
        .filter(|(id, _)| Some(*id) != except && is_listed(rs, side, id))
        .filter_map(|(id, u)| u.hex.map(|h| (id.clone(), h)))
        .filter(|(id, h)| !in_own_area(rs, id, *h))
        .collect()
}

/// The brigade commanders of `side` with their printed radius.
fn brigade_commanders<'a>(
    rs: &'a Gbacw,
    side: &'a CounterId,
) -> impl Iterator<Item = (&'a CounterId, u32)> + 'a {
    rs.game
        .oob
        .leaders
        .iter()
        .filter(move |(_, l)| l.side == *side)
        .filter_map(|(id, l)| match &l.role {
            LeaderRole::Brigade { ratings, .. } => {
                Some((id, u32::from(ratings.effectiveness_radius)))
            }
            _ => None,
        })
}

/// Where brigade commander `b` stands, or may stand at set-up: his hex if
/// placed, else the hexes of his brigade's placed units.
fn commander_spots(state: &GbacwState, rs: &Gbacw, b: &CounterId) -> Vec<HexNumber> {
    if let Some(h) = state.leaders.get(b).and_then(|l| l.hex) {
        return vec![h];
    }
    rs.game
        .oob
        .brigade_units(b)
        .filter_map(|u| state.units.get(&u.id).and_then(|s| s.hex))
        .collect()
}

/// Corinth 30.18 at a placement of `id` in `hex` outside its own area:
/// `None` if the case does not free it (the area's refusal stands);
/// `Some(Ok)` if it may stand there; `Some(Err)` if the case applies but
/// refuses (a third free battery, or no brigade commander's radius).
pub(crate) fn placement(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    id: &CounterId,
    hex: HexNumber,
) -> Option<Result<(), RuleError>> {
    let h = hook(rs, side)?;
    let free = allowed(rs, state, side);
    if !listed(h, "units", id) || free == 0 {
        return None;
    }
    let rule = rs.case_rule(&h.case);
    let others = free_ones(rs, state, side, Some(id));
    if others.len() >= free {
        return Some(Err(err(
            &rule,
            RuleCode::Illegal,
            format!(
                "only {free} independent batteries are free to set up with a brigade (one for each of Redans D and E holding a battery of Stanley's); {} already are",
                others
                    .iter()
                    .map(|(u, _)| u.0.as_str())
                    .collect::<Vec<_>>()
                    .join(" and ")
            ),
        )));
    }
    let grid = &rs.game.map.grid;
    let near = brigade_commanders(rs, side).any(|(b, radius)| {
        commander_spots(state, rs, b)
            .iter()
            .any(|s| grid.distance(*s, hex) <= radius)
    });
    if !near {
        return Some(Err(err(
            &rule,
            RuleCode::Illegal,
            format!(
                "{id} set up free of the redans and the park goes with a brigade: {hex} is within no brigade commander's Effectiveness Radius"
            ),
        )));
    }
    Some(Ok(()))
}

/// Corinth 30.18 on the finished set-up of `side`: no more listed
/// batteries outside their area than [`allowed`], and a brigade commander
/// on the map has each within his printed radius.
pub fn check(rs: &Gbacw, state: &GbacwState, side: &CounterId) -> Result<(), RuleError> {
    let Some(h) = hook(rs, side) else {
        return Ok(());
    };
    let free = free_ones(rs, state, side, None);
    if free.is_empty() {
        return Ok(());
    }
    let rule = rs.case_rule(&h.case);
    let may = allowed(rs, state, side);
    if free.len() > may {
        return Err(err(
            &rule,
            RuleCode::Illegal,
            format!(
                "{} independent batteries stand outside the redans and the park ({}); only {may} may: one for each of Redans D and E holding a battery of Stanley's",
                free.len(),
                free.iter()
                    .map(|(u, _)| u.0.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    let grid = &rs.game.map.grid;
    for (id, at) in &free {
        let with = brigade_commanders(rs, side).any(|(b, radius)| {
            state
                .leaders
                .get(b)
                .and_then(|l| l.hex)
                .is_some_and(|c| grid.distance(c, *at) <= radius)
        });
        if !with {
            return Err(err(
                &rule,
                RuleCode::Illegal,
                format!(
                    "{id} in {at} is within no brigade commander's Effectiveness Radius: a free battery sets up with a brigade"
                ),
            ));
        }
    }
    Ok(())
}

/// Whether a problem of the scenario's own set-up check is this case's
/// to judge ([`check`], which names 30.18): a listed battery outside its
/// area. Judged there even when Stanley's batteries have left D or E
/// since, so that the player's `EndSetUp` is refused with the reason
/// instead of his set-up being replaced by the default deployment.
pub fn excused(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    problem: &crate::gbacw::scenario::Problem,
) -> bool {
    free_ones(rs, state, side, None).iter().any(|(id, _)| {
        problem.0.contains(&format!("`{id}` at ")) && problem.0.contains("outside area")
    })
}

/// The default completion's hexes for listed battery `id` when its area
/// has no room: with a placed brigade commander (within his radius,
/// nearest first), then where the default will put an unplaced one.
/// Empty when the case does not free it now.
pub(crate) fn fallback_hexes(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    id: &CounterId,
) -> Vec<HexNumber> {
    let Some(h) = hook(rs, side) else {
        return Vec::new();
    };
    if !listed(h, "units", id)
        || free_ones(rs, state, side, Some(id)).len() >= allowed(rs, state, side)
    {
        return Vec::new();
    }
    let grid = &rs.game.map.grid;
    let mut out = Vec::new();
    for (b, radius) in brigade_commanders(rs, side) {
        let Some(at) = state.leaders.get(b).and_then(|l| l.hex) else {
            continue;
        };
        let mut near: Vec<HexNumber> = rs
            .game
            .map
            .hexes()
            .map(|(x, _)| x)
            .filter(|x| grid.distance(at, *x) <= radius)
            .collect();
        near.sort_by_key(|x| (grid.distance(at, *x), *x));
        out.extend(near);
    }
    for (b, _) in brigade_commanders(rs, side) {
        if state.leaders.get(b).and_then(|l| l.hex).is_none()
            && let Some(at) = super::brigade_batteries::commander_hex(rs, state, b)
        {
            out.push(at);
        }
    }
    out
}

/// The default completion's order for placing brigade commander `leader`:
/// the hexes leaving fewest free batteries with no brigade commander
/// within reach first (stable; called before 29.44.1's own ordering,
/// which then comes first: his own batteries matter more).
pub(crate) fn order_leader(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    leader: &CounterId,
    hexes: &mut [HexNumber],
) {
    if hook(rs, side).is_none() {
        return;
    }
    let Some(LeaderRole::Brigade { ratings, .. }) =
        rs.game.oob.leaders.get(leader).map(|l| &l.role)
    else {
        return;
    };
    let radius = u32::from(ratings.effectiveness_radius);
    let grid = &rs.game.map.grid;
    let orphans: Vec<HexNumber> = free_ones(rs, state, side, None)
        .into_iter()
        .map(|(_, h)| h)
        .filter(|h| {
            !brigade_commanders(rs, side).any(|(b, r)| {
                state
                    .leaders
                    .get(b)
                    .and_then(|l| l.hex)
                    .is_some_and(|c| grid.distance(c, *h) <= r)
            })
        })
        .collect();
    if orphans.is_empty() {
        return;
    }
    hexes.sort_by_key(|h| {
        orphans
            .iter()
            .filter(|o| grid.distance(**o, *h) > radius)
            .count()
    });
}
