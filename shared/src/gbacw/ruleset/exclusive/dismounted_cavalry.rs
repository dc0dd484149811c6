//! Cedar Mountain 21.11, 21.12 and Corinth 21.41, 21.42: dismounted
//! cavalry in melee. On when the scenario has `hook dismounted-cavalry`
//! (the morale of 2 is printed on the counters' dismounted side, so it
//! needs nothing here); the hook names each battle's cases
//! (`initiate=21.41 must-retreat=21.42`) and whether supply wagons are
//! targets too (`wagons=yes`: Corinth 21.41; Cedar Mountain has none,
//! 21.2).

use crate::dice::DiceStream;
use crate::engine::{Dice, RuleCode, RuleError};
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, Formation, Marker, UnitKind};
use crate::gbacw::ruleset::action::GbacwAction;
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::state::{GbacwState, RbmOffer};
use crate::gbacw::ruleset::{Gbacw, combat, err};
use crate::gbacw::scenario::HookKind;

fn on(rs: &Gbacw) -> bool {
    rs.game.scenario.hook(HookKind::DismountedCavalry).is_some()
}

/// The case the battle states `key` (`initiate`, `must-retreat`) in,
/// `fallback` (Cedar Mountain's number) when the hook does not say.
fn cite(rs: &Gbacw, key: &str, fallback: &str) -> String {
    let number = rs
        .game
        .scenario
        .hook(HookKind::DismountedCavalry)
        .and_then(|h| h.param(key))
        .unwrap_or(fallback);
    rs.case_rule(number)
}

fn wagons_too(rs: &Gbacw) -> bool {
    rs.game
        .scenario
        .hook(HookKind::DismountedCavalry)
        .is_some_and(|h| h.param("wagons") == Some("yes"))
}

fn dismounted_cavalry(rs: &Gbacw, state: &GbacwState, id: &CounterId) -> bool {
    matches!(
        rs.game.oob.units.get(id).map(|u| &u.kind),
        Some(UnitKind::Cavalry)
    ) && state
        .units
        .get(id)
        .is_some_and(|u| u.status.formation == Formation::Dismounted)
}

fn kind_of<'a>(rs: &'a Gbacw, id: &CounterId) -> Option<&'a UnitKind> {
    rs.game.oob.units.get(id).map(|u| &u.kind)
}

/// Cedar Mountain 21.11, Corinth 21.41: dismounted cavalry initiates
/// melee only against enemy dismounted cavalry and artillery (either
/// formation) — at Corinth supply wagons too — never against infantry or
/// mounted cavalry: every defender in the hex must be one of those.
pub(crate) fn may_initiate(
    rs: &Gbacw,
    state: &GbacwState,
    attacker: &CounterId,
    defenders: &[CounterId],
) -> Result<(), RuleError> {
    if !on(rs) || !dismounted_cavalry(rs, state, attacker) {
        return Ok(());
    }
    let barred = defenders.iter().find(|d| {
        !(dismounted_cavalry(rs, state, d)
            || matches!(kind_of(rs, d), Some(UnitKind::Battery { .. }))
            || (wagons_too(rs) && matches!(kind_of(rs, d), Some(UnitKind::Wagon { .. }))))
    });
    match barred {
        Some(d) => Err(err(
            &cite(rs, "initiate", "21.11"),
            RuleCode::Illegal,
            format!(
                "{attacker} is dismounted cavalry: it melees only dismounted cavalry{}, and {d} is none of them",
                if wagons_too(rs) {
                    ", artillery and supply wagons"
                } else {
                    " and artillery"
                }
            ),
        )),
        None => Ok(()),
    }
}

