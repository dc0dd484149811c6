//! The second reading of *The Battle of Corinth*'s exclusive rules, part 5
//! (issue 19): reader cases of `docs/second-reading/corinth-19-31.md` that
//! parts 1–4 left unwritten, each built with the position builder (or on
//! the shipped battle where the case needs its sequence) and scripted
//! dice, written from the case and the seed (not from the engine's code
//! for the rule). A test is named after its case; its doc comment quotes
//! the sentence its expectation rests on. The expectation is the case's,
//! not the engine's.

use super::reading_support::{
    checks, dist, lost, marked, melee_report, refused_case, resolve, settle, straggler_rolls,
};
use super::second_reading_corinth::{
    cabell_brigade, corinth_field, corinth_field_sized, declared, recover_stragglers,
    ten_first_day_casualties,
};
use super::*;
use crate::gbacw::oob::Marker;
use crate::gbacw::ruleset::state::Casualty;
use crate::gbacw::testkit::corinth::{NIGHT_HEXES, give, night_game, open_ground, to_turn};

/// `unit` (printed strength) has lost `killed` points killed, and is on
/// the map (not waiting to arrive).
fn killed(t: &mut T, unit: &str, killed: u8) {
    t.s.progress.to_arrive.remove(&id(unit));
    let printed = t.rs.game().oob.units[&id(unit)].strength;
    let u = t.s.units.get_mut(&id(unit)).unwrap();
    u.status.strength = printed - killed;
    u.killed = killed;
}

// --- 21.1 Sequence of Play -------------------------------------------------------

/// Corinth 21.1: "The Straggler Recovery Phase occurs on night Game-Turns
/// only and comes after the Final Command Phase in each Player-Turn."
/// Union 21 Mo (4 SP) has lost 2 and neither moves nor fires. (a) Game-
/// Turn 16 (day): no straggler roll as the Union Final Command Phase ends.
/// (b) Game-Turn 17 (night): the roll follows the Union Final Command
/// Phase; 6 regains a point. (The Union's is the second Player-Turn, so
/// the case's reading, a roll in each player's own phase, and a roll for
/// both at the end of the turn agree here.)
#[test]
fn corinth_21_1_straggler_phase_only_at_night() {
    let mut t = night_game();
    to_turn(&mut t, 16);
    killed(&mut t, "21-mo", 2);
    t.advance_to(UNION, Phase::FinalCommand);
    let (events, _) = t.roll(UNION, GbacwAction::EndPhase, 16);
    assert!(straggler_rolls(&events).is_empty(), "GT 16: day");
    to_turn(&mut t, 17);
    assert_eq!(t.s.units[&id("21-mo")].status.strength, 2);
    t.advance_to(UNION, Phase::FinalCommand);
    t.script(&[6]);
    let events = t.act(UNION, GbacwAction::EndPhase);
    let rolls = straggler_rolls(&events);
    assert_eq!(rolls.len(), 1, "{rolls:?}");
    assert_eq!((rolls[0].unit.clone(), rolls[0].die), (id("21-mo"), 6));
    assert!(rolls[0].recovered);
    assert_eq!(t.s.units[&id("21-mo")].status.strength, 3);
}

/// Corinth 21.1: "The BCE Recovery Phase and Pre-Dawn Barrage Interphase
/// occur after Game-Turn 20 only and come after both complete
/// Player-Turns" / 26.3: "At the end of the last night Game-Turn (but
/// before Pre-Dawn Barrage) brigades may recover BCE". Ending the Union
/// Player-Turn (the second) of Game-Turns 17, 18 and 19 recovers no BCE
/// and opens no barrage; ending that of Game-Turn 20 makes the straggler
/// rolls, then the BCE recovery, then opens the Pre-Dawn Barrage, before
/// any phase of Game-Turn 21.
#[test]
fn corinth_21_1_bce_recovery_before_predawn_after_gt20() {
    let mut t = night_game();
    to_turn(&mut t, 17);
    for turn in 17..=20u16 {
        assert_eq!(t.s.clock.turn, turn);
        t.advance_to(UNION, Phase::FinalCommand);
        let (events, _) = t.roll(UNION, GbacwAction::EndPhase, u64::from(turn));
        let at = |f: &dyn Fn(&GbacwEvent) -> bool| events.iter().position(f);
        let recovered = at(&|e| matches!(e, GbacwEvent::BceRecovered(_)));
        let barrage = at(&|e| matches!(e, GbacwEvent::BarrageBegun { .. }));
        let last_straggler = events
            .iter()
            .rposition(|e| matches!(e, GbacwEvent::StragglerRolled(_)));
        if turn < 20 {
            assert!(recovered.is_none() && barrage.is_none(), "GT {turn}");
            assert!(!t.s.night.bce_recovered, "GT {turn}");
            continue;
        }
        let barrage = barrage.expect("the Pre-Dawn Barrage opens after GT 20");
        assert!(t.s.night.bce_recovered, "BCE recovered after GT 20");
        if let Some(r) = recovered {
            assert!(r < barrage, "BCE recovery before the barrage");
        }
        if let Some(s) = last_straggler {
            assert!(s < barrage, "stragglers before the barrage");
            if let Some(r) = recovered {
                assert!(s < r, "stragglers before BCE recovery");
            }
        }
        assert!(
            t.s.night.barrage.is_some(),
            "the barrage is open, before any phase of GT 21 is played"
        );
    }
}

