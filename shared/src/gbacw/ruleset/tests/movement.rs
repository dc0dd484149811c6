//! Movement (5.0–5.3, 6.11–6.14 as they move, 7.11, 8.0–8.17, 8.42).

use super::*;
use crate::gbacw::oob::Marker;

/// Union's Movement Phase on an empty field with 5 Conn (6 SP, line).
fn field() -> T {
    let mut t = T::empty();
    t.advance_to(UNION, Phase::Movement);
    t.put("5-conn", "0107", "se", Formation::Line);
    t
}

#[test]
fn case_5_0_movement_allowance_comes_from_the_chart() {
    let mut t = field();
    // Five clear hexes, then corn (2): 7 Movement Points of line's 6.
    t.refused(
        UNION,
        mv(
            &["5-conn"],
            &["0207", "0307", "0407", "0507", "0607", "0707"],
        ),
        "GBACW 5.11",
    );
    t.mv(
        UNION,
        &["5-conn"],
        &["0207", "0307", "0407", "0507", "0607"],
    );
    assert_eq!(t.hex("5-conn"), Some(n("0607")));
    assert_eq!(t.spent("5-conn"), Mp::from_whole(5));
}

#[test]
fn case_5_11_movement_points_are_spent_in_parts_and_never_saved() {
    let mut t = field();
    t.mv(UNION, &["5-conn"], &["0207", "0307"]);
    t.mv(UNION, &["5-conn"], &["0407", "0507", "0607"]);
    t.refused(UNION, mv(&["5-conn"], &["0708", "0808"]), "GBACW 5.11");
    t.mv(UNION, &["5-conn"], &["0608"]);
    assert_eq!(t.spent("5-conn"), Mp::from_whole(6));
    // The next friendly Movement Phase starts afresh.
    t.advance_to(REBEL, Phase::Movement);
    t.advance_to(UNION, Phase::Movement);
    assert_eq!(t.spent("5-conn"), Mp::ZERO);
    t.mv(UNION, &["5-conn"], &["0609"]);
}

#[test]
fn case_5_12_enemy_occupied_hexes_are_entered_only_in_melee() {
    let mut t = field();
    t.put("2-va", "0307", "n", Formation::Line);
    t.refused(UNION, mv(&["5-conn"], &["0207", "0307"]), "GBACW 5.12");
}

#[test]
fn case_5_13_no_fire_in_the_movement_phase_unless_triggered() {
    let t = field();
    t.refused(
        UNION,
        GbacwAction::WithdrawalFire {
            firers: ids(&["5-conn"]),
        },
        "GBACW 10.1",
    );
    assert!(
        t.rs.legal_actions(&t.s, UNION)
            .iter()
            .all(|a| !matches!(a, GbacwAction::WithdrawalFire { .. }))
    );
}

#[test]
fn case_5_14_units_move_into_and_out_of_enemy_zocs() {
    let mut t = field();
    // 2 Va in 0309 faces north: its ZOC is 0208, 0308, 0408.
    t.put("2-va", "0309", "n", Formation::Line);
    t.mv(UNION, &["5-conn"], &["0207", "0307", "0308"]);
    assert_eq!(t.hex("5-conn"), Some(n("0308")));
    // Leaving is allowed too, but first the enemy may fire (10.1).
    let events = t.mv(UNION, &["5-conn"], &["0307"]);
    assert!(matches!(events[..], [GbacwEvent::WithdrawalFireOffered(_)]));
}

#[test]
fn case_5_15_a_mixed_hex_costs_its_dearest_terrain() {
    let mut t = field();
    t.put("5-conn", "0402", "s", Formation::Line);
    // 0403 is woods and orchard: woods' 2 for line infantry.
    t.mv(UNION, &["5-conn"], &["0403"]);
    assert_eq!(t.spent("5-conn"), Mp::from_whole(2));
}

#[test]
fn case_5_16_movement_is_hex_by_hex() {
    let t = field();
    t.refused(UNION, mv(&["5-conn"], &["0307"]), "GBACW 5.16");
}

