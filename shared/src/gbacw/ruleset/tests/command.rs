//! Command (17.0–17.23, 17.6, 5.2, 5.3, 10.4).

use super::*;

fn spend(division: &str, brigade: &str, points: u8) -> GbacwAction {
    GbacwAction::SpendCommandPoints {
        division: id(division),
        brigade: id(brigade),
        points,
    }
}

/// Williams' division: Crawford's brigade (ER 5), Williams (DIR 6, 2 CP).
fn division() -> T {
    let mut t = T::empty();
    t.put_leader("williams", "0101");
    t.put_leader("crawford", "0105");
    t
}

#[test]
fn case_17_0_command_is_checked_at_the_end_of_the_initial_command_phase() {
    let mut t = division();
    t.put("5-conn", "0110", "n", Formation::Line); // 5 hexes from Crawford
    t.put("10-me", "0710", "n", Formation::Line); // farther
    let events = t.ok(UNION, GbacwAction::EndPhase);
    assert!(matches!(events[0], GbacwEvent::CommandChecked(_)));
    assert_eq!(t.s.command.out_of_command, [id("10-me")].into());
    assert_eq!(t.phase(), Some(Phase::Movement));
    // The check holds for the Player-Turn; the next one checks anew.
    t.advance_to(REBEL, Phase::InitialCommand);
    assert!(t.s.command.out_of_command.is_empty());
}

#[test]
fn case_17_11_out_of_command_units_move_one_hex_and_keep_their_zoc() {
    let mut t = division();
    t.put("10-me", "0710", "n", Formation::Line);
    t.put("2-va", "0708", "s", Formation::Line);
    t.ok(UNION, GbacwAction::EndPhase);
    t.refused(UNION, mv(&["10-me"], &["0610", "0510"]), "GBACW 17.11");
    // Its ZOC still counts against the enemy.
    let board = crate::gbacw::ruleset::board::Board::new(&t.rs, &t.s);
    let zoc = board.enemy_zoc(
        &id("confederate"),
        crate::gbacw::facing::ZocUse::SupplyAndCommand,
    );
    assert!(zoc.contains(&n("0709")));
}

#[test]
fn case_17_12_command_points_extend_the_effectiveness_radius() {
    let mut t = division();
    t.put_leader("crawford", "0104");
    t.put("10-me", "0110", "n", Formation::Line);
    // 0110 is 6 hexes from 0104, Crawford's ER is 5: one Command Point more.
    assert!(
        t.rs.command_preview(&t.s, &id("union"))
            .out_of_command
            .contains(&id("10-me"))
    );
    t.ok(UNION, spend("williams", "crawford", 1));
    t.ok(UNION, GbacwAction::EndPhase);
    assert!(t.s.command.out_of_command.is_empty());
}

#[test]
fn case_17_22_command_points_are_limited_and_go_to_brigades_in_radius() {
    let mut t = division();
    t.refused(UNION, spend("williams", "crawford", 3), "GBACW 17.22");
    t.ok(UNION, spend("williams", "crawford", 1));
    t.ok(UNION, spend("williams", "crawford", 1));
    t.refused(UNION, spend("williams", "crawford", 1), "GBACW 17.22");
    t.refused(UNION, spend("williams", "crawford", 0), "GBACW 17.22");
    assert_eq!(
        t.s.leaders[&id("crawford")].augmented,
        Some((id("williams"), 2))
    );
    // Outside the Divisional Integrity Radius (6): no points.
    let mut t = division();
    t.put_leader("crawford", "0810");
    t.refused(UNION, spend("williams", "crawford", 1), "GBACW 17.22");
    // Not his brigade; not a division commander.
    let mut t = division();
    t.put_leader("bayard", "0102");
    t.refused(UNION, spend("williams", "bayard", 1), "GBACW 17.22");
    t.put_leader("banks", "0101");
    t.refused(UNION, spend("banks", "crawford", 1), "GBACW 17.3");
    // Only in the Initial Command Phase.
    t.advance_to(UNION, Phase::Movement);
    t.refused(UNION, spend("williams", "crawford", 1), "GBACW 17.22");
}

