//! Club events in the client (issue 21): an event's page, for anyone
//! watching it and, with more controls, for its directors.
//!
//! - [`link`]: [`EventLink`], the page's connection (status cards and
//!   "your games" brought up to date every second, requests sent).
//! - [`grid`]: the tables of the round as status cards, a featured
//!   table, and "your games" (slow play: where it is your move, how long).
//! - [`standings`]: the standings with their tiebreak columns.
//! - [`director`]: the director's desk, shown only to the event's
//!   directors: every table with its status, Game-Turn and phase, clocks
//!   and last activity; pause a table or the round, add time, replace a
//!   player, adjudicate; pair the next round, re-pair it, start it; the log.
//! - [`entry`]: registering (with an invite code) and checking in; the
//!   invite code for the event's directors to hand out.
//! - [`words`]: clocks, ages, results and statuses in words.
//!
//! [`EventApp`] is one screen with three tabs over one connection, drawn
//! into an [`egui::Ui`] so the binary and the kittests run the same code.

pub mod director;
pub mod entry;
pub mod grid;
pub mod link;
pub mod standings;
pub mod words;

pub use link::{EventLink, EventNews};

use crate::app::net_table::SignIn;
use crate::net::{ConnectOptions, NetError};
use egui::{Color32, RichText, Ui};
use muster_shared::protocol::TableId;
use muster_shared::protocol::UserId;
use muster_shared::protocol::club::{ClubReply, ClubRequest, EventId, EventView, YourGame};
use std::time::{Duration, Instant};

/// The page's tabs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Tables,
    Standings,
    Director,
}

/// An event's page.
pub struct EventApp {
    link: EventLink,
    pub event: EventId,
    /// Who we are, once signed in.
    pub me: Option<(UserId, String)>,
    /// The session token (to open a table as the same identity).
    pub token: Option<String>,
    /// The event as last seen.
    pub view: Option<EventView>,
    /// When `view` arrived (its clocks count down from there).
    seen_at: Option<Instant>,
    pub your_games: Vec<YourGame>,
    /// When `your_games` arrived (their clocks count down from there).
    games_at: Option<Instant>,
    /// Opened from the lobby: "your games" get a button to open the
    /// table, which the lobby takes from [`EventApp::open_table`].
    pub opens_tables: bool,
    /// The table of yours clicked to be opened, for the lobby.
    pub open_table: Option<TableId>,
    pub tab: Tab,
    /// The table shown large beside the grid.
    pub featured: Option<TableId>,
    pub desk: director::Desk,
    /// The directors' log (directors only).
    pub log: Vec<String>,
    log_asked: Option<Instant>,
    /// The last word from the server: an action done, news.
    pub notice: Option<String>,
    /// The last refusal, in the server's words.
    pub problem: Option<String>,
    pub connection: Option<String>,
    /// Opened by itself (`muster --event N`): tells the player when their
    /// move comes in one of their games. From the lobby, the lobby does.
    pub watch: Option<crate::app::your_move::YourMoveWatch>,
    /// Slow play: the caller's vacation days in this event, once asked
    /// (players of an event with a time control only).
    pub vacation: Option<Vacation>,
    vacation_asked: bool,
    /// A bid event: the side (0 or 1) and the victory points the player
    /// is about to bid for the next round.
    pub bid: (u8, u32),
    /// The invite code typed to register for an invite-only event.
    pub invite: String,
    waker_set: bool,
}

/// The caller's vacation in an event, as the server last told it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vacation {
    /// Whole days still to take.
    pub days_left: u8,
    /// When the vacation under way ends (Unix seconds), if one is.
    pub until: Option<u64>,
}

impl EventApp {
    /// Connect to `url` and open `event`'s page.
    pub fn connect(
        url: &str,
        options: ConnectOptions,
        sign_in: SignIn,
        event: EventId,
    ) -> Result<Self, NetError> {
        Self::connect_every(url, options, sign_in, event, link::REFRESH)
    }

    /// As [`EventApp::connect`], brought up to date every `every`.
    pub fn connect_every(
        url: &str,
        options: ConnectOptions,
        sign_in: SignIn,
        event: EventId,
        every: Duration,
    ) -> Result<Self, NetError> {
        Ok(EventApp {
            link: EventLink::connect(url, options, sign_in, event, every)?,
            event,
            me: None,
            token: None,
            view: None,
            seen_at: None,
            your_games: Vec::new(),
            games_at: None,
            opens_tables: false,
            open_table: None,
            tab: Tab::Tables,
            featured: None,
            desk: director::Desk::default(),
            log: Vec::new(),
            log_asked: None,
            notice: None,
            problem: None,
            connection: Some("connecting…".into()),
            watch: None,
            vacation: None,
            vacation_asked: false,
            bid: (0, 0),
            invite: String::new(),
            waker_set: false,
        })
    }

