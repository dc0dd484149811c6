//! Whose turn it is and how the map opens, at a hot-seat Cedar Mountain
//! table driven by clicks and keys only (issue 18, items 4 to 6):
//!
//! - the table opens zoomed so counters are at least 28 px with the hex
//!   numbers shown, on the acting side; no countdown at a hot-seat table;
//! - "Your turn: ..." names the acting side and what is asked; after the
//!   Union's set-up the view follows the Confederate seat by itself, the
//!   window title says "your move" and attention was asked for once per
//!   change;
//! - F1 opens the help overlay, + zooms in, the − and Fit buttons work;
//! - in the Defensive Fire Phase a selected unit lights no movement range
//!   and a click elsewhere says why instead of dropping the selection.
//!
//! Screenshots at 1280x800: `docs/screens/your-turn.png`, `help.png`.

use egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT, Queryable};
use muster_client::app::gbacw::map::{self, FIT, HELP_TITLE, OPEN_ZOOM, ZOOM_OUT, ZOOM_STEP};
use muster_client::app::gbacw::{GbacwApp, track, tray, turn};
use muster_shared::gbacw::ruleset::GbacwConfig;
use muster_shared::gbacw::sequence::{Phase, PlayerTurn, Step};
use muster_shared::{SeatId, Viewer};

use crate::support;

use support::kittest::{SIZE, click_at, gbacw_harness};

fn cedar() -> Harness<'static, GbacwApp> {
    let config = GbacwConfig {
        battle: "cedar_mountain".into(),
        ..GbacwConfig::default()
    };
    gbacw_harness(&config, SIZE, true)
}

/// What no text on screen may contain.
const NOT_WORDS: [&str; 4] = ["{", "CounterId", "HexNumber", "Some("];

/// Every label and value on screen, checked to read as words.
fn texts(h: &Harness<'_, GbacwApp>, when: &str) -> Vec<String> {
    let mut out = Vec::new();
    for node in h.query_all(By::new().include_labels()) {
        let n = node.accesskit_node();
        for text in [n.label(), n.value()].into_iter().flatten() {
            for bad in NOT_WORDS {
                assert!(!text.contains(bad), "{when}: {bad:?} on screen in {text:?}");
            }
            out.push(text.to_string());
        }
    }
    out
}

fn save(h: &mut Harness<'_, GbacwApp>, name: &str) {
    let image = h.render().expect("headless wgpu renders");
    assert_eq!((image.width(), image.height()), (1280, 800));
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/screens");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    image.save(&path).unwrap();
    eprintln!("screenshot: {}", path.display());
}

/// The "Your turn: ..." banner's text.
fn banner_of(h: &Harness<'_, GbacwApp>) -> String {
    let want = format!("{}: ", turn::YOUR_TURN);
    let node = h.get_by_label_contains(&want);
    let n = node.accesskit_node();
    n.label()
        .or_else(|| n.value())
        .unwrap_or_default()
        .to_string()
}

fn zoom(h: &Harness<'_, GbacwApp>) -> f32 {
    h.state().map.camera().unwrap().zoom
}

fn key(h: &mut Harness<'_, GbacwApp>, k: Key) {
    h.key_press(k);
    h.run();
}

fn step(h: &Harness<'_, GbacwApp>) -> Step {
    h.state().session.state().unwrap().clock.step
}

