//! The real `muster` binary in a real window on Corinth's solitaire game
//! (`muster --battle corinth_solo`, a hot-seat table in that process),
//! under an X server of the test's own (Xvfb): the solitaire panel (29.5)
//! is on screen where the client's own layout puts it — its "Due" line in
//! its yellow, its heading as text — with the map beside it. The screen is
//! saved as `$CARGO_TARGET_DIR/tmp/screenshots/corinth_solo_xvfb.png`.
//!
//! Where the panel is comes from the same `GbacwApp` laid out in process
//! (egui_kittest, no rendering) at the window's 1280 × 800; the window
//! sits at the screen's origin (Xvfb runs no window manager).
//!
//! Skipped, saying why, only when Xvfb is not installed (`.ci/test`
//! installs it).

use crate::support;

use egui::{Rect, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use image::RgbImage;
use muster_client::app::gbacw::{GbacwApp, solitaire};
use muster_shared::gbacw::ruleset::GbacwConfig;
use std::time::Duration;
use support::xvfb::{HEIGHT, WIDTH, Xvfb, colours, pixels_near, run_window};

/// The "Due" line's colour (`solitaire.rs`).
const DUE: [u8; 3] = [0xff, 0xd7, 0x00];

/// A rectangle in screen points as (x, y, w, h) pixels (the window's scale is 1).
fn pixels(r: Rect) -> (u32, u32, u32, u32) {
    (
        r.min.x.max(0.0) as u32,
        r.min.y.max(0.0) as u32,
        r.width().ceil() as u32,
        r.height().ceil() as u32,
    )
}

/// Light (text) pixels in `r`.
fn text_pixels(img: &RgbImage, r: Rect) -> usize {
    let (x0, y0, w, h) = pixels(r);
    let mut n = 0;
    for y in y0..(y0 + h).min(img.height()) {
        for x in x0..(x0 + w).min(img.width()) {
            if img.get_pixel(x, y).0.iter().all(|c| *c > 170) {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn corinth_29_5_the_solitaire_panel_in_a_real_window_under_xvfb() {
    let x = match Xvfb::start() {
        Ok(x) => x,
        Err(why) if why.contains("not installed") => {
            println!("SKIPPED corinth_29_5_the_solitaire_panel_in_a_real_window: {why}");
            return;
        }
        Err(why) => panic!("{why}"),
    };
    // The client's own layout at the window's size (main.rs's seat names).
    let config = GbacwConfig {
        battle: "corinth_solo".into(),
        ..GbacwConfig::default()
    };
    let app = GbacwApp::hot_seat(&config, &["Union", "Confederate"]).unwrap();
    let mut layout = Harness::builder()
        .with_size(vec2(WIDTH as f32, HEIGHT as f32))
        .build_ui_state(|ui, app: &mut GbacwApp| app.ui(ui), app);
    layout.run();
    let heading = layout.get_by_label(solitaire::HEADING).rect();
    let due = layout.get_by_label_contains("Due (Corinth 29.51)").rect();
    let screen = Rect::from_min_size(egui::Pos2::ZERO, vec2(WIDTH as f32, HEIGHT as f32));
    assert!(
        screen.contains_rect(heading) && screen.contains_rect(due),
        "the panel is on screen: {heading:?} {due:?}"
    );

    let started = std::time::Instant::now();
    let shot = run_window(
        &x,
        env!("CARGO_BIN_EXE_muster"),
        &["--battle", "corinth_solo"],
        Duration::from_secs(120),
        // Ready once the panel's Due line is drawn in its yellow.
        |img| pixels_near(img, pixels(due), DUE, 30) >= 20,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    println!(
        "the panel was on screen {:?} after start",
        started.elapsed()
    );
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("corinth_solo_xvfb.png");
    shot.save(&path).unwrap();
    println!("screenshot: {}", path.display());

    // A real UI with the map drawn: many colours.
    let n = colours(&shot);
    assert!(n >= 20, "only {n} colours on screen");
    // The heading is text where the layout puts it.
    let t = text_pixels(&shot, heading);
    assert!(t >= 20, "heading text pixels: {t}");
    // And the Due line's yellow is on that line, not the heading's (its
    // upper half: the two rectangles touch).
    let top = Rect::from_min_max(heading.min, egui::pos2(heading.max.x, heading.center().y));
    assert_eq!(pixels_near(&shot, pixels(top), DUE, 30), 0);
}
