//! Issue 21: an event's page through the real UI (egui_kittest) against a
//! real server in this process (SQLite in a temporary directory, loopback
//! sockets). Nine players enter a Cedar Mountain event by script (one a
//! reserve who does not check in); the director's page, driven by clicks,
//! pairs the first round, swaps two players, starts it; picks a table and
//! pauses it, gives a side time, puts the reserve in a seat, adjudicates
//! another; the server's state is checked after each click. A player who
//! directs nothing sees the grid of status cards (Game-Turn and phase in
//! words, clocks, the side awaited), features a table, and reads the
//! standings, and is never shown the director's tab. Writes
//! `docs/screens/event-grid.png`, `standings.png`, `director.png`,
//! `event-vacation.png` and `event-bid.png` (1280×800).

use crate::support;

use egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use muster_client::ConnectOptions;
use muster_client::app::SignIn;
use muster_client::app::event::{EventApp, Tab};
use muster_shared::codec;
use muster_shared::gbacw::ruleset::GbacwConfig;
use muster_shared::protocol::ClientMsg;
use muster_shared::protocol::club::{
    AtZero, ClubReply, ClubRequest, EventId, EventSettings, PairingMethod, PointsTable, ResultHow,
    SideAssignment, TimeControl,
};
use std::time::Duration;
use support::club::Scripted;
use support::screens::{self, no_programmer_text, steps, texts, type_into};
use support::{start_server_with, wait};

pub(crate) fn settings() -> EventSettings {
    let config = GbacwConfig {
        battle: "cedar_mountain".into(),
        ..GbacwConfig::default()
    };
    EventSettings {
        name: "Culpeper Autumn Swiss".into(),
        ruleset: "gbacw".into(),
        scenario: "Cedar Mountain".into(),
        config: codec::encode_infallible(&config),
        rounds: 3,
        pairing: PairingMethod::Swiss,
        sides: SideAssignment::Balanced,
        invite_only: false,
        check_in: true,
        time: Some(TimeControl {
            bank_secs: 2 * 3600,
            increment_secs: 60,
            per_decision_secs: 0,
            at_zero: AtZero::Loss,
        }),
        points: PointsTable::default(),
        seed: 1862,
        round_scenarios: Vec::new(),
    }
}

/// Dora claims an account, creates the club and an event with `settings`:
/// the director of every test here.
pub(crate) async fn director_with_event(url: &str, settings: EventSettings) -> (Scripted, EventId) {
    let mut dora = Scripted::guest(url, "Dora").await;
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
    let ClubReply::EventCreated { event, .. } =
        dora.ask(ClubRequest::CreateEvent { club, settings }).await
    else {
        panic!("no event")
    };
    (dora, event)
}

pub(crate) fn page(url: &str, token: &str, event: EventId) -> Harness<'static, EventApp> {
    let app = EventApp::connect_every(
        url,
        ConnectOptions::default(),
        SignIn::Resume(token.to_string()),
        event,
        Duration::from_millis(200),
    )
    .unwrap();
    Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .wgpu()
        .build_ui_state(|ui, app: &mut EventApp| app.ui(ui), app)
}

pub(crate) fn save(h: &mut Harness<'_, EventApp>, name: &str) {
    // The pointer in the window's corner, over nothing.
    screens::save(h, name, egui::pos2(1279.0, 799.0));
}

