//! The GBACW map drawn from `gbacw::map::Map` data by the painter: terrain
//! colours, elevation shading, hexside features, hex numbers when zoomed
//! in; the counters of the state in stacks that fan out on hover; the
//! reachable hexes of the selected unit with their costs, and the gestures
//! that turn into `GbacwAction::Move` (click an empty reachable hex, or
//! drag the selected counter onto any reachable hex).
//!
//! One interactive rectangle drawn by hand, like the sandbox board (see
//! `board.rs` for why): the camera, grid geometry and stack layout are the
//! same code ([`Camera`], [`HexLayout`], [`stacks::lay_out`]).

use super::counter::{self, Look};
use super::drag_path::DrawnPath;
use super::narrate::mp_text;
use crate::app::camera::Camera;
use crate::app::counter::seat_colour;
use crate::app::hexgrid::{HEX_SIZE, HexLayout, hex_height};
use crate::app::stacks::{self, stack_step};
use egui::{
    Align2, Color32, CursorIcon, FontId, Painter, Pos2, Rect, Sense, Shape, Stroke, Ui, Vec2, vec2,
};
use muster_shared::SeatId;
use muster_shared::gbacw::charts::Multiplier;
use muster_shared::gbacw::facing::hexsides::can_fire_through;
use muster_shared::gbacw::los::{Los, Obstacle};
use muster_shared::gbacw::map::{HexNumber, Map, Offset, Orientation, SideKind, Terrain};
use muster_shared::gbacw::movement::Reach;
use muster_shared::gbacw::oob::{CounterId, Leader, Oob, Unit};
use muster_shared::gbacw::ruleset::radius_query::CommandRadius;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwAction, GbacwState, LeaderState, UnitState};
use std::collections::{BTreeMap, BTreeSet};

/// Below this many pixels per hex radius, hex numbers are clutter.
const NUMBERS_MIN_HEX_PX: f32 = 24.0;
/// Below this, the grid lines are dropped (the colours still show the hexes).
const GRID_MIN_HEX_PX: f32 = 7.0;
/// The least zoom a table opens at: counters about 33 px a side and the
/// hex numbers shown (a whole Cedar Mountain map fitted in the window
/// would give 12 px counters and no numbers).
pub const OPEN_ZOOM: f32 = 0.8;
/// Each + or − (key or button) zooms by this factor.
pub const ZOOM_STEP: f32 = 1.25;
/// Each arrow key press pans by this many screen points.
const PAN_STEP: f32 = 96.0;
/// How far, in screen points, the view may go past the map's edge (issue
/// 18: it could be panned until half the view, or all of it, was empty;
/// one arrow key's step leaves room to see an edge hex whole).
pub const EDGE_SLACK: f32 = PAN_STEP;

/// The map's buttons, for tests and for players.
pub const FIT: &str = "Fit";
pub const ZOOM_IN: &str = "+";
pub const ZOOM_OUT: &str = "\u{2212}";
pub const HELP_BUTTON: &str = "?";
/// The help overlay's title.
pub const HELP_TITLE: &str = "Keys and mouse";

/// The help overlay's lines: (key or gesture, what it does).
pub const HELP_KEYS: [(&str, &str); 8] = [
    ("+ or =", "zoom in"),
    ("- (minus)", "zoom out"),
    ("0", "fit the whole map in the window"),
    ("arrow keys", "pan the map"),
    ("Space", "end the phase (asks first)"),
    ("Z", "take back your last move, where allowed"),
    ("Esc", "clear the selection, close this help"),
    ("F1 or ?", "show or hide this help"),
];
pub const HELP_MOUSE: [(&str, &str); 10] = [
    (
        "click a counter",
        "select it: where it can move is lit, with the cost",
    ),
    ("click a lit hex", "move the selection there"),
    ("drag a selected counter", "draw its path hex by hex"),
    (
        "drag a tray row",
        "onto a lit hex: set the counter up there, or bring it in",
    ),
    ("shift-click", "add a counter of the same hex to the move"),
    ("right-click", "clear the selection"),
    ("drag the map", "pan"),
    ("mouse wheel or pinch", "zoom around the pointer"),
    ("hover a stack", "fan it out"),
    ("hover a hex", "its number, terrain, level and hexsides"),
];

/// The terrain's colour on the map. A hex showing several takes the first
/// of [`TERRAIN_ORDER`] for its fill and the second as an inner hex.
pub fn terrain_colour(t: Terrain) -> Color32 {
    match t {
        Terrain::Clear => Color32::from_rgb(0xdc, 0xd8, 0xa8),
        Terrain::Woods => Color32::from_rgb(0x4e, 0x7a, 0x3a),
        Terrain::Orchard => Color32::from_rgb(0x8c, 0xb0, 0x5a),
        Terrain::Town => Color32::from_rgb(0xb0, 0x84, 0x74),
        Terrain::Swamp => Color32::from_rgb(0x6a, 0x8e, 0x84),
        Terrain::Corn => Color32::from_rgb(0xe0, 0xbc, 0x48),
        Terrain::Lake => Color32::from_rgb(0x5a, 0x8c, 0xc8),
    }
}

/// Which terrain a hex is painted as first.
const TERRAIN_ORDER: [Terrain; 7] = [
    Terrain::Lake,
    Terrain::Town,
    Terrain::Swamp,
    Terrain::Woods,
    Terrain::Orchard,
    Terrain::Corn,
    Terrain::Clear,
];

/// Higher ground is painted lighter and browner, a step per level, the
/// way SPI maps tint their contours.
pub fn shade(fill: Color32, level: u8) -> Color32 {
    let t = (f32::from(level) * 0.16).min(0.7);
    fill.lerp_to_gamma(Color32::from_rgb(0xd8, 0xb0, 0x78), t)
}

/// The screen geometry of a GBACW map's grid.
pub fn layout_of(map: &Map) -> HexLayout {
    let g = &map.grid;
    HexLayout {
        pointy: g.orientation == Orientation::Pointy,
        shifted_parity: match g.offset {
            Offset::Even => 0,
            Offset::Odd => 1,
        },
        first: (u16::from(g.cols.0), u16::from(g.rows.0)),
    }
}

fn centre(layout: HexLayout, n: HexNumber) -> Pos2 {
    layout.centre(u16::from(n.col()), u16::from(n.row()))
}

/// A counter on the map this frame.
#[derive(Clone, Copy)]
pub enum Piece<'a> {
    Unit(&'a CounterId, &'a Unit, &'a UnitState),
    Leader(&'a CounterId, &'a Leader, &'a LeaderState),
}

impl<'a> Piece<'a> {
    pub fn id(self) -> &'a CounterId {
        match self {
            Piece::Unit(id, ..) | Piece::Leader(id, ..) => id,
        }
    }

    pub fn side(self) -> &'a CounterId {
        match self {
            Piece::Unit(_, u, _) => &u.side,
            Piece::Leader(_, l, _) => &l.side,
        }
    }
}

/// Every counter on the map by hex: units bottom first, leaders on top
/// (as players stack them, so the leader's ratings show).
pub fn stacks_of<'a>(oob: &'a Oob, state: &'a GbacwState) -> BTreeMap<HexNumber, Vec<Piece<'a>>> {
    let mut out: BTreeMap<HexNumber, Vec<Piece<'a>>> = BTreeMap::new();
    for (id, u) in &state.units {
        if let (Some(hex), Some(unit)) = (u.hex, oob.units.get(id)) {
            out.entry(hex).or_default().push(Piece::Unit(id, unit, u));
        }
    }
    // GBACW 8.41: the engine's stacking order, top first, drawn bottom
    // first (the top unit is the one fire and morale read).
    for (hex, pieces) in out.iter_mut() {
        let order = muster_shared::gbacw::ruleset::stack_order::stack_at(state, *hex);
        let rank = |p: &Piece<'_>| match p {
            Piece::Unit(id, ..) => order.iter().position(|o| o == *id).unwrap_or(0),
            Piece::Leader(..) => 0,
        };
        pieces.sort_by_key(|p| std::cmp::Reverse(rank(p)));
    }
    for (id, l) in &state.leaders {
        if let (Some(hex), Some(leader)) = (l.hex, oob.leaders.get(id))
            && l.casualty.is_none()
        {
            out.entry(hex)
                .or_default()
                .push(Piece::Leader(id, leader, l));
        }
    }
    out
}

