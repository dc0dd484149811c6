//! Issue 21 in the lobby, through the real UI (egui_kittest) against a
//! real server in this process (SQLite in a temporary directory, loopback
//! sockets): a player who signed in by clicks sees the club's events,
//! registers for one by a click, turns on the desktop notification,
//! and — once the director started a slow-play round — finds the game in
//! "Your tables" with the opponent's move and the time left from the
//! server's deadline. When the opponent (a scripted client at the table)
//! ends the Union set-up, the game waits on the player: "your move" is
//! marked, and the window's attention request, its title and one desktop
//! notification are issued then and only then (recorded by the seam that
//! stands for the window and the desktop). The event's page opens from the
//! lobby, the table opens from the page's "your games", and "< Lobby" goes
//! back each time. Writes `docs/screens/lobby-events.png` and
//! `lobby-your-games.png` (1280×800).

use crate::support;

use egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use muster_client::ConnectOptions;
use muster_client::app::event::grid;
use muster_client::app::lobby::{LobbyApp, NOTIFY, OpenTable, Store, events, list};
use muster_client::app::your_move::{Call, Recorder};
use muster_client::app::{Join, NetTable, Session, SignIn};
use muster_shared::SeatId;
use muster_shared::codec;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwAction, GbacwConfig};
use muster_shared::protocol::club::{
    AtZero, ClubReply, ClubRequest, EventSettings, PairingMethod, PointsTable, SideAssignment,
    TimeControl,
};
use muster_shared::protocol::{TableId, UserId};
use std::time::{Duration, Instant};
use support::club::{Scripted, WAIT};
use support::screens::{self, steps};
use support::{start_server_with, wait};

fn settings(name: &str) -> EventSettings {
    let config = GbacwConfig {
        battle: "cedar_mountain".into(),
        ..GbacwConfig::default()
    };
    EventSettings {
        name: name.into(),
        ruleset: "gbacw".into(),
        scenario: "Cedar Mountain".into(),
        config: codec::encode_infallible(&config),
        rounds: 1,
        pairing: PairingMethod::Swiss,
        sides: SideAssignment::Balanced,
        invite_only: false,
        check_in: false,
        // Slow play: a day per decision, a week in the bank.
        time: Some(TimeControl {
            bank_secs: 7 * 24 * 3600,
            increment_secs: 0,
            per_decision_secs: 24 * 3600,
            at_zero: AtZero::Loss,
        }),
        points: PointsTable::default(),
        seed: 1862,
        round_scenarios: Vec::new(),
    }
}

fn save(h: &mut Harness<'_, LobbyApp>, name: &str) {
    // The pointer out of the way, over the empty list.
    screens::save(h, name, egui::pos2(400.0, 700.0));
}

fn desktop_calls(rec: &Recorder) -> Vec<Call> {
    rec.calls()
        .into_iter()
        .filter(|c| matches!(c, Call::Desktop { .. }))
        .collect()
}

