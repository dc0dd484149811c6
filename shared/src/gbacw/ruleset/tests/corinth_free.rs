//! Corinth's Free Set-Up Scenario (29.0): the secret assault plan (29.2,
//! 29.21-29.27), its commitment and redaction, the Union set-up limits
//! (29.41, 29.44, 29.46), the divisions entering by the plan (29.3).

use super::*;
use crate::gbacw::ruleset::plan::{AssaultPlan, PlannedDivision, commitment};
use crate::gbacw::testkit::corinth::assault_plan;
pub(super) use crate::gbacw::testkit::corinth::division as div;
use crate::ids::Viewer;

fn free() -> T {
    T::battle("corinth_free")
}

/// Hebert through C and Maury through D on Game-Turn 1, Lovell through
/// F on Game-Turn 4.
pub(super) fn a_plan() -> AssaultPlan {
    let divisions = vec![
        div("hebert", "assault-c", 1),
        div("maury", "assault-d", 1),
        div("lovell", "assault-f", 4),
    ];
    assault_plan(divisions, "hebert", "assault-f")
}

const SALT: [u8; 32] = [7; 32];

fn plot(plan: AssaultPlan, announce: &str) -> GbacwAction {
    GbacwAction::PlotAssault {
        plan,
        salt: SALT,
        announce: id(announce),
    }
}

#[test]
fn corinth_29_0_the_confederate_plots_first_then_the_union_sets_up() {
    let mut t = free();
    assert_eq!(t.rs.acting_seat(&t.s), Some(REBEL));
    t.refused(UNION, GbacwAction::EndSetUp, "Corinth 29.2");
    t.ok(REBEL, plot(a_plan(), "hebert"));
    assert_eq!(t.rs.acting_seat(&t.s), Some(UNION));
    t.ok(UNION, GbacwAction::EndSetUp);
    // 29.0 step 4: the Confederate Player-Turn of Game-Turn 1.
    assert_eq!(t.s.clock.turn, 1);
    assert_eq!(t.rs.acting_seat(&t.s), Some(REBEL));
}

fn refused_plan(plan: AssaultPlan, announce: &str, rule: &str) {
    free().refused(REBEL, plot(plan, announce), rule);
}

#[test]
fn corinth_29_21_one_division_on_game_turn_1_lovell_held_back_first_different_areas() {
    let mut p = a_plan();
    for d in &mut p.divisions {
        d.turn = 3;
    }
    refused_plan(p, "hebert", "Corinth 29.21");
    // Maury held back but Lovell not.
    let mut p = a_plan();
    p.divisions[1].turn = 3;
    p.divisions[2] = div("lovell", "assault-e", 1);
    refused_plan(p, "hebert", "Corinth 29.21");
    // Two divisions on one turn through one area.
    let mut p = a_plan();
    p.divisions[1].area = id("assault-c");
    refused_plan(p, "hebert", "Corinth 29.21");
    // All three on Game-Turn 1 is allowed.
    let mut p = a_plan();
    p.divisions[2] = div("lovell", "assault-e", 1);
    p.cavalry.values_mut().for_each(|a| *a = id("assault-e"));
    free().ok(REBEL, plot(p, "lovell"));
}

#[test]
fn corinth_29_22_area_f_from_game_turn_3_g_from_5_and_29_24_all_in_by_8() {
    let mut p = a_plan();
    p.divisions[2].turn = 2;
    refused_plan(p.clone(), "hebert", "Corinth 29.22");
    p.divisions[2] = div("lovell", "assault-g", 4);
    refused_plan(p.clone(), "hebert", "Corinth 29.22");
    p.divisions[2] = div("lovell", "assault-g", 9);
    refused_plan(p.clone(), "hebert", "Corinth 29.24");
    p.divisions[2] = div("lovell", "assault-g", 5);
    p.cavalry.values_mut().for_each(|a| *a = id("assault-g"));
    free().ok(REBEL, plot(p, "hebert"));
}

#[test]
fn corinth_29_23_the_announced_division_enters_on_game_turn_1() {
    refused_plan(a_plan(), "lovell", "Corinth 29.23");
    refused_plan(a_plan(), "price", "Corinth 29.23");
    let mut t = free();
    t.ok(REBEL, plot(a_plan(), "maury"));
    let a = t.s.progress.assault.as_ref().unwrap();
    assert_eq!(a.announced, div("maury", "assault-d", 1));
}

