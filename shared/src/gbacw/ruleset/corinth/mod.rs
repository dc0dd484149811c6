//! The Battle of Corinth's exclusive rules (seed 001, 19.0-31.0) in the
//! hosted ruleset, each switched on by its scenario `hook` line
//! (`assets/gbacw/corinth/*.scenario`), so that other battles play
//! without them.
//!
//! - [`brigade_counts`]: 29.42, where the eleven Union brigades set up.
//! - [`brigade_batteries`]: 29.44.1, brigade batteries by their commander.
//! - [`park`]: 29.44.4, 30.18, the artillery park's freeze.

pub(crate) mod brigade_batteries;
pub(crate) mod brigade_counts;
pub(crate) mod park;
