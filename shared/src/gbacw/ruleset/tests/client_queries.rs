//! The client's queries against the rules they preview: the drag-a-path
//! preview (`Gbacw::path_preview`) against the move's own validation (the
//! same costs, the same refusals), and the drawn command radius
//! (`Gbacw::command_radius`) against the Initial Command Phase's check.

use super::*;

/// Union's Movement Phase on an empty field with 5 Conn (6 SP, line).
fn field() -> T {
    let mut t = T::empty();
    t.advance_to(UNION, Phase::Movement);
    t.put("5-conn", "0107", "se", Formation::Line);
    t
}

fn path(hexes: &[&str]) -> Vec<HexNumber> {
    hexes.iter().map(|h| n(h)).collect()
}

#[test]
fn case_5_11_path_preview_runs_the_cost_and_stops_where_the_move_is_refused() {
    let mut t = field();
    // Five clear hexes, then corn (2): 7 Movement Points of line's 6.
    let long = ["0207", "0307", "0407", "0507", "0607", "0707"];
    let p = t.rs.path_preview(&t.s, &ids(&["5-conn"]), &path(&long));
    let whole: Vec<Mp> = (1..=5).map(Mp::from_whole).collect();
    assert_eq!(p.spent, whole);
    assert_eq!(p.left, Mp::from_whole(6));
    assert_eq!(
        p.refused.as_ref().map(|e| e.rule.as_str()),
        Some("GBACW 5.11")
    );
    assert_eq!(p.stop, Ok(()));
    // The move itself refuses the whole path by the same case and takes
    // the allowed part at the previewed cost.
    t.refused(UNION, mv(&["5-conn"], &long), "GBACW 5.11");
    t.mv(UNION, &["5-conn"], &long[..5]);
    assert_eq!(t.spent("5-conn"), Mp::from_whole(5));
}

#[test]
fn case_5_16_path_preview_refuses_a_hex_not_next_to_the_last() {
    let t = field();
    let p =
        t.rs.path_preview(&t.s, &ids(&["5-conn"]), &path(&["0207", "0407"]));
    assert_eq!(p.spent, [Mp::from_whole(1)]);
    assert_eq!(
        p.refused.as_ref().map(|e| e.rule.as_str()),
        Some("GBACW 5.16")
    );
    t.refused(UNION, mv(&["5-conn"], &["0207", "0407"]), "GBACW 5.16");
}

/// The client's drawn command radius (`Gbacw::command_radius`).
#[test]
fn case_17_12_command_radius_is_the_effectiveness_radius_traced_as_17_11() {
    let t = T::new();
    let r = t.rs.command_radius(&t.s, &id("crawford")).unwrap();
    assert_eq!((r.rule, r.radius, r.centre), ("GBACW 17.12", 5, n("0305")));
    let grid = &t.rs.game().map.grid;
    assert!(r.hexes.iter().all(|h| grid.distance(n("0305"), *h) <= 5));
    assert!(
        r.hexes.contains(&n("0306")),
        "10 Me, his regiment, is in it"
    );
    // Every unit of his brigade on the map is in command by the phase's
    // own check exactly when its hex is in the drawn radius (or stacked
    // with a leader).
    let check = t.rs.command_preview(&t.s, &id("union"));
    for u in t.rs.game().oob.brigade_units(&id("crawford")) {
        let Some(h) = t.s.units[&u.id].hex else {
            continue;
        };
        if r.hexes.contains(&h) {
            assert!(!check.out_of_command.contains(&u.id), "{}", u.id);
        }
    }
    // GBACW 17.21: a division commander's is his Integrity Radius; an
    // army commander has none drawn.
    let d = t.rs.command_radius(&t.s, &id("williams")).unwrap();
    assert_eq!((d.rule, d.radius), ("GBACW 17.21", 6));
    assert!(t.rs.command_radius(&t.s, &id("banks")).is_none());
}

/// Corinth 26.42: the barrage panel's batteries and targets
/// (`Gbacw::barrage_batteries`) are exactly the single-battery attacks
/// `BarrageFire` accepts, and a battery that has fired is listed no more.
#[test]
fn corinth_26_42_barrage_batteries_offer_exactly_the_attacks_barrage_fire_accepts() {
    let (mut t, _) = super::corinth_night::barrage_on_21_mo();
    let target = t.hex("21-mo").unwrap();
    let grid = t.rs.game().map.grid.clone();
    let listed = t.rs.barrage_batteries(&t.s);
    let bryan = listed
        .iter()
        .find(|b| b.unit == id("bryan"))
        .expect("Bryan may fire");
    assert!(bryan.targets.contains(&target));
    // Every enemy hex: listed exactly when the table takes the attack.
    let enemy: std::collections::BTreeSet<HexNumber> =
        t.s.units
            .iter()
            .filter(|(c, _)| t.rs.game().oob.units[*c].side == id("union"))
            .filter_map(|(_, u)| u.hex)
            .collect();
    for b in &listed {
        for h in &enemy {
            let ctx = crate::engine::ActionContext {
                seat: REBEL,
                seq: 1,
                by_default: false,
            };
            let mut dice = Dice::from_stream(crate::dice::DiceStream::from_seed(b"q"));
            let fire = GbacwAction::BarrageFire {
                target: *h,
                firers: vec![b.unit.clone()],
            };
            let taken = t.rs.decide(&t.s, &ctx, &fire, &mut dice).is_ok();
            assert_eq!(b.targets.contains(h), taken, "{} at {h}", b.unit);
            assert!(!taken || grid.distance(b.hex, *h) < 9);
        }
    }
    assert_eq!(
        t.rs.check_barrage(&t.s, target, &[id("bryan")])
            .map_err(|e| e.rule),
        Ok(())
    );
    t.roll(
        REBEL,
        GbacwAction::BarrageFire {
            target,
            firers: vec![id("bryan")],
        },
        3,
    );
    assert!(
        t.rs.barrage_batteries(&t.s)
            .iter()
            .all(|b| b.unit != id("bryan"))
    );
    // The refusal the panel shows is the table's, with its case.
    let again =
        t.rs.check_barrage(&t.s, target, &[id("bryan")])
            .unwrap_err();
    assert_eq!(again.rule, "Corinth 26.42");
    // No barrage, no batteries.
    let quiet = super::corinth::started();
    assert!(quiet.rs.barrage_batteries(&quiet.s).is_empty());
    assert_eq!(quiet.rs.barrage_side(&quiet.s), None);
}
