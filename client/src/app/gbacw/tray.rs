//! The tray: counters waiting to go onto the map, in words, for the seat
//! that places them. Two uses, one gesture — pick a counter in the tray,
//! click a lit hex on the map:
//!
//! - the set-up (Cedar Mountain 26.2): every counter still to set up,
//!   and "Use the default deployment" (the engine's `EndSetUp`: whatever
//!   is not placed yet goes where the scenario's default deployment puts
//!   it);
//! - arrivals (Cedar Mountain 26.4, Corinth 29.31): in the owner's
//!   Movement Phase, the reinforcements due, with their entry hexes
//!   marked on the map.
//!
//! Nothing here knows a rule: the counters, the hexes and the action a
//! click sends all come from the engine's legal-action set, so the tray
//! offers exactly what the engine would accept (26.44's other hex when
//! the entry hex is held, 26.45's "enters later" by its absence).

use super::narrate::counter_name;
use egui::{Color32, RichText, Ui};
use muster_shared::gbacw::map::HexNumber;
use muster_shared::gbacw::oob::CounterId;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwAction, GbacwState};
use muster_shared::gbacw::words;
use std::collections::BTreeMap;

/// The heading of the arrivals tray.
pub const ARRIVALS: &str = "Arrivals";
/// The heading of the set-up tray.
pub const SET_UP: &str = "Set-up";
/// The button that ends the set-up by the default deployment.
pub const DEFAULT_DEPLOYMENT: &str = "Use the default deployment";
/// The arrivals tray's button that brings every counter offered in, one
/// after another (Corinth 29.31: "places as many units as he can").
pub const BRING_ALL: &str = "Bring them all in";
/// The label over an entry hex on the map.
pub const ENTRY_MARK: &str = "entry";

/// One counter in the tray and where it may go.
struct Item {
    id: CounterId,
    /// Each legal hex with the action that puts the counter there (the
    /// first the engine offers: its default formation and facing).
    hexes: BTreeMap<HexNumber, GbacwAction>,
}

/// What the tray asks of the table this frame.
#[derive(Default)]
pub struct TrayOutput {
    pub action: Option<GbacwAction>,
    /// The picked counter's legal hexes, to light on the map.
    pub lit: BTreeMap<HexNumber, GbacwAction>,
    /// During the set-up, every hex where some counter of the tray may
    /// set up, each with the first counter's placement there: drawn
    /// faintly under the picked counter's bright ones (issue 18: a new
    /// player saw only the picked counter's hexes, never the side's whole
    /// deployment), and a click on one with nothing picked sets that
    /// counter up there.
    pub faint: BTreeMap<HexNumber, GbacwAction>,
    /// Entry hexes to mark on the map, with their words.
    pub entries: Vec<(HexNumber, String)>,
    /// A hex to bring into view (the picked counter's first).
    pub centre_on: Option<HexNumber>,
    /// A row was dragged out of the tray and let go here (screen
    /// point): the picked counter goes to the lit hex under it, if any.
    pub dropped_at: Option<egui::Pos2>,
}

/// The tray's own state: the picked counter.
#[derive(Default)]
pub struct Tray {
    picked: Option<CounterId>,
    /// Where the picked counter stood in the list, to pick the next one
    /// once it is placed.
    picked_at: usize,
    /// The set-up's first counter was picked by itself (once: after Esc
    /// or a right-click the player chooses).
    auto_picked: bool,
    /// "Bring them all in" is under way: the log position when its last
    /// arrival was sent (the next is sent once the table has moved past
    /// it, so that each is chosen from the state the last one left).
    bringing: Option<u64>,
}

/// What the table tells the tray each frame besides the game.
pub struct TrayContext {
    /// The table's log position.
    pub seq: u64,
    /// An action sent is not answered yet.
    pub busy: bool,
    /// The last action was refused (a run of arrivals stops there).
    pub refused: bool,
}

/// Under the set-up's count: what the map's two greens mean.
pub const FAINT_HINT: &str = "On the map, faint green: where your counters may set up; \
                              bright green: the picked counter's hexes.";

/// Under the picked counter: how to stop placing (issue 18: with a
/// counter always picked, a click on a counter already set up placed the
/// next one there instead of selecting it for its facing).
pub const STOP_PLACING: &str = "Esc or right-click on the map: stop placing, to select a counter \
                                 on the map.";

