//! The Cedar Mountain exclusive rules 21–25 and BCE tracking (GBACW 18.0)
//! through `decide` and `evolve`. Each case is set up on a quiet corner of
//! the map (columns 03–07, rows 04–06: clear ground, level 0), away from
//! the Union's default deployment, with everything else where the
//! scenario puts it: off-map units still to arrive have lost nothing.

use super::*;
use crate::gbacw::oob::Marker;
use crate::gbacw::retreat::RetreatKind;
use crate::gbacw::ruleset::combat::effects::retreat_options;
use crate::gbacw::ruleset::event::FireReport;
use std::collections::BTreeSet;

/// Cedar Mountain after the default Union set-up, at the Confederate
/// Initial Command Phase of Game-Turn 1 (built once, cloned).
pub(super) fn field() -> T {
    static BASE: std::sync::OnceLock<(Gbacw, GbacwState)> = std::sync::OnceLock::new();
    let (rs, s) = BASE.get_or_init(|| {
        let mut t = T::with(GbacwConfig {
            battle: "cedar_mountain".into(),
            ..GbacwConfig::default()
        });
        t.ok(UNION, GbacwAction::EndSetUp);
        (t.rs, t.s)
    });
    T {
        rs: rs.clone(),
        s: s.clone(),
        script: Default::default(),
    }
}

impl T {
    /// Put a counter in the field: off the list of arrivals (so its losses
    /// count) and on `hex`.
    pub(super) fn field_unit(&mut self, unit: &str, hex: &str, formation: Formation) {
        self.s.progress.to_arrive.remove(&id(unit));
        self.put(unit, hex, "n", formation);
    }

    pub(super) fn field_leader(&mut self, leader: &str, hex: &str) {
        self.s.progress.to_arrive.remove(&id(leader));
        self.put_leader(leader, hex);
    }

    /// GBACW 17.11: put a leader of `unit` in the field, stacked with it,
    /// so that it is in command at the next Initial Command Phase and may
    /// fire in its Offensive Fire Phase: its brigade commander.
    /// Independents need none.
    pub(super) fn field_commander(&mut self, unit: &str) {
        self.field_leader_of(unit, false);
    }

    /// As [`T::field_commander`], with the division commander, for a
    /// second unit of a brigade whose commander stands with the first (a
    /// unit "stacked with a division commander" is in command, 6.21).
    pub(super) fn field_division_commander(&mut self, unit: &str) {
        self.field_leader_of(unit, true);
    }

    fn field_leader_of(&mut self, unit: &str, division: bool) {
        use crate::gbacw::oob::{Command, LeaderRole};
        let hex = self.hex(unit).expect("the unit is on the map").to_string();
        let Command::Brigade(b) = self.rs.game().oob.units[&id(unit)].command.clone() else {
            return;
        };
        let leader = if division {
            match &self.rs.game().oob.leaders[&b].role {
                LeaderRole::Brigade {
                    division: Some(d), ..
                } => d.0.clone(),
                _ => panic!("{b} has no division commander"),
            }
        } else {
            b.0
        };
        self.field_leader(&leader, &hex);
    }

    /// Fold an event as if an action had produced it.
    pub(super) fn fold(&mut self, e: GbacwEvent) {
        self.rs.evolve(&mut self.s, &e);
    }

    /// Greene's brigade (limit 3 of 6: 1 DC 2, 78 NY 4) loses 1 DC's two
    /// points and one of 78 NY's: at its BCE limit.
    pub(super) fn break_greene(&mut self) {
        self.fold(GbacwEvent::UnitHit {
            unit: id("1-dc"),
            points: 2,
        });
        self.fold(GbacwEvent::UnitHit {
            unit: id("78-ny"),
            points: 1,
        });
        assert!(self.rs.brigade_at_bce_limit(&self.s, &id("greene")));
    }
}

fn greene(t: &T) -> crate::gbacw::ruleset::bce::BrigadeBce {
    t.rs.bce(&t.s)
        .into_iter()
        .find(|b| b.brigade == id("greene"))
        .unwrap()
}

// --- GBACW 18.0: BCE tracking ---------------------------------------------

#[test]
fn cedar_18_0_every_roster_brigade_has_its_boxes_and_none_are_marked_at_the_start() {
    let t = field();
    let all = t.rs.bce(&t.s);
    // Six Union brigades and ten Confederate ones carry a roster record.
    assert_eq!(all.len(), 16);
    let g = greene(&t);
    assert_eq!((g.boxes, g.total, g.victory_points), (3, 6, 5));
    assert_eq!(g.side, id("union"));
    assert!(all.iter().all(|b| b.losses == 0 && !b.at_limit));
}

#[test]
fn cedar_18_0_killed_and_captured_points_mark_boxes_guns_do_not() {
    let mut t = field();
    t.fold(GbacwEvent::UnitHit {
        unit: id("1-dc"),
        points: 1,
    });
    assert_eq!(greene(&t).losses, 1);
    // 12.93: points taken prisoner mark boxes too.
    t.fold(GbacwEvent::PointsCaptured {
        unit: id("78-ny"),
        points: 1,
    });
    assert_eq!(greene(&t).losses, 2);
    assert!(!t.rs.brigade_at_bce_limit(&t.s, &id("greene")));
    // A battery's guns (6 Me is in Greene's area but independent) mark none.
    t.fold(GbacwEvent::UnitHit {
        unit: id("6-me"),
        points: 2,
    });
    assert_eq!(greene(&t).losses, 2);
    // A unit captured whole (14.1) marks every point it had.
    t.fold(GbacwEvent::UnitRemoved {
        unit: id("78-ny"),
        captured: true,
    });
    let g = greene(&t);
    assert_eq!(g.losses, 5);
    assert!(g.at_limit);
    // 27.21: the Confederates now score Greene's roster VP.
    assert_eq!(t.rs.victory_points(&t.s)[1].bce, 5);
}

