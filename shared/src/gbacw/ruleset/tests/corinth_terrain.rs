//! Corinth 21.3 (sharpshooters), 23 (terrain features) and 24 (batteries)
//! through `decide` and `evolve` on the Corinth map. Each case is set up
//! in a quiet stretch of the outer works (hex 1106, the inner side of
//! four works hexsides: 1105, 1005, 1006, 1205 lie outside) or at a redan,
//! with everything else where the Historical Scenario puts it; the
//! Confederate counters used are taken off the arrivals first.

use super::*;
use crate::gbacw::los::Los;
use crate::gbacw::ruleset::event::FireReport;
use crate::gbacw::ruleset::state::FireShare;

/// Corinth after the default Union set-up (the Union Player-Turn of
/// Game-Turn 2).
fn field() -> T {
    let mut t = super::corinth::corinth();
    t.ok(UNION, GbacwAction::EndSetUp);
    t
}

/// 17 Wisc (Union, 7 points) inside the works at 1106 facing north; the
/// Confederate `firers` at their hexes, each facing 1106; the Confederate
/// Offensive Fire Phase of Game-Turn 3.
fn works_field(firers: &[(&str, &str)]) -> T {
    let mut t = field();
    t.put("17-wisc", "1106", "n", Formation::Line);
    // GBACW 17.11: each firer in command (its brigade commander with the
    // first of his brigade, the division commander with a second).
    let mut led = Vec::new();
    for (unit, hex) in firers {
        t.field_unit(unit, hex, Formation::Line);
        let brigade = t.rs.game().oob.units[&id(unit)].command.clone();
        if led.contains(&brigade) {
            t.field_division_commander(unit);
        } else {
            t.field_commander(unit);
            led.push(brigade);
        }
        t.face_towards(unit, "1106");
    }
    t.advance_to(REBEL, Phase::OffensiveFire);
    t
}

/// The report of one attack declared and rolled with `seed`, and the dice
/// the resolution drew.
fn fired(mut t: T, action: GbacwAction, seed: u64) -> (FireReport, Vec<u16>) {
    t.ok(REBEL, action);
    let (events, drawn) = t.roll(REBEL, GbacwAction::EndPhase, seed);
    (fire_reports(&events).remove(0), drawn)
}

/// The first seed in 0..400 whose attack rolls the natural die `die`.
fn seed_for(t: &T, action: &GbacwAction, die: u8) -> u64 {
    (0..400)
        .find(|s| {
            let u = T {
                rs: t.rs.clone(),
                s: t.s.clone(),
                script: Default::default(),
            };
            fired(u, action.clone(), *s).0.die == die
        })
        .unwrap_or_else(|| panic!("no seed rolls {die}"))
}

fn clone(t: &T) -> T {
    T {
        rs: t.rs.clone(),
        s: t.s.clone(),
        script: Default::default(),
    }
}

// --- 23.1 The outer works ------------------------------------------------

#[test]
fn corinth_23_1_a_unit_inside_the_works_stands_ten_feet_higher() {
    let t = field();
    let raised = |h: &str| crate::gbacw::ruleset::corinth::raised_feet(&t.rs, n(h));
    assert_eq!(raised("1106"), 10);
    // Outside the works, and a hex with no works, stand on the ground.
    assert_eq!(raised("1105"), 0);
    assert_eq!(raised("1908"), 0);
    // The sight over what the ten feet clear is tested on an invented map
    // (`los::tests::corinth_23_1_…`): on this map's woods no works hex
    // gains a line by them.
}

#[test]
fn corinth_23_28_a_unit_in_a_redan_stands_ten_feet_higher_and_sees_farther() {
    let t = field();
    let rs = &t.rs;
    // Battery Powell, 2729.
    assert_eq!(
        crate::gbacw::ruleset::corinth::raised_feet(rs, n("2729")),
        10
    );
    let map = &rs.game().map;
    let chart = &rs.game().charts.combat;
    // On the bare ground 2729 does not see 2731; from the redan's ten
    // feet it does (the state's units stand nowhere near).
    assert_ne!(
        crate::gbacw::los::line_of_sight(map, chart, n("2729"), n("2731"), |_| 0),
        Los::Clear
    );
    assert_eq!(rs.line_of_sight(&t.s, n("2729"), n("2731")), Los::Clear);
}

#[test]
fn corinth_23_28_sight_into_a_redan_from_an_adjacent_hex_is_not_blocked_by_its_hexside() {
    use crate::gbacw::los::{Crossing, crossings};
    let t = field();
    // Redan E (0527) has redan hexsides to 0426 and 0427 (clear ground).
    let rs = &t.rs;
    let map = &rs.game().map;
    for outer in ["0426", "0427"] {
        let side = map.grid.hexside(n(outer), n("0527")).unwrap();
        assert!(map.side_has(side, crate::gbacw::map::SideKind::RedanSecondary));
        assert_eq!(rs.line_of_sight(&t.s, n(outer), n("0527")), Los::Clear);
    }
    // Every line of two hexes whose only hex between is 0426 or 0427
    // crosses the 10 ft redan hexside into the redan, and is clear.
    let lines: Vec<HexNumber> = map
        .grid
        .hexes()
        .filter(|h| map.grid.distance(*h, n("0527")) == 2)
        .filter(|h| {
            let c = crossings(&map.grid, *h, n("0527"));
            c.len() == 1 && matches!(c[0].1, Crossing::Hex(x) if x == n("0426") || x == n("0427"))
        })
        .collect();
    assert!(!lines.is_empty());
    for from in lines {
        assert_eq!(
            rs.line_of_sight(&t.s, from, n("0527")),
            Los::Clear,
            "{from}"
        );
    }
}

