//! Corinth's set-up checks beyond placement: 29.42's brigade counts at the
//! end of the Free Set-Up, 29.44.1's brigade batteries, the artillery park
//! (29.44.4, 30.18), Oliver's column (30.13) and the reinforcements'
//! column (29.47).

use super::*;
use crate::gbacw::corinth::setup::{Placement, brigade_zones};

fn battle(name: &'static str) -> T {
    T::battle(name)
}

/// The Free Set-Up after the Confederate plot: Hebert through C and Maury
/// through D on Game-Turn 1, Lovell through F on Game-Turn 4.
pub(super) fn free_after_plot() -> T {
    let mut t = battle("corinth_free");
    // Hebert through C and Maury through D on GT 1, Lovell through F on GT 4.
    let plan = super::corinth_free::a_plan();
    t.ok(
        REBEL,
        GbacwAction::PlotAssault {
            plan,
            salt: [3; 32],
            announce: id("hebert"),
        },
    );
    t
}

/// The Union counters on the map.
fn union_placements(t: &T) -> Vec<Placement> {
    t.s.units
        .iter()
        .filter(|(u, _)| t.rs.game().oob.units[*u].side.0 == "union")
        .filter_map(|(u, s)| {
            s.hex.map(|hex| Placement {
                counter: u.clone(),
                hex,
            })
        })
        .collect()
}

/// Place `unit` deployed at the first hex within `radius` of `centre`
/// (nearest first) the set-up accepts.
fn place_within(t: &mut T, unit: &str, centre: &str, radius: u32) -> HexNumber {
    let grid = t.rs.game().map.grid.clone();
    let c = n(centre);
    let mut hexes: Vec<HexNumber> = grid
        .hexes()
        .filter(|h| grid.distance(*h, c) <= radius)
        .collect();
    hexes.sort_by_key(|h| (grid.distance(*h, c), *h));
    // 29.4: deployed (line, unlimbered, mounted).
    let formation = match t.rs.game().oob.units[&id(unit)].kind {
        crate::gbacw::oob::UnitKind::Battery { .. } => Formation::Unlimbered,
        crate::gbacw::oob::UnitKind::Cavalry => Formation::Mounted,
        _ => Formation::Line,
    };
    for h in hexes {
        let a = GbacwAction::PlaceUnit {
            unit: id(unit),
            hex: h,
            facing: dir("n"),
            formation,
        };
        if t.decide(UNION, &a).is_ok() {
            t.ok(UNION, a);
            return h;
        }
    }
    panic!("no room for {unit} within {radius} of {centre}")
}

#[test]
fn corinth_29_42_the_default_union_set_up_has_three_brigades_by_the_hotel_and_four_to_seven_near_the_areas()
 {
    let mut t = free_after_plot();
    t.ok(UNION, GbacwAction::EndSetUp);
    let z = brigade_zones(&t.rs.game().map, &t.rs.game().oob, &union_placements(&t));
    assert_eq!(z.near_hotel.len(), 3, "{z:?}");
    assert!((4..=7).contains(&z.near_assault_areas.len()), "{z:?}");
    // 29.43 freezes exactly those three.
    assert_eq!(
        t.s.progress.frozen_brigades,
        z.near_hotel.iter().cloned().collect()
    );
}

#[test]
fn corinth_29_42_four_brigades_by_the_hotel_refuse_the_end_of_the_set_up() {
    let mut t = free_after_plot();
    for u in [
        "7-ill", "50-ill", "57-ill", // Baldwin
        "21-mo", "16-wisc", "17-wisc", // McArthur
        "9-ill", "12-ill", "22-ohio", "81-ohio", // Oglesby
        "11-iowa", "13-iowa", "15-iowa", "16-iowa", // Crocker
    ] {
        place_within(&mut t, u, "2437", 10);
    }
    t.refused_saying(
        UNION,
        GbacwAction::EndSetUp,
        "Corinth 29.42",
        "4 brigades within 10 hexes of the Tishomingo Hotel",
    );
    // Not offered either, while a placement still is.
    let legal = t.rs.legal_actions(&t.s, UNION);
    assert!(!legal.contains(&GbacwAction::EndSetUp));
    assert!(!legal.is_empty());
    // Moving one of them away (a straggler breaks a brigade's count) fixes
    // it: the default completion does the rest.
    place_within(&mut t, "81-ohio", "2420", 3);
    t.ok(UNION, GbacwAction::EndSetUp);
    let z = brigade_zones(&t.rs.game().map, &t.rs.game().oob, &union_placements(&t));
    assert_eq!(z.near_hotel.len(), 3, "{z:?}");
}

