//! Issue 20, item 2: creating tables must not slow the tables in play.
//! A server on one runtime thread (the default `workers = 1`, on a thread
//! of its own here, as in production), one table playing (one roll at a
//! time, latency = send to `Accepted`), and four connections creating 100
//! Corinth tables between them. Prints p50/p90/max of the playing table's
//! latency before and during the creations.
//!
//! Heavy (100 Corinth builds), so ignored by default:
//! `cargo test -p muster-tests --test server_create_latency -- --ignored --nocapture`

use muster_server::Server;
use muster_shared::codec;
use muster_shared::gbacw::ruleset::GbacwConfig;
use muster_shared::protocol::{ClientMsg, ServerMsg, TableOptions};
use muster_shared::sandbox::SandboxAction;
use muster_tests::e2e::{Client, Target, WAIT, sandbox_table, start_server};
use std::time::{Duration, Instant};

const TABLES: usize = 100;
const CREATORS: usize = 4;

fn corinth() -> TableOptions {
    TableOptions {
        ruleset: "gbacw".into(),
        scenario: "Corinth".into(),
        config: codec::encode_infallible(&GbacwConfig {
            battle: "corinth_free".into(),
            ..GbacwConfig::default()
        }),
        private: false,
        spectators_allowed: true,
        spectator_delay: 0,
        take_back_needs_agreement: true,
    }
}

fn roll() -> SandboxAction {
    SandboxAction::Roll {
        count: 2,
        sides: 6,
        note: "r".into(),
    }
}

fn pct(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn report(what: &str, mut v: Vec<Duration>) -> Duration {
    v.sort();
    let p50 = pct(&v, 0.5);
    println!(
        "{what}: {} actions, p50 {:.1} ms, p90 {:.1} ms, max {:.1} ms",
        v.len(),
        p50.as_secs_f64() * 1e3,
        pct(&v, 0.9).as_secs_f64() * 1e3,
        v.last().unwrap().as_secs_f64() * 1e3
    );
    p50
}

/// The server on a current-thread runtime of its own (production's
/// `workers = 1`); the clients run on the test's runtime.
fn server_thread() -> (
    Target,
    tokio::sync::oneshot::Sender<()>,
    std::thread::JoinHandle<()>,
) {
    let (addr_tx, addr_rx) = std::sync::mpsc::channel();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let (server, _dir): (Server, _) = start_server(|c| {
                c.limits.tables_per_user = 1000;
                c.limits.tables_per_addr = 1000;
            })
            .await;
            addr_tx.send(Target::of(&server)).unwrap();
            let _ = stop_rx.await;
            server.shutdown().await;
        });
    });
    (addr_rx.recv().unwrap(), stop_tx, thread)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "heavy: 100 Corinth tables; run with --ignored --nocapture"]
async fn creating_100_corinth_tables_does_not_slow_a_table_in_play() {
    tokio::time::timeout(Duration::from_secs(600), async {
        let (t, stop, thread) = server_thread();
        let mut a = Client::connect(&t, false, "a").await;
        let mut b = Client::connect(&t, false, "b").await;
        let (table, _) = a.create_table(sandbox_table(false, 0)).await;
        a.sit(table, None).await;
        b.sit(table, None).await;

        let mut quiet = Vec::new();
        for _ in 0..60 {
            let t0 = Instant::now();
            a.act(&roll()).await.unwrap();
            quiet.push(t0.elapsed());
            tokio::time::sleep(Duration::from_millis(20)).await;
        }

        let mut creators = Vec::new();
        for i in 0..CREATORS {
            let mut c = Client::connect(&t, false, &format!("maker{i}")).await;
            creators.push(tokio::spawn(async move {
                let t0 = Instant::now();
                for _ in 0..TABLES / CREATORS {
                    c.send(ClientMsg::CreateTable { options: corinth() }).await;
                    match c
                        .until(WAIT * 3, |m| {
                            matches!(m, ServerMsg::TableCreated { .. } | ServerMsg::Error { .. })
                        })
                        .await
                    {
                        ServerMsg::TableCreated { .. } => {}
                        other => panic!("not created: {other:?}"),
                    }
                }
                t0.elapsed()
            }));
        }
        let started = Instant::now();
        let mut busy = Vec::new();
        while creators.iter().any(|h| !h.is_finished()) {
            let t0 = Instant::now();
            a.act(&roll()).await.unwrap();
            busy.push(t0.elapsed());
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let mut took = Duration::ZERO;
        for h in creators {
            took = took.max(h.await.unwrap());
        }
        println!(
            "{TABLES} Corinth tables created in {:.1} s ({CREATORS} connections)",
            took.as_secs_f64()
        );
        report("another table, quiet", quiet);
        report("another table, while creating", busy);
        println!("(measured over {:.1} s)", started.elapsed().as_secs_f64());
        let _ = stop.send(());
        tokio::task::spawn_blocking(move || thread.join().unwrap())
            .await
            .unwrap();
    })
    .await
    .expect("bounded");
}
