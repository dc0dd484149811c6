//! The second reading's Cedar Mountain cases (19.0–27.0,
//! `docs/second-reading/cedar-19-27.md`), part 5: cases parts 1–4 left
//! unwritten, written from the cases' text and the seed (not from the
//! engine's code for the rule) with the position builder and the cases'
//! dice. Each test is named as its case and quotes the sentence it rests
//! on. North is the left edge of the Cedar Mountain map, so west is down
//! (higher row numbers) and east is up.

use super::cedar_rules::field;
use super::reading_support::{
    aim, cedar, dist, lost, overshoots, promoted, refused_case, stand_in, vp,
};
use super::*;
use crate::gbacw::oob::LeaderRole;
use crate::gbacw::ruleset::combat::succession::division_commander;
use crate::gbacw::ruleset::state::Casualty;

fn is_anonymous(t: &T, leader: &CounterId) -> bool {
    matches!(
        t.rs.game().oob.leaders[leader].role,
        LeaderRole::Replacement { .. }
    )
}

fn fold(t: &mut T, events: &[GbacwEvent]) {
    for e in events {
        t.rs.evolve(&mut t.s, e);
    }
}

// --- 22.0, 22.2 Artillery overshoot ---------------------------------------------

/// Cedar Mountain 22.0: "3. All batteries which received an "accurate"
/// result on the Overshoot Table have their strengths combined and the
/// combat is resolved normally using the Fire Combat Results Table. 4.
/// Batteries whose fire "scattered" now resolve their attacks. ... The
/// strengths of all batteries which scatter into the same hex are combined
/// as usual and are not treated as individual attacks." Union B1 (0306)
/// and B2 (0406) are 12 hexes from T (0318), B3 (0302) and B4 (0402) 16;
/// a Confederate regiment stands in 0319, the hex a scatter 4 selects (as
/// 2207 → 2208). Overshoot 5, 5 (accurate), 3, 3 (scattered), scatter 4,
/// 4: exactly two Fire CRT resolutions, B1 + B2 on T first, then B3 + B4
/// on 0319.
#[test]
fn cedar_22_0_accurate_combine_scattered_apart() {
    let mut t = cedar(8, 20)
        .union("battery b1 weapon=PA guns=6 rounds=0 morale=4")
        .union("battery b2 weapon=PA guns=6 rounds=0 morale=4")
        .union("battery b3 weapon=PA guns=6 rounds=0 morale=4")
        .union("battery b4 weapon=PA guns=6 rounds=0 morale=4")
        .confederate("infantry target strength=4 morale=4 weapon=R")
        .confederate("infantry beyond strength=4 morale=4 weapon=R")
        .place("b1", "0306", "s", "unlimbered")
        .place("b2", "0406", "s", "unlimbered")
        .place("b3", "0302", "s", "unlimbered")
        .place("b4", "0402", "s", "unlimbered")
        .place("target", "0318", "n", "line")
        .place("beyond", "0319", "n", "line")
        .build_at(2, UNION, Phase::OffensiveFire);
    assert_eq!(
        [
            dist(&t, "0306", "0318"),
            dist(&t, "0406", "0318"),
            dist(&t, "0302", "0318"),
            dist(&t, "0402", "0318"),
        ],
        [12, 12, 16, 16]
    );
    for b in ["b1", "b2", "b3", "b4"] {
        aim(&mut t, b, "0318");
    }
    t.ok(
        UNION,
        fire("0318", &[("b1", 6), ("b2", 6), ("b3", 6), ("b4", 6)]),
    );
    // Overshoot B1 5, B2 5, B3 3 (scatter 4), B4 3 (scatter 4); then a
    // Fire CRT die of 1 for each attack (and 1s for anything after).
    t.script(&[5, 5, 3, 4, 3, 4, 1, 1, 1, 1, 1, 1]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    let o = overshoots(&events);
    assert_eq!(o.len(), 4, "{o:?}");
    for (b, accurate) in [("b1", true), ("b2", true), ("b3", false), ("b4", false)] {
        let r = o.iter().find(|r| r.0 == b).expect("each battery rolls");
        assert_eq!(r.3, accurate, "{r:?}");
        if !accurate {
            assert_eq!(r.5, Some(n("0319")), "{r:?}");
        }
    }
    let fired = fire_reports(&events);
    assert_eq!(fired.len(), 2, "two resolutions: {fired:?}");
    assert_eq!(
        (fired[0].target, fired[0].firers.clone()),
        (n("0318"), ids(&["b1", "b2"])),
        "the accurate attack first"
    );
    assert_eq!(
        (fired[1].target, fired[1].firers.clone()),
        (n("0319"), ids(&["b3", "b4"])),
        "the scattered batteries combined on 0319"
    );
}

/// Union PA battery B (4 guns) in `b_hex` fires at Confederate T in
/// `t_hex`; a Confederate regiment stands in the hex below T, the hex a
/// scatter 4 selects. `woods` makes T's hex a woods hex, which blocks B's
/// line of sight to the hex below (not to T: a target's own hex does not
/// block).
fn scatter_from(b_hex: &str, t_hex: &str, woods: bool) -> (T, String) {
    let row: u8 = t_hex[2..].parse().unwrap();
    let below = format!("{}{:02}", &t_hex[..2], row + 1);
    let mut p = cedar(8, 24);
    if woods {
        p = p.map(&format!("hex {t_hex} woods"));
    }
    let mut t = p
        .union("battery b weapon=PA guns=4 rounds=20 morale=4")
        .confederate("infantry target strength=4 morale=4 weapon=R")
        .confederate("infantry beyond strength=4 morale=4 weapon=R")
        .place("b", b_hex, "s", "unlimbered")
        .place("target", t_hex, "n", "line")
        .place("beyond", &below, "n", "line")
        .build_at(2, UNION, Phase::OffensiveFire);
    aim(&mut t, "b", t_hex);
    t.ok(UNION, fire(t_hex, &[("b", 4)]));
    (t, below)
}

/// Cedar Mountain 22.2: "Should artillery fire scatter into a hex to which
/// the firing unit does not have a clear Line of Sight, the fire is still
/// executed normally. If a battery's fire scatters into a hex outside that
/// unit's maximum range, the fire is still executed normally." (a) The hex
/// below T (0318, range 16) is hidden from B by the woods of T's hex; (b)
/// T (0321) is at the PA battery's maximum range, 20, and the hex below it
/// one beyond. Overshoot 3 (16+: scattered), scatter 4: both times the
/// fire is resolved against the regiment below T.
#[test]
fn cedar_22_2_scatter_without_los_or_beyond_range() {
    for (b_hex, t_hex, woods, range) in [("0302", "0318", true, 16), ("0301", "0321", false, 20)] {
        let (mut t, below) = scatter_from(b_hex, t_hex, woods);
        assert_eq!(dist(&t, b_hex, t_hex), range);
        t.script(&[3, 4, 1, 1, 1, 1]);
        let events = t.act(UNION, GbacwAction::EndPhase);
        let o = overshoots(&events);
        assert_eq!(o.len(), 1, "{o:?}");
        assert_eq!((o[0].3, o[0].5), (false, Some(n(&below))), "{o:?}");
        let fired = fire_reports(&events);
        assert_eq!(fired.len(), 1, "range {range}: {fired:?}");
        assert_eq!(fired[0].target, n(&below), "range {range}");
    }
}

/// Cedar Mountain 22.0: "1. The player announces aloud all the artillery
/// units which are combining fire against units in the same target hex.
/// 2. The player rolls one die for *each* firing unit" / GBACW 9.44: "no
/// unit may be fired upon more than once in a Combat Phase by artillery".
/// B1 and B2 (12 hexes off) are announced on T; B3 is in range too. The
/// overshoot dice are rolled only when the announced fire is resolved, at
/// the phase's end (5, 5: accurate): one attack, by B1 and B2 only, and
/// B3 has no later moment in that phase to add itself to it.
#[test]
fn cedar_22_0_announce_before_rolling() {
    let mut t = cedar(8, 20)
        .union("battery b1 weapon=PA guns=6 rounds=0 morale=4")
        .union("battery b2 weapon=PA guns=6 rounds=0 morale=4")
        .union("battery b3 weapon=PA guns=6 rounds=0 morale=4")
        .confederate("infantry target strength=4 morale=4 weapon=R")
        .place("b1", "0306", "s", "unlimbered")
        .place("b2", "0406", "s", "unlimbered")
        .place("b3", "0206", "s", "unlimbered")
        .place("target", "0318", "n", "line")
        .build_at(2, UNION, Phase::OffensiveFire);
    for b in ["b1", "b2", "b3"] {
        aim(&mut t, b, "0318");
    }
    t.ok(UNION, fire("0318", &[("b1", 6), ("b2", 6)]));
    t.script(&[5, 5, 1, 1, 1, 1]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    let o = overshoots(&events);
    assert_eq!(o.len(), 2, "B1 and B2 roll, B3 does not: {o:?}");
    let fired = fire_reports(&events);
    assert_eq!(fired.len(), 1, "{fired:?}");
    assert_eq!(fired[0].firers, ids(&["b1", "b2"]));
    assert_ne!(t.phase(), Some(Phase::OffensiveFire), "the phase is over");
    assert!(
        t.decide(UNION, &fire("0318", &[("b3", 6)])).is_err(),
        "B3 cannot join after the rolls"
    );
}

// --- 25.3, 25.34 Leader replacement ---------------------------------------------

/// Augur (0506) with a regiment of each of his brigades: Geary's 5 Ohio
/// (0505), Prince's 102 NY (0507), Greene's 1 DC (0509), each with its
/// commander; the commanders in `lost_first` were casualties earlier (and
/// came back on their REPL sides in the Union Final Command Phase). Then
/// Augur is killed; the events of the next Union Final Command Phase's end.
fn augur_killed(lost_first: &[&str]) -> (T, Vec<GbacwEvent>) {
    let mut t = field();
    for (u, l, h) in [
        ("5-ohio", "geary", "0505"),
        ("102-ny", "prince", "0507"),
        ("1-dc", "greene", "0509"),
    ] {
        t.field_unit(u, h, Formation::Line);
        t.field_leader(l, h);
    }
    t.field_leader("augur", "0506");
    for l in lost_first {
        lost(&mut t, l, Casualty::Killed);
    }
    t.advance_to(UNION, Phase::FinalCommand);
    t.ok(UNION, GbacwAction::EndPhase);
    lost(&mut t, "augur", Casualty::Killed);
    t.advance_to(REBEL, Phase::InitialCommand);
    t.advance_to(UNION, Phase::FinalCommand);
    let events = t.ok(UNION, GbacwAction::EndPhase);
    (t, events)
}

/// Cedar Mountain 25.3: "Thus, a division commander may only be replaced
/// by an anonymous brigade commander replacement if *all* the leaders on
/// the list of replacements for that division are casualties." / 25.32:
/// "Augur is replaced by Geary, Prince and then Green." With Geary, Prince
/// and Greene all casualties, an anonymous "Brigade Comdr REPL 2 1 (2)"
/// takes Augur's division (DIR 2). With Greene not a casualty, Greene is
/// promoted instead.
#[test]
fn cedar_25_3_all_listed_casualties_anonymous_replacement() {
    let (t, events) = augur_killed(&["geary", "prince", "greene"]);
    let p = promoted(&events, "augur").expect("someone takes the division");
    assert!(is_anonymous(&t, &p), "{p:?}");
    assert_eq!(t.rs.game().oob.leaders[&p].side, id("union"), "{p:?}");
    assert_eq!(division_commander(&t.rs, &t.s, &id("augur")), Some((p, 2)));
    let (_, events) = augur_killed(&["geary", "prince"]);
    assert_eq!(promoted(&events, "augur"), Some(id("greene")));
}

/// Cedar Mountain 25.34: "This limitation is critical for detached brigades
/// that are far from their division when the commander is required to take
/// command of the division." / 25.33: "Hill is replaced by Branch, Pender,
/// Archer, and then Thomas." Hill killed; Branch, Pender and Archer
/// casualties; Thomas (his own brigade, detached, attached nowhere) 15
/// hexes off is promoted (DIR 3), placed on a unit of his command, and his
/// brigade gets an anonymous replacement.
#[test]
fn cedar_25_34_detached_own_commander_promoted_far_away() {
    let mut t = field();
    for (u, l, h) in [
        ("7-nc", "branch", "0505"),
        ("16-nc", "pender", "0507"),
        ("19-ga", "archer", "0509"),
        ("14-ga", "thomas", "0521"),
    ] {
        t.field_unit(u, h, Formation::Line);
        t.field_leader(l, h);
    }
    t.field_leader("hill", "0506");
    assert_eq!(dist(&t, "0506", "0521"), 15);
    // The position's fact: Thomas's brigade entered detached (roster).
    t.s.links.entry(id("hill")).or_default().detached = Some(id("thomas"));
    for l in ["branch", "pender", "archer"] {
        lost(&mut t, l, Casualty::Killed);
    }
    t.advance_to(REBEL, Phase::FinalCommand);
    t.ok(REBEL, GbacwAction::EndPhase);
    lost(&mut t, "hill", Casualty::Killed);
    t.advance_to(UNION, Phase::InitialCommand);
    t.advance_to(REBEL, Phase::FinalCommand);
    let events = t.ok(REBEL, GbacwAction::EndPhase);
    assert_eq!(promoted(&events, "hill"), Some(id("thomas")), "{events:?}");
    assert_eq!(
        division_commander(&t.rs, &t.s, &id("hill")),
        Some((id("thomas"), 3))
    );
    let stand_in = stand_in(&events, "hill").expect("Thomas's brigade gets a replacement");
    assert!(is_anonymous(&t, &stand_in), "{stand_in:?}");
    let th = t.hex("thomas").expect("Thomas is on the map");
    assert!(
        ["0505", "0507", "0509", "0521"].contains(&th.to_string().as_str()),
        "Thomas is placed on a unit of his command: {th}"
    );
}

// --- 27.21 Victory Points ----------------------------------------------------------

/// Cedar Mountain 27.21: "Enemy infantry Strength Point/gun: Eliminated 1
/// VP each / Captured 2 VP's each / Enemy cavalry Strength Point:
/// Eliminated 2 VP's each / Captured 3 VP's each / Enemy brigade
/// commander: Wounded 1 VP each ... Enemy division commander: ... Captured
/// 8 VP's each" / Note: "Artillery crews ... are not counted". 3 infantry
/// SP eliminated by fire, 2 captured in melee, 1 SP of dismounted 1 Pa c
/// eliminated, 1 of 1 NJ c captured, the 6 guns of 4 Me captured, Geary
/// wounded, Augur captured: 3 + 4 + 2 + 3 + 12 + 1 + 8 = 33.
#[test]
fn cedar_27_21_casualty_vp_values() {
    let mut t = cedar(8, 8)
        .union("division augur dir=5 cp=1")
        .union("brigade geary division=augur er=4 rally=2")
        .union("infantry a brigade=geary strength=4 morale=4 weapon=R")
        .union("infantry b brigade=geary strength=4 morale=4 weapon=R")
        .union("cavalry 1-pa-c strength=3 morale=2 mounted-morale=4 weapon=C")
        .union("cavalry 1-nj-c strength=3 morale=2 mounted-morale=4 weapon=C")
        .union("battery 4-me weapon=PA guns=6 rounds=20 morale=4")
        .confederate("infantry far strength=4 morale=4 weapon=R")
        .place("a", "0101", "s", "line")
        .place("b", "0201", "s", "line")
        .place("1-pa-c", "0301", "s", "dismounted")
        .place("1-nj-c", "0401", "s", "mounted")
        .place("4-me", "0501", "s", "unlimbered")
        .leader("geary", "0101")
        .leader("augur", "0201")
        .place("far", "0808", "n", "line")
        .build_at(2, UNION, Phase::Movement);
    assert_eq!(vp(&t, REBEL).total(), 0);
    fold(
        &mut t,
        &[
            GbacwEvent::UnitHit {
                unit: id("a"),
                points: 3,
            },
            GbacwEvent::PointsCaptured {
                unit: id("b"),
                points: 2,
            },
            GbacwEvent::UnitHit {
                unit: id("1-pa-c"),
                points: 1,
            },
            GbacwEvent::PointsCaptured {
                unit: id("1-nj-c"),
                points: 1,
            },
            GbacwEvent::UnitRemoved {
                unit: id("4-me"),
                captured: true,
            },
            GbacwEvent::LeaderLost {
                leader: id("geary"),
                casualty: Casualty::Wounded,
            },
            GbacwEvent::LeaderLost {
                leader: id("augur"),
                casualty: Casualty::Captured,
            },
        ],
    );
    let v = vp(&t, REBEL);
    assert_eq!(v.losses, 3 + 2 * 2 + 2 + 3 + 6 * 2, "{v:?}");
    assert_eq!(v.leaders, 1 + 8, "{v:?}");
    assert_eq!(v.total(), 33, "{v:?}");
}

/// Cedar Mountain 27.21 Note: "If a brigade commander has been promoted, he
/// is considered a division commander for Victory Point purposes." / GBACW
/// 17.82: "Victory Points are scored for the elimination of replacement
/// leaders in the same manner as a regular brigade commander." Williams is
/// killed and Crawford promoted (25.32). (a) Crawford killed: +5, not 2.
/// (b) the anonymous replacement leading Crawford's old brigade is killed
/// twice, on different turns, redeployed between: +2 each time.
#[test]
fn cedar_27_21_promoted_commander_counts_as_division() {
    let mut t = field();
    t.field_unit("10-me", "0306", Formation::Line);
    t.field_leader("crawford", "0306");
    t.field_leader("williams", "0306");
    lost(&mut t, "williams", Casualty::Killed);
    t.advance_to(UNION, Phase::FinalCommand);
    let events = t.ok(UNION, GbacwAction::EndPhase);
    assert_eq!(promoted(&events, "williams"), Some(id("crawford")));
    let stand_in =
        stand_in(&events, "williams").expect("an anonymous replacement takes Crawford's brigade");
    let before = vp(&t, REBEL).leaders;
    let kill = |t: &mut T, leader: &CounterId| {
        let e = GbacwEvent::LeaderLost {
            leader: leader.clone(),
            casualty: Casualty::Killed,
        };
        t.rs.evolve(&mut t.s, &e);
    };
    // (b) The stand-in killed, redeployed, killed again.
    kill(&mut t, &stand_in);
    assert_eq!(t.rs.game().oob.leaders[&stand_in].side, id("union"));
    assert_eq!(vp(&t, REBEL).leaders, before + 2);
    t.advance_to(REBEL, Phase::InitialCommand);
    t.advance_to(UNION, Phase::FinalCommand);
    let events = t.ok(UNION, GbacwAction::EndPhase);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, GbacwEvent::LeaderSucceeded(_))),
        "the stand-in is redeployed"
    );
    assert!(t.hex(&stand_in.0).is_some());
    kill(&mut t, &stand_in);
    assert_eq!(vp(&t, REBEL).leaders, before + 4, "+2 each time");
    // (a) Crawford, a division commander now, killed.
    kill(&mut t, &id("crawford"));
    assert_eq!(vp(&t, REBEL).leaders, before + 4 + 5, "+5, not 2");
}

