//! Test support: the positions, tables and seeded dice the rule tests are
//! written with, in one place for every crate's tests. muster-shared's own
//! tests see it always; other crates' tests (the client's kittests, the
//! whole-game drivers) turn on the `test-support` feature in their
//! `[dev-dependencies]`, because `#[cfg(test)]` code is invisible outside
//! its crate.
//!
//! - [`table`]: [`T`], a table on a shipped battle driven through
//!   `decide` and `evolve` (seeded dice with [`T::roll`]); hexes, counters,
//!   facings and actions by the words the tests write.
//! - [`position`]: [`Position`], a case as the rulebook states it: units
//!   with any printed values on a small map written in a few lines of
//!   text, at any Game-Turn and phase, with scripted dice ([`T::script`],
//!   [`T::act`]).
//! - [`corinth`]: Corinth positions (the game after its set-up, the night,
//!   the Pre-Dawn Barrage) and the counters an assault plan places.
//! - `world` (muster-shared's unit tests only): the parsed test charts,
//!   tables, map and order of battle, and dice from a fixed list.

pub mod corinth;
pub mod position;
pub mod table;
#[cfg(test)]
mod world;

pub use position::Position;
pub use table::*;
#[cfg(test)]
pub(crate) use world::{World, dice, world};
