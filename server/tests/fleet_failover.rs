//! Issue 23: three `muster-server` processes on loopback ports share one
//! throw-away PostgreSQL. Tables are spread across them (each created on
//! a node in turn), and one player per table keeps acting. Then:
//! 1. one node is SIGKILLed: every one of its tables must be served again
//!    by another node within 15 s (its lease expires, another node takes
//!    it and replays its log), each player resuming at or past its last
//!    acknowledged sequence number;
//! 2. another node is frozen with SIGSTOP past its lease, then woken with
//!    SIGCONT: the remaining node takes its tables meanwhile; once awake,
//!    the frozen node writes nothing more (the actions its players sent it
//!    while it was frozen never reach the log) and tells its players where
//!    their tables went (`Moved`);
//! 3. the third node is sent SIGTERM: it drains, giving up its leases and
//!    sending its players to the last node, which serves them at once
//!    (well within a lease), and exits cleanly.
//!
//! At the end every acknowledged action is in the log at the sequence
//! number it was acknowledged with: zero acknowledged actions lost.
//!
//! Tables: `MUSTER_FLEET_TABLES` (default 30, so CI stays well under a
//! minute); lease: `MUSTER_FLEET_LEASE_SECS` (default 3; the server's own
//! default is 10); milliseconds between one player's actions:
//! `MUSTER_FLEET_PACE_MS` (default 150). The numbers are printed for
//! docs/server.md.

#[path = "support/pg_cluster.rs"]
mod pg_cluster;
#[path = "support/raw_client.rs"]
mod raw_client;

use futures_util::{SinkExt, StreamExt};
use muster_shared::codec;
use muster_shared::engine::LogEntry;
use muster_shared::protocol::{ClientMsg, PROTOCOL_VERSION, ServerMsg, TableId, TableOptions};
use muster_shared::sandbox::{Loc, Position, SandboxAction, SandboxConfig};
use raw_client::Node;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

/// Every table of a dead node must be served again within this.
const SERVED_AGAIN_WITHIN: Duration = Duration::from_secs(15);
/// Longest wait for any one answer from a node.
const ANSWER: Duration = Duration::from_secs(20);

fn env_num(key: &str, default: u64) -> u64 {
    std::env::var(key)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn send(ws: &mut Ws, msg: &ClientMsg) -> Result<(), String> {
    let bytes = codec::encode_infallible(msg);
    tokio::time::timeout(ANSWER, ws.send(Message::Binary(bytes.into())))
        .await
        .map_err(|_| "send timed out".to_string())?
        .map_err(|e| e.to_string())
}

async fn recv(ws: &mut Ws, limit: Duration) -> Result<ServerMsg, String> {
    let end = Instant::now() + limit;
    loop {
        let frame = tokio::time::timeout_at(end, ws.next())
            .await
            .map_err(|_| "no answer in time".to_string())?
            .ok_or("closed")?
            .map_err(|e| e.to_string())?;
        if let Message::Binary(b) = frame {
            return codec::decode(&b, codec::MAX_SERVER_MSG).map_err(|e| e.to_string());
        }
    }
}

/// The first message that `want` picks.
async fn until(
    ws: &mut Ws,
    want: impl Fn(&ServerMsg) -> bool,
    limit: Duration,
) -> Result<ServerMsg, String> {
    let end = Instant::now() + limit;
    loop {
        let m = recv(ws, end.saturating_duration_since(Instant::now())).await?;
        if want(&m) {
            return Ok(m);
        }
    }
}

async fn hello(url: &str) -> Result<Ws, String> {
    let (mut ws, _) = tokio::time::timeout(ANSWER, tokio_tungstenite::connect_async(url))
        .await
        .map_err(|_| "connect timed out".to_string())?
        .map_err(|e| e.to_string())?;
    send(
        &mut ws,
        &ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            client: "fleet failover test".into(),
        },
    )
    .await?;
    until(&mut ws, |m| matches!(m, ServerMsg::Welcome { .. }), ANSWER).await?;
    Ok(ws)
}

async fn sign_in(ws: &mut Ws, msg: ClientMsg) -> Result<String, String> {
    send(ws, &msg).await?;
    match until(ws, |m| matches!(m, ServerMsg::SignedIn { .. }), ANSWER).await? {
        ServerMsg::SignedIn { token, .. } => Ok(token.unwrap_or_default()),
        _ => unreachable!(),
    }
}

