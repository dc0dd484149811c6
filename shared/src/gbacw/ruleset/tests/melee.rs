//! Melee in the hosted ruleset (12.0–12.98): declaration, retreat before
//! melee as the defender's decision, resolution at the end of the Melee
//! Phase.

use super::*;
use crate::gbacw::oob::Marker;
use crate::gbacw::ruleset::event::MeleeReport;
use crate::gbacw::ruleset::state::FireShare;

/// 5 Conn with its brigade commander (17.11: in command) against 10 Va.
pub(super) fn duel() -> T {
    let mut t = T::empty();
    t.put("5-conn", "0605", "n", Formation::Line);
    t.put_leader("crawford", "0605");
    t.put("10-va", "0705", "n", Formation::Line);
    t.face_towards("5-conn", "0705");
    t.face_towards("10-va", "0605");
    t
}

/// [`duel`] with 5 Conn's melee on 10 Va declared: 10 Va's answer waits.
pub(super) fn duel_declared() -> T {
    let mut t = duel();
    t.advance_to(UNION, Phase::RetreatBeforeMelee);
    t.ok(UNION, melee("0705", &["5-conn"]));
    assert!(t.s.rbm.is_some());
    t
}

fn melee(target: &str, attackers: &[&str]) -> GbacwAction {
    GbacwAction::DeclareMelee {
        target: n(target),
        attackers: ids(attackers),
    }
}

/// A hex next to `from` that is `d` hexes from `other`.
pub(super) fn neighbour_at(t: &T, from: &str, other: &str, d: u32) -> HexNumber {
    let grid = &t.rs.game().map.grid;
    grid.neighbours_on_map(n(from))
        .into_iter()
        .map(|(_, h)| h)
        .find(|h| grid.distance(n(other), *h) == d)
        .unwrap()
}

#[test]
fn case_12_8_a_declared_melee_is_answered_at_once_by_the_defender() {
    let mut t = duel();
    t.advance_to(UNION, Phase::RetreatBeforeMelee);
    t.ok(UNION, melee("0705", &["5-conn"]));
    let offer = t.s.rbm.clone().expect("12.8: the defender answers at once");
    assert_eq!(offer.seat, REBEL);
    assert_eq!(offer.threatened, ids(&["10-va"]));
    assert_eq!(t.rs.acting_seat(&t.s), Some(REBEL));
    let pending = t.rs.pending(&t.s);
    assert_eq!(pending[0].default, GbacwAction::StandFast);
    assert_eq!(pending[0].rule, "GBACW 12.8");
    let e = t.refused(UNION, GbacwAction::EndPhase, "GBACW 12.8");
    assert_eq!(e.code, RuleCode::NotYourTurn);
    assert!(
        t.rs.legal_actions(&t.s, REBEL)
            .contains(&GbacwAction::StandFast)
    );
    t.ok(REBEL, GbacwAction::StandFast);
    assert!(t.s.rbm.is_none());
    assert_eq!(t.s.melees.len(), 1);
}

#[test]
fn case_12_81_retreat_before_melee_one_or_two_hexes_away() {
    let mut t = duel();
    t.advance_to(UNION, Phase::RetreatBeforeMelee);
    t.ok(UNION, melee("0705", &["5-conn"]));
    let away = neighbour_at(&t, "0705", "0605", 2);
    let toward = neighbour_at(&t, "0705", "0605", 1);
    // 12.82: not into the enemy's Zone of Control.
    t.refused(
        REBEL,
        GbacwAction::RetreatBeforeMelee {
            units: ids(&["10-va"]),
            path: vec![toward],
        },
        "GBACW 12.82",
    );
    // 12.81: one or two hexes, each farther from the hex.
    t.refused(
        REBEL,
        GbacwAction::RetreatBeforeMelee {
            units: ids(&["10-va"]),
            path: vec![away, n("0705")],
        },
        "GBACW 12.81",
    );
    t.refused(
        REBEL,
        GbacwAction::RetreatBeforeMelee {
            units: ids(&["10-va"]),
            path: vec![],
        },
        "GBACW 12.81",
    );
    t.roll(
        REBEL,
        GbacwAction::RetreatBeforeMelee {
            units: ids(&["10-va"]),
            path: vec![away],
        },
        3,
    );
    // 12.83: 5 Conn may fire withdrawal fire first; it declines.
    assert!(t.s.decision.is_some());
    t.roll(UNION, GbacwAction::DeclineWithdrawalFire, 3);
    let u = &t.s.units[&id("10-va")];
    // 12.83: a morale check whatever happens; a failed one routs it on.
    assert!(u.hex == Some(away) || u.status.markers.contains(&Marker::Rout));
    assert!(t.s.rbm.is_none());
}

