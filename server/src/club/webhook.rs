//! Per-club webhooks (issue 21): a club's owner or director may give the
//! club a web address (`ClubRequest::SetWebhook`) that gets a JSON POST
//! when a round starts, when it is a player's move in slow play, and when
//! a game ends — for a club's chat server, say.
//!
//! Play never waits on a receiver. The hub only queues a delivery
//! ([`Webhooks::send`], never blocking: when the queue of [`QUEUE`] is
//! full the delivery is dropped and counted); a task of its own delivers,
//! at most [`PARALLEL`] at once, each attempt bounded by [`TIMEOUT`], up
//! to [`ATTEMPTS`] attempts with a growing pause between them (a redirect,
//! and a 4xx other than 408 and 429, is not retried: the same address
//! would answer the same). Every failure is logged and counted in the
//! metrics (`muster_webhooks_*`). Each attempt is one blocking POST by
//! `ureq` ([`post`]) on Tokio's blocking pool; the pauses are Tokio's.
//!
//! Each body is one JSON object with `kind` (`round_started`,
//! `your_move`, `game_over`), the club, event and round, the details of
//! its kind, and `text`: the news in words, ready for a chat.

mod post;

use crate::metrics::Metrics;
pub use post::{Poster, Target, parse};
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;
use tokio::sync::{Semaphore, mpsc};

/// Deliveries waiting; more are dropped (and counted).
pub const QUEUE: usize = 256;
/// Deliveries under way at once.
pub const PARALLEL: usize = 4;
/// One attempt's longest time, name look-up to status line.
pub const TIMEOUT: Duration = Duration::from_secs(5);
/// Attempts per delivery.
pub const ATTEMPTS: u32 = 3;
/// The pause after the first failed attempt; doubled after each.
const FIRST_PAUSE: Duration = Duration::from_millis(500);
/// The longest webhook address, in bytes.
pub const MAX_URL: usize = 512;

/// Check a director's webhook address; the text says what is wrong.
pub fn check_url(url: &str) -> Result<String, String> {
    let url = url.trim();
    if url.is_empty() || url.len() > MAX_URL {
        return Err(format!("a webhook's address has 1 to {MAX_URL} bytes"));
    }
    if url.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err("a webhook's address has no spaces or control characters".into());
    }
    parse(url)?;
    Ok(url.to_string())
}

struct Delivery {
    target: Target,
    url: Arc<str>,
    body: Arc<str>,
}

/// The hub's end of the delivery queue.
pub struct Webhooks {
    tx: mpsc::Sender<Delivery>,
    metrics: Arc<Metrics>,
}

impl Webhooks {
    /// Start the delivery task (it ends when this is dropped).
    pub fn start(metrics: Arc<Metrics>) -> Webhooks {
        let (tx, rx) = mpsc::channel(QUEUE);
        tokio::spawn(deliver_all(rx, Poster::new(TIMEOUT), metrics.clone()));
        Webhooks { tx, metrics }
    }

    /// Queue `body` for `url`; never waits.
    pub fn send(&self, url: &str, body: serde_json::Value) {
        let Ok(target) = parse(url) else {
            // Checked when set: only a stored address from elsewhere.
            self.metrics.webhooks_failed.fetch_add(1, Relaxed);
            return;
        };
        let d = Delivery {
            target,
            url: url.into(),
            body: body.to_string().into(),
        };
        if self.tx.try_send(d).is_err() {
            self.metrics.webhooks_dropped.fetch_add(1, Relaxed);
            tracing::warn!("a club webhook was dropped: {QUEUE} deliveries are waiting");
        }
    }
}

async fn deliver_all(mut rx: mpsc::Receiver<Delivery>, poster: Poster, metrics: Arc<Metrics>) {
    let slots = Arc::new(Semaphore::new(PARALLEL));
    while let Some(d) = rx.recv().await {
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return;
        };
        let (poster, metrics) = (poster.clone(), metrics.clone());
        tokio::spawn(async move {
            deliver(d, &poster, &metrics).await;
            drop(slot);
        });
    }
}

