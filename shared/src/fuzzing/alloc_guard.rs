//! A global allocator that notices any single allocation past a limit
//! while the limit is armed: the fuzz targets' "no allocation over the
//! frame limit", on stable as well as under libFuzzer (whose own
//! `-malloc_limit_mb` needs a sanitizer's malloc hooks).
//!
//! The allocator cannot panic (a panic allocates), so it only records the
//! largest allocation over the limit; [`limited`] checks the record once
//! the guarded code returns and panics there. The limit is process-wide:
//! guard one thing at a time (the fuzzer and the corpus test are single
//! threaded where it matters).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The armed limit in bytes; 0 when off.
static LIMIT: AtomicUsize = AtomicUsize::new(0);
/// The largest allocation seen over the armed limit; 0 when none.
static OVER: AtomicUsize = AtomicUsize::new(0);

/// The system allocator, watching allocation sizes while a limit is armed.
pub struct LimitAlloc;

impl LimitAlloc {
    fn watch(size: usize) {
        let limit = LIMIT.load(Ordering::Relaxed);
        if limit != 0 && size > limit {
            OVER.fetch_max(size, Ordering::Relaxed);
        }
    }
}

// SAFETY: every call is forwarded unchanged to `System`; the watch only
// reads and updates two atomics (it never allocates).
unsafe impl GlobalAlloc for LimitAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        Self::watch(layout.size());
        // SAFETY: the caller's contract is `System.alloc`'s.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        Self::watch(layout.size());
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        Self::watch(new_size);
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Run `f` with allocations limited to `limit` bytes each; panics after
/// `f` returns if one was larger (only noticed with [`LimitAlloc`]
/// installed as the global allocator).
pub fn limited<T>(limit: usize, what: &str, f: impl FnOnce() -> T) -> T {
    OVER.store(0, Ordering::Relaxed);
    LIMIT.store(limit, Ordering::Relaxed);
    let out = f();
    LIMIT.store(0, Ordering::Relaxed);
    let over = OVER.swap(0, Ordering::Relaxed);
    assert!(
        over == 0,
        "{what}: one allocation of {over} bytes, over the {limit}-byte limit"
    );
    out
}