// --- 26.3 BCE recovery -----------------------------------------------------------

/// The position of example_26_32 (`second_reading_corinth.rs`), with
/// Union F1 and F2 out of the way, at Game-Turn 16: ten casualties on the
/// first day.
fn cabell_night() -> T {
    let mut t = cabell_brigade()
        .union("infantry f1 strength=4 morale=4 weapon=R")
        .union("infantry f2 strength=4 morale=4 weapon=R")
        .place("f1", "1010", "n", "line")
        .place("f2", "0910", "n", "line")
        .build_at(16, UNION, Phase::Movement);
    ten_first_day_casualties(&mut t);
    assert!(t.rs.brigade_at_bce_limit(&t.s, &id("cabell")));
    t
}

/// Corinth 26.32: "any brigade that possesses BCE, either having never
/// lost it or having recovered sufficient stragglers during the night to
/// regain it, has its BCE limit increased" / 26.34: "A brigade which is
/// unable to extend its BCE limit for the second day is subject to the
/// effects of BCE loss for the remainder of the game". As example_26_32,
/// but one straggler only: 9 boxes of 9 at the BCE Recovery Interphase.
/// Not extended; Cabell stays BCE-lost on the second day.
#[test]
fn corinth_26_32_one_straggler_not_enough() {
    let mut t = cabell_night();
    t.end_phases_until(|t| t.s.clock.turn >= 17);
    // No night rolls of its own: every regiment lost two, so each is
    // eligible; the test's own recovery is the one straggler, and the
    // night's rolls are answered with 1s (no recovery).
    recover_stragglers(&mut t, &["r1"]);
    assert!(
        t.rs.brigade_at_bce_limit(&t.s, &id("cabell")),
        "9 of 9 after one straggler"
    );
    for turn in 17..=20u16 {
        t.advance_to(REBEL, Phase::FinalCommand);
        t.script(&[1; 10]);
        t.act(REBEL, GbacwAction::EndPhase);
        assert!(t.s.clock.turn > turn || t.s.over, "GT {turn} ended");
    }
    assert!(t.s.night.bce_recovered);
    let cabell = id("cabell");
    assert!(!t.s.night.bce_extended.contains(&cabell), "not extended");
    assert!(
        t.rs.brigade_at_bce_limit(&t.s, &cabell),
        "BCE-lost on day 2"
    );
    let c =
        t.rs.bce(&t.s)
            .into_iter()
            .find(|b| b.brigade == cabell)
            .unwrap();
    assert_eq!(c.boxes, 9, "{c:?}");
}

