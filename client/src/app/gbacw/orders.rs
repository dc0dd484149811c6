//! Combat orders: the Fire Phase's declared attacks with their CRT column
//! explained, and the selected unit's fire, melee, rally and resupply
//! orders — all taken from the engine's legal-action set, so a button is
//! never an order the engine would refuse.

use super::narrate::counter_name;
use crate::app::narrate::Narrate;
use egui::{RichText, Ui};
use muster_shared::gbacw::map::HexNumber;
use muster_shared::gbacw::oob::CounterId;
use muster_shared::gbacw::ruleset::event::FireReport;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwAction, GbacwState};
use muster_shared::gbacw::tables::FireRow;

/// Heading of the declared attacks.
pub const DECLARED: &str = "Declared attacks (9.42: rolled when the phase ends)";

/// The Fire CRT row an attack reads, in the rulebook's words, with why:
/// GBACW 9.14: "Artillery fire against infantry or cavalry units is
/// resolved using the Grapeshot row of the CRT. Artillery fire against
/// artillery and supply wagons is resolved using the Small Arms and
/// Counter-Battery row"; 9.15: small arms "always" use the Small-Arms and
/// Counter-Battery row. Issue 18: a battery's preview said "small-arms
/// row", as if it fired muskets.
pub fn row_words(r: &FireReport, artillery: bool) -> &'static str {
    match (r.row, artillery) {
        (FireRow::Grapeshot, _) => "Grapeshot row (9.14: artillery at infantry or cavalry)",
        (FireRow::SmallArmsAndCounterBattery, true) => {
            "Small Arms and Counter-Battery row (9.14: artillery at artillery or wagons)"
        }
        (FireRow::SmallArmsAndCounterBattery, false) => {
            "Small Arms and Counter-Battery row (9.15: small arms)"
        }
    }
}

/// The attack's CRT reading in words: "battery at range 3 (x1, 9.25):
/// strength 6 on the Grapeshot row (9.14: artillery at infantry or
/// cavalry); shifts: terrain -1, density +0 = -1 (9.51 cap); column 3".
/// The firers' range and weapon multiplier are read from the Range
/// Effects Chart as the resolution reads them.
pub fn column_text(rules: &Gbacw, state: &GbacwState, r: &FireReport) -> String {
    let game = rules.game();
    let weapon = |id: &CounterId| {
        game.oob
            .units
            .get(id)
            .and_then(|u| u.weapon.as_deref())
            .and_then(|w| game.charts.range.weapon(w))
    };
    let artillery = r
        .firers
        .iter()
        .filter_map(weapon)
        .any(|w| w.kind.value == muster_shared::gbacw::charts::range::WeaponKind::Artillery);
    let mut ranges: Vec<String> = r
        .firers
        .iter()
        .filter_map(|f| {
            let from = state.units.get(f)?.hex?;
            let range = game.map.grid.distance(from, r.target);
            let mult = weapon(f)
                .and_then(|w| w.multiplier(range))
                .map_or_else(|| "beyond range".into(), |m| m.to_string());
            Some(format!("range {range} ({mult}, 9.25)"))
        })
        .collect();
    ranges.dedup();
    let who = if artillery { "artillery" } else { "small arms" };
    format!(
        "{who} at {}: strength {} on the {}; shifts: terrain {:+}, density {:+}{} = {:+} (9.51 cap); column {}",
        ranges.join(", "),
        r.strength,
        row_words(r, artillery),
        r.terrain_shift,
        r.density_shift,
        if r.enfilade { ", enfilade +1" } else { "" },
        r.net_shift,
        r.column
    )
}

fn involves(action: &GbacwAction, unit: &CounterId) -> bool {
    use GbacwAction as A;
    match action {
        A::DeclareFire { firers, .. } => firers.iter().any(|f| f.unit == *unit),
        A::DeclareMelee { attackers, .. } => attackers.contains(unit),
        A::Rally { unit: u } => u == unit,
        A::Resupply { wagon, unit: u } => wagon == unit || u == unit,
        // Charges, exits off the map, withdrawals of engaged units and
        // rounds passed between batteries: orders of the selected unit
        // (they had no other place on screen).
        A::DeclareCharge { attackers, .. } => attackers.contains(unit),
        A::ExitMap { unit: u } => u == unit,
        A::WithdrawEngaged { units, .. } => units.contains(unit),
        A::TransferRounds { from, to, .. } => from == unit || to == unit,
        // GBACW 8.41, 11.18: a stack's order and a wagon's new crew.
        A::PutOnTop { unit: u } => u == unit,
        A::Recrew { wagon, unit: u } => wagon == unit || u == unit,
        _ => false,
    }
}

/// What the panel asks of the map: the lines of fire of the order or
/// declared attack under the pointer (firer, target), and a hex to bring
/// into view (a declared attack or melee clicked).
#[derive(Default)]
pub struct MapHints {
    pub lines: Vec<(CounterId, HexNumber)>,
    pub centre: Option<HexNumber>,
}

/// A declared attack's or melee's hover text: a click shows its target.
pub const SHOW_ON_MAP: &str = "Click to bring its target hex into view.";