#[test]
fn corinth_29_25_each_division_plotted_once_through_one_area() {
    let mut p = a_plan();
    p.divisions.push(div("hebert", "assault-a", 1));
    refused_plan(p, "hebert", "Corinth 29.2");
    let mut p = a_plan();
    p.divisions.pop();
    refused_plan(p, "hebert", "Corinth 29.2");
    let mut p = a_plan();
    p.divisions[0].area = id("assault-x");
    refused_plan(p, "hebert", "Corinth 29.1");
}

#[test]
fn corinth_29_26_hoxton_sengstak_price_and_van_dorn_go_with_hebert_or_maury() {
    let mut p = a_plan();
    p.attached.insert(id("price"), id("lovell"));
    refused_plan(p, "hebert", "Corinth 29.26");
    let mut p = a_plan();
    p.attached.remove(&id("van-dorn"));
    refused_plan(p, "hebert", "Corinth 29.26");
}

#[test]
fn corinth_29_27_cavalry_waits_at_an_area_a_division_uses() {
    let mut p = a_plan();
    p.cavalry.insert(id("2-mo-cav"), id("assault-a"));
    refused_plan(p, "hebert", "Corinth 29.27");
    let mut p = a_plan();
    p.cavalry.insert(id("2-mo-cav"), id("assault-c"));
    free().ok(REBEL, plot(p, "hebert"));
}

#[test]
fn corinth_29_2_the_secret_corinth_plan_does_not_reach_the_union_seat_or_a_spectator_before_arrival_and_the_committed_hash_verifies_after()
 {
    let mut t = free();
    let before = t.s.clone();
    let events = t.ok(REBEL, plot(a_plan(), "hebert"));
    let plotted = &events[0];
    let mut sorted = a_plan();
    sorted.divisions.sort();
    let hash = commitment(&sorted, &SALT);
    // The event as each viewer receives it.
    let union =
        t.rs.view_event(&before, plotted, Viewer::Seat(UNION))
            .unwrap();
    let spectator =
        t.rs.view_event(&before, plotted, Viewer::Spectator)
            .unwrap();
    let rebel =
        t.rs.view_event(&before, plotted, Viewer::Seat(REBEL))
            .unwrap();
    for redacted in [&union, &spectator] {
        let GbacwEvent::AssaultPlotted {
            commitment: c,
            plan,
            salt,
            announced,
        } = redacted
        else {
            panic!("{redacted:?}")
        };
        assert_eq!((*c, plan, salt), (hash, &None, &None));
        // 29.23: the announced division is public.
        assert_eq!(*announced, div("hebert", "assault-c", 1));
        // Nothing of the plan in the bytes sent: no area but the announced.
        let bytes = crate::codec::encode_infallible(redacted);
        for secret in ["assault-d", "assault-f", "lovell", "maury"] {
            assert!(
                !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
                "{secret}"
            );
        }
    }
    assert!(matches!(
        &rebel,
        GbacwEvent::AssaultPlotted {
            plan: Some(_),
            salt: Some(_),
            ..
        }
    ));
    // The state each viewer holds; the fold commutes with the redaction.
    for v in [Viewer::Seat(UNION), Viewer::Spectator] {
        let seen = t.rs.view(&t.s, v);
        let a = seen.progress.assault.as_ref().unwrap();
        assert_eq!((&a.plan, &a.salt, a.commitment), (&None, &None, hash));
        let mut folded = t.rs.view(&before, v);
        t.rs.evolve(&mut folded, &t.rs.view_event(&before, plotted, v).unwrap());
        assert_eq!(folded, seen);
    }
    assert!(
        t.rs.view(&t.s, Viewer::Seat(REBEL))
            .progress
            .assault
            .unwrap()
            .plan
            .is_some()
    );
    // Play to Game-Turn 1: Hebert arrives through C, revealing his entry and
    // nothing else.
    t.ok(UNION, GbacwAction::EndSetUp);
    t.advance_to(REBEL, Phase::Movement);
    t.refused(REBEL, arrive("6-miss", "0115"), "Corinth 29.31");
    t.refused(REBEL, arrive("16-ark", "0103"), "Corinth 29.31");
    let before = t.s.clone();
    let events = t.ok(REBEL, arrive("16-ark", "1201"));
    assert!(events.contains(&GbacwEvent::DivisionRevealed(div("hebert", "assault-c", 1))));
    let seen = t.rs.view(&t.s, Viewer::Seat(UNION));
    let a = seen.progress.assault.as_ref().unwrap();
    assert!(a.plan.is_none() && !a.opened);
    assert_eq!(a.revealed, vec![div("hebert", "assault-c", 1)]);
    let mut folded = t.rs.view(&before, Viewer::Seat(UNION));
    for e in &events {
        t.rs.evolve(
            &mut folded,
            &t.rs.view_event(&before, e, Viewer::Seat(UNION)).unwrap(),
        );
    }
    assert_eq!(folded, seen);
    // Maury, then Lovell on Game-Turn 4: the last reveal opens the plan.
    t.ok(REBEL, arrive("42-ala", "0103"));
    while t.s.clock.turn < 4 {
        let actor = t.rs.acting_seat(&t.s).unwrap();
        t.ok(actor, GbacwAction::EndPhase);
    }
    t.advance_to(REBEL, Phase::Movement);
    let events = t.ok(REBEL, arrive("6-miss", "0140"));
    let Some(GbacwEvent::PlanOpened { plan, salt }) = events
        .iter()
        .find(|e| matches!(e, GbacwEvent::PlanOpened { .. }))
    else {
        panic!("{events:?}")
    };
    // Anyone can check the opened plan against the commitment logged first.
    assert_eq!(commitment(plan, salt), hash);
    let seen = t.rs.view(&t.s, Viewer::Spectator);
    assert_eq!(seen.progress.assault.unwrap().plan, Some(sorted));
}

