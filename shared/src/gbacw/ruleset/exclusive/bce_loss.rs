//! What a brigade that has lost its Brigade Combat Effectiveness (GBACW
//! 18.0, `ruleset/bce.rs`) may no longer do: Cedar Mountain 24.0 and
//! Corinth 25.1 (with Corinth 30.4's divisional limit). On when the
//! scenario has `hook bce-loss`; the hook names each sub-rule the battle
//! plays by the case that states it, so a refusal cites that battle's own
//! case and a sub-rule one battle lacks stays off:
//!
//! ```text
//! hook bce-loss case=24.0 morale=24.11 no-melee=24.12 fire=24.13 no-zoc=24.14 rally=24.15 stranded=24.2
//! hook bce-loss case=25.0 morale=25.11 no-melee=25.12 rally=25.13 fire=25.14 brigade-retreat=25.2
//! ```
//!
//! The two battles' texts agree on each sub-rule they share (the +1 on
//! morale, no melee initiation, one column left, the rally by die with
//! the same three ways); Cedar Mountain alone bars enemy Zones of Control
//! (24.14) and strands detached brigades (24.2); Corinth alone has the
//! brigade retreat (25.2, `corinth/brigade_retreat.rs`).

use crate::engine::{RuleCode, RuleError};
use crate::gbacw::command::{effective_radius, is_detached, within_radius};
use crate::gbacw::oob::{Command, CounterId, LeaderRole, Marker, Morale, UnitKind};
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::state::GbacwState;
use crate::gbacw::ruleset::{Gbacw, bce, err};
use crate::gbacw::scenario::HookKind;
use std::collections::BTreeSet;

/// The sub-rules of BCE loss a battle may play, by their hook key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Effect {
    /// +1 on every morale check of its infantry and cavalry.
    Morale,
    /// No melee initiation (an engaged melee goes on).
    NoMelee,
    /// Fire one column left, even combined.
    Fire,
    /// Never into (or, retreating, through) an enemy Zone of Control.
    NoZoc,
    /// Routed units rally only by die, in three ways.
    Rally,
    /// A detached brigade not attached elsewhere is out of command.
    Stranded,
    /// The whole brigade retreats when one of its units routs.
    BrigadeRetreat,
}

impl Effect {
    fn key(self) -> &'static str {
        match self {
            Effect::Morale => "morale",
            Effect::NoMelee => "no-melee",
            Effect::Fire => "fire",
            Effect::NoZoc => "no-zoc",
            Effect::Rally => "rally",
            Effect::Stranded => "stranded",
            Effect::BrigadeRetreat => "brigade-retreat",
        }
    }
}

/// The case this battle states `effect` in (`Corinth 25.12`), if it plays
/// it.
pub(crate) fn effect_case(rs: &Gbacw, effect: Effect) -> Option<String> {
    let hook = rs.game.scenario.hook(HookKind::BceLoss)?;
    hook.param(effect.key()).map(|c| rs.case_rule(c))
}

fn plays(rs: &Gbacw, effect: Effect) -> bool {
    rs.game
        .scenario
        .hook(HookKind::BceLoss)
        .is_some_and(|h| h.param(effect.key()).is_some())
}

/// The case a refusal names: the hook's for `effect`, which the callers
/// only reach when the battle plays it.
fn cite(rs: &Gbacw, effect: Effect) -> String {
    effect_case(rs, effect).unwrap_or_else(|| rs.case_rule("BCE loss"))
}

/// Corinth 30.4: the divisions the scenario gives a divisional BCE limit
/// (`hook divisional-bce division=lovell limit=10`) that have reached it:
/// the casualties of all its brigades' infantry and cavalry together
/// (GBACW 18.0's counting, Corinth 25.3: guns never count).
pub(crate) fn divisions_at_limit(rs: &Gbacw, state: &GbacwState) -> BTreeSet<CounterId> {
    let Some(hook) = rs.game.scenario.hook(HookKind::DivisionalBce) else {
        return BTreeSet::new();
    };
    let (Some(division), Some(limit)) = (hook.param("division"), hook.number("limit")) else {
        return BTreeSet::new();
    };
    let division = CounterId(division.to_string());
    let losses: u32 = rs
        .game
        .oob
        .units
        .iter()
        .filter(|(_, u)| match &u.command {
            Command::Brigade(b) => division_of(rs, b) == Some(&division),
            _ => false,
        })
        .map(|(id, _)| u32::from(bce::unit_losses(rs, state, id)))
        .sum();
    if losses >= u32::from(limit) {
        BTreeSet::from([division])
    } else {
        BTreeSet::new()
    }
}

