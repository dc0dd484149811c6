//! Corinth's Historical Scenario (30.0) as a hosted game: the Union set-up
//! (30.1), the opening on the Union Player-Turn of Game-Turn 2 with only
//! its reinforcements (30.0), the Confederate arrival through the Assault
//! Areas (30.2, 29.3), the Union commitment restrictions (30.3), night
//! (26.0) and victory (31.0). Tests named `corinth_N_NN_…` test that
//! exclusive-rule case.

use super::*;
use crate::gbacw::ruleset::state::Casualty;
use crate::gbacw::sequence::PlayerTurn;

// The Historical Scenario's positions come from the shared test kit;
// these names stay here for the other Corinth files.
pub(super) use crate::gbacw::testkit::corinth::{
    corinth, corinth_started as started, give, to_turn,
};

const CORINTH: &str = "corinth";

#[test]
fn corinth_30_0_the_game_opens_on_the_union_player_turn_of_game_turn_2() {
    let t = started();
    assert_eq!(t.s.clock.turn, 2);
    assert_eq!(t.rs.phasing_side(t.s.clock), Some(&id("union")));
    assert_eq!(t.rs.side_of_turn(PlayerTurn::First), &id("confederate"));
}

#[test]
fn corinth_scenario_fits_its_map_and_oob() {
    let files = crate::gbacw::battles::corinth::FILES;
    let charts =
        crate::gbacw::charts::Charts::load(crate::gbacw::ruleset::scenario::CHARTS).unwrap();
    let map = crate::gbacw::map::parse_map(files.map).unwrap();
    let oob = crate::gbacw::oob::parse_oob(files.oob, &charts.range).unwrap();
    let mut sc = crate::gbacw::scenario::parse_scenario(files.scenario).unwrap();
    sc.resolve(&map);
    let problems = sc.check(&map, &oob);
    assert!(problems.is_empty(), "{problems:#?}");
}

/// The Movement Phase of `seat`'s Player-Turn on Game-Turn `turn`.
fn movement(turn: u16, seat: SeatId) -> T {
    let mut t = started();
    while t.s.clock.turn < turn {
        let actor = t.rs.acting_seat(&t.s).unwrap();
        t.ok(actor, GbacwAction::EndPhase);
    }
    t.advance_to(seat, Phase::Movement);
    t
}

/// What entering `hex` costs `unit` on the Terrain Effects Chart.
fn terrain_cost(t: &T, unit: &str, hex: &str, formation: Formation) -> Mp {
    let class = formation.move_class().unwrap();
    let terrain = &t.rs.game().map.hex(n(hex)).unwrap().terrain;
    match t.rs.game().charts.movement.enter_cost(class, terrain) {
        crate::gbacw::charts::Cost::Mp(mp) => mp,
        other => panic!("{unit} cannot enter {hex}: {other:?}"),
    }
}

fn arrived_cost(events: &[GbacwEvent]) -> (Mp, Formation) {
    events
        .iter()
        .find_map(|e| match e {
            GbacwEvent::UnitArrived {
                cost, formation, ..
            } => Some((*cost, *formation)),
            _ => None,
        })
        .expect("a unit arrived")
}

