//! Cedar Mountain's data against its rules (seed 004, exclusive rules
//! 19-27, the counter manifest and the OB Rosters).

use super::*;
use crate::gbacw::battles::{Battle, load};
use crate::gbacw::charts::Charts;
use crate::gbacw::los::{Crossing, crossings};
use crate::gbacw::map::{HexNumber, SideKind, Terrain};
use crate::gbacw::oob::roster::{Mismatch, check_roster};
use crate::gbacw::oob::{Command, CounterId, LeaderRole, UnitKind};
use crate::gbacw::scenario::{HookKind, LossKind, Place, on_edge};
use std::collections::{BTreeMap, BTreeSet};

fn battle() -> Battle {
    let range = Charts::load(crate::gbacw::charts::tests::CHARTS)
        .unwrap()
        .range;
    load(NAME, &range).unwrap_or_else(|e| panic!("{e}"))
}

fn id(s: &str) -> CounterId {
    CounterId::parse(s).unwrap()
}

fn hex(s: &str) -> HexNumber {
    HexNumber::parse(s).unwrap()
}

fn side(b: &Battle, s: &str) -> (usize, usize, usize, usize) {
    let leaders = b.oob.leaders.values().filter(|l| l.side.0 == s).count();
    let side = id(s);
    let units: Vec<_> = b.oob.side_units(&side).collect();
    let foot_horse = units
        .iter()
        .filter(|u| matches!(u.kind, UnitKind::Infantry | UnitKind::Cavalry))
        .count();
    let batteries = units
        .iter()
        .filter(|u| matches!(u.kind, UnitKind::Battery { .. }))
        .count();
    let wagons = units
        .iter()
        .filter(|u| matches!(u.kind, UnitKind::Wagon { .. }))
        .count();
    (leaders, foot_horse, batteries, wagons)
}

fn strength(b: &Battle, s: &str, kind: &str) -> u32 {
    let side = id(s);
    b.oob
        .side_units(&side)
        .filter(|u| u.kind.name() == kind)
        .map(|u| u32::from(u.strength))
        .sum()
}

#[test]
fn cedar_20_2_manifest_is_complete_per_side() {
    let b = battle();
    // Union section: 11 leaders, 23 infantry/cavalry, 6 batteries (each
    // with a crew counter), 53 markers and the Game Turn marker = 100.
    let (l, ic, bt, w) = side(&b, "union");
    assert_eq!((l, ic, bt, w), (11, 23, 6, 0));
    assert_eq!(l + ic + 2 * bt + 53 + 1, 100);
    // Confederate section: 16 leaders, 47 infantry/cavalry, 10 batteries
    // with crews, 17 strength markers = 100 (20.2: 200 counters in all).
    let (l, ic, bt, w) = side(&b, "confederate");
    assert_eq!((l, ic, bt, w), (16, 47, 10, 0));
    assert_eq!(l + ic + 2 * bt + 17, 100);
    // Digest §3 totals: Union 68 SP infantry, 12 cavalry, 36 guns;
    // Confederate 176, 1, 36 (38 by the roster).
    assert_eq!(strength(&b, "union", "infantry"), 68);
    assert_eq!(strength(&b, "union", "cavalry"), 12);
    assert_eq!(strength(&b, "union", "battery"), 36);
    assert_eq!(strength(&b, "confederate", "infantry"), 176);
    assert_eq!(strength(&b, "confederate", "cavalry"), 1);
    assert_eq!(strength(&b, "confederate", "battery"), 36);
}

#[test]
fn cedar_21_2_no_supply_wagons_and_no_ammunition() {
    let b = battle();
    assert!(
        b.oob
            .units
            .values()
            .all(|u| !matches!(u.kind, UnitKind::Wagon { .. }))
    );
    assert!(
        b.oob
            .units
            .values()
            .all(|u| !matches!(u.kind, UnitKind::Battery { rounds } if rounds != 0))
    );
    assert!(b.scenario.hook(HookKind::NoAmmunition).is_some());
}

