//! Dice derivation throughput: d6 from one stream (target ≥ 10 million per
//! second on one core), and the cost of one action's stream, from building
//! its `RollInput` to the dice.
//!
//! Run with `cargo bench -p muster-shared --bench dice`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use muster_shared::dice::{DiceStream, RollInput, SeatLink, action_digest, link_follows};
use muster_shared::{Hash32, MatchId, SeatId};
use std::hint::black_box;

const BATCH: u64 = 1000;

fn one_stream(c: &mut Criterion) {
    let mut group = c.benchmark_group("dice/one_stream");
    group.throughput(Throughput::Elements(BATCH));
    for sides in [6u16, 10, 1000] {
        let mut stream = DiceStream::from_seed(b"bench");
        group.bench_function(format!("d{sides}"), |b| {
            b.iter(|| {
                for _ in 0..BATCH {
                    black_box(stream.roll(black_box(sides)));
                }
                stream.clear_drawn();
            })
        });
    }
    group.finish();
}

fn per_action(c: &mut Criterion) {
    let links = [
        SeatLink {
            seat: SeatId(0),
            index: 12,
            link: Hash32([0x07; 32]),
        },
        SeatLink {
            seat: SeatId(1),
            index: 9,
            link: Hash32([0x08; 32]),
        },
    ];
    let mut group = c.benchmark_group("dice/per_action");
    let mut seq = 0u64;
    group.bench_function("new_stream_and_2d6", |b| {
        b.iter(|| {
            seq += 1;
            let input = RollInput {
                match_id: MatchId([0x01; 16]),
                seq,
                roll_index: seq,
                action_digest: Hash32([0x02; 32]),
                server_link: Hash32([0x03; 32]),
                seat_links: black_box(&links),
            };
            let mut s = DiceStream::new(&input);
            black_box((s.roll(6), s.roll(6)))
        })
    });
    let action = [0x5au8; 40];
    group.bench_function("action_digest_40_bytes", |b| {
        b.iter(|| action_digest(black_box(&action)))
    });
    let prev = Hash32(*blake3::hash(&[0x07; 32]).as_bytes());
    group.bench_function("link_follows", |b| {
        b.iter(|| link_follows(black_box(&prev), black_box(&links[0].link)))
    });
    group.finish();
}

criterion_group!(benches, one_stream, per_action);
criterion_main!(benches);
