//! Dice nobody can cheat: blake3 hash chains, commit-reveal, one XOF stream
//! per action. The scheme, its byte-exact derivation and its threat model are
//! written up in `docs/dice.md`; this module is the reference implementation.
//!
//! - [`chain`]: secret hash chains and their public anchors.
//! - [`stream`]: the per-action dice stream and its unbiased sampler.
//! - [`proof`]: what a roll publishes ([`RollProof`]) and the [`ChainBook`]
//!   that checks proofs link by link.

pub mod chain;
pub mod proof;
pub mod stream;

pub use chain::{ChainAnchor, HashChain, link_follows, previous_link};
pub use proof::{
    ActionRef, ChainBook, ChainHeadState, LeanRoll, Party, RollFailure, RollProof, SeatLink,
};
pub use stream::{DiceStream, Die, RollInput, action_digest};
