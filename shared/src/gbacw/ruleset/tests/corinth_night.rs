//! Corinth 26 (night, stragglers, BCE recovery, the pre-dawn barrage),
//! 28 (command structure, leader replacement), 21.2 and 21.43/21.44 on
//! the Historical Scenario. Tests named `corinth_N_NN_…` test that case.

#[allow(unused_imports)] // the names this file had before the test kit
use super::corinth::{give, started, to_turn};
use super::*;
use crate::gbacw::oob::Marker;
use crate::gbacw::ruleset::decide::movement::mover;

// The night's positions come from the shared test kit; `barrage_on_21_mo`
// stays reachable here for the other files.
#[allow(unused_imports)]
pub(super) use crate::gbacw::testkit::corinth::{
    barrage_on_21_mo, bryan_fires, night_game, to_barrage,
};

/// A woods hex of the map, and a clear one.
fn woods_and_clear(t: &T) -> (HexNumber, HexNumber) {
    use crate::gbacw::map::Terrain;
    let map = &t.rs.game().map;
    let woods = map
        .hexes()
        .find(|(_, h)| h.has(Terrain::Woods) && h.terrain.len() == 1)
        .map(|(n, _)| n)
        .expect("a woods hex");
    let clear = map
        .hexes()
        .find(|(_, h)| h.has(Terrain::Clear) && h.terrain.len() == 1)
        .map(|(n, _)| n)
        .expect("a clear hex");
    (woods, clear)
}

#[test]
fn corinth_26_11_at_night_movement_allowances_are_half_again() {
    let mut t = night_game();
    to_turn(&mut t, 16);
    let union = id("union");
    let day = mover(&t.rs, &t.s, &union, &id("21-mo")).unwrap();
    assert_eq!(day.allowance, Mp::from_whole(6));
    let lead = mover(&t.rs, &t.s, &union, &id("mcarthur")).unwrap();
    assert_eq!(lead.allowance, Mp::from_whole(12));
    to_turn(&mut t, 17);
    assert!(!t.s.over);
    // "an infantry regiment would have an allowance of 9 at night, instead of 6"
    let night = mover(&t.rs, &t.s, &union, &id("21-mo")).unwrap();
    assert_eq!(night.allowance, Mp::from_whole(9));
    let lead = mover(&t.rs, &t.s, &union, &id("mcarthur")).unwrap();
    assert_eq!(lead.allowance, Mp::from_whole(18));
    // Day 2 is daylight again.
    to_turn(&mut t, 21);
    let day2 = mover(&t.rs, &t.s, &union, &id("21-mo")).unwrap();
    assert_eq!(day2.allowance, Mp::from_whole(6));
}

#[test]
fn corinth_26_12_at_night_woods_cost_one_more_movement_point() {
    use crate::gbacw::ruleset::corinth::night::step_cost;
    let mut t = night_game();
    let (woods, clear) = woods_and_clear(&t);
    // "it costs an infantry regiment in column 3 points to enter a woods
    // hex at night, as opposed to the usual cost of 2"
    to_turn(&mut t, 16);
    assert_eq!(
        step_cost(&t.rs, &t.s, woods, Mp::from_whole(2)),
        Mp::from_whole(2)
    );
    to_turn(&mut t, 17);
    assert_eq!(
        step_cost(&t.rs, &t.s, woods, Mp::from_whole(2)),
        Mp::from_whole(3)
    );
    assert_eq!(
        step_cost(&t.rs, &t.s, clear, Mp::from_whole(1)),
        Mp::from_whole(1)
    );
    // Through the move's own check: 21 Mo in column steps into woods.
    t.advance_to(UNION, Phase::Movement);
    let from = t.hex("21-mo").unwrap();
    let board = crate::gbacw::ruleset::board::Board::new(&t.rs, &t.s);
    let union = id("union");
    let zocs = crate::gbacw::ruleset::decide::movement::Zocs::new(&board, &union);
    let mut m = mover(&t.rs, &t.s, &union, &id("21-mo")).unwrap();
    m.class = crate::gbacw::charts::MoveClass::Column;
    let into_woods =
        t.rs.game()
            .map
            .grid
            .neighbours_on_map(from)
            .into_iter()
            .map(|(_, h)| h)
            .find(|h| {
                t.rs.game().map.hex(*h).is_some_and(|x| {
                    x.terrain.len() == 1 && x.has(crate::gbacw::map::Terrain::Woods)
                })
            });
    if let Some(w) = into_woods {
        let cost = crate::gbacw::ruleset::decide::movement::step(
            &board,
            &zocs,
            &union,
            &m,
            &[id("21-mo")],
            from,
            w,
        );
        // Whatever the hexside adds, woods at night are one more than by day.
        assert!(cost.unwrap() >= Mp::from_whole(3));
    }
}

