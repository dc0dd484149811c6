//! Corinth 26.4's Pre-Dawn Barrage: the panel of the side that fires.
//!
//! While the barrage lasts (between Game-Turns 20 and 21) the firing
//! side's client lists its batteries that have not fired yet, each with
//! the hexes it may fire at (`Gbacw::barrage_batteries`, the engine's own
//! `decide` asked for each); the player ticks one or more batteries,
//! picks a target among the hexes all of them may fire at, and fires
//! (`BarrageFire`, rolled at once), or ends the side's barrage
//! (`EndBarrage`). Before sending, the attack is checked by
//! `Gbacw::check_barrage` — the very code that refuses a `BarrageFire` at
//! the table — and its refusal shown with its case. The targets are
//! marked on the map (`area_overlay.rs`): orange, the chosen one cyan.

use super::area_overlay::AreaMark;
use super::narrate::counter_name;
use egui::{Color32, RichText, Ui};
use muster_shared::SeatId;
use muster_shared::gbacw::map::HexNumber;
use muster_shared::gbacw::oob::CounterId;
use muster_shared::gbacw::ruleset::barrage_query::BarrageBattery;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwAction, GbacwState};
use std::collections::BTreeSet;

/// The panel's heading.
pub const HEADING: &str = "Pre-Dawn Barrage (Corinth 26.4)";
/// The button that fires the chosen batteries at the chosen hex.
pub const FIRE: &str = "Fire the barrage attack";
/// The button that ends the side's barrage.
pub const END: &str = "End the barrage (26.43)";

/// The tick box of battery `name` ("Bryan's Battery: fires").
pub fn battery_label(name: &str) -> String {
    format!("{name}: fires")
}

/// The button choosing `hex` as the target ("Target 2134").
pub fn target_label(hex: HexNumber) -> String {
    format!("Target {hex}")
}

/// The panel's state between frames.
#[derive(Default)]
pub struct BarragePanel {
    /// The batteries ticked to fire together.
    pub chosen: BTreeSet<CounterId>,
    /// The hex chosen as the target.
    pub target: Option<HexNumber>,
    /// The batteries and their targets, worked out once per log entry.
    cache: Option<(u64, Vec<BarrageBattery>)>,
    /// The target hexes to mark on the map this frame.
    marks: Vec<AreaMark>,
}

/// What a frame of the panel asks for.
#[derive(Default)]
pub struct BarrageOutput {
    pub action: Option<GbacwAction>,
    /// A target was chosen: bring it into view.
    pub centre_on: Option<HexNumber>,
}

impl BarragePanel {
    /// The batteries of the firing side and their targets (cached per
    /// log position `seq`).
    pub fn batteries(&mut self, rules: &Gbacw, state: &GbacwState, seq: u64) -> &[BarrageBattery] {
        if self.cache.as_ref().is_none_or(|(s, _)| *s != seq) {
            self.cache = Some((seq, rules.barrage_batteries(state)));
        }
        self.cache.as_ref().map_or(&[], |(_, b)| b.as_slice())
    }

    /// The hexes every chosen battery may fire at (every battery's, when
    /// none is chosen yet).
    pub fn targets(&self) -> Vec<HexNumber> {
        let Some((_, batteries)) = &self.cache else {
            return Vec::new();
        };
        let chosen: Vec<&BarrageBattery> = batteries
            .iter()
            .filter(|b| self.chosen.contains(&b.unit))
            .collect();
        if chosen.is_empty() {
            let all: BTreeSet<HexNumber> = batteries
                .iter()
                .flat_map(|b| b.targets.iter().copied())
                .collect();
            return all.into_iter().collect();
        }
        let mut common: BTreeSet<HexNumber> = chosen[0].targets.iter().copied().collect();
        for b in &chosen[1..] {
            common.retain(|h| b.targets.contains(h));
        }
        common.into_iter().collect()
    }

    /// The target hexes to mark on the map (empty without a barrage).
    pub fn marks(&self) -> Vec<AreaMark> {
        self.marks.clone()
    }

