//! The replay scrubber, driven through egui_kittest against real
//! in-process tables: a GBACW table (a player and the spectator) and a
//! sandbox table. Step back and the map shows the table as it was, read
//! only, and the log and the dice panel end at that entry too; "Live"
//! returns.

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use muster_client::app::MusterApp;
use muster_client::app::dice::{LATER_ROLLS_HIDDEN, VERIFIED_TEXT};
use muster_client::app::gbacw::GbacwApp;
use muster_client::app::log::LATER_LINES_HIDDEN;
use muster_client::app::replay::{BACK, FIRST, FORWARD, LIVE, REPLAYING};
use muster_shared::gbacw::map::HexNumber;
use muster_shared::gbacw::ruleset::{GbacwAction, GbacwConfig};
use muster_shared::sandbox::{Loc, Position, SandboxAction, SandboxConfig};
use muster_shared::{SeatId, Viewer};

use crate::support;

use support::kittest::{SIZE, click_at, gbacw_harness, hex, id, test_battle};

/// Where the map shows `unit`: the hex whose centre its counter covers.
fn drawn_at(h: &Harness<'_, GbacwApp>, unit: &str, candidates: &[&str]) -> Option<HexNumber> {
    let r = h.state().map.counter_rect(&id(unit))?;
    candidates.iter().map(|c| hex(c)).find(|n| {
        h.state()
            .map
            .hex_screen_pos(*n)
            .is_some_and(|p| r.contains(p))
    })
}

/// The entry number the table (the live follower) is at.
fn live_seq(h: &Harness<'_, GbacwApp>) -> u64 {
    h.state().session.book().unwrap().follower.seq()
}

#[test]
fn gbacw_step_back_before_a_move_and_return_live() {
    let mut h = test_battle();
    h.state_mut().session.act(GbacwAction::EndPhase);
    h.run();
    h.state_mut().session.act(GbacwAction::Move {
        pieces: vec![id("10-me")],
        path: vec![hex("0307")],
    });
    h.run();
    let moved_at = live_seq(&h);
    let unit_hex =
        |h: &Harness<'_, GbacwApp>| h.state().session.state().unwrap().units[&id("10-me")].hex;
    assert_eq!(
        unit_hex(&h),
        Some(hex("0307")),
        "{:?}",
        h.state().session.last_refusal
    );
    assert_eq!(drawn_at(&h, "10-me", &["0306", "0307"]), Some(hex("0307")));

    // One entry back: the map shows the 10th Maine where it stood.
    h.get_by_label(BACK).click();
    h.run();
    assert_eq!(h.state().replay.at(), Some(moved_at - 1));
    h.get_by_label(REPLAYING);
    assert_eq!(drawn_at(&h, "10-me", &["0306", "0307"]), Some(hex("0306")));
    // The log line of the entry shown is under the bar.
    h.get_by_label_contains(&format!("step {}", moved_at - 1));
    // The live table did not change.
    assert_eq!(unit_hex(&h), Some(hex("0307")));
    assert_eq!(live_seq(&h), moved_at);

    // Read-only: End phase disabled, and a click on the map acts not.
    assert!(
        h.get_by_label(muster_client::app::gbacw::track::END_PHASE)
            .accesskit_node()
            .is_disabled()
    );
    let at = h.state().map.counter_rect(&id("10-me")).unwrap().center();
    click_at(&mut h, at);
    let p = h.state().map.hex_screen_pos(hex("0406")).unwrap();
    click_at(&mut h, p);
    assert_eq!(live_seq(&h), moved_at, "nothing was sent from the replay");

    // To the very first entry and forward one: folds on.
    h.get_by_label(FIRST).click();
    h.run();
    let first = h.state().replay.at().unwrap();
    assert!(first < moved_at);
    h.get_by_label(FORWARD).click();
    h.run();
    assert_eq!(h.state().replay.at(), Some(first + 1));

    // Live again: the move is back on the map and play goes on.
    h.get_by_label(LIVE).click();
    h.run();
    assert!(h.state().replay.is_live());
    assert!(h.query_by_label(REPLAYING).is_none());
    assert_eq!(drawn_at(&h, "10-me", &["0306", "0307"]), Some(hex("0307")));
    h.get_by_label(muster_client::app::gbacw::track::END_PHASE);
}

#[test]
fn gbacw_spectator_replays_what_it_saw() {
    let mut h = test_battle();
    h.state_mut().session.act(GbacwAction::EndPhase);
    h.run();
    h.state_mut().session.act(GbacwAction::Move {
        pieces: vec![id("10-me")],
        path: vec![hex("0307")],
    });
    h.run();
    h.state_mut().session.set_active(Viewer::Spectator);
    h.run();
    assert_eq!(h.state().session.active(), Viewer::Spectator);
    let moved_at = live_seq(&h);
    assert_eq!(drawn_at(&h, "10-me", &["0306", "0307"]), Some(hex("0307")));
    h.get_by_label(BACK).click();
    h.run();
    assert_eq!(h.state().replay.at(), Some(moved_at - 1));
    assert_eq!(drawn_at(&h, "10-me", &["0306", "0307"]), Some(hex("0306")));
    // Switching back to a seat while replaying rebuilds from that seat's
    // own history (not the spectator's cache).
    h.state_mut().session.set_active(Viewer::Seat(SeatId(0)));
    h.run();
    assert_eq!(drawn_at(&h, "10-me", &["0306", "0307"]), Some(hex("0306")));
    h.get_by_label(LIVE).click();
    h.run();
    assert_eq!(drawn_at(&h, "10-me", &["0306", "0307"]), Some(hex("0307")));
}

