//! The second reading's Cedar Mountain cases (19.0–27.0), written from the
//! rule text alone by readers who never saw the engine
//! (`docs/second-reading/cedar-19-27.md`), as position-builder tests with
//! the exact dice each case names. Each test is named as its case and
//! quotes the sentence its expectation rests on. A case's position is
//! built on a small field with Cedar Mountain's exclusive-rule hooks (the
//! `hook`, `north` and victory lines of the shipped scenario), or on the
//! real battle where the case needs it.

use super::reading_support::{
    aim, cedar, dist, hit, melee, melee_reports, overshoots, rally_tried, refused_case, settle, vp,
};
use super::*;
use crate::gbacw::oob::Crew;
use crate::gbacw::oob::Marker;
use crate::gbacw::ruleset::event::FireReport;
use crate::gbacw::ruleset::state::Casualty;
use crate::gbacw::tables::{FireResult, FireRow, MeleeEffect};
use crate::gbacw::testkit::Position;

fn checks(events: &[GbacwEvent], unit: &str) -> Vec<(u8, u8, i8, bool)> {
    events
        .iter()
        .filter_map(|e| match e {
            GbacwEvent::MoraleChecked {
                unit: u,
                rating,
                die,
                modifier,
                failed,
            } if *u == id(unit) => Some((*rating, *die, *modifier, *failed)),
            _ => None,
        })
        .collect()
}

// --- 19.0 Introduction (scale) ----------------------------------------------

/// Cedar Mountain 19.0, 9.82, 27.21: "each Strength Point represents 100
/// men or 1 gun." / "Guns themselves are affected only by artillery fire
/// and each Point in a given result eliminates a gun." / "Enemy infantry
/// Strength Point/gun: Eliminated 1 VP each"
#[test]
fn cedar_19_0_battery_strength_is_guns() {
    let mut t = cedar(8, 10)
        .union("battery 6-me weapon=TB guns=6 rounds=0 morale=4")
        .confederate("battery 1-md weapon=N guns=4 rounds=0 morale=5")
        .place("6-me", "0303", "s", "unlimbered")
        .place("1-md", "0308", "n", "unlimbered")
        .build_at(3, REBEL, Phase::OffensiveFire);
    assert_eq!(dist(&t, "0303", "0308"), 5);
    t.ok(REBEL, fire("0303", &[("1-md", 4)]));
    // 4 guns × 2 (N at 5, provisional) = 8: the Small-Arms and
    // Counter-Battery row's third column; a 6 reads "1". Spare dice for
    // any crew check that follows.
    t.script(&[6, 1, 1, 1]);
    let events = t.act(REBEL, GbacwAction::EndPhase);
    settle(&mut t);
    let r = &fire_reports(&events)[0];
    assert_eq!(r.row, FireRow::SmallArmsAndCounterBattery);
    assert_eq!(
        r.result,
        FireResult::Loss {
            points: 1,
            then_pin_check: false
        },
        "{r:?}"
    );
    let u = &t.s.units[&id("6-me")];
    assert_eq!(u.status.strength, 5);
    assert_eq!(u.status.crew, Crew::Full);
    assert_eq!(vp(&t, REBEL).losses, 1);
}

/// Cedar Mountain 19.0, 9.82, 15.12, 27.21 Note: "If a battery suffers a
/// result of "1," the gun crew counter is flipped over to its Reduced
/// Strength side; another Point loss and the crew is eliminated." /
/// "Note: A player receives no VP's for the elimination of enemy battery
/// crews." / 15.12 "When the gun crew loses a second Strength Point, the
/// crew is eliminated and the battery is removed from play and considered
/// eliminated (not captured) for Victory Point purposes." (The case said
/// 0 VP and "uncrewed guns stay on the map"; 15.12 says otherwise: the
/// case is corrected, the crew scores nothing, its 6 guns 1 VP each.)
#[test]
fn cedar_19_0_crew_loss_scores_nothing() {
    let mut t = cedar(8, 8)
        .union("battery 4-me weapon=TA guns=6 rounds=0 morale=4")
        .confederate("infantry 15-ala strength=7 morale=4 weapon=R")
        .place("4-me", "0303", "s", "unlimbered")
        .place("15-ala", "0304", "n", "line")
        .build_at(3, REBEL, Phase::OffensiveFire);
    t.ok(REBEL, fire("0303", &[("15-ala", 4)]));
    // 4 SP × 2 (R adjacent) = 8, third column; die 6: "1". The crew's
    // check passes on a 1.
    t.script(&[6, 1, 1]);
    let events = t.act(REBEL, GbacwAction::EndPhase);
    settle(&mut t);
    let r = &fire_reports(&events)[0];
    assert!(
        matches!(r.result, FireResult::Loss { points: 1, .. }),
        "{r:?}"
    );
    assert_eq!(t.s.units[&id("4-me")].status.crew, Crew::Half);
    assert_eq!(t.s.units[&id("4-me")].status.strength, 6);
    // The next Confederate Offensive Fire Phase.
    t.script(&[1; 12]);
    t.advance_to_turn(4, REBEL, Phase::OffensiveFire);
    t.script.clear();
    t.ok(REBEL, fire("0303", &[("15-ala", 4)]));
    t.script(&[6, 1, 1]);
    let events = t.act(REBEL, GbacwAction::EndPhase);
    settle(&mut t);
    let r = &fire_reports(&events)[0];
    assert!(
        matches!(r.result, FireResult::Loss { points: 1, .. }),
        "{r:?}"
    );
    // The crew is gone and with it the battery (15.12): its guns score as
    // eliminated, 1 VP each; the crew itself scores nothing.
    assert_eq!(t.hex("4-me"), None);
    assert_eq!(t.s.units[&id("4-me")].captured, 0);
    assert_eq!(vp(&t, REBEL).losses, 6);
}

/// Cedar Mountain 19.0, 9.1: counter "Purcell Indpnt ★ 5 PA2" and
/// "Midlesx Indpnt ★ 5 PA2"; 9.1 "Each combat unit has its initial Combat
/// Strength and weapon type printed on the counter."
#[test]
fn cedar_19_0_purcell_gun_count() {
    let t = T::battle("cedar_mountain");
    for b in ["purcell", "middlesex"] {
        let u = &t.rs.game().oob.units[&id(b)];
        assert_eq!(u.strength, 2, "{b}");
        assert_eq!(t.s.units[&id(b)].status.strength, 2, "{b}");
    }
    assert!(t.s.progress.to_arrive.contains(&id("purcell")));
}

// --- 20.0 Sample units and game inventory -----------------------------------

/// Cedar Mountain 20.1, 21.1, 6.14: front "1 Me c Indpnt ★ 2 C5"; back
/// "1 Me c Indpnt C5  4"; 21.1 "All cavalry units in dismounted formation
/// have a Morale Rating of 2".
#[test]
fn cedar_20_1_cavalry_two_morales() {
    use crate::gbacw::oob::Morale;
    let t = T::battle("cedar_mountain");
    let oob = &t.rs.game().oob;
    for (u, mounted, sp) in [
        ("1-me-c", 4, 5),
        ("1-pa-c", 5, 2),
        ("1-nj-c", 4, 3),
        ("1-ri-c", 4, 2),
        ("whites-c", 4, 1),
    ] {
        let c = &oob.units[&id(u)];
        assert_eq!(c.morale, Morale::Rated(2), "{u} dismounted");
        assert_eq!(c.mounted_morale, Some(mounted), "{u} mounted");
        assert_eq!(c.weapon.as_deref(), Some("C"), "{u}");
        assert_eq!(c.strength, sp, "{u}");
    }
}

/// Cedar Mountain 20.1, 25.1, 17.2: "Jackson ★★★ 3", "Banks ★ 1", "Winder
/// ★★★ 4 2"; "The first is that commander's Divisional Integrity Radius
/// and the second is his Command Points Rating."
#[test]
fn cedar_20_1_army_commanders_one_rating() {
    use crate::gbacw::oob::LeaderRole;
    let t = T::battle("cedar_mountain");
    let leaders = &t.rs.game().oob.leaders;
    assert!(matches!(
        leaders[&id("jackson")].role,
        LeaderRole::Army { command_points: 3 }
    ));
    assert!(matches!(
        leaders[&id("banks")].role,
        LeaderRole::Army { command_points: 1 }
    ));
    for (d, dir, cp) in [
        ("winder", 4, 2),
        ("ewell", 6, 2),
        ("hill", 8, 2),
        ("williams", 6, 2),
        ("augur", 5, 1),
    ] {
        let LeaderRole::Division {
            integrity_radius: r,
            command_points: c,
            ..
        } = &leaders[&id(d)].role
        else {
            panic!("{d} is not a division commander");
        };
        assert_eq!((*r, *c), (dir, cp), "{d}");
    }
}

