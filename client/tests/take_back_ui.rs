//! Issue 18: take-back through the real UI, by clicks and keys only.
//! - Hot-seat: a move made by clicking is taken back with the "Take back"
//!   button, then again with Z; the counter stands where it started.
//! - Over a real server: the Union player asks; the Confederate player's
//!   table shows "Banks asks to take back their last move" with Agree and
//!   Refuse; refused, Banks is told who refused; agreed, the move is
//!   undone on both tables.

use egui::{Event, Modifiers, PointerButton, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use muster_client::ConnectOptions;
use muster_client::app::gbacw::{GbacwApp, TAKE_BACK, TAKE_BACK_AGREE, TAKE_BACK_REFUSE, track};
use muster_client::app::{Join, NetTable};
use muster_server::Server;
use muster_server::config::Config;
use muster_shared::codec;
use muster_shared::gbacw::map::HexNumber;
use muster_shared::gbacw::oob::CounterId;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwConfig};
use muster_shared::gbacw::sequence::{Phase, Step};
use muster_shared::protocol::TableOptions;
use std::time::{Duration, Instant};

use crate::support;

fn wait(h: &mut Harness<'_, GbacwApp>, what: &str, done: impl Fn(&GbacwApp) -> bool) {
    let end = Instant::now() + Duration::from_secs(20);
    while !done(h.state()) {
        assert!(
            Instant::now() < end,
            "timed out waiting for {what}: {:?}",
            h.state().session.last_refusal
        );
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    h.step();
}

fn click(h: &mut Harness<'_, GbacwApp>, p: Pos2) {
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
    h.step();
}

fn in_movement(app: &GbacwApp) -> bool {
    app.session.state().is_some_and(|s| {
        matches!(
            s.clock.step,
            Step::Phase {
                phase: Phase::Movement,
                ..
            }
        )
    })
}

fn me() -> CounterId {
    CounterId("10-me".into())
}

fn hex_of(app: &GbacwApp) -> Option<HexNumber> {
    app.session.state().and_then(|s| s.units[&me()].hex)
}

/// Click the 10th Maine, then an empty hex it can reach: where it went.
fn move_by_clicks(h: &mut Harness<'_, GbacwApp>) -> HexNumber {
    let at = h.state().map.counter_rect(&me()).unwrap().center();
    click(h, at);
    let target = {
        let app = h.state();
        let state = app.session.state().unwrap();
        let reach = app.map.reach().expect("the reach of the 10th Maine");
        *reach
            .hexes
            .keys()
            .find(|n| {
                **n != reach.start
                    && !state.units.values().any(|u| u.hex == Some(**n))
                    && !state.leaders.values().any(|l| l.hex == Some(**n))
            })
            .unwrap()
    };
    let p = h.state().map.hex_screen_pos(target).unwrap();
    click(h, p);
    wait(h, "the move", move |app| hex_of(app) == Some(target));
    target
}

/// Scroll the button labelled `label` into view (the side panel's card
/// is below the tray's long list), then click it.
fn press(h: &mut Harness<'_, GbacwApp>, label: &str) {
    h.get_by_label(label).scroll_to_me();
    h.run();
    h.get_by_label(label).click();
    h.run();
}

fn take_back_enabled(h: &Harness<'_, GbacwApp>) -> bool {
    !h.get_by_label(TAKE_BACK).accesskit_node().is_disabled()
}

#[test]
fn hot_seat_take_back_by_button_and_by_z() {
    let mut h = support::kittest::test_battle();
    support::kittest::end_phase(&mut h);
    assert!(in_movement(h.state()));
    let start = hex_of(h.state());
    let before = h.state().session.state().unwrap().clone();
    move_by_clicks(&mut h);
    assert!(take_back_enabled(&h), "the move may be taken back");
    h.get_by_label(TAKE_BACK).click();
    h.run();
    assert_eq!(hex_of(h.state()), start, "the button took the move back");
    assert!(*h.state().session.state().unwrap() == before);
    // No agreement asked at a hot-seat table, and the log says what happened.
    assert!(h.state().session.take_back_asked.is_none());
    let log = &h.state().session.book().unwrap().log;
    assert!(
        log.iter()
            .any(|l| l.text == "Union took back their last move"),
        "{log:?}"
    );
    // Z does the same.
    move_by_clicks(&mut h);
    h.key_press(egui::Key::Z);
    h.run();
    assert_eq!(hex_of(h.state()), start, "Z took the move back");
    // Every viewer's copy agrees (the spectator's too).
    let views: Vec<_> = h.state().session.viewers();
    for v in views {
        h.state_mut().session.set_active(v);
        h.run();
        assert_eq!(hex_of(h.state()), start, "{v:?}");
    }
}

#[test]
fn over_a_server_the_opponent_is_asked_and_may_refuse_or_agree() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let server = rt
        .block_on(Server::start(Config {
            ws: "127.0.0.1:0".parse().unwrap(),
            quic: "127.0.0.1:0".parse().unwrap(),
            metrics: "127.0.0.1:0".parse().unwrap(),
            data_dir: dir.path().to_path_buf(),
            ..Config::default()
        }))
        .expect("server starts");
    let opts = ConnectOptions {
        fingerprint: Some(server.fingerprint.clone()),
        ..ConnectOptions::default()
    };
    let options = TableOptions {
        ruleset: "gbacw".into(),
        scenario: "test".into(),
        config: codec::encode_infallible(&GbacwConfig::default()),
        private: false,
        spectators_allowed: true,
        spectator_delay: 0,
        take_back_needs_agreement: true,
    };
    let ws = format!("ws://{}", server.ws_addr);
    let union = NetTable::<Gbacw>::join(&ws, opts.clone(), "Banks", Join::Create(options))
        .expect("create and sit");
    let table = union.table();
    let rebel = NetTable::<Gbacw>::join(
        &ws,
        opts,
        "Jackson",
        Join::Seat {
            table,
            seat: None,
            invite: None,
        },
    )
    .expect("second seat");
    let mut a = support::kittest::net_gbacw(union, support::kittest::SIZE);
    let mut b = support::kittest::net_gbacw(rebel, support::kittest::SIZE);
    wait(&mut a, "the table", |app| app.session.state().is_some());
    wait(&mut b, "the table", |app| app.session.state().is_some());
    a.get_by_label(track::END_PHASE).click();
    a.step();
    wait(&mut a, "the Movement Phase", in_movement);
    wait(&mut b, "the opponent to see it", in_movement);
    let start = hex_of(a.state());
    let to = move_by_clicks(&mut a);
    wait(&mut b, "the opponent to see the move", move |app| {
        hex_of(app) == Some(to)
    });
    assert!(!take_back_enabled(&b), "not Jackson's move to take back");

    // Asked, refused.
    assert!(take_back_enabled(&a));
    a.get_by_label(TAKE_BACK).click();
    a.step();
    wait(&mut b, "the request", |app| {
        app.session.take_back_asked.is_some()
    });
    b.get_by_label_contains("Banks asks to take back their last move");
    b.get_by_label(TAKE_BACK_REFUSE).click();
    b.step();
    wait(&mut a, "the refusal", |app| {
        app.session
            .last_refusal
            .as_deref()
            .is_some_and(|r| r.contains("Jackson refused the take-back"))
    });
    assert_eq!(hex_of(a.state()), Some(to), "refused: the move stands");

    // Asked again, agreed: undone on both tables.
    a.get_by_label(TAKE_BACK).click();
    a.step();
    wait(&mut b, "the request", |app| {
        app.session.take_back_asked.is_some()
    });
    b.get_by_label(TAKE_BACK_AGREE).click();
    b.step();
    wait(&mut a, "the take-back", move |app| hex_of(app) == start);
    wait(&mut b, "the opponent to see it", move |app| {
        hex_of(app) == start
    });
    assert!(a.state().session.last_refusal.is_none());

    drop((a, b));
    rt.block_on(server.shutdown());
}

