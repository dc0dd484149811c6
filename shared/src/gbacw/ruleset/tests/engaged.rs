//! Engaged units' options in the next Player-Turn (12.94): reinforce and
//! fight on (option 2), or withdraw two hexes (option 3).

use super::*;
use crate::gbacw::oob::Marker;

/// 5 Conn (0605) and 10 Va (0705), engaged across the stream, with the
/// table at `phase` of the Confederate Player-Turn; Ronald with 10 Va.
fn engaged_at(phase: Phase) -> T {
    let mut t = T::empty();
    t.put("5-conn", "0605", "n", Formation::Line);
    t.put("10-va", "0705", "n", Formation::Line);
    t.put_leader("ronald", "0705");
    t.face_towards("5-conn", "0705");
    t.face_towards("10-va", "0605");
    t.advance_to(REBEL, phase);
    for u in ["5-conn", "10-va"] {
        t.s.units
            .get_mut(&id(u))
            .unwrap()
            .status
            .markers
            .insert(Marker::Engaged);
    }
    t
}

fn withdraw(units: &[&str], path: &[&str]) -> GbacwAction {
    GbacwAction::WithdrawEngaged {
        units: ids(units),
        path: path.iter().map(|h| n(h)).collect(),
    }
}

#[test]
fn case_12_94_option_3_engaged_units_withdraw_two_hexes_and_check_morale() {
    let mut t = engaged_at(Phase::RetreatBeforeMelee);
    let legal = t.rs.legal_actions(&t.s, REBEL);
    let Some(GbacwAction::WithdrawEngaged { path, .. }) = legal
        .iter()
        .find(|a| matches!(a, GbacwAction::WithdrawEngaged { .. }))
        .cloned()
    else {
        panic!("12.94: no withdrawal offered: {legal:?}");
    };
    assert_eq!(path.len(), 2);
    let grid = &t.rs.game().map.grid;
    assert_eq!(grid.distance(n("0705"), path[1]), 2);
    // Two hexes, not one.
    t.refused(
        REBEL,
        GbacwAction::WithdrawEngaged {
            units: ids(&["10-va"]),
            path: path[..1].to_vec(),
        },
        "GBACW 12.94",
    );
    let a = GbacwAction::WithdrawEngaged {
        units: ids(&["10-va"]),
        path: path.clone(),
    };
    let ctx = crate::engine::ActionContext {
        seat: REBEL,
        seq: 1,
        by_default: false,
    };
    assert!(t.rs.rolls_dice(&t.s, &ctx, &a));
    let (events, _) = t.roll(REBEL, a, 7);
    // No withdrawal fire is offered; a morale check at the end.
    assert!(t.s.decision.is_none());
    assert!(
        events
            .iter()
            .any(|e| matches!(e, GbacwEvent::MoraleChecked { unit, .. } if *unit == id("10-va")))
    );
    let va = &t.s.units[&id("10-va")];
    assert!(!va.status.markers.contains(&Marker::Engaged));
    assert!(va.hex == Some(path[1]) || va.status.markers.contains(&Marker::Rout));
}

#[test]
fn case_12_94_option_3_only_engaged_units_and_never_unlimbered_guns() {
    let mut t = engaged_at(Phase::RetreatBeforeMelee);
    t.put("2-va", "0805", "nw", Formation::Line);
    t.refused(REBEL, withdraw(&["2-va"], &["0905", "1005"]), "GBACW 12.94");
    t.put("aleghny", "0705", "nw", Formation::Unlimbered);
    t.s.units
        .get_mut(&id("aleghny"))
        .unwrap()
        .status
        .markers
        .insert(Marker::Engaged);
    t.s.units.get_mut(&id("2-va")).unwrap().hex = None;
    let e = t
        .decide(REBEL, &withdraw(&["aleghny"], &["0805", "0905"]))
        .unwrap_err();
    assert_eq!(e.rule, "GBACW 12.94");
    assert!(e.message.contains("unlimbered"), "{e}");
}

#[test]
fn case_12_94_option_2_more_units_join_the_engaged_hex_and_fight_on() {
    let mut t = engaged_at(Phase::Movement);
    t.put("2-va", "0805", "nw", Formation::Line);
    // Never through an engaged hex...
    t.refused(REBEL, mv(&["2-va"], &["0705", "0604"]), "GBACW 12.94");
    // ...but into it.
    t.mv(REBEL, &["2-va"], &["0705"]);
    assert_eq!(t.hex("2-va"), Some(n("0705")));
    t.advance_to(REBEL, Phase::RetreatBeforeMelee);
    t.ok(
        REBEL,
        GbacwAction::DeclareMelee {
            target: n("0605"),
            attackers: ids(&["10-va", "2-va"]),
        },
    );
    assert_eq!(t.s.melees[0].attackers, ids(&["10-va", "2-va"]));
}

/// GBACW 12.94: "Other units may not move through a hex containing
/// engaged units, although units may be moved into the hex." The hexes
/// the client lights for a move (`reachable`) agree: the engaged hex is
/// lit, and every lit hex's path is one `decide` accepts, none through
/// the engaged hex (found by a new player at the client: a lit hex whose
/// move was then refused).
#[test]
fn case_12_94_the_lit_hexes_never_pass_through_an_engaged_hex() {
    let mut t = engaged_at(Phase::Movement);
    t.put("2-va", "0805", "nw", Formation::Line);
    let engaged = n("0705");
    let reach = t.rs.reachable(&t.s, &id("2-va")).expect("2 Va may move");
    assert!(reach.hexes.contains_key(&engaged), "into the engaged hex");
    let mut checked = 0;
    for &hex in reach.hexes.keys().filter(|h| **h != reach.start) {
        let path = reach.path_to(hex).expect("a lit hex has a path");
        assert!(
            !path[..path.len() - 1].contains(&engaged),
            "{hex} is lit through the engaged hex: {path:?}"
        );
        let hexes: Vec<String> = path[1..].iter().map(|h| h.to_string()).collect();
        let hexes: Vec<&str> = hexes.iter().map(String::as_str).collect();
        if let Err(e) = t.decide(REBEL, &mv(&["2-va"], &hexes)) {
            panic!("{hex} is lit but its move is refused: {e}");
        }
        checked += 1;
    }
    assert!(checked > 3, "only {checked} hexes lit");
}
