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

/// Within the stretch below a checkpoint, every `STEP`-th link is kept from
/// the last lookup (see [`Stretch`]).
const STEP: u32 = 8;

/// The public commitment to a chain: its last hash and how many links it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChainAnchor {
    pub anchor: Hash32,
    pub len: u32,
}

/// The link before `link` in its chain: `x_{i-1} = blake3(x_i)` (the
/// anchor for link 1). A later link therefore shows every earlier one.
pub fn previous_link(link: &Hash32) -> Hash32 {
    Hash32::from(blake3::hash(&link.0))
}

/// `true` when `link` is the successor of `prev` in a chain: `blake3(link) == prev`.
pub fn link_follows(prev: &Hash32, link: &Hash32) -> bool {
    Hash32::from(blake3::hash(&link.0)) == *prev
}

/// A party's secret chain. Only its owner holds one; everyone else holds the anchor.
pub struct HashChain {
    secret: Hash32,
    len: u32,
    /// `checkpoints[j]` is link `x_{j * STRIDE}`; `checkpoints[0]` is the anchor.
    checkpoints: Vec<Hash32>,
    /// The links on the way down from the last lookup's checkpoint.
    stretch: std::sync::Mutex<Option<Stretch>>,
}

/// Links are revealed in rising order, and each lookup hashes down from the
/// checkpoint above it: on average half a stride (32 hashes) per roll on the
/// server's hot path. The first lookup below a checkpoint keeps every
/// `STEP`-th link it passes (256 bytes), so the next lookups in that stretch
/// start at most `STEP - 1` hashes above their link.
struct Stretch {
    /// The link the stretch hangs from (a checkpoint, or the secret).
    top: u32,
    /// `kept[k]` is link `top - k * STEP`, for the links computed so far.
    kept: Vec<Hash32>,
}

impl Clone for HashChain {
    fn clone(&self) -> Self {
        HashChain {
            secret: self.secret,
            len: self.len,
            checkpoints: self.checkpoints.clone(),
            stretch: std::sync::Mutex::new(None),
        }
    }
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
            stretch: std::sync::Mutex::new(None),
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
        let (top, top_link) = if above <= self.len {
            (
                above,
                self.checkpoints[(above / CHECKPOINT_STRIDE) as usize],
            )
        } else {
            (self.len, self.secret)
        };
        // A poisoned lock only means another lookup panicked mid-way; the
        // kept links are each correct whenever present.
        let mut stretch = self
            .stretch
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let kept = match &mut *stretch {
            Some(s) if s.top == top => &mut s.kept,
            other => {
                &mut other
                    .insert(Stretch {
                        top,
                        kept: vec![top_link],
                    })
                    .kept
            }
        };
        // The lowest kept link at or above i, then hash down, keeping every
        // STEP-th link passed for the lookups to come.
        let k = (((top - i) / STEP) as usize).min(kept.len() - 1);
        let (mut x, mut at) = (kept[k], top - k as u32 * STEP);
        while at > i {
            x = Hash32::from(blake3::hash(&x.0));
            at -= 1;
            if (top - at).is_multiple_of(STEP) && ((top - at) / STEP) as usize == kept.len() {
                kept.push(x);
            }
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
    fn links_asked_in_any_order_are_the_chains_links() {
        let len = 300;
        let chain = HashChain::generate(len);
        // Each link straight from a chain that has kept nothing yet.
        let fresh = |i| chain.clone().link(i);
        let rising: Vec<u32> = (1..=len).collect();
        let falling: Vec<u32> = (1..=len).rev().collect();
        // A fixed shuffle: i * 7919 mod 301 visits 1..=300 once each.
        let jumbled: Vec<u32> = (1..=len).map(|i| i * 7919 % (len + 1)).collect();
        for order in [rising, falling, jumbled] {
            let asked = chain.clone();
            for &i in &order {
                assert_eq!(asked.link(i), fresh(i), "link {i}");
            }
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
