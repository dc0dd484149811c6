//! The real `muster` binary in a real window on a GBACW map: an X server
//! of the test's own (Xvfb) and `muster --battle test` (a hot-seat GBACW
//! table in that process, every counter of the `test` battle placed). The
//! screen is read back, saved as
//! `$CARGO_TARGET_DIR/tmp/screenshots/gbacw_xvfb.png`, and checked: not
//! blank; the map area shows several distinct terrain colours, each where
//! the map file puts it; and the 10th Maine's Union counter is on the hex
//! the state gives it (0306), and not on an empty hex next to it.
//!
//! Where a hex is on screen comes from the client's own layout code: the
//! same `GbacwApp` laid out in process (egui_kittest, no rendering) at the
//! window's size, 1280 × 800 (main.rs), in the whole window as eframe
//! gives it (no margin), asked `hex_screen_pos`. The camera opens by the
//! same rule at the first frame in both (the least readable zoom or the
//! whole map if larger, on the acting side's units), so the positions
//! agree; the window sits at the screen's origin (Xvfb runs no window
//! manager, so there is no frame or title bar). The checks
//! sample a few pixels off each point ([`SLACK`]), much less than a hex
//! (about 60 pixels across here), so a counter or terrain drawn in
//! another hex fails them.
//!
//! Skipped, saying why, only when Xvfb is not installed (`.ci/test`
//! installs it).

use crate::support;

use egui::{Pos2, vec2};
use egui_kittest::Harness;
use image::RgbImage;
use muster_client::app::counter::seat_colour;
use muster_client::app::gbacw::GbacwApp;
use muster_client::app::gbacw::map::{shade, terrain_colour};
use muster_client::app::hexgrid::HEX_SIZE;
use muster_shared::SeatId;
use muster_shared::gbacw::map::Terrain;
use muster_shared::gbacw::ruleset::GbacwConfig;
use muster_shared::gbacw::testkit::{id, n as hex};
use std::time::Duration;
use support::xvfb::{HEIGHT, WIDTH, Xvfb, colours, pixels_near, run_window};

/// How far (pixels, each way) from a computed point a colour may be found:
/// room for a pixel of rounding and anti-aliasing, far below a hex.
const SLACK: u32 = 4;
/// Per-channel tolerance when comparing a pixel with a palette colour.
const TOLERANCE: u8 = 14;

/// Terrain the map file (assets/gbacw/maps/test.map) puts in these hexes,
/// none of them holding a counter at the start.
const TERRAIN: [(&str, Terrain); 5] = [
    ("0101", Terrain::Clear),
    ("0303", Terrain::Woods),
    ("1002", Terrain::Lake),
    ("0208", Terrain::Swamp),
    ("0707", Terrain::Corn),
];

/// Where the client lays things out in a 1280 × 800 window: its own
/// layout code, run in process for a few frames.
struct Layout {
    app: Harness<'static, GbacwApp>,
}

impl Layout {
    fn new() -> Layout {
        let app = GbacwApp::hot_seat(&GbacwConfig::default(), &["Union", "Confederate"]).unwrap();
        let mut h = Harness::builder()
            .with_size(vec2(WIDTH as f32, HEIGHT as f32))
            .build_ui_state(
                |ui, app: &mut GbacwApp| {
                    // eframe hands the app the whole window; the harness
                    // keeps a margin of 8 points round its `Ui`. Lay out
                    // in the whole window, as the binary does.
                    let whole = ui.ctx().content_rect();
                    ui.scope_builder(egui::UiBuilder::new().max_rect(whole), |ui| app.ui(ui));
                },
                app,
            );
        h.run();
        Layout { app: h }
    }

    fn hex(&self, n: &str) -> Pos2 {
        self.app.state().map.hex_screen_pos(hex(n)).unwrap()
    }

    /// A hex's radius on screen, in pixels.
    fn hex_px(&self) -> f32 {
        HEX_SIZE * self.app.state().map.camera().unwrap().zoom
    }
}

/// The square of side `2 * SLACK + 1` around `p`, as (x, y, w, h).
fn around(p: Pos2) -> (u32, u32, u32, u32) {
    let (x, y) = (p.x.round() as u32, p.y.round() as u32);
    (
        x.saturating_sub(SLACK),
        y.saturating_sub(SLACK),
        2 * SLACK + 1,
        2 * SLACK + 1,
    )
}

