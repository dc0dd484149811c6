//! Issue 18: the layout holds still from 1280×800 to 2560×1440. At each
//! size the lobby (at a real server) and a Cedar Mountain table are laid
//! out and every control a player needs is inside the window (chat's
//! Send, the side panel's buttons, the top bar's Take back and End phase,
//! the map's buttons); the map's top does not move when a refusal or the
//! replay bar appears. Also writes `docs/screens/lobby.png` (1280×800).

use crate::support;

use egui::{Rect, Vec2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use muster_client::app::chat::SEND;
use muster_client::app::gbacw::{GbacwApp, TAKE_BACK, map, track, tray};
use muster_client::app::lobby::list::{YOUR_MOVE, YOUR_TABLES};
use muster_client::app::lobby::{LobbyApp, OpenTable, Store};
use muster_client::app::replay;
use muster_shared::gbacw::ruleset::GbacwConfig;
use support::{start_server, wait};

const SIZES: [Vec2; 3] = [
    vec2(1280.0, 800.0),
    vec2(1920.0, 1080.0),
    vec2(2560.0, 1440.0),
];

fn screen(size: Vec2) -> Rect {
    Rect::from_min_size(egui::Pos2::ZERO, size)
}

/// The widget labelled `label` lies wholly inside the window.
fn inside<S>(h: &Harness<'_, S>, size: Vec2, label: &str) {
    let r = h
        .query_by_label(label)
        .unwrap_or_else(|| panic!("no {label:?} on screen at {size:?}"))
        .rect();
    assert!(
        screen(size).expand(0.5).contains_rect(r),
        "{label} at {r:?} is clipped in a {size:?} window"
    );
}

fn map_top(h: &Harness<'_, GbacwApp>) -> f32 {
    h.state().map.rect().expect("the map is laid out").top()
}

#[test]
fn the_table_holds_still_and_nothing_is_clipped_at_three_sizes() {
    let config = GbacwConfig {
        battle: "cedar_mountain".into(),
        ..GbacwConfig::default()
    };
    for size in SIZES {
        let mut h = support::kittest::gbacw_harness(&config, size, false);
        for label in [
            TAKE_BACK,
            tray::DEFAULT_DEPLOYMENT,
            SEND,
            map::FIT,
            map::HELP_BUTTON,
        ] {
            inside(&h, size, label);
        }
        let top = map_top(&h);
        // A refusal in the bar (a long one) does not push the map down.
        h.state_mut().session.last_refusal = Some(
            "refused: 1 DC to 2111: GBACW 26.2: that hex is not in the Union's set-up area; \
             only the lit hexes of Deployment Area 1 are"
                .into(),
        );
        h.run();
        assert_eq!(map_top(&h), top, "a refusal moved the map at {size:?}");
        h.state_mut().session.last_refusal = None;
        h.run();
        // Play something, then scrub back: the replay bar's extra line
        // does not push the map down either.
        h.get_by_label(tray::DEFAULT_DEPLOYMENT).click();
        h.run();
        let top = map_top(&h);
        h.get_by_label(replay::BACK).click();
        h.run();
        assert!(!h.state().replay.is_live(), "replaying");
        assert_eq!(map_top(&h), top, "the replay bar moved the map at {size:?}");
        h.get_by_label(replay::LIVE).click();
        h.run();
        assert_eq!(map_top(&h), top, "going live moved the map at {size:?}");
        inside(&h, size, SEND);
        inside(&h, size, TAKE_BACK);
        inside(&h, size, track::END_PHASE);
    }
}

fn lobby(
    store: &tempfile::TempDir,
    url: &str,
    name: &str,
    wgpu: bool,
) -> Harness<'static, LobbyApp> {
    let mut b = Harness::builder().with_size(SIZES[0]);
    if wgpu {
        b = b.wgpu();
    }
    b.build_ui_state(
        |ui, app: &mut LobbyApp| app.ui(ui),
        LobbyApp::new(Store::at(store.path()), url, name),
    )
}

