//! Formations (6.0–6.24) and facing (7.0–7.13).

use super::*;

fn field() -> T {
    let mut t = T::empty();
    t.advance_to(UNION, Phase::Movement);
    t
}

fn change(unit: &str, to: Formation) -> GbacwAction {
    GbacwAction::ChangeFormation { unit: id(unit), to }
}

#[test]
fn case_6_0_changing_formation_costs_movement_points() {
    let mut t = field();
    t.put("5-conn", "0107", "s", Formation::Line);
    t.ok(UNION, change("5-conn", Formation::Column));
    assert_eq!(t.s.units[&id("5-conn")].status.formation, Formation::Column);
    assert_eq!(t.spent("5-conn"), Mp::from_whole(1));
    // Wagons have no formation; infantry never mounts.
    t.put("supply-u", "0101", "s", Formation::Wagon);
    t.refused(UNION, change("supply-u", Formation::Line), "GBACW 6.0");
    t.refused(UNION, change("5-conn", Formation::Mounted), "GBACW 6.0");
    t.refused(UNION, change("5-conn", Formation::Column), "GBACW 6.0");
}

#[test]
fn case_6_21_out_of_command_units_may_not_change_formation() {
    let mut t = T::empty();
    t.put("5-conn", "1210", "n", Formation::Line);
    t.put_leader("crawford", "0101");
    t.ok(UNION, GbacwAction::EndPhase);
    t.refused(UNION, change("5-conn", Formation::Column), "GBACW 6.21");
    // 17.11: and moves one hex only.
    t.refused(UNION, mv(&["5-conn"], &["1209", "1208"]), "GBACW 17.11");
    t.mv(UNION, &["5-conn"], &["1209"]);
}

#[test]
fn case_6_22_infantry_changes_any_time_cavalry_only_at_the_end() {
    let mut t = field();
    t.put("5-conn", "0107", "s", Formation::Line);
    t.mv(UNION, &["5-conn"], &["0108"]);
    t.ok(UNION, change("5-conn", Formation::Column));
    t.mv(UNION, &["5-conn"], &["0109"]);
    // Cavalry: dismounting ends its movement.
    t.put("1-nj-c", "0301", "s", Formation::Mounted);
    t.mv(UNION, &["1-nj-c"], &["0302"]);
    t.ok(UNION, change("1-nj-c", Formation::Dismounted));
    t.refused(UNION, mv(&["1-nj-c"], &["0303"]), "GBACW 6.22");
    t.refused(UNION, change("1-nj-c", Formation::Mounted), "GBACW 6.22");
    // Without the points, no change.
    t.put("10-me", "0110", "n", Formation::Line);
    t.mv(
        UNION,
        &["10-me"],
        &["0109", "0108", "0107", "0106", "0105", "0104"],
    );
    t.refused(UNION, change("10-me", Formation::Column), "GBACW 6.22");
}

#[test]
fn case_6_22_a_dismounted_unit_without_points_left_may_not_mount() {
    let mut t = field();
    t.put("1-nj-c", "0110", "n", Formation::Dismounted);
    t.mv(
        UNION,
        &["1-nj-c"],
        &["0109", "0108", "0107", "0106", "0105"],
    );
    // One of line's six left; mounting costs 2.
    t.refused(UNION, change("1-nj-c", Formation::Mounted), "GBACW 6.22");
}

#[test]
fn case_6_11_column_formation_is_alone_in_its_hex() {
    let mut t = field();
    t.put("5-conn", "0107", "s", Formation::Line);
    t.put("10-me", "0107", "s", Formation::Line);
    t.refused(UNION, change("5-conn", Formation::Column), "GBACW 8.16");
}

#[test]
fn case_6_13_batteries_limber_and_unlimber() {
    let mut t = field();
    t.put("4-me", "0107", "s", Formation::Limbered);
    t.mv(UNION, &["4-me"], &["0108"]);
    t.ok(UNION, change("4-me", Formation::Unlimbered));
    assert_eq!(t.spent("4-me"), Mp::from_whole(3));
    t.refused(UNION, mv(&["4-me"], &["0109"]), "GBACW 6.13");
    t.ok(UNION, change("4-me", Formation::Limbered));
    t.mv(UNION, &["4-me"], &["0109"]);
}