#[test]
fn the_turn_is_announced_the_view_follows_it_and_the_map_opens_readable() {
    let mut h = cedar();

    // Opened close enough to read: counters >= 28 px, hex numbers shown.
    let px = h.state().map.counter_px().unwrap();
    assert!(px >= 28.0, "counters {px} px");
    assert!(zoom(&h) >= OPEN_ZOOM - 1e-4);
    assert!(h.state().map.shows_numbers());

    // The Union sets up: the banner says so, in words, and no countdown
    // runs at a hot-seat table.
    let banner = banner_of(&h);
    assert!(banner.contains("Union"), "{banner}");
    assert!(banner.contains("set up"), "{banner}");
    let all = texts(&h, "set-up");
    assert!(
        !all.iter().any(|t| t.contains("s left")),
        "a countdown at a hot-seat table"
    );
    assert_eq!(
        h.state().turn.title(),
        Some("Muster \u{2014} Cedar Mountain \u{2014} your move")
    );
    let asked_before = h.state().turn.attention_requests;
    assert_eq!(asked_before, 1, "asked once, not every frame");

    // The default deployment ends the set-up by a click; Game-Turn 1
    // opens with the Confederate Player-Turn (26.1) and the view follows
    // the Confederate seat without "View as".
    h.get_by_label(tray::DEFAULT_DEPLOYMENT).click();
    h.run();
    assert_eq!(h.state().session.state().unwrap().progress.setting_up, None);
    assert_eq!(h.state().session.active(), Viewer::Seat(SeatId(1)));
    let banner = banner_of(&h);
    assert!(
        banner.starts_with("Your turn: Confederate Initial Command Phase"),
        "{banner}"
    );
    assert_eq!(
        h.state().turn.attention_requests,
        asked_before + 1,
        "attention asked once for the change"
    );
    for _ in 0..5 {
        h.step();
    }
    assert_eq!(h.state().turn.attention_requests, asked_before + 1);
    texts(&h, "Confederate's turn");
    save(&mut h, "your-turn.png");

    // F1: the help overlay, listing keys and mouse.
    key(&mut h, Key::F1);
    assert!(h.state().map.help);
    h.get_by_label(HELP_TITLE);
    h.get_by_label_contains("fit the whole map");
    h.get_by_label_contains("zoom around the pointer");
    texts(&h, "help");
    save(&mut h, "help.png");
    key(&mut h, Key::F1);
    assert!(!h.state().map.help);
    assert!(h.query_by_label(HELP_TITLE).is_none());

    // + zooms in, the − button back out, Fit shows the whole map.
    let z = zoom(&h);
    key(&mut h, Key::Plus);
    assert!((zoom(&h) - z * ZOOM_STEP).abs() < 1e-3, "{} {z}", zoom(&h));
    h.get_by_label(ZOOM_OUT).click();
    h.run();
    assert!((zoom(&h) - z).abs() < 1e-3);
    h.get_by_label(FIT).click();
    h.run();
    assert!(zoom(&h) < z, "the whole Cedar Mountain map is smaller");
    key(&mut h, Key::Num0);
    let fitted = zoom(&h);
    key(&mut h, Key::Plus);
    key(&mut h, Key::Plus);
    assert!(zoom(&h) > fitted);

    // Space asks before ending the phase.
    key(&mut h, Key::Space);
    h.get_by_label_contains("End the Initial Command Phase?");
    h.get_by_label("Cancel").click();
    h.run();
    assert_eq!(
        step(&h),
        Step::Phase {
            player: PlayerTurn::Second,
            phase: Phase::InitialCommand
        }
    );
    key(&mut h, Key::Space);
    h.get_by_label(muster_client::app::gbacw::CONFIRM_END)
        .click();
    h.run();
    assert_eq!(
        step(&h),
        Step::Phase {
            player: PlayerTurn::Second,
            phase: Phase::Movement
        }
    );

    // Through the Movement Phase to the Defensive Fire Phase: the Union
    // (non-phasing) acts, and the view follows it.
    h.get_by_label(track::END_PHASE).click();
    h.run();
    assert_eq!(
        step(&h),
        Step::Phase {
            player: PlayerTurn::Second,
            phase: Phase::DefensiveFire
        }
    );
    assert_eq!(h.state().session.active(), Viewer::Seat(SeatId(0)));
    h.get_by_label_contains("Your turn: Union Defensive Fire Phase");

    // A Union unit selected: no movement range, no "Click an empty lit
    // hex"; a click on another hex says why and keeps the selection.
    let union = {
        let app = h.state();
        let rules = app.session.ruleset().unwrap();
        let state = app.session.state().unwrap();
        let oob = &rules.game().oob;
        let alone = |c: &muster_shared::gbacw::oob::CounterId, h| {
            !state.units.iter().any(|(d, u)| d != c && u.hex == Some(h))
                && !state.leaders.values().any(|l| l.hex == Some(h))
        };
        state
            .units
            .iter()
            .find(|(c, u)| oob.units[*c].side.0 == "union" && u.hex.is_some_and(|h| alone(c, h)))
            .map(|(c, u)| (c.clone(), u.hex.unwrap()))
            .expect("a Union unit alone in its hex")
    };
    h.state_mut().map.centre_on(union.1);
    h.run();
    let r = h.state().map.counter_rect(&union.0).expect("drawn");
    click_at(&mut h, r.center());
    assert_eq!(h.state().map.selected(), std::slice::from_ref(&union.0));
    assert!(h.state().map.reach().is_none(), "no movement range lit");
    assert!(
        h.query_by_label_contains("Click an empty lit hex")
            .is_none()
    );
    // An empty hex two away, on screen.
    let away = {
        let app = h.state();
        let rules = app.session.ruleset().unwrap();
        let state = app.session.state().unwrap();
        let grid = &rules.game().map.grid;
        let taken = |x| {
            state.units.values().any(|u| u.hex == Some(x))
                || state.leaders.values().any(|l| l.hex == Some(x))
        };
        let rect = app.map.rect().unwrap().shrink(40.0);
        grid.neighbours_on_map(union.1)
            .into_iter()
            .flat_map(|(_, n)| grid.neighbours_on_map(n))
            .map(|(_, x)| x)
            .filter(|x| grid.distance(union.1, *x) == 2 && !taken(*x))
            .filter_map(|x| app.map.hex_screen_pos(x))
            .find(|p| rect.contains(*p))
            .expect("an empty hex two away, on screen")
    };
    click_at(&mut h, away);
    assert_eq!(
        h.state().map.selected(),
        std::slice::from_ref(&union.0),
        "kept"
    );
    let why = h.state().map.path_refusal.clone().unwrap_or_default();
    assert!(why.starts_with("No moves now"), "{why}");
    h.get_by_label_contains("No moves now");
    texts(&h, "defensive fire");
    let _ = map::HELP_KEYS;
}
