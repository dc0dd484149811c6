//! Corinth's Free Set-Up (29.0) through egui_kittest against a real
//! in-process table (`LocalTable<Gbacw>`, `corinth_free`): the Confederate
//! player plots the secret assault plan in the plotting panel (29.2). A
//! plan that breaks 29.22 shows the engine's refusal and a disabled Send;
//! a plan that keeps the rules is sent with a salt from the OS; the
//! Confederate's view holds it and its commitment, the Union's and the
//! spectator's only the commitment and the announced division. The same
//! over a real server (`support::start_server`): the plan plotted in one
//! client, the other player's and a spectator's clients receive only the
//! commitment.

use egui::accesskit::Role;
use egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use muster_client::app::NetTable;
use muster_client::app::gbacw::GbacwApp;
use muster_client::app::gbacw::plot::{
    self, ANNOUNCE, COPY_SALT, PLAN_OK, PLOT_HEADING, SEND_PLAN, area_label, attach_label,
    cavalry_label, turn_label,
};
use muster_shared::codec;
use muster_shared::gbacw::ruleset::Gbacw;
use muster_shared::gbacw::ruleset::plan::commitment;
use muster_shared::gbacw::ruleset::{GbacwConfig, GbacwState};
use muster_shared::{SeatId, Viewer};

use crate::support;

use support::kittest::{gbacw_harness, id};

/// Tall enough that the whole panel is on screen without scrolling.
const SIZE: egui::Vec2 = vec2(1280.0, 1500.0);

fn corinth_free() -> GbacwConfig {
    GbacwConfig {
        battle: "corinth_free".into(),
        ..GbacwConfig::default()
    }
}

fn harness() -> Harness<'static, GbacwApp> {
    gbacw_harness(&corinth_free(), SIZE, false)
}

fn seat_of(h: &Harness<'_, GbacwApp>, side: &str) -> SeatId {
    h.state().session.ruleset().unwrap().seat_of(&id(side))
}

fn view_as(h: &mut Harness<'_, GbacwApp>, viewer: Viewer) {
    h.state_mut().session.set_active(viewer);
    h.run();
}

/// Open the combo box named `name` and pick `option` in its list (not
/// a plain label of the same text, such as a division's row).
fn choose(h: &mut Harness<'_, GbacwApp>, name: &str, option: &str) {
    h.get_by_role_and_label(Role::ComboBox, name).click();
    h.run();
    h.get_by(|n| n.role() != Role::Label && n.label().as_deref() == Some(option))
        .click();
    h.run();
}

fn send_disabled(h: &Harness<'_, GbacwApp>) -> bool {
    h.get_by_label(SEND_PLAN).accesskit_node().is_disabled()
}

fn state_of(h: &Harness<'_, GbacwApp>) -> GbacwState {
    h.state().session.state().unwrap().clone()
}

