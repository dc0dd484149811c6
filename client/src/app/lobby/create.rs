//! The "create a table" form: game, scenario or battle, the battle's
//! scenario options and the rules readings, privacy, spectators and their
//! delay, turned into the protocol's `TableOptions`.

use egui::Ui;
use muster_shared::codec;
use muster_shared::engine::Ruleset;
use muster_shared::gbacw::battles::{BATTLES, for_players, title};
use muster_shared::gbacw::ruleset::{EDITION_001, Gbacw, GbacwConfig};
use muster_shared::gbacw::scenario::parse_scenario;
use muster_shared::gbacw::words::reading_words;
use muster_shared::protocol::TableOptions;
use muster_shared::sandbox::SandboxConfig;
use std::collections::{BTreeMap, BTreeSet};

/// The games a table can be created for.
pub const GAMES: [&str; 2] = ["gbacw", "sandbox"];

/// A drop-down of the battles offered to players, by their printed titles
/// (the table form and the new-event form both pick a battle this way).
pub fn battle_picker(
    ui: &mut Ui,
    salt: &str,
    battle: &mut String,
    width: Option<f32>,
) -> egui::Response {
    let mut combo = egui::ComboBox::from_id_salt(salt).selected_text(title(battle));
    if let Some(w) = width {
        combo = combo.width(w);
    }
    combo
        .show_ui(ui, |ui| {
            for b in for_players() {
                ui.selectable_value(battle, b.name.to_string(), title(b.name));
            }
        })
        .response
}

/// A game's name as printed for players.
pub fn game_title(game: &str) -> &str {
    match game {
        "gbacw" => "Great Battles of the American Civil War (SPI)",
        "sandbox" => "Sandbox: any counters, no rules enforced",
        other => other,
    }
}

/// The heading of the rules readings' boxes.
pub const READINGS_LABEL: &str = "Rules readings:";

/// Issue 18: the create form's take-back setting.
pub const TAKE_BACK_AGREEMENT: &str = "Take-backs need the other player's agreement";

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
    /// A GBACW table's scenario options as ticked, by the option's id; an
    /// option not named keeps the scenario's default. Only the chosen
    /// battle's options are sent.
    pub scenario_options: BTreeMap<String, bool>,
    /// The 001 readings (and named ambiguities) chosen, by name
    /// ([`EDITION_001`]); empty plays the 004 text.
    pub readings: BTreeSet<String>,
    /// The seat the creator takes once the table exists.
    pub side: SideChoice,
    /// Issue 18: a take-back needs the other player's agreement.
    pub take_back_needs_agreement: bool,
    /// Issue 18: a saved hot-seat game to carry on at the table.
    pub from_save: super::from_save::FromSave,
}

/// Which seat the creator of a table sits in (issue 18: "choose a side
/// or random when creating").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SideChoice {
    /// Seat 0 or 1: the battle's first or second side.
    #[default]
    First,
    Second,
    /// Either, drawn when the table is created.
    Random,
}

/// The accessible name of the side choice.
pub const SIDE_LABEL: &str = "Your side:";

/// The names of `battle`'s two sides, seat 0 first ("Union",
/// "Confederate"); the sandbox's seats are "first seat", "second seat".
pub fn side_names(game: &str, battle: &str) -> [String; 2] {
    (game == "gbacw")
        .then(|| muster_shared::gbacw::battles::side_names(battle))
        .flatten()
        .unwrap_or_else(|| ["First seat".into(), "Second seat".into()])
}

impl SideChoice {
    /// The seat to take: `coin` decides a random choice (a fresh random
    /// bit from the caller).
    pub fn seat(self, coin: bool) -> u8 {
        match self {
            SideChoice::First => 0,
            SideChoice::Second => 1,
            SideChoice::Random => u8::from(coin),
        }
    }
}

/// One option a battle's scenario file offers (`option` lines).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OfferedOption {
    pub id: String,
    /// What the box says: the option's name as the scenario file words
    /// it, without its case.
    pub label: String,
    /// The case, with its rulebook ("Corinth 30.5"): the box's tooltip.
    pub case: String,
    pub default_on: bool,
}