/// Cedar Mountain 27.21: "The number of Victory Points awarded for an
/// enemy brigade reaching its BCE limit is listed on the OB Roster next to
/// that brigade." / roster: "Forno 1/4032 15 of 30 ... = 24 VP's",
/// "Crawford 4 13 of 18 ... = 17 VP's". Forno at 14 losses: no BCE VP; the
/// 15th: the Union +24, once only. Crawford's 13th loss: the Confederates
/// +17, once.
#[test]
fn cedar_27_21_bce_vp_from_roster() {
    let mut t = field();
    for (u, h) in [
        ("5-la", "0505"),
        ("6-la", "0506"),
        ("7-la", "0507"),
        ("8-la", "0508"),
        ("14-la", "0509"),
    ] {
        t.field_unit(u, h, Formation::Line);
    }
    let hit = |t: &mut T, unit: &str, points: u8| {
        let e = GbacwEvent::UnitHit {
            unit: id(unit),
            points,
        };
        t.rs.evolve(&mut t.s, &e);
    };
    hit(&mut t, "5-la", 6);
    hit(&mut t, "6-la", 6);
    hit(&mut t, "7-la", 2);
    assert_eq!(vp(&t, UNION).bce, 0, "14 losses: not yet");
    hit(&mut t, "7-la", 1);
    assert_eq!(vp(&t, UNION).bce, 24, "the 15th loss");
    hit(&mut t, "8-la", 2);
    assert_eq!(vp(&t, UNION).bce, 24, "once only");
    assert_eq!(vp(&t, UNION).losses, 6 + 6 + 3 + 2);
    // Crawford (Union, on the map from the set-up): 6 + 4 + 2 = 12, then 13.
    hit(&mut t, "5-conn", 6);
    hit(&mut t, "10-me", 4);
    hit(&mut t, "28-ny", 2);
    assert_eq!(vp(&t, REBEL).bce, 0);
    hit(&mut t, "28-ny", 1);
    assert_eq!(vp(&t, REBEL).bce, 17);
    hit(&mut t, "46-pa", 1);
    assert_eq!(vp(&t, REBEL).bce, 17, "once only");
}

