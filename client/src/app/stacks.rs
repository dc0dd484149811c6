//! Where the counters of stacks go on screen: a stack is drawn as a pile,
//! each counter a little up and to the right of the one beneath; the
//! stack under the pointer fans out in a row to the left of its top
//! counter (to the right at the view's left edge), which stays where it was (the pointer that opened the fan is
//! still on a counter, and the one it was on). Shared by the sandbox board
//! and the GBACW map.

use egui::{Pos2, Rect, Vec2, vec2};

/// The offset of each counter in a pile from the one beneath it.
pub fn stack_step(side: f32) -> Vec2 {
    vec2(side * 0.08, -side * 0.08)
}

/// One counter's place this frame: the stack it is in, what it is, and
/// its screen rectangle.
#[derive(Clone, Copy, Debug)]
pub struct Placed<K, T> {
    pub stack: K,
    pub item: T,
    pub rect: Rect,
}

/// Screen rectangles for every counter of `stacks` (each: its key, its
/// centre on screen, its counters bottom first) whose centre lies in
/// `view`, in drawing order, the fanned stack last.
pub fn lay_out<K: Copy + PartialEq, T: Copy>(
    stacks: impl IntoIterator<Item = (K, Pos2, Vec<T>)>,
    view: Rect,
    side: f32,
    fanned: Option<K>,
) -> Vec<Placed<K, T>> {
    let mut slots = Vec::new();
    let mut fan = Vec::new();
    let left_edge = view.left();
    let view = view.expand(side * 2.0);
    for (key, c, stack) in stacks {
        if !view.contains(c) {
            continue;
        }
        let n = stack.len();
        if fanned == Some(key) {
            let gap = side * 1.08;
            let top = c + stack_step(side) * (n as f32 - 1.0);
            // A stack at the view's left edge (the map's, which the view
            // no longer passes) fans out to the right, so that every
            // counter of it can be reached.
            let leftward = top.x - side / 2.0 - (n as f32 - 1.0) * gap >= left_edge;
            for (i, item) in stack.into_iter().enumerate() {
                let k = i as f32 - (n as f32 - 1.0);
                let dx = if leftward { k * gap } else { -k * gap };
                let rect = Rect::from_center_size(top + vec2(dx, 0.0), Vec2::splat(side));
                fan.push(Placed {
                    stack: key,
                    item,
                    rect,
                });
            }
        } else {
            for (i, item) in stack.into_iter().enumerate() {
                let rect =
                    Rect::from_center_size(c + stack_step(side) * i as f32, Vec2::splat(side));
                slots.push(Placed {
                    stack: key,
                    item,
                    rect,
                });
            }
        }
    }
    slots.extend(fan);
    slots
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::pos2;

    /// A fanned stack fans to the left of its top counter, or to the
    /// right when the left would leave the view (issue 18: the view stops
    /// at the map's edge, so it could not be panned to show them).
    #[test]
    fn a_stack_at_the_left_edge_fans_out_to_the_right() {
        let view = Rect::from_min_size(pos2(0.0, 0.0), vec2(800.0, 600.0));
        let fan = |x: f32| {
            let placed = lay_out(
                [(1u8, pos2(x, 300.0), vec![1u8, 2, 3])],
                view,
                30.0,
                Some(1),
            );
            placed.iter().map(|p| p.rect).collect::<Vec<_>>()
        };
        let middle = fan(400.0);
        assert!(middle[0].center().x < middle[2].center().x - 50.0);
        let edge = fan(20.0);
        assert!(edge[0].center().x > edge[2].center().x + 50.0);
        assert!(edge.iter().all(|r| r.left() >= view.left() - 1.0));
        // The top counter stays where it was either way.
        assert!((edge[2].center().x - (20.0 + stack_step(30.0).x * 2.0)).abs() < 0.01);
    }
}
