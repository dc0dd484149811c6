//! The lobby through the real UI (egui_kittest) against a real server in
//! this process (SQLite in a temporary directory, loopback sockets): sign
//! in, an empty list, a table created through the form, pushed live to a
//! second client's lobby, joined from there, watched by a spectator who
//! sees a move and a roll; the identity resumed on the next start; QUIC
//! pinned on first use and a changed certificate refused; GBACW tables;
//! a table and a lobby that reconnect after their connections are cut;
//! and quiet connections kept open by pings past the server's idle limit.

use crate::support;

use egui::{Event, Modifiers, PointerButton, Pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use muster_client::ConnectOptions;
use muster_client::app::dice::VERIFIED_TEXT;
use muster_client::app::lobby::{LobbyApp, LobbyFlags, OpenTable, Store};
use muster_client::app::{Join, MusterApp, NetTable, Session};
use muster_shared::codec;
use muster_shared::protocol::TableOptions;
use muster_shared::sandbox::{Loc, Position, Sandbox, SandboxConfig};
use muster_shared::{SeatId, Viewer};
use std::time::{Duration, Instant};
use support::{Relay, start_server, start_server_with, wait};

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

/// Type into the text field labelled `label` (replacing what is there).
fn type_into<S>(h: &mut Harness<'_, S>, label: &str, text: &str) {
    h.get_by_label(label).click();
    steps(h);
    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::A);
    steps(h);
    h.get_by_label(label).type_text(text);
    steps(h);
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

fn sandbox(app: &LobbyApp) -> &MusterApp {
    app.sandbox().expect("a sandbox table is open")
}

fn sign_in(h: &mut Harness<'_, LobbyApp>, name: &str) {
    type_into(h, "Your name:", name);
    h.get_by_label("Connect").click();
    wait(h, "signing in", |a| a.signed_in());
}

#[test]
fn sign_in_create_see_it_pushed_join_watch_and_follow_a_move_and_a_roll() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let srv = start_server(&rt);
    let (da, db, ds) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );

    // Meade signs in over WebSocket; the lobby is empty.
    let mut a = lobby(&da, &srv.ws, "");
    steps(&mut a);
    sign_in(&mut a, "Meade");
    assert_eq!(
        a.state()
            .lobby
            .as_ref()
            .unwrap()
            .identity
            .as_ref()
            .unwrap()
            .name,
        "Meade"
    );
    a.get_by_label("No tables yet. Create one.");

    // Lee signs in over QUIC: the certificate is pinned on first use.
    let mut b = lobby(&db, &srv.quic, "");
    steps(&mut b);
    sign_in(&mut b, "Lee");
    assert_eq!(
        Store::at(db.path())
            .pinned(srv.quic.trim_start_matches("quic://"))
            .as_deref(),
        Some(srv.server.fingerprint.as_str())
    );
    b.get_by_label("No tables yet. Create one.");

    // Meade creates a sandbox table through the form and sits at it.
    a.state_mut().lobby.as_mut().unwrap().create.game = "sandbox".into();
    steps(&mut a);
    type_into(&mut a, "Name:", "Brandy Station");
    a.get_by_label("Create table").click();
    wait(&mut a, "the new table to open", |app| {
        app.sandbox().is_some()
    });
    let table = a.state().table.as_ref().unwrap().table();
    assert_eq!(sandbox(a.state()).session.active(), Viewer::Seat(SeatId(0)));

    // Lee's lobby shows it without asking (pushed), with a free seat.
    wait(&mut b, "the table pushed to the second lobby", |app| {
        app.lobby.as_ref().unwrap().tables.contains_key(&table)
    });
    let row = b.state().lobby.as_ref().unwrap().tables[&table].clone();
    assert_eq!(row.scenario, "Brandy Station");
    assert_eq!(row.seats, vec![Some("Meade".to_string()), None]);
    b.get_by_label("Brandy Station");
    b.get_by_label(&format!("Join #{}", table.0)).click();
    wait(&mut b, "Lee's seat", |app| app.sandbox().is_some());
    assert_eq!(sandbox(b.state()).session.active(), Viewer::Seat(SeatId(1)));

    // A spectator finds it full, filtered by text, and watches.
    let mut s = lobby(&ds, &srv.ws, "");
    steps(&mut s);
    sign_in(&mut s, "Watcher");
    wait(&mut s, "the table, both seats taken", |app| {
        app.lobby
            .as_ref()
            .unwrap()
            .tables
            .get(&table)
            .is_some_and(|t| t.seats.iter().all(Option::is_some))
    });
    type_into(&mut s, "Search:", "lee");
    s.get_by_label(&format!("Watch #{}", table.0)).click();
    wait(&mut s, "the spectator's view", |app| {
        app.sandbox().is_some()
    });
    assert_eq!(sandbox(s.state()).session.active(), Viewer::Spectator);

    // Both anchors in before anyone rolls.
    let anchored = |app: &LobbyApp| {
        app.sandbox()
            .and_then(|m| m.session.book())
            .is_some_and(|b| {
                let book = b.follower.book();
                (0..2).all(|i| {
                    book.next_index(muster_shared::dice::Party::Seat(SeatId(i)))
                        .is_some()
                })
            })
    };
    wait(&mut a, "both anchors", anchored);

    // Meade places a counter by clicking a hex (a move on the table) ...
    let at = Position {
        board: 0,
        loc: Loc::Hex { col: 6, row: 4 },
    };
    a.get_by_label("Place on board").click();
    steps(&mut a);
    let p = {
        let m = sandbox(a.state());
        m.board
            .screen_pos(m.session.ruleset().unwrap().config(), at)
            .unwrap()
    };
    click_at(&mut a, p);
    let has_piece = move |app: &LobbyApp| {
        app.sandbox()
            .and_then(|m| m.session.state())
            .is_some_and(|st| st.stack_at(at).len() == 1)
    };
    wait(&mut a, "the placed piece", has_piece);
    // ... and Lee rolls.
    wait(&mut b, "both anchors (Lee)", anchored);
    b.get_by_label("Roll").click();
    steps(&mut b);
    let rolled = |app: &LobbyApp| {
        app.sandbox()
            .and_then(|m| m.session.book())
            .is_some_and(|b| b.rolls.len() == 1)
    };
    wait(&mut b, "Lee's roll", rolled);

    // The spectator sees both, the roll verified.
    wait(&mut s, "the spectator to see the piece", has_piece);
    wait(&mut s, "the spectator to see the roll", rolled);
    let book = sandbox(s.state()).session.book().unwrap();
    assert_eq!(book.rolls[0].verdict, Ok(()));
    assert_eq!(book.rolls[0].seat, SeatId(1));
    assert!(book.follower.bad_rolls().is_empty());
    assert_eq!(
        book.rolls[0].dice,
        sandbox(b.state()).session.book().unwrap().rolls[0].dice
    );
    s.get_by_label(VERIFIED_TEXT);

    // Back to the lobby.
    s.get_by_label("< Lobby").click();
    steps(&mut s);
    assert!(s.state().table.is_none());

    drop((a, b, s));
    rt.block_on(srv.server.shutdown());
}

