//! Corinth 29.2: the Confederate player's secret assault plan, plotted in
//! a panel instead of taking the default.
//!
//! While the plot is the pending decision and this client acts for the
//! plotting seat, the panel edits a draft: each division's Assault Area
//! and Game-Turn of entry (29.21, 29.22, 29.24), the division each 29.26
//! counter comes with, the area each cavalry counter waits at off the map
//! (29.27), and the division announced to the Union (29.23). Every edit is
//! checked at once by `Gbacw::check_plot`, the very code that refuses a
//! `PlotAssault` at the table, so the refusal shown is the table's own and
//! "Send" is disabled while there is one. The Assault Areas are marked on
//! the map (`area_overlay.rs`), the one last edited brighter.
//!
//! The salt is drawn from the operating system's random generator when the
//! plan is sent and kept here, with the commitment `blake3(plan ‖ salt)`
//! worked out by the same function the engine uses: the panel shows both,
//! and whether the table recorded that commitment. Once the plan is opened
//! (every division in, or the game over) any viewer's panel checks the
//! opened plan and salt against the commitment logged at the start.

use super::area_overlay::AreaMark;
use super::narrate::counter_name;
use egui::{Color32, RichText, Ui, WidgetInfo};
use muster_shared::SeatId;
use muster_shared::engine::Ruleset;
use muster_shared::gbacw::map::HexNumber;
use muster_shared::gbacw::oob::CounterId;
use muster_shared::gbacw::ruleset::plan::{AssaultPlan, commitment};
use muster_shared::gbacw::ruleset::{Gbacw, GbacwAction, GbacwState};

/// The panel's heading.
pub const PLOT_HEADING: &str = "Plot the assault (Corinth 29.2)";
/// The button that sends the plan.
pub const SEND_PLAN: &str = "Send the plan";
/// The button that goes back to the table's default plan.
pub const RESET_PLAN: &str = "Start again from the default plan";
/// The accessible name of the 29.23 announcement's combo box.
pub const ANNOUNCE: &str = "Announced to the Union (29.23)";
/// The button that copies the salt to the clipboard.
pub const COPY_SALT: &str = "Copy the salt";
/// The line shown while the draft keeps the rules.
pub const PLAN_OK: &str = "The plan keeps 29.21-29.27.";

/// Accessible name of a division's Assault Area combo box.
pub fn area_label(division: &str) -> String {
    format!("{division}: Assault Area")
}

/// Accessible name of a division's entry Game-Turn combo box.
pub fn turn_label(division: &str) -> String {
    format!("{division}: entry Game-Turn")
}

/// Accessible name of a 29.26 counter's division combo box.
pub fn attach_label(counter: &str) -> String {
    format!("{counter}: enters with")
}

/// Accessible name of a cavalry counter's area combo box.
pub fn cavalry_label(counter: &str) -> String {
    format!("{counter}: waits off-map at")
}

/// An area's short name for the panel ("Area C" for "Assault Area C").
pub fn area_name(rules: &Gbacw, area: &CounterId) -> String {
    rules
        .game()
        .scenario
        .area(&area.0)
        .map(|a| a.name.trim_start_matches("Assault ").to_string())
        .unwrap_or_else(|| area.to_string())
}

/// The option text of an entry Game-Turn.
pub fn turn_name(turn: u16) -> String {
    format!("Game-Turn {turn}")
}