#[test]
fn corinth_23_1_fire_solely_across_the_works_takes_one_off_the_die() {
    // 3 La at 1105 fires across the works hexside 1105/1106.
    let t = works_field(&[("3-la", "1105")]);
    let (r, _) = fired(clone(&t), fire("1106", &[("3-la", 4)]), 7);
    assert_eq!(r.die_modifier, -1);
    let crt = &t.rs.tables.fire;
    let read = r.die.saturating_sub(1).max(1);
    assert_eq!(Some(r.result), crt.result(usize::from(r.column - 1), read));
    // From 1107, inside the works (no works hexside between): no modifier.
    let t = works_field(&[("3-la", "1107")]);
    let (r, _) = fired(clone(&t), fire("1106", &[("3-la", 4)]), 7);
    assert_eq!(r.die_modifier, 0);
    // Combined with a firer not across the works: not "solely", none.
    let t = works_field(&[("3-la", "1105"), ("40-miss", "1107")]);
    let (r, _) = fired(clone(&t), fire("1106", &[("3-la", 4), ("40-miss", 3)]), 7);
    assert_eq!(r.die_modifier, 0);
    // Two firers both across works hexsides (1105 and 1005): −1.
    let t = works_field(&[("3-la", "1105"), ("40-miss", "1005")]);
    let (r, _) = fired(clone(&t), fire("1106", &[("3-la", 4), ("40-miss", 3)]), 7);
    assert_eq!(r.die_modifier, -1);
}

#[test]
fn corinth_23_1_a_die_of_less_than_one_is_one_and_ammunition_checks_on_the_natural_one() {
    let t = works_field(&[("3-la", "1105")]);
    let action = fire("1106", &[("3-la", 4)]);
    // A natural 2 is read as 1, and 11.21's check is not made: the only
    // die drawn beyond the fire die would be the ammunition check's.
    let two = seed_for(&t, &action, 2);
    let (r, drawn) = fired(clone(&t), action.clone(), two);
    let crt = &t.rs.tables.fire;
    assert_eq!(Some(r.result), crt.result(usize::from(r.column - 1), 1));
    let ammo_checked = |drawn: &[u16], r: &FireReport| {
        // The fire die, then any morale checks of the result, then 11.21.
        let effects = usize::from(r.result != crate::gbacw::tables::FireResult::NoEffect);
        drawn.len() > 1 + effects
    };
    assert!(!ammo_checked(&drawn, &r), "{r:?} {drawn:?}");
    // A natural 1 (read as 1) still checks.
    let one = seed_for(&t, &action, 1);
    let (r, drawn) = fired(clone(&t), action, one);
    assert_eq!(r.die, 1);
    assert!(drawn.len() > 1, "{r:?} {drawn:?}");
}

#[test]
fn corinth_23_1_melee_from_outside_to_inside_loses_one_point() {
    let t = field();
    let game = t.rs.game();
    let p = |from: &str, to: &str| {
        crate::gbacw::melee::crossing_penalty(&game.map, &game.charts.combat, n(from), n(to))
    };
    assert_eq!(p("1105", "1106"), 1);
    // From inside to outside, and along no works: nothing.
    assert_eq!(p("1106", "1105"), 0);
    assert_eq!(p("1107", "1106"), 0);
}

#[test]
fn corinth_23_1_and_22_1_whether_every_attacker_crosses_works_or_redans() {
    let mut t = field();
    t.field_unit("3-la", "1105", Formation::Line);
    t.field_unit("40-miss", "1005", Formation::Line);
    t.field_unit("2-mo", "1107", Formation::Line);
    // 22.1's "all the attacking units": non-empty, each across the works.
    let all = |t: &T, a: &[&str], target: &str| {
        !a.is_empty()
            && ids(a).iter().all(|id| {
                t.s.units[id].hex.is_some_and(|from| {
                    crate::gbacw::ruleset::corinth::works::crosses_works_or_redan_into(
                        &t.rs,
                        from,
                        n(target),
                    )
                })
            })
    };
    assert!(all(&t, &["3-la", "40-miss"], "1106"));
    assert!(!all(&t, &["3-la", "2-mo"], "1106"));
    assert!(!all(&t, &[], "1106"));
    // Into Redan E across its redan hexside 0426/0527.
    t.field_unit("3-la", "0426", Formation::Line);
    assert!(all(&t, &["3-la"], "0527"));
}

// --- 21.3 Sharpshooters --------------------------------------------------

#[test]
fn corinth_21_3_sharpshooters_alone_add_one_to_the_fire_die() {
    // Rapley SS (2 points) from 1107, no works between.
    let t = works_field(&[("rapley-ss", "1107")]);
    let action = fire("1106", &[("rapley-ss", 2)]);
    let (r, _) = fired(clone(&t), action.clone(), 7);
    assert_eq!(r.die_modifier, 1);
    // A 6 is read as 6, not 7.
    let six = seed_for(&t, &action, 6);
    let (r, _) = fired(clone(&t), action.clone(), six);
    let crt = &t.rs.tables.fire;
    assert_eq!(Some(r.result), crt.result(usize::from(r.column - 1), 6));
    // A natural 1 (read as 2) still checks ammunition.
    let one = seed_for(&t, &action, 1);
    let (r, drawn) = fired(clone(&t), action, one);
    assert_eq!(Some(r.result), crt.result(usize::from(r.column - 1), 2));
    assert!(drawn.len() > 1, "{r:?} {drawn:?}");
    // With a firer that is no sharpshooter: none.
    let t = works_field(&[("rapley-ss", "1107"), ("3-la", "1206")]);
    let (r, _) = fired(clone(&t), fire("1106", &[("rapley-ss", 2), ("3-la", 4)]), 7);
    assert_eq!(r.die_modifier, 0);
    // Two sharpshooter units together: all firers are sharpshooters.
    let t = works_field(&[("rapley-ss", "1107"), ("stirman-ss", "1206")]);
    let (r, _) = fired(
        clone(&t),
        fire("1106", &[("rapley-ss", 2), ("stirman-ss", 3)]),
        7,
    );
    assert_eq!(r.die_modifier, 1);
}

// --- 23.2 Battery redans -------------------------------------------------