#[test]
fn case_10_4_radii_are_not_traced_through_enemy_zoc_unless_friendly_occupied() {
    let mut t = division();
    // 5 Conn three hexes south of Crawford; a wall of Confederate ZOC
    // between them (2 Va at 0208 facing north-west covers 0107, 0108, 0207... ).
    t.put("5-conn", "0108", "n", Formation::Line);
    t.put("2-va", "0207", "nw", Formation::Line);
    t.put("10-va", "0209", "nw", Formation::Line);
    t.ok(UNION, GbacwAction::EndPhase);
    assert!(
        t.s.command.out_of_command.contains(&id("5-conn")),
        "{:?}",
        t.s.command
    );
}

#[test]
fn case_17_14_a_leader_commands_the_units_stacked_with_him() {
    let mut t = division();
    t.put("10-me", "1210", "n", Formation::Line);
    t.put_leader("bayard", "1210");
    t.ok(UNION, GbacwAction::EndPhase);
    assert!(t.s.command.out_of_command.is_empty());
}

#[test]
fn case_17_23_a_division_commander_commands_units_stacked_with_him() {
    let mut t = division();
    t.put("10-me", "1210", "n", Formation::Line);
    t.put_leader("williams", "1210");
    t.ok(UNION, GbacwAction::EndPhase);
    assert!(!t.s.command.out_of_command.contains(&id("10-me")));
}

#[test]
fn case_17_21_a_brigade_commander_outside_the_radius_moves_one_hex() {
    let mut t = division();
    t.put_leader("crawford", "0810");
    t.put("10-me", "0810", "n", Formation::Line);
    t.ok(UNION, GbacwAction::EndPhase);
    assert_eq!(t.s.command.out_of_radius, [id("crawford")].into());
    // 5.2 (004): his regiments are still in command.
    assert!(t.s.command.out_of_command.is_empty());
    t.refused(UNION, mv(&["crawford"], &["0809", "0808"]), "GBACW 17.21");
    t.mv(UNION, &["crawford", "10-me"], &["0809"]);
    t.mv(UNION, &["10-me"], &["0808"]);
}

fn detach(brigade: &str) -> GbacwAction {
    GbacwAction::Detach {
        brigade: id(brigade),
    }
}

fn attach(brigade: &str, division: &str) -> GbacwAction {
    GbacwAction::Attach {
        brigade: id(brigade),
        division: id(division),
    }
}

/// Williams' division with a second original brigade, Gordon (a copy of
/// Crawford's commander).
fn two_brigades() -> T {
    let mut t = division();
    let mut second = t.rs.game.oob.leaders[&id("crawford")].clone();
    second.id = id("gordon");
    t.rs.game.oob.leaders.insert(id("gordon"), second);
    t.s.leaders
        .insert(id("gordon"), t.s.leaders[&id("crawford")].clone());
    t
}

#[test]
fn case_17_6_a_division_detaches_one_original_brigade_at_a_time() {
    let mut t = two_brigades();
    t.ok(UNION, detach("crawford"));
    assert_eq!(t.s.links[&id("williams")].detached, Some(id("crawford")));
    t.refused(UNION, detach("gordon"), "GBACW 17.6");
    t.refused(UNION, detach("crawford"), "GBACW 17.6");
}

#[test]
fn case_17_61_detachment_is_announced_in_the_initial_command_phase() {
    let mut t = division();
    t.advance_to(UNION, Phase::Movement);
    t.refused(UNION, detach("crawford"), "GBACW 17.61");
}