#[test]
fn corinth_29_42_a_set_up_ended_by_timeout_is_never_refused() {
    let mut t = free_after_plot();
    for u in [
        "7-ill", "50-ill", "57-ill", "21-mo", "16-wisc", "17-wisc", "9-ill", "12-ill", "22-ohio",
        "81-ohio", "11-iowa", "13-iowa", "15-iowa", "16-iowa",
    ] {
        place_within(&mut t, u, "2437", 10);
    }
    t.by_default(UNION, GbacwAction::EndSetUp);
    assert!(t.s.progress.setting_up.is_none());
    let z = brigade_zones(&t.rs.game().map, &t.rs.game().oob, &union_placements(&t));
    assert_eq!(z.near_hotel.len(), 3, "{z:?}");
    assert!((4..=7).contains(&z.near_assault_areas.len()), "{z:?}");
}

#[test]
fn corinth_29_42_is_not_played_in_the_historical_scenario() {
    let t = battle("corinth");
    assert!(
        t.rs.game()
            .scenario
            .hook(crate::gbacw::scenario::HookKind::BrigadeCounts)
            .is_none()
    );
}

#[test]
fn corinth_29_44_1_brigade_batteries_set_up_within_their_commanders_radius() {
    // The default set-up keeps it.
    let mut t = free_after_plot();
    t.ok(UNION, GbacwAction::EndSetUp);
    let grid = t.rs.game().map.grid.clone();
    let mut seen = 0;
    for (u, s) in &t.s.units {
        let unit = &t.rs.game().oob.units[u];
        let (Some(h), crate::gbacw::oob::Command::Brigade(b)) = (s.hex, &unit.command) else {
            continue;
        };
        if !matches!(unit.kind, crate::gbacw::oob::UnitKind::Battery { .. }) {
            continue;
        }
        let at = t.s.leaders[b].hex.unwrap();
        let crate::gbacw::oob::LeaderRole::Brigade { ratings, .. } =
            &t.rs.game().oob.leaders[b].role
        else {
            unreachable!()
        };
        assert!(
            grid.distance(h, at) <= u32::from(ratings.effectiveness_radius),
            "{u} at {h}, {b} at {at}"
        );
        seen += 1;
    }
    assert_eq!(seen, 13, "Fuller's 5, Mower's 1, Buford's 3, Sullivan's 4");
    // Fuller (radius 3) with 27 Ohio, his battery 3 Mich a far away.
    let mut t = free_after_plot();
    let at = place_within(&mut t, "27-ohio", "2020", 2);
    t.ok(
        UNION,
        GbacwAction::PlaceLeader {
            leader: id("fuller"),
            hex: at,
        },
    );
    let far = place_within(&mut t, "3-mich-a", "2028", 1);
    assert!(grid.distance(at, far) > 3);
    t.refused_saying(UNION, GbacwAction::EndSetUp, "Corinth 29.44", "3 Mich a");
    // Within three hexes of him it may end.
    let near = place_within(&mut t, "3-mich-a", &at.to_string(), 3);
    assert!(grid.distance(at, near) <= 3);
    t.ok(UNION, GbacwAction::EndSetUp);
}

#[test]
fn corinth_29_44_4_the_artillery_park_may_not_move_or_fire_until_a_confederate_comes_within_six_hexes_of_corinth()
 {
    let mut t = battle("corinth");
    t.ok(UNION, GbacwAction::EndSetUp);
    // 30.0: Game-Turn 2 is the reinforcements'; the Union's next turn.
    while t.s.clock.turn < 3 {
        let actor = t.rs.acting_seat(&t.s).unwrap();
        t.ok(actor, GbacwAction::EndPhase);
    }
    t.advance_to(UNION, Phase::Movement);
    let park = t.rs.game().scenario.area("park").unwrap().clone();
    let grid = t.rs.game().map.grid.clone();
    let occupied = |t: &T, h: HexNumber| t.s.units.values().any(|u| u.hex == Some(h));
    // A park battery and an empty hex next to it.
    let (battery, to) =
        t.s.units
            .iter()
            .filter(|(_, u)| u.hex.is_some_and(|h| t.rs.in_area(&park, h)))
            .find_map(|(b, u)| {
                let at = u.hex.unwrap();
                grid.neighbours_on_map(at)
                    .into_iter()
                    .map(|(_, h)| h)
                    .find(|h| !occupied(&t, *h))
                    .map(|h| (b.clone(), h))
            })
            .expect("a park battery with room beside it");
    let limber = GbacwAction::ChangeFormation {
        unit: battery.clone(),
        to: Formation::Limbered,
    };
    t.refused(UNION, limber.clone(), "Corinth 29.44");
    let step = GbacwAction::Move {
        pieces: vec![battery.clone()],
        path: vec![to],
    };
    t.refused(UNION, step.clone(), "Corinth 29.44");
    // Hebert's 16 Ark six hexes from a town hex (2435): the park is free.
    let town = n("2435");
    let near = grid
        .hexes()
        .filter(|h| grid.distance(*h, town) == 6 && !occupied(&t, *h))
        .find(|h| {
            !t.s.units
                .values()
                .any(|u| u.hex.is_some_and(|x| grid.distance(x, *h) <= 1))
        })
        .unwrap();
    t.put("16-ark", &near.to_string(), "s", Formation::Line);
    assert!(t.decide(UNION, &limber).is_ok());
    // Recorded at the phase's end; then free for good, even with 16 Ark
    // gone again.
    let events = t.ok(UNION, GbacwAction::EndPhase);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, GbacwEvent::ParkFreed { .. }))
    );
    t.s.units.get_mut(&id("16-ark")).unwrap().hex = None;
    assert!(t.s.park_freed);
    assert!(!crate::gbacw::ruleset::corinth::park::frozen(
        &t.rs, &t.s, &battery
    ));
}

