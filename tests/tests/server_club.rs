//! Issue 21: club events over a real server on loopback, with scripted
//! clients: accounts (claim, sign in from another connection, refusals in
//! words, the limit on failures), an 8-player Swiss event of 3 rounds to
//! its standings and CSV with results by resignation and adjudication, a
//! round robin, a clock running out, a restart in the middle of an
//! event keeping its clocks and standings, a Cedar Mountain table played
//! to the engine's end scored with the engine's victory-point margin, and
//! a side out of time under "engine defaults" losing on time once the
//! engine has no default to answer for it.

use muster_client::Connection;
use muster_shared::SeatId;
use muster_shared::engine::Ruleset;
use muster_shared::protocol::club::{
    AtZero, ClubError, ClubId, ClubReply, ClubRequest, ClubRole, EventId, EventSettings, Pairing,
    PairingMethod, PointsTable, ResultHow, SideAssignment, TimeControl,
};
use muster_shared::protocol::{ClientMsg, DeltaBody, ServerMsg, UserId};
use muster_tests::club_client::{ClubPlayer, cedar_event, refused};
use muster_tests::e2e::{Target, sandbox_table, start_server, start_server_in};
use muster_tests::gbacw_client::{CedarScript, GbacwClient};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(30);

/// A director with an account and a club.
async fn director(t: &Target) -> (ClubPlayer, ClubId) {
    let mut d = ClubPlayer::guest(t, "Dora").await;
    d.claim_account("tournament director").await;
    let club = d.create_club("Culpeper Wargamers").await;
    (d, club)
}

fn sandbox_settings(name: &str, pairing: PairingMethod, rounds: u8) -> EventSettings {
    let t = sandbox_table(false, 0);
    EventSettings {
        name: name.into(),
        ruleset: t.ruleset,
        scenario: t.scenario,
        config: t.config,
        rounds,
        pairing,
        sides: SideAssignment::Balanced,
        invite_only: false,
        check_in: true,
        time: None,
        points: PointsTable::default(),
        seed: 21,
        round_scenarios: Vec::new(),
    }
}

fn cedar_settings(bank_secs: u32, rounds: u8) -> EventSettings {
    EventSettings {
        check_in: false,
        time: Some(TimeControl {
            bank_secs,
            increment_secs: 0,
            per_decision_secs: 0,
            at_zero: AtZero::Loss,
        }),
        seed: 5,
        ..cedar_event("Cedar Mountain on the clock", rounds)
    }
}

async fn create_event(d: &mut ClubPlayer, club: ClubId, settings: EventSettings) -> EventId {
    match d.ask(ClubRequest::CreateEvent { club, settings }).await {
        ClubReply::EventCreated { event, .. } => event,
        other => panic!("{other:?}"),
    }
}

async fn enter(players: &mut [ClubPlayer], event: EventId, check_in: bool) {
    for p in players.iter_mut() {
        let r = p
            .ask(ClubRequest::Register {
                event,
                invite: None,
            })
            .await;
        assert_eq!(r, ClubReply::Registered { event });
        if check_in {
            let r = p.ask(ClubRequest::CheckIn { event }).await;
            assert_eq!(r, ClubReply::CheckedIn { event });
        }
    }
}

async fn start_round(d: &mut ClubPlayer, event: EventId) -> Vec<Pairing> {
    match d.ask(ClubRequest::StartRound { event }).await {
        ClubReply::Round { pairings, .. } => pairings,
        other => panic!("{other:?}"),
    }
}

