//! Frame time with a full board: ~300 counters (singles, stacks, markers,
//! backs, hidden pieces) on the 40 × 30 sandbox map, drawn by the real app;
//! and the whole Cedar Mountain order of battle on its GBACW map, drawn by
//! the GBACW table's map view.
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

// --- GBACW: the whole Cedar Mountain order of battle on its map ---

use muster_client::app::gbacw::map::{MapInput, MapView};
use muster_shared::engine::Ruleset;
use muster_shared::gbacw::battles::{self, Battle};
use muster_shared::gbacw::charts::Charts;
use muster_shared::gbacw::facing::Facing;
use muster_shared::gbacw::map::HexNumber;
use muster_shared::gbacw::oob::{CounterId, UnitStatus};
use muster_shared::gbacw::ruleset::scenario::CHARTS;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwConfig, GbacwState};
use muster_shared::gbacw::scenario::{Place, hexes_within};
use std::collections::BTreeMap;

/// Counters per hex when spreading arrivals around their entry hex.
const PER_HEX: usize = 3;

/// What the measured frame draws: the map view over a state built here.
struct CedarTable {
    battle: Battle,
    state: GbacwState,
    sides: [CounterId; 2],
    view: MapView,
}

/// Cedar Mountain with every counter of its order of battle on the map.
/// `Gbacw::new` refuses this battle until the engine has a set-up phase
/// (its Union set-up is the player's choice), so the state is built here
/// from the scenario's data: each Deployment Area's units spread over the
/// area's hexes (26.2), the `with-command` leaders (Banks, Williams,
/// Augur) on the centres of areas 1–3, and every arrival (the roster's
/// entry turns ignored) spread three to a hex around its entry hex. Pool
/// counters (replacement leaders) stay off the map.
fn cedar_mountain() -> CedarTable {
    let charts = Charts::load(CHARTS).unwrap();
    let battle = battles::load("cedar_mountain", &charts.range).unwrap();
    let (map, oob, scenario) = (&battle.map, &battle.oob, &battle.scenario);
    let grid = &map.grid;
    let mut at: BTreeMap<CounterId, HexNumber> = BTreeMap::new();
    let mut count: BTreeMap<HexNumber, usize> = BTreeMap::new();
    let mut put = |id: &CounterId, h: HexNumber, at: &mut BTreeMap<CounterId, HexNumber>| {
        at.insert(id.clone(), h);
        *count.entry(h).or_default() += 1;
    };
    let mut with_command = 0;
    for s in &scenario.setup {
        match &s.place {
            Place::Hex(h) => s.units.iter().for_each(|u| put(u, *h, &mut at)),
            Place::Area(a) => {
                let area = scenario.area(&a.0).unwrap();
                let hexes = scenario.area_hexes(grid, area);
                for (i, u) in s.units.iter().enumerate() {
                    put(u, hexes[i % hexes.len()], &mut at);
                }
            }
            Place::WithCommand => {
                for u in &s.units {
                    let area = &scenario.areas[with_command % scenario.areas.len()];
                    put(u, area.centre, &mut at);
                    with_command += 1;
                }
            }
            Place::Pool => {}
        }
    }
    let mut spread: BTreeMap<HexNumber, usize> = BTreeMap::new();
    for a in &scenario.arrivals {
        for u in &a.units {
            let mut placed = false;
            for r in 0..8u8 {
                for h in hexes_within(grid, a.hex, r) {
                    let n = spread.entry(h).or_default();
                    if *n < PER_HEX {
                        *n += 1;
                        at.insert(u.clone(), h);
                        placed = true;
                        break;
                    }
                }
                if placed {
                    break;
                }
            }
        }
    }
    let sides = [scenario.sides[0].id.clone(), scenario.sides[1].id.clone()];
    let facing =
        |side: &CounterId| Facing::from_index(if *side == sides[0] { 1 } else { 4 }).unwrap();
    // The real ruleset's state, every counter then put where this
    // harness wants it (set-up and arrivals ignored).
    let rs = Gbacw::new(&GbacwConfig {
        battle: "cedar_mountain".into(),
        ..Default::default()
    })
    .unwrap();
    let mut state: GbacwState = rs.initial_state();
    for (id, u) in state.units.iter_mut() {
        u.hex = at.get(id).copied();
        u.facing = facing(&oob.units[id].side);
        u.status = UnitStatus::fresh(&oob.units[id]);
    }
    for (id, l) in state.leaders.iter_mut() {
        l.hex = at.get(id).copied();
    }
    CedarTable {
        battle,
        state,
        sides,
        view: MapView::default(),
    }
}

fn draw_cedar(ui: &mut egui::Ui, t: &mut CedarTable) {
    egui::Panel::top("top").show(ui, |ui| {
        ui.label("Cedar Mountain: the whole order of battle");
    });
    egui::CentralPanel::no_frame().show(ui, |ui| {
        let input = MapInput {
            map: &t.battle.map,
            oob: &t.battle.oob,
            state: &t.state,
            sides: &t.sides,
            rules: None,
            acting: None,
            seq: 0,
        };
        t.view.show(ui, &input);
    });
}

fn measure_cedar(h: &mut Harness<'_, CedarTable>, label: &str) -> (Duration, Duration) {
    let (mut pass, mut tess) = (Vec::new(), Vec::new());
    let ppp = h.ctx.pixels_per_point();
    for f in 0..FRAMES {
        h.hover_at(egui::pos2(
            200.0 + (f * 13 % 800) as f32,
            150.0 + (f * 7 % 500) as f32,
        ));
        let t = Instant::now();
        h.step();
        pass.push(t.elapsed());
        let shapes = h.output().shapes.clone();
        let t = Instant::now();
        let _ = h.ctx.tessellate(shapes, ppp);
        tess.push(t.elapsed());
    }
    let m = (median(pass), median(tess));
    println!(
        "{label}: median UI pass {:.2} ms, tessellate {:.2} ms, CPU frame {:.2} ms ({FRAMES} frames)",
        m.0.as_secs_f64() * 1e3,
        m.1.as_secs_f64() * 1e3,
        (m.0 + m.1).as_secs_f64() * 1e3
    );
    m
}

#[test]
#[ignore = "measurement: run with --release --ignored --nocapture"]
fn frame_time_cedar_mountain_whole_order_of_battle() {
    let table = cedar_mountain();
    let units = table
        .state
        .units
        .values()
        .filter(|u| u.hex.is_some())
        .count();
    let leaders = table
        .state
        .leaders
        .values()
        .filter(|l| l.hex.is_some())
        .count();
    let mut h = Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .wgpu()
        .build_ui_state(draw_cedar, table);
    h.run();
    println!("Cedar Mountain: {units} units and {leaders} leaders on the 40 x 34 map");
    measure_cedar(&mut h, "whole map in view");
    let cam = h.state().view.camera().unwrap();
    h.state_mut().view.set_camera(Camera {
        offset: cam.offset + vec2(600.0, 500.0),
        zoom: 1.2,
    });
    h.run();
    measure_cedar(&mut h, "zoomed in (hex numbers, counter text)");
    let image = h.render().expect("headless render");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    image.save(dir.join("cedar_mountain_zoomed.png")).unwrap();
}