#[test]
fn corinth_29_2_the_confederate_plots_the_assault_in_the_panel_and_the_union_sees_only_the_commitment()
 {
    let mut h = harness();
    let (union, rebel) = (seat_of(&h, "union"), seat_of(&h, "confederate"));

    // The Union is not the plotter: no editor, the prompt waits.
    view_as(&mut h, Viewer::Seat(union));
    assert!(h.query_by_label(PLOT_HEADING).is_none());
    h.get_by_label("waiting for the other player");

    view_as(&mut h, Viewer::Seat(rebel));
    h.get_by_label(PLOT_HEADING);
    // The draft starts from the table's default, which keeps the rules.
    h.get_by_label(PLAN_OK);
    assert!(!send_disabled(&h));
    // The Assault Areas are on the map, the announced division's brighter.
    let marks = h.state().map.area_marks.clone();
    assert_eq!(marks.len(), 7, "{marks:?}");
    let focused: Vec<_> = marks.iter().filter(|m| m.focused).collect();
    assert_eq!(focused.len(), 1);
    assert!(!focused[0].hexes.is_empty());

    // 29.22: Area F is not open before Game-Turn 3: Lovell through F on
    // Game-Turn 1 is refused with the engine's case, and Send is off.
    choose(&mut h, &area_label("Lovell"), "Area F (from GT 3)");
    let refusal = h.state().plot.refusal().map(str::to_string);
    assert!(
        refusal
            .as_deref()
            .is_some_and(|r| r.starts_with("Corinth 29.22")),
        "{refusal:?}"
    );
    h.get_by_label(refusal.as_deref().unwrap());
    // Written with the panel's names, not the scenario's ids.
    assert_eq!(
        refusal.as_deref(),
        Some("Corinth 29.22: Area F may be used from Game-Turn 3")
    );
    assert!(send_disabled(&h));
    // The area just chosen is the one marked brighter on the map.
    assert_eq!(h.state().plot.focus(), Some(&id("assault-f")));
    let f = h
        .state()
        .map
        .area_marks
        .iter()
        .find(|m| m.area == id("assault-f"))
        .cloned()
        .unwrap();
    assert!(f.focused && f.used, "{f:?}");
    let scenario = &h.state().session.ruleset().unwrap().game().scenario;
    assert_eq!(f.hexes, scenario.area("assault-f").unwrap().hexes);

    // A clicked Send sends nothing while the plan is refused.
    h.get_by_label(SEND_PLAN).click();
    h.run();
    assert!(state_of(&h).progress.assault.is_none());
    assert!(h.state().plot.sent().is_none());

    // Lovell on Game-Turn 4 keeps the rules (29.21: the one held back).
    choose(&mut h, &turn_label("Lovell"), "Game-Turn 4");
    assert_eq!(h.state().plot.refusal(), None);
    h.get_by_label(PLAN_OK);
    assert!(!send_disabled(&h));
    // 29.26: Price with Maury; 29.27: the 2nd Arkansas Cavalry waits at F;
    // 29.23: Maury announced.
    choose(&mut h, &attach_label("Price"), "Maury");
    choose(&mut h, &cavalry_label("2 Ark"), "Area F");
    let draft = h.state().plot.draft().cloned().unwrap();
    let maury = draft.plan.division(&id("maury")).cloned().unwrap();
    assert_eq!(maury.turn, 1);
    choose(&mut h, ANNOUNCE, "Maury");
    assert_eq!(
        h.state().plot.refusal(),
        None,
        "{:?}",
        h.state().plot.draft()
    );

    h.get_by_label(SEND_PLAN).click();
    h.run();
    // At a hot-seat table the view follows the seat that must act: the
    // Union, who sets up next. Look through the plotter's eyes again.
    assert_eq!(h.state().session.active(), Viewer::Seat(union));
    view_as(&mut h, Viewer::Seat(rebel));

    // The Confederate's view of the table holds the plan as plotted.
    let sent = h.state().plot.sent().cloned().expect("sent");
    let plotted = state_of(&h);
    let a = plotted.progress.assault.as_ref().expect("plotted");
    let plan = a.plan.as_ref().expect("the plotter sees the plan");
    assert_eq!(plan, &sent.plan);
    assert_eq!(
        plan.division(&id("lovell")).map(|d| (&d.area, d.turn)),
        Some((&id("assault-f"), 4))
    );
    assert_eq!(plan.attached[&id("price")], id("maury"));
    assert_eq!(plan.cavalry[&id("2-ark-cav")], id("assault-f"));
    assert_eq!(a.announced, maury);
    // The salt is the client's own (not the default's zero salt) and the
    // commitment the log holds is the one the panel worked out.
    assert_ne!(sent.salt, [0; 32]);
    assert_eq!(a.salt, Some(sent.salt));
    assert_eq!(a.commitment, sent.commitment);
    assert_eq!(commitment(plan, &sent.salt), a.commitment);
    h.get_by_label(&format!(
        "sent: commitment {}",
        hex::encode(sent.commitment)
    ));
    h.get_by_label("✔ the table logged this commitment");
    // The salt goes to the clipboard on request, to keep outside the table.
    h.get_by_label(COPY_SALT).click();
    h.step();
    let copied = h
        .output()
        .platform_output
        .commands
        .iter()
        .any(|c| matches!(c, egui::OutputCommand::CopyText(t) if *t == hex::encode(sent.salt)));
    assert!(copied, "{:?}", h.output().platform_output.commands);
    h.run();
    // The editor is gone; the Union sets up next.
    assert!(h.query_by_label(PLOT_HEADING).is_none());
    // While the Union sets up, the areas stay marked with the announced
    // division's alone (29.23, 29.41).
    let marks = h.state().map.area_marks.clone();
    assert_eq!(marks.len(), 7);
    let used: Vec<_> = marks.iter().filter(|m| m.used).collect();
    assert_eq!(used.len(), 1, "{marks:?}");
    assert_eq!(used[0].area, maury.area);
    assert!(
        used[0].label.ends_with("Maury, GT 1 (announced)"),
        "{}",
        used[0].label
    );
    let rules = h.state().session.ruleset().unwrap().clone();
    assert_eq!(rules.plot_seat(&plotted), None);
    assert_eq!(rules.acting_seat(&plotted), Some(union));

    // The Union's view: the commitment and the announced division only.
    for viewer in [Viewer::Seat(union), Viewer::Spectator] {
        view_as(&mut h, viewer);
        let seen = state_of(&h);
        let a = seen.progress.assault.as_ref().expect("plotted");
        assert_eq!(a.commitment, sent.commitment);
        assert_eq!((&a.plan, &a.salt), (&None, &None), "{viewer:?}");
        assert_eq!(a.announced, maury);
        // Not an area of the plan but the announced one in the bytes.
        let bytes = codec::encode_infallible(&seen);
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains("assault-f"), "{viewer:?}");
        h.get_by_label("the rest of the plan is secret until the divisions arrive");
        let marks = &h.state().map.area_marks;
        assert_eq!(marks.iter().filter(|m| m.used).count(), 1, "{viewer:?}");
        assert!(!marks.iter().any(|m| m.area == id("assault-f") && m.used));
        // The panel's line, and the log's.
        h.get_by_label(&format!(
            "commitment {}…",
            hex::encode(&sent.commitment[..8])
        ));
        h.get_by_label_contains("the assault is plotted, commitment");
        // Nor does this (hot-seat) client show it: the sent plan and its
        // salt are the other seat's.
        assert!(h.query_by_label_contains("your salt").is_none());
        assert!(h.query_by_label_contains("sent: commitment").is_none());
    }
    assert!(
        plot::describe_plan(&rules, plan, None).contains("Lovell through Area F on Game-Turn 4")
    );
}