#[test]
fn the_director_pairs_swaps_starts_pauses_adds_time_replaces_and_adjudicates_by_clicks() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let srv = start_server_with(&rt, |c| c.limits.conns_per_addr = 64);
    let names = [
        "Banks", "Crawford", "Geary", "Prince", "Jackson", "Early", "Winder", "Hill",
    ];
    let (dora, event, mut players, rex) = rt.block_on(async {
        let (dora, event) = director_with_event(&srv.ws, settings()).await;
        let mut players = Vec::new();
        for n in names {
            let mut p = Scripted::guest(&srv.ws, n).await;
            p.ask(ClubRequest::Register {
                event,
                invite: None,
            })
            .await;
            p.ask(ClubRequest::CheckIn { event }).await;
            players.push(p);
        }
        let mut rex = Scripted::guest(&srv.ws, "Rex").await;
        rex.ask(ClubRequest::Register {
            event,
            invite: None,
        })
        .await;
        (dora, event, players, rex)
    });

    let mut d = page(&srv.ws, &dora.token, event);
    wait(&mut d, "the event page", |a| a.view.is_some());
    assert!(d.state().directs());
    d.get_by_label("Director").click();
    steps(&mut d);
    no_programmer_text(&d);

    // Pair round 1 without starting it; swap two players by clicks.
    d.get_by_label("Pair the next round").click();
    wait(&mut d, "the proposal", |a| {
        a.view.as_ref().is_some_and(|v| v.proposed.is_some())
    });
    let proposed = d.state().view.as_ref().unwrap().proposed.clone().unwrap();
    let first = proposed[0].players[1].clone().unwrap();
    let second = proposed[1].players[1].clone().unwrap();
    d.get_by_label(&format!("↔ {}", first.1)).click();
    steps(&mut d);
    d.get_by_label(&format!("↔ {}", second.1)).click();
    wait(&mut d, "the swap", |a| {
        a.view
            .as_ref()
            .and_then(|v| v.proposed.as_ref())
            .is_some_and(|p| {
                p[0].players[1].as_ref().map(|x| x.0) == Some(second.0)
                    && p[1].players[1].as_ref().map(|x| x.0) == Some(first.0)
            })
    });
    d.get_by_label("Start the next round").click();
    wait(&mut d, "round 1's tables", |a| {
        a.view
            .as_ref()
            .is_some_and(|v| v.round == 1 && v.tables.len() == 4)
    });
    let v = d.state().view.clone().unwrap();
    assert_eq!(
        v.tables[0].players[1].as_ref().map(|x| x.0),
        Some(second.0),
        "started as re-paired"
    );
    // Every table says where its game is.
    wait(&mut d, "every table's Game-Turn and phase", |a| {
        a.view
            .as_ref()
            .is_some_and(|v| v.tables.iter().all(|c| c.progress.is_some()))
    });
    let t1 = v.tables[0].table.unwrap();
    let t2 = v.tables[1].table.unwrap();
    let t3 = v.tables[2].table.unwrap();

    // Pick table 1; pause it.
    d.get_by_label(&format!("Table {}", t1.0)).click();
    steps(&mut d);
    d.get_by_label("Pause this table").click();
    wait(&mut d, "table 1 paused", |a| {
        a.view.as_ref().is_some_and(|v| v.tables[0].paused)
    });
    d.get_by_label("Resume this table").click();
    wait(&mut d, "table 1 resumed", |a| {
        a.view.as_ref().is_some_and(|v| !v.tables[0].paused)
    });
    // Ten more minutes for its second side.
    let before = d.state().view.as_ref().unwrap().tables[0].clock_ms.unwrap()[1];
    let b_name = v.tables[0].players[1].clone().unwrap().1;
    d.get_by_label(&format!("{b_name}'s side")).click();
    steps(&mut d);
    d.state_mut().desk.minutes = 10;
    steps(&mut d);
    d.get_by_label("Add time").click();
    wait(&mut d, "ten more minutes", |a| {
        a.view
            .as_ref()
            .is_some_and(|v| v.tables[0].clock_ms.unwrap()[1] >= before + 600_000 - 5_000)
    });

    // Rex takes table 2's first seat.
    d.get_by_label(&format!("Table {}", t2.0)).click();
    steps(&mut d);
    let a2 = v.tables[1].players[0].clone().unwrap().1;
    d.get_by_label(&format!("{a2}'s side")).click();
    steps(&mut d);
    d.get_by_label("Rex (reserve)").click();
    steps(&mut d);
    d.get_by_label("Replace").click();
    wait(&mut d, "Rex seated", |a| {
        a.view
            .as_ref()
            .is_some_and(|v| v.tables[1].players[0].as_ref().map(|x| x.0) == Some(rex.user))
    });

    // Table 3 adjudicated: its first side wins, with a reason.
    d.get_by_label(&format!("Table {}", t3.0)).click();
    steps(&mut d);
    let a3 = v.tables[2].players[0].clone().unwrap().1;
    d.get_by_label(&format!("{a3} wins")).click();
    steps(&mut d);
    type_into(
        &mut d,
        "Reason:",
        "Union player called away; position clearly won",
    );
    d.get_by_label("Adjudicate").click();
    wait(&mut d, "table 3's result", |a| {
        a.view.as_ref().is_some_and(|v| {
            v.tables[2].result.as_ref().is_some_and(|r| {
                r.points == [2, 0] && matches!(r.how, ResultHow::Adjudicated { .. })
            })
        })
    });
    // Table 4: a player resigns (by script).
    let loser = v.tables[3].players[1].clone().unwrap().0;
    rt.block_on(async {
        let p = players.iter_mut().find(|p| p.user == loser).unwrap();
        p.conn
            .send(&ClientMsg::Club(ClubRequest::Resign { event }))
            .await
            .unwrap();
    });
    wait(&mut d, "table 4's result and the log", |a| {
        a.view
            .as_ref()
            .is_some_and(|v| v.tables[3].result.is_some())
            && a.log.iter().any(|l| l.contains("adjudicated"))
    });
    // Table 1 picked again for the picture, paused.
    d.get_by_label(&format!("Table {}", t1.0)).click();
    steps(&mut d);
    d.get_by_label("Pause this table").click();
    wait(&mut d, "table 1 paused again", |a| {
        a.view.as_ref().is_some_and(|v| v.tables[0].paused)
    });
    wait(&mut d, "the log of every action", |a| {
        a.log.iter().any(|l| l.contains("Rex takes"))
            && a.log.iter().filter(|l| l.contains("paused")).count() >= 2
    });
    no_programmer_text(&d);
    save(&mut d, "director.png");

    // A player who directs nothing (Rex, now at a table): the grid, a
    // featured table, "your games", the standings; no desk.
    let mut w = page(&srv.ws, &rex.token, event);
    wait(&mut w, "the watcher's page", |a| {
        a.view.as_ref().is_some_and(|v| v.tables.len() == 4)
    });
    assert!(!w.state().directs());
    assert!(w.query_by_label("Director").is_none());
    w.get_by_label(&format!("Feature table {}", t2.0)).click();
    steps(&mut w);
    assert_eq!(w.state().featured, Some(t2));
    w.get_by_label(&format!("Featured: table {}", t2.0));
    // Game-Turn and phase in words on the cards.
    wait(&mut w, "Rex's games", |a| a.your_games.len() == 1);
    let shown = texts(&w);
    assert!(
        shown.iter().any(|t| t.starts_with("Game-Turn 1")),
        "no Game-Turn on the cards: {shown:?}"
    );
    no_programmer_text(&w);
    save(&mut w, "event-grid.png");
    w.get_by_label("Standings").click();
    steps(&mut w);
    assert_eq!(w.state().tab, Tab::Standings);
    for c in muster_client::app::event::standings::COLUMNS {
        w.get_by_label(c);
    }
    let rows = &w.state().view.as_ref().unwrap().standings;
    assert_eq!(rows.len(), 8, "seven of the eight and Rex, who took a seat");
    assert!(rows.iter().any(|r| r.name == "Rex"));
    assert_eq!(rows.iter().filter(|r| r.points == 2).count(), 2);
    no_programmer_text(&w);
    save(&mut w, "standings.png");
    drop((dora, rex, players));
}