/// The Union Final Command Phase of Game-Turn 16 with 21 Mo and 6 Miss
/// engaged in melee, side by side.
pub(super) fn engaged_at_dusk() -> (T, HexNumber, HexNumber) {
    let mut t = night_game();
    to_turn(&mut t, 16);
    t.advance_to(UNION, Phase::FinalCommand);
    let union_hex = t.hex("21-mo").unwrap();
    let rebel_hex = super::corinth::free_neighbour(&t, "21-mo");
    t.put("6-miss", &rebel_hex.to_string(), "n", Formation::Line);
    for u in ["21-mo", "6-miss"] {
        t.s.units
            .get_mut(&id(u))
            .unwrap()
            .status
            .markers
            .insert(Marker::Engaged);
    }
    (t, union_hex, rebel_hex)
}

#[test]
fn corinth_26_15_melees_engaged_at_the_end_of_game_turn_16_both_retreat_two_hexes() {
    let (mut t, union_hex, rebel_hex) = engaged_at_dusk();
    let events = t.ok(UNION, GbacwAction::EndPhase);
    let grid = &t.rs.game().map.grid;
    let retreats: Vec<(CounterId, Vec<HexNumber>)> = events
        .iter()
        .filter_map(|e| match e {
            GbacwEvent::UnitRetreated { unit, path } => Some((unit.clone(), path.clone())),
            _ => None,
        })
        .collect();
    // The phasing player (the Union) retreats first, then the other.
    assert_eq!(retreats.len(), 2, "{events:#?}");
    assert_eq!(retreats[0].0, id("21-mo"));
    assert_eq!(retreats[1].0, id("6-miss"));
    // Two hexes from the engagement hex, each farther away.
    let u_end = t.hex("21-mo").unwrap();
    let r_end = t.hex("6-miss").unwrap();
    assert_eq!(grid.distance(union_hex, u_end), 2);
    assert_eq!(grid.distance(rebel_hex, r_end), 2);
    // The non-phasing side avoids every hex the Union retreated through.
    assert!(retreats[1].1.iter().all(|h| !retreats[0].1.contains(h)));
    // No morale check, no longer engaged.
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, GbacwEvent::MoraleChecked { .. }))
    );
    for u in ["21-mo", "6-miss"] {
        assert!(!t.s.units[&id(u)].status.markers.contains(&Marker::Engaged));
    }
}

#[test]
fn corinth_26_15_a_unit_unable_to_retreat_at_nightfall_is_captured() {
    let (mut t, _, rebel_hex) = engaged_at_dusk();
    // Close every hex around 6 Miss but 21 Mo's with more Union units.
    let grid = t.rs.game().map.grid.clone();
    let around: Vec<HexNumber> = grid
        .neighbours_on_map(rebel_hex)
        .into_iter()
        .map(|(_, h)| h)
        .collect();
    let spare: Vec<CounterId> =
        t.s.units
            .iter()
            .filter(|(uid, u)| {
                u.hex.is_some()
                    && t.rs.game().oob.units[*uid].side == id("union")
                    && **uid != id("21-mo")
                    && matches!(
                        t.rs.game().oob.units[*uid].kind,
                        crate::gbacw::oob::UnitKind::Infantry
                    )
            })
            .map(|(uid, _)| uid.clone())
            .collect();
    let mut spare = spare.into_iter();
    for h in around {
        if t.s.units.values().any(|u| u.hex == Some(h)) {
            continue;
        }
        let u = spare.next().unwrap();
        t.s.units.get_mut(&u).unwrap().hex = Some(h);
    }
    let events = t.ok(UNION, GbacwAction::EndPhase);
    assert!(events.iter().any(|e| matches!(
        e,
        GbacwEvent::UnitRemoved { unit, captured: true } if *unit == id("6-miss")
    )));
    assert_eq!(t.s.units[&id("6-miss")].hex, None);
}

