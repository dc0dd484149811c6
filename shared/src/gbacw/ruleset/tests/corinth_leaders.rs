//! Corinth 28.14 (Price affects none of Lovell's units, in every leader
//! effect) and 22.33 (a leader used to bypass a morale check stays with
//! the units), on the melee field of `corinth_melee.rs`: 9 Ark (Rust's
//! brigade, Lovell's division) in 1325 facing 52 Ill (Hackleman) in 1326,
//! the Confederate Player-Turn of Game-Turn 3.

use super::corinth_melee::{back, check_9_ark, field, gate_checks, gate_field, melee};
use super::*;
use crate::gbacw::oob::Marker;
use crate::gbacw::ruleset::corinth::command::leader_may_affect;

/// Answer whatever the last action left pending (withdrawal fire and
/// retreat fire declined, retreats by their default path (14.4, before
/// the advance), advances declined) until nothing is.
fn settle(t: &mut T, seed: u64) {
    for _ in 0..20 {
        let (seat, a) = if let Some(d) = &t.s.decision {
            (d.seat, GbacwAction::DeclineWithdrawalFire)
        } else if let Some(o) = t.s.retreat_fire.first() {
            (o.seat, GbacwAction::DeclineRetreatFire)
        } else if let Some(o) = t.s.retreats.first() {
            let a = crate::gbacw::ruleset::combat::effects::default_retreat(&t.rs, &t.s, o);
            (o.seat, a)
        } else if let Some(a) = &t.s.advance {
            (a.seat, GbacwAction::DeclineAdvance)
        } else {
            return;
        };
        t.roll(seat, a, seed);
    }
    panic!("still pending after 20 answers");
}

fn leader_hex(t: &T, leader: &str) -> Option<HexNumber> {
    t.s.leaders[&id(leader)].hex
}

// --- Corinth 28.14 ----------------------------------------------------------

#[test]
fn corinth_28_14_price_affects_no_unit_of_lovells_division_not_even_its_wagon() {
    let t = base_rs();
    let price = id("price");
    // Lovell's three brigades, their batteries and Lovell's wagon.
    for u in [
        "9-ark",
        "6-miss",
        "1-ala",
        "hudson",
        "watson-a",
        "supply-lovell",
    ] {
        assert!(!leader_may_affect(&t.rs, &price, &id(u)), "{u}");
    }
    // The Army of the West, its independents and the reserve wagon.
    for u in [
        "2-mo",
        "42-ala",
        "sengstak",
        "adams-cav",
        "supply-hebert",
        "supply-reserve",
    ] {
        assert!(leader_may_affect(&t.rs, &price, &id(u)), "{u}");
    }
    // Every other leader affects every friendly unit.
    for l in ["van-dorn", "lovell", "rust", "hebert"] {
        assert!(leader_may_affect(&t.rs, &id(l), &id("9-ark")), "{l}");
        assert!(
            leader_may_affect(&t.rs, &id(l), &id("supply-lovell")),
            "{l}"
        );
    }
}

fn base_rs() -> T {
    super::corinth_melee::base()
}

/// 9 Ark's morale check modifier (13.0) with `leader` stacked in 1325.
fn morale_modifier(leader: Option<&str>) -> i8 {
    let mut t = field(false);
    if let Some(l) = leader {
        t.corinth_leader(l, "1325");
    }
    check_9_ark(&t, 3)
        .iter()
        .find_map(|e| match e {
            GbacwEvent::MoraleChecked { unit, modifier, .. } if *unit == id("9-ark") => {
                Some(*modifier)
            }
            _ => None,
        })
        .unwrap()
}

#[test]
fn corinth_28_14_price_stacked_does_not_modify_a_lovell_units_morale_check() {
    let alone = morale_modifier(None);
    assert_eq!(morale_modifier(Some("price")), alone);
    // Van Dorn (or any other leader) does (13.0's stacked leader).
    assert_eq!(morale_modifier(Some("van-dorn")), alone - 1);
}

/// 9 Ark melees 52 Ill with `leader` stacked: the melee's attack
/// strength, once it is fought (seeds tried until the 22.2 check, if any,
/// lets it), and whether a 22.2 check was rolled.
fn attack_strength(leader: Option<&str>) -> (i32, bool) {
    for seed in 0..40 {
        let mut t = gate_field();
        if let Some(l) = leader {
            t.corinth_leader(l, "1325");
        }
        t.ok(REBEL, melee("1326", &["9-ark"]));
        t.ok(UNION, GbacwAction::StandFast);
        t.advance_to(REBEL, Phase::Melee);
        let (events, _) = t.roll(REBEL, GbacwAction::EndPhase, seed);
        let checked = !gate_checks(&events).is_empty();
        if let Some(r) = events.iter().find_map(|e| match e {
            GbacwEvent::MeleeResolved(r) if r.target == n("1326") => Some(r.clone()),
            _ => None,
        }) {
            return (r.attack, checked);
        }
    }
    panic!("the melee was never fought");
}

#[test]
fn corinth_28_14_price_neither_aids_melee_initiation_nor_adds_to_melee_strength() {
    let (alone, checked) = attack_strength(None);
    assert!(checked, "alone 9 Ark checks to melee (22.2)");
    // Price: still the 22.2 check (he cannot "aid" it), no +1 (12.4).
    assert_eq!(attack_strength(Some("price")), (alone, true));
    // Van Dorn: no check, +1.
    assert_eq!(attack_strength(Some("van-dorn")), (alone + 1, false));
}