/// The plan in words, for the log and the prompt's default.
pub fn describe_plan(rules: &Gbacw, plan: &AssaultPlan, announce: Option<&CounterId>) -> String {
    let divisions = plan
        .divisions
        .iter()
        .map(|d| {
            format!(
                "{} through {} on Game-Turn {}",
                counter_name(rules, &d.division),
                area_name(rules, &d.area),
                d.turn
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    match announce {
        Some(a) => format!("{divisions}; {} announced", counter_name(rules, a)),
        None => divisions,
    }
}

/// The plan as drafted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draft {
    pub plan: AssaultPlan,
    pub announce: CounterId,
}

/// What was sent, kept so that the player can check the table's record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SentPlan {
    /// The seat that sent it: only that seat's view shows it (a hot-seat
    /// client also serves the other seat, which must not see it).
    pub seat: SeatId,
    /// With its divisions sorted, as the commitment hashes it.
    pub plan: AssaultPlan,
    pub salt: [u8; 32],
    pub commitment: [u8; 32],
}

/// The plotting panel's state.
#[derive(Default)]
pub struct PlotPanel {
    draft: Option<Draft>,
    /// The area last chosen in the panel: marked brighter and brought
    /// into view.
    focus: Option<CounterId>,
    /// Whether the editor was shown last frame (the map marks the areas
    /// only then).
    editing: bool,
    /// Why the draft would be refused, from the engine's check.
    refusal: Option<String>,
    /// The operating system's generator failed: nothing can be sent.
    salt_error: Option<String>,
    sent: Option<SentPlan>,
}

/// What a frame of the panel asks of the table view.
#[derive(Default)]
pub struct PlotOutput {
    pub action: Option<GbacwAction>,
    /// A hex to bring into view (the area just chosen).
    pub centre_on: Option<HexNumber>,
}

impl PlotPanel {
    /// The draft being edited, if the editor has been shown.
    pub fn draft(&self) -> Option<&Draft> {
        self.draft.as_ref()
    }

    /// The draft's refusal (the engine's case and reason), if any.
    pub fn refusal(&self) -> Option<&str> {
        self.refusal.as_deref()
    }

    /// The plan sent from this client, with its salt and commitment.
    pub fn sent(&self) -> Option<&SentPlan> {
        self.sent.as_ref()
    }

    /// The area last chosen.
    pub fn focus(&self) -> Option<&CounterId> {
        self.focus.as_ref()
    }

    /// The panel: the editor for the plotting seat while the plot is
    /// pending, then the plan's commitment and what has been revealed.
    /// `seat` is the seat this viewer acts for (`None` for a spectator or
    /// a replay).
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        rules: &Gbacw,
        state: &GbacwState,
        seat: Option<SeatId>,
    ) -> PlotOutput {
        let mut out = PlotOutput::default();
        self.editing = false;
        if rules.game().scenario.plan.is_none() {
            return out;
        }
        // Corinth 29.5: the solitaire version rolls the plan instead of
        // plotting it; `solitaire.rs` shows the roll and what it brought.
        if rules
            .game()
            .scenario
            .hook(muster_shared::gbacw::scenario::HookKind::Solitaire)
            .is_some()
        {
            return out;
        }
        match (rules.plot_seat(state), seat) {
            (Some(plotter), Some(s)) if plotter == s => {
                ui.separator();
                out = self.editor(ui, rules, state, s);
                self.editing = true;
            }
            (Some(_), _) => {}
            (None, _) => {
                ui.separator();
                self.plotted(ui, rules, state);
            }
        }
        if let Some(sent) = self.sent.as_ref().filter(|s| Some(s.seat) == seat) {
            sent_ui(ui, sent, state);
        }
        out
    }

    /// The Assault Areas to mark on the map: while the plan is edited,
    /// all seven with the draft's divisions; while the Union then sets up
    /// (29.4: nothing within 4 hexes of any of them, 29.41), all seven with
    /// the announced division's (29.23), for every viewer.
    pub fn marks(&self, rules: &Gbacw, state: &GbacwState) -> Vec<AreaMark> {
        let Some(spec) = &rules.game().scenario.plan else {
            return Vec::new();
        };
        let (divisions, focus) = match (&self.draft, &state.progress.assault) {
            (Some(draft), _) if self.editing => (draft.plan.divisions.clone(), self.focus.clone()),
            (_, Some(a)) if state.progress.setting_up.is_some() => {
                (vec![a.announced.clone()], None)
            }
            _ => return Vec::new(),
        };
        let announced = !self.editing;
        let game = rules.game();
        spec.areas
            .iter()
            .filter_map(|(area, _)| {
                let a = game.scenario.area(&area.0)?;
                let using: Vec<String> = divisions
                    .iter()
                    .filter(|d| d.area == *area)
                    .map(|d| format!("{}, GT {}", counter_name(rules, &d.division), d.turn))
                    .collect();
                let name = area_name(rules, area);
                Some(AreaMark {
                    area: area.clone(),
                    hexes: game.scenario.area_hexes(&game.map.grid, a),
                    label: match (using.is_empty(), announced) {
                        (true, _) => name,
                        (false, false) => format!("{name}: {}", using.join("; ")),
                        (false, true) => format!("{name}: {} (announced)", using.join("; ")),
                    },
                    focused: focus.as_ref() == Some(area),
                    used: !using.is_empty(),
                })
            })
            .collect()
    }

    fn editor(
        &mut self,
        ui: &mut Ui,
        rules: &Gbacw,
        state: &GbacwState,
        seat: SeatId,
    ) -> PlotOutput {
        let mut out = PlotOutput::default();
        let Some(spec) = rules.game().scenario.plan.clone() else {
            return out;
        };
        if self.draft.is_none() {
            self.reset(rules, state);
        }
        let Some(mut draft) = self.draft.clone() else {
            ui.weak("this battle offers no default plan to start from");
            return out;
        };
        ui.heading(PLOT_HEADING);
        ui.weak(
            "Secret: the table logs only a hash of the plan (its commitment) until your \
             divisions arrive; the Union is told the division you announce.",
        );
        let name = |c: &CounterId| counter_name(rules, c);
        let mut chosen_area: Option<CounterId> = None;

        ui.strong("Divisions (29.21, 29.22, 29.24)");
        egui::Grid::new("plot_divisions")
            .num_columns(3)
            .show(ui, |ui| {
                for d in &mut draft.plan.divisions {
                    let division = name(&d.division);
                    ui.label(&division);
                    let before = d.area.clone();
                    combo(
                        ui,
                        ("plot_area", &d.division),
                        &area_label(&division),
                        area_name(rules, &d.area),
                        |ui| {
                            for (area, from) in &spec.areas {
                                let text = if *from > 1 {
                                    format!("{} (from GT {from})", area_name(rules, area))
                                } else {
                                    area_name(rules, area)
                                };
                                ui.selectable_value(&mut d.area, area.clone(), text);
                            }
                        },
                    );
                    if d.area != before {
                        chosen_area = Some(d.area.clone());
                    }
                    combo(
                        ui,
                        ("plot_turn", &d.division),
                        &turn_label(&division),
                        turn_name(d.turn),
                        |ui| {
                            for t in 1..=spec.latest {
                                ui.selectable_value(&mut d.turn, t, turn_name(t));
                            }
                        },
                    );
                    ui.end_row();
                }
            });

        ui.strong("With a division (29.26)");
        egui::Grid::new("plot_attached")
            .num_columns(2)
            .show(ui, |ui| {
                for (counter, division) in draft.plan.attached.iter_mut() {
                    let c = name(counter);
                    ui.label(&c);
                    combo(
                        ui,
                        ("plot_attach", counter),
                        &attach_label(&c),
                        name(division),
                        |ui| {
                            for to in &spec.attach_to {
                                ui.selectable_value(division, to.clone(), name(to));
                            }
                        },
                    );
                    ui.end_row();
                }
            });

        ui.strong("Cavalry held off the map (29.27)");
        let used: Vec<CounterId> = {
            let mut v: Vec<CounterId> = Vec::new();
            for d in &draft.plan.divisions {
                if !v.contains(&d.area) {
                    v.push(d.area.clone());
                }
            }
            v
        };
        egui::Grid::new("plot_cavalry")
            .num_columns(2)
            .show(ui, |ui| {
                for (counter, area) in draft.plan.cavalry.iter_mut() {
                    let c = name(counter);
                    ui.label(&c);
                    let before = area.clone();
                    combo(
                        ui,
                        ("plot_cavalry", counter),
                        &cavalry_label(&c),
                        area_name(rules, area),
                        |ui| {
                            for a in &used {
                                ui.selectable_value(area, a.clone(), area_name(rules, a));
                            }
                        },
                    );
                    if *area != before {
                        chosen_area = Some(area.clone());
                    }
                    ui.end_row();
                }
            });

        ui.horizontal(|ui| {
            let first: Vec<CounterId> = draft
                .plan
                .divisions
                .iter()
                .filter(|d| d.turn == 1)
                .map(|d| d.division.clone())
                .collect();
            ui.label("Announce:");
            combo(ui, "plot_announce", ANNOUNCE, name(&draft.announce), |ui| {
                for d in &first {
                    ui.selectable_value(&mut draft.announce, d.clone(), name(d));
                }
            });
        });

        // The engine's own check, on every frame's draft.
        self.refusal = rules
            .check_plot(state, seat, &draft.plan, &draft.announce)
            .err()
            .map(|e| format!("{}: {}", e.rule, readable(rules, &e.message)));
        match &self.refusal {
            Some(why) => {
                ui.label(RichText::new(why).color(Color32::from_rgb(0xff, 0x60, 0x60)));
            }
            None => {
                ui.label(RichText::new(PLAN_OK).color(Color32::from_rgb(0x60, 0xd0, 0x60)));
            }
        }
        if let Some(e) = &self.salt_error {
            ui.label(RichText::new(e).color(Color32::from_rgb(0xff, 0x60, 0x60)));
        }
        ui.horizontal(|ui| {
            if ui
                .add_enabled(self.refusal.is_none(), egui::Button::new(SEND_PLAN))
                .on_hover_text(
                    "Sends the plan with a fresh random salt; the log shows only its hash.",
                )
                .on_disabled_hover_text("The plan breaks a rule: see above.")
                .clicked()
            {
                out.action = self.send(seat, &draft);
            }
            if ui.button(RESET_PLAN).clicked() {
                self.reset(rules, state);
                return;
            }
            self.draft = Some(draft.clone());
        });

        if let Some(area) = chosen_area {
            out.centre_on = rules
                .game()
                .scenario
                .area(&area.0)
                .map(|a| rules.game().scenario.area_hexes(&rules.game().map.grid, a))
                .and_then(|h| h.get(h.len() / 2).copied());
            self.focus = Some(area);
        }
        out
    }

    /// The draft back to the table's default (the pending decision's).
    fn reset(&mut self, rules: &Gbacw, state: &GbacwState) {
        self.draft = rules
            .pending(state)
            .into_iter()
            .find_map(|d| match d.default {
                GbacwAction::PlotAssault { plan, announce, .. } => Some(Draft { plan, announce }),
                _ => None,
            });
        self.focus = self
            .draft
            .as_ref()
            .and_then(|d| d.plan.division(&d.announce))
            .map(|d| d.area.clone());
    }

    /// A fresh salt from the operating system, the commitment kept, the
    /// action to send.
    fn send(&mut self, seat: SeatId, draft: &Draft) -> Option<GbacwAction> {
        let mut salt = [0u8; 32];
        if let Err(e) = getrandom::fill(&mut salt) {
            self.salt_error = Some(format!(
                "no salt: the operating system's random generator failed ({e}); nothing sent"
            ));
            return None;
        }
        self.salt_error = None;
        let mut sorted = draft.plan.clone();
        sorted.divisions.sort();
        self.sent = Some(SentPlan {
            seat,
            commitment: commitment(&sorted, &salt),
            plan: sorted,
            salt,
        });
        Some(GbacwAction::PlotAssault {
            plan: draft.plan.clone(),
            salt,
            announce: draft.announce.clone(),
        })
    }

    /// The plan once plotted, as this viewer may see it.
    fn plotted(&self, ui: &mut Ui, rules: &Gbacw, state: &GbacwState) {
        let Some(a) = &state.progress.assault else {
            return;
        };
        ui.strong("The assault plan (Corinth 29.2)");
        ui.label(format!("commitment {}", short(&a.commitment)))
            .on_hover_text(hex::encode(a.commitment));
        ui.label(format!(
            "announced (29.23): {} through {} on Game-Turn {}",
            counter_name(rules, &a.announced.division),
            area_name(rules, &a.announced.area),
            a.announced.turn
        ));
        for d in &a.revealed {
            ui.label(format!(
                "revealed: {} through {} on Game-Turn {}",
                counter_name(rules, &d.division),
                area_name(rules, &d.area),
                d.turn
            ));
        }
        match (&a.plan, &a.salt) {
            (Some(plan), Some(salt)) => {
                let opened = if a.opened { "opened" } else { "yours" };
                ui.label(format!(
                    "plan ({opened}): {}",
                    describe_plan(rules, plan, None)
                ));
                if commitment(plan, salt) == a.commitment {
                    ui.label(
                        RichText::new("✔ the plan and salt match the commitment")
                            .color(Color32::from_rgb(0x60, 0xd0, 0x60)),
                    );
                } else {
                    ui.label(
                        RichText::new("⚠ the plan and salt do NOT match the commitment")
                            .strong()
                            .color(Color32::from_rgb(0xff, 0x40, 0x40)),
                    );
                }
            }
            _ => {
                ui.weak("the rest of the plan is secret until the divisions arrive");
            }
        }
    }
}

