//! The palette: make new pieces. Fill in a label and an owner, arm it, and
//! every click on the board places one. A trailing number in the label
//! counts up after each placement, so "Brigade 1", "Brigade 2", … come
//! quickly when setting up an order of battle.

use super::board::PlaceSpec;
use egui::Ui;
use muster_shared::SeatId;

pub struct Palette {
    pub spec: PlaceSpec,
    pub armed: bool,
}

impl Default for Palette {
    fn default() -> Self {
        Palette {
            spec: PlaceSpec {
                label: "Brigade 1".into(),
                owner: Some(SeatId(0)),
                face_up: true,
                hidden: false,
            },
            armed: false,
        }
    }
}

impl Palette {
    /// What to place on the next click, if armed.
    pub fn placing(&self) -> Option<&PlaceSpec> {
        self.armed.then_some(&self.spec)
    }

    /// After a placement: count the label on so the next piece differs.
    pub fn advance(&mut self) {
        self.spec.label = next_label(&self.spec.label);
    }

    pub fn ui(&mut self, ui: &mut Ui, seats: &[(SeatId, String)], acting: Option<SeatId>) {
        ui.heading("New piece");
        if acting.is_none() {
            ui.weak("Spectators cannot place pieces.");
            self.armed = false;
            return;
        }
        ui.horizontal(|ui| {
            let name = ui.label("Label");
            ui.add(egui::TextEdit::singleline(&mut self.spec.label).desired_width(120.0))
                .labelled_by(name.id);
        });
        let owner_name = |o: Option<SeatId>| {
            o.and_then(|s| seats.iter().find(|(x, _)| *x == s).map(|(_, n)| n.clone()))
                .unwrap_or_else(|| "Neutral".into())
        };
        egui::ComboBox::from_label("Owner")
            .selected_text(owner_name(self.spec.owner))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut self.spec.owner, None, "Neutral");
                for (s, n) in seats {
                    ui.selectable_value(&mut self.spec.owner, Some(*s), n);
                }
            });
        let mut face_down = !self.spec.face_up;
        ui.checkbox(&mut face_down, "Face down");
        self.spec.face_up = !face_down;
        // Only your own pieces can be hidden (from everyone but you).
        let can_hide = self.spec.owner.is_some() && self.spec.owner == acting;
        if !can_hide {
            self.spec.hidden = false;
        }
        ui.add_enabled(
            can_hide,
            egui::Checkbox::new(&mut self.spec.hidden, "Hidden from others"),
        );
        let text = if self.armed {
            "Placing… (Esc to stop)"
        } else {
            "Place on board"
        };
        if ui.selectable_label(self.armed, text).clicked() {
            self.armed = !self.armed;
        }
        if self.armed {
            ui.weak("Click a hex to place; right-click for more.");
            if ui.input(|i| i.key_pressed(egui::Key::Escape)) {
                self.armed = false;
            }
        }
    }
}

/// "Brigade 9" → "Brigade 10"; labels without a trailing number stay as they are.
fn next_label(label: &str) -> String {
    let digits = label.len() - label.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return label.to_string();
    }
    let (stem, num) = label.split_at(label.len() - digits);
    match num.parse::<u64>() {
        Ok(n) => format!("{stem}{}", n.saturating_add(1)),
        Err(_) => label.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn labels_count_up() {
        assert_eq!(super::next_label("Brigade 9"), "Brigade 10");
        assert_eq!(super::next_label("HQ"), "HQ");
        assert_eq!(super::next_label("7"), "8");
    }
}