#[test]
fn corinth_30_1_the_default_deployment_keeps_every_restriction() {
    let t = started();
    let game = t.rs.game();
    let placed: std::collections::BTreeMap<CounterId, HexNumber> =
        t.s.units
            .iter()
            .filter(|(id, _)| game.oob.units[*id].side.0 == "union")
            .filter_map(|(id, u)| u.hex.map(|h| (id.clone(), h)))
            .chain(
                t.s.leaders
                    .iter()
                    .filter(|(id, _)| game.oob.leaders[*id].side.0 == "union")
                    .filter_map(|(id, l)| l.hex.map(|h| (id.clone(), h))),
            )
            .collect();
    let problems =
        game.scenario
            .check_setup(&game.map, &game.oob, &placed, t.rs.scenario_options());
    // 30.18: an independent battery freed by Stanley's in Redan E stands
    // outside its area; that case judges it.
    use crate::gbacw::ruleset::corinth::free_batteries;
    let union = id("union");
    let problems: Vec<_> = problems
        .into_iter()
        .filter(|p| !free_batteries::excused(&t.rs, &t.s, &union, p))
        .collect();
    assert!(problems.is_empty(), "{problems:?}");
    free_batteries::check(&t.rs, &t.s, &union).unwrap();
    // 30.15-30.17: the fixed hexes.
    assert_eq!(t.hex("rosecrans"), Some(n("2737")));
    assert_eq!(t.hex("64-ill-ss"), Some(n("2437")));
    assert_eq!(t.hex("14-mo-ss"), Some(n("2637")));
    assert_eq!(t.hex("22-ohio"), Some(n("2636")));
    assert_eq!(t.hex("7-kans-cav"), Some(n("0137")));
    assert_eq!(t.hex("5-ohio-cav"), Some(n("1817")));
    // 29.44: the named batteries in their redans.
    assert_eq!(t.hex("robinett"), Some(n("1934")));
    assert_eq!(t.hex("williams"), Some(n("1838")));
    assert_eq!(t.hex("phillips"), Some(n("1942")));
    // 30.1: deployed formations.
    assert_eq!(t.s.units[&id("48-ind")].status.formation, Formation::Line);
    assert_eq!(
        t.s.units[&id("robinett")].status.formation,
        Formation::Unlimbered
    );
    assert_eq!(
        t.s.units[&id("7-kans-cav")].status.formation,
        Formation::Mounted
    );
    // The reinforcements and the Confederates are off the map.
    for off in [
        "oliver", "15-mich", "18-mo", "union-bd", "5-iowa", "van-dorn", "6-miss",
    ] {
        assert_eq!(t.hex(off), None, "{off}");
    }
}

#[test]
fn corinth_30_11_hamilton_sets_up_in_hexrows_2500_to_3200_on_or_north_of_xx08() {
    let t = corinth();
    t.refused(
        UNION,
        place("48-ind", "2509", Formation::Line),
        "Corinth 30.11",
    );
    t.refused(
        UNION,
        place("48-ind", "2408", Formation::Line),
        "Corinth 30.11",
    );
    t.refused(
        UNION,
        place("48-ind", "3308", Formation::Line),
        "Corinth 30.11",
    );
    // South of the outer works only: 2502 is outside them on this map.
    t.refused(
        UNION,
        place("48-ind", "2502", Formation::Line),
        "Corinth 30.11",
    );
    t.decide(UNION, &place("48-ind", "2508", Formation::Line))
        .unwrap();
    t.decide(UNION, &place("48-ind", "3204", Formation::Line))
        .unwrap();
}

#[test]
fn corinth_30_1_units_set_up_in_line_unlimbered_or_mounted() {
    let t = corinth();
    t.refused(
        UNION,
        place("48-ind", "2805", Formation::Column),
        "Corinth 30.1",
    );
    t.refused(
        UNION,
        place("m-1-mo-a", "2805", Formation::Limbered),
        "Corinth 30.1",
    );
    t.decide(UNION, &place("m-1-mo-a", "2805", Formation::Unlimbered))
        .unwrap();
}

#[test]
fn corinth_30_12_davies_on_or_one_hex_south_of_the_road_and_22_ohio_at_2636() {
    let t = corinth();
    for ok in ["1605", "2507", "1606", "2508", "2006"] {
        t.decide(UNION, &place("52-ill", ok, Formation::Line))
            .unwrap_or_else(|e| panic!("{ok}: {e}"));
    }
    for bad in ["1604", "1607", "2509", "2106"] {
        t.refused(
            UNION,
            place("52-ill", bad, Formation::Line),
            "Corinth 30.12",
        );
    }
    t.refused(
        UNION,
        place("22-ohio", "2637", Formation::Line),
        "Corinth 30.12",
    );
    t.decide(UNION, &place("22-ohio", "2636", Formation::Line))
        .unwrap();
}

