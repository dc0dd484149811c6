//! Issue 7's must-show for GBACW over the network: a real server in this
//! process (SQLite in a temporary directory, loopback sockets); the Union
//! player creates a GBACW table over WebSocket, the Confederate player joins
//! over QUIC, a spectator watches over WebSocket, each in their own
//! `GbacwApp`. The Union closes on the enemy, declares a fire order by
//! clicking it in the Orders panel (9.42), and ends the phase: the dice are
//! rolled by the commit-reveal chains, and both players and the spectator
//! receive the roll, verify it, and see the same result.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use muster_client::app::NetTable;
use muster_client::app::dice;
use muster_client::app::gbacw::{GbacwApp, orders};
use muster_client::app::narrate::Narrate;
use muster_shared::engine::Ruleset;
use muster_shared::gbacw::facing::Facing;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwAction, GbacwConfig};
use muster_shared::gbacw::sequence::{Phase, PlayerTurn, Step};
use muster_shared::{SeatId, Viewer};
use std::time::{Duration, Instant};
use support::TestServer;

use crate::support;

const UNION: usize = 0;
const REBEL: usize = 1;
const SPECTATOR: usize = 2;

fn app(table: NetTable<Gbacw>) -> Harness<'static, GbacwApp> {
    support::kittest::net_gbacw(table, support::kittest::SIZE)
}

/// The last sequence number this client has folded in.
fn seq(h: &Harness<'_, GbacwApp>) -> u64 {
    h.state().session.book().map_or(0, |b| b.follower.seq())
}

