//! Pending decisions as prompts, for any ruleset: what `Ruleset::pending`
//! says is waiting (who, the rule, the question, the default) and, for
//! the seat it waits on, a button per answer in `Ruleset::legal_actions`.
//! The countdown is the server's clock (`ServerMsg::Clock`, issue 18):
//! the same on every client, running only once every seat is taken, and
//! never at a hot-seat table (which has no server to time anyone out).

use crate::app::narrate::Narrate;
use egui::{Color32, RichText, Ui};
use muster_shared::SeatId;
use muster_shared::engine::PendingDecision;
use std::time::Instant;

/// The prompts panel and the server's clock for it.
#[derive(Default)]
pub struct Prompts {
    /// No countdown (a hot-seat table: nobody waits on an absent player).
    pub no_countdown: bool,
    /// The server's clock: the seat it runs for and when the default applies.
    pub clock: Option<(SeatId, Instant)>,
    /// A line for the seat asked, over its answers: how else to answer
    /// (issue 18: "click a lit hex on the map...").
    pub hint: Option<&'static str>,
}

impl Prompts {
    /// Show `pending`; `seat` is the seat this viewer acts for and
    /// `answers` the legal actions for it. Returns the chosen answer.
    pub fn ui<R: Narrate>(
        &mut self,
        ui: &mut Ui,
        rules: &R,
        pending: &[PendingDecision<R::Action>],
        seat: Option<SeatId>,
        answers: &[R::Action],
        seat_name: &dyn Fn(SeatId) -> String,
    ) -> Option<R::Action> {
        let now = Instant::now();
        let mut out = None;
        for d in pending {
            // The server's clock for this decision's seat, if one runs.
            let deadline = self
                .clock
                .filter(|(s, _)| !self.no_countdown && *s == d.seat)
                .map(|(_, at)| at);
            let countdown = deadline.is_some();
            let left = deadline.map_or(0, |at| at.saturating_duration_since(now).as_secs());
            egui::Frame::group(ui.style())
                .fill(Color32::from_rgb(0x4a, 0x3a, 0x10))
                .show(ui, |ui| {
                    ui.label(
                        RichText::new(format!("Decision for {} ({})", seat_name(d.seat), d.rule))
                            .strong()
                            .color(Color32::from_rgb(0xff, 0xd7, 0x00)),
                    );
                    ui.label(&d.prompt);
                    ui.label(format!("Default: {}", rules.describe_action(&d.default)));
                    if countdown {
                        ui.label(if left > 0 {
                            format!("{left} s left, then the default applies")
                        } else {
                            "time is up: the table applies the default".into()
                        });
                    }
                    if seat == Some(d.seat) {
                        if let Some(hint) = self.hint {
                            ui.label(
                                RichText::new(hint).color(Color32::from_rgb(0x40, 0xff, 0x70)),
                            );
                        }
                        ui.horizontal_wrapped(|ui| {
                            for a in answers {
                                if ui.button(rules.describe_action(a)).clicked() {
                                    out = Some(a.clone());
                                }
                            }
                        });
                    } else {
                        ui.weak("waiting for the other player");
                    }
                });
            // Keep the countdown ticking.
            if countdown {
                ui.ctx()
                    .request_repaint_after(std::time::Duration::from_millis(500));
            }
        }
        out
    }
}
