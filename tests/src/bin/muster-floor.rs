//! The floor under `muster-load` (not run in CI): the same traffic shape —
//! N tables × (2 players + S spectators) on loopback TCP, one action per
//! table per second, each action one small frame in and one ~130-byte
//! frame out to every connection of its table — served by the least code
//! that can do it: a current-thread Tokio runtime (as `muster-server`
//! runs by default), length-prefixed frames, no protocol, no rules, no
//! WebSocket framing, no SQL. With `--fsync` each action is also appended
//! to a file and `fsync`ed in groups on a thread of its own before its
//! frames go out, as the server's log is; with `--hop` each frame goes
//! through a per-connection queue and writer task, as the server's do.
//!
//! What the floor costs per action on a machine is what no server can go
//! under there; `muster-load`'s figure minus this one is the server's own.
//!
//! ```sh
//! cargo build --release -p muster-tests --bins
//! target/release/muster-floor --tables 2000 --spectators 3 --secs 20 --fsync --hop
//! ```

use muster_tests::proc_stats::proc_stat;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, oneshot};

/// Bytes of an action frame's body (an `Act` with one seat link is ~100).
const ACTION_BYTES: usize = 100;
/// Bytes of a delivered frame's body (a roll's delta is ~127).
const DELTA_BYTES: usize = 127;
/// Largest frame either side accepts.
const MAX_FRAME: usize = 4096;
/// The storage thread's gathering window, as the server's default.
const COMMIT_WINDOW: Duration = Duration::from_millis(2);

#[derive(clap::Parser)]
#[command(name = "muster-floor")]
struct Args {
    #[arg(long, default_value_t = 100)]
    tables: usize,
    #[arg(long, default_value_t = 3)]
    spectators: usize,
    #[arg(long, default_value_t = 20)]
    secs: u64,
    #[arg(long, default_value_t = 3)]
    idle_secs: u64,
    /// Append each action to a file, `fsync`ed per group, before sending.
    #[arg(long)]
    fsync: bool,
    /// Send through a queue and writer task per connection.
    #[arg(long)]
    hop: bool,
    /// Internal: run as the server child on this directory.
    #[arg(long, hide = true)]
    serve: Option<std::path::PathBuf>,
}

fn main() {
    let args = <Args as clap::Parser>::parse();
    if let Some(dir) = args.serve.clone() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        rt.block_on(serve(dir, args.fsync, args.hop));
    } else {
        let rt = tokio::runtime::Runtime::new().expect("runtime");
        rt.block_on(drive(args));
    }
}

// ---------------------------------------------------------------- server

/// How a frame reaches one connection.
enum Out {
    /// Written straight from the acting connection's task.
    Direct(Arc<TcpStream>),
    /// Queued for the connection's writer task.
    Queue(mpsc::Sender<Vec<u8>>),
}

type Tables = Arc<Mutex<Vec<Vec<Arc<Out>>>>>;

/// One group-committed append: the action's bytes and who to tell.
type Commit = (Vec<u8>, oneshot::Sender<()>);

async fn serve(dir: std::path::PathBuf, fsync: bool, hop: bool) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let storage = fsync.then(|| start_storage(dir.join("log"), tokio::runtime::Handle::current()));
    let tables: Tables = Arc::default();
    println!("{}", listener.local_addr().expect("address").port());
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let _ = stream.set_nodelay(true);
        let (tables, storage) = (tables.clone(), storage.clone());
        tokio::spawn(async move {
            let _ = connection(stream, tables, storage, hop).await;
        });
    }
}

