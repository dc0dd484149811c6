//! Retreat limits on every retreat (issue 6): Corinth 27.0 and Cedar
//! Mountain 23.0 on retreats before melee and displacements, Corinth 23.31
//! (guns, wagons and horses into town by road only) on retreats, Cedar
//! Mountain 24.14 on the advance after melee and in the middle of a
//! retreat, through `decide` and `evolve` (or the retreat itself, where
//! the case is the path a retreat takes). Corinth cases are set in the
//! woods around 1326 (`corinth_melee`'s field) and at the town's edge
//! (2833, 2934, 2737), cleared of everyone else; Cedar Mountain cases on
//! the quiet corner of `cedar_rules`'s field.

use super::corinth_melee::{base, field as corinth_field, gate_field, melee as corinth_melee};
use super::*;
use crate::dice::DiceStream;
use crate::gbacw::retreat::RetreatKind;
use crate::gbacw::ruleset::combat::effects::{retreat, retreat_options};
use crate::gbacw::ruleset::combat::{Roller, Unfold};
use crate::gbacw::ruleset::state::{AdvanceOffer, RetreatFireOffer};
use std::collections::BTreeSet;

fn rbm(units: &[&str], path: &[&str]) -> GbacwAction {
    GbacwAction::RetreatBeforeMelee {
        units: ids(units),
        path: path.iter().map(|h| n(h)).collect(),
    }
}

/// Whether `a` is accepted, with seeded dice (22.1's check rolls one).
fn accepted(t: &T, seat: SeatId, a: &GbacwAction) -> bool {
    let ctx = crate::engine::ActionContext {
        seat,
        seq: 1,
        by_default: false,
    };
    let mut dice = Dice::from_stream(DiceStream::from_seed(b"retreat limits"));
    t.rs.decide(&t.s, &ctx, a, &mut dice)
        .map_err(|e| eprintln!("{a:?}: {e}"))
        .is_ok()
}

/// Corinth's town hexes (27.2's goal), read from the map.
fn town(t: &T) -> BTreeSet<HexNumber> {
    t.rs.game()
        .map
        .hexes()
        .filter(|(_, h)| h.terrain.contains(&crate::gbacw::map::Terrain::Town))
        .map(|(n, _)| n)
        .collect()
}

fn nearest(t: &T, goal: &BTreeSet<HexNumber>, h: HexNumber) -> u32 {
    let grid = &t.rs.game().map.grid;
    goal.iter().map(|g| grid.distance(h, *g)).min().unwrap()
}

/// Take every counter but `keep` off the map within `radius` of `hex`.
fn clear_around(t: &mut T, hex: &str, radius: u32, keep: &[&str]) {
    let grid = t.rs.game().map.grid.clone();
    for (u, x) in t.s.units.iter_mut() {
        if x.hex.is_some_and(|h| grid.distance(h, n(hex)) <= radius)
            && !keep.contains(&u.0.as_str())
        {
            x.hex = None;
        }
    }
    for (l, x) in t.s.leaders.iter_mut() {
        if x.hex.is_some_and(|h| grid.distance(h, n(hex)) <= radius)
            && !keep.contains(&l.0.as_str())
        {
            x.hex = None;
        }
    }
}

/// Run `f` on a fresh unfold with dice from `seed`; its events.
fn unfold(t: &T, seed: &[u8], f: impl FnOnce(&mut Unfold, &mut Roller)) -> Vec<GbacwEvent> {
    let mut dice = Dice::from_stream(DiceStream::from_seed(seed));
    let mut u = Unfold::new(&t.s);
    let mut roll = Roller::new(&mut dice);
    f(&mut u, &mut roll);
    u.events
}

/// Where `unit` went in `events` (its last retreat's end), or the options
/// its pending retreat order offers (14.4), whichever happened.
fn ends(t: &T, events: &[GbacwEvent], unit: &str) -> Vec<Vec<HexNumber>> {
    let moved: Vec<Vec<HexNumber>> = events
        .iter()
        .filter_map(|e| match e {
            GbacwEvent::UnitRetreated { unit: u, path } if *u == id(unit) => Some(path.clone()),
            _ => None,
        })
        .collect();
    if !moved.is_empty() {
        return moved;
    }
    let mut s = t.s.clone();
    for e in events {
        t.rs.evolve(&mut s, e);
    }
    let order = s
        .retreats
        .iter()
        .find(|o| o.unit == id(unit))
        .cloned()
        .expect("the unit retreated or waits for its owner's choice");
    crate::gbacw::ruleset::combat::effects::order_options(&t.rs, &s, &order)
}