#[test]
fn corinth_30_13_mcarthur_and_crocker_in_their_printed_hexes() {
    let t = corinth();
    for ok in ["0310", "0409", "0509", "0608", "0708"] {
        t.decide(UNION, &place("21-mo", ok, Formation::Line))
            .unwrap();
    }
    t.refused(
        UNION,
        place("21-mo", "0808", Formation::Line),
        "Corinth 30.13",
    );
    for ok in ["0819", "0820", "0821", "0822"] {
        t.decide(UNION, &place("11-iowa", ok, Formation::Line))
            .unwrap();
    }
    t.refused(
        UNION,
        place("11-iowa", "0823", Formation::Line),
        "Corinth 30.13",
    );
    // "McKean himself and his supply wagon ... with any unit of his
    // command except Oliver's brigade".
    t.decide(UNION, &place("supply-mckean", "0822", Formation::Wagon))
        .unwrap();
    t.refused(
        UNION,
        place("supply-mckean", "0104", Formation::Wagon),
        "Corinth 30.13",
    );
}

#[test]
fn corinth_30_14_stanley_between_0627_and_0638_batteries_also_in_redan_e() {
    let t = corinth();
    t.decide(UNION, &place("27-ohio", "0627", Formation::Line))
        .unwrap();
    t.decide(UNION, &place("27-ohio", "0638", Formation::Line))
        .unwrap();
    t.refused(
        UNION,
        place("27-ohio", "0639", Formation::Line),
        "Corinth 30.14",
    );
    t.refused(
        UNION,
        place("27-ohio", "0527", Formation::Line),
        "Corinth 30.14",
    );
    // "One battery may be placed in battery redans D and E".
    t.decide(UNION, &place("3-mich-a", "0527", Formation::Unlimbered))
        .unwrap();
    t.decide(UNION, &place("3-mich-a", "0633", Formation::Unlimbered))
        .unwrap();
}

#[test]
fn corinth_30_15_to_30_17_the_printed_hexes_of_mizner_the_sharpshooters_and_rosecrans() {
    let t = corinth();
    t.decide(UNION, &place("7-ill-cav", "2634", Formation::Mounted))
        .unwrap();
    t.refused(
        UNION,
        place("7-ill-cav", "0137", Formation::Mounted),
        "Corinth 30.15",
    );
    t.refused(
        UNION,
        place("7-ill-cav", "2634", Formation::Dismounted),
        "Corinth 30.1",
    );
    t.refused(
        UNION,
        place("64-ill-ss", "2637", Formation::Line),
        "Corinth 30.16",
    );
    t.refused(
        UNION,
        place("14-mo-ss", "2437", Formation::Line),
        "Corinth 30.16",
    );
    // 30.17: Rosecrans is not the player's to place.
    t.refused(
        UNION,
        GbacwAction::PlaceLeader {
            leader: id("rosecrans"),
            hex: n("2637"),
        },
        "Corinth 30.1",
    );
}

#[test]
fn corinth_29_44_four_independent_batteries_in_the_park_one_in_each_other_redan() {
    let mut t = corinth();
    for (b, h) in [
        ("d-1-mo", "2737"),
        ("h-1-mo-a", "2738"),
        ("h-1-mo-b", "2736"),
        ("i-1-mo-a", "2836"),
    ] {
        t.ok(UNION, place(b, h, Formation::Unlimbered));
    }
    // A fifth in the park is refused; a redan takes it.
    t.refused(
        UNION,
        place("i-1-mo-b", "2837", Formation::Unlimbered),
        "Corinth 29.44",
    );
    t.ok(UNION, place("i-1-mo-b", "1344", Formation::Unlimbered));
    // One battery to a redan (23.27's stacking).
    let e = t
        .decide(UNION, &place("k-1-mo", "1344", Formation::Unlimbered))
        .unwrap_err();
    assert_eq!(e.rule, "Corinth 30.1", "{e}");
    // Not outside the redans and the park; not in the named redans.
    t.refused(
        UNION,
        place("k-1-mo", "2010", Formation::Unlimbered),
        "Corinth 29.44",
    );
    t.refused(
        UNION,
        place("k-1-mo", "1934", Formation::Unlimbered),
        "Corinth 29.44",
    );
    t.refused(
        UNION,
        place("robinett", "1838", Formation::Unlimbered),
        "Corinth 29.44",
    );
}