#[test]
fn the_lobby_lists_events_opens_their_pages_and_tells_when_your_slow_move_comes() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let srv = start_server_with(&rt, |c| c.limits.conns_per_addr = 64);
    let (mut dora, jackson, event, other) = rt.block_on(async {
        let mut dora = Scripted::guest(&srv.ws, "Dora").await;
        dora.ask(ClubRequest::ClaimAccount {
            password: "tournament director".into(),
        })
        .await;
        let ClubReply::ClubCreated { club, .. } = dora
            .ask(ClubRequest::CreateClub {
                name: "Culpeper Wargamers".into(),
            })
            .await
        else {
            panic!("no club")
        };
        let mut made = Vec::new();
        for name in ["Culpeper Autumn Swiss", "Rapidan Winter Ladder"] {
            let ClubReply::EventCreated { event, .. } = dora
                .ask(ClubRequest::CreateEvent {
                    club,
                    settings: settings(name),
                })
                .await
            else {
                panic!("no event")
            };
            made.push(event);
        }
        let mut jackson = Scripted::guest(&srv.ws, "Jackson").await;
        let r = jackson
            .ask(ClubRequest::Register {
                event: made[0],
                invite: None,
            })
            .await;
        assert!(matches!(r, ClubReply::Registered { .. }), "{r:?}");
        (dora, jackson, made[0], made[1])
    });

    // Meade signs in by clicks; the events are listed.
    let store = tempfile::tempdir().unwrap();
    let rec = Recorder::default();
    let mut app =
        LobbyApp::new(Store::at(store.path()), &srv.ws, "Meade").with_herald(Box::new(rec.clone()));
    app.club_every = Duration::from_millis(200);
    let mut h = Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .wgpu()
        .build_ui_state(|ui, app: &mut LobbyApp| app.ui(ui), app);
    steps(&mut h);
    h.get_by_label("Connect").click();
    wait(&mut h, "the events listed", |a| {
        a.lobby.as_ref().is_some_and(|l| l.events.len() == 2)
    });
    h.get_by_label(events::EVENTS);
    let listed = h.state().lobby.as_ref().unwrap().events.clone();
    let swiss = listed.iter().find(|e| e.event == event).unwrap().clone();
    assert_eq!(events::stage(&swiss), "registration open");
    assert!(!swiss.entered && !swiss.director);

    // Register by a click; the list says so.
    h.get_by_label(&events::register_label(&swiss)).click();
    wait(&mut h, "Meade registered", |a| {
        a.lobby
            .as_ref()
            .is_some_and(|l| l.events.iter().any(|e| e.event == event && e.entered))
    });
    h.get_by_label("you entered");
    assert!(h.query_by_label(&events::register_label(&swiss)).is_none());
    // The desktop notification on, by a click; kept for the next start.
    assert!(!h.state().watch.desktop, "off until turned on");
    h.get_by_label(NOTIFY).click();
    steps(&mut h);
    assert!(h.state().watch.desktop);
    assert!(Store::at(store.path()).notify());
    save(&mut h, "lobby-events.png");

    // The director pairs the round with Jackson first (the Union, who sets
    // up first, Cedar Mountain 26.2) and starts it.
    rt.block_on(async {
        let ClubReply::Proposed { pairings, .. } = dora.ask(ClubRequest::PairRound { event }).await
        else {
            panic!("no proposal")
        };
        let ids: Vec<UserId> = pairings[0].players.iter().flatten().map(|p| p.0).collect();
        let meade = *ids.iter().find(|u| **u != jackson.user).unwrap();
        dora.ask(ClubRequest::RePair {
            event,
            games: vec![[Some(jackson.user), Some(meade)]],
        })
        .await;
        let r = dora.ask(ClubRequest::StartRound { event }).await;
        assert!(matches!(r, ClubReply::Round { .. }), "{r:?}");
    });
    // Your tables: the game, Jackson's move, the time left; no call yet.
    wait(&mut h, "the game in your tables", |a| {
        a.lobby.as_ref().is_some_and(|l| {
            l.your_games.len() == 1
                && l.tables.contains_key(&l.your_games[0].table)
                && l.your_games[0].progress.is_some()
        })
    });
    let table: TableId = h.state().lobby.as_ref().unwrap().your_games[0].table;
    h.get_by_label(list::YOUR_TABLES);
    h.get_by_label("Jackson's move");
    h.get_by_label_contains("7 days 0 h in the bank");
    assert!(h.query_by_label(list::YOUR_MOVE).is_none());
    let before = rec.calls();
    assert!(
        !before.contains(&Call::Attention) && desktop_calls(&rec).is_empty(),
        "told before the move came: {before:?}"
    );

    // Jackson, at the table, ends the Union set-up: Meade's move.
    let names = vec!["Union".to_string(), "Confederate".to_string()];
    let t = NetTable::<Gbacw>::open(
        &srv.ws,
        ConnectOptions::default(),
        SignIn::Resume(jackson.token.clone()),
        Join::Seat {
            table,
            seat: Some(SeatId(0)),
            invite: None,
        },
    )
    .expect("Jackson at his table");
    let mut js = Session::new(Box::new(t), names);
    let end = Instant::now() + WAIT;
    while js.book().is_none() {
        assert!(Instant::now() < end, "Jackson's table never arrived");
        js.pump();
        std::thread::sleep(Duration::from_millis(20));
    }
    js.act(GbacwAction::EndSetUp);
    let told_at = Instant::now();
    wait(&mut h, "your move", |a| a.watch.waiting().contains(&table));
    eprintln!(
        "your move told {} ms after the opponent's action",
        told_at.elapsed().as_millis()
    );
    wait(&mut h, "the deadline of the decision", |a| {
        a.lobby
            .as_ref()
            .is_some_and(|l| l.your_games[0].your_move && l.your_games[0].decision_ms.is_some())
    });
    h.get_by_label(list::YOUR_MOVE);
    h.get_by_label_contains("left to answer");
    let calls = rec.calls()[before.len()..].to_vec();
    assert_eq!(
        calls.iter().filter(|c| **c == Call::Attention).count(),
        1,
        "one attention request: {calls:?}"
    );
    assert!(
        calls.contains(&Call::Title("Muster \u{2014} your move".into())),
        "{calls:?}"
    );
    let desktop = desktop_calls(&rec);
    assert_eq!(desktop.len(), 1, "one notification: {desktop:?}");
    let Call::Desktop { summary, body } = &desktop[0] else {
        unreachable!()
    };
    assert_eq!(summary, "Muster: your move");
    assert_eq!(
        body,
        &format!("Table {}: Cedar Mountain against Jackson", table.0)
    );
    // Still waiting a few refreshes later: told once, not again.
    for _ in 0..30 {
        h.step();
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(desktop_calls(&rec).len(), 1, "told again");
    save(&mut h, "lobby-your-games.png");

    // The event's page from the lobby; its your games open the table; back.
    let swiss_now = h
        .state()
        .lobby
        .as_ref()
        .unwrap()
        .events
        .iter()
        .find(|e| e.event == event)
        .unwrap()
        .clone();
    assert_eq!(events::stage(&swiss_now), "round 1 of 1");
    h.get_by_label(&events::open_label(&swiss_now)).click();
    wait(&mut h, "the event's page", |a| {
        a.event
            .as_ref()
            .is_some_and(|p| p.view.is_some() && p.your_games.len() == 1)
    });
    assert_eq!(h.state().event.as_ref().unwrap().event, event);
    h.get_by_label(grid::YOUR_GAMES);
    h.get_by_label(&grid::open_label(table)).click();
    wait(
        &mut h,
        "the table over the page",
        |a| matches!(&a.table, Some(OpenTable::Gbacw { app, .. }) if app.session.book().is_some()),
    );
    h.get_by_label("< Lobby").click();
    steps(&mut h);
    assert!(
        h.state().table.is_none() && h.state().event.is_some(),
        "back to the page"
    );
    h.get_by_label("< Lobby").click();
    steps(&mut h);
    assert!(h.state().event.is_none(), "back to the lobby");
    h.get_by_label(events::EVENTS);
    // The other event is still open for registration.
    assert!(
        h.state()
            .lobby
            .as_ref()
            .unwrap()
            .events
            .iter()
            .any(|e| e.event == other && e.registration_open && !e.entered)
    );
    drop((dora, jackson, js));
}
