//! Fire in the hosted ruleset (9.0–9.8, 7.21, 7.22, 10.11, 11.21), its
//! effects (13.3x) and the Rally Phase (9.85, 13.5x, 17.13).

use super::*;
use crate::gbacw::oob::Marker;
use crate::gbacw::tables::FireResult;

/// 5 Conn (Union, 6 SP, rifles) and 10 Va (Confederate, 2 SP) face each
/// other across adjacent clear hexes on an otherwise empty field. 5 Conn's
/// brigade commander Crawford (radius 5) stands with it, so it and 10 Me
/// near it are in command and may fire offensively (17.11).
fn duel() -> T {
    let mut t = T::empty();
    t.put("5-conn", "0605", "n", Formation::Line);
    t.put_leader("crawford", "0605");
    t.put("10-va", "0705", "n", Formation::Line);
    assert_eq!(t.rs.game().map.grid.distance(n("0605"), n("0705")), 1);
    t.face_towards("5-conn", "0705");
    t.face_towards("10-va", "0605");
    t
}

/// Every unit's strength, losses and captures add up to its printed strength.
fn assert_accounted(t: &T) {
    for (uid, u) in &t.s.units {
        let printed = t.rs.game().oob.units[uid].strength;
        assert_eq!(
            u.status.strength + u.killed + u.captured,
            printed,
            "{uid}: {} alive + {} killed + {} captured",
            u.status.strength,
            u.killed,
            u.captured
        );
    }
}

#[test]
fn case_9_42_attacks_declared_then_rolled_together_at_the_end_of_the_phase() {
    let mut t = duel();
    t.put("10-me", "0604", "n", Formation::Line);
    t.face_towards("10-me", "0705");
    t.put("2-va", "0706", "n", Formation::Line);
    t.advance_to(UNION, Phase::OffensiveFire);
    t.ok(UNION, fire("0705", &[("5-conn", 4)]));
    assert_eq!(t.s.fire_plan.len(), 1);
    // Nothing rolls until the phase ends.
    assert_eq!(t.s.units[&id("10-va")].status.strength, 2);
    let second = fire("0706", &[("5-conn", 2)]);
    if t.decide(UNION, &second).is_ok() {
        t.ok(UNION, second);
    }
    let attacks = t.s.fire_plan.len();
    let (events, drawn) = t.roll(UNION, GbacwAction::EndPhase, 7);
    let r = fire_reports(&events);
    assert_eq!(r.len(), attacks);
    // One die per attack, all drawn before any effect's die.
    for (k, rep) in r.iter().enumerate() {
        assert_eq!(u16::from(rep.die), drawn[k]);
    }
    assert!(t.s.fire_plan.is_empty());
    assert_eq!(t.phase(), Some(Phase::RetreatBeforeMelee));
    assert_accounted(&t);
}

#[test]
fn case_4_0_fire_only_in_the_fire_phases() {
    let mut t = duel();
    t.advance_to(UNION, Phase::Movement);
    t.refused(UNION, fire("0705", &[("5-conn", 4)]), "GBACW 4.0");
    // In the Defensive Fire Phase only the non-phasing side fires.
    t.advance_to(UNION, Phase::DefensiveFire);
    t.refused(UNION, fire("0705", &[("5-conn", 4)]), "GBACW 4.0");
    t.ok(REBEL, fire("0605", &[("10-va", 2)]));
}

#[test]
fn case_9_44_a_hex_is_fired_at_once_by_small_arms_per_phase() {
    let mut t = duel();
    t.put("10-me", "0604", "n", Formation::Line);
    t.face_towards("10-me", "0705");
    t.advance_to(UNION, Phase::OffensiveFire);
    t.ok(UNION, fire("0705", &[("5-conn", 4)]));
    t.refused(UNION, fire("0705", &[("10-me", 4)]), "GBACW 9.44");
    // Taken back, the hex is free to be fired at again.
    t.ok(UNION, GbacwAction::CancelFire { index: 0 });
    t.ok(UNION, fire("0705", &[("10-me", 4), ("5-conn", 4)]));
}

#[test]
fn case_9_45_a_unit_fires_at_most_its_current_strength() {
    let mut t = duel();
    t.advance_to(UNION, Phase::OffensiveFire);
    t.refused(UNION, fire("0705", &[("5-conn", 7)]), "GBACW 9.45");
    t.refused(UNION, fire("0705", &[("5-conn", 0)]), "GBACW 9.45");
}

#[test]
fn case_7_21_four_small_arms_points_per_frontal_hexside() {
    let mut t = duel();
    t.advance_to(UNION, Phase::OffensiveFire);
    t.refused(UNION, fire("0705", &[("5-conn", 6)]), "GBACW 7.21");
    t.ok(UNION, fire("0705", &[("5-conn", 4)]));
}