#[test]
fn corinth_30_0_on_game_turn_2_the_union_only_brings_in_its_reinforcements() {
    let mut t = movement(2, UNION);
    assert_eq!(t.s.clock.turn, 2);
    // Units already on the map are held.
    let from = t.hex("21-mo").unwrap();
    let to =
        t.rs.game()
            .map
            .grid
            .neighbours_on_map(from)
            .into_iter()
            .map(|(_, h)| h)
            .find(|h| t.s.units.values().all(|u| u.hex != Some(*h)))
            .unwrap();
    t.refused(UNION, mv(&["21-mo"], &[&to.to_string()]), "Corinth 30.0");
    t.refused(
        UNION,
        GbacwAction::ChangeFormation {
            unit: id("21-mo"),
            to: Formation::Column,
        },
        "Corinth 30.0",
    );
    // 30.13: Oliver's column through 0104 pays ½, 1, 1½ ...
    let (cost, formation) = arrived_cost(&t.ok(UNION, arrive("15-mich", "0104")));
    assert_eq!((cost, formation), (Mp(1), Formation::Column));
    let next =
        t.rs.game()
            .map
            .grid
            .neighbours_on_map(n("0104"))
            .into_iter()
            .map(|(_, h)| h)
            .find(|h| h.col() == 2 || h.row() == 5)
            .unwrap();
    t.mv(UNION, &["15-mich"], &[&next.to_string()]);
    let (cost, _) = arrived_cost(&t.ok(UNION, arrive("14-wisc", "0104")));
    assert_eq!(cost, Mp(2));
    // An arrived unit moves on: the reinforcements are free to act.
    assert!(t.s.units[&id("14-wisc")].hex.is_some());
    // 29.47: the 18th Missouri and the Union Brigade pay their first hex.
    let want = terrain_cost(&t, "18-mo", "3937", Formation::Column);
    let (cost, formation) = arrived_cost(&t.ok(UNION, arrive("18-mo", "3937")));
    assert_eq!((cost, formation), (want, Formation::Column));
    let want = terrain_cost(&t, "union-bd", "2745", Formation::Column);
    assert_eq!(
        arrived_cost(&t.ok(UNION, arrive("union-bd", "2745"))).0,
        want
    );
    // 5 Iowa comes on Game-Turn 19 (29.47).
    t.refused(UNION, arrive("5-iowa", "3937"), "Corinth 29.47");
}

#[test]
fn corinth_30_2_the_divisions_enter_on_game_turn_3_through_e_d_and_c() {
    let mut t = movement(3, REBEL);
    // Lovell through Area E (column 01, rows 14-24), in line, paying the
    // placement hex (29.3, 29.31).
    let want = terrain_cost(&t, "6-miss", "0115", Formation::Line);
    let (cost, formation) = arrived_cost(&t.ok(REBEL, arrive("6-miss", "0115")));
    assert_eq!((cost, formation), (want, Formation::Line));
    t.refused(REBEL, arrive("15-miss", "1201"), "Corinth 30.2");
    // Maury through D, Hebert through C.
    t.ok(REBEL, arrive("42-ala", "0103"));
    t.ok(REBEL, arrive("16-ark", "1201"));
    t.refused(REBEL, arrive("2-mo", "0103"), "Corinth 30.2");
    // Batteries limbered, cavalry mounted.
    let (_, f) = arrived_cost(&t.ok(REBEL, arrive("wade-a", "1301")));
    assert_eq!(f, Formation::Limbered);
    let (_, f) = arrived_cost(&t.ok(REBEL, arrive("2-ark-cav", "1401")));
    assert_eq!(f, Formation::Mounted);
    // Price with Maury or Hebert, not Lovell.
    t.refused(REBEL, arrive("price", "0116"), "Corinth 30.2");
    t.ok(REBEL, arrive("price", "1201"));
}

#[test]
fn corinth_29_31_every_first_row_hex_takes_a_unit_before_any_takes_a_second() {
    let mut t = movement(3, REBEL);
    t.ok(REBEL, arrive("6-miss", "0115"));
    t.refused(REBEL, arrive("15-miss", "0115"), "Corinth 30.2");
    // Fill the rest of Area E's row; then a hex may take a second unit.
    let rest = [
        "0114", "0116", "0117", "0118", "0119", "0120", "0121", "0122", "0123", "0124",
    ];
    let units = [
        "15-miss", "22-miss", "1-mo", "1-ala", "33-miss", "39-miss", "49-ala", "4-ala-bn",
        "31-ala", "35-ala",
    ];
    for (u, h) in units.iter().zip(rest) {
        t.ok(REBEL, arrive(u, h));
    }
    t.ok(REBEL, arrive("9-ark", "0115"));
}