#[test]
fn case_5_17_no_moving_off_the_map() {
    let mut t = field();
    t.put("5-conn", "1210", "s", Formation::Line);
    t.refused(UNION, mv(&["5-conn"], &["1211"]), "GBACW 5.17");
}

#[test]
fn case_5_19_the_chart_prohibits_terrain_by_unit_type() {
    let mut t = field();
    // Corinth 23.5: no batteries in swamp; all-lake hexsides (Cedar Mtn 21.34).
    t.put("4-me", "0207", "s", Formation::Limbered);
    t.refused(UNION, mv(&["4-me"], &["0208"]), "GBACW 5.19");
    t.mv(UNION, &["5-conn"], &["0207", "0208"]);
    t.put("10-me", "1001", "s", Formation::Line);
    t.refused(UNION, mv(&["10-me"], &["1002"]), "GBACW 5.19");
}

#[test]
fn case_5_2_routed_units_move_one_hex_and_shun_enemy_zocs() {
    let mut t = field();
    t.s.units
        .get_mut(&id("5-conn"))
        .unwrap()
        .status
        .markers
        .insert(Marker::Rout);
    t.refused(UNION, mv(&["5-conn"], &["0207", "0307"]), "GBACW 5.2");
    // One hex regardless of cost: into corn with all six points spent.
    t.put("5-conn", "0606", "s", Formation::Line);
    t.mv(UNION, &["5-conn"], &["0707"]);
    assert_eq!(t.spent("5-conn"), Mp::from_whole(6));
    t.refused(UNION, mv(&["5-conn"], &["0708"]), "GBACW 5.2");
    // No entering an enemy ZOC.
    t.put("2-va", "0309", "n", Formation::Line);
    t.put("10-me", "0307", "s", Formation::Line);
    t.s.units
        .get_mut(&id("10-me"))
        .unwrap()
        .status
        .markers
        .insert(Marker::Rout);
    t.refused(UNION, mv(&["10-me"], &["0308"]), "GBACW 5.2");
}

#[test]
fn case_5_2_a_unit_in_an_enemy_zoc_leaves_it_for_a_hex_next_to_no_enemy() {
    let mut t = field();
    // 2 Va in 0309 facing north; routed 10 Me in its ZOC at 0308.
    t.put("2-va", "0309", "n", Formation::Line);
    t.put("10-me", "0308", "n", Formation::Line);
    t.s.units
        .get_mut(&id("10-me"))
        .unwrap()
        .status
        .markers
        .insert(Marker::Rout);
    // 0208 is in the ZOC; 0307 is next to no enemy: only it will do.
    t.refused(UNION, mv(&["10-me"], &["0208"]), "GBACW 5.2");
    let reach = t.rs.reachable(&t.s, &id("10-me")).unwrap();
    assert!(reach.hexes.contains_key(&n("0307")));
    assert!(!reach.hexes.contains_key(&n("0208")));
    let events = t.mv(UNION, &["10-me"], &["0307"]);
    assert!(matches!(events[..], [GbacwEvent::WithdrawalFireOffered(_)]));
}

#[test]
fn case_5_3_independent_units_are_always_in_command() {
    let mut t = T::empty();
    // 4 Me (Indpnt) alone, far from any leader; 10 Me (Crawford's) alone too.
    t.put("4-me", "0110", "n", Formation::Limbered);
    t.put("10-me", "1210", "n", Formation::Line);
    t.put_leader("crawford", "0101");
    t.ok(UNION, GbacwAction::EndPhase);
    assert!(!t.s.command.out_of_command.contains(&id("4-me")));
    assert!(t.s.command.out_of_command.contains(&id("10-me")));
    t.mv(UNION, &["4-me"], &["0109", "0108"]);
}

#[test]
fn case_6_11_column_moves_by_road_and_not_through_friends_on_it() {
    let mut t = field();
    t.put("pa-zd", "0104", "se", Formation::Column);
    // 0104-0204-0304-0404 by road at ½ each: 1½ Movement Points.
    t.mv(UNION, &["pa-zd"], &["0204", "0304", "0404"]);
    assert_eq!(t.spent("pa-zd"), mp(3));
    // A limbered battery through a friendly-occupied road hex pays its
    // terrain (6.11): 0304 is woods, 4 for limbered guns.
    let mut t = field();
    t.put("4-me", "0204", "se", Formation::Limbered);
    t.put("10-me", "0304", "n", Formation::Line);
    t.mv(UNION, &["4-me"], &["0304", "0404"]);
    assert_eq!(t.spent("4-me"), Mp::from_whole(4) + mp(1));
}

