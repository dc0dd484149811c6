//! GBACW 8.0: what a stack over its limits may do before the Movement
//! Phase ends ("stacking restrictions apply only at the end of a Movement
//! or Combat Phase"), written from the text before the code: a stop over
//! the limits out of reach of enemy fire is mended and the phase ends; a
//! stop over them where enemy fire could pin it (9.84) is refused.
//!
//! Geometry (flat-topped hexes, even columns half a hex lower): 0406's
//! neighbours are 0405 n, 0506 ne, 0507 se, 0407 s, 0307 sw, 0306 nw.
//! Clear terrain holds 12 points (8.18).

use super::*;
use crate::gbacw::oob::Marker;
use crate::gbacw::testkit::Position;

fn inf(id: &str) -> String {
    format!("infantry {id} strength=4 morale=4 weapon=R")
}

/// P, Q and R (4 points each, 12: clear's limit) in 0406 facing north, A
/// (4) behind them in 0407; the Confederate Z in 0405 facing `z_faces`
/// ("s": 0406 is its front hex, in its Zone of Control; "n": 0406 is
/// behind it, out of its Zone of Control). Union Movement Phase.
fn twelve_in_0406(z_faces: &str) -> T {
    twelve_in_0406_position(z_faces).build_at(1, UNION, Phase::Movement)
}

fn twelve_in_0406_position(z_faces: &str) -> Position {
    Position::new(8, 8)
        .union(&inf("p"))
        .union(&inf("q"))
        .union(&inf("r"))
        .union(&inf("a"))
        .confederate(&inf("z"))
        .place("p", "0406", "n", "line")
        .place("q", "0406", "n", "line")
        .place("r", "0406", "n", "line")
        .place("a", "0407", "n", "line")
        .place("z", "0405", z_faces, "line")
}

/// GBACW 8.0: "There is no cost in Movement Points to stack or unstack,
/// and stacking restrictions apply only at the end of a Movement or Combat
/// Phase." The ordinary case: A stops in 0406 (16 points of 12) where no
/// enemy could fire on the stack (Z faces away: 0406 is out of its Zone
/// of Control, 10.1); the phase may not end so (8.11), R leaves (no
/// withdrawal fire: no enemy Zone of Control to leave), and it ends with
/// 12 points in 0406.
#[test]
fn case_8_0_a_stop_over_the_limits_out_of_reach_is_mended_and_the_phase_ends() {
    let mut t = twelve_in_0406("n");
    t.mv(UNION, &["a"], &["0406"]);
    let e = t.refused(UNION, GbacwAction::EndPhase, "GBACW 8.11");
    assert!(e.message.contains("before the Movement Phase ends"), "{e}");
    let events = t.mv(UNION, &["r"], &["0507"]);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, GbacwEvent::WithdrawalFireOffered(_))),
        "{events:?}"
    );
    t.ok(UNION, GbacwAction::EndPhase);
    assert_eq!(t.hex("a"), Some(n("0406")));
    assert_eq!(t.hex("r"), Some(n("0507")));
}

/// GBACW 8.0 with 9.84 and 10.13, 10.14: the edge. 0406 is in Z's Zone of
/// Control: any unit leaving it draws withdrawal fire on those who stay
/// (10.14: "the unit(s) remaining in the hex suffers withdrawal fire"),
/// and a pin pins them all ("If any unit in a stack becomes pinned, all
/// units in that hex are pinned", "Units in a pinned hex may not move"),
/// so the stack could never be brought within its limits before the
/// phase ends. The stop over the limits there is refused, in words
/// citing 8.0; a stop within them there is not.
#[test]
fn case_8_0_a_stop_over_the_limits_in_an_enemy_zoc_is_refused() {
    let mut t = twelve_in_0406("s");
    t.refused_saying(UNION, mv(&["a"], &["0406"]), "GBACW 8.0", "Zone of Control");
    let e = t.decide(UNION, &mv(&["a"], &["0406"])).unwrap_err();
    assert!(e.message.contains("stacking limits"), "{e}");
    assert!(e.message.contains("pin"), "{e}");
    // Within the limits (R elsewhere: 12 points) the same stop is an
    // ordinary one.
    t.put("r", "0507", "n", Formation::Line);
    t.mv(UNION, &["a"], &["0406"]);
    assert_eq!(t.hex("a"), Some(n("0406")));
}

