//! The client's UI tests as one test binary (each file beside this one is
//! a module of it; `support/` is shared). One binary instead of ~36: each
//! separate one compiled `support/` again and linked egui, wgpu, quinn and
//! the server on its own, several minutes of every CI run. `frame_time.rs`
//! stays a binary of its own: it measures time and should not share the
//! machine with these.
//!
//! Run one file's tests: `cargo test -p muster-client --test clicks playthrough_ui::`.
//! A new test file is a `mod` line here (`every_test_file_is_a_module`
//! fails otherwise: Cargo no longer finds test files by itself,
//! client/Cargo.toml sets `autotests = false`).

mod support;

mod action_kinds_ui;
mod battery_fire_preview_ui;
mod chat_ui;
mod club_ui;
mod corinth_actions_ui;
mod corinth_crew_ui;
mod corinth_plot_ui;
mod corinth_window_xvfb;
mod create_form_ui;
mod event_ui;
mod first_move_ui;
mod gbacw_arrivals_ui;
mod gbacw_fire_net_ui;
mod gbacw_net_ui;
mod gbacw_panels_ui;
mod gbacw_turn_ui;
mod gbacw_ui;
mod gbacw_window_xvfb;
mod layout_ui;
mod leader_rout_ui;
mod lobby_events_ui;
mod lobby_from_save_ui;
mod lobby_moved_ui;
mod lobby_ui;
mod net_ui;
mod new_player_look;
mod new_player_ui;
mod playthrough_ui;
mod replay_ui;
mod retreat_advance_ui;
mod round_battle_ui;
mod seat_names_ui;
mod sound_setting_ui;
mod stack_order_ui;
mod still_confusing_ui;
mod take_back_ui;
mod ui;
mod window_xvfb;

/// Every `.rs` file in client/tests is a module above or its own `[[test]]`
/// in client/Cargo.toml; a file in neither would never be compiled.
#[test]
fn every_test_file_is_a_module() {
    let here = concat!(env!("CARGO_MANIFEST_DIR"), "/tests");
    let this = include_str!("clicks.rs");
    let cargo = include_str!("../Cargo.toml");
    let mut lost = Vec::new();
    for entry in std::fs::read_dir(here).expect("client/tests") {
        let path = entry.expect("entry").path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Some(stem) = name.strip_suffix(".rs") else {
            continue;
        };
        let module = format!("\nmod {stem};");
        let own = format!("path = \"tests/{name}\"");
        if stem != "clicks" && !this.contains(&module) && !cargo.contains(&own) {
            lost.push(name.to_string());
        }
    }
    assert!(lost.is_empty(), "test files never compiled: {lost:?}");
}