/// Corinth 26.34: "Brigades which extend their BCE limit are subject to
/// the effects of BCE loss only when their second day BCE limit is
/// extended." (read: reached). Cabell, extended to 11 with 8 boxes, takes
/// 2 more on Game-Turn 22 (10): a morale check of 4 against morale 4
/// holds, no +1. One more on Game-Turn 23 (11): BCE lost, 4 + 1 = 5 > 4
/// routs.
#[test]
fn corinth_26_34_extended_brigade_loses_bce_at_day2_limit() {
    let mut t = cabell_night();
    t.end_phases_until(|t| t.s.clock.turn >= 17);
    recover_stragglers(&mut t, &["r1", "r2"]);
    let cabell = id("cabell");
    t.end_phases_until(|t| t.s.clock.turn >= 21);
    assert!(t.s.night.bce_extended.contains(&cabell));
    // Back to exactly 8 boxes whatever the night's rolls brought back.
    for (r, s) in [("r1", 2), ("r2", 3), ("r3", 3), ("r4", 2), ("r5", 2)] {
        let u = t.s.units.get_mut(&id(r)).unwrap();
        u.status.strength = s;
        u.killed = 4 - s;
    }
    let boxes = |t: &T| {
        t.rs.bce(&t.s)
            .into_iter()
            .find(|b| b.brigade == cabell)
            .map(|b| (b.losses, b.boxes))
            .unwrap()
    };
    assert_eq!(boxes(&t), (8, 11));
    // Union F1 and F2 fire FIRE8 at a lone 3-point regiment of Cabell's
    // in 0404 (C4): die 5 reads "1", and its check rolls 4. On GT 22 R5
    // has lost one more point besides (10 boxes), on GT 23 the fire's
    // point alone makes 11.
    for (turn, target, extra, marked_after, routs) in
        [(22u16, "r2", 1u8, 10u16, false), (23, "r3", 0, 11, true)]
    {
        t.advance_to_turn(turn, UNION, Phase::OffensiveFire);
        if extra > 0 {
            let e = GbacwEvent::UnitHit {
                unit: id("r5"),
                points: extra,
            };
            t.rs.evolve(&mut t.s, &e);
        }
        t.put(target, "0404", "n", Formation::Line);
        t.put("f1", "0402", "s", Formation::Line);
        t.put("f2", "0603", "sw", Formation::Line);
        t.ok(UNION, fire("0404", &[("f1", 4), ("f2", 4)]));
        // (A rout on GT 23 sets off Cabell's brigade retreat, 25.2: its
        // checks roll 1s.)
        t.script(&[5, 4]);
        if routs {
            t.script(&[1; 12]);
        }
        let events = t.act(UNION, GbacwAction::EndPhase);
        settle(&mut t);
        let r = &fire_reports(&events)[0];
        assert_eq!(r.result.to_string(), "1", "GT {turn}: {r:?}");
        let checks: Vec<(u8, bool)> = checks(&events, target);
        assert_eq!(checks.first(), Some(&(4, routs)), "GT {turn}: {checks:?}");
        assert_eq!(boxes(&t).0, marked_after, "GT {turn}");
        assert_eq!(
            t.rs.brigade_at_bce_limit(&t.s, &cabell),
            routs,
            "GT {turn}: BCE lost only at the second-day limit"
        );
        assert_eq!(
            marked(&t, target, Marker::Rout),
            routs,
            "GT {turn}: 4 (+1?) against 4"
        );
        // Out of the way for the next trial.
        t.put(
            target,
            if turn == 22 { "0102" } else { "0103" },
            "s",
            Formation::Line,
        );
    }
}

/// Corinth 26.33: "the brigades of Lovell's Division (Confederate) and the
/// Confederate cavalry have only one BCE level. These brigades may not
/// increase their BCE limit on the second day." Rust's brigade (limit 8)
/// with 3 boxes marked, never BCE-lost, and Jackson's cavalry (limit 4)
/// with none: after the BCE Recovery Interphase the limits are still 8
/// and 4.
#[test]
fn corinth_26_33_lovell_single_level() {
    let mut t = night_game();
    to_turn(&mut t, 17);
    // 31 Ala on the map (Lovell's division entered), 3 points lost.
    let at = open_ground(&t, 1).to_string();
    t.put("31-ala", &at, "n", Formation::Line);
    killed(&mut t, "31-ala", 3);
    to_turn(&mut t, 21);
    assert!(t.s.night.bce_recovered);
    let roster = t.rs.bce(&t.s);
    let track = |b: &str| roster.iter().find(|r| r.brigade == id(b)).unwrap();
    assert_eq!(track("rust").boxes, 8, "{:?}", track("rust"));
    assert!(track("rust").losses <= 3, "{:?}", track("rust"));
    assert_eq!(track("jackson").boxes, 4, "{:?}", track("jackson"));
}

// --- 28.32 Promotion by rank ----------------------------------------------------------

