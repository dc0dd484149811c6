//! The camera both boards look through (the sandbox's and the GBACW map):
//! the world point at the view's top-left corner and the pixels per world
//! unit; pan by dragging, zoom with the wheel or a pinch around the pointer.

use egui::{Pos2, Rect, Response, Ui, Vec2};

pub const MIN_ZOOM: f32 = 0.1;
pub const MAX_ZOOM: f32 = 6.0;
/// The margin, in screen points, [`Camera::fit`] leaves around a board.
const FIT_MARGIN: f32 = 16.0;

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
        let margin = FIT_MARGIN;
        let zoom = ((rect.width() - 2.0 * margin) / extent.x)
            .min((rect.height() - 2.0 * margin) / extent.y)
            .clamp(MIN_ZOOM, MAX_ZOOM);
        let shown = rect.size() / zoom;
        Camera {
            offset: (extent - shown) / 2.0,
            zoom,
        }
    }

    /// The camera at `zoom` with world point `at` in the middle of
    /// `rect`, as far as the board allows: along an axis where the whole
    /// board fits, the board is centred instead; along one where it does
    /// not, the view stops at the board's edge (with the same margin as
    /// [`Camera::fit`]) rather than show empty table beyond it.
    pub fn looking_at(rect: Rect, extent: Vec2, zoom: f32, at: Pos2) -> Camera {
        let zoom = zoom.clamp(MIN_ZOOM, MAX_ZOOM);
        let shown = rect.size() / zoom;
        let margin = FIT_MARGIN / zoom;
        let axis = |extent: f32, shown: f32, at: f32| {
            if extent + 2.0 * margin <= shown {
                (extent - shown) / 2.0
            } else {
                (at - shown / 2.0).clamp(-margin, extent - shown + margin)
            }
        };
        Camera {
            offset: Vec2::new(axis(extent.x, shown.x, at.x), axis(extent.y, shown.y, at.y)),
            zoom,
        }
    }

    /// Keep some of a board of `extent` in view (issue 18: the map could
    /// be dragged, panned or brought round to an edge hex until half the
    /// view, or all of it, was empty table). Along an axis where the
    /// board is larger than the view, the view may pass the board's edge
    /// by at most `slack` screen points; along one where it fits, the
    /// board stays whole in view, `slack` from the view's edges when
    /// there is room for that.
    pub fn keep_board_in_view(&mut self, rect: Rect, extent: Vec2, slack: f32) {
        let shown = rect.size() / self.zoom;
        let m = slack / self.zoom;
        let axis = |offset: f32, extent: f32, shown: f32| {
            let (a, b) = (-m, extent + m - shown);
            offset.clamp(a.min(b), a.max(b))
        };
        self.offset = Vec2::new(
            axis(self.offset.x, extent.x, shown.x),
            axis(self.offset.y, extent.y, shown.y),
        );
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

#[cfg(test)]
mod tests {
    use super::*;
    use egui::{pos2, vec2};

    fn rect() -> Rect {
        Rect::from_min_size(pos2(0.0, 100.0), vec2(900.0, 500.0))
    }

    #[test]
    fn looking_at_puts_the_point_in_the_middle_of_a_large_board() {
        let extent = vec2(4000.0, 3000.0);
        let at = pos2(2000.0, 1500.0);
        let cam = Camera::looking_at(rect(), extent, 0.8, at);
        assert_eq!(cam.zoom, 0.8);
        let on_screen = cam.to_screen(rect(), at);
        assert!(
            (on_screen - rect().center()).length() < 0.01,
            "{on_screen:?}"
        );
    }

    #[test]
    fn looking_at_stops_at_the_board_edge_and_keeps_the_point_in_view() {
        let extent = vec2(4000.0, 3000.0);
        // A corner unit: the view stops at the board's corner (the fit
        // margin), and the unit is still on screen.
        let at = pos2(10.0, 10.0);
        let cam = Camera::looking_at(rect(), extent, 0.8, at);
        assert_eq!(
            cam.to_screen(rect(), pos2(0.0, 0.0)),
            rect().min + vec2(FIT_MARGIN, FIT_MARGIN)
        );
        assert!(rect().contains(cam.to_screen(rect(), at)));
    }

    /// Issue 18: however far the view is pushed, the board is still in
    /// it, at most `slack` points past its edge; a board that fits stays
    /// whole in view.
    #[test]
    fn the_board_stays_in_view_however_far_it_is_pushed() {
        let extent = vec2(4000.0, 3000.0);
        let slack = 96.0;
        for push in [vec2(-1e5, -1e5), vec2(1e5, 1e5), vec2(-1e5, 1e5)] {
            let mut cam = Camera::looking_at(rect(), extent, 0.8, pos2(2000.0, 1500.0));
            cam.offset += push;
            cam.keep_board_in_view(rect(), extent, slack);
            let board = Rect::from_min_max(
                cam.to_screen(rect(), pos2(0.0, 0.0)),
                cam.to_screen(rect(), extent.to_pos2()),
            );
            let shown = board.intersect(rect());
            assert!(shown.width() >= rect().width() - slack - 0.01, "{board:?}");
            assert!(
                shown.height() >= rect().height() - slack - 0.01,
                "{board:?}"
            );
        }
        // A small board (zoomed out past the fit) stays whole in view.
        let mut cam = Camera::fit(rect(), extent);
        cam.zoom_at(rect(), rect().center(), 0.5);
        cam.offset += vec2(1e5, 0.0);
        cam.keep_board_in_view(rect(), extent, slack);
        let board = Rect::from_min_max(
            cam.to_screen(rect(), pos2(0.0, 0.0)),
            cam.to_screen(rect(), extent.to_pos2()),
        );
        assert!(rect().contains_rect(board), "{board:?}");
        // The fit itself is left as it is.
        let fit = Camera::fit(rect(), extent);
        let mut kept = fit;
        kept.keep_board_in_view(rect(), extent, slack);
        assert_eq!(kept, fit);
    }

    #[test]
    fn looking_at_centres_a_board_that_fits_whatever_the_point() {
        let extent = vec2(500.0, 400.0);
        let a = Camera::looking_at(rect(), extent, 1.0, pos2(10.0, 10.0));
        let b = Camera::looking_at(rect(), extent, 1.0, pos2(490.0, 390.0));
        assert_eq!(a, b);
        let middle = a.to_screen(rect(), (extent / 2.0).to_pos2());
        assert!((middle - rect().center()).length() < 0.01);
    }
}
