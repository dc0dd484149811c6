//! Corinth's own actions as controls, through egui_kittest, each checked
//! to land in the engine's state:
//!
//! - 30.34 reserves: at a hot-seat Corinth table (`LocalTable<Gbacw>`)
//!   played to the Union Initial Command Phase of Game-Turn 6, a reserve
//!   unit's card offers **Commit**; the click rolls, and the Initial
//!   Command Phase offers the others until two have rolled.
//! - 29.5 solitaire: at a hot-seat `corinth_solo` table, the roll is one
//!   clear button for the Confederate seat (none for the Union) before the
//!   set-up and again at the Confederate Movement Phase; the rolls land in
//!   the plan and are narrated with their dice. Over a real server
//!   (`support::gbacw::three_clients`), only the Confederate's client has
//!   the button, and its roll (the seat's own dice chain) reaches the
//!   Union's and the spectator's clients, narrated, with no bad roll.
//! - 26.4 Pre-Dawn Barrage and 24.1 fouled guns: these positions are not
//!   reached by ending phases (an untouched game ends on Game-Turn 16 and
//!   no battery comes within rapid-fire range), so, as the engine's case
//!   tests do, the real ruleset's state is brought there by hand (victory
//!   hexes given, a battery placed: the same positions, from
//!   `muster_shared::gbacw::testkit::corinth`) and shown by the very panels the table
//!   uses (`BarragePanel`, `corinth_card`, `MapView`) on a bench; every
//!   action they ask for is put through `Gbacw::decide` and folded in.

use egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use muster_client::app::camera::Camera;
use muster_client::app::gbacw::map::{MapInput, MapView};
use muster_client::app::gbacw::narrate::counter_name;
use muster_client::app::gbacw::{GbacwApp, barrage, corinth_card, counter, plot, solitaire};
use muster_shared::dice::DiceStream;
use muster_shared::engine::{ActionContext, Dice, Ruleset};
use muster_shared::gbacw::map::HexNumber;
use muster_shared::gbacw::oob::{CounterId, UnitKind};
use muster_shared::gbacw::ruleset::{Gbacw, GbacwAction, GbacwConfig, GbacwEvent, GbacwState};
use muster_shared::gbacw::sequence::{Phase, Step};
use muster_shared::gbacw::testkit::corinth::{barrage_on_21_mo, night_game};
use muster_shared::{SeatId, Viewer};

use crate::support;

use support::kittest::{SIZE, gbacw_harness, id};

fn config(battle: &str) -> GbacwConfig {
    GbacwConfig {
        battle: battle.into(),
        ..GbacwConfig::default()
    }
}

// --- The hot-seat table: reserves and solitaire. ---

fn seat_of(h: &Harness<'_, GbacwApp>, side: &str) -> SeatId {
    h.state().session.ruleset().unwrap().seat_of(&id(side))
}

fn view_as(h: &mut Harness<'_, GbacwApp>, viewer: Viewer) {
    h.state_mut().session.set_active(viewer);
    h.run();
}

fn state_of(h: &Harness<'_, GbacwApp>) -> GbacwState {
    h.state().session.state().unwrap().clone()
}

/// Whether the log holds a line containing `text`.
fn logged(h: &Harness<'_, GbacwApp>, text: &str) -> bool {
    h.state()
        .session
        .book()
        .is_some_and(|b| b.log.iter().any(|l| l.text.contains(text)))
}

/// End phases (the set-up too) at the table, each by the seat that acts,
/// until `stop` holds; at most 400 actions. No frames are drawn meanwhile.
fn play_until(h: &mut Harness<'_, GbacwApp>, stop: impl Fn(&Gbacw, &GbacwState) -> bool) {
    for _ in 0..400 {
        let app = h.state_mut();
        let rules = app.session.ruleset().unwrap().clone();
        let state = app.session.state().unwrap().clone();
        if stop(&rules, &state) {
            h.run();
            return;
        }
        let seat = rules.acting_seat(&state).expect("someone acts");
        let action = if state.progress.setting_up.is_some() {
            GbacwAction::EndSetUp
        } else {
            GbacwAction::EndPhase
        };
        app.session.set_active(Viewer::Seat(seat));
        app.session.act(action);
        app.session.pump();
        assert_eq!(app.session.last_refusal, None);
    }
    panic!("never got there");
}