/// The rulebook a battle's own cases are in ("Cedar Mountain",
/// "Corinth"): its title up to the date.
fn rulebook(battle: &str) -> &str {
    let t = title(battle);
    t.split(',').next().unwrap_or(t).trim()
}

/// `name` without its case in brackets: "Heat (30.5, by agreement)" is
/// "Heat (by agreement)", "Rapid fire in a row fouls sooner (24.13)" is
/// "Rapid fire in a row fouls sooner" (the case goes in the tooltip).
fn without_case(name: &str, case: &str) -> String {
    let Some(open) = name.find('(') else {
        return name.to_string();
    };
    let Some(close) = name[open..].find(')').map(|c| open + c) else {
        return name.to_string();
    };
    let inside: Vec<&str> = name[open + 1..close]
        .split(',')
        .map(str::trim)
        .filter(|p| *p != case && !p.is_empty())
        .collect();
    let head = name[..open].trim_end();
    let tail = name[close + 1..].trim();
    let mut out = if inside.is_empty() {
        head.to_string()
    } else {
        format!("{head} ({})", inside.join(", "))
    };
    if !tail.is_empty() {
        out.push(' ');
        out.push_str(tail);
    }
    out
}

/// The options `battle`'s scenario offers, read from the scenario file
/// the binary carries (none for an unknown battle or a file that does not
/// parse: the server would refuse that table anyway).
pub fn battle_options(battle: &str) -> Vec<OfferedOption> {
    let Some(files) = BATTLES.iter().find(|b| b.name == battle) else {
        return Vec::new();
    };
    let Ok(scenario) = parse_scenario(files.scenario) else {
        return Vec::new();
    };
    scenario
        .options
        .iter()
        .map(|o| OfferedOption {
            id: o.id.0.clone(),
            label: without_case(&o.name, &o.case),
            case: format!("{} {}", rulebook(battle), o.case),
            default_on: o.default_on,
        })
        .collect()
}

impl Default for CreateForm {
    fn default() -> Self {
        CreateForm {
            game: "gbacw".into(),
            scenario: "Sandbox".into(),
            battle: "cedar_mountain".into(),
            private: false,
            spectators_allowed: true,
            spectator_delay: 0,
            scenario_options: BTreeMap::new(),
            readings: BTreeSet::new(),
            side: SideChoice::First,
            take_back_needs_agreement: true,
            from_save: Default::default(),
        }
    }
}

