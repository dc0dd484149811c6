//! The camera both boards look through (the sandbox's and the GBACW map):
//! the world point at the view's top-left corner and the pixels per world
//! unit; pan by dragging, zoom with the wheel or a pinch around the pointer.

use egui::{Pos2, Rect, Response, Ui, Vec2};

pub const MIN_ZOOM: f32 = 0.1;
pub const MAX_ZOOM: f32 = 6.0;

/// Where a board is looked at from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    pub offset: Vec2,
    pub zoom: f32,
}

impl Camera {
    pub fn to_screen(self, rect: Rect, world: Pos2) -> Pos2 {
        rect.min + (world.to_vec2() - self.offset) * self.zoom
    }

    pub fn to_world(self, rect: Rect, screen: Pos2) -> Pos2 {
        (self.offset + (screen - rect.min) / self.zoom).to_pos2()
    }

    /// The world rectangle in view.
    pub fn world_view(self, rect: Rect) -> Rect {
        Rect::from_min_max(self.to_world(rect, rect.min), self.to_world(rect, rect.max))
    }

    /// Zoom by `factor` keeping the world point under `anchor` still.
    pub fn zoom_at(&mut self, rect: Rect, anchor: Pos2, factor: f32) {
        let world = self.to_world(rect, anchor);
        self.zoom = (self.zoom * factor).clamp(MIN_ZOOM, MAX_ZOOM);
        self.offset = world.to_vec2() - (anchor - rect.min) / self.zoom;
    }

    /// The camera that shows a board of `extent` whole in `rect`, with a
    /// small margin.
    pub fn fit(rect: Rect, extent: Vec2) -> Camera {
        let margin = 16.0;
        let zoom = ((rect.width() - 2.0 * margin) / extent.x)
            .min((rect.height() - 2.0 * margin) / extent.y)
            .clamp(MIN_ZOOM, MAX_ZOOM);
        let shown = rect.size() / zoom;
        Camera {
            offset: (extent - shown) / 2.0,
            zoom,
        }
    }

    /// Zoom with the wheel (smoothed by egui) and pinch, around the
    /// pointer, while `response` is hovered.
    pub fn wheel_zoom(&mut self, ui: &Ui, response: &Response, rect: Rect) {
        if !response.hovered() {
            return;
        }
        let (scroll, pinch, pointer) = ui.input(|i| {
            (
                i.smooth_scroll_delta.y,
                i.zoom_delta(),
                i.pointer.latest_pos(),
            )
        });
        let factor = (scroll * 0.0015).exp() * pinch;
        if (factor - 1.0).abs() > 1e-4
            && let Some(p) = pointer
        {
            self.zoom_at(rect, p, factor);
        }
    }
}