/// What the map needs this frame.
pub struct MapInput<'a> {
    pub map: &'a Map,
    pub oob: &'a Oob,
    pub state: &'a GbacwState,
    /// Sides by seat: `sides[0]` is seat 0's (for the counters' colours).
    pub sides: &'a [CounterId; 2],
    /// The rules, for the reachable hexes; `None` draws without play.
    pub rules: Option<&'a Gbacw>,
    /// The seat this viewer acts for, when it is its turn to act.
    pub acting: Option<SeatId>,
    /// The follower's position in the log: the reach is worked out again
    /// when it changes.
    pub seq: u64,
}

/// The selected counter's reachable hexes, worked out for one state.
struct ReachCache {
    lead: CounterId,
    seq: u64,
    /// Who acted and whether moves were legal when it was worked out.
    acting: Option<SeatId>,
    no_moves: bool,
    reach: Option<Reach>,
}

enum Drag {
    Pan,
    /// The selection, grabbed from its hex, and the path drawn so far.
    Selection {
        from: HexNumber,
        grab: Vec2,
        path: DrawnPath,
    },
}

/// What the line-of-sight preview found for the hovered hex.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SightPreview {
    pub from: HexNumber,
    pub to: HexNumber,
    /// GBACW 9.23: counting the target hex, not the firer's.
    pub range: u32,
    /// GBACW 9.7.
    pub los: Los,
    /// GBACW 7.22: the line leaves through a frontal hexside.
    pub frontal: bool,
    /// GBACW 9.25: the weapon's multiplier at this range; `None` beyond it
    /// (or for a unit with no weapon).
    pub multiplier: Option<Multiplier>,
}

/// The map view's own state: camera, selection, fanned stack, gesture.
#[derive(Default)]
pub struct MapView {
    /// Why the path being dragged (or just dropped) is refused, with its
    /// case; shown in the header.
    pub path_refusal: Option<String>,
    /// Esc or a right-click cleared the map's selection this frame: the
    /// tray stops placing too (read with [`MapView::take_cleared`]).
    cleared: bool,
    /// Lines of fire to draw this frame (firer, target): the fire order or
    /// declared attack under the pointer in the side panel.
    pub fire_lines: Vec<(CounterId, HexNumber)>,
    /// Set-up areas to mark this frame (Corinth 29.1's Assault Areas while
    /// the assault is plotted; `area_overlay.rs`).
    pub area_marks: Vec<super::area_overlay::AreaMark>,
    /// Hexes lit for the piece picked in a tray (set-up or arrivals,
    /// `tray.rs`), each with the legal action a click there sends; set
    /// every frame by the table.
    pub lit: BTreeMap<HexNumber, GbacwAction>,
    /// Every set-up hex of the tray's counters, drawn faintly (the
    /// tray's `faint`); a click on an empty one while nothing is lit sets
    /// up the first counter offered there.
    pub faint: BTreeMap<HexNumber, GbacwAction>,
    /// Retreat and advance paths to draw this frame, by the lit hex each
    /// ends in (`place_answers`; their answers are in `lit`).
    pub answer_paths: BTreeMap<HexNumber, Vec<HexNumber>>,
    /// Entry hexes to mark this frame (arrivals due), with their words.
    pub entry_marks: Vec<(HexNumber, String)>,
    last_fire_sights: Vec<SightPreview>,
    /// The selected leader's radius, worked out once per log entry.
    radius: Option<(CounterId, u64, Option<CommandRadius>)>,
    /// The last path dragged and released (what was checked and sent).
    last_path: Option<DrawnPath>,
    /// A hex to bring into view next frame ([`MapView::centre_on`]).
    centre_on: Option<HexNumber>,
    /// Show line of sight and range from the selected unit to the hovered
    /// hex instead of the move path.
    pub sight: bool,
    last_sight: Option<SightPreview>,
    camera: Option<Camera>,
    /// The selected counters, all in one hex; the first leads (its reach
    /// is shown, and the move follows its path).
    selected: Vec<CounterId>,
    fanned: Option<HexNumber>,
    reach: Option<ReachCache>,
    drag: Option<Drag>,
    hovered_hex: Option<HexNumber>,
    last_rect: Option<Rect>,
    last_layout: Option<HexLayout>,
    last_pointer: Option<Pos2>,
    last_slots: Vec<(CounterId, Rect)>,
    /// Corinth 24.21: crews away from their guns as drawn last frame, by
    /// battery.
    last_crews: Vec<(CounterId, Rect)>,
    /// Corinth 24.21: the battery whose crew (away) is selected to move.
    selected_crew: Option<CounterId>,
    /// Whether moving is among the acting seat's legal actions now (set
    /// every frame by the table; a unit selected in the Defensive Fire
    /// Phase lights no movement range).
    pub no_moves: bool,
    /// Where to look when the table opens (the acting side's units).
    open_focus: Option<HexNumber>,
    /// The map's size in world units, last frame (for Fit).
    last_extent: Option<Vec2>,
    /// Whether the help overlay (F1, ?) is shown.
    pub help: bool,
}

impl MapView {
    pub fn selected(&self) -> &[CounterId] {
        &self.selected
    }

    pub fn select(&mut self, pieces: Vec<CounterId>) {
        self.selected = pieces;
    }

    /// Bring hex `h` to the middle of the view on the next frame, unless
    /// it is already well inside it.
    pub fn centre_on(&mut self, h: HexNumber) {
        self.centre_on = Some(h);
    }

    pub fn camera(&self) -> Option<Camera> {
        self.camera
    }

    /// Where the first frame looks: `h` in the middle, at [`OPEN_ZOOM`] or
    /// closer (only before the camera exists).
    pub fn open_on(&mut self, h: Option<HexNumber>) {
        if self.camera.is_none() {
            self.open_focus = h;
        }
    }

    /// Zoom by `factor` around the middle of the map's view.
    pub fn zoom_by(&mut self, factor: f32) {
        if let (Some(c), Some(r)) = (self.camera.as_mut(), self.last_rect) {
            c.zoom_at(r, r.center(), factor);
        }
    }

    /// Show the whole map.
    pub fn fit(&mut self) {
        if let (Some(r), Some(e)) = (self.last_rect, self.last_extent) {
            self.camera = Some(Camera::fit(r, e));
        }
    }

    /// Move the view by `screen` points.
    pub fn pan(&mut self, screen: Vec2) {
        if let Some(c) = self.camera.as_mut() {
            c.offset += screen / c.zoom;
        }
    }

    /// Counters' side in screen points at the current zoom.
    pub fn counter_px(&self) -> Option<f32> {
        self.camera.map(|c| hex_height() * 0.74 * c.zoom)
    }

    /// Whether hex numbers are drawn at the current zoom.
    pub fn shows_numbers(&self) -> bool {
        self.camera
            .is_some_and(|c| HEX_SIZE * c.zoom >= NUMBERS_MIN_HEX_PX)
    }

    pub fn set_camera(&mut self, camera: Camera) {
        self.camera = Some(camera);
    }

    /// The reachable hexes shown for the selection, if any.
    /// Whether Esc or a right-click cleared the selection since the last
    /// call.
    pub fn take_cleared(&mut self) -> bool {
        std::mem::take(&mut self.cleared)
    }

    pub fn reach(&self) -> Option<&Reach> {
        self.reach.as_ref().and_then(|r| r.reach.as_ref())
    }

    /// Where the centre of hex `n` was drawn last frame, in screen points.
    pub fn hex_screen_pos(&self, n: HexNumber) -> Option<Pos2> {
        let (rect, layout, cam) = (self.last_rect?, self.last_layout?, self.camera?);
        Some(cam.to_screen(rect, centre(layout, n)))
    }

