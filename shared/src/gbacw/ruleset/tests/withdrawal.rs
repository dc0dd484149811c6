//! Withdrawal fire as a pending decision for the enemy seat (10.1–10.19,
//! 6.23, 6.24).

use super::*;
use crate::engine::RuleCode;

/// Union's Movement Phase: 5 Conn at 0308, in the ZOC of 2 Va (0309,
/// facing north: 0208, 0308, 0408).
fn contact() -> T {
    let mut t = T::empty();
    t.advance_to(UNION, Phase::Movement);
    t.put("2-va", "0309", "n", Formation::Line);
    t.put("5-conn", "0308", "s", Formation::Line);
    t
}

fn offered(events: &[GbacwEvent]) -> WithdrawalDecision {
    match events.last() {
        Some(GbacwEvent::WithdrawalFireOffered(d)) => d.clone(),
        other => panic!("no withdrawal fire offered: {other:?}"),
    }
}

#[test]
fn case_10_1_leaving_an_enemy_zoc_offers_withdrawal_fire_to_the_enemy_seat() {
    let mut t = contact();
    let events = t.mv(UNION, &["5-conn"], &["0307", "0306"]);
    let d = offered(&events);
    assert_eq!(d.seat, REBEL);
    assert_eq!(d.trigger, Trigger::Leaving);
    assert_eq!(d.firers, ids(&["2-va"]));
    assert_eq!(d.targets, ids(&["5-conn"]));
    // 10.11: before it leaves.
    assert_eq!(t.hex("5-conn"), Some(n("0308")));
    let pending = t.rs.pending(&t.s);
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].seat, REBEL);
    assert_eq!(pending[0].rule, "GBACW 10.1");
    assert_eq!(pending[0].default, GbacwAction::DeclineWithdrawalFire);
    // Union waits; Confederate answers; the move goes on.
    let e = t.refused(UNION, mv(&["5-conn"], &["0307"]), "GBACW 10.1");
    assert_eq!(e.code, RuleCode::NotYourTurn);
    t.refused(REBEL, GbacwAction::EndPhase, "GBACW 10.1");
    assert_eq!(
        t.rs.legal_actions(&t.s, REBEL),
        [
            GbacwAction::DeclineWithdrawalFire,
            GbacwAction::WithdrawalFire {
                firers: ids(&["2-va"])
            }
        ]
    );
    assert!(t.rs.legal_actions(&t.s, UNION).is_empty());
    t.ok(REBEL, GbacwAction::DeclineWithdrawalFire);
    assert_eq!(t.hex("5-conn"), Some(n("0306")));
    assert_eq!(t.spent("5-conn"), Mp::from_whole(2));
    assert!(t.s.decision.is_none());
}

#[test]
fn case_10_19_only_the_offered_units_fire_each_once() {
    let mut t = contact();
    t.mv(UNION, &["5-conn"], &["0307"]);
    let ctx = crate::engine::ActionContext {
        seat: REBEL,
        seq: 1,
        by_default: false,
    };
    let fire = GbacwAction::WithdrawalFire {
        firers: ids(&["2-va"]),
    };
    // 10.11: the fire is rolled at once, so the client sends its link.
    assert!(t.rs.rolls_dice(&t.s, &ctx, &fire));
    assert!(
        !t.rs
            .rolls_dice(&t.s, &ctx, &GbacwAction::DeclineWithdrawalFire)
    );
    t.refused(
        REBEL,
        GbacwAction::WithdrawalFire {
            firers: ids(&["10-va"]),
        },
        "GBACW 10.19",
    );
    t.refused(
        REBEL,
        GbacwAction::WithdrawalFire {
            firers: ids(&["2-va", "2-va"]),
        },
        "GBACW 10.19",
    );
    t.refused(
        REBEL,
        GbacwAction::WithdrawalFire { firers: vec![] },
        "GBACW 10.19",
    );
}

#[test]
fn case_10_13_a_whole_stack_leaving_is_one_target() {
    let mut t = contact();
    t.put("10-me", "0308", "s", Formation::Line);
    let d = offered(&t.mv(UNION, &["5-conn", "10-me"], &["0307"]));
    assert_eq!(d.targets, ids(&["10-me", "5-conn"]));
}

