//! Accounts (issue 21): a guest identity claimed under its name with a
//! password, so its owner can sign in from another machine.
//!
//! - Passwords are stored as Argon2id PHC strings (the `argon2` crate's
//!   defaults: 19 MiB, 2 passes), hashed on the blocking pool.
//! - Account names follow the rules of every other name
//!   (`muster_shared::display_name::check`: NFKC, nothing invisible or
//!   reordering) and are unique by their look-alike key (`same_person_key`),
//!   so "Grant" and "Grаnt" (Cyrillic а) cannot be two accounts.
//! - Failed sign-ins are limited per account and per address with token
//!   buckets ([`crate::quota::Bucket`]); only failures take a token, and a
//!   sign-in over the limit is refused before the password is checked.

use crate::quota::{AddrKey, Bucket, retry_in};
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use std::collections::HashMap;
use std::sync::Mutex;

/// Shortest and longest password, in bytes.
pub const MIN_PASSWORD: usize = 8;
pub const MAX_PASSWORD: usize = 256;
/// Failed sign-ins per account: this many at once, then one per minute.
pub const ACCOUNT_BURST: u32 = 5;
pub const ACCOUNT_PER_MINUTE: f64 = 1.0;
/// Failed sign-ins per address: this many at once, then this many a minute.
pub const ADDR_BURST: u32 = 20;
pub const ADDR_PER_MINUTE: f64 = 10.0;
/// Buckets kept before full ones are forgotten.
const MAX_TRACKED: usize = 10_000;

/// Why a password is refused at claim time, or `Ok`.
pub fn check_password(password: &str) -> Result<(), String> {
    let n = password.len();
    if n < MIN_PASSWORD {
        return Err(format!(
            "a password needs at least {MIN_PASSWORD} characters"
        ));
    }
    if n > MAX_PASSWORD {
        return Err(format!("a password may have at most {MAX_PASSWORD} bytes"));
    }
    Ok(())
}

/// The Argon2id hash of `password` as a PHC string (with its salt).
pub fn hash_password(password: &str) -> Result<String, String> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| format!("no random salt: {e}"))?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| e.to_string())?;
    argon2::Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| e.to_string())
}

/// Whether `password` matches a stored PHC string.
pub fn verify_password(password: &str, phc: &str) -> bool {
    if password.len() > MAX_PASSWORD {
        return false;
    }
    PasswordHash::new(phc).is_ok_and(|h| {
        argon2::Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok()
    })
}

/// The key an account name is unique by.
pub fn name_key(name: &str) -> String {
    muster_shared::display_name::same_person_key(name)
}

/// Failed sign-ins per account and per address.
#[derive(Default)]
pub struct Attempts {
    state: Mutex<(HashMap<String, Bucket>, HashMap<AddrKey, Bucket>)>,
}

impl Attempts {
    /// `Err` in words when account `key` or `addr` has used up its
    /// failures; nothing is taken.
    pub fn allowed(&self, key: &str, addr: AddrKey) -> Result<(), String> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(b) = st.0.get_mut(key) {
            let wait = b.wait();
            if !wait.is_zero() {
                return Err(format!(
                    "too many failed sign-ins to this account; try again in {}",
                    retry_in(wait)
                ));
            }
        }
        if let Some(b) = st.1.get_mut(&addr) {
            let wait = b.wait();
            if !wait.is_zero() {
                return Err(format!(
                    "too many failed sign-ins from your address ({addr}); try again in {}",
                    retry_in(wait)
                ));
            }
        }
        Ok(())
    }

    /// A sign-in to `key` from `addr` failed.
    pub fn failed(&self, key: &str, addr: AddrKey) {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if st.0.len() > MAX_TRACKED {
            st.0.retain(|_, b| !b.full());
        }
        if st.1.len() > MAX_TRACKED {
            st.1.retain(|_, b| !b.full());
        }
        st.0.entry(key.to_string())
            .or_insert_with(|| Bucket::new(ACCOUNT_PER_MINUTE / 60.0, ACCOUNT_BURST))
            .take();
        st.1.entry(addr)
            .or_insert_with(|| Bucket::new(ADDR_PER_MINUTE / 60.0, ADDR_BURST))
            .take();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_verifies_against_its_argon2id_hash_only() {
        let phc = hash_password("correct horse").unwrap();
        assert!(phc.starts_with("$argon2id$"), "{phc}");
        assert!(verify_password("correct horse", &phc));
        assert!(!verify_password("correct horsE", &phc));
        assert!(!verify_password("correct horse", "not a hash"));
        assert!(check_password("short").is_err());
    }

    #[test]
    fn failures_are_limited_per_account_and_per_address() {
        let a = Attempts::default();
        let ip = AddrKey::of("10.1.1.1".parse().unwrap());
        let other = AddrKey::of("10.1.1.2".parse().unwrap());
        for _ in 0..ACCOUNT_BURST {
            assert!(a.allowed("ann", ip).is_ok());
            a.failed("ann", ip);
        }
        let why = a.allowed("ann", other).unwrap_err();
        assert!(why.contains("this account"), "{why}");
        assert!(a.allowed("bob", ip).is_ok());
    }
}
