//! The create-an-event form (issue 21), for a club's owner and directors:
//! the game and battle (or a battle for each round, each with its own
//! levels of victory), rounds, pairing, how sides are given, the time
//! control (a live bank with an increment per Player-Turn, or slow play
//! with a deadline per decision and vacation days), what a clock at zero
//! means, registration (open or by invite code), check-in, and the event
//! points per result — each of the battle's levels of victory (Cedar
//! Mountain 27.1, Corinth 31.33) mapped as the server maps them. Every
//! value has a sensible default and is checked before it is sent
//! ([`EventForm::settings`]).

use super::create::battle_picker;
use egui::{Color32, RichText, Ui};
use muster_shared::codec;
use muster_shared::gbacw::battles::{for_players, title, victory_levels};
use muster_shared::gbacw::ruleset::GbacwConfig;
use muster_shared::protocol::club::{
    AtZero, EventSettings, LevelPoints, PairingMethod, PointsTable, RoundScenario, SideAssignment,
    TimeControl,
};
use std::collections::BTreeMap;

/// The form's button.
pub const CREATE_EVENT: &str = "Create event";
pub const EVENT_NAME: &str = "Event name:";
/// The checkbox that gives each round its own battle.
pub const PER_ROUND: &str = "A battle for each round";

/// The battle picker of round `round` (1-based).
pub fn round_battle_label(round: usize) -> String {
    format!("Round {round}'s battle:")
}
/// The server's bounds (`server/src/club/event.rs`).
pub const MAX_NAME: usize = 200;
pub const MAX_ROUNDS: u8 = 30;
pub const MAX_VACATION_DAYS: u8 = 60;

/// How the event's clocks run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    None,
    /// A bank per side and an increment per Player-Turn.
    Live,
    /// A deadline per decision, a bank for the whole game, vacation days.
    Slow,
}

/// One level of victory and its points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    pub words: String,
    pub winner: u32,
    pub loser: u32,
}

#[derive(Clone, Debug)]
pub struct EventForm {
    pub name: String,
    pub battle: String,
    pub rounds: u8,
    pub pairing: PairingMethod,
    pub sides: SideAssignment,
    pub timing: Timing,
    /// Live: each side's bank in minutes and the increment in seconds.
    pub bank_minutes: u32,
    pub increment_secs: u32,
    /// Slow play: hours per decision, the bank in days, vacation days.
    pub decision_hours: u32,
    pub bank_days: u32,
    pub vacation_days: u8,
    pub at_zero: AtZero,
    pub invite_only: bool,
    pub check_in: bool,
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
    pub bye: u32,
    /// The battle's levels (for `levels_of`), strongest first.
    pub levels: Vec<Level>,
    levels_of: String,
    /// Each round plays its own battle (`round_battles`), not `battle`.
    pub per_round: bool,
    /// Round 1's battle first; as long as `rounds` while `per_round`.
    pub round_battles: Vec<String>,
    /// The levels and points of each battle a round plays.
    pub battle_levels: BTreeMap<String, Vec<Level>>,
    /// A create was sent and not yet answered.
    pub sending: bool,
    pub problem: Option<String>,
    /// `problem` is the form's own check (gone once the values are
    /// sound), not the server's refusal.
    pub problem_is_check: bool,
}

/// The default points of `battle`'s levels, strongest first: a plain win
/// is 3–0 below, the strongest level 4–0, the weakest 2–1 (the narrow
/// loser keeps a point), as the 16-player test's event maps them.
pub fn default_levels(battle: &str) -> Vec<Level> {
    let words = victory_levels(battle);
    let n = words.len();
    words
        .into_iter()
        .enumerate()
        .map(|(i, words)| {
            let weakest = i + 1 == n && n > 1;
            Level {
                words,
                winner: if i == 0 {
                    4
                } else if weakest {
                    2
                } else {
                    3
                },
                loser: u32::from(weakest),
            }
        })
        .collect()
}

