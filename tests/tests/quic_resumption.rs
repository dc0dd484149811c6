//! Issue 22: a client process's QUIC connections share one endpoint and
//! resume each other's TLS sessions, over real loopback sockets: after
//! the first connection to a server, the next ones are resumed TLS 1.3
//! handshakes, in which the server shows no certificate (so the client's
//! pinning verifier checks none: `quic_full_handshakes` counts those).

use muster_client::Connection;
use muster_client::net::quic_full_handshakes;
use muster_tests::e2e::{Target, start_server};

fn full_handshakes(t: &Target) -> u64 {
    quic_full_handshakes(&t.quic, &t.fingerprint).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn second_quic_connection_resumes_the_first_ones_tls_session() {
    let (server, _dir) = start_server(|_| {}).await;
    let t = Target::of(&server);

    let mut first = Connection::connect(&t.quic, &t.options()).await.unwrap();
    assert_eq!(full_handshakes(&t), 1, "the first is a full handshake");
    let (user, token) = first.sign_in_guest("Jackson").await.unwrap();
    first.close().await;

    // The same process comes back: the ticket the server sent resumes,
    // and the connection works as any other.
    let mut second = Connection::connect(&t.quic, &t.options()).await.unwrap();
    assert_eq!(full_handshakes(&t), 1, "the second resumed");
    assert_eq!(second.resume(&token).await.unwrap(), user);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_reconnects_all_resume() {
    // Twenty at once, then twenty again at once: every reconnect needs a
    // ticket of its own (rustls's own cache keeps eight per server).
    const N: usize = 20;
    let (server, _dir) = start_server(|_| {}).await;
    let t = Target::of(&server);
    let connect_all = || async {
        let tasks: Vec<_> = (0..N)
            .map(|_| {
                let t = t.clone();
                tokio::spawn(async move { Connection::connect(&t.quic, &t.options()).await })
            })
            .collect();
        let mut conns = Vec::new();
        for task in tasks {
            conns.push(task.await.unwrap().unwrap());
        }
        conns
    };
    // Connects that start after another's ticket arrived resume already.
    let first = connect_all().await;
    let full = full_handshakes(&t);
    assert!((1..=N as u64).contains(&full), "{full} full handshakes");
    drop(first);
    let _again = connect_all().await;
    assert_eq!(full_handshakes(&t), full, "every reconnect resumed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_servers_ticket_is_not_offered() {
    // Two servers, two certificates: a ticket from one never goes to the
    // other, whose first connection is a full handshake.
    let (a, _da) = start_server(|_| {}).await;
    let (b, _db) = start_server(|_| {}).await;
    let (ta, tb) = (Target::of(&a), Target::of(&b));
    for _ in 0..2 {
        Connection::connect(&ta.quic, &ta.options())
            .await
            .unwrap()
            .close()
            .await;
    }
    assert_eq!(full_handshakes(&ta), 1);
    Connection::connect(&tb.quic, &tb.options()).await.unwrap();
    assert_eq!(full_handshakes(&tb), 1);
}
