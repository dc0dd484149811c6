//! Drawing one counter: a square of its owner's colour with its label, the
//! look of its down side, its markers as small tags, and (for its owner) the
//! dashed edge that says "nobody else can see this".

use egui::{
    Align2, Color32, CornerRadius, FontId, Painter, Rect, Shape, Stroke, StrokeKind, pos2, vec2,
};
use muster_shared::SeatId;
use muster_shared::sandbox::Piece;

/// Counter colours by seat: Union blue, Confederate grey, then distinct
/// colours for sandbox tables with more players.
const SEAT_COLOURS: [Color32; 8] = [
    Color32::from_rgb(0x2f, 0x4f, 0x8a),
    Color32::from_rgb(0x8e, 0x8a, 0x7c),
    Color32::from_rgb(0x6b, 0x8e, 0x23),
    Color32::from_rgb(0x9b, 0x3d, 0x3d),
    Color32::from_rgb(0x6a, 0x4c, 0x93),
    Color32::from_rgb(0xc0, 0x7a, 0x2b),
    Color32::from_rgb(0x2e, 0x8b, 0x8b),
    Color32::from_rgb(0x55, 0x55, 0x55),
];

/// Neutral pieces (markers, terrain features, turn counters).
const NEUTRAL: Color32 = Color32::from_rgb(0xe8, 0xdc, 0xb5);

pub fn seat_colour(seat: Option<SeatId>) -> Color32 {
    seat.map_or(NEUTRAL, |s| {
        SEAT_COLOURS[usize::from(s.0) % SEAT_COLOURS.len()]
    })
}

/// Black or white, whichever reads better on `fill`.
pub(crate) fn ink_on(fill: Color32) -> Color32 {
    let [r, g, b, _] = fill.to_array();
    let luma = 0.299 * f32::from(r) + 0.587 * f32::from(g) + 0.114 * f32::from(b);
    if luma > 140.0 {
        Color32::BLACK
    } else {
        Color32::WHITE
    }
}