#[test]
fn corinth_26_15_nothing_engaged_nothing_retreats() {
    let mut t = night_game();
    to_turn(&mut t, 16);
    t.advance_to(UNION, Phase::FinalCommand);
    let events = t.ok(UNION, GbacwAction::EndPhase);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, GbacwEvent::UnitRetreated { .. }))
    );
}

/// `unit` has lost `lost` Strength Points, all killed.
fn wound(t: &mut T, unit: &str, lost: u8) {
    let printed = t.rs.game().oob.units[&id(unit)].strength;
    let u = t.s.units.get_mut(&id(unit)).unwrap();
    u.status.strength = printed - lost;
    u.killed = lost;
}

fn straggler_rolls(
    events: &[GbacwEvent],
) -> Vec<crate::gbacw::ruleset::corinth::stragglers::StragglerRoll> {
    events
        .iter()
        .filter_map(|e| match e {
            GbacwEvent::StragglerRolled(r) => Some(r.clone()),
            _ => None,
        })
        .collect()
}

/// The last phase of night Game-Turn 17 (the Union Final Command Phase),
/// with 21 Mo two Strength Points down and 16 Wisc one.
fn night_end() -> T {
    let mut t = night_game();
    to_turn(&mut t, 17);
    wound(&mut t, "21-mo", 2);
    wound(&mut t, "16-wisc", 1);
    t.advance_to(UNION, Phase::FinalCommand);
    t
}

#[test]
fn corinth_26_22_a_five_or_six_recovers_a_strength_point_at_the_end_of_a_night_turn() {
    let mut seen = (false, false);
    for seed in 0..40u64 {
        let mut t = night_end();
        assert!(t.rs.rolls_dice(
            &t.s,
            &crate::engine::ActionContext {
                seat: UNION,
                seq: 1,
                by_default: false
            },
            &GbacwAction::EndPhase
        ));
        let (events, drawn) = t.roll(UNION, GbacwAction::EndPhase, seed);
        let rolls = straggler_rolls(&events);
        // 26.21: only 21 Mo (two lost); 16 Wisc lost one (26.26: it would
        // regain its original strength).
        assert_eq!(rolls.len(), 1, "{events:#?}");
        let r = &rolls[0];
        assert_eq!((r.unit.clone(), r.modifier), (id("21-mo"), 0));
        assert_eq!(u16::from(r.die), drawn[0]);
        assert_eq!(r.recovered, r.die >= 5);
        let u = &t.s.units[&id("21-mo")];
        if r.recovered {
            assert_eq!((u.status.strength, u.killed), (3, 1));
            seen.0 = true;
        } else {
            assert_eq!((u.status.strength, u.killed), (2, 2));
            seen.1 = true;
        }
        assert_eq!(t.s.clock.turn, 18);
        if seen.0 && seen.1 {
            return;
        }
    }
    panic!("40 seeds never gave both a recovery and a failure: {seen:?}");
}

#[test]
fn corinth_26_22_a_regiment_whose_hex_is_full_recovers_nothing() {
    use crate::gbacw::map::Terrain;
    // Found by the random whole game into the second day: a regiment in a
    // full woods hex regained a point and broke 8.11's limits.
    let mut checked = false;
    for seed in 0..40u64 {
        let mut t = night_end();
        // 21 Mo (2 of 4 left) and 13 Iowa (6) fill a woods hex (8).
        let woods =
            t.rs.game()
                .map
                .hexes()
                .map(|(n, h)| (n, h.has(Terrain::Woods) && h.terrain.len() == 1))
                .filter(|(_, w)| *w)
                .map(|(n, _)| n)
                .find(|h| t.s.units.values().all(|u| u.hex != Some(*h)))
                .expect("a free woods hex");
        t.put("21-mo", &woods.to_string(), "n", Formation::Line);
        t.put("13-iowa", &woods.to_string(), "n", Formation::Line);
        let (events, _) = t.roll(UNION, GbacwAction::EndPhase, seed);
        let rolls = straggler_rolls(&events);
        assert_eq!(rolls.len(), 1, "{events:#?}");
        let r = &rolls[0];
        assert!(!r.recovered, "{r:?}");
        let u = &t.s.units[&id("21-mo")];
        assert_eq!((u.status.strength, u.killed), (2, 2));
        if r.die >= 5 {
            checked = true;
            break;
        }
    }
    assert!(checked, "40 seeds never rolled a 5 or 6");
}