// --- Corinth 27.0 on retreats before melee ---------------------------------

#[test]
fn corinth_27_2_a_retreat_before_melee_goes_toward_the_town() {
    let mut t = gate_field();
    t.ok(REBEL, corinth_melee("1326", &["9-ark"]));
    // Distances to the nearest town hex: 1326 15; 1226 15 (level), 1225
    // 16 (farther), 1327 and 1227 14. One hex to 1226 ends no nearer; to
    // 1225 it goes away: both are no retreat toward Corinth.
    let goal = town(&t);
    assert_eq!(nearest(&t, &goal, n("1226")), nearest(&t, &goal, n("1326")));
    for away in ["1226", "1225"] {
        t.refused(UNION, rbm(&["52-ill"], &[away]), "Corinth 27.0");
    }
    // 1327 (south, one hex nearer) is the way; so is 1226 then 1227 (a
    // level step, then nearer: the deviation 27.2 allows).
    assert!(nearest(&t, &goal, n("1327")) < nearest(&t, &goal, n("1326")));
    assert!(accepted(&t, UNION, &rbm(&["52-ill"], &["1327"])));
    assert!(accepted(&t, UNION, &rbm(&["52-ill"], &["1226", "1227"])));
    // Two hexes away from the town are refused like one.
    t.refused(UNION, rbm(&["52-ill"], &["1226", "1126"]), "Corinth 27.0");
    // The legal set offers it and none of the refused ones.
    let legal = t.rs.legal_actions(&t.s, UNION);
    assert!(legal.contains(&rbm(&["52-ill"], &["1327"])), "{legal:?}");
    assert!(!legal.contains(&rbm(&["52-ill"], &["1226"])));
}

#[test]
fn corinth_27_2_already_in_town_a_retreat_before_melee_goes_toward_the_south_east_corner() {
    let mut t = base();
    clear_around(&mut t, "2737", 4, &[]);
    t.corinth_unit("52-ill", "2737", Formation::Line);
    t.corinth_unit("9-ark", "2736", Formation::Line);
    t.corinth_leader("rust", "2735");
    t.corinth_leader("hackleman", "2738");
    t.face_towards("9-ark", "2737");
    t.face_towards("52-ill", "2736");
    t.advance_to(REBEL, Phase::RetreatBeforeMelee);
    t.ok(REBEL, corinth_melee("2737", &["9-ark"]));
    // No step leads nearer the town from inside it (27.2: "unable to
    // retreat toward Corinth"): toward 3945. 2738 (south) is nearer the
    // corner; 2637 (south-west) is not.
    let corner = BTreeSet::from([n("3945")]);
    assert!(nearest(&t, &corner, n("2738")) < nearest(&t, &corner, n("2737")));
    assert!(accepted(&t, UNION, &rbm(&["52-ill"], &["2738"])));
    t.refused(UNION, rbm(&["52-ill"], &["2637"]), "Corinth 27.0");
}

#[test]
fn corinth_27_0_a_forced_retreat_before_melee_with_no_way_toward_the_goal_stands() {
    // 21.42's dismounted cavalry in 1326, meleed by infantry, must retreat
    // before melee. 15 Miss (1426) faces 1326, so its Zone of Control
    // holds 1327 as well as 1426, and 12.82 keeps a retreat before melee
    // out of enemy ZOCs; 4 Ala Bn in 1227 (facing away, south) closes the
    // way round by 1226. The Standard Rules would let it go to 1226 (level
    // with 1326 for the town) or on west, but no retreat keeps 27.2: the
    // cavalry stands and takes the melee (GBACW 12.88's outcome for a unit
    // that may not retreat before melee; Corinth 22.0 step 4's "must
    // defend").
    let mut t = corinth_field(false);
    t.s.units.get_mut(&id("52-ill")).unwrap().hex = None;
    t.corinth_unit("7-ill-cav", "1326", Formation::Dismounted);
    t.face_towards("7-ill-cav", "1325");
    t.corinth_unit("4-ala-bn", "1227", Formation::Line);
    t.face_towards("4-ala-bn", "1228");
    t.advance_to(REBEL, Phase::RetreatBeforeMelee);
    t.ok(REBEL, corinth_melee("1326", &["9-ark"]));
    for path in [&["1226"][..], &["1226", "1126"], &["1226", "1125"]] {
        t.refused(UNION, rbm(&["7-ill-cav"], path), "Corinth 27.0");
    }
    // Without 4 Ala Bn, 1226 then 1227 is open, and the retreat is forced.
    let mut open = T {
        rs: t.rs.clone(),
        s: t.s.clone(),
        script: Default::default(),
    };
    open.s.units.get_mut(&id("4-ala-bn")).unwrap().hex = None;
    open.refused(UNION, GbacwAction::StandFast, "Corinth 21.42");
    let offer = open.s.rbm.clone().unwrap();
    assert_eq!(
        crate::gbacw::ruleset::exclusive::dismounted_cavalry::default_answer(
            &open.rs, &open.s, &offer
        ),
        rbm(&["7-ill-cav"], &["1226", "1227"])
    );
    let offer = t.s.rbm.clone().unwrap();
    assert_eq!(
        crate::gbacw::ruleset::exclusive::dismounted_cavalry::default_answer(&t.rs, &t.s, &offer),
        GbacwAction::StandFast
    );
    let legal = t.rs.legal_actions(&t.s, UNION);
    assert!(
        legal.iter().all(|a| *a == GbacwAction::StandFast),
        "{legal:?}"
    );
    t.ok(UNION, GbacwAction::StandFast);
    assert_eq!(t.hex("7-ill-cav"), Some(n("1326")));
}

