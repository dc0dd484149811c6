//! The words read as words: printed names, printed hex numbers, no
//! `Debug` forms (the whole-game check is `tests/tests/gbacw_words.rs`).

use super::{action, event};
use crate::engine::Ruleset;
use crate::gbacw::facing::Facing;
use crate::gbacw::map::HexNumber;
use crate::gbacw::oob::{CounterId, Formation};
use crate::gbacw::ruleset::progress::HexRecord;
use crate::gbacw::ruleset::{Gbacw, GbacwAction, GbacwConfig, GbacwEvent};

fn cedar() -> Gbacw {
    Gbacw::new(&GbacwConfig {
        battle: "cedar_mountain".into(),
        ..GbacwConfig::default()
    })
    .expect("Cedar Mountain loads")
}

/// What no player-facing description may contain.
pub(crate) fn assert_words(text: &str) {
    for bad in ["{", "}", "CounterId", "HexNumber", "Some(", "_"] {
        assert!(!text.contains(bad), "{bad:?} in {text:?}");
    }
}

fn id(s: &str) -> CounterId {
    CounterId(s.into())
}

fn hex(s: &str) -> HexNumber {
    HexNumber::parse(s).unwrap()
}

#[test]
fn set_up_and_arrivals_read_with_printed_names_and_hexes() {
    let rs = cedar();
    let place = action(
        &rs,
        &GbacwAction::PlaceUnit {
            unit: id("1-dc"),
            hex: hex("2111"),
            facing: Facing::from_index(0).unwrap(),
            formation: Formation::Line,
        },
    );
    assert!(place.starts_with("set up 1 DC at 2111 in Line"), "{place}");
    let arrive = action(
        &rs,
        &GbacwAction::Arrive {
            piece: id("15-ala"),
            hex: hex("4032"),
            facing: Facing::from_index(3).unwrap(),
        },
    );
    assert!(arrive.starts_with("15 Ala enters at 4032"), "{arrive}");
    let placed = event(
        &rs,
        &GbacwEvent::LeaderPlaced {
            leader: id("banks"),
            hex: hex("2111"),
        },
    );
    assert_eq!(placed, "Banks set up at 2111");
    let ended = event(&rs, &GbacwEvent::SetUpEnded { next: None });
    assert_eq!(ended, "set-up finished: play begins");
    let record = event(
        &rs,
        &GbacwEvent::VictoryHexesRecorded(HexRecord {
            turn: 1,
            control: vec![(hex("2319"), Some(id("union"))), (hex("1921"), None)],
        }),
    );
    assert!(record.contains("2319 Union"), "{record}");
    assert!(record.contains("27.22"), "{record}");
    for line in [place, arrive, placed, ended, record] {
        assert_words(&line);
    }
}

/// Refusals name counters as printed: `15-ala` reads "15 Ala", `banks`
/// "Banks"; words that are also ids ("a green unit") stay words.
#[test]
fn refusals_name_counters_as_printed() {
    let rs = cedar();
    let text = super::refusal_text(
        &rs,
        "15-ala may not enter 4032 (stacking); banks is too far; a green unit, too early",
    );
    assert_eq!(
        text,
        "15 Ala may not enter 4032 (stacking); Banks is too far; a green unit, too early"
    );
    assert_words(&text);
}
