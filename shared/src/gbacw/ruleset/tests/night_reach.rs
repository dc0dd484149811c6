//! Corinth 26.13 in the movement queries, and GBACW 17.52 at night: the
//! hexes a piece can reach (`Gbacw::reachable`) are those a night move
//! may enter, so 17.52 never holds up the end of a night Movement Phase
//! for a lone leader whose every way out passes next to the enemy (the
//! solitaire day-2 game stalled so, its Confederate Movement Phase of
//! Game-Turn 17 refused to end by 17.52 while 26.13 refused every move).

use super::corinth::{give, started, to_turn};
use super::*;

/// Night (Game-Turn 17, the Union Movement Phase), Hackleman alone in the
/// woods at 1326 with six Confederate regiments two hexes off, one down
/// each of his six hexsides: every hex next to him is next to one of them.
fn ringed_leader() -> T {
    let mut t = started();
    // The first day's total keeps the game going into the night (31.2).
    give(&mut t, &["2437", "1934", "1838", "1942", "2729", "3844"]);
    to_turn(&mut t, 17);
    t.advance_to(UNION, Phase::Movement);
    assert!(t.rs.game().scenario.is_night(17));
    let at = n("1326");
    t.put_leader("hackleman", "1326");
    let grid = t.rs.game().map.grid.clone();
    let ring: Vec<HexNumber> = grid
        .neighbours_on_map(at)
        .into_iter()
        .filter_map(|(d, next)| {
            grid.neighbours_on_map(next)
                .into_iter()
                .find(|(e, _)| *e == d)
                .map(|(_, h)| h)
        })
        .collect();
    assert_eq!(ring.len(), 6);
    let rebels = ["9-ark", "7-ky", "15-miss", "31-ala", "4-ala-bn", "6-miss"];
    for (unit, hex) in rebels.iter().zip(&ring) {
        t.s.progress.to_arrive.remove(&id(unit));
        t.put(unit, &hex.to_string(), "n", Formation::Line);
    }
    t
}

#[test]
fn corinth_26_13_at_night_a_leader_reaches_no_hex_next_to_the_enemy() {
    let t = ringed_leader();
    let at = n("1326");
    // Every step out is refused by 26.13 ...
    for (_, next) in t.rs.game().map.grid.neighbours_on_map(at) {
        t.refused(
            UNION,
            mv(&["hackleman"], &[&next.to_string()]),
            "Corinth 26.13",
        );
    }
    // ... and the movement query (the client's highlight, the legal set's
    // moves, 17.52's "a hex he can still reach") offers none of them.
    let reach = t.rs.reachable(&t.s, &id("hackleman")).unwrap();
    assert_eq!(reach.hexes.keys().copied().collect::<Vec<_>>(), vec![at]);
    let legal = t.rs.legal_actions(&t.s, UNION);
    assert!(
        !legal.iter().any(|a| matches!(
            a,
            GbacwAction::Move { pieces, .. } if pieces == &ids(&["hackleman"])
        )),
        "{legal:?}"
    );
}

#[test]
fn case_17_52_at_night_a_leader_with_no_way_out_does_not_hold_up_the_phase() {
    // Alone within four hexes of the enemy (17.52), but no hex he can
    // reach at night satisfies the rule: the phase ends.
    let mut t = ringed_leader();
    let before = t.s.clock;
    t.ok(UNION, GbacwAction::EndPhase);
    assert_ne!(t.s.clock, before, "the Movement Phase ended");
    assert_eq!(t.hex("hackleman"), Some(n("1326")));
}