#[test]
fn case_6_12_line_infantry_ignores_roads() {
    let mut t = field();
    t.put("5-conn", "0104", "se", Formation::Line);
    // By road for line: woods at 0304 costs 2 and clear 1.
    t.mv(UNION, &["5-conn"], &["0204", "0304"]);
    assert_eq!(t.spent("5-conn"), Mp::from_whole(3));
}

#[test]
fn case_6_13_unlimbered_artillery_may_not_move() {
    let mut t = field();
    t.put("4-me", "0207", "s", Formation::Unlimbered);
    t.refused(UNION, mv(&["4-me"], &["0208"]), "GBACW 6.13");
    assert!(t.rs.reachable(&t.s, &id("4-me")).is_none());
}

#[test]
fn case_6_14_dismounted_cavalry_moves_as_line_infantry() {
    let mut t = field();
    t.s.units.get_mut(&id("5-conn")).unwrap().hex = None;
    t.put("1-nj-c", "0101", "s", Formation::Dismounted);
    let reach = t.rs.reachable(&t.s, &id("1-nj-c")).unwrap();
    assert_eq!(reach.cost(n("0107")), Some(Mp::from_whole(6)));
    assert_eq!(reach.cost(n("0108")), None);
    t.put("1-nj-c", "0101", "s", Formation::Mounted);
    let reach = t.rs.reachable(&t.s, &id("1-nj-c")).unwrap();
    assert_eq!(reach.cost(n("0108")), Some(Mp::from_whole(7)));
}

#[test]
fn case_7_11_a_unit_faces_the_hex_it_enters() {
    let mut t = field();
    t.mv(UNION, &["5-conn"], &["0207"]);
    assert_eq!(t.s.units[&id("5-conn")].facing, dir("se"));
    t.mv(UNION, &["5-conn"], &["0206", "0106"]);
    assert_eq!(t.s.units[&id("5-conn")].facing, dir("nw"));
}

/// GBACW 8.0: "stacking restrictions apply only at the end of a Movement
/// or Combat Phase": `a` stops over a limit (the case `rule`): accepted
/// mid-phase, but the Movement Phase may not then end, the refusal citing
/// the limit, until a unit leaves the hex.
fn overstacks(t: &T, a: GbacwAction, rule: &str) {
    let mut x = t.clone();
    x.ok(UNION, a);
    let e = x.refused(UNION, GbacwAction::EndPhase, rule);
    assert!(e.message.contains("before the Movement Phase ends"), "{e}");
}

#[test]
fn case_8_0_stacking_is_checked_at_the_end_of_the_phase() {
    let mut t = field();
    // 0303 is woods (8 points). 5 Conn (6) and 10 Me (4) make 10.
    t.put("10-me", "0303", "s", Formation::Line);
    t.put("5-conn", "0302", "s", Formation::Line);
    overstacks(&t, mv(&["5-conn"], &["0303"]), "GBACW 8.11");
    // Passing through is free (8.0).
    t.mv(UNION, &["5-conn"], &["0303", "0304"]);
    assert_eq!(t.hex("5-conn"), Some(n("0304")));
}

/// GBACW 8.0: the phase ends within the limits, so a stop over them that
/// no unit there could undo (10 Me pinned, 9.84; 5 Conn's last Movement
/// Points spent entering) is refused as it is made; leaving again mends
/// a stop that could be undone.
#[test]
fn case_8_0_an_overstack_no_unit_could_leave_is_refused_where_it_stops() {
    let mut t = field();
    t.put("10-me", "0303", "s", Formation::Line);
    t.put("5-conn", "0302", "s", Formation::Line);
    let mut pinned = t.clone();
    pinned
        .s
        .units
        .get_mut(&id("10-me"))
        .unwrap()
        .status
        .markers
        .insert(Marker::Pin);
    pinned.s.units.get_mut(&id("5-conn")).unwrap().moved.mp = Mp::from_whole(4);
    pinned.refused_saying(
        UNION,
        mv(&["5-conn"], &["0303"]),
        "GBACW 8.0",
        "could leave it again would not bring it within them",
    );
    // Mended: in, then out again, and the phase ends.
    t.mv(UNION, &["5-conn"], &["0303"]);
    t.mv(UNION, &["5-conn"], &["0304"]);
    t.ok(UNION, GbacwAction::EndPhase);
}

