//! Drag a path: press on the selected stack, drag through the hexes to go
//! by, release to send the move along exactly that path (GBACW 5.16: a
//! unit moves hex by hex, and the path is the player's).
//!
//! The path follows the pointer hex by hex: entering the hex before the
//! last takes the last back, re-entering any hex of the path cuts it there,
//! and a pointer that skips hexes (a fast drag) is joined up by single
//! steps towards it. Every change is costed and checked by the engine's
//! own [`Gbacw::path_preview`] (the code that validates `Move`): the running
//! Movement Points are drawn on each hex, and the first hex the rules
//! refuse is crossed out in red with its case. Releasing sends one
//! `GbacwAction::Move` with the whole path when the rules allow it, and
//! nothing (the reason in the header) when they do not.

use super::narrate::mp_text;
use crate::app::camera::Camera;
use crate::app::hexgrid::HexLayout;
use egui::{Align2, Color32, FontId, Painter, Rect, Shape, Stroke, vec2};
use muster_shared::gbacw::map::{Grid, HexNumber};
use muster_shared::gbacw::oob::CounterId;
use muster_shared::gbacw::ruleset::action::MAX_PATH;
use muster_shared::gbacw::ruleset::path_query::PathPreview;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwAction, GbacwState};

/// A path being drawn from `from` (not included in `hexes`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawnPath {
    pub from: HexNumber,
    pub hexes: Vec<HexNumber>,
    /// The engine's verdict on `hexes`; worked out again when they change.
    pub preview: Option<PathPreview>,
}

impl DrawnPath {
    pub fn new(from: HexNumber) -> Self {
        DrawnPath {
            from,
            hexes: Vec::new(),
            preview: None,
        }
    }

    fn last(&self) -> HexNumber {
        self.hexes.last().copied().unwrap_or(self.from)
    }

    /// The pointer is over `cur`: grow, cut or take back the path so it
    /// ends there. Returns whether the path changed.
    pub fn follow(&mut self, grid: &Grid, cur: HexNumber) -> bool {
        if cur == self.last() {
            return false;
        }
        if cur == self.from {
            self.hexes.clear();
        } else if let Some(k) = self.hexes.iter().position(|h| *h == cur) {
            // Back over the path: cut it there.
            self.hexes.truncate(k + 1);
        } else {
            // Forward, one hex at a time towards the pointer.
            while self.last() != cur && self.hexes.len() < MAX_PATH {
                let at = self.last();
                let Some(next) = grid
                    .neighbours_on_map(at)
                    .into_iter()
                    .map(|(_, n)| n)
                    .min_by_key(|n| (grid.distance(*n, cur), *n))
                else {
                    break;
                };
                if grid.distance(next, cur) >= grid.distance(at, cur) {
                    break;
                }
                if let Some(k) = self.hexes.iter().position(|h| *h == next) {
                    self.hexes.truncate(k + 1);
                } else if next == self.from {
                    self.hexes.clear();
                } else {
                    self.hexes.push(next);
                }
            }
        }
        self.preview = None;
        true
    }

    /// Ask the engine about the path as drawn now (once per change).
    pub fn check(&mut self, rules: &Gbacw, state: &GbacwState, pieces: &[CounterId]) {
        if self.preview.is_none() && !self.hexes.is_empty() {
            self.preview = Some(rules.path_preview(state, pieces, &self.hexes));
        }
    }

    /// The hexes the rules allow, from the start.
    pub fn allowed(&self) -> usize {
        self.preview.as_ref().map_or(0, |p| p.spent.len())
    }

    /// What releasing sends: the move along the whole path, or why not.
    pub fn release(&self, pieces: &[CounterId]) -> Result<Option<GbacwAction>, String> {
        if self.hexes.is_empty() {
            return Ok(None);
        }
        let Some(p) = &self.preview else {
            return Err("the path was not checked".into());
        };
        if let Some(e) = &p.refused {
            return Err(format!(
                "not sent: {} refused: {e}",
                self.hexes[p.spent.len()]
            ));
        }
        if let Err(e) = &p.stop {
            return Err(format!("not sent: cannot stop in {}: {e}", self.last()));
        }
        Ok(Some(GbacwAction::Move {
            pieces: pieces.to_vec(),
            path: self.hexes.clone(),
        }))
    }

    /// Draw the path: gold where allowed with the running cost on each
    /// hex, red from the first refused hex on (crossed out), and a line of
    /// words at the end: the total, or the refusal with its case.
    pub fn paint(
        &self,
        painter: &Painter,
        layout: HexLayout,
        cam: Camera,
        rect: Rect,
        hex_px: f32,
    ) {
        let at = |h: HexNumber| {
            cam.to_screen(rect, layout.centre(u16::from(h.col()), u16::from(h.row())))
        };
        let ok = Color32::from_rgb(0xff, 0xd7, 0x00);
        let bad = Color32::from_rgb(0xe0, 0x30, 0x30);
        let width = (hex_px * 0.14).max(2.5);
        let n = self.allowed();
        let mut pts = vec![at(self.from)];
        pts.extend(self.hexes[..n].iter().map(|h| at(*h)));
        painter.add(Shape::line(pts.clone(), Stroke::new(width, ok)));
        if n < self.hexes.len() {
            let mut red = vec![*pts.last().unwrap_or(&at(self.from))];
            red.extend(self.hexes[n..].iter().map(|h| at(*h)));
            painter.add(Shape::line(red, Stroke::new(width, bad)));
            // The refused hex crossed out.
            let c = at(self.hexes[n]);
            let d = hex_px * 0.35;
            for (a, b) in [(vec2(-d, -d), vec2(d, d)), (vec2(-d, d), vec2(d, -d))] {
                painter.line_segment([c + a, c + b], Stroke::new(width, bad));
            }
        }
        let font = FontId::proportional((hex_px * 0.32).clamp(9.0, 18.0));
        if let Some(p) = &self.preview {
            for (h, mp) in self.hexes.iter().zip(&p.spent) {
                let c = at(*h);
                let r = Rect::from_center_size(c, vec2(hex_px * 0.8, hex_px * 0.45));
                painter.rect_filled(r, 3.0, Color32::from_black_alpha(170));
                painter.text(c, Align2::CENTER_CENTER, mp_text(*mp), font.clone(), ok);
            }
        }
        let words = self.words();
        if !words.is_empty() {
            let end = at(self.last());
            let galley = painter.layout_no_wrap(words, FontId::proportional(13.0), Color32::WHITE);
            let size = galley.size() + vec2(10.0, 6.0);
            let min = (end + vec2(16.0, 14.0)).min(rect.max - size).max(rect.min);
            let r = Rect::from_min_size(min, size);
            painter.rect_filled(r, 4.0, Color32::from_black_alpha(210));
            painter.galley(r.min + vec2(5.0, 3.0), galley, Color32::WHITE);
        }
    }

    /// The words at the end of the path.
    pub fn words(&self) -> String {
        let Some(p) = &self.preview else {
            return String::new();
        };
        let total = p.spent.last().copied().unwrap_or_default();
        match (&p.refused, &p.stop) {
            (Some(e), _) => format!(
                "{} MP of {} so far; {} refused: {e}",
                mp_text(total),
                mp_text(p.left),
                self.hexes[p.spent.len()]
            ),
            (None, Err(e)) => format!("{} MP; may not stop here: {e}", mp_text(total)),
            (None, Ok(())) => format!("{} MP of {}", mp_text(total), mp_text(p.left)),
        }
    }
}