    /// The map's hex under screen point `p` as drawn last frame (a tray
    /// counter dropped there).
    pub fn hex_at_screen(&self, p: Pos2) -> Option<HexNumber> {
        let (rect, layout, cam) = (self.last_rect?, self.last_layout?, self.camera?);
        if !rect.contains(p) {
            return None;
        }
        let (c, r) = layout.hex_at(cam.to_world(rect, p))?;
        let n = HexNumber::new(u8::try_from(c).ok()?, u8::try_from(r).ok()?)?;
        Some(n)
    }

    /// Where counter `id` was drawn last frame.
    pub fn counter_rect(&self, id: &CounterId) -> Option<Rect> {
        self.last_slots
            .iter()
            .find(|(c, _)| c == id)
            .map(|(_, r)| *r)
    }

    /// Where the crew of `battery`, away from its guns, was drawn last
    /// frame (Corinth 24.21).
    pub fn crew_rect(&self, battery: &CounterId) -> Option<Rect> {
        self.last_crews
            .iter()
            .find(|(c, _)| c == battery)
            .map(|(_, r)| *r)
    }

    /// The battery whose crew is selected to move (Corinth 24.21).
    pub fn selected_crew(&self) -> Option<&CounterId> {
        self.selected_crew.as_ref()
    }

    /// The path being dragged now, as drawn and checked so far.
    pub fn dragged_path(&self) -> Option<&DrawnPath> {
        match &self.drag {
            Some(Drag::Selection { path, .. }) => Some(path),
            _ => None,
        }
    }

    /// The last path released (sent, or refused with `path_refusal`).
    pub fn released_path(&self) -> Option<&DrawnPath> {
        self.last_path.as_ref()
    }

    /// The lines of fire drawn last frame (from `fire_lines`).
    pub fn fire_sights(&self) -> &[SightPreview] {
        &self.last_fire_sights
    }

    /// The command radius drawn for the selected leader, if any.
    pub fn command_radius(&self) -> Option<&CommandRadius> {
        self.radius.as_ref().and_then(|(_, _, r)| r.as_ref())
    }

    /// The line-of-sight preview drawn last frame.
    pub fn sight_preview(&self) -> Option<&SightPreview> {
        self.last_sight.as_ref()
    }

    /// The stack fanned out under the pointer.
    pub fn fanned(&self) -> Option<HexNumber> {
        self.fanned
    }

    /// The map's rectangle last frame.
    pub fn rect(&self) -> Option<Rect> {
        self.last_rect
    }

    fn refresh_reach(&mut self, input: &MapInput<'_>) {
        let Some(lead) = self.selected.first() else {
            self.reach = None;
            return;
        };
        let fresh = self.reach.as_ref().is_some_and(|r| {
            r.lead == *lead
                && r.seq == input.seq
                && r.acting == input.acting
                && r.no_moves == self.no_moves
        });
        if fresh {
            return;
        }
        // Only the side that acts sees where it can go.
        let own = |rules: &Gbacw| {
            input
                .acting
                .is_some_and(|s| Some(rules.side_of(s)) == side_of(input.oob, lead))
        };
        // Nor in a phase without movement (the Defensive Fire Phase...).
        let reach = input
            .rules
            .filter(|r| own(r) && !self.no_moves)
            .and_then(|r| r.reachable(input.state, lead));
        self.reach = Some(ReachCache {
            lead: lead.clone(),
            seq: input.seq,
            acting: input.acting,
            no_moves: self.no_moves,
            reach,
        });
    }

    /// GBACW 17.12, 17.21: the selected leader's radius, for any viewer
    /// (a leader's radius is no secret: his counter is on the map).
    fn refresh_radius(&mut self, input: &MapInput<'_>) {
        let Some(lead) = self
            .selected
            .first()
            .filter(|l| input.oob.leaders.contains_key(*l))
        else {
            self.radius = None;
            return;
        };
        if self
            .radius
            .as_ref()
            .is_some_and(|(l, s, _)| l == lead && *s == input.seq)
        {
            return;
        }
        let r = input
            .rules
            .and_then(|r| r.command_radius(input.state, lead));
        self.radius = Some((lead.clone(), input.seq, r));
    }

    /// Why a click on `to` moved nothing, with the selection kept; `None`
    /// when nothing needs saying (no selection, its own hex).
    fn why_not(&self, input: &MapInput<'_>, to: HexNumber) -> Option<String> {
        let lead = self.selected.first()?;
        let name = input
            .rules
            .map_or_else(|| lead.0.clone(), |r| super::narrate::counter_name(r, lead));
        let clear = "Right-click or Esc clears the selection.";
        let reach = self.reach();
        if reach.is_some_and(|r| r.start == to) {
            return None;
        }
        if input.acting.is_none() {
            return Some(format!(
                "Not your turn: {name} stays selected for a look. {clear}"
            ));
        }
        if self.no_moves {
            return Some(format!(
                "No moves now: units move in the Movement Phase; this phase's orders are under \
                 Orders. {clear}"
            ));
        }
        match reach {
            None => Some(format!("{name} cannot move now. {clear}")),
            Some(_) => Some(format!(
                "{name} cannot reach {to} this phase: only the lit hexes are in its movement \
                 range. {clear}"
            )),
        }
    }

    /// Keys: + and = zoom in, - zooms out, 0 fits, arrows pan, F1 and ?
    /// toggle the help, Esc clears the selection and closes the help.
    /// Nothing while a text field has the keyboard.
    fn keys(&mut self, ui: &Ui, rect: Rect) {
        use egui::Key;
        if ui.ctx().egui_wants_keyboard_input() {
            return;
        }
        let (zoom_in, zoom_out, fit, pan, help, esc) = ui.input(|i| {
            let plain = !i.modifiers.command && !i.modifiers.ctrl && !i.modifiers.alt;
            let k = |key| plain && i.key_pressed(key);
            let mut pan = Vec2::ZERO;
            for (key, d) in [
                (Key::ArrowLeft, vec2(-1.0, 0.0)),
                (Key::ArrowRight, vec2(1.0, 0.0)),
                (Key::ArrowUp, vec2(0.0, -1.0)),
                (Key::ArrowDown, vec2(0.0, 1.0)),
            ] {
                if k(key) {
                    pan += d * PAN_STEP;
                }
            }
            (
                k(Key::Plus) || k(Key::Equals),
                k(Key::Minus),
                k(Key::Num0),
                pan,
                k(Key::F1) || k(Key::Questionmark),
                k(Key::Escape),
            )
        });
        if let Some(c) = self.camera.as_mut() {
            if zoom_in {
                c.zoom_at(rect, rect.center(), ZOOM_STEP);
            }
            if zoom_out {
                c.zoom_at(rect, rect.center(), 1.0 / ZOOM_STEP);
            }
            if pan != Vec2::ZERO {
                c.offset += pan / c.zoom;
            }
        }
        if fit {
            self.fit();
        }
        if help {
            self.help = !self.help;
        }
        if esc {
            self.cleared = true;
            self.help = false;
            self.selected.clear();
            self.selected_crew = None;
            self.path_refusal = None;
        }
    }

    /// Fit, +, − and ? over the map's top-right corner.
    fn buttons(&mut self, ui: &mut Ui, rect: Rect) {
        let size = vec2(34.0, 26.0);
        let labels = [
            (HELP_BUTTON, "Keys and mouse (F1 or ?)"),
            (ZOOM_OUT, "Zoom out (-)"),
            (ZOOM_IN, "Zoom in (+)"),
            (FIT, "Show the whole map (0)"),
        ];
        let mut right = rect.right() - 8.0;
        for (label, hover) in labels {
            let w = if label == FIT { 44.0 } else { size.x };
            let r = Rect::from_min_size(egui::pos2(right - w, rect.top() + 8.0), vec2(w, size.y));
            right -= w + 4.0;
            let b = egui::Button::new(egui::RichText::new(label).strong().size(15.0))
                .fill(Color32::from_rgba_unmultiplied(0x20, 0x24, 0x20, 220));
            if ui.put(r, b).on_hover_text(hover).clicked() {
                match label {
                    FIT => self.fit(),
                    ZOOM_IN => self.zoom_by(ZOOM_STEP),
                    ZOOM_OUT => self.zoom_by(1.0 / ZOOM_STEP),
                    _ => self.help = !self.help,
                }
            }
        }
    }