    /// `muster --connect URL --event N [--name NAME]`: the identity of
    /// that name the lobby keeps for the server (the one used last without
    /// a name), or a new guest.
    pub fn open(
        url: &str,
        store: &crate::app::lobby::Store,
        name: Option<&str>,
        options: ConnectOptions,
        event: EventId,
    ) -> Result<Self, NetError> {
        let sign_in = match store.session(url, name) {
            Some(saved) => SignIn::Resume(saved.token),
            None => SignIn::Guest(name.unwrap_or("Guest").to_string()),
        };
        Self::connect(url, options, sign_in, event)
    }

    /// Whether the one watching directs the event.
    pub fn directs(&self) -> bool {
        self.view.as_ref().is_some_and(|v| v.director)
    }

    /// Send a club request (a director's action); its answer shows as a
    /// notice or a problem, and the page is asked for again at once.
    pub fn send(&mut self, req: ClubRequest) {
        self.problem = None;
        self.link.send(req);
        self.link.send(ClubRequest::Watch { event: self.event });
    }

    /// Take what the connection brought.
    pub fn pump(&mut self) {
        for news in self.link.poll() {
            match news {
                EventNews::SignedIn { user, name, token } => {
                    self.me = Some((user, name));
                    self.token = Some(token);
                    self.connection = None;
                }
                EventNews::Reply(r) => self.reply(r),
                EventNews::Problem(p) => self.problem = Some(p),
                EventNews::Failed(why) => self.connection = Some(why),
                EventNews::Lost(why) => {
                    self.connection = Some(format!("connection lost ({why}); reconnecting…"))
                }
                EventNews::Reconnected => self.connection = None,
            }
        }
        // A player of an event with a time control: how many vacation
        // days are left (asked once; a day taken brings the answer again).
        if !self.vacation_asked
            && let (Some(v), Some((me, _))) = (&self.view, &self.me)
            && v.time.is_some()
            && v.entrants.iter().any(|(u, _)| u == me)
        {
            self.vacation_asked = true;
            self.link.send(ClubRequest::TakeVacation {
                event: self.event,
                days: 0,
            });
        }
        // The directors' log, kept fresh every few seconds.
        if self.directs()
            && self
                .log_asked
                .is_none_or(|t| t.elapsed() > Duration::from_secs(3))
        {
            self.log_asked = Some(Instant::now());
            self.link
                .send(ClubRequest::DirectorLog { event: self.event });
        }
    }

    fn reply(&mut self, r: ClubReply) {
        match r {
            ClubReply::EventView(v) if v.event == self.event => {
                if !v.director && self.tab == Tab::Director {
                    self.tab = Tab::Tables;
                }
                self.view = Some(*v);
                self.seen_at = Some(Instant::now());
            }
            ClubReply::YourGames { games } => {
                self.your_games = games;
                self.games_at = Some(Instant::now());
            }
            ClubReply::Vacation {
                event,
                days_left,
                until,
            } if event == self.event => {
                self.vacation = Some(Vacation { days_left, until });
            }
            ClubReply::DirectorLog { event, lines } if event == self.event => {
                self.log = lines;
            }
            ClubReply::Notice { words: w, .. } => {
                self.notice = Some(words::sentence(&w));
                self.log_asked = None;
            }
            ClubReply::Proposed { round, .. } => {
                self.notice = Some(format!(
                    "Round {round} is paired: click two players to swap them, then start the round"
                ));
                self.log_asked = None;
            }
            ClubReply::Round {
                round, pairings, ..
            } => {
                let tables = pairings.iter().filter(|p| p.table.is_some()).count();
                self.notice = Some(format!(
                    "Round {round} started: {}",
                    words::count(tables, "table", "tables")
                ));
                self.log_asked = None;
            }
            ClubReply::Result { table, .. } => {
                self.notice = Some(format!("Table {} has its result", table.0));
            }
            ClubReply::YourTable {
                round,
                table,
                opponent,
                ..
            } => {
                self.notice = Some(format!(
                    "Round {round}: you play {opponent} at table {}",
                    table.0
                ));
            }
            ClubReply::Bye { round, .. } => {
                self.notice = Some(format!("Round {round}: you have a bye"));
            }
            ClubReply::Registered { event } if event == self.event => {
                self.notice = Some(entry::registered_words(self.view.as_ref()));
            }
            ClubReply::CheckedIn { event } if event == self.event => {
                self.notice = Some(entry::CHECKED_IN_WORDS.into());
            }
            ClubReply::Refused { error, message } => {
                self.problem = Some(format!("{}: {message}", words::sentence(error.words())));
            }
            _ => {}
        }
    }