/// How many rolls the dice panel lists (each carries its verified tick).
fn rolls_listed(h: &Harness<'_, GbacwApp>) -> usize {
    h.query_all_by_label(VERIFIED_TEXT).count()
}

/// Whether a label reads exactly `text` (a log line is one label).
fn shown(h: &Harness<'_, GbacwApp>, text: &str) -> bool {
    h.query_all_by_label(text).next().is_some()
}

/// Scrubbed back, the log and the dice panel end at the entry the map
/// shows, as the map does: before a roll neither lists it nor any later
/// line (and say how many they hide); at the roll's entry the roll is
/// back and the later lines still hidden; live, everything again.
#[test]
fn gbacw_the_log_and_the_dice_follow_the_scrubbed_entry() {
    // Corinth's solitaire game: its first action is a roll (29.51).
    let config = GbacwConfig {
        battle: "corinth_solo".into(),
        ..GbacwConfig::default()
    };
    let mut h = gbacw_harness(&config, SIZE, false);
    let rules = h.state().session.ruleset().unwrap().clone();
    let union = rules.seat_of(&id("union"));
    let rebel = rules.seat_of(&id("confederate"));
    h.state_mut().session.set_active(Viewer::Seat(rebel));
    h.state_mut().session.act(GbacwAction::SolitaireRoll);
    h.run();
    let rolled_at = live_seq(&h);
    // Then the Union sets up: log lines after the roll.
    h.state_mut().session.set_active(Viewer::Seat(union));
    h.state_mut().session.act(GbacwAction::EndSetUp);
    h.run();
    let live_at = live_seq(&h);
    assert!(live_at > rolled_at, "{:?}", h.state().session.last_refusal);
    let (roll_line, later) = {
        let book = h.state().session.book().unwrap();
        assert_eq!(book.rolls.len(), 1);
        assert_eq!(book.rolls[0].seq, rolled_at);
        let roll_line = book
            .log
            .iter()
            .find(|l| l.seq == Some(rolled_at) && l.text.contains("rolled"))
            .expect("the roll is logged")
            .text
            .clone();
        let before: Vec<&str> = book
            .log
            .iter()
            .filter(|l| l.seq.is_some_and(|s| s <= rolled_at))
            .map(|l| l.text.as_str())
            .collect();
        let later: Vec<String> = book
            .log
            .iter()
            .filter(|l| l.seq.is_some_and(|s| s > rolled_at) && !before.contains(&&*l.text))
            .map(|l| l.text.clone())
            .collect();
        (roll_line, later)
    };
    assert!(!later.is_empty(), "the set-up's end is logged");
    assert_eq!(rolls_listed(&h), 1);
    assert!(later.iter().all(|l| shown(&h, l)), "live, the log is whole");

    // Back to the entry before the roll.
    for _ in 0..50 {
        if h.state().replay.at() == Some(rolled_at - 1) {
            break;
        }
        h.get_by_label(BACK).click();
        h.run();
    }
    assert_eq!(h.state().replay.at(), Some(rolled_at - 1));
    assert_eq!(rolls_listed(&h), 0, "no roll listed before it was rolled");
    h.get_by_label(&format!("1 {LATER_ROLLS_HIDDEN}"));
    assert!(!shown(&h, &roll_line), "the roll's log line is hidden");
    assert!(later.iter().all(|l| !shown(&h, l)));
    h.get_by_label_contains(LATER_LINES_HIDDEN);

    // Forward to the roll's entry: the roll and its line are back, the
    // set-up's end is not.
    h.get_by_label(FORWARD).click();
    h.run();
    assert_eq!(h.state().replay.at(), Some(rolled_at));
    assert_eq!(rolls_listed(&h), 1);
    assert!(h.query_by_label_contains(LATER_ROLLS_HIDDEN).is_none());
    assert!(shown(&h, &roll_line), "{roll_line}");
    assert!(later.iter().all(|l| !shown(&h, l)));
    h.get_by_label_contains(LATER_LINES_HIDDEN);

    // Live: the whole log, nothing said hidden.
    h.get_by_label(LIVE).click();
    h.run();
    assert_eq!(rolls_listed(&h), 1);
    assert!(later.iter().all(|l| shown(&h, l)));
    assert!(h.query_by_label_contains(LATER_LINES_HIDDEN).is_none());
    assert!(h.query_by_label_contains(LATER_ROLLS_HIDDEN).is_none());
}

#[test]
fn sandbox_replay_shows_the_board_before_a_piece_was_placed() {
    let app = MusterApp::hot_seat(&SandboxConfig::default(), &["Union", "Confederate"]).unwrap();
    let mut h = Harness::builder()
        .with_size(SIZE)
        .build_ui_state(|ui, app: &mut MusterApp| app.ui(ui), app);
    h.run();
    let at = Position {
        board: 0,
        loc: Loc::Hex { col: 4, row: 4 },
    };
    for label in ["A", "B"] {
        h.state_mut().session.act(SandboxAction::Place {
            at,
            label: label.into(),
            owner: Some(SeatId(0)),
            face_up: true,
            hidden: false,
        });
        h.run();
    }
    let count = |h: &mut Harness<'_, MusterApp>| {
        let app = h.state_mut();
        app.replay
            .view(&app.session)
            .map(|f| f.state().stack_at(at).len())
    };
    assert_eq!(count(&mut h), Some(2));
    h.get_by_label(BACK).click();
    h.run();
    assert_eq!(count(&mut h), Some(1));
    h.get_by_label(BACK).click();
    h.run();
    assert_eq!(count(&mut h), Some(0));
    // The live table still has both, and the replay drew none.
    assert_eq!(h.state().session.state().unwrap().stack_at(at).len(), 2);
    h.get_by_label(LIVE).click();
    h.run();
    assert_eq!(count(&mut h), Some(2));
}
