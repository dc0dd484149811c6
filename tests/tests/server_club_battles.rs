//! Issue 21 over a real server on loopback, with scripted clients:
//!
//! - An event of two battles ("a director creates an event: system and
//!   scenario(s)"): round 1 Corinth, round 2 Cedar Mountain. Every table
//!   of a round is made with that round's battle (the table's own config,
//!   as a seated player receives it), the event's page names the round's
//!   battle and the next round's sides, and a game the engine ends is
//!   scored by its own round's levels of victory (Cedar Mountain 27.1's,
//!   not Corinth 31.33's). Settings that do not give one battle per round,
//!   or a battle that cannot be set up, are refused in words.
//! - A director changes a later round's battle before it starts; refused
//!   in words for a started round, to a player, for a battle of another
//!   game or one that cannot be set up.
//! - Leaving a club: a director leaves (no longer listed, directs none of
//!   the club's events, not even the one they created); the owner leaves
//!   only by naming another member, who owns the club from then on, also
//!   after a restart; every refusal is in words.

use muster_shared::SeatId;
use muster_shared::codec;
use muster_shared::engine::Ruleset;
use muster_shared::gbacw::battles::{side_names, title};
use muster_shared::gbacw::ruleset::GbacwConfig;
use muster_shared::protocol::club::{
    ClubError, ClubId, ClubReply, ClubRequest, ClubRole, EventId, EventSettings, EventView,
    LevelPoints, PairingMethod, PointsTable, ResultHow, RoundScenario, SideAssignment,
};
use muster_shared::protocol::{ClientMsg, ServerMsg, TableId};
use muster_tests::club_client::{ClubPlayer, WAIT, connect, refused, register_guests};
use muster_tests::e2e::{Target, start_server_in};
use muster_tests::gbacw_client::{CedarScript, GbacwClient};
use std::time::{Duration, Instant};

async fn director(t: &Target) -> (ClubPlayer, ClubId) {
    let mut d = ClubPlayer::guest(t, "Dora").await;
    d.claim_account("tournament director").await;
    let club = d.create_club("Army of the Mississippi").await;
    (d, club)
}

fn config(battle: &str) -> Vec<u8> {
    codec::encode_infallible(&GbacwConfig {
        battle: battle.into(),
        ..GbacwConfig::default()
    })
}

fn levels(words: [&str; 3], top: u32) -> Vec<LevelPoints> {
    words
        .iter()
        .enumerate()
        .map(|(i, w)| LevelPoints {
            level: (*w).into(),
            winner: top - i as u32,
            loser: u32::from(i == 2),
        })
        .collect()
}

fn round(battle: &str, levels: Vec<LevelPoints>) -> RoundScenario {
    RoundScenario {
        scenario: title(battle).into(),
        config: config(battle),
        levels,
    }
}

/// Round 1 Corinth (its levels 6, 5, 4 points), round 2 Cedar Mountain
/// (9, 8, 7); a plain win is 2.
fn two_battles() -> EventSettings {
    let corinth = levels(["decisive", "substantial", "marginal"], 6);
    EventSettings {
        name: "Corinth and Cedar Mountain".into(),
        ruleset: "gbacw".into(),
        scenario: title("corinth").into(),
        config: config("corinth"),
        rounds: 2,
        pairing: PairingMethod::Swiss,
        sides: SideAssignment::Balanced,
        invite_only: false,
        check_in: false,
        time: None,
        points: PointsTable {
            levels: corinth.clone(),
            ..PointsTable::default()
        },
        seed: 1862,
        round_scenarios: vec![
            round("corinth", corinth),
            round(
                "cedar_mountain",
                levels(["strategic", "tactical", "marginal"], 9),
            ),
        ],
    }
}

async fn watch(p: &mut ClubPlayer, event: EventId) -> EventView {
    match p.ask(ClubRequest::Watch { event }).await {
        ClubReply::EventView(v) => *v,
        other => panic!("{other:?}"),
    }
}