#[test]
fn case_12_87_pinned_units_do_not_retreat_before_melee() {
    let mut t = duel();
    t.s.units
        .get_mut(&id("10-va"))
        .unwrap()
        .status
        .markers
        .insert(Marker::Pin);
    t.advance_to(UNION, Phase::RetreatBeforeMelee);
    t.ok(UNION, melee("0705", &["5-conn"]));
    assert!(t.s.rbm.as_ref().unwrap().threatened.is_empty());
    let away = neighbour_at(&t, "0705", "0605", 2);
    t.refused(
        REBEL,
        GbacwAction::RetreatBeforeMelee {
            units: ids(&["10-va"]),
            path: vec![away],
        },
        "GBACW 12.8",
    );
}

#[test]
fn case_12_21_attackers_start_adjacent() {
    let mut t = duel();
    let far = neighbour_at(&t, "0705", "0605", 2).to_string();
    t.put("10-va", &far, "n", Formation::Line);
    t.advance_to(UNION, Phase::RetreatBeforeMelee);
    t.refused(UNION, melee(&far, &["5-conn"]), "GBACW 12.21");
}

#[test]
fn case_17_11_out_of_command_units_do_not_initiate_melee() {
    let mut t = duel();
    t.advance_to(UNION, Phase::RetreatBeforeMelee);
    t.s.command.out_of_command.insert(id("5-conn"));
    t.refused(UNION, melee("0705", &["5-conn"]), "GBACW 17.11");
}

#[test]
fn case_12_24_column_cannot_initiate_melee() {
    let mut t = duel();
    t.s.units.get_mut(&id("5-conn")).unwrap().status.formation = Formation::Column;
    t.advance_to(UNION, Phase::RetreatBeforeMelee);
    t.refused(UNION, melee("0705", &["5-conn"]), "GBACW 12.24");
}

#[test]
fn case_12_22_a_unit_that_fired_melees_only_the_hex_it_fired_at() {
    let mut t = duel();
    // 2 Va in another hex in front of 5 Conn.
    let grid = t.rs.game().map.grid.clone();
    let facing = t.s.units[&id("5-conn")].facing;
    let other = grid
        .neighbours_on_map(n("0605"))
        .into_iter()
        .map(|(_, h)| h)
        .find(|h| {
            *h != n("0705")
                && crate::gbacw::facing::can_fire_through(
                    &grid,
                    n("0605"),
                    facing,
                    Formation::Line,
                    *h,
                )
        })
        .unwrap();
    t.put("2-va", &other.to_string(), "n", Formation::Line);
    t.advance_to(UNION, Phase::OffensiveFire);
    t.ok(
        UNION,
        GbacwAction::DeclareFire {
            target: other,
            firers: vec![FireShare {
                unit: id("5-conn"),
                points: 4,
            }],
        },
    );
    t.roll(UNION, GbacwAction::EndPhase, 11);
    assert_eq!(t.phase(), Some(Phase::RetreatBeforeMelee));
    if t.s.units[&id("5-conn")].status.markers.is_empty() {
        t.refused(UNION, melee("0705", &["5-conn"]), "GBACW 12.22");
    }
}