impl EventForm {
    /// The form for a new event of `club` (its name in the event's).
    pub fn new(club: &str) -> Self {
        let battle = "cedar_mountain".to_string();
        EventForm {
            name: format!("{club} Swiss"),
            levels: default_levels(&battle),
            levels_of: battle.clone(),
            per_round: false,
            round_battles: Vec::new(),
            battle_levels: BTreeMap::new(),
            battle,
            rounds: 3,
            pairing: PairingMethod::Swiss,
            sides: SideAssignment::Balanced,
            timing: Timing::Live,
            bank_minutes: 120,
            increment_secs: 60,
            decision_hours: 24,
            bank_days: 14,
            vacation_days: 3,
            at_zero: AtZero::Loss,
            invite_only: false,
            check_in: true,
            win: 3,
            draw: 1,
            loss: 0,
            bye: 3,
            sending: false,
            problem: None,
            problem_is_check: false,
        }
    }

    /// The vacation days to set once the event exists (slow play only).
    pub fn vacation(&self) -> Option<u8> {
        (self.timing == Timing::Slow && self.vacation_days > 0).then_some(self.vacation_days)
    }

    /// The settings to send, or what is wrong in words. `seed` seeds the
    /// event's random choices.
    pub fn settings(&self, seed: u64) -> Result<EventSettings, String> {
        let name = self.name.trim();
        if name.is_empty() || name.len() > MAX_NAME || name.chars().any(char::is_control) {
            return Err(format!("An event's name has 1 to {MAX_NAME} characters."));
        }
        if self.rounds == 0 || self.rounds > MAX_ROUNDS {
            return Err(format!("An event has 1 to {MAX_ROUNDS} rounds."));
        }
        if !for_players().any(|b| b.name == self.battle) {
            return Err("Choose a battle.".into());
        }
        let time = match self.timing {
            Timing::None => None,
            Timing::Live => {
                if self.bank_minutes == 0 {
                    return Err("A live clock needs a bank of at least a minute.".into());
                }
                Some(TimeControl {
                    bank_secs: self.bank_minutes.saturating_mul(60),
                    increment_secs: self.increment_secs,
                    per_decision_secs: 0,
                    at_zero: self.at_zero,
                })
            }
            Timing::Slow => {
                if self.decision_hours == 0 || self.bank_days == 0 {
                    return Err(
                        "Slow play needs at least an hour per decision and a day in the bank."
                            .into(),
                    );
                }
                Some(TimeControl {
                    bank_secs: self.bank_days.saturating_mul(24 * 3600),
                    increment_secs: 0,
                    per_decision_secs: self.decision_hours.saturating_mul(3600),
                    at_zero: self.at_zero,
                })
            }
        };
        let config = |battle: &str| {
            codec::encode_infallible(&GbacwConfig {
                battle: battle.to_string(),
                ..GbacwConfig::default()
            })
        };
        let points = |levels: &[Level]| -> Vec<LevelPoints> {
            levels
                .iter()
                .map(|l| LevelPoints {
                    level: l.words.clone(),
                    winner: l.winner,
                    loser: l.loser,
                })
                .collect()
        };
        // A battle per round: round 1's is also the event's own (what the
        // lists name); the list is exactly as long as the rounds.
        let round_scenarios: Vec<RoundScenario> = if self.per_round {
            let rounds = self.battles_of_rounds();
            if let Some(r) = rounds
                .iter()
                .position(|b| !for_players().any(|x| x.name == *b))
            {
                return Err(format!("Choose round {}'s battle.", r + 1));
            }
            rounds
                .iter()
                .map(|b| RoundScenario {
                    scenario: scenario_words(b),
                    config: config(b),
                    levels: points(&self.levels_for(b)),
                })
                .collect()
        } else {
            Vec::new()
        };
        let first = match round_scenarios.first() {
            Some(r) => r.clone(),
            None => RoundScenario {
                scenario: scenario_words(&self.battle),
                config: config(&self.battle),
                levels: points(&self.levels),
            },
        };
        Ok(EventSettings {
            name: name.to_string(),
            ruleset: "gbacw".into(),
            scenario: first.scenario,
            config: first.config,
            rounds: self.rounds,
            pairing: self.pairing,
            sides: self.sides,
            invite_only: self.invite_only,
            check_in: self.check_in,
            time,
            points: PointsTable {
                win: self.win,
                draw: self.draw,
                loss: self.loss,
                bye: self.bye,
                levels: first.levels,
            },
            seed,
            round_scenarios,
        })
    }