#[test]
fn case_8_11_stacking_limits_depend_on_terrain() {
    let mut t = field();
    // In clear (12 points) 6 + 4 fit.
    t.put("10-me", "0207", "s", Formation::Line);
    t.mv(UNION, &["5-conn"], &["0207"]);
    // A third unit of 2 would be 12: still fits; the wagon (4) would not.
    t.put("supply-u", "0206", "s", Formation::Wagon);
    overstacks(&t, mv(&["supply-u"], &["0207"]), "GBACW 8.11");
}

#[test]
fn case_8_12_wagons_count_four_and_batteries_one() {
    let mut t = field();
    // Woods holds 8: 5 Conn (6) + a battery (1) fits; + the wagon (4) not.
    t.put("5-conn", "0303", "s", Formation::Line);
    t.put("4-me", "0302", "s", Formation::Limbered);
    t.mv(UNION, &["4-me"], &["0303"]);
    t.put("supply-u", "0302", "s", Formation::Wagon);
    overstacks(&t, mv(&["supply-u"], &["0303"]), "GBACW 8.11");
}

#[test]
fn case_8_13_batteries_per_hex_are_limited() {
    let mut t = field();
    // Woods holds one battery.
    t.put("4-me", "0303", "s", Formation::Limbered);
    t.put("aleghny", "0302", "s", Formation::Limbered);
    let side = t.rs.side_of(UNION).clone();
    t.rs.game.oob.units.get_mut(&id("aleghny")).unwrap().side = side;
    overstacks(&t, mv(&["aleghny"], &["0303"]), "GBACW 8.13");
}

#[test]
fn case_8_14_leaders_never_count_for_stacking() {
    let mut t = field();
    t.put("5-conn", "0303", "s", Formation::Line);
    t.put("10-me", "0302", "s", Formation::Line);
    for l in ["banks", "williams", "crawford"] {
        t.put_leader(l, "0302");
        t.mv(UNION, &[l], &["0303"]);
    }
    // 6 + 0 leaders: 10 Me's 4 would make 10 of 8.
    overstacks(&t, mv(&["10-me"], &["0303"]), "GBACW 8.11");
}

#[test]
fn case_8_16_column_never_enters_a_hex_with_another_unit() {
    let mut t = field();
    t.put("pa-zd", "0206", "s", Formation::Column);
    t.put("10-me", "0207", "s", Formation::Line);
    t.refused(UNION, mv(&["pa-zd"], &["0207", "0208"]), "GBACW 8.16");
    // Nor moves with one.
    t.put("10-me", "0206", "s", Formation::Line);
    t.refused(UNION, mv(&["pa-zd", "10-me"], &["0207"]), "GBACW 8.16");
}

#[test]
fn case_8_17_mounted_cavalry_enters_only_mounted_cavalry_hexes() {
    let mut t = field();
    t.put("1-nj-c", "0206", "s", Formation::Mounted);
    t.put("10-me", "0207", "s", Formation::Line);
    t.refused(UNION, mv(&["1-nj-c"], &["0207"]), "GBACW 8.17");
    // Leaders do not stop it.
    t.put("10-me", "0101", "s", Formation::Line);
    t.put_leader("bayard", "0207");
    t.mv(UNION, &["1-nj-c"], &["0207"]);
}

#[test]
fn case_8_42_units_entering_a_hex_take_the_stack_facing() {
    let mut t = field();
    t.put("10-me", "0207", "n", Formation::Line);
    t.mv(UNION, &["5-conn"], &["0207"]);
    assert_eq!(t.s.units[&id("5-conn")].facing, dir("n"));
    // Turning one turns the stack.
    t.ok(
        UNION,
        GbacwAction::Face {
            unit: id("5-conn"),
            facing: dir("s"),
        },
    );
    assert_eq!(t.s.units[&id("10-me")].facing, dir("s"));
}