#[test]
fn cedar_21_1_cavalry_front_is_dismounted_morale_2() {
    let b = battle();
    let cav: Vec<_> = b
        .oob
        .units
        .values()
        .filter(|u| u.kind == UnitKind::Cavalry)
        .collect();
    assert_eq!(cav.len(), 5);
    for c in cav {
        assert_eq!(c.morale, crate::gbacw::oob::Morale::Rated(2), "{}", c.id);
        assert!(matches!(c.mounted_morale, Some(4 | 5)), "{}", c.id);
    }
    assert_eq!(b.oob.units[&id("1-pa-c")].mounted_morale, Some(5));
}

#[test]
fn cedar_27_21_brigade_counters_add_up_to_roster_bce_and_mismatches_are_reported() {
    let b = battle();
    let check = check_roster(&b.oob);
    // Every brigade with units has a roster record: 6 Union, 10 Confederate.
    assert_eq!(check.brigades.len(), 16);
    assert!(check.without_record.is_empty());
    for s in &check.brigades {
        assert_eq!(s.counters, s.roster, "{}", s.brigade);
    }
    // The two known disagreements, reported rather than hidden: Purcell
    // and Middlesex print 2 guns, the roster 3 boxes.
    assert_eq!(
        check.mismatches,
        vec![
            Mismatch::Unit {
                unit: id("middlesex"),
                counter: 2,
                roster: 3
            },
            Mismatch::Unit {
                unit: id("purcell"),
                counter: 2,
                roster: 3
            },
        ]
    );
    assert_eq!(check.units_checked, 18);
    // Roster records as printed ("13 of 18 = 17 VP's").
    let crawford = b.oob.bce[&id("crawford")];
    assert_eq!(
        (crawford.limit, crawford.total, crawford.victory_points),
        (13, 18, 17)
    );
    let thomas = b.oob.bce[&id("thomas")];
    assert_eq!(
        (thomas.limit, thomas.total, thomas.victory_points),
        (14, 20, 30)
    );
}

#[test]
fn cedar_26_1_union_is_first_player_but_skips_turn_one() {
    let s = battle().scenario;
    assert_eq!(s.first_player, Some(id("union")));
    assert_eq!(s.skipped_player_turns, vec![(1, id("union"))]);
    assert!(s.skips(1, &id("union")));
    assert!(!s.skips(2, &id("union")) && !s.skips(1, &id("confederate")));
    let seats: Vec<_> = s
        .sides
        .iter()
        .map(|x| (x.id.0.as_str(), x.seat.as_str()))
        .collect();
    assert_eq!(
        seats,
        vec![("union", "union"), ("confederate", "confederate")]
    );
}

#[test]
fn cedar_27_22_game_length_is_13_turns_from_the_vp_track() {
    let l = battle().scenario.length.unwrap();
    assert_eq!((l.turns, l.minutes), (13, 30));
    assert!(l.source.contains("GT 1-13"));
}

/// The historical Union set-up: every unit on its area's centre, leaders
/// with their commands (Banks with Greene, Williams with Crawford, Augur
/// with Geary).
fn historical(b: &Battle) -> BTreeMap<CounterId, HexNumber> {
    let mut placed = BTreeMap::new();
    for s in &b.scenario.setup {
        if let Place::Area(a) = &s.place {
            let centre = b.scenario.area(&a.0).unwrap().centre;
            for u in &s.units {
                placed.insert(u.clone(), centre);
            }
        }
    }
    let area = |a: &str| b.scenario.area(a).unwrap().centre;
    placed.insert(id("banks"), area("a1"));
    placed.insert(id("williams"), area("a4"));
    placed.insert(id("augur"), area("a3"));
    placed
}