// --- Corinth 27.0 on displacement ------------------------------------------

#[test]
fn corinth_27_0_a_displaced_unit_retreats_toward_its_goal() {
    // 2 Iowa has just retreated onto 52 Ill in 1326 (14.3): 52 Ill is
    // displaced one hex, toward the town, never away (1225, 1226, 1325).
    let mut t = corinth_field(false);
    for u in ["9-ark", "7-ky", "15-miss"] {
        t.s.units.get_mut(&id(u)).unwrap().hex = None;
    }
    t.corinth_unit("2-iowa", "1326", Formation::Line);
    let goal = town(&t);
    for seed in [
        &b"corinth 27.0 displaced 1"[..],
        b"corinth 27.0 displaced 2",
    ] {
        let events = unfold(&t, seed, |u, roll| {
            crate::gbacw::ruleset::combat::displacement::displace(
                &t.rs,
                u,
                roll,
                &id("2-iowa"),
                &[n("1326")],
            )
        });
        let options = ends(&t, &events, "52-ill");
        assert!(!options.is_empty());
        for p in options {
            let end = *p.last().unwrap();
            assert!(
                nearest(&t, &goal, end) < nearest(&t, &goal, n("1326")),
                "{p:?}"
            );
        }
    }
}

// --- Corinth 23.31 on retreats ----------------------------------------------

/// 2934, beside the town: its town neighbours 2834 and 2935 are across
/// hexsides with no road (the seed's own example: "not from 2934").
fn beside_town(unit: &str, formation: Formation) -> T {
    let mut t = base();
    clear_around(&mut t, "2934", 4, &[]);
    t.corinth_unit(unit, "2934", formation);
    t
}

fn into_town_off_road(t: &T, paths: &[Vec<HexNumber>], start: HexNumber) -> bool {
    let map = &t.rs.game().map;
    let town = town(t);
    paths.iter().any(|p| {
        let mut at = start;
        p.iter().any(|&h| {
            let off_road = town.contains(&h)
                && !map.grid.hexside(at, h).is_some_and(|s| {
                    map.side_has(s, crate::gbacw::map::SideKind::Road)
                        || map.side_has(s, crate::gbacw::map::SideKind::Pike)
                });
            at = h;
            off_road
        })
    })
}

#[test]
fn corinth_23_31_guns_wagons_and_horses_retreat_into_town_by_road_only() {
    // Infantry routing from 2934 goes into the town (27.2), across any
    // hexside.
    let t = beside_town("52-ill", Formation::Line);
    let foot = retreat_options(&t.rs, &t.s, &id("52-ill"), 3, RetreatKind::Rout);
    assert!(into_town_off_road(&t, &foot, n("2934")), "{foot:?}");
    // A limbered battery, a wagon, mounted cavalry: never into town but
    // by road. With no road into town from here, they have no way toward
    // the town and go toward the south-east corner (27.2's fallback).
    for (unit, formation) in [
        ("d-1-mo", Formation::Limbered),
        ("supply-davies", Formation::Wagon),
        ("7-ill-cav", Formation::Mounted),
    ] {
        let t = beside_town(unit, formation);
        let paths = retreat_options(&t.rs, &t.s, &id(unit), 3, RetreatKind::Rout);
        assert!(!paths.is_empty(), "{unit}");
        assert!(
            !into_town_off_road(&t, &paths, n("2934")),
            "{unit}: {paths:?}"
        );
        let corner = BTreeSet::from([n("3945")]);
        for p in &paths {
            let end = *p.last().unwrap();
            assert!(nearest(&t, &corner, end) < nearest(&t, &corner, n("2934")));
        }
    }
}

