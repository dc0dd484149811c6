//! The GBACW table's panels and map aids, driven through egui_kittest
//! against a real in-process table (`LocalTable<Gbacw>`, the `test`
//! battle): the order-of-battle panel, dragging a path hex by hex with its
//! running cost, the command radius of a selected leader, and the line of
//! sight of a fire order.

use egui::{Event, Modifiers, PointerButton, Pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use muster_client::app::gbacw::oob_panel::{self, BceBoxes, OOB_TOGGLE};
use muster_client::app::gbacw::{GbacwApp, track};
use muster_shared::engine::Ruleset;
use muster_shared::gbacw::map::HexNumber;
use muster_shared::gbacw::oob::{CounterId, Marker};
use muster_shared::gbacw::ruleset::{Casualty, Gbacw, GbacwConfig, GbacwState};

const SIZE: egui::Vec2 = vec2(1280.0, 800.0);

fn harness() -> Harness<'static, GbacwApp> {
    let app = GbacwApp::hot_seat(&GbacwConfig::default(), &["Union", "Confederate"]).unwrap();
    let mut h = Harness::builder()
        .with_size(SIZE)
        .build_ui_state(|ui, app: &mut GbacwApp| app.ui(ui), app);
    h.run();
    h
}

fn hex(s: &str) -> HexNumber {
    HexNumber::parse(s).unwrap()
}

fn id(s: &str) -> CounterId {
    CounterId(s.into())
}

fn click_at(h: &mut Harness<'_, GbacwApp>, p: Pos2) {
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
    h.run();
}

fn end_phase(h: &mut Harness<'_, GbacwApp>) {
    h.get_by_label(track::END_PHASE).click();
    h.run();
}

#[test]
fn order_of_battle_lists_the_chain_of_command_and_selects_on_click() {
    let mut h = harness();
    h.get_by_label(OOB_TOGGLE).click();
    h.run();
    assert!(h.state().show_oob);
    // Sides, a division or brigade header, units and leaders.
    let (rules, state) = {
        let s = &h.state().session;
        (s.ruleset().unwrap().clone(), s.state().unwrap().clone())
    };
    let oob = &rules.game().oob;
    for name in oob.sides.values() {
        h.get_by_label(name);
    }
    h.get_by_label("Crawford (brigade)");
    h.get_by_label("Williams (division)");
    h.get_by_label_contains("* Williams");
    // Click the 10th Maine in the panel: it is selected on the map.
    h.get_by_label("10 Me").click();
    h.run();
    assert_eq!(h.state().map.selected(), &[id("10-me")]);
    // And a leader.
    h.get_by_label_contains("* Crawford").click();
    h.run();
    assert_eq!(h.state().map.selected(), &[id("crawford")]);
    // The whole side's tally: strength now / printed.
    let union = oob.sides.keys().next().unwrap();
    let t = oob_panel::tally(&state, oob.side_units(union));
    assert!(t.printed > 0 && t.now == t.printed && t.killed == 0);
    h.get_by_label_contains(&format!("{}/{} SP, 0 killed, 0 captured", t.now, t.printed));
}

/// The panel drawn over a state where things went wrong: losses,
/// markers, a unit off the map, an eliminated one, a fallen leader; and a
/// brigade's BCE boxes when the state has them.
#[test]
fn order_of_battle_shows_losses_status_and_fates() {
    let rules = Gbacw::new(&GbacwConfig::default()).unwrap();
    let mut state: GbacwState = rules.initial_state();
    {
        let u = state.units.get_mut(&id("10-me")).unwrap();
        u.status.strength -= 2;
        u.killed = 1;
        u.captured = 1;
        u.status.markers.insert(Marker::Rout);
        u.status.markers.insert(Marker::AmmoDepleted);
        let u = state.units.get_mut(&id("5-conn")).unwrap();
        u.status.markers.insert(Marker::Pin);
        u.hex = None;
        state.leaders.get_mut(&id("crawford")).unwrap().casualty = Some(Casualty::Wounded);
    }
    let st = &state.units[&id("10-me")];
    assert_eq!(oob_panel::unit_status(st), ["routed", "out of ammo"]);
    assert_eq!(
        oob_panel::unit_status(&state.units[&id("5-conn")]),
        ["off map", "pinned"]
    );
    let mut gone = state.units[&id("5-conn")].clone();
    gone.status.strength = 0;
    assert_eq!(oob_panel::unit_status(&gone)[0], "eliminated");
    let mut h = Harness::builder()
        .with_size(vec2(500.0, 1400.0))
        .build_ui(move |ui| {
            oob_panel::ui(ui, &rules, &state, &[]);
            oob_panel::bce_row(
                ui,
                Some(6),
                Some(&BceBoxes {
                    boxes: 6,
                    marked: 6,
                    lost: true,
                }),
            );
            oob_panel::bce_row(ui, Some(9), None);
        });
    h.run();
    h.get_by_label_contains("-1k -1c");
    h.get_by_label("routed");
    h.get_by_label("out of ammo");
    h.get_by_label("pinned");
    assert!(h.query_all_by_label("off map").count() >= 1);
    h.get_by_label("wounded");
    h.get_by_label_contains("BCE LOST");
    h.get_by_label_contains(" 6/6");
    h.get_by_label("BCE limit 9 (boxes not tracked yet)");
}