fn problems(b: &Battle, placed: &BTreeMap<CounterId, HexNumber>, options: &[&str]) -> Vec<String> {
    let on: BTreeSet<CounterId> = options.iter().map(|o| id(o)).collect();
    b.scenario
        .check_setup(&b.map, &b.oob, placed, &on)
        .into_iter()
        .map(|p| p.0)
        .collect()
}

#[test]
fn cedar_26_2_union_deployment_areas_follow_the_roster() {
    let b = battle();
    let expected = [
        ("greene", "a1"),
        ("6-me", "a1"),
        ("1-me-c", "a1"),
        ("prince", "a2"),
        ("4-me", "a2"),
        ("geary", "a3"),
        ("f-4-us", "a3"),
        ("crawford", "a4"),
        ("e-pa", "a4"),
        ("gordon", "a5"),
        ("l-2-ny", "a5"),
        ("bayard", "a6"),
        ("m-1-ny", "a6"),
    ];
    for (u, a) in expected {
        assert_eq!(
            b.scenario.setup_of(&id(u)).unwrap().place,
            Place::Area(id(a)),
            "{u}"
        );
    }
    // A brigade's units go with their leader.
    for s in &b.scenario.setup {
        if let Place::Area(_) = s.place {
            for u in &s.units {
                if let Some(Command::Brigade(l)) = b.oob.units.get(u).map(|x| &x.command) {
                    assert!(s.units.contains(l), "{u} without {l}");
                }
            }
        }
    }
    // Each area: a centre and its six neighbours, all on the map, apart.
    for a in &b.scenario.areas {
        assert_eq!(b.scenario.area_hexes(&b.map.grid, a).len(), 7, "{}", a.id);
        assert!(
            a.provisional.is_some(),
            "the centre hexes are not in the text"
        );
    }
    assert!(problems(&b, &historical(&b), &[]).is_empty());
}

#[test]
fn cedar_26_2_units_must_be_in_their_own_area() {
    let b = battle();
    let mut placed = historical(&b);
    placed.insert(id("5-conn"), b.scenario.area("a1").unwrap().centre);
    let p = problems(&b, &placed, &[]);
    assert!(
        p.iter()
            .any(|m| m.contains("`5-conn`") && m.contains("outside area `a4`")),
        "{p:?}"
    );
    placed.remove(&id("5-conn"));
    let p = problems(&b, &placed, &[]);
    assert!(
        p.iter().any(|m| m.contains("`5-conn` is not set up")),
        "{p:?}"
    );
}

#[test]
fn cedar_26_2_leaders_set_up_with_their_command() {
    let b = battle();
    let area = |a: &str| b.scenario.area(a).unwrap().centre;
    // Banks with any Union unit: Bayard's cavalry will do.
    let mut placed = historical(&b);
    placed.insert(id("banks"), area("a6"));
    assert!(problems(&b, &placed, &[]).is_empty());
    // Williams only with a brigade of his division (Crawford, Gordon).
    placed.insert(id("williams"), area("a2"));
    let p = problems(&b, &placed, &[]);
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(p[0].contains("williams"));
    // A brigade leader only with his own brigade, and inside its area.
    let mut placed = historical(&b);
    placed.insert(id("crawford"), b.scenario.area("a4").unwrap().centre);
    placed.insert(id("5-conn"), hex("1516"));
    placed.insert(id("10-me"), hex("1516"));
    placed.insert(id("28-ny"), hex("1516"));
    placed.insert(id("46-pa"), hex("1516"));
    placed.insert(id("williams"), hex("1516"));
    let p = problems(&b, &placed, &[]);
    assert!(p.iter().any(|m| m.contains("leader `crawford`")), "{p:?}");
}

