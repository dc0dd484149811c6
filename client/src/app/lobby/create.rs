//! The "create a table" form: game, scenario or battle, privacy,
//! spectators and their delay, turned into the protocol's `TableOptions`.

use egui::Ui;
use muster_shared::codec;
use muster_shared::gbacw::battles::BATTLES;
use muster_shared::gbacw::ruleset::GbacwConfig;
use muster_shared::protocol::TableOptions;
use muster_shared::sandbox::SandboxConfig;

/// The games a table can be created for.
pub const GAMES: [&str; 2] = ["sandbox", "gbacw"];

/// The largest delay offered (the server's default `max_spectator_delay`).
const MAX_DELAY: u32 = 1000;

#[derive(Clone, Debug)]
pub struct CreateForm {
    pub game: String,
    /// A sandbox table's name in the lobby.
    pub scenario: String,
    /// A GBACW table's battle, one of `BATTLES`.
    pub battle: String,
    pub private: bool,
    pub spectators_allowed: bool,
    /// Spectators see the game this many actions behind.
    pub spectator_delay: u32,
}

impl Default for CreateForm {
    fn default() -> Self {
        CreateForm {
            game: "sandbox".into(),
            scenario: "Sandbox".into(),
            battle: "test".into(),
            private: false,
            spectators_allowed: true,
            spectator_delay: 0,
        }
    }
}

impl CreateForm {
    /// The options to send.
    pub fn options(&self) -> TableOptions {
        let (scenario, config) = if self.game == "gbacw" {
            let config = GbacwConfig {
                battle: self.battle.clone(),
                ..GbacwConfig::default()
            };
            (self.battle.clone(), codec::encode_infallible(&config))
        } else {
            let name = self.scenario.trim();
            let name = if name.is_empty() { "Sandbox" } else { name };
            (
                name.to_string(),
                codec::encode_infallible(&SandboxConfig::default()),
            )
        };
        TableOptions {
            ruleset: self.game.clone(),
            scenario,
            config,
            private: self.private,
            spectators_allowed: self.spectators_allowed,
            spectator_delay: self.spectator_delay.min(MAX_DELAY),
        }
    }

    /// Draw the form; true when "Create table" was clicked.
    pub fn ui(&mut self, ui: &mut Ui, busy: bool) -> bool {
        egui::Grid::new("create_grid")
            .num_columns(2)
            .spacing([8.0, 6.0])
            .show(ui, |ui| {
                ui.label("Game:");
                egui::ComboBox::from_id_salt("create_game")
                    .selected_text(self.game.clone())
                    .show_ui(ui, |ui| {
                        for g in GAMES {
                            ui.selectable_value(&mut self.game, g.to_string(), g);
                        }
                    });
                ui.end_row();
                if self.game == "gbacw" {
                    ui.label("Battle:");
                    egui::ComboBox::from_id_salt("create_battle")
                        .selected_text(self.battle.clone())
                        .show_ui(ui, |ui| {
                            for b in BATTLES {
                                ui.selectable_value(&mut self.battle, b.name.to_string(), b.name);
                            }
                        });
                } else {
                    let label = ui.label("Name:");
                    ui.text_edit_singleline(&mut self.scenario)
                        .labelled_by(label.id);
                }
                ui.end_row();
                ui.label("");
                ui.checkbox(&mut self.private, "Private (invite code)");
                ui.end_row();
                ui.label("");
                ui.checkbox(&mut self.spectators_allowed, "Spectators allowed");
                ui.end_row();
                ui.label("Spectator delay:");
                ui.add_enabled(
                    self.spectators_allowed,
                    egui::DragValue::new(&mut self.spectator_delay)
                        .range(0..=MAX_DELAY)
                        .suffix(" actions"),
                );
                ui.end_row();
            });
        ui.add_enabled(!busy, egui::Button::new("Create table"))
            .clicked()
    }
}
