//! Corinth 26 (night, stragglers, BCE recovery, the pre-dawn barrage),
//! 28 (command structure, leader replacement), 21.2 and 21.43/21.44 on
//! the Historical Scenario. Tests named `corinth_N_NN_…` test that case.

use super::corinth::{give, started, to_turn};
use super::*;
use crate::gbacw::oob::Marker;
use crate::gbacw::ruleset::decide::movement::mover;

/// Corinth after the day: the first-day total keeps the game going
/// (Hotel, four primary redans and 3844 held: 16, see 31.2's test).
fn night_game() -> T {
    let mut t = started();
    give(&mut t, &["2437", "1934", "1838", "1942", "2729", "3844"]);
    t
}

/// A woods hex of the map, and a clear one.
fn woods_and_clear(t: &T) -> (HexNumber, HexNumber) {
    use crate::gbacw::map::Terrain;
    let map = &t.rs.game().map;
    let woods = map
        .hexes()
        .find(|(_, h)| h.has(Terrain::Woods) && h.terrain.len() == 1)
        .map(|(n, _)| n)
        .expect("a woods hex");
    let clear = map
        .hexes()
        .find(|(_, h)| h.has(Terrain::Clear) && h.terrain.len() == 1)
        .map(|(n, _)| n)
        .expect("a clear hex");
    (woods, clear)
}

#[test]
fn corinth_26_11_at_night_movement_allowances_are_half_again() {
    let mut t = night_game();
    to_turn(&mut t, 16);
    let union = id("union");
    let day = mover(&t.rs, &t.s, &union, &id("21-mo")).unwrap();
    assert_eq!(day.allowance, Mp::from_whole(6));
    let lead = mover(&t.rs, &t.s, &union, &id("mcarthur")).unwrap();
    assert_eq!(lead.allowance, Mp::from_whole(12));
    to_turn(&mut t, 17);
    assert!(!t.s.over);
    // "an infantry regiment would have an allowance of 9 at night, instead of 6"
    let night = mover(&t.rs, &t.s, &union, &id("21-mo")).unwrap();
    assert_eq!(night.allowance, Mp::from_whole(9));
    let lead = mover(&t.rs, &t.s, &union, &id("mcarthur")).unwrap();
    assert_eq!(lead.allowance, Mp::from_whole(18));
    // Day 2 is daylight again.
    to_turn(&mut t, 21);
    let day2 = mover(&t.rs, &t.s, &union, &id("21-mo")).unwrap();
    assert_eq!(day2.allowance, Mp::from_whole(6));
}

#[test]
fn corinth_26_12_at_night_woods_cost_one_more_movement_point() {
    use crate::gbacw::ruleset::corinth::night::step_cost;
    let mut t = night_game();
    let (woods, clear) = woods_and_clear(&t);
    // "it costs an infantry regiment in column 3 points to enter a woods
    // hex at night, as opposed to the usual cost of 2"
    to_turn(&mut t, 16);
    assert_eq!(
        step_cost(&t.rs, &t.s, woods, Mp::from_whole(2)),
        Mp::from_whole(2)
    );
    to_turn(&mut t, 17);
    assert_eq!(
        step_cost(&t.rs, &t.s, woods, Mp::from_whole(2)),
        Mp::from_whole(3)
    );
    assert_eq!(
        step_cost(&t.rs, &t.s, clear, Mp::from_whole(1)),
        Mp::from_whole(1)
    );
    // Through the move's own check: 21 Mo in column steps into woods.
    t.advance_to(UNION, Phase::Movement);
    let from = t.hex("21-mo").unwrap();
    let board = crate::gbacw::ruleset::board::Board::new(&t.rs, &t.s);
    let union = id("union");
    let zocs = crate::gbacw::ruleset::decide::movement::Zocs::new(&board, &union);
    let mut m = mover(&t.rs, &t.s, &union, &id("21-mo")).unwrap();
    m.class = crate::gbacw::charts::MoveClass::Column;
    let into_woods = t
        .rs
        .game()
        .map
        .grid
        .neighbours_on_map(from)
        .into_iter()
        .map(|(_, h)| h)
        .find(|h| {
            t.rs.game()
                .map
                .hex(*h)
                .is_some_and(|x| x.terrain.len() == 1 && x.has(crate::gbacw::map::Terrain::Woods))
        });
    if let Some(w) = into_woods {
        let cost = crate::gbacw::ruleset::decide::movement::step(
            &board,
            &zocs,
            &union,
            &m,
            &[id("21-mo")],
            from,
            w,
        );
        // Whatever the hexside adds, woods at night are one more than by day.
        assert!(cost.unwrap() >= Mp::from_whole(3));
    }
}

