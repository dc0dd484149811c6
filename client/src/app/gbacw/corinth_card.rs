//! Corinth's lines on the unit card, under the card itself:
//!
//! - 24.1: a battery whose guns are fouled says so (the map tags it
//!   FOUL), with **Unfoul** when the engine would take `Unfoul` now (its
//!   side's Fire Phase, once per phase; a die of 1-3 clears the guns).
//! - 30.3: a counter of a Union reserve names its reserve and whether it
//!   is held, with **Commit** when the engine would take `CommitReserve`
//!   now (the Union Initial Command Phase, from Game-Turn 6, two rolls a
//!   Game-Turn; at will from Game-Turn 15).
//!
//! Buttons come from the legal-action set, so the card never offers what
//! the table would refuse.

use egui::{Color32, RichText, Ui};
use muster_shared::gbacw::oob::CounterId;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwAction, GbacwState};
use muster_shared::gbacw::scenario::Reserve;

/// The card's line for a battery whose guns are fouled.
pub const FOULED: &str = "Guns FOULED (Corinth 24.1): may not fire until unfouled";
/// The button that tries to unfoul the selected battery.
pub const UNFOUL: &str = "Unfoul the guns (24.1: a die, 1-3 clears them)";

/// The button that commits reserve `name` ("Commit Hamilton's division
/// (30.34)").
pub fn commit_label(name: &str) -> String {
    format!("Commit {name} (30.34)")
}

/// The reserve `unit` belongs to, if any (Corinth 30.31).
pub fn reserve_of<'a>(rules: &'a Gbacw, unit: &CounterId) -> Option<&'a Reserve> {
    rules
        .game()
        .scenario
        .reserves
        .list
        .iter()
        .find(|r| r.units.contains(unit) || r.id == *unit)
}

/// Whether reserve `r` still holds its counters (30.32: until committed,
/// for the first day only).
pub fn held(rules: &Gbacw, state: &GbacwState, r: &Reserve) -> bool {
    !state.progress.committed.contains(&r.id)
        && state.clock.turn <= rules.game().scenario.reserves.until
}

/// What the reserve's commitment takes now, in words.
pub fn commit_terms(rules: &Gbacw, state: &GbacwState, r: &Reserve) -> String {
    let reserves = &rules.game().scenario.reserves;
    if state.clock.turn >= reserves.automatic {
        format!("from Game-Turn {}, at will (30.35)", reserves.automatic)
    } else {
        format!(
            "a die of {} or less (30.34; at most {} rolls a Game-Turn, from Game-Turn {})",
            r.commit_on, reserves.per_turn, reserves.from
        )
    }
}

/// The Corinth lines for `id`; returns the action a button asked for.
pub fn ui(
    ui: &mut Ui,
    rules: &Gbacw,
    state: &GbacwState,
    id: &CounterId,
    legal: &[GbacwAction],
    can_act: bool,
) -> Option<GbacwAction> {
    let mut out = None;
    if state.rapid_fire.fouled.contains(id) {
        ui.label(
            RichText::new(FOULED)
                .strong()
                .color(Color32::from_rgb(0xe0, 0x50, 0x50)),
        );
        let unfoul = GbacwAction::Unfoul { unit: id.clone() };
        if can_act && legal.contains(&unfoul) {
            if ui.button(UNFOUL).clicked() {
                out = Some(unfoul);
            }
        } else if state.rapid_fire.unfoul_tried.contains(id) {
            ui.weak("tried to unfoul in this Fire Phase already");
        } else {
            ui.weak("unfouled in its side's Fire Phase");
        }
    }
    if let Some(r) = reserve_of(rules, id) {
        if held(rules, state, r) {
            ui.label(
                RichText::new(format!(
                    "In reserve: {} (Corinth 30.32: may not move, change formation or fire offensively until committed)",
                    r.name
                ))
                .color(Color32::from_rgb(0xe8, 0xd0, 0x60)),
            );
            let commit = GbacwAction::CommitReserve {
                reserve: r.id.clone(),
            };
            if can_act && legal.contains(&commit) {
                if ui
                    .button(commit_label(&r.name))
                    .on_hover_text(commit_terms(rules, state, r))
                    .clicked()
                {
                    out = Some(commit);
                }
                ui.weak(format!("commitment: {}", commit_terms(rules, state, r)));
            } else {
                ui.weak(format!(
                    "committed in the Union Initial Command Phase: {}",
                    commit_terms(rules, state, r)
                ));
            }
        } else if state.progress.committed.contains(&r.id) {
            ui.weak(format!("{}: committed (30.3)", r.name));
        }
    }
    out
}

/// Corinth 30.34: the commitment buttons of the Initial Command Phase,
/// one per reserve the engine would take now.
pub fn commit_buttons(
    ui: &mut Ui,
    rules: &Gbacw,
    state: &GbacwState,
    legal: &[GbacwAction],
) -> Option<GbacwAction> {
    let mut out = None;
    for r in &rules.game().scenario.reserves.list {
        let commit = GbacwAction::CommitReserve {
            reserve: r.id.clone(),
        };
        if legal.contains(&commit)
            && ui
                .button(commit_label(&r.name))
                .on_hover_text(commit_terms(rules, state, r))
                .clicked()
        {
            out = Some(commit);
        }
    }
    out
}
