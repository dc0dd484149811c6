//! The bodies of the fuzz targets (issue 20), as plain functions.
//!
//! `fuzz/` (cargo-fuzz, nightly, libFuzzer) calls each of these with the
//! fuzzer's bytes, and `tests/tests/fuzz_corpus.rs` (stable, in CI) calls
//! the same functions with every file of the stored corpora: the short
//! pass. A function returns normally for any input, refusals included; a
//! panic is a finding.
//!
//! Each body runs its decoder under [`alloc_guard::limited`]: with
//! [`alloc_guard::LimitAlloc`] as the global allocator (both the fuzz
//! binaries and the corpus test install it) a single allocation past the
//! target's limit fails the input.

pub mod alloc_guard;
mod assets;
mod config;
mod matches;
mod wire;

pub use assets::{charts_file, map_file, oob_file, scenario_file};
pub use config::gbacw_config;
pub use matches::{MATCH_BATTLES, gbacw_match, gbacw_seed, match_commands, sandbox_match};
pub use wire::{client_msg, match_log, server_msg};

/// A fuzz target: its name (the folder of its corpus under
/// `fuzz/corpus/`) and its body.
pub struct Target {
    pub name: &'static str,
    pub body: fn(&[u8]),
}

/// Every target, in the order `fuzz/Cargo.toml` lists them.
pub const TARGETS: &[Target] = &[
    Target {
        name: "client_msg",
        body: client_msg,
    },
    Target {
        name: "server_msg",
        body: server_msg,
    },
    Target {
        name: "match_log",
        body: match_log,
    },
    Target {
        name: "map_file",
        body: map_file,
    },
    Target {
        name: "oob_file",
        body: oob_file,
    },
    Target {
        name: "scenario_file",
        body: scenario_file,
    },
    Target {
        name: "charts_file",
        body: charts_file,
    },
    Target {
        name: "gbacw_match",
        body: gbacw_match,
    },
    Target {
        name: "sandbox_match",
        body: sandbox_match,
    },
    Target {
        name: "gbacw_config",
        body: gbacw_config,
    },
];