/// A connection says `table: u32, role: u8` (role 0 acts), then the acting
/// one sends frames that go to every connection of its table.
async fn connection(
    stream: TcpStream,
    tables: Tables,
    storage: Option<std::sync::mpsc::Sender<Commit>>,
    hop: bool,
) -> std::io::Result<()> {
    let stream = Arc::new(stream);
    let mut hello = [0u8; 5];
    read_exact(&stream, &mut hello).await?;
    let table = u32::from_le_bytes(hello[..4].try_into().expect("4 bytes")) as usize;
    let out = if hop {
        let (tx, mut rx) = mpsc::channel::<Vec<u8>>(64);
        let writer = stream.clone();
        tokio::spawn(async move {
            while let Some(frame) = rx.recv().await {
                if write_all(&writer, &frame).await.is_err() {
                    return;
                }
            }
        });
        Out::Queue(tx)
    } else {
        Out::Direct(stream.clone())
    };
    {
        let mut t = tables.lock().expect("tables");
        if t.len() <= table {
            t.resize_with(table + 1, Vec::new);
        }
        t[table].push(Arc::new(out));
    }
    if hello[4] != 0 {
        // Spectators and the second player only read; hold the socket open.
        std::future::pending::<()>().await;
    }
    let mut body = vec![0u8; MAX_FRAME];
    loop {
        let mut len = [0u8; 4];
        read_exact(&stream, &mut len).await?;
        let n = u32::from_le_bytes(len) as usize;
        if n > MAX_FRAME {
            return Ok(());
        }
        read_exact(&stream, &mut body[..n]).await?;
        if let Some(storage) = &storage {
            let (tx, rx) = oneshot::channel();
            let _ = storage.send((body[..n].to_vec(), tx));
            let _ = rx.await;
        }
        // The delivery: the action's first 16 bytes (table, seq) echoed.
        let mut frame = vec![0u8; 4 + DELTA_BYTES];
        frame[..4].copy_from_slice(&(DELTA_BYTES as u32).to_le_bytes());
        frame[4..20].copy_from_slice(&body[..16]);
        let outs = tables.lock().expect("tables")[table].clone();
        for out in outs {
            match &*out {
                Out::Direct(s) => write_all(s, &frame).await?,
                Out::Queue(q) => {
                    let _ = q.try_send(frame.clone());
                }
            }
        }
    }
}