/// Redan F (0918; redan hexsides toward 0917, 0817, 0818, its outer side)
/// cleared of the set-up's counters; 64 Ill SS (Union, 3 points) in it
/// facing north; the Confederate `units` at their hexes facing it.
fn redan_field(units: &[(&str, &str)]) -> T {
    let mut t = field();
    let grid = t.rs.game().map.grid.clone();
    let near = |h: Option<HexNumber>| h.is_some_and(|h| grid.distance(h, n("0918")) <= 1);
    for u in t.s.units.values_mut().filter(|u| near(u.hex)) {
        u.hex = None;
    }
    for l in t.s.leaders.values_mut().filter(|l| near(l.hex)) {
        l.hex = None;
    }
    t.put("64-ill-ss", "0918", "n", Formation::Line);
    for (unit, hex) in units {
        t.field_unit(unit, hex, Formation::Line);
        t.face_towards(unit, "0918");
    }
    t
}

#[test]
fn corinth_23_24_a_redan_occupant_fired_on_is_one_column_left_from_any_side() {
    // From the outer side (across the redan hexside) and from the rear
    // (0919, no redan hexside): one column left either way, never two.
    let shift = |from: &str| {
        let mut t = redan_field(&[("3-la", from)]);
        t.field_commander("3-la");
        t.advance_to(REBEL, Phase::OffensiveFire);
        fired(t, fire("0918", &[("3-la", 4)]), 7).0.terrain_shift
    };
    // 0918 is clear ground: the redan's column is the only shift.
    assert_eq!(shift("0917"), -1);
    assert_eq!(shift("0919"), -1);
    // The chart alone shifts only fire across the redan hexside.
    let t = field();
    let game = t.rs.game();
    let chart = |from: &str| {
        crate::gbacw::fire::terrain_shift(&game.map, &game.charts.combat, n("0918"), &[n(from)])
    };
    assert_eq!((chart("0917"), chart("0919")), (-1, 0));
}

/// The Confederate's melee on 0918 by `attackers`, 64 Ill SS standing
/// fast: the report.
fn redan_melee(attackers: &[(&str, &str)]) -> crate::gbacw::ruleset::event::MeleeReport {
    let mut t = redan_field(attackers);
    t.advance_to(REBEL, Phase::RetreatBeforeMelee);
    // In command (17.11), without a leader's point (12.4).
    t.s.command.out_of_command.clear();
    let names: Vec<&str> = attackers.iter().map(|(u, _)| *u).collect();
    t.ok(
        REBEL,
        GbacwAction::DeclareMelee {
            target: n("0918"),
            attackers: ids(&names),
        },
    );
    t.ok(UNION, GbacwAction::StandFast);
    t.ok(REBEL, GbacwAction::EndPhase);
    let (events, _) = t.roll(REBEL, GbacwAction::EndPhase, 3);
    events
        .into_iter()
        .find_map(|e| match e {
            GbacwEvent::MeleeResolved(r) => Some(r),
            _ => None,
        })
        .expect("the melee was fought")
}

/// Corinth 22.35 with 23.25: declaring `attackers` on the redan 0918 is
/// refused when they would overstack it, unless one unit goes alone.
fn redan_declaration_refused(attackers: &[(&str, &str)]) -> String {
    let mut t = redan_field(attackers);
    t.advance_to(REBEL, Phase::RetreatBeforeMelee);
    t.s.command.out_of_command.clear();
    let names: Vec<&str> = attackers.iter().map(|(u, _)| *u).collect();
    let a = GbacwAction::DeclareMelee {
        target: n("0918"),
        attackers: ids(&names),
    };
    t.decide(REBEL, &a)
        .expect_err("overstacking melee refused")
        .to_string()
}

#[test]
fn corinth_23_25_only_four_points_count_meleeing_into_a_redan() {
    // 6 Mo (6 points, morale 5; 64 Ill SS 4: no edge either way) from the
    // rear, 0919: no hexside penalty, 4 of its 6 points count.
    let t = field();
    let game = t.rs.game();
    assert_eq!(
        crate::gbacw::melee::crossing_penalty(&game.map, &game.charts.combat, n("0919"), n("0918")),
        0
    );
    let r = redan_melee(&[("6-mo", "0919")]);
    assert_eq!(r.attack, 4);
    // Two units over the redan's 4 points may not go in together (22.35:
    // a success would overstack it); one unit alone may (23.25).
    let e = redan_declaration_refused(&[("6-mo", "0919"), ("3-la", "1018")]);
    assert!(e.contains("22.35"), "{e}");
}

#[test]
fn corinth_23_26_crossing_a_redan_hexside_takes_points_off_after_the_cap() {
    // Redan F is secondary: −1, off the 4 counted (not off 6 Mo's 6).
    let r = redan_melee(&[("6-mo", "0917")]);
    assert_eq!(r.attack, 4 - 1);
    // Two units crossing together would overstack the redan (22.35).
    let e = redan_declaration_refused(&[("6-mo", "0917"), ("3-la", "0817")]);
    assert!(e.contains("22.35"), "{e}");
    // A primary redan's hexside takes 2 (the chart, through the shared
    // hexside penalty the redan rules take over).
    let t = field();
    assert_eq!(
        crate::gbacw::ruleset::corinth::redans::crossing_penalty(&t.rs, n("1738"), n("1838")),
        2
    );
    assert_eq!(
        crate::gbacw::ruleset::corinth::redans::crossing_penalty(&t.rs, n("0917"), n("0918")),
        1
    );
}

#[test]
fn corinth_23_26_not_for_later_melees_of_an_engaged_unit() {
    let mut t = redan_field(&[("6-mo", "0917")]);
    for u in ["6-mo", "64-ill-ss"] {
        t.s.units
            .get_mut(&id(u))
            .unwrap()
            .status
            .markers
            .insert(crate::gbacw::oob::Marker::Engaged);
    }
    let penalty = crate::gbacw::ruleset::corinth::redans::differential_penalty(
        &t.rs,
        &t.s,
        n("0918"),
        &ids(&["6-mo"]),
    );
    assert_eq!(penalty, 0);
}

