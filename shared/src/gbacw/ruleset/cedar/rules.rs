//! The Battle of Cedar Mountain's exclusive rules at the Standard Rules'
//! hook points ([`BattleRules`]): each hook hands over to the rule's
//! module in this folder, which stays switched on by its scenario `hook`
//! line.

use super::{ammo, army, corn, overshoot, retreat_directions};
use crate::engine::RuleError;
use crate::gbacw::los::Los;
use crate::gbacw::map::{HexNumber, Map, Terrain};
use crate::gbacw::movement::StepTable;
use crate::gbacw::oob::{CounterId, UnitKind, UnitStatus};
use crate::gbacw::ruleset::Gbacw;
use crate::gbacw::ruleset::battle_rules::BattleRules;
use crate::gbacw::ruleset::combat::attack::Prepared;
use crate::gbacw::ruleset::combat::{Roller, Unfold};
use crate::gbacw::ruleset::event::GbacwEvent;
use crate::gbacw::ruleset::scenario::Game;
use crate::gbacw::ruleset::state::{GbacwState, PlannedFire};
use crate::gbacw::scenario::{HookKind, Scenario};
use std::borrow::Cow;
use std::collections::BTreeSet;

/// The Battle of Cedar Mountain (seed 004): its scenario's exclusive rules.
#[derive(Clone, Debug, Default)]
pub struct CedarMountain {
    /// Cedar Mountain 22.3: the (provisional) Overshoot Table and Scatter
    /// Diagram; `None` without the rule.
    overshoot: Option<overshoot::OvershootTable>,
}

impl CedarMountain {
    /// The rules for `scenario`, with its tables loaded and checked.
    pub fn for_scenario(scenario: &Scenario) -> Result<CedarMountain, String> {
        Ok(CedarMountain {
            overshoot: overshoot::load_for(scenario)?,
        })
    }
}

impl BattleRules for CedarMountain {
    /// Cedar Mountain 21.43: the step table with every cornfield blown
    /// down, read for the hexes whose corn is down.
    fn cleared_steps(&self, game: &Game) -> Option<StepTable> {
        let corn = corn::all_cornfields(
            &game.map,
            game.scenario.hook(HookKind::Cornfields).is_some(),
        );
        (!corn.is_empty())
            .then(|| StepTable::new(&corn::cleared_map(&game.map, corn), &game.charts.movement))
    }

    /// Cedar Mountain 21.43: blown-down corn is clear.
    fn terrain_now(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        hex: HexNumber,
    ) -> Option<BTreeSet<Terrain>> {
        corn::terrain(rs, state, hex)
    }

    /// Cedar Mountain 21.43: blown-down corn shelters no one.
    fn ground<'a>(&self, rs: &'a Gbacw, state: &GbacwState) -> Cow<'a, Map> {
        corn::map(rs, state)
    }

    /// Cedar Mountain 21.42, 21.43: standing corn blocks, blown down not.
    fn sight_blocked(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        from: HexNumber,
        to: HexNumber,
    ) -> Option<Los> {
        corn::blocking(rs, state, from, to)
    }

    /// Cedar Mountain 21.43: not into an empty cornfield to blow it down.
    fn check_fire_target(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        target: HexNumber,
        enemy_there: bool,
    ) -> Result<(), RuleError> {
        corn::check_target(rs, state, target, enemy_there)
    }

    /// Cedar Mountain 21.2: no ammunition rules.
    fn fire_status<'s>(
        &self,
        rs: &Gbacw,
        kind: &UnitKind,
        status: &'s UnitStatus,
    ) -> Cow<'s, UnitStatus> {
        ammo::fire_status(rs, kind, status)
    }

    /// Cedar Mountain 21.2: no ammunition rules.
    fn ammunition_rules(&self, rs: &Gbacw) -> bool {
        !ammo::off(rs)
    }

    /// Cedar Mountain 22.0: artillery at nine hexes or more may overshoot;
    /// its dice come first, each attack's after them all.
    fn prepare_fire(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        plan: &PlannedFire,
        u: &mut Unfold,
        roll: &mut Roller,
    ) -> Option<Vec<Prepared>> {
        overshoot::split(rs, self.overshoot.as_ref(), state, plan, u, roll)
    }

    /// Cedar Mountain 21.43: fired into at close range, the corn goes down.
    fn ground_fired_on(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        target: HexNumber,
        firers: &[CounterId],
        artillery: bool,
    ) -> Option<GbacwEvent> {
        corn::blown_down(rs, state, target, firers, artillery)
    }

    /// Cedar Mountain 23.1, 23.2: toward one's own lines.
    fn retreat_directions(&self, rs: &Gbacw, unit: &CounterId) -> Option<Vec<hexx::EdgeDirection>> {
        retreat_directions::directions(rs, unit)
    }

    /// Cedar Mountain 25.1, 25.2: an army commander raises a division
    /// commander's radius.
    fn spend_command_points(
        &self,
        rs: &Gbacw,
        state: &GbacwState,
        side: &CounterId,
        leader: &CounterId,
        receiver: &CounterId,
        points: u8,
    ) -> Option<Result<Vec<GbacwEvent>, RuleError>> {
        army::spend(rs, state, side, leader, receiver, points)
    }

    /// Cedar Mountain 25.1, 25.2: the army commander's points this turn.
    fn radius_bonus(&self, rs: &Gbacw, state: &GbacwState, division: &CounterId) -> u8 {
        army::radius_bonus(rs, state, division)
    }
}
