//! Shared by the client's tests (`gbacw.rs`: GBACW positions and moves;
//! `kittest.rs`: the GBACW table in a kittest harness; `xvfb.rs`: a real
//! window): a real server in the test process (SQLite in
//! a temporary directory, loopback sockets) and a loopback TCP relay that
//! can cut every connection through it, to test reconnecting.

#![allow(dead_code)] // each test file uses its own part of this

pub mod bot;
pub mod club;
pub mod gbacw;
pub mod kittest;
pub mod play;
pub mod screens;
pub mod xvfb;

use muster_server::Server;
use muster_server::config::Config;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::AbortHandle;

/// A server on loopback with its data in a temporary directory.
pub struct TestServer {
    pub server: Server,
    pub ws: String,
    pub quic: String,
    _dir: tempfile::TempDir,
}

pub fn start_server(rt: &tokio::runtime::Runtime) -> TestServer {
    start_server_with(rt, |_| {})
}

/// As [`start_server`], with `adjust` applied to the configuration.
pub fn start_server_with(
    rt: &tokio::runtime::Runtime,
    adjust: impl FnOnce(&mut Config),
) -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config {
        ws: "127.0.0.1:0".parse().unwrap(),
        quic: "127.0.0.1:0".parse().unwrap(),
        metrics: "127.0.0.1:0".parse().unwrap(),
        data_dir: dir.path().to_path_buf(),
        ..Config::default()
    };
    adjust(&mut config);
    let server = rt.block_on(Server::start(config)).expect("server starts");
    TestServer {
        ws: format!("ws://{}", server.ws_addr),
        quic: format!("quic://{}", server.quic_addr),
        server,
        _dir: dir,
    }
}

/// Relays TCP from its own loopback port to `target`; [`Relay::cut`] drops
/// every connection through it at once (both ends see the socket close),
/// as a network failure would. New connections are relayed as before.
pub struct Relay {
    pub addr: SocketAddr,
    open: Arc<Mutex<Vec<AbortHandle>>>,
    accept: AbortHandle,
}

impl Relay {
    pub fn start(rt: &tokio::runtime::Runtime, target: SocketAddr) -> Relay {
        let listener = rt
            .block_on(TcpListener::bind("127.0.0.1:0"))
            .expect("relay binds");
        let addr = listener.local_addr().unwrap();
        let open: Arc<Mutex<Vec<AbortHandle>>> = Arc::default();
        let conns = open.clone();
        let accept = rt
            .spawn(async move {
                while let Ok((mut inbound, _)) = listener.accept().await {
                    let Ok(mut outbound) = TcpStream::connect(target).await else {
                        continue;
                    };
                    let task = tokio::spawn(async move {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    });
                    conns.lock().unwrap().push(task.abort_handle());
                }
            })
            .abort_handle();
        Relay { addr, open, accept }
    }

    /// Drop every relayed connection; returns how many there were.
    pub fn cut(&self) -> usize {
        let all: Vec<AbortHandle> = std::mem::take(&mut *self.open.lock().unwrap());
        let n = all.iter().filter(|h| !h.is_finished()).count();
        for h in all {
            h.abort();
        }
        n
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.accept.abort();
        self.cut();
    }
}

/// Step the UI until `done` holds, for at most 20 s; the network threads
/// deliver meanwhile. (`Harness::run` is not used while a spinner keeps
/// asking to repaint.)
pub fn wait<S>(h: &mut egui_kittest::Harness<'_, S>, what: &str, done: impl Fn(&S) -> bool) {
    let end = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !done(h.state()) {
        assert!(
            std::time::Instant::now() < end,
            "timed out waiting for {what}"
        );
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    for _ in 0..3 {
        h.step();
    }
}
