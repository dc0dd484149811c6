//! A featured table over real sockets (issue 22): one table, two seats and
//! 1,000 WebSocket spectators, three moves a second apart. Every spectator
//! must receive every move, with no refusal, resync or error. The 10,000
//! spectator run is `muster-load --featured 10000` by hand (docs/server.md).

use muster_tests::e2e::{Target, start_server};
use muster_tests::featured::{Featured, Report, open_file_limit, run};
use std::time::Duration;

const SPECTATORS: usize = 1000;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn featured_table_reaches_every_spectator() {
    // Server and spectators share this process: two descriptors each. A
    // machine whose open-file limit is lower (a default soft limit of
    // 1,024) runs as many as fit, never under 300.
    let spectators = match open_file_limit() {
        Some(limit) if limit < 2 * SPECTATORS as u64 + 300 => {
            let fit = (limit.saturating_sub(300) / 2) as usize;
            assert!(fit >= 300, "ulimit -n is {limit}: too low for this test");
            eprintln!("ulimit -n is {limit}: {fit} spectators instead of {SPECTATORS}");
            fit
        }
        _ => SPECTATORS,
    };
    let (server, _dir) = start_server(|c| {
        c.reveal_every = 8;
        c.limits.conns_per_addr = 100_000;
        c.limits.guest_signins_per_minute = 100_000;
        c.limits.guest_signin_burst = 100_000;
    })
    .await;
    let f = Featured {
        spectators,
        quic_spectators: 0,
        moves: 3,
        interval: Duration::from_secs(1),
        join_parallel: 100,
        join_limit: Duration::from_secs(120),
        drain_limit: Duration::from_secs(30),
        server_pid: None,
    };
    let r = run(&Target::of(&server), &f, &[]).await;
    eprintln!(
        "{spectators} spectators joined in {:?}; move → last spectator: p50 {:?}, max {:?}; \
         {:.1} B per spectator per move",
        r.join_time,
        Report::pct(&r.to_last, 0.5),
        r.to_last.last(),
        r.delivery_bytes as f64 / r.deliveries.max(1) as f64
    );
    assert!(r.errors.is_empty(), "{:#?}", r.errors);
    assert_eq!(r.to_last.len(), 3, "three moves played");
    assert_eq!(r.deliveries, 3 * spectators as u64);
}
