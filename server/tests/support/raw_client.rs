//! A server process and a few-line WebSocket player for the server's own
//! tests (the real client crate pulls in the UI toolkit, too heavy here).

#![allow(dead_code)]

use futures_util::{SinkExt, StreamExt};
use muster_shared::codec;
use muster_shared::protocol::{ClientMsg, PROTOCOL_VERSION, ServerMsg, TableId, TableOptions};
use muster_shared::sandbox::{Loc, Position, SandboxAction, SandboxConfig};
use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

pub const BINARY: &str = env!("CARGO_BIN_EXE_muster-server");
pub const WAIT: Duration = Duration::from_secs(30);

pub struct Node {
    pub child: Child,
    pub ws: String,
    /// `host:port` of the metrics endpoint.
    pub metrics: String,
    _dir: tempfile::TempDir,
}

impl Node {
    /// `muster-server serve` on loopback ports with `extra` flags.
    pub fn start(extra: &[&str]) -> Node {
        let dir = tempfile::tempdir().unwrap();
        let mut child = Command::new(BINARY)
            .args(["serve", "--ws", "127.0.0.1:0", "--quic", "127.0.0.1:0"])
            .args(["--metrics", "127.0.0.1:0", "--data-dir"])
            .arg(dir.path())
            .args(extra)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let out = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = std::io::BufReader::new(out).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx
            .recv_timeout(WAIT)
            .expect("the node prints where it listens");
        let field = |key: &str| {
            line.split_whitespace()
                .find_map(|w| w.strip_prefix(key))
                .unwrap_or_else(|| panic!("no {key} in {line:?}"))
                .to_string()
        };
        let metrics = field("metrics=http://")
            .trim_end_matches("/metrics")
            .to_string();
        Node {
            child,
            ws: field("ws="),
            metrics,
            _dir: dir,
        }
    }

    pub fn signal(&self, sig: &str) {
        let ok = Command::new("kill")
            .args([sig, &self.child.id().to_string()])
            .status()
            .unwrap()
            .success();
        assert!(ok, "kill {sig}");
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub struct Player {
    pub ws: Ws,
    next_ref: u32,
}

impl Player {
    pub async fn connect(url: &str) -> Player {
        let (ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        let mut p = Player { ws, next_ref: 1 };
        p.send(ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            client: "fleet test".into(),
        })
        .await;
        p.until(|m| matches!(m, ServerMsg::Welcome { .. })).await;
        p
    }

    pub async fn send(&mut self, msg: ClientMsg) {
        let bytes = codec::encode_infallible(&msg);
        self.ws.send(Message::Binary(bytes.into())).await.unwrap();
    }

    pub async fn until(&mut self, want: impl Fn(&ServerMsg) -> bool) -> ServerMsg {
        let end = tokio::time::Instant::now() + WAIT;
        loop {
            let frame = tokio::time::timeout_at(end, self.ws.next())
                .await
                .expect("an answer in time")
                .expect("the connection is open")
                .unwrap();
            if let Message::Binary(b) = frame {
                let msg: ServerMsg = codec::decode(&b, codec::MAX_SERVER_MSG).unwrap();
                if want(&msg) {
                    return msg;
                }
            }
        }
    }

    /// Place a piece; the server's answer to it.
    pub async fn place(&mut self, table: TableId, label: &str) -> ServerMsg {
        let client_ref = self.next_ref;
        self.next_ref += 1;
        let action = SandboxAction::Place {
            at: Position {
                board: 0,
                loc: Loc::Hex { col: 1, row: 1 },
            },
            label: label.into(),
            owner: None,
            face_up: true,
            hidden: false,
        };
        self.send(ClientMsg::Act {
            table,
            client_ref,
            action: codec::encode_infallible(&action),
            links: Vec::new(),
        })
        .await;
        self.until(|m| match m {
            ServerMsg::Accepted { client_ref: r, .. }
            | ServerMsg::Rejected { client_ref: r, .. } => *r == client_ref,
            ServerMsg::Error { .. } | ServerMsg::Moved { .. } => true,
            _ => false,
        })
        .await
    }

    /// Sign in as a new guest; the session token.
    pub async fn sign_in(&mut self, name: &str) -> String {
        self.send(ClientMsg::GuestSignIn { name: name.into() })
            .await;
        match self
            .until(|m| matches!(m, ServerMsg::SignedIn { .. }))
            .await
        {
            ServerMsg::SignedIn {
                token: Some(token), ..
            } => token,
            other => panic!("{other:?}"),
        }
    }

    /// A new two-seat sandbox table.
    pub async fn create_table(&mut self, scenario: &str) -> TableId {
        self.send(ClientMsg::CreateTable {
            options: TableOptions {
                ruleset: "sandbox".into(),
                scenario: scenario.into(),
                config: codec::encode_infallible(&SandboxConfig::default()),
                private: false,
                spectators_allowed: true,
                spectator_delay: 0,
                take_back_needs_agreement: true,
            },
        })
        .await;
        match self
            .until(|m| matches!(m, ServerMsg::TableCreated { .. } | ServerMsg::Error { .. }))
            .await
        {
            ServerMsg::TableCreated { table, .. } => table,
            other => panic!("{other:?}"),
        }
    }

    /// Take a free seat (or this identity's own); returns on the snapshot.
    pub async fn sit(&mut self, table: TableId) {
        self.send(ClientMsg::JoinSeat {
            table,
            seat: None,
            invite: None,
        })
        .await;
        self.until(|m| matches!(m, ServerMsg::Snapshot(_))).await;
    }
}

/// The sequence number of an `Accepted`, or a panic naming what came.
pub fn accepted(m: ServerMsg) -> u64 {
    match m {
        ServerMsg::Accepted { seq, .. } => seq,
        other => panic!("not accepted: {other:?}"),
    }
}