#[test]
fn cedar_26_3_optional_free_deployment() {
    let b = battle();
    let area = |a: &str| b.scenario.area(a).unwrap().centre;
    let mut placed = historical(&b);
    // Swap Prince's and Geary's brigades (with their leaders).
    for u in ["prince", "102-ny", "109-pa", "111-pa", "8-12-us", "3-md"] {
        placed.insert(id(u), area("a3"));
    }
    for u in ["geary", "5-ohio", "7-ohio", "29-ohio", "66-ohio", "augur"] {
        placed.insert(id(u), area("a2"));
    }
    assert!(problems(&b, &placed, &["free-deployment"]).is_empty());
    // Without the option the historical areas hold.
    assert!(!problems(&b, &placed, &[]).is_empty());
    // One brigade and one battery per area.
    let mut two = placed.clone();
    for u in ["crawford", "5-conn", "10-me", "28-ny", "46-pa", "e-pa"] {
        two.insert(id(u), area("a3"));
    }
    let p = problems(&b, &two, &["free-deployment"]);
    assert!(p.iter().any(|m| m.contains("2 brigades")), "{p:?}");
    assert!(p.iter().any(|m| m.contains("2 batteries")), "{p:?}");
    // The 1st Maine Cavalry stays in Area 1, Bayard in Area 6.
    let mut moved = placed.clone();
    moved.insert(id("1-me-c"), area("a5"));
    let p = problems(&b, &moved, &["free-deployment"]);
    assert!(
        p.iter()
            .any(|m| m.contains("`1-me-c` must set up in area `a1`")),
        "{p:?}"
    );
    let mut moved = placed.clone();
    for u in ["1-nj-c", "1-pa-c", "1-ri-c", "bayard"] {
        moved.insert(id(u), area("a5"));
    }
    moved.insert(id("l-2-ny"), area("a6"));
    let p = problems(&b, &moved, &["free-deployment"]);
    assert!(
        p.iter().any(|m| m.contains("must set up in area `a6`")),
        "{p:?}"
    );
    // A brigade may not be split between areas.
    let mut split = placed.clone();
    split.insert(id("102-ny"), area("a6"));
    let p = problems(&b, &split, &["free-deployment"]);
    assert!(p.iter().any(|m| m.contains("split")), "{p:?}");
}

#[test]
fn cedar_26_4_confederates_start_off_the_map() {
    let b = battle();
    let mut placed = historical(&b);
    placed.insert(id("early"), hex("2934"));
    let p = problems(&b, &placed, &[]);
    assert!(
        p.iter()
            .any(|m| m.contains("`early` may not start on the map")),
        "{p:?}"
    );
    let conf = id("confederate");
    for u in b.oob.side_units(&conf) {
        assert!(b.scenario.setup_of(&u.id).is_none(), "{}", u.id);
    }
}