// --- 26.2, 26.3 The Union set-up -------------------------------------------------------

/// The shipped battle at the Union set-up, with the scenario `options`.
fn set_up(options: &[(&str, bool)]) -> T {
    T::with(GbacwConfig {
        battle: "cedar_mountain".into(),
        scenario_options: options.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        ..GbacwConfig::default()
    })
}

fn place_leader(leader: &str, hex: &str) -> GbacwAction {
    GbacwAction::PlaceLeader {
        leader: id(leader),
        hex: n(hex),
    }
}

/// Cedar Mountain 26.2: "The player sets up all the units of a brigade on
/// hexes within its Deployment Area in any formation he wishes. Each Union
/// Deployment Area is indicated on the map and consists of the central,
/// numbered hex and the six adjacent, surrounding hexes." Crawford's
/// brigade and E Pa: Area 4 (centre 1517, provisional). (a) 5 Conn in
/// 1517 in line, 10 Me beside it in column, E Pa limbered in another hex
/// beside it: legal. (b) 28 NY two hexes from 1517: refused.
#[test]
fn cedar_26_2_union_setup_inside_area() {
    let mut t = set_up(&[]);
    assert_eq!((dist(&t, "1517", "1416"), dist(&t, "1517", "1616")), (1, 1));
    t.ok(UNION, place("5-conn", "1517", Formation::Line));
    t.ok(UNION, place("10-me", "1416", Formation::Column));
    t.ok(UNION, place("e-pa", "1616", Formation::Limbered));
    assert_eq!(dist(&t, "1517", "1519"), 2);
    refused_case(&t, UNION, place("28-ny", "1519", Formation::Line), "26.2");
}

