//! A fixed, sequential workload for counting the server's instructions per
//! action (`bench/callgrind.sh` runs `muster-server` under
//! `valgrind --tool=callgrind` and this driver natively against it).
//!
//! One sandbox table over WebSocket: two seats and four spectators. Then
//! `--actions N` rolls of one d6, the seats taking turns, each sent with
//! the seat's next chain link and **waited for** (the actor's `Accepted`
//! and the delta on every other connection) before the next is sent, so
//! the server does the same work for every action whatever the machine's
//! load: one entry, one commit, one delta per viewer. Nothing runs in
//! parallel, so instruction counts repeat from run to run.
//!
//! With `--moves` each step is instead the benchmark's move, a counter
//! moved to a hex and a d6 rolled; `--combined` sends it as the sandbox's
//! one `MoveRoll` action, otherwise as `Move` then `Roll` (two actions).
//!
//! It also prints the bytes each spectator received per step (WebSocket
//! payload plus its 2-byte server frame header), counted from the first
//! step's frames to the last.
//!
//! The driver is a raw protocol client (no `muster-client`, so it builds
//! without the desktop app's dependencies); it does not verify rolls.

use futures_util::{SinkExt, StreamExt};
use muster_shared::SeatId;
use muster_shared::codec;
use muster_shared::dice::{HashChain, SeatLink};
use muster_shared::protocol::{ClientMsg, PROTOCOL_VERSION, ServerMsg, TableId, TableOptions};
use muster_shared::sandbox::{Loc, PieceId, Position, SandboxAction, SandboxConfig};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Every wait is bounded (the server may run 50× slower under valgrind).
const WAIT: Duration = Duration::from_secs(120);

struct Conn {
    ws: Ws,
    /// Bytes received (payload + 2-byte frame header under 126 bytes).
    down: u64,
}

fn fail(what: impl std::fmt::Display) -> ! {
    eprintln!("callgrind_drive: {what}");
    std::process::exit(1);
}

impl Conn {
    async fn open(url: &str, name: &str) -> Conn {
        let (ws, _) = tokio::time::timeout(WAIT, tokio_tungstenite::connect_async(url))
            .await
            .unwrap_or_else(|_| fail("connect timed out"))
            .unwrap_or_else(|e| fail(format!("connect {url}: {e}")));
        let mut c = Conn { ws, down: 0 };
        c.send(&ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            client: "callgrind-drive".into(),
        })
        .await;
        c.until(|m| matches!(m, ServerMsg::Welcome { .. })).await;
        c.send(&ClientMsg::GuestSignIn { name: name.into() }).await;
        c.until(|m| matches!(m, ServerMsg::SignedIn { .. })).await;
        c
    }

    async fn send(&mut self, msg: &ClientMsg) {
        let bytes = codec::encode_infallible(msg);
        self.ws
            .send(Message::Binary(bytes.into()))
            .await
            .unwrap_or_else(|e| fail(format!("send: {e}")));
    }

    async fn recv(&mut self) -> ServerMsg {
        loop {
            let m = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .unwrap_or_else(|_| fail("no message from the server in time"));
            match m {
                Some(Ok(Message::Binary(b))) => {
                    self.down += b.len() as u64 + if b.len() < 126 { 2 } else { 4 };
                    let msg =
                        ServerMsg::decode(&b).unwrap_or_else(|e| fail(format!("decode: {e}")));
                    if let ServerMsg::Error { message, .. }
                    | ServerMsg::Rejected {
                        error: muster_shared::engine::RuleError { message, .. },
                        ..
                    } = &msg
                    {
                        fail(format!("the server refused: {message}"));
                    }
                    return msg;
                }
                Some(Ok(_)) => continue,
                Some(Err(e)) => fail(format!("receive: {e}")),
                None => fail("the server closed the connection"),
            }
        }
    }

    async fn until(&mut self, mut pred: impl FnMut(&ServerMsg) -> bool) -> ServerMsg {
        loop {
            let m = self.recv().await;
            if pred(&m) {
                return m;
            }
        }
    }

    /// Read until a delta with `seq` (or later) has arrived.
    async fn reach_seq(&mut self, seq: u64) {
        self.until(|m| matches!(m, ServerMsg::Delta { seq: s, .. } if *s >= seq))
            .await;
    }
}

struct Seat {
    conn: Conn,
    seat: SeatId,
    chain: HashChain,
    next_link: u32,
    next_ref: u32,
}

