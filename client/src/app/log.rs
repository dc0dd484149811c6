//! The log panel: what happened at the table, as this viewer saw it, with
//! entry numbers, newest at the bottom.

use super::narrate::Narrate;
use super::session::{LineKind, Session};
use egui::{Color32, RichText, Ui};

pub fn ui<R: Narrate>(ui: &mut Ui, session: &Session<R>) {
    let Some(book) = session.book() else {
        ui.weak("Waiting for the table…");
        return;
    };
    egui::ScrollArea::vertical()
        .id_salt("log")
        .stick_to_bottom(true)
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for line in &book.log {
                ui.horizontal(|ui| {
                    let seq = line
                        .seq
                        .map_or_else(|| "    ".to_string(), |s| format!("{s:>4}"));
                    ui.label(RichText::new(seq).monospace().weak());
                    let text = RichText::new(&line.text);
                    ui.label(match line.kind {
                        LineKind::Event => text,
                        LineKind::Roll => text.strong(),
                        LineKind::Refused => text.color(Color32::from_rgb(0xe0, 0x8a, 0x00)),
                        LineKind::Problem => text.color(Color32::RED).strong(),
                    });
                });
            }
        });
}
