//! The replay scrubber: any point of the match rebuilt from what this
//! client received, shown read-only, for any ruleset.
//!
//! - [`History`]: kept per viewer by the [`Session`]: the snapshot the
//!   viewer started from and every delta folded since (a resync starts a
//!   new segment from its fresh snapshot, so nothing already seen is lost).
//! - [`Replay`]: where the scrubber stands (live, or an entry number) and
//!   the follower rebuilt for that entry.
//! - [`Replay::ui`]: the bar: first / back / slider / forward / last, and
//!   "Live" to return.
//!
//! The rebuilt state is exactly what this viewer saw at that entry: the
//! same snapshot and the same (redacted) deltas, folded by the same
//! [`Follower`] code. Going forward one entry folds one delta onto the
//! cached follower; going back rebuilds from the segment's snapshot, which
//! costs one fold per entry (cheap: an event is a small fact).

use super::narrate::Narrate;
use super::session::Session;
use crate::follow::{FollowError, Follower};
use egui::{Color32, RichText, Ui};
use muster_shared::Viewer;
use muster_shared::engine::Ruleset;
use muster_shared::protocol::{DeltaBody, Snapshot};

/// Most deltas kept for replay across all segments of one viewer. Older
/// segments are dropped first; one segment longer than this stops
/// recording (and says so) rather than growing without bound.
pub const MAX_HISTORY: usize = 200_000;

/// The buttons of the scrubber.
pub const FIRST: &str = "|< First";
pub const BACK: &str = "< Back";
pub const FORWARD: &str = "Forward >";
pub const LAST: &str = "Last >|";
pub const LIVE: &str = "Live";
/// Shown while the map is a replay.
pub const REPLAYING: &str = "REPLAY - read only";
/// What the bar calls one recorded step of the game (an action, or the
/// table's own note such as a new dice chain): "step 12", never the log's
/// "entry" (issue 18).
pub const STEP: &str = "step";

/// One snapshot and the deltas folded after it, in order.
#[derive(Clone, Debug)]
struct Segment {
    snapshot: Snapshot,
    deltas: Vec<(u64, DeltaBody)>,
}

impl Segment {
    fn last_seq(&self) -> u64 {
        self.deltas.last().map_or(self.snapshot.seq, |(s, _)| *s)
    }
}

/// Everything one viewer received, enough to rebuild any entry.
#[derive(Clone, Debug, Default)]
pub struct History {
    segments: Vec<Segment>,
    len: usize,
    /// Set when [`MAX_HISTORY`] stopped the recording.
    pub truncated: bool,
}

impl History {
    /// A snapshot arrived (the join, or a resync): a new segment.
    pub fn start(&mut self, snapshot: Snapshot) {
        self.segments.push(Segment {
            snapshot,
            deltas: Vec::new(),
        });
    }

    /// A delta was folded into the live follower.
    pub fn push(&mut self, seq: u64, body: &DeltaBody) {
        while self.len >= MAX_HISTORY && self.segments.len() > 1 {
            let old = self.segments.remove(0);
            self.len -= old.deltas.len();
        }
        if self.len >= MAX_HISTORY {
            self.truncated = true;
            return;
        }
        if let Some(seg) = self.segments.last_mut() {
            seg.deltas.push((seq, body.clone()));
            self.len += 1;
        }
    }

    /// The earliest entry that can be rebuilt.
    pub fn first_seq(&self) -> Option<u64> {
        self.segments.first().map(|s| s.snapshot.seq)
    }

    /// The latest entry recorded.
    pub fn last_seq(&self) -> Option<u64> {
        self.segments.last().map(Segment::last_seq)
    }

    /// The segment that holds entry `seq`: the latest one starting at or
    /// before it (a resync's segment supersedes what it overlaps).
    fn segment_for(&self, seq: u64) -> Option<usize> {
        self.segments
            .iter()
            .rposition(|s| s.snapshot.seq <= seq && seq <= s.last_seq())
    }

    /// A follower showing the table as it was after entry `seq`.
    pub fn rebuild<R: Ruleset>(&self, seq: u64) -> Result<Follower<R>, ReplayError> {
        let k = self.segment_for(seq).ok_or(ReplayError::NotRecorded(seq))?;
        let seg = &self.segments[k];
        let mut f = Follower::<R>::from_snapshot(&seg.snapshot)?;
        Self::fold(seg, &mut f, seq)?;
        Ok(f)
    }

    /// Fold `seg`'s deltas after `f`'s position up to `seq` into `f`.
    fn fold<R: Ruleset>(seg: &Segment, f: &mut Follower<R>, seq: u64) -> Result<(), ReplayError> {
        for (s, body) in &seg.deltas {
            if *s <= f.seq() {
                continue;
            }
            if *s > seq {
                break;
            }
            f.apply(*s, body)?;
        }
        Ok(())
    }

    /// Move `f` (rebuilt from this history at `from`) forward to `seq`
    /// without starting again, when both lie in one segment.
    fn advance<R: Ruleset>(
        &self,
        f: &mut Follower<R>,
        from: u64,
        seq: u64,
    ) -> Result<bool, ReplayError> {
        let (Some(a), Some(b)) = (self.segment_for(from), self.segment_for(seq)) else {
            return Ok(false);
        };
        if a != b || seq < from {
            return Ok(false);
        }
        Self::fold(&self.segments[a], f, seq)?;
        Ok(true)
    }
}

/// Why an entry cannot be shown.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("entry {0} is not in this client's history")]
    NotRecorded(u64),
    #[error("the recorded log does not fold: {0}")]
    Follow(#[from] FollowError),
}

