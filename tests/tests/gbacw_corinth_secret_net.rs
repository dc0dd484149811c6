//! Corinth 29.2's secret assault plan over a real server: a server on
//! loopback with its data in a temporary directory, a `corinth_free` table,
//! the Confederate seat over WebSocket, the Union seat over QUIC and a
//! spectator over WebSocket, each a real client connection following the
//! table with the client library's [`Follower`] and keeping every byte it
//! received. The Confederate plots with a salt; until the divisions arrive
//! neither the plan's encoding nor the salt nor an unannounced division's
//! entry is in any frame the Union seat or the spectator received. Then
//! the game is played (over the same sockets) until the last division
//! arrives and the plan opens, and the Union client recomputes the blake3
//! commitment from what it received.

use muster_shared::codec;
use muster_shared::engine::Ruleset;
use muster_shared::gbacw::facing::Facing;
use muster_shared::gbacw::map::HexNumber;
use muster_shared::gbacw::ruleset::plan::AssaultPlan;
use muster_shared::gbacw::ruleset::{GbacwAction, GbacwConfig, GbacwEvent};
use muster_shared::gbacw::testkit::corinth::{assault_plan, division as div};
use muster_shared::gbacw::testkit::id;
use muster_shared::protocol::{ClientMsg, ServerMsg, TableOptions};
use muster_shared::{SeatId, Viewer};
use muster_tests::e2e::{Target, start_server};
use muster_tests::gbacw_client::GbacwClient;

const UNION: SeatId = SeatId(0);
const REBEL: SeatId = SeatId(1);

/// Hebert through C (announced, 29.23) and Maury through D on Game-Turn 1,
/// Lovell through F on Game-Turn 3 (29.22: F from Game-Turn 3); the cavalry
/// waits with Lovell (29.27).
fn the_plan() -> AssaultPlan {
    let divisions = vec![
        div("hebert", "assault-c", 1),
        div("maury", "assault-d", 1),
        div("lovell", "assault-f", 3),
    ];
    assault_plan(divisions, "maury", "assault-f")
}

/// A salt no frame holds by chance.
const SALT: [u8; 32] = *b"corinth-29.2-salt-for-the-socket";

/// Everything secret in the plan, as bytes that could travel: the plan's
/// encoding (as sent and as committed, divisions sorted), the salt, and
/// each division's entry but the announced one's.
fn secrets(plan: &AssaultPlan) -> Vec<(String, Vec<u8>)> {
    let mut sorted = plan.clone();
    sorted.divisions.sort();
    let mut out = vec![
        ("the plan".to_string(), codec::encode_infallible(plan)),
        (
            "the sorted plan".to_string(),
            codec::encode_infallible(&sorted),
        ),
        ("the salt".to_string(), SALT.to_vec()),
    ];
    for d in &plan.divisions[1..] {
        out.push((
            format!("{}'s entry", d.division.0),
            codec::encode_infallible(d),
        ));
    }
    out
}

