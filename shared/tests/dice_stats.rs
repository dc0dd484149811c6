//! Goodness of fit of the real dice derivation: Pearson's chi-square over
//! hundreds of thousands of dice, both from many per-action streams (built
//! from `RollInput` exactly as a match builds them) and from one long stream.
//!
//! Every input is fixed, so each statistic is the same number on every run;
//! a test fails only if the derivation changes into one that does not fit.
//!
//! Critical values of the chi-square distribution at p = 0.001 (upper tail),
//! from the standard tables (e.g. NIST/SEMATECH e-Handbook of Statistical
//! Methods, §1.3.6.7.4 "Critical Values of the Chi-Square Distribution"):
//! df = 5 → 20.515, df = 9 → 27.877, df = 35 → 66.619.

use muster_shared::dice::{DiceStream, RollInput, SeatLink};
use muster_shared::{Hash32, MatchId, SeatId};

const CRITICAL_DF5: f64 = 20.515;
const CRITICAL_DF9: f64 = 27.877;
const CRITICAL_DF35: f64 = 66.619;

/// Pearson's statistic for `counts` against a uniform expectation.
fn chi_square(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let expected = total as f64 / counts.len() as f64;
    counts
        .iter()
        .map(|&o| {
            let d = o as f64 - expected;
            d * d / expected
        })
        .sum()
}

/// A 32-byte value that differs for every `n` (and every `tag`).
fn h(tag: u8, n: u64) -> Hash32 {
    let mut b = [tag; 32];
    b[..8].copy_from_slice(&n.to_le_bytes());
    Hash32(b)
}

/// Face counts over `streams` per-action streams of `per_stream` dice each.
/// Stream `k` is the roll of action `seq = 3 + 2k`, roll number `k + 1`, with
/// distinct server and seat links and action digest, as in a real match.
/// Also returns the counts of each stream's first die alone.
fn per_action_counts(sides: u16, streams: u64, per_stream: u32) -> (Vec<u64>, Vec<u64>) {
    let mut counts = vec![0u64; usize::from(sides)];
    let mut first = vec![0u64; usize::from(sides)];
    for k in 0..streams {
        let links = [
            SeatLink {
                seat: SeatId(0),
                index: (k + 1) as u32,
                link: h(0x50, k),
            },
            SeatLink {
                seat: SeatId(1),
                index: (k / 2 + 1) as u32,
                link: h(0x51, k),
            },
        ];
        let input = RollInput {
            match_id: MatchId([0x11; 16]),
            seq: 3 + 2 * k,
            roll_index: k + 1,
            action_digest: h(0x0d, k % 7),
            server_link: h(0x5e, k),
            seat_links: &links[..1 + (k % 2) as usize],
        };
        let mut s = DiceStream::new(&input);
        for i in 0..per_stream {
            let face = usize::from(s.roll(sides)) - 1;
            counts[face] += 1;
            if i == 0 {
                first[face] += 1;
            }
        }
    }
    (counts, first)
}

/// Face counts over `n` dice from one stream, and the counts of the
/// `n / 2` consecutive non-overlapping pairs.
fn long_stream_counts(sides: u16, n: u64) -> (Vec<u64>, Vec<u64>) {
    let s_us = usize::from(sides);
    let mut counts = vec![0u64; s_us];
    let mut pairs = vec![0u64; s_us * s_us];
    let mut s = DiceStream::from_seed(b"muster dice statistics, one long stream");
    let mut prev = None;
    for i in 0..n {
        let face = usize::from(s.roll(sides)) - 1;
        counts[face] += 1;
        if i % 2 == 1
            && let Some(p) = prev
        {
            pairs[p * s_us + face] += 1;
        }
        prev = Some(face);
        if i % 4096 == 4095 {
            s.clear_drawn();
        }
    }
    (counts, pairs)
}

#[test]
fn d6_from_many_action_streams_fits_uniform() {
    // 60,000 actions × 10 dice = 600,000 d6.
    let (counts, first) = per_action_counts(6, 60_000, 10);
    assert_eq!(counts.iter().sum::<u64>(), 600_000);
    let stat = chi_square(&counts);
    println!("d6 × 600,000 over 60,000 streams: {counts:?}, chi-square {stat:.3} (df 5)");
    assert!(stat < CRITICAL_DF5, "chi-square {stat} for {counts:?}");
    let stat = chi_square(&first);
    println!("first d6 of 60,000 streams: {first:?}, chi-square {stat:.3} (df 5)");
    assert!(stat < CRITICAL_DF5, "chi-square {stat} for {first:?}");
}

#[test]
fn d6_from_one_long_stream_fits_uniform() {
    let (counts, pairs) = long_stream_counts(6, 600_000);
    let stat = chi_square(&counts);
    println!("d6 × 600,000 from one stream: {counts:?}, chi-square {stat:.3} (df 5)");
    assert!(stat < CRITICAL_DF5, "chi-square {stat} for {counts:?}");
    // Consecutive pairs: 300,000 pairs over 36 cells, df 35.
    let stat = chi_square(&pairs);
    println!("d6 pairs × 300,000: chi-square {stat:.3} (df 35)");
    assert!(stat < CRITICAL_DF35, "pair chi-square {stat}");
}

#[test]
fn d10_from_many_action_streams_fits_uniform() {
    // 10,000 actions × 10 dice = 100,000 d10.
    let (counts, _) = per_action_counts(10, 10_000, 10);
    assert_eq!(counts.iter().sum::<u64>(), 100_000);
    let stat = chi_square(&counts);
    println!("d10 × 100,000 over 10,000 streams: {counts:?}, chi-square {stat:.3} (df 9)");
    assert!(stat < CRITICAL_DF9, "chi-square {stat} for {counts:?}");
}

#[test]
fn d10_from_one_long_stream_fits_uniform() {
    let (counts, _) = long_stream_counts(10, 100_000);
    let stat = chi_square(&counts);
    println!("d10 × 100,000 from one stream: {counts:?}, chi-square {stat:.3} (df 9)");
    assert!(stat < CRITICAL_DF9, "chi-square {stat} for {counts:?}");
}

#[test]
fn chi_square_rejects_a_biased_die() {
    // The check has teeth: the bias of plain `byte % 6` (no rejection), over
    // the same number of dice, is far past the critical value.
    let mut counts = [0u64; 6];
    for b in 0..=255u64 {
        counts[(b % 6) as usize] += 2_344; // 256 × 2,344 ≈ 600,000 dice
    }
    let stat = chi_square(&counts);
    assert!(stat > CRITICAL_DF5, "{stat}");
}
