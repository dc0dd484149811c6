//! The replay scrubber, driven through egui_kittest against real
//! in-process tables: a GBACW table (a player and the spectator) and a
//! sandbox table. Step back and the map shows the table as it was, read
//! only; "Live" returns.

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use muster_client::app::MusterApp;
use muster_client::app::gbacw::GbacwApp;
use muster_client::app::replay::{BACK, FIRST, FORWARD, LIVE, REPLAYING};
use muster_shared::gbacw::map::HexNumber;
use muster_shared::gbacw::ruleset::GbacwAction;
use muster_shared::sandbox::{Loc, Position, SandboxAction, SandboxConfig};
use muster_shared::{SeatId, Viewer};

mod support;

use support::kittest::{SIZE, click_at, hex, id, test_battle};

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
    h.get_by_label_contains(&format!("entry {}", moved_at - 1));
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