#[test]
fn corinth_23_27_a_redan_holds_one_battery_and_one_point_or_four_points() {
    use crate::gbacw::stacking::{Overstack, check_hex};
    let t = field();
    let game = t.rs.game();
    let chart = &game.charts.stacking;
    let unit = |id_: &str, strength: u8| {
        let u = game.oob.units[&id(id_)].clone();
        let mut s = t.s.units[&id(id_)].status.clone();
        s.strength = strength;
        s.formation = Formation::Line;
        (u, s)
    };
    let terrain = &game.map.hex(n("0918")).unwrap().terrain;
    let check = |units: &[(crate::gbacw::oob::Unit, crate::gbacw::oob::UnitStatus)]| {
        let refs: Vec<_> = units.iter().map(|(u, s)| (u, s)).collect();
        check_hex(chart, terrain, true, &refs)
    };
    let bty = {
        let (u, mut s) = unit("i-1-mo-a", 4);
        s.formation = Formation::Unlimbered;
        (u, s)
    };
    assert_eq!(check(&[unit("64-ill-ss", 3)]), Ok(()));
    assert_eq!(check(&[unit("17-wisc", 4)]), Ok(()));
    assert_eq!(check(&[unit("17-wisc", 5)]), Err(Overstack::Redan));
    assert_eq!(check(&[bty.clone(), unit("64-ill-ss", 1)]), Ok(()));
    assert_eq!(
        check(&[bty.clone(), unit("64-ill-ss", 2)]),
        Err(Overstack::Redan)
    );
    assert_eq!(check(&[bty.clone(), bty]), Err(Overstack::Redan));
}

fn zoc(t: &T, unit: &str) -> Vec<HexNumber> {
    crate::gbacw::ruleset::board::Board::new(&t.rs, &t.s)
        .zoc_of(&id(unit), crate::gbacw::facing::ZocUse::SupplyAndCommand)
}

#[test]
fn corinth_23_21_a_redan_occupant_has_its_zoc_in_every_outer_hex_whatever_its_counter_faces() {
    // Redan F (0918): redan hexsides toward 0917 (n), 0817 (nw), 0818 (sw).
    let outer = vec![n("0817"), n("0818"), n("0917")];
    for facing in ["n", "nw", "sw"] {
        let mut t = redan_field(&[]);
        t.put("64-ill-ss", "0918", facing, Formation::Line);
        assert_eq!(zoc(&t, "64-ill-ss"), outer, "facing {facing}");
    }
    // Outside a redan the counter's own facing rules (7.0): facing n from
    // 0919 its ZOC is 0918, 0818, 1018.
    let mut t = redan_field(&[]);
    t.put("64-ill-ss", "0919", "n", Formation::Line);
    let mut own = zoc(&t, "64-ill-ss");
    own.sort();
    assert_eq!(own.len(), 3);
    assert!(own.contains(&n("0918")));
}

#[test]
fn corinth_23_21_turned_to_the_rear_the_redan_diagram_is_reversed() {
    // Turned to any rear hexside (s, se, ne) the occupant faces the rear.
    let rear = vec![n("0919"), n("1017"), n("1018")];
    for facing in ["s", "se", "ne"] {
        let mut t = redan_field(&[]);
        t.put("64-ill-ss", "0918", facing, Formation::Line);
        assert_eq!(zoc(&t, "64-ill-ss"), rear, "facing {facing}");
    }
}

#[test]
fn corinth_23_21_an_empty_redan_or_one_held_by_a_lone_leader_has_no_zoc() {
    let mut t = redan_field(&[]);
    t.s.units.get_mut(&id("64-ill-ss")).unwrap().hex = None;
    t.put_leader("mizner", "0918");
    let union_zoc = crate::gbacw::ruleset::board::Board::new(&t.rs, &t.s).enemy_zoc(
        &id("confederate"),
        crate::gbacw::facing::ZocUse::SupplyAndCommand,
    );
    for h in ["0917", "0817", "0818"] {
        let near_other_units = t.s.units.values().any(|u| {
            u.hex
                .is_some_and(|x| t.rs.game().map.grid.distance(x, n(h)) <= 1)
        });
        if !near_other_units {
            assert!(!union_zoc.contains(&n(h)), "{h}");
        }
    }
    // A column in the redan has none either (10.0).
    t.put("64-ill-ss", "0918", "n", Formation::Column);
    assert!(zoc(&t, "64-ill-ss").is_empty());
}

#[test]
fn corinth_23_22_a_redan_occupant_fires_out_of_its_zoc_hexsides_only() {
    // A Confederate holding the redan, its counter facing n: 7.0 alone
    // would allow nw, n, ne; in the redan it fires at 0818 (sw, a ZOC
    // hexside) and not at 1017 (ne, the rear).
    let mut t = redan_field(&[]);
    t.put("64-ill-ss", "0818", "n", Formation::Line);
    t.put("17-wisc", "1017", "n", Formation::Line);
    t.field_unit("3-la", "0918", Formation::Line);
    t.field_commander("3-la");
    t.advance_to(REBEL, Phase::OffensiveFire);
    t.s.units.get_mut(&id("3-la")).unwrap().facing = dir("n");
    let r = t.decide(REBEL, &fire("0818", &[("3-la", 4)]));
    assert!(r.is_ok(), "{r:?}");
    t.refused(REBEL, fire("1017", &[("3-la", 4)]), "GBACW 7.22");
}

#[test]
fn corinth_23_21_the_redan_s_enfilade_hexsides_are_its_rear() {
    // Fire from 1017 (the rear) enfilades the occupant; from 0917 (outer
    // side) it does not, even with the counter turned toward 1017... which
    // is the declaration of facing the rear: then 0917 enfilades.
    let enfiladed = |facing: &str, from: &str| {
        let mut t = redan_field(&[("3-la", from)]);
        t.field_commander("3-la");
        t.put("64-ill-ss", "0918", facing, Formation::Line);
        t.advance_to(REBEL, Phase::OffensiveFire);
        fired(t, fire("0918", &[("3-la", 4)]), 7).0.enfilade
    };
    assert!(enfiladed("n", "1017"));
    assert!(!enfiladed("n", "0917"));
    assert!(!enfiladed("sw", "0917"));
    assert!(enfiladed("ne", "0917"));
    assert!(!enfiladed("ne", "1017"));
}

