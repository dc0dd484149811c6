//! The lobby's club events (issue 21): those you entered or direct, and
//! those open for anyone to register, as the server lists them
//! (`ClubRequest::Events`). Each opens its page (tables, standings, the
//! director's desk) in this window; an open one can be entered here, and
//! an invite-only one (listed to nobody else) with the invite code its
//! director handed out.

use egui::{Color32, RichText, Ui};
use muster_shared::protocol::club::{EventId, EventSummary};

/// The heading of the events list.
pub const EVENTS: &str = "Club events";

/// The button that opens an event's page.
pub fn open_label(e: &EventSummary) -> String {
    format!("Open {}", e.name)
}

/// The button that registers for an open event.
pub fn register_label(e: &EventSummary) -> String {
    format!("Register for {}", e.name)
}

/// What was clicked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventPick {
    Open(EventId),
    Register(EventId),
    /// Register with the invite code typed.
    Invite,
}

/// The invite code's field and button.
pub const INVITE_LABEL: &str = "Invite code for an event:";
pub const REGISTER_WITH_CODE: &str = "Register with the code";

/// Where the event is, in words: "registration open", "round 2 of 3",
/// "finished".
pub fn stage(e: &EventSummary) -> String {
    if e.finished {
        "finished".into()
    } else if e.round == 0 {
        if e.registration_open {
            "registration open".into()
        } else {
            "not started".into()
        }
    } else {
        format!("round {} of {}", e.round, e.rounds)
    }
}

/// Your part in it: "you direct it", "you entered", or nothing.
pub fn yours(e: &EventSummary) -> Option<&'static str> {
    match (e.director, e.entered) {
        (true, true) => Some("you direct it and play"),
        (true, false) => Some("you direct it"),
        (false, true) => Some("you entered"),
        (false, false) => None,
    }
}

/// Draw the list; a click, if any.
pub fn ui(ui: &mut Ui, events: &[EventSummary], invite: &mut String) -> Option<EventPick> {
    let mut pick = None;
    ui.horizontal_wrapped(|ui| {
        ui.strong(EVENTS);
        let l = ui.label(INVITE_LABEL);
        ui.add(
            egui::TextEdit::singleline(invite)
                .hint_text("3-5f2a9c01d4e7")
                .desired_width(140.0),
        )
        .labelled_by(l.id);
        if ui.button(REGISTER_WITH_CODE).clicked() {
            pick = Some(EventPick::Invite);
        }
    });
    if events.is_empty() {
        ui.separator();
        return pick;
    }
    egui::ScrollArea::vertical()
        .id_salt("lobby_events")
        .max_height(150.0)
        .show(ui, |ui| {
            egui::Grid::new("lobby_event_grid")
                .striped(true)
                .num_columns(4)
                .spacing([14.0, 4.0])
                .show(ui, |ui| {
                    for e in events {
                        if ui
                            .button(open_label(e))
                            .on_hover_text("The event's tables, standings and your games")
                            .clicked()
                        {
                            pick = Some(EventPick::Open(e.event));
                        }
                        let players = if e.players == 1 {
                            "1 player".to_string()
                        } else {
                            format!("{} players", e.players)
                        };
                        ui.label(format!(
                            "{} \u{b7} {} \u{b7} {players}",
                            e.scenario,
                            stage(e)
                        ));
                        match yours(e) {
                            Some(w) => ui
                                .label(RichText::new(w).color(Color32::from_rgb(0x60, 0xc0, 0xff))),
                            None => ui.label(""),
                        };
                        if e.registration_open && !e.entered && !e.invite_only {
                            if ui.button(register_label(e)).clicked() {
                                pick = Some(EventPick::Register(e.event));
                            }
                        } else {
                            ui.label("");
                        }
                        ui.end_row();
                    }
                });
        });
    ui.separator();
    pick
}
