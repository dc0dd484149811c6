//! The GBACW table over the network: a real server in this process
//! (SQLite in a temporary directory, loopback sockets); the Union player
//! creates a GBACW table over WebSocket, the Confederate player joins over
//! QUIC with the certificate pinned, each in their own `GbacwApp`. The
//! Union ends the Initial Command Phase and moves a unit by clicking; the
//! Confederate's table shows both.

use egui::{Event, Modifiers, PointerButton, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use muster_client::ConnectOptions;
use muster_client::app::gbacw::{GbacwApp, track};
use muster_client::app::{Join, NetTable};
use muster_server::Server;
use muster_server::config::Config;
use muster_shared::codec;
use muster_shared::gbacw::oob::CounterId;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwConfig};
use muster_shared::gbacw::sequence::{Phase, Step};
use muster_shared::protocol::TableOptions;
use muster_shared::{SeatId, Viewer};
use std::time::{Duration, Instant};

use crate::support;

fn app(table: NetTable<Gbacw>) -> Harness<'static, GbacwApp> {
    support::kittest::net_gbacw(table, support::kittest::SIZE)
}

fn wait(h: &mut Harness<'_, GbacwApp>, what: &str, done: impl Fn(&GbacwApp) -> bool) {
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
    h.step();
}

fn click(h: &mut Harness<'_, GbacwApp>, p: Pos2) {
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
    h.step();
}

#[test]
fn two_players_play_gbacw_through_the_ui_over_a_real_server() {
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
    let opts = ConnectOptions {
        fingerprint: Some(server.fingerprint.clone()),
        ..ConnectOptions::default()
    };
    // What `muster --connect … --create --ruleset gbacw --battle test` sends.
    let options = TableOptions {
        ruleset: "gbacw".into(),
        scenario: "test".into(),
        config: codec::encode_infallible(&GbacwConfig::default()),
        private: false,
        spectators_allowed: true,
        spectator_delay: 0,
        take_back_needs_agreement: true,
    };
    let ws = format!("ws://{}", server.ws_addr);
    let quic = format!("quic://{}", server.quic_addr);
    let union = NetTable::<Gbacw>::join(&ws, opts.clone(), "Banks", Join::Create(options))
        .expect("create and sit");
    let table = union.table();
    let rebel = NetTable::<Gbacw>::join(
        &quic,
        opts,
        "Jackson",
        Join::Seat {
            table,
            seat: None,
            invite: None,
        },
    )
    .expect("second seat");
    let mut a = app(union);
    let mut b = app(rebel);
    wait(&mut a, "the table", |app| app.session.state().is_some());
    wait(&mut b, "the table", |app| app.session.state().is_some());
    assert_eq!(a.state().session.active(), Viewer::Seat(SeatId(0)));
    assert_eq!(b.state().session.active(), Viewer::Seat(SeatId(1)));

    a.get_by_label(track::END_PHASE).click();
    // Step, not run: answers arrive from the network over several frames,
    // each asking for a repaint; `wait` steps until they are in.
    a.step();
    let in_movement = |app: &GbacwApp| {
        app.session.state().is_some_and(|s| {
            matches!(
                s.clock.step,
                Step::Phase {
                    phase: Phase::Movement,
                    ..
                }
            )
        })
    };
    wait(&mut a, "the Movement Phase", in_movement);
    wait(&mut b, "the opponent to see it", in_movement);

    let me = CounterId("10-me".into());
    let at = a.state().map.counter_rect(&me).unwrap().center();
    click(&mut a, at);
    let target = {
        let app = a.state();
        let state = app.session.state().unwrap();
        let reach = app.map.reach().expect("the reach of the 10th Maine");
        *reach
            .hexes
            .keys()
            .find(|n| {
                **n != reach.start
                    && !state.units.values().any(|u| u.hex == Some(**n))
                    && !state.leaders.values().any(|l| l.hex == Some(**n))
            })
            .unwrap()
    };
    let p = a.state().map.hex_screen_pos(target).unwrap();
    click(&mut a, p);
    let moved = move |app: &GbacwApp| {
        app.session
            .state()
            .is_some_and(|s| s.units[&me].hex == Some(target))
    };
    wait(&mut a, "the move", moved.clone());
    wait(&mut b, "the opponent to see the move", moved);

    // The opponent scrubs back one entry over what the server sent: the
    // 10th Maine stands where it started, read-only; "Live" returns.
    let me = CounterId("10-me".into());
    let live_seq = b.state().session.book().unwrap().follower.seq();
    b.get_by_label(muster_client::app::replay::BACK).click();
    b.step();
    b.step();
    assert_eq!(b.state().replay.at(), Some(live_seq - 1));
    let replayed = {
        let app = b.state_mut();
        app.replay.view(&app.session).unwrap().state().units[&me].hex
    };
    assert_eq!(replayed, Some(hex_0306()));
    b.get_by_label(muster_client::app::replay::LIVE).click();
    b.step();
    assert!(b.state().replay.is_live());

    drop((a, b));
    rt.block_on(server.shutdown());
}

fn hex_0306() -> muster_shared::gbacw::map::HexNumber {
    muster_shared::gbacw::map::HexNumber::parse("0306").unwrap()
}
