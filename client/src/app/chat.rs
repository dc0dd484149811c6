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

/// How each line's speaker is shown: the name, with a short tag of the
/// identity (`Grant #12`) only when another speaker's name looks the same
/// (issue 20: two "Grant"s are told apart).
pub fn speakers(lines: &[super::session::ChatLine]) -> Vec<String> {
    let people: Vec<(u64, &str)> = lines.iter().map(|l| (l.user.0, l.from.as_str())).collect();
    muster_shared::display_name::labels(&people)
}

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
                for (line, who) in session.chat.iter().zip(speakers(&session.chat)) {
                    ui.label(format!("{who}: {}", line.text));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::session::ChatLine;
    use muster_shared::protocol::UserId;

    fn line(user: u64, from: &str) -> ChatLine {
        ChatLine {
            channel: ChatChannel::Players,
            from: from.into(),
            text: "hello".into(),
            user: UserId(user),
        }
    }

    #[test]
    fn a_tag_only_when_two_speakers_look_alike() {
        let plain = [line(1, "Grant"), line(2, "Lee"), line(1, "Grant")];
        assert_eq!(speakers(&plain), ["Grant", "Lee", "Grant"]);
        // A second identity whose name reads "Grant" (Cyrillic a).
        let alike = [line(1, "Grant"), line(7, "Gr\u{0430}nt"), line(2, "Lee")];
        assert_eq!(speakers(&alike), ["Grant #1", "Gr\u{0430}nt #7", "Lee"]);
    }
}
