//! The unit card: everything about the selected counter, from the order
//! of battle (what is printed on it) and the state (how it stands now),
//! and the facing and formation changes the rules allow it now.

use super::counter::{formation_tag, leader_ratings, marker_tag, morale_text};
use super::narrate::{counter_name, mp_text};
use egui::{Grid, RichText, Ui};
use muster_shared::gbacw::oob::{Command, CounterId, Crew, LeaderRole, Oob, UnitKind};
use muster_shared::gbacw::ruleset::{Casualty, Gbacw, GbacwAction, GbacwState};

fn row(ui: &mut Ui, key: &str, value: impl Into<String>) {
    ui.weak(key);
    ui.label(value.into());
    ui.end_row();
}

/// The card's set-up rows (Cedar Mountain 26.2, issue 18).
pub const SET_UP_FACE: &str = "Set up facing:";
pub const SET_UP_FORMATION: &str = "Set up in formation:";
const SET_UP_FORMATIONS: [muster_shared::gbacw::oob::Formation; 6] = {
    use muster_shared::gbacw::oob::Formation as F;
    [
        F::Line,
        F::Column,
        F::Mounted,
        F::Dismounted,
        F::Limbered,
        F::Unlimbered,
    ]
};

/// The row before the facing buttons in the Movement Phase.
pub const FACE: &str = "Face (7.12):";

/// A facing as a button or card row says it (issue 18: the card showed
/// "se s sw nw ne" while the log wrote "south-east"): an arrow pointing
/// to the hexside and the engine's word for it, "↗ north-east".
pub fn facing_label(rules: &Gbacw, facing: muster_shared::gbacw::facing::Facing) -> String {
    let word = muster_shared::gbacw::words::facing_word(rules, facing);
    let arrow = match word {
        "north" => "⬆",
        "north-east" => "⬈",
        "east" => "➡",
        "south-east" => "⬊",
        "south" => "⬇",
        "south-west" => "⬋",
        "west" => "⬅",
        _ => "⬉",
    };
    format!("{arrow} {word}")
}