#[test]
fn case_10_14_units_staying_behind_take_the_withdrawal_fire() {
    let mut t = contact();
    t.put("10-me", "0308", "s", Formation::Line);
    let d = offered(&t.mv(UNION, &["5-conn"], &["0307"]));
    assert_eq!(d.targets, ids(&["10-me"]));
    t.ok(REBEL, GbacwAction::DeclineWithdrawalFire);
    assert_eq!(t.hex("5-conn"), Some(n("0307")));
    assert_eq!(t.hex("10-me"), Some(n("0308")));
}

#[test]
fn case_10_16_the_decision_records_the_hex_the_unit_turns_to() {
    let mut t = contact();
    let d = offered(&t.mv(UNION, &["5-conn"], &["0207"]));
    assert_eq!(d.toward, Some(n("0207")));
    assert_eq!(d.hex, n("0308"));
    assert!(crate::gbacw::withdrawal::withdrawal_enfiladed(
        &t.rs.game.map.grid,
        n("0308"),
        n("0207"),
        Formation::Line,
        n("0309"),
    ));
}

#[test]
fn case_10_17_withdrawal_fire_stops_a_move_midway_and_resumes_it() {
    let mut t = contact();
    // 5 Conn starts outside; passes through 0308 (in the ZOC) and on.
    t.put("5-conn", "0307", "s", Formation::Line);
    let events = t.mv(UNION, &["5-conn"], &["0308", "0408", "0407"]);
    assert!(matches!(events[0], GbacwEvent::UnitMoved { .. }));
    let d = offered(&events);
    assert_eq!(d.hex, n("0308"));
    assert_eq!(
        d.resume,
        Resume::Move {
            pieces: ids(&["5-conn"]),
            path: vec![n("0408"), n("0407")],
        }
    );
    // 0408 is in the ZOC too: leaving it offers fire again.
    let d = offered(&t.ok(REBEL, GbacwAction::DeclineWithdrawalFire));
    assert_eq!(d.hex, n("0408"));
    t.ok(REBEL, GbacwAction::DeclineWithdrawalFire);
    assert_eq!(t.hex("5-conn"), Some(n("0407")));
    assert_eq!(t.spent("5-conn"), Mp::from_whole(3));
}

#[test]
fn case_10_18_leaders_leaving_an_enemy_zoc_draw_no_fire() {
    let mut t = contact();
    t.put_leader("crawford", "0308");
    let events = t.mv(UNION, &["crawford"], &["0307"]);
    assert!(matches!(events[..], [GbacwEvent::LeaderMoved { .. }]));
}

#[test]
fn case_10_19_every_eligible_enemy_unit_may_fire() {
    let mut t = contact();
    // 10 Va in 0208 facing south-east covers 0308 too; Aleghny
    // limbered does not (no ZOC), nor does White's c mounted (10.0).
    t.put("10-va", "0208", "se", Formation::Line);
    t.put("aleghny", "0409", "nw", Formation::Limbered);
    t.put("whites-c", "0407", "s", Formation::Mounted);
    let d = offered(&t.mv(UNION, &["5-conn"], &["0307"]));
    assert_eq!(d.firers, ids(&["10-va", "2-va"]));
}

#[test]
fn case_10_0_mounted_cavalry_zoc_affects_only_mounted_movers() {
    let mut t = T::empty();
    t.advance_to(UNION, Phase::Movement);
    t.put("whites-c", "0407", "s", Formation::Mounted);
    t.put("5-conn", "0308", "s", Formation::Line);
    t.put("1-nj-c", "0307", "s", Formation::Mounted);
    // Both are next to White's c (0407): 5 Conn leaves freely.
    let events = t.mv(UNION, &["5-conn"], &["0208"]);
    assert!(matches!(events[..], [GbacwEvent::UnitMoved { .. }]));
    let d = offered(&t.mv(UNION, &["1-nj-c"], &["0306"]));
    assert_eq!(d.firers, ids(&["whites-c"]));
}

