//! Corinth's battery crews as pieces on the map (24.21, 24.22, 24.3),
//! through `decide` and `evolve`: Hudson's guns (Rust's brigade) in 1423,
//! its crew routed away to 1420, 52 Ill (Union) in 1418 facing south, on
//! the Confederate Movement or Rally Phase of Game-Turn 3.

use super::corinth_melee::base;
use super::*;
use crate::gbacw::oob::Marker;
use crate::gbacw::sequence::{PlayerTurn, Step};

pub(super) fn at_phase(t: &mut T, seat: SeatId, phase: Phase) {
    let player = [PlayerTurn::First, PlayerTurn::Second]
        .into_iter()
        .find(|p| t.rs.side_of_turn(*p) == t.rs.side_of(seat))
        .unwrap();
    t.s.clock.step = Step::Phase { player, phase };
}

/// Hudson's guns in 1423 under the Crew marker, the crew routed to 1420
/// (as `CrewRouted` leaves it), 52 Ill in 1418 facing 1419.
pub(super) fn crew_field(phase: Phase) -> T {
    let mut t = base();
    for h in ["1418", "1419", "1420", "1421", "1422", "1423"] {
        assert!(
            !t.s.units.values().any(|u| u.hex == Some(n(h))),
            "{h} is empty at the start"
        );
    }
    t.corinth_unit("hudson", "1423", Formation::Unlimbered);
    t.corinth_unit("52-ill", "1418", Formation::Line);
    t.face_towards("52-ill", "1419");
    let e = GbacwEvent::CrewRouted {
        battery: id("hudson"),
        path: vec![n("1422"), n("1421"), n("1420")],
    };
    t.rs.evolve(&mut t.s, &e);
    let e = GbacwEvent::MarkersSet {
        unit: id("hudson"),
        markers: [Marker::Rout].into_iter().collect(),
    };
    t.rs.evolve(&mut t.s, &e);
    at_phase(&mut t, REBEL, phase);
    t
}

pub(super) fn move_crew(path: &[&str]) -> GbacwAction {
    GbacwAction::MoveCrew {
        battery: id("hudson"),
        path: path.iter().map(|h| n(h)).collect(),
    }
}

fn crew_marker(t: &T) -> bool {
    t.s.units[&id("hudson")]
        .status
        .markers
        .contains(&Marker::Rout)
}

#[test]
fn corinth_24_21_a_routed_crew_moves_one_hex_as_a_routed_unit() {
    let mut t = crew_field(Phase::Movement);
    // 5.2, 13.32: one hex, never into an enemy ZOC (52 Ill's, 1419).
    t.refused(REBEL, move_crew(&["1421", "1422"]), "GBACW 5.2");
    t.refused(REBEL, move_crew(&["1419"]), "GBACW 5.2");
    // Only its owner moves it, only in the Movement Phase.
    t.refused(UNION, move_crew(&["1421"]), "GBACW 4.0");
    // Bad requests get a typed refusal: no path, a far hex, a unit with no
    // crew away, the enemy's battery, no such counter.
    t.refused(REBEL, move_crew(&[]), "GBACW 5.16");
    t.refused(REBEL, move_crew(&["1425"]), "GBACW 5.16");
    let other = |unit: &str| GbacwAction::MoveCrew {
        battery: id(unit),
        path: vec![n("1421")],
    };
    t.corinth_unit("9-ark", "1521", Formation::Line);
    t.refused(REBEL, other("9-ark"), "Corinth 24.21");
    t.refused(REBEL, other("52-ill"), "GBACW 3.3");
    t.refused(REBEL, other("no-such-battery"), "GBACW 3.3");
    // The candidate moves list it.
    let legal = t.rs.legal_actions(&t.s, REBEL);
    assert!(legal.contains(&move_crew(&["1421"])));
    let e = t.ok(REBEL, move_crew(&["1421"]));
    assert_eq!(
        e,
        vec![GbacwEvent::CrewMoved {
            battery: id("hudson"),
            path: vec![n("1421")],
            rejoined: false,
        }]
    );
    assert_eq!(t.s.crews_away.get(&id("hudson")), Some(&n("1421")));
    // Once a phase (5.11); the guns never move meanwhile.
    t.refused(REBEL, move_crew(&["1422"]), "GBACW 5.11");
    assert!(
        !t.rs
            .legal_actions(&t.s, REBEL)
            .iter()
            .any(|a| matches!(a, GbacwAction::MoveCrew { .. }))
    );
    // Outside the Movement Phase it stays.
    let mut fire = crew_field(Phase::OffensiveFire);
    fire.refused(REBEL, move_crew(&["1421"]), "GBACW 5.0");
    at_phase(&mut fire, REBEL, Phase::Movement);
    fire.ok(REBEL, move_crew(&["1421"]));
}