fn seat_users(p: &Pairing) -> [Option<UserId>; 2] {
    p.players.clone().map(|s| s.map(|(u, _)| u))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accounts_claim_sign_in_elsewhere_and_refuse_in_words() {
    let (server, _dir) = start_server(|_| {}).await;
    let t = Target::of(&server);
    let mut ann = ClubPlayer::guest(&t, "Ann").await;
    let r = ann
        .ask(ClubRequest::ClaimAccount {
            password: "short".into(),
        })
        .await;
    let (e, words) = refused(r);
    assert_eq!(e, ClubError::BadRequest);
    assert!(words.contains("at least 8"), "{words}");
    let r = ann
        .ask(ClubRequest::ClaimAccount {
            password: "hooker's brigade".into(),
        })
        .await;
    assert_eq!(
        r,
        ClubReply::AccountClaimed {
            user: ann.user,
            name: "Ann".into()
        }
    );
    let (e, _) = refused(
        ann.ask(ClubRequest::ClaimAccount {
            password: "another one".into(),
        })
        .await,
    );
    assert_eq!(e, ClubError::AlreadyAccount);
    // A look-alike guest (Cyrillic А) cannot take the name as an account.
    let mut fake = ClubPlayer::guest(&t, "\u{410}nn").await;
    let (e, words) = refused(
        fake.ask(ClubRequest::ClaimAccount {
            password: "pretending hard".into(),
        })
        .await,
    );
    assert_eq!(e, ClubError::NameTaken);
    assert!(words.contains("looks the same"), "{words}");

    // Another machine: a new connection signs in with name and password.
    let mut laptop = Connection::connect(t.url(false), &t.options())
        .await
        .unwrap();
    laptop
        .send(&ClientMsg::Club(ClubRequest::SignIn {
            name: "Ann".into(),
            password: "hooker's brigade".into(),
        }))
        .await
        .unwrap();
    match laptop.recv_timeout(WAIT).await.unwrap() {
        ServerMsg::SignedIn { user, name, token } => {
            assert_eq!((user, name.as_str()), (ann.user, "Ann"));
            // The token resumes like any session token.
            let mut phone = Connection::connect(t.url(false), &t.options())
                .await
                .unwrap();
            assert_eq!(phone.resume(&token.unwrap()).await.unwrap(), ann.user);
        }
        other => panic!("{other:?}"),
    }

    let mut stranger = Connection::connect(t.url(false), &t.options())
        .await
        .unwrap();
    let mut sign_in = async |name: &str, password: &str| {
        stranger
            .send(&ClientMsg::Club(ClubRequest::SignIn {
                name: name.into(),
                password: password.into(),
            }))
            .await
            .unwrap();
        match stranger.recv_timeout(WAIT).await.unwrap() {
            ServerMsg::Club(r) => refused(r),
            other => panic!("{other:?}"),
        }
    };
    let (e, words) = sign_in("Nobody", "whatever at all").await;
    assert_eq!(e, ClubError::UnknownAccount);
    assert!(words.contains("no account named"), "{words}");
    // Five wrong passwords; the sixth try is refused before the password
    // is even checked, the right one included.
    for _ in 0..5 {
        let (e, words) = sign_in("Ann", "not her password").await;
        assert_eq!(e, ClubError::BadPassword);
        assert!(words.contains("wrong password"), "{words}");
    }
    let (e, words) = sign_in("Ann", "hooker's brigade").await;
    assert_eq!(e, ClubError::TooManyAttempts);
    assert!(words.contains("try again in"), "{words}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn swiss_event_of_eight_players_runs_three_rounds_to_standings_and_csv() {
    let (server, _dir) = start_server(|c| c.limits.conns_per_addr = 64).await;
    let t = Target::of(&server);
    let (mut d, club) = director(&t).await;
    let names = [
        "Banks",
        "Crawford",
        "Geary",
        "Jackson",
        "Early",
        "Winder",
        "Taliaferro",
        "Hill",
    ];
    let mut players = Vec::new();
    for n in names {
        players.push(ClubPlayer::guest(&t, n).await);
    }
    // A member is not a director.
    let r = players[0].ask(ClubRequest::JoinClub { club }).await;
    assert!(
        matches!(
            r,
            ClubReply::Member {
                role: ClubRole::Member,
                ..
            }
        ),
        "{r:?}"
    );
    let (e, _) = refused(
        players[0]
            .ask(ClubRequest::CreateEvent {
                club,
                settings: sandbox_settings("x", PairingMethod::Swiss, 3),
            })
            .await,
    );
    assert_eq!(e, ClubError::NotDirector);

    let event = create_event(
        &mut d,
        club,
        sandbox_settings("Summer Swiss", PairingMethod::Swiss, 3),
    )
    .await;
    enter(&mut players, event, true).await;
    let (e, words) = refused(players[1].ask(ClubRequest::StartRound { event }).await);
    assert_eq!(e, ClubError::NotDirector);
    assert!(words.contains("director"), "{words}");

    let by_user: BTreeMap<UserId, usize> = players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.user, i))
        .collect();
    let mut met = BTreeSet::new();
    // The test's own tally: points per player, opponents, margins.
    let mut points: BTreeMap<UserId, u32> = BTreeMap::new();
    let mut opponents: BTreeMap<UserId, Vec<UserId>> = BTreeMap::new();
    let mut margin: BTreeMap<UserId, i64> = BTreeMap::new();
    for round in 1..=3u8 {
        let pairings = start_round(&mut d, event).await;
        assert_eq!(pairings.len(), 4, "eight players: four tables, no bye");
        let (e, _) = refused(d.ask(ClubRequest::StartRound { event }).await);
        assert_eq!(e, ClubError::WrongTime, "a round with games in play");
        for (k, p) in pairings.iter().enumerate() {
            let [Some(a), Some(b)] = seat_users(p) else {
                panic!("{p:?}")
            };
            assert!(
                met.insert((a.min(b), a.max(b))),
                "a repeat pairing in round {round}"
            );
            let table = p.table.expect("a table per game");
            // Each player was told their table and seat, and can sit there.
            for (seat, u) in [(0u8, a), (1, b)] {
                let me = &mut players[by_user[&u]];
                match me
                    .news_where(|r| matches!(r, ClubReply::YourTable { .. }))
                    .await
                {
                    ClubReply::YourTable {
                        table: t2,
                        seat: s,
                        round: r,
                        ..
                    } => {
                        assert_eq!((t2, s.0, r), (table, seat, round));
                    }
                    other => panic!("{other:?}"),
                }
            }
            if k == 0 {
                let me = &mut players[by_user[&a]];
                me.conn
                    .send(&ClientMsg::JoinSeat {
                        table,
                        seat: None,
                        invite: None,
                    })
                    .await
                    .unwrap();
                loop {
                    match me.conn.recv_timeout(WAIT).await.unwrap() {
                        ServerMsg::Snapshot(s) => {
                            assert_eq!(s.seat.map(|x| x.0), Some(0));
                            break;
                        }
                        ServerMsg::Error { message, .. } => panic!("{message}"),
                        _ => {}
                    }
                }
            }
            // The earlier-registered player wins. Table 1 is adjudicated
            // with a margin, the others resigned by the loser.
            let (winner, loser) = if by_user[&a] < by_user[&b] {
                (a, b)
            } else {
                (b, a)
            };
            let win_seat0 = winner == a;
            if k == 0 {
                let m = 3 + i32::from(round);
                let (pts, vp) = if win_seat0 { ([2, 0], m) } else { ([0, 2], -m) };
                d.conn
                    .send(&ClientMsg::Club(ClubRequest::Adjudicate {
                        event,
                        table,
                        points: pts,
                        vp_margin: vp,
                        reason: format!(
                            "time called in round {round}; the position favoured the winner"
                        ),
                    }))
                    .await
                    .unwrap();
                *margin.entry(winner).or_default() += i64::from(m);
                *margin.entry(loser).or_default() -= i64::from(m);
                match d
                    .news_where(
                        |r| matches!(r, ClubReply::Result { table: t2, .. } if *t2 == table),
                    )
                    .await
                {
                    ClubReply::Result { result, .. } => {
                        assert!(matches!(result.how, ResultHow::Adjudicated { .. }))
                    }
                    _ => unreachable!(),
                }
            } else {
                let l = &mut players[by_user[&loser]];
                l.conn
                    .send(&ClientMsg::Club(ClubRequest::Resign { event }))
                    .await
                    .unwrap();
                // News of earlier games may be queued: this table's result.
                match l
                    .news_where(
                        |r| matches!(r, ClubReply::Result { table: t2, .. } if *t2 == table),
                    )
                    .await
                {
                    ClubReply::Result { result, .. } => {
                        assert!(matches!(result.how, ResultHow::Resigned { .. }));
                    }
                    _ => unreachable!(),
                }
            }
            *points.entry(winner).or_default() += 2;
            points.entry(loser).or_default();
            opponents.entry(a).or_default().push(b);
            opponents.entry(b).or_default().push(a);
        }
    }
    let (e, _) = refused(d.ask(ClubRequest::StartRound { event }).await);
    assert_eq!(e, ClubError::WrongTime, "three rounds were the event's");

    // Standings, against the test's own tally.
    let ClubReply::Standings { rows, .. } = players[7].ask(ClubRequest::Standings { event }).await
    else {
        panic!()
    };
    assert_eq!(rows.len(), 8);
    for r in &rows {
        let b: u32 = opponents[&r.user].iter().map(|o| points[o]).sum();
        assert_eq!(
            (r.points, r.buchholz, r.vp_margin, r.games),
            (
                points[&r.user],
                b,
                margin.get(&r.user).copied().unwrap_or(0),
                3
            ),
            "{}",
            r.name
        );
    }
    // Banks registered first and so won all three.
    assert_eq!(
        (rows[0].name.as_str(), rows[0].points, rows[0].rank),
        ("Banks", 6, 1)
    );
    let keys: Vec<_> = rows
        .iter()
        .map(|r| (r.points, r.buchholz, r.vp_margin))
        .collect();
    assert!(
        keys.windows(2).all(|w| w[0] >= w[1]),
        "sorted by points, Buchholz, margin: {keys:?}"
    );
    let ClubReply::Csv { text, .. } = players[3].ask(ClubRequest::ExportCsv { event }).await else {
        panic!()
    };
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 9);
    assert_eq!(lines[0], "rank,name,points,buchholz,vp_margin,games");
    assert!(lines[1].starts_with("1,\"Banks\",6,"), "{}", lines[1]);

    // The directors' log keeps every adjudication's reason; others may not read it.
    let ClubReply::DirectorLog { lines, .. } = d.ask(ClubRequest::DirectorLog { event }).await
    else {
        panic!()
    };
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.contains("the position favoured the winner"))
            .count(),
        3,
        "{lines:?}"
    );
    assert_eq!(
        lines.iter().filter(|l| l.contains("started round")).count(),
        3
    );
    let (e, _) = refused(players[2].ask(ClubRequest::DirectorLog { event }).await);
    assert_eq!(e, ClubError::NotDirector);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn round_robin_of_five_meets_everybody_once_with_a_bye_each() {
    let (server, _dir) = start_server(|_| {}).await;
    let t = Target::of(&server);
    let (mut d, club) = director(&t).await;
    let mut players = Vec::new();
    for n in ["Pope", "Sigel", "Prince", "Ewell", "Lee"] {
        players.push(ClubPlayer::guest(&t, n).await);
    }
    let mut s = sandbox_settings("Round robin", PairingMethod::RoundRobin, 5);
    s.check_in = false;
    let event = create_event(&mut d, club, s).await;
    enter(&mut players, event, false).await;
    let by_user: BTreeMap<UserId, usize> = players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.user, i))
        .collect();
    let mut met = BTreeSet::new();
    let mut byes = BTreeSet::new();
    for _ in 0..5 {
        let pairings = start_round(&mut d, event).await;
        assert_eq!(pairings.len(), 3, "two games and a bye");
        for p in &pairings {
            match seat_users(p) {
                [Some(a), Some(b)] => {
                    assert!(met.insert((a.min(b), a.max(b))));
                    let l = &mut players[by_user[&b]];
                    l.conn
                        .send(&ClientMsg::Club(ClubRequest::Resign { event }))
                        .await
                        .unwrap();
                    let table = p.table;
                    l.news_where(
                        |r| matches!(r, ClubReply::Result { table: t2, .. } if Some(*t2) == table),
                    )
                    .await;
                }
                [Some(a), None] => {
                    assert!(byes.insert(a), "a second bye");
                    assert!(matches!(
                        p.result.as_ref().map(|r| &r.how),
                        Some(ResultHow::Bye)
                    ));
                }
                other => panic!("{other:?}"),
            }
        }
    }
    assert_eq!(met.len(), 10);
    assert_eq!(byes.len(), 5);
    let (e, _) = refused(d.ask(ClubRequest::StartRound { event }).await);
    assert_eq!(e, ClubError::WrongTime);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_that_runs_out_loses_the_game() {
    let (server, _dir) = start_server(|_| {}).await;
    let t = Target::of(&server);
    let (mut d, club) = director(&t).await;
    let mut players = vec![
        ClubPlayer::guest(&t, "Pope").await,
        ClubPlayer::guest(&t, "Jackson").await,
    ];
    let event = create_event(&mut d, club, cedar_settings(2, 1)).await;
    enter(&mut players, event, false).await;
    let pairings = start_round(&mut d, event).await;
    assert_eq!(pairings.len(), 1);
    let clock = pairings[0].clock_ms.expect("the event has clocks");
    assert!(clock.iter().all(|&ms| ms <= 2_000));
    // Nobody moves: the side setting up runs out of its 2 s.
    let r = players[0]
        .news_where(|r| matches!(r, ClubReply::Result { .. }))
        .await;
    let ClubReply::Result { result, .. } = r else {
        unreachable!()
    };
    let ResultHow::Clock { seat } = result.how else {
        panic!("{result:?}")
    };
    let loser = usize::from(seat.0);
    assert_eq!(result.points[loser], 0);
    assert_eq!(result.points[1 - loser], 2);
    let ClubReply::Round { pairings, .. } = d.ask(ClubRequest::Round { event, round: 1 }).await
    else {
        panic!()
    };
    let left = pairings[0].clock_ms.unwrap();
    assert_eq!(left[loser], 0, "{left:?}");
    assert_eq!(
        left[1 - loser],
        2_000,
        "the side not awaited was never charged: {left:?}"
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_mid_round_keeps_clocks_tables_and_standings() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server_in(dir.path(), |_| {}).await;
    let t = Target::of(&server);
    let (mut d, club) = director(&t).await;
    let mut players = Vec::new();
    for n in ["Pope", "Jackson", "Banks", "Ewell"] {
        players.push(ClubPlayer::guest(&t, n).await);
    }
    let event = create_event(&mut d, club, cedar_settings(600, 2)).await;
    enter(&mut players, event, false).await;
    let pairings = start_round(&mut d, event).await;
    assert_eq!(pairings.len(), 2);
    let by_user: BTreeMap<UserId, usize> = players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.user, i))
        .collect();
    // Table 1 is resigned before the restart.
    let [_, Some(loser)] = seat_users(&pairings[0]) else {
        panic!()
    };
    let l = &mut players[by_user[&loser]];
    l.conn
        .send(&ClientMsg::Club(ClubRequest::Resign { event }))
        .await
        .unwrap();
    l.news_where(|r| matches!(r, ClubReply::Result { .. }))
        .await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let ClubReply::Round {
        pairings: before, ..
    } = d.ask(ClubRequest::Round { event, round: 1 }).await
    else {
        panic!()
    };
    let running = before[1].clock_ms.unwrap();
    let table2 = before[1].table.unwrap();
    drop(players);
    drop(d);
    server.shutdown().await;
    // Down for 3 s: time nobody is charged for.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let server = start_server_in(dir.path(), |_| {}).await;
    let t = Target::of(&server);
    let mut d = ClubPlayer::guest(&t, "Observer").await;
    let ClubReply::Round {
        pairings: after, ..
    } = d.ask(ClubRequest::Round { event, round: 1 }).await
    else {
        panic!()
    };
    assert_eq!(after[0].result, before[0].result, "the resignation is kept");
    assert_eq!(after[1].table, Some(table2));
    let kept = after[1].clock_ms.unwrap();
    for s in 0..2 {
        // Each side lost at most the second it took to restart, not the 3 s down.
        assert!(
            kept[s] <= running[s] && running[s] - kept[s] < 2_500,
            "{running:?} then {kept:?}"
        );
    }
    assert!(
        kept.contains(&600_000),
        "one side was never awaited: {kept:?}"
    );
    assert!(
        server.shared.lobby.room(table2).is_some(),
        "the table in play was rebuilt"
    );
    let ClubReply::Standings { rows, .. } = d.ask(ClubRequest::Standings { event }).await else {
        panic!()
    };
    assert_eq!(rows[0].points, 2);
    assert_eq!(rows.iter().map(|r| r.points).sum::<u32>(), 2);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_zero_with_engine_defaults_the_side_out_of_time_plays_on_by_default() {
    let (server, _dir) = start_server(|_| {}).await;
    let t = Target::of(&server);
    let (mut d, club) = director(&t).await;
    let mut players = vec![
        ClubPlayer::guest(&t, "Pope").await,
        ClubPlayer::guest(&t, "Jackson").await,
    ];
    let mut s = cedar_settings(1, 1);
    if let Some(tc) = &mut s.time {
        tc.at_zero = AtZero::EngineDefaults;
    }
    let event = create_event(&mut d, club, s).await;
    enter(&mut players, event, false).await;
    let pairings = start_round(&mut d, event).await;
    let table = pairings[0].table.unwrap();
    let p = &mut players[0];
    p.conn
        .send(&ClientMsg::JoinSeat {
            table,
            seat: None,
            invite: None,
        })
        .await
        .unwrap();
    // The side setting up runs out of its 1 s; the room answers its
    // set-up decision with the engine's default.
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let m = tokio::time::timeout_at(deadline, p.conn.recv())
            .await
            .expect("a default answer within the wait")
            .unwrap();
        if let ServerMsg::Delta {
            body:
                muster_shared::protocol::DeltaBody::Action {
                    by_default: true, ..
                },
            ..
        } = m
        {
            break;
        }
    }
    let ClubReply::Round { pairings, .. } = d.ask(ClubRequest::Round { event, round: 1 }).await
    else {
        panic!()
    };
    assert!(pairings[0].result.is_none(), "the game goes on");
    assert!(
        pairings[0].clock_ms.unwrap().contains(&0),
        "{:?}",
        pairings[0].clock_ms
    );
    server.shutdown().await;
}