/// The card for `id`; `act` says the viewer may act on it now (the
/// facing and formation buttons are offered then). Returns the action a
/// button asked for.
pub fn ui(
    ui: &mut Ui,
    rules: &Gbacw,
    state: &GbacwState,
    id: &CounterId,
    act: bool,
) -> Option<GbacwAction> {
    let game = rules.game();
    let oob: &Oob = &game.oob;
    let mut out = None;
    if let (Some(unit), Some(st)) = (oob.units.get(id), state.units.get(id)) {
        ui.heading(&unit.designation);
        Grid::new("unit_card").num_columns(2).show(ui, |ui| {
            row(
                ui,
                "Side",
                oob.sides.get(&unit.side).cloned().unwrap_or_default(),
            );
            row(ui, "Kind", unit.kind.name());
            row(
                ui,
                "Brigade",
                match &unit.command {
                    Command::Brigade(b) => counter_name(rules, b),
                    Command::Independent => "independent (5.3)".into(),
                },
            );
            let mut morale = morale_text(unit.morale);
            if let Some(m) = unit.mounted_morale {
                morale.push_str(&format!(" ({m} mounted)"));
            }
            row(ui, "Morale", morale);
            row(
                ui,
                "Weapon",
                unit.weapon.clone().unwrap_or_else(|| "-".into()),
            );
            let mut strength = format!("{} of {}", st.status.strength, unit.strength);
            if let Some(r) = unit.roster_strength {
                strength.push_str(&format!(" (roster {r})"));
            }
            row(ui, "Strength", strength);
            row(ui, "Formation", st.status.formation.name());
            match unit.kind {
                UnitKind::Battery { .. } => {
                    row(ui, "Rounds", st.status.rounds.to_string());
                    row(ui, "Crew", crew(st.status.crew));
                }
                UnitKind::Wagon { .. } => {
                    row(
                        ui,
                        "Supply",
                        format!(
                            "{} small arms, {} artillery",
                            st.status.supply.0, st.status.supply.1
                        ),
                    );
                    row(ui, "Crew", crew(st.status.crew));
                }
                _ => {}
            }
            let mut markers: Vec<&str> =
                st.status.markers.iter().map(|m| marker_tag(*m).0).collect();
            if let Some((t, _)) = formation_tag(st.status.formation) {
                markers.insert(0, t);
            }
            row(
                ui,
                "Markers",
                if markers.is_empty() {
                    "none".into()
                } else {
                    markers.join(" ")
                },
            );
            row(
                ui,
                "Hex",
                st.hex
                    .map_or_else(|| "off the map".into(), |h| h.to_string()),
            );
            row(ui, "Facing", facing_label(rules, st.facing));
            row(
                ui,
                "Moved",
                format!(
                    "{} MP, {} hex(es){}",
                    mp_text(st.moved.mp),
                    st.moved.hexes,
                    if st.moved.finished {
                        ", finished (6.22)"
                    } else {
                        ""
                    }
                ),
            );
            if state.command.out_of_command.contains(id) {
                row(ui, "Command", "OUT OF COMMAND (17.11)");
            }
            if let Some(p) = oob.extras_of(id).provisional {
                row(ui, "Provisional", p);
            }
        });
        // Cedar Mountain 26.2: "in any formation" — a counter already set
        // up is set up again on its hex, facing or formation changed
        // (the engine's `PlaceUnit`, which the set-up accepts for placed
        // counters too). Chosen on the counter's card (issue 18).
        let setting_up_here =
            act && st.hex.is_some() && state.progress.setting_up.as_ref() == Some(&unit.side);
        if let (true, Some(hex)) = (setting_up_here, st.hex) {
            let place = |facing, formation| GbacwAction::PlaceUnit {
                unit: id.clone(),
                hex,
                facing,
                formation,
            };
            ui.horizontal_wrapped(|ui| {
                ui.label(SET_UP_FACE);
                for i in 0..6u8 {
                    let Some(f) = muster_shared::gbacw::facing::Facing::from_index(i) else {
                        continue;
                    };
                    if ui
                        .add_enabled(f != st.facing, egui::Button::new(facing_label(rules, f)))
                        .clicked()
                    {
                        out = Some(place(f, st.status.formation));
                    }
                }
            });
            ui.horizontal_wrapped(|ui| {
                ui.label(SET_UP_FORMATION);
                for f in SET_UP_FORMATIONS {
                    if !f.allowed_for(&unit.kind) {
                        continue;
                    }
                    if ui
                        .add_enabled(f != st.status.formation, egui::Button::new(f.name()))
                        .clicked()
                    {
                        out = Some(place(st.facing, f));
                    }
                }
            });
        }
        if act && !setting_up_here {
            // GBACW 7.12: facing changes are free in the Friendly Movement
            // Phase (the engine refuses them elsewhere; no button then).
            let movement = matches!(
                state.clock.step,
                muster_shared::gbacw::sequence::Step::Phase {
                    phase: muster_shared::gbacw::sequence::Phase::Movement,
                    ..
                }
            );
            let facings = if movement {
                rules.legal_facings(state, id)
            } else {
                Vec::new()
            };
            // GBACW 6.0: formations change in the Friendly Movement Phase too.
            let formations = if movement {
                rules.legal_formations(state, id)
            } else {
                Vec::new()
            };
            if !facings.is_empty() {
                ui.horizontal_wrapped(|ui| {
                    ui.label(FACE);
                    for f in facings {
                        if ui.button(facing_label(rules, f)).clicked() {
                            out = Some(GbacwAction::Face {
                                unit: id.clone(),
                                facing: f,
                            });
                        }
                    }
                });
            }
            if !formations.is_empty() {
                ui.horizontal_wrapped(|ui| {
                    ui.label("Formation (6.0):");
                    for f in formations {
                        if ui.button(f.name()).clicked() {
                            out = Some(GbacwAction::ChangeFormation {
                                unit: id.clone(),
                                to: f,
                            });
                        }
                    }
                });
            }
        }
    } else if let (Some(leader), Some(st)) = (oob.leaders.get(id), state.leaders.get(id)) {
        ui.heading(&leader.name);
        Grid::new("leader_card").num_columns(2).show(ui, |ui| {
            row(
                ui,
                "Side",
                oob.sides.get(&leader.side).cloned().unwrap_or_default(),
            );
            let role = match &leader.role {
                LeaderRole::Army { .. } => "army commander (17.3)".to_string(),
                LeaderRole::Division { army, .. } => format!(
                    "division commander (17.2){}",
                    army.as_ref().map_or(String::new(), |a| format!(
                        " under {}",
                        counter_name(rules, a)
                    ))
                ),
                LeaderRole::Brigade { division, .. } => format!(
                    "brigade commander (17.1), {}",
                    division
                        .as_ref()
                        .map_or("independent".into(), |d| counter_name(rules, d))
                ),
                LeaderRole::Replacement { .. } => "replacement (17.8)".into(),
            };
            row(ui, "Role", role);
            row(ui, "Ratings", leader_ratings(leader));
            row(
                ui,
                "Hex",
                st.hex
                    .map_or_else(|| "off the map".into(), |h| h.to_string()),
            );
            row(ui, "Moved", format!("{} MP", mp_text(st.moved.mp)));
            if st.cp_spent > 0 {
                row(ui, "CP spent", st.cp_spent.to_string());
            }
            if let Some((by, n)) = &st.augmented {
                row(
                    ui,
                    "Augmented",
                    format!("+{n} by {} (17.22)", counter_name(rules, by)),
                );
            }
            if state.command.out_of_radius.contains(id) {
                row(ui, "Command", "OUT OF RADIUS (17.21)");
            }
            if let Some(c) = st.casualty {
                row(
                    ui,
                    "Casualty",
                    match c {
                        Casualty::Killed => "killed",
                        Casualty::Wounded => "wounded",
                        Casualty::Captured => "captured",
                    },
                );
            }
        });
    } else {
        ui.label(RichText::new(format!("{id}: not in this battle")).weak());
    }
    out
}

fn crew(c: Crew) -> &'static str {
    match c {
        Crew::Full => "full",
        Crew::Half => "half (15.13)",
        Crew::None => "none",
    }
}