/// Cedar Mountain 26.2: "Brigade leaders are set up with their brigades,
/// division commanders may be set up with any brigade of its command, and
/// General Banks may be set up along with any unit in the Union Army." (a)
/// Williams with 27 Ind (Gordon's brigade, Area 5): legal. (b) Williams
/// with 5 Ohio (Geary's, Augur's division): refused. (c) Banks with M, 1
/// NY (Area 6): legal. (d) Crawford with 27 Ind: refused.
#[test]
fn cedar_26_2_leader_placement() {
    let mut t = set_up(&[]);
    t.ok(UNION, place("27-ind", "0912", Formation::Line));
    t.ok(UNION, place("5-ohio", "2813", Formation::Line));
    t.ok(UNION, place("m-1-ny", "3310", Formation::Unlimbered));
    t.ok(UNION, place_leader("williams", "0912"));
    refused_case(&t, UNION, place_leader("williams", "2813"), "26.2");
    t.ok(UNION, place_leader("banks", "3310"));
    refused_case(&t, UNION, place_leader("crawford", "0912"), "26.2");
}

/// Cedar Mountain 26.2: "The units may be set up in a stack within the
/// limits of the stacking restrictions for that hex type (see the Stacking
/// Restriction Chart on the map) in any hexes in the area." / GBACW 8.16:
/// "An infantry unit in Column formation may never move into a hex
/// containing any other combat unit." In a clear hex of Area 5: 27 Ind (6)
/// and 2 Me (5), 11 points, stack; 3 Wisc (6) would make 17, over the
/// clear hex's 12 (provisional chart): refused; Pa Zouaves in column may
/// not join them either.
#[test]
fn cedar_26_2_setup_stacking_limits() {
    use crate::gbacw::map::Terrain;
    let mut t = set_up(&[]);
    let map = t.rs.game().map.clone();
    let mut area = vec![n("0912")];
    area.extend(
        map.grid
            .neighbours_on_map(n("0912"))
            .into_iter()
            .map(|(_, h)| h),
    );
    let clear = area
        .into_iter()
        .find(|h| {
            map.hex(*h)
                .is_some_and(|x| x.terrain.len() == 1 && x.terrain.contains(&Terrain::Clear))
        })
        .expect("a clear hex in Area 5")
        .to_string();
    t.ok(UNION, place("27-ind", &clear, Formation::Line));
    t.ok(UNION, place("2-me", &clear, Formation::Line));
    refused_case(&t, UNION, place("3-wisc", &clear, Formation::Line), "26.2");
    assert!(
        t.decide(UNION, &place("pa-zouaves", &clear, Formation::Column))
            .is_err(),
        "a column stands alone"
    );
}

