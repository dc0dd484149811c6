use super::*;
use crate::gbacw::charts::{Charts, MoveClass};
use crate::gbacw::map::{HexNumber, Map, parse_map};
use crate::gbacw::oob::{CounterId, Crew, Formation, Marker, Oob, Unit, UnitStatus, parse_oob};

fn n(s: &str) -> HexNumber {
    HexNumber::parse(s).unwrap()
}

fn setup() -> (Map, Charts, Oob) {
    let charts = Charts::load(crate::gbacw::charts::tests::CHARTS).unwrap();
    let map = parse_map(crate::gbacw::map::tests::TEST_MAP).unwrap();
    let oob = parse_oob(crate::gbacw::oob::tests::TEST_OOB, &charts.range).unwrap();
    (map, charts, oob)
}

fn unit(o: &Oob, id: &str, f: Formation) -> (Unit, UnitStatus) {
    let u = o.units[&CounterId::parse(id).unwrap()].clone();
    let s = UnitStatus {
        formation: f,
        ..UnitStatus::fresh(&u)
    };
    (u, s)
}

const ATTACK: MeleeRole = MeleeRole::Attacker { charging: false };
const CHARGE: MeleeRole = MeleeRole::Attacker { charging: true };
const FOOT: Opponents = Opponents {
    foot: true,
    mounted: false,
    charging: false,
};

#[test]
fn case_12_11_infantry_melees_at_current_strength() {
    let (_, _, o) = setup();
    let (u, mut s) = unit(&o, "5-conn", Formation::Line);
    assert_eq!(unit_melee_strength(&u, &s, ATTACK, FOOT), 6);
    s.strength = 4;
    assert_eq!(unit_melee_strength(&u, &s, MeleeRole::Defender, FOOT), 4);
}

#[test]
fn case_12_12_battery_melees_with_its_crew() {
    let (_, _, o) = setup();
    let (u, mut s) = unit(&o, "4-me", Formation::Unlimbered);
    assert_eq!(unit_melee_strength(&u, &s, MeleeRole::Defender, FOOT), 1);
    s.crew = Crew::Half;
    assert_eq!(unit_melee_strength(&u, &s, MeleeRole::Defender, FOOT), 0);
}

#[test]
fn case_15_14_battery_melee_one_full_zero_half() {
    let (_, _, o) = setup();
    let (u, mut s) = unit(&o, "aleghny", Formation::Limbered);
    s.strength = 4;
    assert_eq!(unit_melee_strength(&u, &s, MeleeRole::Defender, FOOT), 1);
    s.crew = Crew::Half;
    assert_eq!(unit_melee_strength(&u, &s, MeleeRole::Defender, FOOT), 0);
}

#[test]
fn case_12_14_wagon_crew_melees_at_one() {
    let (_, _, o) = setup();
    let (u, s) = unit(&o, "supply-u", Formation::Wagon);
    assert_eq!(unit_melee_strength(&u, &s, MeleeRole::Defender, FOOT), 1);
}

#[test]
fn case_12_13_mounted_cavalry_doubles_only_when_charging() {
    let (_, _, o) = setup();
    let (u, s) = unit(&o, "1-nj-c", Formation::Mounted);
    assert_eq!(unit_melee_strength(&u, &s, ATTACK, FOOT), 3);
    assert_eq!(unit_melee_strength(&u, &s, CHARGE, FOOT), 6);
}

#[test]
fn case_16_24_charge_at_twice_strength() {
    let (_, _, o) = setup();
    let (u, s) = unit(&o, "whites-c", Formation::Mounted);
    assert_eq!(unit_melee_strength(&u, &s, CHARGE, FOOT), 2);
}

#[test]
fn case_16_32_mounted_cavalry_defends_doubled_against_foot() {
    let (_, _, o) = setup();
    let (u, s) = unit(&o, "1-nj-c", Formation::Mounted);
    assert_eq!(unit_melee_strength(&u, &s, MeleeRole::Defender, FOOT), 6);
    let (d, ds) = unit(&o, "1-nj-c", Formation::Dismounted);
    assert_eq!(unit_melee_strength(&d, &ds, MeleeRole::Defender, FOOT), 3);
}