impl Seat {
    async fn act(&mut self, table: TableId, action: &SandboxAction, rolls: bool) -> u64 {
        let links = if rolls {
            let index = self.next_link;
            self.next_link += 1;
            let link = self
                .chain
                .link(index)
                .unwrap_or_else(|| fail("chain used up"));
            vec![SeatLink {
                seat: self.seat,
                index,
                link,
            }]
        } else {
            Vec::new()
        };
        let client_ref = self.next_ref;
        self.next_ref += 1;
        self.conn
            .send(&ClientMsg::Act {
                table,
                client_ref,
                action: codec::encode_infallible(action),
                links,
            })
            .await;
        match self
            .conn
            .until(|m| matches!(m, ServerMsg::Accepted { client_ref: r, .. } if *r == client_ref))
            .await
        {
            ServerMsg::Accepted { seq, .. } => seq,
            _ => unreachable!(),
        }
    }
}

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn hex(col: u16, row: u16) -> Position {
    Position {
        board: 0,
        loc: Loc::Hex { col, row },
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let url = arg(&args, "--ws")
        .unwrap_or_else(|| fail("usage: --ws ws://HOST:PORT [--actions N] [--moves] [--combined]"));
    let steps: u32 = arg(&args, "--actions")
        .map(|n| {
            n.parse()
                .unwrap_or_else(|_| fail("--actions takes a number"))
        })
        .unwrap_or(1000);
    let moves = args.iter().any(|a| a == "--moves");
    let combined = args.iter().any(|a| a == "--combined");
    if steps > 4000 {
        fail("at most 4,000 steps (the seats' chains and the server's hold 4,096 links)");
    }

    let mut seats = Vec::new();
    for s in 0..2u8 {
        seats.push(Seat {
            conn: Conn::open(&url, &format!("seat {s}")).await,
            seat: SeatId(s),
            chain: HashChain::generate(4096),
            next_link: 1,
            next_ref: 1,
        });
    }
    seats[0]
        .conn
        .send(&ClientMsg::CreateTable {
            options: TableOptions {
                ruleset: "sandbox".into(),
                scenario: "callgrind".into(),
                config: codec::encode_infallible(&SandboxConfig::default()),
                private: false,
                spectators_allowed: true,
                spectator_delay: 0,
                take_back_needs_agreement: true,
            },
        })
        .await;
    let table = match seats[0]
        .conn
        .until(|m| matches!(m, ServerMsg::TableCreated { .. }))
        .await
    {
        ServerMsg::TableCreated { table, .. } => table,
        _ => unreachable!(),
    };
    let mut seq = 0;
    for s in seats.iter_mut() {
        s.conn
            .send(&ClientMsg::JoinSeat {
                table,
                seat: Some(s.seat),
                invite: None,
            })
            .await;
        s.conn.until(|m| matches!(m, ServerMsg::Snapshot(_))).await;
        s.conn
            .send(&ClientMsg::PublishAnchor {
                table,
                anchor: s.chain.anchor(),
            })
            .await;
        let m = s.conn.until(|m| matches!(m, ServerMsg::Delta { .. })).await;
        if let ServerMsg::Delta { seq: q, .. } = m {
            seq = seq.max(q);
        }
    }
    // Seat 0 may not have seen seat 1's anchor yet.
    seats[0].conn.reach_seq(seq).await;
    let mut watchers = Vec::new();
    for i in 0..4 {
        let mut c = Conn::open(&url, &format!("watcher {i}")).await;
        c.send(&ClientMsg::Spectate {
            table,
            invite: None,
        })
        .await;
        c.until(|m| matches!(m, ServerMsg::Snapshot(_))).await;
        watchers.push(c);
    }
    let mut piece = None;
    if moves {
        let place = SandboxAction::Place {
            at: hex(0, 0),
            label: "counter".into(),
            owner: None,
            face_up: true,
            hidden: false,
        };
        seq = seats[1].act(table, &place, false).await;
        piece = Some(PieceId(seq));
        seats[0].conn.reach_seq(seq).await;
        for w in watchers.iter_mut() {
            w.reach_seq(seq).await;
        }
    }

    let down_before: u64 = watchers.iter().map(|w| w.down).sum();
    let roll = SandboxAction::Roll {
        count: 1,
        sides: 6,
        note: String::new(),
    };
    for i in 0..steps {
        let k = (i % 2) as usize;
        let to = hex((i % 40) as u16, ((i / 40) % 30) as u16);
        seq = match (moves, combined) {
            (false, _) => seats[k].act(table, &roll, true).await,
            (true, false) => {
                let mv = SandboxAction::Move {
                    pieces: vec![piece.expect("placed")],
                    to,
                };
                seats[k].act(table, &mv, false).await;
                seats[k].act(table, &roll, true).await
            }
            (true, true) => {
                let mv = SandboxAction::MoveRoll {
                    pieces: vec![piece.expect("placed")],
                    to,
                    count: 1,
                    sides: 6,
                };
                seats[k].act(table, &mv, true).await
            }
        };
        seats[1 - k].conn.reach_seq(seq).await;
        for w in watchers.iter_mut() {
            w.reach_seq(seq).await;
        }
    }
    let down: u64 = watchers.iter().map(|w| w.down).sum::<u64>() - down_before;
    let per = if steps > 0 {
        down as f64 / f64::from(steps) / watchers.len() as f64
    } else {
        0.0
    };
    println!("steps={steps} last_seq={seq} spectator_bytes_per_step={per:.1}");
}