fn reports(events: &[GbacwEvent]) -> Vec<MeleeReport> {
    events
        .iter()
        .filter_map(|e| match e {
            GbacwEvent::MeleeResolved(r) => Some(r.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn case_12_0_melees_resolved_as_the_melee_phase_ends() {
    let mut kinds = std::collections::BTreeSet::new();
    for seed in 0..80 {
        let mut t = duel();
        t.advance_to(UNION, Phase::RetreatBeforeMelee);
        t.ok(UNION, melee("0705", &["5-conn"]));
        t.ok(REBEL, GbacwAction::StandFast);
        t.ok(UNION, GbacwAction::EndPhase);
        assert_eq!(t.phase(), Some(Phase::Melee));
        let (events, drawn) = t.roll(UNION, GbacwAction::EndPhase, seed);
        let r = &reports(&events)[0];
        // 12.11, 12.31, 12.4, 12.52: 6 less the stream's penalty, plus
        // Crawford's 1, against 2; 10 Va's 4 is not two below 5 Conn's 5.
        let game = t.rs.game();
        let penalty = crate::gbacw::melee::crossing_penalty(
            &game.map,
            &game.charts.combat,
            n("0605"),
            n("0705"),
        );
        assert_eq!(penalty, 1, "the test map's stream runs between them");
        let attack = 6 - i32::from(penalty) + 1;
        assert_eq!(
            (r.attack, r.defence, r.differential),
            (attack, 2, attack - 2)
        );
        assert!(drawn.contains(&u16::from(r.die)));
        assert!(t.s.melees.is_empty());
        kinds.insert(format!("{:?}", r.result));
        for (uid, u) in &t.s.units {
            let printed = t.rs.game().oob.units[uid].strength;
            assert_eq!(u.status.strength + u.killed + u.captured, printed, "{uid}");
        }
    }
    assert!(kinds.len() > 1, "one result only: {kinds:?}");
}

/// 5 Conn (with Crawford) melees 10 Va, made `strength` Strength Points
/// (and routed if `routed`), in open ground; the Melee Phase ends with
/// dice seeded by `seed`. Returns the table, the events and 10 Va's result.
fn melee_on_10_va(
    strength: u8,
    routed: bool,
    seed: u64,
    config: Option<crate::gbacw::ruleset::GbacwConfig>,
) -> (T, Vec<GbacwEvent>, crate::gbacw::tables::MeleeEffect) {
    let mut t = match config {
        Some(c) => {
            let mut t = T::with(c);
            for u in t.s.units.values_mut() {
                u.hex = None;
            }
            for l in t.s.leaders.values_mut() {
                l.hex = None;
            }
            t
        }
        None => T::empty(),
    };
    t.put("5-conn", "0605", "n", Formation::Line);
    t.put_leader("crawford", "0605");
    t.put("10-va", "0705", "n", Formation::Line);
    t.face_towards("5-conn", "0705");
    t.face_towards("10-va", "0605");
    t.rs.game.oob.units.get_mut(&id("10-va")).unwrap().strength = strength;
    let x = t.s.units.get_mut(&id("10-va")).unwrap();
    x.status.strength = strength;
    if routed {
        x.status.markers.insert(Marker::Rout);
    }
    t.advance_to(UNION, Phase::RetreatBeforeMelee);
    t.ok(UNION, melee("0705", &["5-conn"]));
    if t.s.rbm.is_some() {
        t.ok(REBEL, GbacwAction::StandFast);
    }
    t.ok(UNION, GbacwAction::EndPhase);
    let (events, _) = t.roll(UNION, GbacwAction::EndPhase, seed);
    let effect = reports(&events)[0].result.defender;
    (t, events, effect)
}

/// Answer every retreat order waiting (10 Va's) with its first legal
/// path, dice seeded by `seed`; the events, in order.
fn answer_retreats(t: &mut T, seed: u64) -> Vec<GbacwEvent> {
    let mut all = Vec::new();
    for _ in 0..4 {
        let Some(order) = t.s.retreats.first().cloned() else {
            break;
        };
        let a = crate::gbacw::ruleset::combat::effects::default_retreat(&t.rs, &t.s, &order);
        let (events, _) = t.roll(order.seat, a, seed);
        all.extend(events);
    }
    assert!(t.s.retreats.is_empty());
    all
}

/// The lengths of `unit`'s retreats among `events`, and where its first
/// morale check comes (with its outcome).
fn retreats_and_check(events: &[GbacwEvent], unit: &str) -> (Vec<usize>, Option<(usize, bool)>) {
    let lengths = events
        .iter()
        .filter_map(|e| match e {
            GbacwEvent::UnitRetreated { unit: u, path } if *u == id(unit) => Some(path.len()),
            _ => None,
        })
        .collect();
    let check = events.iter().enumerate().find_map(|(i, e)| match e {
        GbacwEvent::MoraleChecked {
            unit: u, failed, ..
        } if *u == id(unit) => Some((i, *failed)),
        _ => None,
    });
    (lengths, check)
}

/// GBACW 12.92: "At the end of the retreat, the owning Player conducts a
/// morale check." 12.98: "Retreats are always executed after losses;
/// thus, a C2R2 means remove two Points which are captured, then retreat
/// the remaining units two hexes." 13.31: routed units "must retreat
/// three hexes …, in addition to any other retreats that may have been
/// mandated in that Combat Phase." 10 Va (4 SP) takes a C#R2 with a
/// choice of paths: no check until its owner has retreated it two hexes;
/// then the check, and if it routs, three hexes more (2 + 3).
#[test]
fn case_12_92_melee_retreat_then_check_and_a_rout_adds_three() {
    let (mut routed, mut held) = (false, false);
    for seed in 0..300 {
        let (mut t, events, effect) = melee_on_10_va(4, false, seed, None);
        let crate::gbacw::tables::MeleeEffect::CaptureRetreat { retreat: 2, .. } = effect else {
            continue;
        };
        let Some(order) = t.s.retreats.first().cloned() else {
            continue;
        };
        assert_eq!(
            (order.unit.clone(), order.length, order.rout),
            (id("10-va"), 2, false)
        );
        let (_, early) = retreats_and_check(&events, "10-va");
        assert!(
            early.is_none(),
            "seed {seed}: checked before the retreat: {events:?}"
        );
        let after = answer_retreats(&mut t, seed + 10_000);
        let (lengths, check) = retreats_and_check(&after, "10-va");
        let (at, failed) = check.expect("12.92: a check at the end of the retreat");
        let first_retreat = after
            .iter()
            .position(|e| matches!(e, GbacwEvent::UnitRetreated { .. }))
            .unwrap();
        assert!(first_retreat < at, "seed {seed}: {after:?}");
        if t.hex("10-va").is_none() {
            continue;
        }
        let x = &t.s.units[&id("10-va")];
        if failed {
            assert_eq!(lengths.iter().sum::<usize>(), 5, "seed {seed}: {after:?}");
            assert!(x.status.markers.contains(&Marker::Rout));
            routed = true;
        } else {
            assert_eq!(lengths, [2], "seed {seed}: {after:?}");
            assert!(!x.status.markers.contains(&Marker::Rout));
            held = true;
        }
        if routed && held {
            return;
        }
    }
    panic!("no seed both routed and held 10 Va (routed {routed}, held {held})");
}

/// GBACW 12.92 against 13.33. 12.92: an "R" result "means that the
/// affected unit(s) must retreat the given number of hexes. At the end of
/// the retreat, the owning Player conducts a morale check." 13.33: "A
/// unit that is routed and suffers additional casualties while in a state
/// of rout will rout again. Routed units suffering a second rout result
/// (e.g., from a P/R result on the Fire CRT) must retreat an additional
/// three hexes, remaining routed." 10 Va, routed, takes a plain R2: it
/// retreats two, then checks; failing, it routs again three hexes more,
/// passing it stays (routed) where the retreat left it. With a capture
/// (C1R2) it suffered casualties: after the two hexes it routs again
/// without a check.
#[test]
fn case_13_33_a_routed_unit_given_r2_retreats_two_then_checks() {
    let (mut plain_failed, mut plain_passed, mut captured) = (false, false, false);
    for seed in 0..400 {
        // Routed, 10 SP melee at 5 (13.32): 6 + 1 - 5 = +1.
        let (mut t, events, effect) = melee_on_10_va(10, true, seed, None);
        let crate::gbacw::tables::MeleeEffect::CaptureRetreat {
            captured: c,
            retreat: 2,
        } = effect
        else {
            continue;
        };
        let (_, early) = retreats_and_check(&events, "10-va");
        assert!(early.is_none(), "seed {seed}: {events:?}");
        let mut all = events.clone();
        all.extend(answer_retreats(&mut t, seed + 10_000));
        let (lengths, check) = retreats_and_check(&all, "10-va");
        if t.hex("10-va").is_none() {
            continue;
        }
        assert_eq!(lengths.first(), Some(&2), "seed {seed}: {all:?}");
        assert!(
            t.s.units[&id("10-va")]
                .status
                .markers
                .contains(&Marker::Rout)
        );
        let total: usize = lengths.iter().sum();
        match (c, check) {
            (0, Some((_, true))) => {
                assert_eq!(total, 5, "seed {seed}: {all:?}");
                plain_failed = true;
            }
            (0, Some((_, false))) => {
                assert_eq!(total, 2, "seed {seed}: {all:?}");
                plain_passed = true;
            }
            (0, None) => panic!("seed {seed}: R2 with no check: {all:?}"),
            (_, check) => {
                assert!(check.is_none(), "seed {seed}: {all:?}");
                assert_eq!(total, 5, "seed {seed}: {all:?}");
                captured = true;
            }
        }
        if plain_failed && plain_passed && captured {
            return;
        }
    }
    panic!("not every case met: R2 failed {plain_failed}, passed {plain_passed}, C1R2 {captured}");
}

/// GBACW 13.33 read the other way, as a named option
/// (`routed-melee-reroutes`): "Routed units suffering a second rout
/// result (e.g., from a P/R result on the Fire CRT) must retreat an
/// additional three hexes, remaining routed" — the P/R example is a
/// result that calls for a check, so a melee R (13.0: a check "whenever
/// it … receives an "R" result in melee") is read as a second rout
/// result. 10 Va, routed, given a plain R2 retreats two and routs again
/// three more, with no check.
#[test]
fn case_13_33_the_reroute_reading_is_a_named_option() {
    let config = crate::gbacw::ruleset::GbacwConfig {
        readings_001: ["routed-melee-reroutes".to_string()].into(),
        ..Default::default()
    };
    assert!(config.rule_options().unwrap().routed_melee_reroutes);
    for seed in 0..400 {
        let (mut t, events, effect) = melee_on_10_va(10, true, seed, Some(config.clone()));
        let crate::gbacw::tables::MeleeEffect::CaptureRetreat {
            captured: 0,
            retreat: 2,
        } = effect
        else {
            continue;
        };
        let mut all = events.clone();
        all.extend(answer_retreats(&mut t, seed + 10_000));
        if t.hex("10-va").is_none() {
            continue;
        }
        let (lengths, check) = retreats_and_check(&all, "10-va");
        assert!(check.is_none(), "seed {seed}: {all:?}");
        assert_eq!(lengths.first(), Some(&2), "seed {seed}: {all:?}");
        assert_eq!(lengths.iter().sum::<usize>(), 5, "seed {seed}: {all:?}");
        assert!(
            t.s.units[&id("10-va")]
                .status
                .markers
                .contains(&Marker::Rout)
        );
        return;
    }
    panic!("no seed gave routed 10 Va a plain R2");
}
