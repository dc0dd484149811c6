//! GBACW reachable hexes (issue 4): a limbered battery (allowance 8) in
//! the middle of a 40 × 60 map with woods, a stream and a road, by the
//! pure query over map and chart (`movement::reachable`), by the same over
//! a step table worked out once (`movement::StepTable`, what the ruleset
//! uses), and by the hosted ruleset's query (`Gbacw::reachable`: the rules
//! of the moment on top of the chart). Target: median under 50 µs.
//!
//! Run with `cargo bench -p muster-shared --bench gbacw_reach`.

use criterion::{Criterion, criterion_group, criterion_main};
use muster_shared::engine::Ruleset;
use muster_shared::gbacw::charts::{Charts, MoveClass, Mp};
use muster_shared::gbacw::map::{HexNumber, parse_map};
use muster_shared::gbacw::movement::{StepTable, reachable};
use muster_shared::gbacw::oob::CounterId;
use muster_shared::gbacw::ruleset::scenario::CHARTS;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwConfig};
use std::fmt::Write;
use std::hint::black_box;

/// A 40 × 60 map: woods every seventh hex, a stream down column 25 with
/// a bridge, a road along row 30.
fn big_map() -> String {
    let mut m = String::from(
        "gbacw-map 1\nname \"bench\"\nreconstruction \"benchmark fixture\"\norientation flat\noffset even\ncolumns 01-40\nrows 01-60\nlevels 0=0\ndefault clear level=0\n",
    );
    for c in 1..=40u8 {
        for r in 1..=60u8 {
            if (u32::from(c) * 7 + u32::from(r) * 3) % 7 == 0 {
                writeln!(m, "hex {c:02}{r:02} woods").unwrap();
            }
        }
    }
    for r in 1..=60u8 {
        let extra = if r == 30 { " bridge road" } else { "" };
        writeln!(m, "side 25{r:02}/26{r:02} stream{extra}").unwrap();
    }
    // Along row 30 (every pair of neighbouring columns shares a hexside
    // there), except where the stream line already has the road.
    for c in (1..40u8).filter(|c| *c != 25) {
        writeln!(m, "side {c:02}30/{:02}30 road", c + 1).unwrap();
    }
    m
}

fn bench(c: &mut Criterion) {
    let map = parse_map(&big_map()).unwrap();
    let charts = Charts::load(CHARTS).unwrap();
    let start = HexNumber::new(20, 30).unwrap();
    let allowance = charts.movement.allowance(MoveClass::Limbered);
    assert_eq!(allowance, Mp::from_whole(8));
    c.bench_function("gbacw reachable, allowance 8, 40x60 map", |b| {
        b.iter(|| {
            reachable(
                &map,
                &charts.movement,
                MoveClass::Limbered,
                black_box(start),
                allowance,
                |_| true,
            )
        })
    });
    let table = StepTable::new(&map, &charts.movement);
    c.bench_function(
        "gbacw reachable by step table, allowance 8, 40x60 map",
        |b| b.iter(|| table.reachable(MoveClass::Limbered, black_box(start), allowance, |_| true)),
    );
    let rs = Gbacw::new(&GbacwConfig::default()).unwrap();
    let state = rs.initial_state();
    let mounted = CounterId("1-nj-c".into());
    c.bench_function("gbacw ruleset reachable, mounted cavalry, test map", |b| {
        b.iter(|| rs.reachable(black_box(&state), &mounted))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
