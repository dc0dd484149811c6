//! One GBACW counter drawn from the order of battle and the state: the
//! side's colour, a NATO-style symbol by kind (infantry ✕, cavalry slash,
//! artillery dot, wagons on wheels; leaders a star), the designation, the
//! printed strength (current, when reduced), weapon and morale, an arrow
//! on the hexside it faces, and tags for its formation and markers.

use crate::app::counter::{ink_on, tag};
use egui::{
    Align2, Color32, CornerRadius, FontId, Painter, Pos2, Rect, Shape, Stroke, StrokeKind, Vec2,
    pos2, vec2,
};
use muster_shared::gbacw::oob::{Formation, Leader, LeaderRole, Marker, Morale, Unit, UnitKind};
use muster_shared::gbacw::ruleset::UnitState;

/// How to draw a counter this frame.
#[derive(Clone, Copy, Debug, Default)]
pub struct Look {
    pub selected: bool,
    pub hovered: bool,
    /// Drawn under the pointer while being dragged.
    pub ghost: bool,
    /// Out of command this Player-Turn (17.0): a dashed edge.
    pub out_of_command: bool,
    /// Corinth 24.1: a battery whose guns are fouled (a FOUL tag).
    pub fouled: bool,
    /// Corinth 24.21: a battery whose crew is away: its Rout marker is
    /// the neutral Crew marker (a CREW tag instead of RT).
    pub crew_away: bool,
}

/// The neutral Crew marker on guns whose crew is away (Corinth 24.21).
pub const CREW_MARKER_TAG: (&str, Color32) = ("CREW", Color32::from_rgb(0xd0, 0xd0, 0xd0));

/// The tag of a battery with fouled guns (Corinth 24.1).
pub const FOULED_TAG: (&str, Color32) = ("FOUL", Color32::from_rgb(0xff, 0x40, 0x80));

/// Below this many pixels a counter is a coloured square: text would be noise.
const DETAIL_PX: f32 = 18.0;

/// The short tag for a formation worth a marker (GBACW 6.0: column,
/// limbered, mounted, dismounted; line and unlimbered are the defaults).
pub fn formation_tag(f: Formation) -> Option<(&'static str, Color32)> {
    Some(match f {
        Formation::Column => ("COL", Color32::from_rgb(0xe8, 0xd0, 0x60)),
        Formation::Limbered => ("LMB", Color32::from_rgb(0xe8, 0xd0, 0x60)),
        Formation::Mounted => ("MTD", Color32::from_rgb(0xb0, 0xd8, 0x90)),
        Formation::Dismounted => ("DSM", Color32::from_rgb(0xb0, 0xd8, 0x90)),
        Formation::Line | Formation::Unlimbered | Formation::Wagon => return None,
    })
}

/// The tag and colour of a marker (3.3).
pub fn marker_tag(m: Marker) -> (&'static str, Color32) {
    match m {
        Marker::Pin => ("PIN", Color32::from_rgb(0xf0, 0x90, 0x30)),
        Marker::Rout => ("RT", Color32::from_rgb(0xe0, 0x30, 0x30)),
        Marker::Engaged => ("ENG", Color32::from_rgb(0xc0, 0x60, 0xc0)),
        Marker::AmmoDepleted => ("AMMO", Color32::from_rgb(0x90, 0x90, 0x90)),
    }
}

pub fn morale_text(m: Morale) -> String {
    match m {
        Morale::Rated(n) => n.to_string(),
        Morale::Green => "G".into(),
    }
}

fn body(painter: &Painter, rect: Rect, fill: Color32, look: Look) {
    let side = rect.width();
    let radius = CornerRadius::same((side * 0.08).clamp(1.0, 8.0) as u8);
    painter.rect_filled(
        rect.translate(vec2(side * 0.04, side * 0.05)),
        radius,
        Color32::from_black_alpha(70),
    );
    painter.rect_filled(rect, radius, fill);
    let edge = if look.selected {
        Stroke::new(2.5, Color32::from_rgb(0xff, 0xd7, 0x00))
    } else if look.hovered {
        Stroke::new(1.5, Color32::WHITE)
    } else {
        Stroke::new(1.0, Color32::from_black_alpha(200))
    };
    painter.rect_stroke(rect, radius, edge, StrokeKind::Inside);
    if look.out_of_command && side >= DETAIL_PX {
        let r = rect.shrink(side * 0.06);
        let pts = vec![
            r.left_top(),
            r.right_top(),
            r.right_bottom(),
            r.left_bottom(),
            r.left_top(),
        ];
        let dash = (side * 0.08).max(2.0);
        painter.extend(Shape::dashed_line(
            &pts,
            Stroke::new(1.0, Color32::from_rgb(0xff, 0x80, 0x80)),
            dash,
            dash,
        ));
    }
}

