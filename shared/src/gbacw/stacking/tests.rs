//! Stacking over the test order of battle and the shipped charts.

use super::*;
use crate::gbacw::charts::{Charts, StackingChart};
use crate::gbacw::map::Terrain;
use crate::gbacw::oob::{CounterId, Formation, Marker, Oob, Unit, UnitStatus, parse_oob};

fn setup() -> (Oob, StackingChart) {
    let charts = Charts::load(crate::gbacw::charts::tests::CHARTS).unwrap();
    let oob = parse_oob(crate::gbacw::oob::tests::TEST_OOB, &charts.range).unwrap();
    (oob, charts.stacking)
}

fn unit<'a>(oob: &'a Oob, id: &str) -> &'a Unit {
    &oob.units[&CounterId::parse(id).unwrap()]
}

fn in_formation(u: &Unit, f: Formation) -> UnitStatus {
    UnitStatus {
        formation: f,
        ..UnitStatus::fresh(u)
    }
}

#[test]
fn case_8_12_stacking_points_are_strength_wagon_four_battery_one() {
    let (o, c) = setup();
    let inf = unit(&o, "5-conn");
    assert_eq!(stacking_points(inf, &UnitStatus::fresh(inf), &c.points), 6);
    let mut hurt = UnitStatus::fresh(inf);
    hurt.strength = 2;
    assert_eq!(stacking_points(inf, &hurt, &c.points), 2);
    let bty = unit(&o, "4-me");
    assert_eq!(stacking_points(bty, &UnitStatus::fresh(bty), &c.points), 1);
}

#[test]
fn case_11_14_supply_wagon_stacks_as_four() {
    let (o, c) = setup();
    let w = unit(&o, "supply-u");
    assert_eq!(stacking_points(w, &UnitStatus::fresh(w), &c.points), 4);
}

#[test]
fn case_8_14_leaders_and_markers_never_count() {
    let (o, c) = setup();
    assert_eq!((c.points.leader.value, c.points.marker.value), (0, 0));
    let inf = unit(&o, "10-me");
    let mut s = UnitStatus::fresh(inf);
    let before = stacking_points(inf, &s, &c.points);
    s.markers.insert(Marker::Pin);
    s.markers.insert(Marker::AmmoDepleted);
    assert_eq!(stacking_points(inf, &s, &c.points), before);
}

#[test]
fn case_15_1_gun_crews_do_not_count_for_stacking() {
    let (o, c) = setup();
    let bty = unit(&o, "4-me");
    let mut s = UnitStatus::fresh(bty);
    s.crew = crate::gbacw::oob::Crew::Half;
    assert_eq!(stacking_points(bty, &s, &c.points), c.points.battery.value);
}

#[test]
fn case_8_16_column_infantry_enters_no_occupied_hex() {
    let (o, _) = setup();
    let other = unit(&o, "10-me");
    assert_eq!(
        may_enter(Formation::Column, &[(other, Formation::Line)]),
        Err("GBACW 8.16")
    );
    assert_eq!(may_enter(Formation::Column, &[]), Ok(()));
    assert_eq!(
        may_enter(Formation::Line, &[(other, Formation::Line)]),
        Ok(())
    );
}

#[test]
fn case_8_17_mounted_cavalry_enters_only_mounted_hexes() {
    let (o, _) = setup();
    let cav = unit(&o, "1-nj-c");
    let inf = unit(&o, "10-me");
    assert_eq!(
        may_enter(Formation::Mounted, &[(cav, Formation::Mounted)]),
        Ok(())
    );
    assert_eq!(
        may_enter(Formation::Mounted, &[(inf, Formation::Line)]),
        Err("GBACW 8.17")
    );
}

#[test]
fn case_8_0_limits_are_checked_per_hex_at_phase_end() {
    let (o, c) = setup();
    let a = unit(&o, "5-conn");
    let b = unit(&o, "10-me");
    let (sa, sb) = (
        in_formation(a, Formation::Line),
        in_formation(b, Formation::Line),
    );
    // 6 + 4 = 10 fits clear (12, provisional) but not woods (8).
    assert_eq!(
        check_hex(&c, &[Terrain::Clear], false, &[(a, &sa), (b, &sb)]),
        Ok(())
    );
    let e = check_hex(&c, &[Terrain::Woods], false, &[(a, &sa), (b, &sb)]).unwrap_err();
    assert_eq!(e, Overstack::Points { have: 10, limit: 8 });
    assert_eq!(e.rule(), "GBACW 8.11");
}

#[test]
fn case_8_11_infantry_formation_changes_the_limit() {
    let (o, c) = setup();
    let a = unit(&o, "5-conn");
    let b = unit(&o, "10-me");
    let col = in_formation(a, Formation::Column);
    let line = in_formation(b, Formation::Line);
    assert_eq!(
        check_hex(&c, &[Terrain::Clear], false, &[(a, &col), (b, &line)]),
        Err(Overstack::ColumnNotAlone)
    );
    assert_eq!(
        check_hex(&c, &[Terrain::Clear], false, &[(a, &col)]),
        Ok(())
    );
}

#[test]
fn case_8_13_battery_limit_per_hex() {
    let (o, c) = setup();
    let b1 = unit(&o, "4-me");
    let b2 = unit(&o, "aleghny");
    let (s1, s2) = (UnitStatus::fresh(b1), UnitStatus::fresh(b2));
    assert_eq!(
        check_hex(&c, &[Terrain::Clear], false, &[(b1, &s1), (b2, &s2)]),
        Ok(())
    );
    assert_eq!(
        check_hex(&c, &[Terrain::Woods], false, &[(b1, &s1), (b2, &s2)]),
        Err(Overstack::Batteries { have: 2, limit: 1 })
    );
}

#[test]
fn corinth_23_27_redan_holds_a_battery_and_one_point_or_four_points() {
    let (o, c) = setup();
    let bty = unit(&o, "4-me");
    let inf = unit(&o, "2-va");
    let big = unit(&o, "5-conn");
    let sb = UnitStatus::fresh(bty);
    let mut one = in_formation(inf, Formation::Line);
    one.strength = 1;
    let two = in_formation(inf, Formation::Line);
    let six = in_formation(big, Formation::Line);
    assert_eq!(
        check_hex(&c, &[Terrain::Clear], true, &[(bty, &sb), (inf, &one)]),
        Ok(())
    );
    assert_eq!(
        check_hex(&c, &[Terrain::Clear], true, &[(bty, &sb), (inf, &two)]),
        Err(Overstack::Redan)
    );
    assert_eq!(
        check_hex(&c, &[Terrain::Clear], true, &[(inf, &two)]),
        Ok(())
    );
    assert_eq!(
        check_hex(&c, &[Terrain::Clear], true, &[(big, &six)]),
        Err(Overstack::Redan)
    );
}