#[test]
fn corinth_26_21_a_regiment_that_moved_or_fired_recovers_no_stragglers() {
    let mut t = night_game();
    to_turn(&mut t, 17);
    wound(&mut t, "21-mo", 2);
    wound(&mut t, "16-wisc", 2);
    t.advance_to(UNION, Phase::Movement);
    let step = super::corinth::free_neighbour(&t, "21-mo");
    t.mv(UNION, &["21-mo"], &[&step.to_string()]);
    // 16 Wisc fired withdrawal fire (any fire at night is).
    t.s.night.active.insert(id("16-wisc"));
    t.advance_to(UNION, Phase::FinalCommand);
    let (events, _) = t.roll(UNION, GbacwAction::EndPhase, 1);
    assert!(straggler_rolls(&events).is_empty(), "{events:#?}");
    // A new Game-Turn forgets who moved.
    assert!(t.s.night.active.is_empty());
}

#[test]
fn corinth_26_2_no_straggler_recovery_by_day() {
    let mut t = night_game();
    to_turn(&mut t, 15);
    wound(&mut t, "21-mo", 2);
    t.advance_to(UNION, Phase::FinalCommand);
    let (events, _) = t.roll(UNION, GbacwAction::EndPhase, 1);
    assert!(straggler_rolls(&events).is_empty());
}

#[test]
fn corinth_26_23_minus_one_if_the_brigade_reached_bce_on_the_first_day() {
    let mut t = night_game();
    to_turn(&mut t, 17);
    t.put("18-ark", "1010", "n", Formation::Line);
    t.s.progress.to_arrive.remove(&id("18-ark"));
    wound(&mut t, "18-ark", 2);
    t.s.night.bce_lost_on.insert(id("cabell"), 12);
    t.advance_to(UNION, Phase::FinalCommand);
    for seed in 0..40u64 {
        let mut t2 = T {
            rs: t.rs.clone(),
            s: t.s.clone(),
            script: Default::default(),
        };
        let (events, _) = t2.roll(UNION, GbacwAction::EndPhase, seed);
        let r = straggler_rolls(&events)
            .into_iter()
            .find(|r| r.unit == id("18-ark"))
            .unwrap();
        assert_eq!(r.modifier, -1);
        assert_eq!(r.recovered, r.die == 6);
        if r.die == 5 {
            return;
        }
    }
    panic!("no seed rolled a 5");
}

#[test]
fn corinth_26_25_an_independent_regains_only_a_killed_point() {
    let mut t = night_game();
    to_turn(&mut t, 17);
    // Adams' cavalry is independent: two points captured, none killed.
    t.put("adams-cav", "1010", "n", Formation::Mounted);
    t.s.progress.to_arrive.remove(&id("adams-cav"));
    let u = t.s.units.get_mut(&id("adams-cav")).unwrap();
    u.status.strength -= 2;
    u.captured = 2;
    let eligible = crate::gbacw::ruleset::corinth::stragglers::eligible(&t.rs, &t.s);
    assert!(!eligible.contains(&id("adams-cav")));
    let u = t.s.units.get_mut(&id("adams-cav")).unwrap();
    u.captured = 1;
    u.killed = 1;
    let eligible = crate::gbacw::ruleset::corinth::stragglers::eligible(&t.rs, &t.s);
    assert!(eligible.contains(&id("adams-cav")));
}

