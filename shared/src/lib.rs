//! Muster's shared crate: what the server, the client and the tests agree on.
//!
//! - [`codec`]: the one byte format (bincode 2.0.1), bounded decoding, framing.
//! - [`protocol`]: `ClientMsg` / `ServerMsg` and the version handshake.
//! - [`dice`]: commit-reveal dice from blake3 hash chains (see `docs/dice.md`).
//! - [`engine`]: the [`engine::Ruleset`] trait, the match log, replay and verification.
//! - [`sandbox`]: VASSAL-style free play, the first ruleset the server hosts.
//! - [`fuzzing`]: the fuzz targets' bodies, shared by `fuzz/` and the corpus test.

pub mod codec;
pub mod dice;
pub mod display_name;
pub mod engine;
pub mod fuzzing;
pub mod gbacw;
pub mod ids;
pub mod protocol;
pub mod sandbox;

pub use ids::{Hash32, MatchId, SeatId, Viewer};