    /// The help overlay: every key and mouse gesture of the map.
    fn help_ui(&mut self, ui: &Ui) {
        let mut open = self.help;
        egui::Window::new(HELP_TITLE)
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .anchor(Align2::CENTER_CENTER, vec2(0.0, 0.0))
            .show(ui.ctx(), |ui| {
                for (title, lines) in [("Keys", &HELP_KEYS[..]), ("Mouse", &HELP_MOUSE[..])] {
                    ui.strong(title);
                    egui::Grid::new(("help", title))
                        .num_columns(2)
                        .spacing([16.0, 4.0])
                        .show(ui, |ui| {
                            for (k, what) in lines {
                                ui.label(egui::RichText::new(*k).monospace().strong());
                                ui.label(*what);
                                ui.end_row();
                            }
                        });
                    ui.add_space(6.0);
                }
                ui.weak("The side panel has the selected counter's card and orders; the top bar says whose turn it is.");
            });
        self.help = open;
    }

    /// The move along the reach's path to `to` for the whole selection.
    fn move_to(&self, to: HexNumber) -> Option<GbacwAction> {
        let reach = self.reach()?;
        if to == reach.start {
            return None;
        }
        let path = reach.path_to(to)?;
        Some(GbacwAction::Move {
            pieces: self.selected.clone(),
            path: path[1..].to_vec(),
        })
    }

