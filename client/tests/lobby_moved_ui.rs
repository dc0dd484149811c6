//! Issue 23's redirect, followed by the lobby's own connection (as a
//! table's connection follows it): a node that says the lobby is served
//! elsewhere (`ServerMsg::Moved`) is left for the address it names, the
//! identity resumed there and the list watched; `ws://` only, and at most
//! `MAX_REDIRECTS` redirects in a row before the lobby gives up with a
//! message. Over real sockets: a real server (B) and, in front of it, a
//! WebSocket relay (A) that passes everything through until the client
//! asks to watch the lobby, then answers `Moved` and closes, as a fleet
//! node does for a table it does not serve.

use crate::support;

use egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use futures_util::{SinkExt, StreamExt};
use muster_client::app::lobby::link::MAX_REDIRECTS;
use muster_client::app::lobby::{LobbyApp, Store};
use muster_shared::codec;
use muster_shared::protocol::{ClientMsg, ServerMsg, TableId};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use support::{start_server, wait};
use tokio_tungstenite::tungstenite::Message;

/// Node A: relays each WebSocket connection to `target`, and answers the
/// client's `WatchLobby` with `Moved { to }` and a close. Returns its
/// address and how many connections it took.
fn redirecting_node(
    rt: &tokio::runtime::Runtime,
    target: String,
    to: Option<String>,
) -> (String, Arc<AtomicUsize>) {
    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = format!("ws://{}", listener.local_addr().unwrap());
    // `None`: send the client back here (two nodes naming each other).
    let to = to.unwrap_or_else(|| addr.clone());
    let seen = Arc::new(AtomicUsize::new(0));
    let count = seen.clone();
    rt.spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            count.fetch_add(1, Ordering::SeqCst);
            let (target, to) = (target.clone(), to.clone());
            tokio::spawn(async move {
                let Ok(client) = tokio_tungstenite::accept_async(tcp).await else {
                    return;
                };
                let Ok((server, _)) = tokio_tungstenite::connect_async(target.as_str()).await
                else {
                    return;
                };
                let (mut c_tx, mut c_rx) = client.split();
                let (mut s_tx, mut s_rx) = server.split();
                loop {
                    tokio::select! {
                        m = c_rx.next() => {
                            let Some(Ok(m)) = m else { return };
                            if let Message::Binary(b) = &m
                                && let Ok(ClientMsg::WatchLobby { on: true }) =
                                    codec::decode::<ClientMsg>(b, codec::MAX_CLIENT_MSG)
                            {
                                let moved = ServerMsg::Moved { table: TableId(0), to: to.clone() };
                                let frame = codec::encode_infallible(&moved);
                                let _ = c_tx.send(Message::Binary(frame.into())).await;
                                let _ = c_tx.close().await;
                                return;
                            }
                            if s_tx.send(m).await.is_err() { return; }
                        }
                        m = s_rx.next() => {
                            let Some(Ok(m)) = m else { return };
                            if c_tx.send(m).await.is_err() { return; }
                        }
                    }
                }
            });
        }
    });
    (addr, seen)
}

fn lobby(store: &tempfile::TempDir, url: &str, name: &str) -> Harness<'static, LobbyApp> {
    Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .build_ui_state(
            |ui, app: &mut LobbyApp| app.ui(ui),
            LobbyApp::new(Store::at(store.path()), url, name),
        )
}

#[test]
fn the_lobby_follows_moved_to_the_node_it_names_and_lists_its_tables() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let b = start_server(&rt);
    let (a, connections) = redirecting_node(&rt, b.ws.clone(), Some(b.ws.clone()));
    let d = tempfile::tempdir().unwrap();

    // Meade connects to A (signed in through it), is sent on to B.
    let mut h = lobby(&d, &a, "Meade");
    h.run_steps(3);
    h.get_by_label("Connect").click();
    wait(&mut h, "the lobby served by B", |app| {
        app.signed_in() && app.lobby_url() == Some(b.ws.as_str())
    });
    h.get_by_label(&format!("the lobby moved to {}", b.ws));
    // A table created there comes into the list (B's lobby is watched).
    h.get_by_label("Create table").click();
    wait(&mut h, "the table, created and opened at B", |app| {
        app.table.is_some()
    });
    assert_eq!(connections.load(Ordering::SeqCst), 1, "A was left for B");
    drop(h);
    rt.block_on(b.server.shutdown());
}

#[test]
fn a_lobby_sent_round_in_circles_gives_up_after_three_redirects() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let b = start_server(&rt);
    let (a, connections) = redirecting_node(&rt, b.ws.clone(), None);
    let d = tempfile::tempdir().unwrap();
    let mut h = lobby(&d, &a, "Meade");
    h.run_steps(3);
    h.get_by_label("Connect").click();
    wait(&mut h, "the lobby to give up", |app| {
        app.connect_error.is_some()
    });
    let err = h.state().connect_error.clone().unwrap();
    assert!(err.contains("redirects in a row"), "{err}");
    h.get_by_label(&err);
    // The first connection and one per redirect followed.
    assert_eq!(connections.load(Ordering::SeqCst), 1 + MAX_REDIRECTS);
    drop(h);
    rt.block_on(b.server.shutdown());
}