    /// Each round's battle, round 1 first (`per_round`): as many as the
    /// rounds, a round not chosen yet playing the round before's.
    pub fn battles_of_rounds(&self) -> Vec<String> {
        let n = usize::from(self.rounds);
        let mut out: Vec<String> = self.round_battles.iter().take(n).cloned().collect();
        while out.len() < n {
            out.push(out.last().unwrap_or(&self.battle).clone());
        }
        out
    }

    /// The levels and points of `battle` as the form holds them.
    fn levels_for(&self, battle: &str) -> Vec<Level> {
        self.battle_levels
            .get(battle)
            .cloned()
            .unwrap_or_else(|| default_levels(battle))
    }

    /// Keep the per-round lists in step with the rounds and battles.
    fn sync_rounds(&mut self) {
        if !self.per_round {
            return;
        }
        self.round_battles = self.battles_of_rounds();
        // The single battle's levels as typed carry over to its rounds.
        if !self.battle_levels.contains_key(&self.battle) {
            self.battle_levels
                .insert(self.battle.clone(), self.levels.clone());
        }
        for b in &self.round_battles {
            if !self.battle_levels.contains_key(b) {
                self.battle_levels.insert(b.clone(), default_levels(b));
            }
        }
    }

    /// Draw the form for `club`; true when "Create event" was clicked.
    pub fn ui(&mut self, ui: &mut Ui, club: &str) -> bool {
        if self.levels_of != self.battle {
            self.levels = default_levels(&self.battle);
            self.levels_of = self.battle.clone();
        }
        self.sync_rounds();
        ui.heading(format!("New event of {club}"));
        ui.add_space(4.0);
        egui::ScrollArea::vertical()
            .id_salt("new_event_scroll")
            .max_height(ui.available_height() - 60.0)
            .show(ui, |ui| self.fields(ui));
        if self.problem_is_check && self.settings(0).is_ok() {
            self.problem = None;
            self.problem_is_check = false;
        }
        ui.separator();
        let go = ui
            .add_enabled(!self.sending, egui::Button::new(CREATE_EVENT))
            .clicked();
        if let Some(p) = &self.problem {
            ui.label(RichText::new(p).color(Color32::from_rgb(0xe0, 0x8a, 0x00)));
        }
        go && !self.sending
    }

