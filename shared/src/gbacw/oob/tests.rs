//! The order-of-battle format against the shipped test file and broken inputs.

use super::*;
use crate::gbacw::charts::{Charts, MoveClass, RangeChart};
use crate::gbacw::text::TextError;

pub(crate) const TEST_OOB: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../assets/gbacw/oob/test.oob"
));

fn range() -> RangeChart {
    Charts::load(crate::gbacw::charts::tests::CHARTS)
        .unwrap()
        .range
}

fn id(s: &str) -> CounterId {
    CounterId::parse(s).unwrap()
}

fn test_oob() -> Oob {
    parse_oob(TEST_OOB, &range()).unwrap_or_else(|e| panic!("test.oob: {e}"))
}

#[test]
fn case_3_3_test_oob_has_every_kind_of_counter() {
    let o = test_oob();
    assert_eq!(o.name, "Test order of battle");
    assert_eq!(o.sides.len(), 2);
    assert_eq!(o.units.len(), 10);
    assert_eq!(o.leaders.len(), 8);
    let kinds: std::collections::BTreeSet<&str> = o.units.values().map(|u| u.kind.name()).collect();
    assert_eq!(kinds.len(), 4);
    assert_eq!(o.side_units(&id("union")).count(), 6);
}

#[test]
fn case_3_31_sample_counter_values_are_read() {
    let o = test_oob();
    let u = &o.units[&id("5-conn")];
    assert_eq!(u.designation, "5 Conn");
    assert_eq!(
        (u.morale, u.weapon.as_deref(), u.strength),
        (Morale::Rated(5), Some("R"), 6)
    );
    assert_eq!(u.command, Command::Brigade(id("crawford")));
    let b = &o.units[&id("4-me")];
    assert_eq!(b.kind, UnitKind::Battery { rounds: 20 });
    assert_eq!(b.strength, 6);
    let LeaderRole::Brigade {
        division,
        ratings,
        replacement,
    } = &o.leaders[&id("crawford")].role
    else {
        panic!("crawford is a brigade leader");
    };
    assert_eq!(division.as_ref(), Some(&id("williams")));
    assert_eq!(
        (
            ratings.effectiveness_radius,
            ratings.rally,
            ratings.promoted_radius
        ),
        (5, 2, Some(5))
    );
    assert_eq!(replacement.map(|r| r.effectiveness_radius), Some(3));
    assert_eq!(
        o.leaders[&id("williams")].role,
        LeaderRole::Division {
            army: Some(id("banks")),
            integrity_radius: 6,
            command_points: 2
        }
    );
    assert_eq!(o.brigade_units(&id("crawford")).count(), 3);
}

#[test]
fn case_13_12_question_mark_morale_is_green() {
    assert_eq!(test_oob().units[&id("pa-zd")].morale, Morale::Green);
}

#[test]
fn case_5_3_independent_units_need_no_brigade() {
    let o = test_oob();
    assert_eq!(o.units[&id("4-me")].command, Command::Independent);
    assert_eq!(o.units[&id("whites-c")].command, Command::Independent);
}

#[test]
fn case_11_13_supply_wagons_are_always_independent() {
    let o = test_oob();
    let w = &o.units[&id("supply-u")];
    assert_eq!(w.command, Command::Independent);
    assert_eq!(
        w.kind,
        UnitKind::Wagon {
            small_arms: 10,
            artillery: 6
        }
    );
    let s = UnitStatus::fresh(w);
    assert_eq!(s.supply, (10, 6));
    assert_eq!(s.formation.move_class(), Some(MoveClass::Wagon));
}

#[test]
fn case_6_13_unlimbered_artillery_cannot_move() {
    assert_eq!(Formation::Unlimbered.move_class(), None);
    assert_eq!(Formation::Limbered.move_class(), Some(MoveClass::Limbered));
    assert!(Formation::Unlimbered.allowed_for(&UnitKind::Battery { rounds: 1 }));
    assert!(!Formation::Column.allowed_for(&UnitKind::Battery { rounds: 1 }));
}

#[test]
fn case_6_14_dismounted_cavalry_moves_as_line_infantry() {
    assert_eq!(Formation::Dismounted.move_class(), Some(MoveClass::Line));
    assert!(!Formation::Column.allowed_for(&UnitKind::Cavalry));
}

