//! The lobby: the client's front door when it talks to a server.
//!
//! - [`store`]: the session token per server and the QUIC certificate
//!   pinned on first use, in small text files in the config directory.
//! - [`link`]: [`LobbyLink`], the lobby's connection on its own thread.
//! - [`list`]: the live table list with its filters; [`create`]: the
//!   create-a-table form; [`table`]: a table opened from the lobby.
//! - [`games`]: "Your tables", your move marked with the time left;
//!   [`events`]: the club events you entered, direct, or may enter (an
//!   invite code registers for one not listed).
//! - Issue 21's club screens, reached from the lobby's top bar:
//!   [`account`] (claim your name as an account; the connect screen's
//!   password signs in to one from another machine), [`clubs`] (create
//!   or join a club, name directors, the webhook) and [`new_event`] (a
//!   club's new event with all its settings).
//!
//! [`LobbyApp`] steps through four screens: connect (address and name),
//! the lobby (your tables, events, tables, filters, create, join, watch),
//! an event's page, and a table (the sandbox UI or the GBACW table view),
//! with a bar to go back. Whatever the screen, the lobby's connection
//! keeps watching where your move is awaited ([`crate::app::your_move`]).

pub mod account;
pub mod clubs;
pub mod create;
pub mod events;
pub mod from_save;
pub mod games;
pub mod link;
pub mod list;
pub mod new_event;
mod screens;
pub mod store;
pub mod table;

pub use link::{LobbyEvent, LobbyLink};
pub use store::Store;
pub use table::OpenTable;

use crate::app::event::EventApp;
use crate::app::event::words::sentence;
use crate::app::your_move::{Desktop, Herald, YourMoveWatch};
use crate::app::{Join, MusterApp, SignIn};
use crate::net::ConnectOptions;
use egui::{Color32, RichText, Ui};
use muster_shared::protocol::club::{
    ClubId, ClubReply, ClubRequest, ClubSummary, EventId, EventSummary, YourGame,
};
use muster_shared::protocol::{ErrorCode, TableId, TableSummary, UserId};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use table::Opening;

/// The lobby's address when none is given.
pub const DEFAULT_SERVER: &str = "ws://127.0.0.1:7700";

/// The command line's say in the lobby (see [`LobbyApp::from_flags`]).
#[derive(Clone, Debug, Default)]
pub struct LobbyFlags {
    /// `--config-dir`; else `$MUSTER_CONFIG_DIR`, `$XDG_CONFIG_HOME/muster`,
    /// `~/.config/muster`.
    pub config_dir: Option<std::path::PathBuf>,
    /// `--profile`: identities kept apart from the default ones.
    pub profile: Option<String>,
    /// `--name`: the identity of that name (a new one if none is kept);
    /// none: the identity used last.
    pub name: Option<String>,
    /// `--fingerprint`, pinned for a `quic://` URL.
    pub fingerprint: Option<String>,
}

/// The address and name typed on the connect screen.
#[derive(Clone, Debug)]
pub struct ConnectForm {
    pub url: String,
    pub name: String,
    /// An account's password: typed, the name is signed in to as an
    /// account (issue 21); empty, the identity kept here or a new guest.
    /// Cleared once sent.
    pub password: String,
}

/// The connect screen's password field.
pub const PASSWORD_LABEL: &str = "Password (accounts only):";

/// The lobby's screens, chosen in its top bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screen {
    /// Your tables, the club events, the table list.
    Tables,
    Account,
    Clubs,
    /// A club's new event (the club in [`Lobby::new_event`]).
    NewEvent,
}

/// The top bar's screen buttons.
pub const TABLES_SCREEN: &str = "Tables and events";
pub const ACCOUNT_SCREEN: &str = "Account";
pub const CLUBS_SCREEN: &str = "Clubs";

/// Who we are on the server we are connected to.
#[derive(Clone, Debug)]
pub struct Identity {
    pub user: UserId,
    pub name: String,
    pub token: String,
    pub fingerprint: Option<String>,
    pub resumed: bool,
    /// The other identities this machine keeps for the server (this
    /// profile's), by name.
    pub others: Vec<String>,
}

