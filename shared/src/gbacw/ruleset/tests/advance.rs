//! Retreat before melee under withdrawal fire (12.83, 12.88) and the
//! advance into the vacated hex (12.85), through `decide` and `evolve`.

use super::*;
use crate::gbacw::oob::Marker;

/// 5 Conn with Crawford (0605) declares a melee on 10 Va (0705); 10 Va
/// answers by retreating one hex away. The table waits on the Union
/// seat's withdrawal fire.
fn retreating() -> (T, HexNumber) {
    let mut t = super::melee::duel_declared();
    let away = super::melee::neighbour_at(&t, "0705", "0605", 2);
    let a = GbacwAction::RetreatBeforeMelee {
        units: ids(&["10-va"]),
        path: vec![away],
    };
    let ctx = crate::engine::ActionContext {
        seat: REBEL,
        seq: 1,
        by_default: false,
    };
    // The morale check waits for the fire's answer: no dice now.
    assert!(!t.rs.rolls_dice(&t.s, &ctx, &a));
    t.ok(REBEL, a);
    (t, away)
}

#[test]
fn case_12_83_retreat_before_melee_draws_withdrawal_fire() {
    let (t, _) = retreating();
    let d =
        t.s.decision
            .clone()
            .expect("12.83: withdrawal fire offered");
    assert_eq!(d.seat, UNION);
    assert_eq!(d.firers, ids(&["5-conn"]));
    assert_eq!(d.targets, ids(&["10-va"]));
    assert_eq!(t.hex("10-va"), Some(n("0705")));
    let pending = t.rs.pending(&t.s);
    assert_eq!(pending[0].default, GbacwAction::DeclineWithdrawalFire);
    assert!(
        t.rs.legal_actions(&t.s, UNION)
            .contains(&GbacwAction::WithdrawalFire {
                firers: ids(&["5-conn"])
            })
    );
}

#[test]
fn case_12_88_a_unit_pinned_by_the_withdrawal_fire_stands_and_takes_the_melee() {
    for seed in 0..300 {
        let (mut t, _) = retreating();
        let (events, _) = t.roll(
            UNION,
            GbacwAction::WithdrawalFire {
                firers: ids(&["5-conn"]),
            },
            seed,
        );
        let va = &t.s.units[&id("10-va")];
        if va.status.markers.contains(&Marker::Pin) && va.hex == Some(n("0705")) {
            // It stays, no advance is offered, and the melee stands.
            assert!(t.s.advance.is_none());
            assert_eq!(t.s.melees.len(), 1);
            assert!(!events.iter().any(
                |e| matches!(e, GbacwEvent::UnitRetreated { unit, .. } if *unit == id("10-va"))
            ));
            return;
        }
    }
    panic!("no seed pinned 10 Va");
}

#[test]
fn case_12_85_the_would_be_attackers_may_advance_into_the_vacated_hex() {
    for seed in 0..100 {
        let (mut t, away) = retreating();
        t.roll(UNION, GbacwAction::DeclineWithdrawalFire, seed);
        let va = &t.s.units[&id("10-va")];
        if va.hex != Some(away) {
            continue; // routed on by its morale check (12.83)
        }
        let offer = t.s.advance.clone().expect("12.85: the advance is offered");
        assert_eq!(offer.seat, UNION);
        assert_eq!(offer.hex, n("0705"));
        assert_eq!(offer.units, ids(&["5-conn"]));
        assert_eq!(t.rs.pending(&t.s)[0].default, GbacwAction::DeclineAdvance);
        t.refused(
            UNION,
            GbacwAction::Advance {
                units: ids(&["10-me"]),
            },
            "GBACW 12.85",
        );
        t.ok(
            UNION,
            GbacwAction::Advance {
                units: ids(&["5-conn"]),
            },
        );
        assert_eq!(t.hex("5-conn"), Some(n("0705")));
        assert!(t.s.advance.is_none());
        // It may not initiate another melee this turn (12.85, 12.26).
        t.put("2-va", "0805", "nw", Formation::Line);
        t.face_towards("5-conn", "0805");
        let e = t
            .decide(
                UNION,
                &GbacwAction::DeclareMelee {
                    target: n("0805"),
                    attackers: ids(&["5-conn"]),
                },
            )
            .unwrap_err();
        // (Refused under 12.85 itself since the second reading, t1114;
        // 12.26 holds it too.)
        assert_eq!(e.rule, "GBACW 12.85");
        return;
    }
    panic!("no seed kept 10 Va in hand");
}