/// The heading of the units that have orders now (issue 18: a new
/// player in a Fire, Melee or Rally Phase had to click every counter to
/// find one that could act).
pub const READY: &str = "Units with orders now (click one to select it)";

/// How many of them are listed by name.
const READY_SHOWN: usize = 24;

/// With nothing selected, the acting seat's units that have an order in
/// the legal set (fire, melee, charge, rally, resupply...), each a button
/// "4 Me at 2416"; returns the one clicked.
pub fn ready(
    ui: &mut Ui,
    rules: &Gbacw,
    state: &GbacwState,
    legal: &[GbacwAction],
) -> Option<CounterId> {
    let mut units: Vec<&CounterId> = state
        .units
        .keys()
        .filter(|u| {
            legal
                .iter()
                .any(|a| involves(a, u) && !matches!(a, GbacwAction::PutOnTop { .. }))
        })
        .collect();
    if units.is_empty() {
        return None;
    }
    units.sort_by_key(|u| state.units[*u].hex);
    let mut out = None;
    ui.separator();
    ui.strong(READY);
    ui.horizontal_wrapped(|ui| {
        for u in units.iter().take(READY_SHOWN) {
            let at = state.units[*u]
                .hex
                .map_or_else(String::new, |h| format!(" at {h}"));
            if ui
                .small_button(format!("{}{at}", counter_name(rules, u)))
                .clicked()
            {
                out = Some((*u).clone());
            }
        }
        if units.len() > READY_SHOWN {
            ui.weak(format!("and {} more", units.len() - READY_SHOWN));
        }
    });
    out
}

/// The panel; returns the order clicked. The lines of fire of the order
/// or declared attack under the pointer (firer, target) go to `hints`,
/// for the map to draw (9.7: line of sight, 9.23: range).
pub fn ui(
    ui: &mut Ui,
    rules: &Gbacw,
    state: &GbacwState,
    selected: Option<&CounterId>,
    legal: &[GbacwAction],
    can_act: bool,
    hints: &mut MapHints,
) -> Option<GbacwAction> {
    let mut out = None;
    if !state.fire_plan.is_empty() {
        ui.separator();
        ui.strong(DECLARED);
        for (k, p) in state.fire_plan.iter().enumerate() {
            let by = p
                .firers
                .iter()
                .map(|f| format!("{} ({})", counter_name(rules, &f.unit), f.points))
                .collect::<Vec<_>>()
                .join(", ");
            let line = ui
                .add(
                    egui::Label::new(format!("{}. at {} by {by}", k + 1, p.target))
                        .sense(egui::Sense::click()),
                )
                .on_hover_text(SHOW_ON_MAP);
            if line.clicked() {
                hints.centre = Some(p.target);
            }
            if line.hovered() {
                hints
                    .lines
                    .extend(p.firers.iter().map(|f| (f.unit.clone(), p.target)));
            }
            match rules.fire_preview(state, p.target, &p.firers) {
                Ok(r) => ui.weak(column_text(rules, state, &r)),
                Err(e) => ui.weak(e.to_string()),
            };
            let cancel = GbacwAction::CancelFire {
                index: u16::try_from(k).unwrap_or(u16::MAX),
            };
            if can_act && ui.small_button("take back").clicked() {
                out = Some(cancel);
            }
            // Corinth 24.1: offered only when the engine would take it.
            let rapid = GbacwAction::RapidFire {
                index: u16::try_from(k).unwrap_or(u16::MAX),
            };
            if can_act
                && legal.contains(&rapid)
                && ui
                    .small_button("rapid fire (24.1: twice the guns, 3 rounds, may foul)")
                    .clicked()
            {
                out = Some(rapid);
            }
        }
    }
    if !state.melees.is_empty() {
        ui.separator();
        ui.strong("Declared melees (12.8: resolved when the Melee Phase ends)");
        for m in &state.melees {
            let by = m
                .attackers
                .iter()
                .map(|a| counter_name(rules, a))
                .collect::<Vec<_>>()
                .join(", ");
            if ui
                .add(egui::Label::new(format!("{} by {by}", m.target)).sense(egui::Sense::click()))
                .on_hover_text(SHOW_ON_MAP)
                .clicked()
            {
                hints.centre = Some(m.target);
            }
        }
    }
    let Some(unit) = selected else {
        return out;
    };
    let orders: Vec<&GbacwAction> = legal.iter().filter(|a| involves(a, unit)).collect();
    if orders.is_empty() || !can_act {
        return out;
    }
    ui.separator();
    ui.label(RichText::new(format!("Orders for {}", counter_name(rules, unit))).strong());
    for a in orders {
        let button = ui.button(rules.describe_action(a));
        if button.clicked() {
            out = Some(a.clone());
        }
        if button.hovered()
            && let GbacwAction::DeclareFire { target, firers } = a
        {
            hints
                .lines
                .extend(firers.iter().map(|f| (f.unit.clone(), *target)));
        }
        if let GbacwAction::DeclareFire { target, firers } = a
            && let Ok(r) = rules.fire_preview(state, *target, firers)
        {
            ui.weak(column_text(rules, state, &r));
        }
    }
    out
}