fn rgb(c: egui::Color32) -> [u8; 3] {
    let [r, g, b, _] = c.to_array();
    [r, g, b]
}

/// Whether `img` shows `colour` within [`SLACK`] of `p`.
fn shows(img: &RgbImage, p: Pos2, colour: [u8; 3]) -> bool {
    pixels_near(img, around(p), colour, TOLERANCE) > 0
}

#[test]
fn a_gbacw_map_in_a_real_window_under_xvfb_shows_terrain_and_counters() {
    let x = match Xvfb::start() {
        Ok(x) => x,
        Err(why) if why.contains("not installed") => {
            println!("SKIPPED a_gbacw_map_in_a_real_window_under_xvfb: {why}");
            return;
        }
        Err(why) => panic!("{why}"),
    };
    let layout = Layout::new();
    let union = rgb(seat_colour(Some(SeatId(0))));
    let hex_px = layout.hex_px();
    assert!(
        hex_px > 6.0 * SLACK as f32,
        "hexes of {hex_px} px are too small to tell apart"
    );
    // The counter's body: a tenth of its width in from its left edge,
    // clear of its label (the headless test samples it the same way), as
    // an offset from its hex's centre.
    let body = {
        let r = layout.app.state().map.counter_rect(&id("10-me")).unwrap();
        assert!(r.contains(layout.hex("0306")), "laid out on its hex");
        r.left_center() + vec2(r.width() * 0.1, 0.0) - layout.hex("0306")
    };
    let on_counter = |n: &str| layout.hex(n) + body;
    // Terrain: a little left of the centre, clear of hex numbers and names.
    let on_terrain = |n: &str| layout.hex(n) + vec2(-0.45 * hex_px, 0.1 * hex_px);

    let started = std::time::Instant::now();
    let shot = run_window(
        &x,
        env!("CARGO_BIN_EXE_muster"),
        &["--battle", "test"],
        Duration::from_secs(120),
        // Ready once the map and its counters are drawn.
        |img| {
            shows(img, on_counter("0306"), union)
                && shows(
                    img,
                    on_terrain("0303"),
                    rgb(shade(terrain_colour(Terrain::Woods), 0)),
                )
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    println!("the map was on screen {:?} after start", started.elapsed());

    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("gbacw_xvfb.png");
    shot.save(&path).unwrap();
    println!("screenshot: {}", path.display());

    // Not blank, and drawn by a real UI: many colours.
    let n = colours(&shot);
    assert!(n >= 20, "only {n} colours on screen");

    // The map area shows several distinct terrain colours, each where the
    // map file puts it.
    let map = layout.app.state().map.rect().unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for (n, t) in TERRAIN {
        let p = on_terrain(n);
        assert!(map.contains(p), "{n} is off the map area {map:?}");
        let want = rgb(shade(terrain_colour(t), 0));
        assert!(
            shows(&shot, p, want),
            "{n} {t:?}: expected {want:?} near {p:?}, the pixel there is {:?}",
            shot.get_pixel(p.x as u32, p.y as u32).0
        );
        seen.insert(want);
    }
    assert_eq!(seen.len(), TERRAIN.len(), "distinct terrain colours");
    // The knoll (level 2) is shaded, not plain clear.
    assert!(shows(
        &shot,
        on_terrain("1108"),
        rgb(shade(terrain_colour(Terrain::Clear), 2))
    ));

    // A counter is where the state says: the 10th Maine at 0306, in Union
    // blue; the empty hexes south of it (0307) and east of it (0406) show
    // no Union blue at the same spot, so a counter drawn a hex away fails.
    let state_hex = layout.app.state().session.state().unwrap().units[&id("10-me")].hex;
    assert_eq!(state_hex, Some(hex("0306")));
    let at = on_counter("0306");
    assert!(
        pixels_near(&shot, around(at), union, TOLERANCE) >= 20,
        "no Union counter near {at:?}: the pixel there is {:?}",
        shot.get_pixel(at.x as u32, at.y as u32).0
    );
    for empty in ["0307", "0406"] {
        assert_eq!(
            pixels_near(&shot, around(on_counter(empty)), union, TOLERANCE),
            0,
            "Union blue on {empty}, which holds no counter"
        );
    }
}
