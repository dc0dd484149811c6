//! The lobby's "create a table" form through egui_kittest: a GBACW battle's
//! scenario options (read from its scenario file) and the rules readings
//! are boxes to tick, in words with their cases in the tooltips, and what
//! is ticked is what the table is created with.

use egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT, Queryable};
use muster_client::app::lobby::create::{CreateForm, battle_options};
use muster_shared::codec;
use muster_shared::gbacw::battles::for_players;
use muster_shared::gbacw::ruleset::{EDITION_001, GbacwConfig};
use muster_shared::gbacw::words::reading_words;

use crate::support;

use support::play::assert_words_only;

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

    h.get_by_label("Union optional deployment").click();
    h.run();
    h.get_by_label("The two-column cap limits terrain shifts only")
        .click();
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

/// A word made of three or more lower-case words joined by hyphens
/// ("elephant-twelve-is-one"): how option ids are written.
fn has_slug(text: &str) -> bool {
    text.split(|c: char| !(c.is_ascii_lowercase() || c == '-'))
        .any(|w| w.split('-').filter(|p| !p.is_empty()).count() >= 3)
}

#[test]
fn the_create_form_shows_options_and_readings_in_words_with_their_cases_on_hover() {
    for battle in for_players() {
        let mut h = form(battle.name);
        // Issue 18's check over the rendered text, and more: no option
        // ids, no pointer to the developers' notes.
        assert_words_only(&h, battle.name);
        let mut texts: Vec<String> = Vec::new();
        for node in h.query_all(By::new().include_labels()) {
            let n = node.accesskit_node();
            texts.extend(
                [n.label(), n.value()]
                    .into_iter()
                    .flatten()
                    .map(|t| t[..].to_string()),
            );
        }
        for t in &texts {
            assert!(!has_slug(t), "{}: an id on screen in {t:?}", battle.name);
            assert!(!t.contains("docs/") && !t.contains(".md"), "{t:?}");
        }
        for o in battle_options(battle.name) {
            assert!(
                texts.contains(&o.label),
                "{}: {:?} not shown",
                battle.name,
                o.label
            );
            assert!(!o.label.contains(&o.id), "{o:?}");
            // The case is the tooltip, with its rulebook.
            h.get_by_label(&o.label).hover();
            h.run();
            h.get_by_label_contains(&o.case);
            assert!(
                o.case.starts_with("Cedar Mountain ") || o.case.starts_with("Corinth "),
                "{o:?}"
            );
        }
        // Each reading in words, its case and what it changes on hover.
        for (name, case, _) in EDITION_001 {
            let w = reading_words(name).expect("every reading has words");
            assert!(
                texts.iter().any(|t| t == w.label),
                "{name}: {:?} not shown",
                w.label
            );
            assert!(!texts.iter().any(|t| t.contains(name)), "{name} on screen");
            h.get_by_label(w.label).hover();
            h.run();
            h.get_by_label_contains(&format!("{case}: "));
        }
    }
    assert!(has_slug("elephant-twelve-is-one (GBACW 13.15)"));
    assert!(!has_slug("Game-Turn 2, set-up, Player-Turn"));
}
