//! Cedar Mountain at a hot-seat table, driven by clicks only: the Union
//! sets up from the tray (a counter picked, a lit hex clicked) and then
//! by "Use the default deployment"; the Confederate player ends the
//! Initial Command Phase and brings a reinforcement in from the
//! "Arrivals" tray onto its lit entry hex (Cedar Mountain 26.2, 26.4).
//! The engine's state is the judge. Every label on screen reads as
//! words (no `Debug` text). Screenshots of the set-up and of an arrival
//! go to `docs/screens/`.

use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT, Queryable};
use muster_client::app::gbacw::{GbacwApp, tray};
use muster_shared::Viewer;
use muster_shared::gbacw::map::HexNumber;
use muster_shared::gbacw::oob::CounterId;
use muster_shared::gbacw::ruleset::GbacwConfig;
use muster_shared::gbacw::sequence::{Phase, PlayerTurn, Step};

use crate::support;

use support::kittest::{SIZE, click_at, end_phase, gbacw_harness, hex, id};

fn cedar() -> Harness<'static, GbacwApp> {
    let config = GbacwConfig {
        battle: "cedar_mountain".into(),
        ..GbacwConfig::default()
    };
    gbacw_harness(&config, SIZE, true)
}

/// What no text on screen may contain.
const NOT_WORDS: [&str; 4] = ["{", "CounterId", "HexNumber", "Some("];

/// Every label and value in the accesskit tree reads as words.
fn assert_no_debug_text(h: &Harness<'_, GbacwApp>, when: &str) -> usize {
    let mut seen = 0;
    for node in h.query_all(By::new().include_labels()) {
        let n = node.accesskit_node();
        for text in [n.label(), n.value()].into_iter().flatten() {
            seen += 1;
            for bad in NOT_WORDS {
                assert!(!text.contains(bad), "{when}: {bad:?} on screen in {text:?}");
            }
        }
    }
    seen
}

/// Click the tray row (or any button) whose label contains `text`.
fn click_label_containing(h: &mut Harness<'_, GbacwApp>, text: &str) {
    h.get_by_label_contains(text).click();
    h.run();
}

/// Click the viewer switch's button for the seat named `name`.
fn view_as(h: &mut Harness<'_, GbacwApp>, name: &str) {
    let node = h
        .query_all(By::new().predicate(move |n| {
            n.label()
                .or_else(|| n.value())
                .is_some_and(|l| l.starts_with('■') && l.contains(name))
        }))
        .next()
        .unwrap_or_else(|| panic!("no viewer button for {name}"));
    node.click();
    h.run();
}

fn unit_hex(h: &Harness<'_, GbacwApp>, unit: &str) -> Option<HexNumber> {
    h.state().session.state().unwrap().units[&id(unit)].hex
}

fn save(h: &mut Harness<'_, GbacwApp>, name: &str) {
    let image = h.render().expect("headless wgpu renders");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/screens");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    image.save(&path).unwrap();
    eprintln!("screenshot: {}", path.display());
}

/// Zoom the map in around `h` (the table opens readable; one step more).
fn zoom_on(h: &mut Harness<'_, GbacwApp>, at: HexNumber, zoom: f32) {
    let app = h.state_mut();
    if let Some(mut cam) = app.map.camera() {
        cam.zoom *= zoom;
        app.map.set_camera(cam);
    }
    app.map.centre_on(at);
    h.run();
}

/// Game-Turn 1: the Union Player-Turn is omitted (26.1). The Confederate
/// player takes the table and ends his Initial Command Phase.
fn to_the_confederate_movement_phase(h: &mut Harness<'_, GbacwApp>) {
    view_as(h, "Confederate");
    assert_eq!(
        h.state().session.active(),
        Viewer::Seat(muster_shared::SeatId(1))
    );
    let movement = Step::Phase {
        player: PlayerTurn::Second,
        phase: Phase::Movement,
    };
    for _ in 0..4 {
        let clock = h.state().session.state().unwrap().clock;
        if clock.step == movement {
            break;
        }
        end_phase(h);
    }
    let clock = h.state().session.state().unwrap().clock;
    assert_eq!((clock.turn, clock.step), (1, movement));
}

/// Issue 18: a column of reinforcements is brought in by one click
/// ("Bring them all in"), each counter at its own entry hex as the
/// engine offers it; those the hex cannot take yet (8.16: a counter in
/// Column holds it) stay in the tray as due later.
#[test]
fn cedar_mountain_confederates_brought_in_by_one_click() {
    let mut h = cedar();
    click_label_containing(&mut h, tray::DEFAULT_DEPLOYMENT);
    to_the_confederate_movement_phase(&mut h);
    let before = h.state().session.book().unwrap().follower.seq();
    let b = h.get_by_label(tray::BRING_ALL);
    b.click();
    // One click; the table sends them one after another (bounded).
    for _ in 0..50 {
        h.step();
    }
    let st = h.state().session.state().unwrap();
    assert!(
        h.state().session.last_refusal.is_none(),
        "{:?}",
        h.state().session.last_refusal
    );
    // A unit at the head of each column and both commanders, at their
    // entry hexes.
    for entry in ["4032", "2934"] {
        assert!(
            st.units.values().any(|u| u.hex == Some(hex(entry))),
            "nobody entered at {entry}"
        );
    }
    assert_eq!(st.leaders[&id("ewell")].hex, Some(hex("4032")));
    assert_eq!(st.leaders[&id("early")].hex, Some(hex("2934")));
    let brought = h.state().session.book().unwrap().follower.seq() - before;
    assert!(brought >= 4, "{brought} brought in");
    // Nothing else can enter now: the rest wait behind the columns.
    let legal = support::play::legal_now(&h);
    assert!(
        !legal
            .iter()
            .any(|a| matches!(a, muster_shared::gbacw::ruleset::GbacwAction::Arrive { .. })),
        "still offered after the click"
    );
    // The rest of the columns wait behind their heads (8.16).
    assert!(st.units.values().filter(|u| u.hex.is_none()).count() > 10);
    // The log says so in words, a line each.
    assert!(h.query_all_by_label_contains(" arrives at ").count() >= 4);
    assert_no_debug_text(&h, "after bringing them all in");
}

