//! A third battle, written only here: Mill Run, a few regiments on a
//! 6 × 6 field around a stone mill, with one exclusive rule of its own.
//! It implements the battle-rules hooks (`ruleset/battle_rules.rs`) and
//! hands them to the table ([`Gbacw::with_rules`]); no Standard Rules file
//! names it, and the shipped battles' registry (`ruleset/exclusive/mod.rs`)
//! does not list it.
//!
//! Mill Run 1.1 (this test's own rule): the mill in 0303 is of stone:
//! fire at units in it takes 1 off the fire die (the modified die stays
//! within 1–6, as every fire die modifier does).

use super::*;
use crate::gbacw::battles::BattleFiles;
use crate::gbacw::ruleset::battle_rules::StandardRules;
use crate::gbacw::ruleset::{BattleRules, Game, Gbacw, GbacwAction, GbacwConfig};
use crate::gbacw::testkit::Position;
use std::collections::VecDeque;
use std::sync::Arc;

/// The mill's hex.
const MILL: &str = "0303";

/// Mill Run's exclusive rules.
#[derive(Debug)]
struct MillRun;

impl BattleRules for MillRun {
    /// Mill Run 1.1: fire at units in the stone mill takes 1 off the die.
    fn fire_die_modifier(
        &self,
        _rs: &Gbacw,
        target: HexNumber,
        _firers: &[CounterId],
        _hexes: &[HexNumber],
    ) -> i8 {
        if target == n(MILL) { -1 } else { 0 }
    }
}

/// The field: a Union regiment next to the mill, south of it, facing it;
/// a Confederate regiment holding the mill, another in the open beside it.
fn field() -> Position {
    Position::new(6, 6)
        .union("infantry 1-mill strength=4 morale=5 weapon=R")
        .confederate("infantry 2-mill strength=4 morale=5 weapon=R")
        .confederate("infantry 3-mill strength=4 morale=5 weapon=R")
        .place("1-mill", "0304", "n", "line")
        .place("2-mill", MILL, "s", "line")
        .place("3-mill", "0403", "s", "line")
}

/// Mill Run's table on the field, with `battle`'s exclusive rules, in the
/// Union Offensive Fire Phase of Game-Turn 1.
fn table(battle: Arc<dyn BattleRules>) -> T {
    let (map, oob, scenario) = field().texts();
    let files = BattleFiles {
        name: "mill_run",
        map: Box::leak(map.into_boxed_str()),
        oob: Box::leak(oob.into_boxed_str()),
        scenario: Box::leak(scenario.into_boxed_str()),
    };
    let game = Game::from_files(&files).expect("Mill Run loads");
    let config = GbacwConfig {
        battle: "mill_run".into(),
        ..GbacwConfig::default()
    };
    let rs = Gbacw::with_rules(&config, game, battle).expect("Mill Run is a table");
    let s = rs.initial_state();
    let mut t = T {
        rs,
        s,
        script: VecDeque::new(),
    };
    t.advance_to_turn(1, UNION, Phase::OffensiveFire);
    t
}

/// The fire die's modifier of a 4-point volley at `target`, rolled 4.
fn volley_modifier(t: &mut T, target: &str) -> (u8, i8) {
    t.ok(UNION, fire(target, &[("1-mill", 4)]));
    t.script(&[4, 6, 6, 6, 6, 6]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    let reports = fire_reports(&events);
    assert_eq!(reports.len(), 1, "{events:?}");
    (reports[0].die, reports[0].die_modifier)
}

#[test]
fn mill_run_1_1_fire_into_the_stone_mill_takes_one_off_the_die() {
    let mut t = table(Arc::new(MillRun));
    assert_eq!(volley_modifier(&mut t, MILL), (4, -1));
}

#[test]
fn mill_run_1_1_fire_in_the_open_is_the_standard_rules() {
    let mut t = table(Arc::new(MillRun));
    assert_eq!(volley_modifier(&mut t, "0403"), (4, 0));
}

#[test]
fn mill_run_the_same_field_without_its_rule_plays_the_standard_rules() {
    let mut t = table(Arc::new(StandardRules));
    assert_eq!(volley_modifier(&mut t, MILL), (4, 0));
}
