//! Issue 18: a game begun at one machine (hot seat, saved by "Saved
//! games") carried on at a server table, by clicks in the lobby: the
//! create form's "Start from" lists the saved game by its title, the
//! battle row shows the saved game's battle, "Create table" opens the
//! table standing where the saved game stood. A saved game that cannot be
//! continued (a secret plan still hidden) is refused in the form, in
//! words, before anything is sent.

use crate::support;

use egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use muster_client::app::lobby::from_save::{BEGINNING, START_FROM};
use muster_client::app::lobby::{LobbyApp, OpenTable, Store};
use muster_client::app::saved::SavedGame;
use muster_shared::engine::Ruleset;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwState, continued};
use support::screens::{no_programmer_text, save, save_as_shown, shows, steps, type_into};
use support::{start_server, wait};

/// The saved game near contact the play-throughs continue.
const FIXTURE: &str = "corinth-near-contact.muster-save";

fn fixture() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/saves")
        .join(FIXTURE)
}

/// The lobby of a player whose machine keeps `FIXTURE` among its saved
/// games (the client's config folder, `saves/`).
fn lobby_with_a_saved_game(store: &tempfile::TempDir, url: &str) -> Harness<'static, LobbyApp> {
    let saves = store.path().join("saves");
    std::fs::create_dir_all(&saves).unwrap();
    std::fs::copy(fixture(), saves.join(FIXTURE)).unwrap();
    let mut h = Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .build_ui_state(
            |ui, app: &mut LobbyApp| app.ui(ui),
            LobbyApp::new(Store::at(store.path()), url, ""),
        );
    steps(&mut h);
    type_into(&mut h, "Your name:", "Rosecrans");
    h.get_by_label("Connect").click();
    wait(&mut h, "signing in", |a| a.signed_in());
    steps(&mut h);
    h
}

fn table_state(app: &LobbyApp) -> Option<&GbacwState> {
    match &app.table {
        Some(OpenTable::Gbacw { app, .. }) => app.session.state(),
        _ => None,
    }
}

#[test]
fn a_saved_hot_seat_game_is_carried_on_at_a_server_table_by_clicks() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let srv = start_server(&rt);
    let d = tempfile::tempdir().unwrap();
    let mut h = lobby_with_a_saved_game(&d, &srv.ws);
    let game = SavedGame::read(&fixture()).unwrap();
    let stood = Gbacw::new(&continued::config_for(&game.log).unwrap())
        .unwrap()
        .initial_state();

    // "Start from": the battle's beginning, or the saved game by title.
    assert!(shows(&h, BEGINNING), "no Start from row");
    h.get_by_label(START_FROM).click();
    steps(&mut h);
    h.get_by_label(&game.title).click();
    steps(&mut h);
    assert!(
        shows(&h, "Corinth, 3"),
        "the battle row names the saved game's battle"
    );
    assert!(
        h.state()
            .lobby
            .as_ref()
            .unwrap()
            .create
            .from_save
            .problem
            .is_none()
    );
    no_programmer_text(&h);
    save(&mut h, "continue-on-a-server.png", egui::pos2(640.0, 780.0));

    h.get_by_label("Create table").click();
    wait(&mut h, "the continued table", |a| table_state(a).is_some());
    steps(&mut h);
    let s = table_state(h.state()).unwrap().clone();
    assert_eq!(s.clock, stood.clock, "not where the saved game stood");
    for (u, st) in &stood.units {
        assert_eq!(s.units[u].hex, st.hex, "{u}");
    }
    assert!(h.state().lobby.as_ref().unwrap().problem.is_none());
    no_programmer_text(&h);

    // Another player, at another machine with no saved games, sees the
    // table marked before sitting down: "continued", where it began on
    // hover (the server's words, from the table's config).
    let d2 = tempfile::tempdir().unwrap();
    let mut other = Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .build_ui_state(
            |ui, app: &mut LobbyApp| app.ui(ui),
            LobbyApp::new(Store::at(d2.path()), &srv.ws, ""),
        );
    steps(&mut other);
    type_into(&mut other, "Your name:", "Van Dorn");
    other.get_by_label("Connect").click();
    wait(&mut other, "signing in", |a| a.signed_in());
    wait(&mut other, "the table listed", |a| {
        a.lobby.as_ref().is_some_and(|l| !l.tables.is_empty())
    });
    steps(&mut other);
    let listed = other
        .state()
        .lobby
        .as_ref()
        .unwrap()
        .tables
        .values()
        .next()
        .unwrap()
        .clone();
    assert_eq!(
        listed.carried_from.as_deref(),
        Some(
            "carried on from a saved game at Game-Turn 4, Confederate Player-Turn: E. Retreat Before Melee Phase"
        ),
        "the lobby entry says where the table began"
    );
    assert!(
        shows(&other, muster_client::app::lobby::list::CONTINUED),
        "not marked"
    );
    other
        .get_by_label(muster_client::app::lobby::list::CONTINUED)
        .hover();
    // egui waits its tooltip delay (frames of simulated time) before showing.
    for _ in 0..60 {
        other.step();
    }
    assert!(
        shows(&other, "at one machine whose players held every dice chain"),
        "the mark's tooltip"
    );
    no_programmer_text(&other);
    save_as_shown(&mut other, "continued-table-in-the-lobby.png");
    drop(other);
    drop(h);
    rt.block_on(srv.server.shutdown());
}

/// A game saved while the create form stands open (the player went to
/// "Saved games" and back) is offered as soon as "Start from" is opened:
/// the list reads the folder again each time it opens.
#[test]
fn a_game_saved_while_the_form_stands_open_is_offered_when_the_list_opens() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let srv = start_server(&rt);
    let d = tempfile::tempdir().unwrap();
    let mut h = lobby_with_a_saved_game(&d, &srv.ws);
    assert!(shows(&h, BEGINNING), "no Start from row");

    const LATER: &str = "corinth-solo-near-contact.muster-save";
    let later = fixture().with_file_name(LATER);
    let title = SavedGame::read(&later).unwrap().title;
    assert!(!shows(&h, &title), "offered before it was saved");
    std::fs::copy(&later, d.path().join("saves").join(LATER)).unwrap();

    h.get_by_label(START_FROM).click();
    steps(&mut h);
    assert!(shows(&h, &title), "the game saved since is not offered");
    h.get_by_label(&title).click();
    steps(&mut h);
    let create = &h.state().lobby.as_ref().unwrap().create.from_save;
    assert_eq!(
        create.chosen.as_ref().map(|c| c.title.as_str()),
        Some(title.as_str())
    );
    assert!(create.problem.is_none(), "{:?}", create.problem);
    no_programmer_text(&h);
    drop(h);
    rt.block_on(srv.server.shutdown());
}
