//! The GBACW table's panels and map aids, driven through egui_kittest
//! against a real in-process table (`LocalTable<Gbacw>`, the `test`
//! battle): the order-of-battle panel, dragging a path hex by hex with its
//! running cost, the command radius of a selected leader, and the line of
//! sight of a fire order.

use egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use muster_client::app::gbacw::GbacwApp;
use muster_client::app::gbacw::oob_panel::{self, BceBoxes, OOB_TOGGLE};
use muster_shared::engine::Ruleset;
use muster_shared::gbacw::oob::{CounterId, Marker};
use muster_shared::gbacw::ruleset::{Casualty, Gbacw, GbacwConfig, GbacwState};

use crate::support;

use support::kittest::{click_at, end_phase, hex, id, test_battle, test_battle_rendered};

#[test]
fn order_of_battle_lists_the_chain_of_command_and_selects_on_click() {
    let mut h = test_battle();
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
    // (Scrolled into view first: the list runs below the panel's fold.)
    h.get_by_label("10 Me").scroll_to_me();
    h.run();
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

/// Press on `unit`'s counter, drag through the centres of `through` (a
/// few pointer moves between each), and release on the last.
fn drag_path(
    h: &mut Harness<'_, GbacwApp>,
    unit: &str,
    through: &[&str],
    check: impl Fn(&GbacwApp),
) {
    let from = h.state().map.counter_rect(&id(unit)).unwrap().center();
    h.hover_at(from);
    h.step();
    h.drag_at(from);
    h.step();
    let mut at = from;
    for s in through {
        let to = h.state().map.hex_screen_pos(hex(s)).unwrap();
        for i in 1..=3 {
            h.hover_at(at + (to - at) * (i as f32 / 3.0));
            h.step();
        }
        at = to;
        check(h.state());
    }
    h.drop_at(at);
    h.run();
}

#[test]
fn drag_a_path_hex_by_hex_with_its_running_cost_and_release_to_move() {
    let mut h = test_battle();
    end_phase(&mut h);
    let at = h.state().map.counter_rect(&id("10-me")).unwrap().center();
    click_at(&mut h, at);
    assert_eq!(h.state().map.selected(), &[id("10-me")]);
    // South-east, then down column 04: not the way the cheapest path to
    // 0408 goes (0307, 0308), so the move must follow the drawn path.
    let cheapest = h.state().map.reach().unwrap().path_to(hex("0408")).unwrap();
    drag_path(&mut h, "10-me", &["0406", "0407", "0408"], |app| {
        let p = app.map.dragged_path().expect("dragging");
        let pv = p.preview.as_ref().expect("checked by the engine");
        assert!(pv.refused.is_none(), "{pv:?}");
        // The running cost grows hex by hex.
        assert!(pv.spent.windows(2).all(|w| w[0] < w[1]), "{pv:?}");
    });
    let path = h.state().map.released_path().unwrap().clone();
    assert_eq!(path.hexes, [hex("0406"), hex("0407"), hex("0408")]);
    assert_ne!(
        cheapest[1..],
        path.hexes[..],
        "a drawn path, not the cheapest"
    );
    let state = h.state().session.state().unwrap();
    assert_eq!(
        state.units[&id("10-me")].hex,
        Some(hex("0408")),
        "{:?} {:?}",
        h.state().map.path_refusal,
        h.state().session.last_refusal
    );
    // The engine charged what the preview said.
    let pv = path.preview.unwrap();
    assert_eq!(
        state.units[&id("10-me")].moved.mp,
        *pv.spent.last().unwrap()
    );
    assert!(h.state().map.path_refusal.is_none());
}

#[test]
fn dragging_past_the_allowance_is_shown_refused_and_not_sent() {
    let mut h = test_battle();
    end_phase(&mut h);
    let at = h.state().map.counter_rect(&id("10-me")).unwrap().center();
    click_at(&mut h, at);
    let seq = h.state().session.book().unwrap().follower.seq();
    // Seven hexes for an allowance of six (5.11).
    let refused_seen = std::cell::Cell::new(false);
    drag_path(
        &mut h,
        "10-me",
        &["0307", "0308", "0309", "0310", "0410", "0510", "0610"],
        |app| {
            let p = app.map.dragged_path().unwrap();
            if let Some(e) = p.preview.as_ref().and_then(|pv| pv.refused.as_ref()) {
                assert!(e.rule.starts_with("GBACW"), "{e:?}");
                assert!(p.words().contains("refused"));
                refused_seen.set(true);
            }
        },
    );
    assert!(refused_seen.get(), "the illegal continuation was shown");
    let why = h
        .state()
        .map
        .path_refusal
        .clone()
        .expect("the refusal shown");
    assert!(why.starts_with("not sent"), "{why}");
    h.get_by_label(&why);
    assert_eq!(
        h.state().session.book().unwrap().follower.seq(),
        seq,
        "nothing sent"
    );
    assert_eq!(
        h.state().session.state().unwrap().units[&id("10-me")].hex,
        Some(hex("0306"))
    );
    // Dragging back onto the path takes the tail back: a shorter path is fine.
    drag_path(&mut h, "10-me", &["0307", "0308", "0309", "0308"], |_| {});
    assert_eq!(
        h.state().map.released_path().unwrap().hexes,
        [hex("0307"), hex("0308")]
    );
    assert_eq!(
        h.state().session.state().unwrap().units[&id("10-me")].hex,
        Some(hex("0308"))
    );
}

/// GBACW 18.0 in the order-of-battle panel: on Cedar Mountain every roster
/// brigade's BCE boxes come from the engine's own track (`Gbacw::bce`),
/// not from the roster alone.
#[test]
fn the_oob_panel_shows_the_engines_bce_boxes() {
    let rules = Gbacw::new(&GbacwConfig {
        battle: "cedar_mountain".into(),
        ..GbacwConfig::default()
    })
    .unwrap();
    let state = rules.initial_state();
    let track = rules.bce(&state);
    assert!(
        !track.is_empty(),
        "Cedar Mountain's roster gives BCE limits"
    );
    for b in &track {
        assert_eq!(
            oob_panel::bce_of(&rules, &state, &b.brigade),
            Some(BceBoxes {
                boxes: b.boxes,
                marked: b.losses.min(b.boxes),
                lost: b.at_limit,
            }),
            "{}",
            b.brigade
        );
    }
    let first = track[0].brigade.clone();
    let mut h = Harness::builder()
        .with_size(vec2(500.0, 1400.0))
        .build_ui(move |ui| {
            oob_panel::bce_row(
                ui,
                Some(track[0].boxes),
                oob_panel::bce_of(&rules, &state, &first).as_ref(),
            );
        });
    h.run();
    assert_eq!(
        h.query_all_by_label_contains("boxes not tracked").count(),
        0
    );
}

/// Pixels of the radius outline's colour in a rendered frame.
fn radius_pixels(h: &mut Harness<'_, GbacwApp>) -> usize {
    let image = h.render().expect("headless wgpu renders");
    image
        .pixels()
        .filter(|p| p[0] > 0xe0 && (0x20..0x70).contains(&p[1]) && (0xa0..0xe0).contains(&p[2]))
        .count()
}

#[test]
fn a_selected_leader_shows_his_command_radius_outlined() {
    let mut h = test_battle_rendered();
    let none = radius_pixels(&mut h);
    // Select Crawford from the order of battle (he is under his stack).
    h.get_by_label(OOB_TOGGLE).click();
    h.run();
    h.get_by_label_contains("* Crawford").click();
    h.run();
    let r = h.state().map.command_radius().cloned().expect("a radius");
    assert_eq!(
        (r.rule, r.radius, r.centre),
        ("GBACW 17.12", 5, hex("0305"))
    );
    assert!(r.hexes.contains(&hex("0306")));
    // The same hexes the engine's command check would count.
    let union = CounterId("union".into());
    let check = {
        let s = &h.state().session;
        s.ruleset()
            .unwrap()
            .command_preview(s.state().unwrap(), &union)
    };
    assert!(!check.out_of_command.contains(&id("10-me")));
    let drawn = radius_pixels(&mut h);
    assert!(drawn > none + 200, "outline drawn: {none} -> {drawn}");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    h.render()
        .unwrap()
        .save(dir.join("gbacw_radius.png"))
        .unwrap();
    // A unit selected: no radius.
    h.state_mut().map.select(vec![id("10-me")]);
    h.run();
    assert!(h.state().map.command_radius().is_none());
}