#[test]
fn cedar_18_0_the_fire_result_that_fills_the_last_box_reports_bce_lost() {
    let mut seen = false;
    for seed in 0..200 {
        let mut t = field();
        t.fold(GbacwEvent::UnitHit {
            unit: id("1-dc"),
            points: 2,
        });
        t.field_unit("78-ny", "0505", Formation::Line);
        t.field_unit("15-ala", "0506", Formation::Line);
        t.face_towards("78-ny", "0506");
        t.face_towards("15-ala", "0505");
        t.field_commander("15-ala");
        t.advance_to(REBEL, Phase::OffensiveFire);
        t.ok(REBEL, fire("0505", &[("15-ala", 4)]));
        let (events, _) = t.roll(REBEL, GbacwAction::EndPhase, seed);
        let lost = t.s.units[&id("78-ny")].killed + t.s.units[&id("78-ny")].captured;
        let reported = events.iter().any(|e| {
            *e == GbacwEvent::BceLost {
                brigade: id("greene"),
            }
        });
        assert_eq!(reported, lost > 0, "seed {seed}");
        assert_eq!(t.rs.brigade_at_bce_limit(&t.s, &id("greene")), lost > 0);
        // Reported once: a later action's events do not repeat it.
        if reported {
            seen = true;
            let actor = t.rs.acting_seat(&t.s).unwrap();
            let next =
                t.rs.pending(&t.s)
                    .first()
                    .map_or(GbacwAction::EndPhase, |p| p.default.clone());
            let again = t.ok(actor, next);
            assert!(
                !again
                    .iter()
                    .any(|e| matches!(e, GbacwEvent::BceLost { .. }))
            );
            break;
        }
    }
    assert!(seen, "no seed in 0..200 gave a loss");
}

// --- Cedar Mountain 24.0: BCE loss effects ---------------------------------

#[test]
fn cedar_24_11_a_broken_brigade_adds_one_to_its_morale_checks() {
    let mut checked = [false, false];
    for seed in 0..300 {
        for broken in [false, true] {
            let mut t = field();
            if broken {
                t.break_greene();
            }
            t.field_unit("78-ny", "0505", Formation::Line);
            t.field_unit("15-ala", "0506", Formation::Line);
            t.face_towards("78-ny", "0506");
            t.face_towards("15-ala", "0505");
            t.field_commander("15-ala");
            t.advance_to(REBEL, Phase::OffensiveFire);
            t.ok(REBEL, fire("0505", &[("15-ala", 4)]));
            let mut lost = t.s.units[&id("78-ny")].killed;
            let (events, _) = t.roll(REBEL, GbacwAction::EndPhase, seed);
            // 78 NY faces the firer: no enfilade; no leader; +1 once more
            // than half its 4 points are lost (13.24).
            let mut first = None;
            for e in &events {
                match e {
                    GbacwEvent::UnitHit { unit, points } if *unit == id("78-ny") => {
                        lost += points;
                    }
                    GbacwEvent::MoraleChecked {
                        unit,
                        rating,
                        die,
                        modifier,
                        failed,
                    } if *unit == id("78-ny") => {
                        first = Some((*rating, *die, *modifier, *failed, lost > 2));
                        break;
                    }
                    _ => {}
                }
            }
            let Some((rating, die, modifier, failed, half)) = first else {
                continue;
            };
            assert!(!fire_reports(&events)[0].enfilade);
            let expected = i8::from(broken) + i8::from(half);
            assert_eq!(modifier, expected, "seed {seed} broken {broken}");
            assert_eq!(
                failed,
                i16::from(die) + i16::from(modifier) > i16::from(rating)
            );
            checked[usize::from(broken)] = true;
        }
        if checked == [true, true] {
            break;
        }
    }
    assert_eq!(checked, [true, true]);
}

fn melee(target: &str, attackers: &[&str]) -> GbacwAction {
    GbacwAction::DeclareMelee {
        target: n(target),
        attackers: ids(attackers),
    }
}

/// 78 NY (Greene) and 5 Conn (Crawford), each with its brigade commander,
/// face 15 Ala across 0505/0506 and 0405/0506.
fn melee_field(broken: bool) -> T {
    let mut t = field();
    if broken {
        t.break_greene();
    }
    t.field_unit("78-ny", "0505", Formation::Line);
    t.field_leader("greene", "0505");
    t.field_unit("5-conn", "0405", Formation::Line);
    t.field_leader("crawford", "0405");
    t.field_unit("15-ala", "0506", Formation::Line);
    t.face_towards("78-ny", "0506");
    t.face_towards("5-conn", "0506");
    t.face_towards("15-ala", "0505");
    assert_eq!(t.rs.game().map.grid.distance(n("0405"), n("0506")), 1);
    t
}

#[test]
fn cedar_24_12_a_broken_brigade_may_not_initiate_melee() {
    let mut t = melee_field(true);
    t.advance_to(UNION, Phase::RetreatBeforeMelee);
    t.refused(UNION, melee("0506", &["78-ny"]), "Cedar Mountain 24.12");
    t.refused(
        UNION,
        melee("0506", &["5-conn", "78-ny"]),
        "Cedar Mountain 24.12",
    );
    assert!(
        !t.rs
            .legal_actions(&t.s, UNION)
            .iter()
            .any(|a| matches!(a, GbacwAction::DeclareMelee { attackers, .. } if attackers.contains(&id("78-ny"))))
    );
    // Another brigade's unit melees; an engaged unit of the broken one
    // melees normally ("if it becomes engaged ... it may melee normally").
    t.ok(UNION, melee("0506", &["5-conn"]));
    let mut e = melee_field(true);
    e.advance_to(UNION, Phase::RetreatBeforeMelee);
    e.s.units
        .get_mut(&id("78-ny"))
        .unwrap()
        .status
        .markers
        .insert(Marker::Engaged);
    e.ok(UNION, melee("0506", &["78-ny"]));
    // The same unit unbroken melees.
    let mut u = melee_field(false);
    u.advance_to(UNION, Phase::RetreatBeforeMelee);
    u.ok(UNION, melee("0506", &["78-ny"]));
}

#[test]
fn cedar_24_13_a_broken_brigade_fires_one_column_left_even_combined() {
    let column = |broken: bool, firers: &[(&str, u8)]| {
        let mut t = melee_field(broken);
        t.advance_to(UNION, Phase::OffensiveFire);
        t.ok(UNION, fire("0506", firers));
        let (events, _) = t.roll(UNION, GbacwAction::EndPhase, 3);
        let r = fire_reports(&events).remove(0);
        (r.column, r.strength_columns_left)
    };
    assert_eq!(column(false, &[("78-ny", 3)]).1, 0);
    let (c0, _) = column(false, &[("78-ny", 3)]);
    let (c1, left) = column(true, &[("78-ny", 3)]);
    assert_eq!(left, 1);
    assert_eq!(c1 + 1, c0);
    // Combined with 5 Conn (not broken), still one column left.
    let (c0, _) = column(false, &[("78-ny", 3), ("5-conn", 4)]);
    let (c1, left) = column(true, &[("78-ny", 3), ("5-conn", 4)]);
    assert_eq!((left, c1 + 1), (1, c0));
    // 5 Conn alone is not shifted.
    assert_eq!(column(true, &[("5-conn", 4)]).1, 0);
}