#[test]
fn corinth_24_21_the_guns_stay_while_their_crew_is_away() {
    let mut t = crew_field(Phase::Movement);
    // Even limbered (as 24.3's siege guns may be left), they do not move.
    t.s.units.get_mut(&id("hudson")).unwrap().status.formation = Formation::Limbered;
    t.refused(REBEL, mv(&["hudson"], &["1424"]), "Corinth 24.21");
}

#[test]
fn corinth_24_21_a_lone_crew_holds_its_hex_but_does_not_count_for_stacking() {
    let mut t = crew_field(Phase::Movement);
    // 15.1: "Artillery crews do not count for stacking": a friend moves in.
    t.corinth_unit("9-ark", "1521", Formation::Line);
    t.face_towards("9-ark", "1420");
    t.mv(REBEL, &["9-ark"], &["1420"]);
    assert_eq!(t.hex("9-ark"), Some(n("1420")));
    // To the enemy it is an enemy unit: 5.12, no entry.
    let mut u = crew_field(Phase::Movement);
    at_phase(&mut u, UNION, Phase::Movement);
    u.refused(UNION, mv(&["52-ill"], &["1419", "1420"]), "GBACW 5.12");
    // The rebel crew's own rout path and moves never pass an enemy crew:
    // `retreat_blocks` and `has_enemy` see it.
    let board = crate::gbacw::ruleset::board::Board::new(&u.rs, &u.s);
    assert!(board.has_enemy(n("1420"), u.rs.side_of(UNION)));
    assert!(!board.has_enemy(n("1420"), u.rs.side_of(REBEL)));
}

#[test]
fn corinth_24_21_a_crew_rallies_where_it_stands_then_walks_back_to_its_guns() {
    let t = crew_field(Phase::Rally);
    // 13.54: by a die (Hudson's morale 4), in the crew's hex.
    let rallied = (0..100)
        .map(|s| {
            let mut x = T {
                rs: t.rs.clone(),
                s: t.s.clone(),
                script: Default::default(),
            };
            let (e, _) = x.roll(REBEL, GbacwAction::Rally { unit: id("hudson") }, s);
            (x, e)
        })
        .find(|(_, e)| {
            e.iter()
                .any(|x| matches!(x, GbacwEvent::RallyTried { rallied: true, .. }))
        })
        .expect("the crew rallies within 100 seeds")
        .0;
    // Rallied, it is still away: the Crew marker stays on the guns.
    assert_eq!(rallied.s.crews_away.get(&id("hudson")), Some(&n("1420")));
    assert!(rallied.s.crews_rallied.contains(&id("hudson")));
    assert!(crew_marker(&rallied));
    // Nothing left to rally (next Rally Phase too).
    let mut again = T {
        rs: rallied.rs.clone(),
        s: rallied.s.clone(),
        script: Default::default(),
    };
    again.s.rally_tried.clear();
    again.refused(
        REBEL,
        GbacwAction::Rally { unit: id("hudson") },
        "Corinth 24.21",
    );
    assert!(
        !again
            .rs
            .legal_actions(&again.s, REBEL)
            .contains(&GbacwAction::Rally { unit: id("hudson") })
    );
    // Rallied, it moves as Line infantry (6.13): three hexes back to its
    // guns in one move, and the Crew marker comes off (24.21).
    let mut back = again;
    at_phase(&mut back, REBEL, Phase::Movement);
    // Its guns' hex ends the move.
    back.refused(
        REBEL,
        move_crew(&["1421", "1422", "1423", "1424"]),
        "Corinth 24.21",
    );
    let e = back.ok(REBEL, move_crew(&["1421", "1422", "1423"]));
    assert!(matches!(
        e.as_slice(),
        [GbacwEvent::CrewMoved { rejoined: true, .. }]
    ));
    assert!(back.s.crews_away.is_empty());
    assert!(back.s.crews_rallied.is_empty());
    assert!(!crew_marker(&back));
    assert_eq!(back.hex("hudson"), Some(n("1423")));
}

#[test]
fn corinth_24_21_a_leader_rallies_the_crew_only_stacked_with_the_crew() {
    // 13.54: "Leaders may rally these unit types only by being stacked
    // with them": with the crew in 1420, no die is rolled.
    let mut t = crew_field(Phase::Rally);
    t.corinth_leader("rust", "1420");
    let e = t.ok(REBEL, GbacwAction::Rally { unit: id("hudson") });
    assert!(matches!(
        e.as_slice(),
        [GbacwEvent::RallyTried { die: None, .. }]
    ));
    // With the guns in 1423 instead, the crew rolls its die.
    let mut g = crew_field(Phase::Rally);
    g.corinth_leader("rust", "1423");
    let (e, drawn) = g.roll(REBEL, GbacwAction::Rally { unit: id("hudson") }, 1);
    assert_eq!(drawn.len(), 1);
    assert!(matches!(
        e.as_slice(),
        [GbacwEvent::RallyTried { die: Some(_), .. }]
    ));
}

