//! GBACW 13.43, 17.74: "Leaders in a stack may choose to retreat with a
//! routed unit or remain with the unit beneath"; "Leaders never rout,
//! although they may retreat with units that do rout." At the test
//! battle's hot-seat table, by clicks only (`support::play`): the Union
//! stacks two units and a leader next to the enemy, the Confederates fire
//! on the stack in every fire phase, until the top unit routs with a
//! unit left beneath (the dice decide: at most `TABLES` fresh tables of
//! `TURNS` Game-Turns each). Then the leader's choice is shown in words
//! (the prompt, both answers as buttons), answered by a click, and the
//! engine's state checked. Screenshot `docs/screens/leader-rout.png`.

use egui_kittest::Harness;
use muster_client::app::gbacw::GbacwApp;
use muster_client::app::narrate::Narrate;
use muster_shared::SeatId;
use muster_shared::engine::Ruleset;
use muster_shared::gbacw::map::HexNumber;
use muster_shared::gbacw::oob::CounterId;
use muster_shared::gbacw::ruleset::{GbacwAction, GbacwConfig};
use muster_shared::gbacw::sequence::{Phase, PlayerTurn, Step};

use crate::support;

use support::kittest::{SIZE, gbacw_harness};
use support::play::{Clicker, assert_words_only, legal_now, rules, state, where_is};

const TABLES: usize = 6;
const TURNS: u16 = 4;

fn union(h: &Harness<'_, GbacwApp>, id: &CounterId) -> bool {
    let oob = &rules(h).game().oob;
    oob.units
        .get(id)
        .map(|u| u.side.0 == "union")
        .or_else(|| oob.leaders.get(id).map(|l| l.side.0 == "union"))
        .unwrap_or(false)
}

/// By clicks, in the Union's first Movement Phase: a unit closes on the
/// enemy, a second unit and a leader join it. Returns the stack's hex.
fn stack_up(c: &mut Clicker, h: &mut Harness<'_, GbacwApp>) -> Option<HexNumber> {
    let movement = Step::Phase {
        player: PlayerTurn::First,
        phase: Phase::Movement,
    };
    for _ in 0..10 {
        if state(h).clock.step == movement {
            break;
        }
        assert!(c.perform(h, &GbacwAction::EndPhase));
    }
    let (first, path, at, _) = support::gbacw::closing_move(h.state());
    let mv = GbacwAction::Move {
        pieces: vec![first.clone()],
        path,
    };
    if !c.perform(h, &mv) {
        return None;
    }
    if legal_now(h).contains(&GbacwAction::DeclineWithdrawalFire) {
        c.perform(h, &GbacwAction::DeclineWithdrawalFire);
    }
    // A second unit, then a leader, onto the same hex (dragged: a click
    // there would select the counter standing on it).
    let mut joined_unit = false;
    let mut joined_leader = false;
    let pieces: Vec<CounterId> = state(h)
        .units
        .keys()
        .chain(state(h).leaders.keys())
        .filter(|p| **p != first && union(h, p))
        .cloned()
        .collect();
    for p in pieces {
        let leader = state(h).leaders.contains_key(&p);
        if (leader && joined_leader) || (!leader && joined_unit) {
            continue;
        }
        let Some(path) = rules(h).reachable(state(h), &p).and_then(|r| r.path_to(at)) else {
            continue;
        };
        let mv = GbacwAction::Move {
            pieces: vec![p.clone()],
            path: path[1..].to_vec(),
        };
        if !legal_now(h).contains(&mv) && !leader {
            continue;
        }
        if c.perform(h, &mv) {
            if legal_now(h).contains(&GbacwAction::DeclineWithdrawalFire) {
                c.perform(h, &GbacwAction::DeclineWithdrawalFire);
            }
            if where_is(h, &p) == Some(at) {
                if leader {
                    joined_leader = true;
                } else {
                    joined_unit = true;
                }
            }
        }
        if joined_leader && joined_unit {
            return Some(at);
        }
    }
    None
}

/// Whether the leader's choice (13.43) waits now.
fn leader_choice(h: &Harness<'_, GbacwApp>) -> bool {
    !state(h).leader_routs.is_empty()
}

