//! Where the counters of stacks go on screen: a stack is drawn as a pile,
//! each counter a little up and to the right of the one beneath; the
//! stack under the pointer fans out in a row to the left of its top
//! counter, which stays where it was (the pointer that opened the fan is
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
    let view = view.expand(side * 2.0);
    for (key, c, stack) in stacks {
        if !view.contains(c) {
            continue;
        }
        let n = stack.len();
        if fanned == Some(key) {
            let gap = side * 1.08;
            let top = c + stack_step(side) * (n as f32 - 1.0);
            for (i, item) in stack.into_iter().enumerate() {
                let dx = (i as f32 - (n as f32 - 1.0)) * gap;
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