/// The lobby while connected.
pub struct Lobby {
    url: String,
    link: LobbyLink,
    pub identity: Option<Identity>,
    /// Every table the server listed, kept current by its pushes.
    pub tables: BTreeMap<TableId, TableSummary>,
    pub filters: list::Filters,
    pub create: create::CreateForm,
    /// The invite code typed for a private table.
    pub invite: String,
    /// The game of a create sent and not yet answered.
    creating: Option<String>,
    /// The seat its creator takes (the form's side, a random one drawn
    /// when Create was clicked).
    creating_seat: u8,
    /// The last word from the server or the connection, for the status line.
    pub notice: Option<String>,
    /// The last refusal (e.g. a table the server cannot create).
    pub problem: Option<String>,
    /// The club events listed for this player (issue 21).
    pub events: Vec<EventSummary>,
    /// Your unfinished event games, and when the server said (their
    /// clocks count down from then).
    pub your_games: Vec<YourGame>,
    games_at: Option<Instant>,
    connected: bool,
    waker_set: bool,
    /// The screen shown (issue 21's club screens beside the tables).
    pub screen: Screen,
    /// Whether this identity is an account, once the server said.
    pub account: Option<bool>,
    /// The clubs as the server last listed them.
    pub clubs: Option<Vec<ClubSummary>>,
    pub account_form: account::AccountForm,
    pub clubs_form: clubs::ClubsForm,
    /// The club and form of the event being created.
    pub new_event: Option<(ClubId, String, new_event::EventForm)>,
    /// Vacation days to set on the event being created, once it exists.
    pending_vacation: Option<u8>,
    /// An event's invite code typed in the lobby.
    pub invite_code: String,
    /// An event page to open (a new event of yours, a registration by
    /// invite code).
    open_next: Option<EventId>,
}

impl Lobby {
    /// This player's name on the server, once signed in.
    pub fn me(&self) -> Option<&str> {
        self.identity.as_ref().map(|i| i.name.as_str())
    }

    /// Every table of yours ("Your tables"), your move first.
    pub fn your_tables(&self) -> Vec<games::YourTable<'_>> {
        games::collect(&self.tables, &self.your_games, self.me())
    }
}

/// The app when started for a server: connect, lobby, tables.
pub struct LobbyApp {
    store: Store,
    /// Options for every connection (the QUIC pin is added from the store).
    pub options: ConnectOptions,
    pub form: ConnectForm,
    /// Why the last connect failed.
    pub connect_error: Option<String>,
    pub lobby: Option<Lobby>,
    opening: Option<Opening>,
    pub table: Option<OpenTable>,
    /// An event's page opened from the lobby (a table opened from it
    /// shows over it, and going back from the table returns to it).
    pub event: Option<EventApp>,
    /// How often the lobby asks for its events and your games (and an
    /// event page for its cards); tests ask more often.
    pub club_every: Duration,
    /// Tells the player when their move comes, whatever is on screen.
    pub watch: YourMoveWatch,
}

impl LobbyApp {
    /// The connect screen, filled with `url` and `name`.
    pub fn new(store: Store, url: &str, name: &str) -> Self {
        let notify = store.notify();
        let sound = store.sound();
        let mut watch = YourMoveWatch::new(Box::new(Desktop), notify);
        watch.sound = sound;
        LobbyApp {
            store,
            options: ConnectOptions::default(),
            form: ConnectForm {
                url: url.to_string(),
                name: name.to_string(),
                password: String::new(),
            },
            connect_error: None,
            lobby: None,
            opening: None,
            table: None,
            event: None,
            club_every: link::CLUB_REFRESH,
            watch,
        }
    }

    /// Tell the player through `herald` instead of the window and the
    /// desktop (tests record what would be told).
    pub fn with_herald(mut self, herald: Box<dyn Herald>) -> Self {
        let sound = self.watch.sound;
        self.watch = YourMoveWatch::new(herald, self.watch.desktop);
        self.watch.sound = sound;
        self
    }

    /// Turn the desktop notification on or off, and remember it.
    pub fn set_notify(&mut self, on: bool) {
        self.watch.desktop = on;
        if let Err(e) = self.store.set_notify(on)
            && let Some(l) = &mut self.lobby
        {
            l.problem = Some(format!("cannot keep the setting: {e}"));
        }
    }

    /// Turn the "your move" sound on or off, and remember it.
    pub fn set_sound(&mut self, on: bool) {
        self.watch.sound = on;
        if let Err(e) = self.store.set_sound(on)
            && let Some(l) = &mut self.lobby
        {
            l.problem = Some(format!("cannot keep the setting: {e}"));
        }
    }

