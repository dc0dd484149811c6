//! The position builder ([`crate::gbacw::testkit::Position`]) at work: a
//! case written as the rulebook states it, with scripted dice.

use super::*;
use crate::gbacw::testkit::Position;

/// A custom 6 × 6 field: a crest rising to 0302 (level 1) from the south,
/// a stream along 0302's east side; three 4-point regiments stacked in
/// 0302; a 3-gun Napoleon battery adjacent below the crest and a 2-gun
/// howitzer battery two hexes off.
fn crest_and_stream() -> Position {
    Position::new(6, 6)
        .map("hex 0302 level=1\nhex 0301 level=1\nside 0302/0303 crest:0302\nside 0302/0401 stream\nside 0302/0402 stream")
        .confederate("infantry a-top strength=4 morale=4 weapon=R")
        .confederate("infantry b-mid strength=4 morale=4 weapon=R")
        .confederate("infantry c-low strength=4 morale=4 weapon=R")
        .union("battery napoleons weapon=N guns=3 rounds=20 morale=4")
        .union("battery howitzers weapon=HB guns=2 rounds=20 morale=4")
        .place("a-top", "0302", "s", "line")
        .place("b-mid", "0302", "s", "line")
        .place("c-low", "0302", "s", "line")
        .place("napoleons", "0303", "n", "unlimbered")
        .place("howitzers", "0103", "ne", "unlimbered")
}

/// GBACW 9.41, 9.52, 8.35, 8.21, 9.16: two batteries combine on a stack
/// of three 4-point regiments in a crest hex. "Each artillery unit's Fire
/// Strength is equal to the number of guns in the unit, multiplied by the
/// effect of range" (9.2x, 9.45: HB ×10 adjacent); 3 Napoleons adjacent
/// (×10, provisional chart) and 2 howitzers at two hexes (×5,
/// provisional) make 40 on the Grapeshot row (artillery at infantry,
/// 9.14): 36–43, the eighth column. 12 Strength Points in the hex shift
/// two right (8.35: 10+); fire up through a crest hexside at a unit
/// adjacent to it shifts one left (9.52): net one right, the ninth
/// column. A scripted 4 reads "2*" there: the top unit (8.21) loses two
/// points and checks morale; the scripted 1 passes it (13.15), and the
/// pin roll of 1, not higher than its morale, leaves it unpinned (9.88).
#[test]
fn case_9_41_position_builder_two_batteries_on_a_stack_of_three() {
    let mut t = crest_and_stream().build_at(1, UNION, Phase::OffensiveFire);
    let grid = &t.rs.game().map.grid;
    assert_eq!(grid.distance(n("0303"), n("0302")), 1);
    assert_eq!(grid.distance(n("0103"), n("0302")), 2);
    t.ok(UNION, fire("0302", &[("napoleons", 3), ("howitzers", 2)]));
    t.script(&[4, 1, 1]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    let r = &fire_reports(&events)[0];
    println!("{r:#?}\n{:?}", t.dice_left());
    assert_eq!(r.strength, 40);
    assert_eq!(r.row, crate::gbacw::tables::FireRow::Grapeshot);
    assert_eq!((r.terrain_shift, r.density_shift, r.net_shift), (-1, 2, 1));
    assert_eq!(r.column, 9);
    assert_eq!(r.die, 4);
    assert_eq!(t.s.units[&id("a-top")].status.strength, 2);
    assert_eq!(t.s.units[&id("b-mid")].status.strength, 4);
    assert_eq!(t.s.units[&id("c-low")].status.strength, 4);
    assert!(t.dice_left().is_empty(), "every scripted die was read");
}

/// The scripted dice say so when a case's script is short.
#[test]
#[should_panic(expected = "the scripted dice ran out")]
fn position_builder_scripted_dice_that_run_out_fail_loudly() {
    let mut t = crest_and_stream().build_at(1, UNION, Phase::OffensiveFire);
    t.ok(UNION, fire("0302", &[("napoleons", 3)]));
    t.act(UNION, GbacwAction::EndPhase);
}