impl Tray {
    pub fn picked(&self) -> Option<&CounterId> {
        self.picked.as_ref()
    }

    /// Stop placing: nothing picked (Esc or a right-click on the map).
    pub fn unpick(&mut self) {
        self.picked = None;
    }

    /// The tray for `legal` (the viewer's legal actions; empty when the
    /// viewer does not act).
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        rules: &Gbacw,
        state: &GbacwState,
        legal: &[GbacwAction],
        table: &TrayContext,
    ) -> TrayOutput {
        let mut out = TrayOutput::default();
        let setting_up = state.progress.setting_up.is_some();
        let items = items(legal);
        let arrivals_due = items.iter().any(|i| {
            i.hexes
                .values()
                .any(|a| matches!(a, GbacwAction::Arrive { .. }))
        });
        if !arrivals_due || setting_up || table.refused {
            self.bringing = None;
        }
        if let Some(sent_at) = self.bringing
            && !table.busy
            && table.seq != sent_at
        {
            // The last arrival is in: the next, chosen from this state.
            out.action = next_arrival(state, &items);
            self.bringing = out.action.as_ref().map(|_| table.seq);
        }
        if self.bringing.is_some() {
            // The next arrival goes with the next frame, mouse or not.
            ui.ctx().request_repaint();
        }
        if setting_up {
            self.setup_ui(ui, rules, state, legal, &items, &mut out);
            for item in &items {
                for (h, a) in &item.hexes {
                    out.faint.entry(*h).or_insert_with(|| a.clone());
                }
            }
        } else if arrivals_due {
            self.arrivals_ui(ui, rules, state, &items, table.seq, &mut out);
        } else {
            self.picked = None;
            return out;
        }
        if let Some(item) = self
            .picked
            .as_ref()
            .and_then(|p| items.iter().find(|i| i.id == *p))
        {
            out.lit = item.hexes.clone();
        } else if arrivals_due && !setting_up {
            // Nothing picked: a click on an empty entry hex brings in the
            // first counter due there (in the tray's order). A hex with a
            // counter on it is not lit, so that a click there still
            // selects the counter.
            let held = |h: &HexNumber| {
                state.units.values().any(|u| u.hex == Some(*h))
                    || state.leaders.values().any(|l| l.hex == Some(*h))
            };
            for item in &items {
                for (h, a) in item.hexes.iter().filter(|(h, _)| !held(h)) {
                    out.lit.entry(*h).or_insert_with(|| a.clone());
                }
            }
        }
        out
    }

    /// Keep the pick on the list: a counter that went onto the map hands
    /// the pick to the one now in its place.
    fn keep_pick(&mut self, items: &[Item]) {
        let Some(p) = &self.picked else {
            return;
        };
        match items.iter().position(|i| i.id == *p) {
            Some(k) => self.picked_at = k,
            None if items.is_empty() => self.picked = None,
            None => {
                let k = self.picked_at.min(items.len() - 1);
                self.picked = Some(items[k].id.clone());
            }
        }
    }

    fn list(
        &mut self,
        ui: &mut Ui,
        rules: &Gbacw,
        items: &[Item],
        out: &mut TrayOutput,
        row: &dyn Fn(&Item) -> String,
    ) {
        self.keep_pick(items);
        for (k, item) in items.iter().enumerate() {
            let picked = self.picked.as_ref() == Some(&item.id);
            let text = row(item);
            // A click always picks (never un-picks: after a placement the
            // pick moves on to the next counter, which the player may well
            // click next).
            // Issue 18: a row may also be dragged onto a lit hex of the
            // map (picked as the drag starts, placed where it is let go).
            let row = ui
                .selectable_label(picked, text.clone())
                .interact(egui::Sense::drag());
            if row.clicked() {
                self.picked = Some(item.id.clone());
                self.picked_at = k;
                out.centre_on = item.hexes.keys().next().copied();
            }
            if row.drag_started() {
                self.picked = Some(item.id.clone());
                self.picked_at = k;
            }
            if row.dragged() {
                ui.ctx().set_cursor_icon(egui::CursorIcon::Grabbing);
                if let Some(p) = ui.ctx().pointer_latest_pos() {
                    // The counter's name follows the pointer.
                    let painter = ui.ctx().layer_painter(egui::LayerId::new(
                        egui::Order::Tooltip,
                        egui::Id::unique("tray_drag"),
                    ));
                    let galley = painter.layout_no_wrap(
                        counter_name(rules, &item.id),
                        egui::FontId::proportional(14.0),
                        Color32::BLACK,
                    );
                    let r = egui::Rect::from_min_size(
                        p + egui::vec2(12.0, 8.0),
                        galley.size() + egui::vec2(8.0, 4.0),
                    );
                    painter.rect_filled(r, 3.0, super::map::LIT);
                    painter.galley(r.min + egui::vec2(4.0, 2.0), galley, Color32::BLACK);
                }
            }
            if row.drag_stopped() {
                out.dropped_at = row
                    .interact_pointer_pos()
                    .or_else(|| ui.ctx().pointer_latest_pos());
            }
        }
        if let Some(p) = &self.picked {
            ui.label(
                RichText::new(format!(
                    "{}: click a lit hex on the map",
                    counter_name(rules, p)
                ))
                .color(super::map::LIT),
            );
            ui.weak(STOP_PLACING);
        }
    }

    fn setup_ui(
        &mut self,
        ui: &mut Ui,
        rules: &Gbacw,
        state: &GbacwState,
        legal: &[GbacwAction],
        items: &[Item],
        out: &mut TrayOutput,
    ) {
        let side = state.progress.setting_up.as_ref();
        let acting = legal
            .iter()
            .any(|a| matches!(a, GbacwAction::EndSetUp | GbacwAction::PlaceUnit { .. }));
        ui.separator();
        ui.strong(format!("{SET_UP} ({} 26.2)", rules.game().scenario.name));
        if !acting {
            self.picked = None;
            ui.weak(format!(
                "{} is setting up.",
                side.map_or_else(String::new, |s| words::side_name(rules, s))
            ));
            return;
        }
        if legal.contains(&GbacwAction::EndSetUp)
            && ui
                .button(RichText::new(DEFAULT_DEPLOYMENT).strong())
                .on_hover_text(
                    "Every counter not set up yet goes where the scenario's default \
                     deployment puts it, and the set-up ends.",
                )
                .clicked()
        {
            out.action = Some(GbacwAction::EndSetUp);
        }
        if items.is_empty() {
            ui.weak("Every counter is set up.");
            return;
        }
        // Issue 18: the set-up opens with its first counter picked, its
        // hexes lit (before, the map showed nothing to click until a row
        // was picked).
        if !self.auto_picked && self.picked.is_none() {
            self.auto_picked = true;
            self.picked = Some(items[0].id.clone());
            self.picked_at = 0;
        }
        // A leader is offered once a unit he may stand with is on the
        // map: those not offered yet count as to go meanwhile, and the
        // player is told why they are not listed (before, the count rose
        // after the first unit was set up).
        let leaders_later = side.map_or(0, |s| leaders_not_offered(rules, state, s, items));
        ui.weak(format!(
            "or set up by hand ({} to go): pick a counter, then click a lit hex.",
            items.len() + leaders_later
        ));
        if leaders_later > 0 {
            let who = if leaders_later == 1 {
                "1 leader is".to_string()
            } else {
                format!("{leaders_later} leaders are")
            };
            ui.weak(format!(
                "{who} not listed yet: a leader is listed once a unit he may stand with is \
                 set up."
            ));
        }
        let row = |item: &Item| {
            let area = item
                .hexes
                .keys()
                .next()
                .and_then(|h| area_of(rules, *h))
                .unwrap_or_default();
            format!("{}  {area}", counter_name(rules, &item.id))
        };
        ui.label(
            RichText::new(FAINT_HINT)
                .small()
                .color(super::map::LIT.gamma_multiply(0.8)),
        );
        egui::ScrollArea::vertical()
            .id_salt("setup_tray")
            .max_height(220.0)
            .show(ui, |ui| self.list(ui, rules, items, out, &row));
    }

    fn arrivals_ui(
        &mut self,
        ui: &mut Ui,
        rules: &Gbacw,
        state: &GbacwState,
        items: &[Item],
        seq: u64,
        out: &mut TrayOutput,
    ) {
        ui.separator();
        ui.strong(format!("{ARRIVALS} ({} 26.4)", rules.game().scenario.name));
        ui.weak(
            "Reinforcements due now: click a lit entry hex to bring in the first due there, \
             or pick one below first.",
        );
        // Every entry hex of the counters due, marked on the map.
        let mut entries: BTreeMap<HexNumber, usize> = BTreeMap::new();
        for item in items {
            for h in item.hexes.keys() {
                *entries.entry(*h).or_default() += 1;
            }
        }
        out.entries = entries
            .iter()
            .map(|(h, n)| (*h, format!("{ENTRY_MARK} {h}: {n} due")))
            .collect();
        if ui
            .button(BRING_ALL)
            .on_hover_text(
                "Each counter listed enters at the first of its entry hexes that can take it,                  one after another, until none is left or one is refused.",
            )
            .clicked()
            && self.bringing.is_none()
        {
            out.action = next_arrival(state, items);
            // Sent from this frame's state: the next waits for a newer one.
            self.bringing = out.action.as_ref().map(|_| seq);
        }
        let row = |item: &Item| arrival_row(rules, state, item);
        egui::ScrollArea::vertical()
            .id_salt("arrivals_tray")
            .max_height(260.0)
            .show(ui, |ui| self.list(ui, rules, items, out, &row));
        // Due now but not offered by the engine: the entry hex cannot
        // take them yet (8.16, 26.45) or is held (26.44).
        let waiting = waiting(rules, state, items);
        if !waiting.is_empty() {
            ui.add(
                egui::Label::new(
                    RichText::new(format!(
                        "Also due, entering later: {} (a counter in Column on their entry hex \
                         holds it until it moves off, 8.16; or they cannot pay to enter, 26.45)",
                        waiting.join(", ")
                    ))
                    .weak(),
                )
                .wrap(),
            );
        }
        ui.label(
            RichText::new(
                "The first to enter at a hex pays 1 MP, the next 2, and so on; \
                 who cannot pay enters later (26.45).",
            )
            .small()
            .color(Color32::GRAY),
        );
    }
}