#[test]
fn case_7_22_units_fire_only_through_frontal_hexsides() {
    let mut t = duel();
    t.face_towards("5-conn", "0505");
    t.advance_to(UNION, Phase::OffensiveFire);
    t.refused(UNION, fire("0705", &[("5-conn", 4)]), "GBACW 7.22");
}

#[test]
fn case_9_23_no_fire_beyond_the_weapons_range() {
    let mut t = duel();
    // Step four hexes straight ahead of 5 Conn: beyond a rifle's 3.
    let grid = &t.rs.game().map.grid;
    let ahead = t.s.units[&id("5-conn")].facing.direction();
    let mut at = n("0605");
    for _ in 0..4 {
        at = grid
            .neighbours_on_map(at)
            .into_iter()
            .find(|(d, _)| *d == ahead)
            .map(|(_, h)| h)
            .unwrap();
    }
    let target = at.to_string();
    t.put("10-va", &target, "n", Formation::Line);
    t.advance_to(UNION, Phase::OffensiveFire);
    t.refused(UNION, fire(&target, &[("5-conn", 4)]), "GBACW 9.23");
}

#[test]
fn case_9_84_pinned_units_do_not_fire_in_fire_phases() {
    let mut t = duel();
    t.s.units
        .get_mut(&id("5-conn"))
        .unwrap()
        .status
        .markers
        .insert(Marker::Pin);
    t.advance_to(UNION, Phase::OffensiveFire);
    t.refused(UNION, fire("0705", &[("5-conn", 4)]), "GBACW 9.84");
}

/// Offensive fire by 5 Conn at 10 Va with dice seeded `seed`.
fn volley(seed: u64) -> (T, Vec<GbacwEvent>, Vec<u16>) {
    let mut t = duel();
    t.advance_to(UNION, Phase::OffensiveFire);
    t.ok(UNION, fire("0705", &[("5-conn", 4)]));
    let (mut events, drawn) = t.roll(UNION, GbacwAction::EndPhase, seed);
    // 14.4: a retreat with a choice of paths waits for its owner; here
    // the owner takes the default.
    while let Some(p) = t.rs.pending(&t.s).first().cloned() {
        events.extend(t.ok(p.seat, p.default));
    }
    (t, events, drawn)
}

#[test]
fn case_14_4_the_owner_chooses_the_retreat_path() {
    for seed in 0..300 {
        let mut t = duel();
        t.advance_to(UNION, Phase::OffensiveFire);
        t.ok(UNION, fire("0705", &[("5-conn", 4)]));
        t.roll(UNION, GbacwAction::EndPhase, seed);
        let Some(order) = t.s.retreats.first().cloned() else {
            continue;
        };
        assert_eq!(order.seat, REBEL);
        assert_eq!(t.rs.acting_seat(&t.s), Some(REBEL));
        let pending = t.rs.pending(&t.s);
        assert_eq!(pending[0].rule, "GBACW 14.4");
        let choices = t.rs.legal_actions(&t.s, REBEL);
        assert!(choices.len() >= 2, "a choice: {choices:?}");
        assert_eq!(choices[0], pending[0].default);
        // Not a path of the rules: refused.
        t.refused(
            REBEL,
            GbacwAction::Retreat {
                unit: id("10-va"),
                path: vec![n("0605")],
            },
            "GBACW 14.4",
        );
        t.refused(UNION, GbacwAction::EndPhase, "GBACW 14.4");
        // The owner takes another path than the default.
        let GbacwAction::Retreat { path, .. } = choices[1].clone() else {
            panic!("{:?}", choices[1]);
        };
        t.ok(REBEL, choices[1].clone());
        assert_eq!(t.hex("10-va"), path.last().copied());
        assert!(t.s.retreats.is_empty());
        return;
    }
    panic!("no seed gave 10 Va a choice of retreat");
}

#[test]
fn case_9_81_losses_then_a_morale_check() {
    let mut seen = false;
    for seed in 0..300 {
        let (t, events, _) = volley(seed);
        assert_accounted(&t);
        let r = &fire_reports(&events)[0];
        let FireResult::Loss { points, .. } = r.result else {
            continue;
        };
        seen = true;
        let hit: u8 = events
            .iter()
            .filter_map(|e| match e {
                GbacwEvent::UnitHit { unit, points } if *unit == id("10-va") => Some(*points),
                _ => None,
            })
            .sum();
        assert_eq!(hit, points.min(2));
        if t.s.units[&id("10-va")].status.strength > 0 {
            assert!(
                events.iter().any(|e| matches!(
                    e,
                    GbacwEvent::MoraleChecked { unit, .. } if *unit == id("10-va")
                )),
                "13.22: losses first, then the check"
            );
        } else {
            assert_eq!(t.hex("10-va"), None);
        }
    }
    assert!(seen, "no seed gave a numeric result");
}

