//! Corinth 24.21 with GBACW 12.74, 14.3, 12.8x: a battery crew away from
//! its guns among friends (`corinth/crew_melee.rs`, `corinth/crew_stack.rs`).
//! The crew field of `corinth_crews.rs`: Hudson's guns (Confederate) in
//! 1423 under the Crew marker, the crew away in 1420; here 9 Ark shares
//! 1420 with it and 52 Ill (Union) in 1419 melees the hex.

use super::corinth_crews::{at_phase, crew_field};
use super::*;
use crate::dice::DiceStream;
use crate::gbacw::oob::Crew;
use crate::gbacw::retreat::RetreatKind;
use crate::gbacw::ruleset::combat::displacement::displace;
use crate::gbacw::ruleset::combat::effects::retreat_options;
use crate::gbacw::ruleset::combat::{Roller, Unfold};
use crate::gbacw::scenario::HookKind;

fn stack_field(rallied: bool, ark_strength: u8) -> T {
    let mut t = crew_field(Phase::Movement);
    if rallied {
        t.s.crews_rallied.insert(id("hudson"));
    }
    t.corinth_unit("9-ark", "1420", Formation::Line);
    t.face_towards("9-ark", "1419");
    t.s.units.get_mut(&id("9-ark")).unwrap().status.strength = ark_strength;
    t.corinth_unit("52-ill", "1419", Formation::Line);
    t.face_towards("52-ill", "1420");
    at_phase(&mut t, UNION, Phase::RetreatBeforeMelee);
    t
}

fn report(events: &[GbacwEvent]) -> crate::gbacw::ruleset::event::MeleeReport {
    events
        .iter()
        .find_map(|e| match e {
            GbacwEvent::MeleeResolved(r) => Some(r.clone()),
            _ => None,
        })
        .expect("the melee is fought")
}

fn crew_moved(events: &[GbacwEvent]) -> Option<Vec<HexNumber>> {
    events.iter().find_map(|e| match e {
        GbacwEvent::CrewMoved { battery, path, .. } if *battery == id("hudson") => {
            Some(path.clone())
        }
        _ => None,
    })
}

#[test]
fn corinth_24_21_a_crew_among_friends_defends_their_hex_with_them() {
    // 15.1 "line infantry for all purposes", 12.74 "stacked with a gun
    // crew in melee": the rallied crew is one of the defenders, at 1
    // (12.12); its guns in 1423 are not in the melee.
    let t = stack_field(true, 3);
    let (_, events) = super::corinth_crew_melee::melee_crew(&t, 1);
    let r = report(&events);
    assert_eq!(r.defenders, ids(&["9-ark", "hudson"]));
    let mut off = stack_field(true, 3);
    off.rs
        .game
        .scenario
        .hooks
        .retain(|h| h.kind != HookKind::CrewStackMelee);
    let (_, e_off) = super::corinth_crew_melee::melee_crew(&off, 1);
    let r_off = report(&e_off);
    assert_eq!(r_off.defenders, ids(&["9-ark"]));
    // Both ratings are 4 (no morale edge changes): the crew adds its 1.
    assert_eq!(r.defence, r_off.defence + 1);
}

#[test]
fn case_12_74_the_friends_take_the_losses_before_the_crew() {
    // A K or a C-R on the hex: the point comes off 9 Ark, never the crew
    // while 9 Ark has points (12.74 "regardless of the stacking order").
    let t = stack_field(true, 3);
    let (after, events) = (0..200)
        .map(|s| super::corinth_crew_melee::melee_crew(&t, s))
        .find(|(x, _)| x.s.units[&id("9-ark")].status.strength < 3)
        .expect("a loss on the defenders within 200 seeds");
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, GbacwEvent::CrewHit { unit, .. } if *unit == id("hudson")))
    );
    assert_eq!(after.s.units[&id("hudson")].status.crew, Crew::Full);
    assert_eq!(after.hex("hudson"), Some(n("1423")));
}

