//! A table opened from the lobby: joined on a thread of its own (joining
//! waits for the first snapshot, which the UI must not), then handed to the
//! table UI for its game: sandbox tables get the full [`MusterApp`], GBACW
//! tables the full [`GbacwApp`] (map, counters, orders, prompts).

use crate::app::gbacw::GbacwApp;
use crate::app::{Join, MusterApp, NetTable, Session, SignIn};
use crate::net::{ConnectOptions, NetError};
use egui::Ui;
use muster_shared::gbacw::ruleset::Gbacw;
use muster_shared::protocol::TableId;
use muster_shared::sandbox::Sandbox;
use std::sync::mpsc;

/// Seat names a sandbox table shows (as the hot-seat table does).
const SANDBOX_SEATS: [&str; 2] = crate::app::seat_words::SANDBOX_SIDES;

/// Seat names a GBACW table shows (seat 0 plays the scenario's first side).
const GBACW_SEATS: [&str; 2] = ["Union", "Confederate"];

/// A table joined on the network thread, not yet on screen.
pub enum Joined {
    Sandbox(NetTable<Sandbox>),
    Gbacw(NetTable<Gbacw>),
}

/// Joining in the background.
pub struct Opening {
    pub what: String,
    /// The table being opened (its "your move" is the table's to tell).
    pub table: Option<TableId>,
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
        let table = match &join {
            Join::Seat { table, .. } | Join::Spectate { table, .. } => Some(*table),
            Join::Create(_) => None,
        };
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
        Opening { what, table, rx }
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
    Gbacw {
        app: Box<GbacwApp>,
        table: TableId,
        invite: Option<String>,
    },
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
            Joined::Gbacw(t) => {
                let table = t.table();
                let invite = t.invite().map(String::from);
                let names = GBACW_SEATS.iter().map(|n| (*n).to_string()).collect();
                OpenTable::Gbacw {
                    app: Box::new(GbacwApp::new(Session::new(Box::new(t), names))),
                    table,
                    invite,
                }
            }
        }
    }

    /// The seats' names now, seat 0 first.
    pub fn seat_names(&self) -> Vec<String> {
        match self {
            OpenTable::Sandbox { app, .. } => app.session.seat_names().to_vec(),
            OpenTable::Gbacw { app, .. } => app.session.seat_names().to_vec(),
        }
    }

    /// The seat this player holds at the table, if any.
    pub fn own_seat(&self) -> Option<muster_shared::SeatId> {
        let viewers = match self {
            OpenTable::Sandbox { app, .. } => app.session.viewers(),
            OpenTable::Gbacw { app, .. } => app.session.viewers(),
        };
        viewers.into_iter().find_map(|v| match v {
            muster_shared::Viewer::Seat(s) => Some(s),
            _ => None,
        })
    }

    /// Name the seats (`seat_words::table_seat_names`) at the table: its
    /// header, log and refusals.
    pub fn set_seat_names(&mut self, names: Vec<String>) {
        if self.seat_names() == names {
            return;
        }
        match self {
            OpenTable::Sandbox { app, .. } => app.session.set_seat_names(names),
            OpenTable::Gbacw { app, .. } => app.session.set_seat_names(names),
        }
    }

    pub fn table(&self) -> TableId {
        match self {
            OpenTable::Sandbox { table, .. } => *table,
            OpenTable::Gbacw { table, .. } => *table,
        }
    }

    pub fn invite(&self) -> Option<&str> {
        match self {
            OpenTable::Sandbox { invite, .. } => invite.as_deref(),
            OpenTable::Gbacw { invite, .. } => invite.as_deref(),
        }
    }

    /// Draw the table's UI below the lobby's bar.
    pub fn ui(&mut self, ui: &mut Ui) {
        match self {
            OpenTable::Sandbox { app, .. } => app.ui(ui),
            OpenTable::Gbacw { app, .. } => app.ui(ui),
        }
    }
}