#[test]
fn cedar_24_14_a_broken_brigade_does_not_enter_an_enemy_zoc_voluntarily() {
    let mut t = field();
    t.break_greene();
    t.field_unit("78-ny", "0404", Formation::Line);
    t.field_leader("greene", "0404");
    t.field_unit("5-conn", "0404", Formation::Line);
    t.field_leader("crawford", "0404");
    t.field_unit("15-ala", "0506", Formation::Line);
    t.face_towards("15-ala", "0505");
    t.advance_to(UNION, Phase::Movement);
    let zoc = crate::gbacw::ruleset::board::Board::new(&t.rs, &t.s).enemy_zoc(
        &id("union"),
        crate::gbacw::facing::ZocUse::WithdrawalAndRetreat {
            mover_mounted: false,
        },
    );
    assert!(zoc.contains(&n("0505")) && !zoc.contains(&n("0404")));
    t.refused(UNION, mv(&["78-ny"], &["0505"]), "Cedar Mountain 24.14");
    // Not broken: 5 Conn (Crawford) may go there.
    t.mv(UNION, &["5-conn"], &["0505"]);
    // Elsewhere the broken unit moves freely.
    t.mv(UNION, &["78-ny"], &["0403"]);
}

#[test]
fn cedar_24_14_a_broken_unit_routing_only_through_enemy_zoc_is_captured() {
    let mut t = field();
    t.field_unit("78-ny", "0505", Formation::Line);
    // 15 Ala and 21 Ga face down the map: their ZOCs hold 0404, 0504 and
    // 0604, every first step of 78 NY's retreat toward the Union's lines
    // (east, the map's top: 23.2).
    t.field_unit("15-ala", "0403", Formation::Line);
    t.face_towards("15-ala", "0404");
    t.field_unit("21-ga", "0603", Formation::Line);
    t.face_towards("21-ga", "0604");
    let zoc = crate::gbacw::ruleset::board::Board::new(&t.rs, &t.s).enemy_zoc(
        &id("union"),
        crate::gbacw::facing::ZocUse::WithdrawalAndRetreat {
            mover_mounted: false,
        },
    );
    assert!(["0404", "0504", "0604"].iter().all(|h| zoc.contains(&n(h))));
    let rout = |t: &T| retreat_options(&t.rs, &t.s, &id("78-ny"), 3, RetreatKind::Rout);
    // A routed unit may pass enemy ZOCs (13.31, 23.2)...
    let before = rout(&t);
    assert!(!before.is_empty());
    assert!(before.iter().all(|p| zoc.contains(&p[0])));
    // ...but not one whose brigade has lost BCE: no path, so captured.
    t.break_greene();
    assert!(rout(&t).is_empty());
    // Through the ruleset: a 14.4 retreat order left with no path is
    // answered by capture.
    let order = crate::gbacw::ruleset::state::RetreatOrder {
        unit: id("78-ny"),
        seat: UNION,
        length: 3,
        rout: true,
        check: false,
        lost: false,
        displaced: false,
    };
    t.fold(GbacwEvent::RetreatOrdered(order));
    assert_eq!(
        t.rs.pending(&t.s)[0].default,
        GbacwAction::Retreat {
            unit: id("78-ny"),
            path: vec![]
        }
    );
    let events = t.ok(
        UNION,
        GbacwAction::Retreat {
            unit: id("78-ny"),
            path: vec![],
        },
    );
    assert!(events.contains(&GbacwEvent::UnitRemoved {
        unit: id("78-ny"),
        captured: true
    }));
}

#[test]
fn cedar_24_15_a_broken_brigade_rallies_only_by_a_die_or_with_the_army_commander() {
    let setup = |leader: Option<(&str, &str)>| {
        let mut t = field();
        t.break_greene();
        t.field_unit("78-ny", "0505", Formation::Line);
        t.s.units
            .get_mut(&id("78-ny"))
            .unwrap()
            .status
            .markers
            .insert(Marker::Rout);
        // Greene is two hexes off (his ER is 4) unless placed with it.
        t.field_leader("greene", "0503");
        // Banks starts with some Union unit of the default set-up.
        if let Some((l, h)) = leader {
            t.field_leader(l, h);
        }
        t.advance_to(UNION, Phase::Rally);
        t
    };
    let rally = GbacwAction::Rally { unit: id("78-ny") };
    let ctx = crate::engine::ActionContext {
        seat: UNION,
        seq: 1,
        by_default: false,
    };
    // With Banks: rallies, no die (24.15 "automatically").
    let mut t = setup(Some(("banks", "0505")));
    assert!(!t.rs.rolls_dice(&t.s, &ctx, &rally));
    let events = t.ok(UNION, rally.clone());
    assert!(events.contains(&GbacwEvent::RallyTried {
        unit: id("78-ny"),
        die: None,
        rallied: true
    }));
    // Within Greene's ER: a Rally Point and a die; 78 NY (morale 4) rallies
    // on die + 1 <= 4.
    let mut outcomes = BTreeSet::new();
    for seed in 0..40 {
        let mut t = setup(None);
        assert!(t.rs.rolls_dice(&t.s, &ctx, &rally));
        let (events, drawn) = t.roll(UNION, rally.clone(), seed);
        assert_eq!(
            events[0],
            GbacwEvent::RallyPointSpent {
                leader: id("greene")
            }
        );
        let die = drawn[0] as u8;
        assert_eq!(
            events[1],
            GbacwEvent::RallyTried {
                unit: id("78-ny"),
                die: Some(die),
                rallied: die < 4 // die + 1 (24.11) <= morale 4
            }
        );
        outcomes.insert(die < 4);
    }
    assert_eq!(outcomes.len(), 2, "both outcomes seen");
    // Stacked with Greene: a die less 1 (+1 of 24.11), no Rally Point.
    for seed in 0..20 {
        let mut t = setup(Some(("greene", "0505")));
        let (events, drawn) = t.roll(UNION, rally.clone(), seed);
        let die = drawn[0] as u8;
        assert_eq!(
            events,
            vec![GbacwEvent::RallyTried {
                unit: id("78-ny"),
                die: Some(die),
                rallied: die <= 4
            }]
        );
    }
    // Greene off the map (no Effectiveness Radius to be in): refused.
    let mut t = setup(None);
    t.s.leaders.get_mut(&id("greene")).unwrap().hex = None;
    t.refused(UNION, rally, "Cedar Mountain 24.15");
}