/// A free hex next to `unit`.
pub(super) fn free_neighbour(t: &T, unit: &str) -> HexNumber {
    let from = t.hex(unit).unwrap();
    t.rs.game()
        .map
        .grid
        .neighbours_on_map(from)
        .into_iter()
        .map(|(_, h)| h)
        .find(|h| t.s.units.values().all(|u| u.hex != Some(*h)))
        .unwrap()
}

#[test]
fn corinth_30_32_reserves_neither_move_nor_change_formation_but_may_face() {
    let mut t = movement(3, UNION);
    let to = free_neighbour(&t, "48-ind");
    t.refused(UNION, mv(&["48-ind"], &[&to.to_string()]), "Corinth 30.32");
    t.refused(
        UNION,
        GbacwAction::ChangeFormation {
            unit: id("27-ohio"),
            to: Formation::Column,
        },
        "Corinth 30.32",
    );
    t.refused(
        UNION,
        mv(&["mizner"], &[&free_neighbour(&t, "mizner").to_string()]),
        "Corinth 30.32",
    );
    t.ok(
        UNION,
        GbacwAction::Face {
            unit: id("11-iowa"),
            facing: dir("s"),
        },
    );
    // Davies and McArthur are not in reserve.
    let to = free_neighbour(&t, "21-mo");
    t.ok(UNION, mv(&["21-mo"], &[&to.to_string()]));
    // No reserve piece is offered a move.
    let legal = t.rs.legal_actions(&t.s, UNION);
    let reserve: Vec<CounterId> =
        t.rs.game()
            .scenario
            .reserves
            .list
            .iter()
            .flat_map(|r| r.units.clone())
            .collect();
    assert!(!legal.iter().any(|a| matches!(a, GbacwAction::Move { pieces, .. } if pieces.iter().any(|p| reserve.contains(p)))));
}

#[test]
fn corinth_30_33_a_reserve_attacked_is_committed_at_once() {
    let mut t = movement(3, REBEL);
    t.advance_to(REBEL, Phase::OffensiveFire);
    // A Confederate regiment next to Crocker's brigade, facing it.
    let target = t.hex("11-iowa").unwrap();
    let at = free_neighbour(&t, "11-iowa");
    t.put("6-miss", &at.to_string(), "n", Formation::Line);
    t.face_towards("6-miss", &target.to_string());
    let fire = GbacwAction::DeclareFire {
        target,
        firers: vec![crate::gbacw::ruleset::state::FireShare {
            unit: id("6-miss"),
            points: 1,
        }],
    };
    let events = t.ok(REBEL, fire);
    assert!(events.iter().any(|e| matches!(
        e,
        GbacwEvent::ReserveCommitted { reserve, case } if reserve.0 == "crocker" && case == "Corinth 30.33"
    )));
    assert!(t.s.progress.committed.contains(&id("crocker")));
    assert!(!t.s.progress.committed.contains(&id("stanley")));
}

