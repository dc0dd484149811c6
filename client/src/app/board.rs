//! The board: hexes (or a free surface) drawn by the painter, pan and zoom,
//! counters and stacks, and the gestures that turn into sandbox actions —
//! drag to move, drop on a counter to stack, right-click for the rest.
//!
//! Everything here is drawn by hand on one interactive rectangle rather than
//! as a widget per counter: a board holds hundreds of counters and must stay
//! well inside a frame budget, and hit-testing our own layout is also what
//! lets a stack fan out without moving anything underneath it.

use super::counter::{self, Look};
use super::hexgrid::{self, HEX_SIZE};
use super::stacks::stack_step;
use egui::{
    Align2, Color32, CursorIcon, FontId, Pos2, Rect, Sense, Shape, Stroke, Ui, Vec2, pos2, vec2,
};
use muster_shared::SeatId;
use muster_shared::sandbox::{
    BoardKind, Loc, Piece, PieceId, Position, SandboxAction, SandboxConfig, SandboxState,
};
use std::collections::BTreeMap;

/// Below this many pixels per hex radius, hex numbers are unreadable clutter.
const LABEL_MIN_HEX_PX: f32 = 22.0;
/// Counter side on a free surface, in board units.
const FREE_COUNTER: f32 = 44.0;

/// Markers offered in the context menu; anything else can be typed.
pub const QUICK_MARKERS: [&str; 6] = [
    "Disrupted",
    "Routed",
    "Out of ammo",
    "Fired",
    "Moved",
    "Spent",
];

/// What to place on the next click, from the palette.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlaceSpec {
    pub label: String,
    pub owner: Option<SeatId>,
    pub face_up: bool,
    pub hidden: bool,
}

/// What the board needs from the rest of the app this frame.
pub struct BoardInput<'a> {
    pub state: &'a SandboxState,
    pub config: &'a SandboxConfig,
    /// The seat acting, `None` for a spectator (who may look but not touch).
    pub seat: Option<SeatId>,
    /// Armed in the palette: the next click on the board places this.
    pub placing: Option<&'a PlaceSpec>,
    pub seat_names: &'a dyn Fn(SeatId) -> String,
}

/// What the board asks the app to do.
#[derive(Default)]
pub struct BoardOutput {
    pub actions: Vec<SandboxAction>,
    /// A piece was placed by a click (the palette may advance its label).
    pub placed: bool,
}

pub use super::camera::Camera;

enum Drag {
    Pan,
    Pieces {
        ids: Vec<PieceId>,
        from: Position,
        /// Pointer minus the grabbed counter's centre, so it does not jump.
        grab: Vec2,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MenuTarget {
    Piece(PieceId),
    Place(Position),
}

/// One counter's place on screen this frame.
struct Slot<'s> {
    piece: &'s Piece,
    rect: Rect,
}

/// The board view's own state: camera per board, gesture in progress,
/// selection, fanned stack, open menu.
#[derive(Default)]
pub struct BoardView {
    board: u8,
    cameras: BTreeMap<u8, Camera>,
    drag: Option<Drag>,
    fanned: Option<Position>,
    selected: Option<PieceId>,
    menu: Option<MenuTarget>,
    marker_text: String,
    last_rect: Option<Rect>,
    last_pointer: Option<Pos2>,
    /// Where each counter was drawn last frame, for tests and tooltips.
    last_slots: Vec<(PieceId, Rect)>,
}

impl BoardView {
    pub fn board(&self) -> u8 {
        self.board
    }

    pub fn selected(&self) -> Option<PieceId> {
        self.selected
    }

    pub fn select(&mut self, piece: Option<PieceId>) {
        self.selected = piece;
    }

    /// Where the centre of `at` was drawn last frame, in screen points.
    /// For tests and for anything that points at the board.
    pub fn screen_pos(&self, config: &SandboxConfig, at: Position) -> Option<Pos2> {
        let rect = self.last_rect?;
        let cam = self.cameras.get(&at.board)?;
        let world = loc_centre(config.boards.get(usize::from(at.board))?.kind, at.loc);
        Some(cam.to_screen(rect, world))
    }

