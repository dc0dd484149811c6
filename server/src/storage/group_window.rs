//! When a commit group waits for company (issue 22).
//!
//! Group commit shares one transaction and one `fsync` among every request
//! in the group. Waiting after the first request lets more rooms' entries
//! join it (fewer commits, less CPU per action under load), but every
//! request in the group waits too: at the benchmark's 300 actions/s a fixed
//! 2 ms wait was most of an action's latency (p50 2.7 ms against 0.6 ms
//! without it, docs/server.md "Load") and saved no CPU, because at that
//! rate the wait gathered hardly anyone. At 2,000 actions/s the same wait
//! gathers about four requests per commit and saves a quarter of the
//! server's CPU per action.
//!
//! So the storage thread measures how fast requests arrive and waits only
//! when the configured window is expected to bring at least
//! [`COMPANIONS`] more requests; otherwise it commits at once. A group's
//! size then grows with load by itself: requests that arrive while a commit
//! is being written make up the next group either way.

use std::time::{Duration, Instant};

/// Requests the window must be expected to gather, beyond the first, for
/// waiting to be worth the latency it adds to all of them.
pub const COMPANIONS: f64 = 2.0;

/// Arrivals are counted over intervals of this length: long enough to hold
/// many requests under load, short enough to notice load coming and going.
pub const INTERVAL: Duration = Duration::from_millis(200);

/// The storage thread's view of the arrival rate, and its decision.
#[derive(Debug)]
pub struct GroupWindow {
    /// The configured window (`commit_window_ms`): the longest wait.
    max: Duration,
    /// Start of the interval now being counted.
    since: Instant,
    /// Requests taken since `since`.
    arrivals: u64,
    /// Requests per second over the last finished interval.
    rate: f64,
}

impl GroupWindow {
    pub fn new(max: Duration, now: Instant) -> GroupWindow {
        GroupWindow {
            max,
            since: now,
            arrivals: 0,
            rate: 0.0,
        }
    }

    /// How long to wait for company, a group's first request in hand at
    /// `now`. After an idle spell the interval that ends now holds few
    /// arrivals over a long time, so the first request after it never waits.
    pub fn wait(&mut self, now: Instant) -> Duration {
        let elapsed = now.saturating_duration_since(self.since);
        if elapsed >= INTERVAL {
            self.rate = self.arrivals as f64 / elapsed.as_secs_f64();
            self.since = now;
            self.arrivals = 0;
        }
        if self.max.is_zero() || self.rate * self.max.as_secs_f64() < COMPANIONS {
            Duration::ZERO
        } else {
            self.max
        }
    }

    /// A group of `requests` was taken (the first one included).
    pub fn taken(&mut self, requests: usize) {
        self.arrivals = self.arrivals.saturating_add(requests as u64);
    }

    /// Requests per second over the last finished interval.
    pub fn rate(&self) -> f64 {
        self.rate
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WINDOW: Duration = Duration::from_millis(2);

    /// Feed `per_sec` requests a second for `secs`, one group each, as a
    /// storage thread that never waits would see them; the last decision.
    fn steady(w: &mut GroupWindow, start: Instant, per_sec: u64, secs: u64) -> (Instant, Duration) {
        let step = Duration::from_secs(1) / per_sec as u32;
        let mut now = start;
        let mut last = Duration::ZERO;
        for _ in 0..per_sec * secs {
            now += step;
            last = w.wait(now);
            w.taken(1);
        }
        (now, last)
    }

    #[test]
    fn a_quiet_server_commits_at_once() {
        let start = Instant::now();
        let mut w = GroupWindow::new(WINDOW, start);
        assert_eq!(w.wait(start), Duration::ZERO);
        let (_, last) = steady(&mut w, start, 300, 2);
        assert_eq!(last, Duration::ZERO, "300/s × 2 ms is 0.6 companions");
        assert!((w.rate() - 300.0).abs() < 10.0, "rate {}", w.rate());
    }

    #[test]
    fn a_busy_server_waits_the_window() {
        let start = Instant::now();
        let mut w = GroupWindow::new(WINDOW, start);
        let (_, last) = steady(&mut w, start, 2000, 1);
        assert_eq!(last, WINDOW, "2,000/s × 2 ms is 4 companions");
    }

    #[test]
    fn after_an_idle_spell_the_first_request_does_not_wait() {
        let start = Instant::now();
        let mut w = GroupWindow::new(WINDOW, start);
        let (now, last) = steady(&mut w, start, 2000, 1);
        assert_eq!(last, WINDOW);
        assert_eq!(w.wait(now + Duration::from_secs(5)), Duration::ZERO);
    }

    #[test]
    fn a_window_of_zero_never_waits() {
        let start = Instant::now();
        let mut w = GroupWindow::new(Duration::ZERO, start);
        let (_, last) = steady(&mut w, start, 5000, 1);
        assert_eq!(last, Duration::ZERO);
    }

    #[test]
    fn groups_count_every_request_they_hold() {
        // 250 groups of 8 in a second is 2,000 requests a second.
        let start = Instant::now();
        let mut w = GroupWindow::new(WINDOW, start);
        let mut now = start;
        for _ in 0..250 {
            now += Duration::from_millis(4);
            w.wait(now);
            w.taken(8);
        }
        assert!((w.rate() - 2000.0).abs() < 100.0, "rate {}", w.rate());
        assert_eq!(w.wait(now), WINDOW);
    }
}
