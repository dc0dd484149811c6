//! The GBACW table driven through egui_kittest against a real in-process
//! table (`LocalTable<Gbacw>`, the `test` battle), rendered headless with
//! wgpu: select a unit, see its reachable hexes, click one to move it;
//! end a phase; turn a unit; and a rendered map checked for content.

use egui::{Pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use muster_client::app::gbacw::map::{shade, terrain_colour};
use muster_client::app::gbacw::{GbacwApp, PROVISIONAL_NOTICE};
use muster_shared::SeatId;
use muster_shared::gbacw::map::{HexNumber, Terrain};
use muster_shared::gbacw::sequence::{Phase, PlayerTurn, Step};

use crate::support;

use support::kittest::{SIZE, click_at, end_phase, hex, id, test_battle_rendered};

fn unit_hex(h: &Harness<'_, GbacwApp>, unit: &str) -> Option<HexNumber> {
    h.state().session.state().unwrap().units[&id(unit)].hex
}

fn phase(h: &Harness<'_, GbacwApp>) -> Step {
    h.state().session.state().unwrap().clock.step
}

#[test]
fn ending_a_phase_moves_the_phase_track() {
    let mut h = test_battle_rendered();
    assert_eq!(
        phase(&h),
        Step::Phase {
            player: PlayerTurn::First,
            phase: Phase::InitialCommand
        }
    );
    // The notices are on screen where the charts and map are used.
    h.get_by_label_contains(PROVISIONAL_NOTICE);
    h.get_by_label_contains("Reconstruction");
    end_phase(&mut h);
    assert_eq!(
        phase(&h),
        Step::Phase {
            player: PlayerTurn::First,
            phase: Phase::Movement
        },
        "{:?}",
        h.state().session.book().unwrap().log
    );
    h.get_by_label("B. Movement Phase");
}

#[test]
fn select_a_unit_see_its_reach_and_click_a_hex_to_move_it() {
    let mut h = test_battle_rendered();
    end_phase(&mut h);
    let at = h.state().map.counter_rect(&id("10-me")).unwrap().center();
    click_at(&mut h, at);
    assert_eq!(h.state().map.selected(), &[id("10-me")]);
    // The card names the unit.
    h.get_by_label("10 Me");
    let reach = h.state().map.reach().cloned().expect("10-me may move");
    assert_eq!(reach.start, hex("0306"));
    assert!(reach.hexes.len() > 3, "{reach:?}");
    // An empty reachable hex, the farthest away (ties: the first).
    let state = h.state().session.state().unwrap().clone();
    let occupied = |n: HexNumber| {
        state.units.values().any(|u| u.hex == Some(n))
            || state.leaders.values().any(|l| l.hex == Some(n))
    };
    let (target, cost) = reach
        .hexes
        .iter()
        .filter(|(n, _)| !occupied(**n))
        .map(|(n, (mp, _))| (*n, *mp))
        .max_by_key(|(_, mp)| *mp)
        .unwrap();
    let p = h.state().map.hex_screen_pos(target).unwrap();
    click_at(&mut h, p);
    assert_eq!(
        unit_hex(&h, "10-me"),
        Some(target),
        "{:?} {:?}",
        h.state().session.last_refusal,
        h.state().session.book().unwrap().log
    );
    let moved = h.state().session.state().unwrap().units[&id("10-me")].moved;
    assert_eq!(moved.mp, cost);
    // The unit stays selected, its reach now from the new hex.
    assert_eq!(h.state().map.reach().unwrap().start, target);
}

#[test]
fn a_facing_button_turns_the_unit() {
    let mut h = test_battle_rendered();
    end_phase(&mut h);
    let at = h.state().map.counter_rect(&id("10-me")).unwrap().center();
    click_at(&mut h, at);
    h.get_by_label("⬇ south").click();
    h.run();
    let u = &h.state().session.state().unwrap().units[&id("10-me")];
    let orientation = muster_shared::gbacw::map::Orientation::Flat;
    assert_eq!(u.facing.name(orientation), "s");
}

#[test]
fn a_move_the_rules_refuse_is_shown_with_its_case() {
    let mut h = test_battle_rendered();
    // Still the Initial Command Phase: moving is refused, with the rule.
    h.state_mut()
        .session
        .act(muster_shared::gbacw::ruleset::GbacwAction::Move {
            pieces: vec![id("10-me")],
            path: vec![hex("0307")],
        });
    h.run();
    let refusal = h.state().session.last_refusal.clone().unwrap();
    assert!(refusal.contains("GBACW"), "{refusal}");
    // In the status bar and in the log.
    assert!(h.query_all_by_label(refusal.as_str()).count() >= 1);
}

#[test]
fn a_rendered_gbacw_map_shows_terrain_and_counters() {
    let mut h = test_battle_rendered();
    let image = h.render().expect("headless wgpu renders");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("gbacw_map.png");
    image.save(&path).unwrap();
    eprintln!("screenshot: {}", path.display());

    let ppp = image.width() as f32 / SIZE.x;
    let pixel = |p: Pos2| image.get_pixel((p.x * ppp) as u32, (p.y * ppp) as u32).0;
    let near =
        |px: [u8; 4], want: [u8; 4]| px.iter().zip(want).take(3).all(|(a, b)| a.abs_diff(b) < 14);

    // Not blank.
    let distinct: std::collections::BTreeSet<[u8; 4]> = image.pixels().map(|p| p.0).collect();
    assert!(distinct.len() > 50, "only {} colours", distinct.len());

    // The map area shows several distinct terrain colours, each where the
    // map file puts it (sampled a little left of the centre, clear of hex
    // numbers, roads and names).
    let app = h.state();
    let zoom = app.map.camera().unwrap().zoom;
    let off = vec2(-0.45, 0.1) * muster_client::app::hexgrid::HEX_SIZE * zoom;
    let samples = [
        ("0101", Terrain::Clear),
        ("0303", Terrain::Woods),
        ("1002", Terrain::Lake),
        ("0208", Terrain::Swamp),
        ("0707", Terrain::Corn),
    ];
    let mut seen = std::collections::BTreeSet::new();
    for (n, t) in samples {
        let p = app.map.hex_screen_pos(hex(n)).unwrap() + off;
        let px = pixel(p);
        let want = shade(terrain_colour(t), 0).to_array();
        assert!(near(px, want), "{n} {t:?}: pixel {px:?}, expected {want:?}");
        seen.insert(px);
    }
    assert_eq!(seen.len(), samples.len(), "distinct terrain colours");

    // The higher ground is shaded: the knoll (level 2) is not plain clear.
    let knoll = pixel(app.map.hex_screen_pos(hex("1108")).unwrap() + off);
    assert!(
        near(knoll, shade(terrain_colour(Terrain::Clear), 2).to_array()),
        "{knoll:?}"
    );

    // A counter is where the state puts it: 10th Maine's Union blue at 0306.
    let state_hex = app.session.state().unwrap().units[&id("10-me")].hex;
    assert_eq!(state_hex, Some(hex("0306")));
    let r = app.map.counter_rect(&id("10-me")).unwrap();
    let c = app.map.hex_screen_pos(hex("0306")).unwrap();
    assert!(r.contains(c), "the counter is drawn on its hex");
    let px = pixel(r.left_center() + vec2(r.width() * 0.1, 0.0));
    let union = muster_client::app::counter::seat_colour(Some(SeatId(0))).to_array();
    assert!(
        near(px, union),
        "pixel {px:?} at the counter, expected {union:?}"
    );
}

#[test]
fn hovering_a_stack_fans_it_out() {
    let mut h = test_battle_rendered();
    // Williams, Crawford and the 5th Connecticut share 0305.
    let c = h.state().map.hex_screen_pos(hex("0305")).unwrap();
    h.hover_at(c);
    h.run();
    assert_eq!(h.state().map.fanned(), Some(hex("0305")));
    let rects: Vec<egui::Rect> = ["williams", "crawford", "5-conn"]
        .iter()
        .map(|c| h.state().map.counter_rect(&id(c)).unwrap())
        .collect();
    // Side by side, none covering another.
    for (i, a) in rects.iter().enumerate() {
        for b in &rects[i + 1..] {
            assert!(!a.shrink(1.0).intersects(b.shrink(1.0)), "{a:?} {b:?}");
        }
    }
}

/// End phases (each seat for itself, as at a hot-seat table) until the
/// clock reaches `want`; bounded.
fn advance_to(h: &mut Harness<'_, GbacwApp>, turn: u16, want: Step) {
    use muster_shared::gbacw::ruleset::GbacwAction;
    for _ in 0..200 {
        let state = h.state().session.state().unwrap().clone();
        if state.clock.turn == turn && state.clock.step == want {
            return;
        }
        let seat = h
            .state()
            .session
            .ruleset()
            .unwrap()
            .acting_seat(&state)
            .unwrap();
        h.state_mut()
            .session
            .set_active(muster_shared::Viewer::Seat(seat));
        h.state_mut().session.act(GbacwAction::EndPhase);
        h.run();
        let refused = h.state().session.last_refusal.clone().unwrap_or_default();
        if refused.contains("17.52") {
            leaders_join_their_units(h);
        }
    }
    let app = h.state();
    panic!(
        "never reached {want:?} of Game-Turn {turn}: at {:?}, {:?}",
        app.session.state().unwrap().clock,
        app.session.last_refusal
    );
}

/// GBACW 17.52: the acting side's lone leaders join friendly units.
fn leaders_join_their_units(h: &mut Harness<'_, GbacwApp>) {
    let moves = {
        let app = h.state();
        let seat = app
            .session
            .ruleset()
            .unwrap()
            .acting_seat(app.session.state().unwrap())
            .unwrap();
        support::gbacw::leaders_to_join(app, seat)
    };
    for m in moves {
        h.state_mut().session.act(m);
        h.run();
    }
}

#[test]
fn withdrawal_fire_is_a_prompt_with_its_default_and_the_view_follows_it() {
    use muster_shared::gbacw::ruleset::GbacwAction;
    let mut h = test_battle_rendered();
    let movement = |player| Step::Phase {
        player,
        phase: Phase::Movement,
    };
    advance_to(&mut h, 1, movement(PlayerTurn::First));
    // The 10th Virginia (0805, line, facing nw) holds 0804, 0705 and 0706
    // in its Zone of Control. Find a Union unit that can get there now.
    let zoc = [hex("0804"), hex("0705"), hex("0706")];
    let (unit, path) = {
        let app = h.state();
        let rules = app.session.ruleset().unwrap();
        let state = app.session.state().unwrap();
        let union = &rules.game().seats[0];
        state
            .units
            .keys()
            .filter(|u| rules.game().oob.units[*u].side == *union)
            .find_map(|u| {
                let reach = rules.reachable(state, u)?;
                let to = zoc.iter().find(|z| reach.cost(**z).is_some())?;
                Some((u.clone(), reach.path_to(*to)?[1..].to_vec()))
            })
            .expect("a Union unit reaches the 10th Virginia's ZOC")
    };
    h.state_mut().session.act(GbacwAction::Move {
        pieces: vec![unit.clone()],
        path: path.clone(),
    });
    h.run();
    assert_eq!(unit_hex(&h, unit.0.as_str()), path.last().copied());
    // Next Game-Turn's Union Movement Phase: leave the ZOC.
    advance_to(&mut h, 2, movement(PlayerTurn::First));
    h.state_mut()
        .session
        .set_active(muster_shared::Viewer::Seat(SeatId(0)));
    let back = {
        let app = h.state();
        let rules = app.session.ruleset().unwrap();
        let reach = rules
            .reachable(app.session.state().unwrap(), &unit)
            .unwrap();
        let away = reach
            .hexes
            .keys()
            .find(|n| !zoc.contains(n) && **n != reach.start)
            .copied()
            .unwrap();
        reach.path_to(away).unwrap()[1..].to_vec()
    };
    h.state_mut().session.act(GbacwAction::Move {
        pieces: vec![unit.clone()],
        path: back,
    });
    h.run();
    assert!(
        h.state().session.state().unwrap().decision.is_some(),
        "{:?}",
        h.state().session.book().unwrap().log
    );
    // At a hot-seat table the view goes to the seat the decision waits
    // on, and no countdown runs (nobody waits on an absent player).
    assert_eq!(
        h.state().session.active(),
        muster_shared::Viewer::Seat(SeatId(1))
    );
    h.get_by_label_contains("Your turn: Confederate");
    assert!(
        h.query_by_label_contains("s left, then the default applies")
            .is_none()
    );
    // Looking through the Union's eyes: the prompt, and waiting.
    h.state_mut()
        .session
        .set_active(muster_shared::Viewer::Seat(SeatId(0)));
    h.run();
    h.get_by_label_contains("Decision for Confederate (GBACW 10.1)");
    h.get_by_label("Default: decline withdrawal fire");
    h.get_by_label("waiting for the other player");
    // The Confederate player answers with the one legal answer.
    h.state_mut()
        .session
        .set_active(muster_shared::Viewer::Seat(SeatId(1)));
    h.run();
    h.get_by_label("decline withdrawal fire").click();
    h.run();
    let state = h.state().session.state().unwrap();
    assert!(state.decision.is_none());
    assert_ne!(
        state.units[&unit].hex,
        path.last().copied(),
        "the move went on"
    );
}

#[test]
fn sight_and_range_preview_from_the_selected_unit() {
    use muster_shared::gbacw::los::{Los, Obstacle};
    let mut h = test_battle_rendered();
    let at = h.state().map.counter_rect(&id("10-me")).unwrap().center();
    click_at(&mut h, at);
    h.get_by_label(muster_client::app::gbacw::SIGHT_TOGGLE)
        .click();
    h.run();
    assert!(h.state().map.sight);
    // Two hexes south over open ground: clear, in rifle range, but behind
    // the 10th Maine's front (it faces ne: 7.22).
    let p = h.state().map.hex_screen_pos(hex("0308")).unwrap();
    h.hover_at(p);
    h.run();
    let s = h.state().map.sight_preview().cloned().expect("a preview");
    assert_eq!((s.from, s.to, s.range), (hex("0306"), hex("0308"), 2));
    assert_eq!(s.los, Los::Clear);
    assert!(s.multiplier.is_some(), "{s:?}");
    assert!(!s.frontal);
    // East across the stream: the town at 0506 is in the way (9.7).
    let p = h.state().map.hex_screen_pos(hex("0706")).unwrap();
    h.hover_at(p);
    h.run();
    let s = h.state().map.sight_preview().cloned().expect("a preview");
    assert_eq!(s.range, 4);
    assert_eq!(s.los, Los::Blocked(Obstacle::Hex(hex("0506"))));
    let image = h.render().expect("headless wgpu renders");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    image.save(dir.join("gbacw_sight.png")).unwrap();
}

#[test]
fn select_a_whole_stack_and_move_it_together() {
    let mut h = test_battle_rendered();
    end_phase(&mut h);
    // Williams, Crawford and the 5th Connecticut share 0305: hover to fan
    // the stack, click the regiment, then take the whole stack.
    let c = h.state().map.hex_screen_pos(hex("0305")).unwrap();
    h.hover_at(c);
    h.run();
    let at = h.state().map.counter_rect(&id("5-conn")).unwrap().center();
    click_at(&mut h, at);
    assert_eq!(h.state().map.selected(), &[id("5-conn")]);
    h.get_by_label(muster_client::app::gbacw::SELECT_STACK)
        .click();
    h.run();
    let mut sel = h.state().map.selected().to_vec();
    sel.sort();
    assert_eq!(sel, [id("5-conn"), id("crawford"), id("williams")]);
    // The reach shown is the lead regiment's; one hex on, empty.
    let state = h.state().session.state().unwrap().clone();
    let reach = h.state().map.reach().cloned().unwrap();
    let target = *reach
        .hexes
        .keys()
        .find(|n| {
            **n != reach.start
                && reach.path_to(**n).is_some_and(|p| p.len() == 2)
                && !state.units.values().any(|u| u.hex == Some(**n))
                && !state.leaders.values().any(|l| l.hex == Some(**n))
        })
        .unwrap();
    let p = h.state().map.hex_screen_pos(target).unwrap();
    click_at(&mut h, p);
    let state = h.state().session.state().unwrap();
    assert_eq!(
        state.units[&id("5-conn")].hex,
        Some(target),
        "{:?}",
        h.state().session.last_refusal
    );
    assert_eq!(state.leaders[&id("williams")].hex, Some(target));
    assert_eq!(state.leaders[&id("crawford")].hex, Some(target));
}

/// GBACW 9.0, 9.42 through the UI: a Union unit closes on the enemy,
/// faces it, and in the Offensive Fire Phase the Orders panel offers
/// "fire at" with the CRT column explained; clicked, the attack is
/// declared, listed, and rolled when the phase ends.
#[test]
fn a_fire_order_is_declared_explained_and_rolled_at_the_phase_end() {
    use muster_client::app::gbacw::orders::DECLARED;
    use muster_client::app::narrate::Narrate;
    use muster_shared::engine::Ruleset;
    use muster_shared::gbacw::facing::Facing;
    use muster_shared::gbacw::ruleset::GbacwAction;
    let mut h = test_battle_rendered();
    let movement = Step::Phase {
        player: PlayerTurn::First,
        phase: Phase::Movement,
    };
    advance_to(&mut h, 1, movement);
    // A Union unit that can reach an empty hex next to an enemy unit.
    let (unit, path, at, enemy) = support::gbacw::closing_move(h.state());
    h.state_mut().session.act(GbacwAction::Move {
        pieces: vec![unit.clone()],
        path,
    });
    h.run();
    // Withdrawal fire offered on the way: the Confederates decline.
    if h.state().session.state().unwrap().decision.is_some() {
        h.state_mut()
            .session
            .set_active(muster_shared::Viewer::Seat(SeatId(1)));
        h.state_mut()
            .session
            .act(GbacwAction::DeclineWithdrawalFire);
        h.run();
        h.state_mut()
            .session
            .set_active(muster_shared::Viewer::Seat(SeatId(0)));
    }
    assert_eq!(unit_hex(&h, &unit.0), Some(at), "{unit} closed on {enemy}");
    let facing = {
        let rules = h.state().session.ruleset().unwrap();
        Facing::new(rules.game().map.grid.direction(at, enemy).unwrap())
    };
    h.state_mut().session.act(GbacwAction::Face {
        unit: unit.clone(),
        facing,
    });
    h.run();
    advance_to(
        &mut h,
        1,
        Step::Phase {
            player: PlayerTurn::First,
            phase: Phase::OffensiveFire,
        },
    );
    h.state_mut()
        .session
        .set_active(muster_shared::Viewer::Seat(SeatId(0)));
    h.state_mut().map.select(vec![unit.clone()]);
    h.run();
    let label = {
        let app = h.state();
        let rules = app.session.ruleset().unwrap();
        let state = app.session.state().unwrap();
        let fire = rules
            .legal_actions(state, SeatId(0))
            .into_iter()
            .find(|a| {
                matches!(a, GbacwAction::DeclareFire { target, firers }
                    if *target == enemy && firers.iter().any(|f| f.unit == unit))
            })
            .expect("the engine offers the fire");
        rules.describe_action(&fire)
    };
    // Hovering the order draws its line of fire on the map: clear (9.7),
    // next door (9.23: range 1).
    h.get_by_label(&label).hover();
    h.run();
    let lines = h.state().map.fire_sights().to_vec();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!((lines[0].from, lines[0].to, lines[0].range), (at, enemy, 1));
    assert_eq!(lines[0].los, muster_shared::gbacw::los::Los::Clear);
    h.get_by_label(&label).click();
    h.run();
    assert_eq!(h.state().session.state().unwrap().fire_plan.len(), 1);
    // The declared attack's line shows when its entry is hovered.
    h.get_by_label_contains(&format!("1. at {enemy} by"))
        .hover();
    h.run();
    assert_eq!(h.state().map.fire_sights().len(), 1);
    h.get_by_label(DECLARED);
    h.get_by_label_contains("column");
    end_phase(&mut h);
    let state = h.state().session.state().unwrap();
    assert!(
        state.fire_plan.is_empty(),
        "9.42: rolled as the phase ended"
    );
    // The roll is in the dice panel with its verified tick.
    let verified = h
        .query_all_by_label_contains(muster_client::app::dice::VERIFIED_TEXT)
        .count();
    assert!(verified >= 1, "the fire's roll verified");
    assert_eq!(h.state().session.bad_roll_count(), 0);
    let state = h.state().session.state().unwrap();
    assert_eq!(
        state.clock.step,
        Step::Phase {
            player: PlayerTurn::First,
            phase: Phase::RetreatBeforeMelee
        }
    );
}
