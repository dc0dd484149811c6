//! Corinth 21.2 (no divisional integrity), 28.0 (army and division
//! commanders' Command Points, leader replacement) and 21.43/21.44
//! (cavalry and the brigade commander's ER) on the Historical Scenario.

use super::corinth::{started, to_turn};
use super::*;
use crate::gbacw::ruleset::combat::succession;
use crate::gbacw::ruleset::corinth::command;
use crate::gbacw::ruleset::state::{Casualty, SuccessionKind};

/// The Union Initial Command Phase of Game-Turn 4.
fn union_command() -> T {
    let mut t = started();
    to_turn(&mut t, 4);
    t.advance_to(UNION, Phase::InitialCommand);
    t
}

fn spend(leader: &str, brigade: &str, points: u8) -> GbacwAction {
    GbacwAction::SpendCommandPoints {
        division: id(leader),
        brigade: id(brigade),
        points,
    }
}

/// A hex `k` hexes from `from` along a straight line (flat map, south).
fn away(t: &T, from: &str, k: u8) -> String {
    let h = n(from);
    let mut at = h;
    for _ in 0..k {
        at = t
            .rs
            .game()
            .map
            .grid
            .neighbours_on_map(at)
            .into_iter()
            .map(|(_, x)| x)
            .find(|x| t.rs.game().map.grid.distance(h, *x) > t.rs.game().map.grid.distance(h, at))
            .unwrap();
    }
    at.to_string()
}

#[test]
fn corinth_21_2_every_brigade_is_independent() {
    let mut t = union_command();
    // Division commanders have no radius (dir=0): yet no brigade
    // commander is out of one.
    let events = t.ok(UNION, GbacwAction::EndPhase);
    let check = events
        .iter()
        .find_map(|e| match e {
            GbacwEvent::CommandChecked(c) => Some(c.clone()),
            _ => None,
        })
        .unwrap();
    assert!(check.out_of_radius.is_empty(), "{check:?}");
    let t = union_command();
    t.refused(
        UNION,
        GbacwAction::Detach {
            brigade: id("hackleman"),
        },
        "Corinth 21.2",
    );
    t.refused(
        UNION,
        GbacwAction::Attach {
            brigade: id("hackleman"),
            division: id("mckean"),
        },
        "Corinth 21.2",
    );
}

#[test]
fn corinth_28_11_the_army_commander_raises_any_brigade_commanders_er_within_three_hexes() {
    let mut t = union_command();
    let at = t.hex("mcarthur").unwrap().to_string();
    t.put_leader("rosecrans", &away(&t, &at, 4));
    t.refused(UNION, spend("rosecrans", "mcarthur", 1), "Corinth 28.11");
    t.put_leader("rosecrans", &away(&t, &at, 3));
    let events = t.ok(UNION, spend("rosecrans", "mcarthur", 1));
    assert!(matches!(
        &events[0],
        GbacwEvent::CommandPointsSpent { division, brigade, points: 1 }
            if *division == id("rosecrans") && *brigade == id("mcarthur")
    ));
    assert_eq!(
        t.s.leaders[&id("mcarthur")].augmented,
        Some((id("rosecrans"), 1))
    );
    // Two points in all (20.1's sample counter).
    t.ok(UNION, spend("rosecrans", "mcarthur", 1));
    t.refused(UNION, spend("rosecrans", "mcarthur", 1), "Corinth 28.11");
    // Only brigade commanders' radii.
    t.put_leader("mckean", &away(&t, &at, 1));
    t.refused(UNION, spend("rosecrans", "mckean", 1), "Corinth 28.11");
}

