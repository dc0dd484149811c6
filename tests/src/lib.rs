//! End-to-end test support: shared helpers for the tests in `tests/tests/`.

pub mod e2e;
pub mod random_play;