fn division_of<'a>(rs: &'a Gbacw, brigade: &CounterId) -> Option<&'a CounterId> {
    match rs.game.oob.leaders.get(brigade).map(|l| &l.role) {
        Some(LeaderRole::Brigade { division, .. }) => division.as_ref(),
        _ => None,
    }
}

/// Whether `brigade` suffers the effects of BCE loss now: it reached its
/// own limit (18.0), or its division reached a divisional one (Corinth
/// 30.4). The rule must be on.
pub(crate) fn brigade_broken(rs: &Gbacw, state: &GbacwState, brigade: &CounterId) -> bool {
    on(rs)
        && (bce::at_limit(rs, state, brigade)
            || division_of(rs, brigade).is_some_and(|d| divisions_at_limit(rs, state).contains(d)))
}

fn on(rs: &Gbacw) -> bool {
    rs.game.scenario.hook(HookKind::BceLoss).is_some()
}

/// Whether BCE loss applies to `unit` now: the rule is on and its brigade
/// has reached its BCE limit (or its division its divisional one).
/// Independent units have no brigade and never lose BCE.
pub(crate) fn broken(rs: &Gbacw, state: &GbacwState, unit: &CounterId) -> bool {
    match rs.game.oob.units.get(unit).map(|u| &u.command) {
        Some(Command::Brigade(b)) => brigade_broken(rs, state, b),
        _ => false,
    }
}

/// The brigades BCE loss applies to now (none when the rule is off).
pub(crate) fn broken_brigades(rs: &Gbacw, state: &GbacwState) -> BTreeSet<CounterId> {
    if !on(rs) {
        return BTreeSet::new();
    }
    let mut out = bce::lost_brigades(rs, state);
    let divisions = divisions_at_limit(rs, state);
    if !divisions.is_empty() {
        out.extend(
            rs.game
                .oob
                .leaders
                .keys()
                .filter(|b| division_of(rs, b).is_some_and(|d| divisions.contains(d)))
                .cloned(),
        );
    }
    out
}

fn foot_or_horse(rs: &Gbacw, unit: &CounterId) -> bool {
    rs.game
        .oob
        .units
        .get(unit)
        .is_some_and(|u| matches!(u.kind, UnitKind::Infantry | UnitKind::Cavalry))
}

/// Cedar Mountain 24.11, Corinth 25.11: 1 is added to the die of every
/// morale check of an infantry or cavalry unit of a brigade that has lost
/// BCE (artillery never).
pub(crate) fn morale_modifier(rs: &Gbacw, state: &GbacwState, unit: &CounterId) -> i16 {
    i16::from(plays(rs, Effect::Morale) && foot_or_horse(rs, unit) && broken(rs, state, unit))
}

/// Cedar Mountain 24.12, Corinth 25.12: no unit of a brigade that has
/// lost BCE initiates melee; one already engaged melees normally.
pub(crate) fn may_initiate_melee(
    rs: &Gbacw,
    state: &GbacwState,
    unit: &CounterId,
) -> Result<(), RuleError> {
    let engaged = state
        .units
        .get(unit)
        .is_some_and(|u| u.status.markers.contains(&Marker::Engaged));
    if plays(rs, Effect::NoMelee) && broken(rs, state, unit) && !engaged {
        return Err(err(
            &cite(rs, Effect::NoMelee),
            RuleCode::Illegal,
            format!(
                "{unit}'s brigade has lost its Brigade Combat Effectiveness: it may not initiate melee"
            ),
        ));
    }
    Ok(())
}

