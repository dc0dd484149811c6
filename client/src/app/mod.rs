//! The desktop app, one file per panel or idea, as in egui's demo app:
//!
//! - [`link`]: [`TableLink`], the door to a table; [`local`]: [`LocalTable`],
//!   a table hosted in this process (hot-seat, offline, UI tests).
//! - [`session`]: followers per viewer, the log and the verified rolls.
//! - [`board`], [`hexgrid`], [`counter`]: the board, its geometry, counters.
//! - [`palette`], [`dice`], [`log`], [`seats`], [`piece_card`]: the panels.
//!
//! The whole app draws into one [`egui::Ui`], so the binary, the UI tests
//! and the frame-time harness all run exactly the same code.

pub mod board;
pub mod camera;
pub mod chat;
pub mod counter;
pub mod dice;
// Club events: the event page, the status cards, standings, the director's desk.
pub mod event;
pub mod hexgrid;
pub mod link;
pub mod local;
// The lobby (connect, table list, create/join/watch); see lobby/mod.rs.
pub mod lobby;
pub mod log;
pub mod narrate;
pub mod net_table;
pub mod palette;
pub mod piece_card;
// The lobby's and the event page's shared way back after a dropped connection.
pub mod reconnect;
pub mod replay;
// Saved hot-seat games: "Save this game", "Continue a saved game".
pub mod saved;
// One name per seat everywhere: "Union (Meade)".
pub mod seat_words;
pub mod seats;
pub mod session;
pub mod stacks;
// Telling the player their move came: attention, title, desktop notification.
pub mod your_move;
// The GBACW table (its own panels; shares the session, camera, grid, stacks).
pub mod gbacw;

pub use board::BoardView;
pub use link::{LinkError, LinkEvent, TableLink};
pub use local::LocalTable;
pub use net_table::{Join, NetTable, SignIn};
pub use session::Session;

use egui::{Color32, RichText, Ui};
use muster_shared::SeatId;
use muster_shared::engine::RuleError;
use muster_shared::sandbox::{Sandbox, SandboxConfig};

/// The app: one table and its panels.
pub struct MusterApp {
    pub session: Session,
    pub board: BoardView,
    pub palette: palette::Palette,
    pub dice: dice::DicePanel,
    pub chat: chat::ChatPanel,
    /// The replay scrubber: live, or an earlier entry shown read-only.
    pub replay: replay::Replay<Sandbox>,
    waker_set: bool,
}

impl MusterApp {
    pub fn new(session: Session) -> Self {
        MusterApp {
            session,
            board: BoardView::default(),
            palette: palette::Palette::default(),
            dice: dice::DicePanel::default(),
            chat: chat::ChatPanel::default(),
            replay: replay::Replay::default(),
            waker_set: false,
        }
    }

    /// A hot-seat sandbox table hosted in this process.
    pub fn hot_seat(config: &SandboxConfig, names: &[&str]) -> Result<Self, RuleError> {
        let table = LocalTable::<Sandbox>::new(config, names)?;
        let names = names.iter().map(|n| (*n).to_string()).collect();
        Ok(Self::new(Session::new(Box::new(table), names)))
    }

    /// Draw one frame.
    pub fn ui(&mut self, ui: &mut Ui) {
        if !self.waker_set {
            let ctx = ui.ctx().clone();
            self.session
                .set_waker(std::sync::Arc::new(move || ctx.request_repaint()));
            self.waker_set = true;
        }
        if self.session.pump() {
            ui.ctx().request_repaint();
        }
        // Issue 18: take back this seat's last action (the button or Z),
        // as at a GBACW table; the sandbox has no rules that make an
        // action final, so what the follower can undo is offered.
        let may_take_back = self.replay.is_live() && self.session.can_take_back();
        if may_take_back
            && !ui.ctx().egui_wants_keyboard_input()
            && ui.input(|i| i.key_pressed(egui::Key::Z))
        {
            self.take_back();
        }
        if let Some(ask) = self.session.take_back_asked.clone()
            && let Some(agree) = gbacw::take_back_ask_ui(ui, &ask.name)
        {
            self.session.answer_take_back(agree);
        }
        egui::Panel::top("top").show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.strong("Muster");
                ui.weak("sandbox");
                ui.separator();
                seats::ui(ui, &mut self.session);
                ui.separator();
                // Always drawn (greyed when not allowed): the bar's
                // height never changes with it.
                let tb = ui
                    .add_enabled(may_take_back, egui::Button::new(gbacw::TAKE_BACK))
                    .on_hover_text(
                        "Take back your last action (Z): allowed for your own actions since \
                         the last roll. At a table on a server the other player may be asked \
                         first.",
                    );
                if tb.clicked() {
                    self.take_back();
                }
                ui.separator();
                match &self.session.last_refusal {
                    Some(text) => {
                        ui.label(RichText::new(text).color(Color32::from_rgb(0xe0, 0x8a, 0x00)));
                    }
                    None if self.session.take_back_waiting => {
                        ui.weak("waiting for the other player to agree to the take-back");
                    }
                    None => {
                        ui.weak(self.session.describe_link());
                    }
                }
            });
            self.replay.ui(ui, &self.session);
            if let Some(note) = self.replay.note(&self.session) {
                ui.weak(note);
            }
        });
        egui::Panel::right("side")
            .default_size(280.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("side_scroll")
                    .show(ui, |ui| {
                        let seats: Vec<(SeatId, String)> = self
                            .session
                            .viewers()
                            .into_iter()
                            .filter_map(|v| match v {
                                muster_shared::Viewer::Seat(s) => {
                                    Some((s, self.session.seat_name(s)))
                                }
                                _ => None,
                            })
                            .collect();
                        self.palette.ui(ui, &seats, self.session.acting_seat());
                        ui.separator();
                        piece_card::ui(ui, &self.session, self.board.selected());
                        ui.separator();
                        self.dice.ui(ui, &mut self.session, self.replay.at());
                        ui.separator();
                        self.chat.ui(ui, &mut self.session);
                    });
            });
        egui::Panel::bottom("log")
            .resizable(true)
            .default_size(140.0)
            .show(ui, |ui| {
                log::ui(ui, &self.session, self.replay.at());
            });
        egui::CentralPanel::no_frame().show(ui, |ui| {
            let live = self.replay.is_live();
            let Some(view) = self.replay.view(&self.session) else {
                ui.centered_and_justified(|ui| ui.label("Joining the table…"));
                return;
            };
            let (state, rules) = (view.state(), view.ruleset());
            let names = |s: SeatId| self.session.seat_name(s);
            let out = self.board.show(
                ui,
                board::BoardInput {
                    state,
                    config: rules.config(),
                    // A replay is read-only: no seat acts in the past.
                    seat: self.session.acting_seat().filter(|_| live),
                    placing: self.palette.placing().filter(|_| live),
                    seat_names: &names,
                },
            );
            if !live {
                return;
            }
            if out.placed {
                self.palette.advance();
            }
            for action in out.actions {
                self.session.act(action);
            }
        });
    }
}

impl MusterApp {
    /// Take back the acting seat's last action; the selection (perhaps a
    /// piece the action placed) is dropped.
    fn take_back(&mut self) {
        self.board.select(None);
        self.session.take_back();
    }
}

impl eframe::App for MusterApp {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        MusterApp::ui(self, ui);
    }
}