// --- 23.3 Corinth (the town) ---------------------------------------------

#[test]
fn corinth_23_31_guns_wagons_and_horses_enter_town_only_across_a_road() {
    use crate::gbacw::charts::MoveClass;
    let t = field();
    let steps = &t.rs.steps;
    // The seed's example: "an artillery unit would be able to enter 2834
    // from 2833 but not from 2934."
    for class in [MoveClass::Limbered, MoveClass::Wagon, MoveClass::Mounted] {
        assert!(
            steps.cost(class, n("2833"), n("2834"), true).is_ok(),
            "{class:?}"
        );
        let e = steps.cost(class, n("2934"), n("2834"), true).unwrap_err();
        assert_eq!(e.rule(), "Corinth 23.31", "{class:?}");
        // Leaving the town that way is no entry.
        assert!(
            steps.cost(class, n("2834"), n("2934"), true).is_ok(),
            "{class:?}"
        );
    }
    // Foot may enter across any hexside.
    for class in [MoveClass::Line, MoveClass::Column, MoveClass::Leader] {
        assert!(
            steps.cost(class, n("2934"), n("2834"), true).is_ok(),
            "{class:?}"
        );
    }
}

#[test]
fn corinth_23_31_a_battery_moving_into_town_off_the_road_is_refused() {
    let mut t = field();
    // The Union Movement Phase of Game-Turn 3; I 1 Mo a (independent).
    t.advance_to(REBEL, Phase::Movement);
    t.advance_to(UNION, Phase::Movement);
    t.put("i-1-mo-a", "2934", "n", Formation::Limbered);
    t.refused(UNION, mv(&["i-1-mo-a"], &["2834"]), "Corinth 23.31");
    t.put("i-1-mo-a", "2833", "n", Formation::Limbered);
    t.ok(UNION, mv(&["i-1-mo-a"], &["2834"]));
    assert_eq!(t.hex("i-1-mo-a"), Some(n("2834")));
}

#[test]
fn corinth_23_33_units_see_into_adjacent_town_hexes_but_not_through_them() {
    let t = field();
    let rs = &t.rs;
    let map = &rs.game().map;
    let town = |h: HexNumber| {
        map.hex(h)
            .is_some_and(|x| x.terrain.contains(&crate::gbacw::map::Terrain::Town))
    };
    // Every town hex is seen from each neighbour, and sees it.
    for h in map.grid.hexes().filter(|h| town(*h)) {
        for (_, m) in map.grid.neighbours_on_map(h) {
            assert_eq!(rs.line_of_sight(&t.s, m, h), Los::Clear);
            assert_eq!(rs.line_of_sight(&t.s, h, m), Los::Clear);
        }
    }
    // A line between two hexes of one level through a town hex is blocked
    // (25 ft): 2636 -> 2638 passes 2637.
    assert!(town(n("2637")));
    assert_eq!(
        map.hex(n("2636")).unwrap().level,
        map.hex(n("2638")).unwrap().level
    );
    assert_ne!(rs.line_of_sight(&t.s, n("2636"), n("2638")), Los::Clear);
}

#[test]
fn corinth_23_34_a_defender_in_town_is_two_columns_left() {
    let t = field();
    let game = t.rs.game();
    let shift =
        crate::gbacw::fire::terrain_shift(&game.map, &game.charts.combat, n("2737"), &[n("2738")]);
    assert_eq!(shift, -2);
}

// --- 23.4 Railroads, 23.5 Swamp, 23.6 Crests -----------------------------

#[test]
fn corinth_23_4_railroads_ease_some_movement_and_do_nothing_else() {
    use crate::gbacw::charts::{MoveClass, PathKind};
    let t = field();
    let chart = &t.rs.game().charts.movement;
    // The bed is a path for column and mounted (the chart), not for guns.
    assert!(
        chart
            .path_cost(MoveClass::Column, PathKind::Railroad)
            .is_some()
    );
    assert!(
        chart
            .path_cost(MoveClass::Mounted, PathKind::Railroad)
            .is_some()
    );
    assert!(
        chart
            .path_cost(MoveClass::Limbered, PathKind::Railroad)
            .is_none()
    );
    // No combat row: a railroad hexside has no fire, melee or sight effect.
    let combat = &t.rs.game().charts.combat;
    assert!(
        !combat
            .hexside
            .keys()
            .any(|k| format!("{k:?}").to_lowercase().contains("rail"))
    );
}

#[test]
fn corinth_23_5_swamp_is_closed_to_horses_guns_and_wagons_and_has_no_combat_effect() {
    use crate::gbacw::charts::{Cost, MoveClass};
    use crate::gbacw::map::Terrain;
    let t = field();
    let game = t.rs.game();
    let swamp = [Terrain::Swamp];
    for class in [MoveClass::Mounted, MoveClass::Limbered, MoveClass::Wagon] {
        assert_eq!(
            game.charts.movement.enter_cost(class, &swamp),
            Cost::Prohibited
        );
    }
    assert!(matches!(
        game.charts.movement.enter_cost(MoveClass::Line, &swamp),
        Cost::Mp(_)
    ));
    assert_eq!(game.charts.combat.hex_fire_shift(&swamp), 0);
    // And on the map: a swamp hex's neighbours cannot send a battery in.
    let s = game
        .map
        .grid
        .hexes()
        .find(|h| {
            game.map
                .hex(*h)
                .is_some_and(|x| x.terrain.contains(&Terrain::Swamp))
        })
        .expect("the map has swamp");
    let (_, from) = game.map.grid.neighbours_on_map(s)[0];
    assert!(
        t.rs.steps
            .cost(MoveClass::Limbered, from, s, false)
            .is_err()
    );
}