#[test]
fn the_next_start_resumes_the_same_identity_and_a_changed_certificate_is_refused() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let srv = start_server(&rt);
    let d = tempfile::tempdir().unwrap();

    let mut first = lobby(&d, &srv.quic, "Longstreet");
    steps(&mut first);
    first.get_by_label("Connect").click();
    wait(&mut first, "signing in", |a| a.signed_in());
    let id = first
        .state()
        .lobby
        .as_ref()
        .unwrap()
        .identity
        .clone()
        .unwrap();
    assert!(!id.resumed);
    // Longstreet creates a table and sits in its first seat.
    first.state_mut().lobby.as_mut().unwrap().create.game = "sandbox".into();
    steps(&mut first);
    first.get_by_label("Create table").click();
    wait(&mut first, "the new table", |app| app.sandbox().is_some());
    let table = first.state().table.as_ref().unwrap().table();
    drop(first);

    // A new start with the same config directory and no name: the same
    // identity, by token (a different name would be a new player).
    let mut again = lobby(&d, &srv.quic, "");
    steps(&mut again);
    again.get_by_label("Connect").click();
    wait(&mut again, "resuming", |a| a.signed_in());
    let id2 = again
        .state()
        .lobby
        .as_ref()
        .unwrap()
        .identity
        .clone()
        .unwrap();
    assert!(id2.resumed);
    assert_eq!(id2.user, id.user);
    assert_eq!(id2.name, "Longstreet");
    again.get_by_label("Longstreet (welcome back)");
    // Joining again gives the same seat back, not the free second one.
    wait(&mut again, "the table in the list", |app| {
        app.lobby.as_ref().unwrap().tables.contains_key(&table)
    });
    again.get_by_label(&format!("Join #{}", table.0)).click();
    wait(&mut again, "the seat back", |app| app.sandbox().is_some());
    assert_eq!(
        sandbox(again.state()).session.active(),
        Viewer::Seat(SeatId(0))
    );
    drop(again);

    // The pinned certificate no longer matches: refused, loudly, and not re-pinned.
    let host = srv.quic.trim_start_matches("quic://").to_string();
    let known = d.path().join("known_servers.txt");
    std::fs::write(&known, format!("{host} {}\n", "ab".repeat(32))).unwrap();
    let mut changed = lobby(&d, &srv.quic, "Longstreet");
    steps(&mut changed);
    changed.get_by_label("Connect").click();
    wait(&mut changed, "the refusal", |a| a.connect_error.is_some());
    let err = changed.state().connect_error.clone().unwrap();
    assert!(err.starts_with("REFUSED"), "{err}");
    assert!(err.contains(&srv.server.fingerprint), "{err}");
    assert!(!changed.state().signed_in());
    changed.get_by_label(&err);
    assert_eq!(Store::at(d.path()).pinned(&host).unwrap(), "ab".repeat(32));
    drop(changed);
    rt.block_on(srv.server.shutdown());
}

