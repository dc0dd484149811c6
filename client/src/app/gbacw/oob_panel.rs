//! The order-of-battle panel: each side as army > division > brigade >
//! units, every unit with its strength now and printed, what it lost
//! (killed, captured: 9.81, 13.31) and how it stands (routed, pinned, out of
//! ammunition, off the map, eliminated), every leader with his ratings and
//! fate (17.71), and a brigade's BCE boxes (18.0) when the state keeps
//! them. Clicking a unit or leader selects it on the map.
//!
//! The tree follows the printed chain of command (3.33, 17.1, 17.2): a
//! brigade under the division its counter names, units under the brigade
//! their counter names. Attachments in play (17.6) do not re-hang the tree;
//! the card and the command check speak for them.

use super::counter::{leader_ratings, morale_text};
use egui::{CollapsingHeader, Color32, RichText, Ui};
use muster_shared::gbacw::oob::{Command, CounterId, Leader, LeaderRole, Marker, Oob, Unit};
use muster_shared::gbacw::ruleset::{Casualty, Gbacw, GbacwState, UnitState};

/// The header toggle that shows the panel.
pub const OOB_TOGGLE: &str = "Order of battle";

/// A brigade's Brigade Combat Effectiveness boxes as the state keeps them
/// (GBACW 18.0: a box marked per infantry or cavalry Strength Point lost;
/// all marked, the brigade has lost its effectiveness).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BceBoxes {
    /// Boxes on the roster (the brigade's BCE limit).
    pub boxes: u16,
    pub marked: u16,
    pub lost: bool,
}

/// Where the panel gets a brigade's BCE boxes from. The engine keeps no
/// BCE track in `GbacwState` yet (another branch adds it); until it does,
/// this answers `None` and the panel prints the roster's limit only. When
/// the state exposes the boxes, this is the one function to change.
pub fn bce_of(_rules: &Gbacw, _state: &GbacwState, _brigade: &CounterId) -> Option<BceBoxes> {
    None
}

/// How a unit stands now, in words (empty: fine).
pub fn unit_status(st: &UnitState) -> Vec<&'static str> {
    let mut out = Vec::new();
    if st.status.strength == 0 {
        out.push("eliminated");
    } else if st.hex.is_none() {
        out.push("off map");
    }
    for m in &st.status.markers {
        out.push(match m {
            Marker::Rout => "routed",
            Marker::Pin => "pinned",
            Marker::AmmoDepleted => "out of ammo",
            Marker::Engaged => "engaged",
        });
    }
    out
}

/// A leader's fate, in words.
pub fn leader_fate(
    hex: Option<muster_shared::gbacw::map::HexNumber>,
    casualty: Option<Casualty>,
) -> String {
    match (casualty, hex) {
        (Some(Casualty::Killed), _) => "killed".into(),
        (Some(Casualty::Wounded), _) => "wounded".into(),
        (Some(Casualty::Captured), _) => "captured".into(),
        (None, Some(h)) => format!("at {h}"),
        (None, None) => "off map".into(),
    }
}

/// Strength now / printed, killed, captured, over some units.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub now: u32,
    pub printed: u32,
    pub killed: u32,
    pub captured: u32,
}

impl Tally {
    fn add(&mut self, unit: &Unit, st: &UnitState) {
        self.now += u32::from(st.status.strength);
        self.printed += u32::from(unit.strength);
        self.killed += u32::from(st.killed);
        self.captured += u32::from(st.captured);
    }

    fn text(self) -> String {
        format!(
            "{}/{} SP, {} killed, {} captured",
            self.now, self.printed, self.killed, self.captured
        )
    }
}

/// The tally of `units` in `state`.
pub fn tally<'a>(state: &GbacwState, units: impl Iterator<Item = &'a Unit>) -> Tally {
    let mut t = Tally::default();
    for u in units {
        if let Some(st) = state.units.get(&u.id) {
            t.add(u, st);
        }
    }
    t
}