fn union_initial_command(rules: &Gbacw, s: &GbacwState, turn: u16) -> bool {
    s.clock.turn == turn
        && rules.phasing_side(s.clock) == Some(&id("union"))
        && matches!(
            s.clock.step,
            Step::Phase {
                phase: Phase::InitialCommand,
                ..
            }
        )
}

#[test]
fn corinth_30_34_a_reserve_is_committed_from_its_card_and_from_the_initial_command_phase() {
    let mut h = gbacw_harness(&config("corinth"), vec2(1280.0, 1400.0), false);
    let union = seat_of(&h, "union");
    // Before Game-Turn 6 the card says the unit is held, with no button.
    play_until(&mut h, |r, s| union_initial_command(r, s, 3));
    view_as(&mut h, Viewer::Seat(union));
    h.state_mut().map.select(vec![id("48-ind")]);
    h.run();
    h.get_by_label_contains("In reserve: Hamilton's division");
    let hamilton = corinth_card::commit_label("Hamilton's division");
    assert!(h.query_by_label(&hamilton).is_none(), "no roll before 6");

    play_until(&mut h, |r, s| union_initial_command(r, s, 6));
    view_as(&mut h, Viewer::Seat(union));
    h.state_mut().map.select(vec![id("48-ind")]);
    h.run();
    // The card's button (the Initial Command Phase lists it too).
    let buttons: Vec<_> = h.get_all_by_label(&hamilton).collect();
    assert_eq!(buttons.len(), 2, "on the card and in the phase's list");
    buttons[0].click();
    h.run();
    let s = state_of(&h);
    assert_eq!(s.progress.commit_rolls.get(&id("hamilton")), Some(&6));
    assert!(logged(&h, "Hamilton's division"), "the roll is narrated");
    assert!(logged(&h, "commitment die"));
    // Rolled this Game-Turn: no more button for Hamilton.
    assert!(h.query_by_label(&hamilton).is_none());
    // The phase's list offers the others; a second roll, then none (30.34:
    // two a Game-Turn).
    h.get_by_label(&corinth_card::commit_label("Stanley's division"))
        .click();
    h.run();
    let s = state_of(&h);
    assert_eq!(s.progress.commit_rolls.get(&id("stanley")), Some(&6));
    assert!(
        h.query_by_label(&corinth_card::commit_label("Crocker's brigade"))
            .is_none(),
        "at most two rolls a Game-Turn"
    );
}

#[test]
fn corinth_29_5_the_solitaire_roll_is_one_button_for_the_confederate_and_its_arrivals_are_narrated()
{
    let mut h = gbacw_harness(&config("corinth_solo"), vec2(1280.0, 1400.0), false);
    let (union, rebel) = (seat_of(&h, "union"), seat_of(&h, "confederate"));
    // 29.51: before the Union sets up. The Union has no button.
    view_as(&mut h, Viewer::Seat(union));
    h.get_by_label(solitaire::HEADING);
    assert!(h.query_by_label(solitaire::ROLL).is_none());
    h.get_by_label("the Confederate seat rolls");
    view_as(&mut h, Viewer::Seat(rebel));
    // Rolled, not plotted: no plotting panel (29.2) in the solitaire game.
    assert!(h.query_by_label(plot::PLOT_HEADING).is_none());
    h.get_by_label(solitaire::ROLL).click();
    h.run();
    let s = state_of(&h);
    let plan = s.progress.assault.as_ref().and_then(|a| a.plan.clone());
    let first = plan.expect("the first division rolled").divisions[0].clone();
    assert_eq!(first.turn, 1);
    assert!(logged(&h, "the Confederate assault is rolled (dice"));
    // The panel lists what was rolled.
    let rules = h.state().session.ruleset().unwrap().clone();
    h.get_by_label_contains(&format!("{}: ", counter_name(&rules, &first.division)));
    assert!(h.query_by_label(solitaire::ROLL).is_none(), "rolled");
    // Nor the two-player plan's commitment (a solitaire plan has none).
    assert!(
        h.query_by_label("The assault plan (Corinth 29.2)")
            .is_none()
    );
    assert!(h.query_by_label(plot::SEND_PLAN).is_none());

    // 29.53: at the next Confederate Movement Phase the roll is due again.
    play_until(&mut h, |r, s| {
        r.pending(s)
            .iter()
            .any(|d| d.default == GbacwAction::SolitaireRoll)
    });
    let turn = state_of(&h).clock.turn;
    view_as(&mut h, Viewer::Seat(rebel));
    h.get_by_label(solitaire::ROLL).click();
    h.run();
    let s = state_of(&h);
    assert_eq!(s.solitaire_rolled, turn, "the table took the roll");
    assert!(logged(
        &h,
        &format!("Division Arrival rolls for Game-Turn {turn}:")
    ));
    assert!(h.query_by_label(solitaire::ROLL).is_none());
}

