//! Telling the player that their move has come while the client runs
//! (issues 18 and 21), also at a slow-play table that is not open: the
//! window asks the desktop for attention, its title says so, and, when
//! the player turned them on, a desktop notification says where and a
//! short sound plays.
//!
//! [`YourMoveWatch`] decides *when* (a table where the game newly waits on
//! you); a [`Herald`] does the telling. The real one, [`Desktop`], sends
//! egui's viewport commands and hands the notification to the desktop's
//! notification service on a thread of its own: with no session bus or no
//! notification daemon it fails quietly (a line in the log), never
//! stalling a frame and never panicking. Tests put a [`Recorder`] in its
//! place and read what was asked, and when.

use egui::{Context, UserAttentionType, ViewportCommand};
use muster_shared::protocol::TableId;
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

/// One way of telling the player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Call {
    /// The window asks the desktop for attention (a flashing task bar).
    Attention,
    /// The window's title.
    Title(String),
    /// A desktop notification.
    Desktop { summary: String, body: String },
    /// A short sound (the player's setting, off by default).
    Sound,
}

/// Where the calls go.
pub trait Herald: Send {
    fn call(&mut self, ctx: &Context, call: Call);
}

/// The window and the desktop.
#[derive(Default)]
pub struct Desktop;

impl Herald for Desktop {
    fn call(&mut self, ctx: &Context, call: Call) {
        match call {
            Call::Attention => ctx.send_viewport_cmd(ViewportCommand::RequestUserAttention(
                UserAttentionType::Informational,
            )),
            Call::Title(t) => ctx.send_viewport_cmd(ViewportCommand::Title(t)),
            Call::Sound => {
                let spawned = std::thread::Builder::new()
                    .name("muster-sound".into())
                    .spawn(|| {
                        if let Err(e) = play_sound() {
                            tracing::info!("no sound: {e}");
                        }
                    });
                if let Err(e) = spawned {
                    tracing::info!("no sound: {e}");
                }
            }
            Call::Desktop { summary, body } => {
                // The service may be slow or absent: never on the UI thread.
                let spawned = std::thread::Builder::new()
                    .name("muster-notify".into())
                    .spawn(move || {
                        if let Err(e) = notify_desktop(&summary, &body) {
                            tracing::info!("no desktop notification: {e}");
                        }
                    });
                if let Err(e) = spawned {
                    tracing::info!("no desktop notification: {e}");
                }
            }
        }
    }
}

/// Show one desktop notification now (blocking until the service
/// answered or the connection to it failed).
pub fn notify_desktop(summary: &str, body: &str) -> Result<(), String> {
    notify_rust::Notification::new()
        .appname("Muster")
        .summary(summary)
        .body(body)
        .show()
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// The sound's name in the freedesktop sound theme: the desktop's own
/// "new message" sound.
pub const SOUND_NAME: &str = "message-new-instant";

/// Play the "your move" sound now (blocking until the desktop answered
/// or the connection to it failed).
///
/// The sound is the notification service's: a short, transient
/// notification carrying the freedesktop `sound-name` hint, which the
/// service plays from the desktop's sound theme (GNOME's, KDE's and
/// dunst's daemons do). This reuses notify-rust, already here for the
/// notifications, rather than an audio crate (rodio and cpal bring ALSA's
/// development files into every build, and a device to open): with no
/// session bus, no daemon or no sound device nothing plays and an error
/// is returned, never a panic.
pub fn play_sound() -> Result<(), String> {
    let mut n = notify_rust::Notification::new();
    n.appname("Muster")
        .summary("Muster: your move")
        .sound_name(SOUND_NAME);
    #[cfg(all(unix, not(target_os = "macos")))]
    n.hint(notify_rust::Hint::Transient(true));
    n.show().map(|_| ()).map_err(|e| e.to_string())
}

/// For tests: every call, in order.
#[derive(Clone, Default)]
pub struct Recorder(pub Arc<Mutex<Vec<Call>>>);

impl Recorder {
    pub fn calls(&self) -> Vec<Call> {
        self.0.lock().map(|c| c.clone()).unwrap_or_default()
    }
}

impl Herald for Recorder {
    fn call(&mut self, _ctx: &Context, call: Call) {
        if let Ok(mut c) = self.0.lock() {
            c.push(call);
        }
    }
}

/// A table where the game waits on you, as the notification names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Waiting {
    pub table: TableId,
    /// "Cedar Mountain, 9 August 1862 against Jackson" or the event's words.
    pub words: String,
}

/// Watches where it is your move; tells the player when it newly is.
pub struct YourMoveWatch {
    herald: Box<dyn Herald>,
    /// The player's setting: desktop notifications on.
    pub desktop: bool,
    /// The player's setting: a short sound when the move comes (off by
    /// default).
    pub sound: bool,
    /// Where your move was seen last time.
    waiting: BTreeSet<TableId>,
    /// The title this watch last sent (`None` once a table took it over).
    title: Option<String>,
}

impl YourMoveWatch {
    pub fn new(herald: Box<dyn Herald>, desktop: bool) -> Self {
        YourMoveWatch {
            herald,
            desktop,
            sound: false,
            waiting: BTreeSet::new(),
            title: None,
        }
    }

    /// The tables where it was your move at the last update.
    pub fn waiting(&self) -> &BTreeSet<TableId> {
        &self.waiting
    }

