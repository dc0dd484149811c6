//! The shipped `charts.toml`: it loads, the values the seeds give are
//! there and cited, and a broken file is refused with a position.

use super::*;
use crate::gbacw::map::Terrain;
use crate::gbacw::names::Named;

pub(crate) const CHARTS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../assets/gbacw/charts.toml"
));

pub(crate) fn charts() -> Charts {
    Charts::load(CHARTS).unwrap_or_else(|e| panic!("charts.toml: {e}"))
}

fn half(n: u16) -> Mp {
    Mp(n)
}

#[test]
fn case_5_19_movement_chart_loads_with_seed_values_cited() {
    let c = charts();
    let m = &c.movement;
    // Corinth 26.11: infantry 6.
    assert_eq!(m.allowance(MoveClass::Line), Mp::from_whole(6));
    assert!(!m.allowance[&MoveClass::Line].provisional);
    assert!(m.allowance[&MoveClass::Mounted].provisional);
    // Corinth 26.12: column into woods costs 2.
    let woods = &m.terrain[&Terrain::Woods][&MoveClass::Column];
    assert_eq!(woods.value, Cost::Mp(Mp::from_whole(2)));
    assert!(!woods.provisional && woods.why.contains("26.12"));
    // Corinth 30.13: column by road ½ per hex; 6.12: Line never uses roads.
    assert_eq!(
        m.path_cost(MoveClass::Column, PathKind::Road),
        Some(half(1))
    );
    assert_eq!(m.path_cost(MoveClass::Line, PathKind::Road), None);
    // Corinth 23.23: redan hexside +3, closed to guns and wagons.
    assert_eq!(
        m.side_cost(MoveClass::Line, SideRow::Redan),
        Cost::Mp(Mp::from_whole(3))
    );
    assert_eq!(
        m.side_cost(MoveClass::Limbered, SideRow::Redan),
        Cost::Prohibited
    );
    assert_eq!(
        m.side_cost(MoveClass::Wagon, SideRow::Redan),
        Cost::Prohibited
    );
    // Every class has every row.
    for &t in Terrain::all() {
        assert_eq!(m.terrain[&t].len(), MoveClass::all().len(), "{t}");
    }
}

#[test]
fn case_5_15_mixed_hex_costs_the_dearest_terrain() {
    let c = charts();
    let m = &c.movement;
    let clear_woods = [Terrain::Clear, Terrain::Woods];
    assert_eq!(
        m.enter_cost(MoveClass::Line, &clear_woods),
        m.enter_cost(MoveClass::Line, &[Terrain::Woods])
    );
    // Corinth 23.5: no batteries in swamp, whatever else is in the hex.
    assert_eq!(
        m.enter_cost(MoveClass::Limbered, &[Terrain::Clear, Terrain::Swamp]),
        Cost::Prohibited
    );
    // And fire takes the terrain best for the defender: town beats woods.
    assert_eq!(
        c.combat.hex_fire_shift(&[Terrain::Woods, Terrain::Town]),
        -2
    );
    assert_eq!(c.combat.hex_fire_shift(&[Terrain::Clear]), 0);
}

#[test]
fn case_6_22_formation_changes_cost_movement_points() {
    let c = charts();
    for &f in FormationChange::all() {
        assert!(c.movement.formation_cost(f) > Mp::ZERO, "{f}");
    }
}

#[test]
fn case_8_18_stacking_chart_loads() {
    let c = charts();
    let s = &c.stacking;
    assert_eq!(s.points.wagon.value, 4);
    assert_eq!(s.points.battery.value, 1);
    assert_eq!(s.points.leader.value, 0);
    assert_eq!(s.redan.points_without_guns.value, 4);
    let mixed = s.limits(&[Terrain::Clear, Terrain::Woods]).unwrap();
    let woods = s.limits(&[Terrain::Woods]).unwrap();
    assert_eq!(mixed, woods);
    assert_eq!(s.limits(&[]), None);
}

#[test]
fn case_9_3_four_points_fire_per_frontal_hexside() {
    let c = charts();
    for &t in Terrain::all().iter().filter(|t| **t != Terrain::Lake) {
        let row = &c.stacking.hex[&t];
        assert_eq!(row.fire_per_hexside.value, 4, "{t}");
        assert!(!row.fire_per_hexside.provisional);
    }
}