/// Cedar Mountain 26.3: "The Union player is free to set up his units in
/// any Deployment Area he chooses. One brigade (only), plus one battery, is
/// deployed per Area. The 1st Me Cavalry is set up in area 1 and Bayard's
/// brigade in Area 6. All units are still subject to 26.2". With the
/// option: (a) Gordon's brigade in Area 2 (2416) with battery 6 Me:
/// legal; (b) Prince's brigade in Area 2 too: refused; (c) Bayard's
/// brigade in Area 3 (2813): refused; (d) 1 Me c in Area 4 (1517):
/// refused. Without it, (a) is refused (Gordon's area is 5).
#[test]
fn cedar_26_3_optional_one_brigade_one_battery_per_area() {
    let mut t = set_up(&[("free-deployment", true)]);
    t.ok(UNION, place("27-ind", "2416", Formation::Line));
    t.ok(UNION, place("6-me", "2415", Formation::Unlimbered));
    refused_case(&t, UNION, place("102-ny", "2417", Formation::Line), "26.3");
    refused_case(
        &t,
        UNION,
        place("1-nj-c", "2813", Formation::Mounted),
        "26.3",
    );
    refused_case(
        &t,
        UNION,
        place("1-me-c", "1517", Formation::Mounted),
        "26.3",
    );
    let t = set_up(&[]);
    refused_case(&t, UNION, place("27-ind", "2416", Formation::Line), "26.2");
}