    /// Given every table where the game waits on you now: ask for the
    /// window's attention and notify the desktop for those that were not
    /// waiting before; set the title while no table is on screen.
    ///
    /// `on_screen` is the table open in the window (it sets the title and
    /// asks for attention itself); `focused`, whether the window has the
    /// keyboard (a move at the table in front of the player needs no
    /// notification then).
    pub fn update(
        &mut self,
        ctx: &Context,
        now: &[Waiting],
        on_screen: Option<TableId>,
        focused: bool,
    ) {
        let fresh: Vec<&Waiting> = now
            .iter()
            .filter(|w| !self.waiting.contains(&w.table))
            .collect();
        if fresh.iter().any(|w| Some(w.table) != on_screen) {
            self.herald.call(ctx, Call::Attention);
        }
        let told: Vec<&Waiting> = fresh
            .iter()
            .copied()
            .filter(|w| !(focused && Some(w.table) == on_screen))
            .collect();
        if self.desktop && !told.is_empty() {
            self.herald.call(ctx, notification(&told));
        }
        // The sound for every move that came, the table in front of the
        // player too: one who turned it on may well be looking elsewhere.
        if self.sound && !fresh.is_empty() {
            self.herald.call(ctx, Call::Sound);
        }
        self.waiting = now.iter().map(|w| w.table).collect();
        if on_screen.is_some() {
            // The table's own title; ours is sent again when back.
            self.title = None;
            return;
        }
        let title = match self.waiting.len() {
            0 => "Muster".to_string(),
            1 => "Muster \u{2014} your move".to_string(),
            n => format!("Muster \u{2014} your move at {n} tables"),
        };
        if self.title.as_deref() != Some(title.as_str()) {
            self.herald.call(ctx, Call::Title(title.clone()));
            self.title = Some(title);
        }
    }
}

/// One notification for the tables whose move just came.
fn notification(fresh: &[&Waiting]) -> Call {
    let summary = "Muster: your move".to_string();
    let body = match fresh {
        [one] => format!("Table {}: {}", one.table.0, one.words),
        many => {
            let lines: Vec<String> = many
                .iter()
                .map(|w| format!("Table {}: {}", w.table.0, w.words))
                .collect();
            lines.join("\n")
        }
    };
    Call::Desktop { summary, body }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(n: u64) -> Waiting {
        Waiting {
            table: TableId(n),
            words: format!("game {n}"),
        }
    }

    #[test]
    fn tells_once_per_move_and_not_for_the_table_in_front_of_you() {
        let rec = Recorder::default();
        let mut watch = YourMoveWatch::new(Box::new(rec.clone()), true);
        let ctx = Context::default();
        watch.update(&ctx, &[], None, true);
        assert_eq!(rec.calls(), [Call::Title("Muster".into())]);
        watch.update(&ctx, &[w(3)], None, true);
        watch.update(&ctx, &[w(3)], None, true);
        assert_eq!(
            rec.calls()[1..],
            [
                Call::Attention,
                Call::Desktop {
                    summary: "Muster: your move".into(),
                    body: "Table 3: game 3".into()
                },
                Call::Title("Muster \u{2014} your move".into()),
            ]
        );
        // Table 3 answered; table 5 open and focused: its own banner tells.
        let before = rec.calls().len();
        watch.update(&ctx, &[], Some(TableId(5)), true);
        watch.update(&ctx, &[w(5)], Some(TableId(5)), true);
        assert_eq!(rec.calls().len(), before, "nothing for the table on screen");
        // Not focused: the desktop notification, still no attention (the
        // table asks for it).
        watch.update(&ctx, &[], Some(TableId(5)), false);
        watch.update(&ctx, &[w(5)], Some(TableId(5)), false);
        assert!(matches!(rec.calls()[before..], [Call::Desktop { .. }]));
        // Turned off: attention only.
        watch.desktop = false;
        let before = rec.calls().len();
        watch.update(&ctx, &[w(5), w(8)], Some(TableId(5)), false);
        assert_eq!(rec.calls()[before..], [Call::Attention]);
    }

    #[test]
    fn the_sound_is_off_until_turned_on_and_comes_once_per_move() {
        let rec = Recorder::default();
        let mut watch = YourMoveWatch::new(Box::new(rec.clone()), false);
        let ctx = Context::default();
        watch.update(&ctx, &[w(3)], Some(TableId(3)), true);
        assert!(!rec.calls().contains(&Call::Sound), "off by default");
        watch.sound = true;
        watch.update(&ctx, &[], Some(TableId(3)), true);
        watch.update(&ctx, &[w(3)], Some(TableId(3)), true);
        watch.update(&ctx, &[w(3)], Some(TableId(3)), true);
        let sounds = rec.calls().iter().filter(|c| **c == Call::Sound).count();
        assert_eq!(sounds, 1, "{:?}", rec.calls());
    }

    #[test]
    fn no_sound_device_fails_quietly() {
        // CI has no audio device, no session bus and no daemon: an
        // error or a sound, never a panic or a hang.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(play_sound());
        });
        let answer = rx.recv_timeout(std::time::Duration::from_secs(30));
        assert!(answer.is_ok(), "the sound call neither returned nor failed");
    }

    #[test]
    fn no_notification_service_fails_quietly() {
        // This machine (and CI) may have no session bus and no daemon:
        // an error or a shown notification, never a panic or a hang.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(notify_desktop("Muster test", "ignore me"));
        });
        let answer = rx.recv_timeout(std::time::Duration::from_secs(30));
        assert!(
            answer.is_ok(),
            "the notification call neither returned nor failed"
        );
    }
}