    /// Where counter `id` was drawn last frame, in screen points.
    pub fn piece_rect(&self, id: PieceId) -> Option<Rect> {
        self.last_slots
            .iter()
            .find(|(p, _)| *p == id)
            .map(|(_, r)| *r)
    }

    /// The stack currently fanned out under the pointer.
    pub fn fanned(&self) -> Option<Position> {
        self.fanned
    }

    pub fn camera(&self) -> Option<Camera> {
        self.cameras.get(&self.board).copied()
    }

    pub fn set_camera(&mut self, camera: Camera) {
        self.cameras.insert(self.board, camera);
    }

    pub fn show(&mut self, ui: &mut Ui, input: BoardInput<'_>) -> BoardOutput {
        let mut out = BoardOutput::default();
        let boards = &input.config.boards;
        if usize::from(self.board) >= boards.len() {
            self.board = 0;
        }
        if boards.len() > 1 {
            ui.horizontal(|ui| {
                for (i, b) in boards.iter().enumerate() {
                    let i = i as u8;
                    if ui.selectable_label(self.board == i, &b.name).clicked() {
                        self.board = i;
                        self.drag = None;
                        self.fanned = None;
                    }
                }
            });
        }
        let Some(board) = boards.get(usize::from(self.board)) else {
            ui.label("This table has no boards.");
            return out;
        };
        let kind = board.kind;

        let (rect, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
        self.last_rect = Some(rect);
        let extent = board_extent(kind);
        let cam = self
            .cameras
            .entry(self.board)
            .or_insert_with(|| Camera::fit(rect, extent));
        let pointer = ui.input(|i| i.pointer.latest_pos());
        if pointer.is_some() {
            self.last_pointer = pointer;
        }

        // Zoom with the wheel (and pinch), around the pointer.
        cam.wheel_zoom(ui, &response, rect);
        let cam = *cam;

        let stacks = group(input.state, self.board);
        let counter_side = counter_side(kind) * cam.zoom;
        // The fanned stack stays open while the pointer is over it.
        let mut slots = layout(&stacks, kind, cam, rect, counter_side, self.fanned);
        if self.drag.is_none() {
            let over_fan = self.fanned.is_some_and(|f| {
                let fan = slots
                    .iter()
                    .filter(|s| s.piece.at == f)
                    .fold(Rect::NOTHING, |r, s| r.union(s.rect));
                pointer.is_some_and(|p| fan.expand(counter_side * 0.15).contains(p))
            });
            if !over_fan {
                let hit = pointer.and_then(|p| slots.iter().rev().find(|s| s.rect.contains(p)));
                let want = hit
                    .map(|s| s.piece.at)
                    .filter(|at| stacks.get(at).is_some_and(|s| s.len() > 1));
                if want != self.fanned {
                    self.fanned = want;
                    slots = layout(&stacks, kind, cam, rect, counter_side, self.fanned);
                }
            }
        }
        self.last_slots.clear();
        self.last_slots
            .extend(slots.iter().map(|s| (s.piece.id, s.rect)));
        let hit_at = |p: Pos2| {
            slots
                .iter()
                .rev()
                .find(|s| s.rect.contains(p))
                .map(|s| s.piece)
        };
        let hovered_piece = pointer
            .filter(|p| rect.contains(*p))
            .and_then(hit_at)
            .map(|p| p.id);

        // Gestures.
        if response.drag_started() {
            let origin = ui.input(|i| i.pointer.press_origin()).or(pointer);
            let grabbed = origin.and_then(|p| hit_at(p).map(|piece| (p, piece)));
            self.drag = Some(match (grabbed, input.seat) {
                (Some((p, piece)), Some(_)) => {
                    let slot = slots.iter().find(|s| s.piece.id == piece.id);
                    let whole = ui.input(|i| i.modifiers.shift || i.modifiers.alt);
                    let ids = if whole {
                        stacks
                            .get(&piece.at)
                            .map(|s| s.iter().map(|q| q.id).collect())
                            .unwrap_or_default()
                    } else {
                        vec![piece.id]
                    };
                    self.selected = Some(piece.id);
                    Drag::Pieces {
                        ids,
                        from: piece.at,
                        grab: slot.map_or(Vec2::ZERO, |s| p - s.rect.center()),
                    }
                }
                _ => Drag::Pan,
            });
            self.fanned = None;
        }
        if let Some(Drag::Pan) = self.drag
            && response.dragged()
        {
            let c = self.cameras.entry(self.board).or_insert(cam);
            c.offset -= response.drag_delta() / c.zoom;
        }
        let drop_target = |p: Pos2, dragged: &[PieceId], from: Position| -> Option<SandboxAction> {
            let onto = slots
                .iter()
                .rev()
                .filter(|s| {
                    s.rect.contains(p) && !dragged.contains(&s.piece.id) && s.piece.at != from
                })
                .map(|s| s.piece)
                .next();
            if let Some(target) = onto {
                // Onto the top of the target's stack, as on a real table.
                let top = stacks
                    .get(&target.at)
                    .and_then(|s| s.last())
                    .map_or(target.id, |t| t.id);
                return Some(SandboxAction::Stack {
                    pieces: dragged.to_vec(),
                    onto: top,
                });
            }
            let to = loc_at(kind, cam.to_world(rect, p)).map(|loc| Position {
                board: self.board,
                loc,
            })?;
            (to != from).then(|| SandboxAction::Move {
                pieces: dragged.to_vec(),
                to,
            })
        };
        if response.drag_stopped() {
            if let Some(Drag::Pieces { ids, from, .. }) = self.drag.take() {
                let at = response.interact_pointer_pos().or(self.last_pointer);
                if let Some(action) = at.and_then(|p| drop_target(p, &ids, from)) {
                    out.actions.push(action);
                }
            }
            self.drag = None;
        }

        if response.clicked()
            && let Some(p) = response.interact_pointer_pos()
        {
            match (input.placing, input.seat) {
                (Some(spec), Some(_)) => {
                    if let Some(loc) = loc_at(kind, cam.to_world(rect, p)) {
                        out.actions.push(place(
                            spec,
                            Position {
                                board: self.board,
                                loc,
                            },
                        ));
                        out.placed = true;
                    }
                }
                _ => self.selected = hit_at(p).map(|piece| piece.id),
            }
        }
        if response.secondary_clicked()
            && let Some(p) = response.interact_pointer_pos()
        {
            self.menu = match hit_at(p) {
                Some(piece) => {
                    self.selected = Some(piece.id);
                    Some(MenuTarget::Piece(piece.id))
                }
                None => loc_at(kind, cam.to_world(rect, p)).map(|loc| {
                    MenuTarget::Place(Position {
                        board: self.board,
                        loc,
                    })
                }),
            };
        }

        // Paint: the table, the board, the counters, then what is in hand.
        let painter = ui.painter_at(rect);
        painter.rect_filled(rect, 0.0, Color32::from_rgb(0x3a, 0x40, 0x3a));
        paint_board(&painter, kind, cam, rect);
        let dragged: &[PieceId] = match &self.drag {
            Some(Drag::Pieces { ids, .. }) => ids,
            _ => &[],
        };
        for s in &slots {
            if dragged.contains(&s.piece.id) {
                continue;
            }
            let look = Look {
                selected: self.selected == Some(s.piece.id),
                hovered: hovered_piece == Some(s.piece.id),
                ghost: false,
            };
            counter::paint(&painter, s.rect, s.piece, look);
        }
        if let (Some(Drag::Pieces { ids, grab, from }), Some(p)) = (&self.drag, pointer) {
            if let Some(target) = loc_at(kind, cam.to_world(rect, p)).filter(|l| {
                Position {
                    board: self.board,
                    loc: *l,
                } != *from
            }) {
                paint_target(&painter, kind, cam, rect, target);
            }
            for (k, id) in ids.iter().enumerate() {
                if let Some(piece) = input.state.pieces.get(id) {
                    let c = p - *grab + stack_step(counter_side) * k as f32;
                    let r = Rect::from_center_size(c, Vec2::splat(counter_side));
                    counter::paint(
                        &painter,
                        r,
                        piece,
                        Look {
                            ghost: true,
                            selected: true,
                            hovered: false,
                        },
                    );
                }
            }
            ui.ctx().set_cursor_icon(CursorIcon::Grabbing);
        } else if input.placing.is_some() && input.seat.is_some() && response.hovered() {
            ui.ctx().set_cursor_icon(CursorIcon::Crosshair);
        } else if hovered_piece.is_some() && input.seat.is_some() {
            ui.ctx().set_cursor_icon(CursorIcon::Grab);
        }

        // The whole counter in words: tags abbreviate markers, and small
        // counters drop their labels.
        if self.drag.is_none()
            && let Some(piece) = hovered_piece.and_then(|id| input.state.pieces.get(&id))
        {
            response.clone().on_hover_ui_at_pointer(|ui| {
                ui.strong(&piece.label);
                let owner = piece
                    .owner
                    .map_or_else(|| "Neutral".into(), |s| (input.seat_names)(s));
                ui.label(format!(
                    "{owner}, {}{}",
                    if piece.face_up {
                        "face up"
                    } else {
                        "face down"
                    },
                    if piece.hidden {
                        ", hidden from others"
                    } else {
                        ""
                    }
                ));
                if !piece.markers.is_empty() {
                    ui.label(piece.markers.join(", "));
                }
            });
        }

        // Keys act on the selected counter, unless a text field has the keyboard.
        let typing = ui.ctx().memory(|m| m.focused().is_some());
        if let (Some(id), Some(seat), false) = (self.selected, input.seat, typing)
            && let Some(piece) = input.state.pieces.get(&id)
            && piece.owner.is_none_or(|o| o == seat)
        {
            let (flip, remove) = ui.input(|i| {
                (
                    i.key_pressed(egui::Key::F),
                    i.key_pressed(egui::Key::Delete),
                )
            });
            if flip {
                out.actions.push(SandboxAction::Flip { piece: id });
            }
            if remove {
                out.actions.push(SandboxAction::Remove { piece: id });
                self.selected = None;
            }
        }

        let menu_target = self.menu;
        response.context_menu(|ui| {
            if let Some(t) = menu_target {
                self.menu_ui(ui, t, &input, &mut out);
            }
        });
        out
    }

    fn menu_ui(
        &mut self,
        ui: &mut Ui,
        target: MenuTarget,
        input: &BoardInput<'_>,
        out: &mut BoardOutput,
    ) {
        let Some(seat) = input.seat else {
            ui.label("Spectators cannot touch the pieces.");
            return;
        };
        let mut act = |ui: &mut Ui, action: SandboxAction| {
            out.actions.push(action);
            ui.close();
        };
        match target {
            MenuTarget::Place(at) => match input.placing {
                Some(spec) => {
                    if ui
                        .button(format!("Place \u{201c}{}\u{201d} here", spec.label))
                        .clicked()
                    {
                        act(ui, place(spec, at));
                    }
                }
                None => {
                    ui.label(super::session::describe_position(&at));
                    ui.weak("Arm the palette to place pieces.");
                }
            },
            MenuTarget::Piece(id) => {
                let Some(piece) = input.state.pieces.get(&id) else {
                    ui.label("That piece has left the table.");
                    return;
                };
                ui.strong(&piece.label);
                if let Some(owner) = piece.owner
                    && owner != seat
                {
                    ui.label(format!("Belongs to {}", (input.seat_names)(owner)));
                    return;
                }
                ui.separator();
                if ui
                    .button(if piece.face_up {
                        "Flip face down"
                    } else {
                        "Flip face up"
                    })
                    .clicked()
                {
                    act(ui, SandboxAction::Flip { piece: id });
                }
                if piece.owner == Some(seat) {
                    if piece.hidden {
                        if ui.button("Reveal to everyone").clicked() {
                            act(ui, SandboxAction::Reveal { piece: id });
                        }
                    } else if ui.button("Hide from others").clicked() {
                        act(ui, SandboxAction::Hide { piece: id });
                    }
                }
                if ui.button("Bring to top of stack").clicked() {
                    act(
                        ui,
                        SandboxAction::Reorder {
                            piece: id,
                            to_bottom: false,
                        },
                    );
                }
                if ui.button("Send to bottom of stack").clicked() {
                    act(
                        ui,
                        SandboxAction::Reorder {
                            piece: id,
                            to_bottom: true,
                        },
                    );
                }
                ui.menu_button("Add marker", |ui| {
                    for m in QUICK_MARKERS {
                        if !piece.markers.iter().any(|x| x == m) && ui.button(m).clicked() {
                            act(
                                ui,
                                SandboxAction::AddMarker {
                                    piece: id,
                                    marker: m.into(),
                                },
                            );
                        }
                    }
                    ui.separator();
                    ui.horizontal(|ui| {
                        ui.add(
                            egui::TextEdit::singleline(&mut self.marker_text)
                                .desired_width(110.0)
                                .hint_text("marker"),
                        );
                        let text = self.marker_text.trim().to_string();
                        if ui
                            .add_enabled(!text.is_empty(), egui::Button::new("Add"))
                            .clicked()
                        {
                            self.marker_text.clear();
                            act(
                                ui,
                                SandboxAction::AddMarker {
                                    piece: id,
                                    marker: text,
                                },
                            );
                        }
                    });
                });
                if !piece.markers.is_empty() {
                    ui.menu_button("Remove marker", |ui| {
                        for m in &piece.markers {
                            if ui.button(m).clicked() {
                                act(
                                    ui,
                                    SandboxAction::RemoveMarker {
                                        piece: id,
                                        marker: m.clone(),
                                    },
                                );
                            }
                        }
                    });
                }
                ui.separator();
                if ui.button("Remove from table").clicked() {
                    act(ui, SandboxAction::Remove { piece: id });
                }
            }
        }
    }
}

fn place(spec: &PlaceSpec, at: Position) -> SandboxAction {
    SandboxAction::Place {
        at,
        label: spec.label.clone(),
        owner: spec.owner,
        face_up: spec.face_up,
        hidden: spec.hidden,
    }
}

/// The visible pieces on `board`, by position, bottom of each stack first.
fn group(state: &SandboxState, board: u8) -> BTreeMap<Position, Vec<&Piece>> {
    let mut stacks: BTreeMap<Position, Vec<&Piece>> = BTreeMap::new();
    for p in state.pieces.values().filter(|p| p.at.board == board) {
        stacks.entry(p.at).or_default().push(p);
    }
    for s in stacks.values_mut() {
        s.sort_by_key(|p| (p.z, p.id));
    }
    stacks
}

fn counter_side(kind: BoardKind) -> f32 {
    match kind {
        BoardKind::Hex { .. } => hexgrid::hex_height() * 0.74,
        BoardKind::Free { .. } => FREE_COUNTER,
    }
}

/// Screen rectangles for every counter, in drawing order (the fanned stack last).
fn layout<'s>(
    stacks: &BTreeMap<Position, Vec<&'s Piece>>,
    kind: BoardKind,
    cam: Camera,
    rect: Rect,
    side: f32,
    fanned: Option<Position>,
) -> Vec<Slot<'s>> {
    let piles = stacks.iter().map(|(at, stack)| {
        (
            *at,
            cam.to_screen(rect, loc_centre(kind, at.loc)),
            stack.clone(),
        )
    });
    super::stacks::lay_out(piles, rect, side, fanned)
        .into_iter()
        .map(|p| Slot {
            piece: p.item,
            rect: p.rect,
        })
        .collect()
}