/// Cedar Mountain 21.12, Corinth 21.42: the threatened units that must retreat before
/// this melee — unpinned dismounted cavalry not stacked with friendly
/// artillery or infantry, meleed by enemy infantry.
pub(crate) fn must_retreat(rs: &Gbacw, state: &GbacwState, offer: &RbmOffer) -> Vec<CounterId> {
    if !on(rs) {
        return Vec::new();
    }
    let by_infantry = state
        .melees
        .iter()
        .filter(|m| m.target == offer.target)
        .flat_map(|m| &m.attackers)
        .any(|a| matches!(kind_of(rs, a), Some(UnitKind::Infantry)));
    if !by_infantry {
        return Vec::new();
    }
    let side = rs.side_of(offer.seat);
    let board = Board::new(rs, state);
    let covered = board.units_of(offer.target, side).into_iter().any(|u| {
        matches!(
            kind_of(rs, u),
            Some(UnitKind::Infantry | UnitKind::Battery { .. })
        )
    });
    if covered {
        return Vec::new();
    }
    offer
        .threatened
        .iter()
        .filter(|u| {
            dismounted_cavalry(rs, state, u)
                && !state.units[*u].status.markers.contains(&Marker::Pin)
        })
        .cloned()
        .collect()
}

/// The first retreat before melee that the Standard Rules (and 23.0,
/// Corinth 23.31 and 27.0) allow `units`, by the same checks a player's
/// answer meets: one hex if any will do, else two (12.81; Corinth 27.0
/// can leave only a two-hex path, when every neighbour nearer the goal
/// is closed).
fn first_path(
    rs: &Gbacw,
    state: &GbacwState,
    offer: &RbmOffer,
    units: &[CounterId],
) -> Option<Vec<HexNumber>> {
    let grid = &rs.game.map.grid;
    let ones: Vec<Vec<HexNumber>> = grid
        .neighbours_on_map(offer.target)
        .into_iter()
        .map(|(_, h)| vec![h])
        .collect();
    let twos = ones.iter().flat_map(|one| {
        grid.neighbours_on_map(one[0])
            .into_iter()
            .filter(|(_, h)| grid.distance(offer.target, *h) == 2)
            .map(move |(_, h)| vec![one[0], h])
    });
    ones.clone().into_iter().chain(twos).find(|path| {
        // The morale check's die does not decide whether the path is
        // legal; any stream serves to ask.
        let mut dice = Dice::from_stream(DiceStream::from_seed(b"cedar 21.12 path"));
        combat::melee::retreat_before(rs, state, offer, units, path, &mut dice).is_ok()
    })
}

/// Cedar Mountain 21.12, Corinth 21.42: the defender's answer must retreat the units
/// that must go, if they have a way (`units`: `None` for standing fast).
/// With no legal path (the Standard Rules', 23.31's and the retreat
/// directions', Cedar Mountain 23.0 or Corinth 27.0) they stand and take
/// the melee: GBACW 12.88's outcome for a unit that may not retreat
/// before melee (and Corinth 22.0's "must defend"), not 14.1's capture,
/// which is for retreats a result forces.
pub(crate) fn check_answer(
    rs: &Gbacw,
    state: &GbacwState,
    offer: &RbmOffer,
    units: Option<&[CounterId]>,
) -> Result<(), RuleError> {
    let forced = must_retreat(rs, state, offer);
    let left_behind: Vec<&CounterId> = forced
        .iter()
        .filter(|f| !units.is_some_and(|u| u.contains(f)))
        .collect();
    if left_behind.is_empty() || first_path(rs, state, offer, &forced).is_none() {
        return Ok(());
    }
    Err(err(
        &cite(rs, "must-retreat", "21.12"),
        RuleCode::Illegal,
        format!(
            "dismounted cavalry meleed by infantry must retreat before melee: {}",
            left_behind
                .iter()
                .map(|c| c.0.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    ))
}

/// The default answer to `offer`: stand fast, unless 21.12 makes units
/// retreat, then they retreat one hex along the first legal path.
pub(crate) fn default_answer(rs: &Gbacw, state: &GbacwState, offer: &RbmOffer) -> GbacwAction {
    let forced = must_retreat(rs, state, offer);
    if forced.is_empty() {
        return GbacwAction::StandFast;
    }
    match first_path(rs, state, offer, &forced) {
        Some(path) => GbacwAction::RetreatBeforeMelee {
            units: forced,
            path,
        },
        None => GbacwAction::StandFast,
    }
}