#[test]
fn cedar_24_2_a_broken_brigade_is_not_detached_and_stranded_it_is_out_of_command() {
    // 17.67: Crawford's brigade at its limit (13 of 18) may not detach.
    let mut t = field();
    for (u, p) in [("5-conn", 6), ("10-me", 4), ("28-ny", 3)] {
        t.fold(GbacwEvent::UnitHit {
            unit: id(u),
            points: p,
        });
    }
    assert!(t.rs.brigade_at_bce_limit(&t.s, &id("crawford")));
    t.advance_to(UNION, Phase::InitialCommand);
    t.refused(
        UNION,
        GbacwAction::Detach {
            brigade: id("crawford"),
        },
        "GBACW 17.67",
    );
    // Gordon's brigade detached (17.6), unattached, then broken (13 of 19): when
    // the command check comes its units are out of command and Gordon
    // moves one hex (24.2).
    for (u, p) in [("27-ind", 6), ("2-me", 5), ("pa-zouaves", 2)] {
        t.fold(GbacwEvent::UnitHit {
            unit: id(u),
            points: p,
        });
    }
    t.fold(GbacwEvent::LinksChanged {
        division: id("williams"),
        links: crate::gbacw::command::DivisionLinks {
            detached: Some(id("gordon")),
            attached: None,
        },
    });
    assert!(t.rs.brigade_at_bce_limit(&t.s, &id("gordon")));
    t.ok(UNION, GbacwAction::EndPhase);
    assert!(t.s.command.out_of_command.contains(&id("3-wisc")));
    assert_eq!(t.phase(), Some(Phase::Movement));
    let at = t.hex("gordon").unwrap();
    let grid = &t.rs.game().map.grid;
    let far = grid
        .neighbours_on_map(at)
        .into_iter()
        .flat_map(|(_, h)| grid.neighbours_on_map(h))
        .map(|(_, h)| h)
        .find(|h| grid.distance(at, *h) == 2)
        .unwrap();
    let e = t
        .decide(
            UNION,
            &GbacwAction::Move {
                pieces: ids(&["gordon"]),
                path: vec![
                    grid.neighbours_on_map(at)
                        .into_iter()
                        .map(|(_, h)| h)
                        .find(|h| grid.distance(*h, far) == 1)
                        .unwrap(),
                    far,
                ],
            },
        )
        .unwrap_err();
    assert_eq!(e.rule, "Cedar Mountain 24.2", "{e}");
}

// --- Cedar Mountain 23.0: retreat toward one's own lines --------------------

#[test]
fn cedar_23_0_the_map_compass_has_north_at_the_left_edge() {
    use crate::gbacw::ruleset::combat::retreat_limits::compass;
    let t = field();
    let grid = &t.rs.game().map.grid;
    let at = |to: &str| compass(grid, "left", n("0505"), n(to));
    // 0505 (odd column); even columns stand half a hex lower.
    assert_eq!(at("0504"), Some("E"));
    assert_eq!(at("0506"), Some("W"));
    assert_eq!(at("0404"), Some("NE"));
    assert_eq!(at("0405"), Some("NW"));
    assert_eq!(at("0604"), Some("SE"));
    assert_eq!(at("0605"), Some("SW"));
    // The same from an even column.
    let at = |to: &str| compass(grid, "left", n("0404"), n(to));
    assert_eq!(at("0403"), Some("E"));
    assert_eq!(at("0304"), Some("NE"));
    assert_eq!(at("0305"), Some("NW"));
    assert_eq!(at("0504"), Some("SE"));
    assert_eq!(at("0505"), Some("SW"));
}

#[test]
fn cedar_23_1_and_23_2_every_retreat_step_goes_toward_the_own_lines() {
    use crate::gbacw::ruleset::combat::retreat_limits::compass;
    let mut t = field();
    t.field_unit("15-ala", "0505", Formation::Line);
    t.field_unit("78-ny", "0510", Formation::Line);
    let grid = t.rs.game().map.grid.clone();
    for (unit, start, allowed) in [
        ("15-ala", "0505", ["W", "NW", "SW"]),
        ("78-ny", "0510", ["E", "NE", "SE"]),
    ] {
        let paths = retreat_options(&t.rs, &t.s, &id(unit), 3, RetreatKind::Rout);
        assert!(!paths.is_empty(), "{unit}");
        for p in &paths {
            let mut at = n(start);
            for &h in p {
                let c = compass(&grid, "left", at, h).unwrap();
                assert!(allowed.contains(&c), "{unit}: {at} -> {h} is {c}");
                at = h;
            }
        }
    }
}

#[test]
fn cedar_23_1_a_confederate_routed_with_no_westward_hex_is_captured() {
    // 0434 is on the bottom (west) edge, an even column: nothing lies W,
    // NW or SW of it on the map.
    let mut seen = false;
    for seed in 0..300 {
        let mut t = field();
        t.field_unit("15-ala", "0434", Formation::Line);
        t.field_unit("5-conn", "0433", Formation::Line);
        t.face_towards("5-conn", "0434");
        t.face_towards("15-ala", "0433");
        t.field_commander("5-conn");
        assert!(retreat_options(&t.rs, &t.s, &id("15-ala"), 3, RetreatKind::Rout).is_empty());
        t.advance_to(UNION, Phase::OffensiveFire);
        t.ok(UNION, fire("0434", &[("5-conn", 4)]));
        let (events, _) = t.roll(UNION, GbacwAction::EndPhase, seed);
        let routed = events.iter().any(|e| {
            matches!(e, GbacwEvent::MarkersSet { unit, markers }
                if *unit == id("15-ala") && markers.contains(&Marker::Rout))
        });
        if !routed {
            continue;
        }
        assert!(events.contains(&GbacwEvent::UnitRemoved {
            unit: id("15-ala"),
            captured: true
        }));
        assert!(t.s.retreats.is_empty());
        seen = true;
        break;
    }
    assert!(seen, "no seed in 0..300 routed 15 Ala");
}

#[test]
fn cedar_23_0_retreat_before_melee_only_toward_the_own_lines() {
    let mut t = field();
    // 15 Ala (Confederate) in 0505 is meleed by 5 Conn from 0504 (its east).
    t.field_unit("15-ala", "0505", Formation::Line);
    t.field_unit("5-conn", "0504", Formation::Line);
    t.field_leader("crawford", "0504");
    t.face_towards("5-conn", "0505");
    t.face_towards("15-ala", "0504");
    t.advance_to(UNION, Phase::RetreatBeforeMelee);
    t.ok(UNION, melee("0505", &["5-conn"]));
    assert_eq!(t.s.rbm.as_ref().unwrap().threatened, ids(&["15-ala"]));
    // North-east (0404) and south-east (0604) are toward the Union: refused.
    for east in ["0404", "0604"] {
        t.refused(
            REBEL,
            GbacwAction::RetreatBeforeMelee {
                units: ids(&["15-ala"]),
                path: vec![n(east)],
            },
            "Cedar Mountain 23.0",
        );
    }
    // West, two hexes (0506, 0507), is allowed.
    let (mut events, _) = t.roll(
        REBEL,
        GbacwAction::RetreatBeforeMelee {
            units: ids(&["15-ala"]),
            path: vec![n("0506"), n("0507")],
        },
        1,
    );
    // 12.83: the attacker may fire withdrawal fire first; it declines, and
    // the retreat goes on.
    if t.s.decision.is_some() {
        events.extend(t.roll(UNION, GbacwAction::DeclineWithdrawalFire, 1).0);
    }
    assert!(events.contains(&GbacwEvent::UnitRetreated {
        unit: id("15-ala"),
        path: vec![n("0506"), n("0507")],
    }));
}