fn board_extent(kind: BoardKind) -> Vec2 {
    match kind {
        BoardKind::Hex { columns, rows } => hexgrid::extent(columns, rows),
        BoardKind::Free { width, height } => vec2(width as f32, height as f32),
    }
}

/// The world point at the centre of a location.
fn loc_centre(kind: BoardKind, loc: Loc) -> Pos2 {
    match (kind, loc) {
        (BoardKind::Hex { .. }, Loc::Hex { col, row }) => hexgrid::centre(col, row),
        (_, Loc::Point { x, y }) => pos2(x as f32, y as f32),
        // A hex position on a free board (or the reverse) cannot be made by
        // the engine; draw it at the origin rather than fail.
        (BoardKind::Free { .. }, Loc::Hex { .. }) => Pos2::ZERO,
    }
}

/// The location at world point `p`, if it is on the board.
fn loc_at(kind: BoardKind, p: Pos2) -> Option<Loc> {
    match kind {
        BoardKind::Hex { columns, rows } => {
            hexgrid::hex_at(p, columns, rows).map(|(col, row)| Loc::Hex { col, row })
        }
        BoardKind::Free { width, height } => {
            let inside = p.x >= 0.0 && p.y >= 0.0 && p.x <= width as f32 && p.y <= height as f32;
            inside.then(|| Loc::Point {
                x: p.x.round() as u32,
                y: p.y.round() as u32,
            })
        }
    }
}

