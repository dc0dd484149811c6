//! A table opened from the lobby: joined on a thread of its own (joining
//! waits for the first snapshot, which the UI must not), then handed to the
//! table UI for its game. Sandbox tables get the full [`MusterApp`]; GBACW
//! tables get [`GbacwWatch`] until the GBACW table view lands: it follows
//! the table for real (every delta folded, every roll verified) and says
//! plainly that the map is not drawn yet.

use crate::app::link::{LinkEvent, TableLink};
use crate::app::{Join, MusterApp, NetTable, Session, SignIn};
use crate::follow::{FollowError, Follower};
use crate::net::{ConnectOptions, NetError};
use egui::{Color32, RichText, Ui};
use muster_shared::Viewer;
use muster_shared::gbacw::ruleset::Gbacw;
use muster_shared::protocol::{DeltaBody, TableId};
use muster_shared::sandbox::Sandbox;
use std::sync::mpsc;

/// Seat names a sandbox table shows (as the hot-seat table does).
const SANDBOX_SEATS: [&str; 2] = ["Union", "Confederate"];

/// A table joined on the network thread, not yet on screen.
pub enum Joined {
    Sandbox(NetTable<Sandbox>),
    Gbacw(NetTable<Gbacw>),
}

/// Joining in the background.
pub struct Opening {
    pub what: String,
    rx: mpsc::Receiver<Result<Joined, NetError>>,
}

impl Opening {
    /// Start joining `ruleset`'s table as `join` says, as the identity of
    /// `token`. `ctx` is repainted when the answer is in.
    pub fn start(
        ctx: egui::Context,
        url: String,
        opts: ConnectOptions,
        token: String,
        ruleset: &str,
        join: Join,
        what: String,
    ) -> Self {
        let (tx, rx) = mpsc::channel();
        let gbacw = ruleset == "gbacw";
        std::thread::spawn(move || {
            let sign_in = SignIn::Resume(token);
            let joined = if gbacw {
                NetTable::<Gbacw>::open(&url, opts, sign_in, join).map(Joined::Gbacw)
            } else {
                NetTable::<Sandbox>::open(&url, opts, sign_in, join).map(Joined::Sandbox)
            };
            let _ = tx.send(joined);
            ctx.request_repaint();
        });
        Opening { what, rx }
    }

    /// The outcome, once there is one.
    pub fn poll(&self) -> Option<Result<Joined, NetError>> {
        match self.rx.try_recv() {
            Ok(r) => Some(r),
            Err(mpsc::TryRecvError::Empty) => None,
            Err(mpsc::TryRecvError::Disconnected) => {
                Some(Err(NetError::Io("the joining thread stopped".into())))
            }
        }
    }
}

/// A table on screen.
pub enum OpenTable {
    Sandbox {
        app: Box<MusterApp>,
        table: TableId,
        invite: Option<String>,
    },
    Gbacw(Box<GbacwWatch>),
}

impl OpenTable {
    pub fn new(joined: Joined) -> Self {
        match joined {
            Joined::Sandbox(t) => {
                let table = t.table();
                let invite = t.invite().map(String::from);
                let names = SANDBOX_SEATS.iter().map(|n| (*n).to_string()).collect();
                OpenTable::Sandbox {
                    app: Box::new(MusterApp::new(Session::new(Box::new(t), names))),
                    table,
                    invite,
                }
            }
            Joined::Gbacw(t) => OpenTable::Gbacw(Box::new(GbacwWatch::new(t))),
        }
    }

    pub fn table(&self) -> TableId {
        match self {
            OpenTable::Sandbox { table, .. } => *table,
            OpenTable::Gbacw(w) => w.link.table(),
        }
    }

    pub fn invite(&self) -> Option<&str> {
        match self {
            OpenTable::Sandbox { invite, .. } => invite.as_deref(),
            OpenTable::Gbacw(w) => w.link.invite(),
        }
    }

    /// Draw the table's UI below the lobby's bar.
    pub fn ui(&mut self, ui: &mut Ui) {
        match self {
            OpenTable::Sandbox { app, .. } => app.ui(ui),
            OpenTable::Gbacw(w) => w.ui(ui),
        }
    }
}

