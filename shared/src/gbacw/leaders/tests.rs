//! Leader casualties, capture, presence and succession against the shipped
//! 17.76 table and the test order of battle.

use super::*;
use crate::gbacw::melee::side_total;
use crate::gbacw::morale::{MoraleMods, morale_check};
use crate::gbacw::tables::{CasualtyCause, LeaderLoss};
use crate::gbacw::testkit::{dice, id, n, world};

#[test]
fn case_17_71_leaders_can_be_killed_wounded_or_captured() {
    let w = world();
    let t = &w.tables.leader_casualty;
    let kinds: Vec<Option<LeaderLoss>> = [
        (CasualtyCause::SmallArms, 12),
        (CasualtyCause::SmallArms, 5),
        (CasualtyCause::CMelee, 3),
        (CasualtyCause::SmallArms, 7),
    ]
    .iter()
    .map(|(c, r)| roll_leaders(t, *c, &[id("crawford")], true, dice(&[*r]))[0].loss)
    .collect();
    assert_eq!(
        kinds,
        [
            Some(LeaderLoss::Killed),
            Some(LeaderLoss::Wounded),
            Some(LeaderLoss::Captured),
            None
        ]
    );
}

#[test]
fn case_17_72_each_leader_rolls_separately_and_before_morale() {
    let w = world();
    let t = &w.tables.leader_casualty;
    // No casualty, no roll.
    assert!(
        roll_leaders(
            t,
            CasualtyCause::Artillery,
            &[id("crawford")],
            false,
            dice(&[2])
        )
        .is_empty()
    );
    // Two leaders: two rolls, in id order, one per leader.
    let r = roll_leaders(
        t,
        CasualtyCause::Artillery,
        &[id("williams"), id("crawford")],
        true,
        dice(&[2, 7]),
    );
    assert_eq!(r.len(), 2);
    assert_eq!(
        (r[0].leader.clone(), r[0].loss),
        (id("crawford"), Some(LeaderLoss::Killed))
    );
    assert_eq!((r[1].leader.clone(), r[1].loss), (id("williams"), None));
    // The leader roll comes first: killed (1+1 = 2 on the artillery column),
    // he no longer gives -1, so the morale die 4 routs a morale-3 unit.
    let checks = [UnitCheck {
        unit: id("5-conn"),
        morale: 3,
        mods: MoraleMods::default(),
    }];
    let killed = casualties_then_morale(
        t,
        CasualtyCause::Artillery,
        &[id("crawford")],
        &checks,
        dice(&[1, 1, 4]),
    );
    assert_eq!(killed.routed, vec![id("5-conn")]);
    // Same morale die with the leader unhurt (3+4 = 7): -1 holds the unit.
    let unhurt = casualties_then_morale(
        t,
        CasualtyCause::Artillery,
        &[id("crawford")],
        &checks,
        dice(&[3, 4, 4]),
    );
    assert_eq!(unhurt.leaders[0].loss, None);
    assert!(unhurt.routed.is_empty());
}

#[test]
fn case_17_73_lone_leader_after_melee_is_captured() {
    assert!(lone_after_melee(0));
    assert!(!lone_after_melee(1));
}

#[test]
fn case_17_54_lone_leader_in_enemy_occupied_hex_is_captured() {
    assert!(captured_on_entry(0, true));
    assert!(!captured_on_entry(1, true));
    assert!(!captured_on_entry(0, false));
}

#[test]
fn case_17_75_enemy_moving_onto_lone_leader_captures_him() {
    // Any phase: the test is only the hex's content.
    assert!(captured_on_entry(0, true));
    assert!(!captured_on_entry(2, true));
}

#[test]
fn case_17_53_leader_jumps_to_nearest_unit_or_is_captured_when_trapped() {
    let w = world();
    let g = &w.map.grid;
    let units = [(id("10-me"), n("0610")), (id("5-conn"), n("0303"))];
    assert_eq!(
        relocate_after_fire(g, n("0202"), false, &units),
        Relocation::Join(id("5-conn"), n("0303"))
    );
    assert_eq!(
        relocate_after_fire(g, n("0202"), true, &units),
        Relocation::Captured
    );
    assert_eq!(
        relocate_after_fire(g, n("0202"), false, &[]),
        Relocation::Captured
    );
    // Trapped: every neighbour blocked; one free neighbour is a way out.
    assert!(trapped(g, n("0505"), |_| true));
    assert!(!trapped(g, n("0505"), |h| h != n("0506")));
    // A corner hex: the map edge closes the missing sides.
    let corner_free: Vec<_> = g
        .neighbours_on_map(n("0101"))
        .into_iter()
        .map(|(_, h)| h)
        .collect();
    assert!(trapped(g, n("0101"), |h| corner_free.contains(&h)));
}

#[test]
fn case_17_51_only_one_leader_affects_a_unit() {
    let here = [id("williams"), id("crawford"), id("banks")];
    assert_eq!(
        effective_leader(&here, Some(&id("crawford"))),
        Some(&id("crawford"))
    );
    assert_eq!(
        effective_leader(&here, Some(&id("ronald"))),
        Some(&id("banks"))
    );
    assert_eq!(effective_leader(&[], None), None);
    // Three leaders in the hex still add one melee point (12.4), not three.
    assert_eq!(
        side_total(&[4], 20, effective_leader(&here, None).is_some(), false),
        5
    );
}