/// A placement in line (the kit's [`super::place`]).
fn place(unit: &str, hex: &str) -> GbacwAction {
    super::place(unit, hex, Formation::Line)
}

#[test]
fn corinth_29_41_no_union_unit_within_4_hexes_of_an_assault_area_but_inside_the_works() {
    let mut t = free();
    t.ok(REBEL, plot(a_plan(), "hebert"));
    // The rule's example: Battery E (0527) yes, 0426 no; 2802 inside the
    // outer works yes.
    t.decide(
        UNION,
        &super::place("i-1-mo-b", "0527", Formation::Unlimbered),
    )
    .unwrap();
    t.refused(UNION, place("48-ind", "0426"), "Corinth 29.41");
    t.decide(UNION, &place("48-ind", "2802")).unwrap();
    t.refused(UNION, place("48-ind", "2803"), "Corinth 29.41");
    // 29.46: the sharpshooters within ten hexes of the Hotel.
    t.decide(UNION, &place("64-ill-ss", "2430")).unwrap();
    t.refused(UNION, place("64-ill-ss", "2420"), "Corinth 29.46");
}

#[test]
fn corinth_29_4_the_default_union_deployment_keeps_29_41() {
    let mut t = free();
    t.ok(REBEL, plot(a_plan(), "hebert"));
    t.ok(UNION, GbacwAction::EndSetUp);
    let map = &t.rs.game().map;
    for (u, s) in &t.s.units {
        let Some(h) = s.hex else { continue };
        assert!(
            crate::gbacw::corinth::setup::hex_allowed_29_41(map, h),
            "{u} at {h}"
        );
    }
}

#[test]
fn corinth_29_41_no_union_unit_moves_within_4_hexes_until_all_three_divisions_are_in() {
    use crate::gbacw::corinth::setup::hex_allowed_29_41;
    let mut t = free();
    t.ok(REBEL, plot(a_plan(), "hebert"));
    t.ok(UNION, GbacwAction::EndSetUp);
    t.advance_to(UNION, Phase::Movement);
    // A free hex 29.41 allows next to one it does not, down column 20.
    let map = t.rs.game().map.clone();
    let empty = |t: &T, h: HexNumber| t.s.units.values().all(|u| u.hex != Some(h));
    let (from, to) = (2..30u8)
        .filter_map(|r| Some((HexNumber::new(20, r + 1)?, HexNumber::new(20, r)?)))
        .find(|(a, b)| {
            hex_allowed_29_41(&map, *a)
                && !hex_allowed_29_41(&map, *b)
                && empty(&t, *a)
                && empty(&t, *b)
        })
        .unwrap();
    t.put("48-ind", &from.to_string(), "n", Formation::Column);
    t.refused(UNION, mv(&["48-ind"], &[&to.to_string()]), "Corinth 29.41");
    // The reach (the client's lit hexes, 17.52's "he can reach") offers
    // no hex the move would be refused, nor any path through one.
    let unit = CounterId("48-ind".into());
    let reach = t.rs.reachable(&t.s, &unit).unwrap();
    for h in reach.hexes.keys() {
        let path = reach.path_to(*h).unwrap();
        assert!(
            path[1..].iter().all(|x| hex_allowed_29_41(&map, *x)),
            "the reach offers {h} by {path:?}"
        );
    }
    // Once every division has entered, it may.
    let all: Vec<PlannedDivision> = a_plan().divisions;
    t.s.progress.assault.as_mut().unwrap().revealed = all;
    assert!(t.rs.reachable(&t.s, &unit).unwrap().hexes.contains_key(&to));
    t.mv(UNION, &["48-ind"], &[&to.to_string()]);
}