/// Corinth 28.32: "A division commander who becomes a casualty is
/// replaced by the brigade commander in this division with the highest
/// rank ... If there is still a tie, the player has his choice." Davies
/// captured; Hackleman and Oglesby are both Brigadier Generals with ER 3;
/// Baldwin is a Colonel. In the Union Final Command Phase the Union is
/// asked (a decision, in words) which of the two generals is promoted,
/// never Baldwin; each answer promotes the one chosen; the default on a
/// timeout is the first by id (Hackleman), the engine's pick before.
#[test]
fn corinth_28_32_tie_after_er_player_chooses() {
    let mut t = corinth_field()
        .scenario("hook promotion-by-rank case=28.32 cp=1")
        .union("army r cp=2 rank=mg")
        .union("division davies army=r dir=0 cp=1 rank=bg")
        .union("brigade hackleman division=davies er=3 rally=1 repl=2/1 rank=bg")
        .union("brigade oglesby division=davies er=3 rally=1 repl=2/1 rank=bg")
        .union("brigade baldwin division=davies er=2 rally=1 repl=1/1 rank=col")
        .union("infantry h1 brigade=hackleman strength=4 morale=4 weapon=R")
        .union("infantry o1 brigade=oglesby strength=4 morale=4 weapon=R")
        .union("infantry b1 brigade=baldwin strength=4 morale=4 weapon=R")
        .leader("r", "0808")
        .leader("davies", "0404")
        .leader("hackleman", "0403")
        .place("h1", "0403", "n", "line")
        .leader("oglesby", "0405")
        .place("o1", "0405", "n", "line")
        .leader("baldwin", "0304")
        .place("b1", "0304", "n", "line")
        .build_at(10, UNION, Phase::FinalCommand);
    lost(&mut t, "davies", Casualty::Captured);
    // The owner is asked, in words, before the phase goes on.
    let pending = t.rs.pending(&t.s);
    let asked = pending.first().expect("the choice waits");
    assert_eq!(asked.seat, UNION);
    assert!(asked.rule.contains("28.32"), "{}", asked.rule);
    // The builder's counters have no printed names: their ids stand in.
    let prompt = asked.prompt.to_lowercase();
    assert!(
        prompt.contains("hackleman")
            && prompt.contains("oglesby")
            && prompt.contains("davies")
            && prompt.contains("choose who is promoted")
            && !prompt.contains("baldwin"),
        "{}",
        asked.prompt
    );
    let choose = |l: &str| GbacwAction::ChoosePromotion {
        division: id("davies"),
        leader: id(l),
    };
    assert_eq!(asked.default, choose("hackleman"), "today's pick by id");
    let words = crate::gbacw::words::action(&t.rs, &choose("oglesby")).to_lowercase();
    assert_eq!(
        words,
        "promote oglesby to command davies's division (28.32)"
    );
    assert_eq!(
        t.rs.legal_actions(&t.s, UNION),
        vec![choose("hackleman"), choose("oglesby")]
    );
    assert!(t.rs.legal_actions(&t.s, REBEL).is_empty());
    assert!(t.decide(REBEL, &choose("oglesby")).is_err(), "not theirs");
    let e = t
        .decide(UNION, &choose("baldwin"))
        .expect_err("Baldwin is no general");
    assert!(e.rule.contains("28.32"), "{e}");
    let e = t
        .decide(UNION, &GbacwAction::EndPhase)
        .expect_err("the choice first");
    assert!(e.rule.contains("28.32"), "{e}");
    // Each answer promotes the one chosen.
    for who in ["hackleman", "oglesby"] {
        let mut x = T {
            rs: t.rs.clone(),
            s: t.s.clone(),
            script: Default::default(),
        };
        x.ok(UNION, choose(who));
        assert!(x.rs.pending(&x.s).is_empty(), "asked once");
        x.ok(UNION, GbacwAction::EndPhase);
        assert_eq!(
            x.s.succession.promoted.get(&id("davies")),
            Some(&id(who)),
            "{who} chosen"
        );
        assert!(x.s.succession.chosen.is_empty(), "the choice is spent");
    }
}

/// Corinth 28.32 with no tie left after rank and radius: nothing is asked
/// (the General outranks the Colonel).
#[test]
fn corinth_28_32_no_tie_nothing_asked() {
    let mut t = corinth_field()
        .scenario("hook promotion-by-rank case=28.32 cp=1")
        .union("army r cp=2 rank=mg")
        .union("division davies army=r dir=0 cp=1 rank=bg")
        .union("brigade hackleman division=davies er=3 rally=1 repl=2/1 rank=bg")
        .union("brigade baldwin division=davies er=4 rally=1 repl=1/1 rank=col")
        .union("infantry h1 brigade=hackleman strength=4 morale=4 weapon=R")
        .union("infantry b1 brigade=baldwin strength=4 morale=4 weapon=R")
        .leader("r", "0808")
        .leader("davies", "0404")
        .leader("hackleman", "0403")
        .place("h1", "0403", "n", "line")
        .leader("baldwin", "0304")
        .place("b1", "0304", "n", "line")
        .build_at(10, UNION, Phase::FinalCommand);
    lost(&mut t, "davies", Casualty::Captured);
    assert!(t.rs.pending(&t.s).is_empty());
    t.ok(UNION, GbacwAction::EndPhase);
    assert_eq!(
        t.s.succession.promoted.get(&id("davies")),
        Some(&id("hackleman"))
    );
}