#[test]
fn corinth_29_44_4_the_park_is_free_on_the_second_day() {
    let mut t = battle("corinth");
    t.ok(UNION, GbacwAction::EndSetUp);
    let park = t.rs.game().scenario.area("park").unwrap().clone();
    let battery =
        t.s.units
            .iter()
            .find(|(_, u)| u.hex.is_some_and(|h| t.rs.in_area(&park, h)))
            .map(|(b, _)| b.clone())
            .unwrap();
    t.s.clock.turn = 20;
    assert!(crate::gbacw::ruleset::corinth::park::frozen(
        &t.rs, &t.s, &battery
    ));
    t.s.clock.turn = 21;
    assert!(!crate::gbacw::ruleset::corinth::park::frozen(
        &t.rs, &t.s, &battery
    ));
}

#[test]
fn corinth_30_13_olivers_column_keeps_moving_until_more_than_four_hexes_from_the_assault_areas() {
    use crate::gbacw::corinth::distance_to_assault_areas;
    let mut t = battle("corinth");
    t.ok(UNION, GbacwAction::EndSetUp);
    t.advance_to(UNION, Phase::Movement);
    assert_eq!(t.s.clock.turn, 2);
    // 15 Mich enters through 0104, in Assault Area D.
    t.ok(UNION, arrive("15-mich", "0104"));
    t.refused_saying(UNION, GbacwAction::EndPhase, "Corinth 30.13", "15 Mich");
    // One hex on is not enough while it can go farther.
    let map = t.rs.game().map.clone();
    let on = map
        .grid
        .neighbours_on_map(n("0104"))
        .into_iter()
        .map(|(_, h)| h)
        .find(|h| {
            distance_to_assault_areas(&map, *h) == Some(1)
                && t.s.units.values().all(|u| u.hex != Some(*h))
        })
        .unwrap();
    t.mv(UNION, &["15-mich"], &[&on.to_string()]);
    t.refused(UNION, GbacwAction::EndPhase, "Corinth 30.13");
    // Out of Movement Points it may stop (it moves on next phase).
    let mut spent = t.s.clone();
    spent.units.get_mut(&id("15-mich")).unwrap().moved.mp = Mp(100);
    let out = T {
        s: spent,
        ..t.clone()
    };
    assert!(out.decide(UNION, &GbacwAction::EndPhase).is_ok());
    // More than four hexes away, the phase ends.
    let far = map
        .grid
        .hexes()
        .find(|h| {
            distance_to_assault_areas(&map, *h) == Some(5)
                && t.s.units.values().all(|u| u.hex != Some(*h))
        })
        .unwrap();
    t.put("15-mich", &far.to_string(), "s", Formation::Column);
    t.ok(UNION, GbacwAction::EndPhase);
}

