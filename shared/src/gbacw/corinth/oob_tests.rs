//! The Corinth order of battle against the OOB text, the counter sheet and
//! the OB Rosters (001), and the loader check of BCE totals.

use super::*;
use crate::gbacw::charts::Charts;
use crate::gbacw::oob::roster::Mismatch;
use crate::gbacw::oob::{Command, CounterId, LeaderRole, Morale, Oob, Rank, UnitKind};

fn oob() -> Oob {
    let range = Charts::load(crate::gbacw::charts::tests::CHARTS)
        .unwrap()
        .range;
    load_oob(&range).unwrap_or_else(|e| panic!("corinth.oob: {e}"))
}

fn id(s: &str) -> CounterId {
    CounterId::parse(s).unwrap()
}

fn side(o: &Oob, who: &str) -> Vec<CounterId> {
    o.units
        .values()
        .filter(|u| u.side.0 == who)
        .map(|u| u.id.clone())
        .collect()
}

#[test]
fn corinth_20_3_every_counter_of_the_sheet_is_in_the_order_of_battle() {
    let o = oob();
    // Counter sheet (R2): 80 Union and 80 Confederate combat counters, of
    // which three in the Confederate half are Union (2 Iowa battery, 3 Ohio,
    // 64 Ill SS).
    assert_eq!(side(&o, "union").len(), 83);
    assert_eq!(side(&o, "confederate").len(), 77);
    let leaders = |who: &str| o.leaders.values().filter(|l| l.side.0 == who).count();
    assert_eq!((leaders("union"), leaders("confederate")), (19, 19));
}

#[test]
fn corinth_29_42_the_eleven_union_brigades_and_their_bce() {
    let o = oob();
    let eleven = [
        "fuller",
        "mower",
        "buford",
        "sullivan",
        "hackleman",
        "oglesby",
        "baldwin",
        "mcarthur",
        "oliver",
        "crocker",
        "mizner",
    ];
    let union_brigades: Vec<&str> = o
        .leaders
        .values()
        .filter(|l| l.side.0 == "union" && matches!(l.role, LeaderRole::Brigade { .. }))
        .map(|l| l.id.0.as_str())
        .collect();
    assert_eq!(union_brigades.len(), 11);
    for b in eleven {
        assert!(union_brigades.contains(&b), "{b}");
        assert!(o.bce.contains_key(&id(b)), "{b} has a roster record");
        assert!(o.brigade_units(&id(b)).count() >= 3, "{b}");
    }
}

#[test]
fn corinth_29_2_confederate_divisions_and_brigades() {
    let o = oob();
    for (div, brigades) in [
        ("hebert", &["gates", "colbert", "green", "martin"][..]),
        ("maury", &["moore", "cabell", "phifer"][..]),
        ("lovell", &["rust", "villepigue", "bowen"][..]),
    ] {
        for b in brigades {
            let LeaderRole::Brigade { division, .. } = &o.leaders[&id(b)].role else {
                panic!("{b} is not a brigade");
            };
            assert_eq!(division.as_ref(), Some(&id(div)), "{b}");
        }
    }
    // 28.14: Price leads the Army of the West (Hebert, Maury), not Lovell.
    let army = |d: &str| match &o.leaders[&id(d)].role {
        LeaderRole::Division { army, .. } => army.clone(),
        _ => None,
    };
    assert_eq!(army("hebert"), Some(id("price")));
    assert_eq!(army("maury"), Some(id("price")));
    assert_eq!(army("lovell"), Some(id("van-dorn")));
    // 29.26: these must be assigned to Hebert or Maury, so they exist.
    for x in ["hoxton", "sengstak"] {
        assert_eq!(o.units[&id(x)].command, Command::Independent, "{x}");
    }
    for x in ["price", "van-dorn", "rosecrans"] {
        assert!(
            matches!(o.leaders[&id(x)].role, LeaderRole::Army { .. }),
            "{x}"
        );
    }
}