    fn fields(&mut self, ui: &mut Ui) {
        egui::Grid::new("new_event_grid")
            .num_columns(2)
            .spacing([10.0, 8.0])
            .show(ui, |ui| {
                let l = ui.label(EVENT_NAME);
                ui.add(egui::TextEdit::singleline(&mut self.name).desired_width(320.0))
                    .labelled_by(l.id);
                ui.end_row();
                ui.label("Game:");
                ui.label("Great Battles of the American Civil War (SPI)");
                ui.end_row();
                let l = ui.label("Rounds:");
                ui.add(egui::DragValue::new(&mut self.rounds).range(1..=MAX_ROUNDS))
                    .labelled_by(l.id);
                ui.end_row();
                if self.per_round {
                    let n = usize::from(self.rounds).min(self.round_battles.len());
                    for (i, b) in self.round_battles.iter_mut().take(n).enumerate() {
                        let l = ui.label(round_battle_label(i + 1));
                        battle_picker(ui, &format!("new_event_battle_{i}"), b, Some(420.0))
                            .labelled_by(l.id);
                        ui.end_row();
                    }
                } else {
                    let l = ui.label("Battle:");
                    battle_picker(ui, "new_event_battle", &mut self.battle, Some(420.0))
                        .labelled_by(l.id);
                    ui.end_row();
                }
                ui.label("");
                ui.checkbox(&mut self.per_round, PER_ROUND).on_hover_text(
                    "Each round plays the battle chosen for it, announced with the event; \
                     every table of a round plays that round's battle",
                );
                ui.end_row();
                ui.label("Pairing:");
                ui.horizontal_wrapped(|ui| {
                    ui.radio_value(&mut self.pairing, PairingMethod::Swiss, "Swiss")
                        .on_hover_text(
                            "Players of equal score meet, nobody twice; a bye to the lowest",
                        );
                    ui.radio_value(&mut self.pairing, PairingMethod::RoundRobin, "Round robin")
                        .on_hover_text("Everybody meets everybody");
                    ui.radio_value(
                        &mut self.pairing,
                        PairingMethod::SingleElimination,
                        "Single elimination",
                    )
                    .on_hover_text("Winners go on; byes to the top seeds in the first round");
                });
                ui.end_row();
                ui.label("Sides:");
                ui.horizontal_wrapped(|ui| {
                    ui.radio_value(&mut self.sides, SideAssignment::Balanced, "Balanced")
                        .on_hover_text(
                            "The player who has played the first side less often takes it",
                        );
                    ui.radio_value(&mut self.sides, SideAssignment::Random, "Random")
                        .on_hover_text("A coin toss for each game");
                    ui.radio_value(&mut self.sides, SideAssignment::Bid, "By bid")
                        .on_hover_text(
                            "Players bid victory points for the side they want; the higher \
                             bid takes it and counts against that player's margin",
                        );
                });
                ui.end_row();
                ui.label("Time control:");
                ui.horizontal_wrapped(|ui| {
                    ui.radio_value(&mut self.timing, Timing::None, "No clock");
                    ui.radio_value(&mut self.timing, Timing::Live, "Live");
                    ui.radio_value(&mut self.timing, Timing::Slow, "Slow play");
                });
                ui.end_row();
                match self.timing {
                    Timing::None => {}
                    Timing::Live => {
                        let l = ui.label("Time bank per side:");
                        ui.add(
                            egui::DragValue::new(&mut self.bank_minutes)
                                .range(1..=24 * 60)
                                .suffix(" minutes"),
                        )
                        .labelled_by(l.id);
                        ui.end_row();
                        let l = ui.label("Added each Player-Turn:");
                        ui.add(
                            egui::DragValue::new(&mut self.increment_secs)
                                .range(0..=3600)
                                .suffix(" seconds"),
                        )
                        .labelled_by(l.id);
                        ui.end_row();
                    }
                    Timing::Slow => {
                        let l = ui.label("Longest time per decision:");
                        ui.add(
                            egui::DragValue::new(&mut self.decision_hours)
                                .range(1..=14 * 24)
                                .suffix(" hours"),
                        )
                        .labelled_by(l.id);
                        ui.end_row();
                        let l = ui.label("Time bank per side:");
                        ui.add(
                            egui::DragValue::new(&mut self.bank_days)
                                .range(1..=365)
                                .suffix(" days"),
                        )
                        .labelled_by(l.id);
                        ui.end_row();
                        let l = ui.label("Vacation days per player:");
                        ui.add(
                            egui::DragValue::new(&mut self.vacation_days)
                                .range(0..=MAX_VACATION_DAYS),
                        )
                        .labelled_by(l.id);
                        ui.end_row();
                    }
                }
                if self.timing != Timing::None {
                    ui.label("Out of time:");
                    ui.horizontal_wrapped(|ui| {
                        ui.radio_value(&mut self.at_zero, AtZero::Loss, "The game is lost");
                        ui.radio_value(
                            &mut self.at_zero,
                            AtZero::EngineDefaults,
                            "Play on with the default answers",
                        );
                    });
                    ui.end_row();
                }
                ui.label("Registration:");
                ui.checkbox(&mut self.invite_only, "By invite code only");
                ui.end_row();
                ui.label("Check-in:");
                ui.checkbox(
                    &mut self.check_in,
                    "Players check in; the first round pairs only those who did",
                );
                ui.end_row();
            });
        ui.add_space(6.0);
        ui.strong("Event points");
        // Each battle a round plays, in the order of the rounds, with its
        // own levels of victory (Cedar Mountain 27.1, Corinth 31.33).
        let mut battles: Vec<String> = Vec::new();
        if self.per_round {
            for b in &self.round_battles {
                if !battles.contains(b) {
                    battles.push(b.clone());
                }
            }
        }
        egui::Grid::new("new_event_points")
            .num_columns(3)
            .spacing([10.0, 6.0])
            .show(ui, |ui| {
                ui.label("");
                ui.label("winner");
                ui.label("loser");
                ui.end_row();
                if battles.is_empty() {
                    level_rows(ui, &mut self.levels, "");
                }
                for b in &battles {
                    if let Some(levels) = self.battle_levels.get_mut(b) {
                        ui.strong(short_title(b));
                        ui.end_row();
                        level_rows(ui, levels, &format!(" ({})", short_title(b)));
                    }
                }
                let l = ui.label("Any other win (resigned, on time):");
                ui.add(egui::DragValue::new(&mut self.win).range(0..=100))
                    .labelled_by(l.id);
                ui.add(egui::DragValue::new(&mut self.loss).range(0..=100))
                    .labelled_by(l.id);
                ui.end_row();
                let l = ui.label("Draw, each:");
                ui.add(egui::DragValue::new(&mut self.draw).range(0..=100))
                    .labelled_by(l.id);
                ui.end_row();
                let l = ui.label("Bye:");
                ui.add(egui::DragValue::new(&mut self.bye).range(0..=100))
                    .labelled_by(l.id);
                ui.end_row();
            });
    }
}