#[test]
fn case_9_25_range_chart_has_hb_values_from_9_45() {
    let c = charts();
    let hb = c.range.weapon("HB").unwrap();
    assert_eq!(hb.kind.value, WeaponKind::Artillery);
    assert_eq!(hb.multiplier(1), Some(Multiplier { num: 10, den: 1 }));
    assert_eq!(hb.multiplier(10), Some(Multiplier { num: 1, den: 2 }));
    assert!(!hb.bands[0].provisional && !hb.bands[5].provisional);
    assert_eq!(hb.max_range(), 16);
    assert_eq!(hb.multiplier(17), None);
    // Corinth 24.1: the rapid-fire smoothbores.
    let smooth: Vec<&str> = c
        .range
        .weapons
        .iter()
        .filter(|(_, w)| w.smoothbore.value)
        .map(|(k, _)| k.as_str())
        .collect();
    assert_eq!(smooth, ["HA", "HB", "HC", "L", "N"]);
}

#[test]
fn case_6_34_only_cavalry_arms_fire_mounted() {
    let c = charts();
    let mounted: Vec<&str> = c
        .range
        .weapons
        .iter()
        .filter(|(_, w)| w.mounted_fire.value)
        .map(|(k, _)| k.as_str())
        .collect();
    assert_eq!(mounted, ["C", "P"]);
}

#[test]
fn case_9_56_combat_chart_has_text_stated_effects() {
    let c = charts();
    let k = &c.combat;
    assert_eq!(k.hex[&Terrain::Woods].fire_shift.value, -1);
    assert_eq!(k.hex[&Terrain::Woods].los_feet.value, 20);
    assert_eq!(k.hexside[&CombatSide::CrestUp].fire_shift.value, -1);
    assert_eq!(k.hexside[&CombatSide::Road].fire_shift.value, 0);
    assert_eq!(k.heights.foot.value, 5);
    assert_eq!(k.heights.mounted.value, 10);
    assert_eq!(k.max_terrain_shift.value, 2);
}

#[test]
fn every_value_says_why() {
    // The loader refuses an empty `why`; check the whole file has them and
    // that both marks are in use.
    let data: String = CHARTS
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .collect();
    let provisional = data.matches("provisional = true").count();
    let cited = data.matches("provisional = false").count();
    assert!(provisional > 100 && cited > 40, "{provisional} / {cited}");
    assert_eq!(data.matches("{ v = ").count(), provisional + cited);
}

fn load_err(from: &str, to: &str) -> crate::gbacw::text::TextError {
    assert!(
        CHARTS.contains(from),
        "fixture text `{from}` not in charts.toml"
    );
    Charts::load(&CHARTS.replacen(from, to, 1)).unwrap_err()
}

fn line_of(needle: &str) -> usize {
    CHARTS.lines().position(|l| l.contains(needle)).unwrap() + 1
}

#[test]
fn broken_charts_are_refused_with_a_position() {
    let e = load_err(
        "column   = { v = 2, provisional = false",
        "column   = { v = 2.25, provisional = false",
    );
    assert_eq!(e.line, line_of("Corinth 26.12: 'it costs"), "{e}");
    assert!(e.message.contains("whole or .5"), "{e}");

    let e = load_err("[movement.terrain.orchard]", "[movement.terrain.orchards]");
    assert!(e.message.contains("unknown terrain `orchards`"), "{e}");

    let e = load_err(
        "leader   = { v = 1, provisional = true, why = \"orchards are open, planted in rows\" }\n",
        "",
    );
    assert!(e.message.contains("missing unit class `leader`"), "{e}");

    let e = load_err(
        "why = \"5.0: clear costs 1 (allowance = basic number of hexes)\"",
        "why = \" \"",
    );
    assert!(e.message.contains("needs a `why`"), "{e}");

    let e = load_err(
        "{ v = \"2 x5\",     provisional = true, why = \"canister thinning out\" }",
        "{ v = \"3 x5\", provisional = true, why = \"gap\" }",
    );
    assert!(e.message.contains("without gaps"), "{e}");

    let e = load_err("format = \"gbacw-charts 1\"", "format = \"gbacw-charts 2\"");
    assert_eq!(e.line, line_of("format = "));

    let e = load_err("[range.PC]", "[range.Pc]");
    assert!(e.message.contains("capital letters"), "{e}");

    let e = load_err(
        "mounted  = { v = 12, provisional",
        "mounted  = { v = 12, provisonal",
    );
    assert!(e.line > 0, "{e}");

    let e = Charts::load(&" ".repeat(MAX_CHART_BYTES + 1)).unwrap_err();
    assert_eq!(e.line, 0);
}