fn steps<S>(h: &mut Harness<'_, S>) {
    for _ in 0..3 {
        h.step();
    }
}

fn opened(app: &LobbyApp) -> bool {
    matches!(&app.table, Some(OpenTable::Gbacw { app, .. }) if app.session.book().is_some())
}

#[test]
fn the_lobby_marks_your_move_and_fits_at_three_sizes() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let srv = start_server(&rt);
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut a = lobby(&da, &srv.ws, "Meade", true);
    steps(&mut a);
    a.get_by_label("Connect").click();
    wait(&mut a, "Meade signed in", |app| app.signed_in());
    a.get_by_label("Create table").click();
    wait(&mut a, "Meade's table", opened);
    let mut b = lobby(&db, &srv.ws, "Jackson", false);
    steps(&mut b);
    b.get_by_label("Connect").click();
    wait(&mut b, "Jackson signed in", |app| {
        app.signed_in() && app.lobby.as_ref().is_some_and(|l| !l.tables.is_empty())
    });
    b.get_by_label("Join #1").click();
    wait(&mut b, "Jackson's table", opened);
    // Jackson goes back and opens a second table, waiting for a player.
    b.get_by_label("< Lobby").click();
    steps(&mut b);
    b.get_by_label("Create table").click();
    wait(&mut b, "Jackson's second table", opened);

    // Meade back in the lobby: the Union sets up first (Cedar Mountain
    // 26.2), so his table is marked "your move".
    a.get_by_label("< Lobby").click();
    wait(&mut a, "the mark and the second table", |app| {
        app.lobby.as_ref().is_some_and(|l| {
            l.tables.len() == 2
                && l.tables
                    .values()
                    .any(|t| muster_client::app::lobby::list::waits_on(t, Some("Meade")))
        })
    });
    a.get_by_label(YOUR_TABLES);
    a.get_by_label(YOUR_MOVE);
    // Issue 18: the list says which seat is his ("Your seat #1", "(you)"
    // beside his name), with no "Join" beside it, which read as taking
    // another seat.
    assert!(
        a.query_by_label("Join #1").is_none(),
        "Join beside his own seat"
    );
    a.get_by_label("Union (Meade) (you)");
    a.get_by_label(&muster_client::app::lobby::list::your_seat_label(
        muster_shared::protocol::TableId(1),
    ));
    // Jackson's lobby has no mark: the game waits on Meade.
    b.get_by_label("< Lobby").click();
    steps(&mut b);
    assert!(b.query_by_label(YOUR_MOVE).is_none());

    for size in SIZES {
        a.set_size(size);
        steps(&mut a);
        for label in [
            "Create table",
            "Join #2",
            "Watch #2",
            "Open #1",
            "Your seat #1",
            YOUR_MOVE,
            "Search:",
        ] {
            inside(&a, size, label);
        }
        // The list's last buttons stay left of the create form.
        let form = a.get_by_label("New table").rect().left();
        for label in ["Watch #1", "Watch #2"] {
            let r = a.get_by_label(label).rect();
            assert!(
                r.right() <= form,
                "{label} at {r:?} runs under the form at {size:?}"
            );
        }
        if size == SIZES[0] {
            let image = a.render().expect("headless wgpu renders");
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/screens");
            std::fs::create_dir_all(&dir).unwrap();
            image.save(dir.join("lobby.png")).unwrap();
            eprintln!("screenshot: docs/screens/lobby.png");
        }
    }
    // The seat's button opens the table again, in his seat.
    a.set_size(SIZES[0]);
    steps(&mut a);
    a.get_by_label("Your seat #1").click();
    wait(&mut a, "Meade's table again", opened);
    assert_eq!(
        a.state().table.as_ref().map(|t| t.table()),
        Some(muster_shared::protocol::TableId(1))
    );
    drop((a, b));
    rt.block_on(srv.server.shutdown());
}
