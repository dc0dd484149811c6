//! Frame time with a full board: ~300 counters (singles, stacks, markers,
//! backs, hidden pieces) on the 40 × 30 sandbox map, drawn by the real app.
//!
//! Ignored by default (it measures, it does not check): run it with
//! `cargo test --release -p muster-client --test frame_time -- --ignored --nocapture`.
//! It reports medians for the UI pass (layout and painting into shapes),
//! tessellation, and a full headless wgpu render with read-back, whole map
//! in view and zoomed in to where labels and hex numbers are drawn.

use egui::vec2;
use egui_kittest::Harness;
use muster_client::app::MusterApp;
use muster_client::app::board::Camera;
use muster_shared::SeatId;
use muster_shared::sandbox::{Loc, Position, SandboxAction, SandboxConfig};
use std::time::{Duration, Instant};

const COUNTERS: usize = 300;
const FRAMES: usize = 60;

fn full_board() -> MusterApp {
    let mut app =
        MusterApp::hot_seat(&SandboxConfig::default(), &["Union", "Confederate"]).unwrap();
    let mut placed = 0;
    // 150 positions: 100 single counters and 50 stacks of four — a
    // wargame's order of battle with its leaders and markers.
    for i in 0..150u16 {
        let at = Position {
            board: 0,
            loc: Loc::Hex {
                col: 2 + (i * 7) % 36,
                row: 2 + (i * 3) % 26,
            },
        };
        let depth = if i % 3 == 0 { 4 } else { 1 };
        for k in 0..depth {
            if placed == COUNTERS {
                break;
            }
            let seat = SeatId((i % 2) as u8);
            app.session.set_active(muster_shared::Viewer::Seat(seat));
            app.session.act(SandboxAction::Place {
                at,
                label: format!("{}/{} Bde", k + 1, i),
                owner: Some(seat),
                face_up: placed % 5 != 0,
                hidden: placed % 17 == 0,
            });
            let id = app.session.state().unwrap().stack_at(at).last().unwrap().id;
            if placed % 4 == 0 {
                app.session.act(SandboxAction::AddMarker {
                    piece: id,
                    marker: "Disrupted".into(),
                });
            }
            placed += 1;
        }
    }
    app.session
        .set_active(muster_shared::Viewer::Seat(SeatId(0)));
    assert!(app.session.state().unwrap().pieces.len() >= COUNTERS * 9 / 10);
    app
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn measure(h: &mut Harness<'_, MusterApp>, label: &str) -> (Duration, Duration, Duration) {
    let (mut pass, mut tess, mut render) = (Vec::new(), Vec::new(), Vec::new());
    let ppp = h.ctx.pixels_per_point();
    for f in 0..FRAMES {
        // Move the pointer so every frame has something new to hover.
        h.hover_at(egui::pos2(
            200.0 + (f * 13 % 600) as f32,
            150.0 + (f * 7 % 400) as f32,
        ));
        let t = Instant::now();
        h.step();
        pass.push(t.elapsed());
        let shapes = h.output().shapes.clone();
        let t = Instant::now();
        let _ = h.ctx.tessellate(shapes, ppp);
        tess.push(t.elapsed());
        let t = Instant::now();
        h.render().expect("headless render");
        render.push(t.elapsed());
    }
    let m = (median(pass), median(tess), median(render));
    println!(
        "{label}: median UI pass {:.2} ms, tessellate {:.2} ms, software render + read-back {:.2} ms ({FRAMES} frames)",
        m.0.as_secs_f64() * 1e3,
        m.1.as_secs_f64() * 1e3,
        m.2.as_secs_f64() * 1e3
    );
    m
}

#[test]
#[ignore = "measurement: run with --release --ignored --nocapture"]
fn frame_time_with_300_counters() {
    let mut h = Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .wgpu()
        .build_ui_state(|ui, app: &mut MusterApp| app.ui(ui), full_board());
    h.run();
    let n = h.state().session.state().unwrap().pieces.len();
    println!("{n} counters on the board as seat 0 sees it");
    let whole = measure(&mut h, "whole map in view");
    // Zoom in to where hex numbers and counter labels are drawn.
    let cam = h.state().board.camera().unwrap();
    h.state_mut().board.set_camera(Camera {
        offset: cam.offset + vec2(300.0, 300.0),
        zoom: 1.2,
    });
    h.run();
    let zoomed = measure(&mut h, "zoomed in (labels, hex numbers)");
    // What the software rasteriser and read-back cost with nothing to draw,
    // to tell the board's share of a render from the harness's.
    let mut empty = Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .wgpu()
        .build_ui(|ui| {
            ui.label("empty");
        });
    empty.run();
    let mut base = Vec::new();
    for f in 0..FRAMES {
        empty.hover_at(egui::pos2(10.0 + f as f32, 10.0));
        empty.step();
        let t = Instant::now();
        empty.render().expect("headless render");
        base.push(t.elapsed());
    }
    println!(
        "baseline: an empty 1280 × 800 frame renders and reads back in {:.2} ms (median)",
        median(base).as_secs_f64() * 1e3
    );
    let cpu = |m: (Duration, Duration, Duration)| (m.0 + m.1).as_secs_f64() * 1e3;
    println!(
        "CPU frame (UI pass + tessellation): whole map {:.2} ms, zoomed {:.2} ms",
        cpu(whole),
        cpu(zoomed)
    );
}
