//! The end-to-end tests as one test binary (each file beside this one is
//! a module of it). One binary instead of ~25: each separate one linked
//! the server, the client and the engine on its own, minutes of every CI
//! run. The files that time something, or kill a process, stay binaries of
//! their own (tests/Cargo.toml says why for each), so they do not share
//! the machine with these.
//!
//! Run one file's tests: `cargo test -p muster-tests --test e2e server_quota::`.
//! A new test file is a `mod` line here or a `[[test]]` in tests/Cargo.toml
//! (`every_test_file_is_compiled` fails otherwise: tests/Cargo.toml sets
//! `autotests = false`).

mod follower_checks;
mod fuzz_corpus;
mod gbacw_cedar;
mod gbacw_corinth_secret_net;
mod gbacw_play;
mod gbacw_words;
mod lean_deltas;
mod quic_resumption;
mod sandbox_replay;
mod server_check;
mod server_club;
mod server_club_battles;
mod server_club_desk;
mod server_club_pg;
mod server_continued;
mod server_export;
mod server_finish_lobby;
mod server_hostile_numbers;
mod server_integrity;
mod server_leftovers;
mod server_names;
mod server_play;
mod server_quota;
mod server_reconnect;
mod server_sessions;
mod server_supervision;
mod take_back_net;
mod wire_bytes;

/// Every `.rs` file in tests/tests is a module above or its own `[[test]]`
/// in tests/Cargo.toml; a file in neither would never be compiled.
#[test]
fn every_test_file_is_compiled() {
    let here = concat!(env!("CARGO_MANIFEST_DIR"), "/tests");
    let this = include_str!("e2e.rs");
    let cargo = include_str!("../Cargo.toml");
    let mut lost = Vec::new();
    for entry in std::fs::read_dir(here).expect("tests/tests") {
        let path = entry.expect("entry").path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Some(stem) = name.strip_suffix(".rs") else {
            continue;
        };
        let module = format!("\nmod {stem};");
        let own = format!("path = \"tests/{name}\"");
        if stem != "e2e" && !this.contains(&module) && !cargo.contains(&own) {
            lost.push(name.to_string());
        }
    }
    assert!(lost.is_empty(), "test files never compiled: {lost:?}");
}