#[test]
fn cedar_26_4_every_arrival_matches_the_confederate_roster() {
    let b = battle();
    // "Game-Turn/Hex of Entry", leaders and independent units as printed.
    let roster = [
        ("jackson", 2, "2934"),
        ("winder", 2, "2934"),
        ("ronald", 5, "2934"),
        ("garnett", 2, "2934"),
        ("taliaferro", 2, "2934"),
        ("ewell", 1, "4032"),
        ("trimble", 1, "4032"),
        ("forno", 1, "4032"),
        ("hill", 9, "2934"),
        ("branch", 9, "2934"),
        ("archer", 10, "2934"),
        ("thomas", 7, "2934"),
        ("pender", 10, "2934"),
        ("early", 1, "2934"),
        ("whites-c", 1, "4032"),
        ("1-md", 1, "2934"),
        ("4-md", 1, "2934"),
        ("bedford", 1, "2934"),
        ("alleghany", 2, "2934"),
        ("rockbridge", 2, "2934"),
        ("hampden", 2, "2934"),
        ("la-guard", 2, "4032"),
        ("courtney", 2, "4032"),
        ("purcell", 4, "2934"),
        ("middlesex", 4, "2934"),
    ];
    for (who, turn, at) in roster {
        let a = b
            .scenario
            .arrival_of(&id(who))
            .unwrap_or_else(|| panic!("{who}"));
        assert_eq!((a.turn, a.hex), (turn, hex(at)), "{who}");
    }
    // Regiments arrive with their brigade leader.
    let conf = id("confederate");
    for u in b.oob.side_units(&conf) {
        let a = b.scenario.arrival_of(&u.id).unwrap();
        if let Command::Brigade(l) = &u.command {
            assert_eq!(b.scenario.arrival_of(l), Some(a), "{}", u.id);
        }
    }
    // Entry hexes are on the map edge, on a road or trail (26.4).
    for a in &b.scenario.arrivals {
        assert!(on_edge(&b.map.grid, a.hex), "{}", a.hex);
        let on_path = b
            .map
            .grid
            .neighbours_on_map(a.hex)
            .into_iter()
            .any(|(_, n)| {
                let side = b.map.grid.hexside(a.hex, n).unwrap();
                b.map.side_has(side, SideKind::Road) || b.map.side_has(side, SideKind::Trail)
            });
        assert!(on_path, "{} is on no road or trail", a.hex);
    }
    // Nothing after GT 10; Thomas enters detached.
    assert_eq!(b.scenario.arrivals.iter().map(|a| a.turn).max(), Some(10));
    let per_turn: Vec<usize> = (1..=13)
        .map(|t| b.scenario.arrivals_on(t).map(|a| a.units.len()).sum())
        .collect();
    assert_eq!(per_turn, vec![22, 18, 0, 2, 6, 0, 5, 0, 7, 11, 0, 0, 0]);
    let t = b.scenario.arrival_of(&id("thomas")).unwrap();
    assert_eq!(t.detached, vec![id("thomas")]);
}

#[test]
fn cedar_27_1_victory_levels() {
    let v = battle().scenario.victory;
    let levels: Vec<_> = v.levels.iter().map(|(n, f)| (n.as_str(), *f)).collect();
    assert_eq!(
        levels,
        vec![
            ("draw", 0),
            ("marginal", 6),
            ("tactical", 11),
            ("strategic", 19)
        ]
    );
}

#[test]
fn cedar_27_21_loss_schedule() {
    let v = battle().scenario.victory;
    let l = |k| {
        let x = v.losses[&k];
        (x.wounded, x.eliminated, x.captured)
    };
    assert_eq!(l(LossKind::Infantry), (0, 1, 2));
    assert_eq!(l(LossKind::Gun), (0, 1, 2));
    assert_eq!(l(LossKind::Cavalry), (0, 2, 3));
    assert_eq!(l(LossKind::Crew), (0, 0, 0));
    assert_eq!(l(LossKind::BrigadeLeader), (1, 2, 3));
    assert_eq!(l(LossKind::DivisionLeader), (3, 5, 8));
    let j = v.leaders[&id("jackson")];
    assert_eq!((j.wounded, j.eliminated, j.captured), (5, 10, 15));
    let bk = v.leaders[&id("banks")];
    assert_eq!((bk.wounded, bk.eliminated, bk.captured), (3, 5, 8));
    assert!(v.bce_from_roster);
}

#[test]
fn cedar_27_22_victory_hexes_exist_on_the_map() {
    let b = battle();
    let v = &b.scenario.victory;
    let hexes: Vec<_> = v.hexes.iter().map(|h| (h.hex.to_string(), h.vp)).collect();
    assert_eq!(
        hexes,
        ["2319", "1921", "1323", "3415"]
            .map(|h| (h.to_string(), 2))
            .to_vec()
    );
    for h in &v.hexes {
        let info = b.map.hex(h.hex).unwrap();
        assert!(!info.has(Terrain::Lake), "{} must be occupiable", h.hex);
        assert!(info.name.is_some(), "{} is named on the map", h.hex);
    }
    assert_eq!(v.hexes_scored_after, Some(id("confederate")));
}