/// Cedar Mountain 24.13, Corinth 25.14: fire with a non-artillery unit of
/// a brigade that has lost BCE among the firers is read one Fire Strength
/// column to the left, even combined with others. Returns the columns (0
/// or 1).
pub(crate) fn fire_columns_left(rs: &Gbacw, state: &GbacwState, firers: &[CounterId]) -> u8 {
    if !plays(rs, Effect::Fire) {
        return 0;
    }
    let any = firers.iter().any(|f| {
        rs.game
            .oob
            .units
            .get(f)
            .is_some_and(|u| !matches!(u.kind, UnitKind::Battery { .. }))
            && broken(rs, state, f)
    });
    u8::from(any)
}

/// Cedar Mountain 24.14: a unit of a brigade at its BCE limit may not
/// voluntarily enter an enemy Zone of Control (one that starts its move
/// in one need not leave it).
pub(crate) fn check_zoc_entry(
    rs: &Gbacw,
    state: &GbacwState,
    unit: &CounterId,
    into_enemy_zoc: bool,
) -> Result<(), RuleError> {
    if into_enemy_zoc && plays(rs, Effect::NoZoc) && broken(rs, state, unit) {
        return Err(err(
            &cite(rs, Effect::NoZoc),
            RuleCode::Illegal,
            format!(
                "{unit}'s brigade has lost its Brigade Combat Effectiveness: it may not enter an enemy Zone of Control"
            ),
        ));
    }
    Ok(())
}

/// Cedar Mountain 24.14: such a unit may not retreat through an enemy Zone
/// of Control at all; forced to, it is captured instead.
pub(crate) fn retreat_shuns_zoc(rs: &Gbacw, state: &GbacwState, unit: &CounterId) -> bool {
    plays(rs, Effect::NoZoc) && broken(rs, state, unit)
}

/// GBACW 17.67, Cedar Mountain 24.2: whether `brigade` has reached its BCE
/// limit, for the detachment rules (17.67 is the Standard Rules' own and
/// holds with or without the hook).
pub(crate) fn brigade_at_limit(rs: &Gbacw, state: &GbacwState, brigade: &CounterId) -> bool {
    bce::at_limit(rs, state, brigade)
}

/// The case a stranded brigade's leader's one hex a Game-Turn cites.
pub(crate) const STRANDED_CASE: &str = "Cedar Mountain 24.2";

/// Cedar Mountain 24.2: a detached brigade not attached to another
/// division that reaches its BCE limit is out of command, and its leader
/// moves one hex a Game-Turn, until it is attached again.
pub(crate) fn stranded(rs: &Gbacw, state: &GbacwState, brigade: &CounterId) -> bool {
    plays(rs, Effect::Stranded)
        && is_detached(&state.links, brigade)
        && !state
            .links
            .values()
            .any(|l| l.attached.as_ref() == Some(brigade))
        && bce::at_limit(rs, state, brigade)
}

/// Cedar Mountain 24.2: the units of a stranded brigade (out of command).
pub(crate) fn stranded_units<'s>(
    rs: &'s Gbacw,
    state: &'s GbacwState,
    side: &'s CounterId,
) -> impl Iterator<Item = &'s CounterId> + 's {
    state.units.iter().filter_map(move |(id, u)| {
        let unit = &rs.game.oob.units[id];
        match &unit.command {
            Command::Brigade(b)
                if unit.side == *side && u.hex.is_some() && stranded(rs, state, b) =>
            {
                Some(id)
            }
            _ => None,
        }
    })
}

/// How a routed unit of a brigade that has lost BCE tries to rally
/// (Cedar Mountain 24.15, Corinth 25.13).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum BceRally {
    /// Stacked with a friendly army commander (Banks, Jackson; Price, Van
    /// Dorn, Rosecrans): it rallies regardless of BCE loss.
    ArmyCommander,
    /// Stacked with a brigade or division commander: a die, less 1, no
    /// Rally Point.
    StackedCommander,
    /// Within its brigade commander's Effectiveness Radius: he spends a
    /// Rally Point (17.13) for a die.
    RallyPoint(CounterId),
}

impl BceRally {
    pub fn rolls(&self) -> bool {
        !matches!(self, BceRally::ArmyCommander)
    }
}