/// An arrival as the tray lists it (issue 18: the tray listed names
/// only): where and from when it may enter, then what it is — kind,
/// strength, morale and the formation it enters in (a leader: his role
/// and ratings), in the card's words. "15 Ala - enters at 4032, due
/// Game-Turn 1" over "infantry, strength 5, morale 4, enters in column".
fn arrival_row(rules: &Gbacw, state: &GbacwState, item: &Item) -> String {
    let hexes: Vec<String> = item.hexes.keys().map(HexNumber::to_string).collect();
    let hexes = if hexes.len() > 4 {
        format!("{} or {} other hexes", hexes[0], hexes.len() - 1)
    } else {
        hexes.join(" or ")
    };
    let due = rules
        .arrival_turn(state, &item.id)
        .map(|t| format!(", due Game-Turn {t}"))
        .unwrap_or_default();
    format!(
        "{} - enters at {hexes}{due}\n    {}",
        counter_name(rules, &item.id),
        what_arrives(rules, &item.id)
    )
}

/// What a reinforcement is, in words: a unit's kind, strength, morale
/// and entry formation; a leader's role and ratings.
pub fn what_arrives(rules: &Gbacw, id: &CounterId) -> String {
    use muster_shared::gbacw::oob::{LeaderRole, UnitKind};
    let oob = &rules.game().oob;
    if let Some(unit) = oob.units.get(id) {
        let strength = match unit.kind {
            UnitKind::Battery { .. } => {
                format!(
                    "{} gun{}",
                    unit.strength,
                    if unit.strength == 1 { "" } else { "s" }
                )
            }
            UnitKind::Wagon { .. } => "supply".to_string(),
            _ => format!("strength {}", unit.strength),
        };
        // GBACW 13.12: a green unit's rating is found when it first fights.
        let morale = match unit.morale {
            muster_shared::gbacw::oob::Morale::Rated(n) => n.to_string(),
            muster_shared::gbacw::oob::Morale::Green => "green (found when it first fights)".into(),
        };
        let formation = rules
            .arrival_formation(id)
            .filter(|f| *f != muster_shared::gbacw::oob::Formation::Wagon)
            .map(|f| format!(", enters in {}", f.name()))
            .unwrap_or_default();
        return format!(
            "{}, {strength}, morale {morale}{formation}",
            unit.kind.name()
        );
    }
    if let Some(leader) = oob.leaders.get(id) {
        return match &leader.role {
            LeaderRole::Army { command_points } => {
                format!("army commander, {command_points} command points")
            }
            LeaderRole::Division {
                integrity_radius,
                command_points,
                ..
            } => format!(
                "division commander, integrity radius {integrity_radius}, \
                 {command_points} command points"
            ),
            LeaderRole::Brigade { ratings, .. } | LeaderRole::Replacement { ratings } => format!(
                "brigade commander, effectiveness radius {}, rally rating {}",
                ratings.effectiveness_radius, ratings.rally
            ),
        };
    }
    String::new()
}