#[test]
fn corinth_28_14_price_affects_only_the_army_of_the_west() {
    let t = started();
    for b in [
        "gates",
        "colbert",
        "green",
        "martin",
        "moore",
        "cabell",
        "phifer",
        "armstrong",
    ] {
        assert!(command::army_reaches(&t.rs, &id("price"), &id(b)), "{b}");
    }
    // Lovell's division and (derived) Jackson's cavalry are not his.
    for b in ["rust", "villepigue", "bowen", "jackson"] {
        assert!(!command::army_reaches(&t.rs, &id("price"), &id(b)), "{b}");
    }
    // Van Dorn commands them all.
    for b in ["rust", "gates", "jackson", "armstrong"] {
        assert!(command::army_reaches(&t.rs, &id("van-dorn"), &id(b)), "{b}");
    }
    // Through the spending: Price next to Rust is refused.
    let mut t = started();
    for l in ["price", "rust", "gates"] {
        t.s.progress.to_arrive.remove(&id(l));
    }
    t.put_leader("price", "1010");
    t.put_leader("rust", "1011");
    t.put_leader("gates", "1111");
    let side = id("confederate");
    let r = command::spend(&t.rs, &t.s, &side, &id("price"), &id("rust"), 1).unwrap();
    assert_eq!(r.unwrap_err().rule, "Corinth 28.14");
    let r = command::spend(&t.rs, &t.s, &side, &id("price"), &id("gates"), 1).unwrap();
    assert!(r.is_ok());
}

#[test]
fn corinth_28_21_division_commanders_raise_only_their_own_brigades_at_any_distance() {
    let mut t = union_command();
    // Davies and Hackleman far apart: no DIR, no limit.
    let at = t.hex("hackleman").unwrap().to_string();
    t.put_leader("davies", &away(&t, &at, 8));
    t.ok(UNION, spend("davies", "hackleman", 1));
    t.refused(UNION, spend("davies", "mcarthur", 1), "Corinth 28.21");
    // Davies has one Command Point (provisional, as McKean).
    t.refused(UNION, spend("davies", "oglesby", 1), "Corinth 28.11");
    // One commander at a time (17.22).
    let at = t.hex("mcarthur").unwrap().to_string();
    t.put_leader("rosecrans", &away(&t, &at, 1));
    t.ok(UNION, spend("mckean", "mcarthur", 1));
    t.refused(UNION, spend("rosecrans", "mcarthur", 1), "GBACW 17.22");
}

/// `leader` taken out of play, killed.
fn lose(t: &mut T, leader: &str) {
    let l = t.s.leaders.get_mut(&id(leader)).unwrap();
    l.hex = None;
    l.casualty = Some(Casualty::Killed);
}

#[test]
fn corinth_28_32_the_highest_ranked_brigade_commander_then_the_higher_er_is_promoted() {
    let t = started();
    // McKean: McArthur is his only general (Crocker comes first by id).
    let c = command::by_rank(&t.rs, &t.s, ids(&["crocker", "mcarthur", "oliver"]));
    assert_eq!(c[0], id("mcarthur"));
    // Hamilton: Buford and Sullivan are generals; Buford has ER 4.
    let c = command::by_rank(&t.rs, &t.s, ids(&["sullivan", "buford"]));
    assert_eq!(c[0], id("buford"));
    // Maury: Moore, Cabell, Phifer all generals: Cabell by ER 4.
    let c = command::by_rank(&t.rs, &t.s, ids(&["moore", "cabell", "phifer"]));
    assert_eq!(c[0], id("cabell"));
    // Davies: Hackleman and Oglesby tie (BG, ER 3): "the player has his
    // choice"; the engine keeps the candidates' order (17.83's, by id).
    let c = command::by_rank(&t.rs, &t.s, ids(&["oglesby", "hackleman", "baldwin"]));
    assert_eq!(c[..2], ids(&["oglesby", "hackleman"])[..]);
    // Through the succession: McKean lost, McArthur leads, a REPL his brigade.
    let mut t = union_command();
    lose(&mut t, "mckean");
    let plan = succession::plan(&t.rs, &t.s, &id("mckean")).unwrap();
    let SuccessionKind::Promote {
        promoted, stand_in, ..
    } = &plan.kind
    else {
        panic!("{:?}", plan.kind);
    };
    assert_eq!(*promoted, id("mcarthur"));
    assert!(stand_in.is_some());
    let e = succession::succeed(&t.rs, &t.s, &id("union"), &id("mckean"), None)
        .unwrap()
        .unwrap();
    t.rs.evolve(&mut t.s, &e);
    // "The new division commander has one Command Point."
    let oliver = t.hex("oliver").map(|h| h.to_string());
    if oliver.is_none() {
        t.put_leader("oliver", "0510");
    }
    t.ok(UNION, spend("mcarthur", "oliver", 1));
    t.refused(UNION, spend("mcarthur", "oliver", 1), "Corinth 28.11");
}