const BOARD_FILL: Color32 = Color32::from_rgb(0xe9, 0xe0, 0xc4);
const GRID: Color32 = Color32::from_rgb(0x9a, 0x86, 0x5c);

fn paint_board(painter: &egui::Painter, kind: BoardKind, cam: Camera, rect: Rect) {
    let extent = board_extent(kind);
    let board = Rect::from_min_max(
        cam.to_screen(rect, Pos2::ZERO),
        cam.to_screen(rect, extent.to_pos2()),
    );
    painter.rect_filled(board, 2.0, BOARD_FILL);
    match kind {
        BoardKind::Hex { columns, rows } => {
            let world_view =
                Rect::from_min_max(cam.to_world(rect, rect.min), cam.to_world(rect, rect.max));
            let (cols, rws) = hexgrid::visible_range(world_view, columns, rows);
            let size = HEX_SIZE * cam.zoom;
            let stroke = Stroke::new((cam.zoom * 1.0).clamp(0.5, 1.5), GRID);
            let labels = size >= LABEL_MIN_HEX_PX;
            let font = FontId::proportional((size * 0.24).min(14.0));
            let h = hexgrid::hex_height() * cam.zoom;
            for col in cols {
                for row in rws.clone() {
                    let c = cam.to_screen(rect, hexgrid::centre(col, row));
                    painter.add(Shape::closed_line(
                        hexgrid::corners(c, size).to_vec(),
                        stroke,
                    ));
                    if labels {
                        painter.text(
                            c - vec2(0.0, h * 0.36),
                            Align2::CENTER_CENTER,
                            hexgrid::hex_number(col, row),
                            font.clone(),
                            GRID,
                        );
                    }
                }
            }
        }
        BoardKind::Free { width, height } => {
            // A faint grid every 50 units to judge distances by.
            let stroke = Stroke::new(0.5, GRID.gamma_multiply(0.5));
            for x in (50..width).step_by(50) {
                let a = cam.to_screen(rect, pos2(x as f32, 0.0));
                painter.vline(a.x, board.y_range(), stroke);
            }
            for y in (50..height).step_by(50) {
                let a = cam.to_screen(rect, pos2(0.0, y as f32));
                painter.hline(board.x_range(), a.y, stroke);
            }
            painter.rect_stroke(board, 2.0, Stroke::new(1.0, GRID), egui::StrokeKind::Inside);
        }
    }
}

/// Outline where a dragged counter would land.
fn paint_target(painter: &egui::Painter, kind: BoardKind, cam: Camera, rect: Rect, loc: Loc) {
    let c = cam.to_screen(rect, loc_centre(kind, loc));
    let stroke = Stroke::new(2.5, Color32::from_rgb(0xff, 0xd7, 0x00));
    match kind {
        BoardKind::Hex { .. } => {
            painter.add(Shape::closed_line(
                hexgrid::corners(c, HEX_SIZE * cam.zoom).to_vec(),
                stroke,
            ));
        }
        BoardKind::Free { .. } => {
            painter.circle_stroke(c, 6.0, stroke);
        }
    }
}