#[test]
fn corinth_30_34_from_game_turn_6_two_commitment_rolls_a_turn() {
    let commit = |r: &str| GbacwAction::CommitReserve { reserve: id(r) };
    let mut t = movement(5, UNION);
    t.advance_to(UNION, Phase::InitialCommand);
    assert!(t.s.clock.turn >= 5);
    let mut t5 = movement(5, UNION);
    t5.s.clock = t.s.clock;
    to_turn(&mut t, 6);
    t.advance_to(UNION, Phase::InitialCommand);
    assert_eq!(t.s.clock.turn, 6);
    // Game-Turn 5 is too early.
    let mut early = t.s.clone();
    early.clock.turn = 5;
    let e = T {
        rs: t.rs.clone(),
        s: early,
        script: Default::default(),
    }
    .decide(UNION, &commit("hamilton"))
    .unwrap_err();
    assert_eq!(e.rule, "Corinth 30.34");
    // Not in the Movement Phase, not the Confederates'.
    t.refused(REBEL, commit("hamilton"), "GBACW 4.0");
    assert!(t.rs.rolls_dice(
        &t.s,
        &ActionContext {
            seat: UNION,
            seq: 1,
            by_default: false
        },
        &commit("hamilton")
    ));
    let (events, dice) = t.roll(UNION, commit("hamilton"), 7);
    let GbacwEvent::ReserveRolled {
        roll, committed, ..
    } = &events[0]
    else {
        panic!("{events:?}")
    };
    assert_eq!(u16::from(*roll), dice[0]);
    assert_eq!(*committed, *roll <= 2, "Hamilton commits on 1-2");
    // Once a turn each; two a turn.
    if !*committed {
        t.refused(UNION, commit("hamilton"), "Corinth 30.34");
    }
    t.roll(UNION, commit("stanley"), 8);
    t.refused(UNION, commit("crocker"), "Corinth 30.34");
    t.refused(UNION, commit("nobody"), "Corinth 30.34");
    // 30.35: from Game-Turn 15 at will, without a roll.
    to_turn(&mut t, 15);
    t.advance_to(UNION, Phase::InitialCommand);
    let ctx = ActionContext {
        seat: UNION,
        seq: 1,
        by_default: false,
    };
    assert!(!t.rs.rolls_dice(&t.s, &ctx, &commit("mizner")));
    if !t.s.progress.committed.contains(&id("mizner")) {
        let events = t.ok(UNION, commit("mizner"));
        assert!(
            matches!(&events[0], GbacwEvent::ReserveCommitted { case, .. } if case == "Corinth 30.35")
        );
    }
}

#[test]
fn corinth_31_2_the_first_day_ends_the_game_at_20_or_more_or_4_or_less() {
    // Nothing scored, four reserves uncommitted (30.36): -4, a Union win.
    let mut t = started();
    to_turn(&mut t, 17);
    assert!(t.s.over);
    let day = &t.s.progress.days[0];
    assert_eq!((day.turn, day.halves, day.uncommitted), (16, -8, 4));
    let out = t.rs.outcome(&t.s).unwrap();
    assert_eq!(out.winner, Some(UNION), "{}", out.summary);
    // The Hotel (5), four primary redans (12) and 3844 (3): 20 less 4 for
    // the reserves is 16: the game goes on into the night.
    let mut t = started();
    give(&mut t, &["2437", "1934", "1838", "1942", "2729", "3844"]);
    to_turn(&mut t, 17);
    assert!(!t.s.over);
    assert_eq!(t.s.progress.days[0].halves, 32);
    assert_eq!(t.s.progress.days[0].winner, None);
    // With 2344 too (2) and two reserves committed: 22 - 2 = 20, a win.
    let mut t = started();
    give(
        &mut t,
        &["2437", "1934", "1838", "1942", "2729", "3844", "2344"],
    );
    t.s.progress.committed.insert(id("stanley"));
    t.s.progress.committed.insert(id("mizner"));
    to_turn(&mut t, 17);
    assert!(t.s.over);
    let out = t.rs.outcome(&t.s).unwrap();
    assert_eq!(out.winner, Some(REBEL), "{}", out.summary);
}

#[test]
fn corinth_26_15_at_night_only_withdrawal_fire_and_no_moving_next_to_the_enemy() {
    let mut t = started();
    give(&mut t, &["2437", "1934", "1838", "1942", "2729", "3844"]);
    to_turn(&mut t, 17);
    t.advance_to(UNION, Phase::Movement);
    assert!(t.rs.game().scenario.is_night(17));
    // 26.13: a Confederate two hexes from 21 Mo; 21 Mo may not step next to it.
    let from = t.hex("21-mo").unwrap();
    let step = free_neighbour(&t, "21-mo");
    let beyond =
        t.rs.game()
            .map
            .grid
            .neighbours_on_map(step)
            .into_iter()
            .map(|(_, h)| h)
            .find(|h| {
                *h != from
                    && t.rs.game().map.grid.distance(from, *h) == 2
                    && t.s.units.values().all(|u| u.hex != Some(*h))
            })
            .unwrap();
    t.put("6-miss", &beyond.to_string(), "n", Formation::Line);
    t.refused(UNION, mv(&["21-mo"], &[&step.to_string()]), "Corinth 26.13");
    // 26.15: no fire declared.
    t.advance_to(UNION, Phase::OffensiveFire);
    let fire = GbacwAction::DeclareFire {
        target: beyond,
        firers: vec![crate::gbacw::ruleset::state::FireShare {
            unit: id("21-mo"),
            points: 1,
        }],
    };
    t.refused(UNION, fire, "Corinth 26.15");
}

