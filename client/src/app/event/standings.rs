//! The standings: rank, points, then the tiebreaks in the order the
//! server applies them (the opponents' points, Buchholz; then the sum of
//! victory-point margins), and games played. Equal on all three share a
//! rank.

use egui::{RichText, Ui};
use muster_shared::protocol::club::EventView;

pub const COLUMNS: [&str; 6] = [
    "Rank",
    "Player",
    "Points",
    "Opponents' points",
    "Victory-point margin",
    "Games",
];

pub fn ui(ui: &mut Ui, view: &EventView) {
    egui::CentralPanel::default().show(ui, |ui| {
        let playing = view.tables.iter().any(|c| c.result.is_none());
        ui.heading(match (view.round, playing) {
            (0, _) => "Standings (no round played yet)".to_string(),
            (r, true) => {
                format!("Standings during round {r} (games still playing count nothing yet)")
            }
            (r, false) => format!("Standings after round {r}"),
        });
        ui.weak(
            "Ranked by points; ties broken by the opponents' points (Buchholz: the sum of the \
             points of everyone you met), then by the sum of your victory-point margins. \
             Players equal on all three share a rank.",
        );
        ui.add_space(8.0);
        if view.standings.is_empty() {
            ui.label("Nobody is registered yet.");
            return;
        }
        egui::ScrollArea::vertical()
            .id_salt("standings_scroll")
            .show(ui, |ui| {
                egui::Grid::new("standings")
                    .num_columns(COLUMNS.len())
                    .striped(true)
                    .spacing([28.0, 6.0])
                    .show(ui, |ui| {
                        for c in COLUMNS {
                            ui.label(RichText::new(c).strong());
                        }
                        ui.end_row();
                        for r in &view.standings {
                            ui.label(r.rank.to_string());
                            ui.label(&r.name);
                            ui.label(RichText::new(r.points.to_string()).strong());
                            ui.label(r.buchholz.to_string());
                            ui.label(if r.vp_margin > 0 {
                                format!("+{}", r.vp_margin)
                            } else {
                                r.vp_margin.to_string()
                            });
                            ui.label(r.games.to_string());
                            ui.end_row();
                        }
                    });
            });
    });
}