#[test]
fn corinth_28_14_price_does_not_rally_a_broken_lovell_brigade_automatically() {
    // 25.13 / 28.12: an army commander stacked rallies a BCE-lost
    // brigade's unit automatically, "see 28.14": not Price with Rust's.
    let setup = |leader: &str| {
        let mut t = field(true);
        t.s.units
            .get_mut(&id("9-ark"))
            .unwrap()
            .status
            .markers
            .insert(Marker::Rout);
        t.corinth_leader(leader, "1325");
        t.advance_to(REBEL, Phase::Rally);
        t
    };
    let rally = GbacwAction::Rally { unit: id("9-ark") };
    let ctx = ActionContext {
        seat: REBEL,
        seq: 1,
        by_default: false,
    };
    let t = setup("van-dorn");
    assert!(!t.rs.rolls_dice(&t.s, &ctx, &rally));
    // With Price: Rust's Rally Point and a die, as if Price were not there.
    let mut t = setup("price");
    assert!(t.rs.rolls_dice(&t.s, &ctx, &rally));
    let (events, _) = t.roll(REBEL, rally, 5);
    assert_eq!(
        events[0],
        GbacwEvent::RallyPointSpent { leader: id("rust") }
    );
}

// --- Corinth 22.33 ----------------------------------------------------------

fn bindings(
    events: &[GbacwEvent],
) -> Vec<crate::gbacw::ruleset::corinth::leader_binding::LeaderBinding> {
    events
        .iter()
        .filter_map(|e| match e {
            GbacwEvent::LeaderBound(b) => Some(b.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn corinth_22_33_a_leader_who_spared_the_retreat_check_retreats_with_the_units() {
    for seed in 0..6 {
        let mut t = gate_field();
        t.put_leader("hackleman", "1326");
        t.ok(REBEL, melee("1326", &["9-ark"]));
        let (events, _) = t.roll(UNION, back(), seed);
        // No 22.1 check: Hackleman was used to bypass it.
        assert!(gate_checks(&events).is_empty());
        let b = bindings(&events);
        assert_eq!(b.len(), 1, "{events:?}");
        assert_eq!(
            (b[0].leader.clone(), b[0].units.clone()),
            (id("hackleman"), ids(&["52-ill"]))
        );
        settle(&mut t, seed);
        let at = t.hex("52-ill");
        assert!(at.is_some() && at != Some(n("1326")), "52 Ill retreated");
        assert_eq!(leader_hex(&t, "hackleman"), at, "seed {seed}");
        // The binding ends as the next Movement Phase begins.
        assert!(!t.s.leader_bindings.is_empty());
        t.advance_to(UNION, Phase::Movement);
        assert!(t.s.leader_bindings.is_empty());
    }
}

#[test]
fn corinth_22_33_a_leader_not_needed_for_the_check_is_not_bound() {
    // Without a check to bypass (meleeing a pinned unit is 22.4's
    // automatic initiation), the attacker's leader stays free.
    let mut t = gate_field();
    t.corinth_leader("rust", "1325");
    t.s.units
        .get_mut(&id("52-ill"))
        .unwrap()
        .status
        .markers
        .insert(Marker::Pin);
    t.ok(REBEL, melee("1326", &["9-ark"]));
    if t.s.rbm.is_some() {
        t.ok(UNION, GbacwAction::StandFast);
    }
    t.advance_to(REBEL, Phase::Melee);
    let (events, _) = t.roll(REBEL, GbacwAction::EndPhase, 1);
    assert!(bindings(&events).is_empty());
    // Price with Lovell's 9 Ark is never "used": he cannot exempt it.
    let mut t = gate_field();
    t.corinth_leader("price", "1325");
    t.ok(REBEL, melee("1326", &["9-ark"]));
    t.ok(UNION, GbacwAction::StandFast);
    t.advance_to(REBEL, Phase::Melee);
    let (events, _) = t.roll(REBEL, GbacwAction::EndPhase, 1);
    assert!(bindings(&events).is_empty());
    assert_eq!(gate_checks(&events).len(), 1);
}

#[test]
fn corinth_22_33_a_leader_who_spared_the_melee_check_stays_with_the_attackers() {
    // Rust with 9 Ark: no 22.2 check; whatever the melee does to 9 Ark
    // (a retreat, a rout), Rust ends in its hex. Seeds until it moved.
    let mut moved = 0;
    for seed in 0..60 {
        let mut t = gate_field();
        t.corinth_leader("rust", "1325");
        t.ok(REBEL, melee("1326", &["9-ark"]));
        t.ok(UNION, GbacwAction::StandFast);
        t.advance_to(REBEL, Phase::Melee);
        let (events, _) = t.roll(REBEL, GbacwAction::EndPhase, seed);
        assert!(gate_checks(&events).is_empty());
        let b = bindings(&events);
        assert_eq!(b.len(), 1, "{events:?}");
        assert_eq!(b[0].leader, id("rust"));
        settle(&mut t, seed);
        let Some(at) = t.hex("9-ark") else {
            continue;
        };
        let rust = leader_hex(&t, "rust");
        if rust.is_none() {
            continue; // fell in the melee (17.72)
        }
        assert_eq!(rust, Some(at), "seed {seed}");
        if at != n("1325") {
            moved += 1;
        }
        if moved >= 2 {
            return;
        }
    }
    panic!("9 Ark never left 1325 in 60 melees ({moved})");
}
