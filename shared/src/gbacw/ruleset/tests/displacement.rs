//! Friendly units displaced by a retreat (14.3), through `decide` and
//! `evolve`.

use super::*;
use crate::gbacw::oob::Marker;
use crate::gbacw::ruleset::state::RetreatOrder;

/// 10 Va in the corner hex 0101 must retreat one hex (a rout); both its
/// neighbours, 0201 and 0102, hold friends (2 Va, White's c), so every
/// path goes through friends and the owner chooses.
fn cornered() -> T {
    let mut t = T::empty();
    t.put("10-va", "0101", "s", Formation::Line);
    t.put("2-va", "0201", "s", Formation::Line);
    t.put("whites-c", "0102", "s", Formation::Mounted);
    t.s.retreats.push(RetreatOrder {
        unit: id("10-va"),
        seat: REBEL,
        length: 1,
        rout: true,
        check: false,
        lost: false,
        displaced: false,
    });
    t
}

fn retreat(unit: &str, path: &[&str]) -> GbacwAction {
    GbacwAction::Retreat {
        unit: id(unit),
        path: path.iter().map(|h| n(h)).collect(),
    }
}

#[test]
fn case_14_3_a_friend_retreated_onto_is_displaced_one_hex_and_checks_morale() {
    let mut t = cornered();
    let legal = t.rs.legal_actions(&t.s, REBEL);
    assert!(legal.contains(&retreat("10-va", &["0201"])), "{legal:?}");
    let a = retreat("10-va", &["0201"]);
    let ctx = crate::engine::ActionContext {
        seat: REBEL,
        seq: 1,
        by_default: false,
    };
    assert!(t.rs.rolls_dice(&t.s, &ctx, &a));
    let (events, _) = t.roll(REBEL, a, 3);
    assert_eq!(t.hex("10-va"), Some(n("0201")));
    // 2 Va checks morale, and is out of 0201 or waits for its owner's
    // choice of hex (14.4); routed, it goes on three hexes.
    assert!(
        events
            .iter()
            .any(|e| matches!(e, GbacwEvent::MoraleChecked { unit, .. } if *unit == id("2-va")))
    );
    let va2 = &t.s.units[&id("2-va")];
    let waiting = t.s.retreats.iter().any(|o| o.unit == id("2-va"));
    assert!(
        waiting || va2.hex != Some(n("0201")),
        "2 Va neither moved nor waits: {events:?}"
    );
    // White's c, not in the way, is left alone.
    assert_eq!(t.hex("whites-c"), Some(n("0102")));
    // Answer every retreat still waiting with its default.
    for _ in 0..8 {
        let Some(o) = t.s.retreats.first().cloned() else {
            break;
        };
        let d = crate::gbacw::ruleset::combat::effects::default_retreat(&t.rs, &t.s, &o);
        t.roll(o.seat, d, 5);
    }
    assert!(t.s.retreats.is_empty());
    assert_ne!(t.hex("2-va"), Some(n("0201")));
}

#[test]
fn case_14_3_a_routed_friend_displaced_routs_again_three_hexes_without_a_check() {
    let mut t = cornered();
    t.s.units
        .get_mut(&id("2-va"))
        .unwrap()
        .status
        .markers
        .insert(Marker::Rout);
    let (events, _) = t.roll(REBEL, retreat("10-va", &["0201"]), 3);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, GbacwEvent::MoraleChecked { unit, .. } if *unit == id("2-va")))
    );
    for _ in 0..8 {
        let Some(o) = t.s.retreats.first().cloned() else {
            break;
        };
        let d = crate::gbacw::ruleset::combat::effects::default_retreat(&t.rs, &t.s, &o);
        t.roll(o.seat, d, 5);
    }
    let grid = &t.rs.game().map.grid;
    let at = t.hex("2-va").expect("2 Va has room to rout");
    assert_eq!(grid.distance(n("0201"), at), 3);
}

#[test]
fn case_14_3_unlimbered_guns_are_not_displaced() {
    let mut t = cornered();
    t.put("aleghny", "0201", "s", Formation::Unlimbered);
    t.s.units.get_mut(&id("2-va")).unwrap().hex = None;
    let (_, _) = t.roll(REBEL, retreat("10-va", &["0201"]), 3);
    assert_eq!(t.hex("aleghny"), Some(n("0201")));
    assert_eq!(t.hex("10-va"), Some(n("0201")));
}

