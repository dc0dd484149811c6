//! The immutable data every table of one battle shares: the loaded battle
//! (map, order of battle, scenario, charts), its exclusive rules, the
//! movement step tables built on its map and the result tables. Built once
//! per process and battle, then shared by reference count: a table holds
//! only its own state (issue 20: a Corinth table cost ~1.6 MiB when each
//! copied these; see docs/server.md, "Memory per table").

use super::battle_rules::BattleRules;
use super::scenario::Game;
use super::{RuleCode, RuleError, combat, err, exclusive};
use crate::gbacw::movement::StepTable;
use crate::gbacw::tables::Tables;
use std::collections::BTreeMap;
use std::ops::{Deref, DerefMut};
use std::sync::{Arc, Mutex};

/// Data shared between tables, read through `Deref`. Writing through it
/// (`DerefMut`, only rule tests do: a position built by hand edits its
/// table's order of battle or scenario hooks) copies it first, so no other
/// table ever sees the edit.
#[derive(Clone, Debug)]
pub(crate) struct Shared<T>(Arc<T>);

impl<T> Shared<T> {
    pub fn new(value: T) -> Shared<T> {
        Shared(Arc::new(value))
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Clone> DerefMut for Shared<T> {
    fn deref_mut(&mut self) -> &mut T {
        Arc::make_mut(&mut self.0)
    }
}

/// One battle's shared data.
#[derive(Clone, Debug)]
pub(crate) struct BattleData {
    pub game: Shared<Game>,
    pub battle: Arc<dyn BattleRules>,
    pub steps: Shared<StepTable>,
    /// The step table with the ground the battle's rules clear in play.
    pub steps_cleared: Option<Shared<StepTable>>,
    pub tables: Arc<Tables>,
}

impl BattleData {
    /// Build the shared data of `game` played with `battle`'s rules.
    pub fn build(game: Game, battle: Arc<dyn BattleRules>) -> Result<BattleData, RuleError> {
        let mut steps = StepTable::new(&game.map, &game.charts.movement);
        battle.adjust_steps(&game, &mut steps);
        let steps_cleared = battle.cleared_steps(&game).map(Shared::new);
        Ok(BattleData {
            game: Shared::new(game),
            battle,
            steps: Shared::new(steps),
            steps_cleared,
            tables: result_tables()?,
        })
    }

    /// The shipped battle `name`'s data: built at its first table, shared
    /// by every later one. A battle that does not load is not kept (its
    /// error is returned each time), so the cache holds at most the
    /// shipped battles.
    pub fn shipped(name: &str) -> Result<BattleData, RuleError> {
        static LOADED: Mutex<BTreeMap<String, BattleData>> = Mutex::new(BTreeMap::new());
        if let Some(data) = lock(&LOADED).get(name) {
            return Ok(data.clone());
        }
        // Built outside the lock: two first tables of one battle may both
        // build it; the second keeps the first's.
        let game = Game::load(name).map_err(|e| err("GBACW scenario", RuleCode::Invalid, e))?;
        let battle = exclusive::rules_for(name, &game.scenario)
            .map_err(|e| err("GBACW scenario", RuleCode::Invalid, e))?;
        let data = BattleData::build(game, battle)?;
        Ok(lock(&LOADED)
            .entry(name.to_string())
            .or_insert(data)
            .clone())
    }
}

/// The cache's lock; a panic elsewhere while it was held left the map
/// whole (entries are inserted in one step), so a poisoned lock is used.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The result tables (9.16, 12.98, 13.15, 17.76, 8.35, 11.34), loaded once.
fn result_tables() -> Result<Arc<Tables>, RuleError> {
    static TABLES: std::sync::OnceLock<Result<Arc<Tables>, String>> = std::sync::OnceLock::new();
    TABLES
        .get_or_init(|| {
            Tables::load(combat::TABLES)
                .map(Arc::new)
                .map_err(|e| format!("tables.toml: {e}"))
        })
        .clone()
        .map_err(|e| err("GBACW tables", RuleCode::Invalid, e))
}
