//! Issue 18: "retreat paths and advances drawn on the map". At the test
//! battle's hot-seat table, by clicks and keys only (`support::play`:
//! counters on the map, buttons by their words, "End phase"): a Union
//! unit closes on a Confederate one and declares a melee (GBACW 12.2x);
//! the Confederates answer by retreating before it (12.81), choosing the
//! path on the map, where each legal path is drawn and its last hex lit;
//! the Union is offered the advance into the hex they left (12.85), lit
//! on the map, and advances by a click there. The engine's state is read
//! to choose and to check what the clicks did, never to act. Screenshots
//! `docs/screens/retreat-paths.png` and `docs/screens/advance.png`.

use egui_kittest::Harness;
use muster_client::app::gbacw::place_answers::{ADVANCE_HINT, RETREAT_HINT};
use muster_client::app::gbacw::{GbacwApp, TAKE_BACK};
use muster_shared::gbacw::facing::Facing;
use muster_shared::gbacw::map::HexNumber;
use muster_shared::gbacw::oob::{CounterId, Marker};
use muster_shared::gbacw::ruleset::{GbacwAction, GbacwConfig};
use muster_shared::gbacw::sequence::{Phase, PlayerTurn, Step};
use muster_shared::{SeatId, Viewer};
use std::collections::BTreeSet;

use crate::support;

use egui_kittest::kittest::{NodeT, Queryable};
use support::kittest::{SIZE, gbacw_harness, settle};
use support::play::{Clicker, assert_words_only, legal_now, rules, state, where_is};

fn step(h: &Harness<'_, GbacwApp>) -> Step {
    state(h).clock.step
}

/// End phases by the button (each seat for itself; the hot-seat view
/// follows the seat that acts) until the first Player-Turn's `phase`;
/// lone leaders join their units by clicks when 17.52 asks. Bounded.
fn end_phases_to(c: &mut Clicker, h: &mut Harness<'_, GbacwApp>, phase: Phase) {
    let want = Step::Phase {
        player: PlayerTurn::First,
        phase,
    };
    for _ in 0..30 {
        if step(h) == want {
            return;
        }
        if !c.perform(h, &GbacwAction::EndPhase) {
            let refused = h.state().session.last_refusal.clone().unwrap_or_default();
            assert!(refused.contains("17.52"), "End phase refused: {refused}");
            let seat = rules(h).acting_seat(state(h)).unwrap();
            for m in support::gbacw::leaders_to_join(h.state(), seat) {
                assert!(c.perform(h, &m), "{:?}", c.last_miss);
            }
        }
    }
    panic!("never reached {want:?}: at {:?}", step(h));
}

/// Save the frame as `docs/screens/<name>` (1280 x 800).
fn save(h: &mut Harness<'_, GbacwApp>, name: &str) {
    let image = h.render().expect("headless wgpu renders");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/screens");
    std::fs::create_dir_all(&dir).unwrap();
    image.save(dir.join(name)).unwrap();
    eprintln!("screenshot: docs/screens/{name}");
}

/// Whether the side panel shows `text`.
fn shows(h: &Harness<'_, GbacwApp>, text: &str) -> bool {
    h.query_by_label_contains(text).is_some()
}

/// Whether the bar's "Take back" button is enabled.
fn take_back_enabled(h: &Harness<'_, GbacwApp>) -> bool {
    !h.get_by_label(TAKE_BACK).accesskit_node().is_disabled()
}

/// By clicks: a Union unit closes on the enemy, turns to face it, and
/// declares a melee in the Retreat Before Melee Phase. Returns the unit
/// and the hex it declared against.
fn melee_declared(c: &mut Clicker, h: &mut Harness<'_, GbacwApp>) -> (CounterId, HexNumber) {
    end_phases_to(c, h, Phase::Movement);
    let (unit, path, at, target) = support::gbacw::closing_move(h.state());
    let mv = GbacwAction::Move {
        pieces: vec![unit.clone()],
        path,
    };
    assert!(c.perform(h, &mv), "{:?}", c.last_miss);
    if legal_now(h).contains(&GbacwAction::DeclineWithdrawalFire) {
        assert!(c.perform(h, &GbacwAction::DeclineWithdrawalFire));
    }
    assert_eq!(where_is(h, &unit), Some(at), "{unit} closed on {target}");
    // Issue 18: a move of one's own may be taken back.
    assert!(take_back_enabled(h), "the move may be taken back");
    let facing = Facing::new(rules(h).game().map.grid.direction(at, target).unwrap());
    if state(h).units[&unit].facing != facing {
        let face = GbacwAction::Face {
            unit: unit.clone(),
            facing,
        };
        assert!(c.perform(h, &face), "{:?}", c.last_miss);
    }
    end_phases_to(c, h, Phase::RetreatBeforeMelee);
    let melee = legal_now(h)
        .into_iter()
        .find(|a| {
            matches!(a, GbacwAction::DeclareMelee { target: t, attackers }
                if *t == target && attackers.contains(&unit))
        })
        .expect("12.2x: the engine offers the melee");
    assert!(c.perform(h, &melee), "{:?}", c.last_miss);
    (unit, target)
}