#[test]
fn case_7_0_column_wagon_mounted_limbered_always_enfiladed() {
    for f in [
        Formation::Column,
        Formation::Wagon,
        Formation::Mounted,
        Formation::Limbered,
    ] {
        assert!(f.always_enfiladed(), "{f:?}");
    }
    for f in [
        Formation::Line,
        Formation::Dismounted,
        Formation::Unlimbered,
    ] {
        assert!(!f.always_enfiladed(), "{f:?}");
    }
}

#[test]
fn case_13_24_over_half_lost_is_counted_against_printed_strength() {
    let o = test_oob();
    let u = &o.units[&id("5-conn")];
    let mut s = UnitStatus::fresh(u);
    assert_eq!(s.rounds, 0);
    s.strength = 3;
    assert!(!s.lost_over_half(u));
    s.strength = 2;
    assert!(s.lost_over_half(u));
}

#[test]
fn case_9_21_weapon_codes_must_be_on_the_range_chart() {
    let e = err("weapon=TA guns=6", "weapon=XX guns=6");
    assert!(e.message.contains("not on the Range Effects Chart"), "{e}");
    let e = err("weapon=R strength=6", "weapon=HB strength=6");
    assert!(e.message.contains("cannot carry weapon `HB`"), "{e}");
}

fn err(from: &str, to: &str) -> TextError {
    assert!(TEST_OOB.contains(from), "fixture `{from}` not in test.oob");
    parse_oob(&TEST_OOB.replacen(from, to, 1), &range()).unwrap_err()
}

fn line_of(needle: &str) -> usize {
    TEST_OOB.lines().position(|l| l.contains(needle)).unwrap() + 1
}

#[test]
fn errors_name_line_and_column() {
    let e = err("brigade=crawford morale=5", "brigade=crawfrd morale=5");
    assert_eq!(e.line, line_of("infantry 5-conn"));
    assert_eq!(e.column, 31, "{e}");
    assert!(e.message.contains("no brigade `crawfrd`"), "{e}");

    let e = err("infantry 10-me", "infantry 5-conn");
    assert!(e.message.contains("already used"), "{e}");

    let e = err(
        "morale=4 weapon=R strength=4",
        "morale=6 weapon=R strength=4",
    );
    assert!(e.message.contains("morale"), "{e}");

    let e = err(
        "cavalry whites-c name=\"White's c\" indpnt",
        "cavalry whites-c name=\"White's c\"",
    );
    assert!(e.message.contains("needs `brigade=` or `indpnt`"), "{e}");

    let e = err("division=williams er=5", "division=banks er=5");
    assert!(e.message.contains("no division `banks`"), "{e}");

    let e = err("repl=3/1/4", "repl=3/1/4/2");
    assert!(e.message.contains("ER/RALLY"), "{e}");

    let e = err("guns=6 rounds=20", "guns=6 rounds=20 strength=3");
    assert!(e.message.contains("does not apply to a battery"), "{e}");

    let e = err("side confederate name=\"Confederate\"\n", "");
    assert!(e.message.contains("two sides, found 1"), "{e}");

    let e = err("gbacw-oob 1", "gbacw-oob 2");
    assert_eq!((e.line, e.column), (1, 1));

    let e = parse_oob("", &range()).unwrap_err();
    assert!(e.message.contains("empty"), "{e}");

    let e = parse_oob(&"#".repeat(MAX_OOB_BYTES + 1), &range()).unwrap_err();
    assert_eq!(e.line, 0);
}

#[test]
fn garbage_never_panics() {
    let r = range();
    for cut in (0..TEST_OOB.len()).step_by(23) {
        if TEST_OOB.is_char_boundary(cut) {
            let _ = parse_oob(&TEST_OOB[..cut], &r);
        }
    }
    for junk in [
        "infantry",
        "infantry x",
        "side",
        "brigade b repl=/",
        "battery b guns=99999999999",
        "wagon w strength=-1",
    ] {
        let _ = parse_oob(&format!("gbacw-oob 1\nside s name=\"S\"\n{junk}\n"), &r);
    }
}