#[test]
fn case_17_62_a_detached_brigade_moves_independently() {
    let mut t = division();
    t.ok(UNION, detach("crawford"));
    // Out of the division's radius, a detached commander still moves
    // freely (17.21).
    t.put_leader("crawford", "1210");
    t.ok(UNION, GbacwAction::EndPhase);
    assert!(t.s.command.out_of_radius.is_empty());
    t.mv(UNION, &["crawford"], &["1209", "1208"]);
}

#[test]
fn case_17_63_a_brigade_out_of_the_radius_is_out_of_command_not_detached() {
    let mut t = division();
    t.put_leader("crawford", "1210");
    t.refused(UNION, detach("crawford"), "GBACW 17.63");
    t.ok(UNION, GbacwAction::EndPhase);
    assert!(t.s.command.out_of_radius.contains(&id("crawford")));
}

#[test]
fn case_17_64_a_brigade_attaches_within_the_receiving_radius() {
    let mut t = two_brigades();
    t.put_leader("bayard", "0102");
    t.ok(UNION, attach("bayard", "williams"));
    assert_eq!(t.s.links[&id("williams")].attached, Some(id("bayard")));
    // Now Williams may spend points on him, and his radius holds him.
    t.ok(UNION, spend("williams", "bayard", 1));
    // A brigade of the division must be detached before it is attached,
    // and not to its own division.
    t.refused(UNION, attach("crawford", "williams"), "GBACW 17.64");
    t.ok(UNION, detach("crawford"));
    t.refused(UNION, attach("crawford", "williams"), "GBACW 17.64");
    // Out of the radius, no attaching.
    t.put_leader("bayard", "1210");
    t.refused(UNION, attach("bayard", "williams"), "GBACW 17.64");
}

#[test]
fn case_17_65_nothing_attaches_or_detaches_a_brigade_by_itself() {
    let mut t = division();
    t.ok(UNION, detach("crawford"));
    // Turns pass, the division commander leaves the map: still detached.
    t.advance_to(REBEL, Phase::InitialCommand);
    t.s.leaders.get_mut(&id("williams")).unwrap().hex = None;
    t.advance_to(UNION, Phase::InitialCommand);
    assert_eq!(t.s.links[&id("williams")].detached, Some(id("crawford")));
}

#[test]
fn case_17_66_independent_brigades_need_no_division() {
    let mut t = T::empty();
    t.put_leader("bayard", "1210");
    t.put("1-nj-c", "1209", "n", Formation::Mounted);
    t.refused(
        UNION,
        GbacwAction::Detach {
            brigade: id("bayard"),
        },
        "GBACW 17.66",
    );
    t.ok(UNION, GbacwAction::EndPhase);
    assert!(t.s.command.out_of_radius.is_empty());
    assert!(t.s.command.out_of_command.is_empty());
}

#[test]
fn case_17_68_units_of_a_detached_brigade_still_answer_to_its_commander() {
    let mut t = division();
    t.put("5-conn", "0710", "n", Formation::Line);
    t.ok(
        UNION,
        GbacwAction::Detach {
            brigade: id("crawford"),
        },
    );
    t.ok(UNION, GbacwAction::EndPhase);
    assert!(t.s.command.out_of_command.contains(&id("5-conn")));
}

#[test]
fn case_17_52_leaders_end_the_movement_phase_with_a_unit_or_far_from_the_enemy() {
    let mut t = division();
    t.put("5-conn", "0101", "s", Formation::Line);
    t.put("2-va", "0106", "n", Formation::Line);
    t.ok(UNION, GbacwAction::EndPhase);
    // Crawford is alone at 0105, next to 2 Va; Williams is with 5 Conn.
    let e = t.refused(UNION, GbacwAction::EndPhase, "GBACW 17.52");
    // The refusal names a hex he can reach, no farther than 5 Conn's.
    let named = e.message.split("can reach ").nth(1).unwrap();
    let named = HexNumber::parse(&named[..4]).unwrap();
    let reach = t.rs.reachable(&t.s, &id("crawford")).unwrap();
    assert!(reach.cost(named) <= reach.cost(n("0101")), "{e}");
    t.mv(UNION, &["crawford"], &["0104", "0103", "0102", "0101"]);
    t.ok(UNION, GbacwAction::EndPhase);
    // A leader who can reach no such hex does not hold up the phase.
    let mut t = division();
    t.put("2-va", "0106", "n", Formation::Line);
    t.ok(UNION, GbacwAction::EndPhase);
    t.s.leaders.get_mut(&id("crawford")).unwrap().moved.mp = Mp::from_whole(12);
    t.s.leaders.get_mut(&id("williams")).unwrap().moved.mp = Mp::from_whole(12);
    t.ok(UNION, GbacwAction::EndPhase);
}