/// Cedar Mountain 20.2, 21.2: "there are no supply wagons in the game and
/// the ammunition rules (11.0) are not used."
#[test]
fn cedar_20_2_no_supply_wagons() {
    use crate::gbacw::oob::UnitKind;
    let t = T::battle("cedar_mountain");
    let oob = &t.rs.game().oob;
    assert!(
        !oob.units
            .values()
            .any(|u| matches!(u.kind, UnitKind::Wagon { .. }))
    );
    for (uid, u) in &oob.units {
        if let UnitKind::Battery { .. } = u.kind {
            assert_eq!(t.s.units[uid].status.rounds, 0, "{uid}");
        }
    }
}

// --- 21.0 Modifications and additions to the Standard Rules ----------------

/// 1 NJ c (Bayard's, C 3, dismounted morale 2, mounted 4) in 0303 facing
/// down the map; a 4-point R regiment below it in 0304, facing it.
fn troopers(formation: &str) -> Position {
    cedar(8, 8)
        .union("brigade bayard indpnt er=3 rally=1 bce=3/7 bce-vp=10")
        .union("cavalry 1-nj-c brigade=bayard morale=2 mounted-morale=4 weapon=C strength=3")
        .confederate("infantry 23-va strength=4 morale=4 weapon=R")
        .place("1-nj-c", "0303", "s", formation)
        .place("23-va", "0304", "n", "line")
        .leader("bayard", "0801")
}

/// Cedar Mountain 21.1, 13.21: "All cavalry units in dismounted formation
/// have a Morale Rating of 2, representing the fact that cavalry were not
/// trained to fight as infantry." / "If the number rolled is greater than
/// the unit's Morale Rating, that unit has routed."
#[test]
fn cedar_21_1_dismounted_cavalry_morale_two() {
    for (formation, rating, routs) in [("dismounted", 2, true), ("mounted", 4, false)] {
        let mut t = troopers(formation).build_at(2, REBEL, Phase::OffensiveFire);
        t.ok(REBEL, fire("0303", &[("23-va", 4)]));
        // 8 on the small-arms row: "7 to 10", the fourth column (the
        // first is "0 or less"); 3 points: no density shift; mounted
        // cavalry is always enfiladed (16.35): one more column right and
        // +1 on the check (13.26). Die 5 reads "1" in either column; the
        // check rolls 3.
        let enfiladed = formation == "mounted";
        t.script(&[5, 3]);
        let events = t.act(REBEL, GbacwAction::EndPhase);
        let r = &fire_reports(&events)[0];
        assert_eq!(r.enfilade, enfiladed);
        assert_eq!((r.column, r.die), (4 + u8::from(enfiladed), 5), "{r:?}");
        assert_eq!(
            r.result,
            FireResult::Loss {
                points: 1,
                then_pin_check: false
            }
        );
        assert_eq!(t.s.units[&id("1-nj-c")].status.strength, 2);
        let c = checks(&events, "1-nj-c");
        assert_eq!(c[0].0, rating, "{formation}");
        assert_eq!(c[0].1, 3);
        assert_eq!(c[0].2, i8::from(enfiladed));
        assert_eq!(c[0].3, routs, "{formation}: {c:?}");
    }
}

/// Cedar Mountain 21.1, 12.52: "If, in a melee, the unit with the lowest
/// morale in a stack of Friendly meleeing units has a morale rating that
/// is at least two Points higher (better) than the highest morale rating
/// of an Enemy unit that is in the same melee, the Friendly meleeing units
/// add *one* to their strength."
#[test]
fn cedar_21_1_dismounted_morale_in_melee_bonus() {
    let mut t = cedar(8, 8)
        .union("brigade bayard indpnt er=3 rally=1 bce=3/7 bce-vp=10")
        .union("cavalry 1-ri-c brigade=bayard morale=2 mounted-morale=4 weapon=C strength=2")
        .confederate("infantry 23-va strength=2 morale=4 weapon=R")
        .place("1-ri-c", "0303", "s", "dismounted")
        .place("23-va", "0304", "n", "line")
        .leader("bayard", "0801")
        .build_at(2, REBEL, Phase::RetreatBeforeMelee);
    t.s.units
        .get_mut(&id("1-ri-c"))
        .unwrap()
        .status
        .markers
        .insert(Marker::Pin);
    t.ok(REBEL, melee("0303", &["23-va"]));
    settle(&mut t);
    t.ok(REBEL, GbacwAction::EndPhase);
    assert_eq!(t.phase(), Some(Phase::Melee));
    t.script(&[1, 1, 1, 1]);
    let events = t.act(REBEL, GbacwAction::EndPhase);
    let r = &melee_reports(&events)[0];
    assert_eq!(
        (r.attack, r.defence, r.differential, r.die),
        (3, 2, 1, 1),
        "{r:?}"
    );
    assert_eq!(r.result.attacker, MeleeEffect::None);
    assert_eq!(
        r.result.defender,
        MeleeEffect::CaptureRetreat {
            captured: 1,
            retreat: 2
        }
    );
    assert_eq!(t.s.units[&id("1-ri-c")].captured, 1);
    // 27.21: a cavalry point captured, 3 VP.
    assert_eq!(vp(&t, REBEL).losses, 3);
}

/// Cedar Mountain 21.11: "Dismounted cavalry may initiate melee only
/// against enemy dismounted cavalry and artillery (either formation). They
/// may not initiate melee against infantry or mounted cavalry."
#[test]
fn cedar_21_11_mixed_stack_with_infantry() {
    let mut t = cedar(8, 8)
        .union("battery 6-me weapon=TB guns=6 rounds=0 morale=4")
        .union("infantry 10-me strength=4 morale=4 weapon=R")
        .confederate("cavalry whites-c morale=2 mounted-morale=4 weapon=C strength=1")
        .place("6-me", "0303", "s", "unlimbered")
        .place("10-me", "0303", "s", "line")
        .place("whites-c", "0304", "n", "dismounted")
        .build_at(2, REBEL, Phase::RetreatBeforeMelee);
    refused_case(&t, REBEL, melee("0303", &["whites-c"]), "21.11");
    // The battery alone may be meleed.
    t.s.units.get_mut(&id("10-me")).unwrap().hex = None;
    t.ok(REBEL, melee("0303", &["whites-c"]));
}

/// Cedar Mountain 21.12: "which is *not* stacked with friendly artillery
/// or infantry and which is meleed by enemy infantry *must retreat*"
#[test]
fn cedar_21_12_lone_dismounted_with_other_cavalry_still_retreats() {
    let mut t = cedar(8, 8)
        .union("brigade bayard indpnt er=3 rally=1 bce=3/7 bce-vp=10")
        .union("cavalry 1-nj-c brigade=bayard morale=2 mounted-morale=4 weapon=C strength=3")
        .union("cavalry 1-ri-c brigade=bayard morale=2 mounted-morale=4 weapon=C strength=2")
        .confederate("infantry 15-ala strength=7 morale=4 weapon=R")
        .place("1-nj-c", "0303", "s", "dismounted")
        .place("1-ri-c", "0303", "s", "dismounted")
        .place("15-ala", "0304", "n", "line")
        .leader("bayard", "0801")
        .build_at(2, REBEL, Phase::RetreatBeforeMelee);
    t.ok(REBEL, melee("0303", &["15-ala"]));
    refused_case(&t, UNION, GbacwAction::StandFast, "21.12");
}

/// Cedar Mountain 21.12, 12.87: "An unpinned dismounted cavalry unit ..." /
/// 12.87 "A pinned or routed unit may not be retreated before melee."
#[test]
fn cedar_21_12_pinned_dismounted_cav_stands() {
    let mut t = troopers("dismounted").build_at(2, REBEL, Phase::RetreatBeforeMelee);
    t.s.units
        .get_mut(&id("1-nj-c"))
        .unwrap()
        .status
        .markers
        .insert(Marker::Pin);
    t.ok(REBEL, melee("0303", &["23-va"]));
    if t.s.rbm.is_some() {
        t.ok(UNION, GbacwAction::StandFast);
    }
    assert_eq!(t.hex("1-nj-c"), Some(n("0303")));
    t.ok(REBEL, GbacwAction::EndPhase);
    t.script(&[3, 1, 1, 1, 1]);
    let events = t.act(REBEL, GbacwAction::EndPhase);
    let r = &melee_reports(&events)[0];
    assert_eq!(r.defenders, ids(&["1-nj-c"]));
}

