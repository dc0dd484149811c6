//! Issue 18: "Save this game" and "Continue a saved game" at a hot-seat
//! table. The "Saved games" button in the top bar opens a window: the
//! game as it stands is saved into the saved-games folder (the client's
//! config folder, `saves/`), and each game saved there is listed by its
//! title in words ("Continue: Corinth, 3–4 October 1862: the historical
//! scenario (30.0) — Game-Turn 3, Confederate Movement Phase"). A click
//! continues it at this window's table, with both seats, as it stood.
//!
//! What a saved game holds and how it is checked: [`crate::app::saved`].

use crate::app::local::LocalTable;
use crate::app::saved::{self, Listed, SavedGame};
use crate::app::session::Session;
use egui::Ui;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwState};
use muster_shared::gbacw::words;
use std::path::PathBuf;

/// The top bar's button and the window's title.
pub const SAVED_GAMES: &str = "Saved games";
/// Save the game as it stands.
pub const SAVE: &str = "Save this game";
/// The first word of each saved game's button.
pub const CONTINUE: &str = "Continue";

/// The saved-games window and its folder.
#[derive(Default)]
pub struct SavesPanel {
    /// Where saved games are kept; `None`: no saving here (a table on a
    /// server, or a test that does not save).
    pub dir: Option<PathBuf>,
    /// The window is open.
    pub open: bool,
    /// The folder's games, read when the window opens and after a save.
    listed: Option<Vec<Listed>>,
    /// What the last save or continuation did, in words.
    pub note: Option<String>,
}

/// A saved game's title: the battle as printed, the Game-Turn, who acts
/// and in which phase.
pub fn title(rules: &Gbacw, state: &GbacwState) -> String {
    let battle = muster_shared::gbacw::battles::title(&rules.config().battle);
    if state.over {
        return format!("{battle} — the game is over");
    }
    let step = super::turn::step_words(rules, state);
    let who = match rules.acting_seat(state) {
        Some(seat) => format!("{} ", words::side_name(rules, rules.side_of(seat))),
        None => String::new(),
    };
    format!("{battle} — Game-Turn {}, {who}{step}", state.clock.turn)
}

/// The button that continues `title`.
pub fn continue_label(title: &str) -> String {
    format!("{CONTINUE}: {title}")
}

impl SavesPanel {
    /// The window, when open. Returns the session of a saved game the
    /// player chose to continue.
    pub fn ui(&mut self, ui: &Ui, session: &Session<Gbacw>) -> Option<Session<Gbacw>> {
        let dir = self.dir.clone()?;
        if !self.open {
            self.listed = None;
            return None;
        }
        let listed = self.listed.get_or_insert_with(|| saved::list(&dir)).clone();
        let mut open = true;
        let mut chosen = None;
        let mut save = false;
        egui::Window::new(SAVED_GAMES)
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .default_width(520.0)
            .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 80.0))
            .show(ui.ctx(), |ui| {
                ui.label(format!(
                    "Saved games are kept in {}. A saved game continues here with both seats, \
                     as it stood.",
                    dir.display()
                ));
                ui.add_space(4.0);
                save = ui
                    .add_enabled(session.state().is_some(), egui::Button::new(SAVE))
                    .clicked();
                ui.separator();
                if listed.is_empty() {
                    ui.weak("No saved games yet.");
                } else {
                    ui.label("Continue a saved game:");
                    egui::ScrollArea::vertical()
                        .id_salt("saved_games")
                        .max_height(300.0)
                        .show(ui, |ui| {
                            for l in &listed {
                                if ui.button(continue_label(&l.title)).clicked() {
                                    chosen = Some(l.clone());
                                }
                            }
                        });
                }
                if let Some(note) = &self.note {
                    ui.separator();
                    ui.label(note);
                }
            });
        if !open {
            self.open = false;
        }
        if save {
            self.note = Some(self.save(session, &dir));
            self.listed = None;
        }
        let chosen = chosen?;
        match continued(&chosen) {
            Ok(next) => {
                self.note = Some(format!("Continued: {}", chosen.title));
                self.open = false;
                Some(next)
            }
            Err(e) => {
                self.note = Some(e);
                None
            }
        }
    }

    /// Save the game; the words say where, or why not.
    fn save(&self, session: &Session<Gbacw>, dir: &std::path::Path) -> String {
        let (Some(rules), Some(state)) = (session.ruleset(), session.state()) else {
            return "Nothing to save yet.".into();
        };
        let t = title(rules, state);
        match session.save(&t).map(|g| g.write_into(dir)) {
            Some(Ok(_)) => format!("Saved: {t}"),
            Some(Err(e)) => e.to_string(),
            None => "Only a game at a table on this computer can be saved here.".into(),
        }
    }
}

/// The table of a saved game, followed by both seats, as it stood.
fn continued(l: &Listed) -> Result<Session<Gbacw>, String> {
    let game = SavedGame::read(&l.path).map_err(|e| e.to_string())?;
    let table = LocalTable::<Gbacw>::from_saved(&game).map_err(|e| e.to_string())?;
    let names = game
        .log
        .header
        .seats
        .iter()
        .map(|s| s.name.clone())
        .collect();
    Ok(Session::new(Box::new(table), names))
}
