//! Chat through the UI against a real server on loopback: what a player
//! writes reaches the other player and not the spectators; what a
//! spectator writes reaches spectators and never a player.

use crate::support;

use egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use muster_client::ConnectOptions;
use muster_client::app::chat::SEND;
use muster_client::app::{Join, MusterApp, NetTable, Session};
use muster_shared::SeatId;
use muster_shared::codec;
use muster_shared::protocol::{ChatChannel, TableOptions};
use muster_shared::sandbox::{Sandbox, SandboxConfig};
use std::time::{Duration, Instant};
use support::{start_server, wait};

fn app(table: NetTable<Sandbox>) -> Harness<'static, MusterApp> {
    let names = vec!["Union".to_string(), "Confederate".to_string()];
    let mut h = Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .build_ui_state(
            |ui, app: &mut MusterApp| app.ui(ui),
            MusterApp::new(Session::new(Box::new(table), names)),
        );
    h.run_steps(4);
    h
}

/// Type `text` into the chat line and press Send.
fn say(h: &mut Harness<'_, MusterApp>, text: &str) {
    h.state_mut().chat.draft = text.to_string();
    h.run_steps(2);
    h.get_by_label(SEND).click();
    h.run_steps(2);
}

/// Let the network deliver for a while, stepping every harness.
fn pump(hs: &mut [&mut Harness<'_, MusterApp>], for_: Duration) {
    let end = Instant::now() + for_;
    while Instant::now() < end {
        for h in hs.iter_mut() {
            h.step();
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn players_and_spectators_each_talk_on_their_own_channel() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let srv = start_server(&rt);
    let options = TableOptions {
        ruleset: "sandbox".into(),
        scenario: "Chat".into(),
        config: codec::encode_infallible(&SandboxConfig::default()),
        private: false,
        spectators_allowed: true,
        spectator_delay: 0,
        take_back_needs_agreement: true,
    };
    let a = NetTable::<Sandbox>::join(
        &srv.ws,
        ConnectOptions::default(),
        "Meade",
        Join::Create(options),
    )
    .unwrap();
    let table = a.table();
    let b = NetTable::<Sandbox>::join(
        &srv.ws,
        ConnectOptions::default(),
        "Lee",
        Join::Seat {
            table,
            seat: Some(SeatId(1)),
            invite: None,
        },
    )
    .unwrap();
    let s = NetTable::<Sandbox>::join(
        &srv.ws,
        ConnectOptions::default(),
        "Onlooker",
        Join::Spectate {
            table,
            invite: None,
        },
    )
    .unwrap();
    let (mut a, mut b, mut s) = (app(a), app(b), app(s));
    a.get_by_label("Chat (players)");
    s.get_by_label("Chat (spectators)");

    say(&mut a, "hold the ridge");
    wait(&mut b, "the other player hears", |app| {
        app.session.chat.iter().any(|l| l.text == "hold the ridge")
    });
    let line = b.state().session.chat[0].clone();
    assert_eq!(
        (line.channel, line.from.as_str()),
        (ChatChannel::Players, "Meade")
    );
    b.get_by_label("Meade: hold the ridge");
    wait(&mut a, "the sender's own echo", |app| {
        !app.session.chat.is_empty()
    });

    say(&mut s, "they will never hold it");
    wait(&mut s, "the spectator's echo", |app| {
        app.session
            .chat
            .iter()
            .any(|l| l.text == "they will never hold it")
    });
    // Give the server time to (wrongly) deliver it to the players.
    pump(&mut [&mut a, &mut b, &mut s], Duration::from_millis(500));
    for h in [&a, &b] {
        assert!(
            h.state()
                .session
                .chat
                .iter()
                .all(|l| l.channel == ChatChannel::Players),
            "a spectator's chat reached a player"
        );
    }
    assert!(
        s.state()
            .session
            .chat
            .iter()
            .all(|l| l.channel == ChatChannel::Spectators),
        "a player's chat reached a spectator"
    );
    drop((a, b, s));
    rt.block_on(srv.server.shutdown());
}