/// Cedar Mountain 26.2 ("in any formation"), issue 18: a counter set up
/// from the tray is faced and put in column on its card, by clicks; then
/// the whole placement is taken back, one click per step.
#[test]
fn set_up_facing_and_formation_on_the_card_then_taken_back() {
    use muster_client::app::gbacw::card::{SET_UP_FACE, SET_UP_FORMATION};
    use muster_shared::gbacw::oob::Formation;
    let config = GbacwConfig {
        battle: "cedar_mountain".into(),
        ..GbacwConfig::default()
    };
    let mut h = support::kittest::gbacw_harness(&config, support::kittest::SIZE, false);
    let dc = CounterId("1-dc".into());
    let start = h.state().session.state().unwrap().clone();
    h.get_by_label_contains("1 DC  Union Deployment").click();
    h.run();
    let lit: Vec<HexNumber> = h.state().map.lit.keys().copied().collect();
    let to = lit[lit.len() / 2];
    let p = h.state().map.hex_screen_pos(to).unwrap();
    support::kittest::click_at(&mut h, p);
    let unit = |h: &Harness<'_, GbacwApp>| h.state().session.state().unwrap().units[&dc].clone();
    assert_eq!(unit(&h).hex, Some(to));
    // Select it (the tray has picked the next counter, so a click on the
    // map would place that one): its card offers the set-up rows.
    h.state_mut().map.select(vec![dc.clone()]);
    h.run();
    h.get_by_label(SET_UP_FACE);
    h.get_by_label(SET_UP_FORMATION);
    let (facing, other) = {
        let app = h.state();
        let rules = app.session.ruleset().unwrap();
        let now = unit(&h).facing;
        let other = (0..6u8)
            .filter_map(muster_shared::gbacw::facing::Facing::from_index)
            .find(|f| *f != now)
            .unwrap();
        (
            muster_client::app::gbacw::card::facing_label(rules, other),
            other,
        )
    };
    press(&mut h, &facing);
    assert_eq!(
        unit(&h).facing,
        other,
        "{:?}",
        h.state().session.last_refusal
    );
    assert_eq!(unit(&h).hex, Some(to), "set up again on its hex");
    press(&mut h, Formation::Column.name());
    assert_eq!(unit(&h).status.formation, Formation::Column);
    // Three set-up actions, taken back one click each.
    for _ in 0..3 {
        assert!(take_back_enabled(&h));
        h.get_by_label(TAKE_BACK).click();
        h.run();
    }
    assert!(*h.state().session.state().unwrap() == start);
    assert!(!take_back_enabled(&h), "nothing left to take back");
}