/// Cedar Mountain 21.31, 6.11, 8.16: 6.11 "An infantry unit (as well as a
/// limbered artillery unit or a mounted cavalry unit) may move through a
/// road or pike hex occupied by a Friendly unit if and only if the moving
/// unit expends Movement Points to pay for the cost of the other terrain
/// in that hex (i.e., it cannot use the road)." / 8.16 "An infantry unit in
/// Column formation may never move into a hex containing any other combat
/// unit."
#[test]
fn cedar_21_31_limbered_through_friendly_road_hex_pays_terrain() {
    let field = |mover: &str, formation: &str| {
        cedar(8, 8)
            .map("hex 0302 woods\nhex 0303 woods\nhex 0304 woods\nside 0304/0303 road\nside 0303/0302 road")
            .confederate("battery bedford weapon=N guns=4 rounds=0 morale=5")
            .confederate("infantry 21-ga strength=4 morale=4 weapon=R")
            .confederate("infantry 21-nc strength=4 morale=4 weapon=R")
            .place(mover, "0304", "n", formation)
            .place(
                if mover == "bedford" { "21-ga" } else { "bedford" },
                "0807",
                "n",
                if mover == "bedford" { "column" } else { "limbered" },
            )
            .place("21-nc", "0303", "n", "line")
            .build_at(2, REBEL, Phase::Movement)
    };
    let mut t = field("bedford", "limbered");
    t.mv(REBEL, &["bedford"], &["0303", "0302"]);
    // Woods for limbered guns 4 (provisional) in R1, the road ½ into R2.
    assert_eq!(t.spent("bedford"), mp(9));
    let t = field("21-ga", "column");
    t.refused(REBEL, mv(&["21-ga"], &["0303"]), "GBACW 8.16");
}

/// Cedar Mountain 21.35, 21.31: 21.35 "Thus, the Movement Point costs to
/// cross the two are different." / 21.31 "This is true even when a unit
/// crosses crest or steep crest hexsides, runs, and streams."
#[test]
fn cedar_21_35_road_across_run_pays_road_cost() {
    let mut t = cedar(8, 8)
        .map("side 0303/0302 run road")
        .union("battery l-2-ny weapon=TB guns=6 rounds=0 morale=4")
        .place("l-2-ny", "0303", "n", "limbered")
        .build_at(2, UNION, Phase::Movement);
    t.mv(UNION, &["l-2-ny"], &["0302"]);
    assert_eq!(t.spent("l-2-ny"), mp(1));
}

/// Cedar Mountain 21.42 (Example): "A unit in 3017 would be able to fire
/// at and be fired upon by a unit in 2816, but a unit in 2716 could
/// neither see nor be seen by the unit in 3017."
#[test]
fn example_21_42_cornfield_los() {
    let field = |confederates: &[(&str, &str)]| {
        let mut p = cedar(31, 18)
            .map("hex 2816 corn")
            .union("infantry u-3017 strength=4 morale=4 weapon=R");
        for (c, _) in confederates {
            p = p.confederate(&format!("infantry {c} strength=4 morale=4 weapon=R"));
        }
        p = p.place("u-3017", "3017", "n", "line");
        for (c, h) in confederates {
            p = p.place(c, h, "n", "line");
        }
        p
    };
    assert_eq!(
        (
            field(&[])
                .build()
                .rs
                .game()
                .map
                .grid
                .distance(n("2716"), n("3017")),
            field(&[])
                .build()
                .rs
                .game()
                .map
                .grid
                .distance(n("2816"), n("3017"))
        ),
        (3, 2)
    );
    // (a) 2816 fires at 3017; (b) 3017 at 2816.
    let mut t = field(&[("c-2816", "2816")]).build_at(2, REBEL, Phase::OffensiveFire);
    aim(&mut t, "c-2816", "3017");
    t.ok(REBEL, fire("3017", &[("c-2816", 4)]));
    let mut t = field(&[("c-2816", "2816")]).build_at(2, UNION, Phase::OffensiveFire);
    aim(&mut t, "u-3017", "2816");
    t.ok(UNION, fire("2816", &[("u-3017", 4)]));
    // (c) 2716 at 3017 and (d) 3017 at 2716, with 2816 empty standing
    // corn: no Line of Sight.
    let mut t = field(&[("c-2716", "2716")]).build_at(2, REBEL, Phase::OffensiveFire);
    aim(&mut t, "c-2716", "3017");
    assert!(matches!(
        t.rs.line_of_sight(&t.s, n("2716"), n("3017")),
        crate::gbacw::los::Los::Blocked(_)
    ));
    assert!(t.try_act(REBEL, fire("3017", &[("c-2716", 4)])).is_err());
    let mut t = field(&[("c-2716", "2716")]).build_at(2, UNION, Phase::OffensiveFire);
    aim(&mut t, "u-3017", "2716");
    assert!(t.try_act(UNION, fire("2716", &[("u-3017", 4)])).is_err());
}

/// Cedar Mountain 21.42, 21.41, 9.73: "Cornfield hexes block LOS (i.e., no
/// unit may fire through a standing cornfield hex into another hex)."
#[test]
fn cedar_21_42_corn_blocks_even_from_high_ground() {
    let mut t = cedar(8, 8)
        .map("hex 0301 level=2\nside 0301/0302 crest:0301\nhex 0303 corn")
        .confederate("battery hampden weapon=TB guns=4 rounds=0 morale=4")
        .union("infantry 3-wisc strength=6 morale=4 weapon=R")
        .place("hampden", "0301", "s", "unlimbered")
        .place("3-wisc", "0305", "n", "line")
        .build_at(2, REBEL, Phase::OffensiveFire);
    assert_eq!(dist(&t, "0301", "0305"), 4);
    assert!(matches!(
        t.rs.line_of_sight(&t.s, n("0301"), n("0305")),
        crate::gbacw::los::Los::Blocked(_)
    ));
    assert!(t.try_act(REBEL, fire("0305", &[("hampden", 4)])).is_err());
}

/// Cedar Mountain 21.43, 9.23: "or by artillery fire at a range of three
/// hexes or less."
#[test]
fn cedar_21_43_artillery_range_three_vs_four() {
    for (target, down) in [("0304", true), ("0305", false)] {
        let mut t = cedar(8, 8)
            .map(&format!("hex {target} corn"))
            .confederate("battery 1-md weapon=N guns=4 rounds=0 morale=5")
            .union("infantry 46-pa strength=5 morale=4 weapon=R")
            .place("1-md", "0301", "s", "unlimbered")
            .place("46-pa", target, "n", "line")
            .build_at(2, REBEL, Phase::OffensiveFire);
        t.ok(REBEL, fire(target, &[("1-md", 4)]));
        t.roll(REBEL, GbacwAction::EndPhase, 7);
        assert_eq!(
            t.s.corn_down.contains(&n(target)),
            down,
            "range to {target}"
        );
    }
}

// --- 22.0 Artillery overshoot ------------------------------------------------