/// The battle table `table` was made with, from the table's own config
/// as a spectator's snapshot carries it.
async fn battle_at(t: &Target, table: TableId) -> String {
    let mut c = connect(t).await;
    c.sign_in_guest("Spectator").await.unwrap();
    c.send(&ClientMsg::Spectate {
        table,
        invite: None,
    })
    .await
    .unwrap();
    let end = Instant::now() + WAIT;
    loop {
        let left = end.saturating_duration_since(Instant::now());
        match c.recv_timeout(left).await {
            Ok(ServerMsg::Snapshot(s)) => {
                assert_eq!(s.table, table);
                let c: GbacwConfig = codec::decode(&s.config, codec::MAX_SERVER_MSG).unwrap();
                return c.battle;
            }
            Ok(ServerMsg::Error { message, .. }) => panic!("table {}: {message}", table.0),
            Ok(_) => {}
            Err(e) => panic!("no snapshot of table {}: {e}", table.0),
        }
    }
}

async fn your_table(p: &mut ClubPlayer, round: u8) -> (TableId, SeatId) {
    match p
        .news_where(|r| matches!(r, ClubReply::YourTable { round: r, .. } if *r == round))
        .await
    {
        ClubReply::YourTable { table, seat, .. } => (table, seat),
        _ => unreachable!(),
    }
}