#[test]
fn case_11_21_ammunition_depletion_on_a_fire_die_of_one() {
    let mut seen = false;
    for seed in 0..400 {
        let (t, events, drawn) = volley(seed);
        if fire_reports(&events)[0].die != 1 {
            assert!(
                !t.s.units[&id("5-conn")]
                    .status
                    .markers
                    .contains(&Marker::AmmoDepleted)
            );
            continue;
        }
        seen = true;
        // The ammunition die is the last one the attack drew.
        let ammo_die = *drawn.last().unwrap();
        let depleted = t.s.units[&id("5-conn")]
            .status
            .markers
            .contains(&Marker::AmmoDepleted);
        assert_eq!(depleted, ammo_die <= 2, "die {ammo_die}");
    }
    assert!(seen, "no seed rolled a 1");
}

#[test]
fn case_13_31_routed_units_retreat_three_hexes_at_once() {
    let mut seen = false;
    for seed in 0..300 {
        let (t, events, _) = volley(seed);
        let u = &t.s.units[&id("10-va")];
        if !u.status.markers.contains(&Marker::Rout) {
            continue;
        }
        seen = true;
        let path = events
            .iter()
            .find_map(|e| match e {
                GbacwEvent::UnitRetreated { unit, path } if *unit == id("10-va") => {
                    Some(path.clone())
                }
                _ => None,
            })
            .expect("a routed unit retreats");
        assert_eq!(path.len(), 3);
        let grid = &t.rs.game().map.grid;
        assert_eq!(grid.distance(n("0705"), *path.last().unwrap()), 3);
        assert_eq!(u.hex, path.last().copied());
        // 13.33: the rout clears a pin.
        assert!(!u.status.markers.contains(&Marker::Pin));
    }
    assert!(seen, "no seed routed 10 Va");
}

#[test]
fn case_10_11_withdrawal_fire_is_resolved_before_the_unit_leaves() {
    let mut outcomes = (0, 0);
    for seed in 0..60 {
        let mut t = duel();
        t.advance_to(REBEL, Phase::Movement);
        let away =
            t.rs.game()
                .map
                .grid
                .neighbours_on_map(n("0705"))
                .into_iter()
                .map(|(_, h)| h)
                .find(|h| t.rs.game().map.grid.distance(n("0605"), *h) == 2)
                .unwrap();
        t.ok(REBEL, mv(&["10-va"], &[&away.to_string()]));
        assert!(t.s.decision.is_some(), "10.1: leaving 5 Conn's ZOC");
        let (events, _) = t.roll(
            UNION,
            GbacwAction::WithdrawalFire {
                firers: ids(&["5-conn"]),
            },
            seed,
        );
        assert!(t.s.decision.is_none());
        let r = &fire_reports(&events)[0];
        assert_eq!(r.target, n("0705"));
        let u = &t.s.units[&id("10-va")];
        let stopped = u.status.markers.contains(&Marker::Rout) || u.hex.is_none();
        if stopped {
            outcomes.1 += 1;
        } else {
            // 10.15: went on (a pinned unit one hex, then pinned).
            assert_eq!(u.hex, Some(away));
            outcomes.0 += 1;
        }
        assert_accounted(&t);
    }
    assert!(outcomes.0 > 0, "some withdrawals go on");
}

#[test]
fn case_9_85_pins_come_off_in_the_friendly_rally_phase() {
    let mut t = duel();
    for u in ["5-conn", "10-va"] {
        t.s.units
            .get_mut(&id(u))
            .unwrap()
            .status
            .markers
            .insert(Marker::Pin);
    }
    t.advance_to(UNION, Phase::Rally);
    assert!(
        !t.s.units[&id("5-conn")]
            .status
            .markers
            .contains(&Marker::Pin)
    );
    // The enemy's pins wait for his own Rally Phase.
    assert!(
        t.s.units[&id("10-va")]
            .status
            .markers
            .contains(&Marker::Pin)
    );
}

fn routed(t: &mut T, unit: &str) {
    t.s.units
        .get_mut(&id(unit))
        .unwrap()
        .status
        .markers
        .insert(Marker::Rout);
}