/// The plan this client sent: its commitment and salt, and whether the
/// table logged that commitment.
fn sent_ui(ui: &mut Ui, sent: &SentPlan, state: &GbacwState) {
    ui.label(format!("sent: commitment {}", hex::encode(sent.commitment)));
    ui.horizontal_wrapped(|ui| {
        ui.label(format!("your salt (keep it): {}", hex::encode(sent.salt)));
        if ui
            .button(COPY_SALT)
            .on_hover_text(
                "With the plan, it lets anyone check the commitment once the plan is opened.",
            )
            .clicked()
        {
            ui.ctx().copy_text(hex::encode(sent.salt));
        }
    });
    match &state.progress.assault {
        None => {
            ui.weak("waiting for the table");
        }
        Some(a) if a.commitment == sent.commitment => {
            ui.label(
                RichText::new("✔ the table logged this commitment")
                    .color(Color32::from_rgb(0x60, 0xd0, 0x60)),
            );
        }
        Some(_) => {
            ui.label(
                RichText::new("the table logged another plan (the default, on time-out?)")
                    .color(Color32::from_rgb(0xe0, 0x8a, 0x00)),
            );
        }
    }
}

/// The engine's refusal names areas and counters by id ("assault-g may be
/// used from Game-Turn 5"): the panel writes them as the panel does
/// ("Area G ...", "Lovell's ...").
pub fn readable(rules: &Gbacw, message: &str) -> String {
    let Some(spec) = &rules.game().scenario.plan else {
        return message.to_string();
    };
    let name_of = |token: &str| -> Option<String> {
        let id = CounterId(token.to_string());
        if spec.areas.iter().any(|(a, _)| *a == id) {
            return Some(area_name(rules, &id));
        }
        let known = spec
            .divisions
            .iter()
            .chain(&spec.attach)
            .chain(&spec.cavalry);
        known
            .clone()
            .any(|c| *c == id)
            .then(|| counter_name(rules, &id))
    };
    let mut out = String::new();
    let mut token = String::new();
    let flush = |token: &mut String, out: &mut String| {
        out.push_str(&name_of(token).unwrap_or_else(|| token.clone()));
        token.clear();
    };
    for ch in message.chars() {
        if ch.is_alphanumeric() || ch == '-' {
            token.push(ch);
        } else {
            flush(&mut token, &mut out);
            out.push(ch);
        }
    }
    flush(&mut token, &mut out);
    out
}