#[test]
fn case_12_81_12_85_the_retreat_path_and_the_advance_are_chosen_on_the_map() {
    let mut h = gbacw_harness(&GbacwConfig::default(), SIZE, true);
    let mut c = Clicker::default();
    let (_, target) = melee_declared(&mut c, &mut h);

    // 12.81: the Confederates answer; the view is theirs, the prompt
    // says to click the map, each path's last hex is lit and its path
    // drawn from the threatened hex.
    assert_eq!(h.state().session.active(), Viewer::Seat(SeatId(1)));
    assert!(shows(&h, RETREAT_HINT), "the hint under the prompt");
    let offered: Vec<GbacwAction> = legal_now(&h)
        .into_iter()
        .filter(|a| matches!(a, GbacwAction::RetreatBeforeMelee { .. }))
        .collect();
    assert!(
        !offered.is_empty(),
        "12.81: a retreat before melee is offered"
    );
    let ends: BTreeSet<HexNumber> = offered
        .iter()
        .filter_map(|a| match a {
            GbacwAction::RetreatBeforeMelee { path, .. } => path.last().copied(),
            _ => None,
        })
        .collect();
    let lit: BTreeSet<HexNumber> = h.state().map.lit.keys().copied().collect();
    assert_eq!(lit, ends, "every path's last hex lit, and nothing else");
    for (end, p) in &h.state().map.answer_paths {
        assert_eq!(p.first(), Some(&target), "drawn from the threatened hex");
        assert_eq!(p.last(), Some(end));
    }
    // The lit answer is the whole stack's (the most units); hovering its
    // hex shows its path in the lit colour.
    let to = *ends.iter().next().unwrap();
    let answer = h.state().map.lit[&to].clone();
    let GbacwAction::RetreatBeforeMelee { units: going, .. } = &answer else {
        panic!("{answer:?}")
    };
    let most = offered
        .iter()
        .filter_map(|a| match a {
            GbacwAction::RetreatBeforeMelee { units, .. } => Some(units.len()),
            _ => None,
        })
        .max()
        .unwrap();
    assert_eq!(going.len(), most);
    let going = going.clone();
    c.bring_into_view(&mut h, to);
    h.hover_at(h.state().map.hex_screen_pos(to).unwrap());
    settle(&mut h);
    // The pointer off the map for the picture (no hex tooltip over it).
    h.hover_at(egui::pos2(1270.0, 790.0));
    settle(&mut h);
    save(&mut h, "retreat-paths.png");
    c.texts_checked += assert_words_only(&h, "retreat before melee asked");

    // A click on the lit hex answers.
    assert!(c.perform(&mut h, &answer), "{:?}", c.last_miss);
    // 12.83: the Union may fire at them as they go: declined by its
    // button. A unit that fails its morale check at the end routs and
    // its owner chooses its retreat (14.4): on the map too.
    answer_what_follows(&mut c, &mut h);
    for u in &going {
        let routed = state(&h).units[u].status.markers.contains(&Marker::Rout);
        let now = where_is(&h, u);
        assert_ne!(now, Some(target), "{u} left {target}");
        if !routed {
            assert_eq!(now, Some(to), "{u} retreated to the hex clicked");
        }
    }

    // 12.85: the Union is offered the advance into the hex they left:
    // lit, its path drawn from the attacker, answered by a click there.
    let offer = state(&h)
        .advance
        .clone()
        .expect("12.85: the advance offered");
    assert_eq!(offer.hex, target);
    assert_eq!(h.state().session.active(), Viewer::Seat(SeatId(0)));
    assert!(shows(&h, ADVANCE_HINT), "the hint under the prompt");
    let lit: Vec<HexNumber> = h.state().map.lit.keys().copied().collect();
    assert_eq!(lit, vec![target]);
    let all = GbacwAction::Advance {
        units: offer.units.clone(),
    };
    assert_eq!(h.state().map.lit[&target], all);
    assert_eq!(
        h.state().map.answer_paths[&target],
        vec![where_is(&h, &offer.units[0]).unwrap(), target]
    );
    c.bring_into_view(&mut h, target);
    h.hover_at(egui::pos2(1270.0, 790.0));
    settle(&mut h);
    save(&mut h, "advance.png");
    c.texts_checked += assert_words_only(&h, "advance offered");
    assert!(c.perform(&mut h, &all), "{:?}", c.last_miss);
    assert!(state(&h).advance.is_none(), "answered");
    for u in &offer.units {
        assert_eq!(where_is(&h, u), Some(target), "{u} advanced");
    }
    // Nothing is lit once answered.
    assert!(h.state().map.lit.is_empty());
    assert!(h.state().map.answer_paths.is_empty());
    eprintln!(
        "retreat before melee and advance by {} clicks; {} texts checked",
        c.clicks, c.texts_checked
    );
}

