//! A new player's look at the table (issue 18): Cedar Mountain at a
//! hot-seat table, played by clicks (`support::bot`), a screenshot to
//! `$MUSTER_LOOK_DIR` (default `/tmp/muster-look`) whenever something new
//! is on screen: the set-up, each phase the first time, each kind of
//! decision, a fire declared, a melee; then Corinth's set-up. Run by hand
//! to look at the screens (`--ignored`); nothing here is asserted beyond
//! the programmer-text check.

use egui_kittest::Harness;
use muster_client::app::gbacw::GbacwApp;
use muster_client::app::narrate::Narrate;
use muster_shared::engine::Ruleset;
use muster_shared::gbacw::ruleset::GbacwConfig;
use std::collections::BTreeSet;

use crate::support;

use support::bot::Bot;
use support::kittest::{SIZE, gbacw_harness};
use support::play::{assert_words_only, legal_now, rules, state};

fn dir() -> std::path::PathBuf {
    let d = std::env::var_os("MUSTER_LOOK_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| "/tmp/muster-look".into());
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn shot(h: &mut Harness<'_, GbacwApp>, n: &mut usize, what: &str) {
    *n += 1;
    let name: String = what
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .take(60)
        .collect();
    let path = dir().join(format!("{:03}-{name}.png", *n));
    h.render().expect("renders").save(&path).unwrap();
    eprintln!("SHOT {}: {what}", path.display());
}

/// What is new on screen, as a key: the phase, the decision's rule, a
/// declared fire or melee.
fn key(h: &Harness<'_, GbacwApp>) -> String {
    let (r, s) = (rules(h), state(h));
    let pending: Vec<String> = r.pending(s).into_iter().map(|p| p.rule).collect();
    let step = format!(
        "{:?}-{}",
        r.acting_seat(s),
        r.game().sequence.step_name(s.clock.step)
    );
    format!(
        "{step}|{}|fire:{}|melee:{}",
        pending.join(","),
        !s.fire_plan.is_empty(),
        !s.melees.is_empty()
    )
}

fn table(battle: &str) -> Harness<'static, GbacwApp> {
    let config = GbacwConfig {
        battle: battle.into(),
        ..GbacwConfig::default()
    };
    gbacw_harness(&config, SIZE, true)
}

#[test]
#[ignore = "writes screenshots to look at; run by hand"]
fn a_new_player_looks_at_cedar_mountain() {
    let mut h = table("cedar_mountain");
    let mut n = 0;
    let mut bot = Bot::default();
    let mut seen = BTreeSet::new();
    shot(&mut h, &mut n, "opened");
    for i in 0..900 {
        let k = key(&h);
        if seen.insert(k.clone()) && n < 70 {
            shot(&mut h, &mut n, &k);
        }
        if state(&h).clock.turn > 3 {
            break;
        }
        let legal = legal_now(&h);
        let before = bot.c.produced.clone();
        if !bot.step(&mut h) {
            break;
        }
        // The first of each kind the player produced, just after.
        for (kind, _) in bot.c.produced.iter() {
            if !before.contains_key(kind) && n < 70 {
                shot(&mut h, &mut n, &format!("after-{kind}"));
            }
        }
        if i % 20 == 0 {
            assert_words_only(&h, "playing");
        }
        let _ = legal;
    }
    eprintln!("misses: {:?}", bot.misses);
    eprintln!("produced: {:?}", bot.c.produced);
}

#[test]
#[ignore = "writes screenshots to look at; run by hand"]
fn a_new_player_looks_at_corinths_set_up() {
    for battle in ["corinth", "corinth_free"] {
        let mut h = table(battle);
        let mut n = 100;
        shot(&mut h, &mut n, &format!("{battle}-opened"));
        let legal = legal_now(&h);
        eprintln!(
            "{battle}: {} legal; first {:?}",
            legal.len(),
            legal.first().map(|a| rules(&h).describe_action(a))
        );
        let mut bot = Bot::default();
        for _ in 0..4 {
            bot.step(&mut h);
            shot(&mut h, &mut n, &format!("{battle}-set-up-step"));
        }
        assert_words_only(&h, battle);
    }
}