#[test]
fn corinth_29_51_the_solitaire_roll_over_a_real_server_reaches_every_client() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let test_server = support::start_server(&rt);
    let [first, second, watcher] = support::gbacw::three_clients(
        &test_server,
        &config("corinth_solo"),
        ["Van Dorn", "Rosecrans", "Watcher"],
    );
    let size = vec2(1280.0, 1400.0);
    let app = |t| support::kittest::net_gbacw(t, size);
    let mut apps = [app(first), app(second), app(watcher)];
    for h in apps.iter_mut() {
        support::wait(h, "the table", |a| a.session.state().is_some());
    }
    let rebel = if seat_of(&apps[0], "confederate") == SeatId(0) {
        0
    } else {
        1
    };
    let union = 1 - rebel;
    // Every client shows the panel; only the Confederate's has the button.
    for h in apps.iter_mut() {
        h.step();
        h.get_by_label(solitaire::HEADING);
    }
    assert!(apps[union].query_by_label(solitaire::ROLL).is_none());
    assert!(apps[2].query_by_label(solitaire::ROLL).is_none());
    apps[rebel].get_by_label(solitaire::ROLL).click();
    apps[rebel].step();
    for (who, h) in apps.iter_mut().enumerate() {
        support::wait(h, "the roll", |a| {
            a.session
                .state()
                .is_some_and(|s| s.progress.assault.is_some())
        });
        let s = state_of(h);
        let plan = s.progress.assault.as_ref().and_then(|a| a.plan.as_ref());
        assert_eq!(
            plan.map(|p| p.divisions.len()),
            Some(1),
            "client {who}: the first division"
        );
        support::wait(h, "the log line", |a| {
            a.session.book().is_some_and(|b| {
                b.log
                    .iter()
                    .any(|l| l.text.contains("the Confederate assault is rolled (dice"))
            })
        });
        assert_eq!(h.state().session.bad_roll_count(), 0, "client {who}");
    }
}

// --- The bench: the table's panels over an engine state. ---

/// The real ruleset and a state of it, shown by the table's own barrage
/// panel, unit-card lines and map; what they ask for is decided by the
/// ruleset and folded into the state.
struct Bench {
    rules: Gbacw,
    state: GbacwState,
    seat: SeatId,
    seq: u64,
    barrage: barrage::BarragePanel,
    map: MapView,
    card: Option<CounterId>,
    events: Vec<GbacwEvent>,
    refused: Option<String>,
}

impl Bench {
    fn new(rules: Gbacw, state: GbacwState, seat: SeatId) -> Self {
        Bench {
            rules,
            state,
            seat,
            seq: 1,
            barrage: barrage::BarragePanel::default(),
            map: MapView::default(),
            card: None,
            events: Vec::new(),
            refused: None,
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        let mut asked = Vec::new();
        egui::Panel::right("side")
            .default_size(360.0)
            .show(ui, |ui| {
                let out = self
                    .barrage
                    .ui(ui, &self.rules, &self.state, Some(self.seat), self.seq);
                asked.extend(out.action);
                if let Some(h) = out.centre_on {
                    self.map.centre_on(h);
                }
                if let Some(c) = &self.card {
                    let legal = self.rules.legal_actions(&self.state, self.seat);
                    asked.extend(corinth_card::ui(
                        ui,
                        &self.rules,
                        &self.state,
                        c,
                        &legal,
                        true,
                    ));
                }
            });
        self.map.area_marks = self.barrage.marks();
        egui::CentralPanel::no_frame().show(ui, |ui| {
            let game = self.rules.game();
            let input = MapInput {
                map: &game.map,
                oob: &game.oob,
                state: &self.state,
                sides: &game.seats,
                rules: Some(&self.rules),
                acting: None,
                seq: self.seq,
            };
            self.map.show(ui, &input);
        });
        for a in asked {
            self.apply(a);
        }
    }

    fn apply(&mut self, a: GbacwAction) {
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
                self.events.extend(events);
                self.seq += 1;
            }
            Err(e) => self.refused = Some(e.to_string()),
        }
    }
}