    /// Draw the map and its counters; returns the actions the gestures asked for.
    pub fn show(&mut self, ui: &mut Ui, input: &MapInput<'_>) -> Vec<GbacwAction> {
        let mut out = Vec::new();
        let map = input.map;
        let layout = layout_of(map);
        let g = &map.grid;
        let extent = layout.extent(
            u16::from(g.cols.1.saturating_sub(g.cols.0)) + 1,
            u16::from(g.rows.1.saturating_sub(g.rows.0)) + 1,
        );
        let (rect, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
        self.last_rect = Some(rect);
        self.last_layout = Some(layout);
        self.last_extent = Some(extent);
        let focus = self.open_focus.take();
        let cam = self.camera.get_or_insert_with(|| {
            // Open close enough to read the counters and the hex numbers
            // (closer still when the whole map fits larger), on the acting
            // side's units (or the map's middle). The same rule whatever
            // the zoom, so a window a few points taller or shorter opens
            // the same way.
            let zoom = Camera::fit(rect, extent).zoom.max(OPEN_ZOOM);
            let at = focus.map_or((extent / 2.0).to_pos2(), |h| centre(layout, h));
            Camera::looking_at(rect, extent, zoom, at)
        });
        cam.wheel_zoom(ui, &response, rect);
        self.keys(ui, rect);
        let cam = self.camera.as_mut().expect("set just above");
        if let Some(h) = self.centre_on.take() {
            let at = cam.to_screen(rect, centre(layout, h));
            if !rect
                .shrink(rect.width().min(rect.height()) * 0.15)
                .contains(at)
            {
                cam.offset += (at - rect.center()) / cam.zoom;
            }
        }
        cam.keep_board_in_view(rect, extent, EDGE_SLACK);
        let cam = *cam;
        let pointer = ui.input(|i| i.pointer.latest_pos());
        if pointer.is_some() {
            self.last_pointer = pointer;
        }
        // A selection that is no longer on the map (or in one hex) is dropped.
        let here = |id: &CounterId| {
            input
                .state
                .units
                .get(id)
                .and_then(|u| u.hex)
                .or_else(|| input.state.leaders.get(id).and_then(|l| l.hex))
        };
        let sel_hex = self.selected.first().and_then(here);
        if sel_hex.is_none() || self.selected.iter().any(|id| here(id) != sel_hex) {
            self.selected.clear();
        }
        self.refresh_reach(input);
        self.refresh_radius(input);

        let hex_at = |p: Pos2| -> Option<HexNumber> {
            let (c, r) = layout.hex_at(cam.to_world(rect, p))?;
            let n = HexNumber::new(u8::try_from(c).ok()?, u8::try_from(r).ok()?)?;
            g.contains(n).then_some(n)
        };
        self.hovered_hex = pointer.filter(|p| rect.contains(*p)).and_then(hex_at);

        // Counters: lay out, fan the stack under the pointer.
        let stacks = stacks_of(input.oob, input.state);
        let side = hex_height() * 0.74 * cam.zoom;
        let piles = |fanned| {
            let list = stacks
                .iter()
                .map(|(h, s)| (*h, cam.to_screen(rect, centre(layout, *h)), s.clone()));
            stacks::lay_out(list, rect, side, fanned)
        };
        let mut slots = piles(self.fanned);
        if self.drag.is_none() {
            let over_fan = self.fanned.is_some_and(|f| {
                let fan = slots
                    .iter()
                    .filter(|s| s.stack == f)
                    .fold(Rect::NOTHING, |r, s| r.union(s.rect));
                pointer.is_some_and(|p| fan.expand(side * 0.15).contains(p))
            });
            if !over_fan {
                let hit = pointer.and_then(|p| slots.iter().rev().find(|s| s.rect.contains(p)));
                let want = hit
                    .map(|s| s.stack)
                    .filter(|h| stacks.get(h).is_some_and(|s| s.len() > 1));
                if want != self.fanned {
                    self.fanned = want;
                    slots = piles(self.fanned);
                }
            }
        }
        self.last_slots.clear();
        self.last_slots
            .extend(slots.iter().map(|s| (s.item.id().clone(), s.rect)));
        let hit = |p: Pos2| slots.iter().rev().find(|s| s.rect.contains(p));
        let hovered_piece = pointer
            .filter(|p| rect.contains(*p))
            .and_then(&hit)
            .map(|s| s.item.id().clone());

        // Gestures.
        if response.drag_started() {
            let origin = ui.input(|i| i.pointer.press_origin()).or(pointer);
            let grabbed = origin.and_then(|p| hit(p).map(|s| (p, s)));
            self.drag = Some(match grabbed {
                Some((p, s)) if self.selected.contains(s.item.id()) && self.reach().is_some() => {
                    Drag::Selection {
                        from: s.stack,
                        grab: p - s.rect.center(),
                        path: DrawnPath::new(s.stack),
                    }
                }
                _ => Drag::Pan,
            });
            self.fanned = None;
            self.path_refusal = None;
        }
        // The path follows the pointer hex by hex, checked by the engine.
        if let Some(Drag::Selection { path, .. }) = self.drag.as_mut()
            && let Some(cur) = pointer.and_then(hex_at)
        {
            path.follow(&map.grid, cur);
            if let Some(rules) = input.rules {
                path.check(rules, input.state, &self.selected);
            }
        }
        if let Some(Drag::Pan) = self.drag
            && response.dragged()
            && let Some(c) = self.camera.as_mut()
        {
            c.offset -= response.drag_delta() / c.zoom;
            c.keep_board_in_view(rect, extent, EDGE_SLACK);
        }
        if response.drag_stopped() {
            if let Some(Drag::Selection { mut path, .. }) = self.drag.take() {
                let at = response.interact_pointer_pos().or(self.last_pointer);
                if let Some(cur) = at.and_then(hex_at) {
                    path.follow(&map.grid, cur);
                }
                if let Some(rules) = input.rules {
                    path.check(rules, input.state, &self.selected);
                }
                match path.release(&self.selected) {
                    Ok(Some(a)) => out.push(a),
                    Ok(None) => {}
                    Err(why) => self.path_refusal = Some(why),
                }
                self.last_path = Some(path);
            }
            self.drag = None;
        }
        if response.clicked()
            && let Some(p) = response.interact_pointer_pos()
        {
            self.path_refusal = None;
            let shift = ui.input(|i| i.modifiers.shift);
            // Corinth 24.21: a crew away is picked by its own counter; the
            // next click on a hex moves it there (the engine checks).
            let crew_hit = self
                .last_crews
                .iter()
                .rev()
                .find(|(_, r)| r.contains(p))
                .map(|(b, _)| b.clone());
            if let Some(b) = crew_hit {
                self.selected_crew = Some(b);
                self.selected.clear();
                return out;
            }
            if let Some(b) = self.selected_crew.take()
                && let Some(to) = hex_at(p)
                && let Some(path) = crew_path(map, input.state, &b, to)
            {
                out.push(GbacwAction::MoveCrew { battery: b, path });
                return out;
            }
            // A lit hex (the tray's piece may go there) takes the click.
            if let Some(a) = hex_at(p).and_then(|h| self.lit.get(&h)) {
                out.push(a.clone());
                return out;
            }
            match hit(p) {
                Some(s) => {
                    let id = s.item.id().clone();
                    if shift && sel_hex == Some(s.stack) && !self.selected.contains(&id) {
                        // Shift-click: add a counter of the same hex to the move.
                        self.selected.push(id);
                    } else if shift && sel_hex == Some(s.stack) {
                        self.selected.retain(|c| *c != id);
                    } else {
                        self.selected = vec![id];
                    }
                }
                None => match hex_at(p) {
                    // Nothing picked in the set-up tray: an empty faint
                    // hex sets up the first counter offered there.
                    Some(h) if self.lit.is_empty() && self.faint.contains_key(&h) => {
                        out.push(self.faint[&h].clone());
                    }
                    Some(h) => match self.move_to(h) {
                        Some(a) => out.push(a),
                        // Say why rather than drop the selection silently.
                        None => self.path_refusal = self.why_not(input, h),
                    },
                    None => self.selected.clear(),
                },
            }
            self.refresh_reach(input);
        }
        if response.secondary_clicked() {
            self.cleared = true;
            self.selected.clear();
            self.path_refusal = None;
        }

        // Paint.
        let painter = ui.painter_at(rect);
        painter.rect_filled(rect, 0.0, Color32::from_rgb(0x3a, 0x40, 0x3a));
        let view = cam.world_view(rect).expand(HEX_SIZE * 2.0);
        paint_terrain(&painter, map, layout, cam, rect, view);
        paint_hexsides(&painter, map, layout, cam, rect, view);
        let hex_px = HEX_SIZE * cam.zoom;
        if hex_px >= NUMBERS_MIN_HEX_PX {
            paint_numbers(&painter, map, layout, cam, rect, view);
        }
        self.last_sight = None;
        self.last_fire_sights = match input.rules {
            Some(rules) => std::mem::take(&mut self.fire_lines)
                .iter()
                .filter_map(|(firer, target)| sight_preview(rules, input.state, firer, *target))
                .collect(),
            None => Vec::new(),
        };
        if self.sight {
            if let (Some(rules), Some(lead), Some(to)) =
                (input.rules, self.selected.first(), self.hovered_hex)
                && let Some(preview) = sight_preview(rules, input.state, lead, to)
            {
                self.last_sight = Some(preview);
            }
        } else if let Some(reach) = self.reach() {
            paint_reach(&painter, reach, layout, cam, rect, hex_px);
            let target = match &self.drag {
                Some(Drag::Selection { .. }) => None,
                _ if hovered_piece.is_none() => self.hovered_hex,
                _ => None,
            };
            if let Some(Drag::Selection { path, .. }) = &self.drag {
                path.paint(&painter, layout, cam, rect, hex_px);
            }
            if let Some(path) = target.and_then(|t| reach.path_to(t)) {
                let pts: Vec<Pos2> = path
                    .iter()
                    .map(|h| cam.to_screen(rect, centre(layout, *h)))
                    .collect();
                painter.add(Shape::line(
                    pts,
                    Stroke::new(
                        (hex_px * 0.12).max(2.0),
                        Color32::from_rgb(0xff, 0xd7, 0x00),
                    ),
                ));
            }
        }
        let at = |h: HexNumber| centre(layout, h);
        super::area_overlay::paint(
            &painter,
            map,
            &self.area_marks,
            layout,
            at,
            cam,
            rect,
            hex_px,
        );
        paint_entries(&painter, &self.entry_marks, layout, cam, rect, hex_px);
        paint_faint(&painter, &self.faint, &self.lit, layout, cam, rect, hex_px);
        paint_lit(&painter, &self.lit, layout, cam, rect, hex_px);
        paint_answer_paths(
            &painter,
            &self.answer_paths,
            self.hovered_hex,
            layout,
            cam,
            rect,
            hex_px,
        );
        // Over the reach's outlines, under the counters.
        if let Some(r) = self.command_radius() {
            paint_radius(&painter, map, r, layout, cam, rect, hex_px);
        }
        let dragging = matches!(self.drag, Some(Drag::Selection { .. }));
        let oc = &input.state.command.out_of_command;
        for s in &slots {
            if dragging && self.selected.contains(s.item.id()) {
                continue;
            }
            let look = Look {
                selected: self.selected.contains(s.item.id()),
                hovered: hovered_piece.as_ref() == Some(s.item.id()),
                ghost: false,
                out_of_command: oc.contains(s.item.id()),
                fouled: input.state.rapid_fire.fouled.contains(s.item.id()),
                crew_away: input.state.crews_away.contains_key(s.item.id()),
            };
            paint_piece(&painter, s.rect, s.item, input, layout, look);
        }
        // Corinth 24.21: crews away from their guns, each a small counter
        // in the corner of the hex it stands in.
        self.last_crews.clear();
        for (battery, at) in &input.state.crews_away {
            let (Some(unit), Some(st)) =
                (input.oob.units.get(battery), input.state.units.get(battery))
            else {
                continue;
            };
            let c = cam.to_screen(rect, centre(layout, *at));
            let r =
                Rect::from_center_size(c + vec2(side * 0.3, side * 0.3), Vec2::splat(side * 0.62));
            let look = Look {
                selected: self.selected_crew.as_ref() == Some(battery),
                ..Look::default()
            };
            let routed = !input.state.crews_rallied.contains(battery);
            let fill = side_colour(input.sides, &unit.side);
            counter::paint_crew(&painter, r, unit, st, routed, fill, look);
            self.last_crews.push((battery.clone(), r));
        }
        if let (Some(Drag::Selection { grab, from, .. }), Some(p)) = (&self.drag, pointer) {
            let moving: Vec<Piece<'_>> = stacks
                .get(from)
                .map(|s| {
                    s.iter()
                        .filter(|c| self.selected.contains(c.id()))
                        .copied()
                        .collect()
                })
                .unwrap_or_default();
            for (k, piece) in moving.into_iter().enumerate() {
                let c = p - *grab + stack_step(side) * k as f32;
                let r = Rect::from_center_size(c, Vec2::splat(side));
                let look = Look {
                    selected: true,
                    ghost: true,
                    ..Look::default()
                };
                paint_piece(&painter, r, piece, input, layout, look);
            }
            ui.ctx().set_cursor_icon(CursorIcon::Grabbing);
        } else if hovered_piece.is_some() {
            ui.ctx().set_cursor_icon(CursorIcon::PointingHand);
        }
        if let Some(preview) = &self.last_sight {
            paint_sight(&painter, preview, layout, cam, rect);
        }
        for preview in &self.last_fire_sights {
            paint_sight(&painter, preview, layout, cam, rect);
        }
        if let Some(r) = self.command_radius() {
            paint_radius_label(&painter, r, layout, cam, rect, hex_px);
        }
        super::area_overlay::paint_labels(&painter, &self.area_marks, at, cam, rect);
        paint_notice(&painter, rect, map);
        if let Some(h) = self.hovered_hex
            && self.drag.is_none()
            && self.last_sight.is_none()
        {
            hex_tooltip(ui, &response, map, h, self.reach());
        }
        self.buttons(ui, rect);
        if self.help {
            self.help_ui(ui);
        }
        out
    }
}

/// Corinth 24.21: a straight way for `battery`'s crew, away, to `to`:
/// each step the neighbour nearest `to` (the engine checks costs, ZOCs
/// and the routed crew's one hex).
fn crew_path(
    map: &Map,
    state: &GbacwState,
    battery: &CounterId,
    to: HexNumber,
) -> Option<Vec<HexNumber>> {
    let mut at = *state.crews_away.get(battery)?;
    let mut path = Vec::new();
    while at != to && path.len() < 16 {
        at = map
            .grid
            .neighbours_on_map(at)
            .into_iter()
            .map(|(_, h)| h)
            .min_by_key(|h| map.grid.distance(*h, to))?;
        path.push(at);
    }
    (!path.is_empty() && at == to).then_some(path)
}

/// GBACW 9.2, 9.7, 7.22: what `lead` (a unit) would see and reach
/// firing at `to` now.
fn sight_preview(
    rules: &Gbacw,
    state: &GbacwState,
    lead: &CounterId,
    to: HexNumber,
) -> Option<SightPreview> {
    let unit = state.units.get(lead)?;
    let from = unit.hex?;
    if from == to {
        return None;
    }
    let game = rules.game();
    let grid = &game.map.grid;
    let printed = game.oob.units.get(lead)?;
    let range = grid.distance(from, to);
    let multiplier = printed
        .weapon
        .as_deref()
        .and_then(|w| game.charts.range.weapon(w))
        .and_then(|w| w.multiplier(range));
    Some(SightPreview {
        from,
        to,
        range,
        los: rules.line_of_sight(state, from, to),
        frontal: can_fire_through(grid, from, unit.facing, unit.status.formation, to),
        multiplier,
    })
}

/// GBACW 17.12, 17.21: a leader's radius as an outline around the hexes
/// it reaches (the edges between a reached hex and one not reached), a
/// faint tint over them, and its size and case by the leader.
fn paint_radius(
    painter: &Painter,
    map: &Map,
    r: &CommandRadius,
    layout: HexLayout,
    cam: Camera,
    rect: Rect,
    hex_px: f32,
) {
    let colour = Color32::from_rgb(0xff, 0x40, 0xc0);
    let s = |p: Pos2| cam.to_screen(rect, p);
    let mut shapes = Vec::new();
    for h in &r.hexes {
        let c = s(centre(layout, *h));
        shapes.push(Shape::convex_polygon(
            layout.corners(c, hex_px).to_vec(),
            Color32::from_rgba_unmultiplied(0xff, 0x40, 0xc0, 28),
            Stroke::NONE,
        ));
        for (_, n) in map.grid.neighbours_on_map(*h) {
            if !r.hexes.contains(&n) {
                let (p, q, _) = side_geometry(layout, *h, n);
                shapes.push(Shape::line_segment([s(p), s(q)], Stroke::new(2.5, colour)));
            }
        }
    }
    painter.extend(shapes);
}

/// The radius's size and case, above the leader's hex.
fn paint_radius_label(
    painter: &Painter,
    r: &CommandRadius,
    layout: HexLayout,
    cam: Camera,
    rect: Rect,
    hex_px: f32,
) {
    let colour = Color32::from_rgb(0xff, 0x40, 0xc0);
    let c = cam.to_screen(rect, centre(layout, r.centre));
    let text = format!(
        "radius {} ({})",
        r.radius,
        r.rule.trim_start_matches("GBACW ")
    );
    let galley = painter.layout_no_wrap(text, FontId::proportional(12.0), Color32::WHITE);
    let size = galley.size() + vec2(8.0, 4.0);
    let min = (c + vec2(-size.x / 2.0, -hex_px * 1.3))
        .min(rect.max - size)
        .max(rect.min);
    let b = Rect::from_min_size(min, size);
    painter.rect_filled(b, 3.0, colour.gamma_multiply(0.85));
    painter.galley(b.min + vec2(4.0, 2.0), galley, Color32::WHITE);
}

fn paint_sight(painter: &Painter, p: &SightPreview, layout: HexLayout, cam: Camera, rect: Rect) {
    let a = cam.to_screen(rect, centre(layout, p.from));
    let b = cam.to_screen(rect, centre(layout, p.to));
    let clear = p.los == Los::Clear;
    let colour = if clear {
        Color32::from_rgb(0x30, 0xd0, 0x30)
    } else {
        Color32::from_rgb(0xe0, 0x30, 0x30)
    };
    painter.line_segment([a, b], Stroke::new(3.0, colour));
    if let Los::Blocked(Obstacle::Hex(h)) = p.los {
        let c = cam.to_screen(rect, centre(layout, h));
        let mut pts = layout.corners(c, HEX_SIZE * cam.zoom * 0.9).to_vec();
        pts.push(pts[0]);
        painter.add(Shape::line(pts, Stroke::new(3.0, colour)));
    }
    let text = format!(
        "range {} - {} - {} - {}",
        p.range,
        match p.los {
            Los::Clear => "line of sight clear (9.7)".to_string(),
            Los::Blocked(Obstacle::Hex(h)) => format!("blocked at {h} (9.7)"),
            Los::Blocked(Obstacle::Hexside(s)) => format!("blocked by hexside {s} (9.7)"),
            Los::Blocked(Obstacle::Along(x, y)) => format!("blocked along {x}/{y} (9.7)"),
        },
        if p.frontal {
            "through a frontal hexside"
        } else {
            "not frontal (7.22)"
        },
        p.multiplier
            .map_or_else(|| "beyond range (9.23)".into(), |m| format!("{m} (9.25)"))
    );
    let galley = painter.layout_no_wrap(text, FontId::proportional(13.0), Color32::WHITE);
    let size = galley.size() + vec2(10.0, 6.0);
    // Beside the target, kept inside the map.
    let min = (b + vec2(14.0, -24.0)).min(rect.max - size).max(rect.min);
    let r = Rect::from_min_size(min, size);
    painter.rect_filled(r, 4.0, Color32::from_black_alpha(200));
    painter.galley(r.min + vec2(5.0, 3.0), galley, Color32::WHITE);
}

fn side_of<'a>(oob: &'a Oob, id: &CounterId) -> Option<&'a CounterId> {
    oob.units
        .get(id)
        .map(|u| &u.side)
        .or_else(|| oob.leaders.get(id).map(|l| &l.side))
}