/// Sit (again) at `table`: the snapshot's sequence number, or where the
/// table is served instead.
async fn sit(ws: &mut Ws, table: TableId) -> Result<Result<u64, String>, String> {
    send(
        ws,
        &ClientMsg::JoinSeat {
            table,
            seat: None,
            invite: None,
        },
    )
    .await?;
    let m = until(
        ws,
        |m| {
            matches!(m, ServerMsg::Snapshot(s) if s.table == table)
                || matches!(m, ServerMsg::Moved { .. } | ServerMsg::Error { .. })
        },
        ANSWER,
    )
    .await?;
    match m {
        ServerMsg::Snapshot(s) => Ok(Ok(s.seq)),
        ServerMsg::Moved { to, .. } => Ok(Err(to)),
        ServerMsg::Error { message, .. } => Err(format!("refused: {message}")),
        _ => unreachable!(),
    }
}

fn place(label: &str) -> Vec<u8> {
    codec::encode_infallible(&SandboxAction::Place {
        at: Position {
            board: 0,
            loc: Loc::Hex { col: 1, row: 1 },
        },
        label: label.into(),
        owner: None,
        face_up: true,
        hidden: false,
    })
}

/// What one table's player saw, for the checks at the end.
#[derive(Default)]
struct Seen {
    /// The node it is on now.
    node: String,
    /// Acknowledged actions: sequence number and label.
    acked: Vec<(u64, String)>,
    /// Every label it sent.
    sent: HashSet<String>,
    /// Labels sent to the frozen node while it was frozen.
    sent_frozen: HashSet<String>,
    /// Each time it sat down again after its first: when, and where.
    rejoined: Vec<(Instant, String)>,
    /// `Moved` answers, and from which node.
    moved_from: Vec<String>,
    /// Snapshots older than an acknowledged action (must stay empty).
    went_back: Vec<String>,
}

struct World {
    nodes: Vec<String>,
    stop: AtomicBool,
    /// The node frozen right now, if any.
    frozen: Mutex<Option<String>>,
}

