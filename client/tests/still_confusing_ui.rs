//! Issue 18, the walk-through's "still confusing" list (docs/client.md,
//! "A new player's look"), each fixed and checked here by clicks and keys
//! only at a hot-seat table, with a screenshot in `docs/screens/`:
//!
//! * (a) the set-up lit only the picked counter's hexes: every hex where
//!   the tray's counters may set up is now faint green, the picked
//!   counter's bright; with nothing picked a click on an empty faint hex
//!   sets up the first counter offered there;
//! * (b) the map could be panned or dragged past its edge until the view
//!   was empty table: it stops `map::EDGE_SLACK` points past the edge;
//! * (c) a move was logged one line per hex entered: one line per move,
//!   "10 Me moved 0306 to 0508 (2 hexes, 2 MP), facing south-east";
//! * (d) the card's facings were letters ("se s sw nw ne"): an arrow and
//!   the log's word, "⬊ south-east";
//! * (e) the replay bar and the log said "entry": "step".

use egui::{Event, Modifiers, PointerButton, Pos2, pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT, Queryable};
use muster_client::app::gbacw::card::{FACE, facing_label};
use muster_client::app::gbacw::map::EDGE_SLACK;
use muster_client::app::gbacw::tray::FAINT_HINT;
use muster_client::app::gbacw::{GbacwApp, track};
use muster_client::app::replay::{BACK, REPLAYING};
use muster_shared::gbacw::map::HexNumber;
use muster_shared::gbacw::ruleset::{GbacwAction, GbacwConfig};
use std::collections::BTreeSet;

use crate::support;

use support::kittest::{SIZE, click_at, gbacw_harness, id, settle};
use support::play::{Clicker, assert_words_only, legal_now, state};

fn table(battle: &str) -> Harness<'static, GbacwApp> {
    let config = GbacwConfig {
        battle: battle.into(),
        ..GbacwConfig::default()
    };
    gbacw_harness(&config, SIZE, true)
}

fn screenshot(h: &mut Harness<'_, GbacwApp>, name: &str) {
    let image = h.render().expect("headless wgpu renders");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/screens");
    std::fs::create_dir_all(&dir).unwrap();
    image.save(dir.join(name)).unwrap();
    eprintln!("screenshot: docs/screens/{name}");
}

