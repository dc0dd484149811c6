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
//! [`COMPANIONS`] more requests, fewer than that are queued already, and
//! the first request did not keep it idle longer than the window;
//! otherwise it commits at once. A group's size then grows with load by
//! itself: requests that arrive while a commit is being written make up
//! the next group either way.

use std::time::{Duration, Instant};

/// Requests the window must be expected to gather, beyond the first, for
/// waiting to be worth the latency it adds to all of them. Also: when this
/// many are queued already, a group commits without waiting.
pub const COMPANIONS: usize = 2;

/// Arrivals are counted over intervals of this length: long enough to hold
/// many requests under load, short enough to notice load coming and going.
pub const INTERVAL: Duration = Duration::from_millis(200);

/// How a storage thread gathers its groups: the configured window, and
/// whether to wait it only under load (the server) or always (tests that
/// need several requests in one group).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommitWindow {
    /// The longest wait (`commit_window_ms`).
    pub max: Duration,
    /// Wait the whole window after every first request, whatever the load.
    pub always: bool,
}

impl CommitWindow {
    /// Wait `max` after every group's first request.
    pub fn always(max: Duration) -> CommitWindow {
        CommitWindow { max, always: true }
    }
}

/// A window in time is the server's: used only under load.
impl From<Duration> for CommitWindow {
    fn from(max: Duration) -> CommitWindow {
        CommitWindow { max, always: false }
    }
}

/// The storage thread's view of the arrival rate, and its decision.
#[derive(Debug)]
pub struct GroupWindow {
    window: CommitWindow,
    /// Start of the interval now being counted.
    since: Instant,
    /// Requests taken since `since`.
    arrivals: u64,
    /// Requests per second over the last finished interval.
    rate: f64,
}

impl GroupWindow {
    pub fn new(window: impl Into<CommitWindow>, now: Instant) -> GroupWindow {
        GroupWindow {
            window: window.into(),
            since: now,
            arrivals: 0,
            rate: 0.0,
        }
    }

    /// How long to wait for company, a group's first request in hand at
    /// `now`, after the storage thread waited `idle` for it with nothing
    /// queued. At a rate where waiting pays, requests come less than half
    /// a window apart, so an idle wait longer than the window means the
    /// load has gone: the group commits at once, before the rate (counted
    /// over the interval) shows it.
    pub fn wait(&mut self, now: Instant, idle: Duration) -> Duration {
        let elapsed = now.saturating_duration_since(self.since);
        if elapsed >= INTERVAL {
            self.rate = self.arrivals as f64 / elapsed.as_secs_f64();
            self.since = now;
            self.arrivals = 0;
        }
        let max = self.window.max;
        if self.window.always {
            return max;
        }
        let expected = self.rate * max.as_secs_f64();
        if max.is_zero() || idle > max || expected < COMPANIONS as f64 {
            Duration::ZERO
        } else {
            max
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
            last = w.wait(now, Duration::ZERO);
            w.taken(1);
        }
        (now, last)
    }

    #[test]
    fn a_quiet_server_commits_at_once() {
        let start = Instant::now();
        let mut w = GroupWindow::new(WINDOW, start);
        assert_eq!(w.wait(start, Duration::ZERO), Duration::ZERO);
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
        assert_eq!(
            w.wait(now + Duration::from_secs(5), Duration::from_secs(5)),
            Duration::ZERO
        );
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
            w.wait(now, Duration::ZERO);
            w.taken(8);
        }
        assert!((w.rate() - 2000.0).abs() < 100.0, "rate {}", w.rate());
        assert_eq!(w.wait(now, Duration::ZERO), WINDOW);
    }

    /// Load that stops inside an interval: the rate still says 2,000/s,
    /// but the thread waited 300 ms for this request, so it does not wait.
    #[test]
    fn a_long_idle_wait_inside_an_interval_commits_at_once() {
        let start = Instant::now();
        let mut w = GroupWindow::new(WINDOW, start);
        let (now, last) = steady(&mut w, start, 2000, 1);
        assert_eq!(last, WINDOW);
        let later = now + Duration::from_millis(150);
        assert!(w.rate() > 1000.0);
        assert_eq!(w.wait(later, Duration::from_millis(150)), Duration::ZERO);
        // A short gap at that rate still waits.
        assert_eq!(w.wait(later, Duration::from_micros(400)), WINDOW);
    }

    #[test]
    fn an_always_window_waits_even_when_quiet() {
        let start = Instant::now();
        let mut w = GroupWindow::new(CommitWindow::always(WINDOW), start);
        assert_eq!(w.wait(start, Duration::from_secs(9)), WINDOW);
    }
}