#[test]
fn corinth_24_21_a_crew_back_still_routed_rallies_at_its_guns() {
    let mut t = crew_field(Phase::Movement);
    t.s.crews_away.insert(id("hudson"), n("1422"));
    t.ok(REBEL, move_crew(&["1423"]));
    // Back, but routed: the marker stays until it rallies there (13.54).
    assert!(t.s.crews_away.is_empty());
    assert!(crew_marker(&t));
    at_phase(&mut t, REBEL, Phase::Rally);
    let rallied = (0..100)
        .map(|s| {
            let mut x = T {
                rs: t.rs.clone(),
                s: t.s.clone(),
                script: Default::default(),
            };
            x.roll(REBEL, GbacwAction::Rally { unit: id("hudson") }, s);
            x
        })
        .find(|x| !crew_marker(x))
        .expect("the crew rallies within 100 seeds");
    assert!(rallied.s.crews_away.is_empty());
}

#[test]
fn corinth_24_22_a_crew_away_leaves_play_with_its_guns() {
    let mut t = crew_field(Phase::Movement);
    let e = GbacwEvent::UnitRemoved {
        unit: id("hudson"),
        captured: true,
    };
    t.rs.evolve(&mut t.s, &e);
    assert!(t.s.crews_away.is_empty());
    assert!(t.s.crews_rallied.is_empty());
    t.refused(REBEL, move_crew(&["1421"]), "GBACW 5.0");
}

/// Phillips (a Union siege battery, 24.3) limbered in 1423, failing a
/// morale check with dice seeded by `seed`: the events.
fn check_phillips(t: &T, seed: u64) -> Vec<GbacwEvent> {
    use crate::gbacw::ruleset::combat::{Roller, Unfold, effects::check_morale};
    let stream = crate::dice::DiceStream::from_seed(&seed.to_le_bytes());
    let mut dice = Dice::from_stream(stream);
    let mut u = Unfold::new(&t.s);
    let mut roll = Roller::new(&mut dice);
    check_morale(&t.rs, &mut u, &mut roll, &id("phillips"));
    roll.finish().unwrap();
    u.events
}

fn failed(e: &[GbacwEvent]) -> bool {
    e.iter()
        .any(|x| matches!(x, GbacwEvent::MoraleChecked { failed: true, .. }))
}

#[test]
fn corinth_24_3_a_routed_siege_crew_leaves_its_limbered_guns_and_moves_freely() {
    let mut t = base();
    t.corinth_unit("phillips", "1423", Formation::Limbered);
    let (seed, events) = (0..200)
        .map(|s| (s, check_phillips(&t, s)))
        .find(|(_, e)| failed(e))
        .expect("Phillips (morale 5) fails a check within 200 seeds");
    // "Their crews are free to move if routed": the crew routs alone, the
    // guns (one hex a turn) stay, limbered, under the Crew marker.
    assert!(
        events
            .iter()
            .any(|e| matches!(e, GbacwEvent::CrewRouted { .. })),
        "seed {seed}: {events:?}"
    );
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, GbacwEvent::UnitRetreated { .. })),
        "seed {seed}"
    );
    for e in &events {
        t.rs.evolve(&mut t.s, e);
    }
    assert_eq!(t.hex("phillips"), Some(n("1423")));
    assert_eq!(
        t.s.units[&id("phillips")].status.formation,
        Formation::Limbered
    );
    let away =
        *t.s.crews_away
            .get(&id("phillips"))
            .expect("the crew is away");
    assert_eq!(t.rs.game.map.grid.distance(n("1423"), away), 3);
    // Rallied, the crew is not held to the guns' one hex (24.3): it walks
    // back three hexes in one move.
    t.s.crews_rallied.insert(id("phillips"));
    at_phase(&mut t, UNION, Phase::Movement);
    let path = {
        let grid = &t.rs.game.map.grid;
        let mut p = Vec::new();
        let mut at = away;
        while at != n("1423") {
            at = grid
                .neighbours_on_map(at)
                .into_iter()
                .map(|(_, h)| h)
                .find(|h| grid.distance(*h, n("1423")) < grid.distance(at, n("1423")))
                .unwrap();
            p.push(at);
        }
        p
    };
    assert_eq!(path.len(), 3);
    let e = t.decide(
        UNION,
        &GbacwAction::MoveCrew {
            battery: id("phillips"),
            path: path.clone(),
        },
    );
    // Terrain may cost more than the allowance on some way; any refusal
    // must then be the allowance's, never 24.3's one hex.
    match e {
        Ok(e) => assert!(matches!(
            e.as_slice(),
            [GbacwEvent::CrewMoved { rejoined: true, .. }]
        )),
        Err(err) => assert_eq!(err.rule, "GBACW 5.11", "{err}"),
    }
    // Without the hook a limbered siege battery routs whole (15.16).
    let mut s = base();
    s.rs.game
        .scenario
        .hooks
        .retain(|h| h.kind != crate::gbacw::scenario::HookKind::SiegeCrewsRout);
    s.corinth_unit("phillips", "1423", Formation::Limbered);
    let events = check_phillips(&s, seed);
    assert!(failed(&events));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, GbacwEvent::CrewRouted { .. }))
    );
}

