//! Encode and decode of a typical delta: `ServerMsg::Delta` carrying one
//! sandbox `Moved` event (encoded inside, as the server sends it) and a roll
//! proof with the actor's link and two dice. Target: under 1 µs for the
//! encode + decode round trip.
//!
//! Run with `cargo bench -p muster-shared --bench codec`.

use criterion::{Criterion, criterion_group, criterion_main};
use muster_shared::codec;
use muster_shared::dice::{Die, RollProof, SeatLink};
use muster_shared::protocol::{DeltaBody, ServerMsg, TableId};
use muster_shared::sandbox::{Loc, PieceId, Position, SandboxEvent};
use muster_shared::{Hash32, SeatId};
use std::hint::black_box;

fn events() -> Vec<SandboxEvent> {
    vec![SandboxEvent::Moved {
        piece: PieceId(1234),
        to: Position {
            board: 0,
            loc: Loc::Hex { col: 17, row: 22 },
        },
        z: 1234 << 16,
    }]
}

fn delta() -> ServerMsg {
    ServerMsg::Delta {
        table: TableId(77),
        seq: 1234,
        body: DeltaBody::Action {
            seat: SeatId(1),
            events: codec::encode_infallible(&events()),
            roll: Some(RollProof {
                roll_index: 321,
                server_index: 321,
                server_link: Hash32([0x3c; 32]),
                seat_links: vec![SeatLink {
                    seat: SeatId(1),
                    index: 160,
                    link: Hash32([0x7e; 32]),
                }],
                action_digest: Hash32([0xad; 32]),
                dice: vec![Die { sides: 6, value: 4 }, Die { sides: 6, value: 2 }],
            }),
            by_default: false,
        },
    }
}

fn bench(c: &mut Criterion) {
    let msg = delta();
    let bytes = msg.encode().unwrap();
    assert_eq!(ServerMsg::decode(&bytes).unwrap(), msg);
    println!("typical delta: {} bytes encoded", bytes.len());

    let mut group = c.benchmark_group("codec/delta");
    group.bench_function("encode", |b| b.iter(|| black_box(&msg).encode().unwrap()));
    group.bench_function("decode", |b| {
        b.iter(|| ServerMsg::decode(black_box(&bytes)).unwrap())
    });
    group.bench_function("encode_decode", |b| {
        b.iter(|| ServerMsg::decode(&black_box(&msg).encode().unwrap()).unwrap())
    });
    // Where decode time goes: each 32-byte hash is a serde tuple of 32
    // separately decoded bytes, and a roll proof carries four of them.
    let hash = codec::encode_infallible(&Hash32([0x3c; 32]));
    group.bench_function("decode_one_hash32", |b| {
        b.iter(|| codec::decode::<Hash32>(black_box(&hash), codec::MAX_SERVER_MSG).unwrap())
    });
    // The whole path: the server encodes the events and the message, the
    // client decodes the message and then the events inside it.
    let evs = events();
    group.bench_function("events_in_delta_round_trip", |b| {
        b.iter(|| {
            let sent = ServerMsg::Delta {
                table: TableId(77),
                seq: 1234,
                body: DeltaBody::Action {
                    seat: SeatId(1),
                    events: codec::encode_infallible(black_box(&evs)),
                    roll: None,
                    by_default: false,
                },
            }
            .encode()
            .unwrap();
            match ServerMsg::decode(&sent).unwrap() {
                ServerMsg::Delta {
                    body: DeltaBody::Action { events, .. },
                    ..
                } => codec::decode::<Vec<SandboxEvent>>(&events, codec::MAX_SERVER_MSG).unwrap(),
                _ => unreachable!("a delta was sent"),
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
