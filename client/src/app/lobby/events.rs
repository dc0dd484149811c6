//! The lobby's club events (issue 21): those you entered or direct, and
//! those open for anyone to register, as the server lists them
//! (`ClubRequest::Events`). Each opens its page (tables, standings, the
//! director's desk) in this window; an open one can be entered here.

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
}

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
pub fn ui(ui: &mut Ui, events: &[EventSummary]) -> Option<EventPick> {
    if events.is_empty() {
        return None;
    }
    let mut pick = None;
    ui.strong(EVENTS);
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