#[test]
fn cedar_27_23_exit_at_0101_scores_for_the_confederates_only() {
    let b = battle();
    let e = &b.scenario.victory.exits[..];
    assert_eq!(e.len(), 1);
    assert_eq!((e[0].hex, e[0].mp), (hex("0101"), 1));
    assert_eq!(e[0].vp[&id("confederate")], 1);
    assert_eq!(e[0].vp[&id("union")], 0);
    assert!(on_edge(&b.map.grid, hex("0101")));
}

#[test]
fn cedar_25_3_replacement_chains() {
    let b = battle();
    let chain = |l: &str| {
        let r = b
            .scenario
            .replacements
            .iter()
            .find(|r| r.leader.0 == l)
            .unwrap();
        r.by.iter()
            .map(|x| x.0.as_str())
            .collect::<Vec<_>>()
            .join(",")
    };
    assert_eq!(chain("williams"), "crawford,gordon");
    assert_eq!(chain("augur"), "geary,prince,greene");
    assert_eq!(chain("winder"), "taliaferro,ronald");
    assert_eq!(chain("hill"), "branch,pender,archer,thomas");
    assert_eq!(chain("ewell"), "trimble,forno");
    // 25.31: the army commanders are not in any chain.
    assert!(b.scenario.hook(HookKind::ArmyNotReplaced).is_some());
    // 25.34: a chain drawn from another division is refused.
    let mut s = b.scenario.clone();
    s.replacements[0].by.push(id("geary"));
    assert!(
        s.check(&b.map, &b.oob)
            .iter()
            .any(|p| p.0.contains("geary"))
    );
}

#[test]
fn cedar_25_1_army_commanders_carry_command_points() {
    let b = battle();
    for (l, cp) in [("jackson", 3), ("banks", 1)] {
        assert_eq!(
            b.oob.leaders[&id(l)].role,
            LeaderRole::Army { command_points: cp }
        );
    }
    let h = b.scenario.hook(HookKind::ArmyCommandPoints).unwrap();
    assert_eq!(h.number("jackson-within"), Some(3));
    let o = b.scenario.hook(HookKind::ArtilleryOvershoot).unwrap();
    assert_eq!(o.number("from-range"), Some(9));
}

#[test]
fn cedar_21_34_lake_hexside_3119_3218_is_on_the_map() {
    let b = battle();
    let side = b
        .map
        .grid
        .hexside(hex("3119"), hex("3218"))
        .expect("adjacent");
    assert!(b.map.side_has(side, SideKind::Lake));
}

#[test]
fn cedar_21_42_cornfield_example_lines() {
    let b = battle();
    let corn_between = |from: &str, to: &str| {
        crossings(&b.map.grid, hex(from), hex(to))
            .into_iter()
            .any(|(_, c)| match c {
                Crossing::Hex(x) => {
                    x != hex(from)
                        && x != hex(to)
                        && b.map.hex(x).is_some_and(|i| i.has(Terrain::Corn))
                }
                Crossing::Along(x, y) => [x, y].iter().all(|h| {
                    *h != hex(from)
                        && *h != hex(to)
                        && b.map.hex(*h).is_some_and(|i| i.has(Terrain::Corn))
                }),
            })
    };
    assert!(b.map.hex(hex("3017")).unwrap().has(Terrain::Corn));
    assert!(
        !corn_between("2816", "3017"),
        "3017 and 2816 see each other"
    );
    assert!(corn_between("2716", "3017"), "2716 and 3017 do not");
}

#[test]
fn cedar_22_0_overshoot_example_ranges_fit_the_grid() {
    let g = battle().map.grid;
    // 3015 -> 2207 is "between 9 and 15"; 3318 -> 2207 is "16 or more".
    let d1 = g.distance(hex("3015"), hex("2207"));
    let d2 = g.distance(hex("3318"), hex("2207"));
    assert!((9..=15).contains(&d1), "{d1}");
    assert!(d2 >= 16, "{d2}");
    assert!(
        g.hexside(hex("2207"), hex("2208")).is_some(),
        "scatter to an adjacent hex"
    );
}

