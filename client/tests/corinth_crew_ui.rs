//! Corinth 24.21: a battery's crew away from its guns is drawn where it
//! stands, as a counter of its own, and moved by the table's map. The
//! real Corinth ruleset and a state of it (Hudson's guns placed by hand,
//! its crew routed away as `CrewRouted` leaves it, the Confederate
//! Movement Phase), shown by the table's own `MapView` rendered headless
//! with wgpu; what the map asks for is decided by the ruleset and folded
//! in.

use egui::vec2;
use egui_kittest::Harness;
use muster_client::app::camera::Camera;
use muster_client::app::gbacw::map::{MapInput, MapView};
use muster_shared::SeatId;
use muster_shared::dice::DiceStream;
use muster_shared::engine::{ActionContext, Dice, Ruleset};
use muster_shared::gbacw::map::HexNumber;
use muster_shared::gbacw::oob::{Formation, Marker};
use muster_shared::gbacw::ruleset::{Gbacw, GbacwAction, GbacwConfig, GbacwEvent, GbacwState};
use muster_shared::gbacw::sequence::{Phase, PlayerTurn, Step};

use crate::support;

use support::kittest::{click_at, hex, id};

const SIZE: egui::Vec2 = vec2(900.0, 700.0);

struct Bench {
    rules: Gbacw,
    state: GbacwState,
    seat: SeatId,
    seq: u64,
    map: MapView,
    refused: Option<String>,
}

impl Bench {
    fn ui(&mut self, ui: &mut egui::Ui) {
        let asked = egui::CentralPanel::no_frame()
            .show(ui, |ui| {
                let game = self.rules.game();
                let input = MapInput {
                    map: &game.map,
                    oob: &game.oob,
                    state: &self.state,
                    sides: &game.seats,
                    rules: Some(&self.rules),
                    acting: Some(self.seat),
                    seq: self.seq,
                };
                self.map.show(ui, &input)
            })
            .inner;
        for a in asked {
            let ctx = ActionContext {
                seat: self.seat,
                seq: self.seq,
                by_default: false,
            };
            let mut dice = Dice::from_stream(DiceStream::from_seed(&self.seq.to_le_bytes()));
            match self.rules.decide(&self.state, &ctx, &a, &mut dice) {
                Ok(events) => {
                    for e in &events {
                        self.rules.evolve(&mut self.state, e);
                    }
                    self.seq += 1;
                }
                Err(e) => self.refused = Some(e.to_string()),
            }
        }
    }
}

/// Corinth after its set-up; Hudson's guns unlimbered in 1423 under the
/// Crew marker, its crew routed to 1420; the Confederate Movement Phase.
fn crew_away() -> (Gbacw, GbacwState) {
    let rules = Gbacw::new(&GbacwConfig {
        battle: "corinth".into(),
        ..GbacwConfig::default()
    })
    .unwrap();
    let mut s = rules.initial_state();
    let union = rules.seat_of(&id("union"));
    let ctx = ActionContext {
        seat: union,
        seq: 1,
        by_default: false,
    };
    for e in rules
        .decide(&s, &ctx, &GbacwAction::EndSetUp, &mut Dice::none())
        .unwrap()
    {
        rules.evolve(&mut s, &e);
    }
    for h in ["1420", "1421", "1422", "1423"] {
        assert!(s.units.values().all(|u| u.hex != Some(hex(h))), "{h} empty");
    }
    s.progress.to_arrive.remove(&id("hudson"));
    {
        let u = s.units.get_mut(&id("hudson")).unwrap();
        u.hex = Some(hex("1423"));
        u.status.formation = Formation::Unlimbered;
        u.status.markers.insert(Marker::Rout);
    }
    rules.evolve(
        &mut s,
        &GbacwEvent::CrewRouted {
            battery: id("hudson"),
            path: vec![hex("1422"), hex("1421"), hex("1420")],
        },
    );
    let rebel = id("confederate");
    let player = [PlayerTurn::First, PlayerTurn::Second]
        .into_iter()
        .find(|p| *rules.side_of_turn(*p) == rebel)
        .unwrap();
    s.clock.step = Step::Phase {
        player,
        phase: Phase::Movement,
    };
    (rules, s)
}

