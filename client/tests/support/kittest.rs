//! The GBACW table under egui_kittest, shared by the table's kittests
//! (`gbacw_ui.rs`, `gbacw_panels_ui.rs`, `replay_ui.rs`,
//! `corinth_plot_ui.rs`): a hot-seat table in a harness, and the gestures
//! they all use.

use egui::{Event, Modifiers, PointerButton, Pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use muster_client::app::gbacw::{GbacwApp, track};
use muster_shared::gbacw::ruleset::GbacwConfig;

/// The window the tests lay the table out in (the binary's default).
pub const SIZE: egui::Vec2 = vec2(1280.0, 800.0);

/// A hot-seat table of `config` (seats "Union" and "Confederate") in a
/// harness of `size`, run to rest; `wgpu` to render it headless.
pub fn gbacw_harness(
    config: &GbacwConfig,
    size: egui::Vec2,
    wgpu: bool,
) -> Harness<'static, GbacwApp> {
    let app = GbacwApp::hot_seat(config, &["Union", "Confederate"]).unwrap();
    let mut builder = Harness::builder().with_size(size);
    if wgpu {
        builder = builder.wgpu();
    }
    let mut h = builder.build_ui_state(|ui, app: &mut GbacwApp| app.ui(ui), app);
    h.run();
    h
}

/// Run frames until the UI rests, as `Harness::run` does, but without
/// failing when it does not rest within the step budget: at a table over a
/// real server every message that arrives repaints, and on a loaded machine
/// they trickle in over several frames. Callers wait for the state they
/// need anyway (bounded in count and time), so "still repainting" is not
/// an error here.
pub fn settle<S>(h: &mut Harness<'_, S>) {
    let _still_repainting = h.try_run();
}

/// The `test` battle at [`SIZE`], not rendered.
pub fn test_battle() -> Harness<'static, GbacwApp> {
    gbacw_harness(&GbacwConfig::default(), SIZE, false)
}

/// The `test` battle at [`SIZE`], rendered headless with wgpu.
pub fn test_battle_rendered() -> Harness<'static, GbacwApp> {
    gbacw_harness(&GbacwConfig::default(), SIZE, true)
}

/// Hexes and counters by the words the engine's tests write them in.
#[allow(unused_imports)] // each test file uses its own part of this
pub use muster_shared::gbacw::testkit::{id, n as hex};

/// A primary click at `p`: hover, press, release, then run to rest.
pub fn click_at<S>(h: &mut Harness<'_, S>, p: Pos2) {
    h.hover_at(p);
    h.step();
    for pressed in [true, false] {
        h.event(Event::PointerButton {
            pos: p,
            button: PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        });
        h.step();
    }
    settle(h);
}

/// Click "End phase" once.
pub fn end_phase(h: &mut Harness<'_, GbacwApp>) {
    h.get_by_label(track::END_PHASE).click();
    settle(h);
}

/// A client's GBACW table on a server (`table`, joined by the caller) in
/// a harness of `size`; the seats are named "Union" and "Confederate" as
/// at a hot-seat table.
pub fn net_gbacw(
    table: muster_client::app::NetTable<muster_shared::gbacw::ruleset::Gbacw>,
    size: egui::Vec2,
) -> Harness<'static, GbacwApp> {
    let names = vec!["Union".to_string(), "Confederate".to_string()];
    let session = muster_client::app::Session::new(Box::new(table), names);
    let mut h = Harness::builder()
        .with_size(size)
        .build_ui_state(|ui, app: &mut GbacwApp| app.ui(ui), GbacwApp::new(session));
    settle(&mut h);
    h
}
