//! The chat panel: the table's messages on this client's channel (players
//! among players, spectators among spectators: the server keeps them
//! apart, so a spectator can never whisper to a player) and a line to
//! write in.

use super::narrate::Narrate;
use super::session::Session;
use egui::Ui;
use muster_shared::protocol::ChatChannel;

/// The send button's label.
pub const SEND: &str = "Send";
/// Most characters one message may have (the server's limit is 500 bytes).
const MAX_LEN: usize = 400;

/// The panel's draft line.
#[derive(Default)]
pub struct ChatPanel {
    pub draft: String,
}

impl ChatPanel {
    pub fn ui<R: Narrate>(&mut self, ui: &mut Ui, session: &mut Session<R>) {
        let channel = session.chat_channel();
        ui.strong(match channel {
            ChatChannel::Players => "Chat (players)",
            ChatChannel::Spectators => "Chat (spectators)",
        });
        egui::ScrollArea::vertical()
            .id_salt("chat_scroll")
            .max_height(140.0)
            .stick_to_bottom(true)
            .show(ui, |ui| {
                for line in &session.chat {
                    ui.label(format!("{}: {}", line.from, line.text));
                }
            });
        ui.horizontal(|ui| {
            // The line takes what the column has left beside the button,
            // so a narrow column never pushes "Send" out of its panel.
            let width = (ui.available_width() - 60.0).max(80.0);
            let edit = ui.add(
                egui::TextEdit::singleline(&mut self.draft)
                    .char_limit(MAX_LEN)
                    .desired_width(width)
                    .hint_text("say something"),
            );
            let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if (ui.button(SEND).clicked() || enter) && !self.draft.trim().is_empty() {
                session.say(std::mem::take(&mut self.draft).trim().to_string());
            }
        });
    }
}