    /// What `muster --lobby [URL] [--name NAME] [--profile P]
    /// [--config-dir DIR] [--fingerprint HEX]` opens: the connect screen
    /// without a URL, else the lobby connecting to it.
    pub fn from_flags(flags: &LobbyFlags, url: Option<&str>) -> Result<Self, String> {
        let dir = match &flags.config_dir {
            Some(d) => d.clone(),
            None => Store::default_dir().map_err(|e| e.to_string())?,
        };
        let store = match &flags.profile {
            Some(p) => Store::with_profile(dir, p).map_err(|e| e.to_string())?,
            None => Store::at(dir),
        };
        // A fingerprint given by hand is pinned as if seen on first use
        // (and refused if another one is pinned already).
        if let (Some(fp), Some(host)) = (
            &flags.fingerprint,
            url.and_then(|u| u.strip_prefix("quic://")),
        ) {
            store.check_or_pin(host, fp).map_err(|e| e.to_string())?;
        }
        let name = flags.name.as_deref().unwrap_or("");
        Ok(match url {
            Some(url) => LobbyApp::connecting(store, url, name),
            None => LobbyApp::new(store, DEFAULT_SERVER, name),
        })
    }

    /// As [`LobbyApp::new`], and connect straight away.
    pub fn connecting(store: Store, url: &str, name: &str) -> Self {
        let mut app = Self::new(store, url, name);
        app.connect();
        app
    }

    /// The sandbox table on screen, if one is.
    pub fn sandbox(&self) -> Option<&MusterApp> {
        match &self.table {
            Some(OpenTable::Sandbox { app, .. }) => Some(app),
            _ => None,
        }
    }

    pub fn sandbox_mut(&mut self) -> Option<&mut MusterApp> {
        match &mut self.table {
            Some(OpenTable::Sandbox { app, .. }) => Some(app),
            _ => None,
        }
    }

    /// Signed in and showing the lobby (or a table).
    pub fn signed_in(&self) -> bool {
        self.lobby.as_ref().is_some_and(|l| l.identity.is_some())
    }

    /// The address the lobby is served from now (the one given, or where
    /// a redirect sent it).
    pub fn lobby_url(&self) -> Option<&str> {
        self.lobby.as_ref().map(|l| l.url.as_str())
    }

    /// A table being joined in the background.
    pub fn is_opening(&self) -> bool {
        self.opening.is_some()
    }

    fn connect(&mut self) {
        self.connect_error = None;
        let url = self.form.url.trim().to_string();
        let password = Some(std::mem::take(&mut self.form.password)).filter(|p| !p.is_empty());
        match LobbyLink::connect_as(
            &url,
            &self.form.name,
            password,
            self.store.clone(),
            self.options.clone(),
            self.club_every,
        ) {
            Ok(link) => {
                self.lobby = Some(Lobby {
                    url,
                    link,
                    identity: None,
                    tables: BTreeMap::new(),
                    filters: list::Filters::default(),
                    create: create::CreateForm {
                        from_save: from_save::FromSave::at(self.store.dir().join("saves")),
                        ..create::CreateForm::default()
                    },
                    invite: String::new(),
                    creating: None,
                    creating_seat: 0,
                    notice: None,
                    problem: None,
                    events: Vec::new(),
                    your_games: Vec::new(),
                    games_at: None,
                    connected: false,
                    waker_set: false,
                    screen: Screen::Tables,
                    account: None,
                    clubs: None,
                    account_form: account::AccountForm::default(),
                    clubs_form: clubs::ClubsForm::default(),
                    new_event: None,
                    pending_vacation: None,
                    invite_code: String::new(),
                    open_next: None,
                })
            }
            Err(e) => self.connect_error = Some(e.to_string()),
        }
    }