/// A rendered frame. egui_kittest gives the software rasteriser a fixed
/// time per frame; on a machine loaded by other builds a frame can run
/// past it, so a timed-out frame is rendered again (at most three tries).
fn render(h: &mut Harness<'_, GbacwApp>) -> image::RgbaImage {
    let mut last = String::new();
    for _ in 0..3 {
        match h.render() {
            Ok(image) => return image,
            Err(e) => {
                eprintln!("render failed, trying again: {e}");
                last = e.to_string();
            }
        }
    }
    panic!("headless wgpu renders: {last}");
}

/// Pixels of the edited area's cyan (`area_overlay::FOCUSED`); no
/// terrain or counter uses it.
fn focused_area_pixels(image: &image::RgbaImage) -> usize {
    image
        .pixels()
        .filter(|p| p[0] < 0x30 && p[1] > 0xc0 && p[2] > 0xe0)
        .count()
}

#[test]
fn corinth_29_1_the_assault_areas_are_drawn_on_the_map_while_plotting() {
    let mut h = gbacw_harness(&corinth_free(), support::kittest::SIZE, true);
    let (union, rebel) = (seat_of(&h, "union"), seat_of(&h, "confederate"));
    view_as(&mut h, Viewer::Seat(union));
    let none = focused_area_pixels(&render(&mut h));
    view_as(&mut h, Viewer::Seat(rebel));
    choose(&mut h, &area_label("Lovell"), "Area G (from GT 5)");
    let g = h
        .state()
        .map
        .area_marks
        .iter()
        .find(|m| m.focused)
        .cloned()
        .expect("an area is edited");
    assert_eq!(g.area, id("assault-g"));
    let image = render(&mut h);
    let drawn = focused_area_pixels(&image);
    assert!(drawn > none + 200, "area drawn: {none} -> {drawn}");
    // Where the map puts the area's middle hex, the cyan tint is drawn
    // (the area was brought into view when chosen).
    let at = h.state().map.hex_screen_pos(g.middle().unwrap()).unwrap();
    let ppp = image.width() as f32 / support::kittest::SIZE.x;
    let at = egui::pos2(at.x * ppp, at.y * ppp);
    let near = (-4i32..=4).flat_map(|dx| (-4i32..=4).map(move |dy| (dx, dy)));
    let cyanish = near
        .filter_map(|(dx, dy)| {
            let x = u32::try_from(at.x as i32 + dx).ok()?;
            let y = u32::try_from(at.y as i32 + dy).ok()?;
            image.get_pixel_checked(x, y).copied()
        })
        .filter(|p| p[2] > p[0].saturating_add(40))
        .count();
    assert!(cyanish > 0, "tint at {at:?}");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    image.save(dir.join("corinth_plot.png")).unwrap();
}