/// Step every client until each has the table and they all stand at the
/// same sequence number, `at_least` or later; bounded.
fn settle(apps: &mut [Harness<'static, GbacwApp>], at_least: u64) {
    let end = Instant::now() + Duration::from_secs(30);
    loop {
        for h in apps.iter_mut() {
            h.step();
        }
        let seqs: Vec<u64> = apps.iter().map(seq).collect();
        if seqs[0] >= at_least && seqs.iter().all(|s| *s == seqs[0]) {
            for h in apps.iter_mut() {
                h.step();
            }
            return;
        }
        assert!(
            Instant::now() < end,
            "the clients never agreed: sequence numbers {seqs:?}, refusals {:?}",
            apps.iter()
                .map(|h| h.state().session.last_refusal.clone())
                .collect::<Vec<_>>()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// `apps[who]` acts; everyone is then brought to the same, later, state.
fn act(apps: &mut [Harness<'static, GbacwApp>], who: usize, action: GbacwAction) {
    let before = seq(&apps[who]);
    apps[who].state_mut().session.act(action.clone());
    settle(apps, before + 1);
    assert_eq!(
        apps[who].state().session.last_refusal,
        None,
        "{action:?} was refused"
    );
}

fn step_now(h: &Harness<'_, GbacwApp>) -> (u16, Step) {
    let s = h.state().session.state().unwrap();
    (s.clock.turn, s.clock.step)
}

/// End phases, each seat for itself from its own client, until the clock
/// reaches `want` on Game-Turn 1; bounded.
fn advance_to(apps: &mut [Harness<'static, GbacwApp>], want: Step) {
    for _ in 0..60 {
        if step_now(&apps[UNION]) == (1, want) {
            return;
        }
        let (seat, lone_leaders) = {
            let app = apps[UNION].state();
            let rules = app.session.ruleset().unwrap();
            let state = app.session.state().unwrap();
            let seat = rules.acting_seat(state).expect("someone acts");
            (seat, leaders_to_join(app, seat))
        };
        let who = if seat == SeatId(0) { UNION } else { REBEL };
        for m in lone_leaders {
            act(apps, who, m);
        }
        act(apps, who, GbacwAction::EndPhase);
    }
    panic!("never reached {want:?}: at {:?}", step_now(&apps[UNION]));
}

/// GBACW 17.52, in the Movement Phase only: `seat`'s lone leaders join
/// friendly units (support::gbacw).
fn leaders_to_join(app: &GbacwApp, seat: SeatId) -> Vec<GbacwAction> {
    let in_movement = app.session.state().is_some_and(|s| {
        matches!(
            s.clock.step,
            Step::Phase {
                phase: Phase::Movement,
                ..
            }
        )
    });
    if in_movement {
        support::gbacw::leaders_to_join(app, seat)
    } else {
        Vec::new()
    }
}

#[test]
fn a_fire_order_over_the_network_is_rolled_verified_and_seen_by_the_spectator() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    // Kept whole: its temporary data directory lives as long as it does.
    let test_server: TestServer = support::start_server(&rt);
    let [union, rebel, watcher] = support::gbacw::three_clients(
        &test_server,
        &GbacwConfig::default(),
        ["Banks", "Jackson", "Watcher"],
    );
    let mut apps = vec![app(union), app(rebel), app(watcher)];
    settle(&mut apps, 1);
    assert_eq!(apps[SPECTATOR].state().session.active(), Viewer::Spectator);

    advance_to(
        &mut apps,
        Step::Phase {
            player: PlayerTurn::First,
            phase: Phase::Movement,
        },
    );
    // A Union unit in line that can reach an empty hex next to an enemy.
    let (unit, path, at, enemy) = support::gbacw::closing_move(apps[UNION].state());
    act(
        &mut apps,
        UNION,
        GbacwAction::Move {
            pieces: vec![unit.clone()],
            path,
        },
    );
    // Withdrawal fire offered on the way: the Confederate declines it from
    // his own client.
    if apps[REBEL]
        .state()
        .session
        .state()
        .unwrap()
        .decision
        .is_some()
    {
        act(&mut apps, REBEL, GbacwAction::DeclineWithdrawalFire);
    }
    let facing = {
        let rules = apps[UNION].state().session.ruleset().unwrap();
        Facing::new(rules.game().map.grid.direction(at, enemy).unwrap())
    };
    let faces = apps[UNION].state().session.state().unwrap().units[&unit].facing;
    if faces != facing {
        act(
            &mut apps,
            UNION,
            GbacwAction::Face {
                unit: unit.clone(),
                facing,
            },
        );
    }
    advance_to(
        &mut apps,
        Step::Phase {
            player: PlayerTurn::First,
            phase: Phase::OffensiveFire,
        },
    );

    // The order, clicked in the Union's Orders panel.
    apps[UNION].state_mut().map.select(vec![unit.clone()]);
    apps[UNION].run_steps(8);
    let label = {
        let app = apps[UNION].state();
        let rules = app.session.ruleset().unwrap();
        let state = app.session.state().unwrap();
        let fire = rules
            .legal_actions(state, SeatId(0))
            .into_iter()
            .find(|a| {
                matches!(a, GbacwAction::DeclareFire { target, firers }
                    if *target == enemy && firers.iter().any(|f| f.unit == unit))
            })
            .expect("the engine offers the fire");
        rules.describe_action(&fire)
    };
    let before = seq(&apps[UNION]);
    apps[UNION].get_by_label(&label).click();
    apps[UNION].step();
    settle(&mut apps, before + 1);
    apps[UNION].get_by_label(orders::DECLARED);
    for h in &apps {
        assert_eq!(
            h.state().session.state().unwrap().fire_plan.len(),
            1,
            "every client sees the declared attack"
        );
    }
    let rolls_before: Vec<usize> = apps
        .iter()
        .map(|h| h.state().session.book().unwrap().rolls.len())
        .collect();

    // 9.42: the phase ends and the attack is rolled.
    act(&mut apps, UNION, GbacwAction::EndPhase);
    let states: Vec<_> = apps
        .iter()
        .map(|h| h.state().session.state().unwrap().clone())
        .collect();
    for (who, s) in states.iter().enumerate() {
        assert!(s.fire_plan.is_empty(), "client {who}: rolled at phase end");
        assert_eq!(
            s.clock.step,
            Step::Phase {
                player: PlayerTurn::First,
                phase: Phase::RetreatBeforeMelee
            }
        );
    }
    // Every client received the roll and verified it against the chains.
    let mut dice = Vec::new();
    for (who, h) in apps.iter().enumerate() {
        let book = h.state().session.book().unwrap();
        let new = &book.rolls[rolls_before[who]..];
        assert!(!new.is_empty(), "client {who} received the fire roll");
        assert!(
            new.iter().all(|r| r.verdict.is_ok()),
            "client {who}: {new:?}"
        );
        assert_eq!(h.state().session.bad_roll_count(), 0);
        dice.push(new.iter().map(|r| r.dice.clone()).collect::<Vec<_>>());
    }
    assert_eq!(dice[UNION], dice[REBEL], "both players saw the same dice");
    assert_eq!(dice[UNION], dice[SPECTATOR], "the spectator saw them too");
    // And the spectator's dice panel shows them with the verified tick.
    apps[SPECTATOR].run_steps(4);
    assert!(
        apps[SPECTATOR]
            .get_all_by_label(dice::VERIFIED_TEXT)
            .next()
            .is_some(),
        "the spectator's dice panel shows a verified roll"
    );
    // The target's strength and status as the spectator sees them are the
    // players' (nothing about units is hidden in GBACW).
    let target_units = |s: &muster_shared::gbacw::ruleset::GbacwState| {
        s.units
            .iter()
            .filter(|(_, u)| u.hex == Some(enemy))
            .map(|(id, u)| (id.clone(), u.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        target_units(&states[SPECTATOR]),
        target_units(&states[UNION])
    );
    assert_eq!(target_units(&states[REBEL]), target_units(&states[UNION]));

    drop(apps);
    rt.block_on(test_server.server.shutdown());
}