impl CreateForm {
    /// The options to send.
    pub fn options(&self) -> TableOptions {
        let continued = (self.game == "gbacw")
            .then_some(self.from_save.chosen.as_ref())
            .flatten();
        let (scenario, config) = if let Some(c) = continued {
            (
                c.config.battle.clone(),
                <Gbacw as Ruleset>::encode_config(&c.config),
            )
        } else if self.game == "gbacw" {
            let offered = battle_options(&self.battle);
            let config = GbacwConfig {
                battle: self.battle.clone(),
                readings_001: self.readings.clone(),
                scenario_options: self
                    .scenario_options
                    .iter()
                    .filter(|(id, _)| offered.iter().any(|o| o.id == **id))
                    .map(|(id, on)| (id.clone(), *on))
                    .collect(),
                continued: None,
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
            take_back_needs_agreement: self.take_back_needs_agreement,
        }
    }

    /// Draw the form; true when "Create table" was clicked.
    pub fn ui(&mut self, ui: &mut Ui, busy: bool) -> bool {
        egui::Grid::new("create_grid")
            .num_columns(2)
            .spacing([8.0, 6.0])
            .show(ui, |ui| {
                let game = ui.label("Game:");
                egui::ComboBox::from_id_salt("create_game")
                    .selected_text(game_title(&self.game))
                    .show_ui(ui, |ui| {
                        for g in GAMES {
                            ui.selectable_value(&mut self.game, g.to_string(), game_title(g));
                        }
                    })
                    .response
                    .labelled_by(game.id);
                ui.end_row();
                if self.game == "gbacw" {
                    self.from_save.ui(ui);
                }
                if let (true, Some(c)) = (self.game == "gbacw", &self.from_save.chosen) {
                    // The battle and its readings are the saved game's.
                    ui.label("Battle:");
                    ui.label(title(&c.config.battle));
                } else if self.game == "gbacw" {
                    let battle = ui.label("Battle:");
                    battle_picker(ui, "create_battle", &mut self.battle, None)
                        .labelled_by(battle.id);
                    ui.end_row();
                    let offered = battle_options(&self.battle);
                    if !offered.is_empty() {
                        ui.label("Scenario options:");
                        ui.vertical(|ui| {
                            for o in &offered {
                                let mut on = self
                                    .scenario_options
                                    .get(&o.id)
                                    .copied()
                                    .unwrap_or(o.default_on);
                                if ui
                                    .checkbox(&mut on, &o.label)
                                    .on_hover_text(&o.case)
                                    .changed()
                                {
                                    self.scenario_options.insert(o.id.clone(), on);
                                }
                            }
                        });
                        ui.end_row();
                    }
                    ui.label(READINGS_LABEL).on_hover_text(
                        "Cases the printings word differently, or that read two ways. \
                         Unticked, each is played as the later printing (004) reads it.",
                    );
                    ui.vertical(|ui| {
                        for (name, _, _) in EDITION_001 {
                            // A reading with no words yet is not offered
                            // (its name is not for players).
                            let Some(words) = reading_words(name) else {
                                continue;
                            };
                            let mut on = self.readings.contains(*name);
                            if ui
                                .checkbox(&mut on, words.label)
                                .on_hover_text(format!("{}: {}", words.case, words.explained))
                                .changed()
                            {
                                if on {
                                    self.readings.insert(name.to_string());
                                } else {
                                    self.readings.remove(*name);
                                }
                            }
                        }
                    });
                } else {
                    let label = ui.label("Name:");
                    ui.text_edit_singleline(&mut self.scenario)
                        .labelled_by(label.id);
                }
                ui.end_row();
                let battle = self
                    .from_save
                    .chosen
                    .as_ref()
                    .map_or(&self.battle, |c| &c.config.battle);
                let names = side_names(&self.game, battle);
                let words = |c: SideChoice| match c {
                    SideChoice::First => names[0].clone(),
                    SideChoice::Second => names[1].clone(),
                    SideChoice::Random => "Random".to_string(),
                };
                let side = ui.label(SIDE_LABEL);
                egui::ComboBox::from_id_salt("create_side")
                    .selected_text(words(self.side))
                    .show_ui(ui, |ui| {
                        for c in [SideChoice::First, SideChoice::Second, SideChoice::Random] {
                            ui.selectable_value(&mut self.side, c, words(c));
                        }
                    })
                    .response
                    .labelled_by(side.id);
                ui.end_row();
                ui.label("");
                ui.checkbox(&mut self.private, "Private (invite code)");
                ui.end_row();
                ui.label("");
                ui.checkbox(&mut self.spectators_allowed, "Spectators allowed");
                ui.end_row();
                ui.label("");
                ui.checkbox(&mut self.take_back_needs_agreement, TAKE_BACK_AGREEMENT)
                    .on_hover_text(
                        "A player may take back their own moves since the last roll or the \
                     last reveal of hidden information. Ticked, the other player is asked \
                     to agree first.",
                    );
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
        if let Some(p) = &self.from_save.problem {
            ui.label(egui::RichText::new(p).color(egui::Color32::from_rgb(0xe0, 0x8a, 0x00)));
        }
        ui.add_enabled(!busy, egui::Button::new("Create table"))
            .clicked()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_options_case_leaves_its_name_for_the_tooltip() {
        assert_eq!(
            without_case("Heat (30.5, by agreement)", "30.5"),
            "Heat (by agreement)"
        );
        assert_eq!(
            without_case("Rapid fire in a row fouls sooner (24.13)", "24.13"),
            "Rapid fire in a row fouls sooner"
        );
        assert_eq!(
            without_case("Union optional deployment", "26.3"),
            "Union optional deployment"
        );
        let heat = battle_options("corinth")
            .into_iter()
            .find(|o| o.id == "heat")
            .unwrap();
        assert_eq!(heat.case, "Corinth 30.5");
        assert_eq!(rulebook("cedar_mountain"), "Cedar Mountain");
    }
}