    /// Fold in what the lobby connection and a joining table delivered.
    fn pump(&mut self, ctx: &egui::Context) {
        let mut open_created: Option<(TableId, Option<String>, String, u8)> = None;
        let mut failed = None;
        if let Some(lobby) = &mut self.lobby {
            for event in lobby.link.poll() {
                match event {
                    LobbyEvent::Pinned { host, fingerprint } => {
                        lobby.notice = Some(format!(
                            "First connection to {host}: its certificate {fingerprint} is now \
                             pinned in {}",
                            self.store.dir().display()
                        ));
                    }
                    LobbyEvent::SignedIn {
                        user,
                        name,
                        token,
                        fingerprint,
                        resumed,
                        others,
                    } => {
                        lobby.connected = true;
                        lobby.identity = Some(Identity {
                            user,
                            name,
                            token,
                            fingerprint,
                            resumed,
                            others,
                        });
                    }
                    LobbyEvent::Tables(all) => {
                        lobby.tables = all.into_iter().map(|t| (t.table, t)).collect();
                    }
                    LobbyEvent::Update(t) => {
                        lobby.tables.insert(t.table, t);
                    }
                    LobbyEvent::Removed(t) => {
                        lobby.tables.remove(&t);
                    }
                    LobbyEvent::Created { table, invite } => {
                        lobby.problem = None;
                        // The game asked for, whatever the form shows now.
                        let ruleset = lobby
                            .creating
                            .take()
                            .unwrap_or_else(|| lobby.create.game.clone());
                        open_created = Some((table, invite, ruleset, lobby.creating_seat));
                    }
                    LobbyEvent::Refused { code, message } => {
                        // The lobby connection only asks to create tables,
                        // so a refusal while one is asked for is about it.
                        lobby.problem = Some(if lobby.creating.is_some() {
                            format!("Cannot create the table: {message}")
                        } else {
                            describe_refusal(code, &message)
                        });
                        lobby.creating = None;
                    }
                    LobbyEvent::Failed(why) => failed = Some(why),
                    LobbyEvent::Lost(why) => {
                        lobby.connected = false;
                        lobby.notice =
                            Some(format!("lost the connection ({why}); reconnecting..."));
                    }
                    LobbyEvent::Moved { to } => {
                        // Tables open where the lobby is served now.
                        lobby.notice = Some(format!("the lobby moved to {to}"));
                        lobby.url = to;
                        lobby.connected = true;
                    }
                    LobbyEvent::Reconnected => {
                        lobby.connected = true;
                        lobby.notice = Some("reconnected".into());
                    }
                    LobbyEvent::Club(reply) => club_news(lobby, reply),
                }
            }
        }
        if let Some(why) = failed {
            self.lobby = None;
            self.connect_error = Some(why);
        }
        if let Some(event) = self.lobby.as_mut().and_then(|l| l.open_next.take()) {
            self.open_event(event);
        }
        if let Some((table, invite, ruleset, seat)) = open_created {
            let what = format!("table #{}", table.0);
            self.open(
                ctx,
                &ruleset,
                Join::Seat {
                    table,
                    seat: Some(muster_shared::SeatId(seat)),
                    invite,
                },
                what,
            );
        }
        if let Some(opening) = &self.opening
            && let Some(result) = opening.poll()
        {
            let what = opening.what.clone();
            self.opening = None;
            match result {
                Ok(joined) => {
                    let mut table = OpenTable::new(joined);
                    // Named from the first frame: the lobby's list, else
                    // (a table just created, not listed yet) this player
                    // in their own seat.
                    let listed = self
                        .lobby
                        .as_ref()
                        .and_then(|l| l.tables.get(&table.table()));
                    let names = match listed {
                        Some(t) => Some(crate::app::seat_words::table_seat_names(t)),
                        None => {
                            let me = self
                                .lobby
                                .as_ref()
                                .and_then(|l| l.identity.as_ref())
                                .map(|i| i.name.clone());
                            table.own_seat().zip(me).map(|(seat, me)| {
                                let mut names = table.seat_names();
                                if let Some(n) = names.get_mut(usize::from(seat.0)) {
                                    *n = crate::app::seat_words::seat_label(n, Some(&me));
                                }
                                names
                            })
                        }
                    };
                    if let Some(names) = names {
                        table.set_seat_names(names);
                    }
                    self.table = Some(table);
                }
                Err(e) => {
                    if let Some(l) = &mut self.lobby {
                        l.problem = Some(format!("cannot open {what}: {e}"));
                    }
                }
            }
        }
    }