/// Play on by clicks until the leader's choice waits: the Confederates
/// fire at `at` whenever they can, every other decision is answered with
/// its first answer, every phase ended. Bounded.
fn fire_until_a_rout(c: &mut Clicker, h: &mut Harness<'_, GbacwApp>, at: HexNumber) -> bool {
    for _ in 0..400 {
        if leader_choice(h) {
            return true;
        }
        if state(h).clock.turn > TURNS || state(h).over {
            return false;
        }
        let legal = legal_now(h);
        let seat = rules(h).acting_seat(state(h));
        let pending = !rules(h).pending(state(h)).is_empty() || state(h).decision.is_some();
        let fire = legal.iter().find(|a| {
            matches!(a, GbacwAction::DeclareFire { target, .. } if *target == at)
                && seat == Some(SeatId(1))
        });
        let choice = if pending {
            legal
                .iter()
                // 8.41's re-stacking offer would loop on "put on top":
                // keep the order (its default) like any other offer.
                .find(|a| !matches!(a, GbacwAction::EndPhase | GbacwAction::PutOnTop { .. }))
                .cloned()
        } else {
            fire.cloned()
        }
        .unwrap_or(GbacwAction::EndPhase);
        if !c.perform(h, &choice) && matches!(choice, GbacwAction::EndPhase) {
            // 17.52: lone leaders join a unit first.
            let Some(seat) = seat else { return false };
            let joins = support::gbacw::leaders_to_join(h.state(), seat);
            if joins.is_empty() {
                return false;
            }
            for m in joins {
                c.perform(h, &m);
            }
        }
    }
    leader_choice(h)
}

#[test]
fn case_13_43_17_74_the_leader_goes_with_the_routed_unit_by_a_click() {
    for attempt in 1..=TABLES {
        let mut h = gbacw_harness(&GbacwConfig::default(), SIZE, true);
        let mut c = Clicker::default();
        let Some(at) = stack_up(&mut c, &mut h) else {
            eprintln!("table {attempt}: no stack formed");
            continue;
        };
        if !fire_until_a_rout(&mut c, &mut h, at) {
            eprintln!("table {attempt}: no leader's choice in {TURNS} Game-Turns");
            continue;
        }
        let offer = state(&h).leader_routs[0].clone();
        let r = rules(&h);
        let (leader, unit) = (
            support::play::name(&h, &offer.leader),
            support::play::name(&h, &offer.unit),
        );
        eprintln!(
            "table {attempt}: {leader} may go with {unit} ({} clicks)",
            c.clicks
        );
        // The prompt in words, both answers as buttons in words.
        let go = GbacwAction::LeaderRout {
            leader: offer.leader.clone(),
            go: true,
        };
        let stay = GbacwAction::LeaderRout {
            leader: offer.leader.clone(),
            go: false,
        };
        let (go_words, stay_words) = (r.describe_action(&go), r.describe_action(&stay));
        assert_eq!(
            go_words,
            format!("{leader} goes with the routed unit (13.43)")
        );
        assert_eq!(
            stay_words,
            format!("{leader} stays with the units beneath (13.43)")
        );
        use egui_kittest::kittest::{By, Queryable};
        let prompt = format!(
            "{unit} routed from {}: {leader} goes with it or stays with the units beneath",
            offer.hex
        );
        // In the side panel's decision and in the banner.
        assert!(
            h.query_all(By::new().label_contains(&prompt)).count() >= 1,
            "the prompt {prompt:?} on screen"
        );
        h.get_by_label(&stay_words);
        assert_words_only(&h, "the leader's choice");
        h.state_mut().map.centre_on(offer.hex);
        support::kittest::settle(&mut h);
        let image = h.render().expect("headless wgpu renders");
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/screens");
        image.save(dir.join("leader-rout.png")).unwrap();
        eprintln!("screenshot: docs/screens/leader-rout.png");
        // Go with the unit when the engine offers it, else stay: a click.
        let legal = legal_now(&h);
        let answer = if legal.contains(&go) { go } else { stay };
        assert!(c.perform(&mut h, &answer), "{:?}", c.last_miss);
        assert!(
            state(&h)
                .leader_routs
                .iter()
                .all(|o| o.leader != offer.leader),
            "answered"
        );
        if matches!(answer, GbacwAction::LeaderRout { go: false, .. }) {
            assert_eq!(where_is(&h, &offer.leader), Some(offer.hex), "he stays");
        }
        return;
    }
    panic!("no leader's choice came up in {TABLES} tables of {TURNS} Game-Turns");
}
