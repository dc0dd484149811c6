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

/// A leader whose id is an English word is named as printed where a
/// refusal names him: at its start (GBACW 17.52's "early must end the
/// Movement Phase …"), and always for ids no refusal uses as a word
/// (`hill`, `branch`; Corinth's `price`).
#[test]
fn refusals_name_leaders_whose_ids_are_words() {
    let rs = cedar();
    let text = super::refusal_text(
        &rs,
        "early must end the Movement Phase with a combat unit; hill and branch too, not too early",
    );
    assert!(text.starts_with("Early must end"), "{text}");
    assert!(text.ends_with("not too early"), "{text}");
    assert!(
        !text.contains(" hill ") && !text.contains(" branch "),
        "{text}"
    );
    assert_words(&text);
}

/// GBACW 11.34, 11.12, 11.17: a wagon's ammunition loss and its crew
/// leaving read as the table and the rule say them, with printed names.
#[test]
fn case_11_34_wagon_ammunition_loss_and_crew_read_as_words() {
    use crate::gbacw::tables::AmmoLoss;
    let rs = Gbacw::new(&GbacwConfig {
        battle: "corinth".into(),
        ..GbacwConfig::default()
    })
    .expect("Corinth loads");
    let w = id("supply-stanley");
    let lines: Vec<String> = [
        AmmoLoss::Points {
            small_arms: 2,
            artillery: Some(5),
        },
        AmmoLoss::Points {
            small_arms: 4,
            artillery: None,
        },
        AmmoLoss::WagonEliminated,
    ]
    .into_iter()
    .map(|loss| {
        event(
            &rs,
            &GbacwEvent::WagonAmmoLost {
                wagon: w.clone(),
                column: 2,
                die: 6,
                loss,
            },
        )
    })
    .chain([true, false].map(|routed| {
        event(
            &rs,
            &GbacwEvent::WagonCrewLeft {
                wagon: w.clone(),
                routed,
            },
        )
    }))
    .collect();
    for l in &lines {
        assert_words(l);
        assert!(l.contains("Supply Stanley"), "{l}");
    }
    assert!(
        lines[0].contains("2 small-arms and 5 artillery"),
        "{}",
        lines[0]
    );
    assert!(lines[1].contains("all its artillery"), "{}", lines[1]);
    assert!(lines[2].contains("eliminated"), "{}", lines[2]);
    assert!(lines[3].contains("routs") && lines[3].contains("11.12"));
    assert!(lines[4].contains("retreats") && lines[4].contains("11.17"));
}

/// A refusal to the seat that is not asked names the player who is ("the
/// Union player"), never a seat's number: at Cedar Mountain's set-up and
/// in the test battle's first phase.
#[test]
fn refusals_to_the_other_seat_name_the_player_asked() {
    use crate::engine::{ActionContext, Dice};
    use crate::ids::SeatId;
    let test_battle = crate::gbacw::testkit::T::new().rs;
    for rs in [cedar(), test_battle] {
        let s = rs.initial_state();
        let acting = rs.acting_seat(&s).expect("someone acts first");
        let other = SeatId(1 - acting.0.min(1));
        let asked = rs.legal_actions(&s, acting);
        let action = asked.first().expect("the acting seat has actions");
        let ctx = ActionContext {
            seat: other,
            seq: 1,
            by_default: false,
        };
        let e = rs
            .decide(&s, &ctx, action, &mut Dice::none())
            .expect_err("the other seat is refused");
        let side = super::side_name(&rs, rs.side_of(acting));
        assert!(
            e.message.contains(&format!("the {side} player")),
            "{}",
            e.message
        );
        assert!(!e.message.contains("seat"), "{}", e.message);
        assert_words(&super::refusal_text(&rs, &e.message));
    }
}