#[test]
fn command_preview_matches_the_check() {
    let mut t = division();
    t.put("10-me", "0710", "n", Formation::Line);
    let preview = t.rs.command_preview(&t.s, &id("union"));
    t.ok(UNION, GbacwAction::EndPhase);
    assert_eq!(preview, t.s.command);
}

#[test]
fn case_2_0_one_command_point_adds_one_hex_of_radius() {
    let mut t = division();
    t.put_leader("crawford", "0103");
    t.put("10-me", "0110", "n", Formation::Line); // 7 hexes: ER 5 + 2
    t.ok(UNION, spend("williams", "crawford", 1));
    assert!(
        t.rs.command_preview(&t.s, &id("union"))
            .out_of_command
            .contains(&id("10-me"))
    );
    t.ok(UNION, spend("williams", "crawford", 1));
    assert!(
        t.rs.command_preview(&t.s, &id("union"))
            .out_of_command
            .is_empty()
    );
}

#[test]
fn case_17_1_brigade_commanders_command_their_regiments_within_their_rating() {
    // Ronald's Effectiveness Radius is 3, Crawford's 5.
    let mut t = T::empty();
    t.advance_to(REBEL, Phase::InitialCommand);
    t.put_leader("ronald", "0101");
    t.put("2-va", "0104", "n", Formation::Line);
    t.put("10-va", "0105", "n", Formation::Line);
    t.ok(REBEL, GbacwAction::EndPhase);
    assert_eq!(t.s.command.out_of_command, [id("10-va")].into());
    // Only his own brigade: Crawford's regiment near him is not his.
    let mut t = T::empty();
    t.put_leader("crawford", "1210");
    t.put_leader("bayard", "0101");
    t.put("10-me", "0102", "n", Formation::Line);
    t.ok(UNION, GbacwAction::EndPhase);
    assert!(t.s.command.out_of_command.contains(&id("10-me")));
}

#[test]
fn case_17_2_division_commanders_have_a_radius_and_command_points() {
    // Winder: Divisional Integrity Radius 4, 2 Command Points.
    let mut t = T::empty();
    t.advance_to(REBEL, Phase::InitialCommand);
    t.put_leader("winder", "0101");
    t.put_leader("ronald", "0105");
    t.ok(REBEL, spend("winder", "ronald", 2));
    t.refused(REBEL, spend("winder", "ronald", 1), "GBACW 17.22");
    t.put_leader("ronald", "0106");
    t.ok(REBEL, GbacwAction::EndPhase);
    assert_eq!(t.s.command.out_of_radius, [id("ronald")].into());
}

#[test]
fn case_17_51_any_number_of_leaders_share_a_hex() {
    let mut t = division();
    t.advance_to(UNION, Phase::Movement);
    for l in ["banks", "bayard"] {
        t.put_leader(l, "0106");
        t.mv(UNION, &[l], &["0105"]);
    }
    t.mv(UNION, &["williams"], &["0102", "0103", "0104", "0105"]);
    assert_eq!(
        t.s.leaders
            .values()
            .filter(|l| l.hex == Some(n("0105")))
            .count(),
        4
    );
}
