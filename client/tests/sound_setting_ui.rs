//! Issue 18's optional sound on "your move", through the lobby's real UI
//! against a real server (loopback, SQLite in a temporary directory): off
//! by default, turned on by a click on its box and kept for the next
//! start; once on, the move that comes (a second player takes the
//! table's other seat: the Union sets up) asks for the sound once (recorded
//! by the seam that stands for the desktop); and with the real desktop
//! behind it — on CI no audio device, no session bus, no notification
//! daemon — the sound fails quietly while the client goes on.

use crate::support;

use egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use muster_client::ConnectOptions;
use muster_client::app::lobby::{LobbyApp, OpenTable, SOUND, Store};
use muster_client::app::your_move::{Call, Recorder};
use muster_client::app::{Join, NetTable};
use muster_shared::gbacw::ruleset::Gbacw;
use support::{start_server, wait};

fn harness(app: LobbyApp) -> Harness<'static, LobbyApp> {
    let mut h = Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut LobbyApp| app.ui(ui), app);
    h.step();
    h.get_by_label("Connect").click();
    wait(&mut h, "signing in", |a| a.signed_in());
    h
}

/// Create a table by a click and have `other` (a second client) take
/// its free seat: the game waits on nobody until every seat is taken.
fn create_a_table(h: &mut Harness<'static, LobbyApp>, url: &str, other: &str) -> NetTable<Gbacw> {
    h.get_by_label("Create table").click();
    wait(
        h,
        "the table",
        |a| matches!(&a.table, Some(OpenTable::Gbacw { app, .. }) if app.session.book().is_some()),
    );
    let table = h.state().table.as_ref().unwrap().table();
    NetTable::<Gbacw>::join(
        url,
        ConnectOptions::default(),
        other,
        Join::Seat {
            table,
            seat: None,
            invite: None,
        },
    )
    .expect("the second seat")
}

#[test]
fn the_your_move_sound_is_a_setting_turned_on_by_a_click_and_fails_quietly_without_audio() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let srv = start_server(&rt);
    let dir = tempfile::tempdir().unwrap();
    let rec = Recorder::default();
    let app =
        LobbyApp::new(Store::at(dir.path()), &srv.ws, "Meade").with_herald(Box::new(rec.clone()));
    let mut h = harness(app);
    // Off until turned on.
    assert!(!h.state().watch.sound);
    assert!(!Store::at(dir.path()).sound());
    h.get_by_label(SOUND).click();
    for _ in 0..3 {
        h.step();
    }
    assert!(h.state().watch.sound, "on by the click");
    assert!(Store::at(dir.path()).sound(), "kept for the next start");
    assert!(
        !rec.calls().contains(&Call::Sound),
        "no sound before a move"
    );
    // A table of his own: the Union sets up first (Cedar Mountain 26.2),
    // so his move comes at once: one sound.
    let _jackson = create_a_table(&mut h, &srv.ws, "Jackson");
    wait(&mut h, "the sound asked for", |_| {
        rec.calls().contains(&Call::Sound)
    });
    for _ in 0..20 {
        h.step();
    }
    let sounds = rec.calls().iter().filter(|c| **c == Call::Sound).count();
    assert_eq!(sounds, 1, "once per move: {:?}", rec.calls());
    drop(h);

    // The next start has it on, with the real desktop behind it: the
    // sound is tried on a thread of its own and, with no audio device
    // or notification service, fails quietly; the client goes on.
    let mut real = harness(LobbyApp::new(Store::at(dir.path()), &srv.ws, "Meade"));
    assert!(real.state().watch.sound, "remembered");
    let _lee = create_a_table(&mut real, &srv.ws, "Lee");
    wait(&mut real, "his move at the new table", |a| {
        !a.watch.waiting().is_empty()
    });
    let t0 = std::time::Instant::now();
    for _ in 0..50 {
        real.step();
    }
    assert!(
        t0.elapsed() < std::time::Duration::from_secs(20),
        "frames never wait on the sound"
    );
    real.get_by_label("< Lobby");
    drop(real);
    rt.block_on(srv.server.shutdown());
}
