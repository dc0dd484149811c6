//! The UI over the network: a real server in this process (SQLite in a
//! temporary directory, real loopback sockets), two players and a
//! spectator, each with their own `MusterApp` over a `NetTable` — one
//! player on WebSocket, the other and the spectator on QUIC with the
//! certificate pinned. A piece placed and dice rolled through one UI show
//! up, verified, in the others.

use egui::{Event, Modifiers, PointerButton, Pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use muster_client::ConnectOptions;
use muster_client::app::dice::VERIFIED_TEXT;
use muster_client::app::{Join, MusterApp, NetTable, Session};
use muster_server::Server;
use muster_server::config::Config;
use muster_shared::codec;
use muster_shared::protocol::TableOptions;
use muster_shared::sandbox::{Loc, Position, Sandbox, SandboxConfig};
use muster_shared::{SeatId, Viewer};
use std::time::{Duration, Instant};

/// Step a few frames. Not `Harness::run`: that fails when the network
/// delivers (and asks for a repaint) while it waits for the UI to settle.
fn settle(h: &mut Harness<'_, MusterApp>) {
    h.run_steps(4);
}

fn app(table: NetTable<Sandbox>) -> Harness<'static, MusterApp> {
    let names = vec!["Union".to_string(), "Confederate".to_string()];
    let mut h = Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .build_ui_state(
            |ui, app: &mut MusterApp| app.ui(ui),
            MusterApp::new(Session::new(Box::new(table), names)),
        );
    settle(&mut h);
    h
}

/// Step the UI until `done` holds; the network thread delivers meanwhile.
fn wait(h: &mut Harness<'_, MusterApp>, what: &str, done: impl Fn(&MusterApp) -> bool) {
    let end = Instant::now() + Duration::from_secs(20);
    while !done(h.state()) {
        assert!(
            Instant::now() < end,
            "timed out waiting for {what}: {:#?}",
            h.state().session.book().map(|b| &b.log)
        );
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    settle(h);
}

fn click(h: &mut Harness<'_, MusterApp>, p: Pos2) {
    h.hover_at(p);
    h.step();
    for pressed in [true, false] {
        h.event(Event::PointerButton {
            pos: p,
            button: PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        });
        h.step();
    }
    settle(h);
}

#[test]
fn two_players_and_a_spectator_play_through_the_ui_over_a_real_server() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let server = rt
        .block_on(Server::start(Config {
            ws: "127.0.0.1:0".parse().unwrap(),
            quic: "127.0.0.1:0".parse().unwrap(),
            metrics: "127.0.0.1:0".parse().unwrap(),
            data_dir: dir.path().to_path_buf(),
            ..Config::default()
        }))
        .expect("server starts");
    let ws = format!("ws://{}", server.ws_addr);
    let quic = format!("quic://{}", server.quic_addr);
    let opts = ConnectOptions {
        fingerprint: Some(server.fingerprint.clone()),
        ..ConnectOptions::default()
    };
    let options = TableOptions {
        ruleset: "sandbox".into(),
        scenario: "UI test".into(),
        config: codec::encode_infallible(&SandboxConfig::default()),
        private: false,
        spectators_allowed: true,
        spectator_delay: 0,
        take_back_needs_agreement: true,
    };

    let union = NetTable::<Sandbox>::join(&ws, opts.clone(), "Meade", Join::Create(options))
        .expect("create and sit");
    let table = union.table();
    let rebel = NetTable::<Sandbox>::join(
        &quic,
        opts.clone(),
        "Lee",
        Join::Seat {
            table,
            seat: None,
            invite: None,
        },
    )
    .expect("second seat");
    let watcher = NetTable::<Sandbox>::join(
        &quic,
        opts,
        "Watcher",
        Join::Spectate {
            table,
            invite: None,
        },
    )
    .expect("spectate");
    let mut a = app(union);
    let mut b = app(rebel);
    let mut s = app(watcher);
    assert_eq!(a.state().session.active(), Viewer::Seat(SeatId(0)));
    assert_eq!(b.state().session.active(), Viewer::Seat(SeatId(1)));
    assert_eq!(s.state().session.active(), Viewer::Spectator);
    // Both anchors are in before anyone rolls.
    let anchored = |app: &MusterApp| {
        app.session.book().is_some_and(|b| {
            let book = b.follower.book();
            book.next_index(muster_shared::dice::Party::Seat(SeatId(0)))
                .is_some()
                && book
                    .next_index(muster_shared::dice::Party::Seat(SeatId(1)))
                    .is_some()
        })
    };
    wait(&mut a, "both seats' anchors", anchored);

    // Union places a counter by clicking a hex.
    let at = Position {
        board: 0,
        loc: Loc::Hex { col: 6, row: 4 },
    };
    a.get_by_label("Place on board").click();
    settle(&mut a);
    let p = {
        let app = a.state();
        app.board
            .screen_pos(app.session.ruleset().unwrap().config(), at)
            .unwrap()
    };
    click(&mut a, p);
    let has_piece = move |app: &MusterApp| {
        app.session
            .state()
            .is_some_and(|st| st.stack_at(at).len() == 1)
    };
    wait(&mut a, "the placed piece", has_piece);
    wait(&mut b, "the opponent to see it", has_piece);
    wait(&mut s, "the spectator to see it", has_piece);

    // The Confederate player rolls; everyone verifies it.
    b.get_by_label("Roll").click();
    settle(&mut b);
    let rolled = |app: &MusterApp| app.session.book().is_some_and(|b| b.rolls.len() == 1);
    for (h, who) in [(&mut a, "union"), (&mut b, "rebel"), (&mut s, "spectator")] {
        wait(h, who, rolled);
        let book = h.state().session.book().unwrap();
        assert_eq!(book.rolls[0].verdict, Ok(()), "{who}");
        assert_eq!(book.rolls[0].seat, SeatId(1));
        assert!(book.follower.bad_rolls().is_empty());
        h.get_by_label(VERIFIED_TEXT);
    }
    let dice = |h: &Harness<'_, MusterApp>| h.state().session.book().unwrap().rolls[0].dice.clone();
    assert_eq!(dice(&a), dice(&b));
    assert_eq!(dice(&a), dice(&s));

    drop((a, b, s));
    rt.block_on(server.shutdown());
}
