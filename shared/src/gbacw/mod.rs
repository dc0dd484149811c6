//! *Great Battles of the American Civil War* (SPI, 1980): the Standard
//! Rules as data and pure functions. Case numbers in doc comments and test
//! names point into the rules (`/// GBACW 8.18: …`, `case_8_18_…`).
//!
//! - [`battles`]: the shipped battles (map, order of battle, scenario), loaded by name.
//! - [`charts`]: the mapsheet charts (mostly provisional), from `assets/gbacw/charts.toml`.
//! - [`ammo`]: small-arms depletion, supply wagons, resupply, battery rounds (11).
//! - [`artillery`]: crews, move-or-fire, caissons, per-unit rolls at range (15, 8.22).
//! - [`bce`]: Brigade Combat Effectiveness boxes, with hooks for the Exclusive Rules (18).
//! - [`cavalry`]: charges, cavalry retreat before melee, mounted fire (16).
//! - [`corinth`]: *The Battle of Corinth* as data: map, order of battle, set-up checks.
//! - [`command`]: radii and supply paths past the enemy, who is in command, Command Points.
//! - [`tables`]: the six result tables the seeds print, from `assets/gbacw/tables.toml`.
//! - [`facing`]: frontal and enfilade hexsides, lines of fire, Zones of Control.
//! - [`fire`]: who may fire, strength after range, the Fire CRT column.
//! - [`los`]: line of sight over elevations, terrain and units.
//! - [`leaders`]: leader casualties, capture, stacking, succession (17.4–17.8).
//! - [`map`]: hex numbers, terrain, the plain-text map format.
//! - [`melee`]: melee strengths, terrain crossed, charges.
//! - [`morale`]: morale checks, green units, and fire results on a unit, from dice rolled.
//! - [`movement`]: step costs and reachable hexes over map and chart.
//! - [`oob`]: counters, leaders, their state in play, the order-of-battle format.
//! - [`options`]: named options for edition differences, 004 by default.
//! - [`rally`]: unpinning and rallying routed units.
//! - [`retreat`]: every legal retreat path, by kind of retreat.
//! - [`ruleset`]: [`ruleset::Gbacw`], the hosted ruleset: config, state, actions, events.
//! - [`scenario`]: sides, length, set-up, arrivals, victory and exclusive-rule hooks of one game.
//! - [`sequence`]: the sequence of play as a state machine, with exclusive-rule hooks.
//! - [`stacking`]: stacking points, entry into friendly hexes, end-of-phase limits.
//! - [`text`]: the line tokenizer and errors shared by the text formats.
//! - `testkit` (tests, and the `test-support` feature): positions, tables
//!   and seeded dice for every crate's tests.
//! - [`withdrawal`]: who fires withdrawal, retreat and limbering fire, at whom.

pub mod ammo;
pub mod artillery;
pub mod battles;
pub mod bce;
pub mod cavalry;
pub mod charts;
pub mod command;
pub mod corinth;
pub mod facing;
pub mod fire;
pub mod leaders;
pub mod los;
pub mod map;
pub mod melee;
pub mod morale;
pub mod movement;
pub mod names;
pub mod oob;
pub mod options;
pub mod rally;
pub mod retreat;
pub mod ruleset;
pub mod scenario;
pub mod sequence;
pub mod stacking;
pub mod tables;
pub mod text;
pub mod withdrawal;
pub mod words;

#[cfg(any(test, feature = "test-support"))]
pub mod testkit;
