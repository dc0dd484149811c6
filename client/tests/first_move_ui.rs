//! Issue 18's measure: clicks (and seconds) from `muster --lobby URL
//! --name NAME` (README's two-client recipe) to a new player's first
//! move, at a real server in the process, by the real lobby and table
//! UI. Meade creates a Cedar Mountain table (the default battle, the
//! Union side) and sets up by the default deployment; Jackson joins and,
//! in Game-Turn 1's Confederate Movement Phase, brings the first
//! reinforcement on (his first move: 26.4's arrival). Every click is
//! counted; the figures are printed for docs/client.md.

mod support;

use egui::{Event, Modifiers, PointerButton, Pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use muster_client::app::gbacw::{GbacwApp, track, tray};
use muster_client::app::lobby::{LobbyApp, OpenTable, Store};
use muster_shared::gbacw::map::HexNumber;
use std::time::Instant;
use support::{start_server, wait};

fn lobby(store: &tempfile::TempDir, url: &str, name: &str) -> Harness<'static, LobbyApp> {
    Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .build_ui_state(
            |ui, app: &mut LobbyApp| app.ui(ui),
            LobbyApp::new(Store::at(store.path()), url, name),
        )
}

fn steps<S>(h: &mut Harness<'_, S>) {
    for _ in 0..3 {
        h.step();
    }
}

fn click_at<S>(h: &mut Harness<'_, S>, p: Pos2) {
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
    steps(h);
}

fn gbacw(app: &LobbyApp) -> Option<&GbacwApp> {
    match &app.table {
        Some(OpenTable::Gbacw { app, .. }) => Some(app),
        _ => None,
    }
}

fn seq(app: &LobbyApp) -> u64 {
    gbacw(app)
        .and_then(|g| g.session.book())
        .map_or(0, |b| b.follower.seq())
}

/// Click the widget labelled `label`, counting it. A frame is drawn
/// first, as a person sees the screen before clicking: what arrived from
/// the server meanwhile (the decision clock once both sit) is on it.
fn click(h: &mut Harness<'_, LobbyApp>, clicks: &mut usize, label: &str) {
    h.step();
    h.get_by_label(label).click();
    *clicks += 1;
    steps(h);
}

#[test]
fn clicks_from_the_lobby_to_a_new_players_first_move() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let srv = start_server(&rt);
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());

    // Meade: `muster --lobby URL --name Meade`.
    let t0 = Instant::now();
    let mut meade_clicks = 0;
    let mut a = lobby(&da, &srv.ws, "Meade");
    steps(&mut a);
    click(&mut a, &mut meade_clicks, "Connect");
    wait(&mut a, "Meade signed in", |app| app.signed_in());
    click(&mut a, &mut meade_clicks, "Create table");
    wait(&mut a, "Meade's table", |app| {
        gbacw(app).is_some_and(|g| g.session.book().is_some())
    });
    // Jackson: `muster --lobby URL --name Jackson`, a new player.
    let t1 = Instant::now();
    let mut jackson_clicks = 0;
    let mut b = lobby(&db, &srv.ws, "Jackson");
    steps(&mut b);
    click(&mut b, &mut jackson_clicks, "Connect");
    wait(&mut b, "Jackson signed in", |app| {
        app.signed_in() && !app.lobby.as_ref().unwrap().tables.is_empty()
    });
    click(&mut b, &mut jackson_clicks, "Join #1");
    wait(&mut b, "Jackson's table", |app| {
        gbacw(app).is_some_and(|g| g.session.book().is_some())
    });
    // Meade sets up (26.2) by the default deployment once both sit.
    let before = seq(a.state());
    click(&mut a, &mut meade_clicks, tray::DEFAULT_DEPLOYMENT);
    wait(&mut a, "the set-up's end", |app| seq(app) > before);
    let meade_secs = t0.elapsed().as_secs_f32();

    wait(&mut b, "Jackson sees the set-up's end", |app| {
        gbacw(app)
            .and_then(|g| g.session.state())
            .is_some_and(|s| s.progress.setting_up.is_none())
    });
    // His Initial Command Phase: nothing to order; End phase.
    let before = seq(b.state());
    click(&mut b, &mut jackson_clicks, track::END_PHASE);
    wait(&mut b, "the Movement Phase", |app| seq(app) > before);
    // The arrivals tray.
    // Nothing picked: the empty entry hexes are lit for the first
    // counter due at each (tray.rs), so one click on one brings it in.
    assert!(gbacw(b.state()).is_some_and(|g| g.tray.picked().is_none()));
    let lit: Vec<HexNumber> = gbacw(b.state())
        .map(|g| g.map.lit.keys().copied().collect())
        .unwrap_or_default();
    assert!(!lit.is_empty(), "an arrival's entry hex is lit");
    let p = gbacw(b.state())
        .and_then(|g| g.map.hex_screen_pos(lit[0]))
        .unwrap();
    let before = seq(b.state());
    click_at(&mut b, p);
    jackson_clicks += 1;
    wait(&mut b, "the arrival", |app| seq(app) > before);
    let jackson_secs = t1.elapsed().as_secs_f32();
    let arrived = gbacw(b.state())
        .and_then(|g| g.session.state())
        .is_some_and(|s| s.units.values().any(|u| u.hex == Some(lit[0])));
    assert!(arrived, "a Confederate unit stands on {}", lit[0]);
    eprintln!(
        "Meade (creates, sets up): {meade_clicks} clicks, {meade_secs:.1} s; \
         Jackson (joins, first move = an arrival): {jackson_clicks} clicks, {jackson_secs:.1} s"
    );
    assert!(
        jackson_clicks <= 4,
        "{jackson_clicks} clicks to the first move"
    );
    drop((a, b));
    rt.block_on(srv.server.shutdown());
}

/// The same at a hot-seat table (`muster --battle cedar_mountain`): the
/// Union's default deployment, the Confederate's End phase, one click on
/// a lit entry hex.
#[test]
fn clicks_at_a_hot_seat_table_to_the_first_move() {
    let t0 = Instant::now();
    let config = muster_shared::gbacw::ruleset::GbacwConfig {
        battle: "cedar_mountain".into(),
        ..Default::default()
    };
    let mut h = support::kittest::gbacw_harness(&config, vec2(1280.0, 800.0), false);
    let mut clicks = 0;
    h.get_by_label(tray::DEFAULT_DEPLOYMENT).click();
    h.run();
    clicks += 1;
    h.get_by_label(track::END_PHASE).click();
    h.run();
    clicks += 1;
    assert!(h.state().tray.picked().is_none());
    let lit: Vec<HexNumber> = h.state().map.lit.keys().copied().collect();
    assert!(!lit.is_empty(), "the entry hexes are lit");
    let p = h.state().map.hex_screen_pos(lit[0]).unwrap();
    assert!(h.state().map.rect().unwrap().contains(p), "in view");
    support::kittest::click_at(&mut h, p);
    clicks += 1;
    let s = h.state().session.state().unwrap();
    assert!(s.units.values().any(|u| u.hex == Some(lit[0])));
    eprintln!(
        "hot seat: {clicks} clicks, {:.1} s to the first move",
        t0.elapsed().as_secs_f32()
    );
    assert_eq!(clicks, 3);
}