#[test]
fn gbacw_tables_open_in_the_gbacw_table_view() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let srv = start_server(&rt);
    let d = tempfile::tempdir().unwrap();
    let mut a = lobby(&d, &srv.ws, "Banks");
    steps(&mut a);
    a.get_by_label("Connect").click();
    wait(&mut a, "signing in", |a| a.signed_in());

    // Cedar Mountain: created, seated, followed in the GBACW view, whose
    // map says it is a reconstruction.
    {
        let form = &mut a.state_mut().lobby.as_mut().unwrap().create;
        form.game = "gbacw".into();
        form.battle = "cedar_mountain".into();
    }
    steps(&mut a);
    a.get_by_label("Create table").click();
    wait(
        &mut a,
        "the GBACW table",
        |app| matches!(&app.table, Some(OpenTable::Gbacw { app, .. }) if app.session.book().is_some()),
    );
    steps(&mut a);
    assert!(a.state().lobby.as_ref().unwrap().problem.is_none());
    a.get_by_label_contains("Reconstruction");
    drop(a);
    rt.block_on(srv.server.shutdown());
}

#[test]
fn a_cut_connection_reconnects_resumes_the_seat_and_play_goes_on() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let srv = start_server(&rt);
    let relay = Relay::start(&rt, srv.server.ws_addr);
    let via_relay = format!("ws://{}", relay.addr);
    let options = TableOptions {
        ruleset: "sandbox".into(),
        scenario: "Reconnect".into(),
        config: codec::encode_infallible(&SandboxConfig::default()),
        private: true,
        spectators_allowed: true,
        spectator_delay: 0,
        take_back_needs_agreement: true,
    };
    let opts = ConnectOptions {
        fingerprint: Some(srv.server.fingerprint.clone()),
        ..ConnectOptions::default()
    };
    // Meade plays through the relay, Lee directly; a lobby watches through the relay.
    let union = NetTable::<Sandbox>::join(&via_relay, opts.clone(), "Meade", Join::Create(options))
        .expect("create and sit");
    let table = union.table();
    let invite = union.invite().map(String::from);
    let rebel = NetTable::<Sandbox>::join(
        &srv.quic,
        opts,
        "Lee",
        Join::Seat {
            table,
            seat: None,
            invite,
        },
    )
    .expect("second seat");
    let names = vec!["Union".to_string(), "Confederate".to_string()];
    let app = |t: NetTable<Sandbox>| {
        Harness::builder()
            .with_size(vec2(1280.0, 800.0))
            .build_ui_state(
                |ui, app: &mut MusterApp| app.ui(ui),
                MusterApp::new(Session::new(Box::new(t), names.clone())),
            )
    };
    let mut a = app(union);
    let mut b = app(rebel);
    let dl = tempfile::tempdir().unwrap();
    let mut l = lobby(&dl, &via_relay, "Halleck");
    steps(&mut l);
    l.get_by_label("Connect").click();
    wait(&mut l, "the lobby", |a| a.signed_in());

    let anchors = |app: &MusterApp| {
        app.session.book().map_or(0, |b| {
            b.log
                .iter()
                .filter(|l| l.text.contains("published a new dice chain"))
                .count()
        })
    };
    wait(&mut a, "both seats' anchors", |app| anchors(app) >= 2);

    // The network fails for Meade and the lobby.
    let cut = relay.cut();
    assert!(cut >= 2, "relayed connections cut: {cut}");
    wait(&mut a, "the loss to be noticed", |app| {
        app.session.describe_link().contains("reconnecting")
            || app
                .session
                .book()
                .is_some_and(|b| b.log.iter().any(|l| l.text.contains("lost the connection")))
    });
    let started = Instant::now();
    wait(&mut a, "the seat back (a new snapshot)", |app| {
        app.session.book().is_some_and(|b| {
            b.log
                .iter()
                .filter(|l| l.text.starts_with("joined the table"))
                .count()
                == 2
        }) && !app.session.describe_link().contains("reconnecting")
    });
    eprintln!("table back after the cut in {:?}", started.elapsed());
    assert_eq!(a.state().session.active(), Viewer::Seat(SeatId(0)));
    // Meade's fresh dice chain is published and reaches Lee.
    wait(&mut a, "Meade's new anchor", |app| {
        app.session.book().is_some_and(|b| {
            b.log
                .last()
                .is_some_and(|l| l.text == "Union published a new dice chain")
        })
    });
    let head = a.state().session.book().unwrap().follower.seq();
    wait(&mut b, "Meade's new anchor at Lee's", |app| {
        app.session.book().is_some_and(|b| b.follower.seq() == head)
    });

    // Play goes on: Meade rolls after the reconnect, everyone verifies it.
    a.get_by_label("Roll").click();
    steps(&mut a);
    let rolled = |app: &MusterApp| app.session.book().is_some_and(|b| b.rolls.len() == 1);
    for (h, who) in [(&mut a, "Meade"), (&mut b, "Lee")] {
        wait(h, who, rolled);
        let book = h.state().session.book().unwrap();
        assert_eq!(book.rolls[0].verdict, Ok(()), "{who}");
        assert_eq!(book.rolls[0].seat, SeatId(0));
        assert!(book.follower.bad_rolls().is_empty(), "{who}");
    }

    // The lobby came back too, and still gets pushes.
    wait(&mut l, "the lobby reconnected", |app| {
        app.lobby.as_ref().unwrap().notice.as_deref() == Some("reconnected")
    });
    let second = NetTable::<Sandbox>::join(
        &srv.ws,
        ConnectOptions::default(),
        "Burnside",
        Join::Create(TableOptions {
            ruleset: "sandbox".into(),
            scenario: "After the cut".into(),
            config: codec::encode_infallible(&SandboxConfig::default()),
            private: false,
            spectators_allowed: true,
            spectator_delay: 0,
            take_back_needs_agreement: true,
        }),
    )
    .expect("another table");
    let t2 = second.table();
    wait(&mut l, "the new table pushed after the reconnect", |app| {
        app.lobby.as_ref().unwrap().tables.contains_key(&t2)
    });

    drop((a, b, l, second, relay));
    rt.block_on(srv.server.shutdown());
}