#[test]
fn cedar_map_is_a_reconstruction_holding_every_named_hex() {
    let b = battle();
    assert!(b.map.name.contains("reconstruction"));
    assert!(b.map.reconstruction.contains("Not the printed"));
    for h in [
        "2934", "4032", "0101", "2319", "1921", "1323", "3415", "3119", "3218", "3017", "2816",
        "2716", "3015", "3318", "2207", "2208",
    ] {
        assert!(b.map.hex(hex(h)).is_some(), "{h}");
    }
    let named = |n: &str| b.map.hexes().any(|(_, i)| i.name.as_deref() == Some(n));
    for n in [
        "Cedar Mountain",
        "The Gate",
        "Crittenden house",
        "Wheatfield",
        "Cornfield",
        "Mill pond",
    ] {
        assert!(named(n), "{n}");
    }
    // Cedar Run's forks are runs (21.35); the road reaches both ends.
    assert!(
        b.map
            .hexsides()
            .any(|(_, f)| f.iter().any(|x| x.kind == SideKind::Run))
    );
    assert!(
        b.map
            .hexsides()
            .any(|(_, f)| f.iter().any(|x| x.kind == SideKind::Trail))
    );
    assert!(
        b.map
            .hexsides()
            .any(|(_, f)| f.iter().any(|x| x.kind == SideKind::SteepCrest))
    );
}

#[test]
fn cedar_23_0_retreat_directions_and_compass() {
    let s = battle().scenario;
    let h = s.hook(HookKind::RetreatDirections).unwrap();
    assert_eq!(h.params["confederate"], "W,NW,SW");
    assert_eq!(h.params["union"], "E,NE,SE");
    assert_eq!(s.north.as_deref(), Some("left"));
}

#[test]
fn cedar_scenario_check_finds_no_problem_and_catches_omissions() {
    let b = battle();
    assert!(b.scenario.check(&b.map, &b.oob).is_empty());
    let mut s = b.scenario.clone();
    s.arrivals.pop();
    let p = s.check(&b.map, &b.oob);
    assert!(
        p.iter()
            .any(|x| x.0.contains("`archer` neither sets up nor arrives")),
        "{p:?}"
    );
    let mut s = b.scenario.clone();
    s.victory.hexes[0].hex = hex("9999");
    assert!(!s.check(&b.map, &b.oob).is_empty());
    // A scenario area that moved away from the map's printed area.
    let mut s = b.scenario.clone();
    s.areas[0].centre = hex("2011");
    let p = s.check(&b.map, &b.oob);
    assert!(
        p.iter().any(|x| x.0.contains("differs from the map")),
        "{p:?}"
    );
}

#[test]
fn cedar_26_4_entry_hexes_join_the_exit_by_road_and_trail() {
    // The Culpeper-Orange road runs from the entry at 2934 to the exit at
    // 0101; Ewell's trail from 4032 joins it by Crittenden Lane at the Gate.
    let b = battle();
    let reach = |from: &str, kinds: &[SideKind]| {
        let mut seen = BTreeSet::from([hex(from)]);
        let mut todo = vec![hex(from)];
        while let Some(h) = todo.pop() {
            for (_, n) in b.map.grid.neighbours_on_map(h) {
                let side = b.map.grid.hexside(h, n).unwrap();
                if kinds.iter().any(|k| b.map.side_has(side, *k)) && seen.insert(n) {
                    todo.push(n);
                }
            }
        }
        seen
    };
    assert!(reach("2934", &[SideKind::Road]).contains(&hex("0101")));
    let both = reach("4032", &[SideKind::Road, SideKind::Trail]);
    assert!(both.contains(&hex("0101")));
    assert!(
        both.contains(&hex("3415")),
        "the trail passes the mountain shoulder"
    );
    let gate = b
        .map
        .hexes()
        .find(|(_, i)| i.name.as_deref() == Some("The Gate"))
        .unwrap()
        .0;
    assert!(reach("2934", &[SideKind::Road]).contains(&gate));
}