fn bench(b: Bench, wgpu: bool) -> Harness<'static, Bench> {
    let mut builder = Harness::builder().with_size(SIZE);
    if wgpu {
        builder = builder.wgpu();
    }
    let mut h = builder.build_ui_state(|ui, b: &mut Bench| b.ui(ui), b);
    h.run();
    h
}

/// A rendered frame (a timed-out software frame is tried again, at most
/// three times, as in `corinth_plot_ui.rs`).
fn render(h: &mut Harness<'_, Bench>) -> image::RgbaImage {
    let mut last = String::new();
    for _ in 0..3 {
        match h.render() {
            Ok(image) => return image,
            Err(e) => last = e.to_string(),
        }
    }
    panic!("headless wgpu renders: {last}");
}

/// Pixels of `colour` (within 24 a channel) in `image`, inside `rect`
/// (screen points) when given.
fn pixels_of(image: &image::RgbaImage, colour: egui::Color32, rect: Option<egui::Rect>) -> usize {
    let ppp = image.width() as f32 / SIZE.x;
    image
        .enumerate_pixels()
        .filter(|(x, y, _)| {
            rect.is_none_or(|r| r.contains(egui::pos2(*x as f32 / ppp, *y as f32 / ppp)))
        })
        .filter(|(_, _, p)| {
            [colour.r(), colour.g(), colour.b()]
                .iter()
                .zip(p.0.iter())
                .all(|(a, b)| a.abs_diff(*b) <= 24)
        })
        .count()
}

fn screenshot(image: &image::RgbaImage, name: &str) {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    image.save(dir.join(name)).unwrap();
}

#[test]
fn corinth_26_42_the_barrage_panel_fires_a_battery_at_a_target_the_engine_allows_and_ends() {
    // The engine's own case position (corinth_night.rs), from the kit.
    let (t, _) = barrage_on_21_mo();
    let target = t.hex("21-mo").expect("21 Mo on the map");
    let (rules, s) = (t.rs, t.s);
    let rebel = rules.seat_of(&id("confederate"));
    let bryan = counter_name(&rules, &id("bryan"));
    let mut b = Bench::new(rules, s, rebel);
    b.map.set_camera(Camera {
        offset: vec2(0.0, 0.0),
        zoom: 1.0,
    });
    let mut h = bench(b, true);
    h.get_by_label(barrage::HEADING);
    // Every battery listed may fire at exactly the hexes the engine takes.
    {
        let b = h.state();
        for bat in b.rules.barrage_batteries(&b.state) {
            for t in &bat.targets {
                assert!(
                    b.rules
                        .check_barrage(&b.state, *t, std::slice::from_ref(&bat.unit))
                        .is_ok()
                );
            }
        }
    }
    // Nothing ticked: Fire is disabled.
    assert!(h.get_by_label(barrage::FIRE).accesskit_node().is_disabled());
    h.get_by_label(&barrage::battery_label(&bryan)).click();
    h.run();
    h.get_by_label(&barrage::target_label(target)).click();
    h.run();
    // The targets are marked on the map, the chosen one focused.
    let marks = h.state().map.area_marks.clone();
    let chosen = marks.iter().find(|m| m.focused).expect("a target chosen");
    assert_eq!(chosen.hexes, vec![target]);
    let image = render(&mut h);
    screenshot(&image, "corinth_barrage.png");
    let at = h.state().map.hex_screen_pos(target).unwrap();
    let around = egui::Rect::from_center_size(at, vec2(30.0, 30.0));
    let cyan = pixels_of(
        &image,
        muster_client::app::gbacw::area_overlay::FOCUSED,
        Some(around),
    );
    assert!(cyan > 20, "the chosen target is marked where it is: {cyan}");

    assert!(!h.get_by_label(barrage::FIRE).accesskit_node().is_disabled());
    h.get_by_label(barrage::FIRE).click();
    h.run();
    let b = h.state();
    assert_eq!(b.refused, None);
    assert!(
        b.events.iter().any(|e| matches!(e,
            GbacwEvent::BarrageRolled(r) if r.target == target && r.firers == vec![id("bryan")])),
        "the attack was rolled: {:?}",
        b.events
    );
    let barrage = b.state.night.barrage.as_ref().unwrap();
    assert!(barrage.fired.contains(&id("bryan")) && barrage.any);
    // Bryan has fired: no longer listed.
    assert!(h.query_by_label(&barrage::battery_label(&bryan)).is_none());

    // End: the Union's part of the barrage (26.43).
    h.get_by_label(barrage::END).click();
    h.run();
    let b = h.state();
    assert_eq!(
        b.state.night.barrage.as_ref().map(|x| x.side.clone()),
        Some(id("union"))
    );
    // The Confederate's panel now waits.
    h.get_by_label_contains("waiting for the");
    assert!(h.query_by_label(barrage::FIRE).is_none());
}