async fn deliver(d: Delivery, poster: &Poster, metrics: &Metrics) {
    let mut pause = FIRST_PAUSE;
    let mut why = String::new();
    for attempt in 1..=ATTEMPTS {
        let (p, url, body) = (poster.clone(), d.url.clone(), d.body.clone());
        // The POST blocks (bounded by the poster's timeout): off the
        // runtime's workers, at most PARALLEL at once.
        let answer = tokio::task::spawn_blocking(move || p.post(&url, &body)).await;
        match answer {
            Ok(Ok(code)) if (200..300).contains(&code) => {
                metrics.webhooks_delivered.fetch_add(1, Relaxed);
                return;
            }
            Ok(Ok(code)) if (300..400).contains(&code) => {
                why = format!(
                    "the receiver answered {code}, a redirect, which a webhook does not follow"
                );
                break;
            }
            Ok(Ok(code)) => {
                why = format!("the receiver answered {code}");
                if (400..500).contains(&code) && code != 408 && code != 429 {
                    break;
                }
            }
            Ok(Err(e)) => why = e,
            Err(e) => why = format!("the attempt stopped: {e}"),
        }
        if attempt < ATTEMPTS {
            metrics.webhooks_retried.fetch_add(1, Relaxed);
            tokio::time::sleep(pause).await;
            pause *= 2;
        }
    }
    metrics.webhooks_failed.fetch_add(1, Relaxed);
    tracing::warn!(
        host = %d.target.host,
        port = d.target.port,
        "a club webhook could not be delivered: {why}"
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU32;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    /// A receiver on loopback that answers every request with `status`;
    /// its address and how many requests it has had.
    async fn answering(status: &'static str) -> (String, Arc<AtomicU32>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/hook", listener.local_addr().unwrap());
        let seen = Arc::new(AtomicU32::new(0));
        let count = seen.clone();
        tokio::spawn(async move {
            // Bounded: no delivery makes more than ATTEMPTS requests.
            for _ in 0..ATTEMPTS {
                let Ok((mut s, _)) = listener.accept().await else {
                    return;
                };
                count.fetch_add(1, Relaxed);
                let mut buf = [0u8; 4096];
                let _ = tokio::time::timeout(TIMEOUT, s.read(&mut buf)).await;
                let answer = format!(
                    "HTTP/1.1 {status}\r\nLocation: http://127.0.0.1:9/\r\n\
                     Content-Length: 0\r\nConnection: close\r\n\r\n"
                );
                let _ = s.write_all(answer.as_bytes()).await;
            }
        });
        (url, seen)
    }

    async fn deliver_to(url: &str, metrics: &Metrics) {
        let d = Delivery {
            target: parse(url).unwrap(),
            url: url.into(),
            body: "{}".into(),
        };
        deliver(d, &Poster::new(TIMEOUT), metrics).await;
    }

    #[tokio::test]
    async fn only_a_busy_or_broken_receiver_is_tried_again() {
        // (answer, requests made, delivered, retried, failed)
        for (status, requests, delivered, retried, failed) in [
            ("200 OK", 1, 1, 0, 0),
            ("404 Not Found", 1, 0, 0, 1),
            ("302 Found", 1, 0, 0, 1),
            ("429 Too Many Requests", 3, 0, 2, 1),
            ("503 Service Unavailable", 3, 0, 2, 1),
        ] {
            let (url, seen) = answering(status).await;
            let metrics = Metrics::default();
            deliver_to(&url, &metrics).await;
            let got = (
                seen.load(Relaxed),
                metrics.webhooks_delivered.load(Relaxed),
                metrics.webhooks_retried.load(Relaxed),
                metrics.webhooks_failed.load(Relaxed),
            );
            assert_eq!(got, (requests, delivered, retried, failed), "{status}");
        }
    }
}