#[test]
fn corinth_29_43_the_hotel_brigades_wait_four_turns_after_the_first_combat() {
    use crate::gbacw::ruleset::corinth::restraint::{held, hotel_frozen};
    let mut t = free();
    t.ok(REBEL, plot(a_plan(), "hebert"));
    // Baldwin's brigade by the Hotel.
    for (u, h) in [("7-ill", "2430"), ("50-ill", "2431"), ("57-ill", "2432")] {
        t.ok(UNION, place(u, h));
    }
    let events = t.ok(UNION, GbacwAction::EndSetUp);
    let Some(GbacwEvent::BrigadesFrozen { brigades }) = events
        .iter()
        .find(|e| matches!(e, GbacwEvent::BrigadesFrozen { .. }))
    else {
        panic!("{events:?}")
    };
    let hotel = n("2437");
    let grid = &t.rs.game().map.grid;
    // Every frozen brigade's infantry and cavalry stand within 10 hexes.
    for b in brigades {
        for u in t.rs.game().oob.brigade_units(b) {
            if let Some(h) = t.s.units[&u.id].hex
                && matches!(u.kind, crate::gbacw::oob::UnitKind::Infantry)
            {
                assert!(grid.distance(h, hotel) <= 10, "{} at {h}", u.id);
            }
        }
    }
    let b = brigades
        .iter()
        .next()
        .expect("the default set-up freezes some")
        .clone();
    let unit = t.rs.game().oob.brigade_units(&b).next().unwrap().id.clone();
    assert!(hotel_frozen(&t.rs, &t.s, &unit));
    let (rule, _) = held(&t.rs, &t.s, &unit).unwrap();
    assert_eq!(rule, "Corinth 29.43");
    // First combat on Game-Turn 2: active on Game-Turn 6, not 5.
    t.s.progress.first_combat = Some(2);
    t.s.clock.turn = 5;
    assert!(hotel_frozen(&t.rs, &t.s, &unit));
    t.s.clock.turn = 6;
    assert!(!hotel_frozen(&t.rs, &t.s, &unit));
    // An attack on any of their units activates them all at once.
    t.s.clock.turn = 3;
    t.advance_to(REBEL, Phase::OffensiveFire);
    let target = t.s.units[&unit].hex.unwrap();
    let at =
        t.rs.game()
            .map
            .grid
            .neighbours_on_map(target)
            .into_iter()
            .map(|(_, h)| h)
            .find(|h| t.s.units.values().all(|u| u.hex != Some(*h)))
            .unwrap();
    t.put("6-miss", &at.to_string(), "n", Formation::Line);
    t.face_towards("6-miss", &target.to_string());
    let events = t.ok(
        REBEL,
        GbacwAction::DeclareFire {
            target,
            firers: vec![crate::gbacw::ruleset::state::FireShare {
                unit: id("6-miss"),
                points: 1,
            }],
        },
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e, GbacwEvent::BrigadesThawed { .. }))
    );
    assert!(!hotel_frozen(&t.rs, &t.s, &unit));
}

/// The client's plotting panel checks a draft with `Gbacw::check_plot`:
/// the same answer, and the same case, as the `PlotAssault` it would send.
#[test]
fn corinth_29_2_check_plot_agrees_with_the_plot_itself() {
    let t = free();
    assert_eq!(t.rs.plot_seat(&t.s), Some(REBEL));
    let mut f_on_1 = a_plan();
    f_on_1.divisions[2] = div("lovell", "assault-f", 1);
    let mut lovell_first = a_plan();
    lovell_first.attached.insert(id("price"), id("lovell"));
    let drafts = [
        (a_plan(), "hebert", None),
        (a_plan(), "lovell", Some("Corinth 29.23")),
        (f_on_1, "hebert", Some("Corinth 29.22")),
        (lovell_first, "hebert", Some("Corinth 29.26")),
    ];
    for (plan, announce, want) in drafts {
        let checked = t.rs.check_plot(&t.s, REBEL, &plan, &id(announce));
        assert_eq!(
            checked.as_ref().err().map(|e| e.rule.as_str()),
            want,
            "{checked:?}"
        );
        match want {
            None => {
                free().ok(REBEL, plot(plan, announce));
            }
            Some(rule) => refused_plan(plan, announce, rule),
        }
    }
    // The Union seat may not plot; and once plotted there is nothing to plot.
    assert!(
        t.rs.check_plot(&t.s, UNION, &a_plan(), &id("hebert"))
            .is_err()
    );
    let mut t = free();
    t.ok(REBEL, plot(a_plan(), "hebert"));
    assert_eq!(t.rs.plot_seat(&t.s), None);
}
