//! Leader succession and battlefield promotion (17.8–17.85) through
//! `decide` and `evolve`, in the owner's Final Command Phase.

use super::*;
use crate::gbacw::ruleset::combat::succession::{
    brigade_commander, brigade_ratings, division_commander,
};
use crate::gbacw::ruleset::state::{Casualty, SuccessionKind, SuccessionRecord};

/// The test battle with `leader` lost (killed) before the Union Final
/// Command Phase, which the table now stands at.
fn lost(leader: &str) -> T {
    let mut t = T::new();
    let l = t.s.leaders.get_mut(&id(leader)).unwrap();
    l.hex = None;
    l.casualty = Some(Casualty::Killed);
    t.advance_to(UNION, Phase::FinalCommand);
    t
}

fn replace(lost: &str, hex: &str) -> GbacwAction {
    GbacwAction::ReplaceLeader {
        lost: id(lost),
        hex: n(hex),
    }
}

fn record(events: &[GbacwEvent]) -> Vec<SuccessionRecord> {
    events
        .iter()
        .filter_map(|e| match e {
            GbacwEvent::LeaderSucceeded(r) => Some(r.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn case_17_81_a_lost_brigade_commander_flips_to_his_repl_side() {
    let mut t = lost("crawford");
    // 17.8: on any unit of his command: 10 Me is in 0306.
    assert!(
        t.rs.legal_actions(&t.s, UNION)
            .contains(&replace("crawford", "0306"))
    );
    t.refused(UNION, replace("crawford", "0405"), "GBACW 17.8");
    t.refused(REBEL, replace("crawford", "0306"), "GBACW 4.0");
    let events = t.ok(UNION, replace("crawford", "0306"));
    assert_eq!(record(&events)[0].kind, SuccessionKind::Flip);
    assert_eq!(t.hex("crawford"), Some(n("0306")));
    let l = &t.s.leaders[&id("crawford")];
    assert_eq!(l.casualty, None);
    // 17.82: the loss stays on paper for Victory Points.
    assert_eq!(
        t.s.succession.past_losses,
        vec![(id("crawford"), Casualty::Killed)]
    );
    // The REPL side's ratings: ER 3, Rally 1, promoted 4.
    let r = brigade_ratings(&t.rs, &t.s, &id("crawford")).unwrap();
    assert_eq!(
        (r.effectiveness_radius, r.rally, r.promoted_radius),
        (3, 1, Some(4))
    );
    // Nothing more is due.
    t.refused(UNION, replace("crawford", "0306"), "GBACW 17.8");
}

#[test]
fn case_17_84_successions_due_are_made_as_the_final_command_phase_ends() {
    let mut t = lost("crawford");
    let events = t.ok(UNION, GbacwAction::EndPhase);
    let r = record(&events);
    assert_eq!(r.len(), 1);
    // The first unit of his brigade by id: 10 Me.
    assert_eq!(r[0].placed, Some((id("crawford"), n("0306"))));
    assert_eq!(t.hex("crawford"), Some(n("0306")));
}

#[test]
fn case_17_8_no_succession_outside_the_final_command_phase() {
    let mut t = T::new();
    let l = t.s.leaders.get_mut(&id("crawford")).unwrap();
    l.hex = None;
    l.casualty = Some(Casualty::Killed);
    t.refused(UNION, replace("crawford", "0306"), "GBACW 17.8");
    // A leader not lost has no successor.
    let t = lost("bayard");
    t.refused(UNION, replace("crawford", "0306"), "GBACW 17.8");
}

#[test]
fn case_17_82_a_lost_replacement_is_redeployed_again_and_again() {
    let mut t = lost("crawford");
    t.ok(UNION, replace("crawford", "0306"));
    for k in 0..2 {
        t.ok(UNION, GbacwAction::EndPhase);
        let l = t.s.leaders.get_mut(&id("crawford")).unwrap();
        l.hex = None;
        l.casualty = Some(Casualty::Wounded);
        t.advance_to(UNION, Phase::FinalCommand);
        let events = t.ok(UNION, replace("crawford", "0305"));
        assert_eq!(record(&events)[0].kind, SuccessionKind::Redeploy);
        assert_eq!(t.s.succession.past_losses.len(), 2 + k);
        // The same REPL ratings each time.
        let r = brigade_ratings(&t.rs, &t.s, &id("crawford")).unwrap();
        assert_eq!(r.effectiveness_radius, 3);
    }
}

#[test]
fn case_17_83_a_lost_division_commander_is_replaced_by_promotion() {
    let mut t = lost("williams");
    let events = t.ok(UNION, GbacwAction::EndPhase);
    let r = &record(&events)[0];
    // Crawford, his only subordinate, is promoted; an anonymous
    // replacement from the pool takes Crawford's brigade (17.83).
    assert_eq!(
        r.kind,
        SuccessionKind::Promote {
            division: id("williams"),
            promoted: id("crawford"),
            stand_in: Some(id("u-repl-1")),
        }
    );
    assert_eq!(r.placed, Some((id("u-repl-1"), n("0306"))));
    assert_eq!(t.hex("u-repl-1"), Some(n("0306")));
    assert_eq!(
        brigade_commander(&t.s, &id("crawford")),
        Some(id("u-repl-1"))
    );
    // 17.85: Crawford's bracketed radius, 5.
    assert_eq!(
        division_commander(&t.rs, &t.s, &id("williams")),
        Some((id("crawford"), 5))
    );
    // Williams stays lost (his loss scores), and is not succeeded twice.
    assert_eq!(
        t.s.leaders[&id("williams")].casualty,
        Some(Casualty::Killed)
    );
    assert!(t.s.succession.replaced.contains(&id("williams")));
}

#[test]
fn case_17_85_the_promoted_commander_leads_with_his_radius_and_the_stand_in_with_his_er() {
    let mut t = lost("williams");
    t.ok(UNION, GbacwAction::EndPhase);
    // Next Union Initial Command Phase: the command check uses the stand-in
    // (ER 2) for Crawford's brigade.
    t.advance_to(UNION, Phase::InitialCommand);
    // 10 Me with the stand-in; 5 Conn three hexes off, beyond ER 2.
    t.s.leaders.get_mut(&id("u-repl-1")).unwrap().hex = Some(n("0306"));
    t.s.leaders.get_mut(&id("crawford")).unwrap().hex = Some(n("0104"));
    t.s.units.get_mut(&id("5-conn")).unwrap().hex = Some(n("0603"));
    t.ok(UNION, GbacwAction::EndPhase);
    assert!(t.s.command.out_of_command.contains(&id("5-conn")));
    assert!(!t.s.command.out_of_command.contains(&id("10-me")));
    // The stand-in is within Crawford's radius 5 of 0104: not out of radius.
    assert!(!t.s.command.out_of_radius.contains(&id("u-repl-1")));
}
