//! Cedar Mountain 24.14 from the moment a brigade breaks in the middle of
//! a retreat: a friend the retreating unit displaces (GBACW 14.3) is lost
//! and that loss breaks the retreating unit's brigade; the rest of its
//! path enters an enemy ZOC, so it is captured there instead of going on.
//! On cedar_rules' quiet field (columns 03–07, rows 04–06).

use super::*;
use crate::gbacw::ruleset::combat::retreat_limits::compass;
use crate::gbacw::ruleset::combat::{Roller, Unfold};
use crate::gbacw::ruleset::state::RetreatFireOffer;

/// 1 DC (Greene, 2 points) in 0505 has no hex to be displaced into: the
/// Union retreats east, north-east or south-east only (23.2) and
/// Confederates hold those three neighbours. 78 NY (Greene) retreats
/// from 0505's north-west neighbour through 0505 to its west neighbour,
/// which 42 Va's ZOC holds. `hit`: 78 NY has lost a point already, so 1
/// DC's two make Greene's limit of 3.
fn field(hit: bool) -> (T, Vec<HexNumber>) {
    let mut t = super::cedar_rules::field();
    let grid = t.rs.game().map.grid.clone();
    // The neighbour of `from` that lies `word` of it (the scenario's
    // compass: north is the map's left edge).
    let step = |from: HexNumber, word: &str| {
        grid.neighbours_on_map(from)
            .into_iter()
            .map(|(_, h)| h)
            .find(|h| compass(&grid, "left", from, *h) == Some(word))
            .unwrap()
    };
    let (west, north_west) = (step(n("0505"), "W"), step(n("0505"), "NW"));
    t.field_unit("1-dc", "0505", Formation::Line);
    t.field_unit("78-ny", &north_west.to_string(), Formation::Line);
    // They block 1 DC's way and face away: 0505 is in no enemy ZOC.
    for (unit, word) in [("2-va", "E"), ("4-va", "NE"), ("5-va", "SE")] {
        let at = step(n("0505"), word);
        t.field_unit(unit, &at.to_string(), Formation::Line);
        t.face_towards(unit, &step(at, word).to_string());
    }
    let beyond = step(west, "W");
    t.field_unit("42-va", &beyond.to_string(), Formation::Line);
    t.face_towards("42-va", &west.to_string());
    if hit {
        t.fold(GbacwEvent::UnitHit {
            unit: id("78-ny"),
            points: 1,
        });
    }
    (t, vec![n("0505"), west])
}

fn retreat(t: &T, path: &[HexNumber]) -> (GbacwState, Vec<GbacwEvent>) {
    let mut dice = Dice::from_stream(crate::dice::DiceStream::from_seed(b"cedar 24.14 mid"));
    let mut u = Unfold::new(&t.s);
    let mut roll = Roller::new(&mut dice);
    crate::gbacw::ruleset::combat::retreat_fire::go_along(
        &t.rs,
        &mut u,
        &mut roll,
        &id("78-ny"),
        path,
        false,
        Vec::new(),
        None,
    );
    roll.finish().unwrap();
    (u.state, u.events)
}

fn captured(events: &[GbacwEvent], unit: &str) -> bool {
    events.contains(&GbacwEvent::UnitRemoved {
        unit: id(unit),
        captured: true,
    })
}

#[test]
fn cedar_24_14_a_brigade_broken_by_a_displaced_friend_stops_the_retreat_that_displaced_it() {
    let (t, path) = field(true);
    assert!(!t.rs.brigade_at_bce_limit(&t.s, &id("greene")));
    let (s, events) = retreat(&t, &path);
    // 14.3: 1 DC is displaced and has no hex: captured (14.1), and
    // Greene reaches its limit.
    assert!(captured(&events, "1-dc"), "{events:#?}");
    assert!(t.rs.brigade_at_bce_limit(&s, &id("greene")));
    // 24.14: 78 NY may not go on into 42 Va's ZOC: captured, and no
    // retreat fire is offered on it.
    assert!(captured(&events, "78-ny"), "{events:#?}");
    let one_dc = events
        .iter()
        .position(|e| matches!(e, GbacwEvent::UnitRemoved { unit, .. } if *unit == id("1-dc")));
    let ny = events
        .iter()
        .position(|e| matches!(e, GbacwEvent::UnitRemoved { unit, .. } if *unit == id("78-ny")));
    assert!(one_dc < ny);
    assert!(s.retreat_fire.is_empty());
    assert_eq!(s.units[&id("78-ny")].hex, None);
}

#[test]
fn cedar_24_14_a_brigade_still_whole_after_the_displacement_retreats_on_into_the_zoc() {
    // Greene loses only 1 DC's two points (limit 3): 78 NY goes on, and
    // 42 Va is offered retreat fire where it enters its ZOC (10.2).
    let (t, path) = field(false);
    let (s, events) = retreat(&t, &path);
    assert!(captured(&events, "1-dc"), "{events:#?}");
    assert!(!t.rs.brigade_at_bce_limit(&s, &id("greene")));
    assert!(!captured(&events, "78-ny"), "{events:#?}");
    assert_eq!(s.units[&id("78-ny")].hex, Some(path[1]));
    assert!(matches!(
        s.retreat_fire.as_slice(),
        [RetreatFireOffer { unit, firers, .. }] if *unit == id("78-ny") && firers == &ids(&["42-va"])
    ));
}

#[test]
fn cedar_24_14_a_broken_brigade_with_no_zoc_left_on_its_path_retreats_on() {
    // Broken by the same displacement, but 42 Va faces away: the rest of
    // the path is clear of enemy ZOCs, and 78 NY ends its retreat.
    let (mut t, path) = field(true);
    let away = t
        .rs
        .game()
        .map
        .grid
        .neighbours_on_map(t.hex("42-va").unwrap())
        .into_iter()
        .map(|(_, h)| h)
        .find(|h| compass(&t.rs.game().map.grid, "left", t.hex("42-va").unwrap(), *h) == Some("W"))
        .unwrap();
    t.face_towards("42-va", &away.to_string());
    let (s, events) = retreat(&t, &path);
    assert!(t.rs.brigade_at_bce_limit(&s, &id("greene")));
    assert!(!captured(&events, "78-ny"), "{events:#?}");
    assert_eq!(s.units[&id("78-ny")].hex, Some(path[1]));
}