// --- 26.4 Reinforcements ----------------------------------------------------------------

/// The battle after the default Union set-up.
fn started() -> T {
    let mut t = set_up(&[]);
    t.ok(UNION, GbacwAction::EndSetUp);
    t
}

/// Cedar Mountain 26.4: "His units enter play as reinforcements on hexes
/// and Game-Turns specified for each unit on the Confederate OB Roster." /
/// roster: "Ewell 1/4032", "Early 1/2934", "White's Comanches 1/4032",
/// "Jackson 2/2934", "Winder 2/2934", "Thomas* 7/2934". No Confederate
/// unit is on the map at the start; on Game-Turn 1 Early's brigade, 1 Md,
/// 4 Md and Bedford may enter at 2934, Ewell, Trimble's and Forno's
/// brigades and White's c at 4032; Jackson, Winder and their units may
/// not; Thomas's brigade is detached from the start.
#[test]
fn cedar_26_4_roster_entry_schedule() {
    let mut t = started();
    let oob = t.rs.game().oob.clone();
    assert!(
        oob.units
            .values()
            .filter(|u| u.side == id("confederate"))
            .all(|u| t.s.units[&u.id].hex.is_none()),
        "no Confederate unit on the map at the start"
    );
    assert_eq!(
        t.s.links.get(&id("hill")).and_then(|l| l.detached.clone()),
        Some(id("thomas"))
    );
    t.advance_to(REBEL, Phase::Movement);
    assert_eq!(t.s.clock.turn, 1);
    for u in [
        "12-ga", "13-va", "25-va", "31-va", "52-va", "58-va", "1-md", "4-md", "bedford", "early",
    ] {
        assert!(t.decide(REBEL, &arrive(u, "2934")).is_ok(), "{u} at 2934");
    }
    for u in [
        "ewell", "trimble", "15-ala", "21-ga", "21-nc", "forno", "5-la", "14-la", "whites-c",
    ] {
        assert!(t.decide(REBEL, &arrive(u, "4032")).is_ok(), "{u} at 4032");
    }
    for u in ["jackson", "winder", "21-va", "10-va", "14-ga"] {
        assert!(
            t.decide(REBEL, &arrive(u, "2934")).is_err(),
            "{u} not on GT 1"
        );
    }
}