/// A stable colour for a marker's tag, so "Disrupted" always looks the same.
fn marker_colour(marker: &str) -> Color32 {
    // FNV-1a: deterministic across runs and machines, unlike std's hasher.
    let h = marker.bytes().fold(0x811c_9dc5_u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    let hue = (h % 360) as f32 / 360.0;
    egui::ecolor::Hsva::new(hue, 0.65, 0.75, 1.0).into()
}

/// How to draw a counter this frame.
#[derive(Clone, Copy, Debug, Default)]
pub struct Look {
    pub selected: bool,
    /// Drawn under the pointer while being dragged.
    pub ghost: bool,
    /// The pointer is over it.
    pub hovered: bool,
}

/// Paint `piece` filling `rect` (a square in screen space).
pub fn paint(painter: &Painter, rect: Rect, piece: &Piece, look: Look) {
    let side = rect.width();
    let radius = CornerRadius::same((side * 0.08).clamp(1.0, 8.0) as u8);
    let mut fill = seat_colour(piece.owner);
    if !piece.face_up {
        // The back of a counter: the same colour, darker and washed out,
        // the way a reduced-strength side is printed.
        fill = fill.linear_multiply(0.55).to_opaque();
    }
    if piece.hidden {
        fill = fill.gamma_multiply(0.55);
    }
    if look.ghost {
        fill = fill.gamma_multiply(0.8);
    }
    let ink = ink_on(fill.to_opaque());

    // A shadow gives the stack its depth.
    painter.rect_filled(
        rect.translate(vec2(side * 0.04, side * 0.05)),
        radius,
        Color32::from_black_alpha(70),
    );
    painter.rect_filled(rect, radius, fill);
    if !piece.face_up {
        // A diagonal band across the back, so "face down" reads at any zoom.
        let band = side * 0.12;
        painter.add(Shape::convex_polygon(
            vec![
                pos2(rect.min.x, rect.max.y - band),
                pos2(rect.max.x - band, rect.min.y),
                pos2(rect.max.x, rect.min.y),
                pos2(rect.max.x, rect.min.y + band),
                pos2(rect.min.x + band, rect.max.y),
                pos2(rect.min.x, rect.max.y),
            ],
            ink.gamma_multiply(0.25),
            Stroke::NONE,
        ));
    }

    let edge = if look.selected {
        Stroke::new(2.5, Color32::from_rgb(0xff, 0xd7, 0x00))
    } else if look.hovered {
        Stroke::new(1.5, Color32::WHITE)
    } else {
        Stroke::new(1.0, Color32::from_black_alpha(200))
    };
    if piece.hidden {
        // Only the owner ever gets a hidden piece to draw: a dashed edge
        // says the opponent's table does not have it.
        let r = rect.shrink(1.0);
        let pts = vec![
            r.left_top(),
            r.right_top(),
            r.right_bottom(),
            r.left_bottom(),
            r.left_top(),
        ];
        let dash = (side * 0.12).max(2.0);
        painter.extend(Shape::dashed_line(
            &pts,
            Stroke::new(
                edge.width.max(1.5),
                if look.selected {
                    edge.color
                } else {
                    Color32::WHITE
                },
            ),
            dash,
            dash * 0.7,
        ));
    } else {
        painter.rect_stroke(rect, radius, edge, StrokeKind::Inside);
    }

    // One line, shrunk to fit the counter's width; below about 6 px a label
    // cannot be read and the colour says enough.
    let max_font = side * 0.26;
    if max_font >= 6.0 {
        let mut galley =
            painter.layout_no_wrap(piece.label.clone(), FontId::proportional(max_font), ink);
        let fit = side * 0.9;
        if galley.size().x > fit {
            let font = max_font * fit / galley.size().x;
            if font < 6.0 {
                galley = painter.layout_no_wrap(String::new(), FontId::proportional(6.0), ink);
            } else {
                galley =
                    painter.layout_no_wrap(piece.label.clone(), FontId::proportional(font), ink);
            }
        }
        let pos = rect.center() - galley.size() / 2.0;
        painter.galley(pos, galley, ink);
        if piece.hidden {
            painter.text(
                rect.center_top() + vec2(0.0, side * 0.12),
                Align2::CENTER_CENTER,
                "hidden",
                FontId::proportional((side * 0.14).max(6.0)),
                ink,
            );
        }
    }

    paint_markers(painter, rect, &piece.markers);
}

/// Markers as small coloured tags along the counter's bottom edge.
fn paint_markers(painter: &Painter, rect: Rect, markers: &[String]) {
    if markers.is_empty() {
        return;
    }
    let side = rect.width();
    let h = (side * 0.22).max(5.0);
    let font = h * 0.75;
    let mut x = rect.min.x + side * 0.04;
    let y = rect.max.y - h * 0.6;
    const SHOWN: usize = 3;
    for (i, m) in markers.iter().enumerate() {
        if i == SHOWN {
            let more = format!("+{}", markers.len() - SHOWN);
            tag(painter, &mut x, y, h, font, &more, Color32::DARK_GRAY);
            break;
        }
        let short: String = m.chars().take(3).collect();
        tag(painter, &mut x, y, h, font, &short, marker_colour(m));
    }
}

pub(crate) fn tag(
    painter: &Painter,
    x: &mut f32,
    y: f32,
    h: f32,
    font: f32,
    text: &str,
    fill: Color32,
) {
    let w = if font >= 5.0 {
        painter
            .layout_no_wrap(text.to_string(), FontId::proportional(font), Color32::BLACK)
            .size()
            .x
            + h * 0.4
    } else {
        h
    };
    let r = Rect::from_min_size(pos2(*x, y), vec2(w, h));
    painter.rect(
        r,
        CornerRadius::same((h * 0.3) as u8),
        fill,
        Stroke::new(0.5, Color32::BLACK),
        StrokeKind::Inside,
    );
    if font >= 5.0 {
        painter.text(
            r.center(),
            Align2::CENTER_CENTER,
            text,
            FontId::proportional(font),
            ink_on(fill),
        );
    }
    *x += w + h * 0.15;
}