#[test]
fn corinth_24_21_a_crew_whose_friends_are_wiped_out_takes_the_rest() {
    // 9 Ark at 1 point and a routed half crew: a C2 (or a K2) reaches the
    // crew once 9 Ark is gone (12.74); its last step ends it and the
    // battery leaves play (24.22), by a C captured.
    let mut t = stack_field(false, 1);
    t.s.units.get_mut(&id("hudson")).unwrap().status.crew = Crew::Half;
    let found = (0..300)
        .map(|s| super::corinth_crew_melee::melee_crew(&t, s))
        .find(|(_, e)| {
            e.iter()
                .any(|x| matches!(x, GbacwEvent::CrewHit { unit, .. } if *unit == id("hudson")))
        });
    let (after, events) = found.expect("the crew hit within 300 seeds");
    assert_eq!(after.hex("9-ark"), None);
    assert_eq!(after.hex("hudson"), None);
    assert!(after.s.crews_away.is_empty());
    assert!(events.iter().any(|e| matches!(
        e,
        GbacwEvent::UnitRemoved { unit, .. } if *unit == id("hudson")
    )));
}

#[test]
fn case_12_92_a_crew_retreats_with_its_friends_and_checks_morale() {
    // "the affected unit(s) must retreat": 9 Ark retreats and so does the
    // rallied crew, the same number of hexes from 1420 (never into its
    // guns' hex where another way exists), then each checks (12.92).
    let t = stack_field(true, 3);
    let (after, events) = (0..200)
        .map(|s| super::corinth_crew_melee::melee_crew(&t, s))
        .find(|(_, e)| crew_moved(e).is_some())
        .expect("a retreat result within 200 seeds");
    let path = crew_moved(&events).unwrap();
    assert!(!path.contains(&n("1423")));
    assert_ne!(after.s.crews_away.get(&id("hudson")), Some(&n("1420")));
    // 9 Ark's retreat is ordered (its owner picks the path, 14.4); the
    // crew's is the engine's, as a lone crew's is.
    assert!(events.iter().any(|e| matches!(
        e,
        GbacwEvent::RetreatOrdered(o) if o.unit == id("9-ark")
    )));
    assert_eq!(path.len(), 2);
    assert!(events.iter().any(|e| matches!(
        e,
        GbacwEvent::MoraleChecked { unit, .. } if *unit == id("hudson")
    )));
    // Its guns stay where they are.
    assert_eq!(after.hex("hudson"), Some(n("1423")));
}

#[test]
fn case_12_92_a_routed_crew_among_retreating_friends_routs_again() {
    // Routed (13.33): a retreat result routs it again three hexes, no check.
    let t = stack_field(false, 3);
    let (after, events) = (0..200)
        .map(|s| super::corinth_crew_melee::melee_crew(&t, s))
        .find(|(x, _)| x.s.crews_away.get(&id("hudson")) != Some(&n("1420")))
        .expect("a retreat result within 200 seeds");
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, GbacwEvent::MoraleChecked { unit, .. } if *unit == id("hudson")))
    );
    if let Some(away) = after.s.crews_away.get(&id("hudson")) {
        assert_eq!(after.rs.game.map.grid.distance(n("1420"), *away), 3);
    }
}

// --- 14.3: a crew away in the way of a friend's retreat --------------------

/// The events of `f` run on `t`'s state with dice from `seed`.
fn unfold(t: &T, seed: &[u8], f: impl FnOnce(&mut Unfold, &mut Roller)) -> Vec<GbacwEvent> {
    let mut dice = Dice::from_stream(DiceStream::from_seed(seed));
    let mut u = Unfold::new(&t.s);
    let mut roll = Roller::new(&mut dice);
    f(&mut u, &mut roll);
    u.events
}

/// 9 Ark in 1421, next to the crew in 1420, retreats onto it.
fn onto_crew(t: &T, seed: &[u8]) -> (T, Vec<GbacwEvent>) {
    let events = unfold(t, seed, |u, roll| {
        displace(&t.rs, u, roll, &id("9-ark"), &[n("1420")]);
    });
    let mut x = T {
        rs: t.rs.clone(),
        s: t.s.clone(),
        script: Default::default(),
    };
    for e in &events {
        x.rs.evolve(&mut x.s, e);
    }
    (x, events)
}

fn retreat_field(rallied: bool) -> T {
    let mut t = crew_field(Phase::Movement);
    if rallied {
        t.s.crews_rallied.insert(id("hudson"));
    }
    t.corinth_unit("9-ark", "1421", Formation::Line);
    t
}