#[test]
fn quiet_tables_and_lobbies_ping_and_outlive_the_servers_idle_limit() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    // The server closes a connection silent for 2 s.
    let srv = start_server_with(&rt, |c| c.limits.idle_secs = 2);
    let options = TableOptions {
        ruleset: "sandbox".into(),
        scenario: "Quiet".into(),
        config: codec::encode_infallible(&SandboxConfig::default()),
        private: false,
        spectators_allowed: true,
        spectator_delay: 0,
        take_back_needs_agreement: true,
    };
    let pinging = ConnectOptions {
        ping_every: Some(Duration::from_millis(500)),
        ..ConnectOptions::default()
    };
    let quiet = ConnectOptions {
        ping_every: Some(Duration::from_secs(3600)),
        ..ConnectOptions::default()
    };
    let host = NetTable::<Sandbox>::join(&srv.ws, pinging.clone(), "Host", Join::Create(options))
        .expect("create");
    let table = host.table();
    let watch = |opts: ConnectOptions| {
        NetTable::<Sandbox>::join(
            &srv.ws,
            opts,
            "Watcher",
            Join::Spectate {
                table,
                invite: None,
            },
        )
        .expect("watch")
    };
    let (mut pinging_watcher, mut silent_watcher) = (watch(pinging.clone()), watch(quiet));
    let d = tempfile::tempdir().unwrap();
    let mut l = lobby(&d, &srv.ws, "Idle");
    l.state_mut().options = pinging;
    steps(&mut l);
    l.get_by_label("Connect").click();
    wait(&mut l, "signing in", |a| a.signed_in());

    // Nothing happens at the table for 3.5 s.
    let end = Instant::now() + Duration::from_millis(3500);
    let lost = |events: &[muster_client::app::LinkEvent]| {
        events.iter().any(|e| matches!(e, muster_client::app::LinkEvent::Error(t) if t.contains("lost the connection")))
    };
    let (mut pinging_lost, mut silent_lost) = (false, false);
    use muster_client::app::TableLink;
    while Instant::now() < end {
        pinging_lost |= lost(&pinging_watcher.poll());
        silent_lost |= lost(&silent_watcher.poll());
        l.step();
        std::thread::sleep(Duration::from_millis(50));
    }
    // The one that never pings was closed (the limit is real) ...
    assert!(
        silent_lost,
        "a silent connection outlived idle_secs: the test proves nothing"
    );
    // ... the pinging ones were not.
    assert!(!pinging_lost, "the pinging spectator lost its connection");
    assert!(pinging_watcher.is_connected());
    let lobby = l.state().lobby.as_ref().unwrap();
    assert!(
        lobby.notice.as_deref().is_none_or(|n| !n.contains("lost")),
        "{:?}",
        lobby.notice
    );
    drop((host, pinging_watcher, silent_watcher, l));
    rt.block_on(srv.server.shutdown());
}

