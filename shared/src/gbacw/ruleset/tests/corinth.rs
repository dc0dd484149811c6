//! Corinth's Historical Scenario (30.0) as a hosted game: the Union set-up
//! (30.1), the opening on the Union Player-Turn of Game-Turn 2 with only
//! its reinforcements (30.0), the Confederate arrival through the Assault
//! Areas (30.2, 29.3), the Union commitment restrictions (30.3), night
//! (26.0) and victory (31.0). Tests named `corinth_N_NN_…` test that
//! exclusive-rule case.

use super::*;
use crate::gbacw::sequence::PlayerTurn;

const CORINTH: &str = "corinth";

pub(super) fn corinth() -> T {
    static RS: std::sync::OnceLock<Gbacw> = std::sync::OnceLock::new();
    let rs = RS
        .get_or_init(|| {
            Gbacw::new(&GbacwConfig {
                battle: CORINTH.into(),
                ..GbacwConfig::default()
            })
            .unwrap_or_else(|e| panic!("{e}"))
        })
        .clone();
    let s = rs.initial_state();
    T { rs, s }
}

/// After the default Union set-up: the Union Player-Turn of Game-Turn 2.
fn started() -> T {
    let mut t = corinth();
    t.ok(UNION, GbacwAction::EndSetUp);
    t
}

#[test]
fn corinth_30_0_the_game_opens_on_the_union_player_turn_of_game_turn_2() {
    let t = started();
    assert_eq!(t.s.clock.turn, 2);
    assert_eq!(t.rs.phasing_side(t.s.clock), Some(&id("union")));
    assert_eq!(t.rs.side_of_turn(PlayerTurn::First), &id("confederate"));
}

#[test]
fn corinth_scenario_fits_its_map_and_oob() {
    let files = crate::gbacw::battles::corinth::FILES;
    let charts = crate::gbacw::charts::Charts::load(super::super::scenario::CHARTS).unwrap();
    let map = crate::gbacw::map::parse_map(files.map).unwrap();
    let oob = crate::gbacw::oob::parse_oob(files.oob, &charts.range).unwrap();
    let mut sc = crate::gbacw::scenario::parse_scenario(files.scenario).unwrap();
    sc.resolve(&map);
    let problems = sc.check(&map, &oob);
    assert!(problems.is_empty(), "{problems:#?}");
}
