//! GBACW part 2 speed (issue 5): a line-of-sight query on the Corinth map
//! (target: median under 5 µs), and applying a recorded random legal game
//! of 2,000 actions — `decide` and `evolve` for each, dice included, legal
//! action generation not — (target: under 100 ms).
//!
//! Run with `cargo bench -p muster-shared --bench gbacw_play`.

use criterion::{Criterion, criterion_group, criterion_main};
use muster_shared::dice::DiceStream;
use muster_shared::engine::{ActionContext, Dice, Ruleset};
use muster_shared::gbacw::charts::Charts;
use muster_shared::gbacw::los::line_of_sight;
use muster_shared::gbacw::map::{HexNumber, parse_map};
use muster_shared::gbacw::ruleset::scenario::CHARTS;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwAction, GbacwConfig, GbacwState};
use muster_shared::ids::SeatId;
use std::hint::black_box;

const CORINTH: &str = include_str!("../../assets/gbacw/corinth/corinth.map");

fn dice_for(k: usize) -> Dice {
    Dice::from_stream(DiceStream::from_seed(&(k as u64).to_le_bytes()))
}

/// A random legal game of up to `n` actions on the test battle: ends a
/// phase one time in forty, otherwise a random legal action.
fn record(rs: &Gbacw, n: usize, seed: u64) -> Vec<(SeatId, GbacwAction)> {
    let mut state = rs.initial_state();
    let mut chooser = DiceStream::from_seed(&seed.to_le_bytes());
    let mut out = Vec::new();
    while out.len() < n {
        let Some(seat) = rs.acting_seat(&state) else {
            break;
        };
        let legal = rs.legal_actions(&state, seat);
        let end = legal.iter().position(|a| *a == GbacwAction::EndPhase);
        let pick = match end {
            Some(e) if chooser.roll(40) == 1 || legal.len() == 1 => e,
            _ => usize::from(chooser.roll(legal.len() as u16)) - 1,
        };
        let action = legal[pick].clone();
        apply(rs, &mut state, out.len(), seat, &action);
        out.push((seat, action));
    }
    out
}

fn apply(rs: &Gbacw, state: &mut GbacwState, k: usize, seat: SeatId, action: &GbacwAction) {
    let ctx = ActionContext {
        seat,
        seq: k as u64 + 1,
        by_default: false,
    };
    let mut dice = if rs.rolls_dice(state, &ctx, action) {
        dice_for(k)
    } else {
        Dice::none()
    };
    let events = rs
        .decide(state, &ctx, action, &mut dice)
        .expect("a recorded legal action");
    for e in &events {
        rs.evolve(state, e);
    }
}

fn bench(c: &mut Criterion) {
    let map = parse_map(CORINTH).unwrap();
    let charts = Charts::load(CHARTS).unwrap();
    let (from, to) = (
        HexNumber::new(10, 20).unwrap(),
        HexNumber::new(18, 30).unwrap(),
    );
    c.bench_function(
        &format!(
            "gbacw line of sight, Corinth map, {} hexes",
            map.grid.distance(from, to)
        ),
        |b| b.iter(|| line_of_sight(&map, &charts.combat, black_box(from), black_box(to), |_| 5)),
    );

    // The 8-turn test battle ends after some 700 random actions, so the
    // 2,000 actions are consecutive whole games (the last one cut short).
    let rs = Gbacw::new(&GbacwConfig::default()).unwrap();
    let mut games = Vec::new();
    let mut total = 0;
    for seed in 0.. {
        if total >= 2000 {
            break;
        }
        let g = record(&rs, 2000 - total, seed);
        total += g.len();
        games.push(g);
    }
    let initial = rs.initial_state();
    let mut group = c.benchmark_group("gbacw game");
    group.sample_size(20);
    group.bench_function(
        format!(
            "apply {total} recorded random actions ({} games)",
            games.len()
        ),
        |b| {
            b.iter(|| {
                let mut end = Vec::new();
                for game in &games {
                    let mut state = initial.clone();
                    for (k, (seat, action)) in game.iter().enumerate() {
                        apply(&rs, &mut state, k, *seat, action);
                    }
                    end.push(state);
                }
                black_box(end)
            })
        },
    );
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