/// The server's cost of starting one round of an event of 200 tables
/// (400 players, sandbox or Cedar Mountain games), in a debug build: wall time of
/// `StartRound` and the test process's RSS and CPU (the server runs in
/// it). Run by hand: `cargo test -p muster-tests --test e2e server_club:: --
/// --ignored two_hundred --nocapture`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement, run by hand"]
async fn two_hundred_tables_cost() {
    let (server, _dir) = start_server(|c| {
        c.limits.guest_signins_per_minute = 100_000;
        c.limits.guest_signin_burst = 1_000;
        c.limits.rate_per_sec = 100_000;
        c.limits.rate_burst = 100_000;
    })
    .await;
    let t = Target::of(&server);
    let (mut d, club) = director(&t).await;
    // `MUSTER_CLUB_CEDAR=1`: Cedar Mountain tables instead of sandbox ones.
    let cedar = std::env::var_os("MUSTER_CLUB_CEDAR").is_some();
    let mut s = if cedar {
        cedar_settings(3600, 1)
    } else {
        sandbox_settings("Big Swiss", PairingMethod::Swiss, 1)
    };
    s.check_in = false;
    let event = create_event(&mut d, club, s).await;
    // One connection signs in as each of 400 guests in turn and registers it.
    let mut c = ClubPlayer::guest(&t, "Entrant 0").await;
    for i in 0..400 {
        c.conn.sign_in_guest(&format!("Entrant {i}")).await.unwrap();
        assert_eq!(
            c.ask(ClubRequest::Register {
                event,
                invite: None
            })
            .await,
            ClubReply::Registered { event }
        );
    }
    let pid = std::process::id();
    let before = muster_tests::proc_stats::proc_stat(pid);
    let start = std::time::Instant::now();
    d.conn
        .send(&ClientMsg::Club(ClubRequest::StartRound { event }))
        .await
        .unwrap();
    // Cedar Mountain builds take long in a debug build: wait up to 15 min.
    let pairings = loop {
        match d.conn.recv_timeout(Duration::from_secs(900)).await.unwrap() {
            ServerMsg::Club(ClubReply::Round { pairings, .. }) => break pairings,
            ServerMsg::Club(ClubReply::Refused { message, .. }) => panic!("{message}"),
            _ => {}
        }
    };
    let took = start.elapsed();
    let after = muster_tests::proc_stats::proc_stat(pid);
    assert_eq!(pairings.len(), 200);
    println!(
        "200 {} tables: StartRound {:.2} s wall, {:.2} s CPU (user {:.2}, kernel {:.2}), RSS {} → {} KiB (+{} KiB, {:.1} KiB per table)",
        if cedar { "Cedar Mountain" } else { "sandbox" },
        took.as_secs_f64(),
        after.user_s + after.system_s - before.user_s - before.system_s,
        after.user_s - before.user_s,
        after.system_s - before.system_s,
        before.rss_kib,
        after.rss_kib,
        after.rss_kib.saturating_sub(before.rss_kib),
        after.rss_kib.saturating_sub(before.rss_kib) as f64 / 200.0
    );
    server.shutdown().await;
}