#[test]
fn case_16_33_mounted_against_mounted_charge_no_doubling() {
    let (_, _, o) = setup();
    let (u, s) = unit(&o, "1-nj-c", Formation::Mounted);
    let mounted = Opponents {
        foot: false,
        mounted: true,
        charging: true,
    };
    assert_eq!(unit_melee_strength(&u, &s, CHARGE, mounted), 3);
    assert_eq!(unit_melee_strength(&u, &s, MeleeRole::Defender, mounted), 3);
}

#[test]
fn case_12_51_routed_defender_halved_rounding_down() {
    let (_, _, o) = setup();
    let (u, mut s) = unit(&o, "10-me", Formation::Line);
    s.strength = 3;
    s.markers.insert(Marker::Rout);
    assert_eq!(unit_melee_strength(&u, &s, MeleeRole::Defender, FOOT), 1);
}

#[test]
fn case_12_4_one_leader_adds_one() {
    assert_eq!(side_total(&[3, 2], 12, true, false), 6);
    assert_eq!(side_total(&[3, 2], 12, false, false), 5);
}

#[test]
fn case_12_52_morale_two_better_adds_one() {
    // 12.52's example: Confederates 4 and 5 against Union 2 and 2.
    assert!(morale_edge(4, 2));
    assert!(!morale_edge(2, 5));
    assert!(!morale_edge(3, 2));
    assert_eq!(side_total(&[4], 12, false, morale_edge(4, 2)), 5);
}

#[test]
fn case_12_72_points_over_the_melee_limit_do_not_count() {
    assert_eq!(side_total(&[6, 6, 4], 12, false, false), 12);
    assert_eq!(
        differential(side_total(&[6, 6, 4], 12, false, false), 10),
        2
    );
}

#[test]
fn case_12_31_crossing_hexsides_reduces_melee_strength() {
    let (m, c, _) = setup();
    let k = &c.combat;
    // Stream either way.
    assert_eq!(crossing_penalty(&m, k, n("0601"), n("0701")), 1);
    assert_eq!(crossing_penalty(&m, k, n("0701"), n("0601")), 1);
    // Crest only going up.
    assert_eq!(crossing_penalty(&m, k, n("0806"), n("0906")), 1);
    assert_eq!(crossing_penalty(&m, k, n("0906"), n("0806")), 0);
    // Corinth 23.26: primary redan 2, secondary 1, into the inner side.
    assert_eq!(crossing_penalty(&m, k, n("0509"), n("0510")), 2);
    assert_eq!(crossing_penalty(&m, k, n("0610"), n("0510")), 1);
    assert_eq!(crossing_penalty(&m, k, n("0510"), n("0610")), 0);
    assert_eq!(crossing_penalty(&m, k, n("0101"), n("0103")), 0);
}

#[test]
fn case_12_33_melee_only_where_a_unit_could_move() {
    let (m, c, _) = setup();
    assert!(may_melee_into(
        &m,
        &c.movement,
        MoveClass::Line,
        n("0108"),
        n("0208")
    ));
    assert!(!may_melee_into(
        &m,
        &c.movement,
        MoveClass::Mounted,
        n("0108"),
        n("0208")
    ));
}

#[test]
fn case_16_22_no_charge_into_or_across_barred_terrain() {
    let (m, c, _) = setup();
    let k = &c.combat;
    assert!(may_charge(&m, k, n("0101"), n("0102")));
    // Into woods, across a stream, over a wall into its inner side: no.
    assert!(!may_charge(&m, k, n("0204"), n("0304")));
    assert!(!may_charge(&m, k, n("0601"), n("0701")));
    assert!(!may_charge(&m, k, n("0807"), n("0808")));
    // Along a road into clear: yes (9.54: roads have no effect).
    assert!(may_charge(&m, k, n("0704"), n("0804")));
}