/// After the retreat before melee: withdrawal fire declined by its
/// button; a rout's retreat path (GBACW 14.4), if the dice bring one,
/// chosen on the map, where each path's last hex is lit. Bounded.
fn answer_what_follows(c: &mut Clicker, h: &mut Harness<'_, GbacwApp>) {
    for _ in 0..8 {
        let legal = legal_now(h);
        if legal.contains(&GbacwAction::DeclineWithdrawalFire) {
            assert!(c.perform(h, &GbacwAction::DeclineWithdrawalFire));
            continue;
        }
        let retreats: Vec<&GbacwAction> = legal
            .iter()
            .filter(|a| matches!(a, GbacwAction::Retreat { path, .. } if !path.is_empty()))
            .collect();
        let Some(first) = retreats.first() else {
            return;
        };
        let ends: BTreeSet<HexNumber> = retreats
            .iter()
            .filter_map(|a| match a {
                GbacwAction::Retreat { path, .. } => path.last().copied(),
                _ => None,
            })
            .collect();
        let lit: BTreeSet<HexNumber> = h.state().map.lit.keys().copied().collect();
        assert_eq!(lit, ends, "14.4: every retreat path's last hex lit");
        assert!(shows(h, RETREAT_HINT));
        eprintln!("14.4: a retreat path chosen on the map");
        assert!(c.perform(h, first), "{:?}", c.last_miss);
    }
}

/// Issue 18: the Take back button (and Z) is offered only where the
/// engine's decision model lets the last action be taken back: a move of
/// one's own, yes (checked on the way); an answer to a question the
/// engine asked (here declining the advance, 12.85: no dice, no default,
/// yet final, as the server's check says), no.
#[test]
fn case_12_85_an_answer_to_a_question_is_not_offered_for_take_back() {
    let mut h = gbacw_harness(&GbacwConfig::default(), SIZE, false);
    let mut c = Clicker::default();
    let (_, target) = melee_declared(&mut c, &mut h);
    // The Confederates retreat (the whole stack, by the map), so that
    // the Union is offered the advance.
    let to = *h.state().map.lit.keys().next().expect("paths lit");
    let answer = h.state().map.lit[&to].clone();
    assert!(c.perform(&mut h, &answer), "{:?}", c.last_miss);
    answer_what_follows(&mut c, &mut h);
    assert_eq!(state(&h).advance.as_ref().map(|o| o.hex), Some(target));
    assert!(
        c.perform(&mut h, &GbacwAction::DeclineAdvance),
        "{:?}",
        c.last_miss
    );
    let after = support::play::seq(&h);
    assert!(state(&h).advance.is_none(), "declined");
    assert_eq!(h.state().session.active(), Viewer::Seat(SeatId(0)));
    // The follower alone would offer it (no roll, no default); the
    // decision model says it was final.
    let book = h.state().session.book().unwrap();
    assert!(book.follower.take_back_target(SeatId(0)).is_some());
    assert!(!take_back_enabled(&h), "an answer is final");
    // Z does nothing either.
    h.key_press(egui::Key::Z);
    settle(&mut h);
    assert_eq!(support::play::seq(&h), after, "nothing taken back");
    assert!(h.state().session.last_refusal.is_none());
}