/// One player: keeps acting at its table, follows redirects, and when its
/// node stops answering tries the others in turn.
async fn play(world: Arc<World>, table: TableId, token: String, seen: Arc<Mutex<Seen>>) {
    let pace = Duration::from_millis(env_num("MUSTER_FLEET_PACE_MS", 150));
    let mut node = seen.lock().unwrap().node.clone();
    let mut next = 0u32;
    let mut first = true;
    let mut turn = world.nodes.iter().position(|n| *n == node).unwrap_or(0);
    while !world.stop.load(Relaxed) {
        // (Re)connect, resume, sit.
        let joined = async {
            let mut ws = hello(&node).await?;
            sign_in(
                &mut ws,
                ClientMsg::Resume {
                    token: token.clone(),
                },
            )
            .await?;
            Ok::<_, String>((sit(&mut ws, table).await?, ws))
        }
        .await;
        let mut ws = match joined {
            Ok((Ok(seq), ws)) => {
                let mut s = seen.lock().unwrap();
                let last = s.acked.last().map_or(0, |a| a.0);
                if seq < last {
                    s.went_back
                        .push(format!("table {} resumed at {seq} after {last}", table.0));
                }
                if !first {
                    s.rejoined.push((Instant::now(), node.clone()));
                }
                s.node = node.clone();
                first = false;
                ws
            }
            Ok((Err(to), _)) => {
                seen.lock().unwrap().moved_from.push(node.clone());
                node = to;
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
            Err(_) => {
                // Down (or still starting over): the next node.
                turn = (turn + 1) % world.nodes.len();
                node = world.nodes[turn].clone();
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
        };
        // Play until the table moves or the node stops answering.
        while !world.stop.load(Relaxed) {
            next += 1;
            let label = format!("t{}-{next}", table.0);
            {
                let mut s = seen.lock().unwrap();
                s.sent.insert(label.clone());
                if world.frozen.lock().unwrap().as_deref() == Some(node.as_str()) {
                    s.sent_frozen.insert(label.clone());
                }
            }
            let act = ClientMsg::Act {
                table,
                client_ref: next,
                action: place(&label),
                links: Vec::new(),
            };
            if send(&mut ws, &act).await.is_err() {
                break;
            }
            let answer = until(
                &mut ws,
                |m| match m {
                    ServerMsg::Accepted { client_ref, .. } => *client_ref == next,
                    ServerMsg::Moved { .. } | ServerMsg::Error { .. } => true,
                    _ => false,
                },
                ANSWER,
            )
            .await;
            match answer {
                Ok(ServerMsg::Accepted { seq, .. }) => {
                    seen.lock().unwrap().acked.push((seq, label));
                }
                Ok(ServerMsg::Moved { to, .. }) => {
                    seen.lock().unwrap().moved_from.push(node.clone());
                    node = to;
                    break;
                }
                // A refusal in words (busy, rate): go on.
                Ok(_) => {}
                Err(_) => {
                    turn = (turn + 1) % world.nodes.len();
                    node = world.nodes[turn].clone();
                    break;
                }
            }
            tokio::time::sleep(pace).await;
        }
    }
}

/// Each table's log as (sequence number, label of its action, if one).
fn logs(url: &str) -> HashMap<u64, Vec<(u64, Option<String>)>> {
    let mut c = postgres::Client::connect(url, postgres::NoTls).unwrap();
    let mut out: HashMap<u64, Vec<(u64, Option<String>)>> = HashMap::new();
    for r in c
        .query(
            "SELECT table_id, seq, entry FROM entries ORDER BY table_id, seq",
            &[],
        )
        .unwrap()
    {
        let (table, seq, bytes): (i64, i64, Vec<u8>) = (r.get(0), r.get(1), r.get(2));
        let label = match codec::decode::<LogEntry>(&bytes, codec::MAX_SERVER_MSG).unwrap() {
            LogEntry::Action(rec) => {
                match codec::decode::<SandboxAction>(&rec.action, codec::MAX_SERVER_MSG) {
                    Ok(SandboxAction::Place { label, .. }) => Some(label),
                    _ => None,
                }
            }
            _ => None,
        };
        out.entry(table as u64)
            .or_default()
            .push((seq as u64, label));
    }
    out
}

/// Which node holds each table's lease.
fn owners(url: &str) -> HashMap<u64, String> {
    let mut c = postgres::Client::connect(url, postgres::NoTls).unwrap();
    c.query("SELECT table_id, node FROM leases", &[])
        .unwrap()
        .iter()
        .map(|r| (r.get::<_, i64>(0) as u64, r.get(1)))
        .collect()
}

fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::spawn(f).join().unwrap()
}

fn stats(mut d: Vec<Duration>) -> (Duration, Duration) {
    d.sort();
    (d[d.len() / 2], *d.last().unwrap())
}

/// Wait (bounded) until every player in `who` has sat down again after
/// `since` on a node other than `not`; how long each took.
async fn served_again(
    seen: &HashMap<TableId, Arc<Mutex<Seen>>>,
    who: &[TableId],
    since: Instant,
    not: &str,
    limit: Duration,
) -> Result<Vec<Duration>, String> {
    let end = Instant::now() + limit;
    loop {
        let mut took = Vec::new();
        let mut waiting = Vec::new();
        for t in who {
            let s = seen[t].lock().unwrap();
            match s
                .rejoined
                .iter()
                .find(|(at, node)| *at >= since && node != not)
            {
                Some((at, _)) => took.push(*at - since),
                None => waiting.push(t.0),
            }
        }
        if waiting.is_empty() {
            return Ok(took);
        }
        if Instant::now() > end {
            return Err(format!("tables not served again: {waiting:?}"));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_node_s_tables_are_served_again_and_a_frozen_node_writes_nothing() {
    let Some(url) = blocking(pg_cluster::fresh_database) else {
        return;
    };
    let tables = env_num("MUSTER_FLEET_TABLES", 30) as usize;
    let lease = env_num("MUSTER_FLEET_LEASE_SECS", 3);
    // One address (loopback) plays every table: lift the per-address caps.
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("muster.toml");
    std::fs::write(
        &config,
        "[limits]\nconns_per_addr = 100000\nguest_signins_per_minute = 100000\n\
         guest_signin_burst = 100000\ntables_per_addr = 100000\nmax_tables = 100000\n",
    )
    .unwrap();
    let start = |name: &str| {
        Node::start(&[
            "--config",
            config.to_str().unwrap(),
            "--database",
            &url,
            "--node",
            name,
            "--lease-secs",
            &lease.to_string(),
        ])
    };
    let mut nodes = vec![start("n1"), start("n2"), start("n3")];
    let world = Arc::new(World {
        nodes: nodes.iter().map(|n| n.ws.clone()).collect(),
        stop: AtomicBool::new(false),
        frozen: Mutex::new(None),
    });

    // Tables spread across the nodes; the second seat is taken by one
    // identity per node, which then leaves (the seat stays its own).
    let mut others = Vec::new();
    for node in &world.nodes {
        let mut ws = hello(node).await.unwrap();
        sign_in(&mut ws, ClientMsg::GuestSignIn { name: "Lee".into() })
            .await
            .unwrap();
        others.push(ws);
    }
    let mut seen: HashMap<TableId, Arc<Mutex<Seen>>> = HashMap::new();
    let mut players = Vec::new();
    let set_up = Instant::now();
    for i in 0..tables {
        let at = i % world.nodes.len();
        let node = world.nodes[at].clone();
        let mut ws = hello(&node).await.unwrap();
        let token = sign_in(
            &mut ws,
            ClientMsg::GuestSignIn {
                name: format!("Grant {i}"),
            },
        )
        .await
        .unwrap();
        send(
            &mut ws,
            &ClientMsg::CreateTable {
                options: TableOptions {
                    ruleset: "sandbox".into(),
                    scenario: format!("fleet {i}"),
                    config: codec::encode_infallible(&SandboxConfig::default()),
                    private: false,
                    spectators_allowed: true,
                    spectator_delay: 0,
                    take_back_needs_agreement: true,
                },
            },
        )
        .await
        .unwrap();
        let table = match until(
            &mut ws,
            |m| matches!(m, ServerMsg::TableCreated { .. } | ServerMsg::Error { .. }),
            ANSWER,
        )
        .await
        .unwrap()
        {
            ServerMsg::TableCreated { table, .. } => table,
            other => panic!("{other:?}"),
        };
        sit(&mut ws, table).await.unwrap().unwrap();
        sit(&mut others[at], table).await.unwrap().unwrap();
        drop(ws);
        let s = Arc::new(Mutex::new(Seen {
            node: node.clone(),
            ..Seen::default()
        }));
        seen.insert(table, s.clone());
        players.push(tokio::spawn(play(world.clone(), table, token, s)));
    }
    drop(others);
    eprintln!(
        "{tables} tables set up on 3 nodes in {:.1} s (lease {lease} s)",
        set_up.elapsed().as_secs_f64()
    );
    tokio::time::sleep(Duration::from_secs(2)).await;

    // 1. n2 dies.
    let on = |node: &str| -> Vec<TableId> {
        seen.iter()
            .filter(|(_, s)| s.lock().unwrap().node == node)
            .map(|(t, _)| *t)
            .collect()
    };
    let dead = world.nodes[1].clone();
    let orphans = on(&dead);
    assert!(!orphans.is_empty());
    let killed = Instant::now();
    nodes[1].signal("-KILL");
    let took = served_again(&seen, &orphans, killed, &dead, Duration::from_secs(40))
        .await
        .unwrap();
    let (median, max) = stats(took);
    eprintln!(
        "SIGKILL: {} tables served again on other nodes: median {:.2} s, max {:.2} s after the kill",
        orphans.len(),
        median.as_secs_f64(),
        max.as_secs_f64()
    );
    assert!(
        max <= SERVED_AGAIN_WITHIN,
        "a table took {max:?} to be served again"
    );
    let url2 = url.clone();
    let held = blocking(move || owners(&url2));
    for t in &orphans {
        assert_ne!(
            held[&t.0], "n2",
            "table {} still leased to the dead node",
            t.0
        );
    }
    tokio::time::sleep(Duration::from_secs(2)).await;

    // 2. n1 frozen past its lease, then woken.
    let frozen = world.nodes[0].clone();
    let stuck = on(&frozen);
    assert!(!stuck.is_empty());
    *world.frozen.lock().unwrap() = Some(frozen.clone());
    nodes[0].signal("-STOP");
    tokio::time::sleep(Duration::from_secs(lease + 3)).await;
    let woken = Instant::now();
    nodes[0].signal("-CONT");
    *world.frozen.lock().unwrap() = None;
    let took = served_again(&seen, &stuck, woken, &frozen, Duration::from_secs(40))
        .await
        .unwrap();
    let (median, max) = stats(took);
    eprintln!(
        "SIGSTOP {} s: {} tables' players moved: median {:.2} s, max {:.2} s after SIGCONT",
        lease + 3,
        stuck.len(),
        median.as_secs_f64(),
        max.as_secs_f64()
    );
    let told = stuck
        .iter()
        .filter(|t| seen[t].lock().unwrap().moved_from.contains(&frozen))
        .count();
    eprintln!("{told} of them were told by the woken node where to go (Moved)");
    assert!(told > 0, "the woken node redirected none of its players");
    tokio::time::sleep(Duration::from_secs(1)).await;

    // 3. n3 drains on SIGTERM: it gives its leases up and sends its
    // players to n1, which serves them at once (not after a lease).
    let leaving = world.nodes[2].clone();
    let handed = on(&leaving);
    assert!(!handed.is_empty());
    let termed = Instant::now();
    nodes[2].signal("-TERM");
    let took = served_again(&seen, &handed, termed, &leaving, Duration::from_secs(40))
        .await
        .unwrap();
    let (median, max) = stats(took);
    eprintln!(
        "SIGTERM: {} tables handed over: median {:.2} s, max {:.2} s after the signal",
        handed.len(),
        median.as_secs_f64(),
        max.as_secs_f64()
    );
    assert!(
        max < Duration::from_secs(lease),
        "a drained table waited {max:?}, as long as its lease"
    );
    let told = handed
        .iter()
        .filter(|t| seen[t].lock().unwrap().moved_from.contains(&leaving))
        .count();
    assert_eq!(
        told,
        handed.len(),
        "every player of the draining node is told where to go"
    );
    let exit = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = nodes[2].child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < exit, "the drained node did not exit");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(status.success(), "the drained node exits cleanly: {status}");
    tokio::time::sleep(Duration::from_secs(1)).await;

    // The fleet's one lobby, on the last node standing, lists every table
    // in play, whichever node served it before (the directory in the
    // database outlives a kill, a freeze and a drain).
    let mut watcher = hello(&world.nodes[0]).await.unwrap();
    sign_in(
        &mut watcher,
        ClientMsg::GuestSignIn {
            name: "Watcher".into(),
        },
    )
    .await
    .unwrap();
    send(&mut watcher, &ClientMsg::WatchLobby { on: true })
        .await
        .unwrap();
    let listed = match until(
        &mut watcher,
        |m| matches!(m, ServerMsg::Lobby { .. }),
        ANSWER,
    )
    .await
    .unwrap()
    {
        ServerMsg::Lobby { tables } => tables,
        _ => unreachable!(),
    };
    let playing: HashSet<TableId> = listed
        .iter()
        .filter(|l| l.status == muster_shared::protocol::TableStatus::Playing)
        .map(|l| l.table)
        .collect();
    let missing: Vec<u64> = seen
        .keys()
        .filter(|t| !playing.contains(t))
        .map(|t| t.0)
        .collect();
    assert!(
        missing.is_empty(),
        "the last node's lobby lacks tables in play: {missing:?}"
    );
    drop(watcher);

    // The end: every acknowledged action is in the log at its number, and
    // nothing sent to the frozen node while it was frozen is.
    world.stop.store(true, Relaxed);
    for p in players {
        let _ = tokio::time::timeout(ANSWER + Duration::from_secs(5), p).await;
    }
    for n in &mut nodes {
        let _ = n.child.kill();
    }
    let url3 = url.clone();
    let logs = blocking(move || logs(&url3));
    let mut acked = 0;
    let mut frozen_sent = 0;
    for (table, s) in &seen {
        let s = s.lock().unwrap();
        assert!(s.went_back.is_empty(), "{:?}", s.went_back);
        let log = &logs[&table.0];
        for (i, (seq, _)) in log.iter().enumerate() {
            assert_eq!(*seq, i as u64 + 1, "table {} log has a gap", table.0);
        }
        for (seq, label) in &s.acked {
            let at = log.get(*seq as usize - 1).and_then(|e| e.1.as_ref());
            assert_eq!(
                at,
                Some(label),
                "table {}: acknowledged action {label} lost (seq {seq})",
                table.0
            );
            acked += 1;
        }
        let labels: HashSet<&String> = log.iter().filter_map(|e| e.1.as_ref()).collect();
        for label in &s.sent_frozen {
            assert!(
                !labels.contains(label),
                "table {}: {label}, sent to the frozen node, reached the log",
                table.0
            );
        }
        for label in labels {
            assert!(s.sent.contains(label), "an action nobody sent: {label}");
        }
        frozen_sent += s.sent_frozen.len();
    }
    eprintln!(
        "{acked} acknowledged actions, 0 lost; {frozen_sent} actions sent to the frozen node, none in the log"
    );
}
