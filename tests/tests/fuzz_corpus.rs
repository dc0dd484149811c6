//! Issue 20, CI's short pass of the fuzzing: every file of every stored
//! corpus (`fuzz/corpus/<target>/`, minimised with `cargo fuzz cmin`)
//! through the same target bodies the nightly fuzzer runs
//! (`muster_shared::fuzzing`), with the same allocation guard. The long
//! runs and their counts are in docs/server.md ("Fuzzing").
//!
//! `MUSTER_FUZZ_SEEDS=1 cargo test -p muster-tests --test e2e fuzz_corpus:: --
//! --ignored` (or `MUSTER_FUZZ_SEEDS=match_log,gbacw_match` for some
//! targets only) writes the seed files the corpora started from (shipped
//! assets, encoded messages, a sandbox log, legal GBACW games).

use muster_shared::codec;
use muster_shared::engine::verify_log;
use muster_shared::fuzzing::alloc_guard::LimitAlloc;
use muster_shared::fuzzing::{self, TARGETS};
use muster_shared::gbacw::battles;
use muster_shared::protocol::{ClientMsg, PROTOCOL_VERSION, ServerMsg};
use muster_shared::sandbox::{SandboxAction, TurnOrder};
use muster_tests::random_play;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[global_allocator]
static ALLOC: LimitAlloc = LimitAlloc;

fn corpus_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus")
}

/// One test, not one per target: the allocation guard is process-wide.
#[test]
fn every_stored_corpus_file_passes_its_target() {
    let started = Instant::now();
    let mut total = 0;
    for target in TARGETS {
        let dir = corpus_root().join(target.name);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e} (every target keeps a corpus)", dir.display()))
            .map(|e| e.expect("a directory entry").path())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{}: an empty corpus", target.name);
        assert!(
            files.len() <= 1000,
            "{}: {} files; minimise it (cargo fuzz cmin)",
            target.name,
            files.len()
        );
        for file in &files {
            let data = std::fs::read(file).expect("a corpus file reads");
            let run = std::panic::catch_unwind(|| (target.body)(&data));
            assert!(run.is_ok(), "{}: {} panics", target.name, file.display());
        }
        total += files.len();
    }
    eprintln!(
        "{total} corpus files through {} targets in {:.1?}",
        TARGETS.len(),
        started.elapsed()
    );
}

/// Write one seed file, unless `MUSTER_FUZZ_SEEDS` names other targets
/// (a comma-separated list; `1` or `all` writes every target's seeds).
fn write_seed(target: &str, name: &str, data: &[u8]) {
    let wanted = std::env::var("MUSTER_FUZZ_SEEDS").unwrap_or_default();
    if !matches!(wanted.as_str(), "1" | "all") && !wanted.split(',').any(|t| t == target) {
        return;
    }
    let dir = corpus_root().join(target);
    std::fs::create_dir_all(&dir).expect("the corpus folder");
    std::fs::write(dir.join(format!("seed-{name}")), data).expect("a seed writes");
}

/// A played sandbox game's log file, for `match_log`: 40 random actions
/// of two seats (moves, flips, hidden pieces, rolls with both seats'
/// links), the log `muster-server export` would write. Without a log the
/// reader accepts, the fuzzer stayed at the magic bytes.
fn sandbox_log() -> Vec<u8> {
    let mut game = random_play::new_game(5, TurnOrder::Free);
    let accepted = random_play::play(&mut game, 5, 40);
    assert!(accepted >= 30, "{accepted} of 40 accepted");
    let log = game.m.log();
    assert!(verify_log(log).ok(), "the seed game verifies");
    log.to_file_bytes()
}

#[test]
#[ignore = "writes the seed corpora; run once with MUSTER_FUZZ_SEEDS=1"]
fn write_seed_corpora() {
    if std::env::var_os("MUSTER_FUZZ_SEEDS").is_none() {
        return;
    }
    let hello = ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        client: "seed".into(),
    };
    write_seed("client_msg", "hello", &hello.encode().expect("encodes"));
    let chat = ClientMsg::GuestSignIn {
        name: "Grant".into(),
    };
    write_seed("client_msg", "guest", &chat.encode().expect("encodes"));
    let error = ServerMsg::Pong { nonce: 7 };
    write_seed("server_msg", "pong", &error.encode().expect("encodes"));
    write_seed("match_log", "sandbox", &sandbox_log());
    // GBACW configs: each battle's plain one, and a game continued from
    // the client's saved Corinth game near contact (issue 18).
    use muster_shared::engine::Ruleset;
    use muster_shared::gbacw::ruleset::{Gbacw, GbacwConfig, continued};
    for b in battles::BATTLES {
        let plain = GbacwConfig {
            battle: b.name.into(),
            ..GbacwConfig::default()
        };
        write_seed("gbacw_config", b.name, &Gbacw::encode_config(&plain));
    }
    let saved = muster_client::app::saved::SavedGame::read(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../client/tests/fixtures/saves/corinth-near-contact.muster-save"),
    )
    .expect("the saved game reads");
    let config = continued::config_for(&saved.log).expect("a saved game to continue");
    write_seed(
        "gbacw_config",
        "continued-corinth",
        &Gbacw::encode_config(&config),
    );
    for b in battles::BATTLES {
        write_seed("map_file", b.name, b.map.as_bytes());
        write_seed("oob_file", b.name, b.oob.as_bytes());
        write_seed("scenario_file", b.name, b.scenario.as_bytes());
    }
    write_seed(
        "charts_file",
        "charts",
        muster_shared::gbacw::ruleset::scenario::CHARTS.as_bytes(),
    );
    let roll = codec::encode_infallible(&SandboxAction::Roll {
        count: 1,
        sides: 6,
        note: String::new(),
    });
    let sandbox = fuzzing::match_commands([(0, roll.as_slice()), (1, roll.as_slice())]);
    write_seed("sandbox_match", "rolls", &sandbox);
    // The first byte: Corinth, Cedar Mountain, the test ground fresh
    // (0, 1, 2), then each in play (3, 4, 5).
    for (start, steps, seed) in [
        (0, 40, 1),
        (0, 60, 2),
        (1, 60, 3),
        (2, 60, 4),
        (3, 60, 5),
        (3, 120, 6),
        (4, 120, 7),
        (5, 120, 8),
    ] {
        let data = fuzzing::gbacw_seed(start, steps, seed);
        write_seed("gbacw_match", &format!("{start}-{seed}"), &data);
    }
}