// --- 24.13 Rapid fire in a row (optional) ------------------------------------------

/// Union battery B (4 N guns, 12 rounds) in 0401 facing south, Confederate
/// T (4 SP) three hexes south, with 24.13's option `on` or off. B fires
/// rapid at T in the Union Offensive Fire Phase of Game-Turn 10 (C6, die 1
/// "R", T's check 1, fouling 3) and again in the Union Defensive Fire
/// Phase that follows (the same, fouling 5). The two fouling rolls.
fn rapid_in_a_row(on: bool) -> Vec<(u8, u8, bool)> {
    let mut p = corinth_field();
    if on {
        p = p.scenario(
            "option rapid-fire-fouling name=\"Rapid fire in a row (24.13)\" case=24.13 default=on",
        );
    }
    let mut t = p
        .scenario("hook rapid-fire case=24.1 weapons=L,N,HA,HB,HC rounds=3 range=3 foul-on=6 unfoul-to=3 consecutive-when=rapid-fire-fouling")
        .union("battery b weapon=N morale=4 guns=4 rounds=12")
        .confederate("infantry t strength=4 morale=4 weapon=R")
        .place("b", "0401", "s", "unlimbered")
        .place("t", "0404", "n", "line")
        .build_at(10, UNION, Phase::OffensiveFire);
    let mut rolls = Vec::new();
    for (phasing, fouling) in [(UNION, 3u16), (REBEL, 5)] {
        t.advance_to(
            phasing,
            if phasing == UNION {
                Phase::OffensiveFire
            } else {
                Phase::DefensiveFire
            },
        );
        t.ok(UNION, fire("0404", &[("b", 4)]));
        t.ok(UNION, GbacwAction::RapidFire { index: 0 });
        t.script(&[1, 1, fouling]);
        let events = t.act(UNION, GbacwAction::EndPhase);
        rolls.extend(events.iter().filter_map(|e| match e {
            GbacwEvent::FoulingRolled {
                die,
                modifier,
                fouled,
                ..
            } => Some((*die, *modifier, *fouled)),
            _ => None,
        }));
        assert!(t.dice_left().is_empty(), "left: {:?}", t.dice_left());
    }
    rolls
}

/// Corinth 24.13 (optional): "For each consecutive Fire Phase (both
/// offensive and defensive) in which a battery uses rapid-fire, a 1 is
/// added to battery's fouling die roll result." The first rapid fire adds
/// nothing (3, not fouled); the second, in the next Fire Phase, adds 1:
/// 5 + 1 = 6 fouls. With the option off, 5 does not foul.
#[test]
fn corinth_24_13_optional_consecutive_rapid_fire_adds_one() {
    assert_eq!(rapid_in_a_row(true), vec![(3, 0, false), (5, 1, true)]);
    assert_eq!(rapid_in_a_row(false), vec![(3, 0, false), (5, 0, false)]);
}

// --- 30.3 Union reserves ------------------------------------------------------------

