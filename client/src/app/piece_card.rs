//! The selected piece, in words: everything the counter only hints at.

use super::session::{Session, describe_position};
use egui::Ui;
use muster_shared::sandbox::PieceId;

pub fn ui(ui: &mut Ui, session: &Session, selected: Option<PieceId>) {
    ui.heading("Selected");
    let piece = selected.and_then(|id| session.state()?.pieces.get(&id));
    let Some(p) = piece else {
        ui.weak("Click a counter. Drag to move it (Shift-drag: the whole stack), drop it on another to stack, right-click for more. F flips the selected counter, Delete removes it.");
        return;
    };
    egui::Grid::new("piece_card").num_columns(2).show(ui, |ui| {
        ui.label("Label");
        ui.strong(&p.label);
        ui.end_row();
        ui.label("Owner");
        ui.label(
            p.owner
                .map_or_else(|| "Neutral".into(), |s| session.seat_name(s)),
        );
        ui.end_row();
        ui.label("Where");
        ui.label(describe_position(&p.at));
        ui.end_row();
        ui.label("Side up");
        ui.label(if p.face_up { "front" } else { "back" });
        ui.end_row();
        if p.hidden {
            ui.label("Hidden");
            ui.label("only you can see it");
            ui.end_row();
        }
        ui.label("Markers");
        ui.label(if p.markers.is_empty() {
            "none".into()
        } else {
            p.markers.join(", ")
        });
        ui.end_row();
        if let Some(state) = session.state() {
            let stack = state.stack_at(p.at);
            if stack.len() > 1 {
                let pos = stack.iter().position(|q| q.id == p.id).map_or(0, |i| i + 1);
                ui.label("Stack");
                ui.label(format!("{pos} of {} from the bottom", stack.len()));
                ui.end_row();
            }
        }
    });
}