/// The colour of a side's counters: seat 0 Union blue, seat 1 grey.
pub fn side_colour(sides: &[CounterId; 2], side: &CounterId) -> Color32 {
    seat_colour(Some(SeatId(u8::from(sides[1] == *side))))
}

fn paint_piece(
    painter: &Painter,
    rect: Rect,
    piece: Piece<'_>,
    input: &MapInput<'_>,
    layout: HexLayout,
    look: Look,
) {
    let fill = side_colour(input.sides, piece.side());
    match piece {
        Piece::Unit(_, unit, state) => {
            let dir = layout.edge_direction(state.facing.index());
            counter::paint_unit(painter, rect, unit, state, fill, dir, look);
        }
        Piece::Leader(_, leader, _) => counter::paint_leader(painter, rect, leader, fill, look),
    }
}

fn paint_terrain(
    painter: &Painter,
    map: &Map,
    layout: HexLayout,
    cam: Camera,
    rect: Rect,
    view: Rect,
) {
    let size = HEX_SIZE * cam.zoom;
    // A hair larger than the hex, so no seams show between fills.
    let fill_size = size + 0.5;
    let grid = if size >= GRID_MIN_HEX_PX {
        Stroke::new(0.6, Color32::from_black_alpha(70))
    } else {
        Stroke::NONE
    };
    let mut shapes = Vec::new();
    for (n, info) in map.hexes() {
        let w = centre(layout, n);
        if !view.contains(w) {
            continue;
        }
        let c = cam.to_screen(rect, w);
        let mut kinds = TERRAIN_ORDER.iter().filter(|t| info.has(**t));
        let first = kinds.next().copied().unwrap_or(Terrain::Clear);
        let fill = shade(terrain_colour(first), info.level);
        shapes.push(Shape::convex_polygon(
            layout.corners(c, fill_size).to_vec(),
            fill,
            Stroke::NONE,
        ));
        if let Some(second) = kinds.next() {
            shapes.push(Shape::convex_polygon(
                layout.corners(c, size * 0.45).to_vec(),
                shade(terrain_colour(*second), info.level),
                Stroke::NONE,
            ));
        }
        if grid.width > 0.0 {
            let mut pts = layout.corners(c, size).to_vec();
            pts.push(pts[0]);
            shapes.push(Shape::line(pts, grid));
        }
    }
    painter.extend(shapes);
}

