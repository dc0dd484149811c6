use super::*;
use crate::gbacw::oob::Morale;
use crate::gbacw::tables::{FireResult, Tables};

fn dice(rolls: &[u8]) -> impl FnMut() -> u8 + '_ {
    let mut it = rolls.iter().copied();
    move || {
        it.next()
            .expect("the rule rolled more dice than the test gave")
    }
}

const NONE: MoraleMods = MoraleMods {
    leader: false,
    over_half_lost: false,
    enfiladed: false,
};

#[test]
fn case_13_21_rout_when_die_exceeds_morale() {
    assert!(!morale_check(3, 3, NONE));
    assert!(morale_check(3, 4, NONE));
}

#[test]
fn case_13_23_leader_subtracts_one() {
    let m = MoraleMods {
        leader: true,
        ..NONE
    };
    assert!(!morale_check(3, 4, m));
}

#[test]
fn case_13_24_over_half_lost_adds_one() {
    let m = MoraleMods {
        over_half_lost: true,
        ..NONE
    };
    assert!(morale_check(3, 3, m));
}

#[test]
fn case_13_26_enfilading_fire_adds_one() {
    let m = MoraleMods {
        enfiladed: true,
        ..NONE
    };
    assert!(morale_check(3, 3, m));
    let both = MoraleMods {
        enfiladed: true,
        leader: true,
        over_half_lost: false,
    };
    assert!(!morale_check(3, 3, both));
}

#[test]
fn case_13_14_green_units_roll_on_the_elephant_table() {
    let t = Tables::load(crate::gbacw::tables::tests::TABLES).unwrap();
    assert_eq!(sees_the_elephant(Morale::Green, &t.elephant, 11), Some(5));
    assert_eq!(
        sees_the_elephant(Morale::Rated(2), &t.elephant, 11),
        Some(2)
    );
    assert_eq!(rating(Morale::Green), None);
}

#[test]
fn case_13_13_numeric_ratings_never_change() {
    let t = Tables::load(crate::gbacw::tables::tests::TABLES).unwrap();
    for roll in 2..=12 {
        assert_eq!(
            sees_the_elephant(Morale::Rated(4), &t.elephant, roll),
            Some(4)
        );
    }
}

#[test]
fn case_11_21_ammo_depleted_on_one_or_two() {
    assert!(ammo_depleted(1) && ammo_depleted(2));
    assert!(!ammo_depleted(3));
}

#[test]
fn case_9_87_p_or_r_only_on_a_failed_check() {
    let pin = resolve_fire_result(FireResult::MaybePin, 3, NONE, dice(&[4]));
    assert_eq!(
        pin,
        FireOutcome {
            losses: 0,
            pinned: true,
            routed: false
        }
    );
    let nothing = resolve_fire_result(FireResult::MaybeRout, 3, NONE, dice(&[3]));
    assert_eq!(nothing, FireOutcome::default());
    let rout = resolve_fire_result(FireResult::MaybeRout, 3, NONE, dice(&[6]));
    assert!(rout.routed);
}

#[test]
fn case_9_83_pin_or_rout_always_does_one() {
    assert!(resolve_fire_result(FireResult::PinOrRout, 3, NONE, dice(&[3])).pinned);
    assert!(resolve_fire_result(FireResult::PinOrRout, 3, NONE, dice(&[4])).routed);
    // +1 enfiladed, -1 with a leader.
    let enf = MoraleMods {
        enfiladed: true,
        ..NONE
    };
    assert!(resolve_fire_result(FireResult::PinOrRout, 3, enf, dice(&[3])).routed);
}

#[test]
fn case_9_81_losses_then_a_morale_check() {
    let r = resolve_fire_result(
        FireResult::Loss {
            points: 2,
            then_pin_check: false,
        },
        4,
        NONE,
        dice(&[2]),
    );
    assert_eq!(
        r,
        FireOutcome {
            losses: 2,
            pinned: false,
            routed: false
        }
    );
}

#[test]
fn case_9_88_star_rolls_again_for_a_pin() {
    let star = FireResult::Loss {
        points: 1,
        then_pin_check: true,
    };
    // Passes the check (2), then 5 > 4: pinned.
    assert_eq!(
        resolve_fire_result(star, 4, NONE, dice(&[2, 5])),
        FireOutcome {
            losses: 1,
            pinned: true,
            routed: false
        }
    );
    // Passes, then 4 is not greater: nothing more.
    assert!(!resolve_fire_result(star, 4, NONE, dice(&[2, 4])).pinned);
    // Routs: no second roll.
    assert_eq!(
        resolve_fire_result(star, 4, NONE, dice(&[6])),
        FireOutcome {
            losses: 1,
            pinned: false,
            routed: true
        }
    );
}

#[test]
fn case_13_22_losses_are_applied_before_the_rout_check() {
    // The outcome carries both; the loss is never dropped by a rout.
    let r = resolve_fire_result(
        FireResult::Loss {
            points: 3,
            then_pin_check: false,
        },
        1,
        NONE,
        dice(&[6]),
    );
    assert_eq!((r.losses, r.routed), (3, true));
}