fn bench(rules: Gbacw, state: GbacwState) -> Harness<'static, Bench> {
    let seat = rules.seat_of(&id("confederate"));
    let mut map = MapView::default();
    map.set_camera(Camera {
        offset: vec2(0.0, 0.0),
        zoom: 1.6,
    });
    map.centre_on(hex("1421"));
    let b = Bench {
        rules,
        state,
        seat,
        seq: 1,
        map,
        refused: None,
    };
    let mut h = Harness::builder()
        .with_size(SIZE)
        .wgpu()
        .build_ui_state(|ui, b: &mut Bench| b.ui(ui), b);
    h.run();
    h
}

fn near(h: &Harness<'_, Bench>, r: egui::Rect, at: HexNumber) -> bool {
    let c = h.state().map.hex_screen_pos(at).unwrap();
    r.center().distance(c) < r.width()
}

/// Pixels that differ between two frames inside `r`.
fn changed(a: &image::RgbaImage, b: &image::RgbaImage, r: egui::Rect, ppp: f32) -> usize {
    let (x0, y0) = ((r.min.x * ppp) as u32, (r.min.y * ppp) as u32);
    let (x1, y1) = ((r.max.x * ppp) as u32, (r.max.y * ppp) as u32);
    (y0..y1.min(a.height()))
        .flat_map(|y| (x0..x1.min(a.width())).map(move |x| (x, y)))
        .filter(|(x, y)| a.get_pixel(*x, *y) != b.get_pixel(*x, *y))
        .count()
}

#[test]
fn corinth_24_21_the_crew_away_is_drawn_where_it_stands_and_moved_by_the_map() {
    let (rules, s) = crew_away();
    let mut without = s.clone();
    without.crews_away.clear();
    let mut h = bench(rules.clone(), s);
    let hudson = id("hudson");
    // The crew is its own counter in 1420; the guns stay in 1423.
    let crew = h.state().map.crew_rect(&hudson).expect("the crew is drawn");
    let guns = h
        .state()
        .map
        .counter_rect(&hudson)
        .expect("the guns are drawn");
    assert!(near(&h, crew, hex("1420")), "crew at {crew:?}");
    assert!(near(&h, guns, hex("1423")), "guns at {guns:?}");
    let with_crew = h.render().expect("headless wgpu renders");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    with_crew.save(dir.join("corinth_crew_away.png")).unwrap();
    // The same frame without the crew away differs where the crew stands.
    let ppp = h.ctx.pixels_per_point();
    let mut g = bench(rules, without);
    assert!(g.state().map.crew_rect(&hudson).is_none());
    let bare = g.render().expect("headless wgpu renders");
    let diff = changed(&with_crew, &bare, crew, ppp);
    let area = (crew.width() * crew.height() * ppp * ppp) as usize;
    assert!(
        diff * 3 > area,
        "the crew counter painted: {diff} of {area}"
    );
    // Click the crew, then the hex next to it: the map asks the engine to
    // move it one hex (routed: 5.2), and draws it there.
    click_at(&mut h, crew.center());
    assert_eq!(h.state().map.selected_crew(), Some(&hudson));
    let to = h.state().map.hex_screen_pos(hex("1421")).unwrap();
    click_at(&mut h, to);
    assert_eq!(h.state().refused, None);
    assert_eq!(h.state().state.crews_away.get(&hudson), Some(&hex("1421")));
    h.run();
    let moved = h.state().map.crew_rect(&hudson).expect("still away");
    assert!(near(&h, moved, hex("1421")), "crew at {moved:?}");
}