async fn resign(p: &mut ClubPlayer, event: EventId, table: TableId) {
    p.conn
        .send(&ClientMsg::Club(ClubRequest::Resign { event }))
        .await
        .unwrap();
    p.result_of(table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_of_two_battles_plays_each_rounds_battle_at_every_table() {
    let dir = tempfile::tempdir().unwrap();
    // Two scripted players act faster than any person: no rate limit.
    let server = start_server_in(dir.path(), |c| {
        c.limits.conns_per_addr = 64;
        c.limits.rate_per_sec = 100_000;
        c.limits.rate_burst = 100_000;
    })
    .await;
    let t = Target::of(&server);
    let (mut d, club) = director(&t).await;

    // Refused in words: a list of another length than the rounds, a
    // battle that cannot be set up, a name too long for a table.
    let mut three = two_battles();
    three.rounds = 3;
    let (e, words) = refused(
        d.ask(ClubRequest::CreateEvent {
            club,
            settings: three,
        })
        .await,
    );
    assert_eq!(e, ClubError::BadRequest);
    assert_eq!(
        words,
        "2 battles for 3 rounds: give one battle for each round, or one for them all"
    );
    let mut nowhere = two_battles();
    nowhere.round_scenarios[1].config = config("nowhere");
    let (e, words) = refused(
        d.ask(ClubRequest::CreateEvent {
            club,
            settings: nowhere,
        })
        .await,
    );
    assert_eq!(e, ClubError::BadRequest);
    assert!(
        words.starts_with("round 2's battle cannot be set up: "),
        "{words}"
    );
    let mut long = two_battles();
    long.round_scenarios[0].scenario = "Corinth ".repeat(9);
    let (_, words) = refused(
        d.ask(ClubRequest::CreateEvent {
            club,
            settings: long,
        })
        .await,
    );
    assert_eq!(
        words,
        "round 1's battle is named in 1 to 64 printable bytes"
    );

    let ClubReply::EventCreated { event, .. } = d
        .ask(ClubRequest::CreateEvent {
            club,
            settings: two_battles(),
        })
        .await
    else {
        panic!("no event")
    };
    let v = watch(&mut d, event).await;
    assert_eq!(v.scenario, title("corinth"), "round 1's battle, before it");
    assert_eq!(v.round_scenarios, two_battles().round_scenarios);
    assert_eq!(v.side_names, side_names("corinth").unwrap());
    let ClubReply::Events { events } = d.ask(ClubRequest::Events).await else {
        panic!()
    };
    assert_eq!(
        events[0].scenario,
        format!("{}, then {}", title("corinth"), title("cedar_mountain"))
    );

    let mut players =
        register_guests(&t, event, &["Rosecrans", "Van Dorn", "Price", "Hamilton"]).await;

    // Round 1: both tables play Corinth; both are resigned.
    let ClubReply::Round { pairings, .. } = d.ask(ClubRequest::StartRound { event }).await else {
        panic!()
    };
    assert_eq!(pairings.len(), 2);
    let mut seated = Vec::new();
    for p in &mut players {
        seated.push(your_table(p, 1).await);
    }
    for pairing in &pairings {
        assert_eq!(battle_at(&t, pairing.table.unwrap()).await, "corinth");
    }
    let v = watch(&mut d, event).await;
    assert_eq!(v.scenario, title("corinth"));
    assert_eq!(
        v.side_names,
        side_names("cedar_mountain").unwrap(),
        "bids are for the next round's sides"
    );
    for pairing in &pairings {
        let table = pairing.table.unwrap();
        let i = seated
            .iter()
            .position(|(t, s)| *t == table && *s == SeatId(1))
            .unwrap();
        resign(&mut players[i], event, table).await;
    }

    // Round 2: both tables play Cedar Mountain.
    let ClubReply::Round { pairings, .. } = d.ask(ClubRequest::StartRound { event }).await else {
        panic!()
    };
    let mut round2 = Vec::new();
    for p in &mut players {
        round2.push(your_table(p, 2).await);
    }
    let v = watch(&mut d, event).await;
    assert_eq!(v.scenario, title("cedar_mountain"));
    let ClubReply::DirectorLog { lines, .. } = d.ask(ClubRequest::DirectorLog { event }).await
    else {
        panic!()
    };
    assert!(
        lines.iter().any(|l| l.ends_with(&format!(
            "Dora started round 2 (2 tables of {})",
            title("cedar_mountain")
        ))),
        "{lines:?}"
    );
    // The second table is resigned; the first is played to the engine's
    // end by its two players.
    let second = pairings[1].table.unwrap();
    let i = round2
        .iter()
        .position(|(t, s)| *t == second && *s == SeatId(1))
        .unwrap();
    assert_eq!(battle_at(&t, second).await, "cedar_mountain");
    resign(&mut players[i], event, second).await;
    let first = pairings[0].table.unwrap();
    let mut at_first: Vec<(ClubPlayer, SeatId)> = Vec::new();
    for (p, (t, s)) in players.into_iter().zip(round2) {
        if t == first {
            at_first.push((p, s));
        }
    }
    at_first.sort_by_key(|(_, s)| s.0);
    let mut clients = Vec::new();
    for (p, s) in at_first {
        let mut c = GbacwClient::over(p.conn, &p.name);
        c.sit(first, s, None).await;
        assert_eq!(c.follower().ruleset().config().battle, "cedar_mountain");
        clients.push(c);
    }
    play_to_the_end(&mut clients).await;
    let f = clients[0].follower();
    let outcome = f.ruleset().outcome(f.state()).expect("the game is over");
    let ClubReply::Result { result, .. } = d
        .news_where(|r| matches!(r, ClubReply::Result { table, .. } if *table == first))
        .await
    else {
        unreachable!()
    };
    assert!(matches!(result.how, ResultHow::Engine { .. }), "{result:?}");
    // Scored by Cedar Mountain's levels (round 2's), never Corinth's.
    let summary = outcome.summary.to_lowercase();
    let level = ["strategic", "tactical", "marginal"]
        .iter()
        .position(|w| summary.contains(w))
        .unwrap_or_else(|| panic!("a level of 27.1 in \"{}\"", outcome.summary));
    let winner = outcome.winner.expect("a winner").0;
    let expected = [9 - level as u32, u32::from(level == 2)];
    let points = if winner == 0 {
        expected
    } else {
        [expected[1], expected[0]]
    };
    println!("{}: {:?}", outcome.summary, result.points);
    assert_eq!(result.points, points, "{}", outcome.summary);
    server.shutdown().await;
}

/// Play the table to the engine's end (decisions by their defaults, the
/// Confederates attacking), as `server_club.rs` does.
async fn play_to_the_end(seated: &mut [GbacwClient]) {
    let start = Instant::now();
    let mut actions = 0u32;
    let mut script = CedarScript::new(21);
    while !seated[0].follower().state().over {
        actions += 1;
        assert!(actions < 20_000, "Cedar Mountain did not end");
        assert!(start.elapsed() < Duration::from_secs(600), "too slow");
        let f = seated[0].follower();
        let (seat, action) = script.next(f.ruleset(), f.state());
        let seq = match seated[usize::from(seat.0.min(1))].act(&action).await {
            Ok(seq) => seq,
            Err(e) => {
                script.refused(seat, &action, &e);
                continue;
            }
        };
        script.accepted(&action);
        for s in seated.iter_mut() {
            s.sync_to(seq).await;
        }
    }
    println!(
        "{actions} actions to the end of Cedar Mountain in {:?}",
        start.elapsed()
    );
}

async fn clubs_of(p: &mut ClubPlayer) -> Vec<muster_shared::protocol::club::ClubSummary> {
    match p.ask(ClubRequest::Clubs).await {
        ClubReply::Clubs { clubs, .. } => clubs,
        other => panic!("{other:?}"),
    }
}

fn members(clubs: &[muster_shared::protocol::club::ClubSummary]) -> Vec<(String, ClubRole)> {
    clubs[0]
        .members
        .iter()
        .map(|m| (m.name.clone(), m.role))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_leaves_a_club_and_its_owner_leaves_it_to_another() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server_in(dir.path(), |c| c.limits.conns_per_addr = 64).await;
    let t = Target::of(&server);
    let (mut dora, club) = director(&t).await;
    let mut ann = ClubPlayer::guest(&t, "Ann").await;
    let mut bob = ClubPlayer::guest(&t, "Bob").await;
    let mut cy = ClubPlayer::guest(&t, "Cy").await;
    for p in [&mut ann, &mut bob] {
        let r = p.ask(ClubRequest::JoinClub { club }).await;
        assert!(matches!(r, ClubReply::Member { .. }), "{r:?}");
    }
    let r = dora
        .ask(ClubRequest::SetRole {
            club,
            user: bob.user,
            role: ClubRole::Director,
        })
        .await;
    assert!(matches!(r, ClubReply::Member { .. }), "{r:?}");
    // Bob directs an event of his own.
    let mut settings = two_battles();
    settings.round_scenarios.clear();
    settings.rounds = 1;
    let ClubReply::EventCreated { event, .. } = bob
        .ask(ClubRequest::CreateEvent {
            club,
            settings: settings.clone(),
        })
        .await
    else {
        panic!("no event")
    };
    assert!(watch(&mut bob, event).await.director);

    // Refusals in words: not a member; a member naming an owner.
    let (e, words) = refused(
        cy.ask(ClubRequest::LeaveClub {
            club,
            new_owner: None,
        })
        .await,
    );
    assert_eq!(e, ClubError::NotMember);
    assert_eq!(words, "you are not a member of Army of the Mississippi");
    let (e, words) = refused(
        ann.ask(ClubRequest::LeaveClub {
            club,
            new_owner: Some(bob.user),
        })
        .await,
    );
    assert_eq!(e, ClubError::NotDirector);
    assert_eq!(words, "only the club's owner names a new owner");
    let (e, _) = refused(
        ann.ask(ClubRequest::LeaveClub {
            club: ClubId(999),
            new_owner: None,
        })
        .await,
    );
    assert_eq!(e, ClubError::NoSuchClub);

    // Bob leaves: not listed, and directs not even his own event.
    let r = bob
        .ask(ClubRequest::LeaveClub {
            club,
            new_owner: None,
        })
        .await;
    assert_eq!(
        r,
        ClubReply::LeftClub {
            club,
            new_owner: None
        }
    );
    assert_eq!(
        members(&clubs_of(&mut dora).await),
        [
            ("Dora".to_string(), ClubRole::Owner),
            ("Ann".to_string(), ClubRole::Member)
        ]
    );
    let seen = clubs_of(&mut bob).await;
    assert_eq!(seen[0].role, None);
    assert!(seen[0].members.is_empty());
    assert!(!watch(&mut bob, event).await.director);
    let (e, _) = refused(bob.ask(ClubRequest::StartRound { event }).await);
    assert_eq!(e, ClubError::NotDirector);
    let (e, _) = refused(
        bob.ask(ClubRequest::CreateEvent {
            club,
            settings: settings.clone(),
        })
        .await,
    );
    assert_eq!(e, ClubError::NotDirector);
    let (e, _) = refused(
        bob.ask(ClubRequest::LeaveClub {
            club,
            new_owner: None,
        })
        .await,
    );
    assert_eq!(e, ClubError::NotMember, "he left already");

    // The owner: without naming the next owner, naming herself, or naming
    // someone who is not a member, she stays.
    for (heir, error, said) in [
        (
            None,
            ClubError::BadRequest,
            "you own Army of the Mississippi: name the member who will own it before you leave",
        ),
        (
            Some(dora.user),
            ClubError::BadRequest,
            "name another member to own the club; you are leaving it",
        ),
        (
            Some(bob.user),
            ClubError::NotMember,
            "the new owner must be a member of Army of the Mississippi; that player is not",
        ),
    ] {
        let (e, words) = refused(
            dora.ask(ClubRequest::LeaveClub {
                club,
                new_owner: heir,
            })
            .await,
        );
        assert_eq!((e, words.as_str()), (error, said));
    }
    let r = dora
        .ask(ClubRequest::LeaveClub {
            club,
            new_owner: Some(ann.user),
        })
        .await;
    assert_eq!(
        r,
        ClubReply::LeftClub {
            club,
            new_owner: Some(ann.user)
        }
    );
    assert_eq!(
        members(&clubs_of(&mut ann).await),
        [("Ann".to_string(), ClubRole::Owner)]
    );
    assert_eq!(clubs_of(&mut dora).await[0].role, None);

    // Kept across a restart; Ann, alone, cannot leave her club ownerless.
    let (ann_was, dora_was) = (
        (ann.token.clone(), ann.user),
        (dora.token.clone(), dora.user),
    );
    drop((ann, bob, cy, dora));
    server.shutdown().await;
    let server = start_server_in(dir.path(), |c| c.limits.conns_per_addr = 64).await;
    let t = Target::of(&server);
    let mut ann = ClubPlayer::guest(&t, "Someone").await;
    (ann.token, ann.user) = ann_was;
    ann.back(&t).await;
    assert_eq!(
        members(&clubs_of(&mut ann).await),
        [("Ann".to_string(), ClubRole::Owner)]
    );
    let (e, words) = refused(
        ann.ask(ClubRequest::LeaveClub {
            club,
            new_owner: None,
        })
        .await,
    );
    assert_eq!(e, ClubError::BadRequest);
    assert_eq!(
        words,
        "you own Army of the Mississippi and are its only member: a club keeps its owner, so \
         you cannot leave it"
    );
    let mut dora = ClubPlayer::guest(&t, "Someone else").await;
    (dora.token, dora.user) = dora_was;
    dora.back(&t).await;
    let (e, _) = refused(dora.ask(ClubRequest::CreateEvent { club, settings }).await);
    assert_eq!(e, ClubError::NotDirector);
    server.shutdown().await;
}

/// One battle for the event, Cedar Mountain (its levels 9, 8, 7).
fn one_battle(rounds: u8) -> EventSettings {
    let cedar = levels(["strategic", "tactical", "marginal"], 9);
    EventSettings {
        name: "Cedar Mountain, then perhaps Corinth".into(),
        ruleset: "gbacw".into(),
        scenario: title("cedar_mountain").into(),
        config: config("cedar_mountain"),
        rounds,
        pairing: PairingMethod::Swiss,
        sides: SideAssignment::Balanced,
        invite_only: false,
        check_in: false,
        time: None,
        points: PointsTable {
            levels: cedar,
            ..PointsTable::default()
        },
        seed: 1862,
        round_scenarios: Vec::new(),
    }
}

/// A director changes a later round's battle before it starts (issue 21,
/// the director's desk): refused in words to a player, for a round the
/// event does not have, for a started round, for a battle of another
/// game, for a battle that cannot be set up; done for round 2 of an event
/// of one battle (rounds 1 and 3 keep it), logged, shown on the event's
/// page with the next round's sides, and round 2's tables are made with
/// the new battle. Kept over a restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_director_changes_a_later_rounds_battle_before_it_starts() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server_in(dir.path(), |c| c.limits.conns_per_addr = 64).await;
    let t = Target::of(&server);
    let (mut d, club) = director(&t).await;
    let ClubReply::EventCreated { event, .. } = d
        .ask(ClubRequest::CreateEvent {
            club,
            settings: one_battle(3),
        })
        .await
    else {
        panic!("no event")
    };
    let mut players = register_guests(&t, event, &["Banks", "Jackson", "Pope", "Ewell"]).await;
    let corinth = || {
        round(
            "corinth",
            levels(["decisive", "substantial", "marginal"], 6),
        )
    };
    let set = |round: u8, ruleset: &str, battle: RoundScenario| ClubRequest::SetRoundBattle {
        event,
        round,
        ruleset: ruleset.into(),
        battle,
    };

    // Refusals, in words.
    let (e, words) = refused(players[0].ask(set(2, "gbacw", corinth())).await);
    assert_eq!(e, ClubError::NotDirector);
    assert_eq!(
        words,
        "only the event's director or its club's owner may do that"
    );
    let (e, words) = refused(d.ask(set(4, "gbacw", corinth())).await);
    assert_eq!(e, ClubError::BadRequest);
    assert_eq!(words, "the event has 3 rounds; there is no round 4");
    let (e, words) = refused(d.ask(set(2, "sandbox", corinth())).await);
    assert_eq!(e, ClubError::BadRequest);
    assert_eq!(
        words,
        format!(
            "this event plays Great Battles of the American Civil War; {} is a battle of the test sandbox",
            title("corinth")
        )
    );
    let mut nowhere = corinth();
    nowhere.config = config("nowhere");
    let (e, words) = refused(d.ask(set(2, "gbacw", nowhere)).await);
    assert_eq!(e, ClubError::BadRequest);
    assert!(
        words.starts_with("round 2's battle cannot be set up: "),
        "{words}"
    );
    let mut garbage = corinth();
    garbage.config = vec![0xff; 7];
    let (e, _) = refused(d.ask(set(2, "gbacw", garbage)).await);
    assert_eq!(e, ClubError::BadRequest);
    let v = watch(&mut d, event).await;
    assert!(v.round_scenarios.is_empty(), "nothing changed");

    // Round 1 starts: its battle can no longer change.
    let ClubReply::Round { pairings, .. } = d.ask(ClubRequest::StartRound { event }).await else {
        panic!("round 1 did not start")
    };
    assert_eq!(pairings.len(), 2);
    let (e, words) = refused(d.ask(set(1, "gbacw", corinth())).await);
    assert_eq!(e, ClubError::WrongTime);
    assert_eq!(
        words,
        "round 1 has started: its battle can no longer change"
    );

    // Round 2 is given Corinth; rounds 1 and 3 keep Cedar Mountain.
    let r = d.ask(set(2, "gbacw", corinth())).await;
    assert_eq!(
        r,
        ClubReply::Notice {
            event,
            words: format!("round 2 now plays {}", title("corinth")),
        }
    );
    let v = watch(&mut d, event).await;
    let cedar = round(
        "cedar_mountain",
        levels(["strategic", "tactical", "marginal"], 9),
    );
    assert_eq!(v.round_scenarios, vec![cedar.clone(), corinth(), cedar]);
    assert_eq!(
        v.side_names,
        side_names("corinth").unwrap(),
        "round 2's sides"
    );
    let ClubReply::DirectorLog { lines, .. } = d.ask(ClubRequest::DirectorLog { event }).await
    else {
        panic!()
    };
    let line = format!(
        "Dora changed round 2's battle to {} (it was {})",
        title("corinth"),
        title("cedar_mountain")
    );
    assert!(lines.iter().any(|l| l.ends_with(&line)), "{lines:?}");

    // Round 1 ends (played at Cedar Mountain).
    for p in players.iter_mut() {
        let (table, seat) = your_table(p, 1).await;
        assert_eq!(battle_at(&t, table).await, "cedar_mountain");
        if seat.0 == 1 {
            resign(p, event, table).await;
        }
    }
    // The change is kept over a restart, and round 2 is played at Corinth.
    drop(players);
    server.shutdown().await;
    let server = start_server_in(dir.path(), |c| c.limits.conns_per_addr = 64).await;
    let t = Target::of(&server);
    d.back(&t).await;
    let v = watch(&mut d, event).await;
    assert_eq!(v.round_scenarios[1], corinth(), "kept over a restart");
    let ClubReply::Round { pairings, .. } = d.ask(ClubRequest::StartRound { event }).await else {
        panic!("round 2 did not start")
    };
    assert_eq!(pairings.len(), 2);
    for p in &pairings {
        assert_eq!(battle_at(&t, p.table.unwrap()).await, "corinth");
    }
    let v = watch(&mut d, event).await;
    assert_eq!(v.scenario, title("corinth"), "round 2's battle");
    server.shutdown().await;
}