/// The two ends of the hexside between `a` and `b`, and the unit vector
/// from `a` towards `b`, in world units.
fn side_geometry(layout: HexLayout, a: HexNumber, b: HexNumber) -> (Pos2, Pos2, Vec2) {
    let (ca, cb) = (centre(layout, a), centre(layout, b));
    let dir = (cb - ca).normalized();
    let mid = ca + (cb - ca) / 2.0;
    let along = vec2(-dir.y, dir.x) * HEX_SIZE / 2.0;
    (mid - along, mid + along, dir)
}

fn paint_hexsides(
    painter: &Painter,
    map: &Map,
    layout: HexLayout,
    cam: Camera,
    rect: Rect,
    view: Rect,
) {
    let z = cam.zoom;
    let s = |p: Pos2| cam.to_screen(rect, p);
    let mut edges = Vec::new();
    let mut roads = Vec::new();
    let mut crossings = Vec::new();
    for (side, features) in map.hexsides() {
        let (a, b) = side.hexes();
        let (p, q, dir) = side_geometry(layout, a, b);
        if !view.contains(p) {
            continue;
        }
        let (ca, cb) = (centre(layout, a), centre(layout, b));
        for f in features {
            // The hex a directed feature names (the higher side of a
            // crest, the inner side of a work): ticks point away from it.
            let away = match f.side {
                Some(h) if h == b => -dir,
                _ => dir,
            };
            let line =
                |w: f32, c: Color32| Shape::line_segment([s(p), s(q)], Stroke::new(w * z, c));
            match f.kind {
                SideKind::Stream => edges.push(line(3.5, Color32::from_rgb(0x30, 0x70, 0xc0))),
                SideKind::Run => edges.push(line(5.5, Color32::from_rgb(0x20, 0x50, 0xa8))),
                SideKind::Lake => edges.push(line(7.0, terrain_colour(Terrain::Lake))),
                SideKind::Crest | SideKind::SteepCrest => {
                    let steep = f.kind == SideKind::SteepCrest;
                    let c = Color32::from_rgb(0x8a, 0x5a, 0x2a);
                    edges.push(line(if steep { 3.0 } else { 2.0 }, c));
                    // Hachures down the slope.
                    let ticks = if steep { 5 } else { 3 };
                    for i in 1..=ticks {
                        let t = i as f32 / (ticks + 1) as f32;
                        let at = p + (q - p) * t;
                        let len = if steep { 7.0 } else { 5.0 };
                        edges.push(Shape::line_segment(
                            [s(at), s(at + away * len)],
                            Stroke::new(1.5 * z, c),
                        ));
                    }
                }
                SideKind::StoneWall => edges.push(line(3.0, Color32::from_rgb(0x70, 0x70, 0x70))),
                SideKind::Works | SideKind::RedanPrimary | SideKind::RedanSecondary => {
                    let c = if f.kind == SideKind::Works {
                        Color32::from_rgb(0x6a, 0x3a, 0x20)
                    } else {
                        Color32::from_rgb(0xb0, 0x20, 0x20)
                    };
                    edges.push(line(3.0, c));
                    // Teeth on the outer side (Corinth 23.1).
                    for i in 0..4 {
                        let t0 = i as f32 / 4.0;
                        let t1 = (i as f32 + 0.5) / 4.0;
                        let t2 = (i as f32 + 1.0) / 4.0;
                        let a0 = p + (q - p) * t0;
                        let a1 = p + (q - p) * t1 + away * 5.0;
                        let a2 = p + (q - p) * t2;
                        edges.push(Shape::convex_polygon(
                            vec![s(a0), s(a1), s(a2)],
                            c,
                            Stroke::NONE,
                        ));
                    }
                }
                SideKind::Road => roads.push(Shape::line_segment(
                    [s(ca), s(cb)],
                    Stroke::new(2.5 * z, Color32::from_rgb(0x8a, 0x6a, 0x4a)),
                )),
                SideKind::Pike => roads.push(Shape::line_segment(
                    [s(ca), s(cb)],
                    Stroke::new(4.0 * z, Color32::from_rgb(0x5a, 0x3a, 0x2a)),
                )),
                SideKind::Trail => roads.extend(Shape::dashed_line(
                    &[s(ca), s(cb)],
                    Stroke::new(1.8 * z, Color32::from_rgb(0x7a, 0x5a, 0x3a)),
                    6.0 * z,
                    4.0 * z,
                )),
                SideKind::Railroad => {
                    let c = Color32::from_rgb(0x20, 0x20, 0x20);
                    roads.push(Shape::line_segment([s(ca), s(cb)], Stroke::new(2.0 * z, c)));
                    let n = vec2(-dir.y, dir.x) * 4.0;
                    for i in 1..6 {
                        let at = ca + (cb - ca) * (i as f32 / 6.0);
                        roads.push(Shape::line_segment(
                            [s(at - n), s(at + n)],
                            Stroke::new(1.2 * z, c),
                        ));
                    }
                }
                SideKind::Bridge => {
                    // A plank across the water, along the road.
                    let mid = p + (q - p) / 2.0;
                    let n = vec2(-dir.y, dir.x) * 5.0;
                    let d = dir * 9.0;
                    crossings.push(Shape::convex_polygon(
                        vec![
                            s(mid - d - n),
                            s(mid + d - n),
                            s(mid + d + n),
                            s(mid - d + n),
                        ],
                        Color32::from_rgb(0x6a, 0x4a, 0x2a),
                        Stroke::new(1.0, Color32::BLACK),
                    ));
                }
                SideKind::Ford => {
                    let mid = p + (q - p) / 2.0;
                    crossings.push(Shape::circle_filled(
                        s(mid),
                        5.0 * z,
                        Color32::from_rgb(0xc8, 0xb8, 0x80),
                    ));
                }
            }
        }
    }
    painter.extend(edges);
    painter.extend(roads);
    painter.extend(crossings);
}

fn paint_numbers(
    painter: &Painter,
    map: &Map,
    layout: HexLayout,
    cam: Camera,
    rect: Rect,
    view: Rect,
) {
    let size = HEX_SIZE * cam.zoom;
    let font = FontId::proportional((size * 0.24).clamp(7.0, 14.0));
    let ink = Color32::from_black_alpha(150);
    for (n, info) in map.hexes() {
        let w = centre(layout, n);
        if !view.contains(w) {
            continue;
        }
        let c = cam.to_screen(rect, w);
        painter.text(
            c - vec2(0.0, size * 0.7),
            Align2::CENTER_CENTER,
            n.to_string(),
            font.clone(),
            ink,
        );
        if let Some(name) = &info.name {
            painter.text(
                c + vec2(0.0, size * 0.68),
                Align2::CENTER_CENTER,
                name,
                font.clone(),
                Color32::from_black_alpha(200),
            );
        }
    }
}

fn paint_reach(
    painter: &Painter,
    reach: &Reach,
    layout: HexLayout,
    cam: Camera,
    rect: Rect,
    hex_px: f32,
) {
    let font = FontId::proportional((hex_px * 0.3).clamp(8.0, 18.0));
    for (h, (mp, _)) in &reach.hexes {
        let c = cam.to_screen(rect, centre(layout, *h));
        let start = *h == reach.start;
        painter.add(Shape::convex_polygon(
            layout.corners(c, hex_px * 0.92).to_vec(),
            if start {
                Color32::from_rgba_unmultiplied(0xff, 0xd7, 0x00, 50)
            } else {
                Color32::from_rgba_unmultiplied(0xff, 0xff, 0xff, 70)
            },
            Stroke::new(1.5, Color32::from_rgb(0xff, 0xd7, 0x00)),
        ));
        if !start && hex_px >= 12.0 {
            painter.text(
                c + vec2(0.0, hex_px * 0.5),
                Align2::CENTER_CENTER,
                mp_text(*mp),
                font.clone(),
                Color32::BLACK,
            );
        }
    }
}

