//! Corinth 30.18 in the Historical Scenario's set-up: "Artillery batteries
//! are set up as per 29.44" (29.44.1, brigade batteries within their
//! commander's Effectiveness Radius) and "If batteries of Stanley's
//! division have been set up in redans D and E, then two of the
//! independent batteries are free to be set up with any brigade on the
//! map."

use super::corinth::{corinth, started};
use super::*;
use crate::gbacw::oob::{Command, LeaderRole, UnitKind};

/// A battery placed unlimbered (the kit's [`super::place`]).
fn place(unit: &str, hex: &str) -> GbacwAction {
    super::place(unit, hex, Formation::Unlimbered)
}

const INDEPENDENTS: [&str; 11] = [
    "d-1-mo",
    "h-1-mo-a",
    "h-1-mo-b",
    "i-1-mo-a",
    "i-1-mo-b",
    "k-1-mo",
    "f-2-ill",
    "1-mn-lt",
    "3-ohio-bty",
    "5-ohio-bty",
    "10-ohio-bty",
];

/// The eleven independents standing outside the redans and the park.
fn free_ones(t: &T) -> Vec<(String, HexNumber)> {
    let area = t.rs.game().scenario.area("redans-and-park").unwrap();
    INDEPENDENTS
        .iter()
        .filter_map(|b| t.hex(b).map(|h| (b.to_string(), h)))
        .filter(|(_, h)| !t.rs.in_area(area, *h))
        .collect()
}

/// Whether some Union brigade commander on the map has `hex` within his
/// printed radius.
fn with_a_brigade(t: &T, hex: HexNumber) -> bool {
    let game = t.rs.game();
    game.oob.leaders.iter().any(|(l, x)| match &x.role {
        LeaderRole::Brigade { ratings, .. } if x.side.0 == "union" => {
            t.hex(&l.0).is_some_and(|at| {
                game.map.grid.distance(at, hex) <= u32::from(ratings.effectiveness_radius)
            })
        }
        _ => false,
    })
}

#[test]
fn corinth_30_18_brigade_batteries_set_up_within_their_commanders_radius() {
    // The default deployment keeps 29.44.1.
    let t = started();
    let game = t.rs.game();
    let mut seen = 0;
    for (u, unit) in &game.oob.units {
        let (UnitKind::Battery { .. }, Command::Brigade(b), Some(at)) =
            (&unit.kind, &unit.command, t.hex(&u.0))
        else {
            continue;
        };
        let Some(LeaderRole::Brigade { ratings, .. }) = game.oob.leaders.get(b).map(|l| &l.role)
        else {
            continue;
        };
        let c = t.hex(&b.0).unwrap();
        assert!(
            game.map.grid.distance(at, c) <= u32::from(ratings.effectiveness_radius),
            "{u} at {at}, {b} at {c}"
        );
        seen += 1;
    }
    assert!(seen >= 13, "{seen} brigade batteries");
    // The default puts a battery of Stanley's in Redan E (30.14): one
    // independent is free (30.18) and goes with a brigade; all eleven set up.
    let free = free_ones(&t);
    assert!(free.len() <= 1, "{free:?}");
    for (b, h) in &free {
        assert!(with_a_brigade(&t, *h), "{b} at {h}");
    }
    for b in INDEPENDENTS {
        assert!(t.hex(b).is_some(), "{b}");
    }
    // A player's set-up that puts Fuller out of reach of his battery in
    // Redan E is refused at its end.
    let mut t = corinth();
    t.ok(UNION, place("3-mich-a", "0527"));
    t.ok(UNION, super::place("27-ohio", "0638", Formation::Line));
    t.ok(
        UNION,
        GbacwAction::PlaceLeader {
            leader: id("fuller"),
            hex: n("0638"),
        },
    );
    t.refused(UNION, GbacwAction::EndSetUp, "Corinth 29.44");
    // Its timeout's default is never refused: the default deployment.
    t.by_default(UNION, GbacwAction::EndSetUp);
}

#[test]
fn corinth_30_18_with_stanleys_batteries_in_d_and_e_two_independents_go_with_a_brigade() {
    let mut t = corinth();
    // Before Stanley's batteries hold D and E: the redans or the park only.
    t.refused(UNION, place("k-1-mo", "0634"), "Corinth 29.44");
    // Redan E taken frees one, but with a brigade: 0634 is beyond Fuller's
    // radius (3) from his battery in E, and no other brigade is placed.
    t.ok(UNION, place("3-mich-a", "0527"));
    t.refused(UNION, place("k-1-mo", "0634"), "Corinth 30.18");
    t.ok(UNION, place("2-iowa-bty", "0633"));
    // Now two are free, within a brigade commander's reach (Mower's, by
    // his battery in D: radius 4).
    t.ok(UNION, place("k-1-mo", "0634"));
    t.ok(UNION, place("f-2-ill", "0635"));
    // A third is not.
    t.refused(UNION, place("1-mn-lt", "0636"), "Corinth 30.18");
    // Nor one far from every brigade.
    let mut far = corinth();
    far.ok(UNION, place("3-mich-a", "0527"));
    far.ok(UNION, place("2-iowa-bty", "0633"));
    far.refused(UNION, place("k-1-mo", "3344"), "Corinth 30.18");
    // The set-up ends with them where they were put, each with a brigade.
    let mut done = t.s.clone();
    let events = t.ok(UNION, GbacwAction::EndSetUp);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, GbacwEvent::SetUpEnded { .. }))
    );
    assert_eq!(t.hex("k-1-mo"), Some(n("0634")));
    assert_eq!(t.hex("f-2-ill"), Some(n("0635")));
    assert_eq!(t.hex("3-mich-a"), Some(n("0527")));
    let free = free_ones(&t);
    assert_eq!(free.len(), 2, "{free:?}");
    for (b, h) in &free {
        assert!(with_a_brigade(&t, *h), "{b} at {h}");
    }
    // Taking Stanley's battery back out of Redan D makes one too many.
    std::mem::swap(&mut t.s, &mut done);
    t.ok(UNION, place("2-iowa-bty", "0630"));
    t.refused(UNION, GbacwAction::EndSetUp, "Corinth 30.18");
}

#[test]
fn corinth_30_18_the_default_completion_frees_two_when_d_and_e_are_stanleys() {
    // Before 30.18's second half the eleven independents had nine places
    // left and the whole default deployment replaced the player's; now
    // his D and E stand and two independents go with a brigade.
    let mut t = corinth();
    t.ok(UNION, place("3-mich-a", "0527"));
    t.ok(UNION, place("2-iowa-bty", "0633"));
    t.ok(UNION, GbacwAction::EndSetUp);
    assert_eq!(t.hex("3-mich-a"), Some(n("0527")));
    assert_eq!(t.hex("2-iowa-bty"), Some(n("0633")));
    let free = free_ones(&t);
    let all: Vec<_> = INDEPENDENTS.iter().map(|b| (b, t.hex(b))).collect();
    assert_eq!(free.len(), 2, "{free:?} {all:?}");
    for (b, h) in &free {
        assert!(with_a_brigade(&t, *h), "{b} at {h}");
    }
    // Every independent is on the map.
    for b in INDEPENDENTS {
        assert!(t.hex(b).is_some(), "{b}");
    }
}