#[test]
fn corinth_26_27_batteries_and_wagons_recover_nothing() {
    let mut t = night_game();
    to_turn(&mut t, 17);
    let battery =
        t.s.units
            .iter()
            .find(|(uid, u)| {
                u.hex.is_some()
                    && matches!(
                        t.rs.game().oob.units[*uid].kind,
                        crate::gbacw::oob::UnitKind::Battery { .. }
                    )
                    && t.rs.game().oob.units[*uid].strength >= 3
            })
            .map(|(uid, _)| uid.clone())
            .unwrap();
    let u = t.s.units.get_mut(&battery).unwrap();
    u.status.strength -= 2;
    u.killed = 2;
    let eligible = crate::gbacw::ruleset::corinth::stragglers::eligible(&t.rs, &t.s);
    assert!(!eligible.contains(&battery));
}

/// Cabell's brigade with `lost` Strength Points killed among 18-21 Ark.
fn cabell_losses(t: &mut T, lost: u8) {
    let mut left = lost;
    for (k, u) in ["18-ark", "19-ark", "20-ark", "21-ark"].iter().enumerate() {
        t.put(u, &format!("10{}", 10 + k), "n", Formation::Line);
        t.s.progress.to_arrive.remove(&id(u));
        let take = left.min(3);
        left -= take;
        let s = t.s.units.get_mut(&id(u)).unwrap();
        s.status.strength = 3 - take;
        s.killed = take;
    }
    // A regiment with no strength left would be off the map: keep one.
    assert_eq!(left, 0);
}

#[test]
fn corinth_26_32_cabell_recovers_two_stragglers_and_takes_his_second_day_limit() {
    // "During the first day Cabell's brigade took 10 casualties, thus
    // reaching and exceeding its BCE limit by one. During the night it
    // recovers two stragglers. As a result ... it is therefore eligible to
    // have its second day BCE limit extended by 2."
    let mut t = night_game();
    to_turn(&mut t, 17);
    cabell_losses(&mut t, 10);
    let cabell = id("cabell");
    assert!(t.rs.brigade_at_bce_limit(&t.s, &cabell));
    for u in ["18-ark", "19-ark"] {
        let e = GbacwEvent::StragglerRolled(
            crate::gbacw::ruleset::corinth::stragglers::StragglerRoll {
                unit: id(u),
                die: 6,
                modifier: -1,
                recovered: true,
            },
        );
        t.rs.evolve(&mut t.s, &e);
    }
    // 8 boxes marked of 9: BCE regained.
    assert!(!t.rs.brigade_at_bce_limit(&t.s, &cabell));
    to_turn(&mut t, 21);
    let r = t.s.night.clone();
    assert!(r.bce_recovered);
    assert!(r.bce_extended.contains(&cabell));
    let roster = t.rs.bce(&t.s);
    let c = roster.iter().find(|b| b.brigade == cabell).unwrap();
    // The night's own rolls (GT 18-20) may have brought back more.
    assert_eq!((c.boxes, c.at_limit), (11, false));
    assert!(c.losses <= 8, "{c:?}");
    // 26.34: on day 2 the brigade loses BCE at its second-day limit only:
    // ten losses keep it, eleven break it.
    cabell_losses(&mut t, 10);
    assert!(!t.rs.brigade_at_bce_limit(&t.s, &cabell));
    cabell_losses(&mut t, 11);
    assert!(t.rs.brigade_at_bce_limit(&t.s, &cabell));
}

#[test]
fn corinth_26_34_a_brigade_still_at_its_limit_keeps_its_bce_loss() {
    let mut t = night_game();
    to_turn(&mut t, 17);
    cabell_losses(&mut t, 10);
    to_turn(&mut t, 21);
    let cabell = id("cabell");
    assert!(t.s.night.bce_recovered);
    assert!(!t.s.night.bce_extended.contains(&cabell));
    assert!(t.rs.brigade_at_bce_limit(&t.s, &cabell));
    let c =
        t.rs.bce(&t.s)
            .into_iter()
            .find(|b| b.brigade == cabell)
            .unwrap();
    assert_eq!(c.boxes, 9);
}

