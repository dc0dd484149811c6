//! Muster's client crate.
//!
//! - [`follow`]: a viewer's copy of a table, kept in step by deltas, every
//!   roll verified on arrival. Used by the desktop app, the tests and the
//!   load harness alike.
//! - [`app`]: the desktop app (`muster`): table links, the board, the panels.

pub mod app;
pub mod follow;

pub use follow::{BadRoll, FollowError, Follower};
