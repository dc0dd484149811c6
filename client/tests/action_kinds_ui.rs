//! Issue 18, "every action kind reachable": random games of every battle
//! a player can choose, played through the engine's legal sets to the
//! end (bounded), collect every `GbacwAction` kind the engine offers a
//! seat; each must have a UI path, named in [`UI_PATHS`] by the test
//! that produces it by clicks at a real table. `support::play::kind_of`
//! is an exhaustive match and `Clicker::perform` gives every kind its
//! clicks, so a new kind does not compile until it has both.

use muster_shared::engine::Ruleset;
use muster_shared::gbacw::battles::for_players;
use muster_shared::gbacw::testkit::T;
use std::collections::{BTreeMap, BTreeSet};

use crate::support;

use support::play::{BY_PROMPT_OR_ORDERS, UI_PATHS, kind_of};

/// One random game of `battle` by the legal sets: each step a kind
/// chosen evenly among those offered, then one action of it; at most
/// `max` actions. Returns every kind offered.
fn offered_kinds(battle: &str, seed: u64, max: usize) -> BTreeSet<&'static str> {
    let mut t = T::battle(battle);
    let mut ch = muster_shared::dice::DiceStream::from_seed(&seed.to_le_bytes());
    let mut below = |n: usize| -> usize {
        if n <= 1 {
            0
        } else {
            usize::from(ch.roll(n.min(60000) as u16)) - 1
        }
    };
    let mut kinds = BTreeSet::new();
    let t0 = std::time::Instant::now();
    for k in 0..max {
        if t.s.over || t0.elapsed() > std::time::Duration::from_secs(150) {
            break;
        }
        let Some(seat) = t.rs.acting_seat(&t.s) else {
            break;
        };
        let legal = t.rs.legal_actions(&t.s, seat);
        if legal.is_empty() {
            break;
        }
        let mut by_kind: BTreeMap<&str, Vec<_>> = BTreeMap::new();
        for a in legal {
            kinds.insert(kind_of(&a));
            by_kind.entry(kind_of(&a)).or_default().push(a);
        }
        let groups: Vec<Vec<_>> = by_kind.into_values().collect();
        let g = &groups[below(groups.len())];
        let a = g[below(g.len())].clone();
        t.roll(seat, a, seed ^ (k as u64) << 8);
    }
    kinds
}

#[test]
fn every_action_kind_the_engine_offers_has_a_ui_path() {
    let mut offered: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (seed, files) in (7u64..).zip(for_players()) {
        for k in offered_kinds(files.name, seed, 2500) {
            offered.entry(k).or_default().insert(files.name);
        }
    }
    let named: BTreeMap<&str, &str> = UI_PATHS.iter().copied().collect();
    eprintln!("offered over random games: {offered:?}");
    let mut table =
        String::from("| kind | battles offering it | produced by clicks in |\n|---|---|---|\n");
    let mut missing = Vec::new();
    for (k, battles) in &offered {
        let by = match (named.get(k), BY_PROMPT_OR_ORDERS.contains(k)) {
            (Some(t), _) => (*t).to_string(),
            (None, true) => "a prompt or orders button (support::play, by its words)".into(),
            (None, false) => {
                missing.push(*k);
                "NONE".into()
            }
        };
        table.push_str(&format!(
            "| {k} | {} | {by} |\n",
            battles.iter().copied().collect::<Vec<_>>().join(", ")
        ));
    }
    eprintln!("{table}");
    assert!(missing.is_empty(), "kinds with no UI path: {missing:?}");
    assert!(offered.len() >= 15, "{offered:?}");
}