/// The first 16 hex digits, for a line that fits the panel.
fn short(h: &[u8; 32]) -> String {
    format!("{}…", hex::encode(&h[..8]))
}

/// A combo box named for assistive technology (and the kittests) by
/// `name`, with `selected` as its text.
fn combo(
    ui: &mut Ui,
    id: impl std::hash::Hash + std::fmt::Debug,
    name: &str,
    selected: String,
    options: impl FnOnce(&mut Ui),
) {
    let response = egui::ComboBox::from_id_salt(id)
        .selected_text(selected.clone())
        .show_ui(ui, options)
        .response;
    let enabled = ui.is_enabled();
    response.widget_info(|| {
        let mut info = WidgetInfo::labeled(egui::Role::ComboBox, enabled, name);
        info.current_text_value = Some(selected.clone());
        info
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use muster_shared::gbacw::ruleset::GbacwConfig;

    fn corinth_free() -> Gbacw {
        Gbacw::new(&GbacwConfig {
            battle: "corinth_free".into(),
            ..GbacwConfig::default()
        })
        .unwrap()
    }

    #[test]
    fn corinth_29_2_refusals_name_areas_and_counters_as_the_panel_does() {
        let rules = corinth_free();
        assert_eq!(
            readable(
                &rules,
                "if any division is held back, lovell's must be one of them"
            ),
            "if any division is held back, Lovell's must be one of them"
        );
        assert_eq!(
            readable(&rules, "price goes with hebert, maury (not lovell)"),
            "Price goes with Hebert, Maury (not Lovell)"
        );
        assert_eq!(
            readable(&rules, "assault-g may be used from Game-Turn 5"),
            "Area G may be used from Game-Turn 5"
        );
        // Words that are no id of the plan stay as they are.
        assert_eq!(readable(&rules, "plot each once"), "plot each once");
    }
}
