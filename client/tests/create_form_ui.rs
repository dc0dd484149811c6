//! The lobby's "create a table" form through egui_kittest: a GBACW battle's
//! scenario options (read from its scenario file) and the rules readings
//! are boxes to tick, and what is ticked is what the table is created with.

use egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use muster_client::app::lobby::create::{CreateForm, battle_options};
use muster_shared::codec;
use muster_shared::gbacw::ruleset::GbacwConfig;

fn form(battle: &str) -> Harness<'static, CreateForm> {
    let form = CreateForm {
        game: "gbacw".into(),
        battle: battle.into(),
        ..CreateForm::default()
    };
    let mut h = Harness::builder()
        .with_size(vec2(700.0, 500.0))
        .build_ui_state(
            |ui, f: &mut CreateForm| {
                f.ui(ui, false);
            },
            form,
        );
    h.run();
    h
}

fn config(h: &Harness<'_, CreateForm>) -> GbacwConfig {
    let options = h.state().options();
    assert_eq!(options.ruleset, "gbacw");
    codec::decode(&options.config, 1 << 16).expect("a GBACW config")
}

#[test]
fn cedar_mountains_optional_deployment_and_a_reading_are_ticked_into_the_config() {
    let mut h = form("cedar_mountain");
    // Untouched: the scenario's defaults and the 004 text.
    let c = config(&h);
    assert_eq!(c.battle, "cedar_mountain");
    assert!(c.scenario_options.is_empty());
    assert!(c.readings_001.is_empty());

    h.get_by_label("Union optional deployment (26.3)").click();
    h.run();
    h.get_by_label("cap-terrain-only (GBACW 9.51)").click();
    h.run();
    let c = config(&h);
    assert_eq!(c.scenario_options.get("free-deployment"), Some(&true));
    assert!(c.readings_001.contains("cap-terrain-only"));
    // The server's own check accepts it.
    assert!(c.rule_options().is_ok());

    // Another battle: Cedar's option is not sent with it.
    h.state_mut().battle = "test".into();
    h.run();
    assert!(config(&h).scenario_options.is_empty());
}

#[test]
fn corinths_heat_is_offered_off_by_default() {
    let offered = battle_options("corinth");
    let heat = offered
        .iter()
        .find(|o| o.id == "heat")
        .expect("30.5 is offered");
    assert!(!heat.default_on);
    let mut h = form("corinth");
    h.get_by_label(&heat.label).click();
    h.run();
    assert_eq!(config(&h).scenario_options.get("heat"), Some(&true));
    assert!(battle_options("no_such_battle").is_empty());
}