#[test]
fn corinth_28_2_division_commanders_have_no_dir_and_28_32_ranks_are_known() {
    let o = oob();
    for l in o.leaders.values() {
        if let LeaderRole::Division {
            integrity_radius, ..
        } = l.role
        {
            assert_eq!(integrity_radius, 0, "{}", l.id);
        }
        if !matches!(l.role, LeaderRole::Replacement { .. }) {
            assert!(o.extras_of(&l.id).rank.is_some(), "{} has a rank", l.id);
        }
    }
    // 20.2: the Confederates have one general's symbol.
    assert_eq!(o.extras_of(&id("moore")).rank, Some(Rank::General));
    assert_eq!(o.extras_of(&id("gates")).rank, Some(Rank::Colonel));
    // 28.32: Hamilton's successor is Buford (BG, ER 4) over Sullivan (BG,
    // ER 3); McKean's is McArthur, the only general.
    let senior = |div: &str| -> Vec<String> {
        let brigades: Vec<_> = o
            .leaders
            .values()
            .filter(
                |l| matches!(&l.role, LeaderRole::Brigade { division: Some(d), .. } if d.0 == div),
            )
            .collect();
        let best = |l: &&crate::gbacw::oob::Leader| {
            let er = match &l.role {
                LeaderRole::Brigade { ratings, .. } => ratings.effectiveness_radius,
                _ => 0,
            };
            (o.extras_of(&l.id).rank.map_or(0, Rank::seniority), er)
        };
        let top = brigades.iter().map(best).max();
        brigades
            .iter()
            .filter(|l| Some(best(l)) == top)
            .map(|l| l.id.0.clone())
            .collect()
    };
    assert_eq!(senior("hamilton"), ["buford"]);
    assert_eq!(senior("mckean"), ["mcarthur"]);
    assert_eq!(senior("davies"), ["hackleman", "oglesby"]);
    assert_eq!(senior("maury"), ["cabell"]);
    assert_eq!(senior("hebert"), ["green"]);
}

#[test]
fn corinth_25_0_every_brigade_adds_up_to_its_roster_bce_except_moore() {
    let o = oob();
    let (check, unexpected) = roster_report(&o);
    assert!(
        unexpected.is_empty(),
        "unexpected mismatches: {unexpected:?}"
    );
    assert!(
        check.without_record.is_empty(),
        "{:?}",
        check.without_record
    );
    // 11 Union and 12 Confederate brigades, every one compared.
    assert_eq!(check.brigades.len(), 23);
    // The known mismatch is reported, not hidden: Moore 19 against 21.
    let moore: Vec<_> = check
        .mismatches
        .iter()
        .filter_map(|m| match m {
            Mismatch::Brigade(b) => Some((b.brigade.0.as_str(), b.counters, b.roster)),
            Mismatch::Unit { .. } => None,
        })
        .collect();
    assert_eq!(moore, [("moore", 19, 21)]);
    assert!(
        check
            .mismatches
            .iter()
            .any(|m| m.to_string().contains("moore"))
    );
    // And M 1 Mo a's guns: PA4 on the counter, 3 boxes on the roster.
    assert!(check.mismatches.iter().any(|m| matches!(
        m,
        Mismatch::Unit { unit, counter: 4, roster: 3 } if unit.0 == "m-1-mo-a"
    )));
    assert!(check.units_checked >= 30);
}

#[test]
fn corinth_26_31_two_bce_levels_except_lovell_and_the_confederate_cavalry() {
    let o = oob();
    for (b, rec) in &o.bce {
        let day2 = o.extras_of(b).bce_day2;
        let day2 = day2.unwrap_or_else(|| panic!("{b} has a second-day limit"));
        assert!(rec.limit <= day2 && day2 <= rec.total, "{b}");
        // 26.33: one level for Lovell's brigades and the Confederate cavalry.
        let single =
            ["rust", "villepigue", "bowen", "armstrong", "jackson"].contains(&b.0.as_str());
        assert_eq!(day2 == rec.limit, single, "{b}");
    }
    // 26.32's example: Cabell 9 of 16, 11 on the second day, 1 VP.
    let cabell = o.bce[&id("cabell")];
    assert_eq!(
        (cabell.limit, cabell.total, cabell.victory_points),
        (9, 16, 1)
    );
    assert_eq!(o.extras_of(&id("cabell")).bce_day2, Some(11));
}

#[test]
fn corinth_21_3_five_sharpshooter_units() {
    let o = oob();
    let ss: Vec<(&str, &str)> = o
        .units
        .values()
        .filter(|u| o.extras_of(&u.id).sharpshooter)
        .map(|u| (u.side.0.as_str(), u.id.0.as_str()))
        .collect();
    assert_eq!(ss.len(), 5, "{ss:?}");
    assert_eq!(ss.iter().filter(|(s, _)| *s == "union").count(), 2);
}

#[test]
fn corinth_21_4_dismounted_cavalry_is_morale_2_and_fought_as_infantry_units_are_infantry() {
    let o = oob();
    for u in o.units.values().filter(|u| u.kind == UnitKind::Cavalry) {
        assert!(
            matches!(u.morale, Morale::Rated(2) | Morale::Green),
            "{}",
            u.id
        );
    }
    // 21.43: the "*" regiments of the OOB (RTD backs) are infantry.
    for x in [
        "27-tex-cav",
        "3-tex-cav",
        "1-mo-cav",
        "3-mo-cav",
        "3-ark-cav",
        "6-tex-cav",
        "9-tex-cav",
    ] {
        assert_eq!(o.units[&id(x)].kind, UnitKind::Infantry, "{x}");
    }
}