/// The crew field for fire: 52 Ill in 1419, next to the crew, facing it
/// (the woods block sight at two hexes), the Union Defensive Fire Phase.
pub(super) fn fire_field() -> T {
    let mut t = crew_field(Phase::DefensiveFire);
    t.corinth_unit("52-ill", "1419", Formation::Line);
    t.face_towards("52-ill", "1420");
    t
}

/// 52 Ill fires at the lone crew in 1420 in the Union Defensive Fire
/// Phase, the phase ended with dice seeded by `seed`: the events.
pub(super) fn fire_on_crew(t: &T, seed: u64) -> (T, Vec<GbacwEvent>) {
    let mut x = T {
        rs: t.rs.clone(),
        s: t.s.clone(),
        script: Default::default(),
    };
    let points = x.s.units[&id("52-ill")].status.strength;
    x.ok(UNION, fire("1420", &[("52-ill", points)]));
    let (events, _) = x.roll(UNION, GbacwAction::EndPhase, seed);
    (x, events)
}

#[test]
fn corinth_24_21_a_lone_crew_is_fired_on_as_line_infantry() {
    let t = fire_field();
    // 24.12: "lone crews" are a target (the attack names the battery).
    let plan = {
        let mut x = T {
            rs: t.rs.clone(),
            s: t.s.clone(),
            script: Default::default(),
        };
        let points = x.s.units[&id("52-ill")].status.strength;
        x.ok(UNION, fire("1420", &[("52-ill", points)]));
        x.s.fire_plan.clone()
    };
    assert_eq!(plan.len(), 1);
    // The candidates list it (random play fires at lone crews too).
    assert!(t.rs.legal_actions(&t.s, UNION).iter().any(|a| matches!(
        a,
        GbacwAction::DeclareFire { target, .. } if *target == n("1420")
    )));
    // Routed, a small-arms casualty costs a step (9.82) and routs it
    // again three hexes from 1420, no check (13.33).
    let (hurt, events) = (0..200)
        .map(|s| fire_on_crew(&t, s))
        .find(|(_, e)| e.iter().any(|x| matches!(x, GbacwEvent::CrewHit { .. })))
        .expect("a casualty within 200 seeds");
    assert_eq!(
        hurt.s.units[&id("hudson")].status.crew,
        crate::gbacw::oob::Crew::Half
    );
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, GbacwEvent::MoraleChecked { .. }))
    );
    let away = *hurt.s.crews_away.get(&id("hudson")).expect("still away");
    assert_eq!(hurt.rs.game.map.grid.distance(n("1420"), away), 3);
    // The guns are untouched where they stand.
    assert_eq!(hurt.hex("hudson"), Some(n("1423")));
    assert_eq!(hurt.s.units[&id("hudson")].status.strength, 6);
    // A half crew hit again is gone, and its battery with it; its guns
    // are not counted for Victory Points (24.22).
    let mut half = fire_field();
    half.s.units.get_mut(&id("hudson")).unwrap().status.crew = crate::gbacw::oob::Crew::Half;
    let before = half.rs.tally(&half.s).unwrap().batteries;
    let (gone, _) = (0..200)
        .map(|s| fire_on_crew(&half, s))
        .find(|(x, _)| x.hex("hudson").is_none())
        .expect("the half crew is lost within 200 seeds");
    assert!(gone.s.crews_away.is_empty());
    assert_eq!(gone.s.units[&id("hudson")].captured, 0);
    assert_eq!(gone.rs.tally(&gone.s).unwrap().batteries, before);
    // Rallied, it checks morale with Hudson's rating (4) and routs from
    // where it stands when it fails (13.2).
    let mut rallied = fire_field();
    rallied.s.crews_rallied.insert(id("hudson"));
    let (routed, events) = (0..200)
        .map(|s| fire_on_crew(&rallied, s))
        .find(|(_, e)| e.iter().any(|x| matches!(x, GbacwEvent::CrewRouted { .. })))
        .expect("the rallied crew routs within 200 seeds");
    assert!(events.iter().any(|e| matches!(
        e,
        GbacwEvent::MoraleChecked { unit, rating: 4, failed: true, .. } if *unit == id("hudson")
    )));
    assert!(!routed.s.crews_rallied.contains(&id("hudson")));
}