/// A Cedar Mountain event table whose two players sit and play it to the
/// engine's end (decisions by their defaults, every phase ended).
async fn play_event_table_to_its_end(players: Vec<ClubPlayer>) -> (Vec<GbacwClient>, Vec<UserId>) {
    let mut seated = Vec::new();
    let mut users = Vec::new();
    for mut p in players {
        let ClubReply::YourTable { table, seat, .. } = p
            .news_where(|r| matches!(r, ClubReply::YourTable { .. }))
            .await
        else {
            unreachable!()
        };
        users.push(p.user);
        let mut c = GbacwClient::over(p.conn, "event player");
        c.sit(table, seat, None).await;
        seated.push(c);
    }
    if seated[0].seat != Some(SeatId(0)) {
        seated.swap(0, 1);
        users.swap(0, 1);
    }
    let start = std::time::Instant::now();
    let mut actions = 0u32;
    let mut script = CedarScript::new(21);
    while !seated[0].follower().state().over {
        actions += 1;
        assert!(actions < 20_000, "Cedar Mountain did not end");
        assert!(start.elapsed() < Duration::from_secs(600), "too slow");
        let f = seated[0].follower();
        let (rs, st) = (f.ruleset(), f.state());
        // Decisions by their defaults; the Confederates attack (so that
        // the victory points differ), the Union only ends its phases.
        let (seat, action) = script.next(rs, st);
        let seq = match seated[usize::from(seat.0.min(1))].act(&action).await {
            Ok(seq) => seq,
            Err(e) => {
                script.refused(seat, &action, &e);
                continue;
            }
        };
        script.accepted(&action);
        for s in &mut seated {
            s.sync_to(seq).await;
        }
    }
    println!(
        "{actions} actions to the end of Cedar Mountain in {:?}",
        start.elapsed()
    );
    (seated, users)
}

