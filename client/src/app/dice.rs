//! The dice panel: roll N dice of S sides, and every roll this viewer has
//! received, with its faces and whether it verified. A roll that fails its
//! check turns the whole panel red: a player must never miss that.
//! While the replay scrubber shows an earlier entry, the list holds the
//! rolls up to it (the later ones hidden and counted); the red banner
//! stays live, because a bad roll must never be missed.

use super::narrate::Narrate;
use super::session::{RollRecord, Session};
use egui::{Color32, RichText, Ui};

pub const VERIFIED_TEXT: &str = "✔ verified";
pub const WARNING_TEXT: &str = "⚠ DICE CHECK FAILED";
/// Said under the rolls while replaying, after how many it hides.
pub const LATER_ROLLS_HIDDEN: &str = "later rolls hidden while replaying";

pub struct DicePanel {
    pub count: u8,
    pub sides: u16,
    pub note: String,
}

impl Default for DicePanel {
    fn default() -> Self {
        DicePanel {
            count: 2,
            sides: 6,
            note: String::new(),
        }
    }
}

const COMMON_SIDES: [u16; 7] = [4, 6, 8, 10, 12, 20, 100];

/// The loud red banner when any roll failed its check, for any ruleset.
pub fn alarm<R: Narrate>(ui: &mut Ui, session: &Session<R>) {
    let bad = session.bad_roll_count();
    if bad > 0 {
        egui::Frame::new()
                .fill(Color32::from_rgb(0xb0, 0x00, 0x20))
                .inner_margin(6.0)
                .corner_radius(4.0)
                .show(ui, |ui| {
                    ui.label(RichText::new(format!("{WARNING_TEXT}: {bad} roll(s) did not verify")).strong().color(Color32::WHITE).size(16.0));
                    ui.label(RichText::new("Someone's dice were not what the committed chains give. See the log for which and why.").color(Color32::WHITE));
                });
    }
}

impl DicePanel {
    /// The sandbox's dice; `upto` is the entry the replay shows (`None`
    /// live). A replay is read-only: no rolling from the past.
    pub fn ui(&mut self, ui: &mut Ui, session: &mut Session, upto: Option<u64>) {
        ui.heading("Dice");
        alarm(ui, session);
        let can_roll = session.acting_seat().is_some() && upto.is_none();
        ui.add_enabled_ui(can_roll, |ui| {
            ui.horizontal(|ui| {
                ui.add(egui::DragValue::new(&mut self.count).range(1..=20))
                    .on_hover_text("how many dice");
                let d = ui.label("d");
                egui::ComboBox::from_id_salt("sides")
                    .width(50.0)
                    .selected_text(self.sides.to_string())
                    .show_ui(ui, |ui| {
                        for s in COMMON_SIDES {
                            ui.selectable_value(&mut self.sides, s, s.to_string());
                        }
                    })
                    .response
                    .labelled_by(d.id)
                    .on_hover_text("sides per die");
                if ui.button("Roll").clicked() {
                    session.act(muster_shared::sandbox::SandboxAction::Roll {
                        count: self.count,
                        sides: self.sides,
                        note: self.note.trim().to_string(),
                    });
                }
            });
            ui.add(
                egui::TextEdit::singleline(&mut self.note)
                    .hint_text("what for (optional)")
                    .desired_width(f32::INFINITY),
            );
        });
        ui.separator();
        rolls(ui, session, upto);
    }
}

/// The rolls of entries up to `upto` (all of them when `None`, live).
pub fn rolls_up_to(rolls: &[RollRecord], upto: Option<u64>) -> Vec<&RollRecord> {
    rolls
        .iter()
        .filter(|r| upto.is_none_or(|at| r.seq <= at))
        .collect()
}

/// Every roll this viewer received, newest first, each with its faces and
/// its verdict: a green tick when the follower re-derived exactly these
/// dice from the committed chains, a red cross (with every reason on
/// hover) otherwise. Any ruleset. `upto` is the entry the replay shows
/// (`None` live): only the rolls up to it are listed.
pub fn rolls<R: Narrate>(ui: &mut Ui, session: &Session<R>, upto: Option<u64>) {
    let Some(book) = session.book() else {
        return;
    };
    let shown = rolls_up_to(&book.rolls, upto);
    if shown.is_empty() {
        ui.weak("No rolls yet. Every roll is derived from hash chains committed before it; this client checks each one.");
    }
    let hidden = book.rolls.len() - shown.len();
    if hidden > 0 {
        ui.weak(format!("{hidden} {LATER_ROLLS_HIDDEN}"));
    }
    egui::ScrollArea::vertical().id_salt("rolls").max_height(260.0).show(ui, |ui| {
            for r in shown.iter().rev() {
                ui.horizontal_wrapped(|ui| {
                    ui.label(RichText::new(format!("#{}", r.roll_index)).weak());
                    ui.label(format!("{} {}d{}", session.seat_name(r.seat), r.dice.len(), r.sides));
                    for d in &r.dice {
                        ui.label(RichText::new(format!(" {d} ")).monospace().strong().background_color(Color32::from_gray(230)).color(Color32::BLACK));
                    }
                    if r.dice.len() > 1 {
                        let total: u32 = r.dice.iter().map(|d| u32::from(*d)).sum();
                        ui.label(format!("= {total}"));
                    }
                    match &r.verdict {
                        Ok(()) => {
                            ui.label(RichText::new(VERIFIED_TEXT).color(Color32::from_rgb(0x1e, 0x9e, 0x3c)).strong())
                                .on_hover_text(format!("step {}: the server's and the roller's chain links check out and re-derive exactly these dice", r.seq));
                        }
                        Err(why) => {
                            ui.label(RichText::new("❌ FAILED").color(Color32::RED).strong()).on_hover_text(why.join("\n"));
                        }
                    }
                    if !r.note.is_empty() {
                        ui.label(RichText::new(&r.note).italics());
                    }
                });
            }
        });
}