/// Corinth 30.13, "these units must keep moving until they are more than
/// four hexes from the nearest Confederate Assault Area", read with GBACW
/// 8.1's stacking limits: the refusal names a hex the unit may stop in
/// (more than four away where it can reach one). With the hex it names
/// first filled by friends to the limit, it names another, which it may
/// stop in; it never sends the player to a hex the end of the phase would
/// then refuse for stacking.
#[test]
fn corinth_30_13_the_hex_named_is_one_the_unit_may_stop_in() {
    use crate::gbacw::corinth::distance_to_assault_areas;
    use crate::gbacw::ruleset::board::Board;
    let mut t = battle("corinth");
    t.ok(UNION, GbacwAction::EndSetUp);
    t.advance_to(UNION, Phase::Movement);
    t.ok(UNION, arrive("15-mich", "0104"));
    let named = |t: &T| -> HexNumber {
        let e = t.refused(UNION, GbacwAction::EndPhase, "Corinth 30.13");
        let at = e.message.find("can reach ").expect("a hex is named") + "can reach ".len();
        n(&e.message[at..at + 4])
    };
    let fits = |t: &T, hex: HexNumber| {
        Board::new(&t.rs, &t.s)
            .check_stack(hex, &id("union"), &[], &[&id("15-mich")], None)
            .is_ok()
    };
    let map = t.rs.game().map.clone();
    let first = named(&t);
    // Entered in Area D (0 hexes from it): any hex named is farther.
    assert!(distance_to_assault_areas(&map, first).is_some_and(|d| d > 0));
    assert!(fits(&t, first));
    // Friends fill that hex until 15 Mich would overstack it (bounded).
    let friends: Vec<CounterId> =
        t.s.units
            .iter()
            .filter(|(u, s)| {
                s.hex.is_some() && u.0 != "15-mich" && t.rs.game().oob.units[*u].side == id("union")
            })
            .map(|(u, _)| u.clone())
            .take(6)
            .collect();
    for f in &friends {
        if !fits(&t, first) {
            break;
        }
        t.put(&f.0, &first.to_string(), "n", Formation::Column);
    }
    assert!(!fits(&t, first), "{first} filled");
    let second = named(&t);
    assert_ne!(second, first);
    assert!(fits(&t, second), "{second} takes 15 Mich");
    assert!(distance_to_assault_areas(&map, second).is_some_and(|d| d > 0));
}

#[test]
fn corinth_29_47_reinforcements_stay_in_column_until_within_their_commanders_radius_or_attacked() {
    use crate::gbacw::ruleset::corinth::reinforcements::attacked;
    let mut t = battle("corinth");
    t.ok(UNION, GbacwAction::EndSetUp);
    t.advance_to(UNION, Phase::Movement);
    assert_eq!(t.s.clock.turn, 2);
    t.ok(
        UNION,
        GbacwAction::Arrive {
            piece: id("18-mo"),
            hex: n("3937"),
            facing: dir("n"),
        },
    );
    assert_eq!(t.s.units[&id("18-mo")].status.formation, Formation::Column);
    let deploy = GbacwAction::ChangeFormation {
        unit: id("18-mo"),
        to: Formation::Line,
    };
    // Oliver is far off (his column enters at 0104).
    t.refused(UNION, deploy.clone(), "Corinth 29.47");
    // Within his radius (3) it may form line.
    let mut near = t.clone();
    near.put_leader("oliver", "3935");
    assert!(near.decide(UNION, &deploy).is_ok());
    near.put_leader("oliver", "3933");
    near.refused(UNION, deploy.clone(), "Corinth 29.47");
    // Attacked, it may too: a fire declared on its hex is recorded.
    let fire = GbacwAction::DeclareFire {
        target: n("3937"),
        firers: vec![],
    };
    let Some(e) = attacked(&t.rs, &t.s, &fire) else {
        panic!("no record of the attack")
    };
    t.rs.evolve(&mut t.s, &e);
    assert!(t.decide(UNION, &deploy).is_ok());
}

#[test]
fn corinth_29_44_4_the_park_is_2737_and_the_hexes_adjacent_to_it_in_every_scenario() {
    // "either in Corinth on or adjacent to hex 2737": the park area, and
    // the park's share of the redans-or-park area, in all three scenarios.
    for name in ["corinth", "corinth_free", "corinth_solo"] {
        let rs = Gbacw::new(&GbacwConfig {
            battle: name.into(),
            ..GbacwConfig::default()
        })
        .unwrap_or_else(|e| panic!("{e}"));
        let grid = &rs.game().map.grid;
        let centre = n("2737");
        let mut want: Vec<HexNumber> = grid
            .neighbours_on_map(centre)
            .into_iter()
            .map(|(_, h)| h)
            .collect();
        want.push(centre);
        want.sort();
        let scenario = &rs.game().scenario;
        let park = scenario.area("park").unwrap();
        let mut got: Vec<HexNumber> = grid.hexes().filter(|h| rs.in_area(park, *h)).collect();
        got.sort();
        assert_eq!(got, want, "{name}: the park");
        let either = scenario.area("redans-and-park").unwrap();
        let near: Vec<HexNumber> = grid
            .hexes()
            .filter(|h| grid.distance(centre, *h) <= 2 && rs.in_area(either, *h))
            .collect();
        assert!(near.iter().all(|h| want.contains(h)), "{name}: {near:?}");
    }
}