    /// Join a table (seat or watch) in the background.
    fn open(&mut self, ctx: &egui::Context, ruleset: &str, join: Join, what: String) {
        let Some(lobby) = &self.lobby else { return };
        let Some(id) = &lobby.identity else { return };
        let opts = ConnectOptions {
            fingerprint: id.fingerprint.clone(),
            ..self.options.clone()
        };
        self.opening = Some(Opening::start(
            ctx.clone(),
            lobby.url.clone(),
            opts,
            id.token.clone(),
            ruleset,
            join,
            what,
        ));
    }

    /// Draw one frame.
    pub fn ui(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        if let Some(lobby) = &mut self.lobby
            && !lobby.waker_set
        {
            let c = ctx.clone();
            lobby
                .link
                .set_waker(std::sync::Arc::new(move || c.request_repaint()));
            lobby.waker_set = true;
        }
        self.pump(&ctx);
        self.watch_your_move(&ctx);
        if self.table.is_some() {
            self.table_ui(ui);
        } else if self.event.is_some() {
            self.event_ui(ui);
        } else if self.signed_in() {
            self.lobby_ui(ui);
        } else {
            self.connect_ui(ui);
        }
    }

    /// Issue 21: tell the player when their move comes at any table of
    /// theirs, open or not (the lobby's list and your games say where).
    fn watch_your_move(&mut self, ctx: &egui::Context) {
        let Some(lobby) = &self.lobby else { return };
        if lobby.identity.is_none() {
            return;
        }
        let me = lobby.me();
        let waiting = games::waiting(&lobby.your_tables(), me);
        // A table being opened counts as on screen: it tells its own move.
        let on_screen = self
            .table
            .as_ref()
            .map(OpenTable::table)
            .or(self.opening.as_ref().and_then(|o| o.table));
        let focused = ctx.input(|i| i.viewport().focused.unwrap_or(true));
        self.watch.update(ctx, &waiting, on_screen, focused);
        // The clocks of your games count down between answers.
        if !lobby.your_games.is_empty() {
            ctx.request_repaint_after(Duration::from_secs(1));
        }
    }

    /// Open event `id`'s page on its own connection, as this identity.
    pub fn open_event(&mut self, id: EventId) {
        let Some(lobby) = &mut self.lobby else { return };
        let Some(me) = &lobby.identity else { return };
        let opts = ConnectOptions {
            fingerprint: me.fingerprint.clone(),
            ..self.options.clone()
        };
        match EventApp::connect_every(
            &lobby.url,
            opts,
            SignIn::Resume(me.token.clone()),
            id,
            self.club_every.min(crate::app::event::link::REFRESH),
        ) {
            Ok(mut page) => {
                page.opens_tables = true;
                self.event = Some(page);
            }
            Err(e) => lobby.problem = Some(format!("cannot open the event: {e}")),
        }
    }

    fn event_ui(&mut self, ui: &mut Ui) {
        let mut back = false;
        egui::Panel::top("lobby_event_bar").show(ui, |ui| {
            ui.horizontal(|ui| {
                back = ui.button("< Lobby").clicked();
                ui.separator();
                ui.weak("club event");
            });
        });
        let Some(page) = &mut self.event else { return };
        page.ui(ui);
        // "Open table N" on the page's your games: the table over the page.
        if let Some(t) = page.open_table.take() {
            let event = page.event;
            let ruleset = self
                .lobby
                .as_ref()
                .and_then(|l| {
                    l.tables.get(&t).map(|s| s.ruleset.clone()).or_else(|| {
                        l.events
                            .iter()
                            .find(|e| e.event == event)
                            .map(|e| e.ruleset.clone())
                    })
                })
                .unwrap_or_else(|| "gbacw".into());
            let ctx = ui.ctx().clone();
            self.open_yours(&ctx, t, &ruleset);
        }
        if back {
            // Dropping the page's link closes its connection.
            self.event = None;
        }
    }

    /// Open a table of yours again, in your seat.
    fn open_yours(&mut self, ctx: &egui::Context, table: TableId, ruleset: &str) {
        if self.opening.is_some() {
            return;
        }
        self.open(
            ctx,
            ruleset,
            Join::Seat {
                table,
                seat: None,
                invite: None,
            },
            format!("table #{}", table.0),
        );
    }

