//! Where a melee may go and where a defender may retreat before it, on
//! the Corinth map: GBACW 12.33 with Corinth 23.31 (mounted cavalry melee
//! into a town hex only across a road, as they move), and GBACW 12.81's
//! one *or two* hexes offered by the legal set, each accepted by
//! `decide`. The Confederate Player-Turn of Game-Turn 3, after the default
//! Union set-up (`corinth_melee::base`).

use super::corinth_melee::{base, melee};
use super::*;
use crate::gbacw::oob::Marker;

/// Adams' cavalry (independent: always in command, 5.3) mounted at
/// `from`, facing the town hex 2834, where 52 Ill stands; the Confederate
/// Retreat Before Melee Phase.
fn town_field(from: &str) -> T {
    let mut t = base();
    t.corinth_unit("adams-cav", from, Formation::Mounted);
    t.face_towards("adams-cav", "2834");
    t.corinth_unit("52-ill", "2834", Formation::Line);
    t.advance_to(REBEL, Phase::RetreatBeforeMelee);
    t.s.command.out_of_command.clear();
    t
}

#[test]
fn case_12_33_and_corinth_23_31_mounted_cavalry_melee_into_town_only_across_a_road() {
    // The map as the seed's example reads: 2833/2834 is a road hexside,
    // 2934/2834 is not, and 2834 is a town hex.
    let t = town_field("2934");
    let map = &t.rs.game().map;
    let road = |a: &str, b: &str| {
        let side = map.grid.hexside(n(a), n(b)).unwrap();
        map.side_has(side, crate::gbacw::map::SideKind::Road)
    };
    assert!(road("2833", "2834") && !road("2934", "2834"));
    // From 2934 the horses could not move into 2834, so may not melee it;
    // the refusal names the rule that closes the step.
    let e = t.refused(REBEL, melee("2834", &["adams-cav"]), "Corinth 23.31");
    assert!(e.to_string().contains("may not melee"), "{e}");
    // Nor does the legal set (the client's melee orders) offer it.
    let legal = t.rs.legal_actions(&t.s, REBEL);
    assert!(!legal.contains(&melee("2834", &["adams-cav"])), "{legal:?}");
    // From 2833, across the road, the melee may be declared, and is offered.
    let mut t = town_field("2833");
    let legal = t.rs.legal_actions(&t.s, REBEL);
    assert!(legal.contains(&melee("2834", &["adams-cav"])), "{legal:?}");
    t.ok(REBEL, melee("2834", &["adams-cav"]));
    // Foot may melee from 2934: the town's road rule names only guns,
    // wagons and mounted cavalry (9 Ark, infantry, in Adams' place).
    let mut t = town_field("2833");
    t.corinth_unit("9-ark", "2934", Formation::Line);
    t.face_towards("9-ark", "2834");
    t.s.command.out_of_command.clear();
    t.ok(REBEL, melee("2834", &["9-ark"]));
}

#[test]
fn case_12_33_without_corinth_23_31_the_chart_alone_decides() {
    // With the town rule off (the chart's own steps: what the ruleset
    // builds without `hook town-road-entry`), 2934 -> 2834 is an ordinary
    // town step for horses and the melee may be declared.
    let mut t = town_field("2934");
    *t.rs.steps =
        crate::gbacw::movement::StepTable::new(&t.rs.game.map, &t.rs.game.charts.movement);
    t.ok(REBEL, melee("2834", &["adams-cav"]));
}

/// Every path of one or two hexes stepping away from `from`, by geometry
/// alone.
fn paths_away(t: &T, from: HexNumber) -> Vec<Vec<HexNumber>> {
    let grid = &t.rs.game().map.grid;
    let mut out = Vec::new();
    for (_, a) in grid.neighbours_on_map(from) {
        out.push(vec![a]);
        for (_, b) in grid.neighbours_on_map(a) {
            if grid.distance(from, b) == 2 {
                out.push(vec![a, b]);
            }
        }
    }
    out
}

fn rbm(path: Vec<HexNumber>) -> GbacwAction {
    GbacwAction::RetreatBeforeMelee {
        units: ids(&["10-va"]),
        path,
    }
}

#[test]
fn case_12_81_the_legal_set_offers_every_retreat_before_melee_of_one_or_two_hexes() {
    let t = super::melee::duel_declared();
    let legal = t.rs.legal_actions(&t.s, REBEL);
    // Exactly the paths `decide` accepts, among all one- and two-hex
    // paths away from 0705 (12.81), none into 5 Conn's ZOC (12.82).
    let mut offered = 0;
    let mut two = 0;
    for path in paths_away(&t, n("0705")) {
        let len = path.len();
        let a = rbm(path);
        let accepted = t.decide(REBEL, &a).is_ok();
        assert_eq!(legal.contains(&a), accepted, "{a:?}");
        offered += usize::from(accepted);
        two += usize::from(accepted && len == 2);
    }
    assert!(two > 0, "no two-hex retreat offered: {legal:?}");
    // Nothing else but standing fast.
    let others: Vec<&GbacwAction> = legal
        .iter()
        .filter(|a| !matches!(a, GbacwAction::RetreatBeforeMelee { .. }))
        .collect();
    assert_eq!(others, vec![&GbacwAction::StandFast]);
    assert_eq!(legal.len(), offered + 1);
}

#[test]
fn case_12_83_a_two_hex_retreat_from_the_legal_set_takes_the_unit_two_hexes() {
    let t = super::melee::duel_declared();
    let legal = t.rs.legal_actions(&t.s, REBEL);
    let (go, end) = legal
        .iter()
        .find_map(|a| match a {
            GbacwAction::RetreatBeforeMelee { path, .. } if path.len() == 2 => {
                Some((a.clone(), path[1]))
            }
            _ => None,
        })
        .expect("a two-hex retreat offered");
    // 12.83: withdrawal fire declined, then the morale check: passed, 10 Va
    // stands two hexes from 0705; failed, it routs on (13.31).
    let mut arrived = 0;
    for seed in 0..20 {
        let mut t = T {
            rs: t.rs.clone(),
            s: t.s.clone(),
            script: Default::default(),
        };
        t.roll(REBEL, go.clone(), seed);
        t.roll(UNION, GbacwAction::DeclineWithdrawalFire, seed);
        let u = &t.s.units[&id("10-va")];
        assert!(u.hex == Some(end) || u.status.markers.contains(&Marker::Rout));
        arrived += usize::from(u.hex == Some(end));
        assert!(t.s.rbm.is_none());
    }
    assert!(arrived > 0, "10 Va never passed its morale check");
}
