//! Hash chains: a secret `x_N`, then `x_{i-1} = blake3(x_i)` down to the
//! public anchor `x_0`. Revealing `x_1, x_2, …` in order proves each link
//! was fixed when the anchor was published, and says nothing about the next.

use crate::ids::Hash32;
use serde::{Deserialize, Serialize};

/// Longest chain we accept from anyone; anchors claiming more are refused so
/// a verifier never hashes without bound.
pub const MAX_CHAIN_LEN: u32 = 1 << 20;

/// Every `CHECKPOINT_STRIDE`-th link is kept, so any link costs at most that
/// many hashes to recompute and a 65,536-link chain keeps 2 KiB, not 2 MiB.
const CHECKPOINT_STRIDE: u32 = 64;

/// The public commitment to a chain: its last hash and how many links it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChainAnchor {
    pub anchor: Hash32,
    pub len: u32,
}

/// `true` when `link` is the successor of `prev` in a chain: `blake3(link) == prev`.
pub fn link_follows(prev: &Hash32, link: &Hash32) -> bool {
    Hash32::from(blake3::hash(&link.0)) == *prev
}

/// A party's secret chain. Only its owner holds one; everyone else holds the anchor.
#[derive(Clone)]
pub struct HashChain {
    secret: Hash32,
    len: u32,
    /// `checkpoints[j]` is link `x_{j * STRIDE}`; `checkpoints[0]` is the anchor.
    checkpoints: Vec<Hash32>,
}

impl std::fmt::Debug for HashChain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print the secret.
        f.debug_struct("HashChain")
            .field("len", &self.len)
            .field("anchor", &self.anchor())
            .finish()
    }
}

impl HashChain {
    /// A new chain of `len` links from the operating system's random generator.
    pub fn generate(len: u32) -> Self {
        let mut secret = [0u8; 32];
        getrandom::fill(&mut secret).expect("the OS random generator is available");
        Self::from_secret(Hash32(secret), len)
    }

    /// Rebuild a chain from its stored secret `x_N` (after a restart).
    ///
    /// `len` is clamped to `1..=MAX_CHAIN_LEN`.
    pub fn from_secret(secret: Hash32, len: u32) -> Self {
        let len = len.clamp(1, MAX_CHAIN_LEN);
        let mut checkpoints = vec![Hash32::default(); (len / CHECKPOINT_STRIDE + 1) as usize];
        let mut x = secret;
        let mut i = len;
        loop {
            if i.is_multiple_of(CHECKPOINT_STRIDE) {
                checkpoints[(i / CHECKPOINT_STRIDE) as usize] = x;
            }
            if i == 0 {
                break;
            }
            x = Hash32::from(blake3::hash(&x.0));
            i -= 1;
        }
        HashChain {
            secret,
            len,
            checkpoints,
        }
    }

    /// The secret `x_N`: store it to survive a restart, never send it.
    pub fn secret(&self) -> Hash32 {
        self.secret
    }

    pub fn len(&self) -> u32 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    /// The public commitment `x_0` with the chain length.
    pub fn anchor(&self) -> ChainAnchor {
        ChainAnchor {
            anchor: self.checkpoints[0],
            len: self.len,
        }
    }

    /// Link `x_i` for `1 <= i <= len`; `None` outside the chain.
    pub fn link(&self, i: u32) -> Option<Hash32> {
        if i == 0 || i > self.len {
            return None;
        }
        // Start from the nearest stored link at or above i and hash down.
        let above = i.div_ceil(CHECKPOINT_STRIDE) * CHECKPOINT_STRIDE;
        let (mut x, mut at) = if above <= self.len {
            (
                self.checkpoints[(above / CHECKPOINT_STRIDE) as usize],
                above,
            )
        } else {
            (self.secret, self.len)
        };
        while at > i {
            x = Hash32::from(blake3::hash(&x.0));
            at -= 1;
        }
        Some(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_link_hashes_to_its_predecessor() {
        for len in [1, 2, 63, 64, 65, 200] {
            let chain = HashChain::generate(len);
            let mut prev = chain.anchor().anchor;
            for i in 1..=len {
                let link = chain.link(i).unwrap();
                assert!(link_follows(&prev, &link), "len {len} link {i}");
                prev = link;
            }
            assert_eq!(prev, chain.secret());
            assert_eq!(chain.link(0), None);
            assert_eq!(chain.link(len + 1), None);
        }
    }

    #[test]
    fn rebuilt_chain_has_same_anchor() {
        let a = HashChain::generate(300);
        let b = HashChain::from_secret(a.secret(), 300);
        assert_eq!(a.anchor(), b.anchor());
        assert_eq!(a.link(77), b.link(77));
    }
}