#[test]
fn corinth_29_44_union_artillery_eleven_independent_plus_three_redan_batteries() {
    let o = oob();
    let indpnt: Vec<&str> = o
        .units
        .values()
        .filter(|u| u.side.0 == "union")
        .filter(|u| matches!(u.kind, UnitKind::Battery { .. }) && u.command == Command::Independent)
        .map(|u| u.id.0.as_str())
        .collect();
    assert_eq!(indpnt.len(), 14, "{indpnt:?}");
    for r in ["robinett", "phillips", "williams"] {
        assert!(indpnt.contains(&r));
    }
    // 24.3: the siege guns are HC (Phillips) and PC (Williams).
    assert_eq!(o.units[&id("phillips")].weapon.as_deref(), Some("HC"));
    assert_eq!(o.units[&id("williams")].weapon.as_deref(), Some("PC"));
}

#[test]
fn corinth_29_47_and_30_1_named_units_exist() {
    let o = oob();
    // Reinforcements (29.47) and historical set-up units (30.12-30.16).
    for (u, brigade) in [
        ("union-bd", "hackleman"),
        ("18-mo", "oliver"),
        ("5-iowa", "buford"),
        ("22-ohio", "oglesby"),
        ("7-ill-cav", "mizner"),
        ("2-iowa-cav", "mizner"),
        ("7-kans-cav", "mizner"),
        ("3-mich-cav", "mizner"),
        ("11-ill-cav", "mizner"),
        ("5-ohio-cav", "mizner"),
    ] {
        assert_eq!(
            o.units[&id(u)].command,
            Command::Brigade(id(brigade)),
            "{u}"
        );
    }
    for u in ["64-ill-ss", "14-mo-ss"] {
        assert_eq!(o.units[&id(u)].command, Command::Independent, "{u}");
    }
    // Every division and the reserve have a supply wagon.
    let wagons = o
        .units
        .values()
        .filter(|u| matches!(u.kind, UnitKind::Wagon { .. }))
        .count();
    assert_eq!(wagons, 4 + 4);
}

#[test]
fn corinth_provisional_values_say_why() {
    let o = oob();
    let provisional: Vec<_> = o
        .extras
        .iter()
        .filter_map(|(k, x)| x.provisional.as_ref().map(|p| (k, p)))
        .collect();
    assert!(provisional.len() > 50);
    for (k, why) in &provisional {
        assert!(why.len() > 10, "{k}: {why}");
    }
    // The GAPs the digest lists are all marked.
    for k in [
        "van-dorn", "hamilton", "davies", "mckean", "mower", "colbert", "martin", "phifer",
        "gates", "williams", "27-ohio",
    ] {
        assert!(o.extras_of(&id(k)).provisional.is_some(), "{k}");
    }
    // Values printed in the seeds are not marked.
    for k in [
        "rosecrans",
        "price",
        "cabell",
        "robinett",
        "2-tex",
        "11-iowa",
    ] {
        assert!(o.extras_of(&id(k)).provisional.is_none(), "{k}");
    }
}

#[test]
fn corinth_29_42_brigade_counts_near_the_areas_and_the_hotel() {
    use super::setup::{BrigadeCountViolation, Placement, brigade_zones, check_29_41, check_29_42};
    let m = load_map().unwrap();
    let o = oob();
    // Put each brigade's infantry and cavalry in one legal hex: seven
    // brigades on the western front (5-10 hexes from Area E), three around
    // the hotel, Mizner in the south-east.
    let spots = [
        ("fuller", "0627"),
        ("mower", "0631"),
        ("buford", "0819"),
        ("sullivan", "0822"),
        ("hackleman", "0527"),
        ("oglesby", "0633"),
        ("baldwin", "0838"),
        ("mcarthur", "2636"),
        ("oliver", "2838"),
        ("crocker", "2440"),
        ("mizner", "3543"),
    ];
    let mut setup = Vec::new();
    for (b, h) in spots {
        for u in o.brigade_units(&id(b)) {
            if matches!(u.kind, UnitKind::Infantry | UnitKind::Cavalry) {
                setup.push(Placement {
                    counter: u.id.clone(),
                    hex: hex(h).unwrap(),
                });
            }
        }
    }
    assert!(check_29_41(&m, &setup).is_empty());
    let z = brigade_zones(&m, &o, &setup);
    assert_eq!(z.near_assault_areas.len(), 7, "{z:?}");
    assert_eq!(z.near_hotel.len(), 3, "{z:?}");
    assert!(check_29_42(&m, &o, &setup).is_empty());
    // Move Crocker out to the west: only two stay by the hotel, and eight
    // near an area is one too many.
    for p in setup.iter_mut() {
        if o.units[&p.counter].command == Command::Brigade(id("crocker")) {
            p.hex = hex("0730").unwrap();
        }
    }
    let v = check_29_42(&m, &o, &setup);
    assert_eq!(
        v,
        [
            BrigadeCountViolation::AssaultAreas { found: 8 },
            BrigadeCountViolation::Hotel { found: 2 }
        ]
    );
    assert!(v[1].to_string().contains("Tishomingo"));
}