#[test]
fn case_13_52_a_leader_rallies_a_routed_regiment_with_him() {
    let mut t = duel();
    t.put_leader("crawford", "0605");
    routed(&mut t, "5-conn");
    t.advance_to(UNION, Phase::Rally);
    t.ok(UNION, GbacwAction::Rally { unit: id("5-conn") });
    assert!(
        !t.s.units[&id("5-conn")]
            .status
            .markers
            .contains(&Marker::Rout)
    );
    t.refused(
        UNION,
        GbacwAction::Rally { unit: id("5-conn") },
        "GBACW 13.51",
    );
}

#[test]
fn case_13_51_a_rally_naming_a_leader_or_no_counter_is_refused_not_a_panic() {
    // Found by the whole games' mutated actions (tests/src/gbacw_mutants.rs):
    // the rally read the named counter's unit card before asking whose
    // unit it was.
    let mut t = duel();
    t.put_leader("crawford", "0605");
    t.advance_to(UNION, Phase::Rally);
    for named in ["crawford", "nobody"] {
        t.refused(UNION, GbacwAction::Rally { unit: id(named) }, "GBACW 3.3");
    }
}

#[test]
fn case_17_13_rally_points_up_to_the_rally_rating() {
    let mut t = T::empty();
    t.put_leader("crawford", "0305");
    for (u, hex) in [("5-conn", "0505"), ("10-me", "0506"), ("pa-zd", "0404")] {
        t.put(u, hex, "n", Formation::Line);
        routed(&mut t, u);
    }
    t.advance_to(UNION, Phase::Rally);
    // Crawford's Rally Rating is 2.
    t.ok(UNION, GbacwAction::Rally { unit: id("5-conn") });
    t.ok(UNION, GbacwAction::Rally { unit: id("10-me") });
    t.refused(
        UNION,
        GbacwAction::Rally { unit: id("pa-zd") },
        "GBACW 17.13",
    );
}

#[test]
fn case_13_54_independents_rally_on_a_die_not_above_morale() {
    let mut seen = [false, false];
    for seed in 0..40 {
        let mut t = duel();
        t.put("4-me", "0305", "n", Formation::Limbered);
        routed(&mut t, "4-me");
        t.advance_to(UNION, Phase::Rally);
        let a = GbacwAction::Rally { unit: id("4-me") };
        let ctx = crate::engine::ActionContext {
            seat: UNION,
            seq: 1,
            by_default: false,
        };
        assert!(t.rs.rolls_dice(&t.s, &ctx, &a));
        let (_, drawn) = t.roll(UNION, a, seed);
        let rallied = !t.s.units[&id("4-me")]
            .status
            .markers
            .contains(&Marker::Rout);
        // 4 Me's morale is 4.
        assert_eq!(rallied, drawn[0] <= 4);
        seen[usize::from(rallied)] = true;
    }
    assert_eq!(seen, [true, true]);
}

#[test]
fn case_5_18_retreats_cost_no_movement_points() {
    for seed in 0..300 {
        let (t, events, _) = volley(seed);
        if !events
            .iter()
            .any(|e| matches!(e, GbacwEvent::UnitRetreated { .. }))
        {
            continue;
        }
        let u = &t.s.units[&id("10-va")];
        assert_eq!(u.moved.mp, Mp::ZERO, "a retreat is not movement");
        assert_eq!(u.moved.hexes, 0);
        return;
    }
    panic!("no seed made 10 Va retreat");
}

#[test]
fn case_9_33_the_fire_zone_is_the_three_frontal_hexsides() {
    // 5 Conn in line in 0605: an enemy in each neighbouring hex in turn.
    let grid = T::empty().rs.game().map.grid.clone();
    let mut frontal = 0;
    for (_, hex) in grid.neighbours_on_map(n("0605")) {
        let mut t = duel();
        let target = hex.to_string();
        t.put("10-va", &target, "n", Formation::Line);
        t.advance_to(UNION, Phase::OffensiveFire);
        let a = fire(&target, &[("5-conn", 4)]);
        match t.decide(UNION, &a) {
            Ok(_) => frontal += 1,
            Err(e) => assert_eq!(e.rule, "GBACW 7.22", "{e}"),
        }
    }
    assert_eq!(frontal, 3, "line infantry fires through three hexsides");
}