#[test]
fn corinth_31_33_after_game_turn_32_the_level_from_the_confederate_total() {
    // 16 at the first day (the night follows); the same at the end: 9½ to
    // 16 is a Marginal Confederate Victory.
    let mut t = started();
    give(&mut t, &["2437", "1934", "1838", "1942", "2729", "3844"]);
    to_turn(&mut t, 33);
    assert!(t.s.over);
    assert_eq!(t.s.clock.turn, 32);
    let score = t.rs.tally(&t.s).unwrap();
    assert_eq!((score.hexes, score.reserves, score.total()), (40, -8, 32));
    let out = t.rs.outcome(&t.s).unwrap();
    assert_eq!(out.winner, Some(REBEL));
    assert!(
        out.summary.ends_with("marginal-confederate"),
        "{}",
        out.summary
    );
    // 5 Iowa was due on Game-Turn 19.
    assert!(t.s.progress.to_arrive.contains(&id("5-iowa")));
}

#[test]
fn corinth_31_1_batteries_casualties_and_leaders_on_the_confederate_total() {
    let mut t = movement(3, REBEL);
    for u in ["6-miss", "15-miss", "22-miss"] {
        t.s.progress.to_arrive.remove(&id(u));
    }
    // A Union battery eliminated: +1; a Confederate one: -1 (24.22: its
    // guns destroyed by fire; a battery gone with its crew and guns left
    // would not count).
    let destroy = |t: &mut T, b: &str| {
        let u = t.s.units.get_mut(&id(b)).unwrap();
        u.hex = None;
        u.status.strength = 0;
    };
    destroy(&mut t, "robinett");
    assert_eq!(t.rs.tally(&t.s).unwrap().batteries, 2);
    t.s.progress.to_arrive.remove(&id("hudson"));
    destroy(&mut t, "hudson");
    assert_eq!(t.rs.tally(&t.s).unwrap().batteries, 0);
    // Union inf/cav losses 12 more than the Confederates': ⌈12 ÷ 5⌉ = 3.
    // (6 Miss, 15 Miss, 22 Miss entered and lost 3+5+5 = 13; the Union
    // loses 59 Ind 6, 17 Wisc 7, 11 Iowa 6 and 13 Iowa 6 = 25.)
    let lost = |t: &T, side: &str| -> u32 {
        t.s.units
            .keys()
            .filter(|u| t.rs.game().oob.units[*u].side.0 == side)
            .filter(|u| {
                matches!(
                    t.rs.game().oob.units[*u].kind,
                    crate::gbacw::oob::UnitKind::Infantry | crate::gbacw::oob::UnitKind::Cavalry
                )
            })
            .map(|u| t.rs.strength_lost(&t.s, u))
            .sum()
    };
    for u in ["59-ind", "17-wisc", "11-iowa", "13-iowa"] {
        t.s.units.get_mut(&id(u)).unwrap().hex = None;
    }
    let diff = i64::from(lost(&t, "union")) - i64::from(lost(&t, "confederate"));
    assert_eq!(diff, 25 - 13);
    assert_eq!(t.rs.tally(&t.s).unwrap().casualties, 6);
    // Rosecrans wounded +1; Van Dorn killed -2.
    t.s.leaders.get_mut(&id("rosecrans")).unwrap().casualty = Some(Casualty::Wounded);
    assert_eq!(t.rs.tally(&t.s).unwrap().leaders, 2);
    t.s.leaders.get_mut(&id("van-dorn")).unwrap().casualty = Some(Casualty::Killed);
    assert_eq!(t.rs.tally(&t.s).unwrap().leaders, -2);
}