#[test]
fn corinth_23_6_a_unit_in_a_crest_hex_is_on_the_lower_level() {
    let t = field();
    let map = &t.rs.game().map;
    // 23.6: "a unit in hex 3031 is on elevation level 1", the crest up to
    // level 2 on its hexside with 3030; Corinth has no `crest-hex-higher`
    // hook (Cedar Mountain 21.32's opposite reading).
    assert_eq!(map.hex(n("3031")).unwrap().level, 1);
    let side = map.grid.hexside(n("3030"), n("3031")).unwrap();
    assert_eq!(
        map.side_feature(side, crate::gbacw::map::SideKind::Crest)
            .and_then(|f| f.side),
        Some(n("3030"))
    );
    assert!(
        t.rs.game()
            .scenario
            .hook(crate::gbacw::scenario::HookKind::CrestHexHigher)
            .is_none()
    );
    assert_eq!(map.ground_feet(n("3031")), map.ground_feet(n("3032")));
}

// --- 24.1 Rapid fire -----------------------------------------------------

/// Lucas (Confederate, L, 4 guns, 8 rounds) unlimbered at 1107 facing
/// 17 Wisc at 1106; the Confederate Offensive Fire Phase of Game-Turn 3.
fn battery_field() -> T {
    let mut t = field();
    t.put("17-wisc", "1106", "s", Formation::Line);
    t.field_unit("lucas", "1107", Formation::Unlimbered);
    t.field_commander("lucas");
    t.face_towards("lucas", "1106");
    t.advance_to(REBEL, Phase::OffensiveFire);
    t
}

fn rapid(t: &mut T, seed: u64) -> Vec<GbacwEvent> {
    t.ok(REBEL, fire("1106", &[("lucas", 4)]));
    t.ok(REBEL, GbacwAction::RapidFire { index: 0 });
    t.roll(REBEL, GbacwAction::EndPhase, seed).0
}

/// Drop the retreats the fire's results left waiting (their paths are not
/// what these tests are about).
fn settle(t: &mut T) {
    t.s.retreats.clear();
    t.s.retreat_fire.clear();
    t.s.decision = None;
}

fn fouling(events: &[GbacwEvent]) -> Vec<(CounterId, u8, u8, bool, u8)> {
    events
        .iter()
        .filter_map(|e| match e {
            GbacwEvent::FoulingRolled {
                unit,
                die,
                modifier,
                fouled,
                consecutive,
            } => Some((unit.clone(), *die, *modifier, *fouled, *consecutive)),
            _ => None,
        })
        .collect()
}

#[test]
fn corinth_24_1_rapid_fire_doubles_the_guns_spends_three_rounds_and_rolls_for_fouling() {
    let mut normal = battery_field();
    normal.ok(REBEL, fire("1106", &[("lucas", 4)]));
    let (events, _) = normal.roll(REBEL, GbacwAction::EndPhase, 5);
    let plain = fire_reports(&events).remove(0);
    assert_eq!(normal.s.units[&id("lucas")].status.rounds, 7);
    assert!(fouling(&events).is_empty());

    let mut t = battery_field();
    let events = rapid(&mut t, 5);
    let r = fire_reports(&events).remove(0);
    // L at one hex is x8 (the chart): 4 guns 32, doubled 64.
    assert_eq!((plain.strength, r.strength), (32, 64));
    assert_eq!(t.s.units[&id("lucas")].status.rounds, 8 - 3);
    let f = fouling(&events);
    assert_eq!(f.len(), 1);
    let (unit, die, modifier, fouled, _) = f[0].clone();
    assert_eq!((unit, modifier), (id("lucas"), 0));
    assert_eq!(fouled, die == 6);
    assert_eq!(t.s.rapid_fire.fouled.contains(&id("lucas")), fouled);
}

#[test]
fn corinth_24_1_only_l_n_ha_hb_hc_batteries_rapid_fire() {
    // Hudson is TA: a rifle.
    let mut t = field();
    t.put("17-wisc", "1106", "s", Formation::Line);
    t.field_unit("hudson", "1107", Formation::Unlimbered);
    t.field_commander("hudson");
    t.face_towards("hudson", "1106");
    t.advance_to(REBEL, Phase::OffensiveFire);
    t.ok(REBEL, fire("1106", &[("hudson", 6)]));
    t.refused(REBEL, GbacwAction::RapidFire { index: 0 }, "Corinth 24.1");
    // Infantry neither.
    let mut t = battery_field();
    t.field_unit("3-la", "1206", Formation::Line);
    t.face_towards("3-la", "1106");
    t.ok(REBEL, fire("1106", &[("3-la", 4)]));
    t.refused(REBEL, GbacwAction::RapidFire { index: 0 }, "Corinth 24.1");
    // Not outside a Fire Phase, not twice, not another's attack.
    let mut t = battery_field();
    t.ok(REBEL, fire("1106", &[("lucas", 4)]));
    t.ok(REBEL, GbacwAction::RapidFire { index: 0 });
    t.refused(REBEL, GbacwAction::RapidFire { index: 0 }, "Corinth 24.1");
    assert!(
        t.decide(REBEL, &GbacwAction::RapidFire { index: 7 })
            .is_err()
    );
}

#[test]
fn corinth_24_11_only_within_three_hexes() {
    // The plan as declared (9.0's checks need sight; 24.11 counts hexes).
    let mut t = battery_field();
    for (hex, ok) in [("1110", true), ("1111", false)] {
        t.put("lucas", hex, "n", Formation::Unlimbered);
        t.s.fire_plan = vec![crate::gbacw::ruleset::state::PlannedFire {
            target: n("1107"),
            firers: vec![FireShare {
                unit: id("lucas"),
                points: 4,
            }],
            artillery: true,
            rapid: false,
        }];
        t.put("17-wisc", "1107", "s", Formation::Line);
        let r = t.decide(REBEL, &GbacwAction::RapidFire { index: 0 });
        if ok {
            assert!(r.is_ok(), "{hex}: {r:?}");
        } else {
            assert_eq!(r.unwrap_err().rule, "Corinth 24.11", "{hex}");
        }
    }
}

