//! Issue 21: a club's webhook and slow play's vacation days, over a real
//! server on loopback.
//!
//! - The webhook: refused in words to a member who is not a director and
//!   for an address that is not http or https; set by the owner; a real
//!   HTTP receiver on loopback (a Tokio listener reading each POST) gets
//!   the news that a round started, that it is a player's move (a Cedar
//!   Mountain table in slow play) and that a game ended. Then the
//!   receiver goes down: the next round starts and ends all the same,
//!   and the failed deliveries are counted in the metrics.
//! - Vacation days: set by the director only; taken by the player on
//!   move, whose decision's deadline moves by the days; past the
//!   allowance refused in words; all of it still so after a restart.

use muster_shared::codec;
use muster_shared::gbacw::ruleset::GbacwConfig;
use muster_shared::protocol::club::{
    AtZero, ClubError, ClubId, ClubReply, ClubRequest, EventId, EventSettings, PairingMethod,
    PointsTable, SideAssignment, TimeControl, YourGame,
};
use muster_shared::protocol::{ClientMsg, ServerMsg, TableId};
use muster_tests::e2e::{Client, Target, metric, start_server_in};
use serde_json::Value;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio::sync::mpsc;

const WAIT: Duration = Duration::from_secs(30);

fn is_news(r: &ClubReply) -> bool {
    matches!(
        r,
        ClubReply::YourTable { .. } | ClubReply::Bye { .. } | ClubReply::Result { .. }
    )
}

/// Send a club request; its answer (news arriving meanwhile is skipped).
async fn ask(c: &mut Client, req: ClubRequest) -> ClubReply {
    c.send(ClientMsg::Club(req)).await;
    match c
        .until(WAIT, |m| matches!(m, ServerMsg::Club(r) if !is_news(r)))
        .await
    {
        ServerMsg::Club(r) => r,
        _ => unreachable!(),
    }
}

/// Resign the caller's game of `round`; wait for its result.
async fn resign(p: &mut Client, event: EventId, round: u8) {
    p.send(ClientMsg::Club(ClubRequest::Resign { event })).await;
    let m = p
        .until(WAIT, |m| {
            matches!(m, ServerMsg::Club(ClubReply::Result { round: r, .. }) if *r == round)
                || matches!(m, ServerMsg::Club(ClubReply::Refused { .. }))
        })
        .await;
    assert!(
        matches!(m, ServerMsg::Club(ClubReply::Result { .. })),
        "{m:?}"
    );
}

fn refused(r: ClubReply) -> (ClubError, String) {
    match r {
        ClubReply::Refused { error, message } => (error, message),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// Words a player may see: no snake_case, no braces of a debug print.
fn in_words(s: &str) {
    assert!(
        !s.contains('_') && !s.contains('{') && !s.is_empty(),
        "not words: {s}"
    );
}

/// A receiver of webhooks on loopback: each POST's path and JSON body
/// into a channel, answered 200. Aborting the task closes it.
async fn receiver() -> (
    String,
    mpsc::UnboundedReceiver<Value>,
    tokio::task::JoinHandle<()>,
) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/club-news", listener.local_addr().unwrap());
    let (tx, rx) = mpsc::unbounded_channel();
    let task = tokio::spawn(async move {
        loop {
            let Ok((mut s, _)) = listener.accept().await else {
                return;
            };
            let tx = tx.clone();
            tokio::spawn(async move {
                let mut buf = Vec::new();
                let mut chunk = [0u8; 4096];
                // The head, then Content-Length bytes of body (bounded).
                let body = loop {
                    let n = match tokio::time::timeout(WAIT, s.read(&mut chunk)).await {
                        Ok(Ok(n)) if n > 0 => n,
                        _ => return,
                    };
                    buf.extend_from_slice(&chunk[..n]);
                    assert!(buf.len() < 1 << 20, "a webhook is small");
                    let text = String::from_utf8_lossy(&buf).to_string();
                    let Some(end) = text.find("\r\n\r\n") else {
                        continue;
                    };
                    // Header names are case-blind (ureq sends them in lower case).
                    let head = text[..end].to_ascii_lowercase();
                    assert!(head.starts_with("post /club-news http/1.1\r\n"), "{head}");
                    assert!(head.contains("content-type: application/json"), "{head}");
                    let len: usize = head
                        .lines()
                        .find_map(|l| l.strip_prefix("content-length: "))
                        .expect("a length")
                        .parse()
                        .unwrap();
                    if buf.len() >= end + 4 + len {
                        break buf[end + 4..end + 4 + len].to_vec();
                    }
                };
                let _ = s
                    .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                    .await;
                let _ = tx.send(serde_json::from_slice(&body).expect("JSON"));
            });
        }
    });
    (url, rx, task)
}

/// The webhooks a receiver has had, by kind.
struct Hooks {
    rx: mpsc::UnboundedReceiver<Value>,
    /// Come before they were asked for: deliveries run in parallel, so
    /// a round's `your_move` may overtake its `round_started`.
    early: Vec<Value>,
}

impl Hooks {
    /// The first webhook of `kind` not taken yet, in whatever order they
    /// came.
    async fn of(&mut self, kind: &str) -> Value {
        if let Some(i) = self.early.iter().position(|v| v["kind"] == kind) {
            return self.early.remove(i);
        }
        let end = Instant::now() + WAIT;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            let v = tokio::time::timeout(left, self.rx.recv())
                .await
                .unwrap_or_else(|_| panic!("no {kind} webhook came"))
                .expect("the receiver runs");
            if v["kind"] == kind {
                return v;
            }
            assert!(self.early.len() < 100, "webhooks nobody asked for");
            self.early.push(v);
        }
    }
}