#[test]
fn corinth_30_5_heat_doubles_skip_the_game_turn() {
    let mut t = T::with(GbacwConfig {
        battle: CORINTH.into(),
        scenario_options: [("heat".to_string(), true)].into(),
        ..GbacwConfig::default()
    });
    t.ok(UNION, GbacwAction::EndSetUp);
    // No roll before Game-Turn 8.
    while t.s.clock.turn < 7 {
        let actor = t.rs.acting_seat(&t.s).unwrap();
        t.ok(actor, GbacwAction::EndPhase);
    }
    // The last step of Game-Turn 7 rolls for Game-Turn 8.
    let mut seed = 0;
    let ctx = ActionContext {
        seat: UNION,
        seq: 1,
        by_default: false,
    };
    loop {
        let actor = t.rs.acting_seat(&t.s).unwrap();
        let ctx = ActionContext { seat: actor, ..ctx };
        if t.rs.rolls_dice(&t.s, &ctx, &GbacwAction::EndPhase) {
            break;
        }
        t.ok(actor, GbacwAction::EndPhase);
    }
    assert_eq!(t.s.clock.turn, 7);
    // Find a stream that rolls doubles.
    let (events, skipped) = loop {
        let mut u = T {
            rs: t.rs.clone(),
            s: t.s.clone(),
            script: Default::default(),
        };
        let actor = u.rs.acting_seat(&u.s).unwrap();
        let (events, dice) = u.roll(actor, GbacwAction::EndPhase, seed);
        if dice[0] == dice[1] {
            break (events, u);
        }
        seed += 1;
        assert!(seed < 200);
    };
    assert!(events.iter().any(|e| matches!(
        e,
        GbacwEvent::HeatRolled {
            turn: 8,
            skipped: true,
            ..
        }
    )));
    assert_eq!(skipped.s.clock.turn, 9, "Game-Turn 8 is skipped");
    // No check on the next two turns (9, 10): ending them rolls nothing.
    let ctx = ActionContext {
        seat: UNION,
        seq: 1,
        by_default: false,
    };
    let mut u = skipped;
    while u.s.clock.turn < 10
        || !u.rs.rolls_dice(
            &u.s,
            &ActionContext {
                seat: u.rs.acting_seat(&u.s).unwrap(),
                ..ctx
            },
            &GbacwAction::EndPhase,
        )
    {
        let actor = u.rs.acting_seat(&u.s).unwrap();
        u.ok(actor, GbacwAction::EndPhase);
    }
    assert_eq!(
        u.s.clock.turn, 10,
        "the roll for Game-Turn 11 comes at the end of 10"
    );
}

#[test]
fn corinth_29_61_on_game_turns_1_to_5_routed_union_units_rally_only_by_die() {
    use crate::gbacw::oob::Marker;
    let mut t = movement(3, UNION);
    t.advance_to(UNION, Phase::Rally);
    let rout = |t: &mut T, u: &str| {
        t.s.units
            .get_mut(&id(u))
            .unwrap()
            .status
            .markers
            .insert(Marker::Rout);
    };
    let ctx = ActionContext {
        seat: UNION,
        seq: 1,
        by_default: false,
    };
    let rally = |u: &str| GbacwAction::Rally { unit: id(u) };
    // 52 Ill (morale 4): by die, even within Hackleman's radius.
    rout(&mut t, "52-ill");
    assert!(t.rs.rolls_dice(&t.s, &ctx, &rally("52-ill")));
    let (events, dice) = t.roll(UNION, rally("52-ill"), 3);
    let minus = u16::from(t.hex("hackleman") == t.hex("52-ill"));
    assert!(events.iter().any(|e| matches!(
        e,
        GbacwEvent::RallyTried { die: Some(_), rallied, .. } if *rallied == (dice[0] - minus.min(dice[0]) <= 4)
    )));
    // With Rosecrans: automatic.
    rout(&mut t, "22-ohio");
    t.put_leader("rosecrans", &t.hex("22-ohio").unwrap().to_string());
    assert!(!t.rs.rolls_dice(&t.s, &ctx, &rally("22-ohio")));
    let events = t.ok(UNION, rally("22-ohio"));
    assert!(events.contains(&GbacwEvent::RallyTried {
        unit: id("22-ohio"),
        die: None,
        rallied: true
    }));
    // From Game-Turn 6 the Standard Rules again: with a leader, no die.
    let mut t = movement(6, UNION);
    t.advance_to(UNION, Phase::Rally);
    rout(&mut t, "22-ohio");
    t.put_leader("rosecrans", &t.hex("22-ohio").unwrap().to_string());
    let events = t.ok(UNION, rally("22-ohio"));
    assert!(
        events
            .iter()
            .any(|e| matches!(e, GbacwEvent::RallyTried { die: None, .. }))
    );
}
