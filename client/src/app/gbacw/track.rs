//! The phase track: Game-Turn, Player-Turn, the phases A to J with the
//! current one lit, who acts, and "End phase" for the player who does.

use egui::{Color32, RichText, Ui};
use muster_shared::gbacw::ruleset::{Gbacw, GbacwState};
use muster_shared::gbacw::sequence::{Phase, PlayerTurn, Step};

/// What the track asks for.
pub enum TrackOutput {
    Nothing,
    EndPhase,
}

/// The label of the button, for tests and for players.
pub const END_PHASE: &str = "End phase";

pub fn ui(
    ui: &mut Ui,
    rules: &Gbacw,
    state: &GbacwState,
    seat_name: &dyn Fn(muster_shared::SeatId) -> String,
    can_act: bool,
) -> TrackOutput {
    let game = rules.game();
    let clock = state.clock;
    let mut out = TrackOutput::Nothing;
    // Cedar Mountain 26.2: before Game-Turn 1, the set-up, not a phase.
    if let Some(side) = &state.progress.setting_up {
        ui.horizontal_wrapped(|ui| {
            ui.strong(format!(
                "Set-up before Game-Turn 1 of {}",
                game.sequence.last_turn
            ));
            ui.separator();
            // The seat by its one name, "Union (Meade)" (issue 18).
            let who = rules.acting_seat(state).map_or_else(
                || muster_shared::gbacw::words::side_name(rules, side),
                seat_name,
            );
            ui.label(format!("{who} sets up"));
        });
        return out;
    }
    ui.horizontal_wrapped(|ui| {
        ui.strong(format!(
            "Game-Turn {} of {}",
            clock.turn, game.sequence.last_turn
        ));
        if let Some(player) = clock.step.phasing() {
            let side = rules.side_of_turn(player);
            let name = game.oob.sides.get(side).cloned().unwrap_or_default();
            ui.label(format!(
                "{} Player-Turn ({name})",
                match player {
                    PlayerTurn::First => "First",
                    PlayerTurn::Second => "Second",
                }
            ));
        }
        ui.separator();
        let current = match clock.step {
            Step::Phase { phase, .. } => Some(phase),
            _ => None,
        };
        for p in Phase::ALL {
            let letter = p.letter().to_string();
            let text = if Some(p) == current {
                RichText::new(letter)
                    .strong()
                    .background_color(Color32::from_rgb(0xff, 0xd7, 0x00))
                    .color(Color32::BLACK)
            } else {
                RichText::new(letter).weak()
            };
            ui.label(text).on_hover_text(p.name());
        }
        ui.label(RichText::new(game.sequence.step_name(clock.step)).strong());
        ui.separator();
        match rules.acting_seat(state) {
            Some(seat) => {
                let waiting = if state.decision.is_some() {
                    " (a decision)"
                } else {
                    ""
                };
                ui.label(format!("{} acts{waiting}", seat_name(seat)));
            }
            None if state.over => {
                ui.label("the game is over");
            }
            None => {
                ui.label("interphase");
            }
        }
        if ui
            .add_enabled(
                can_act && state.decision.is_none(),
                egui::Button::new(END_PHASE),
            )
            .clicked()
        {
            out = TrackOutput::EndPhase;
        }
    });
    out
}
