//! Muster's client crate.
//!
//! - [`follow`]: a viewer's copy of a table, kept in step by deltas, every
//!   roll verified on arrival. Used by the desktop app, the tests and the
//!   load harness alike.
//! - [`net`]: connect over WebSocket or QUIC, handshake, sign in, talk.
//! - [`app`]: the desktop app (`muster`): table links, the board, the panels.

pub mod app;
pub mod follow;
pub mod net;

pub use follow::{BadRoll, FollowError, Follower};
pub use net::{ConnectOptions, Connection, NetError};