/// One row of points per level of victory; `whose` tells apart the
/// rows of two battles (" (Corinth)") for a reader of the screen.
fn level_rows(ui: &mut Ui, levels: &mut [Level], whose: &str) {
    for l in levels {
        let name = format!(
            "{} victory{whose}:",
            crate::app::event::words::sentence(&l.words)
        );
        let label = ui.label(&name);
        ui.add(egui::DragValue::new(&mut l.winner).range(0..=100))
            .labelled_by(label.id);
        ui.add(egui::DragValue::new(&mut l.loser).range(0..=100))
            .labelled_by(label.id);
        ui.end_row();
    }
}

/// A battle's title up to its date ("Corinth"), to head its levels.
pub fn short_title(battle: &str) -> &str {
    let t = title(battle);
    t.split(',').next().unwrap_or(t)
}

/// The scenario as the event's pages name it ("Cedar Mountain, 9 August
/// 1862").
pub fn scenario_words(battle: &str) -> String {
    title(battle).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_checks_its_values_and_maps_the_battles_levels() {
        let mut f = EventForm::new("Culpeper Wargamers");
        let s = f.settings(7).unwrap();
        assert_eq!(s.rounds, 3);
        assert_eq!(s.time.as_ref().unwrap().bank_secs, 7200);
        let levels: Vec<_> = s
            .points
            .levels
            .iter()
            .map(|l| (l.level.as_str(), l.winner, l.loser))
            .collect();
        assert_eq!(
            levels,
            [("strategic", 4, 0), ("tactical", 3, 0), ("marginal", 2, 1)]
        );
        f.name = "  ".into();
        assert!(f.settings(7).is_err());
        f.name = "Rapidan".into();
        f.timing = Timing::Slow;
        f.decision_hours = 0;
        assert!(f.settings(7).is_err());
        f.decision_hours = 24;
        let s = f.settings(7).unwrap();
        assert_eq!(s.time.unwrap().per_decision_secs, 24 * 3600);
        assert_eq!(f.vacation(), Some(3));
        assert!(s.round_scenarios.is_empty());
    }

    /// Issue 21: a battle for each round; a round not chosen plays the
    /// round before's, and each battle carries its own levels.
    #[test]
    fn a_battle_for_each_round_carries_its_own_levels() {
        let mut f = EventForm::new("Culpeper Wargamers");
        f.per_round = true;
        f.rounds = 3;
        f.round_battles = vec!["cedar_mountain".into(), "corinth".into()];
        f.sync_rounds();
        assert_eq!(f.round_battles, ["cedar_mountain", "corinth", "corinth"]);
        f.battle_levels.get_mut("corinth").unwrap()[0].winner = 6;
        let s = f.settings(7).unwrap();
        assert_eq!(s.round_scenarios.len(), 3);
        assert_eq!(s.scenario, title("cedar_mountain"));
        assert_eq!(s.round_scenarios[1].scenario, title("corinth"));
        let words = |i: usize| -> Vec<(String, u32)> {
            s.round_scenarios[i]
                .levels
                .iter()
                .map(|l| (l.level.clone(), l.winner))
                .collect()
        };
        assert_eq!(words(0)[0], ("strategic".to_string(), 4));
        assert_eq!(words(2)[0], ("decisive".to_string(), 6));
        assert_eq!(s.points.levels, s.round_scenarios[0].levels);
        f.round_battles[1] = "nowhere".into();
        assert_eq!(f.settings(7).unwrap_err(), "Choose round 2's battle.");
        f.rounds = 1;
        f.round_battles[0] = "corinth".into();
        assert_eq!(f.settings(7).unwrap().round_scenarios.len(), 1);
        assert_eq!(short_title("corinth"), "Corinth");
    }
}