#[test]
fn corinth_23_31_a_battery_with_no_road_into_town_and_the_corner_blocked_is_captured() {
    // The battery's ways toward the corner begin in 3033 or 3034 (2935 is
    // town, off road): Confederate units there leave it no legal retreat,
    // and the Standard outcome holds (GBACW 14.1, 13.31: captured).
    // Infantry in its place still has the town.
    let mut t = beside_town("d-1-mo", Formation::Limbered);
    t.corinth_unit("9-ark", "3034", Formation::Line);
    t.corinth_unit("7-ky", "3033", Formation::Line);
    assert!(retreat_options(&t.rs, &t.s, &id("d-1-mo"), 3, RetreatKind::Rout).is_empty());
    let events = unfold(&t, b"corinth 23.31 captured", |u, roll| {
        retreat(&t.rs, u, roll, &id("d-1-mo"), 3, RetreatKind::Rout)
    });
    assert_eq!(
        events,
        vec![GbacwEvent::UnitRemoved {
            unit: id("d-1-mo"),
            captured: true
        }]
    );
    let mut t = beside_town("52-ill", Formation::Line);
    t.corinth_unit("9-ark", "3034", Formation::Line);
    t.corinth_unit("7-ky", "3033", Formation::Line);
    assert!(!retreat_options(&t.rs, &t.s, &id("52-ill"), 3, RetreatKind::Rout).is_empty());
}

#[test]
fn corinth_23_31_a_mounted_retreat_before_melee_enters_town_by_road_only() {
    // 7 Ill Cav mounted in 2833, meleed by 9 Ark from 2832: 2834 is across
    // the road (the seed's "2834 from 2833"), 2734 is not.
    let mut t = base();
    clear_around(&mut t, "2833", 4, &[]);
    t.corinth_unit("7-ill-cav", "2833", Formation::Mounted);
    t.corinth_unit("9-ark", "2832", Formation::Line);
    t.corinth_leader("rust", "2830");
    t.face_towards("9-ark", "2833");
    t.advance_to(REBEL, Phase::RetreatBeforeMelee);
    t.ok(REBEL, corinth_melee("2833", &["9-ark"]));
    t.refused(UNION, rbm(&["7-ill-cav"], &["2734"]), "Corinth 23.31");
    assert!(accepted(&t, UNION, &rbm(&["7-ill-cav"], &["2834"])));
    // Dismounted, it may go in either way.
    let mut t2 = T {
        rs: t.rs.clone(),
        s: t.s.clone(),
        script: Default::default(),
    };
    t2.s.units
        .get_mut(&id("7-ill-cav"))
        .unwrap()
        .status
        .formation = Formation::Dismounted;
    assert!(accepted(&t2, UNION, &rbm(&["7-ill-cav"], &["2734"])));
}

// --- Cedar Mountain 23.0 and 24.14 on displacement -------------------------

#[test]
fn cedar_23_0_a_displaced_unit_retreats_toward_its_own_lines() {
    use crate::gbacw::ruleset::combat::retreat_limits::compass;
    // 5 Conn has just retreated onto 78 NY in 0505: 78 NY goes one hex
    // east, north-east or south-east (23.2), never west.
    let mut t = super::cedar_rules::field();
    t.field_unit("78-ny", "0505", Formation::Line);
    t.field_unit("5-conn", "0505", Formation::Line);
    let grid = t.rs.game().map.grid.clone();
    for seed in [&b"cedar 23.0 displaced 1"[..], b"cedar 23.0 displaced 2"] {
        let events = unfold(&t, seed, |u, roll| {
            crate::gbacw::ruleset::combat::displacement::displace(
                &t.rs,
                u,
                roll,
                &id("5-conn"),
                &[n("0505")],
            )
        });
        let options = ends(&t, &events, "78-ny");
        assert!(!options.is_empty());
        for p in options {
            let c = compass(&grid, "left", n("0505"), p[0]).unwrap();
            assert!(["E", "NE", "SE"].contains(&c), "{p:?} goes {c}");
        }
    }
}

