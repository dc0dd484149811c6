//! Issue 18: a hot-seat game carried on at a server table (the config
//! carries the saved game's log; `gbacw::ruleset::continued`). Over real
//! sockets: the table starts where the saved game stood for both seats,
//! play goes on with the table's own dice, the server restarted on the
//! same database restores it to its acknowledged head, its exported log
//! verifies; a saved game changed by hand is refused in words.

use muster_client::app::saved::SavedGame;
use muster_shared::engine::{LogEntry, Ruleset, verify_log};
use muster_shared::gbacw::ruleset::{Gbacw, GbacwAction, GbacwState, continued};
use muster_shared::protocol::{ClientMsg, ServerMsg, TableOptions};
use muster_shared::{SeatId, Viewer};
use muster_tests::e2e::{Target, start_server_in};
use muster_tests::gbacw_client::GbacwClient;

fn saved_game() -> SavedGame {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../client/tests/fixtures/saves/corinth-near-contact.muster-save");
    SavedGame::read(&path).expect("the fixture reads")
}

fn options(config: Vec<u8>) -> TableOptions {
    TableOptions {
        ruleset: "gbacw".into(),
        scenario: "corinth".into(),
        config,
        private: false,
        spectators_allowed: true,
        spectator_delay: 0,
        take_back_needs_agreement: true,
    }
}

/// The acting seat's first legal action that is not the end of a phase
/// (the end of the phase when nothing else is offered).
fn next_action(c: &GbacwClient) -> (SeatId, GbacwAction) {
    let f = c.follower();
    let rs = f.ruleset();
    let seat = rs.acting_seat(f.state()).expect("someone acts");
    let legal = rs.legal_actions(f.state(), seat);
    let pick = legal
        .iter()
        .find(|a| !matches!(a, GbacwAction::EndPhase))
        .or(legal.first())
        .cloned()
        .expect("something is legal");
    (seat, pick)
}

fn same_position(a: &GbacwState, b: &GbacwState) {
    assert_eq!(a.clock, b.clock);
    for (u, st) in &b.units {
        assert_eq!(a.units[u].hex, st.hex, "{u}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_continued_game_starts_where_it_stood_plays_on_and_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let game = saved_game();
    let config = continued::config_for(&game.log).unwrap();
    let stood = Gbacw::new(&config).unwrap().initial_state();
    let server = start_server_in(dir.path(), |_| {}).await;
    let t = Target::of(&server);
    let mut union = GbacwClient::connect(&t, false, "Rosecrans").await;
    let mut rebel = GbacwClient::connect(&t, true, "Van Dorn").await;
    let (table, _) = union
        .create_table(options(Gbacw::encode_config(&config)))
        .await;
    union.sit(table, SeatId(0), None).await;
    rebel.sit(table, SeatId(1), None).await;
    same_position(union.follower().state(), &stood);
    same_position(rebel.follower().state(), &stood);
    // Play on: a dozen actions by whichever seat acts.
    let mut head = union.seq();
    for _ in 0..12 {
        let (seat, action) = next_action(&union);
        let player = if seat == SeatId(0) {
            &mut union
        } else {
            &mut rebel
        };
        head = player
            .act(&action)
            .await
            .expect("a legal action is accepted");
        union.sync_to(head).await;
        rebel.sync_to(head).await;
    }
    assert!(union.follower().bad_rolls().is_empty());
    let before = union.follower().state().clone();
    drop((union, rebel));
    server.shutdown().await;

    // The same database: the table is restored to its acknowledged head.
    let server = start_server_in(dir.path(), |_| {}).await;
    let t = Target::of(&server);
    let mut watcher = GbacwClient::connect(&t, false, "Halleck").await;
    watcher.spectate(table, None).await;
    watcher.sync_to(head).await;
    assert_eq!(watcher.seq(), head);
    let seen = watcher.follower().state().clone();
    assert!(
        seen == Gbacw::new(&config)
            .unwrap()
            .view(&before, Viewer::Spectator),
        "not restored to its head"
    );
    drop(watcher);
    server.shutdown().await;

    // Its log, out of the database, verifies (the saved game replayed
    // inside it) and begins with its own chains.
    let log = muster_server::export::read_log(dir.path(), table.0).expect("export");
    let report = verify_log(&log);
    assert!(report.ok(), "{report}");
    assert!(log.header.config.starts_with(continued::CONTINUED_MAGIC));
    assert!(matches!(log.entries.first(), Some(LogEntry::Anchor { .. })));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_saved_game_changed_by_hand_is_refused_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let mut game = saved_game();
    let actions: Vec<usize> = game
        .log
        .entries
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, LogEntry::Action(_)))
        .map(|(i, _)| i)
        .collect();
    game.log
        .entries
        .swap(actions[actions.len() - 1], actions[actions.len() - 2]);
    let config = continued::config_for(&game.log).unwrap();
    let server = start_server_in(dir.path(), |_| {}).await;
    let t = Target::of(&server);
    let mut union = GbacwClient::connect(&t, false, "Rosecrans").await;
    union
        .send(ClientMsg::CreateTable {
            options: options(Gbacw::encode_config(&config)),
        })
        .await;
    let answer = union
        .until(|m| matches!(m, ServerMsg::TableCreated { .. } | ServerMsg::Error { .. }))
        .await;
    let ServerMsg::Error { message, .. } = answer else {
        panic!("created: {answer:?}");
    };
    assert!(
        message.contains("the saved game does not replay"),
        "{message}"
    );
    assert!(
        !message.contains('{') && !message.contains('_'),
        "{message}"
    );
    drop(union);
    server.shutdown().await;
}