#[test]
fn corinth_24_12_never_at_batteries_and_in_a_mixed_hex_only_the_infantry_is_hit() {
    // A battery alone: refused.
    let mut t = battery_field();
    t.s.units.get_mut(&id("17-wisc")).unwrap().hex = None;
    t.put("i-1-mo-a", "1106", "s", Formation::Unlimbered);
    t.ok(REBEL, fire("1106", &[("lucas", 4)]));
    t.refused(REBEL, GbacwAction::RapidFire { index: 0 }, "Corinth 24.12");
    // With 17 Wisc there (the battery first by id, the top of the stack):
    // every loss falls on 17 Wisc.
    let mut hit_the_infantry = false;
    for seed in 0..12 {
        let mut t = battery_field();
        t.put("i-1-mo-a", "1106", "s", Formation::Unlimbered);
        let guns = t.s.units[&id("i-1-mo-a")].status.strength;
        let events = rapid(&mut t, seed);
        assert_eq!(
            t.s.units[&id("i-1-mo-a")].status.strength,
            guns,
            "seed {seed}"
        );
        hit_the_infantry |= events
            .iter()
            .any(|e| matches!(e, GbacwEvent::UnitHit { unit, .. } if *unit == id("17-wisc")));
    }
    assert!(hit_the_infantry);
}

/// The seed in 0..200 whose rapid fire from `battery_field` fouls (or
/// not).
fn fouling_seed(fouls: bool) -> u64 {
    (0..200)
        .find(|s| {
            let mut t = battery_field();
            let e = rapid(&mut t, *s);
            fouling(&e)[0].3 == fouls
        })
        .expect("a seed")
}

#[test]
fn corinth_24_1_fouled_guns_do_not_fire_until_unfouled_once_a_fire_phase() {
    let mut t = battery_field();
    rapid(&mut t, fouling_seed(true));
    settle(&mut t);
    assert!(t.s.rapid_fire.fouled.contains(&id("lucas")));
    // The Confederates' next Fire Phase: the Defensive Fire Phase of the
    // Union Player-Turn.
    t.advance_to(UNION, Phase::DefensiveFire);
    t.refused(REBEL, fire("1106", &[("lucas", 4)]), "Corinth 24.1");
    assert!(
        t.rs.legal_actions(&t.s, REBEL)
            .contains(&GbacwAction::Unfoul { unit: id("lucas") })
    );
    let (events, drawn) = t.roll(REBEL, GbacwAction::Unfoul { unit: id("lucas") }, 1);
    let unfouled = events
        .iter()
        .any(|e| matches!(e, GbacwEvent::UnfoulRolled { unfouled: true, .. }));
    assert_eq!(unfouled, drawn[0] <= 3);
    // Once per Fire Phase.
    if !unfouled {
        t.refused(
            REBEL,
            GbacwAction::Unfoul { unit: id("lucas") },
            "Corinth 24.1",
        );
    } else {
        // Unfouled, it fires in the same phase.
        assert!(t.decide(REBEL, &fire("1106", &[("lucas", 4)])).is_ok());
    }
    // Both ways, by seed.
    let outcomes: std::collections::BTreeSet<bool> = (0..20)
        .map(|s| {
            let mut u = clone(&t);
            u.s.rapid_fire.unfoul_tried.clear();
            u.s.rapid_fire.fouled.insert(id("lucas"));
            let (e, _) = u.roll(REBEL, GbacwAction::Unfoul { unit: id("lucas") }, s);
            e.iter()
                .any(|e| matches!(e, GbacwEvent::UnfoulRolled { unfouled: true, .. }))
        })
        .collect();
    assert_eq!(outcomes.len(), 2);
    // Not in the enemy's Fire Phase (not the Confederates' turn to act),
    // nor outside a Fire Phase.
    let mut t = battery_field();
    t.s.rapid_fire.fouled.insert(id("lucas"));
    t.advance_to(UNION, Phase::OffensiveFire);
    assert!(
        t.decide(REBEL, &GbacwAction::Unfoul { unit: id("lucas") })
            .is_err()
    );
    let mut t = battery_field();
    t.s.rapid_fire.fouled.insert(id("lucas"));
    t.advance_to(REBEL, Phase::RetreatBeforeMelee);
    t.refused(
        REBEL,
        GbacwAction::Unfoul { unit: id("lucas") },
        "Corinth 24.1",
    );
}

#[test]
fn corinth_24_13_optional_each_fire_phase_in_a_row_adds_one_to_the_fouling_die() {
    let run = |option: bool| {
        let mut t = T::with(GbacwConfig {
            battle: "corinth".into(),
            scenario_options: if option {
                [("rapid-fire-fouling".to_string(), true)]
                    .into_iter()
                    .collect()
            } else {
                Default::default()
            },
            ..GbacwConfig::default()
        });
        t.ok(UNION, GbacwAction::EndSetUp);
        t.put("17-wisc", "1106", "s", Formation::Line);
        t.field_unit("lucas", "1107", Formation::Unlimbered);
        t.field_commander("lucas");
        t.face_towards("lucas", "1106");
        t.advance_to(REBEL, Phase::OffensiveFire);
        let seed = (0..200)
            .find(|s| {
                let mut u = clone(&t);
                fouling(&rapid(&mut u, *s)).first().is_some_and(|f| !f.3)
            })
            .unwrap();
        let first = fouling(&rapid(&mut t, seed));
        settle(&mut t);
        // The next Confederate Fire Phase, rapid again (17 Wisc may have
        // gone: put it back).
        t.advance_to(UNION, Phase::DefensiveFire);
        t.put("17-wisc", "1106", "s", Formation::Line);
        t.s.units
            .get_mut(&id("17-wisc"))
            .unwrap()
            .status
            .markers
            .clear();
        t.ok(REBEL, fire("1106", &[("lucas", 4)]));
        t.ok(REBEL, GbacwAction::RapidFire { index: 0 });
        let (events, _) = t.roll(REBEL, GbacwAction::EndPhase, 1);
        (first[0].clone(), fouling(&events)[0].clone())
    };
    let (a, b) = run(true);
    assert_eq!((a.4, a.2), (1, 0));
    assert_eq!((b.4, b.2), (2, 1));
    assert_eq!(b.3, b.1 + 1 >= 6);
    let (a, b) = run(false);
    assert_eq!((a.2, b.4, b.2), (0, 2, 0));
}