#[test]
fn case_9_51_the_cap_reading_is_a_named_option() {
    use crate::gbacw::fire::{Attack, ColumnShifts, FireStrength};
    use crate::gbacw::options::RuleOptions;
    use crate::gbacw::ruleset::combat::attack::Prepared;
    use crate::gbacw::tables::FireRow;
    let t = T::new();
    let p = Prepared {
        target: n("0705"),
        stack: ids(&["10-va"]),
        firers: ids(&["5-conn"]),
        artillery: false,
        max_range: 1,
        strength_columns_left: 0,
        die_modifier: 0,
        rapid: false,
        attack: Attack {
            firers: vec![FireStrength::new(8, 1)],
            row: FireRow::SmallArmsAndCounterBattery,
            // Three left for terrain, one right each for density and enfilade.
            shifts: ColumnShifts {
                terrain: -3,
                density: 1,
                enfiladed: true,
            },
        },
    };
    let crt = &t.rs.tables.fire;
    let net = p.roll(crt, 3, RuleOptions::default());
    assert_eq!(net.net_shift, -1, "the net of all shifts, capped");
    let reading = GbacwConfig {
        readings_001: ["cap-terrain-only".to_string()].into(),
        ..GbacwConfig::default()
    }
    .rule_options()
    .unwrap();
    assert!(reading.cap_terrain_only);
    let terrain_only = p.roll(crt, 3, reading);
    assert_eq!(terrain_only.net_shift, 0, "terrain capped at 2, then +2");
    assert_eq!(terrain_only.column, net.column + 1);
}

/// The Union Ammunition Resupply Phase: 5 Conn, out of ammunition, next
/// to the supply wagon.
fn depleted_beside_a_wagon() -> T {
    let mut t = T::empty();
    t.put("supply-u", "0305", "n", Formation::Wagon);
    t.put("5-conn", "0405", "n", Formation::Line);
    t.s.units
        .get_mut(&id("5-conn"))
        .unwrap()
        .status
        .markers
        .insert(Marker::AmmoDepleted);
    t.advance_to(UNION, Phase::AmmunitionResupply);
    t
}

#[test]
fn case_11_24_a_wagon_resupplies_a_depleted_unit_along_a_supply_path() {
    let mut t = depleted_beside_a_wagon();
    let boxes = t.s.units[&id("supply-u")].status.supply.0;
    let a = GbacwAction::Resupply {
        wagon: id("supply-u"),
        unit: id("5-conn"),
    };
    assert!(t.rs.legal_actions(&t.s, UNION).contains(&a));
    t.ok(UNION, a.clone());
    assert!(
        !t.s.units[&id("5-conn")]
            .status
            .markers
            .contains(&Marker::AmmoDepleted)
    );
    assert_eq!(t.s.units[&id("supply-u")].status.supply.0, boxes - 1);
    // 11.24: a unit that is not depleted takes nothing.
    t.refused(UNION, a, "GBACW 11.24");
}

#[test]
fn case_11_25_neither_wagon_nor_unit_may_have_moved() {
    let mut t = depleted_beside_a_wagon();
    t.s.units.get_mut(&id("5-conn")).unwrap().moved.hexes = 1;
    t.refused(
        UNION,
        GbacwAction::Resupply {
            wagon: id("supply-u"),
            unit: id("5-conn"),
        },
        "GBACW 11.25",
    );
}

/// GBACW 6.11: "A unit in Column formation that is fired upon
/// automatically goes into Line formation (this occurs after the combat
/// has been resolved)." 10 Va, in Column next to 5 Conn, is fired on with
/// one point: once the attack is resolved, it is in Line, facing as it
/// was — whatever the die (unless the fire drove it out of the hex).
#[test]
fn case_6_11_a_column_fired_on_goes_into_line() {
    let mut stayed = 0;
    for seed in 0..20 {
        let mut t = duel();
        t.s.units.get_mut(&id("10-va")).unwrap().status.formation = Formation::Column;
        let facing = t.s.units[&id("10-va")].facing;
        t.advance_to(UNION, Phase::OffensiveFire);
        t.ok(UNION, fire("0705", &[("5-conn", 1)]));
        // Still a column while the attack waits for the end of the phase.
        assert_eq!(t.s.units[&id("10-va")].status.formation, Formation::Column);
        let (events, _) = t.roll(UNION, GbacwAction::EndPhase, seed);
        let x = &t.s.units[&id("10-va")];
        if x.hex != Some(n("0705")) {
            continue;
        }
        stayed += 1;
        assert_eq!(
            x.status.formation,
            Formation::Line,
            "seed {seed}: {events:?}"
        );
        assert_eq!(x.facing, facing, "seed {seed}");
        // After the combat's own events.
        let set = events
            .iter()
            .position(|e| matches!(e, GbacwEvent::FormationSet { .. }))
            .unwrap();
        let resolved = events
            .iter()
            .position(|e| matches!(e, GbacwEvent::FireResolved(_)))
            .unwrap();
        assert!(set > resolved);
    }
    assert!(stayed > 0, "no seed left 10 Va in its hex");
}
