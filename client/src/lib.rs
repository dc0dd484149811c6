//! Muster's client crate.
//!
//! - [`follow`]: a viewer's copy of a table, kept in step by deltas, every
//!   roll verified on arrival. Used by the desktop app, the tests and the
//!   load harness alike.
//! - [`net`]: connect over WebSocket or QUIC, handshake, sign in, talk.

pub mod follow;

pub use follow::{BadRoll, FollowError, Follower};
pub mod net;

pub use net::{ConnectOptions, Connection, NetError};