#[test]
fn case_17_52_leaders_end_movement_with_a_unit_unless_far_from_enemy() {
    assert!(leader_may_end_move(true, Some(1)));
    assert!(!leader_may_end_move(false, Some(4)));
    assert!(leader_may_end_move(false, Some(5)));
    assert!(leader_may_end_move(false, None));
}

#[test]
fn case_9_86_pinned_leader_cannot_move_but_keeps_ratings() {
    assert!(!leader_may_move(true, false));
    assert!(leader_may_move(true, true));
    assert!(leader_may_move(false, false));
}

#[test]
fn case_17_4_leader_adds_one_in_melee_and_takes_one_off_morale() {
    assert_eq!(side_total(&[3, 2], 20, true, false), 6);
    assert_eq!(side_total(&[3, 2], 20, false, false), 5);
    let with = MoraleMods {
        leader: true,
        ..MoraleMods::default()
    };
    // Die 4 against morale 3: routs alone, holds with a leader.
    assert!(morale_check(3, 4, MoraleMods::default()));
    assert!(!morale_check(3, 4, with));
}

#[test]
fn case_13_34_leaders_are_never_routed() {
    let stack = [
        StackEntry {
            id: id("crawford"),
            leader: true,
        },
        StackEntry {
            id: id("5-conn"),
            leader: false,
        },
        StackEntry {
            id: id("10-me"),
            leader: false,
        },
    ];
    assert_eq!(
        rout_movers(&stack, &[id("5-conn")], false),
        vec![id("5-conn")]
    );
}

#[test]
fn case_17_74_leaders_may_retreat_with_routers() {
    let stack = [
        StackEntry {
            id: id("crawford"),
            leader: true,
        },
        StackEntry {
            id: id("5-conn"),
            leader: false,
        },
    ];
    assert_eq!(
        rout_movers(&stack, &[id("5-conn")], true),
        vec![id("crawford"), id("5-conn")]
    );
    // Nobody routed: the leader stays whatever the owner says.
    assert!(rout_movers(&stack, &[], true).is_empty());
}

#[test]
fn case_17_81_lost_brigade_leader_flips_to_replacement() {
    let w = world();
    let s = succession(&w.oob, &id("crawford"), false, None).unwrap();
    let Succession::Flip { leader, ratings } = s else {
        panic!("{s:?}")
    };
    assert_eq!(leader, id("crawford"));
    assert_eq!(
        (
            ratings.effectiveness_radius,
            ratings.rally,
            ratings.promoted_radius
        ),
        (3, 1, Some(4))
    );
}

#[test]
fn case_17_82_lost_replacement_is_redeployed_each_time() {
    let w = world();
    let again = succession(&w.oob, &id("crawford"), true, None).unwrap();
    assert!(
        matches!(again, Succession::Redeploy { ref leader, ratings } if *leader == id("crawford") && ratings.effectiveness_radius == 3)
    );
    let generic = succession(&w.oob, &id("u-repl-1"), false, None).unwrap();
    assert!(
        matches!(generic, Succession::Redeploy { ratings, .. } if ratings.effectiveness_radius == 2)
    );
    // And the next loss of the same counter gives the same answer: no limit.
    assert_eq!(
        succession(&w.oob, &id("crawford"), true, None).unwrap(),
        again
    );
}

#[test]
fn case_17_83_lost_division_leader_promotes_a_subordinate() {
    let w = world();
    assert_eq!(
        promotion_candidates(&w.oob, &id("williams")),
        vec![id("crawford")]
    );
    let s = succession(&w.oob, &id("williams"), false, None).unwrap();
    let Succession::Promote {
        promoted,
        brigade_replacement,
        ..
    } = s
    else {
        panic!()
    };
    assert_eq!(promoted, id("crawford"));
    // His brigade passes to its replacement.
    assert!(matches!(*brigade_replacement, Succession::Flip { .. }));
    // The Exclusive Rules may only choose among subordinates.
    assert_eq!(
        succession(&w.oob, &id("williams"), false, Some(&id("ronald"))),
        Err("GBACW 17.83")
    );
    assert_eq!(
        succession(&w.oob, &id("banks"), false, None),
        Ok(Succession::ExclusiveRules)
    );
}

#[test]
fn case_17_85_promoted_leader_has_a_radius_but_no_command_points() {
    let w = world();
    let Succession::Promote {
        integrity_radius,
        command_points,
        ..
    } = succession(&w.oob, &id("williams"), false, None).unwrap()
    else {
        panic!()
    };
    assert_eq!((integrity_radius, command_points), (5, 0));
}

#[test]
fn case_17_8_replacement_placed_at_next_own_final_command_phase() {
    assert_eq!(placement_turn(3, true), 3);
    assert_eq!(placement_turn(3, false), 4);
}

#[test]
fn case_17_84_promotions_at_end_of_final_command_phase_of_the_turn() {
    // A division leader lost in the friendly Movement Phase of turn 5 is
    // replaced at the end of turn 5's Final Command Phase; one lost in the
    // enemy's later Player-Turn waits for turn 6.
    assert_eq!(placement_turn(5, true), 5);
    assert_eq!(placement_turn(5, false), 6);
}