/// The next arrival of "Bring them all in": the first counter listed, at
/// its first entry hex with nothing on it (else its first), as offered.
fn next_arrival(state: &GbacwState, items: &[Item]) -> Option<GbacwAction> {
    let held = |h: &HexNumber| {
        state.units.values().any(|u| u.hex == Some(*h))
            || state.leaders.values().any(|l| l.hex == Some(*h))
    };
    let item = items.iter().find(|i| {
        i.hexes
            .values()
            .any(|a| matches!(a, GbacwAction::Arrive { .. }))
    })?;
    item.hexes
        .iter()
        .find(|(h, _)| !held(h))
        .or_else(|| item.hexes.iter().next())
        .map(|(_, a)| a.clone())
}

/// The counters the legal set places (set-up) or brings in (arrivals),
/// in the order it offers them, each with its hexes.
fn items(legal: &[GbacwAction]) -> Vec<Item> {
    let mut out: Vec<Item> = Vec::new();
    for a in legal {
        let (id, hex) = match a {
            GbacwAction::PlaceUnit { unit, hex, .. } => (unit, *hex),
            GbacwAction::PlaceLeader { leader, hex } => (leader, *hex),
            GbacwAction::Arrive { piece, hex, .. } => (piece, *hex),
            _ => continue,
        };
        let k = match out.iter().position(|i| i.id == *id) {
            Some(k) => k,
            None => {
                out.push(Item {
                    id: id.clone(),
                    hexes: BTreeMap::new(),
                });
                out.len() - 1
            }
        };
        out[k].hexes.entry(hex).or_insert_with(|| a.clone());
    }
    out
}