// --- Cedar Mountain 25.1, 25.2: army commanders raise division radii -----

fn spend(by: &str, on: &str, points: u8) -> GbacwAction {
    GbacwAction::SpendCommandPoints {
        division: id(by),
        brigade: id(on),
        points,
    }
}

/// Jackson in 0505, Winder (DIR 4) three hexes off in 0508, Ewell five off
/// in 0510, and Garnett six hexes from Winder in 0514; the Confederate
/// Initial Command Phase.
fn jackson_field() -> T {
    let mut t = field();
    t.field_leader("jackson", "0505");
    t.field_leader("winder", "0508");
    t.field_leader("ewell", "0510");
    t.field_leader("garnett", "0514");
    t.advance_to(REBEL, Phase::InitialCommand);
    t
}

#[test]
fn cedar_25_1_jackson_raises_the_radius_of_division_commanders_within_three_hexes() {
    let mut t = jackson_field();
    // Without Jackson's points Garnett is outside Winder's radius (17.21).
    let mut plain = jackson_field();
    plain.ok(REBEL, GbacwAction::EndPhase);
    assert!(plain.s.command.out_of_radius.contains(&id("garnett")));
    // Ewell is five hexes from Jackson.
    t.refused(REBEL, spend("jackson", "ewell", 1), "Cedar Mountain 25.1");
    // Only division commanders.
    t.refused(REBEL, spend("jackson", "garnett", 1), "Cedar Mountain 25.1");
    assert!(
        t.rs.legal_actions(&t.s, REBEL)
            .contains(&spend("jackson", "winder", 1))
    );
    t.ok(REBEL, spend("jackson", "winder", 2));
    assert_eq!(t.s.leaders[&id("jackson")].cp_spent, 2);
    // Split: one point left, and no more.
    t.refused(REBEL, spend("jackson", "winder", 2), "Cedar Mountain 25.1");
    t.ok(REBEL, spend("jackson", "winder", 1));
    t.refused(REBEL, spend("jackson", "winder", 1), "Cedar Mountain 25.1");
    t.ok(REBEL, GbacwAction::EndPhase);
    // Winder's radius 4 + 3 reaches Garnett six hexes off.
    assert!(!t.s.command.out_of_radius.contains(&id("garnett")));
    // The points are for this Game-Turn: gone at the next command phase
    // (the leaders leave the field so that 17.52 does not hold it up).
    for l in ["jackson", "winder", "ewell", "garnett"] {
        t.s.leaders.get_mut(&id(l)).unwrap().hex = None;
    }
    t.advance_to(REBEL, Phase::InitialCommand);
    assert_eq!(t.s.leaders[&id("jackson")].cp_spent, 0);
    assert_eq!(t.s.leaders[&id("winder")].augmented, None);
}

#[test]
fn cedar_25_2_banks_raises_one_division_commanders_radius_by_one() {
    let mut t = field();
    t.field_leader("banks", "0505");
    t.field_leader("williams", "0520");
    t.field_leader("augur", "0510");
    t.advance_to(UNION, Phase::InitialCommand);
    // No distance limit for Banks (25.2 names none).
    t.ok(UNION, spend("banks", "williams", 1));
    t.refused(UNION, spend("banks", "augur", 1), "Cedar Mountain 25.1");
    assert_eq!(
        t.s.leaders[&id("williams")].augmented,
        Some((id("banks"), 1))
    );
}

// --- Cedar Mountain 21.11, 21.12: dismounted cavalry in melee --------------

/// 1 NJ Cavalry (Bayard's, dismounted, with Bayard) in 0505; `enemy` in
/// 0506 below it, facing it, with Trimble.
fn troopers(enemy: &str, formation: Formation) -> T {
    let mut t = field();
    t.field_unit("1-nj-c", "0505", Formation::Dismounted);
    t.field_leader("bayard", "0505");
    t.field_unit(enemy, "0506", formation);
    t.field_leader("trimble", "0506");
    t.face_towards("1-nj-c", "0506");
    t.face_towards(enemy, "0505");
    t
}

#[test]
fn cedar_21_11_dismounted_cavalry_melees_only_dismounted_cavalry_and_artillery() {
    let mut t = troopers("15-ala", Formation::Line);
    t.advance_to(UNION, Phase::RetreatBeforeMelee);
    t.refused(UNION, melee("0506", &["1-nj-c"]), "Cedar Mountain 21.11");
    let mut t = troopers("whites-c", Formation::Mounted);
    t.advance_to(UNION, Phase::RetreatBeforeMelee);
    t.refused(UNION, melee("0506", &["1-nj-c"]), "Cedar Mountain 21.11");
    let mut t = troopers("whites-c", Formation::Dismounted);
    t.advance_to(UNION, Phase::RetreatBeforeMelee);
    t.ok(UNION, melee("0506", &["1-nj-c"]));
    let mut t = troopers("1-md", Formation::Limbered);
    t.advance_to(UNION, Phase::RetreatBeforeMelee);
    t.ok(UNION, melee("0506", &["1-nj-c"]));
}

