//! Issue 21: the director's desk over a real server on loopback, with
//! scripted clients: the next round paired, re-paired by hand and started
//! as re-paired; a table paused (its player's move refused in words, the
//! players told) and restarted; the whole round paused; time added to a
//! side; a reserve put in a seat (the old holder loses it, the reserve
//! sits); every one of these refused in words to a player who does not
//! direct the event, and each written to the directors' log; a paused
//! table still paused after a server restart. Then a Cedar
//! Mountain table's status card (Game-Turn and phase in words, the side
//! awaited, its clock) and "your games"; a paused table's clock standing
//! still, also across a restart.

use muster_shared::SeatId;
use muster_shared::codec;
use muster_shared::gbacw::ruleset::GbacwConfig;
use muster_shared::protocol::club::{
    AtZero, ClubError, ClubId, ClubReply, ClubRequest, EventId, EventSettings, EventView,
    PairingMethod, PointsTable, SideAssignment, TableCard, TimeControl,
};
use muster_shared::protocol::{ClientMsg, ServerMsg, TableId, UserId};
use muster_shared::sandbox::{Loc, Position, SandboxAction};
use muster_tests::e2e::{Client, Target, sandbox_table, start_server, start_server_in};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(30);

/// News the server sends unasked (a director's action answers with a
/// `Notice` too, so a notice is the answer to `ask`).
fn is_news(r: &ClubReply) -> bool {
    matches!(
        r,
        ClubReply::YourTable { .. } | ClubReply::Bye { .. } | ClubReply::Result { .. }
    )
}

/// Send a club request; its answer (news arriving meanwhile is skipped).
async fn ask(c: &mut Client, req: ClubRequest) -> ClubReply {
    c.send(ClientMsg::Club(req)).await;
    match c
        .until(WAIT, |m| matches!(m, ServerMsg::Club(r) if !is_news(r)))
        .await
    {
        ServerMsg::Club(r) => r,
        _ => unreachable!(),
    }
}

/// The next club news matching `pick`.
async fn news(c: &mut Client, pick: impl Fn(&ClubReply) -> bool) -> ClubReply {
    match c
        .until(WAIT, |m| matches!(m, ServerMsg::Club(r) if pick(r)))
        .await
    {
        ServerMsg::Club(r) => r,
        _ => unreachable!(),
    }
}

