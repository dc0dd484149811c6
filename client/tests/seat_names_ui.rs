//! One name per seat (issue 18: "1: Meade" in the lobby, "seat 0" in the
//! log, "Union" at the table): two players in their own lobbies against a
//! real server (SQLite in a temporary directory, loopback sockets), by
//! clicks — Meade creates a Cedar Mountain table, Jackson joins it from
//! his list — and the names each reads for the seats agree everywhere:
//! the lobby's row, "Your tables", the table's header and banner, the
//! log, and a refusal. "Union (Meade)" and "Confederate (Jackson)", never
//! "seat 0" or "1: Meade".

use crate::support;

use egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT, Queryable};
use muster_client::app::lobby::{LobbyApp, OpenTable, Store};
use muster_shared::gbacw::ruleset::GbacwAction;
use support::{start_server, wait};

fn lobby(store: &tempfile::TempDir, url: &str, name: &str) -> Harness<'static, LobbyApp> {
    let mut h = Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .build_ui_state(
            |ui, app: &mut LobbyApp| app.ui(ui),
            LobbyApp::new(Store::at(store.path()), url, name),
        );
    h.step();
    h.get_by_label("Connect").click();
    wait(&mut h, "signing in", |a| a.signed_in());
    h
}

fn gbacw(app: &LobbyApp) -> &muster_client::app::gbacw::GbacwApp {
    match &app.table {
        Some(OpenTable::Gbacw { app, .. }) => app,
        _ => panic!("no GBACW table open"),
    }
}

/// Every text on screen.
fn texts(h: &Harness<'_, LobbyApp>) -> Vec<String> {
    h.query_all(By::new().include_labels())
        .flat_map(|n| {
            let n = n.accesskit_node();
            [n.label(), n.value()]
                .into_iter()
                .flatten()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// No seat is named any other way: not "seat 0", not "1: Meade".
fn assert_no_other_names(h: &Harness<'_, LobbyApp>, when: &str) {
    for t in texts(h) {
        let lower = t.to_lowercase();
        assert!(
            !lower.contains("seat 0") && !lower.contains("seat 1") && !lower.contains("seat 2"),
            "{when}: {t:?}"
        );
        for bad in ["1: Meade", "2: Jackson", "2: free", "the Union player"] {
            assert!(!t.contains(bad), "{when}: {bad:?} in {t:?}");
        }
    }
}

#[test]
fn the_seats_are_named_the_same_in_the_lobby_the_header_the_log_and_refusals() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let srv = start_server(&rt);
    let (dm, dj) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut meade = lobby(&dm, &srv.ws, "Meade");
    let mut jackson = lobby(&dj, &srv.ws, "Jackson");

    // Meade creates Cedar Mountain (the form's default: the Union's seat).
    meade.get_by_label("Create table").click();
    wait(
        &mut meade,
        "Meade's table",
        |a| matches!(&a.table, Some(OpenTable::Gbacw { app, .. }) if app.session.book().is_some()),
    );
    let table = meade.state().table.as_ref().unwrap().table();
    wait(&mut jackson, "the table in Jackson's list", |a| {
        a.lobby.as_ref().unwrap().tables.contains_key(&table)
    });
    // Jackson's list: the Union's seat by side and player, the other free.
    jackson.get_by_label("Union (Meade)");
    jackson.get_by_label("Confederate: free");
    assert_no_other_names(&jackson, "Jackson's lobby");
    jackson.get_by_label(&format!("Join #{}", table.0)).click();
    wait(
        &mut jackson,
        "Jackson's seat",
        |a| matches!(&a.table, Some(OpenTable::Gbacw { app, .. }) if app.session.book().is_some()),
    );
    let both = |a: &LobbyApp| {
        a.table.as_ref().is_some_and(|t| {
            t.seat_names()
                == [
                    "Union (Meade)".to_string(),
                    "Confederate (Jackson)".to_string(),
                ]
        })
    };
    wait(&mut meade, "both seats named at Meade's table", both);
    wait(&mut jackson, "both seats named at Jackson's table", both);

    // The table's header: who sets up, by the same name.
    meade.get_by_label("Union (Meade) sets up");
    jackson.get_by_label("Union (Meade) sets up");
    // Jackson's banner: whom he waits for.
    jackson.get_by_label("Waiting for Union (Meade) (set-up)");
    // The log: each seat's dice chain by its seat's name.
    let chains = |a: &LobbyApp| -> Vec<String> {
        gbacw(a)
            .session
            .book()
            .map(|b| {
                b.log
                    .iter()
                    .filter(|l| l.text.contains("published a new dice chain"))
                    .map(|l| l.text.clone())
                    .collect()
            })
            .unwrap_or_default()
    };
    wait(&mut meade, "Jackson's dice chain in Meade's log", |a| {
        chains(a)
            .iter()
            .any(|l| l == "Confederate (Jackson) published a new dice chain")
    });
    for line in chains(meade.state()) {
        assert!(
            line.starts_with("Union (Meade) ")
                || line.starts_with("Confederate (Jackson) ")
                || line.starts_with("The server "),
            "{line}"
        );
    }
    // A refusal names the seat the same way. The waiting player's table
    // offers no order to click (nothing is enabled for him), so the
    // action is sent as a stale client would send it; the server's
    // refusal (the engine's "the Union player is setting up") is shown
    // with the seat's name.
    if let Some(OpenTable::Gbacw { app, .. }) = &mut jackson.state_mut().table {
        app.session.act(GbacwAction::EndSetUp);
    }
    wait(&mut jackson, "the refusal", |a| {
        gbacw(a).session.last_refusal.is_some()
    });
    let refusal = gbacw(jackson.state()).session.last_refusal.clone().unwrap();
    assert!(refusal.contains("Union (Meade)"), "{refusal}");
    let logged = gbacw(jackson.state())
        .session
        .book()
        .unwrap()
        .log
        .iter()
        .any(|l| l.text == refusal);
    assert!(logged, "the refusal is in the log: {refusal}");
    assert!(
        jackson
            .query_all_by_label_contains("Union (Meade) is setting up")
            .next()
            .is_some()
    );
    assert_no_other_names(&jackson, "Jackson's table");
    assert_no_other_names(&meade, "Meade's table");

    // Back in the lobby: the row and "Your tables" say the same.
    meade.get_by_label("< Lobby").click();
    wait(&mut meade, "the lobby", |a| a.table.is_none());
    meade.get_by_label("Union (Meade) (you)");
    meade.get_by_label("Confederate (Jackson)");
    meade.get_by_label_contains("as Union (Meade)");
    assert_no_other_names(&meade, "Meade's lobby");
    drop((meade, jackson));
    rt.block_on(srv.server.shutdown());
}