    /// Milliseconds since your games arrived.
    pub fn since_games_ms(&self) -> u64 {
        self.games_at.map_or(0, |t| {
            u64::try_from(t.elapsed().as_millis()).unwrap_or(u64::MAX)
        })
    }

    /// Milliseconds since the view arrived (clocks count down by it).
    pub fn since_seen_ms(&self) -> u64 {
        self.seen_at.map_or(0, |t| {
            u64::try_from(t.elapsed().as_millis()).unwrap_or(u64::MAX)
        })
    }

    /// Draw one frame.
    pub fn ui(&mut self, ui: &mut Ui) {
        if !self.waker_set {
            let ctx = ui.ctx().clone();
            self.link
                .set_waker(std::sync::Arc::new(move || ctx.request_repaint()));
            self.waker_set = true;
        }
        self.pump();
        if let Some(watch) = &mut self.watch {
            let waiting: Vec<crate::app::your_move::Waiting> = self
                .your_games
                .iter()
                .filter(|g| g.your_move && !g.paused)
                .map(|g| crate::app::your_move::Waiting {
                    table: g.table,
                    words: format!(
                        "{}, round {}, against {}",
                        g.event_name, g.round, g.opponent
                    ),
                })
                .collect();
            let ctx = ui.ctx().clone();
            watch.update(&ctx, &waiting, None, false);
        }
        // The clocks tick between updates.
        ui.ctx().request_repaint_after(Duration::from_millis(500));
        egui::Panel::top("event_top").show(ui, |ui| self.top_bar(ui));
        let Some(view) = self.view.clone() else {
            egui::CentralPanel::default().show(ui, |ui| {
                ui.centered_and_justified(|ui| {
                    ui.label(
                        self.connection
                            .clone()
                            .or_else(|| self.problem.clone())
                            .unwrap_or_else(|| "Opening the event…".into()),
                    )
                });
            });
            return;
        };
        match self.tab {
            Tab::Tables => grid::ui(ui, self, &view),
            Tab::Standings => standings::ui(ui, &view),
            Tab::Director => director::ui(ui, self, &view),
        }
    }

    fn top_bar(&mut self, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
            ui.strong("Muster");
            let Some(v) = &self.view else {
                ui.weak("club event");
                return;
            };
            ui.heading(&v.name);
            let round = if v.round == 0 {
                format!("{} rounds, not started", v.rounds)
            } else {
                format!("round {} of {}", v.round, v.rounds)
            };
            ui.weak(format!(
                "{} · {} · {round} · {}",
                v.scenario,
                words::pairing(v.pairing),
                words::count(v.entrants.len(), "player", "players")
            ));
            ui.separator();
            ui.selectable_value(&mut self.tab, Tab::Tables, "Tables");
            ui.selectable_value(&mut self.tab, Tab::Standings, "Standings");
            if v.director {
                ui.selectable_value(&mut self.tab, Tab::Director, "Director");
            }
            ui.separator();
            if let Some((_, name)) = &self.me {
                ui.weak(format!("signed in as {name}"));
            }
        });
        if let Some(v) = &self.view
            && !v.round_scenarios.is_empty()
        {
            ui.weak(words::round_battles(&v.round_scenarios));
        }
        ui.horizontal_wrapped(|ui| {
            if let Some(c) = &self.connection {
                ui.label(RichText::new(c).color(Color32::from_rgb(0xe0, 0x8a, 0x00)));
            } else if let Some(p) = &self.problem {
                ui.label(RichText::new(p).color(Color32::from_rgb(0xe0, 0x8a, 0x00)));
            } else if let Some(n) = &self.notice {
                ui.weak(n);
            } else {
                ui.weak("Every table of the round, brought up to date every second.");
            }
        });
    }
}

impl eframe::App for EventApp {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        EventApp::ui(self, ui);
    }
}