/// Issue 21: a game the engine ends is scored with the engine's
/// victory-point difference as its margin (the standings' last
/// tie-break), not 0; the standings and the CSV show it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_result_keeps_the_engines_victory_point_margin() {
    // Two scripted players act faster than any person: no rate limit.
    let (server, _dir) = start_server(|c| {
        c.limits.rate_per_sec = 100_000;
        c.limits.rate_burst = 100_000;
    })
    .await;
    let t = Target::of(&server);
    let (mut d, club) = director(&t).await;
    let mut players = vec![
        ClubPlayer::guest(&t, "Pope").await,
        ClubPlayer::guest(&t, "Jackson").await,
    ];
    let mut s = cedar_settings(1, 1);
    s.time = None;
    let event = create_event(&mut d, club, s).await;
    enter(&mut players, event, false).await;
    start_round(&mut d, event).await;
    let (seated, users) = play_event_table_to_its_end(players).await;

    // The engine's own count on the final position, seat 0 less seat 1.
    let f = seated[0].follower();
    let (rs, st) = (f.ruleset(), f.state());
    let vp = rs.victory_points(st);
    let total = |seat: u8| {
        let side = rs.side_of(SeatId(seat));
        i64::from(vp.iter().find(|p| p.side == *side).unwrap().total())
    };
    let expected = total(0) - total(1);
    let outcome = rs.outcome(st).expect("the game is over");
    println!("{}; margin {expected}", outcome.summary);
    assert_ne!(
        expected, 0,
        "the attack scored: a margin of 0 would prove nothing"
    );

    let ClubReply::Result { result, .. } = d
        .news_where(|r| matches!(r, ClubReply::Result { .. }))
        .await
    else {
        unreachable!()
    };
    assert!(matches!(result.how, ResultHow::Engine { .. }), "{result:?}");
    assert_eq!(i64::from(result.vp_margin), expected, "{result:?}");
    let ClubReply::Standings { rows, .. } = d.ask(ClubRequest::Standings { event }).await else {
        panic!()
    };
    let margin_of = |u: UserId| rows.iter().find(|r| r.user == u).unwrap().vp_margin;
    assert_eq!(margin_of(users[0]), expected, "{rows:?}");
    assert_eq!(margin_of(users[1]), -expected, "{rows:?}");
    let ClubReply::Csv { text, .. } = d.ask(ClubRequest::ExportCsv { event }).await else {
        panic!()
    };
    for (u, m) in [(users[0], expected), (users[1], -expected)] {
        let name = rows.iter().find(|r| r.user == u).unwrap().name.clone();
        assert!(
            text.lines()
                .any(|l| l.contains(&format!("\"{name}\",")) && l.ends_with(&format!(",{m},1"))),
            "{text}"
        );
    }
    server.shutdown().await;
}

