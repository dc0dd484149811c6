//! The seat switcher for hot-seat play: whose eyes the table is seen
//! through, and so whose hands move the pieces. Each seat sees only what
//! the rules let it see (its own hidden pieces, nobody else's), because
//! each has its own follower fed with its own redacted deltas.

use super::counter::seat_colour;
use super::narrate::Narrate;
use super::session::Session;
use egui::{RichText, Ui};
use muster_shared::Viewer;
use muster_shared::sandbox::TurnOrder;

/// The sandbox's switcher, with whose turn it is when turns alternate.
pub fn ui(ui: &mut Ui, session: &mut Session) {
    viewer_switch(ui, session);
    let alternating = session
        .ruleset()
        .is_some_and(|r| r.config().turn_order == TurnOrder::Alternating);
    if alternating && let Some(state) = session.state() {
        let turn = state.turn;
        ui.separator();
        ui.label(format!("{} to play", session.seat_name(turn)));
        if session.acting_seat() == Some(turn) && ui.button("End turn").clicked() {
            session.act(muster_shared::sandbox::SandboxAction::EndTurn);
        }
    }
}

/// "View as:" and a button per viewer this client serves, for any ruleset.
pub fn viewer_switch<R: Narrate>(ui: &mut Ui, session: &mut Session<R>) {
    ui.label("View as:");
    for viewer in session.viewers() {
        let name = session.viewer_name(viewer);
        // The seat's counter colour as a swatch; the name stays in the
        // theme's text colour so it reads on the selection highlight.
        let swatch = match viewer {
            Viewer::Seat(s) => RichText::new("■").color(seat_colour(Some(s))),
            _ => RichText::new("👁"),
        };
        if ui
            .selectable_label(session.active() == viewer, (swatch, name.as_str()))
            .clicked()
        {
            session.set_active(viewer);
        }
    }
}