/// The panel; returns the counter clicked.
pub fn ui(
    ui: &mut Ui,
    rules: &Gbacw,
    state: &GbacwState,
    selected: &[CounterId],
) -> Option<CounterId> {
    let oob = &rules.game().oob;
    let mut clicked = None;
    egui::ScrollArea::vertical()
        .id_salt("oob_scroll")
        .show(ui, |ui| {
            for (side, name) in &oob.sides {
                let t = tally(state, oob.side_units(side));
                CollapsingHeader::new(RichText::new(name).strong())
                    .id_salt(("oob_side", side))
                    .default_open(true)
                    .show(ui, |ui| {
                        ui.weak(t.text());
                        side_tree(ui, rules, state, side, selected, &mut clicked);
                    });
            }
        });
    clicked
}

fn leaders_where<'a>(
    oob: &'a Oob,
    side: &'a CounterId,
    keep: impl Fn(&LeaderRole) -> bool + 'a,
) -> impl Iterator<Item = &'a Leader> + 'a {
    oob.leaders
        .values()
        .filter(move |l| &l.side == side && keep(&l.role))
}

fn side_tree(
    ui: &mut Ui,
    rules: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    selected: &[CounterId],
    clicked: &mut Option<CounterId>,
) {
    let oob = &rules.game().oob;
    let armies: Vec<&Leader> =
        leaders_where(oob, side, |r| matches!(r, LeaderRole::Army { .. })).collect();
    for a in &armies {
        leader_row(ui, state, a, selected, clicked);
    }
    // Divisions under an army of this side, or none.
    let divisions: Vec<&Leader> =
        leaders_where(oob, side, |r| matches!(r, LeaderRole::Division { .. })).collect();
    for d in &divisions {
        let units = || {
            oob.side_units(side).filter(|u| {
                matches!(&u.command, Command::Brigade(b)
                    if matches!(oob.leaders.get(b).map(|l| &l.role),
                        Some(LeaderRole::Brigade { division: Some(x), .. }) if *x == d.id))
            })
        };
        let t = tally(state, units());
        CollapsingHeader::new(format!("{} (division)", d.name))
            .id_salt(("oob_div", &d.id))
            .default_open(true)
            .show(ui, |ui| {
                leader_row(ui, state, d, selected, clicked);
                ui.weak(t.text());
                let brigades = leaders_where(
                    oob,
                    side,
                    |r| matches!(r, LeaderRole::Brigade { division: Some(x), .. } if *x == d.id),
                );
                for b in brigades {
                    brigade_tree(ui, rules, state, b, selected, clicked);
                }
            });
    }
    // Brigades with no division (17.66 "Indpnt"), and independent units.
    for b in leaders_where(oob, side, |r| {
        matches!(r, LeaderRole::Brigade { division, .. }
            if division.as_ref().is_none_or(|d| !oob.leaders.contains_key(d)))
    }) {
        brigade_tree(ui, rules, state, b, selected, clicked);
    }
    let independent: Vec<&Unit> = oob
        .side_units(side)
        .filter(|u| match &u.command {
            Command::Independent => true,
            Command::Brigade(b) => !oob.leaders.contains_key(b),
        })
        .collect();
    if !independent.is_empty() {
        CollapsingHeader::new("Independent units (5.3)")
            .id_salt(("oob_indep", side))
            .default_open(true)
            .show(ui, |ui| {
                for u in independent {
                    unit_row(ui, state, u, selected, clicked);
                }
            });
    }
    let spares: Vec<&Leader> =
        leaders_where(oob, side, |r| matches!(r, LeaderRole::Replacement { .. })).collect();
    if !spares.is_empty() {
        ui.weak("Replacement leaders (17.82)");
        for l in spares {
            leader_row(ui, state, l, selected, clicked);
        }
    }
}