#[test]
fn case_17_5_roster_records_are_optional_and_read() {
    // The older file has none of the roster keys and still loads unchanged.
    assert!(test_oob().bce.is_empty());
    let o = parse_oob(
        &TEST_OOB
            .replacen("repl=3/1/4", "repl=3/1/4 bce=7/12 bce-vp=17", 1)
            .replacen("strength=3", "strength=3 mounted-morale=4", 1)
            .replacen("rounds=20", "rounds=20 roster=5", 1),
        &range(),
    )
    .unwrap();
    assert_eq!(
        o.bce[&id("crawford")],
        roster::Bce {
            limit: 7,
            total: 12,
            victory_points: 17
        }
    );
    assert_eq!(o.units[&id("1-nj-c")].mounted_morale, Some(4));
    assert_eq!(o.units[&id("4-me")].roster_strength, Some(5));
    // Crawford's counters (6 + 4 + 2) make 12; 4 Me has 6 guns on the counter.
    let check = roster::check_roster(&o);
    assert_eq!(check.brigades.len(), 1);
    assert_eq!(
        check.mismatches,
        vec![roster::Mismatch::Unit {
            unit: id("4-me"),
            counter: 6,
            roster: 5
        }]
    );
    assert_eq!(check.without_record, vec![id("bayard"), id("ronald")]);
}

#[test]
fn case_17_5_broken_roster_records_are_refused() {
    let bad = [
        ("repl=3/1/4", "repl=3/1/4 bce=7"),
        ("repl=3/1/4", "repl=3/1/4 bce=13/12 bce-vp=1"),
        ("repl=3/1/4", "repl=3/1/4 bce=7/12"),
        ("repl=3/1/4", "repl=3/1/4 bce-vp=3"),
        ("weapon=TA guns=6", "weapon=TA guns=6 mounted-morale=3"),
        ("strength=3", "strength=3 mounted-morale=9"),
    ];
    for (from, to) in bad {
        let e = err(from, to);
        assert!(e.line > 0 && e.column > 0, "{to}: {e}");
    }
}

#[test]
fn corinth_keys_rank_bce_day2_sharpshooter_provisional_are_optional() {
    let base = "gbacw-oob 1\nside u name=\"U\"\narmy a name=\"A\" cp=1 rank=mg\ndivision d name=\"D\" army=a dir=0 cp=1 rank=bg provisional=\"CP guessed\"\nbrigade b name=\"B\" division=d er=3 rally=1 bce=3/7 bce-day2=5 bce-vp=1 rank=col\ninfantry i name=\"I\" brigade=b morale=4 weapon=R strength=7 sharpshooter\nside c name=\"C\"\n";
    let o = parse_oob(base, &range()).unwrap();
    assert_eq!(o.extras_of(&id("a")).rank, Some(Rank::MajorGeneral));
    assert_eq!(o.extras_of(&id("b")).bce_day2, Some(5));
    assert!(o.extras_of(&id("i")).sharpshooter);
    assert_eq!(
        o.extras_of(&id("d")).provisional.as_deref(),
        Some("CP guessed")
    );
    // The test file has none of them.
    assert!(test_oob().extras.is_empty());
    for (from, to, what) in [
        ("bce-day2=5", "bce-day2=8", "between"),
        ("bce-day2=5", "bce-day2=2", "between"),
        ("rank=col", "rank=major", "rank is"),
        (
            "strength=7 sharpshooter",
            "strength=7 rank=col",
            "does not apply",
        ),
        ("cp=1 rank=mg", "cp=1 sharpshooter", "does not apply"),
        (
            "provisional=\"CP guessed\"",
            "provisional=\"\"",
            "needs a reason",
        ),
        ("rank=mg", "rank=mg rank=bg", "given twice"),
    ] {
        let input = base.replacen(from, to, 1);
        let e = parse_oob(&input, &range()).unwrap_err();
        assert!(e.message.contains(what), "{to}: {e}");
    }
    let no_bce = base.replace("bce=3/7 bce-day2=5 bce-vp=1", "bce-day2=5");
    assert!(
        parse_oob(&no_bce, &range())
            .unwrap_err()
            .message
            .contains("needs `bce=")
    );
}