#[test]
fn case_6_14_cavalry_mounts_and_dismounts() {
    let mut t = field();
    t.put("1-nj-c", "0107", "s", Formation::Mounted);
    t.put_leader("bayard", "0107");
    t.ok(UNION, change("1-nj-c", Formation::Dismounted));
    assert_eq!(
        t.s.units[&id("1-nj-c")].status.formation,
        Formation::Dismounted
    );
    // 8.17: no mounting among foot.
    t.advance_to(UNION, Phase::Movement);
    t.advance_to(REBEL, Phase::Movement);
    t.advance_to(UNION, Phase::Movement);
    t.put("10-me", "0107", "s", Formation::Line);
    t.refused(UNION, change("1-nj-c", Formation::Mounted), "GBACW 8.17");
}

#[test]
fn case_7_0_units_face_a_hexside_and_stacks_share_it() {
    let mut t = field();
    t.put("5-conn", "0107", "s", Formation::Line);
    t.put("10-me", "0107", "n", Formation::Line);
    t.ok(
        UNION,
        GbacwAction::Face {
            unit: id("10-me"),
            facing: dir("se"),
        },
    );
    assert_eq!(t.s.units[&id("5-conn")].facing, dir("se"));
    assert_eq!(t.s.units[&id("10-me")].facing, dir("se"));
    // A facing is one of six hexsides: a decoded 7 is refused.
    let bad: Facing = crate::codec::decode(&crate::codec::encode_infallible(&7u8), 16).unwrap();
    t.refused(
        UNION,
        GbacwAction::Face {
            unit: id("5-conn"),
            facing: bad,
        },
        "GBACW 7.0",
    );
}

#[test]
fn case_7_12_facing_is_free_and_open_even_to_units_that_may_not_move() {
    let mut t = T::empty();
    t.put("5-conn", "1210", "n", Formation::Line);
    t.put("4-me", "0101", "s", Formation::Unlimbered);
    t.ok(UNION, GbacwAction::EndPhase);
    assert!(t.s.command.out_of_command.contains(&id("5-conn")));
    for f in ["s", "sw", "nw", "n", "ne", "se"] {
        t.ok(
            UNION,
            GbacwAction::Face {
                unit: id("5-conn"),
                facing: dir(f),
            },
        );
    }
    t.ok(
        UNION,
        GbacwAction::Face {
            unit: id("4-me"),
            facing: dir("n"),
        },
    );
    assert_eq!(t.spent("5-conn"), Mp::ZERO);
    assert_eq!(t.rs.legal_facings(&t.s, &id("5-conn")).len(), 5);
    t.refused(
        UNION,
        GbacwAction::Face {
            unit: id("5-conn"),
            facing: dir("se"),
        },
        "GBACW 7.12",
    );
}

#[test]
fn case_7_13_facing_changes_only_in_the_friendly_movement_phase() {
    let mut t = T::empty();
    t.put("5-conn", "0107", "s", Formation::Line);
    t.refused(
        UNION,
        GbacwAction::Face {
            unit: id("5-conn"),
            facing: dir("n"),
        },
        "GBACW 7.13",
    );
    t.advance_to(UNION, Phase::OffensiveFire);
    t.refused(
        UNION,
        GbacwAction::Face {
            unit: id("5-conn"),
            facing: dir("n"),
        },
        "GBACW 7.13",
    );
}

#[test]
fn legal_formations_follow_the_rules() {
    let mut t = field();
    t.put("5-conn", "0107", "s", Formation::Line);
    t.put("4-me", "0301", "s", Formation::Limbered);
    assert_eq!(
        t.rs.legal_formations(&t.s, &id("5-conn")),
        [Formation::Column]
    );
    assert_eq!(
        t.rs.legal_formations(&t.s, &id("4-me")),
        [Formation::Unlimbered]
    );
    t.put("10-me", "0107", "s", Formation::Line);
    assert!(t.rs.legal_formations(&t.s, &id("5-conn")).is_empty());
}