    fn connect_ui(&mut self, ui: &mut Ui) {
        let connecting = self.lobby.is_some();
        let mut go = false;
        egui::CentralPanel::default().show(ui, |ui| {
            ui.vertical_centered(|ui| {
                ui.add_space(60.0);
                ui.heading("Muster");
                ui.label("Connect to a server");
                ui.add_space(16.0);
            });
            egui::Grid::new("connect_grid")
                .num_columns(2)
                .spacing([8.0, 8.0])
                .show(ui, |ui| {
                    let l = ui.label("Server:");
                    let r = ui
                        .add(
                            egui::TextEdit::singleline(&mut self.form.url)
                                .hint_text("ws://host:7700 or quic://host:7701")
                                .desired_width(320.0),
                        )
                        .labelled_by(l.id);
                    go |= r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                    ui.end_row();
                    let l = ui.label("Your name:");
                    ui.add(
                        egui::TextEdit::singleline(&mut self.form.name)
                            .hint_text("empty: the identity used last here")
                            .desired_width(320.0),
                    )
                    .labelled_by(l.id);
                    ui.end_row();
                    let l = ui.label(PASSWORD_LABEL);
                    let r = ui
                        .add(
                            egui::TextEdit::singleline(&mut self.form.password)
                                .password(true)
                                .hint_text("empty: the identity kept here, or a new guest")
                                .desired_width(320.0),
                        )
                        .labelled_by(l.id);
                    go |= r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                    ui.end_row();
                });
            ui.weak(
                "With a password, the name is signed in to as the account claimed under it, \
                 from any machine.",
            );
            let kept = self.store.saved_names(self.form.url.trim());
            if !kept.is_empty() {
                ui.weak(format!(
                    "Identities kept for this server: {} (type one to be them again; a new name \
                     is a new player)",
                    kept.join(", ")
                ));
            }
            ui.add_space(8.0);
            ui.weak(match self.store.profile() {
                Some(p) => format!(
                    "Profile {p}: its identities are kept in {}, the servers' certificates in {}",
                    self.store.sessions_path().display(),
                    self.store.dir().display()
                ),
                None => format!(
                    "Your identities and the servers' certificates are kept in {}",
                    self.store.dir().display()
                ),
            });
            ui.add_space(8.0);
            if connecting {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label("Connecting...");
                });
            } else {
                go |= ui.button("Connect").clicked();
            }
            if let Some(e) = &self.connect_error {
                ui.add_space(8.0);
                ui.label(
                    RichText::new(e)
                        .color(Color32::from_rgb(0xff, 0x50, 0x50))
                        .strong(),
                );
            }
        });
        if go && !connecting {
            self.connect();
        }
    }

    fn lobby_ui(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        let opening = self.opening.as_ref().map(|o| o.what.clone());
        let mut notify = self.watch.desktop;
        let mut sound = self.watch.sound;
        let Some(lobby) = &mut self.lobby else { return };
        let mut pick = None;
        let mut event_pick = None;
        let mut create = None;
        egui::Panel::top("lobby_top").show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.strong("Muster");
                ui.weak("lobby");
                ui.separator();
                ui.label(&lobby.url);
                if let Some(id) = &lobby.identity {
                    ui.separator();
                    let how = if id.resumed {
                        "welcome back"
                    } else if id.others.is_empty() {
                        "new guest"
                    } else {
                        "new player"
                    };
                    ui.label(format!("{} ({how})", id.name));
                    if !id.resumed && !id.others.is_empty() {
                        ui.label(
                            RichText::new(new_identity_words(&id.name, &id.others))
                                .color(Color32::from_rgb(0x60, 0xc0, 0xff)),
                        );
                    }
                }
                ui.separator();
                if lobby.connected {
                    ui.weak("connected");
                } else {
                    ui.label(RichText::new("reconnecting...").color(Color32::YELLOW));
                }
                ui.separator();
                for (screen, label) in [
                    (Screen::Tables, TABLES_SCREEN),
                    (Screen::Account, ACCOUNT_SCREEN),
                    (Screen::Clubs, CLUBS_SCREEN),
                ] {
                    let on = lobby.screen == screen
                        || (screen == Screen::Clubs && lobby.screen == Screen::NewEvent);
                    if ui.selectable_label(on, label).clicked() {
                        lobby.screen = screen;
                        if screen != Screen::Tables {
                            // Asked afresh each time: roles and webhooks
                            // change by others' hands.
                            lobby.link.club(ClubRequest::Clubs);
                        }
                    }
                }
                ui.separator();
                ui.checkbox(&mut notify, NOTIFY).on_hover_text(
                    "A desktop notification when the game at one of your tables waits on \
                         you, whatever is on screen. The window asks for attention either way.",
                );
                ui.checkbox(&mut sound, SOUND).on_hover_text(
                    "A short sound (the desktop's \"new message\" sound) when the game at one of \
                     your tables waits on you. Played by the desktop's notification service: \
                     without one, or without a sound device, nothing plays.",
                );
                if let Some(n) = &lobby.notice {
                    ui.separator();
                    ui.weak(n);
                }
            });
        });
        if lobby.screen != Screen::Tables {
            screens::ui(ui, lobby);
            if notify != self.watch.desktop {
                self.set_notify(notify);
            }
            return;
        }
        egui::Panel::right("lobby_create")
            .default_size(300.0)
            .show(ui, |ui| {
                ui.heading("New table");
                if lobby
                    .create
                    .ui(ui, lobby.creating.is_some() || opening.is_some())
                {
                    let options = lobby.create.options();
                    lobby.creating = Some(options.ruleset.clone());
                    // A random side: one bit from the system's generator
                    // (the first seat if it fails).
                    let mut coin = [0u8; 1];
                    let coin = getrandom::fill(&mut coin).is_ok() && coin[0] & 1 == 1;
                    lobby.creating_seat = lobby.create.side.seat(coin);
                    lobby.problem = None;
                    create = Some(options);
                }
                ui.add_space(8.0);
                if let Some(p) = &lobby.problem {
                    ui.label(RichText::new(p).color(Color32::from_rgb(0xe0, 0x8a, 0x00)));
                }
                if let Some(what) = &opening {
                    ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label(format!("Opening {what}..."));
                    });
                }
            });
        egui::CentralPanel::default().show(ui, |ui| {
            let me = lobby.identity.as_ref().map(|i| i.name.as_str());
            let age = lobby.games_at.map_or(0, |t| {
                u64::try_from(t.elapsed().as_millis()).unwrap_or(u64::MAX)
            });
            let mine = games::collect(&lobby.tables, &lobby.your_games, me);
            if let Some(p) = games::ui(ui, &mine, me, age) {
                pick = Some(p);
            }
            event_pick = events::ui(ui, &lobby.events, &mut lobby.invite_code);
            ui.heading("Tables");
            lobby.filters.ui(ui, &create::GAMES);
            ui.horizontal(|ui| {
                let l = ui.label("Invite code (private tables):");
                ui.add(egui::TextEdit::singleline(&mut lobby.invite).desired_width(120.0))
                    .labelled_by(l.id);
            });
            ui.separator();
            if let Some(p) = list::ui(ui, &lobby.tables, &lobby.filters, me) {
                pick = Some(p);
            }
        });
        if let Some(options) = create {
            lobby.link.create(options);
        }
        if let Some(events::EventPick::Register(event)) = event_pick {
            lobby.problem = None;
            lobby.link.club(ClubRequest::Register {
                event,
                invite: None,
            });
        }
        if let Some(events::EventPick::Invite) = event_pick {
            match crate::app::event::entry::parse_invite(&lobby.invite_code) {
                Ok((event, code)) => {
                    lobby.problem = None;
                    lobby.link.club(ClubRequest::Register {
                        event,
                        invite: Some(code),
                    });
                }
                Err(why) => lobby.problem = Some(sentence(&why)),
            }
        }
        if let Some(pick) = pick
            && opening.is_none()
        {
            let invite = Some(lobby.invite.trim().to_string()).filter(|s| !s.is_empty());
            let (table, join, what) = match pick {
                list::Pick::Join(t) => (
                    t,
                    Join::Seat {
                        table: t,
                        seat: None,
                        invite,
                    },
                    format!("table #{}", t.0),
                ),
                list::Pick::Watch(t) => (
                    t,
                    Join::Spectate { table: t, invite },
                    format!("table #{} to watch", t.0),
                ),
            };
            let ruleset = lobby
                .tables
                .get(&table)
                .map(|s| s.ruleset.clone())
                .or_else(|| {
                    // An event game no one has open is not listed.
                    let g = lobby.your_games.iter().find(|g| g.table == table)?;
                    let e = lobby.events.iter().find(|e| e.event == g.event)?;
                    Some(e.ruleset.clone())
                })
                .unwrap_or_else(|| "sandbox".to_string());
            lobby.problem = None;
            self.open(&ctx, &ruleset, join, what);
        }
        if let Some(events::EventPick::Open(event)) = event_pick {
            self.open_event(event);
        }
        if notify != self.watch.desktop {
            self.set_notify(notify);
        }
        if sound != self.watch.sound {
            self.set_sound(sound);
        }
    }

    fn table_ui(&mut self, ui: &mut Ui) {
        let Some(table) = &mut self.table else { return };
        // The seats by the names the lobby's list gives them, kept up to
        // date as players sit down ("Union (Meade)", issue 18).
        if let Some(t) = self
            .lobby
            .as_ref()
            .and_then(|l| l.tables.get(&table.table()))
        {
            table.set_seat_names(crate::app::seat_words::table_seat_names(t));
        }
        let mut back = false;
        egui::Panel::top("lobby_table_bar").show(ui, |ui| {
            ui.horizontal(|ui| {
                back = ui.button("< Lobby").clicked();
                ui.separator();
                ui.label(format!("Table #{}", table.table().0));
                if let Some(code) = table.invite() {
                    ui.separator();
                    ui.label(format!("invite code: {code}"));
                }
            });
        });
        table.ui(ui);
        if back {
            // Dropping the table's link leaves the table politely (back
            // to the event's page when it was opened from there).
            self.table = None;
        }
    }
}