fn refused(r: ClubReply) -> (ClubError, String) {
    match r {
        ClubReply::Refused { error, message } => (error, message),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

async fn watch(c: &mut Client, event: EventId) -> EventView {
    match ask(c, ClubRequest::Watch { event }).await {
        ClubReply::EventView(v) => *v,
        other => panic!("{other:?}"),
    }
}

async fn director(t: &Target) -> (Client, ClubId) {
    let mut d = Client::connect(t, false, "Dora").await;
    let r = ask(
        &mut d,
        ClubRequest::ClaimAccount {
            password: "tournament director".into(),
        },
    )
    .await;
    assert!(matches!(r, ClubReply::AccountClaimed { .. }), "{r:?}");
    let ClubReply::ClubCreated { club, .. } = ask(
        &mut d,
        ClubRequest::CreateClub {
            name: "Culpeper Wargamers".into(),
        },
    )
    .await
    else {
        panic!("no club")
    };
    (d, club)
}

fn sandbox_event() -> EventSettings {
    let t = sandbox_table(false, 0);
    EventSettings {
        name: "Desk night".into(),
        ruleset: t.ruleset,
        scenario: t.scenario,
        config: t.config,
        rounds: 2,
        pairing: PairingMethod::Swiss,
        sides: SideAssignment::Balanced,
        invite_only: false,
        check_in: true,
        time: Some(TimeControl {
            bank_secs: 600,
            increment_secs: 0,
            per_decision_secs: 0,
            at_zero: AtZero::Loss,
        }),
        points: PointsTable::default(),
        seed: 4,
        round_scenarios: Vec::new(),
    }
}

fn users(c: &TableCard) -> [Option<UserId>; 2] {
    c.players.clone().map(|s| s.map(|(u, _)| u))
}

fn place(label: &str) -> SandboxAction {
    SandboxAction::Place {
        at: Position {
            board: 0,
            loc: Loc::Hex { col: 3, row: 3 },
        },
        label: label.into(),
        owner: None,
        face_up: true,
        hidden: false,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn directors_pause_add_time_replace_and_re_pair_others_are_refused_and_all_is_logged() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server_in(dir.path(), |c| c.limits.conns_per_addr = 64).await;
    let t = Target::of(&server);
    let (mut d, club) = director(&t).await;
    let event = match ask(
        &mut d,
        ClubRequest::CreateEvent {
            club,
            settings: sandbox_event(),
        },
    )
    .await
    {
        ClubReply::EventCreated { event, .. } => event,
        other => panic!("{other:?}"),
    };
    let mut players = Vec::new();
    for n in ["Banks", "Crawford", "Geary", "Jackson"] {
        let mut p = Client::connect(&t, false, n).await;
        let r = ask(
            &mut p,
            ClubRequest::Register {
                event,
                invite: None,
            },
        )
        .await;
        assert_eq!(r, ClubReply::Registered { event });
        let r = ask(&mut p, ClubRequest::CheckIn { event }).await;
        assert_eq!(r, ClubReply::CheckedIn { event });
        players.push(p);
    }
    // A reserve registers and does not check in; a stranger only watches.
    let mut rex = Client::connect(&t, false, "Rex").await;
    ask(
        &mut rex,
        ClubRequest::Register {
            event,
            invite: None,
        },
    )
    .await;
    let rex_user = watch(&mut rex, event)
        .await
        .entrants
        .iter()
        .find(|(_, n)| n == "Rex")
        .unwrap()
        .0;
    let mut mal = Client::connect(&t, false, "Mallory").await;

    // Pair round 1 without starting it; re-pair it by hand.
    let ClubReply::Proposed {
        round: 1, pairings, ..
    } = ask(&mut d, ClubRequest::PairRound { event }).await
    else {
        panic!("no proposal")
    };
    assert_eq!(pairings.len(), 2);
    let ids: Vec<UserId> = pairings
        .iter()
        .flat_map(|p| p.players.iter().flatten().map(|(u, _)| *u))
        .collect();
    // Swap the first game's second player with the second game's first.
    let hand = vec![[Some(ids[0]), Some(ids[2])], [Some(ids[1]), Some(ids[3])]];
    let r = ask(
        &mut d,
        ClubRequest::RePair {
            event,
            games: hand.clone(),
        },
    )
    .await;
    assert!(matches!(r, ClubReply::Proposed { .. }), "{r:?}");
    let (e, words) = refused(
        ask(
            &mut d,
            ClubRequest::RePair {
                event,
                games: vec![[Some(ids[0]), Some(ids[2])], [Some(ids[0]), Some(ids[3])]],
            },
        )
        .await,
    );
    assert_eq!(e, ClubError::BadRequest);
    assert!(words.contains("each exactly once"), "{words}");
    // A stranger sees the event but not the proposal, and may do nothing.
    let v = watch(&mut mal, event).await;
    assert!(!v.director && v.proposed.is_none());
    assert!(watch(&mut d, event).await.proposed.is_some());
    let table_x = TableId(1);
    for req in [
        ClubRequest::PairRound { event },
        ClubRequest::RePair {
            event,
            games: hand.clone(),
        },
        ClubRequest::StartRound { event },
        ClubRequest::PauseRound { event, on: true },
        ClubRequest::PauseTable {
            event,
            table: table_x,
            on: true,
        },
        ClubRequest::AddTime {
            event,
            table: table_x,
            seat: SeatId(0),
            secs: 60,
        },
        ClubRequest::Replace {
            event,
            table: table_x,
            seat: SeatId(0),
            user: rex_user,
        },
        ClubRequest::DirectorLog { event },
    ] {
        let (e, words) = refused(ask(&mut mal, req).await);
        assert_eq!(e, ClubError::NotDirector);
        assert!(words.contains("only the event's director"), "{words}");
    }

    // Started as re-paired.
    let ClubReply::Round { pairings, .. } = ask(&mut d, ClubRequest::StartRound { event }).await
    else {
        panic!("no round")
    };
    let seated: Vec<[Option<UserId>; 2]> = pairings
        .iter()
        .map(|p| p.players.clone().map(|s| s.map(|(u, _)| u)))
        .collect();
    assert_eq!(seated, hand);
    let (t1, t2) = (pairings[0].table.unwrap(), pairings[1].table.unwrap());
    let by_user = |u: UserId, ps: &[Client], v: &EventView| {
        let name = v.entrants.iter().find(|(x, _)| *x == u).unwrap().1.clone();
        ps.iter().position(|p| p.name == name).unwrap()
    };
    let v = watch(&mut d, event).await;
    let a = by_user(hand[0][0].unwrap(), &players, &v);
    players[a].sit(t1, None).await;
    players[a].act(&place("before")).await.expect("playing");

    // Pause table 1: its players are told, a move is refused in words.
    let r = ask(
        &mut d,
        ClubRequest::PauseTable {
            event,
            table: t1,
            on: true,
        },
    )
    .await;
    assert!(matches!(r, ClubReply::Notice { .. }), "{r:?}");
    let ClubReply::Notice { words, .. } =
        news(&mut players[a], |r| matches!(r, ClubReply::Notice { .. })).await
    else {
        unreachable!()
    };
    assert!(words.contains("paused your game"), "{words}");
    let err = players[a].act(&place("during")).await.unwrap_err();
    assert!(err.message.contains("paused this table"), "{}", err.message);
    let v = watch(&mut mal, event).await;
    let card = |v: &EventView, t: TableId| {
        v.tables
            .iter()
            .find(|c| c.table == Some(t))
            .cloned()
            .unwrap()
    };
    assert!(card(&v, t1).paused && !card(&v, t2).paused);
    assert!(card(&v, t1).last_activity.is_some());
    ask(
        &mut d,
        ClubRequest::PauseTable {
            event,
            table: t1,
            on: false,
        },
    )
    .await;
    players[a].act(&place("after")).await.expect("restarted");

    // The whole round, paused and restarted.
    let ClubReply::Notice { words, .. } =
        ask(&mut d, ClubRequest::PauseRound { event, on: true }).await
    else {
        panic!()
    };
    assert!(words.contains("2 tables of the round"), "{words}");
    assert!(watch(&mut d, event).await.tables.iter().all(|c| c.paused));
    ask(&mut d, ClubRequest::PauseRound { event, on: false }).await;
    assert!(watch(&mut d, event).await.tables.iter().all(|c| !c.paused));

    // Two more minutes for table 1's second side.
    let r = ask(
        &mut d,
        ClubRequest::AddTime {
            event,
            table: t1,
            seat: SeatId(1),
            secs: 120,
        },
    )
    .await;
    assert!(matches!(r, ClubReply::Notice { .. }), "{r:?}");
    let c1 = card(&watch(&mut d, event).await, t1);
    assert_eq!(c1.clock_ms.unwrap()[1], 720_000);
    let (e, _) = refused(
        ask(
            &mut d,
            ClubRequest::AddTime {
                event,
                table: t1,
                seat: SeatId(1),
                secs: 0,
            },
        )
        .await,
    );
    assert_eq!(e, ClubError::BadRequest);

    // Rex takes table 2's first seat; its holder loses it.
    let old = by_user(hand[1][0].unwrap(), &players, &v);
    players[old].sit(t2, None).await;
    let (e, words) = refused(
        ask(
            &mut d,
            ClubRequest::Replace {
                event,
                table: t2,
                seat: SeatId(0),
                user: hand[0][1].unwrap(),
            },
        )
        .await,
    );
    assert_eq!(
        e,
        ClubError::BadRequest,
        "a player of the event is no reserve"
    );
    assert!(words.contains("plays in the event already"), "{words}");
    let r = ask(
        &mut d,
        ClubRequest::Replace {
            event,
            table: t2,
            seat: SeatId(0),
            user: rex_user,
        },
    )
    .await;
    assert!(matches!(r, ClubReply::Notice { .. }), "{r:?}");
    match news(&mut rex, |r| matches!(r, ClubReply::YourTable { .. })).await {
        ClubReply::YourTable { table, seat, .. } => assert_eq!((table, seat), (t2, SeatId(0))),
        _ => unreachable!(),
    }
    let m = players[old]
        .until(WAIT, |m| matches!(m, ServerMsg::Error { .. }))
        .await;
    let ServerMsg::Error { message, .. } = m else {
        unreachable!()
    };
    assert!(message.contains("gave your seat"), "{message}");
    rex.sit(t2, None).await;
    assert_eq!(rex.seat, Some(SeatId(0)));
    rex.act(&place("reserve")).await.expect("the reserve plays");
    let c2 = card(&watch(&mut d, event).await, t2);
    assert_eq!(users(&c2)[0], Some(rex_user));

    // Everything is in the directors' log, in words.
    let ClubReply::DirectorLog { lines, .. } =
        ask(&mut d, ClubRequest::DirectorLog { event }).await
    else {
        panic!()
    };
    let all = lines.join("\n");
    for needle in [
        "paired round 1",
        "re-paired round 1",
        "started round 1",
        &format!("paused table {}", t1.0),
        &format!("resumed table {}", t1.0),
        "2 minutes more at table",
        "Rex takes",
    ] {
        assert!(all.contains(needle), "no {needle:?} in the log:\n{all}");
    }

    // Paused, then the server restarts: the rebuilt table is still paused
    // and refuses the move in words until the director restarts it.
    ask(
        &mut d,
        ClubRequest::PauseTable {
            event,
            table: t1,
            on: true,
        },
    )
    .await;
    server.shutdown().await;
    let server = start_server_in(dir.path(), |c| c.limits.conns_per_addr = 64).await;
    let t = Target::of(&server);
    let mut d = Client::reconnect(&t, false, "Dora", &d.token)
        .await
        .unwrap();
    let (name, token) = (players[a].name.clone(), players[a].token.clone());
    let mut back = Client::reconnect(&t, false, &name, &token).await.unwrap();
    back.sit(t1, None).await;
    let err = back.act(&place("after the restart")).await.unwrap_err();
    assert!(err.message.contains("paused this table"), "{}", err.message);
    assert!(
        watch(&mut d, event)
            .await
            .tables
            .iter()
            .any(|c| c.table == Some(t1) && c.paused)
    );
    ask(
        &mut d,
        ClubRequest::PauseTable {
            event,
            table: t1,
            on: false,
        },
    )
    .await;
    back.act(&place("restarted again"))
        .await
        .expect("play goes on");
    server.shutdown().await;
}

fn cedar_event() -> EventSettings {
    let config = GbacwConfig {
        battle: "cedar_mountain".into(),
        ..GbacwConfig::default()
    };
    EventSettings {
        name: "Cedar Mountain night".into(),
        ruleset: "gbacw".into(),
        scenario: "Cedar Mountain".into(),
        config: codec::encode_infallible(&config),
        rounds: 1,
        pairing: PairingMethod::Swiss,
        sides: SideAssignment::Random,
        invite_only: false,
        check_in: false,
        time: Some(TimeControl {
            bank_secs: 3600,
            increment_secs: 0,
            per_decision_secs: 86_400,
            at_zero: AtZero::Loss,
        }),
        points: PointsTable::default(),
        seed: 9,
        round_scenarios: Vec::new(),
    }
}

/// A Cedar Mountain table's card names its Game-Turn and phase and the
/// side awaited; "your games" says whose move it is and the time left to
/// answer; a paused table's clock stands still, across a restart too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_cards_name_the_phase_your_games_say_whose_move_and_a_pause_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server_in(dir.path(), |_| {}).await;
    let t = Target::of(&server);
    let (mut d, club) = director(&t).await;
    let event = match ask(
        &mut d,
        ClubRequest::CreateEvent {
            club,
            settings: cedar_event(),
        },
    )
    .await
    {
        ClubReply::EventCreated { event, .. } => event,
        other => panic!("{other:?}"),
    };
    let mut ps = Vec::new();
    for n in ["Banks", "Jackson"] {
        let mut p = Client::connect(&t, false, n).await;
        ask(
            &mut p,
            ClubRequest::Register {
                event,
                invite: None,
            },
        )
        .await;
        ps.push(p);
    }
    let ClubReply::Round { pairings, .. } = ask(&mut d, ClubRequest::StartRound { event }).await
    else {
        panic!()
    };
    let table = pairings[0].table.unwrap();
    // The room tells the hub where its game is as it starts.
    let mut card = None;
    for _ in 0..100 {
        let v = watch(&mut d, event).await;
        if v.tables[0].progress.is_some() && v.tables[0].awaiting.is_some() {
            card = Some(v.tables[0].clone());
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let card = card.expect("the table said where its game is");
    let progress = card.progress.clone().unwrap();
    assert!(progress.starts_with("Game-Turn "), "{progress}");
    let awaited = card.awaiting.unwrap();
    let name = card.players[usize::from(awaited.0)].clone().unwrap().1;
    let (me, other) = if ps[0].name == name { (0, 1) } else { (1, 0) };
    let ClubReply::YourGames { games } = ask(&mut ps[me], ClubRequest::YourGames).await else {
        panic!()
    };
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert!(g.your_move && g.table == table && g.opponent == ps[other].name);
    assert!(g.decision_ms.unwrap() > 86_000_000 && g.bank_ms.unwrap() <= 3_600_000);
    let ClubReply::YourGames { games } = ask(&mut ps[other], ClubRequest::YourGames).await else {
        panic!()
    };
    assert!(!games[0].your_move);

    // Paused: the clock stands still.
    ask(
        &mut d,
        ClubRequest::PauseTable {
            event,
            table,
            on: true,
        },
    )
    .await;
    let before = watch(&mut d, event).await.tables[0].clock_ms.unwrap();
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let after = watch(&mut d, event).await.tables[0].clock_ms.unwrap();
    assert_eq!(before, after, "a paused table's clock stands still");
    // ... and after a restart it is still paused, its clock still still.
    server.shutdown().await;
    let server = start_server_in(dir.path(), |_| {}).await;
    let t = Target::of(&server);
    let mut d = Client::reconnect(&t, false, "Dora", &d.token)
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let v = watch(&mut d, event).await;
    assert!(v.tables[0].paused);
    assert_eq!(v.tables[0].clock_ms.unwrap(), before);
    ask(
        &mut d,
        ClubRequest::PauseTable {
            event,
            table,
            on: false,
        },
    )
    .await;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let running = watch(&mut d, event).await.tables[0].clock_ms.unwrap();
    let i = usize::from(awaited.0);
    assert!(running[i] < before[i], "restarted, the clock runs again");
    assert_eq!(running[1 - i], before[1 - i]);
    server.shutdown().await;
}

/// The desk's cost at an event of 200 tables (400 players, sandbox tables
/// with clocks): the size of `Watch`'s answer and the time to build it
/// (a page asks every second), pausing and restarting the whole round,
/// and one director's action (each stores the whole event: the same cost
/// a clock note pays after every move at a table of the event). Run by
/// hand: `cargo test -p muster-tests --test e2e server_club_desk:: -- --ignored
/// two_hundred --nocapture`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement, run by hand"]
async fn two_hundred_tables_desk_cost() {
    let (server, _dir) = start_server(|c| {
        c.limits.guest_signins_per_minute = 100_000;
        c.limits.guest_signin_burst = 1_000;
        c.limits.rate_per_sec = 100_000;
        c.limits.rate_burst = 100_000;
    })
    .await;
    let t = Target::of(&server);
    let (mut d, club) = director(&t).await;
    let mut s = sandbox_event();
    s.check_in = false;
    s.name = "Big Swiss".into();
    let event = match ask(&mut d, ClubRequest::CreateEvent { club, settings: s }).await {
        ClubReply::EventCreated { event, .. } => event,
        other => panic!("{other:?}"),
    };
    let mut c = Client::connect(&t, false, "Entrant 0").await;
    for i in 0..400 {
        c.conn.sign_in_guest(&format!("Entrant {i}")).await.unwrap();
        let r = ask(
            &mut c,
            ClubRequest::Register {
                event,
                invite: None,
            },
        )
        .await;
        assert_eq!(r, ClubReply::Registered { event });
    }
    let ClubReply::Round { pairings, .. } = ask(&mut d, ClubRequest::StartRound { event }).await
    else {
        panic!()
    };
    assert_eq!(pairings.len(), 200);
    let pid = std::process::id();
    let cpu = || {
        let s = muster_tests::proc_stats::proc_stat(pid);
        (s.user_s + s.system_s, s.rss_kib)
    };
    // Watch: 50 in a row.
    let (c0, rss0) = cpu();
    let start = std::time::Instant::now();
    let mut size = 0;
    for _ in 0..50 {
        d.send(ClientMsg::Club(ClubRequest::Watch { event })).await;
        let m = d
            .until(WAIT, |m| {
                matches!(m, ServerMsg::Club(ClubReply::EventView(_)))
            })
            .await;
        size = m.encode().unwrap().len();
    }
    let watch_wall = start.elapsed().as_secs_f64() / 50.0;
    let (c1, _) = cpu();
    // The whole round paused and restarted, 5 times.
    let start = std::time::Instant::now();
    for _ in 0..5 {
        ask(&mut d, ClubRequest::PauseRound { event, on: true }).await;
        ask(&mut d, ClubRequest::PauseRound { event, on: false }).await;
    }
    let pause_wall = start.elapsed().as_secs_f64() / 10.0;
    let (c2, _) = cpu();
    // 50 director's actions, each storing the event.
    let table = pairings[0].table.unwrap();
    let start = std::time::Instant::now();
    for _ in 0..50 {
        ask(
            &mut d,
            ClubRequest::AddTime {
                event,
                table,
                seat: SeatId(0),
                secs: 1,
            },
        )
        .await;
    }
    let action_wall = start.elapsed().as_secs_f64() / 50.0;
    let (c3, rss3) = cpu();
    println!(
        "200 tables: Watch answer {size} bytes, {:.1} ms wall and {:.1} ms CPU each; \
         PauseRound (200 tables) {:.1} ms wall, {:.1} ms CPU; one stored action {:.1} ms wall, \
         {:.1} ms CPU; RSS {rss0} → {rss3} KiB",
        watch_wall * 1000.0,
        (c1 - c0) * 1000.0 / 50.0,
        pause_wall * 1000.0,
        (c2 - c1) * 1000.0 / 10.0,
        action_wall * 1000.0,
        (c3 - c2) * 1000.0 / 50.0,
    );
    server.shutdown().await;
}