    /// The panel; `acting` is the seat this viewer acts for (only the
    /// firing side's seat gets the controls), `seq` the log position.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        rules: &Gbacw,
        state: &GbacwState,
        acting: Option<SeatId>,
        seq: u64,
    ) -> BarrageOutput {
        let mut out = BarrageOutput::default();
        self.marks.clear();
        let Some(side) = rules.barrage_side(state).cloned() else {
            self.chosen.clear();
            self.target = None;
            self.cache = None;
            return out;
        };
        let side_name = rules
            .game()
            .oob
            .sides
            .get(&side)
            .cloned()
            .unwrap_or_else(|| side.to_string());
        ui.separator();
        ui.strong(HEADING);
        ui.label(format!(
            "{side_name} fire: each battery once, with its whole strength, at enemy units fewer than nine hexes away; each attack is rolled at once, the die less 1 (26.42), and a loss result pins instead (26.45)."
        ));
        if acting != Some(rules.seat_of(&side)) {
            ui.weak(format!("waiting for the {side_name} barrage"));
            return out;
        }
        let batteries = self.batteries(rules, state, seq).to_vec();
        // Batteries that have fired (or left) are no longer chosen.
        self.chosen
            .retain(|c| batteries.iter().any(|b| b.unit == *c));
        if batteries.is_empty() {
            ui.weak("no battery left to fire");
        }
        for b in &batteries {
            let name = counter_name(rules, &b.unit);
            ui.horizontal_wrapped(|ui| {
                let mut on = self.chosen.contains(&b.unit);
                let tick = ui.add_enabled(
                    !b.targets.is_empty(),
                    egui::Checkbox::new(&mut on, battery_label(&name)),
                );
                if tick.changed() {
                    if on {
                        self.chosen.insert(b.unit.clone());
                    } else {
                        self.chosen.remove(&b.unit);
                    }
                }
                if b.targets.is_empty() {
                    ui.weak(format!("at {}: no target in range and sight", b.hex));
                } else {
                    ui.weak(format!(
                        "at {}: may fire at {}",
                        b.hex,
                        b.targets
                            .iter()
                            .map(HexNumber::to_string)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
            });
        }
        let targets = self.targets();
        if self.target.is_some_and(|t| !targets.contains(&t)) {
            self.target = None;
        }
        if !targets.is_empty() {
            ui.label(if self.chosen.is_empty() {
                "Targets (tick batteries to fire together):"
            } else {
                "Targets of the ticked batteries:"
            });
            ui.horizontal_wrapped(|ui| {
                for h in &targets {
                    let who = units_in(rules, state, *h);
                    let picked = self.target == Some(*h);
                    let r = ui
                        .selectable_label(picked, target_label(*h))
                        .on_hover_text(&who);
                    if r.clicked() {
                        self.target = Some(*h);
                        out.centre_on = Some(*h);
                    }
                }
            });
        }
        self.marks = targets
            .iter()
            .map(|h| AreaMark {
                area: CounterId(format!("barrage-{h}")),
                hexes: vec![*h],
                label: format!("target {h}: {}", units_in(rules, state, *h)),
                focused: self.target == Some(*h),
                used: true,
            })
            .collect();
        let firers: Vec<CounterId> = self.chosen.iter().cloned().collect();
        let check = match (self.target, firers.is_empty()) {
            (Some(t), false) => Some(rules.check_barrage(state, t, &firers).map(|()| t)),
            _ => None,
        };
        match &check {
            None => {
                ui.weak("tick one or more batteries and choose a target");
            }
            Some(Err(e)) => {
                ui.label(
                    RichText::new(format!("{}: {}", e.rule, e.message))
                        .color(Color32::from_rgb(0xe0, 0x50, 0x50)),
                );
            }
            Some(Ok(_)) => {}
        }
        ui.horizontal_wrapped(|ui| {
            let ready = match &check {
                Some(Ok(t)) => Some(*t),
                _ => None,
            };
            if ui
                .add_enabled(ready.is_some(), egui::Button::new(FIRE))
                .clicked()
                && let Some(target) = ready
            {
                out.action = Some(GbacwAction::BarrageFire {
                    target,
                    firers: firers.clone(),
                });
                self.chosen.clear();
                self.target = None;
            }
            if ui.button(END).clicked() {
                out.action = Some(GbacwAction::EndBarrage);
            }
        });
        out
    }
}

/// The units in `hex`, by name ("21st Missouri, 2 Iowa Bty").
fn units_in(rules: &Gbacw, state: &GbacwState, hex: HexNumber) -> String {
    let names: Vec<String> = state
        .units
        .iter()
        .filter(|(_, u)| u.hex == Some(hex))
        .map(|(id, _)| counter_name(rules, id))
        .collect();
    if names.is_empty() {
        "nobody".into()
    } else {
        names.join(", ")
    }
}