/// Every text on screen.
fn texts(h: &Harness<'_, GbacwApp>) -> Vec<String> {
    h.query_all(By::new().include_labels())
        .flat_map(|n| {
            let n = n.accesskit_node();
            [n.label(), n.value()]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Whether any counter stands in `at`.
fn held(h: &Harness<'_, GbacwApp>, at: HexNumber) -> bool {
    let s = state(h);
    s.units.values().any(|u| u.hex == Some(at)) || s.leaders.values().any(|l| l.hex == Some(at))
}

/// (a) Cedar Mountain 26.2: the side's whole deployment is shown faintly,
/// the picked counter's hexes brightly; with nothing picked, a click on
/// an empty faint hex sets up the first counter offered there.
#[test]
fn set_up_shows_every_set_up_hex_faintly_and_the_picked_counters_brightly() {
    let mut h = table("cedar_mountain");
    let mut c = Clicker::default();
    // Every hex where the legal set places some counter, and no other.
    let all: BTreeSet<HexNumber> = legal_now(&h)
        .iter()
        .filter_map(|a| match a {
            GbacwAction::PlaceUnit { hex, .. } | GbacwAction::PlaceLeader { hex, .. } => Some(*hex),
            _ => None,
        })
        .collect();
    let faint: BTreeSet<HexNumber> = h.state().map.faint.keys().copied().collect();
    assert_eq!(faint, all, "the faint hexes are the legal set's");
    let lit: BTreeSet<HexNumber> = h.state().map.lit.keys().copied().collect();
    assert!(
        !lit.is_empty(),
        "the first counter is picked, its hexes lit"
    );
    assert!(lit.is_subset(&faint));
    assert!(
        faint.len() > lit.len(),
        "the other areas show too: {} faint, {} lit",
        faint.len(),
        lit.len()
    );
    h.get_by_label(FAINT_HINT);
    screenshot(&mut h, "set-up-areas.png");

    // Esc: nothing picked, nothing bright; the deployment still shows.
    h.key_press(egui::Key::Escape);
    settle(&mut h);
    assert!(h.state().tray.picked().is_none());
    assert!(h.state().map.lit.is_empty());
    assert_eq!(h.state().map.faint.len(), faint.len());

    // A click on an empty faint hex outside the first area sets up the
    // first counter offered there.
    let to = *faint
        .iter()
        .find(|x| !lit.contains(x) && !held(&h, **x))
        .expect("an empty hex of another area");
    let expected = h.state().map.faint[&to].clone();
    let before = support::play::seq(&h);
    assert!(c.hex(&mut h, to), "{to} brought into view and clicked");
    assert!(
        support::play::seq(&h) > before,
        "the click set a counter up"
    );
    let placed = match &expected {
        GbacwAction::PlaceUnit { unit, .. } => unit.clone(),
        GbacwAction::PlaceLeader { leader, .. } => leader.clone(),
        other => panic!("not a placement: {other:?}"),
    };
    assert_eq!(support::play::where_is(&h, &placed), Some(to));
    // Still nothing picked, the rest still shown faintly.
    assert!(h.state().tray.picked().is_none());
    assert!(!h.state().map.faint.is_empty());
    assert_words_only(&h, "the set-up with faint hexes");
}

/// The map's board edge on screen: where world (0, 0) and the far corner
/// are drawn.
fn board_on_screen(h: &Harness<'_, GbacwApp>) -> egui::Rect {
    let m = &h.state().map;
    let (cam, rect) = (m.camera().unwrap(), m.rect().unwrap());
    let r = h.state().session.ruleset().unwrap();
    let g = &r.game().map.grid;
    let layout = muster_client::app::gbacw::map::layout_of(&r.game().map);
    let extent = layout.extent(
        u16::from(g.cols.1 - g.cols.0) + 1,
        u16::from(g.rows.1 - g.rows.0) + 1,
    );
    egui::Rect::from_min_max(
        cam.to_screen(rect, pos2(0.0, 0.0)),
        cam.to_screen(rect, extent.to_pos2()),
    )
}

/// Drag the map by `by` with the mouse, from `from` (an empty spot).
fn drag_map(h: &mut Harness<'_, GbacwApp>, from: Pos2, by: egui::Vec2) {
    h.hover_at(from);
    h.step();
    h.event(Event::PointerButton {
        pos: from,
        button: PointerButton::Primary,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    h.step();
    let steps = 20;
    for i in 1..=steps {
        h.hover_at(from + by * (i as f32 / steps as f32));
        h.step();
    }
    h.event(Event::PointerButton {
        pos: from + by,
        button: PointerButton::Primary,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    h.step();
    settle(h);
}

/// (b) However far the map is panned (arrow keys) or dragged (mouse), the
/// view stops `EDGE_SLACK` points past the map's edge.
#[test]
fn the_map_stops_at_its_edge() {
    let mut h = table("cedar_mountain");
    let rect = h.state().map.rect().unwrap();
    // Forty presses left and up: the top-left corner is at most the
    // slack inside the view.
    for _ in 0..40 {
        h.key_press(egui::Key::ArrowLeft);
        h.key_press(egui::Key::ArrowUp);
        h.step();
    }
    settle(&mut h);
    let board = board_on_screen(&h);
    assert!(
        board.left() <= rect.left() + EDGE_SLACK + 0.5,
        "{board:?} in {rect:?}"
    );
    assert!(
        board.top() <= rect.top() + EDGE_SLACK + 0.5,
        "{board:?} in {rect:?}"
    );
    // Dragged far down-right by the mouse: it stops there too.
    let at = rect.center() + vec2(0.0, rect.height() * 0.3);
    for _ in 0..3 {
        drag_map(&mut h, at, vec2(rect.width() * 0.8, rect.height() * 0.5));
    }
    let board = board_on_screen(&h);
    assert!(
        board.left() <= rect.left() + EDGE_SLACK + 0.5,
        "{board:?} in {rect:?}"
    );
    assert!(
        board.top() <= rect.top() + EDGE_SLACK + 0.5,
        "{board:?} in {rect:?}"
    );
    screenshot(&mut h, "map-edge.png");
    // And the other way, to the bottom-right corner.
    for _ in 0..3 {
        drag_map(
            &mut h,
            rect.center(),
            vec2(-rect.width() * 0.8, -rect.height() * 0.5),
        );
    }
    for _ in 0..40 {
        h.key_press(egui::Key::ArrowRight);
        h.key_press(egui::Key::ArrowDown);
        h.step();
    }
    settle(&mut h);
    let board = board_on_screen(&h);
    assert!(
        board.right() >= rect.right() - EDGE_SLACK - 0.5,
        "{board:?} in {rect:?}"
    );
    assert!(
        board.bottom() >= rect.bottom() - EDGE_SLACK - 0.5,
        "{board:?} in {rect:?}"
    );
    // Zoomed right out, the whole map stays in view.
    for _ in 0..12 {
        h.get_by_label(muster_client::app::gbacw::map::ZOOM_OUT)
            .click();
        h.step();
    }
    settle(&mut h);
    let board = board_on_screen(&h);
    assert!(
        rect.expand(0.5).contains_rect(board),
        "{board:?} in {rect:?}"
    );
}

/// The test battle in its Union Movement Phase, 10 Me selected by a click.
fn movement_with_10_me_selected() -> Harness<'static, GbacwApp> {
    let mut h = gbacw_harness(&GbacwConfig::default(), SIZE, true);
    support::kittest::end_phase(&mut h);
    let at = h.state().map.counter_rect(&id("10-me")).unwrap().center();
    click_at(&mut h, at);
    assert_eq!(h.state().map.selected(), [id("10-me")]);
    h
}

/// (c) A move of several hexes is one log line: who, from where to
/// where, how many hexes and Movement Points, the new facing.
#[test]
fn a_move_is_one_line_in_the_log() {
    let mut h = movement_with_10_me_selected();
    let reach = h.state().map.reach().unwrap().clone();
    let from = reach.start;
    // The farthest empty hex it can reach, at least two hexes away.
    let (to, path) = reach
        .hexes
        .keys()
        .filter(|x| !held(&h, **x))
        .filter_map(|x| reach.path_to(*x).map(|p| (*x, p)))
        .max_by_key(|(_, p)| p.len())
        .unwrap();
    assert!(path.len() >= 3, "a move of two hexes or more: {path:?}");
    let lines_before = h.state().session.book().unwrap().log.len();
    let p = h.state().map.hex_screen_pos(to).unwrap();
    click_at(&mut h, p);
    let s = state(&h);
    assert_eq!(s.units[&id("10-me")].hex, Some(to));
    let log = &h.state().session.book().unwrap().log;
    let new: Vec<&str> = log[lines_before..]
        .iter()
        .map(|l| l.text.as_str())
        .collect();
    assert_eq!(new.len(), 1, "one line for the move: {new:?}");
    let name = support::play::name(&h, &id("10-me"));
    let hexes = path.len() - 1;
    let expected = format!("{name} moved {from} to {to} ({hexes} hexes, ");
    assert!(
        new[0].starts_with(&expected),
        "{:?} is not {expected:?}…",
        new[0]
    );
    assert!(new[0].contains(", facing "), "{}", new[0]);
    // On screen, in the log panel.
    assert!(h.query_all_by_label_contains(&expected).count() >= 1);
    screenshot(&mut h, "move-log.png");
}

/// (d) GBACW 7.12: the card's facing buttons and its Facing row say the
/// direction with an arrow and the log's word, never the letters.
#[test]
fn facings_on_the_card_are_words() {
    let mut h = movement_with_10_me_selected();
    h.get_by_label(FACE);
    let shown = texts(&h);
    for letters in ["n", "ne", "se", "s", "sw", "nw"] {
        assert!(
            !shown.iter().any(|t| t == letters),
            "{letters:?} on screen: {shown:?}"
        );
    }
    let south_east = (0..6u8)
        .filter_map(muster_shared::gbacw::facing::Facing::from_index)
        .find(|f| {
            muster_shared::gbacw::words::facing_word(support::play::rules(&h), *f) == "south-east"
        })
        .unwrap();
    let label = facing_label(support::play::rules(&h), south_east);
    assert_eq!(label, "⬊ south-east");
    let now = state(&h).units[&id("10-me")].facing;
    assert_ne!(
        now, south_east,
        "the test battle starts it facing elsewhere"
    );
    h.get_by_label(&label).click();
    settle(&mut h);
    assert_eq!(state(&h).units[&id("10-me")].facing, south_east);
    // The card's row says it the same way, and so does the log.
    assert!(h.query_all_by_label(&label).count() >= 1);
    let log = &h.state().session.book().unwrap().log;
    assert!(
        log.last()
            .is_some_and(|l| l.text.ends_with("faces south-east")),
        "{:?}",
        log.last()
    );
    screenshot(&mut h, "facing.png");
}

/// (e) The replay bar and the log say "step", not "entry".
#[test]
fn the_replay_bar_says_step_not_entry() {
    let mut h = movement_with_10_me_selected();
    let to = *h
        .state()
        .map
        .reach()
        .unwrap()
        .hexes
        .keys()
        .find(|x| **x != h.state().map.reach().unwrap().start && !held(&h, **x))
        .unwrap();
    let p = h.state().map.hex_screen_pos(to).unwrap();
    click_at(&mut h, p);
    let moved_at = support::play::seq(&h);
    h.get_by_label(BACK).click();
    settle(&mut h);
    h.get_by_label(REPLAYING);
    let shown = texts(&h);
    let entry: Vec<&String> = shown
        .iter()
        .filter(|t| t.to_lowercase().contains("entry"))
        .collect();
    assert!(entry.is_empty(), "jargon on screen: {entry:?}");
    assert!(
        shown
            .iter()
            .any(|t| t.starts_with(&format!("step {}", moved_at - 1))),
        "the step shown, under the bar: {shown:?}"
    );
    assert!(shown.iter().any(|t| t.starts_with("joined the table")));
    assert!(
        h.get_by_label(track::END_PHASE)
            .accesskit_node()
            .is_disabled()
    );
    screenshot(&mut h, "replay-steps.png");
}

/// Issue 18's log: filtered by kind (the buttons above it) and by words
/// (Find), and made taller by dragging its top edge.
#[test]
fn the_log_filters_by_kind_and_words_and_is_resized_by_its_edge() {
    use muster_client::app::log::FIND;
    let mut h = movement_with_10_me_selected();
    let reach = h.state().map.reach().unwrap().clone();
    let to = *reach
        .hexes
        .keys()
        .find(|x| **x != reach.start && !held(&h, **x))
        .unwrap();
    let p = h.state().map.hex_screen_pos(to).unwrap();
    click_at(&mut h, p);
    let moved = |h: &Harness<'_, GbacwApp>| h.query_all_by_label_contains(" moved ").count();
    let joined =
        |h: &Harness<'_, GbacwApp>| h.query_all_by_label_contains("joined the table").count();
    assert_eq!(moved(&h), 1);
    assert_eq!(joined(&h), 1);
    // Rolls only: no roll yet, so neither line.
    h.get_by_label("Rolls").click();
    settle(&mut h);
    assert_eq!(moved(&h), 0);
    assert_eq!(joined(&h), 0);
    h.get_by_label("All").click();
    settle(&mut h);
    assert_eq!(moved(&h), 1);
    // Find "moved": the move's line stays, the rest go.
    h.get_by_label(FIND).click();
    settle(&mut h);
    h.get_by_label(FIND).type_text("moved");
    settle(&mut h);
    assert_eq!(moved(&h), 1);
    assert_eq!(joined(&h), 0);
    // The log's top edge dragged up 120 points: the map gives them up.
    let map = h.state().map.rect().unwrap();
    let edge = egui::pos2(map.center().x, map.bottom() + 2.0);
    drag_map(&mut h, edge, vec2(0.0, -120.0));
    let now = h.state().map.rect().unwrap();
    assert!(
        (map.height() - now.height() - 120.0).abs() < 12.0,
        "the map from {map:?} to {now:?}"
    );
    assert_words_only(&h, "the log filtered and resized");
}

/// Issue 18's Build: "drag from a tray onto the legal hexes". A set-up
/// tray row dragged onto one of its lit hexes sets that counter up there;
/// let go on an unlit hex, nothing is sent and the header says why.
#[test]
fn a_tray_counter_is_dragged_onto_a_lit_hex() {
    let mut h = table("cedar_mountain");
    let first = h
        .state()
        .tray
        .picked()
        .cloned()
        .expect("the first counter is picked");
    // The second row: dragging it picks it.
    let items: Vec<_> = legal_now(&h)
        .iter()
        .filter_map(|a| match a {
            GbacwAction::PlaceUnit { unit, .. } => Some(unit.clone()),
            _ => None,
        })
        .collect();
    let other = items.iter().find(|u| **u != first).unwrap().clone();
    let name = support::play::name(&h, &other);
    let row = h
        .query_all(By::new().predicate({
            let name = name.clone();
            move |n| {
                n.role() == egui::accesskit::Role::Button
                    && n.label()
                        .is_some_and(|l| l.starts_with(&format!("{name} ")))
            }
        }))
        .next()
        .expect("its tray row")
        .rect()
        .center();
    let hexes: Vec<HexNumber> = legal_now(&h)
        .iter()
        .filter_map(|a| match a {
            GbacwAction::PlaceUnit { unit, hex, .. } if *unit == other => Some(*hex),
            _ => None,
        })
        .collect();
    let rect = h.state().map.rect().unwrap();
    let to = hexes.iter().copied().find(|x| {
        !held(&h, *x)
            && h.state()
                .map
                .hex_screen_pos(*x)
                .is_some_and(|p| rect.shrink(20.0).contains(p))
    });
    let to = match to {
        Some(to) => to,
        None => {
            // Its area is off screen: bring it into view by clicking the
            // row (which centres it), then drag.
            h.get_by_label_contains(&format!("{name} ")).click();
            settle(&mut h);
            *hexes
                .iter()
                .find(|x| {
                    h.state()
                        .map
                        .hex_screen_pos(**x)
                        .is_some_and(|p| rect.shrink(20.0).contains(p))
                })
                .expect("a hex of its area in view")
        }
    };
    // Let go on an unlit hex first: nothing is sent.
    let before = support::play::seq(&h);
    let unlit = rect.left_top() + vec2(30.0, rect.height() - 30.0);
    drag_map(&mut h, row, unlit - row);
    assert_eq!(
        support::play::seq(&h),
        before,
        "nothing sent for an unlit hex"
    );
    assert_eq!(h.state().tray.picked(), Some(&other), "the drag picked it");
    assert!(h.query_all_by_label_contains("not placed:").count() >= 1);
    // Then onto its lit hex.
    let at = h.state().map.hex_screen_pos(to).unwrap();
    drag_map(&mut h, row, at - row);
    assert_eq!(
        support::play::where_is(&h, &other),
        Some(to),
        "dragged onto {to}"
    );
}

/// The newest log line's place on screen, and the bottom of the window.
fn newest_line(h: &Harness<'_, GbacwApp>) -> (egui::Rect, f32) {
    let text = h
        .state()
        .session
        .book()
        .unwrap()
        .log
        .last()
        .unwrap()
        .text
        .clone();
    let rect = h
        .query_all(
            By::new()
                .predicate(move |n| n.label().or_else(|| n.value()).is_some_and(|l| l == text)),
        )
        .map(|n| n.rect())
        .max_by(|a, b| a.top().total_cmp(&b.top()))
        .expect("the newest line is laid out");
    (rect, SIZE.y)
}

/// Issue 18's log "follows new entries unless scrolled back": the
/// newest line is in view as lines come; scrolled back by the wheel, the
/// log stays there while more come; scrolled to the bottom, it follows
/// again.
#[test]
fn the_log_follows_new_lines_unless_scrolled_back() {
    let mut h = gbacw_harness(&GbacwConfig::default(), SIZE, false);
    let end = |h: &mut Harness<'_, GbacwApp>| {
        h.get_by_label(track::END_PHASE).click();
        settle(h);
    };
    for _ in 0..40 {
        if h.state().session.book().unwrap().log.len() >= 30 {
            break;
        }
        end(&mut h);
    }
    assert!(
        h.state().session.book().unwrap().log.len() >= 30,
        "lines enough to scroll"
    );
    let (line, bottom) = newest_line(&h);
    assert!(
        line.bottom() <= bottom + 1.0,
        "the newest line is in view: {line:?}"
    );
    // Scrolled back with the wheel over the log.
    let over_log = h
        .get_by_label(muster_client::app::log::FIND)
        .rect()
        .center()
        + vec2(60.0, 60.0);
    h.hover_at(over_log);
    h.event(Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: vec2(0.0, 600.0),
        phase: egui::TouchPhase::Move,
        modifiers: Modifiers::NONE,
        source: egui::MouseWheelSource::Wheel,
    });
    settle(&mut h);
    for _ in 0..3 {
        end(&mut h);
    }
    let (line, bottom) = newest_line(&h);
    assert!(
        line.top() >= bottom,
        "scrolled back, the log stays: {line:?}"
    );
    // Down to the bottom again: it follows.
    h.hover_at(over_log);
    h.event(Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: vec2(0.0, -100_000.0),
        phase: egui::TouchPhase::Move,
        modifiers: Modifiers::NONE,
        source: egui::MouseWheelSource::Wheel,
    });
    settle(&mut h);
    end(&mut h);
    end(&mut h);
    let (line, bottom) = newest_line(&h);
    assert!(line.bottom() <= bottom + 1.0, "following again: {line:?}");
}

/// The same drag from the Arrivals tray (Cedar Mountain 26.4): a
/// reinforcement's row dragged onto its lit entry hex brings it in.
#[test]
fn an_arrival_is_dragged_from_the_tray_onto_its_entry_hex() {
    use muster_client::app::gbacw::tray::DEFAULT_DEPLOYMENT;
    let mut h = table("cedar_mountain");
    h.get_by_label(DEFAULT_DEPLOYMENT).click();
    settle(&mut h);
    for _ in 0..4 {
        if legal_now(&h)
            .iter()
            .any(|a| matches!(a, GbacwAction::Arrive { .. }))
        {
            break;
        }
        h.get_by_label(track::END_PHASE).click();
        settle(&mut h);
    }
    let (piece, to) = legal_now(&h)
        .iter()
        .find_map(|a| match a {
            GbacwAction::Arrive { piece, hex, .. } if !held(&h, *hex) => {
                Some((piece.clone(), *hex))
            }
            _ => None,
        })
        .expect("an arrival due at an empty entry hex");
    let name = support::play::name(&h, &piece);
    let row = h
        .query_all(By::new().predicate({
            let name = name.clone();
            move |n| {
                n.role() == egui::accesskit::Role::Button
                    && n.label()
                        .is_some_and(|l| l.starts_with(&format!("{name} - enters")))
            }
        }))
        .next()
        .expect("its row in the Arrivals tray")
        .rect()
        .center();
    let mut c = Clicker::default();
    assert!(c.bring_into_view(&mut h, to));
    let at = h.state().map.hex_screen_pos(to).unwrap();
    drag_map(&mut h, row, at - row);
    assert_eq!(
        support::play::where_is(&h, &piece),
        Some(to),
        "{name} dragged in at {to}"
    );
}