/// The scrubber's position and the follower rebuilt for it.
pub struct Replay<R: Ruleset> {
    /// `None`: live. `Some(seq)`: showing the table after entry `seq`.
    at: Option<u64>,
    /// The follower rebuilt for (viewer, entry).
    cache: Option<(Viewer, u64, Follower<R>)>,
    error: Option<String>,
}

impl<R: Ruleset> Default for Replay<R> {
    fn default() -> Self {
        Replay {
            at: None,
            cache: None,
            error: None,
        }
    }
}

impl<R: Narrate> Replay<R> {
    /// The entry shown, or `None` when live.
    pub fn at(&self) -> Option<u64> {
        self.at
    }

    pub fn is_live(&self) -> bool {
        self.at.is_none()
    }

    /// Show the table after entry `seq` (clamped to what was recorded).
    pub fn go_to(&mut self, session: &Session<R>, seq: u64) {
        let Some(h) = session.book().map(|b| &b.history) else {
            return;
        };
        let (Some(first), Some(last)) = (h.first_seq(), h.last_seq()) else {
            return;
        };
        self.at = Some(seq.clamp(first, last));
    }

    /// Back to the live table.
    pub fn go_live(&mut self) {
        self.at = None;
        self.cache = None;
        self.error = None;
    }

    /// The follower to show: the replayed one while scrubbing (rebuilt if
    /// the position moved), else the session's live one.
    pub fn view<'a>(&'a mut self, session: &'a Session<R>) -> Option<&'a Follower<R>> {
        let book = session.book()?;
        let Some(seq) = self.at else {
            return Some(&book.follower);
        };
        // A cache for another viewer (the hot-seat switch) is useless.
        if self.cache.as_ref().is_some_and(|(v, ..)| *v != book.viewer) {
            self.cache = None;
        }
        let cached = self.cache.as_ref().map(|(_, s, _)| *s);
        if cached != Some(seq) {
            // Forward within a segment: fold on; otherwise rebuild.
            let mut moved = false;
            if let (Some(from), Some((_, _, f))) = (cached, self.cache.as_mut()) {
                match book.history.advance(f, from, seq) {
                    Ok(true) => moved = true,
                    Ok(false) => {}
                    Err(e) => self.error = Some(e.to_string()),
                }
            }
            if moved {
                if let Some(c) = self.cache.as_mut() {
                    c.1 = seq;
                }
            } else {
                match book.history.rebuild::<R>(seq) {
                    Ok(f) => {
                        self.cache = Some((book.viewer, seq, f));
                        self.error = None;
                    }
                    Err(e) => {
                        self.error = Some(e.to_string());
                        self.cache = None;
                    }
                }
            }
        }
        match &self.cache {
            Some((.., f)) => Some(f),
            // Nothing could be rebuilt: show the live table, and say why.
            None => Some(&book.follower),
        }
    }

    /// While replaying, what happened at the entry shown, in the log's
    /// words ("step 12: 10 Me moved 0306 to 0407"): the table shows it on
    /// its status line, so the bar's height never changes (issue 18). A
    /// player reads "step", not the log's "entry" (issue 18: jargon).
    pub fn note(&self, session: &Session<R>) -> Option<String> {
        let at = self.at?;
        let book = session.book()?;
        let lines: Vec<&str> = book
            .log
            .iter()
            .filter(|l| l.seq == Some(at))
            .map(|l| l.text.as_str())
            .collect();
        Some(if lines.is_empty() {
            format!("{STEP} {at}")
        } else {
            format!("{STEP} {at}: {}", lines.join("; "))
        })
    }

    /// The scrubber bar. Generic: it only needs the session's history and
    /// log lines.
    pub fn ui(&mut self, ui: &mut Ui, session: &Session<R>) {
        let Some(book) = session.book() else {
            return;
        };
        let h = &book.history;
        let (Some(first), Some(last)) = (h.first_seq(), h.last_seq()) else {
            return;
        };
        let live_seq = book.follower.seq();
        let last = last.min(live_seq).max(first);
        ui.horizontal_wrapped(|ui| {
            ui.label("Replay:");
            let at = self.at.unwrap_or(last);
            let mut target = None;
            if ui
                .add_enabled(at > first, egui::Button::new(FIRST))
                .clicked()
            {
                target = Some(first);
            }
            if ui
                .add_enabled(at > first, egui::Button::new(BACK))
                .clicked()
            {
                target = Some(at - 1);
            }
            let mut v = at;
            let slider = egui::Slider::new(&mut v, first..=last).integer().text(STEP);
            if ui.add_enabled(last > first, slider).changed() {
                target = Some(v);
            }
            if ui
                .add_enabled(at < last, egui::Button::new(FORWARD))
                .clicked()
            {
                target = Some(at + 1);
            }
            if ui.add_enabled(at < last, egui::Button::new(LAST)).clicked() {
                target = Some(last);
            }
            if let Some(t) = target {
                self.go_to(session, t);
            }
            if self.at.is_some() {
                if ui.button(LIVE).clicked() {
                    self.go_live();
                } else {
                    ui.label(
                        RichText::new(REPLAYING)
                            .strong()
                            .color(Color32::BLACK)
                            .background_color(Color32::from_rgb(0x9a, 0xc8, 0xff)),
                    );
                }
            } else {
                ui.weak(format!("live: {STEP} {live_seq}"));
            }
            if h.truncated {
                ui.weak(format!("(only the last {MAX_HISTORY} steps are kept)"));
            }
            if let Some(e) = &self.error {
                ui.label(RichText::new(e).color(Color32::RED));
            }
        });
    }
}