// --- 24.3 Siege guns -----------------------------------------------------

#[test]
fn corinth_24_3_siege_guns_move_one_hex_a_turn_and_into_woods_only_by_road() {
    use crate::gbacw::map::{SideKind, Terrain};
    let mut t = field();
    t.advance_to(REBEL, Phase::Movement);
    t.advance_to(UNION, Phase::Movement);
    let map = t.rs.game().map.clone();
    // Battery Phillips (HC) limbered on clear ground by Redan F.
    let grid = &map.grid;
    t.put("phillips", "0917", "n", Formation::Limbered);
    assert!(
        map.hex(n("0817"))
            .unwrap()
            .terrain
            .contains(&Terrain::Clear)
    );
    let woods_off_road = grid
        .neighbours_on_map(n("0917"))
        .into_iter()
        .map(|(_, h)| h)
        .find(|h| {
            map.hex(*h).unwrap().terrain.contains(&Terrain::Woods)
                && !map.side_has(grid.hexside(n("0917"), *h).unwrap(), SideKind::Road)
        })
        .expect("a woods hex beside 0917 off the road");
    t.refused(
        UNION,
        mv(&["phillips"], &[&woods_off_road.to_string()]),
        "Corinth 24.3",
    );
    // Two hexes: refused; one: moved; then no more this turn.
    let beyond = grid
        .neighbours_on_map(n("0817"))
        .into_iter()
        .map(|(_, h)| h)
        .find(|h| {
            *h != n("0917")
                && grid.distance(*h, n("0917")) == 2
                && !map.hex(*h).unwrap().terrain.contains(&Terrain::Woods)
        });
    if let Some(b) = beyond {
        t.refused(
            UNION,
            mv(&["phillips"], &["0817", &b.to_string()]),
            "Corinth 24.3",
        );
    }
    t.ok(UNION, mv(&["phillips"], &["0817"]));
    t.refused(UNION, mv(&["phillips"], &["0917"]), "Corinth 24.3");
    // Another battery is not held.
    t.put("i-1-mo-a", "0917", "n", Formation::Limbered);
    let r = t.decide(UNION, &mv(&["i-1-mo-a"], &[&woods_off_road.to_string()]));
    assert!(
        r.as_ref().map_err(|e| e.rule.clone()) != Err("Corinth 24.3".into()),
        "{r:?}"
    );
}

// --- 24.2 Crews, 24.4 Artillery subordination ----------------------------

#[test]
fn corinth_24_24_optional_the_first_us_infantry_crews_melee_at_0() {
    use crate::gbacw::ruleset::corinth::crews::melee_strength;
    let plain = field();
    assert_eq!(melee_strength(&plain.rs, &id("robinett"), 1), 1);
    let mut t = T::with(GbacwConfig {
        battle: "corinth".into(),
        scenario_options: [("first-us-crews".to_string(), true)].into_iter().collect(),
        ..GbacwConfig::default()
    });
    t.ok(UNION, GbacwAction::EndSetUp);
    for b in ["robinett", "phillips", "williams"] {
        assert_eq!(melee_strength(&t.rs, &id(b), 1), 0, "{b}");
    }
    assert_eq!(melee_strength(&t.rs, &id("i-1-mo-a"), 1), 1);
    assert_eq!(melee_strength(&t.rs, &id("17-wisc"), 7), 7);
}

#[test]
fn corinth_24_22_a_battery_whose_crew_is_gone_leaves_play() {
    use crate::gbacw::oob::Crew;
    // Small arms on a lone battery take its crew a step a point (9.82,
    // 15.12): full, half, gone; gone, the battery is removed.
    let mut t = battery_field();
    t.s.units.get_mut(&id("17-wisc")).unwrap().hex = None;
    t.put("i-1-mo-a", "1106", "s", Formation::Unlimbered);
    t.s.units.get_mut(&id("i-1-mo-a")).unwrap().status.crew = Crew::Half;
    t.field_unit("3-la", "1206", Formation::Line);
    t.face_towards("3-la", "1106");
    t.s.units.get_mut(&id("lucas")).unwrap().hex = None;
    let seed = (0..300)
        .find(|s| {
            let mut u = clone(&t);
            u.ok(REBEL, fire("1106", &[("3-la", 4)]));
            let (e, _) = u.roll(REBEL, GbacwAction::EndPhase, *s);
            matches!(
                fire_reports(&e)[0].result,
                crate::gbacw::tables::FireResult::Loss { .. }
            )
        })
        .expect("a numeric result");
    t.ok(REBEL, fire("1106", &[("3-la", 4)]));
    t.roll(REBEL, GbacwAction::EndPhase, seed);
    assert_eq!(t.s.units[&id("i-1-mo-a")].hex, None);
}

#[test]
fn corinth_24_4_a_battery_naming_a_brigade_commander_is_under_command_an_indpnt_one_is_not() {
    use crate::gbacw::oob::Command;
    let t = field();
    let oob = &t.rs.game().oob;
    let mut brigade = 0;
    let mut independent = 0;
    for u in oob.units.values() {
        if !matches!(u.kind, crate::gbacw::oob::UnitKind::Battery { .. }) {
            continue;
        }
        match &u.command {
            Command::Independent => independent += 1,
            Command::Brigade(b) => {
                assert!(oob.leaders.contains_key(b), "{} names {b}", u.id);
                brigade += 1;
            }
        }
    }
    assert!(brigade > 0 && independent > 0);
    // Wade a (Gates' brigade) far from Gates is out of command; Hoxton
    // (Indpnt) is in command anywhere.
    let mut t = field();
    t.field_unit("wade-a", "1107", Formation::Unlimbered);
    t.field_unit("hoxton", "1108", Formation::Unlimbered);
    t.advance_to(REBEL, Phase::Movement);
    assert!(t.s.command.out_of_command.contains(&id("wade-a")));
    assert!(!t.s.command.out_of_command.contains(&id("hoxton")));
}