#[test]
fn case_11_1_an_uncrewed_wagon_may_not_move_unless_001() {
    let mut t = field();
    t.put("supply-u", "0206", "s", Formation::Wagon);
    t.s.units.get_mut(&id("supply-u")).unwrap().status.crew = crate::gbacw::oob::Crew::None;
    t.refused(UNION, mv(&["supply-u"], &["0207"]), "GBACW 11.1");
    let mut t001 = T::with(GbacwConfig {
        readings_001: ["uncrewed-wagons-move".to_string()].into(),
        ..GbacwConfig::default()
    });
    t001.s = t.s.clone();
    t001.mv(UNION, &["supply-u"], &["0207"]);
}

#[test]
fn case_17_75_a_unit_entering_a_lone_enemy_leader_captures_him() {
    let mut t = field();
    t.put_leader("ronald", "0207");
    let events = t.mv(UNION, &["5-conn"], &["0207"]);
    assert!(events.contains(&GbacwEvent::LeaderLost {
        leader: id("ronald"),
        casualty: Casualty::Captured,
    }));
    assert_eq!(t.hex("ronald"), None);
    // A leader alone may not do it.
    t.put_leader("winder", "0209");
    t.put_leader("crawford", "0208");
    t.refused(UNION, mv(&["crawford"], &["0209"]), "GBACW 5.12");
}

#[test]
fn moves_refuse_bad_input_with_typed_errors() {
    let mut t = field();
    t.refused(UNION, mv(&[], &["0207"]), "GBACW 5.0");
    t.refused(UNION, mv(&["5-conn"], &[]), "GBACW 5.16");
    t.refused(UNION, mv(&["5-conn", "5-conn"], &["0207"]), "GBACW 5.0");
    t.refused(UNION, mv(&["nobody"], &["0207"]), "GBACW 3.3");
    t.put("2-va", "0301", "s", Formation::Line);
    let e = t.refused(UNION, mv(&["2-va"], &["0302"]), "GBACW 3.3");
    assert_eq!(e.code, crate::engine::RuleCode::NotYours);
    t.refused(UNION, mv(&["10-me"], &["0302"]), "GBACW 5.0");
    t.put("10-me", "0101", "s", Formation::Line);
    t.refused(UNION, mv(&["5-conn", "10-me"], &["0207"]), "GBACW 5.0");
    let e = t.refused(REBEL, mv(&["2-va"], &["0302"]), "GBACW 4.0");
    assert_eq!(e.code, crate::engine::RuleCode::NotYourTurn);
}

#[test]
fn case_17_54_a_lone_leader_in_a_hex_entered_by_an_enemy_unit_is_captured() {
    let mut t = field();
    // Even passing through his hex takes him (17.75: "at any point").
    t.put_leader("winder", "0207");
    t.mv(UNION, &["5-conn"], &["0207", "0307"]);
    assert_eq!(
        t.s.leaders[&id("winder")].casualty,
        Some(Casualty::Captured)
    );
    // A leader with his units is not alone: 5.12 keeps the mover out.
    t.put_leader("ronald", "0308");
    t.put("2-va", "0308", "n", Formation::Line);
    t.refused(UNION, mv(&["5-conn"], &["0308"]), "GBACW 5.12");
}

#[test]
fn case_3_32_current_strength_counts_for_stacking() {
    let mut t = field();
    // Woods hold 8: 5 Conn at full 6 and 10 Me's 4 do not fit; 5 Conn
    // reduced to 4 does.
    t.put("10-me", "0303", "s", Formation::Line);
    t.put("5-conn", "0302", "s", Formation::Line);
    overstacks(&t, mv(&["5-conn"], &["0303"]), "GBACW 8.11");
    t.s.units.get_mut(&id("5-conn")).unwrap().status.strength = 4;
    t.mv(UNION, &["5-conn"], &["0303"]);
}