#[test]
fn case_6_24_changing_formation_in_an_enemy_zoc_offers_fire() {
    let mut t = contact();
    let d = offered(&t.ok(
        UNION,
        GbacwAction::ChangeFormation {
            unit: id("5-conn"),
            to: Formation::Column,
        },
    ));
    assert_eq!(d.trigger, Trigger::FormationChange);
    assert_eq!(t.rs.pending(&t.s)[0].rule, "GBACW 6.24");
    assert_eq!(t.s.units[&id("5-conn")].status.formation, Formation::Line);
    t.ok(REBEL, GbacwAction::DeclineWithdrawalFire);
    assert_eq!(t.s.units[&id("5-conn")].status.formation, Formation::Column);
    assert_eq!(t.spent("5-conn"), Mp::from_whole(1));
}

#[test]
fn case_6_23_limbering_in_range_and_sight_of_small_arms_offers_fire() {
    let mut t = T::empty();
    t.advance_to(UNION, Phase::Movement);
    // 2 Va (rifles) three hexes off, facing the battery; no ZOC reaches it.
    t.put("4-me", "0305", "n", Formation::Unlimbered);
    t.put("2-va", "0308", "n", Formation::Line);
    let d = offered(&t.ok(
        UNION,
        GbacwAction::ChangeFormation {
            unit: id("4-me"),
            to: Formation::Limbered,
        },
    ));
    assert_eq!(d.trigger, Trigger::Limbering);
    assert_eq!(d.firers, ids(&["2-va"]));
    assert_eq!(d.targets, ids(&["4-me"]));
    t.ok(REBEL, GbacwAction::DeclineWithdrawalFire);
    assert_eq!(t.s.units[&id("4-me")].status.formation, Formation::Limbered);
    // Facing away (7.22), or a wagon crew (11.16): no fire.
    let mut t = T::empty();
    t.advance_to(UNION, Phase::Movement);
    t.put("4-me", "0305", "n", Formation::Unlimbered);
    t.put("2-va", "0308", "s", Formation::Line);
    t.put("supply-u", "0306", "s", Formation::Wagon);
    let side = t.rs.side_of(REBEL).clone();
    t.rs.game.oob.units.get_mut(&id("supply-u")).unwrap().side = side;
    let events = t.ok(
        UNION,
        GbacwAction::ChangeFormation {
            unit: id("4-me"),
            to: Formation::Limbered,
        },
    );
    assert!(matches!(events[..], [GbacwEvent::FormationChanged { .. }]));
}

#[test]
fn case_10_12_a_unit_fires_withdrawal_fire_any_number_of_times() {
    let mut t = contact();
    t.put("10-me", "0408", "s", Formation::Line);
    let first = offered(&t.mv(UNION, &["5-conn"], &["0307"]));
    t.ok(REBEL, GbacwAction::DeclineWithdrawalFire);
    let second = offered(&t.mv(UNION, &["10-me"], &["0407"]));
    assert_eq!(first.firers, ids(&["2-va"]));
    assert_eq!(second.firers, ids(&["2-va"]));
}

#[test]
fn case_3_34_the_weapon_code_decides_who_fires_at_limbering_guns() {
    let mut t = T::empty();
    t.advance_to(UNION, Phase::Movement);
    // Aleghny's N is artillery: no fire at limbering guns (6.23 is small arms).
    t.put("4-me", "0305", "n", Formation::Unlimbered);
    t.put("aleghny", "0308", "n", Formation::Unlimbered);
    let events = t.ok(
        UNION,
        GbacwAction::ChangeFormation {
            unit: id("4-me"),
            to: Formation::Limbered,
        },
    );
    assert!(matches!(events[..], [GbacwEvent::FormationChanged { .. }]));
}

#[test]
fn case_6_32_limbered_artillery_fires_no_withdrawal_fire() {
    let mut t = contact();
    t.put("2-va", "0101", "n", Formation::Line);
    // Unlimbered, Aleghny holds 0308 in its ZOC and may fire...
    t.put("aleghny", "0309", "n", Formation::Unlimbered);
    let d = offered(&t.mv(UNION, &["5-conn"], &["0307"]));
    assert_eq!(d.firers, ids(&["aleghny"]));
    t.ok(REBEL, GbacwAction::DeclineWithdrawalFire);
    // ...limbered it has no ZOC and may not fire.
    t.s.units.get_mut(&id("aleghny")).unwrap().status.formation = Formation::Limbered;
    let events = t.mv(UNION, &["5-conn"], &["0308", "0307"]);
    assert!(
        events
            .iter()
            .all(|e| matches!(e, GbacwEvent::UnitMoved { .. }))
    );
}