/// Corinth 30.31–30.33: "While in reserve a "unit" may not move, change
/// formation or fire offensively; it may fire defensively and may change
/// facing." / "A "unit" is immediately committed if ever attacked by
/// Confederate units (fire or melee)." Game-Turn 4: Stanley's division
/// (regiments S in 0404 and S2 in 0706) and Hamilton's (H1 in 0108) are
/// uncommitted; Confederate C stands two hexes north of S. (a) S moves a
/// hex: refused. (b) S fires in the Union Offensive Fire Phase: refused.
/// (c) S fires in the Union Defensive Fire Phase: allowed. (d) S changes
/// facing: allowed. (e) C fires at S: all of Stanley's division is
/// committed, and S2 moves in the next Union Movement Phase; H1 still may
/// not.
#[test]
fn corinth_30_32_reserve_may_fire_defensively_only() {
    let mut t = corinth_field_sized(10, 10)
        .scenario("reserves side=union from=6 per-turn=2 automatic=15 until=16 case=30.34")
        .scenario("reserve stanley name=\"Stanley's division\" commit-on=1 case=30.31 units=stanley,s,s2")
        .scenario("reserve hamilton name=\"Hamilton's division\" commit-on=2 case=30.31 units=hamilton,h1")
        .union("division stanley dir=3 cp=1")
        .union("division hamilton dir=3 cp=1")
        .union("infantry s strength=4 morale=4 weapon=R")
        .union("infantry s2 strength=4 morale=4 weapon=R")
        .union("infantry h1 strength=4 morale=4 weapon=R")
        .confederate("infantry c strength=4 morale=4 weapon=R")
        .place("s", "0404", "n", "line")
        .place("s2", "0706", "n", "line")
        .place("h1", "0108", "n", "line")
        .leader("stanley", "0404")
        .leader("hamilton", "0108")
        .place("c", "0402", "s", "line")
        .build_at(4, UNION, Phase::Movement);
    // (a), (d)
    refused_case(&t, UNION, mv(&["s"], &["0405"]), "30.32");
    t.ok(
        UNION,
        GbacwAction::Face {
            unit: id("s"),
            facing: dir("nw"),
        },
    );
    t.ok(
        UNION,
        GbacwAction::Face {
            unit: id("s"),
            facing: dir("n"),
        },
    );
    // (b)
    t.advance_to(UNION, Phase::OffensiveFire);
    refused_case(&t, UNION, fire("0402", &[("s", 4)]), "30.32");
    // (c) In the Confederate Player-Turn, the Union Defensive Fire Phase.
    t.advance_to(REBEL, Phase::DefensiveFire);
    assert!(
        t.decide(UNION, &fire("0402", &[("s", 4)])).is_ok(),
        "a reserve fires defensively"
    );
    // (e)
    t.advance_to(REBEL, Phase::OffensiveFire);
    let events = t.ok(REBEL, fire("0404", &[("c", 4)]));
    assert!(
        events.iter().any(|e| matches!(
            e,
            GbacwEvent::ReserveCommitted { reserve, .. } if *reserve == id("stanley")
        )),
        "attacked: committed at once: {events:?}"
    );
    t.script(&[1, 1, 1, 1]);
    t.act(REBEL, GbacwAction::EndPhase);
    t.advance_to_turn(5, UNION, Phase::Movement);
    assert!(
        t.decide(UNION, &mv(&["s2"], &["0705"])).is_ok(),
        "Stanley's division moves"
    );
    refused_case(&t, UNION, mv(&["h1"], &["0107"]), "30.32");
}

// --- 29.44 The Union artillery park ---------------------------------------------------

/// A Corinth town hex (0808) with the artillery park on and around it;
/// park battery PB (4 N guns) in 0808 facing south; the only Confederate
/// unit, C, `away` hexes south of it; the Union Offensive Fire Phase of
/// Game-Turn `turn`.
fn park(away: u8, turn: u16) -> T {
    let c = format!("08{:02}", 8 + away);
    corinth_field_sized(16, 16)
        .turns(24)
        .map("hex 0808 town")
        .scenario("area park centre=0808 radius=1 name=\"Artillery park\"")
        .scenario("hook park-freeze case=29.44 side=union area=park until=20 range=6 units=pb")
        .union("battery pb weapon=N guns=4 rounds=20 morale=4")
        .confederate("infantry c strength=4 morale=4 weapon=R")
        .place("pb", "0808", "s", "unlimbered")
        .place("c", &c, "n", "line")
        .build_at(turn, UNION, Phase::OffensiveFire)
}

/// Corinth 29.44: "These batteries constitute the Union artillery park,
/// and may not move or fire until the second day. If a Confederate unit
/// comes within six hexes of a Corinth hex, these batteries are freed from
/// this restriction." Game-Turn 9: C seven hexes from the town hex: PB's
/// fire at it is refused; six hexes: allowed. From Game-Turn 21 (the
/// second day) allowed at seven too.
#[test]
fn corinth_29_44_artillery_park_freed_at_six_hexes() {
    let t = park(7, 9);
    assert_eq!(dist(&t, "0808", "0815"), 7);
    assert!(
        t.decide(UNION, &fire("0815", &[("pb", 4)])).is_err(),
        "7 hexes"
    );
    let t = park(6, 9);
    assert!(
        t.decide(UNION, &fire("0814", &[("pb", 4)])).is_ok(),
        "6 hexes"
    );
    let t = park(7, 21);
    assert!(
        t.decide(UNION, &fire("0815", &[("pb", 4)])).is_ok(),
        "the second day"
    );
}

// --- 30.2 Confederate arrival ---------------------------------------------------------

/// The hexes `piece` may enter by, among the legal actions now.
fn entries(t: &T, piece: &str) -> Vec<HexNumber> {
    t.rs.legal_actions(&t.s, REBEL)
        .into_iter()
        .filter_map(|a| match a {
            GbacwAction::Arrive { piece: p, hex, .. } if p == id(piece) => Some(hex),
            _ => None,
        })
        .collect()
}