/// Issue 21, slow play: the director gives each player three vacation
/// days by a click; a player reads how many are left on the event page
/// and takes one by a click;
/// the server holds it (asked again by script) and the page says the
/// clocks are held.
#[test]
fn a_player_takes_a_vacation_day_by_a_click() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let srv = start_server_with(&rt, |c| c.limits.conns_per_addr = 64);
    let (dora, event, mut banks) = rt.block_on(async {
        let (dora, event) = director_with_event(&srv.ws, settings()).await;
        let mut banks = Scripted::guest(&srv.ws, "Banks").await;
        banks
            .ask(ClubRequest::Register {
                event,
                invite: None,
            })
            .await;
        (dora, event, banks)
    });
    // The director gives each player three days, by clicks.
    let mut d = page(&srv.ws, &dora.token, event);
    wait(&mut d, "the event page", |a| a.view.is_some());
    d.get_by_label("Director").click();
    steps(&mut d);
    d.get_by_label(muster_client::app::event::director::SET_VACATION_DAYS)
        .click();
    wait(&mut d, "the days set", |a| {
        a.notice
            .as_deref()
            .is_some_and(|n| n.contains("3 vacation days"))
    });
    let mut p = page(&srv.ws, &banks.token, event);
    wait(&mut p, "the vacation days", |a| {
        a.vacation.is_some_and(|v| v.days_left == 3)
    });
    steps(&mut p);
    p.get_by_label("3 vacation days left.");
    no_programmer_text(&p);
    p.get_by_label(muster_client::app::event::grid::TAKE_VACATION_DAY)
        .click();
    wait(&mut p, "the day taken", |a| {
        a.vacation
            .is_some_and(|v| v.days_left == 2 && v.until.is_some())
    });
    steps(&mut p);
    p.get_by_label("2 vacation days left.");
    save(&mut p, "event-vacation.png");
    let held = texts(&p).into_iter().any(|t| {
        t.starts_with("On vacation: your clocks are held for 23 h")
            || t.starts_with("On vacation: your clocks are held for 1 days")
    });
    assert!(held, "{:?}", texts(&p));
    no_programmer_text(&p);
    let r = rt.block_on(banks.ask(ClubRequest::TakeVacation { event, days: 0 }));
    let ClubReply::Vacation {
        days_left, until, ..
    } = r
    else {
        panic!("{r:?}")
    };
    assert_eq!(days_left, 2, "the server holds the day taken");
    assert!(until.is_some());
}

