//! End-to-end test support: shared helpers for the tests in `tests/tests/`.

pub mod burst;
pub mod club_client;
pub mod e2e;
pub mod featured;
pub mod gbacw_biased_game;
pub mod gbacw_client;
pub mod gbacw_match;
pub mod gbacw_mutants;
pub mod gbacw_policy;
pub mod gbacw_whole_game;
pub mod proc_stats;
pub mod random_play;