/// Corinth 30.2: "All three Confederate divisions arrive on Game-Turn 3.
/// Lovell enters through Assault Area E, Maury Area D and Hebert Area C.
/// General Price enters with either Maury or Hebert (Confederate player's
/// choice) and General Van Dorn enters with any division." The Historical
/// Scenario, the Confederate Movement Phase of Game-Turn 3: (a) a Lovell
/// regiment may not enter through Area D; (b) Van Dorn may enter through
/// Area E, with Lovell; (c) Price may not.
#[test]
fn corinth_30_2_confederate_arrival_areas() {
    let mut t = crate::gbacw::testkit::corinth::corinth_started();
    t.advance_to_turn(3, REBEL, Phase::Movement);
    let sc = t.rs.game().scenario.clone();
    let grid = t.rs.game().map.grid.clone();
    let (d, e) = (
        sc.area("assault-d").expect("Area D").clone(),
        sc.area("assault-e").expect("Area E").clone(),
    );
    let in_d = |h: &HexNumber| sc.area_contains(&grid, &d, *h);
    let in_e = |h: &HexNumber| sc.area_contains(&grid, &e, *h);
    // (a)
    let lovell = entries(&t, "31-ala");
    assert!(!lovell.is_empty(), "Lovell's regiments enter on GT 3");
    assert!(lovell.iter().all(in_e), "only through Area E: {lovell:?}");
    let d_hex = sc
        .area_hexes(&grid, &d)
        .into_iter()
        .find(|h| t.s.units.values().all(|u| u.hex != Some(*h)))
        .expect("a free hex of Area D");
    assert!(
        t.decide(REBEL, &arrive("31-ala", &d_hex.to_string()))
            .is_err()
    );
    // Lovell's first regiment in, then (b) and (c).
    let first = lovell[0].to_string();
    t.ok(REBEL, arrive("31-ala", &first));
    let van_dorn = entries(&t, "van-dorn");
    assert!(
        van_dorn.iter().any(in_e),
        "Van Dorn with Lovell: {van_dorn:?}"
    );
    let price = entries(&t, "price");
    assert!(!price.iter().any(in_e), "Price not with Lovell: {price:?}");
    assert!(
        t.decide(REBEL, &arrive("price", &first)).is_err(),
        "Price may not enter through Area E"
    );
    let _ = in_d;
}

// --- 30.5 Heat (optional) ----------------------------------------------------------------

/// One heat roll: the Game-Turn, the two dice, and whether it was skipped.
type HeatRoll = (u16, [u8; 2], bool);

/// The Historical Scenario with the heat option, played by ending phases
/// from the end of its set-up to the start of Game-Turn `until`; each time
/// an action rolls dice, the next pair of `heat` is scripted (so a roll
/// the case does not expect takes a pair meant for another turn, and the
/// test sees it). The heat rolls made (turn, dice, skipped) and the
/// Game-Turns in which some phase was played.
fn heat(from: u16, until: u16, heat: &[[u16; 2]]) -> (Vec<HeatRoll>, Vec<u16>) {
    let mut t = T::with(GbacwConfig {
        battle: "corinth".into(),
        scenario_options: [("heat".to_string(), true)].into(),
        ..GbacwConfig::default()
    });
    t.ok(UNION, GbacwAction::EndSetUp);
    // The first day's total keeps the game going into the night (31.2).
    give(&mut t, &NIGHT_HEXES);
    to_turn(&mut t, from);
    let mut pairs = heat.iter();
    let mut rolls = Vec::new();
    let mut played = Vec::new();
    for _ in 0..4000 {
        if t.s.clock.turn >= until || t.s.over {
            break;
        }
        let actor = t.rs.acting_seat(&t.s).expect("someone acts");
        let action = if t.s.night.barrage.is_some() {
            GbacwAction::EndBarrage
        } else {
            GbacwAction::EndPhase
        };
        if t.phase().is_some() && played.last() != Some(&t.s.clock.turn) {
            played.push(t.s.clock.turn);
        }
        let ctx = ActionContext {
            seat: actor,
            seq: 1,
            by_default: false,
        };
        if t.rs.rolls_dice(&t.s, &ctx, &action) {
            t.script(pairs.next().expect("a heat roll the case expects"));
        }
        for e in t.act(actor, action) {
            if let GbacwEvent::HeatRolled {
                turn,
                dice,
                skipped,
            } = e
            {
                rolls.push((turn, dice, skipped));
            }
        }
    }
    (rolls, played)
}

