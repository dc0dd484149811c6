//! Corinth 29.5's solitaire version: the Confederate assault is rolled,
//! not plotted. When the roll is due (before the Union sets up, 29.51;
//! at the start of each Confederate Movement Phase while a division is
//! still out, 29.53) the panel says so with one clear button,
//! **Roll for the Confederate assault**; at all times it shows what the
//! rolls have brought so far: each division's Assault Area and Game-Turn,
//! and the divisions still out. The rolls themselves are narrated in the
//! log with their dice (`narrate.rs`).

use super::narrate::counter_name;
use super::plot::area_name;
use egui::{Color32, RichText, Ui};
use muster_shared::SeatId;
use muster_shared::engine::Ruleset;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwAction, GbacwState};
use muster_shared::gbacw::scenario::HookKind;

/// The panel's heading.
pub const HEADING: &str = "Solitaire assault (Corinth 29.5)";
/// The button that rolls.
pub const ROLL: &str = "Roll for the Confederate assault (29.5)";

/// The panel (only in a battle with the solitaire version); returns the
/// roll when clicked. `acting` is the seat this viewer acts for.
pub fn ui(
    ui: &mut Ui,
    rules: &Gbacw,
    state: &GbacwState,
    acting: Option<SeatId>,
    legal: &[GbacwAction],
) -> Option<GbacwAction> {
    rules.game().scenario.hook(HookKind::Solitaire)?;
    let spec = rules.game().scenario.plan.as_ref()?;
    let mut out = None;
    ui.separator();
    ui.strong(HEADING);
    let due = rules
        .pending(state)
        .into_iter()
        .find(|d| d.default == GbacwAction::SolitaireRoll);
    if let Some(d) = &due {
        ui.label(
            RichText::new(format!("Due ({}): {}", d.rule, d.prompt))
                .color(Color32::from_rgb(0xff, 0xd7, 0x00)),
        );
        if acting == Some(d.seat) && legal.contains(&GbacwAction::SolitaireRoll) {
            if ui.button(ROLL).clicked() {
                out = Some(GbacwAction::SolitaireRoll);
            }
        } else {
            ui.weak("the Confederate seat rolls");
        }
    }
    let plan = state
        .progress
        .assault
        .as_ref()
        .and_then(|a| a.plan.as_ref());
    match plan {
        None => {
            ui.weak("nothing rolled yet");
        }
        Some(plan) => {
            for d in &plan.divisions {
                ui.label(format!(
                    "{}: {} on Game-Turn {}",
                    counter_name(rules, &d.division),
                    area_name(rules, &d.area),
                    d.turn
                ));
            }
            let out_yet: Vec<String> = spec
                .divisions
                .iter()
                .filter(|d| plan.division(d).is_none())
                .map(|d| counter_name(rules, d))
                .collect();
            if !out_yet.is_empty() {
                ui.weak(format!(
                    "still out (rolled for each Confederate Movement Phase, 29.53): {}",
                    out_yet.join(", ")
                ));
            }
        }
    }
    out
}