/// Cedar Mountain 22.0 (Example): "Batteries in 3015 and 3318 combine to
/// attack an enemy unit in 2207. ... The result for the battery in 3015 is
/// "5," and thus the fire is accurate since the range is between 9 and 15
/// hexes. The result for the battery in 3318 is "3," and thus the fire has
/// scattered since the range was 16 or more hexes. A second die-roll is
/// made and the result is "4"; the fire from this battery lands in hex
/// 2208, which is unoccupied and thus has no effect."
#[test]
fn example_22_0_overshoot_example() {
    let mut t = cedar(34, 20)
        .union("battery a-3015 weapon=PA guns=6 rounds=0 morale=4")
        .union("battery b-3318 weapon=PA guns=6 rounds=0 morale=4")
        .confederate("infantry target strength=4 morale=4 weapon=R")
        .place("a-3015", "3015", "n", "unlimbered")
        .place("b-3318", "3318", "n", "unlimbered")
        .place("target", "2207", "s", "line")
        .build_at(2, UNION, Phase::OffensiveFire);
    assert_eq!(
        (dist(&t, "3015", "2207"), dist(&t, "3318", "2207")),
        (12, 16)
    );
    aim(&mut t, "a-3015", "2207");
    aim(&mut t, "b-3318", "2207");
    t.ok(UNION, fire("2207", &[("a-3015", 6), ("b-3318", 6)]));
    // Overshoot 5 (3015), 3 (3318), scatter 4 (3318); then the Fire CRT
    // die for 3015 alone: 6 guns × 1 (PA at 12, provisional) = 6, the
    // Grapeshot row's first column; a 1 reads "-".
    t.script(&[5, 3, 4, 1]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    let o = overshoots(&events);
    assert_eq!(
        o,
        vec![
            ("a-3015".to_string(), 12, 5, true, None, None),
            ("b-3318".to_string(), 16, 3, false, Some(4), Some(n("2208"))),
        ]
    );
    let fired = fire_reports(&events);
    assert_eq!(fired.len(), 1, "{fired:?}");
    assert_eq!(fired[0].target, n("2207"));
    assert_eq!(fired[0].firers, ids(&["a-3015"]));
    assert_eq!(fired[0].strength, 6);
    assert!(t.dice_left().is_empty());
}

fn courtney(target: &str) -> T {
    let mut t = cedar(8, 14)
        .confederate("battery courtney weapon=TB guns=4 rounds=0 morale=5")
        .union("infantry 3-wisc strength=6 morale=4 weapon=R")
        .place("courtney", "0301", "s", "unlimbered")
        .place("3-wisc", target, "n", "line")
        .build_at(2, REBEL, Phase::OffensiveFire);
    t.ok(REBEL, fire(target, &[("courtney", 4)]));
    t
}

/// Cedar Mountain 22.0: "Thus, when an artillery unit fires at a target at
/// a 9 or greater hex range, there is a chance that the fire will miss the
/// target"
#[test]
fn cedar_22_0_range_eight_no_overshoot() {
    let mut t = courtney("0309");
    assert_eq!(dist(&t, "0301", "0309"), 8);
    // 4 guns × 1 (TB at 8): 4, Grapeshot first column; die 1 "-".
    t.script(&[1]);
    let events = t.act(REBEL, GbacwAction::EndPhase);
    assert!(overshoots(&events).is_empty());
    let r = &fire_reports(&events)[0];
    assert_eq!((r.target, r.die), (n("0309"), 1));
    assert!(t.dice_left().is_empty());
}

/// Cedar Mountain 22.0: "at a 9 or greater hex range"
#[test]
fn cedar_22_0_range_nine_rolls_overshoot() {
    let mut t = courtney("0310");
    assert_eq!(dist(&t, "0301", "0310"), 9);
    t.script(&[5, 1]);
    let events = t.act(REBEL, GbacwAction::EndPhase);
    assert_eq!(
        overshoots(&events),
        vec![("courtney".to_string(), 9, 5, true, None, None)]
    );
    let r = &fire_reports(&events)[0];
    assert_eq!((r.target, r.die), (n("0310"), 1));
    assert!(t.dice_left().is_empty());
}

/// Cedar Mountain 22.0: "The range is figured separately for each firing
/// battery." / "The following procedure is used to resolve all artillery
/// fire combats executed at a range of 9 hexes or greater"
#[test]
fn cedar_22_0_mixed_ranges_one_under_nine() {
    let mut t = cedar(8, 20)
        .union("battery b1 weapon=TB guns=4 rounds=0 morale=4")
        .union("battery b2 weapon=TB guns=4 rounds=0 morale=4")
        .confederate("infantry target strength=4 morale=4 weapon=R")
        .place("b1", "0508", "s", "unlimbered")
        .place("b2", "0104", "s", "unlimbered")
        .place("target", "0315", "n", "line")
        .build_at(2, UNION, Phase::OffensiveFire);
    assert_eq!(
        (dist(&t, "0508", "0315"), dist(&t, "0104", "0315")),
        (8, 12)
    );
    aim(&mut t, "b1", "0315");
    aim(&mut t, "b2", "0315");
    t.ok(UNION, fire("0315", &[("b1", 4), ("b2", 4)]));
    // B2 alone rolls overshoot: 5, accurate; then one Fire CRT die on
    // 4 + 4 = 8 (Grapeshot first column): 1, "-".
    t.script(&[5, 1]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    assert_eq!(
        overshoots(&events),
        vec![("b2".to_string(), 12, 5, true, None, None)]
    );
    let fired = fire_reports(&events);
    assert_eq!(fired.len(), 1, "{fired:?}");
    assert_eq!(fired[0].firers, ids(&["b1", "b2"]));
    assert_eq!(fired[0].strength, 8);
    assert!(t.dice_left().is_empty());
}

/// Cedar Mountain 22.0 step 4: "if occupied by enemy or *friendly* units,
/// the player resolves a normal attack against the hex using the Fire
/// Combat Results Table."
#[test]
fn cedar_22_0_scatter_hits_friendly() {
    let mut t = cedar(8, 20)
        .union("battery b weapon=TB guns=8 rounds=0 morale=4")
        .union("infantry 2-me strength=5 morale=4 weapon=R")
        .confederate("infantry target strength=4 morale=4 weapon=R")
        .place("b", "0301", "s", "unlimbered")
        .place("target", "0317", "n", "line")
        .place("2-me", "0318", "n", "line")
        .build_at(2, UNION, Phase::OffensiveFire);
    assert_eq!(dist(&t, "0301", "0317"), 16);
    t.ok(UNION, fire("0317", &[("b", 8)]));
    // Overshoot 3 (scattered), scatter 4 (the hex "below", as 2207 →
    // 2208), then the Fire CRT die 6 on 2 Me; a 1 for its check.
    t.script(&[3, 4, 6, 1, 1]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    let o = overshoots(&events);
    assert_eq!(o[0].4, Some(4));
    assert_eq!(o[0].5, Some(n("0318")));
    let fired = fire_reports(&events);
    assert_eq!(fired.len(), 1, "{fired:?}");
    assert_eq!(fired[0].target, n("0318"));
    assert_eq!(fired[0].row, FireRow::Grapeshot);
    assert_eq!(fired[0].die, 6);
    assert_eq!(t.s.units[&id("target")].status.strength, 4);
}

/// Cedar Mountain 22.1: "A player may *never* attack a vacant hex in the
/// hope that his fire will overshoot into a hex containing enemy units. A
/// target hex for artillery fire *must* contain an enemy unit or else the
/// fire may not be executed."
#[test]
fn cedar_22_1_vacant_target_refused() {
    let mut t = cedar(8, 20)
        .union("battery b weapon=TB guns=8 rounds=0 morale=4")
        .confederate("infantry c1 strength=4 morale=4 weapon=R")
        .place("b", "0301", "s", "unlimbered")
        .place("c1", "0318", "n", "line")
        .build_at(2, UNION, Phase::OffensiveFire);
    assert!(t.try_act(UNION, fire("0317", &[("b", 8)])).is_err());
    assert!(t.s.fire_plan.is_empty());
}

// --- 23.0 Retreat and rout movement ------------------------------------------

/// Cedar Mountain 23.1: "If the only hex free of enemy units lies in this
/// direction, the unit is captured rather than retreated."
#[test]
fn cedar_23_1_only_east_free_captured() {
    // X = 0404. With north the left edge, the Confederates' W, NW and SW
    // are the hexes below, below-left and below-right: 0405, 0305, 0505.
    let mut t = cedar(8, 8)
        .confederate("infantry 7-la strength=6 morale=4 weapon=M")
        .union("infantry u-w1 strength=8 morale=4 weapon=R")
        .union("infantry u-nw1 strength=2 morale=4 weapon=R")
        .union("infantry u-sw1 strength=2 morale=4 weapon=R")
        .place("7-la", "0404", "s", "line")
        .place("u-w1", "0405", "n", "line")
        .place("u-nw1", "0305", "ne", "line")
        .place("u-sw1", "0505", "nw", "line")
        .build_at(2, UNION, Phase::RetreatBeforeMelee);
    t.ok(UNION, melee("0404", &["u-w1"]));
    if t.s.rbm.is_some() {
        t.ok(REBEL, GbacwAction::StandFast);
    }
    t.ok(UNION, GbacwAction::EndPhase);
    // 8 against 6: +2; die 2 reads "-/C1R2".
    t.script(&[2, 1, 1, 1, 1]);
    let mut events = t.act(UNION, GbacwAction::EndPhase);
    events.extend(settle(&mut t));
    let r = &melee_reports(&events)[0];
    assert_eq!(r.differential, 2);
    assert_eq!(
        r.result.defender,
        MeleeEffect::CaptureRetreat {
            captured: 1,
            retreat: 2
        }
    );
    assert_eq!(t.hex("7-la"), None, "captured, not moved east");
    assert_eq!(t.s.units[&id("7-la")].captured, 6);
    assert_eq!(vp(&t, UNION).losses, 12);
}

/// Cedar Mountain 23.1, 12.82: 12.82 "Retreating units may not enter an
/// Enemy ZOC."
#[test]
fn cedar_23_1_rbm_blocked_by_zoc() {
    // 18 NC in 0404; its westerly hexes 0405, 0305, 0505 lie in the
    // frontal ZOC of Union line units further down the map, facing up.
    let mut t = cedar(8, 8)
        .confederate("infantry 18-nc strength=4 morale=4 weapon=M")
        .union("infantry attacker strength=4 morale=4 weapon=R")
        .union("infantry z1 strength=4 morale=4 weapon=R")
        .union("infantry z2 strength=4 morale=4 weapon=R")
        .place("18-nc", "0404", "s", "line")
        .place("attacker", "0403", "s", "line")
        .place("z1", "0306", "ne", "line")
        .place("z2", "0506", "nw", "line")
        .build_at(2, UNION, Phase::RetreatBeforeMelee);
    let zoc = crate::gbacw::ruleset::board::Board::new(&t.rs, &t.s).enemy_zoc(
        &id("confederate"),
        crate::gbacw::facing::ZocUse::WithdrawalAndRetreat {
            mover_mounted: false,
        },
    );
    for h in ["0405", "0305", "0505"] {
        assert!(zoc.contains(&n(h)), "{h} in a Union ZOC: {zoc:?}");
    }
    t.ok(UNION, melee("0404", &["attacker"]));
    for path in [["0405"], ["0305"], ["0505"], ["0504"], ["0403"], ["0304"]] {
        let a = GbacwAction::RetreatBeforeMelee {
            units: ids(&["18-nc"]),
            path: path.iter().map(|h| n(h)).collect(),
        };
        assert!(t.decide(REBEL, &a).is_err(), "{path:?}");
    }
    t.ok(REBEL, GbacwAction::StandFast);
    assert_eq!(t.hex("18-nc"), Some(n("0404")));
}

/// Cedar Mountain 23.2, 12.92, 14.2: 23.2 "A unit may retreat through a
/// Confederate ZOC and must do so if that is the only path open to it." /
/// 12.92 "Units may not retreat into hexes containing ... Enemy ZOC's.
/// Units which cannot retreat legally are captured."
#[test]
fn cedar_23_2_union_melee_retreat_zoc() {
    // 109 Pa in 0404; the Union's E, NE, SE are the hexes above: 0403,
    // 0304, 0504, each in a Confederate frontal ZOC from further up.
    let mut t = cedar(8, 8)
        .union("infantry 109-pa strength=4 morale=4 weapon=R")
        .confederate("infantry attacker strength=8 morale=4 weapon=R")
        .confederate("infantry z1 strength=4 morale=4 weapon=R")
        .confederate("infantry z2 strength=4 morale=4 weapon=R")
        .place("109-pa", "0404", "s", "line")
        .place("attacker", "0405", "n", "line")
        .place("z1", "0303", "se", "line")
        .place("z2", "0603", "sw", "line")
        .build_at(2, REBEL, Phase::RetreatBeforeMelee);
    let zoc = crate::gbacw::ruleset::board::Board::new(&t.rs, &t.s).enemy_zoc(
        &id("union"),
        crate::gbacw::facing::ZocUse::WithdrawalAndRetreat {
            mover_mounted: false,
        },
    );
    for h in ["0403", "0304", "0504"] {
        assert!(zoc.contains(&n(h)), "{h} in a Confederate ZOC: {zoc:?}");
    }
    t.ok(REBEL, melee("0404", &["attacker"]));
    if t.s.rbm.is_some() {
        t.ok(UNION, GbacwAction::StandFast);
    }
    t.ok(REBEL, GbacwAction::EndPhase);
    // 8 against 4: +4; die 4 reads "-/C1R2".
    t.script(&[4, 1, 1, 1, 1]);
    let mut events = t.act(REBEL, GbacwAction::EndPhase);
    events.extend(settle(&mut t));
    let r = &melee_reports(&events)[0];
    assert_eq!(r.differential, 4);
    assert_eq!(t.hex("109-pa"), None, "captured");
    assert_eq!(t.s.units[&id("109-pa")].captured, 4);
}

// --- 24.0 Brigade Combat Effectiveness loss ----------------------------------

/// Greene's brigade (limit `limit` of 6: 1 DC 2, 78 NY 4) under Augur
/// (in `augur_at`), Banks in 0808.
fn greene_with(limit: u8, augur_at: &str) -> Position {
    greene_lines(limit)
        .leader("augur", augur_at)
        .leader("banks", "0808")
}

fn greene(limit: u8) -> Position {
    greene_with(limit, "0807")
}

fn greene_lines(limit: u8) -> Position {
    cedar(8, 8)
        .union("army banks cp=1")
        .union("division augur army=banks dir=5 cp=1")
        .union(&format!(
            "brigade greene division=augur er=4 rally=1 promoted=4 repl=3/1/3 bce={limit}/6 bce-vp=5"
        ))
        .union("infantry 1-dc brigade=greene morale=4 weapon=R strength=2")
        .union("infantry 78-ny brigade=greene morale=4 weapon=R strength=4")
}

/// Cedar Mountain 24.0, OB Roster: "When the number of boxes reaches the
/// BCE limit, the brigade has lost effectiveness (see 24.0) and the enemy
/// player is awarded the number of Victory Points for that brigade listed
/// next to its BCE limit." / roster (Greene row): "3 of 6 □□□ = 5 VP's"
#[test]
fn cedar_24_0_bce_reached_exactly_at_limit() {
    let mut t = greene(3)
        .confederate("infantry 15-ala strength=7 morale=4 weapon=R")
        .place("78-ny", "0303", "s", "line")
        .place("1-dc", "0503", "s", "line")
        .leader("greene", "0303")
        .place("15-ala", "0304", "n", "line")
        .build_at(2, REBEL, Phase::OffensiveFire);
    hit(&mut t, "78-ny", 2);
    assert!(!t.rs.brigade_at_bce_limit(&t.s, &id("greene")));
    assert_eq!(vp(&t, REBEL).bce, 0);
    hit(&mut t, "1-dc", 1);
    assert!(t.rs.brigade_at_bce_limit(&t.s, &id("greene")));
    assert_eq!(vp(&t, REBEL).bce, 5);
    hit(&mut t, "1-dc", 1);
    assert_eq!(vp(&t, REBEL).bce, 5, "once");
}

/// The brigade at its limit (1 DC lost both points, 78 NY one: 3 SP
/// left); 78 NY alone in 0303 facing 15 Ala in 0304.
fn broken_78_ny(limit: u8) -> T {
    let mut t = greene(limit)
        .confederate("infantry 15-ala strength=7 morale=4 weapon=R")
        .place("78-ny", "0303", "s", "line")
        .place("1-dc", "0603", "s", "line")
        .leader("greene", "0701")
        .place("15-ala", "0304", "n", "line")
        .build_at(2, REBEL, Phase::OffensiveFire);
    hit(&mut t, "1-dc", 2);
    hit(&mut t, "78-ny", 1);
    t
}

/// Cedar Mountain 24.11, 13.24: "A 1 is added to the die-roll for *all*
/// Morale Checks made for infantry and cavalry units of a brigade that has
/// lost BCE." / 13.24 "If a unit has suffered greater than 50% losses (from
/// its initial strength) add one to the die-roll."
#[test]
fn cedar_24_11_bce_adds_one_to_morale_check() {
    for (die, routs) in [(4u8, true), (3, false)] {
        let mut t = broken_78_ny(3);
        assert!(t.rs.brigade_at_bce_limit(&t.s, &id("greene")));
        t.ok(REBEL, fire("0303", &[("15-ala", 4)]));
        // 8, "7 to 10" (the fourth column), 3 points in the hex: no
        // shift; die 5: "1".
        t.script(&[5, u16::from(die)]);
        let events = t.act(REBEL, GbacwAction::EndPhase);
        assert_eq!(t.s.units[&id("78-ny")].status.strength, 2);
        let c = checks(&events, "78-ny");
        assert_eq!(c[0], (4, die, 1, routs), "die {die}");
    }
}

/// Cedar Mountain 24.11, 13.22: 13.22 "All casualties are taken prior to
/// determining rout." / "When the number of boxes reaches the BCE limit,
/// the brigade has lost effectiveness"
#[test]
fn cedar_24_11_bce_plus_one_on_the_triggering_check() {
    let mut t = greene(3)
        .confederate("infantry 15-ala strength=7 morale=4 weapon=R")
        .place("1-dc", "0303", "s", "line")
        .place("78-ny", "0603", "s", "line")
        .leader("greene", "0701")
        .place("15-ala", "0304", "n", "line")
        .build_at(2, REBEL, Phase::OffensiveFire);
    hit(&mut t, "78-ny", 2);
    assert!(!t.rs.brigade_at_bce_limit(&t.s, &id("greene")));
    t.ok(REBEL, fire("0303", &[("15-ala", 4)]));
    // 8, "7 to 10" (the fourth column); 2 points in the hex shift one
    // left (8.35): the third, where a 6 reads "1". The check rolls 4.
    t.script(&[6, 4]);
    let events = t.act(REBEL, GbacwAction::EndPhase);
    let r = &fire_reports(&events)[0];
    assert!(
        matches!(r.result, FireResult::Loss { points: 1, .. }),
        "{r:?}"
    );
    assert!(t.rs.brigade_at_bce_limit(&t.s, &id("greene")));
    let c = checks(&events, "1-dc");
    assert_eq!(c[0], (4, 4, 1, true));
}

/// 78 NY (Greene's, BCE lost at limit 2: 1 DC lost both points) in 0302
/// and 5 Ohio (Geary's, no BCE loss) in 0503, each two hexes from 5 Va in
/// 0304, on clear ground.
fn bce_fire() -> T {
    let mut t = greene_with(2, "0302")
        .union("brigade geary division=augur er=4 rally=2")
        .union("infantry 5-ohio brigade=geary morale=5 weapon=R strength=3")
        .confederate("infantry 5-va strength=3 morale=4 weapon=R")
        .place("78-ny", "0302", "s", "line")
        .place("5-ohio", "0503", "s", "line")
        .place("1-dc", "0807", "s", "line")
        .leader("greene", "0302")
        .leader("geary", "0503")
        .place("5-va", "0304", "n", "line")
        .build_at(2, UNION, Phase::OffensiveFire);
    hit(&mut t, "1-dc", 2);
    assert!(t.rs.brigade_at_bce_limit(&t.s, &id("greene")));
    assert_eq!((dist(&t, "0302", "0304"), dist(&t, "0503", "0304")), (2, 2));
    aim(&mut t, "5-ohio", "0304");
    t
}

/// Cedar Mountain 24.13, 9.16, 8.35: "Whenever a non-artillery unit in a
/// brigade that has lost BCE engages in fire combat, the Fire Strength
/// column is shifted one column to the left. This shift applies even if
/// the unit is firing in combination with non-BCE loss units."
#[test]
fn cedar_24_13_bce_fire_shift_left() {
    let mut t = bce_fire();
    t.ok(UNION, fire("0304", &[("78-ny", 4), ("5-ohio", 3)]));
    // 7 is "7 to 10", the fourth column (the case counted it third); one
    // left for BCE: "4 to 6", the third, where die 3 reads "P" (without
    // the shift, "R"). The pin roll 1 does not pin.
    t.script(&[3, 1]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    let r: &FireReport = &fire_reports(&events)[0];
    assert_eq!(r.strength, 7);
    assert_eq!(r.density_shift, 0);
    assert_eq!(r.strength_columns_left, 1);
    assert_eq!(r.column, 3, "{r:?}");
    assert_eq!(r.result, FireResult::MaybePin);
}

/// Cedar Mountain 24.13, 9.51: 9.51 "The CRT column is never adjusted to
/// the left of the last column"
#[test]
fn cedar_24_13_bce_shift_floor_at_first_column() {
    let mut t = bce_fire();
    t.ok(UNION, fire("0304", &[("78-ny", 2)]));
    // 2 is "1 to 3", the second column; one left for BCE: "0 or less",
    // the first, and no further. Die 6 there reads "P/R".
    t.script(&[6, 1, 1]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    let r = &fire_reports(&events)[0];
    assert_eq!(r.strength, 2);
    assert_eq!(r.strength_columns_left, 1);
    assert_eq!(r.column, 1, "{r:?}");
    assert_eq!(r.result, FireResult::PinOrRout);
}

/// 78 NY routed, Greene's brigade at its limit, in the Union Rally Phase.
fn routed_78_ny(ny: &str, greene_at: &str, augur_at: &str) -> T {
    let mut t = greene_with(3, augur_at)
        .place("78-ny", ny, "s", "line")
        .place("1-dc", "0806", "s", "line")
        .leader("greene", greene_at)
        .build_at(2, UNION, Phase::Rally);
    hit(&mut t, "1-dc", 2);
    hit(&mut t, "78-ny", 1);
    t.s.units
        .get_mut(&id("78-ny"))
        .unwrap()
        .status
        .markers
        .insert(Marker::Rout);
    t
}

/// Cedar Mountain 24.15: "A routed unit whose brigade has reached BCE may
/// only be rallied by a die-roll. The owning player rolls a die and if the
/// result is equal to or less than the unit's Morale Rating, it rallies
/// (remember 24.11). To be rallied, the unit must be in the Effectiveness
/// Radius of its brigade commander and that commander must spend a Rally
/// Point (see 17.13) to attempt to rally that unit."
#[test]
fn cedar_24_15_bce_rally_by_roll_with_rally_point() {
    for (die, rallies) in [(3u8, true), (4, false)] {
        let mut t = routed_78_ny("0303", "0305", "0801");
        assert_eq!(dist(&t, "0303", "0305"), 2);
        let before = t.s.rally_points.get(&id("greene")).copied();
        t.script(&[u16::from(die)]);
        let events = t.act(UNION, GbacwAction::Rally { unit: id("78-ny") });
        assert_eq!(rally_tried(&events), (Some(die), rallies), "die {die}");
        assert!(
            events.iter().any(
                |e| matches!(e, GbacwEvent::RallyPointSpent { leader } if *leader == id("greene"))
            ),
            "{before:?} {events:?}"
        );
    }
}

/// Cedar Mountain 24.15, 17.13: "A unit which is stacked with a brigade or
/// division commander has a 1 subtracted from its rally die-roll (the
/// brigade commander need not expend a Rally Point)."
#[test]
fn cedar_24_15_bce_stacked_leader_minus_one_no_rp() {
    for (greene_at, augur_at) in [("0303", "0801"), ("0801", "0303")] {
        for (die, rallies) in [(4u8, true), (5, false)] {
            let mut t = routed_78_ny("0303", greene_at, augur_at);
            t.script(&[u16::from(die)]);
            let events = t.act(UNION, GbacwAction::Rally { unit: id("78-ny") });
            assert_eq!(
                rally_tried(&events),
                (Some(die), rallies),
                "die {die}, Greene {greene_at}"
            );
            assert!(
                !events
                    .iter()
                    .any(|e| matches!(e, GbacwEvent::RallyPointSpent { .. })),
                "{events:?}"
            );
        }
    }
}

/// Cedar Mountain 24.15: "A unit which is stacked with a friendly army
/// commander (either General Banks or Jackson) rallies automatically
/// regardless of BCE loss."
#[test]
fn cedar_24_15_army_commander_rallies_automatically() {
    let mut t = routed_78_ny("0303", "0801", "0802");
    t.put_leader("banks", "0303");
    assert_eq!(t.hex("banks"), Some(n("0303")));
    let events = t.act(UNION, GbacwAction::Rally { unit: id("78-ny") });
    assert_eq!(rally_tried(&events), (None, true));
    assert!(
        !t.s.units[&id("78-ny")]
            .status
            .markers
            .contains(&Marker::Rout)
    );
}

// --- 25.0 Leadership and leader loss -------------------------------------------

/// Cedar Mountain 25.1, 12.4, 13.23: "In all other ways General Jackson
/// acts as a regular leader (i.e., he affects friendly melee strengths, may
/// rally routed units with which he is stacked, and so forth)."
#[test]
fn cedar_25_1_jackson_acts_as_regular_leader() {
    let mut t = cedar(8, 8)
        .confederate("army jackson cp=3")
        .confederate("brigade early indpnt er=4 rally=1")
        .confederate("infantry 12-ga brigade=early morale=5 weapon=R strength=4")
        .union("infantry 8-12-us morale=3 weapon=R strength=2")
        .place("12-ga", "0304", "n", "line")
        .leader("jackson", "0304")
        .leader("early", "0304")
        .place("8-12-us", "0303", "s", "line")
        .build_at(2, REBEL, Phase::RetreatBeforeMelee);
    t.s.leaders.get_mut(&id("early")).unwrap().hex = Some(n("0305"));
    t.ok(REBEL, melee("0303", &["12-ga"]));
    if t.s.rbm.is_some() {
        t.ok(UNION, GbacwAction::StandFast);
    }
    t.ok(REBEL, GbacwAction::EndPhase);
    t.script(&[4, 1, 1, 1, 1]);
    let events = t.act(REBEL, GbacwAction::EndPhase);
    let r = &melee_reports(&events)[0];
    assert_eq!((r.attack, r.defence, r.differential), (6, 2, 4), "{r:?}");
    assert_eq!(
        r.result.defender,
        MeleeEffect::CaptureRetreat {
            captured: 1,
            retreat: 2
        }
    );
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, GbacwEvent::LeaderRolled { .. })),
        "no leader-loss roll: 12 Ga lost nothing"
    );
}

/// Cedar Mountain 25.1: "The division commander must begin the Confederate
/// Initial Command Phase within three hexes of Jackson (exclusive)."
#[test]
fn cedar_25_1_jackson_three_hex_limit() {
    let mut t = cedar(8, 12)
        .confederate("army jackson cp=3")
        .confederate("division winder army=jackson dir=4 cp=2")
        .confederate("division ewell army=jackson dir=6 cp=2")
        .leader("jackson", "0302")
        .leader("winder", "0305")
        .leader("ewell", "0306")
        .build_at(2, REBEL, Phase::InitialCommand);
    assert_eq!((dist(&t, "0302", "0305"), dist(&t, "0302", "0306")), (3, 4));
    let spend = |on: &str| GbacwAction::SpendCommandPoints {
        division: id("jackson"),
        brigade: id(on),
        points: 1,
    };
    t.ok(REBEL, spend("winder"));
    refused_case(&t, REBEL, spend("ewell"), "25.1");
}

/// Cedar Mountain 25.3, 25.32: "When replacing a leader, the first
/// replacement should be selected as indicated in the following secondary
/// cases; if that leader is already a casualty, the second replacement is
/// selected, and so forth."
#[test]
fn cedar_25_32_skip_casualty_in_list() {
    use crate::gbacw::ruleset::state::SuccessionKind;
    let mut t = super::cedar_rules::field();
    for (u, h) in [("5-conn", "0505"), ("2-me", "0507")] {
        t.field_unit(u, h, Formation::Line);
    }
    t.field_leader("crawford", "0505");
    t.field_leader("gordon", "0507");
    // Crawford wounded: his counter flips to its REPL side (17.81).
    let c = t.s.leaders.get_mut(&id("crawford")).unwrap();
    c.hex = None;
    c.casualty = Some(Casualty::Wounded);
    t.advance_to(UNION, Phase::FinalCommand);
    let events = t.ok(UNION, GbacwAction::EndPhase);
    assert!(events.iter().any(|e| matches!(e,
        GbacwEvent::LeaderSucceeded(r) if r.lost == id("crawford") && r.kind == SuccessionKind::Flip)));
    assert!(t.hex("crawford").is_some());
    // Later Williams is killed.
    let w = t.s.leaders.get_mut(&id("williams")).unwrap();
    w.hex = None;
    w.casualty = Some(Casualty::Killed);
    t.advance_to(REBEL, Phase::InitialCommand);
    t.advance_to(UNION, Phase::FinalCommand);
    let events = t.ok(UNION, GbacwAction::EndPhase);
    let promoted = events.iter().find_map(|e| match e {
        GbacwEvent::LeaderSucceeded(r) if r.lost == id("williams") => Some(r.kind.clone()),
        _ => None,
    });
    assert!(
        matches!(&promoted, Some(SuccessionKind::Promote { promoted, .. }) if *promoted == id("gordon")),
        "{promoted:?}"
    );
}

/// Cedar Mountain 25.33, 25.3: "Confederate division commander **Winder**
/// is replaced first by Taliaferro and then Ronald."
#[test]
fn cedar_25_33_winder_never_garnett() {
    use crate::gbacw::ruleset::state::SuccessionKind;
    let mut t = super::cedar_rules::field();
    t.field_unit("21-va", "0505", Formation::Line);
    t.field_leader("garnett", "0505");
    // Taliaferro and Ronald were casualties earlier: their counters are
    // on their REPL sides, with their brigades.
    t.field_unit("10-va", "0507", Formation::Line);
    t.field_unit("5-va", "0509", Formation::Line);
    for (l, h) in [("taliaferro", "0507"), ("ronald", "0509")] {
        t.field_leader(l, h);
        let c = t.s.leaders.get_mut(&id(l)).unwrap();
        c.hex = None;
        c.casualty = Some(Casualty::Killed);
    }
    t.advance_to(REBEL, Phase::FinalCommand);
    t.ok(REBEL, GbacwAction::EndPhase);
    assert_eq!(t.hex("taliaferro"), Some(n("0507")));
    let w = t.s.leaders.get_mut(&id("winder")).unwrap();
    w.hex = None;
    w.casualty = Some(Casualty::Killed);
    t.s.progress.to_arrive.remove(&id("winder"));
    t.advance_to(UNION, Phase::InitialCommand);
    t.advance_to(REBEL, Phase::FinalCommand);
    let events = t.ok(REBEL, GbacwAction::EndPhase);
    let promoted = events.iter().find_map(|e| match e {
        GbacwEvent::LeaderSucceeded(r) if r.lost == id("winder") => Some(r.kind.clone()),
        _ => None,
    });
    let Some(SuccessionKind::Promote { promoted, .. }) = promoted else {
        panic!("{promoted:?} / {events:?}");
    };
    assert_ne!(promoted, id("garnett"));
    assert!(
        matches!(
            t.rs.game().oob.leaders[&promoted].role,
            crate::gbacw::oob::LeaderRole::Replacement { .. }
        ),
        "{promoted:?}"
    );
    // "Brigade Comdr REPL 2 1 (2)": it leads with its bracketed radius, 2,
    // placed on a unit of the division (here Garnett's 21 Va).
    assert_eq!(
        crate::gbacw::ruleset::combat::succession::division_commander(&t.rs, &t.s, &id("winder")),
        Some((promoted.clone(), 2))
    );
    assert!(t.hex(&promoted.0).is_some());
}

// --- 26.0 How to start --------------------------------------------------------

/// Cedar Mountain 26.4, 26.41: "so that the first unit spends (for example)
/// one Movement Point; the second, two Movement Points; the third three,
/// and so forth." / 26.41 "The order of arrival is also determined by the
/// Confederate player."
#[test]
fn cedar_26_4_column_entry_costs() {
    let mut t = super::cedar_rules::field();
    t.advance_to(REBEL, Phase::Movement);
    let grid = t.rs.game().map.grid.clone();
    for (k, u) in ["21-ga", "15-ala", "21-nc"].into_iter().enumerate() {
        t.ok(REBEL, arrive(u, "4032"));
        assert_eq!(t.hex(u), Some(n("4032")));
        assert_eq!(
            t.s.units[&id(u)].status.formation,
            Formation::Column,
            "26.46"
        );
        let halves = 2 * (u16::try_from(k).unwrap() + 1);
        assert_eq!(t.spent(u), mp(halves), "{u}, number {}", k + 1);
        // Off the entry hex, so the next may enter (8.16).
        let off = grid
            .neighbours_on_map(n("4032"))
            .into_iter()
            .map(|(_, h)| h)
            .find(|h| t.decide(REBEL, &mv(&[u], &[&h.to_string()])).is_ok())
            .expect("a way off the entry hex");
        t.mv(REBEL, &[u], &[&off.to_string()]);
        // Park it out of the way.
        t.s.units.get_mut(&id(u)).unwrap().hex = Some(n(&format!("05{:02}", 10 + k)));
    }
}

/// Cedar Mountain 26.46: "Reinforcements always enter in column
/// (infantry), mounted (cavalry) and limbered (artillery) formation."
#[test]
fn cedar_26_46_entry_formations() {
    let mut t = super::cedar_rules::field();
    t.advance_to(REBEL, Phase::Movement);
    for (u, hex, f) in [
        ("12-ga", "2934", Formation::Column),
        ("1-md", "2934", Formation::Limbered),
        ("whites-c", "4032", Formation::Mounted),
    ] {
        t.ok(REBEL, arrive(u, hex));
        assert_eq!(t.s.units[&id(u)].status.formation, f, "{u}");
        t.s.units.get_mut(&id(u)).unwrap().hex = Some(n("0510"));
    }
}

// --- 27.0 How to win -----------------------------------------------------------

/// Cedar Mountain 27.0, 27.1: "The smaller total is subtracted from the
/// larger and the result is compared to the schedule given in 27.1" /
/// "Draw ... 0 to 5 VP's / Marginal Victory 6 to 10 VP's / Tactical Victory
/// ... 11 to 18 VP's / Strategic Victory ... 19 or more VP's"
#[test]
fn cedar_27_1_victory_level_boundaries() {
    let t = T::battle("cedar_mountain");
    let s = &t.rs.game().scenario;
    for (c, u, level) in [
        (30u16, 30u16, "draw"),
        (35, 30, "draw"),
        (36, 30, "marginal"),
        (40, 30, "marginal"),
        (41, 30, "tactical"),
        (48, 30, "tactical"),
        (49, 30, "strategic"),
        (30, 36, "marginal"),
    ] {
        assert_eq!(s.victory_level(c.abs_diff(u)), Some(level), "({c}, {u})");
    }
}

fn exits() -> Position {
    cedar(8, 8)
        .scenario("exit 0101 mp=1 vp=confederate:1,union:0")
        .confederate("brigade branch indpnt er=5 rally=1")
        .confederate("infantry 16-nc brigade=branch morale=4 weapon=M strength=5")
        .confederate("infantry 22-nc brigade=branch morale=4 weapon=M strength=5")
        .confederate("battery hampden weapon=TB guns=4 rounds=0 morale=4")
}

/// Cedar Mountain 27.23: "To do so, a unit must occupy 0101 and expend one
/// Movement Point to leave the map. ... **Important:** The Confederate
/// player (only) receives one Victory Point for each combat unit or battery
/// exited off the map."
#[test]
fn cedar_27_23_exit_costs_one_mp() {
    // (a) 16 NC begins in 0101.
    let mut t = exits()
        .place("16-nc", "0101", "s", "column")
        .leader("branch", "0101")
        .place("22-nc", "0808", "n", "line")
        .place("hampden", "0807", "n", "limbered")
        .build_at(2, REBEL, Phase::Movement);
    t.ok(REBEL, GbacwAction::ExitMap { unit: id("16-nc") });
    assert_eq!(t.hex("16-nc"), None);
    assert_eq!(vp(&t, REBEL).exits, 1);
    assert_eq!(vp(&t, UNION).losses, 0);
    // (b) Hampden enters 0101 with exactly 1 MP left (8 limbered, 7
    // clear hexes).
    let mut t = exits()
        .place("hampden", "0108", "n", "limbered")
        .place("16-nc", "0808", "n", "line")
        .place("22-nc", "0708", "n", "line")
        .leader("branch", "0808")
        .build_at(2, REBEL, Phase::Movement);
    t.mv(
        REBEL,
        &["hampden"],
        &["0107", "0106", "0105", "0104", "0103", "0102", "0101"],
    );
    assert_eq!(t.spent("hampden"), mp(14));
    t.ok(
        REBEL,
        GbacwAction::ExitMap {
            unit: id("hampden"),
        },
    );
    assert_eq!(vp(&t, REBEL).exits, 1);
    // (c) 22 NC enters 0101 with 0 MP left.
    let mut t = exits()
        .place("22-nc", "0107", "n", "column")
        .leader("branch", "0107")
        .place("16-nc", "0808", "n", "line")
        .place("hampden", "0807", "n", "limbered")
        .build_at(2, REBEL, Phase::Movement);
    t.mv(
        REBEL,
        &["22-nc"],
        &["0106", "0105", "0104", "0103", "0102", "0101"],
    );
    assert_eq!(t.spent("22-nc"), mp(12));
    assert!(
        t.try_act(REBEL, GbacwAction::ExitMap { unit: id("22-nc") })
            .is_err()
    );
}

/// Cedar Mountain 27.23: "Units may only be exited during the friendly
/// Movement Phase (they are still eliminated if forced to retreat off the
/// map)."
#[test]
fn cedar_27_23_exit_only_in_movement_phase() {
    let t = exits()
        .place("16-nc", "0101", "s", "line")
        .leader("branch", "0101")
        .place("22-nc", "0808", "n", "line")
        .place("hampden", "0807", "n", "limbered")
        .build_at(2, REBEL, Phase::RetreatBeforeMelee);
    assert!(
        t.decide(REBEL, &GbacwAction::ExitMap { unit: id("16-nc") })
            .is_err()
    );
    let t = exits()
        .place("16-nc", "0101", "s", "line")
        .leader("branch", "0101")
        .place("22-nc", "0808", "n", "line")
        .place("hampden", "0807", "n", "limbered")
        .build_at(2, UNION, Phase::Movement);
    assert!(
        t.decide(REBEL, &GbacwAction::ExitMap { unit: id("16-nc") })
            .is_err()
    );
}

/// Cedar Mountain 27.22: "having been the last player to have actually
/// occupied the hex with a combat unit." The case picks "ends a phase in
/// the hex" and flags the other reading; the text reads both ways, so the
/// case's reading is the named `vp-hex-stand` reading, and the default
/// (a unit in the hex at any step occupies it) is checked beside it.
#[test]
fn cedar_27_22_passing_through() {
    let control = |reading: bool| {
        let mut p = cedar(8, 8)
            .scenario("victory-hex 0303 vp=2\nvictory-hexes scored-after=confederate")
            .union("infantry 5-ohio morale=5 weapon=R strength=3")
            .confederate("cavalry whites-c morale=2 mounted-morale=4 weapon=C strength=1")
            .place("5-ohio", "0304", "n", "line")
            .place("whites-c", "0301", "s", "mounted");
        if reading {
            p = p.reading_001("vp-hex-stand");
        }
        let mut t = p.build_at(2, UNION, Phase::Movement);
        // GT 2: 5 Ohio takes 0303 and stays.
        t.mv(UNION, &["5-ohio"], &["0303"]);
        t.advance_to_turn(3, UNION, Phase::Movement);
        // GT 3: it leaves; the Confederate cavalry rides through and on.
        t.mv(UNION, &["5-ohio"], &["0403", "0404"]);
        t.advance_to_turn(3, REBEL, Phase::Movement);
        t.mv(REBEL, &["whites-c"], &["0302", "0303", "0304", "0305"]);
        t.advance_to_turn(4, UNION, Phase::InitialCommand);
        let rows = &t.s.progress.hex_track;
        let gt3 = rows.iter().find(|r| r.turn == 3).expect("GT 3 recorded");
        gt3.control.clone()
    };
    assert_eq!(control(true), vec![(n("0303"), Some(id("union")))]);
    assert_eq!(control(false), vec![(n("0303"), Some(id("confederate")))]);
}

/// Cedar Mountain 26.42, 27.23: 26.42 "Once a unit has entered the map it
/// may never leave." / 27.23 "Either player may exit his units off the map
/// through hex 0101."
#[test]
fn cedar_26_42_no_voluntary_exit_except_0101() {
    let t = exits()
        .place("16-nc", "0108", "s", "column")
        .leader("branch", "0108")
        .place("22-nc", "0808", "n", "line")
        .place("hampden", "0807", "n", "limbered")
        .build_at(2, REBEL, Phase::Movement);
    assert!(
        t.decide(REBEL, &GbacwAction::ExitMap { unit: id("16-nc") })
            .is_err()
    );
}

/// Cedar Mountain 26.45, 26.4: "If there are more reinforcing units
/// scheduled to arrive than can physically be entered onto the map during
/// a Game-Turn, the remaining off-map units are simply brought into play
/// on the following Game-Turns."
#[test]
fn cedar_26_45_too_many_arrivals_wait() {
    let mut t = super::cedar_rules::field();
    t.advance_to(REBEL, Phase::Movement);
    let string = ["15-ala", "21-ga", "21-nc", "5-la", "6-la", "7-la", "8-la"];
    for (k, u) in string.iter().take(6).enumerate() {
        t.ok(REBEL, arrive(u, "4032"));
        let k = u16::try_from(k).unwrap();
        assert_eq!(t.spent(u), mp(2 * (k + 1)), "{u}");
        // Out of the way, so that only the cost of the string counts.
        t.s.units.get_mut(&id(u)).unwrap().hex = Some(n(&format!("05{:02}", 10 + k)));
    }
    // The seventh would spend 7 of an allowance of 6.
    assert!(t.decide(REBEL, &arrive("8-la", "4032")).is_err());
    assert!(t.s.progress.to_arrive.contains(&id("8-la")));
}

/// Cedar Mountain 23.1, 14.3: 14.3 "If the unit must be retreated onto or
/// through a Friendly unit, that Friendly unit is retreated one hex and the
/// owning Player must conduct a morale check." (23.1: "If the only hex free
/// of enemy units lies in this direction, the unit is captured": the
/// westerly hexes here hold friends, not enemies.)
#[test]
fn cedar_23_1_friendly_units_west_are_displaced() {
    let mut t = cedar(8, 10)
        .confederate("infantry 5-la strength=2 morale=4 weapon=M")
        .confederate("infantry 6-la strength=4 morale=4 weapon=M")
        .confederate("infantry 8-la strength=2 morale=4 weapon=M")
        .confederate("infantry 14-la strength=2 morale=4 weapon=M")
        .union("infantry attacker strength=6 morale=4 weapon=R")
        .place("6-la", "0404", "n", "line")
        .place("8-la", "0305", "n", "line")
        .place("14-la", "0405", "n", "line")
        .place("5-la", "0505", "n", "line")
        .place("attacker", "0403", "s", "line")
        .build_at(2, UNION, Phase::RetreatBeforeMelee);
    t.ok(UNION, melee("0404", &["attacker"]));
    if t.s.rbm.is_some() {
        t.ok(REBEL, GbacwAction::StandFast);
    }
    t.ok(UNION, GbacwAction::EndPhase);
    // 6 against 4: +2; die 2 reads "-/C1R2". Every later die a 1.
    t.script(&[2]);
    t.script(&[1; 20]);
    let mut events = t.act(UNION, GbacwAction::EndPhase);
    events.extend(settle(&mut t));
    let r = &melee_reports(&events)[0];
    assert_eq!(
        r.result.defender,
        MeleeEffect::CaptureRetreat {
            captured: 1,
            retreat: 2
        }
    );
    let end = t.hex("6-la").expect("retreated, not captured");
    assert_eq!(t.s.units[&id("6-la")].captured, 1);
    assert_eq!(dist(&t, "0404", &end.to_string()), 2);
    assert!(end.row() > 4, "westward (down the map): {end}");
    // Someone was displaced, westward, and checked morale.
    let moved: Vec<_> = ["5-la", "8-la", "14-la"]
        .into_iter()
        .filter(|u| {
            events
                .iter()
                .any(|e| matches!(e, GbacwEvent::UnitRetreated { unit, .. } if *unit == id(u)))
        })
        .collect();
    assert!(!moved.is_empty(), "{events:?}");
    for u in moved {
        assert!(!checks(&events, u).is_empty(), "{u} checks morale");
    }
}
