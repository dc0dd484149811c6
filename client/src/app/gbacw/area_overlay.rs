//! Set-up areas marked on the map: the Corinth Assault Areas (29.1) while
//! the Confederate player plots (`plot.rs` says which to mark and how).
//! Each area is a tint over its hexes, an outline around them (the edges
//! between a hex of the area and one outside it) and its name by its
//! middle hex; the area being edited is drawn brighter.

use crate::app::camera::Camera;
use crate::app::hexgrid::HexLayout;
use egui::{Color32, FontId, Painter, Pos2, Rect, Shape, Stroke, vec2};
use muster_shared::gbacw::map::{HexNumber, Map};
use muster_shared::gbacw::oob::CounterId;

/// One area to mark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AreaMark {
    pub area: CounterId,
    pub hexes: Vec<HexNumber>,
    /// Written by the area's middle hex ("Area C: Hebert, GT 1").
    pub label: String,
    /// The area the user is editing: drawn brighter.
    pub focused: bool,
    /// The plan sends a division through it (otherwise a faint outline).
    pub used: bool,
}

impl AreaMark {
    pub fn colour(&self) -> Color32 {
        if self.focused {
            FOCUSED
        } else if self.used {
            USED
        } else {
            UNUSED
        }
    }

    /// The hex its label is written by.
    pub fn middle(&self) -> Option<HexNumber> {
        self.hexes.get(self.hexes.len() / 2).copied()
    }
}

/// The edited area's colour (a bright cyan that no terrain uses).
pub const FOCUSED: Color32 = Color32::from_rgb(0x00, 0xe5, 0xff);
const USED: Color32 = Color32::from_rgb(0xff, 0x8c, 0x00);
const UNUSED: Color32 = Color32::from_rgb(0x90, 0x90, 0x90);

/// Tints and outlines, drawn under the counters. `at` places a hex's
/// centre in world coordinates (the map's own layout).
#[allow(clippy::too_many_arguments)]
pub fn paint(
    painter: &Painter,
    map: &Map,
    marks: &[AreaMark],
    layout: HexLayout,
    at: impl Fn(HexNumber) -> Pos2,
    cam: Camera,
    rect: Rect,
    hex_px: f32,
) {
    let s = |p: Pos2| cam.to_screen(rect, p);
    let mut shapes = Vec::new();
    // Unused first, the focused last, so the brightest is on top.
    let mut order: Vec<&AreaMark> = marks.iter().collect();
    order.sort_by_key(|m| (m.focused, m.used));
    for m in order {
        let c = m.colour();
        let alpha = if m.focused {
            110
        } else if m.used {
            60
        } else {
            0
        };
        let width = if m.focused { 3.5 } else { 2.0 };
        for h in &m.hexes {
            let centre = s(at(*h));
            if alpha > 0 {
                shapes.push(Shape::convex_polygon(
                    layout.corners(centre, hex_px).to_vec(),
                    Color32::from_rgba_unmultiplied(c.r(), c.g(), c.b(), alpha),
                    Stroke::NONE,
                ));
            }
            for (_, n) in map.grid.neighbours_on_map(*h) {
                if !m.hexes.contains(&n) {
                    let (a, b) = (at(*h), at(n));
                    let dir = (b - a).normalized();
                    let mid = a + (b - a) / 2.0;
                    let along = vec2(-dir.y, dir.x) * crate::app::hexgrid::HEX_SIZE / 2.0;
                    shapes.push(Shape::line_segment(
                        [s(mid - along), s(mid + along)],
                        Stroke::new(width, c),
                    ));
                }
            }
        }
    }
    painter.extend(shapes);
}

/// The areas' names, drawn over the counters so they stay readable.
pub fn paint_labels(
    painter: &Painter,
    marks: &[AreaMark],
    at: impl Fn(HexNumber) -> Pos2,
    cam: Camera,
    rect: Rect,
) {
    // Areas meet at the map's corners: a label that would cover one
    // already drawn goes below it.
    let mut drawn: Vec<Rect> = Vec::new();
    for m in marks {
        let Some(h) = m.middle() else {
            continue;
        };
        let c = cam.to_screen(rect, at(h));
        let galley =
            painter.layout_no_wrap(m.label.clone(), FontId::proportional(12.0), Color32::BLACK);
        let size = galley.size() + vec2(8.0, 4.0);
        let min = (c - size / 2.0).min(rect.max - size).max(rect.min);
        let mut b = Rect::from_min_size(min, size);
        while let Some(o) = drawn.iter().find(|o| o.intersects(b)) {
            b = b.translate(vec2(0.0, o.max.y + 2.0 - b.min.y));
        }
        drawn.push(b);
        painter.rect_filled(b, 3.0, m.colour().gamma_multiply(0.9));
        painter.galley(b.min + vec2(4.0, 2.0), galley, Color32::BLACK);
    }
}