async fn director(t: &Target) -> (Client, ClubId) {
    let mut d = Client::connect(t, false, "Dora").await;
    let r = ask(
        &mut d,
        ClubRequest::ClaimAccount {
            password: "tournament director".into(),
        },
    )
    .await;
    assert!(matches!(r, ClubReply::AccountClaimed { .. }), "{r:?}");
    let ClubReply::ClubCreated { club, .. } = ask(
        &mut d,
        ClubRequest::CreateClub {
            name: "Culpeper Wargamers".into(),
        },
    )
    .await
    else {
        panic!("no club")
    };
    (d, club)
}

/// Cedar Mountain in slow play: a day per decision.
fn slow_cedar(rounds: u8) -> EventSettings {
    let config = GbacwConfig {
        battle: "cedar_mountain".into(),
        ..GbacwConfig::default()
    };
    EventSettings {
        name: "Cedar by mail".into(),
        ruleset: "gbacw".into(),
        scenario: "Cedar Mountain".into(),
        config: codec::encode_infallible(&config),
        rounds,
        pairing: PairingMethod::Swiss,
        sides: SideAssignment::Random,
        invite_only: false,
        check_in: false,
        time: Some(TimeControl {
            bank_secs: 30 * 86_400,
            increment_secs: 0,
            per_decision_secs: 86_400,
            at_zero: AtZero::Loss,
        }),
        points: PointsTable::default(),
        seed: 21,
        round_scenarios: Vec::new(),
    }
}

async fn create(d: &mut Client, club: ClubId, s: EventSettings) -> EventId {
    match ask(d, ClubRequest::CreateEvent { club, settings: s }).await {
        ClubReply::EventCreated { event, .. } => event,
        other => panic!("{other:?}"),
    }
}

async fn players(t: &Target, event: EventId) -> Vec<Client> {
    let mut ps = Vec::new();
    for n in ["Banks", "Jackson"] {
        let mut p = Client::connect(t, false, n).await;
        let r = ask(
            &mut p,
            ClubRequest::Register {
                event,
                invite: None,
            },
        )
        .await;
        assert!(matches!(r, ClubReply::Registered { .. }), "{r:?}");
        ps.push(p);
    }
    ps
}

async fn start(d: &mut Client, event: EventId) -> TableId {
    match ask(d, ClubRequest::StartRound { event }).await {
        ClubReply::Round { pairings, .. } => pairings[0].table.expect("a table"),
        other => panic!("{other:?}"),
    }
}

async fn your_game(p: &mut Client) -> YourGame {
    match ask(p, ClubRequest::YourGames).await {
        ClubReply::YourGames { mut games } => games.pop().expect("a game"),
        other => panic!("{other:?}"),
    }
}