#[test]
fn corinth_26_33_lovells_brigades_have_one_level() {
    let mut t = night_game();
    to_turn(&mut t, 21);
    let rust = id("rust");
    // Extended, but to the same number (8 of 22).
    assert!(t.s.night.bce_extended.contains(&rust));
    let r =
        t.rs.bce(&t.s)
            .into_iter()
            .find(|b| b.brigade == rust)
            .unwrap();
    assert_eq!(r.boxes, 8);
    // Gates, of Hebert's division, has two: 11 then 14.
    let g =
        t.rs.bce(&t.s)
            .into_iter()
            .find(|b| b.brigade == id("gates"))
            .unwrap();
    assert_eq!(g.boxes, 14);
}

#[test]
fn corinth_26_41_without_a_confederate_barrage_the_union_may_not_fire() {
    let (mut t, _) = barrage_on_21_mo();
    // Held between Game-Turn 20 and Game-Turn 21's first phase.
    assert_eq!(t.s.clock.turn, 21);
    let events = t.ok(REBEL, GbacwAction::EndBarrage);
    assert!(events.contains(&GbacwEvent::BarrageEnded { next: None }));
    assert!(t.s.night.barrage.is_none() && t.s.night.barrage_held);
    let robinett = GbacwAction::BarrageFire {
        target: n("1010"),
        firers: vec![id("robinett")],
    };
    // The Union does not fire: the interphase is over and Game-Turn 21's
    // Confederate Initial Command Phase is on.
    t.refused(UNION, robinett, "GBACW 4.0");
    let target = t.hex("21-mo").unwrap();
    t.refused(REBEL, bryan_fires(target), "Corinth 26.4");
}

#[test]
fn corinth_26_42_batteries_only_under_nine_hexes_each_once_die_less_one() {
    let (mut t, at) = barrage_on_21_mo();
    let target = t.hex("21-mo").unwrap();
    // Nothing else happens while the barrage lasts.
    t.refused(REBEL, GbacwAction::EndPhase, "Corinth 26.4");
    // Only batteries.
    t.put("18-ark", &at.to_string(), "n", Formation::Line);
    t.refused(
        REBEL,
        GbacwAction::BarrageFire {
            target,
            firers: vec![id("18-ark")],
        },
        "Corinth 26.42",
    );
    t.s.units.get_mut(&id("18-ark")).unwrap().hex = None;
    // Nine hexes is too far.
    let far =
        t.rs.game()
            .map
            .hexes()
            .map(|(h, _)| h)
            .find(|h| {
                t.rs.game().map.grid.distance(*h, target) == 9
                    && t.s.units.values().all(|u| u.hex != Some(*h))
            })
            .unwrap();
    let mut t2 = T {
        rs: t.rs.clone(),
        s: t.s.clone(),
        script: Default::default(),
    };
    t2.put("bryan", &far.to_string(), "n", Formation::Unlimbered);
    t2.refused(REBEL, bryan_fires(target), "Corinth 26.42");
    // In range: rolled at once, the die less one.
    let (events, drawn) = t.roll(REBEL, bryan_fires(target), 3);
    let r = events
        .iter()
        .find_map(|e| match e {
            GbacwEvent::BarrageRolled(r) => Some(r.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(u16::from(r.die), drawn[0]);
    assert_eq!(r.modified, r.die - 1);
    // 26.42: "An adjusted die-roll of 0 has no effect."
    let resolved = events
        .iter()
        .any(|e| matches!(e, GbacwEvent::FireResolved(_)));
    assert_eq!(resolved, r.modified > 0);
    // Each battery once.
    t.refused(REBEL, bryan_fires(target), "Corinth 26.42");
}

#[test]
fn corinth_26_45_barrage_losses_are_pins() {
    let mut pinned = false;
    for seed in 0..60u64 {
        let (mut t, _) = barrage_on_21_mo();
        let target = t.hex("21-mo").unwrap();
        let before = t.s.units[&id("21-mo")].status.strength;
        let (events, _) = t.roll(REBEL, bryan_fires(target), seed);
        // No gun or Strength Point is ever lost to the barrage.
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, GbacwEvent::UnitHit { .. } | GbacwEvent::CrewHit { .. })),
            "{events:#?}"
        );
        assert_eq!(t.s.units[&id("21-mo")].status.strength, before);
        if t.s.units[&id("21-mo")]
            .status
            .markers
            .contains(&Marker::Pin)
        {
            pinned = true;
            break;
        }
    }
    assert!(pinned, "60 barrages never pinned 21 Mo");
}