#[test]
fn cedar_21_12_dismounted_cavalry_meleed_by_infantry_must_retreat_before_it() {
    let mut t = troopers("15-ala", Formation::Line);
    t.advance_to(REBEL, Phase::RetreatBeforeMelee);
    t.ok(REBEL, melee("0505", &["15-ala"]));
    assert_eq!(t.s.rbm.as_ref().unwrap().threatened, ids(&["1-nj-c"]));
    t.refused(UNION, GbacwAction::StandFast, "Cedar Mountain 21.12");
    let legal = t.rs.legal_actions(&t.s, UNION);
    assert!(!legal.contains(&GbacwAction::StandFast));
    // The pending decision's default retreats it, toward the Union's lines.
    let default = t.rs.pending(&t.s)[0].default.clone();
    let GbacwAction::RetreatBeforeMelee { units, path } = default.clone() else {
        panic!("{default:?}");
    };
    assert_eq!(units, ids(&["1-nj-c"]));
    assert!(legal.contains(&default));
    let (mut events, _) = t.roll(UNION, default, 5);
    // 12.83: the attacker may fire withdrawal fire first; it declines.
    if t.s.decision.is_some() {
        events.extend(t.roll(REBEL, GbacwAction::DeclineWithdrawalFire, 5).0);
    }
    assert!(events.contains(&GbacwEvent::UnitRetreated {
        unit: id("1-nj-c"),
        path
    }));
    assert!(t.s.rbm.is_none());

    // Stacked with infantry, it may stand.
    let mut t = troopers("15-ala", Formation::Line);
    t.field_unit("5-conn", "0505", Formation::Line);
    t.face_towards("5-conn", "0506");
    t.advance_to(REBEL, Phase::RetreatBeforeMelee);
    t.ok(REBEL, melee("0505", &["15-ala"]));
    t.ok(UNION, GbacwAction::StandFast);

    // Against dismounted cavalry the Standard Rules apply.
    let mut t = troopers("whites-c", Formation::Dismounted);
    t.advance_to(REBEL, Phase::RetreatBeforeMelee);
    t.ok(REBEL, melee("0505", &["whites-c"]));
    t.ok(UNION, GbacwAction::StandFast);
}

// --- Cedar Mountain 21.31, 21.43: roads over hexsides, cornfields ----------

#[test]
fn cedar_21_31_a_column_on_the_road_pays_the_road_across_a_crest_hexside() {
    // 1508/1509: a road crossing a crest (1509 the higher side).
    let mut t = field();
    t.field_unit("5-conn", "1508", Formation::Column);
    t.field_leader("crawford", "1508");
    t.field_unit("10-me", "1408", Formation::Line);
    t.field_leader("greene", "1408");
    t.advance_to(UNION, Phase::Movement);
    t.mv(UNION, &["5-conn"], &["1509"]);
    // Road for a column: half a Movement Point, crest or no crest.
    assert_eq!(t.spent("5-conn"), mp(1));
    t.s.units.get_mut(&id("5-conn")).unwrap().hex = None;
    // Line infantry pays the ground and the climb instead.
    t.put("10-me", "1508", "n", Formation::Line);
    t.mv(UNION, &["10-me"], &["1509"]);
    assert!(t.spent("10-me") > mp(2), "{:?}", t.spent("10-me"));
}

/// 5 Conn (with Crawford) in 2815 facing 15 Ala in the cornfield at 2816.
fn corn_field(from: &str) -> T {
    let mut t = field();
    t.field_unit("5-conn", from, Formation::Line);
    t.field_leader("crawford", from);
    t.field_unit("15-ala", "2816", Formation::Line);
    t.face_towards("15-ala", "2815");
    let grid = t.rs.game().map.grid.clone();
    let toward = grid
        .neighbours_on_map(n(from))
        .into_iter()
        .map(|(_, h)| h)
        .min_by_key(|h| grid.distance(*h, n("2816")))
        .unwrap();
    t.face_towards("5-conn", &toward.to_string());
    t
}

#[test]
fn cedar_21_43_no_fire_into_an_empty_cornfield_to_blow_it_down() {
    let mut t = corn_field("2815");
    t.s.units.get_mut(&id("15-ala")).unwrap().hex = None;
    t.advance_to(UNION, Phase::OffensiveFire);
    t.refused(
        UNION,
        fire("2816", &[("5-conn", 4)]),
        "Cedar Mountain 21.43",
    );
}

#[test]
fn cedar_21_43_small_arms_at_one_hex_blow_the_corn_down_and_it_is_clear_after() {
    // At two hexes the corn stands.
    let mut t = corn_field("2814");
    assert_eq!(t.rs.game().map.grid.distance(n("2814"), n("2816")), 2);
    t.advance_to(UNION, Phase::OffensiveFire);
    t.ok(UNION, fire("2816", &[("5-conn", 4)]));
    let (events, _) = t.roll(UNION, GbacwAction::EndPhase, 1);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, GbacwEvent::CornBlownDown { .. }))
    );
    assert!(t.s.corn_down.is_empty());
    // At one hex, whatever the result.
    let sight_before = t.rs.line_of_sight(&t.s, n("2716"), n("3017"));
    for seed in 0..3 {
        let mut t = corn_field("2815");
        t.advance_to(UNION, Phase::OffensiveFire);
        t.ok(UNION, fire("2816", &[("5-conn", 4)]));
        let (events, _) = t.roll(UNION, GbacwAction::EndPhase, seed);
        assert!(events.contains(&GbacwEvent::CornBlownDown { hex: n("2816") }));
        assert!(t.s.corn_down.contains(&n("2816")));
        // Clear for all purposes: 21.42's example line 2716-3017 (blocked
        // by the corn at 2816) opens, and entering 2816 costs clear ground.
        if seed == 0 {
            assert!(matches!(sight_before, crate::gbacw::los::Los::Blocked(_)));
            assert_eq!(
                t.rs.line_of_sight(&t.s, n("2716"), n("3017")),
                crate::gbacw::los::Los::Clear
            );
            t.s.units.get_mut(&id("15-ala")).unwrap().hex = None;
            t.advance_to(UNION, Phase::Movement);
            t.advance_to(UNION, Phase::Movement);
            let before = t.spent("5-conn");
            t.mv(UNION, &["5-conn"], &["2816"]);
            assert_eq!(t.spent("5-conn").0 - before.0, 2, "clear costs 1 MP");
        }
    }
}

#[test]
fn cedar_21_42_standing_corn_blocks_sight_through_it_never_into_or_out_of_it() {
    use crate::gbacw::los::Los;
    let mut t = field();
    // The case's example: 3017 and 2816 see each other; 2716 and 3017 do
    // not (the corn of 2816 lies between them), with no one standing there.
    for u in t.s.units.values_mut() {
        if u.hex.is_some_and(|h| [n("2816"), n("2917")].contains(&h)) {
            u.hex = None;
        }
    }
    assert_eq!(t.rs.line_of_sight(&t.s, n("3017"), n("2816")), Los::Clear);
    assert_eq!(t.rs.line_of_sight(&t.s, n("2816"), n("3017")), Los::Clear);
    assert!(matches!(
        t.rs.line_of_sight(&t.s, n("2716"), n("3017")),
        Los::Blocked(_)
    ));
    // Blown down (21.43), it is clear.
    t.fold(GbacwEvent::CornBlownDown { hex: n("2816") });
    assert_eq!(t.rs.line_of_sight(&t.s, n("2716"), n("3017")), Los::Clear);
}

// --- Cedar Mountain 22.0: artillery overshoot --------------------------------