/// Corinth 30.5: "both players roll a die at the beginning of the turn,
/// starting with Game-Turn 8. If both players roll the same number, then
/// both sides are considered to have sat down for a breather. The entire
/// Game-Turn is skipped. If a turn is skipped, then there is no heat
/// die-roll check for the next two Game-Turns; on the third succeeding
/// Game-Turn, the die-roll check is resumed." No roll on Game-Turn 7; 3
/// and 5 on Game-Turn 8 (played); 4 and 4 on 9 (skipped: no phase of it);
/// no roll on 10 or 11; 2 and 2 on 12 (skipped too).
#[test]
fn corinth_30_5_heat_doubles_skip_turn() {
    let (rolls, played) = heat(7, 13, &[[3, 5], [4, 4], [2, 2]]);
    assert_eq!(
        rolls,
        vec![(8, [3, 5], false), (9, [4, 4], true), (12, [2, 2], true)]
    );
    for turn in [7, 8, 10, 11] {
        assert!(played.contains(&turn), "GT {turn} played: {played:?}");
    }
    for turn in [9, 12] {
        assert!(!played.contains(&turn), "GT {turn} skipped: {played:?}");
    }
}

/// Corinth 30.5: "There are no heat die-rolls during night turns, and the
/// check is made for the second day of battle, starting with Game-Turn 25.
/// There is no roll on the last turn of the game." From Game-Turn 7 to
/// the end, never doubles: rolls for 16 and 25 (and the other day turns
/// from 8 but the last), none for 17–24 or 32.
#[test]
fn corinth_30_5_no_heat_at_night_day2_from_25_not_last() {
    // From Game-Turn 7, never doubles, so no skip rests the check.
    let pairs = [[1u16, 2]; 32];
    let (rolls, played) = heat(7, 33, &pairs);
    let turns: Vec<u16> = rolls.iter().map(|r| r.0).collect();
    assert!(played.contains(&32), "played to the end: {played:?}");
    assert!(turns.contains(&16) && turns.contains(&25), "{turns:?}");
    for turn in [17, 18, 19, 20, 21, 22, 23, 24, 32] {
        assert!(!turns.contains(&turn), "no roll on GT {turn}: {turns:?}");
    }
}

// --- 24.24 The 1st US Infantry's crews (optional) ------------------------------------

/// Battery Robinett (4 guns, unlimbered, full crew, crew morale 5) alone
/// in 0404; Confederate A (2 SP, morale 4) in 0403 with its brigade
/// commander, the melee declared in the Confederate Retreat Before Melee
/// Phase of Game-Turn 10, with 24.24's option `on` or off. Melee die 2,
/// then the leader's two dice 3 + 4 (no effect).
fn robinett_meleed(on: bool) -> T {
    let p = corinth_field()
        .scenario(&format!(
            "option first-us-crews name=\"1st US Infantry crews melee 0 (24.24)\" case=24.24 default={}",
            if on { "on" } else { "off" }
        ))
        .scenario("hook crew-melee-zero case=24.24 units=robinett when=first-us-crews")
        .union("battery robinett weapon=PA guns=4 rounds=20 morale=5")
        .confederate("brigade l indpnt er=3 rally=1")
        .confederate("infantry a brigade=l strength=2 morale=4 weapon=R")
        .place("robinett", "0404", "n", "unlimbered")
        .place("a", "0403", "s", "line")
        .leader("l", "0403");
    declared(p, 10, &["a"])
}

/// Corinth 24.24 (optional): "Therefore, regardless of their status (full
/// or half crew), their Melee Strength is always 0." / GBACW 12.93: a "C"
/// result against unlimbered artillery captures all its guns and crew.
/// With the option: (2 + 1 leader) − 0 = +3, die 2 reads "K/C1R2": A loses
/// a point, Robinett is captured. Without it the crew melees 1: +2, die 2
/// reads "-/C1R2", and A loses nothing.
#[test]
fn corinth_24_24_optional_first_us_crews_melee_zero() {
    for (on, defence, result, a_after) in [(true, 0, "K/C1R2", 1), (false, 1, "-/C1R2", 2)] {
        let mut t = robinett_meleed(on);
        let events = resolve(&mut t, &[2, 3, 4, 1, 1, 1]);
        let r = melee_report(&events);
        assert_eq!((r.attack, r.defence, r.die), (3, defence, 2), "{r:?}");
        assert_eq!(r.result.to_string(), result);
        assert_eq!(t.s.units[&id("a")].status.strength, a_after);
        assert!(
            events.iter().any(|e| matches!(
                e,
                GbacwEvent::UnitRemoved { unit, captured: true } if *unit == id("robinett")
            )),
            "Robinett captured, option {on}"
        );
    }
}