/// Issue 21, sides by bid: a player of a bid event picks the side wanted
/// and bids for it by clicks on the event page; when the round starts,
/// the server seats him there (his opponent bid nothing).
#[test]
fn a_player_bids_for_a_side_by_clicks() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let srv = start_server_with(&rt, |c| c.limits.conns_per_addr = 64);
    let (mut dora, event, banks) = rt.block_on(async {
        let (dora, event) = director_with_event(
            &srv.ws,
            EventSettings {
                sides: SideAssignment::Bid,
                ..settings()
            },
        )
        .await;
        let mut players = Vec::new();
        for n in ["Banks", "Jackson"] {
            let mut p = Scripted::guest(&srv.ws, n).await;
            p.ask(ClubRequest::Register {
                event,
                invite: None,
            })
            .await;
            p.ask(ClubRequest::CheckIn { event }).await;
            players.push(p);
        }
        (dora, event, players.remove(0))
    });
    let mut p = page(&srv.ws, &banks.token, event);
    wait(&mut p, "the bid", |a| a.view.is_some() && a.me.is_some());
    steps(&mut p);
    // The sides by the scenario's names (not "Side 2").
    let [_, confederate] = muster_shared::gbacw::battles::side_names("cedar_mountain").unwrap();
    p.get_by_label(&confederate).click();
    steps(&mut p);
    p.get_by_label(muster_client::app::event::grid::PLACE_BID)
        .click();
    wait(&mut p, "the bid placed", |a| {
        a.notice
            .as_deref()
            .is_some_and(|n| n.starts_with("Your bid of 0 victory points for Confederate"))
    });
    no_programmer_text(&p);
    save(&mut p, "event-bid.png");
    let r = rt.block_on(dora.ask(ClubRequest::StartRound { event }));
    let ClubReply::Round { pairings, .. } = r else {
        panic!("{r:?}")
    };
    let seated = pairings
        .iter()
        .any(|g| g.players[1].as_ref().is_some_and(|(u, _)| *u == banks.user));
    assert!(seated, "Banks takes the side he bid for: {pairings:?}");
}