/// The acting side's reinforcements due by now that the legal set does
/// not bring in yet, by printed name and entry hex.
fn waiting(rules: &Gbacw, state: &GbacwState, items: &[Item]) -> Vec<String> {
    let Some(side) = rules.acting_seat(state).map(|s| rules.side_of(s)) else {
        return Vec::new();
    };
    let oob = &rules.game().oob;
    state
        .progress
        .to_arrive
        .iter()
        .filter(|id| !items.iter().any(|i| i.id == **id))
        .filter(|id| {
            oob.units
                .get(*id)
                .map(|u| &u.side)
                .or_else(|| oob.leaders.get(*id).map(|l| &l.side))
                == Some(side)
        })
        .filter_map(|id| {
            let a = rules.game().scenario.arrival_of(id)?;
            (a.plan.is_none() && a.areas.is_empty() && a.turn <= state.clock.turn)
                .then(|| format!("{} ({})", counter_name(rules, id), a.hex))
        })
        .collect()
}

/// `side`'s leaders not on the map, not arriving later (26.4) and not
/// offered in the tray yet.
fn leaders_not_offered(
    rules: &Gbacw,
    state: &GbacwState,
    side: &CounterId,
    items: &[Item],
) -> usize {
    let oob = &rules.game().oob;
    state
        .leaders
        .iter()
        .filter(|(id, l)| {
            l.hex.is_none()
                && oob.leaders.get(*id).is_some_and(|o| o.side == *side)
                && !state.progress.to_arrive.contains(*id)
                && !items.iter().any(|i| i.id == **id)
        })
        .count()
}

/// The printed name of the set-up area holding `hex`, if any.
fn area_of(rules: &Gbacw, hex: HexNumber) -> Option<String> {
    let game = rules.game();
    game.scenario
        .areas
        .iter()
        .find(|a| game.scenario.area_contains(&game.map.grid, a, hex))
        .map(|a| a.name.clone())
}

/// Whether `action` is one the tray answers (so the generic prompt need
/// not offer it as a button).
pub fn is_tray_action(action: &GbacwAction) -> bool {
    matches!(
        action,
        GbacwAction::PlaceUnit { .. }
            | GbacwAction::PlaceLeader { .. }
            | GbacwAction::EndSetUp
            | GbacwAction::Arrive { .. }
    )
}