/// The Confederate's actions until `pieces` are all on the map: end phases
/// (either seat, whoever acts) until the Confederate Movement Phase of
/// `turn`, then bring each piece in at its hex.
async fn play_to_arrival(
    rebel: &mut GbacwClient,
    union: &mut GbacwClient,
    turn: u16,
    arrivals: &[(&str, &str)],
) -> u64 {
    use muster_shared::gbacw::sequence::{Phase, Step};
    let mut seq = 0;
    for _ in 0..400 {
        let f = rebel.follower();
        let (rs, s) = (f.ruleset(), f.state());
        let phasing = rs.phasing_side(s.clock).map(|side| rs.seat_of(side));
        if s.clock.turn == turn
            && matches!(
                s.clock.step,
                Step::Phase {
                    phase: Phase::Movement,
                    ..
                }
            )
            && phasing == Some(REBEL)
        {
            break;
        }
        let actor = rs.acting_seat(s).expect("someone acts");
        let by = if actor == REBEL {
            &mut *rebel
        } else {
            &mut *union
        };
        seq = by
            .act(&GbacwAction::EndPhase)
            .await
            .unwrap_or_else(|e| panic!("{}: EndPhase refused: {e}", by.name));
        rebel.sync_to(seq).await;
        union.sync_to(seq).await;
    }
    for (piece, hex) in arrivals {
        seq = rebel
            .act(&GbacwAction::Arrive {
                piece: id(piece),
                hex: HexNumber::parse(hex).expect("a hex"),
                facing: Facing::from_index(3).expect("a facing"),
            })
            .await
            .unwrap_or_else(|e| panic!("{piece} at {hex} refused: {e}"));
    }
    union.sync_to(seq).await;
    seq
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn corinth_29_2_the_secret_plan_does_not_reach_the_union_seat_or_a_spectator_over_real_sockets()
 {
    let (server, _dir) = start_server(|_| {}).await;
    let target = Target::of(&server);
    let mut rebel = GbacwClient::connect(&target, false, "van dorn").await;
    let mut union = GbacwClient::connect(&target, true, "rosecrans").await;
    let mut watcher = GbacwClient::connect(&target, false, "watcher").await;
    let config = GbacwConfig {
        battle: "corinth_free".into(),
        ..GbacwConfig::default()
    };
    let (table, invite) = rebel
        .create_table(TableOptions {
            ruleset: "gbacw".into(),
            scenario: "Corinth, free set-up".into(),
            config: codec::encode_infallible(&config),
            private: false,
            spectators_allowed: true,
            spectator_delay: 0,
            take_back_needs_agreement: true,
        })
        .await;
    rebel.sit(table, REBEL, invite.clone()).await;
    union.sit(table, UNION, invite.clone()).await;
    watcher.spectate(table, invite).await;

    // 29.2: the Confederate plots first, with a salt.
    let plan = the_plan();
    let seq = rebel
        .act(&GbacwAction::PlotAssault {
            plan: plan.clone(),
            salt: SALT,
            announce: id("hebert"),
        })
        .await
        .expect("the plan keeps 29.21-29.27");
    union.sync_to(seq).await;
    watcher.sync_to(seq).await;
    let commitment = {
        let Some(GbacwEvent::AssaultPlotted {
            commitment,
            plan: None,
            salt: None,
            announced,
        }) = union.events.last()
        else {
            panic!("the Union seat's event: {:?}", union.events.last())
        };
        // 29.23: the announced division is public.
        assert_eq!(*announced, div("hebert", "assault-c", 1));
        *commitment
    };
    let secret = secrets(&plan);
    let nothing_seen = |who: &GbacwClient, when: &str| {
        for (what, bytes) in &secret {
            assert!(
                !who.saw(bytes),
                "{}'s received bytes hold {what} {when}",
                who.name
            );
        }
    };
    // The Confederate's own client did receive them (the check can see).
    assert!(rebel.saw(&SALT), "the plotting seat receives its own salt");

    // 29.0 step 3: the Union sets up (the default deployment), then
    // Game-Turn 1: Hebert arrives through C. Still nothing secret sent.
    let seq = union
        .act(&GbacwAction::EndSetUp)
        .await
        .expect("the Union set-up ends");
    rebel.sync_to(seq).await;
    watcher.sync_to(seq).await;
    nothing_seen(&union, "before any division arrives");
    nothing_seen(&watcher, "before any division arrives");

    let seq = play_to_arrival(&mut rebel, &mut union, 1, &[("16-ark", "1201")]).await;
    watcher.sync_to(seq).await;
    assert!(
        union
            .events
            .contains(&GbacwEvent::DivisionRevealed(div("hebert", "assault-c", 1)))
    );
    nothing_seen(&union, "after only the announced division arrived");
    nothing_seen(&watcher, "after only the announced division arrived");

    // Maury through D: his entry is public now, the rest still not.
    let seq = play_to_arrival(&mut rebel, &mut union, 1, &[("42-ala", "0103")]).await;
    watcher.sync_to(seq).await;
    for who in [&union, &watcher] {
        assert!(who.saw(&codec::encode_infallible(&plan.divisions[1])));
        assert!(
            !who.saw(&SALT),
            "{}: the salt before the plan opens",
            who.name
        );
        assert!(!who.saw(&codec::encode_infallible(&plan.divisions[2])));
        let seen = who.follower().state().progress.assault.as_ref().unwrap();
        assert!(seen.plan.is_none() && seen.salt.is_none() && !seen.opened);
    }

    // Game-Turn 3: Lovell through F, the last division: the plan opens.
    let seq = play_to_arrival(&mut rebel, &mut union, 3, &[("6-miss", "0140")]).await;
    watcher.sync_to(seq).await;
    let (opened, salt) = union
        .events
        .iter()
        .find_map(|e| match e {
            GbacwEvent::PlanOpened { plan, salt } => Some((plan.clone(), *salt)),
            _ => None,
        })
        .expect("the Union seat receives the opened plan");
    // Recompute the commitment from the received plan and salt alone.
    let mut h = blake3::Hasher::new();
    h.update(&codec::encode_infallible(&opened));
    h.update(&salt);
    assert_eq!(
        *h.finalize().as_bytes(),
        commitment,
        "the commitment verifies"
    );
    assert_eq!(salt, SALT);
    assert!(union.saw(&SALT) && watcher.saw(&SALT));
    let mut sorted = plan.clone();
    sorted.divisions.sort();
    assert_eq!(opened, sorted);
    for who in [&union, &watcher] {
        let seen = who.follower().state().progress.assault.as_ref().unwrap();
        assert!(seen.opened);
        assert_eq!(seen.plan.as_ref(), Some(&sorted), "{}", who.name);
        // Every roll each client received verified against the chains.
        assert!(who.follower().bad_rolls().is_empty(), "{}", who.name);
    }
    // The spectator's state equals the public view of the Confederate's.
    let rf = rebel.follower();
    assert_eq!(
        rf.ruleset().view(rf.state(), Viewer::Spectator).progress,
        watcher.follower().state().progress
    );
    drop(server);
}

/// Corinth 29.5 over the real server: the `corinth_solo` battle is offered
/// by the server's GBACW ruleset; the solitaire player holds both seats
/// with two sign-ins (the server binds one identity to one seat: a second
/// `JoinSeat` by the same user returns the seat he has); the first
/// `SolitaireRoll` is a commit-reveal roll every follower verifies.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn corinth_29_51_the_solitaire_battle_is_played_over_the_server_with_both_seats() {
    let (server, _dir) = start_server(|_| {}).await;
    let target = Target::of(&server);
    let mut rebel = GbacwClient::connect(&target, false, "solo (confederate)").await;
    let mut union = GbacwClient::connect(&target, true, "solo (union)").await;
    let config = GbacwConfig {
        battle: "corinth_solo".into(),
        ..GbacwConfig::default()
    };
    let (table, invite) = rebel
        .create_table(TableOptions {
            ruleset: "gbacw".into(),
            scenario: "Corinth, solitaire".into(),
            config: codec::encode_infallible(&config),
            private: true,
            spectators_allowed: false,
            spectator_delay: 0,
            take_back_needs_agreement: true,
        })
        .await;
    rebel.sit(table, REBEL, invite.clone()).await;
    // The same identity asking for the other seat keeps its own.
    rebel
        .send(ClientMsg::JoinSeat {
            table,
            seat: Some(UNION),
            invite: invite.clone(),
        })
        .await;
    rebel.until(|m| matches!(m, ServerMsg::Snapshot(_))).await;
    assert_eq!(rebel.seat, Some(REBEL));
    union.sit(table, UNION, invite).await;
    // 29.51: the roll, not a plot.
    assert!(
        rebel
            .act(&GbacwAction::PlotAssault {
                plan: the_plan(),
                salt: SALT,
                announce: id("hebert"),
            })
            .await
            .is_err()
    );
    let seq = rebel
        .act(&GbacwAction::SolitaireRoll)
        .await
        .expect("the solitaire roll");
    union.sync_to(seq).await;
    let Some(GbacwEvent::SolitaireStarted { plan, dice }) = union
        .events
        .iter()
        .find(|e| matches!(e, GbacwEvent::SolitaireStarted { .. }))
    else {
        panic!("{:?}", union.events)
    };
    assert_eq!(dice.len(), 7);
    assert_eq!(plan.divisions.len(), 1);
    for who in [&rebel, &union] {
        assert!(who.follower().verified_rolls() > 0, "{}", who.name);
        assert!(who.follower().bad_rolls().is_empty(), "{}", who.name);
    }
    // 29.52: the Union sets up next.
    union
        .act(&GbacwAction::EndSetUp)
        .await
        .expect("the Union sets up");
    drop(server);
}