/// `choose`, stepping frames rather than running to rest: a networked
/// table asks to repaint whenever something arrives.
fn choose_stepping(h: &mut Harness<'_, GbacwApp>, name: &str, option: &str) {
    h.get_by_role_and_label(Role::ComboBox, name).click();
    for _ in 0..3 {
        h.step();
    }
    h.get_by(|n| n.role() != Role::Label && n.label().as_deref() == Some(option))
        .click();
    for _ in 0..3 {
        h.step();
    }
}

#[test]
fn corinth_29_2_a_plan_plotted_over_a_real_server_reaches_the_union_and_a_spectator_as_its_commitment_only()
 {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let test_server = support::start_server(&rt);
    let [first, second, watcher] = support::gbacw::three_clients(
        &test_server,
        &corinth_free(),
        ["Van Dorn", "Rosecrans", "Watcher"],
    );
    let app = |t: NetTable<Gbacw>| support::kittest::net_gbacw(t, SIZE);
    let mut apps = [app(first), app(second), app(watcher)];
    for h in apps.iter_mut() {
        support::wait(h, "the table", |a| a.session.state().is_some());
    }
    let rebel_seat = seat_of(&apps[0], "confederate");
    let (rebel, union) = if rebel_seat == SeatId(0) {
        (0, 1)
    } else {
        (1, 0)
    };
    assert_eq!(
        apps[rebel].state().session.active(),
        Viewer::Seat(rebel_seat)
    );

    // Only the Confederate's client shows the editor.
    apps[rebel].get_by_label(PLOT_HEADING);
    assert!(apps[union].query_by_label(PLOT_HEADING).is_none());
    assert!(apps[2].query_by_label(PLOT_HEADING).is_none());

    let h = &mut apps[rebel];
    choose_stepping(h, &area_label("Lovell"), "Area F (from GT 3)");
    assert!(h.get_by_label(SEND_PLAN).accesskit_node().is_disabled());
    choose_stepping(h, &turn_label("Lovell"), "Game-Turn 5");
    choose_stepping(h, &cavalry_label("Jackson"), "Area F");
    assert_eq!(h.state().plot.refusal(), None);
    h.get_by_label(SEND_PLAN).click();
    h.step();
    let sent = h.state().plot.sent().cloned().expect("sent");

    for (who, h) in apps.iter_mut().enumerate() {
        support::wait(h, "the plot", |a| {
            a.session
                .state()
                .is_some_and(|s| s.progress.assault.is_some())
        });
        let s = state_of(h);
        let a = s.progress.assault.as_ref().unwrap();
        assert_eq!(a.commitment, sent.commitment, "client {who}");
        if who == rebel {
            let plan = a.plan.as_ref().expect("the plotter's own view");
            assert_eq!(plan, &sent.plan);
            assert_eq!(a.salt, Some(sent.salt));
            support::wait(h, "the tick", |_| true);
            h.get_by_label("✔ the table logged this commitment");
        } else {
            assert_eq!((&a.plan, &a.salt), (&None, &None), "client {who}");
            let text = String::from_utf8_lossy(&codec::encode_infallible(&s)).into_owned();
            assert!(!text.contains("assault-f"), "client {who}");
            h.get_by_label("the rest of the plan is secret until the divisions arrive");
        }
    }
}
