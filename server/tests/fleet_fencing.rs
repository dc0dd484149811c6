//! Issue 23: two real `muster-server` processes on one PostgreSQL. Node A
//! serves a table under its lease; A is frozen with SIGSTOP past the
//! lease; node B starts, takes the table's lease (a higher fencing token)
//! and rebuilds it by replaying its log; the player moves to B and plays
//! on. A is woken with SIGCONT and takes one more action on its old
//! connection: its commit is refused by the token, the player is told the
//! table moved, and nothing of A's reaches the log.
//!
//! The client here is a few lines over WebSocket (the real client crate
//! pulls in the UI toolkit, too heavy for the server's own tests).

#[path = "support/pg_cluster.rs"]
mod pg_cluster;

use futures_util::{SinkExt, StreamExt};
use muster_shared::codec;
use muster_shared::protocol::{ClientMsg, PROTOCOL_VERSION, ServerMsg, TableId, TableOptions};
use muster_shared::sandbox::{Loc, Position, SandboxAction, SandboxConfig};
use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

const BINARY: &str = env!("CARGO_BIN_EXE_muster-server");
const WAIT: Duration = Duration::from_secs(30);
const LEASE_SECS: u64 = 2;

struct Node {
    child: Child,
    ws: String,
    _dir: tempfile::TempDir,
}

impl Node {
    fn start(url: &str, name: &str) -> Node {
        let dir = tempfile::tempdir().unwrap();
        let mut child = Command::new(BINARY)
            .args(["serve", "--ws", "127.0.0.1:0", "--quic", "127.0.0.1:0"])
            .args(["--metrics", "127.0.0.1:0", "--data-dir"])
            .arg(dir.path())
            .args(["--database", url, "--node", name, "--lease-secs"])
            .arg(LEASE_SECS.to_string())
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
        let ws = line
            .split_whitespace()
            .find_map(|w| w.strip_prefix("ws="))
            .unwrap_or_else(|| panic!("no ws= in {line:?}"))
            .to_string();
        Node {
            child,
            ws,
            _dir: dir,
        }
    }

    fn signal(&self, sig: &str) {
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

struct Player {
    ws: Ws,
    next_ref: u32,
}

impl Player {
    async fn connect(url: &str) -> Player {
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

    async fn send(&mut self, msg: ClientMsg) {
        let bytes = codec::encode_infallible(&msg);
        self.ws.send(Message::Binary(bytes.into())).await.unwrap();
    }

    async fn until(&mut self, want: impl Fn(&ServerMsg) -> bool) -> ServerMsg {
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
    async fn place(&mut self, table: TableId, label: &str) -> ServerMsg {
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
            ServerMsg::Error { .. } => true,
            _ => false,
        })
        .await
    }
}

fn accepted(m: ServerMsg) -> u64 {
    match m {
        ServerMsg::Accepted { seq, .. } => seq,
        other => panic!("not accepted: {other:?}"),
    }
}

fn entries_in(url: &str, table: TableId) -> i64 {
    let url = url.to_string();
    std::thread::spawn(move || {
        let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        c.query_one(
            "SELECT count(*) FROM entries WHERE table_id = $1",
            &[&(table.0 as i64)],
        )
        .unwrap()
        .get(0)
    })
    .join()
    .unwrap()
}

#[tokio::test]
async fn a_frozen_node_is_fenced_off_when_another_takes_its_table() {
    let Some(url) = std::thread::spawn(pg_cluster::fresh_database)
        .join()
        .unwrap()
    else {
        return;
    };
    let a = Node::start(&url, "a");
    let mut on_a = Player::connect(&a.ws).await;
    on_a.send(ClientMsg::GuestSignIn {
        name: "Grant".into(),
    })
    .await;
    let token = match on_a
        .until(|m| matches!(m, ServerMsg::SignedIn { .. }))
        .await
    {
        ServerMsg::SignedIn {
            token: Some(token), ..
        } => token,
        other => panic!("{other:?}"),
    };
    on_a.send(ClientMsg::CreateTable {
        options: TableOptions {
            ruleset: "sandbox".into(),
            scenario: "fleet".into(),
            config: codec::encode_infallible(&SandboxConfig::default()),
            private: false,
            spectators_allowed: true,
            spectator_delay: 0,
        },
    })
    .await;
    let table = match on_a
        .until(|m| matches!(m, ServerMsg::TableCreated { .. } | ServerMsg::Error { .. }))
        .await
    {
        ServerMsg::TableCreated { table, .. } => table,
        other => panic!("{other:?}"),
    };
    on_a.send(ClientMsg::JoinSeat {
        table,
        seat: None,
        invite: None,
    })
    .await;
    on_a.until(|m| matches!(m, ServerMsg::Snapshot(_))).await;
    // Play starts when every seat is taken.
    let mut other = Player::connect(&a.ws).await;
    other
        .send(ClientMsg::GuestSignIn { name: "Lee".into() })
        .await;
    other
        .until(|m| matches!(m, ServerMsg::SignedIn { .. }))
        .await;
    other
        .send(ClientMsg::JoinSeat {
            table,
            seat: None,
            invite: None,
        })
        .await;
    other.until(|m| matches!(m, ServerMsg::Snapshot(_))).await;
    let mut head = 0;
    for i in 0..3 {
        head = accepted(on_a.place(table, &format!("on A {i}")).await);
    }
    assert_eq!(entries_in(&url, table), head as i64);

    // A frozen past its lease; B starts and takes the table from the log.
    a.signal("-STOP");
    tokio::time::sleep(Duration::from_secs(LEASE_SECS + 1)).await;
    let b = Node::start(&url, "b");
    let mut on_b = Player::connect(&b.ws).await;
    on_b.send(ClientMsg::Resume { token }).await;
    on_b.until(|m| matches!(m, ServerMsg::SignedIn { .. }))
        .await;
    on_b.send(ClientMsg::JoinSeat {
        table,
        seat: None,
        invite: None,
    })
    .await;
    on_b.until(|m| matches!(m, ServerMsg::Snapshot(_))).await;
    let on_b_seq = accepted(on_b.place(table, "on B").await);
    assert!(
        on_b_seq > head,
        "B goes on from the log: {on_b_seq} after {head}"
    );

    // A wakes: its player's next action cannot be stored.
    a.signal("-CONT");
    match on_a.place(table, "A after the hand-over").await {
        ServerMsg::Error { message, .. } => {
            assert!(message.contains("moved to another server"), "{message}")
        }
        other => panic!("A's write was not refused: {other:?}"),
    }
    assert_eq!(
        entries_in(&url, table),
        on_b_seq as i64,
        "nothing of A's after the hand-over"
    );
    // B still serves the table.
    let next = accepted(on_b.place(table, "on B again").await);
    assert_eq!(next, on_b_seq + 1);
    drop(a);
    drop(b);
}
