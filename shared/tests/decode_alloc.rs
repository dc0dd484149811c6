//! Hostile length prefixes are refused before allocating: this test binary
//! counts every allocation and checks that none of the hostile inputs asks
//! for more than a small, fixed amount of memory.

use muster_shared::codec;
use muster_shared::protocol::{ClientMsg, ServerMsg};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Largest;

static LARGEST: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Largest {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LARGEST.fetch_max(new_size, Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOC: Largest = Largest;

#[test]
fn hostile_length_prefixes_allocate_nothing_large() {
    // Several message shapes with a container length of u32::MAX or
    // u64::MAX where a Vec or String is expected.
    let huge32 = [0xfc, 0xff, 0xff, 0xff, 0xff];
    let huge64 = [0xfd, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];
    let shapes: Vec<Vec<u8>> = vec![
        [&[1u8][..], &huge32].concat(),          // GuestSignIn { name }
        [&[1u8][..], &huge64].concat(),          // ... with a u64 length
        [&[9u8, 1, 1][..], &huge32].concat(),    // Act { action: Vec<u8> }
        [&[4u8, 0, 0][..], &huge64].concat(),    // CreateTable { options.config }
        [&[9u8, 1, 1, 0][..], &huge32].concat(), // Act { links: Vec<SeatLink> }
    ];
    LARGEST.store(0, Ordering::Relaxed);
    for bytes in &shapes[..3] {
        assert!(ClientMsg::decode(bytes).is_err());
        let _ = ServerMsg::decode(bytes);
    }
    let mut frame: &[u8] = &[0xff, 0xff, 0xff, 0xff, 0];
    assert!(codec::read_frame(&mut frame, codec::MAX_SERVER_MSG).is_err());
    let largest = LARGEST.load(Ordering::Relaxed);
    assert!(
        largest < 64 * 1024,
        "a hostile prefix allocated {largest} bytes"
    );

    // Sequences of structs go through serde's sequence path, which bincode
    // does not check against its limit; serde itself caps the up-front
    // reservation at 1 MiB ("cautious" size hints), and the decode fails as
    // soon as the input runs out. That bounded cost is what remains.
    for bytes in &shapes[3..] {
        assert!(ClientMsg::decode(bytes).is_err());
    }
    let largest = LARGEST.load(Ordering::Relaxed);
    assert!(
        largest <= 1024 * 1024,
        "a hostile prefix allocated {largest} bytes"
    );
}

/// Found by the `server_msg` fuzz target (issue 20): an 8-byte
/// `SignedIn` whose name claims 24,790,527 bytes made the client reserve
/// them before finding the input ended: a server message's string budget
/// was 128 MiB whatever the message's size. The budget now follows the
/// input's size (`codec::decode`).
#[test]
fn a_short_server_message_claiming_a_long_string_reserves_nothing_large() {
    let bytes = [0x01, 0x00, 0xfc, 0xff, 0x45, 0x7a, 0x01, 0x08];
    LARGEST.store(0, Ordering::Relaxed);
    assert!(ServerMsg::decode(&bytes).is_err());
    let largest = LARGEST.load(Ordering::Relaxed);
    assert!(
        largest <= 1024 * 1024,
        "8 bytes made the decoder reserve {largest} bytes"
    );
}