/// Cedar Mountain 24.15, Corinth 25.13: how `id` (routed, its brigade at
/// its BCE limit) may try to rally, or why it may not. `None`: the rule
/// does not apply (off, or the brigade has not lost BCE): the Standard
/// Rules do.
pub(crate) fn rally_way(
    rs: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    id: &CounterId,
) -> Option<Result<BceRally, RuleError>> {
    if !plays(rs, Effect::Rally) || !broken(rs, state, id) {
        return None;
    }
    let u = state.units.get(id)?;
    let hex = u.hex?;
    let rule = cite(rs, Effect::Rally);
    let board = Board::new(rs, state);
    // Corinth 28.14: Price neither rallies nor aids Lovell's units.
    let stacked = crate::gbacw::ruleset::leader_reach::leaders_for(&board, hex, side, id);
    let role = |l: &CounterId| rs.game.oob.leaders.get(l).map(|x| &x.role);
    if stacked
        .iter()
        .any(|l| matches!(role(l), Some(LeaderRole::Army { .. })))
    {
        return Some(Ok(BceRally::ArmyCommander));
    }
    if stacked.iter().any(|l| {
        matches!(
            role(l),
            Some(
                LeaderRole::Division { .. }
                    | LeaderRole::Brigade { .. }
                    | LeaderRole::Replacement { .. }
            )
        )
    }) {
        return Some(Ok(BceRally::StackedCommander));
    }
    let Command::Brigade(b) = &rs.game.oob.units[id].command else {
        return None;
    };
    let leader = state.leaders.get(b).and_then(|l| l.hex.map(|h| (l, h)));
    let ratings = match role(b) {
        Some(LeaderRole::Brigade { ratings, .. }) | Some(LeaderRole::Replacement { ratings }) => {
            Some(*ratings)
        }
        _ => None,
    };
    let (Some((l, at)), Some(r)) = (leader, ratings) else {
        return Some(Err(err(
            &rule,
            RuleCode::Illegal,
            format!("{id} has no leader with it and its brigade commander is not on the map"),
        )));
    };
    let plus = l.augmented.as_ref().map_or(0, |(_, p)| *p);
    if !within_radius(
        &rs.game.map,
        &board.command_blocks(side),
        at,
        hex,
        effective_radius(&r, plus),
    ) {
        return Some(Err(err(
            &rule,
            RuleCode::Illegal,
            format!("{id} is not within {b}'s Effectiveness Radius"),
        )));
    }
    if state.rally_points.get(b).copied().unwrap_or(0) >= r.rally {
        return Some(Err(err(
            &rule,
            RuleCode::Illegal,
            format!("{b} has spent his {} Rally Points this phase", r.rally),
        )));
    }
    Some(Ok(BceRally::RallyPoint(b.clone())))
}

/// Cedar Mountain 24.15 with 24.11 (Corinth 25.13 with 25.11): the events of the rally attempt; `die`
/// is the action's die for the ways that roll. The unit rallies if the die
/// plus 1 (24.11), less 1 stacked with a commander, is not above its
/// morale rating.
pub(crate) fn rally_events(
    rs: &Gbacw,
    state: &GbacwState,
    id: &CounterId,
    way: &BceRally,
    die: Option<u8>,
) -> Vec<GbacwEvent> {
    let rating = match (rs.game.oob.units[id].morale, state.units[id].rating) {
        (Morale::Rated(m), _) | (Morale::Green, Some(m)) => m,
        // As in the Standard rally: a routed green unit has a rating.
        (Morale::Green, None) => 4,
    };
    let rolled = |less: i16| {
        die.is_some_and(|d| {
            i16::from(d) + morale_modifier(rs, state, id) - less <= i16::from(rating)
        })
    };
    let mut out = Vec::new();
    let rallied = match way {
        BceRally::ArmyCommander => true,
        BceRally::StackedCommander => rolled(1),
        BceRally::RallyPoint(b) => {
            out.push(GbacwEvent::RallyPointSpent { leader: b.clone() });
            rolled(0)
        }
    };
    out.push(GbacwEvent::RallyTried {
        unit: id.clone(),
        die,
        rallied,
    });
    out
}
