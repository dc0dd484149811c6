//! Per-club webhooks (issue 21): a club's owner or director may give the
//! club a web address (`ClubRequest::SetWebhook`) that gets a JSON POST
//! when a round starts, when it is a player's move in slow play, and when
//! a game ends — for a club's chat server, say.
//!
//! Play never waits on a receiver. The hub only queues a delivery
//! ([`Webhooks::send`], never blocking: when the queue of [`QUEUE`] is
//! full the delivery is dropped and counted); a task of its own delivers,
//! at most [`PARALLEL`] at once, each attempt bounded by [`TIMEOUT`], up
//! to [`ATTEMPTS`] attempts with a growing pause between them (an answer
//! of 4xx other than 408 and 429 is not retried). Every failure is logged
//! and counted in the metrics (`muster_webhooks_*`).
//!
//! Each body is one JSON object with `kind` (`round_started`,
//! `your_move`, `game_over`), the club, event and round, the details of
//! its kind, and `text`: the news in words, ready for a chat.

mod post;

use crate::metrics::Metrics;
pub use post::{Target, parse};
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;
use tokio::sync::{Semaphore, mpsc};

/// Deliveries waiting; more are dropped (and counted).
pub const QUEUE: usize = 256;
/// Deliveries under way at once.
pub const PARALLEL: usize = 4;
/// One attempt's longest time, connection to status line.
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
    body: String,
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
        tokio::spawn(deliver_all(rx, metrics.clone()));
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
            body: body.to_string(),
        };
        if self.tx.try_send(d).is_err() {
            self.metrics.webhooks_dropped.fetch_add(1, Relaxed);
            tracing::warn!("a club webhook was dropped: {QUEUE} deliveries are waiting");
        }
    }
}

async fn deliver_all(mut rx: mpsc::Receiver<Delivery>, metrics: Arc<Metrics>) {
    let slots = Arc::new(Semaphore::new(PARALLEL));
    while let Some(d) = rx.recv().await {
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return;
        };
        let metrics = metrics.clone();
        tokio::spawn(async move {
            deliver(d, &metrics).await;
            drop(slot);
        });
    }
}

async fn deliver(d: Delivery, metrics: &Metrics) {
    let mut pause = FIRST_PAUSE;
    let mut why = String::new();
    for attempt in 1..=ATTEMPTS {
        match tokio::time::timeout(TIMEOUT, post::post(&d.target, &d.body)).await {
            Ok(Ok(code)) if (200..300).contains(&code) => {
                metrics.webhooks_delivered.fetch_add(1, Relaxed);
                return;
            }
            Ok(Ok(code)) => {
                why = format!("the receiver answered {code}");
                if (400..500).contains(&code) && code != 408 && code != 429 {
                    break;
                }
            }
            Ok(Err(e)) => why = e.to_string(),
            Err(_) => why = format!("no answer within {} s", TIMEOUT.as_secs()),
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