#[test]
fn cedar_22_3_the_provisional_table_keeps_the_example_of_22_0() {
    use crate::gbacw::ruleset::cedar::overshoot::{OVERSHOOT, OvershootTable};
    let t = OvershootTable::load(OVERSHOOT).unwrap();
    let grid = field().rs.game().map.grid.clone();
    // "Batteries in 3015 and 3318 combine to attack an enemy unit in 2207."
    assert_eq!(grid.distance(n("3015"), n("2207")), 12);
    assert_eq!(grid.distance(n("3318"), n("2207")), 16);
    // 3015 rolls 5: accurate, "the range is between 9 and 15 hexes".
    assert!(t.accurate(12, 5));
    // 3318 rolls 3: scattered, "the range was 16 or more hexes".
    assert!(!t.accurate(16, 3));
    // "A second die-roll is made and the result is 4; the fire from this
    // battery lands in hex 2208."
    assert_eq!(t.lands(&grid, n("2207"), 4), Some(n("2208")));
    // Below nine hexes nothing overshoots; every die lands on a neighbour.
    assert!((1..=6).all(|d| t.accurate(8, d)));
    let round: BTreeSet<_> = (1..=6)
        .filter_map(|d| t.lands(&grid, n("2207"), d))
        .collect();
    assert_eq!(round.len(), 6);
    assert!(round.iter().all(|h| grid.distance(*h, n("2207")) == 1));
    // Every value says why.
    assert!(t.band.iter().all(|b| !b.why.is_empty()));
    assert!(t.scatter.iter().all(|s| !s.why.is_empty()));
    // A broken table is refused with a reason.
    let e = OvershootTable::load(&OVERSHOOT.replace("die = 6", "die = 5")).unwrap_err();
    assert!(e.message.contains("die"), "{e}");
}

/// Union batteries 4 Me (TA) and 6 Me (TB) unlimbered in 0204, eleven
/// hexes from 15 Ala in 1304; 5 Conn (Union) stands in 1305 beside it.
fn gunnery() -> T {
    let mut t = field();
    for b in ["4-me", "6-me"] {
        t.field_unit(b, "0204", Formation::Unlimbered);
        t.face_towards(b, "0304");
    }
    t.field_unit("15-ala", "1304", Formation::Line);
    t.field_unit("5-conn", "1305", Formation::Line);
    assert_eq!(t.rs.game().map.grid.distance(n("0204"), n("1304")), 11);
    t.advance_to(UNION, Phase::OffensiveFire);
    t
}

#[test]
fn cedar_22_0_each_battery_rolls_accurate_ones_combine_scattered_ones_land_beside() {
    use crate::gbacw::ruleset::cedar::overshoot::{OVERSHOOT, OvershootTable};
    let table = OvershootTable::load(OVERSHOOT).unwrap();
    let grid = field().rs.game().map.grid.clone();
    let (mut accurate_seen, mut friendly_hit) = (false, false);
    for seed in 0..400 {
        let mut t = gunnery();
        t.ok(UNION, fire("1304", &[("4-me", 6), ("6-me", 6)]));
        let (events, drawn) = t.roll(UNION, GbacwAction::EndPhase, seed);
        let rolls: Vec<_> = events
            .iter()
            .filter_map(|e| match e {
                GbacwEvent::OvershootRolled {
                    battery,
                    range,
                    die,
                    accurate,
                    scatter_die,
                    lands,
                    ..
                } => Some((
                    battery.clone(),
                    *range,
                    *die,
                    *accurate,
                    *scatter_die,
                    *lands,
                )),
                _ => None,
            })
            .collect();
        // One roll per battery, each by its own range, before any fire die.
        assert_eq!(rolls.len(), 2);
        assert_eq!(u16::from(rolls[0].2), drawn[0]);
        let mut hexes = BTreeSet::new();
        for (_, range, die, accurate, scatter_die, lands) in &rolls {
            assert_eq!(*range, 11);
            assert_eq!(*accurate, table.accurate(11, *die));
            assert_eq!(scatter_die.is_some(), !accurate);
            if let Some(d) = scatter_die {
                assert_eq!(*lands, table.lands(&grid, n("1304"), *d));
                hexes.extend(*lands);
            }
        }
        let fired: Vec<FireReport> = fire_reports(&events);
        let any_accurate = rolls.iter().any(|r| r.3);
        assert_eq!(
            fired.iter().any(|r| r.target == n("1304")),
            any_accurate,
            "seed {seed}"
        );
        if any_accurate {
            accurate_seen = true;
            let r = fired.iter().find(|r| r.target == n("1304")).unwrap();
            let accurate: Vec<_> = rolls.iter().filter(|r| r.3).map(|r| r.0.clone()).collect();
            assert_eq!(r.firers, accurate);
        }
        // Scattered fire lands only where someone stands: here 5 Conn, a
        // friend (22.0 step 4), in 1305.
        for h in hexes {
            let occupied = h == n("1305");
            assert_eq!(fired.iter().any(|r| r.target == h), occupied, "seed {seed}");
            friendly_hit |= occupied;
        }
        if accurate_seen && friendly_hit {
            break;
        }
    }
    assert!(accurate_seen && friendly_hit);
}

#[test]
fn cedar_22_1_artillery_never_fires_at_a_vacant_hex_hoping_to_overshoot() {
    let mut t = gunnery();
    t.refused(UNION, fire("1204", &[("4-me", 6)]), "GBACW 9.0");
    // Below nine hexes nothing is rolled for overshoot.
    t.s.units.get_mut(&id("15-ala")).unwrap().hex = Some(n("0904"));
    t.ok(UNION, fire("0904", &[("4-me", 6)]));
    let (events, _) = t.roll(UNION, GbacwAction::EndPhase, 2);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, GbacwEvent::OvershootRolled { .. }))
    );
    assert_eq!(fire_reports(&events).len(), 1);
}

#[test]
fn cedar_21_2_no_ammunition_rules_batteries_fire_and_small_arms_never_run_out() {
    // The roster's batteries carry no rounds; they fire all the same.
    let mut t = gunnery();
    assert_eq!(t.s.units[&id("4-me")].status.rounds, 0);
    t.s.units.get_mut(&id("15-ala")).unwrap().hex = Some(n("0904"));
    t.ok(UNION, fire("0904", &[("4-me", 6)]));
    let (events, _) = t.roll(UNION, GbacwAction::EndPhase, 2);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, GbacwEvent::RoundFired { .. }))
    );
    // A small-arms fire die of 1 draws no 11.21 depletion roll.
    let mut seen = false;
    for seed in 0..200 {
        let mut t = melee_field(false);
        t.advance_to(UNION, Phase::OffensiveFire);
        t.ok(UNION, fire("0506", &[("5-conn", 4)]));
        let (events, _) = t.roll(UNION, GbacwAction::EndPhase, seed);
        if fire_reports(&events)[0].die != 1 {
            continue;
        }
        seen = true;
        assert!(
            !t.s.units[&id("5-conn")]
                .status
                .markers
                .contains(&Marker::AmmoDepleted)
        );
        break;
    }
    assert!(seen);
}

