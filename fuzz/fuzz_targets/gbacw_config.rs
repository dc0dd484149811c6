//! cargo-fuzz target `gbacw_config`: the body is `muster_shared::fuzzing::gbacw_config`,
//! shared with the stable corpus replay (`tests/tests/fuzz_corpus.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use muster_shared::fuzzing::alloc_guard::LimitAlloc;

/// A single allocation over the target's limit fails the input.
#[global_allocator]
static ALLOC: LimitAlloc = LimitAlloc;

fuzz_target!(|data: &[u8]| muster_shared::fuzzing::gbacw_config(data));
