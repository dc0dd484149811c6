//! The second reading, part 7 (issue 19): Corinth reader cases parts 1–6
//! left unwritten (`docs/second-reading/results-tcor.md`, "Still not
//! written (after part 6)"), written from the case and the seed, not from
//! the engine's code for the rule, with the position builder and the
//! case's dice. A test is named after its case; its doc comment quotes the
//! sentence it rests on.

use super::reading_support::{hit, mark, marked, melee, melee_reports, resolve, spend};
use super::second_reading_corinth::{corinth_field_sized, gate_checks};
use super::*;
use crate::gbacw::oob::Marker;
use crate::gbacw::testkit::Position;

// --- Corinth 28.14 ------------------------------------------------------------------

/// Corinth's army: Van Dorn over Lovell's division (Rust, Villepigue,
/// Bowen), Price over Hebert's (Green), with the shipped scenario's
/// army-commander and BCE hooks. Rust's limit is 2 boxes. The Rebel
/// player's `phase` of Game-Turn 10; Price at 0606.
fn price_field(leaders: &[(&str, &str)], extra: impl FnOnce(Position) -> Position) -> Position {
    let mut p = corinth_field_sized(12, 12)
        .scenario(
            "hook bce-loss case=25.0 morale=25.11 no-melee=25.12 rally=25.13 fire=25.14 \
             brigade-retreat=25.2",
        )
        .scenario("hook army-brigade-points case=28.11 within=3 price-reach=armstrong")
        .confederate("army van-dorn cp=1")
        .confederate("army price cp=2")
        .confederate("division lovell army=van-dorn dir=0 cp=1")
        .confederate("division hebert army=price dir=0 cp=2")
        .confederate("brigade rust division=lovell er=4 rally=1 bce=2/10 bce-vp=2")
        .confederate("brigade villepigue division=lovell er=3 rally=1 bce=9/24 bce-vp=2")
        .confederate("brigade bowen division=lovell er=4 rally=1 bce=8/22 bce-vp=2")
        .confederate("brigade green division=hebert er=3 rally=1 bce=8/22 bce-vp=2")
        .confederate("infantry z brigade=rust strength=4 morale=4 weapon=R")
        .union("infantry far strength=4 morale=4 weapon=R")
        .place("z", "0112", "n", "line")
        .place("far", "1208", "n", "line")
        .leader("van-dorn", "0101")
        .leader("lovell", "0101")
        .leader("price", "0606")
        .leader("hebert", "1201");
    for (leader, default) in [
        ("rust", "0112"),
        ("villepigue", "0212"),
        ("bowen", "0312"),
        ("green", "1201"),
    ] {
        let hex = leaders
            .iter()
            .find(|(l, _)| *l == leader)
            .map_or(default, |(_, h)| *h);
        p = p.leader(leader, hex);
    }
    extra(p)
}

/// Corinth 28.14: "Gen. Price was an army commander for the Army of the
/// West only. He cannot rally, aid, or in any way affect the units in
/// Lovell's division." (a) Price is stacked with routed R of Rust's
/// brigade (Lovell's), which has lost BCE; Rust is 6 hexes off (ER 4): no
/// rally, R stays routed. (Beside it, routed G of Green's brigade,
/// Hebert's, stacked with Price, rallies: 28.12 / 25.13, the army
/// commander's automatic rally.)
#[test]
fn corinth_28_14_price_cannot_rally_lovell_unit() {
    let mut t = price_field(&[("rust", "0612")], |p| {
        p.confederate("infantry r brigade=rust strength=3 morale=4 weapon=R")
            .confederate("infantry g brigade=green strength=3 morale=4 weapon=R")
            .place("r", "0606", "n", "line")
            .place("g", "0606", "n", "line")
    })
    .build_at(10, REBEL, Phase::Rally);
    assert_eq!(t.rs.game().map.grid.distance(n("0606"), n("0612")), 6);
    hit(&mut t, "z", 2);
    assert!(t.rs.brigade_at_bce_limit(&t.s, &id("rust")));
    for u in ["r", "g"] {
        mark(&mut t, u, Marker::Rout);
    }
    let rally = |u: &str| GbacwAction::Rally { unit: id(u) };
    if t.decide(REBEL, &rally("r")).is_ok() {
        t.act(REBEL, rally("r"));
    }
    assert!(marked(&t, "r", Marker::Rout), "Price does not rally R");
    t.act(REBEL, rally("g"));
    assert!(!marked(&t, "g", Marker::Rout), "Price rallies Hebert's G");
}

/// Corinth 28.14 (b): "He cannot rally, aid, or in any way affect the
/// units in Lovell's division." / 22.0 step 6: "if the result is equal to
/// or less than the unit's Morale Rating, it must attack". Villepigue's V
/// (4 SP, morale 5), stacked with Price, declares a melee on Union D (4
/// SP, morale 5); Villepigue stands 3 hexes back (ER 3), with his other
/// regiment, so V is in command (GBACW 17.11): the initiation check is rolled as if Price were not
/// there, die 5 ≤ 5: V attacks; Price adds nothing to the melee: 4 − 4 =
/// 0.
#[test]
fn corinth_28_14_price_does_not_aid_lovell_melee() {
    let mut t = price_field(&[("villepigue", "0603")], |p| {
        p.confederate("infantry v2 brigade=villepigue strength=4 morale=5 weapon=R")
            .place("v2", "0603", "s", "line")
            .confederate("infantry v brigade=villepigue strength=4 morale=5 weapon=R")
            .union("infantry d strength=4 morale=5 weapon=R")
            .place("v", "0606", "s", "line")
            .place("d", "0607", "n", "line")
    })
    .build_at(10, REBEL, Phase::RetreatBeforeMelee);
    t.ok(REBEL, melee("0607", &["v"]));
    let events = resolve(&mut t, &[5, 5, 1, 1, 1, 1, 1, 1]);
    let c = gate_checks(&events);
    assert_eq!(c.len(), 1, "the check is required: {events:?}");
    assert!(c[0].attacking);
    assert_eq!(
        (c[0].die, c[0].modifier, c[0].passed),
        (5, 0, true),
        "{:?}",
        c[0]
    );
    let r = melee_reports(&events).remove(0);
    assert_eq!(r.differential, 0, "no +1 for Price: {r:?}");
}

/// Corinth 28.14 (c): "He cannot rally, aid, or in any way affect the
/// units in Lovell's division." / 28.11's army commander's points on a
/// brigade commander within 3 hexes. Price, 2 hexes from Bowen (Lovell's),
/// may not spend a Command Point on him; on Green (Hebert's), 2 hexes off
/// too, he may.
#[test]
fn corinth_28_14_price_spends_no_cp_on_bowen() {
    let t = price_field(&[("bowen", "0608"), ("green", "0806")], |p| {
        p.confederate("infantry b1 brigade=bowen strength=4 morale=4 weapon=R")
            .confederate("infantry g1 brigade=green strength=4 morale=4 weapon=R")
            .place("b1", "0608", "n", "line")
            .place("g1", "0806", "n", "line")
    })
    .build_at(10, REBEL, Phase::InitialCommand);
    let g = &t.rs.game().map.grid;
    assert_eq!(g.distance(n("0606"), n("0608")), 2);
    assert_eq!(g.distance(n("0606"), n("0806")), 2);
    let e = t
        .decide(REBEL, &spend("price", "bowen", 1))
        .expect_err("Price may not spend on Bowen");
    assert!(e.rule.contains("28.1"), "{e}");
    assert!(t.decide(REBEL, &spend("price", "green", 1)).is_ok());
}
