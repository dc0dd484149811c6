//! Guest identities and session tokens. A token is 32 random bytes shown
//! to its owner once; the database keeps only its blake3 hash, so a copy of
//! the database does not let anyone act for anyone.

use muster_shared::Hash32;

/// Longest display name, in bytes.
pub const MAX_NAME: usize = muster_shared::display_name::MAX_NAME_BYTES;
/// Longest token a client may present (a real one is 64 hex digits).
pub const MAX_TOKEN: usize = 128;

/// A fresh session token, as the client will keep it.
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).expect("the OS random generator is available");
    hex::encode(bytes)
}

/// What the database stores for a token.
pub fn token_hash(token: &str) -> Hash32 {
    let mut h = blake3::Hasher::new_derive_key("muster session token v1");
    h.update(token.as_bytes());
    h.finalize().into()
}

/// A display name as it will be shown, or why it is refused: 1 to 32
/// bytes, nothing invisible or text-reordering
/// ([`muster_shared::display_name`]).
pub fn checked_name(name: &str) -> Result<String, String> {
    muster_shared::display_name::check(name).map_err(|e| e.to_string())
}
