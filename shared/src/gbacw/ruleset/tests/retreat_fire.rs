//! Retreat fire (10.2) through `decide` and `evolve`.

use super::*;
use crate::gbacw::facing::ZocUse;
use crate::gbacw::oob::Marker;
use crate::gbacw::ruleset::board::Board;
use crate::gbacw::ruleset::state::RetreatOrder;

/// 10 Va, routed, in the corner hex 0101 must retreat one hex; 10 Me holds
/// 0102, the other way out, and 5 Conn stands where its Zone of Control
/// holds 0201 but not 0101. Returns the table with the order waiting.
fn into_the_zoc() -> T {
    let grid_hexes: Vec<HexNumber> = {
        let t = T::new();
        t.rs.game()
            .map
            .grid
            .neighbours_on_map(n("0201"))
            .into_iter()
            .map(|(_, h)| h)
            .collect()
    };
    for at in grid_hexes {
        if at == n("0101") {
            continue;
        }
        for (f, g) in (0..36).map(|k| (k / 6, k % 6)) {
            let mut t = T::empty();
            // 10 Me blocks the other way out, 0102, facing away from 0201.
            t.put("10-me", "0102", "n", Formation::Line);
            t.s.units.get_mut(&id("10-me")).unwrap().facing =
                crate::gbacw::facing::Facing::from_index(g).unwrap();
            t.put("10-va", "0101", "s", Formation::Line);
            t.s.units
                .get_mut(&id("10-va"))
                .unwrap()
                .status
                .markers
                .insert(Marker::Rout);
            t.put("5-conn", &at.to_string(), "n", Formation::Line);
            t.s.units.get_mut(&id("5-conn")).unwrap().facing =
                crate::gbacw::facing::Facing::from_index(f).unwrap();
            let zoc = Board::new(&t.rs, &t.s).zoc_of(
                &id("5-conn"),
                ZocUse::WithdrawalAndRetreat {
                    mover_mounted: false,
                },
            );
            let other = Board::new(&t.rs, &t.s).zoc_of(
                &id("10-me"),
                ZocUse::WithdrawalAndRetreat {
                    mover_mounted: false,
                },
            );
            if zoc.contains(&n("0201")) && !zoc.contains(&n("0101")) && !other.contains(&n("0201"))
            {
                t.s.retreats.push(RetreatOrder {
                    unit: id("10-va"),
                    seat: REBEL,
                    length: 1,
                    rout: true,
                    check: false,
                    lost: false,
                    displaced: false,
                });
                return t;
            }
        }
    }
    panic!("no placement of 5 Conn fits");
}

fn retreat_to_0201() -> GbacwAction {
    GbacwAction::Retreat {
        unit: id("10-va"),
        path: vec![n("0201")],
    }
}

#[test]
fn case_10_2_entering_an_enemy_zoc_in_retreat_offers_retreat_fire() {
    let mut t = into_the_zoc();
    let legal = t.rs.legal_actions(&t.s, REBEL);
    if !legal.contains(&retreat_to_0201()) {
        panic!("0201 is not a retreat path: {legal:?}");
    }
    t.ok(REBEL, retreat_to_0201());
    // The retreat halts where it entered the ZOC; the Union seat answers.
    assert_eq!(t.hex("10-va"), Some(n("0201")));
    let o = t.s.retreat_fire[0].clone();
    assert_eq!((o.seat, o.hex), (UNION, n("0201")));
    assert_eq!(o.firers, ids(&["5-conn"]));
    assert_eq!(t.rs.acting_seat(&t.s), Some(UNION));
    assert_eq!(
        t.rs.pending(&t.s)[0].default,
        GbacwAction::DeclineRetreatFire
    );
    t.refused(REBEL, GbacwAction::EndPhase, "GBACW 10.2");
    assert!(
        t.rs.legal_actions(&t.s, UNION)
            .contains(&GbacwAction::RetreatFire {
                firers: ids(&["5-conn"])
            })
    );
    t.ok(UNION, GbacwAction::DeclineRetreatFire);
    assert!(t.s.retreat_fire.is_empty());
}

#[test]
fn case_10_2_routed_units_hit_by_retreat_fire_do_not_rout_again() {
    let mut seen = false;
    for seed in 0..200 {
        let mut t = into_the_zoc();
        t.ok(REBEL, retreat_to_0201());
        let (events, _) = t.roll(
            UNION,
            GbacwAction::RetreatFire {
                firers: ids(&["5-conn"]),
            },
            seed,
        );
        assert!(
            events
                .iter()
                .any(|e| matches!(e, GbacwEvent::FireResolved(r) if r.target == n("0201")))
        );
        let hit = events
            .iter()
            .any(|e| matches!(e, GbacwEvent::UnitHit { unit, .. } if *unit == id("10-va")));
        if hit && t.hex("10-va").is_some() {
            // Casualties, but no second rout: it stays where the retreat ended.
            assert_eq!(t.hex("10-va"), Some(n("0201")), "seed {seed}");
            assert!(t.s.retreats.is_empty());
            seen = true;
            break;
        }
    }
    assert!(seen, "no seed hit 10 Va and left it alive");
}