fn brigade_tree(
    ui: &mut Ui,
    rules: &Gbacw,
    state: &GbacwState,
    b: &Leader,
    selected: &[CounterId],
    clicked: &mut Option<CounterId>,
) {
    let oob = &rules.game().oob;
    let t = tally(state, oob.brigade_units(&b.id));
    CollapsingHeader::new(format!("{} (brigade)", b.name))
        .id_salt(("oob_bde", &b.id))
        .default_open(true)
        .show(ui, |ui| {
            leader_row(ui, state, b, selected, clicked);
            ui.weak(t.text());
            bce_row(
                ui,
                oob.bce.get(&b.id).map(|r| r.limit),
                bce_of(rules, state, &b.id).as_ref(),
            );
            for u in oob.brigade_units(&b.id) {
                unit_row(ui, state, u, selected, clicked);
            }
        });
}

/// GBACW 18.0: the brigade's BCE boxes, marked as the state keeps them;
/// without them, the roster's limit and a word that the boxes are not
/// tracked.
pub fn bce_row(ui: &mut Ui, roster_limit: Option<u16>, boxes: Option<&BceBoxes>) {
    match (boxes, roster_limit) {
        (Some(b), _) => {
            ui.horizontal_wrapped(|ui| {
                ui.spacing_mut().item_spacing.x = 1.0;
                ui.label("BCE ");
                for k in 0..b.boxes {
                    let (glyph, colour) = if k < b.marked {
                        ("■", Color32::from_rgb(0xc0, 0x30, 0x30))
                    } else {
                        ("■", Color32::from_gray(170))
                    };
                    ui.label(RichText::new(glyph).color(colour));
                }
                ui.label(format!(" {}/{}", b.marked, b.boxes));
                if b.lost {
                    ui.label(RichText::new(" BCE LOST").strong().color(Color32::RED));
                }
            });
        }
        (None, Some(limit)) => {
            ui.weak(format!("BCE limit {limit} (boxes not tracked yet)"));
        }
        (None, None) => {}
    }
}

fn unit_row(
    ui: &mut Ui,
    state: &GbacwState,
    u: &Unit,
    selected: &[CounterId],
    clicked: &mut Option<CounterId>,
) {
    let Some(st) = state.units.get(&u.id) else {
        return;
    };
    ui.horizontal_wrapped(|ui| {
        let on_map = st.hex.is_some();
        let name = RichText::new(&u.designation);
        let r = ui.add_enabled(
            on_map,
            egui::Button::selectable(selected.contains(&u.id), name),
        );
        if r.clicked() {
            *clicked = Some(u.id.clone());
        }
        ui.label(format!(
            "{}/{} {} m{}",
            st.status.strength,
            u.strength,
            u.kind.name(),
            morale_text(u.morale)
        ));
        if st.killed > 0 || st.captured > 0 {
            ui.label(format!("-{}k -{}c", st.killed, st.captured));
        }
        for s in unit_status(st) {
            let colour = match s {
                "eliminated" | "routed" => Color32::from_rgb(0xe0, 0x30, 0x30),
                "off map" => Color32::GRAY,
                _ => Color32::from_rgb(0xe0, 0x8a, 0x00),
            };
            ui.label(RichText::new(s).color(colour));
        }
    });
}

fn leader_row(
    ui: &mut Ui,
    state: &GbacwState,
    l: &Leader,
    selected: &[CounterId],
    clicked: &mut Option<CounterId>,
) {
    let Some(st) = state.leaders.get(&l.id) else {
        return;
    };
    ui.horizontal_wrapped(|ui| {
        let alive = st.casualty.is_none() && st.hex.is_some();
        let text = RichText::new(format!("* {}", l.name)).italics();
        let r = ui.add_enabled(
            alive,
            egui::Button::selectable(selected.contains(&l.id), text),
        );
        if r.clicked() {
            *clicked = Some(l.id.clone());
        }
        ui.weak(leader_ratings(l));
        let fate = leader_fate(st.hex, st.casualty);
        if st.casualty.is_some() {
            ui.label(
                RichText::new(fate)
                    .strong()
                    .color(Color32::from_rgb(0xe0, 0x30, 0x30)),
            );
        } else {
            ui.weak(fate);
        }
    });
}