/// Cedar Mountain 26.44: "If an entry hex is occupied by a Union unit, the
/// units scheduled to enter there are delayed a Game-Turn and then entered
/// in either that hex, if clear, or the closest unblocked hex. Should two
/// hexes be equidistant, the Confederate player has his choice of hexes."
/// Union 1 Me c holds 2934 in the Confederate Movement Phase of Game-Turn
/// 5, when Ronald's brigade is due there. (a) None of it enters on
/// Game-Turn 5, at 2934 or elsewhere. (b) On Game-Turn 6, 2934 clear: it
/// enters there. (b2) 2934 still held: it enters at either empty edge hex
/// beside 2934, as the player chooses.
#[test]
fn cedar_26_44_blocked_entry_hex() {
    let mut t = started();
    t.advance_to_turn(5, REBEL, Phase::InitialCommand);
    t.put("1-me-c", "2934", "s", Formation::Mounted);
    t.advance_to(REBEL, Phase::Movement);
    let map = t.rs.game().map.clone();
    let edge: Vec<String> = map
        .grid
        .neighbours_on_map(n("2934"))
        .into_iter()
        .map(|(_, h)| h)
        .filter(|h| map.grid.neighbours_on_map(*h).len() < 6)
        .filter(|h| t.s.units.values().all(|u| u.hex != Some(*h)))
        .map(|h| h.to_string())
        .collect();
    assert!(
        edge.len() >= 2,
        "two empty edge hexes beside 2934: {edge:?}"
    );
    assert!(t.decide(REBEL, &arrive("2-va", "2934")).is_err());
    for h in &edge {
        assert!(t.decide(REBEL, &arrive("2-va", h)).is_err(), "GT 5 at {h}");
    }
    // (b2) Game-Turn 6, 2934 still held: either edge hex beside it.
    let mut held = t.clone();
    held.advance_to_turn(6, REBEL, Phase::Movement);
    assert!(held.decide(REBEL, &arrive("2-va", "2934")).is_err());
    for h in &edge {
        assert!(
            held.decide(REBEL, &arrive("2-va", h)).is_ok(),
            "GT 6 at {h}"
        );
    }
    // (b) Game-Turn 6, 2934 clear again.
    t.put("1-me-c", "2111", "s", Formation::Mounted);
    t.advance_to_turn(6, REBEL, Phase::Movement);
    t.ok(REBEL, arrive("2-va", "2934"));
}