#[test]
fn cedar_24_14_a_displaced_unit_of_a_broken_brigade_never_enters_an_enemy_zoc() {
    // 15 Ala and 21 Ga's ZOCs hold 0404, 0504 and 0604, every hex east of
    // 0505. Displaced, 78 NY goes through one (retreat fire may follow);
    // its brigade broken, it may not, and is captured (24.14).
    let setup = |broken: bool| {
        let mut t = super::cedar_rules::field();
        t.field_unit("78-ny", "0505", Formation::Line);
        t.field_unit("5-conn", "0505", Formation::Line);
        t.field_unit("15-ala", "0403", Formation::Line);
        t.face_towards("15-ala", "0404");
        t.field_unit("21-ga", "0603", Formation::Line);
        t.face_towards("21-ga", "0604");
        if broken {
            t.break_greene();
        }
        t
    };
    let displace = |t: &T| {
        unfold(t, b"cedar 24.14 displaced", |u, roll| {
            crate::gbacw::ruleset::combat::displacement::displace(
                &t.rs,
                u,
                roll,
                &id("5-conn"),
                &[n("0505")],
            )
        })
    };
    let t = setup(false);
    let events = displace(&t);
    assert!(!events.iter().any(|e| matches!(e,
        GbacwEvent::UnitRemoved { unit, .. } if *unit == id("78-ny"))));
    let t = setup(true);
    let events = displace(&t);
    assert!(events.contains(&GbacwEvent::UnitRemoved {
        unit: id("78-ny"),
        captured: true
    }));
}

// --- Cedar Mountain 24.14 and the advance after melee (12.85) ---------------

/// 78 NY and 5 Conn in 0404 were going to melee 0505, whose defenders
/// retreated before melee; 15 Ala in 0506 faces 0505, so 0505 is in its
/// Zone of Control.
fn advance_field(broken: bool, zoc: bool) -> T {
    let mut t = super::cedar_rules::field();
    t.field_unit("78-ny", "0404", Formation::Line);
    t.field_unit("5-conn", "0404", Formation::Line);
    t.field_unit("15-ala", "0506", Formation::Line);
    if zoc {
        t.face_towards("15-ala", "0505");
    } else {
        t.face_towards("15-ala", "0507");
    }
    if broken {
        t.break_greene();
    }
    t.s.advance = Some(AdvanceOffer {
        seat: UNION,
        hex: n("0505"),
        units: ids(&["78-ny", "5-conn"]),
    });
    t
}

fn advance(units: &[&str]) -> GbacwAction {
    GbacwAction::Advance { units: ids(units) }
}

#[test]
fn cedar_24_14_a_broken_brigade_may_not_advance_after_melee_into_an_enemy_zoc() {
    let t = advance_field(true, true);
    t.refused(UNION, advance(&["78-ny"]), "Cedar Mountain 24.14");
    t.refused(UNION, advance(&["78-ny", "5-conn"]), "Cedar Mountain 24.14");
    // 5 Conn's brigade (Crawford) is whole: it may.
    assert!(accepted(&t, UNION, &advance(&["5-conn"])));
    let legal = t.rs.legal_actions(&t.s, UNION);
    assert!(!legal.contains(&advance(&["78-ny"])), "{legal:?}");
    // Out of every enemy ZOC, or not broken, 78 NY may advance.
    let t = advance_field(true, false);
    assert!(accepted(&t, UNION, &advance(&["78-ny"])));
    let t = advance_field(false, true);
    assert!(accepted(&t, UNION, &advance(&["78-ny"])));
}

#[test]
fn cedar_23_0_does_not_bind_the_advance_after_melee() {
    // 23.0 is about retreats: "may never use the retreat as an advance".
    // A Union advance westward (away from its own lines, 23.2) is allowed.
    let mut t = advance_field(false, false);
    t.field_unit("78-ny", "0504", Formation::Line);
    t.s.advance = Some(AdvanceOffer {
        seat: UNION,
        hex: n("0505"),
        units: ids(&["78-ny"]),
    });
    let grid = &t.rs.game().map.grid;
    assert_eq!(
        crate::gbacw::ruleset::combat::retreat_limits::compass(grid, "left", n("0504"), n("0505")),
        Some("W")
    );
    assert!(accepted(&t, UNION, &advance(&["78-ny"])));
}

// --- Cedar Mountain 24.14 in the middle of a retreat (10.2) ------------------