/// GBACW 8.0 with 6.23: "If artillery either limbers or unlimbers ...
/// within range and Line of Sight of any Enemy small-arms unit ... those
/// Enemy small-arms units may fire at the battery" ("only the artillery
/// battery is affected (except pinned results)"). A stack over its limits
/// out of any enemy Zone of Control but in range and sight of enemy small
/// arms can still not be pinned by that fire: no unit in a hex over its
/// limits may change formation (8.11 binds the change itself), so the
/// battery never draws it before the stack is mended.
#[test]
fn case_8_0_a_battery_in_a_stack_over_its_limits_draws_no_limbering_fire() {
    let mut t = Position::new(8, 8)
        .union(&inf("p"))
        .union(&inf("q"))
        .union(&inf("a"))
        .union("battery g weapon=N guns=4 rounds=20 morale=4")
        .confederate(&inf("z"))
        .place("p", "0406", "n", "line")
        .place("q", "0406", "n", "line")
        .place("g", "0406", "n", "limbered")
        .place("a", "0407", "n", "line")
        // Two hexes north, facing 0406: in range and sight, but 0406 is
        // not in its Zone of Control (not adjacent).
        .place("z", "0404", "s", "line")
        .build_at(1, UNION, Phase::Movement);
    // Within the limits (9 points), unlimbering draws Z's fire (6.23).
    let events = t
        .decide(
            UNION,
            &GbacwAction::ChangeFormation {
                unit: id("g"),
                to: Formation::Unlimbered,
            },
        )
        .unwrap();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, GbacwEvent::WithdrawalFireOffered(_))),
        "{events:?}"
    );
    // A's 4 make 13 of 12, out of any Zone of Control: the stop stands.
    t.mv(UNION, &["a"], &["0406"]);
    // Over the limits, the battery may not change formation at all, so
    // no fire can pin the stack before it is mended.
    t.refused(
        UNION,
        GbacwAction::ChangeFormation {
            unit: id("g"),
            to: Formation::Unlimbered,
        },
        "GBACW 8.11",
    );
    t.mv(UNION, &["a"], &["0407"]);
    t.ok(UNION, GbacwAction::EndPhase);
}

/// GBACW 8.0 under the reading `overstack-displaced`: the texts do not
/// say what becomes of a stack still over its limits when the phase ends
/// because enemy fire pinned it (9.84: "Units in a pinned hex may not
/// move"); read with 8.15 ("If a retreating unit is forced to enter a
/// Friendly-occupied hex, the other units in that hex are displaced and
/// must then undergo a morale check (see 14.3)"), the units that entered
/// it are displaced as the phase ends. A stops over the limits in Z's
/// Zone of Control (the default refuses it); the stack is then pinned;
/// the phase ends, and A, the one unit that entered, is displaced one
/// hex and checks morale (a 1: it holds), leaving 12 points in 0406.
#[test]
fn case_8_0_option_a_stack_pinned_over_its_limits_is_displaced_as_the_phase_ends() {
    let mut t = twelve_in_0406_position("s")
        .reading_001("overstack-displaced")
        .build_at(1, UNION, Phase::Movement);
    assert!(t.rs.options.overstack_displaced);
    t.mv(UNION, &["a"], &["0406"]);
    // Mendable still: the phase waits for it.
    t.refused(UNION, GbacwAction::EndPhase, "GBACW 8.11");
    // Pinned, all four (9.84), as withdrawal fire drawn by R leaving
    // would leave them.
    for u in ["p", "q", "r", "a"] {
        t.s.units
            .get_mut(&id(u))
            .unwrap()
            .status
            .markers
            .insert(Marker::Pin);
    }
    t.script(&[1]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, GbacwEvent::PhaseChanged { .. })),
        "{events:?}"
    );
    let a_left = t.hex("a") != Some(n("0406"));
    let a_ordered = t.s.retreats.iter().any(|o| o.unit == id("a"));
    assert!(a_left || a_ordered, "{events:?}");
    for u in ["p", "q", "r"] {
        assert_eq!(t.hex(u), Some(n("0406")), "{u}");
    }
}
