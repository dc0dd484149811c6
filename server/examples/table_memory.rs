//! Memory held per table (issue 20: "a Corinth table costs ≤ 200 KiB").
//!
//! Builds tables in-process exactly as `Room::create` does (the ruleset
//! registry's constructor, the server's 4,096-link chain generated and its
//! anchor published) and keeps them, counting the bytes live on the heap
//! with a counting global allocator. The first table is built apart: it
//! pays for whatever the process loads once (the shared scenario data
//! since issue 20). The room's own buffers (connections, delta history)
//! are not in the figure: they start empty.
//!
//! `cargo run -p muster-server --example table_memory -- [battle] [tables]`
//! (default `corinth 20`).

use muster_server::room::SERVER_CHAIN_LEN;
use muster_server::room::any_match::registry;
use muster_shared::MatchId;
use muster_shared::codec;
use muster_shared::dice::{HashChain, Party};
use muster_shared::gbacw::ruleset::GbacwConfig;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

/// Bytes allocated and not yet freed.
static LIVE: AtomicIsize = AtomicIsize::new(0);

struct Counting;

// SAFETY: forwards every call to `System` and only updates an atomic.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: the caller's contract is `System.alloc`'s.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(
            new_size as isize - layout.size() as isize,
            Ordering::Relaxed,
        );
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

fn live() -> isize {
    LIVE.load(Ordering::Relaxed)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let battle = args.next().unwrap_or_else(|| "corinth".into());
    let tables: usize = args
        .next()
        .map(|n| n.parse().expect("a number of tables"))
        .unwrap_or(20)
        .clamp(1, 1000);
    let config = codec::encode_infallible(&GbacwConfig {
        battle: battle.clone(),
        ..GbacwConfig::default()
    });
    let entry = registry("gbacw").expect("the server hosts GBACW");
    let build = || {
        let mut m = (entry.create)(&config, MatchId::random()).expect("the battle loads");
        let chain = HashChain::generate(SERVER_CHAIN_LEN);
        m.publish_anchor(Party::Server, chain.anchor())
            .expect("a fresh table takes the server's anchor");
        (m, chain)
    };
    let at_start = live();
    let first = build();
    let after_first = live();
    let started = std::time::Instant::now();
    let kept: Vec<_> = (0..tables).map(|_| build()).collect();
    let took = started.elapsed();
    let after_all = live();
    let per_table = (after_all - after_first) / tables as isize;
    println!(
        "{battle}: first table {} KiB (with what loads once); then {tables} tables, {} KiB each ({:.1} ms each to build)",
        (after_first - at_start) / 1024,
        per_table / 1024,
        took.as_secs_f64() * 1000.0 / tables as f64,
    );
    drop((first, kept));
}