/// The Union Final Command Phase of Game-Turn 16 with 21 Mo and 6 Miss
/// engaged in melee, side by side.
fn engaged_at_dusk() -> (T, HexNumber, HexNumber) {
    let mut t = night_game();
    to_turn(&mut t, 16);
    t.advance_to(UNION, Phase::FinalCommand);
    let union_hex = t.hex("21-mo").unwrap();
    let rebel_hex = super::corinth::free_neighbour(&t, "21-mo");
    t.put("6-miss", &rebel_hex.to_string(), "n", Formation::Line);
    for u in ["21-mo", "6-miss"] {
        t.s.units
            .get_mut(&id(u))
            .unwrap()
            .status
            .markers
            .insert(Marker::Engaged);
    }
    (t, union_hex, rebel_hex)
}

#[test]
fn corinth_26_15_melees_engaged_at_the_end_of_game_turn_16_both_retreat_two_hexes() {
    let (mut t, union_hex, rebel_hex) = engaged_at_dusk();
    let events = t.ok(UNION, GbacwAction::EndPhase);
    let grid = &t.rs.game().map.grid;
    let retreats: Vec<(CounterId, Vec<HexNumber>)> = events
        .iter()
        .filter_map(|e| match e {
            GbacwEvent::UnitRetreated { unit, path } => Some((unit.clone(), path.clone())),
            _ => None,
        })
        .collect();
    // The phasing player (the Union) retreats first, then the other.
    assert_eq!(retreats.len(), 2, "{events:#?}");
    assert_eq!(retreats[0].0, id("21-mo"));
    assert_eq!(retreats[1].0, id("6-miss"));
    // Two hexes from the engagement hex, each farther away.
    let u_end = t.hex("21-mo").unwrap();
    let r_end = t.hex("6-miss").unwrap();
    assert_eq!(grid.distance(union_hex, u_end), 2);
    assert_eq!(grid.distance(rebel_hex, r_end), 2);
    // The non-phasing side avoids every hex the Union retreated through.
    assert!(retreats[1].1.iter().all(|h| !retreats[0].1.contains(h)));
    // No morale check, no longer engaged.
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, GbacwEvent::MoraleChecked { .. }))
    );
    for u in ["21-mo", "6-miss"] {
        assert!(!t.s.units[&id(u)].status.markers.contains(&Marker::Engaged));
    }
}

#[test]
fn corinth_26_15_a_unit_unable_to_retreat_at_nightfall_is_captured() {
    let (mut t, _, rebel_hex) = engaged_at_dusk();
    // Close every hex around 6 Miss but 21 Mo's with more Union units.
    let grid = t.rs.game().map.grid.clone();
    let around: Vec<HexNumber> = grid
        .neighbours_on_map(rebel_hex)
        .into_iter()
        .map(|(_, h)| h)
        .collect();
    let spare: Vec<CounterId> = t
        .s
        .units
        .iter()
        .filter(|(uid, u)| {
            u.hex.is_some()
                && t.rs.game().oob.units[*uid].side == id("union")
                && **uid != id("21-mo")
                && matches!(
                    t.rs.game().oob.units[*uid].kind,
                    crate::gbacw::oob::UnitKind::Infantry
                )
        })
        .map(|(uid, _)| uid.clone())
        .collect();
    let mut spare = spare.into_iter();
    for h in around {
        if t.s.units.values().any(|u| u.hex == Some(h)) {
            continue;
        }
        let u = spare.next().unwrap();
        t.s.units.get_mut(&u).unwrap().hex = Some(h);
    }
    let events = t.ok(UNION, GbacwAction::EndPhase);
    assert!(events.iter().any(|e| matches!(
        e,
        GbacwEvent::UnitRemoved { unit, captured: true } if *unit == id("6-miss")
    )));
    assert_eq!(t.s.units[&id("6-miss")].hex, None);
}

#[test]
fn corinth_26_15_nothing_engaged_nothing_retreats() {
    let mut t = night_game();
    to_turn(&mut t, 16);
    t.advance_to(UNION, Phase::FinalCommand);
    let events = t.ok(UNION, GbacwAction::EndPhase);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, GbacwEvent::UnitRetreated { .. }))
    );
}