/// The setting's words beside its checkbox.
pub const NOTIFY: &str = "Notify me when my move comes";
/// The sound setting's words beside its checkbox.
pub const SOUND: &str = "Play a sound when my move comes";

/// A club answer or news on the lobby's connection.
fn club_news(lobby: &mut Lobby, reply: ClubReply) {
    match reply {
        ClubReply::Events { events } => lobby.events = events,
        ClubReply::YourGames { games } => {
            lobby.your_games = games;
            lobby.games_at = Some(Instant::now());
        }
        ClubReply::Registered { event } => {
            let listed = lobby.events.iter().find(|e| e.event == event);
            let name = listed.map_or_else(|| "the event".to_string(), |e| e.name.clone());
            lobby.notice = Some(format!("you are registered for {name}"));
            // Registered by invite code: an event the lobby did not list;
            // its page (to check in) opens.
            if listed.is_none() {
                lobby.invite_code.clear();
                lobby.open_next = Some(event);
            }
            lobby.link.club(ClubRequest::Events);
        }
        reply @ (ClubReply::Clubs { .. }
        | ClubReply::AccountClaimed { .. }
        | ClubReply::ClubCreated { .. }
        | ClubReply::Member { .. }
        | ClubReply::Webhook { .. }
        | ClubReply::LeftClub { .. }
        | ClubReply::EventCreated { .. }) => screens::news(lobby, reply),
        ClubReply::YourTable {
            round,
            table,
            opponent,
            ..
        } => {
            lobby.notice = Some(format!(
                "round {round}: you play {opponent} at table {}",
                table.0
            ));
            lobby.link.club(ClubRequest::YourGames);
        }
        ClubReply::Bye { round, .. } => {
            lobby.notice = Some(format!("round {round}: you have a bye"));
        }
        ClubReply::Notice { words, .. } => lobby.notice = Some(sentence(&words)),
        ClubReply::Result { .. } => {
            lobby.link.club(ClubRequest::YourGames);
        }
        ClubReply::Refused { error, message } => {
            screens::refused(lobby, error, &message);
        }
        _ => {}
    }
}

/// Why this is a new player although identities are kept for the server.
pub fn new_identity_words(name: &str, others: &[String]) -> String {
    let kept = others.join(", ");
    let first = others.first().map_or("", String::as_str);
    format!(
        "A new identity for {name}: this machine also keeps {kept} for this server \
         (--name {first} plays as {first} again; --profile NAME keeps identities apart)"
    )
}

/// A refusal in words a player can act on.
fn describe_refusal(code: ErrorCode, message: &str) -> String {
    match code {
        ErrorCode::BadInvite => format!("Wrong invite code: {message}"),
        ErrorCode::Forbidden => format!("Not allowed: {message}"),
        ErrorCode::UnknownRuleset | ErrorCode::BadOptions => {
            format!("The server cannot create that table: {message}")
        }
        _ => format!("The server refused ({code}): {message}"),
    }
}

impl eframe::App for LobbyApp {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        LobbyApp::ui(self, ui);
    }
}