#[test]
fn cedar_24_14_a_brigade_broken_during_a_retreat_takes_it_no_further_through_zoc() {
    // 78 NY routs from 0606 to 0404 by 0505; retreat fire was offered in
    // 0505 (21 Ga's ZOC), and 15 Ala's ZOC holds 0404. Its brigade broke
    // meanwhile (the fire, or another loss): 24.14, "may not retreat
    // through an enemy ZOC at all, and if forced to, is captured".
    let setup = |broken: bool| {
        let mut t = super::cedar_rules::field();
        t.field_unit("78-ny", "0505", Formation::Line);
        t.field_unit("21-ga", "0605", Formation::Line);
        t.face_towards("21-ga", "0505");
        t.field_unit("15-ala", "0403", Formation::Line);
        t.face_towards("15-ala", "0404");
        if broken {
            t.break_greene();
        }
        t.s.retreat_fire = vec![RetreatFireOffer {
            seat: REBEL,
            unit: id("78-ny"),
            hex: n("0505"),
            firers: ids(&["21-ga"]),
            rest: vec![n("0404")],
            offered: ids(&["21-ga"]),
            at_start: Vec::new(),
            leaves_map: false,
        }];
        t
    };
    let mut t = setup(false);
    let (events, _) = t.roll(REBEL, GbacwAction::DeclineRetreatFire, 1);
    assert!(
        events.contains(&GbacwEvent::UnitRetreated {
            unit: id("78-ny"),
            path: vec![n("0404")]
        }) || !t.s.retreat_fire.is_empty(),
        "{events:?}"
    );
    let mut t = setup(true);
    let (events, _) = t.roll(REBEL, GbacwAction::DeclineRetreatFire, 1);
    assert!(
        events.contains(&GbacwEvent::UnitRemoved {
            unit: id("78-ny"),
            captured: true
        }),
        "{events:?}"
    );
    assert_eq!(t.hex("78-ny"), None);
}

// --- Corinth 27.0 on 26.15's nightfall retreat -------------------------------

#[test]
fn corinth_27_0_the_nightfall_retreat_goes_toward_each_sides_goal() {
    // 26.15's retreat of melees engaged at dusk is a forced retreat too:
    // 21 Mo toward the town (or, in it, the south-east corner), 6 Miss
    // toward the Assault Area it entered by (F, by 0140).
    let (mut t, union_hex, rebel_hex) = super::corinth_night::engaged_at_dusk();
    t.s.entered_at.insert(id("6-miss"), n("0140"));
    let area: BTreeSet<HexNumber> =
        t.rs.game()
            .map
            .areas()
            .filter(|(name, _)| *name == "assault-f")
            .flat_map(|(_, h)| h.iter().copied())
            .collect();
    let town = town(&t);
    let union_goal = if nearest(&t, &town, union_hex) == 0 {
        BTreeSet::from([n("3945")])
    } else {
        town
    };
    t.ok(UNION, GbacwAction::EndPhase);
    for (unit, start, goal) in [
        ("21-mo", union_hex, &union_goal),
        ("6-miss", rebel_hex, &area),
    ] {
        let end = t.hex(unit).expect("retreated, not captured");
        assert!(
            nearest(&t, goal, end) < nearest(&t, goal, start),
            "{unit}: {start} -> {end}"
        );
    }
}

#[test]
fn corinth_27_0_path_toward_never_steps_away_and_ends_nearer() {
    use crate::gbacw::retreat::RetreatLimits;
    let t = base();
    let grid = &t.rs.game().map.grid;
    let limits = RetreatLimits {
        toward: Some(town(&t)),
        ..RetreatLimits::default()
    };
    let path = |hexes: &[&str]| hexes.iter().map(|h| n(h)).collect::<Vec<_>>();
    // From 1326 (15 from the town): 1327 (14) yes; 1226 (15) level, no;
    // 1226 then 1227 (14) yes; 1225 (16) then 1226 (15) steps away, no.
    assert!(limits.path_toward(grid, n("1326"), &path(&["1327"])));
    assert!(!limits.path_toward(grid, n("1326"), &path(&["1226"])));
    assert!(limits.path_toward(grid, n("1326"), &path(&["1226", "1227"])));
    assert!(!limits.path_toward(grid, n("1326"), &path(&["1225", "1226"])));
    // No goal: anything goes (the test battle, Cedar Mountain).
    assert!(RetreatLimits::default().path_toward(grid, n("1326"), &path(&["1225"])));
}