/// Lines of the GBACW table's log kept on screen.
const GBACW_LOG_LINES: usize = 200;

/// A GBACW table followed without a map: the placeholder until the GBACW
/// table view exists.
pub struct GbacwWatch {
    link: NetTable<Gbacw>,
    follower: Option<Follower<Gbacw>>,
    log: Vec<String>,
    waker_set: bool,
}

impl GbacwWatch {
    fn new(link: NetTable<Gbacw>) -> Self {
        let mut w = GbacwWatch {
            link,
            follower: None,
            log: Vec::new(),
            waker_set: false,
        };
        w.pump();
        w
    }

    /// The follower, once the first snapshot is in.
    pub fn follower(&self) -> Option<&Follower<Gbacw>> {
        self.follower.as_ref()
    }

    fn pump(&mut self) -> bool {
        let events = self.link.poll();
        let any = !events.is_empty();
        for e in events {
            match e {
                LinkEvent::Snapshot { snapshot, .. } => {
                    match Follower::<Gbacw>::from_snapshot(&snapshot) {
                        Ok(f) => {
                            self.line(format!("following from entry {}", snapshot.seq));
                            self.follower = Some(f);
                        }
                        Err(e) => self.line(format!("cannot follow the table: {e}")),
                    }
                }
                LinkEvent::Delta { viewer, seq, body } => {
                    let Some(f) = self.follower.as_mut() else {
                        self.link.resync(viewer);
                        continue;
                    };
                    match f.apply(seq, &body) {
                        Ok(events) => {
                            if let DeltaBody::Anchor { party, .. } = &body {
                                self.line(format!("{seq}: {party} published a new dice chain"));
                            }
                            for ev in events {
                                self.line(format!("{seq}: {ev:?}"));
                            }
                        }
                        Err(FollowError::Gap { .. }) => self.link.resync(viewer),
                        Err(e) => self.line(format!("{seq}: not followed: {e}")),
                    }
                }
                LinkEvent::Accepted { .. } => {}
                LinkEvent::Rejected { error, .. } => self.line(format!("refused: {error:?}")),
                LinkEvent::Error(text) => self.line(text),
            }
        }
        any
    }

    fn line(&mut self, text: String) {
        self.log.push(text);
        if self.log.len() > GBACW_LOG_LINES {
            self.log.remove(0);
        }
    }

    fn ui(&mut self, ui: &mut Ui) {
        if !self.waker_set {
            let ctx = ui.ctx().clone();
            self.link
                .set_waker(std::sync::Arc::new(move || ctx.request_repaint()));
            self.waker_set = true;
        }
        self.pump();
        egui::CentralPanel::default().show(ui, |ui| {
            ui.heading("GBACW table view coming");
            ui.label(
                "This build joins and follows GBACW tables (every entry applied, every roll \
                 verified) but cannot draw the map or give orders yet.",
            );
            ui.separator();
            ui.label(match self.link.viewer() {
                Viewer::Seat(s) => format!("You sit in seat {}.", s.0 + 1),
                _ => "You are watching.".to_string(),
            });
            match &self.follower {
                Some(f) => {
                    ui.label(format!(
                        "Battle: {}. Entry {}. Rolls verified: {}.",
                        f.ruleset().config().battle,
                        f.seq(),
                        f.verified_rolls()
                    ));
                    if !f.bad_rolls().is_empty() {
                        ui.label(
                            RichText::new(format!(
                                "DICE CHECK FAILED on {} roll(s)",
                                f.bad_rolls().len()
                            ))
                            .color(Color32::RED)
                            .strong(),
                        );
                    }
                }
                None => {
                    ui.label("Waiting for the table...");
                }
            }
            ui.separator();
            egui::ScrollArea::vertical()
                .id_salt("gbacw_log")
                .stick_to_bottom(true)
                .show(ui, |ui| {
                    for l in &self.log {
                        ui.monospace(l);
                    }
                });
        });
    }
}