/// Text shrunk to fit `width`, centred at `at`; nothing when too small to read.
fn fitted(painter: &Painter, at: Pos2, text: &str, max_font: f32, width: f32, ink: Color32) {
    if max_font < 5.0 {
        return;
    }
    let mut galley = painter.layout_no_wrap(text.to_string(), FontId::proportional(max_font), ink);
    if galley.size().x > width {
        let font = max_font * width / galley.size().x;
        if font < 5.0 {
            return;
        }
        galley = painter.layout_no_wrap(text.to_string(), FontId::proportional(font), ink);
    }
    painter.galley(at - galley.size() / 2.0, galley, ink);
}

/// The NATO-style unit symbol in `r`: a box with the kind's mark.
fn nato_symbol(painter: &Painter, r: Rect, kind: &UnitKind, ink: Color32) {
    let stroke = Stroke::new((r.height() * 0.08).max(1.0), ink);
    match kind {
        UnitKind::Wagon { .. } => {
            // Supply: a box on two wheels.
            let b = Rect::from_min_max(r.min, pos2(r.max.x, r.max.y - r.height() * 0.25));
            painter.rect_stroke(b, 0.0, stroke, StrokeKind::Inside);
            let y = b.max.y + r.height() * 0.12;
            for x in [b.min.x + b.width() * 0.25, b.max.x - b.width() * 0.25] {
                painter.circle_stroke(pos2(x, y), r.height() * 0.12, stroke);
            }
            painter.line_segment([b.left_center(), b.right_center()], stroke);
        }
        _ => {
            painter.rect_stroke(r, 0.0, stroke, StrokeKind::Inside);
            match kind {
                UnitKind::Infantry => {
                    painter.line_segment([r.left_top(), r.right_bottom()], stroke);
                    painter.line_segment([r.left_bottom(), r.right_top()], stroke);
                }
                UnitKind::Cavalry => {
                    painter.line_segment([r.left_bottom(), r.right_top()], stroke);
                }
                UnitKind::Battery { .. } => {
                    painter.circle_filled(r.center(), r.height() * 0.2, ink);
                }
                UnitKind::Wagon { .. } => {}
            }
        }
    }
}

/// A small triangle on the counter's edge pointing at the faced hexside
/// (GBACW 7.0); `dir` is a unit vector in screen space.
fn facing_arrow(painter: &Painter, rect: Rect, dir: Vec2, ink: Color32) {
    let side = rect.width();
    let c = rect.center();
    // Reach the square's edge along `dir`.
    let to_edge = 0.5 * side / dir.x.abs().max(dir.y.abs()).max(1e-3);
    let tip = c + dir * (to_edge + side * 0.16);
    let base = c + dir * (to_edge - side * 0.04);
    let n = vec2(-dir.y, dir.x) * side * 0.14;
    painter.add(Shape::convex_polygon(
        vec![tip, base + n, base - n],
        Color32::from_rgb(0xff, 0xd7, 0x00),
        Stroke::new(1.0, ink),
    ));
}

/// Tags down the counter's right edge: formation first, then markers.
fn paint_tags(painter: &Painter, rect: Rect, tags: &[(&str, Color32)]) {
    let side = rect.width();
    let h = (side * 0.2).max(5.0);
    let font = h * 0.75;
    for (i, (text, colour)) in tags.iter().enumerate() {
        let mut x = rect.max.x - side * 0.2;
        let y = rect.min.y + side * 0.05 + i as f32 * (h + 1.0);
        tag(painter, &mut x, y, h, font, text, *colour);
    }
}

/// Paint a combat unit filling `rect`; `facing` is the faced hexside's
/// direction on screen.
pub fn paint_unit(
    painter: &Painter,
    rect: Rect,
    unit: &Unit,
    state: &UnitState,
    fill: Color32,
    facing: Vec2,
    look: Look,
) {
    let side = rect.width();
    let fill = if look.ghost {
        fill.gamma_multiply(0.8)
    } else {
        fill
    };
    let ink = ink_on(fill.to_opaque());
    body(painter, rect, fill, look);
    if state.status.formation != Formation::Wagon {
        facing_arrow(painter, rect, facing, ink);
    }
    if side < DETAIL_PX {
        return;
    }
    let x0 = rect.min.x;
    let y0 = rect.min.y;
    // Designation on top, the symbol in the middle, the numbers below.
    fitted(
        painter,
        pos2(rect.center().x, y0 + side * 0.14),
        &unit.designation,
        side * 0.18,
        side * 0.9,
        ink,
    );
    let sym = Rect::from_center_size(
        pos2(rect.center().x, y0 + side * 0.44),
        vec2(side * 0.46, side * 0.28),
    );
    nato_symbol(painter, sym, &unit.kind, ink);
    let strength = if state.status.strength < unit.strength {
        format!("{}/{}", state.status.strength, unit.strength)
    } else {
        unit.strength.to_string()
    };
    let font = side * 0.2;
    let y = y0 + side * 0.8;
    fitted(
        painter,
        pos2(x0 + side * 0.2, y),
        &strength,
        font,
        side * 0.36,
        ink,
    );
    if let Some(w) = &unit.weapon {
        fitted(
            painter,
            pos2(rect.center().x, y),
            w,
            font * 0.8,
            side * 0.3,
            ink,
        );
    }
    fitted(
        painter,
        pos2(rect.max.x - side * 0.16, y),
        &morale_text(unit.morale),
        font,
        side * 0.3,
        ink,
    );
    let mut tags = Vec::new();
    if let Some(t) = formation_tag(state.status.formation) {
        tags.push(t);
    }
    for m in &state.status.markers {
        tags.push(if look.crew_away && *m == Marker::Rout {
            CREW_MARKER_TAG
        } else {
            marker_tag(*m)
        });
    }
    if look.fouled {
        tags.push(FOULED_TAG);
    }
    paint_tags(painter, rect, &tags);
}

