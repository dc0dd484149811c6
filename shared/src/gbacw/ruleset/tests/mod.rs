//! The GBACW ruleset through `decide` and `evolve`, on the test scenario.
//! Tests named `case_N_NN_…` test that case of the Standard Rules.

mod advance;
mod artillery;
mod cedar;
mod cedar_rules;
mod charge;
mod client_queries;
mod command;
mod corinth;
mod corinth_batteries;
mod corinth_command;
mod corinth_crew_fire;
mod corinth_crew_melee;
mod corinth_crew_stack;
mod corinth_crews;
mod corinth_free;
mod corinth_leaders;
mod corinth_melee;
mod corinth_night;
mod corinth_set_up_batteries;
mod corinth_setup;
mod corinth_solo;
mod corinth_terrain;
mod corinth_withdrawal_queue;
mod displaced_break;
mod displacement;
mod engaged;
mod fire;
mod formation;
mod melee;
mod melee_reach;
mod movement;
mod night_reach;
mod position;
mod reading_support;
mod recrew;
mod retreat_fire;
mod retreat_limits;
mod second_reading_11_14;
mod second_reading_15_18;
mod second_reading_15_18_more;
mod second_reading_4_8;
mod second_reading_9_10;
mod second_reading_cedar;
mod second_reading_cedar_more;
mod second_reading_corinth;
mod second_reading_corinth_more;
mod second_reading_part4_cedar;
mod second_reading_part4_corinth;
mod second_reading_part4_std;
mod second_reading_part5_cedar;
mod second_reading_part5_corinth;
mod second_reading_part5_std;
mod second_reading_part6;
mod second_reading_part7;
mod second_reading_part8;
mod second_reading_std_more;
mod sequence;
mod stack_order;
mod stacking_phase_end;
mod standard_names_no_battle;
mod succession;
mod third_battle;
mod withdrawal;

use super::*;
use crate::engine::{ActionContext, Dice, Ruleset};
// Named by the tests below through `use super::*` before the helpers
// moved to the test kit; kept so that they still find it.
#[allow(unused_imports)]
use crate::engine::RuleError;
use crate::gbacw::charts::Mp;
use crate::gbacw::facing::Facing;
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, Formation};
use crate::gbacw::sequence::{Phase, Step};
use crate::ids::SeatId;

// The helpers live in the shared test kit (`crate::gbacw::testkit`, also
// the client's and the whole-game drivers' under the `test-support`
// feature); these names stay here for the files below (`use super::*`).
pub(super) use crate::gbacw::testkit::{
    REBEL, T, UNION, arrive, dir, fire, fire_reports, id, ids, mp, mv, n, place,
};

#[test]
fn the_test_scenario_loads_and_sets_up() {
    let t = T::new();
    assert_eq!(t.rs.game().scenario.name, "Test battle");
    assert_eq!(t.hex("5-conn"), Some(n("0305")));
    assert_eq!(t.s.units[&id("5-conn")].facing, dir("ne"));
    assert_eq!(
        t.s.units[&id("aleghny")].status.formation,
        Formation::Unlimbered
    );
    assert_eq!(t.hex("crawford"), Some(n("0305")));
    assert_eq!(t.hex("u-repl-1"), None);
    assert_eq!(t.rs.side_of(UNION).0, "union");
    assert_eq!(t.rs.acting_seat(&t.s), Some(UNION));
    assert!(!t.rs.legal_actions(&t.s, UNION).is_empty());
    assert!(t.rs.legal_actions(&t.s, REBEL).is_empty());
}

#[test]
fn unknown_battles_and_readings_are_refused_by_name() {
    let e = Gbacw::new(&GbacwConfig {
        battle: "gettysburg".into(),
        ..GbacwConfig::default()
    })
    .unwrap_err();
    assert!(e.message.contains("gettysburg"), "{e}");
    let e = Gbacw::new(&GbacwConfig {
        readings_001: ["no-such-reading".to_string()].into(),
        ..GbacwConfig::default()
    })
    .unwrap_err();
    assert!(e.message.contains("no-such-reading"), "{e}");
    for (name, _, _) in EDITION_001 {
        Gbacw::new(&GbacwConfig {
            readings_001: [name.to_string()].into(),
            ..GbacwConfig::default()
        })
        .unwrap();
    }
}

#[test]
fn a_battle_whose_set_up_is_the_players_choice_loads_into_its_set_up_step() {
    let t = T::with(GbacwConfig {
        battle: "cedar_mountain".into(),
        ..GbacwConfig::default()
    });
    assert_eq!(t.s.progress.setting_up, Some(id("union")));
}

/// The test battle with `from` replaced by `to` in its scenario.
fn altered(from: &str, to: &str) -> Result<Game, String> {
    let base = crate::gbacw::battles::test::FILES;
    assert!(base.scenario.contains(from), "{from}");
    let text: &'static str = Box::leak(base.scenario.replace(from, to).into_boxed_str());
    Game::from_files(&crate::gbacw::battles::BattleFiles {
        scenario: text,
        ..base
    })
}

#[test]
fn the_set_up_is_checked_before_play() {
    let e = altered("units=10-me facing=ne", "units=10-me facing=east").unwrap_err();
    assert!(e.contains("facing `east`"), "{e}");
    let e = altered(
        "units=4-me facing=ne formation=limbered",
        "units=4-me facing=ne formation=line",
    )
    .unwrap_err();
    assert!(e.contains("cannot set up in line"), "{e}");
    let e = altered("setup hex=0805 units=10-va", "setup hex=0306 units=10-va").unwrap_err();
    assert!(e.contains("5.12"), "{e}");
    let e = altered("setup hex=0405 units=4-me", "setup hex=0208 units=4-me").unwrap_err();
    assert!(e.contains("5.19"), "{e}");
    let e = altered(
        "setup hex=0805 units=10-va",
        "setup hex=0306 units=ronald,10-va",
    )
    .unwrap_err();
    assert!(e.contains("placed 2 times"), "{e}");
    let e = altered(
        "units=10-me facing=ne formation=line",
        "units=10-me formation=line",
    )
    .unwrap_err();
    assert!(e.contains("no facing"), "{e}");
    let e = altered(
        "setup hex=1005 units=jackson",
        "setup hex=0305 units=jackson",
    )
    .unwrap_err();
    assert!(e.contains("among enemy units"), "{e}");
}

#[test]
fn view_is_the_whole_state_for_everyone() {
    use crate::ids::Viewer;
    let mut t = T::new();
    let before = t.s.clone();
    let events = t.ok(UNION, GbacwAction::EndPhase);
    for v in [Viewer::Seat(UNION), Viewer::Seat(REBEL), Viewer::Spectator] {
        let mut followed = t.rs.view(&before, v);
        for e in &events {
            let seen = t.rs.view_event(&before, e, v).unwrap();
            t.rs.evolve(&mut followed, &seen);
        }
        assert_eq!(followed, t.rs.view(&t.s, v));
    }
}