/// The player on move at the event's only table, once its room has said.
async fn on_move(ps: &mut [Client]) -> usize {
    for _ in 0..100 {
        for (i, p) in ps.iter_mut().enumerate() {
            if your_game(p).await.your_move {
                return i;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("nobody is on move");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clubs_webhook_hears_rounds_moves_and_results_and_a_dead_one_stops_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server_in(dir.path(), |_| {}).await;
    let t = Target::of(&server);
    let (mut d, club) = director(&t).await;
    let (url, rx, task) = receiver().await;
    let mut hooks = Hooks {
        rx,
        early: Vec::new(),
    };

    // A member who is not a director is refused, in words.
    let mut m = Client::connect(&t, false, "Member").await;
    ask(&mut m, ClubRequest::JoinClub { club }).await;
    let (e, words) = refused(
        ask(
            &mut m,
            ClubRequest::SetWebhook {
                club,
                url: Some(url.clone()),
            },
        )
        .await,
    );
    assert_eq!(e, ClubError::NotDirector);
    assert_eq!(
        words,
        "only the club's owner or a director sets its webhook"
    );
    // Only http and https, and not too long.
    for bad in [
        "ftp://127.0.0.1/x".to_string(),
        "not an address".into(),
        format!("http://127.0.0.1/{}", "x".repeat(600)),
    ] {
        let (e, words) = refused(
            ask(
                &mut d,
                ClubRequest::SetWebhook {
                    club,
                    url: Some(bad),
                },
            )
            .await,
        );
        assert_eq!(e, ClubError::BadRequest);
        in_words(&words);
    }
    let r = ask(
        &mut d,
        ClubRequest::SetWebhook {
            club,
            url: Some(url.clone()),
        },
    )
    .await;
    assert_eq!(
        r,
        ClubReply::Webhook {
            club,
            url: Some(url.clone())
        }
    );

    let event = create(&mut d, club, slow_cedar(2)).await;
    let mut ps = players(&t, event).await;
    let table = start(&mut d, event).await;
    let v = hooks.of("round_started").await;
    assert_eq!(v["event"], event.0);
    assert_eq!(v["club"], club.0);
    assert_eq!(v["round"], 1);
    assert_eq!(v["tables"][0]["table"], table.0);
    let mut names: Vec<String> = v["tables"][0]["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .collect();
    names.sort();
    assert_eq!(names, ["Banks", "Jackson"]);
    assert_eq!(v["text"], "Round 1 of Cedar by mail has started: 1 table.");

    // Slow play: the side on move is named, with its deadline.
    let v = hooks.of("your_move").await;
    let i = on_move(&mut ps).await;
    assert_eq!(v["player"], ps[i].name.as_str());
    assert_eq!(v["table"], table.0);
    let deadline = v["deadline"].as_u64().unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    assert!(
        deadline > now + 86_000 && deadline <= now + 86_400,
        "{deadline}"
    );
    let text = v["text"].as_str().unwrap();
    assert!(
        text.starts_with(&format!("{}: your move at table {}", ps[i].name, table.0)),
        "{text}"
    );

    // A resignation ends the game.
    resign(&mut ps[1 - i], event, 1).await;
    let v = hooks.of("game_over").await;
    assert_eq!(v["table"], table.0);
    assert_eq!(v["how"], format!("{} resigned", ps[1 - i].name));
    let seat_of_winner = v["players"]
        .as_array()
        .unwrap()
        .iter()
        .position(|n| n == ps[i].name.as_str())
        .unwrap();
    assert_eq!(v["points"][seat_of_winner], 2);
    assert_eq!(v["points"][1 - seat_of_winner], 0);
    assert_eq!(
        metric(&server, "muster_webhooks_failed_total").await,
        Some(0.0)
    );
    // Counted when the server has read the answer, a moment after the
    // receiver has the body.
    let end = Instant::now() + WAIT;
    while metric(&server, "muster_webhooks_delivered_total").await < Some(3.0) {
        assert!(Instant::now() < end, "the deliveries were never counted");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // The receiver goes down: the next round starts and ends all the same.
    task.abort();
    let _ = task.await;
    drop(hooks);
    let started = Instant::now();
    let table2 = start(&mut d, event).await;
    assert_ne!(table2, table);
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "the round did not wait for the webhook"
    );
    resign(&mut ps[0], event, 2).await;
    match ask(&mut d, ClubRequest::Round { event, round: 2 }).await {
        ClubReply::Round { pairings, .. } => assert!(pairings[0].result.is_some()),
        other => panic!("{other:?}"),
    }
    // Each delivery is given up after its attempts (0.5 s, then 1 s apart).
    let end = Instant::now() + WAIT;
    while metric(&server, "muster_webhooks_failed_total").await < Some(2.0) {
        assert!(Instant::now() < end, "the failures were never counted");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(metric(&server, "muster_webhooks_retried_total").await >= Some(4.0));
    // The address survives a restart.
    server.shutdown().await;
    let server = start_server_in(dir.path(), |_| {}).await;
    let t = Target::of(&server);
    let mut d = Client::reconnect(&t, false, "Dora", &d.token)
        .await
        .unwrap();
    let r = ask(&mut d, ClubRequest::SetWebhook { club, url: None }).await;
    assert_eq!(r, ClubReply::Webhook { club, url: None });
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vacation_days_hold_a_slow_players_deadline_within_the_allowance_across_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server_in(dir.path(), |_| {}).await;
    let t = Target::of(&server);
    let (mut d, club) = director(&t).await;
    let event = create(&mut d, club, slow_cedar(1)).await;
    let mut ps = players(&t, event).await;
    // A player does not set the allowance; the director does.
    let (e, words) =
        refused(ask(&mut ps[0], ClubRequest::SetVacationDays { event, days: 3 }).await);
    assert_eq!(e, ClubError::NotDirector);
    in_words(&words);
    let r = ask(&mut d, ClubRequest::SetVacationDays { event, days: 3 }).await;
    assert_eq!(
        r,
        ClubReply::Notice {
            event,
            words: "each player of the event has 3 vacation days".into()
        }
    );
    start(&mut d, event).await;
    let i = on_move(&mut ps).await;
    let before = your_game(&mut ps[i]).await.decision_ms.unwrap();
    assert!(before <= 86_400_000);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let r = ask(&mut ps[i], ClubRequest::TakeVacation { event, days: 2 }).await;
    let ClubReply::Vacation {
        days_left, until, ..
    } = r
    else {
        panic!("{r:?}")
    };
    assert_eq!(days_left, 1);
    let until = until.unwrap();
    assert!(until >= now + 2 * 86_400 && until <= now + 2 * 86_400 + 60);
    // The decision's deadline moved by the two days.
    let held = your_game(&mut ps[i]).await.decision_ms.unwrap();
    assert!(
        held > before + 2 * 86_400_000 - 60_000,
        "{held} vs {before}"
    );
    // Past the allowance: refused in words.
    let (e, words) = refused(ask(&mut ps[i], ClubRequest::TakeVacation { event, days: 2 }).await);
    assert_eq!(e, ClubError::BadRequest);
    assert_eq!(words, "you have 1 vacation day left in this event, not 2");
    // The opponent's own days are untouched.
    let r = ask(&mut ps[1 - i], ClubRequest::TakeVacation { event, days: 0 }).await;
    assert!(
        matches!(
            r,
            ClubReply::Vacation {
                days_left: 3,
                until: None,
                ..
            }
        ),
        "{r:?}"
    );

    // After a restart: the vacation, the allowance and the held deadline.
    server.shutdown().await;
    let server = start_server_in(dir.path(), |_| {}).await;
    let t = Target::of(&server);
    let mut back = Vec::new();
    for p in &ps {
        back.push(
            Client::reconnect(&t, false, &p.name, &p.token)
                .await
                .unwrap(),
        );
    }
    let r = ask(&mut back[i], ClubRequest::TakeVacation { event, days: 0 }).await;
    assert_eq!(
        r,
        ClubReply::Vacation {
            event,
            days_left: 1,
            until: Some(until)
        }
    );
    let after = your_game(&mut back[i]).await.decision_ms.unwrap();
    assert!(after > before + 2 * 86_400_000 - 60_000, "{after}");
    let (_, words) = refused(ask(&mut back[i], ClubRequest::TakeVacation { event, days: 2 }).await);
    assert_eq!(words, "you have 1 vacation day left in this event, not 2");
    server.shutdown().await;
}
