//! The Battle of Corinth's exclusive rules (seed 001, 19.0-31.0) in the
//! hosted ruleset, each switched on by its scenario `hook` line
//! (`assets/gbacw/corinth/*.scenario`), so that other battles play
//! without them.
//!
//! - [`brigade_counts`]: 29.42, where the eleven Union brigades set up.
//! - [`brigade_batteries`]: 29.44.1, brigade batteries by their commander.
//! - [`keep_moving`]: 30.13, Oliver's column moves on past the areas.
//! - [`park`]: 29.44.4, 30.18, the artillery park's freeze.
//! - [`reinforcements`]: 29.47, reinforcements stay in column.
//! - [`solitaire`]: 29.5, the solitaire version's rolled assault.

pub(crate) mod brigade_batteries;
pub(crate) mod brigade_counts;
pub(crate) mod keep_moving;
pub(crate) mod park;
pub(crate) mod reinforcements;
pub mod solitaire;