/// Issue 21: a side out of time under "engine defaults" plays on by the
/// defaults while the engine offers them, but once the engine awaits it in
/// its own phase (what to move, whom to fire at: no default answer) the
/// table would wait for ever. It is scored as a loss on time instead.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engine_defaults_with_no_default_to_give_fall_back_to_a_loss_on_time() {
    let (server, _dir) = start_server(|_| {}).await;
    let t = Target::of(&server);
    let (mut d, club) = director(&t).await;
    let mut players = vec![
        ClubPlayer::guest(&t, "Pope").await,
        ClubPlayer::guest(&t, "Jackson").await,
    ];
    let mut s = cedar_settings(1, 1);
    if let Some(tc) = &mut s.time {
        tc.at_zero = AtZero::EngineDefaults;
    }
    let event = create_event(&mut d, club, s).await;
    enter(&mut players, event, false).await;
    let pairings = start_round(&mut d, event).await;
    let table = pairings[0].table.unwrap();
    let p = &mut players[0];
    p.conn
        .send(&ClientMsg::JoinSeat {
            table,
            seat: None,
            invite: None,
        })
        .await
        .unwrap();
    // Nobody moves: the set-up is answered by default, then the game
    // reaches a decision without one, and ends.
    let deadline = tokio::time::Instant::now() + WAIT;
    let mut defaults = 0;
    let result = loop {
        let m = tokio::time::timeout_at(deadline, p.conn.recv())
            .await
            .expect("the table ends within the wait instead of stalling")
            .unwrap();
        match m {
            ServerMsg::Delta {
                body: DeltaBody::Action {
                    by_default: true, ..
                },
                ..
            } => defaults += 1,
            ServerMsg::Club(ClubReply::Result { result, .. }) => break result,
            _ => {}
        }
    };
    assert!(defaults > 0, "the defaults were used while there were any");
    let ResultHow::Clock { seat } = result.how else {
        panic!("{result:?}")
    };
    let loser = usize::from(seat.0);
    assert_eq!(result.points[loser], 0);
    assert_eq!(result.points[1 - loser], 2);
    let ClubReply::Round { pairings, .. } = d.ask(ClubRequest::Round { event, round: 1 }).await
    else {
        panic!()
    };
    assert_eq!(pairings[0].result.as_ref(), Some(&result));
    assert_eq!(pairings[0].clock_ms.unwrap()[loser], 0);
    server.shutdown().await;
}