#[test]
fn cedar_mountain_set_up_by_tray_and_default_then_confederates_arrive_by_tray() {
    let mut h = cedar();
    let setting_up = |h: &Harness<'_, GbacwApp>| {
        h.state()
            .session
            .state()
            .unwrap()
            .progress
            .setting_up
            .clone()
    };
    assert_eq!(setting_up(&h), Some(CounterId("union".into())));
    // The Union's set-up: the tray, the default deployment button, and
    // no wall of buttons.
    h.get_by_label(&format!("{} (Cedar Mountain 26.2)", tray::SET_UP));
    h.get_by_label_contains("Set-up before Game-Turn 1");
    h.get_by_label(tray::DEFAULT_DEPLOYMENT);
    assert_no_debug_text(&h, "set-up");

    // Pick 1 DC in the tray: its legal hexes light up; click one.
    click_label_containing(&mut h, "1 DC  Union Deployment");
    assert_eq!(h.state().tray.picked(), Some(&id("1-dc")));
    let lit: Vec<HexNumber> = h.state().map.lit.keys().copied().collect();
    assert!(!lit.is_empty(), "1 DC has hexes to go to");
    let to = lit[lit.len() / 2];
    zoom_on(&mut h, to, 1.25);
    save(&mut h, "set-up.png");
    let p = h.state().map.hex_screen_pos(to).unwrap();
    click_at(&mut h, p);
    assert_eq!(
        unit_hex(&h, "1-dc"),
        Some(to),
        "{:?}",
        h.state().session.last_refusal
    );
    assert!(setting_up(&h).is_some(), "one placement does not end it");

    // The rest by the default deployment.
    click_label_containing(&mut h, tray::DEFAULT_DEPLOYMENT);
    assert_eq!(setting_up(&h), None, "{:?}", h.state().session.last_refusal);
    assert_eq!(unit_hex(&h, "1-dc"), Some(to), "the placed unit stays");

    to_the_confederate_movement_phase(&mut h);

    // The arrivals tray, the entry hexes marked on the map.
    h.get_by_label_contains(tray::ARRIVALS);
    let marks: Vec<HexNumber> = h.state().map.entry_marks.iter().map(|(x, _)| *x).collect();
    assert_eq!(marks, [hex("2934"), hex("4032")]);
    assert_no_debug_text(&h, "arrivals");

    // Issue 18: each arrival says what a player needs to choose — where
    // and from when it enters, what it is, its strength and morale, the
    // formation it comes in (26.46: column) — not its name alone.
    h.get_by_label(
        "15 Ala - enters at 4032, due Game-Turn 1\n    infantry, strength 7, morale 4, \
         enters in column",
    );
    // Pick 15 Ala (Ewell's column, 4032) and click its lit entry hex.
    click_label_containing(&mut h, "15 Ala - enters at 4032");
    assert_eq!(h.state().tray.picked(), Some(&id("15-ala")));
    assert_eq!(
        h.state().map.lit.keys().copied().collect::<Vec<_>>(),
        [hex("4032")]
    );
    let p = h.state().map.hex_screen_pos(hex("4032")).unwrap();
    click_at(&mut h, p);
    assert_eq!(
        unit_hex(&h, "15-ala"),
        Some(hex("4032")),
        "{:?}",
        h.state().session.last_refusal
    );
    // The log says so in words.
    h.get_by_label_contains("15 Ala arrives at 4032");

    // Early's column at 2934 too: 12 Ga.
    click_label_containing(&mut h, "12 Ga - enters at 2934");
    let p = h.state().map.hex_screen_pos(hex("2934")).unwrap();
    click_at(&mut h, p);
    assert_eq!(unit_hex(&h, "12-ga"), Some(hex("2934")));

    // Ewell rides in beside his column's head (a leader takes no place
    // in it); 21 Ga waits while 15 Ala, in Column, holds the hex (8.16).
    assert!(h.query_by_label_contains("21 Ga - enters").is_none());
    h.get_by_label_contains("Also due, entering later: ");
    h.get_by_label_contains(
        "Ewell - enters at 4032, due Game-Turn 1\n    division commander, integrity radius 6, \
         2 command points",
    );
    click_label_containing(&mut h, "Ewell - enters at 4032");
    zoom_on(&mut h, hex("4032"), 1.25);
    save(&mut h, "arrival.png");
    let p = h.state().map.hex_screen_pos(hex("4032")).unwrap();
    click_at(&mut h, p);
    assert_eq!(
        h.state().session.state().unwrap().leaders[&id("ewell")].hex,
        Some(hex("4032")),
        "{:?}",
        h.state().session.last_refusal
    );
    let seen = assert_no_debug_text(&h, "after the arrivals");
    assert!(seen > 50, "only {seen} texts on screen");
}