fn harness(app: LobbyApp) -> Harness<'static, LobbyApp> {
    Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut LobbyApp| app.ui(ui), app)
}

fn identity(h: &Harness<'_, LobbyApp>) -> muster_client::app::lobby::Identity {
    h.state().lobby.as_ref().unwrap().identity.clone().unwrap()
}

/// README's two-client recipe, as written: two terminals on one machine
/// (one config directory), `muster --lobby URL --name Meade` and `muster
/// --lobby URL --name Jackson`. Two players, not Meade twice: Jackson is
/// told he is a new identity, joins Meade's table and gets the other
/// seat; the next `--name Meade` is Meade again, and `--profile` keeps
/// its identities apart.
#[test]
fn the_readme_recipe_gives_two_players_on_one_machine() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let srv = start_server(&rt);
    let d = tempfile::tempdir().unwrap();
    let flags = |name: Option<&str>, profile: Option<&str>| LobbyFlags {
        config_dir: Some(d.path().to_path_buf()),
        profile: profile.map(String::from),
        name: name.map(String::from),
        fingerprint: None,
    };
    let start = |name, profile| {
        let mut h = harness(LobbyApp::from_flags(&flags(name, profile), Some(&srv.ws)).unwrap());
        wait(&mut h, "signing in", |a| a.signed_in());
        h
    };

    let mut meade = start(Some("Meade"), None);
    let m = identity(&meade);
    assert_eq!((m.name.as_str(), m.resumed), ("Meade", false));
    meade.get_by_label("Meade (new guest)");

    // The second terminal, same config directory, another name.
    let mut jackson = start(Some("Jackson"), None);
    let j = identity(&jackson);
    assert_eq!((j.name.as_str(), j.resumed), ("Jackson", false));
    assert_ne!(j.user, m.user, "two players, not Meade twice");
    assert_eq!(j.others, ["Meade"]);
    jackson.get_by_label("Jackson (new player)");
    jackson.get_by_label_contains("A new identity for Jackson");
    assert!(jackson.query_by_label_contains("welcome back").is_none());

    // Meade creates a table; Jackson's "Join" gives him the free seat,
    // not Meade's.
    // The form's default is the first battle a player would want:
    // Cedar Mountain.
    meade.get_by_label("Create table").click();
    wait(&mut meade, "Meade's table", |app| {
        matches!(&app.table, Some(OpenTable::Gbacw { .. }))
    });
    let table = meade.state().table.as_ref().unwrap().table();
    wait(&mut jackson, "the table in Jackson's list", |app| {
        app.lobby.as_ref().unwrap().tables.contains_key(&table)
    });
    jackson.get_by_label(&format!("Join #{}", table.0)).click();
    wait(&mut jackson, "Jackson's seat", |app| {
        matches!(&app.table, Some(OpenTable::Gbacw { .. }))
    });
    wait(&mut meade, "both seats taken", |app| {
        app.lobby.as_ref().unwrap().tables[&table].seats
            == [Some("Meade".to_string()), Some("Jackson".to_string())]
    });
    drop((meade, jackson));

    // The next start as Meade is Meade again (though Jackson signed in
    // last); without a name, the identity used last.
    let again = start(Some("Meade"), None);
    let a = identity(&again);
    assert!(a.resumed);
    assert_eq!(a.user, m.user);
    again.get_by_label("Meade (welcome back)");
    drop(again);
    let last = start(None, None);
    assert_eq!(identity(&last).user, m.user, "Meade was used last");
    drop(last);

    // A profile keeps its own identities: Jackson's profile starts afresh
    // under his name, and resumes it next time; the default ones stay.
    let p = start(Some("Jackson"), Some("jackson"));
    let pj = identity(&p);
    assert!(!pj.resumed && pj.others.is_empty());
    assert_ne!(pj.user, j.user);
    drop(p);
    let p = start(None, Some("jackson"));
    assert_eq!(identity(&p).user, pj.user);
    assert!(d.path().join("profiles/jackson/sessions.txt").exists());
    drop(p);
    rt.block_on(srv.server.shutdown());
}