/// The colour of hexes lit for a tray's piece.
pub const LIT: Color32 = Color32::from_rgb(0x40, 0xff, 0x70);
/// The colour of marked entry hexes.
pub const ENTRY: Color32 = Color32::from_rgb(0xff, 0x8c, 0x1a);

/// Entry hexes of the arrivals due: a thick orange ring and their words.
fn paint_entries(
    painter: &Painter,
    marks: &[(HexNumber, String)],
    layout: HexLayout,
    cam: Camera,
    rect: Rect,
    hex_px: f32,
) {
    let font = FontId::proportional(13.0);
    for (h, text) in marks {
        let c = cam.to_screen(rect, centre(layout, *h));
        let mut ring = layout.corners(c, hex_px * 0.95).to_vec();
        ring.push(ring[0]);
        painter.add(Shape::line(ring, Stroke::new(4.0, ENTRY)));
        let at = c - vec2(0.0, hex_px * 1.1);
        let galley = painter.layout_no_wrap(text.clone(), font.clone(), Color32::BLACK);
        let bg = keep_inside(
            Rect::from_center_size(at, galley.size() + vec2(8.0, 4.0)),
            rect,
            c,
        );
        painter.rect_filled(bg, 3.0, ENTRY);
        painter.galley(bg.min + vec2(4.0, 2.0), galley, Color32::BLACK);
    }
}

/// A label's box moved inside the map's `rect` while the point it names
/// (`at`) is in view (issue 18: "entry 4032: 12 due" ran past the map's
/// right edge, cut off); left where it is otherwise.
pub fn keep_inside(label: Rect, rect: Rect, at: Pos2) -> Rect {
    if !rect.contains(at) {
        return label;
    }
    let inner = rect.shrink(2.0);
    let dx = (inner.right() - label.right()).min(0.0) + (inner.left() - label.left()).max(0.0);
    let dy = (inner.top() - label.top()).max(0.0);
    label.translate(vec2(dx, dy))
}

/// The hexes a tray's piece may go to: green, outlined.
fn paint_lit(
    painter: &Painter,
    lit: &BTreeMap<HexNumber, GbacwAction>,
    layout: HexLayout,
    cam: Camera,
    rect: Rect,
    hex_px: f32,
) {
    for h in lit.keys() {
        let c = cam.to_screen(rect, centre(layout, *h));
        painter.add(Shape::convex_polygon(
            layout.corners(c, hex_px * 0.9).to_vec(),
            Color32::from_rgba_unmultiplied(0x40, 0xff, 0x70, 90),
            Stroke::new(3.0, LIT),
        ));
    }
}

/// Every set-up hex of the tray's counters but the picked one's: a thin
/// faint green, so the side's whole deployment shows under the bright
/// hexes of the picked counter.
fn paint_faint(
    painter: &Painter,
    faint: &BTreeMap<HexNumber, GbacwAction>,
    lit: &BTreeMap<HexNumber, GbacwAction>,
    layout: HexLayout,
    cam: Camera,
    rect: Rect,
    hex_px: f32,
) {
    let view = rect.expand(hex_px * 2.0);
    for h in faint.keys().filter(|h| !lit.contains_key(h)) {
        let c = cam.to_screen(rect, centre(layout, *h));
        if !view.contains(c) {
            continue;
        }
        painter.add(Shape::convex_polygon(
            layout.corners(c, hex_px * 0.9).to_vec(),
            FAINT_FILL,
            Stroke::new(1.5, FAINT_EDGE),
        ));
    }
}

/// The faint set-up hexes' fill and edge.
pub const FAINT_FILL: Color32 = Color32::from_rgba_premultiplied(0x0c, 0x33, 0x16, 0x33);
pub const FAINT_EDGE: Color32 = Color32::from_rgba_premultiplied(0x26, 0x99, 0x43, 0x99);

/// The colour of a retreat or advance path (the hovered one is drawn in
/// the lit colour, thicker).
pub const ANSWER_PATH: Color32 = Color32::from_rgb(0xff, 0xf0, 0xa0);

/// Retreat and advance paths: a line from the units through each hex,
/// an arrowhead on the lit hex it ends in.
fn paint_answer_paths(
    painter: &Painter,
    paths: &BTreeMap<HexNumber, Vec<HexNumber>>,
    hovered: Option<HexNumber>,
    layout: HexLayout,
    cam: Camera,
    rect: Rect,
    hex_px: f32,
) {
    // The hovered path last, over the others.
    let order = paths
        .iter()
        .filter(|(end, _)| Some(**end) != hovered)
        .chain(paths.iter().filter(|(end, _)| Some(**end) == hovered));
    for (end, path) in order {
        let pts: Vec<Pos2> = path
            .iter()
            .map(|h| cam.to_screen(rect, centre(layout, *h)))
            .collect();
        let [.., before, last] = pts.as_slice() else {
            continue;
        };
        let (colour, width) = if Some(*end) == hovered {
            (LIT, (hex_px * 0.14).max(3.0))
        } else {
            (ANSWER_PATH, (hex_px * 0.07).max(2.0))
        };
        let dark = Stroke::new(width + 2.0, Color32::from_black_alpha(160));
        painter.add(Shape::line(pts.clone(), dark));
        painter.add(Shape::line(pts.clone(), Stroke::new(width, colour)));
        let dir = (*last - *before).normalized();
        let side = vec2(-dir.y, dir.x);
        let size = (hex_px * 0.35).max(8.0);
        let tip = *last;
        let head = vec![
            tip,
            tip - dir * size + side * size * 0.5,
            tip - dir * size - side * size * 0.5,
        ];
        painter.add(Shape::convex_polygon(head, colour, dark));
    }
}

/// The words shown on the map itself: it is a reconstruction.
pub const RECONSTRUCTION_NOTICE: &str = "Reconstruction - not the printed map";

fn paint_notice(painter: &Painter, rect: Rect, map: &Map) {
    let font = FontId::proportional(13.0);
    let text = format!("{RECONSTRUCTION_NOTICE}: {}", map.name);
    let galley = painter.layout_no_wrap(text, font, Color32::BLACK);
    let r = Rect::from_min_size(rect.min + vec2(8.0, 8.0), galley.size() + vec2(12.0, 6.0));
    painter.rect_filled(
        r,
        4.0,
        Color32::from_rgba_unmultiplied(0xff, 0xe0, 0x80, 230),
    );
    painter.galley(r.min + vec2(6.0, 3.0), galley, Color32::BLACK);
}

/// Hovering a hex says what is in it: number, terrain, level, hexside
/// features, and its cost for the selected unit.
fn hex_tooltip(ui: &Ui, response: &egui::Response, map: &Map, h: HexNumber, reach: Option<&Reach>) {
    let Some(info) = map.hex(h) else { return };
    let terrain: Vec<&str> = info
        .terrain
        .iter()
        .map(|t| muster_shared::gbacw::names::Named::name(*t))
        .collect();
    let mut sides: BTreeSet<String> = BTreeSet::new();
    for (_, n) in map.grid.neighbours_on_map(h) {
        if let Some(s) = map.grid.hexside(h, n) {
            for f in map.side_features(s) {
                sides.insert(format!("{} {f}", s));
            }
        }
    }
    let cost = reach.and_then(|r| r.cost(h));
    response.clone().on_hover_ui_at_pointer(|ui| {
        ui.strong(format!(
            "{h}{}",
            info.name
                .as_ref()
                .map_or(String::new(), |n| format!(" {n}"))
        ));
        ui.label(format!("{} - level {}", terrain.join(", "), info.level));
        for s in &sides {
            ui.label(s);
        }
        if let Some(mp) = cost {
            ui.label(format!("{} MP to get here", mp_text(mp)));
        }
    });
    let _ = ui;
}