// --- A random skirmish under every exclusive rule ----------------------------

/// Early's brigade (and 1 Md's guns) put next to Geary's line in front of
/// the cornfield; then both seats play random legal actions, every one
/// accepted, with seeded dice. After each action: every unit's strength,
/// losses and prisoners add up, each brigade's BCE boxes are its infantry
/// and cavalry losses, and `BceLost` came exactly when a brigade reached
/// its limit. Declaring fire or melee is preferred when offered.
/// Bounded: `ACTIONS` actions or 40 s a seed.
#[test]
fn cedar_18_0_and_24_0_hold_through_a_random_skirmish() {
    const ACTIONS: usize = 250;
    let mut tally = (0usize, 0usize, 0usize, 0usize);
    for seed in 1..=3u64 {
        let started = std::time::Instant::now();
        let mut t = field();
        // Early's regiments each below one of Geary's units, facing it.
        let grid = t.rs.game().map.grid.clone();
        let geary: Vec<HexNumber> = ["5-ohio", "7-ohio", "29-ohio", "66-ohio"]
            .iter()
            .filter_map(|u| t.hex(u))
            .collect();
        let mut used: BTreeSet<HexNumber> = t.s.units.values().filter_map(|u| u.hex).collect();
        let mut first = None;
        for (k, u) in ["12-ga", "13-va", "25-va", "31-va", "52-va", "58-va"]
            .iter()
            .enumerate()
        {
            let g = geary[k % geary.len()];
            let Some(h) = grid
                .neighbours_on_map(g)
                .into_iter()
                .map(|(_, h)| h)
                .filter(|h| h.row() > g.row() && !used.contains(h))
                .find(|h| {
                    grid.neighbours_on_map(*h).iter().all(|(_, x)| {
                        !t.s.units.values().any(|o| o.hex == Some(*x)) || geary.contains(x)
                    })
                })
            else {
                continue;
            };
            used.insert(h);
            first.get_or_insert(h);
            t.field_unit(u, &h.to_string(), Formation::Line);
            t.face_towards(u, &g.to_string());
        }
        // Both brigades one Strength Point short of their BCE limits:
        // Early 7 of 8, Geary 6 of 7.
        for (u, p) in [
            ("12-ga", 3),
            ("13-va", 3),
            ("25-va", 1),
            ("5-ohio", 2),
            ("7-ohio", 2),
            ("29-ohio", 1),
            ("66-ohio", 1),
        ] {
            t.fold(GbacwEvent::UnitHit {
                unit: id(u),
                points: p,
            });
        }
        let early_at = first.expect("a place for Early's brigade");
        t.field_leader("early", &early_at.to_string());
        let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut next = |m: usize| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            usize::try_from(rng % m as u64).unwrap()
        };
        let mut lost_before: BTreeSet<CounterId> = BTreeSet::new();
        for k in 0..ACTIONS {
            if t.s.over || started.elapsed().as_secs() > 40 {
                break;
            }
            let seat = t.rs.acting_seat(&t.s).unwrap();
            let legal = t.rs.legal_actions(&t.s, seat);
            assert!(!legal.is_empty());
            // Lean toward acting: end the phase one time in four.
            let others: Vec<&GbacwAction> = legal
                .iter()
                .filter(|a| **a != GbacwAction::EndPhase)
                .collect();
            let combat: Vec<&GbacwAction> = others
                .iter()
                .copied()
                .filter(|a| {
                    matches!(
                        a,
                        GbacwAction::DeclareFire { .. } | GbacwAction::DeclareMelee { .. }
                    )
                })
                .collect();
            let a = if !combat.is_empty() && next(3) > 0 {
                combat[next(combat.len())].clone()
            } else if others.is_empty() || (legal.contains(&GbacwAction::EndPhase) && next(4) == 0)
            {
                legal
                    .iter()
                    .find(|a| **a == GbacwAction::EndPhase)
                    .unwrap_or(&legal[0])
                    .clone()
            } else {
                others[next(others.len())].clone()
            };
            let ctx = crate::engine::ActionContext {
                seat,
                seq: 1,
                by_default: false,
            };
            let events = if t.rs.rolls_dice(&t.s, &ctx, &a) {
                t.roll(seat, a, seed * 1000 + k as u64).0
            } else {
                t.ok(seat, a)
            };
            tally.0 += 1;
            for e in &events {
                match e {
                    GbacwEvent::FireResolved(_) => tally.1 += 1,
                    GbacwEvent::MeleeResolved(_) => tally.2 += 1,
                    _ => {}
                }
            }
            // Strength, losses and prisoners add up.
            for (uid, u) in &t.s.units {
                let printed = t.rs.game().oob.units[uid].strength;
                assert_eq!(u.status.strength + u.killed + u.captured, printed, "{uid}");
            }
            // The boxes are the brigade's infantry and cavalry losses.
            let oob = &t.rs.game().oob;
            for b in t.rs.bce(&t.s) {
                let lost: u32 = oob
                    .units
                    .values()
                    .filter(|u| matches!(&u.command, crate::gbacw::oob::Command::Brigade(x) if *x == b.brigade))
                    .filter(|u| {
                        matches!(
                            u.kind,
                            crate::gbacw::oob::UnitKind::Infantry | crate::gbacw::oob::UnitKind::Cavalry
                        )
                    })
                    .map(|u| t.rs.strength_lost(&t.s, &u.id))
                    .sum();
                assert_eq!(u32::from(b.losses), lost, "{}", b.brigade.0);
                assert_eq!(b.at_limit, b.losses >= b.boxes);
            }
            let lost_now: BTreeSet<CounterId> =
                t.rs.bce(&t.s)
                    .into_iter()
                    .filter(|b| b.at_limit)
                    .map(|b| b.brigade)
                    .collect();
            let reported: BTreeSet<CounterId> = events
                .iter()
                .filter_map(|e| match e {
                    GbacwEvent::BceLost { brigade } => Some(brigade.clone()),
                    _ => None,
                })
                .collect();
            let fresh: BTreeSet<CounterId> = lost_now.difference(&lost_before).cloned().collect();
            assert_eq!(reported, fresh);
            tally.3 += fresh.len();
            lost_before = lost_now;
        }
    }
    eprintln!(
        "skirmish: {} actions, {} fire attacks, {} melees, {} brigades lost BCE",
        tally.0, tally.1, tally.2, tally.3
    );
    assert!(tally.1 > 0, "the skirmish saw fire");
}