#[test]
fn corinth_28_31_army_commanders_are_never_replaced() {
    let mut t = union_command();
    lose(&mut t, "rosecrans");
    assert!(succession::plan(&t.rs, &t.s, &id("rosecrans")).is_none());
    assert!(!succession::waiting(&t.rs, &t.s, &id("union")).contains(&id("rosecrans")));
}

#[test]
fn corinth_28_33_brigade_commanders_are_replaced_by_flipping_the_counter() {
    let mut t = union_command();
    lose(&mut t, "oglesby");
    let plan = succession::plan(&t.rs, &t.s, &id("oglesby")).unwrap();
    assert_eq!(plan.kind, SuccessionKind::Flip);
}

/// The Union Movement Phase of Game-Turn 4 with Mizner's cavalry
/// committed and Mizner beside 7 Ill Cav (mounted) when command was
/// checked.
fn mizner_moving() -> T {
    let mut t = union_command();
    t.s.progress.committed.insert(id("mizner"));
    let at = t.hex("7-ill-cav").unwrap().to_string();
    t.put_leader("mizner", &at);
    t.advance_to(UNION, Phase::Movement);
    assert!(!t.s.command.out_of_command.contains(&id("7-ill-cav")));
    t
}

#[test]
fn corinth_21_43_cavalry_mount_or_dismount_only_inside_the_brigade_commanders_er() {
    let mut t = mizner_moving();
    let at = t.hex("7-ill-cav").unwrap().to_string();
    // Mizner rides off (ER 2): 7 Ill Cav may no longer dismount.
    t.put_leader("mizner", &away(&t, &at, 3));
    let dismount = GbacwAction::ChangeFormation {
        unit: id("7-ill-cav"),
        to: Formation::Dismounted,
    };
    t.refused(UNION, dismount.clone(), "Corinth 21.43");
    // Back within two hexes: it may.
    t.put_leader("mizner", &away(&t, &at, 2));
    t.ok(UNION, dismount);
}

#[test]
fn corinth_21_44_mounted_cavalry_moves_freely_out_of_command() {
    use crate::gbacw::ruleset::decide::movement::mover;
    let mut t = mizner_moving();
    t.s.command.out_of_command.insert(id("7-ill-cav"));
    let union = id("union");
    let m = mover(&t.rs, &t.s, &union, &id("7-ill-cav")).unwrap();
    assert_eq!(m.one_hex, None);
    // Dismounted, out of command, it moves one hex (17.11).
    t.s.units
        .get_mut(&id("7-ill-cav"))
        .unwrap()
        .status
        .formation = Formation::Dismounted;
    let m = mover(&t.rs, &t.s, &union, &id("7-ill-cav")).unwrap();
    assert_eq!(m.one_hex, Some("GBACW 17.11"));
}

#[test]
fn corinth_28_14_price_neither_rallies_nor_commands_lovells_units() {
    assert!(!command::leader_may_affect(
        &started().rs,
        &id("price"),
        &id("6-miss")
    ));
    assert!(command::leader_may_affect(
        &started().rs,
        &id("price"),
        &id("2-mo")
    ));
    assert!(command::leader_may_affect(
        &started().rs,
        &id("van-dorn"),
        &id("6-miss")
    ));
    let mut t = started();
    to_turn(&mut t, 4);
    t.advance_to(REBEL, Phase::Rally);
    for x in ["6-miss", "price", "van-dorn"] {
        t.s.progress.to_arrive.remove(&id(x));
    }
    t.put("6-miss", "1010", "n", Formation::Line);
    t.s.units
        .get_mut(&id("6-miss"))
        .unwrap()
        .status
        .markers
        .insert(crate::gbacw::oob::Marker::Rout);
    t.put_leader("price", "1010");
    // Price stacked with a routed regiment of Bowen's (Lovell's division)
    // does not rally it; Bowen is not on the map to spend a Rally Point.
    let rally = GbacwAction::Rally { unit: id("6-miss") };
    t.refused(REBEL, rally.clone(), "GBACW 13.52");
    // Van Dorn does.
    t.put_leader("van-dorn", "1010");
    let events = t.ok(REBEL, rally);
    assert!(matches!(
        &events[0],
        GbacwEvent::RallyTried { die: None, .. }
    ));
}