/// GBACW 14.4, 13.31: a unit waiting for its owner's choice of a one-hex
/// melee retreat that routs meanwhile keeps one order, now the three-hex
/// rout; answering it once moves it three hexes (two orders would have
/// been answered by one move, the rout lost).
#[test]
fn case_14_4_a_unit_waiting_to_retreat_that_routs_keeps_one_order_the_rout() {
    use crate::engine::Ruleset;
    use crate::gbacw::retreat::RetreatKind;
    use crate::gbacw::ruleset::combat::effects::{default_retreat, retreat};
    use crate::gbacw::ruleset::combat::{Roller, Unfold};
    let mut t = T::empty();
    t.put("10-va", "0505", "s", Formation::Line);
    t.s.retreats.push(RetreatOrder {
        unit: id("10-va"),
        seat: REBEL,
        length: 1,
        rout: false,
        check: false,
        lost: false,
        displaced: false,
    });
    let events = {
        let mut dice = crate::engine::Dice::none();
        let mut roll = Roller::new(&mut dice);
        let mut u = Unfold::new(&t.s);
        retreat(&t.rs, &mut u, &mut roll, &id("10-va"), 3, RetreatKind::Rout);
        u.events
    };
    assert_eq!(
        events,
        vec![GbacwEvent::RetreatOrdered(RetreatOrder {
            unit: id("10-va"),
            seat: REBEL,
            length: 3,
            rout: true,
            check: false,
            lost: false,
            displaced: false,
        })]
    );
    for e in &events {
        t.rs.evolve(&mut t.s, e);
    }
    assert_eq!(t.s.retreats.len(), 1, "one order, not two");
    let order = t.s.retreats[0].clone();
    let d = default_retreat(&t.rs, &t.s, &order);
    let GbacwAction::Retreat { path, .. } = &d else {
        panic!("{d:?}")
    };
    assert_eq!(path.len(), 3, "the rout's three hexes");
    t.roll(REBEL, d, 1);
    assert!(t.s.retreats.is_empty());
    assert_ne!(t.hex("10-va"), Some(n("0505")));
}

/// Corinth, every counter off the map but these: `unit` in 0627, 1 Ala
/// in Redan E (0527), and unlimbered guns (never displaced, 14.3) on every
/// other neighbour of 0627, so the redan is its only way out.
fn by_the_redan(unit: &str) -> T {
    use super::corinth::started;
    let mut t = started();
    for u in t.s.units.values_mut() {
        u.hex = None;
    }
    for l in t.s.leaders.values_mut() {
        l.hex = None;
    }
    let others: Vec<HexNumber> =
        t.rs.game()
            .map
            .grid
            .neighbours_on_map(n("0627"))
            .into_iter()
            .map(|(_, h)| h)
            .filter(|h| *h != n("0527"))
            .collect();
    let guns = [
        "hoxton", "sengstak", "watson-a", "watson-b", "hudson", "mcclung",
    ];
    for (g, h) in guns.iter().zip(&others) {
        t.put(g, &h.to_string(), "n", Formation::Unlimbered);
    }
    t.put("1-ala", "0527", "n", Formation::Line);
    t.put(unit, "0627", "n", Formation::Line);
    t
}

#[test]
fn case_14_3_a_retreat_may_end_on_friends_only_where_the_hex_holds_the_unit_alone() {
    // Found by a random Corinth game into the second day: 33 Miss (6)
    // retreated onto a friend in Redan E (0527, four infantry points at
    // most: Corinth 23.27), displaced it and stood there over the limit.
    use crate::gbacw::retreat::RetreatKind;
    use crate::gbacw::ruleset::combat::effects::retreat_options;
    let to_redan = |unit: &str| {
        let t = by_the_redan(unit);
        retreat_options(&t.rs, &t.s, &id(unit), 1, RetreatKind::MeleeResult)
            .iter()
            .any(|p| p.last() == Some(&n("0527")))
    };
    // 4 Ala Bn (3) may displace 1 Ala and stand in the redan; 33 Miss (6)
    // may not.
    assert!(to_redan("4-ala-bn"));
    assert!(!to_redan("33-miss"));
}
