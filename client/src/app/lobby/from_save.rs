//! Issue 18: a game begun at one machine (hot seat, "Saved games") is
//! carried on at a server table. The create form's "Start from" lists the
//! games saved in this machine's saved-games folder by their titles in
//! words; choosing one makes the table continue it: the battle and its
//! readings are the saved game's, and the table starts where it stood
//! (the engine's side: `muster_shared::gbacw::ruleset::continued`).
//!
//! The saved game is checked here when chosen, as the server will check
//! it (replayed through the rules and every roll's proof), so a refusal
//! ("the saved game holds hidden information …") shows in the form
//! before anything is sent.

use crate::app::saved::{self, Listed, SavedGame};
use egui::Ui;
use muster_shared::engine::Ruleset;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwConfig, continued};
use std::path::PathBuf;

/// The row's label and the first choice.
pub const START_FROM: &str = "Start from:";
pub const BEGINNING: &str = "The battle's beginning";

/// A saved game chosen to continue.
#[derive(Clone, Debug)]
pub struct Chosen {
    /// Its title in words, as the saved-games list shows it.
    pub title: String,
    /// Its file: two saved games may have the same title.
    pub path: PathBuf,
    /// The table's config: the saved game's, carrying its log.
    pub config: GbacwConfig,
}

/// The "Start from" choice of the create form.
#[derive(Clone, Debug, Default)]
pub struct FromSave {
    /// The saved-games folder (`saves/` in the client's config folder);
    /// `None`: nothing offered.
    pub dir: Option<PathBuf>,
    /// The folder's games, read when the form is first drawn and again
    /// each time the list is opened.
    listed: Option<Vec<Listed>>,
    pub chosen: Option<Chosen>,
    /// The list was open last frame (to read the folder once per opening).
    was_open: bool,
    /// Why the last saved game chosen cannot be continued, in words.
    pub problem: Option<String>,
}

impl FromSave {
    /// Offering the games saved in `dir`.
    pub fn at(dir: PathBuf) -> Self {
        FromSave {
            dir: Some(dir),
            ..FromSave::default()
        }
    }

    /// The row: a drop-down of the beginning and every saved game. Drawn
    /// only when the folder holds a saved game.
    pub fn ui(&mut self, ui: &mut Ui) {
        let Some(dir) = &self.dir else { return };
        let listed = match &self.listed {
            Some(l) => l.clone(),
            None => {
                let l = saved::list(dir);
                // A chosen game no longer in the folder is not carried on
                // unseen: the row may even be gone with it.
                if let Some(c) = &self.chosen
                    && !l.iter().any(|g| g.path == c.path)
                {
                    self.chosen = None;
                }
                self.listed = Some(l.clone());
                l
            }
        };
        if listed.is_empty() {
            return;
        }
        let label = ui.label(START_FROM);
        let shown = self
            .chosen
            .as_ref()
            .map_or(BEGINNING.to_string(), |c| c.title.clone());
        let mut pick: Option<Option<Listed>> = None;
        // Titles are long ("Corinth, 3–4 October 1862: … — Game-Turn 4,
        // Union Retreat Before Melee Phase"): the chosen one is cut to the
        // form's width (whole in its tooltip), so the panel keeps its size.
        let combo = egui::ComboBox::from_id_salt("create_from_save")
            .selected_text(shown.clone())
            .width(240.0)
            .truncate()
            .show_ui(ui, |ui| {
                if ui
                    .selectable_label(self.chosen.is_none(), BEGINNING)
                    .clicked()
                {
                    pick = Some(None);
                }
                for l in &listed {
                    let on = self.chosen.as_ref().is_some_and(|c| c.path == l.path);
                    if ui.selectable_label(on, &l.title).clicked() {
                        pick = Some(Some(l.clone()));
                    }
                }
            });
        // Opening the list reads the folder again (once per opening), so a
        // game saved while the form stood open is offered a frame later.
        let open = combo.inner.is_some();
        if open && !self.was_open {
            self.listed = None;
        }
        self.was_open = open;
        combo.response.labelled_by(label.id).on_hover_text(shown);
        ui.end_row();
        match pick {
            Some(None) => {
                self.chosen = None;
                self.problem = None;
            }
            Some(Some(l)) => match check(&l) {
                Ok(c) => {
                    self.chosen = Some(c);
                    self.problem = None;
                }
                Err(e) => {
                    self.chosen = None;
                    self.problem = Some(e);
                }
            },
            None => {}
        }
    }
}

/// Read `l` and check it can be continued, as the server will.
fn check(l: &Listed) -> Result<Chosen, String> {
    let game = SavedGame::read(&l.path).map_err(|e| e.to_string())?;
    let refused = |e: muster_shared::engine::RuleError| {
        format!("{} cannot be continued: {}", l.title, e.message)
    };
    let config = continued::config_for(&game.log).map_err(refused)?;
    Gbacw::new(&config).map_err(refused)?;
    // The request that creates the table must fit a client message,
    // with room for the rest of the table's options.
    let room = muster_shared::codec::MAX_CLIENT_MSG - 1024;
    if Gbacw::encode_config(&config).len() > room {
        return Err(format!(
            "{} is too long a game to send to a server (up to {} KiB)",
            l.title,
            room / 1024
        ));
    }
    Ok(Chosen {
        title: l.title.clone(),
        path: l.path.clone(),
        config,
    })
}