#[test]
fn corinth_24_1_a_fouled_battery_is_tagged_on_the_map_and_unfouled_from_its_card() {
    let mut t = night_game();
    let union = t.rs.seat_of(&id("union"));
    // The Union's Defensive Fire Phase of Game-Turn 3 (the Confederate
    // Player-Turn): a Union Fire Phase.
    t.end_phases_until(|t| {
        t.s.clock.turn == 3
            && matches!(
                t.s.clock.step,
                Step::Phase {
                    phase: Phase::DefensiveFire,
                    ..
                }
            )
            && t.rs.phasing_side(t.s.clock) == Some(&id("confederate"))
    });
    let (rules, mut s) = (t.rs, t.s);
    // A battery alone in its hex, so that its counter is on top.
    let alone = |h: Option<HexNumber>| {
        s.units.values().filter(|u| u.hex == h).count() == 1
            && s.leaders.values().all(|l| l.hex != h)
    };
    let battery = s
        .units
        .iter()
        .find(|(c, u)| {
            let o = &rules.game().oob.units[*c];
            o.side == id("union")
                && matches!(o.kind, UnitKind::Battery { .. })
                && u.hex.is_some()
                && alone(u.hex)
        })
        .map(|(c, _)| c.clone())
        .expect("a Union battery on the map");
    let hex = s.units[&battery].hex.unwrap();
    // Its guns fouled by an earlier rapid fire (24.1).
    s.rapid_fire.fouled.insert(battery.clone());
    let mut b = Bench::new(rules, s, union);
    b.card = Some(battery.clone());
    b.map.set_camera(Camera {
        offset: vec2(0.0, 0.0),
        zoom: 1.6,
    });
    b.map.centre_on(hex);
    let mut h = bench(b, true);
    h.run();
    h.get_by_label(corinth_card::FOULED);
    // The FOUL tag on the battery's counter.
    let image = render(&mut h);
    screenshot(&image, "corinth_fouled.png");
    let rect = h.state().map.counter_rect(&battery).expect("drawn");
    let tagged = pixels_of(&image, counter::FOULED_TAG.1, Some(rect));
    assert!(tagged > 10, "FOUL tag on the counter: {tagged} px");

    h.get_by_label(corinth_card::UNFOUL).click();
    h.run();
    let b = h.state();
    assert_eq!(b.refused, None);
    let rolled = b.events.iter().find_map(|e| match e {
        GbacwEvent::UnfoulRolled { unit, unfouled, .. } if *unit == battery => Some(*unfouled),
        _ => None,
    });
    let unfouled = rolled.expect("the table rolled to unfoul");
    assert!(b.state.rapid_fire.unfoul_tried.contains(&battery));
    assert_eq!(b.state.rapid_fire.fouled.contains(&battery), !unfouled);
    // Once a phase: no second button.
    assert!(h.query_by_label(corinth_card::UNFOUL).is_none());
    if !unfouled {
        h.get_by_label("tried to unfoul in this Fire Phase already");
    }
}