async fn read_exact(s: &TcpStream, buf: &mut [u8]) -> std::io::Result<()> {
    let mut at = 0;
    while at < buf.len() {
        s.readable().await?;
        match s.try_read(&mut buf[at..]) {
            Ok(0) => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => at += n,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

async fn write_all(s: &TcpStream, buf: &[u8]) -> std::io::Result<()> {
    let mut at = 0;
    while at < buf.len() {
        match s.try_write(&buf[at..]) {
            Ok(n) => at += n,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => s.writable().await?,
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// The server's storage shape without SQLite: a thread that waits for a
/// request, sleeps through the window, appends everything queued, `fsync`s
/// once, and answers the group from one task on the runtime.
fn start_storage(
    path: std::path::PathBuf,
    rt: tokio::runtime::Handle,
) -> std::sync::mpsc::Sender<Commit> {
    let (tx, rx) = std::sync::mpsc::channel::<Commit>();
    std::thread::spawn(move || {
        let mut file = std::fs::File::create(path).expect("log file");
        while let Ok(first) = rx.recv() {
            std::thread::sleep(COMMIT_WINDOW);
            let mut group = vec![first];
            group.extend(rx.try_iter());
            for (bytes, _) in &group {
                file.write_all(bytes).expect("append");
            }
            file.sync_all().expect("fsync");
            rt.spawn(async move {
                for (_, done) in group {
                    let _ = done.send(());
                }
            });
        }
    });
    tx
}

// ---------------------------------------------------------------- driver

async fn drive(args: Args) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut cmd = std::process::Command::new(std::env::current_exe().expect("own path"));
    cmd.arg("--serve").arg(dir.path());
    if args.fsync {
        cmd.arg("--fsync");
    }
    if args.hop {
        cmd.arg("--hop");
    }
    let mut child = cmd
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("server child");
    let pid = child.id();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().expect("stdout")),
        &mut line,
    )
    .expect("port line");
    let addr = format!("127.0.0.1:{}", line.trim());
    let per_table = 2 + args.spectators;
    let rss0 = proc_stat(pid).rss_kib;

    // Per table: when its current action was sent, and how many of its
    // connections have the delivery.
    let books: Arc<Vec<Mutex<(Instant, usize)>>> = Arc::new(
        (0..args.tables)
            .map(|_| Mutex::new((Instant::now(), 0)))
            .collect(),
    );
    let latencies = Arc::new(Mutex::new(Vec::<Duration>::new()));
    let delivered = Arc::new(AtomicU64::new(0));
    let mut players = Vec::new();
    for table in 0..args.tables {
        for role in 0..per_table {
            let mut s = TcpStream::connect(&addr).await.expect("connect");
            let _ = s.set_nodelay(true);
            let mut hello = (table as u32).to_le_bytes().to_vec();
            hello.push(role as u8);
            s.write_all(&hello).await.expect("hello");
            let (mut r, w) = s.into_split();
            if role == 0 {
                players.push(w);
            } else {
                drop(w);
            }
            let (books, latencies, delivered) =
                (books.clone(), latencies.clone(), delivered.clone());
            tokio::spawn(async move {
                let mut buf = vec![0u8; 4 + DELTA_BYTES];
                while r.read_exact(&mut buf).await.is_ok() {
                    delivered.fetch_add(1, Relaxed);
                    let mut b = books[table].lock().expect("book");
                    b.1 += 1;
                    if b.1 == per_table {
                        latencies.lock().expect("latencies").push(b.0.elapsed());
                    }
                }
            });
        }
    }
    let conns = args.tables * per_table;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let idle_from = proc_stat(pid);
    tokio::time::sleep(Duration::from_secs(args.idle_secs)).await;
    let before = proc_stat(pid);
    eprintln!(
        "{conns} connections open; server RSS {} MiB",
        before.rss_kib / 1024
    );

    let started = Instant::now();
    let end = started + Duration::from_secs(args.secs);
    let mut tasks = Vec::new();
    for (table, mut w) in players.into_iter().enumerate() {
        let offset = Duration::from_millis((table as u64 * 1000) / args.tables.max(1) as u64);
        let books = books.clone();
        tasks.push(tokio::spawn(async move {
            tokio::time::sleep(offset).await;
            let mut tick = tokio::time::interval(Duration::from_secs(1));
            let mut actions = 0u64;
            while Instant::now() < end {
                tick.tick().await;
                actions += 1;
                let mut frame = vec![0u8; 4 + ACTION_BYTES];
                frame[..4].copy_from_slice(&(ACTION_BYTES as u32).to_le_bytes());
                frame[4..12].copy_from_slice(&(table as u64).to_le_bytes());
                frame[12..20].copy_from_slice(&actions.to_le_bytes());
                *books[table].lock().expect("book") = (Instant::now(), 0);
                w.write_all(&frame).await.expect("send");
            }
            actions
        }));
    }
    let mut actions = 0;
    for t in tasks {
        actions += t.await.expect("player");
    }
    let took = started.elapsed().as_secs_f64();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after = proc_stat(pid);
    let mut lat = latencies.lock().expect("latencies").clone();
    lat.sort();
    let pct = |p: f64| {
        lat.get(((lat.len().max(1) - 1) as f64 * p) as usize)
            .copied()
            .unwrap_or_default()
    };
    let idle = (before.user_s + before.system_s - idle_from.user_s - idle_from.system_s)
        / args.idle_secs.max(1) as f64;
    let per_action = |secs: f64| secs * 1e6 / actions.max(1) as f64;
    let (user, system) = (
        after.user_s - before.user_s,
        after.system_s - before.system_s,
    );
    println!(
        "floor: tables {} × {per_table} ({conns} TCP connections), {} s, fsync {}, hop {}",
        args.tables, args.secs, args.fsync, args.hop
    );
    println!(
        "actions {actions} ({:.0}/s), deliveries {} ({:.0}/s)",
        actions as f64 / took,
        delivered.load(Relaxed),
        delivered.load(Relaxed) as f64 / took
    );
    println!(
        "action → last delivery: p50 {:?}, p99 {:?}, max {:?}",
        pct(0.5),
        pct(0.99),
        lat.last().copied().unwrap_or_default()
    );
    println!(
        "server CPU: {:.1} µs per action ({:.1} user, {:.1} kernel; {:.0}% of one core); idle {:.1}% of one core",
        per_action(user + system),
        per_action(user),
        per_action(system),
        (user + system) / took * 100.0,
        idle * 100.0
    );
    println!(
        "server RSS: {:.1} KiB per connection",
        before.rss_kib.saturating_sub(rss0) as f64 / conns as f64
    );
    let _ = child.kill();
    let _ = child.wait();
}