#[test]
fn corinth_26_43_the_union_fires_after_the_confederates_then_game_turn_21() {
    let (mut t, _) = barrage_on_21_mo();
    let target = t.hex("21-mo").unwrap();
    t.roll(REBEL, bryan_fires(target), 5);
    let events = t.ok(REBEL, GbacwAction::EndBarrage);
    assert!(events.contains(&GbacwEvent::BarrageEnded {
        next: Some(id("union"))
    }));
    assert_eq!(t.rs.acting_seat(&t.s), Some(UNION));
    // The Union's default is to finish; with it the interphase is over.
    let pending = t.rs.pending(&t.s);
    assert_eq!(pending[0].default, GbacwAction::EndBarrage);
    t.ok(UNION, GbacwAction::EndBarrage);
    assert!(t.s.night.barrage.is_none());
    // The clock had already moved on: Game-Turn 21 begins.
    assert_eq!(t.s.clock.turn, 21);
    assert_eq!(t.rs.acting_seat(&t.s), Some(REBEL));
}

#[test]
fn corinth_26_random_play_through_the_night_reaches_the_end_of_game_turn_32() {
    // From Game-Turn 16 (the first day leaves the game open), random legal
    // actions, phases ended often; bounded. Every night rule is on the
    // way: the end-of-day retreat, night moves, stragglers, BCE recovery
    // and the barrage.
    let mut t = night_game();
    to_turn(&mut t, 16);
    wound(&mut t, "21-mo", 2);
    wound(&mut t, "16-wisc", 2);
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |k: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        usize::try_from(x % k as u64).unwrap()
    };
    let (mut stragglers, mut barrage, mut recovered) = (0, false, false);
    for step in 0..3000u64 {
        if t.s.over {
            break;
        }
        if std::env::var("CNIGHT_DEBUG").is_ok() && step % 50 == 0 {
            eprintln!("{step}: {:?}", t.s.clock);
        }
        let seat = t.rs.acting_seat(&t.s).expect("someone acts");
        let legal = t.rs.legal_actions(&t.s, seat);
        assert!(!legal.is_empty(), "no action at {:?}", t.s.clock);
        let end = legal
            .iter()
            .find(|a| matches!(a, GbacwAction::EndPhase | GbacwAction::EndBarrage));
        // GBACW 17.52 holds up the end of a Movement Phase while a leader
        // stands alone near the enemy: then a leader joins a friendly unit
        // (as the whole-game driver does).
        let rejoin: Vec<&GbacwAction> = legal
            .iter()
            .filter(|a| match a {
                GbacwAction::Move { pieces, path } => {
                    t.s.leaders.contains_key(&pieces[0])
                        && path.last().is_some_and(|h| {
                            t.s.units.iter().any(|(u, x)| {
                                x.hex == Some(*h)
                                    && t.rs.game().oob.units[u].side
                                        == t.rs.game().oob.leaders[&pieces[0]].side
                            })
                        })
                }
                _ => false,
            })
            .collect();
        let a = match end {
            Some(e) if next(3) != 0 => e.clone(),
            None if !rejoin.is_empty() && next(2) == 0 => rejoin[next(rejoin.len())].clone(),
            _ => legal[next(legal.len())].clone(),
        };
        let (events, _) = t.roll(seat, a, step);
        for e in &events {
            match e {
                GbacwEvent::StragglerRolled(_) => stragglers += 1,
                GbacwEvent::BarrageBegun { .. } => barrage = true,
                GbacwEvent::BceRecovered(_) => recovered = true,
                _ => {}
            }
        }
    }
    assert!(t.s.over, "stopped at {:?}", t.s.clock);
    assert_eq!(t.s.clock.turn, 32);
    assert!(stragglers > 0 && barrage && recovered);
}