#[test]
fn case_14_3_a_retreat_avoids_a_friendly_crew_where_another_path_is_open() {
    // "A unit may not be retreated through a hex containing a Friendly
    // unit if there is another path open to it": the crew in 1420 is one
    // (15.1, line infantry for all purposes), though it does not stack.
    let t = retreat_field(true);
    let ends = |t: &T| -> Vec<HexNumber> {
        retreat_options(&t.rs, &t.s, &id("9-ark"), 1, RetreatKind::Rout)
            .iter()
            .filter_map(|p| p.last().copied())
            .collect()
    };
    let with = ends(&t);
    assert!(!with.is_empty());
    assert!(!with.contains(&n("1420")), "{with:?}");
    // Without the hook the crew is not in the way at all.
    let mut off = retreat_field(true);
    off.rs
        .game
        .scenario
        .hooks
        .retain(|h| h.kind != HookKind::CrewDisplaced);
    assert!(ends(&off).contains(&n("1420")), "{:?}", ends(&off));
    let (_, events) = onto_crew(&off, b"crew displaced off");
    assert!(events.is_empty(), "{events:?}");
}

#[test]
fn case_14_3_a_rallied_crew_retreated_onto_is_displaced_one_hex_and_checks() {
    // "that Friendly unit is retreated one hex and the owning Player must
    // conduct a morale check": from 1420, not into its guns' 1423.
    let t = retreat_field(true);
    let (after, events) = onto_crew(&t, b"crew displaced rallied");
    let path = crew_moved(&events).expect("the crew is displaced");
    assert_eq!(path.len(), 1);
    assert_eq!(t.rs.game.map.grid.distance(n("1420"), path[0]), 1);
    assert_ne!(path[0], n("1423"));
    assert!(events.iter().any(|e| matches!(
        e,
        GbacwEvent::MoraleChecked { unit, rating: 4, .. } if *unit == id("hudson")
    )));
    assert_ne!(after.s.crews_away.get(&id("hudson")), Some(&n("1420")));
    // The guns stay in 1423 under the Crew marker.
    assert_eq!(after.hex("hudson"), Some(n("1423")));
}

#[test]
fn case_14_3_a_routed_crew_retreated_onto_routs_again_three_hexes() {
    // "(If the unit retreated onto is already routed, it "routs" again and
    // must be retreated an additional three hexes)": no check (13.33).
    let t = retreat_field(false);
    let (after, events) = onto_crew(&t, b"crew displaced routed");
    assert!(
        events.iter().any(
            |e| matches!(e, GbacwEvent::CrewRouted { battery, .. } if *battery == id("hudson"))
        )
    );
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, GbacwEvent::MoraleChecked { unit, .. } if *unit == id("hudson")))
    );
    if let Some(away) = after.s.crews_away.get(&id("hudson")) {
        assert_eq!(after.rs.game.map.grid.distance(n("1420"), *away), 3);
    }
}

#[test]
fn case_14_3_a_crew_below_friends_checks_only_if_the_top_unit_routs() {
    // "If a stack is displaced, a morale check is performed on the top
    // unit. If it does not rout, the other units need not make morale
    // checks": 7 Ky shares 1420 with the rallied crew; both are displaced,
    // the crew checks only when 7 Ky's check routed it.
    let mut t = retreat_field(true);
    t.corinth_unit("7-ky", "1420", Formation::Line);
    let mut seen = (false, false);
    for k in 0..40u8 {
        let (_, events) = onto_crew(&t, &[b'c', k]);
        let top_routed = events.iter().any(|e| {
            matches!(e, GbacwEvent::MoraleChecked { unit, failed: true, .. } if *unit == id("7-ky"))
        });
        let crew_checked = events
            .iter()
            .any(|e| matches!(e, GbacwEvent::MoraleChecked { unit, .. } if *unit == id("hudson")));
        assert!(crew_moved(&events).is_some(), "the crew is displaced too");
        assert_eq!(crew_checked, top_routed, "{events:?}");
        if top_routed {
            seen.0 = true;
        } else {
            seen.1 = true;
        }
    }
    assert!(seen.0 && seen.1, "both cases within 40 seeds");
}