/// Corinth 24.21: the crew counter of `battery`'s guns, away from them,
/// filling `rect` (drawn smaller than a unit, in its hex's corner): the
/// side's colour, "CREW" and the battery's designation (the letter code
/// that ties it to its guns), the half-crew step, and RT while routed.
pub fn paint_crew(
    painter: &Painter,
    rect: Rect,
    battery: &Unit,
    state: &UnitState,
    routed: bool,
    fill: Color32,
    look: Look,
) {
    let side = rect.width();
    let ink = ink_on(fill.to_opaque());
    body(painter, rect, fill, look);
    if side < DETAIL_PX * 0.6 {
        return;
    }
    let half = state.status.crew == muster_shared::gbacw::oob::Crew::Half;
    fitted(
        painter,
        pos2(rect.center().x, rect.min.y + side * 0.3),
        if half { "½ CREW" } else { "CREW" },
        side * 0.26,
        side * 0.9,
        ink,
    );
    fitted(
        painter,
        pos2(rect.center().x, rect.min.y + side * 0.7),
        &battery.designation,
        side * 0.24,
        side * 0.9,
        ink,
    );
    if routed {
        let r = Rect::from_min_size(
            pos2(rect.min.x, rect.min.y - side * 0.3),
            vec2(side, side * 0.3),
        );
        paint_tags(painter, r, &[marker_tag(Marker::Rout)]);
    }
}

/// A five-pointed star, outlined.
fn star(painter: &Painter, c: Pos2, r: f32, stroke: Stroke) {
    let pts: Vec<Pos2> = (0..=10)
        .map(|i| {
            let a = -std::f32::consts::FRAC_PI_2 + std::f32::consts::PI * i as f32 / 5.0;
            let rr = if i % 2 == 0 { r } else { r * 0.42 };
            c + vec2(a.cos(), a.sin()) * rr
        })
        .collect();
    painter.add(Shape::line(pts, stroke));
}

/// A leader's ratings as printed: brigade "ER 3 R 1", division "IR 4 CP 2".
pub fn leader_ratings(leader: &Leader) -> String {
    match &leader.role {
        LeaderRole::Army { command_points } => format!("CP {command_points}"),
        LeaderRole::Division {
            integrity_radius,
            command_points,
            ..
        } => format!("IR {integrity_radius} CP {command_points}"),
        LeaderRole::Brigade { ratings, .. } | LeaderRole::Replacement { ratings } => {
            format!("ER {} R {}", ratings.effectiveness_radius, ratings.rally)
        }
    }
}

/// Paint a leader filling `rect`: a lighter counter with a star.
pub fn paint_leader(painter: &Painter, rect: Rect, leader: &Leader, fill: Color32, look: Look) {
    let side = rect.width();
    let fill = fill.lerp_to_gamma(Color32::WHITE, 0.35);
    let ink = ink_on(fill);
    body(painter, rect, fill, look);
    let stroke = Stroke::new((side * 0.05).max(1.0), ink);
    star(
        painter,
        pos2(rect.center().x, rect.min.y + side * 0.42),
        side * 0.2,
        stroke,
    );
    if side < DETAIL_PX {
        return;
    }
    fitted(
        painter,
        pos2(rect.center().x, rect.min.y + side * 0.12),
        &leader.name,
        side * 0.18,
        side * 0.9,
        ink,
    );
    fitted(
        painter,
        pos2(rect.center().x, rect.min.y + side * 0.8),
        &leader_ratings(leader),
        side * 0.17,
        side * 0.9,
        ink,
    );
    let _ = Align2::CENTER_CENTER;
}