/// Cedar Mountain 26.43: "Units which enter this map as reinforcements
/// are not subject to the limitations of leadership until the Game-Turn
/// after which they enter the map." / GBACW 17.11. 10 Va (Taliaferro's)
/// enters at 2934 on Game-Turn 2 and moves beyond one hex; Taliaferro
/// enters after it and stays at 2934, six hexes off (ER 4). In the
/// Offensive Fire Phase of Game-Turn 2, 10 Va (in line) may fire. On
/// Game-Turn 3, still 6 hexes from him (Winder off the map), it is out of
/// command: one hex only.
#[test]
fn cedar_26_43_reinforcements_free_of_command_on_entry_turn() {
    let mut t = started();
    t.advance_to_turn(2, REBEL, Phase::Movement);
    t.ok(REBEL, arrive("10-va", "2934"));
    let reach = t.rs.reachable(&t.s, &id("10-va")).expect("it may move");
    let far = reach
        .hexes
        .keys()
        .copied()
        .filter(|h| t.rs.game().map.grid.distance(n("2934"), *h) == 6)
        .find(|h| reach.path_to(*h).is_some());
    let Some(far) = far else {
        panic!("10 Va cannot reach six hexes from 2934");
    };
    let path = reach.path_to(far).unwrap()[1..].to_vec();
    t.ok(
        REBEL,
        GbacwAction::Move {
            pieces: ids(&["10-va"]),
            path,
        },
    );
    t.ok(REBEL, arrive("taliaferro", "2934"));
    assert!(!t.s.command.out_of_command.contains(&id("10-va")));
    // In line, a Union regiment before it: it may fire offensively.
    let far_s = far.to_string();
    t.put("10-va", &far_s, "n", Formation::Line);
    let row: u8 = far_s[2..].parse().unwrap();
    let front = format!("{}{:02}", &far_s[..2], row - 1);
    t.put("28-ny", &front, "s", Formation::Line);
    t.advance_to(REBEL, Phase::OffensiveFire);
    assert!(
        t.decide(REBEL, &fire(&front, &[("10-va", 2)])).is_ok(),
        "no ban on offensive fire on its turn of entry"
    );
    // Game-Turn 3: out of command, one hex only.
    t.put("28-ny", "2111", "s", Formation::Line);
    t.advance_to_turn(3, REBEL, Phase::Movement);
    assert_eq!(t.hex("taliaferro"), Some(n("2934")));
    assert!(t.s.command.out_of_command.contains(&id("10-va")));
    let reach = t.rs.reachable(&t.s, &id("10-va")).expect("it may move");
    assert!(
        reach
            .hexes
            .keys()
            .all(|h| t.rs.game().map.grid.distance(far, *h) <= 1),
        "one hex only"
    );
}
