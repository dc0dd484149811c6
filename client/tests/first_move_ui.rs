//! Issue 18's measure: clicks (and seconds) from `muster --lobby URL
//! --name NAME` (README's two-client recipe) to a new player's first
//! move, at a real server in the process, by the real lobby and table
//! UI. Meade creates a Cedar Mountain table (the default battle, the
//! Union side) and sets up by the default deployment; Jackson joins and,
//! in Game-Turn 1's Confederate Movement Phase, brings the first
//! reinforcement on (his first move: 26.4's arrival). Every click is
//! counted; the figures are printed for docs/client.md.

use crate::support;

use egui::{Event, Modifiers, PointerButton, Pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
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

/// The seconds of every decision countdown on screen ("899 s left, then
/// the default applies").
fn countdowns(h: &Harness<'_, LobbyApp>) -> Vec<u64> {
    h.query_all_by_label_contains(" s left, then the default applies")
        .filter_map(|n| {
            // A plain label's text is its node's value (AccessKit).
            let n = n.accesskit_node();
            let l = n.label().or_else(|| n.value())?;
            l.split(' ').next()?.parse().ok()
        })
        .collect()
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
    // Issue 18: no clock runs while the Confederate seat is empty (the
    // server starts none), however long Meade looks.
    let alone = Instant::now();
    for _ in 0..20 {
        std::thread::sleep(std::time::Duration::from_millis(25));
        steps(&mut a);
    }
    assert_eq!(countdowns(&a), Vec::<u64>::new(), "a clock before both sit");
    let alone = alone.elapsed();
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
    // Both sit: the server's clock shows on both clients, the same
    // (within the second or two the two harnesses' frames apart). Not
    // counted in Jackson's seconds: he does nothing meanwhile.
    let watching = Instant::now();
    for _ in 0..400 {
        if !countdowns(&a).is_empty() && !countdowns(&b).is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
        steps(&mut a);
        steps(&mut b);
    }
    let (ca, cb) = (countdowns(&a), countdowns(&b));
    assert!(
        !ca.is_empty() && !cb.is_empty(),
        "the clock once both sit: {ca:?} {cb:?}"
    );
    assert!(ca[0].abs_diff(cb[0]) <= 2, "the same clock: {ca:?} {cb:?}");
    let watching = watching.elapsed();
    // Meade sets up (26.2) by the default deployment once both sit.
    let before = seq(a.state());
    click(&mut a, &mut meade_clicks, tray::DEFAULT_DEPLOYMENT);
    wait(&mut a, "the set-up's end", |app| seq(app) > before);
    let meade_secs = (t0.elapsed() - alone - watching).as_secs_f32();

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
    let jackson_secs = (t1.elapsed() - watching).as_secs_f32();
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

/// Issue 18: "choose a side or random when creating". Meade picks the
/// second side (the Confederate) in the create form's "Your side:" box,
/// by clicks; the table seats him there, the list shows him in the
/// second seat, and his table shows the Confederate's view.
#[test]
fn the_creator_chooses_a_side_and_is_seated_there() {
    use muster_client::app::lobby::create::SIDE_LABEL;
    use muster_shared::{SeatId, Viewer};
    let rt = tokio::runtime::Runtime::new().unwrap();
    let srv = start_server(&rt);
    let da = tempfile::tempdir().unwrap();
    let mut clicks = 0;
    let mut a = lobby(&da, &srv.ws, "Meade");
    steps(&mut a);
    click(&mut a, &mut clicks, "Connect");
    wait(&mut a, "Meade signed in", |app| app.signed_in());
    // The box says the battle's sides in words; the second is picked.
    a.get_by_role_and_label(egui::accesskit::Role::ComboBox, SIDE_LABEL)
        .click();
    steps(&mut a);
    clicks += 1;
    let second =
        muster_client::app::lobby::create::side_names("gbacw", "cedar_mountain")[1].clone();
    assert!(!second.is_empty() && !second.contains('_'), "{second:?}");
    click(&mut a, &mut clicks, &second);
    click(&mut a, &mut clicks, "Create table");
    wait(&mut a, "Meade's table", |app| {
        gbacw(app).is_some_and(|g| g.session.book().is_some())
    });
    let g = gbacw(a.state()).unwrap();
    assert_eq!(
        g.session.active(),
        Viewer::Seat(SeatId(1)),
        "seated on the second side"
    );
    let listed = |app: &LobbyApp| {
        app.lobby
            .as_ref()
            .and_then(|l| l.tables.values().next().cloned())
            .map(|t| t.seats)
            .unwrap_or_default()
    };
    wait(&mut a, "the table listed with Meade seated", |app| {
        listed(app).iter().any(Option::is_some)
    });
    let seats = listed(a.state());
    assert_eq!(seats.first().cloned().flatten(), None, "{seats:?}");
    assert_eq!(
        seats.get(1).cloned().flatten().as_deref(),
        Some("Meade"),
        "{seats:?}"
    );
    eprintln!("a side chosen: {clicks} clicks");
    drop(a);
    rt.block_on(srv.server.shutdown());
}