#[test]
fn case_6_33_column_neither_holds_a_zoc_nor_fires() {
    let mut t = contact();
    t.s.units.get_mut(&id("2-va")).unwrap().status.formation = Formation::Column;
    let events = t.mv(UNION, &["5-conn"], &["0307"]);
    assert!(matches!(events[..], [GbacwEvent::UnitMoved { .. }]));
}

#[test]
fn case_10_15_a_pinned_unit_sliding_past_a_full_hex_draws_no_second_withdrawal_fire() {
    // Found by a random Corinth game into the second day: a unit pinned
    // while leaving, sliding on through a full hex that was in the enemy's
    // ZOC too, was offered withdrawal fire again there, took its pin and
    // was left, unable to resume, in a hex over its stacking limits.
    use crate::gbacw::oob::Marker;
    use crate::gbacw::ruleset::board::Board;
    let union = id("union");
    for seed in 0..300u64 {
        let mut t = contact();
        // 0208 (in 2 Va's ZOC too) full enough that 5 Conn may only pass.
        for u in ["10-me", "28-ny", "46-pa", "27-ind", "2-me", "3-wisc"] {
            let fits = {
                let board = Board::new(&t.rs, &t.s);
                board
                    .check_stack(n("0208"), &union, &[], &[&id("5-conn")], None)
                    .is_ok()
            };
            if !fits {
                break;
            }
            t.put(u, "0208", "s", Formation::Line);
        }
        let full = Board::new(&t.rs, &t.s)
            .check_stack(n("0208"), &union, &[], &[&id("5-conn")], None)
            .is_err();
        assert!(full, "0208 takes no more");
        let events = t.mv(UNION, &["5-conn"], &["0208", "0207"]);
        assert_eq!(offered(&events).hex, n("0308"));
        let (events, _) = t.roll(
            REBEL,
            GbacwAction::WithdrawalFire {
                firers: ids(&["2-va"]),
            },
            seed,
        );
        let u = &t.s.units[&id("5-conn")];
        if !u.status.markers.contains(&Marker::Pin) || u.status.markers.contains(&Marker::Rout) {
            continue;
        }
        // Pinned: on to the first hex that holds it, and no second offer.
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, GbacwEvent::WithdrawalFireOffered(_))),
            "{events:#?}"
        );
        assert!(t.s.decision.is_none());
        assert_eq!(u.hex, Some(n("0207")));
        let board = Board::new(&t.rs, &t.s);
        for hex in ["0208", "0207"] {
            assert!(board.check_stack(n(hex), &union, &[], &[], None).is_ok());
        }
        return;
    }
    panic!("300 seeds never pinned 5 Conn");
}

/// GBACW 6.11, 10.15: withdrawal fire is fire ("treated as if it had
/// suffered casualties during any regular Fire Phase"), so "A unit in
/// Column formation that is fired upon automatically goes into Line
/// formation (this occurs after the combat has been resolved)": 5 Conn,
/// in Column, leaves 2 Va's ZOC under fire and is in Line afterwards.
#[test]
fn case_6_11_a_column_under_withdrawal_fire_goes_into_line() {
    let mut lined = 0;
    for seed in 0..20 {
        let mut t = contact();
        t.s.units.get_mut(&id("5-conn")).unwrap().status.formation = Formation::Column;
        t.mv(UNION, &["5-conn"], &["0307"]);
        let (events, _) = t.roll(
            REBEL,
            GbacwAction::WithdrawalFire {
                firers: ids(&["2-va"]),
            },
            seed,
        );
        let x = &t.s.units[&id("5-conn")];
        if x.hex.is_none() {
            continue;
        }
        assert_eq!(
            x.status.formation,
            Formation::Line,
            "seed {seed}: {events:?}"
        );
        lined += 1;
    }
    assert!(lined > 0);
}
